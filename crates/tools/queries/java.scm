; Definitions and call references in Java, in the tags.scm convention: `@definition.<kind>`
; marks the defining node, `@name` its name, `@reference.call` a call. The grammar's own
; tags.scm (tree-sitter-java 0.23) is the specification, with its kinds mapped onto the
; contract's eight and what it leaves out added: records are classes, enums are `type`s,
; annotation types are interfaces, constructors are methods (named after their class).
; Where this file differs from the grammar's is listed in docs/code-graph.md. Types
; declared in a method, a lambda or an anonymous class, and their methods, are not
; definitions (a unit test drops matches outside type bodies). The indexer finds the same
; nodes in one walk of the type declarations and their bodies (`extract/java.rs`), and a
; unit test checks that both agree on the `java-mini` fixture.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.type

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method

; Call sites, found by the body walk; `new T()` calls the class `T` (a class reference
; in the grammar's file).

(method_invocation name: (identifier) @name) @reference.call
(object_creation_expression type: (type_identifier) @name) @reference.call
