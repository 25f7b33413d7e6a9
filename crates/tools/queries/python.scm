; Definitions and call references in Python, in the tags.scm convention:
; `@definition.<kind>` marks the defining node, `@name` its name, `@reference.call` a call.
; Classes and functions match at any depth: the indexer walks up from each match to decide
; whether a function is a method (its nearest scope is a class body), to qualify nested
; classes (`Settings.Config`), and to drop definitions local to a function. The indexer
; runs the definition patterns with a maximum start depth (see `PYTHON_MAX_START_DEPTH`).

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(module
  (expression_statement
    (assignment
      left: (identifier) @name) @definition.var))

; Call sites. The indexer finds the same nodes in the walk that types a function's local
; variables, one pass instead of two; these patterns say which calls count.

(call
  function: (identifier) @name) @reference.call

(call
  function: (attribute
    attribute: (identifier) @name)) @reference.call
