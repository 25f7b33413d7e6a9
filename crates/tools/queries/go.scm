; Definitions and call references in Go, in the tags.scm convention:
; `@definition.<kind>` marks the defining node, `@name` its name, `@reference.call` a call.
; Only package-level declarations are definitions; the indexer walks up from each match to
; qualify names (a method's receiver type, an interface method's interface).

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  name: (field_identifier) @name) @definition.method

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

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (selector_expression
    field: (field_identifier) @name)) @reference.call
