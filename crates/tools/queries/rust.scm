; Definitions and call references in Rust, in the tags.scm convention: `@definition.<kind>`
; marks the defining node, `@name` its name, `@reference.call` a call. The grammar's own
; tags.scm (tree-sitter-rust 0.24) is the specification, with its kinds mapped onto the
; contract's eight: a struct or union is a `struct`, an enum or type alias a `type`, a
; trait an `interface`, a function of an `impl` or `trait` block a `method`, any other
; function a `function`; module-level `const` and `static` items are `const` and `var`.
; Where this file differs from the grammar's is listed in docs/code-graph.md. Items local
; to a function body are not definitions (a unit test drops matches under a
; `function_item`). The indexer finds the same nodes in one walk of the file's items and
; of inline `mod` blocks (`extract/rust.rs`), and a unit test checks that both agree on
; the `rs-mini` fixture.

(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.type
(type_item name: (type_identifier) @name) @definition.type
(trait_item name: (type_identifier) @name) @definition.interface

(impl_item body: (declaration_list
  (function_item name: (identifier) @name) @definition.method))
(trait_item body: (declaration_list [
  (function_item name: (identifier) @name)
  (function_signature_item name: (identifier) @name)] @definition.method))

(source_file (function_item name: (identifier) @name) @definition.function)
(mod_item body: (declaration_list
  (function_item name: (identifier) @name) @definition.function))

; `macro_rules!` macros are functions (the indexer names them `name!`), so that the calls
; written in their expansions have a caller.
(source_file (macro_definition name: (identifier) @name) @definition.function)
(mod_item body: (declaration_list
  (macro_definition name: (identifier) @name) @definition.function))

(source_file (const_item name: (identifier) @name) @definition.const)
(mod_item body: (declaration_list (const_item name: (identifier) @name) @definition.const))
(source_file (static_item name: (identifier) @name) @definition.var)
(mod_item body: (declaration_list (static_item name: (identifier) @name) @definition.var))

; Call sites. The indexer finds the same nodes in the walk that types a function's local
; variables, one pass instead of two; these patterns say which calls count. A macro
; invocation is a call of the repository's `macro_rules!` of that name, if there is one,
; and the calls written in its arguments are calls too.

(call_expression function: (identifier) @name) @reference.call
(macro_invocation macro: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(call_expression function: (scoped_identifier name: (identifier) @name)) @reference.call
