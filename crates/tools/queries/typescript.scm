; Definitions and call references in TypeScript and TSX, in the tags.scm convention:
; `@definition.<kind>` marks the defining node, `@name` its name, `@reference.call` a call.
; The grammar's own tags.scm (tree-sitter-typescript 0.23, which adds signatures, abstract
; classes, interfaces and modules to the JavaScript one) is the specification; where this
; file differs is listed in docs/code-graph.md. Only module-level declarations (exported,
; `declare`d or neither) and the members of module-level classes and interfaces are
; definitions, so every pattern is rooted at `program`. The indexer finds the same nodes
; in one walk of the module's statements (`extract/ts.rs`), and a unit test checks that
; both agree on the fixtures.

(program [
  (function_declaration name: (identifier) @name) @definition.function
  (generator_function_declaration name: (identifier) @name) @definition.function
  (function_signature name: (identifier) @name) @definition.function
  (export_statement declaration: [
    (function_declaration name: (identifier) @name)
    (generator_function_declaration name: (identifier) @name)
    (function_signature name: (identifier) @name)] @definition.function)
  (ambient_declaration (function_signature name: (identifier) @name) @definition.function)
  (export_statement declaration: (ambient_declaration
    (function_signature name: (identifier) @name) @definition.function))
])

; `const f = () => …` and `const f = function …` are functions.
(program [
  (lexical_declaration (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (export_statement declaration: (lexical_declaration (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
])

; Other module-level `const`s, `let`s and `var`s (a `require` is an import, not a definition).
(program [
  (lexical_declaration (variable_declarator name: (identifier) @name) @definition.const)
  (variable_declaration (variable_declarator name: (identifier) @name) @definition.var)
  (export_statement declaration: (lexical_declaration
    (variable_declarator name: (identifier) @name) @definition.const))
  (export_statement declaration: (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.var))
])

(program [
  (class_declaration name: (type_identifier) @name) @definition.class
  (abstract_class_declaration name: (type_identifier) @name) @definition.class
  (export_statement declaration: [
    (class_declaration name: (type_identifier) @name)
    (abstract_class_declaration name: (type_identifier) @name)] @definition.class)
  (ambient_declaration (class_declaration name: (type_identifier) @name) @definition.class)
])

; Class members: methods (the constructor too), abstract methods, overload signatures, and
; fields holding a function.
(program [
  (class_declaration body: (class_body [
    (method_definition name: [(property_identifier) (private_property_identifier)] @name)
    (method_signature name: [(property_identifier) (private_property_identifier)] @name)
    (abstract_method_signature name: (property_identifier) @name)
    (public_field_definition
      name: [(property_identifier) (private_property_identifier)] @name
      value: [(arrow_function) (function_expression)])] @definition.method))
  (abstract_class_declaration body: (class_body [
    (method_definition name: [(property_identifier) (private_property_identifier)] @name)
    (method_signature name: [(property_identifier) (private_property_identifier)] @name)
    (abstract_method_signature name: (property_identifier) @name)
    (public_field_definition
      name: [(property_identifier) (private_property_identifier)] @name
      value: [(arrow_function) (function_expression)])] @definition.method))
  (export_statement declaration: [
    (class_declaration body: (class_body [
      (method_definition name: [(property_identifier) (private_property_identifier)] @name)
      (method_signature name: [(property_identifier) (private_property_identifier)] @name)
      (abstract_method_signature name: (property_identifier) @name)
      (public_field_definition
        name: [(property_identifier) (private_property_identifier)] @name
        value: [(arrow_function) (function_expression)])] @definition.method))
    (abstract_class_declaration body: (class_body [
      (method_definition name: [(property_identifier) (private_property_identifier)] @name)
      (method_signature name: [(property_identifier) (private_property_identifier)] @name)
      (abstract_method_signature name: (property_identifier) @name)
      (public_field_definition
        name: [(property_identifier) (private_property_identifier)] @name
        value: [(arrow_function) (function_expression)])] @definition.method))])
])

(program [
  (interface_declaration name: (type_identifier) @name) @definition.interface
  (export_statement declaration: (interface_declaration name: (type_identifier) @name) @definition.interface)
])

; Interface methods, and properties typed as functions (`onSave: (x: T) => void`).
(program [
  (interface_declaration body: (interface_body [
    (method_signature name: (property_identifier) @name)
    (property_signature name: (property_identifier) @name
      type: (type_annotation (function_type)))] @definition.method))
  (export_statement declaration: (interface_declaration body: (interface_body [
    (method_signature name: (property_identifier) @name)
    (property_signature name: (property_identifier) @name
      type: (type_annotation (function_type)))] @definition.method)))
])

; Type aliases and enums are types.
(program [
  (type_alias_declaration name: (type_identifier) @name) @definition.type
  (enum_declaration name: (identifier) @name) @definition.type
  (export_statement declaration: [
    (type_alias_declaration name: (type_identifier) @name)
    (enum_declaration name: (identifier) @name)] @definition.type)
])

; Call sites. The indexer finds the same nodes in the walk that types a function's local
; variables; these patterns say which calls count. `new T()` counts as a call of the class.

(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (member_expression
    property: (property_identifier) @name)) @reference.call

(new_expression
  constructor: (identifier) @name) @reference.call
