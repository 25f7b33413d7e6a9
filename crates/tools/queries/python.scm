; Definitions and call references in Python, in the tags.scm convention:
; `@definition.<kind>` marks the defining node, `@name` its name, `@reference.call` a call.
; Classes and functions match at any depth: a function is a method when its nearest scope
; is a class body, nested classes are qualified (`Settings.Config`), and definitions local
; to a function are dropped. The indexer finds the same nodes in one walk of module and
; class bodies, at most `PYTHON_MAX_START_DEPTH` deep (cheaper than running the query;
; `extract/python.rs`), and a unit test checks that both agree on the fixtures.

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
