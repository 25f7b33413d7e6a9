; Definitions and call references in JavaScript (JSX included), in the tags.scm convention:
; `@definition.<kind>` marks the defining node, `@name` its name, `@reference.call` a call.
; The grammar's own tags.scm (tree-sitter-javascript 0.25) is the specification; where this
; file differs is listed in docs/code-graph.md. Only module-level declarations and the
; members of module-level classes are definitions, so every pattern is rooted at
; `program`. The indexer finds the same nodes in one walk of the module's statements
; (`extract/ts.rs`, shared with TypeScript), and a unit test checks that both agree.

(program [
  (function_declaration name: (identifier) @name) @definition.function
  (generator_function_declaration name: (identifier) @name) @definition.function
  (export_statement declaration: [
    (function_declaration name: (identifier) @name)
    (generator_function_declaration name: (identifier) @name)] @definition.function)
])

; `const f = () => …`, `var f = function …`: functions.
(program [
  (lexical_declaration (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (variable_declaration (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (export_statement declaration: (lexical_declaration (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
])

; CommonJS exports of functions: `exports.f = function …`, `module.exports.f = () => …`.
(program (expression_statement (assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function))

; Other module-level variables (a `require` is an import, not a definition).
(program [
  (lexical_declaration (variable_declarator name: (identifier) @name) @definition.const)
  (variable_declaration (variable_declarator name: (identifier) @name) @definition.var)
  (export_statement declaration: (lexical_declaration
    (variable_declarator name: (identifier) @name) @definition.const))
  (export_statement declaration: (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.var))
])

(program [
  (class_declaration name: (identifier) @name) @definition.class
  (export_statement declaration: (class_declaration name: (identifier) @name) @definition.class)
])

; Class members: methods (the constructor too) and fields holding a function.
(program [
  (class_declaration body: (class_body [
    (method_definition name: [(property_identifier) (private_property_identifier)] @name)
    (field_definition
      property: [(property_identifier) (private_property_identifier)] @name
      value: [(arrow_function) (function_expression)])] @definition.method))
  (export_statement declaration: (class_declaration body: (class_body [
    (method_definition name: [(property_identifier) (private_property_identifier)] @name)
    (field_definition
      property: [(property_identifier) (private_property_identifier)] @name
      value: [(arrow_function) (function_expression)])] @definition.method)))
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
