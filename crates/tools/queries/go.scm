; Definitions and call references in Go, in the tags.scm convention:
; `@definition.<kind>` marks the defining node, `@name` its name, `@reference.call` a call.
; Only package-level declarations are definitions, so every definition pattern is rooted
; at `source_file`. The indexer finds the same nodes with a walk of the top-level
; declarations (cheaper than running the query; `extract/go.rs`), and a unit test checks
; that both agree on the fixtures.

(source_file
  (function_declaration
    name: (identifier) @name) @definition.function)

(source_file
  (method_declaration
    name: (field_identifier) @name) @definition.method)

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (struct_type)) @definition.struct))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (interface_type)) @definition.interface))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name) @definition.type))

(source_file
  (type_declaration
    (type_alias
      name: (type_identifier) @name) @definition.type))

(source_file
  (type_declaration
    (type_spec
      type: (interface_type
        (method_elem
          name: (field_identifier) @name) @definition.method))))

(source_file
  (const_declaration
    (const_spec
      name: (identifier) @name) @definition.const))

(source_file
  (var_declaration
    (var_spec
      name: (identifier) @name) @definition.var))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec
        name: (identifier) @name) @definition.var)))

; Call sites. The indexer finds the same nodes in the walk that types a function's local
; variables, one pass instead of two; these patterns say which calls count.

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (selector_expression
    field: (field_identifier) @name)) @reference.call
