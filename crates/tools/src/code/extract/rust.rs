//! Rust: module-level items (and those of inline `mod` blocks) are definitions; the
//! functions of `impl` and `trait` blocks are methods. An `impl` block may sit in any file
//! of the crate, so its methods are recorded with the type as written (`impl Foo`,
//! `impl fmt::Display for crate::Foo`) in [`ImplBlock`] and the linker attaches them to
//! the type it names. Imports are `use` declarations, kept as written (`crate::a::B`,
//! `super::*`); the linker makes them absolute. Each function body is walked once for its
//! calls, typing local variables from annotations, struct literals and call results; calls
//! written inside macro arguments (`assert_eq!(x.len(), 1)`) are read from the macro's
//! tokens, since the grammar does not parse them as expressions.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::OnceLock;

use tree_sitter::{Node, Parser, Tree};

use super::{
    CallTarget, FileFacts, ImplBlock, Import, Path, RawCall, RawSymbol, Recv, STAR, kind_id,
    line_of, named_children, shorten, text, walk_pruned,
};
use crate::code::model::Kind;

/// Generic wrappers whose first type argument is the type whose methods are called
/// (`Box<Parser>`, `Result<Self, Error>` → `Parser`, `Self`).
const WRAPPERS: [&str; 9] = [
    "Box", "Rc", "Arc", "Option", "Result", "RefCell", "Cell", "Mutex", "RwLock",
];

/// Methods whose result has the type of their receiver (or of what a wrapper holds, which
/// the receiver's type already unwraps): `self.clone()`, `m.lock().unwrap()`.
const SAME_TYPE: [&str; 11] = [
    "clone",
    "to_owned",
    "unwrap",
    "expect",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "lock",
    "read",
    "write",
];

/// Types every module sees without a `use`: an `impl` for them is outside the repository.
const PRELUDE: [&str; 5] = ["Box", "Vec", "String", "Option", "Result"];

/// The standard library's crates: a path into them is outside the repository.
const STD_CRATES: [&str; 3] = ["std", "core", "alloc"];

/// Node kinds the body walk tests on every node, by id (no kind-name lookup per node).
struct Kinds {
    identifier: u16,
    scoped_identifier: u16,
    let_declaration: u16,
    closure_parameters: u16,
    call_expression: u16,
    token_tree: u16,
    macro_invocation: u16,
}

fn kinds() -> &'static Kinds {
    static KINDS: OnceLock<Kinds> = OnceLock::new();
    KINDS.get_or_init(|| {
        let l = super::grammar(crate::code::model::Language::Rust);
        let id = |k| kind_id(&l, k);
        Kinds {
            identifier: id("identifier"),
            scoped_identifier: id("scoped_identifier"),
            let_declaration: id("let_declaration"),
            closure_parameters: id("closure_parameters"),
            call_expression: id("call_expression"),
            token_tree: id("token_tree"),
            macro_invocation: id("macro_invocation"),
        }
    })
}

struct Extractor<'s, 'p> {
    src: &'s str,
    /// The file's parser (set to Rust), to read the items a macro's braces hold
    /// ([`Extractor::macro_items`]); `None`: they are left unread.
    parser: Option<&'p mut Parser>,
    /// How many macros deep the items being read are.
    macro_depth: u32,
    facts: FileFacts,
    /// The type parameters of the `impl` or `trait` block being walked, with their first
    /// trait bound (`impl<S: Store> Cache<S>`: `S` → `Store`).
    block_generics: HashMap<String, Vec<Path>>,
    /// Inside a `#[cfg(test)]` module: its items are test code.
    in_test: bool,
}

pub(super) fn extract(tree: &Tree, src: &str, parser: Option<&mut Parser>) -> FileFacts {
    let mut x = Extractor {
        src,
        parser,
        macro_depth: 0,
        facts: FileFacts::default(),
        block_generics: HashMap::new(),
        in_test: false,
    };
    x.items(tree.root_node(), &[]);
    keep_module_reads(&mut x.facts);
    x.facts
}

/// The names a `const` or `static` initializer reads: as a function body's (no locals
/// there), callees skipped.
fn value_reads(value: Node<'_>, src: &str, reads: &mut Vec<(u32, Path)>) {
    let k = kinds();
    let mut skip: HashSet<usize> = HashSet::new();
    walk_pruned(value, &mut |n| {
        if let Some(descend) = read_node(n, src, &mut skip, reads) {
            return descend;
        }
        // A macro's tokens are read already; a closure's names are its own.
        !(n.kind_id() == k.token_tree || n.kind() == "closure_expression")
    });
    reads.dedup();
}

/// What node `n` of a body or an initializer reads, for both walks: a name or a path
/// (`Some`: whether to enter it), a macro's tokens, or a callee marked in `skip` as no
/// read (`None`: the walk goes on with the node).
fn read_node(
    n: Node<'_>,
    src: &str,
    skip: &mut HashSet<usize>,
    reads: &mut Vec<(u32, Path)>,
) -> Option<bool> {
    let k = kinds();
    let id = n.kind_id();
    if id == k.identifier {
        if !skip.contains(&n.id()) {
            reads.push((line_of(n), vec![text(n, src).to_string()]));
        }
        return Some(true);
    }
    if id == k.scoped_identifier {
        if !skip.contains(&n.id()) {
            let p = path_segments(n, src);
            if p.len() <= 4 {
                reads.push((line_of(n), p));
            }
        }
        return Some(false);
    }
    if id == k.call_expression
        && let Some(func) = n.child_by_field_name("function")
    {
        skip.insert(func.id());
    } else if id == k.token_tree {
        token_reads(n, src, reads);
    }
    None
}

/// The names a macro's arguments read: they are tokens, so a name is an identifier and a
/// path is identifiers joined by `::` tokens (`assert!(n < MAX)`, `vec![run::LIMIT]`).
fn token_reads(tree: Node<'_>, src: &str, out: &mut Vec<(u32, Path)>) {
    let k = kinds();
    let mut path: Vec<String> = Vec::new();
    let mut line = 0;
    let mut joined = false;
    let mut flush = |path: &mut Vec<String>, line: u32| {
        if !path.is_empty() && path.len() <= 4 {
            out.push((line, std::mem::take(path)));
        }
        path.clear();
    };
    // Every token, the anonymous `::` included (`walk_pruned` shows named nodes only).
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        if t.kind_id() == k.token_tree {
            stack.extend((0..t.child_count()).rev().filter_map(|i| t.child(i)));
            continue;
        }
        let word = t.kind_id() == k.identifier || matches!(t.kind(), "crate" | "self" | "super");
        if word {
            if !joined || path.is_empty() {
                flush(&mut path, line);
                line = line_of(t);
            }
            path.push(text(t, src).to_string());
            joined = false;
        } else if t.kind() == "::" {
            joined = true;
        } else {
            flush(&mut path, line);
            joined = false;
        }
    }
    flush(&mut path, line);
}

/// Keeps the reads that can name a `const` or `static`: a name this file defines as one
/// or imports (`use crate::parser::USERINFO`), or any path (`parser::USERINFO`,
/// `explore_agent::run::DEFAULT_MAX_TURNS`: another crate of the repository is no
/// import). The rest (locals, functions, types) would resolve to no variable. A glob
/// import keeps every read.
fn keep_module_reads(facts: &mut FileFacts) {
    if facts.imports.iter().any(|i| i.local == "*") {
        return;
    }
    let known: HashSet<String> = facts
        .symbols
        .iter()
        .filter(|s| matches!(s.kind, Kind::Var | Kind::Const))
        .map(|s| s.name.clone())
        .chain(facts.imports.iter().map(|i| i.local.clone()))
        .collect();
    for sym in &mut facts.symbols {
        sym.reads
            .retain(|(_, p)| p.len() > 1 || p.first().is_some_and(|h| known.contains(h)));
    }
}

/// The first line of the `///` doc comment above an item, attributes between them skipped.
/// `before` is the item's preceding siblings (the caller's list: `prev_sibling` costs a
/// scan of the parent's children per call).
fn doc_above(node: Node<'_>, before: &[Node<'_>], src: &str) -> Option<String> {
    let mut first = None;
    let mut next_row = node.start_position().row;
    for (i, p) in before.iter().enumerate().rev() {
        match p.kind() {
            "attribute_item" => {}
            "line_comment" if text(*p, src).starts_with("///") => {
                if p.end_position().row + 1 < next_row {
                    break;
                }
                first = Some(i);
            }
            "block_comment" if text(*p, src).starts_with("/**") => {
                if p.end_position().row + 1 < next_row {
                    break;
                }
                first = Some(i);
                break;
            }
            _ => break,
        }
        next_row = p.start_position().row;
    }
    // A run of `///` lines: the first non-empty line from the top.
    before[first?..]
        .iter()
        .take_while(|c| c.kind().ends_with("comment"))
        .find_map(|c| {
            text(*c, src)
                .trim_start_matches("/**")
                .trim_start_matches("///")
                .trim_end_matches("*/")
                .lines()
                .map(|l| l.trim().trim_start_matches('*').trim())
                .find(|l| !l.is_empty())
                .map(|t| shorten(t, 160))
        })
}

/// How many macros deep [`Extractor::macro_items`] reads items (`cfg_rt! { cfg_net! { … } }`).
const MAX_MACRO_DEPTH: u32 = 4;

impl Extractor<'_, '_> {
    /// The items written inside an item-level macro's braces: `cfg_rt! { pub struct
    /// JoinHandle<T> { … } impl<T> JoinHandle<T> { … } }`. The grammar leaves a macro's
    /// argument as tokens, so a crate that wraps its items in `cfg_*!` macros (tokio,
    /// hyper, mio) would have no definitions, methods or calls there. The tokens between
    /// the delimiters are parsed again as a file's items, with the file's own positions
    /// (tree-sitter's included ranges), and read as the items around them are; a macro
    /// whose tokens do not parse as items without an error (`lazy_static!`'s `static ref`,
    /// a DSL) defines nothing this way, as before.
    fn macro_items(&mut self, item: Node<'_>, module: &[String]) {
        if self.macro_depth >= MAX_MACRO_DEPTH {
            return;
        }
        let Some(tokens) = named_children(item)
            .into_iter()
            .rev()
            .find(|c| c.kind_id() == kinds().token_tree)
        else {
            return;
        };
        let (start, end) = (tokens.start_position(), tokens.end_position());
        // Inside the one-byte delimiters, on the same rows.
        if tokens.end_byte() < tokens.start_byte() + 2 || end.column == 0 {
            return;
        }
        let inner = tree_sitter::Range {
            start_byte: tokens.start_byte() + 1,
            end_byte: tokens.end_byte() - 1,
            start_point: tree_sitter::Point::new(start.row, start.column + 1),
            end_point: tree_sitter::Point::new(end.row, end.column - 1),
        };
        if inner.start_byte >= inner.end_byte {
            return;
        }
        let Some(parser) = self.parser.as_deref_mut() else {
            return;
        };
        let tree = match parser.set_included_ranges(&[inner]) {
            Ok(()) => parser.parse(self.src, None),
            Err(_) => None,
        };
        // Back to whole files for the next one.
        let _ = parser.set_included_ranges(&[]);
        let Some(tree) = tree.filter(|t| !t.root_node().has_error()) else {
            return;
        };
        self.macro_depth += 1;
        self.items(tree.root_node(), module);
        self.macro_depth -= 1;
    }

    /// The items of a file or of an inline module; `module` is the inline module path.
    fn items(&mut self, list: Node<'_>, module: &[String]) {
        let src = self.src;
        let children = named_children(list);
        for (i, &item) in children.iter().enumerate() {
            let before = &children[..i];
            match item.kind() {
                "use_declaration" => {
                    if let Some(arg) = item.child_by_field_name("argument") {
                        self.use_tree(arg, &[]);
                    }
                }
                "mod_item" => {
                    if let (Some(name), Some(body)) = (
                        item.child_by_field_name("name"),
                        item.child_by_field_name("body"),
                    ) && module.len() as u32 <= super::MAX_NESTING
                    {
                        let mut inner = module.to_vec();
                        inner.push(text(name, src).to_string());
                        let was = self.in_test;
                        self.in_test |= before
                            .iter()
                            .rev()
                            .take_while(|p| {
                                p.kind().ends_with("comment") || p.kind() == "attribute_item"
                            })
                            .any(|p| {
                                p.kind() == "attribute_item"
                                    && text(*p, src).split_whitespace().collect::<String>()
                                        == "#[cfg(test)]"
                            });
                        self.items(body, &inner);
                        self.in_test = was;
                    }
                }
                "function_item" => {
                    self.block_generics.clear();
                    if let Some(name) = item.child_by_field_name("name") {
                        let sym =
                            self.symbol(text(name, src), Kind::Function, item, before, module);
                        self.function(sym, item, None);
                    }
                }
                "struct_item" | "union_item" => {
                    if let Some(mut sym) = self.named(item, before, Kind::Struct, module) {
                        if let Some(body) = item.child_by_field_name("body") {
                            for f in named_children(body) {
                                if f.kind() != "field_declaration" {
                                    continue;
                                }
                                if let Some(n) = f.child_by_field_name("name") {
                                    let recv = f
                                        .child_by_field_name("type")
                                        .and_then(|t| value_type(t, src, None))
                                        .map_or(Recv::Opaque, Recv::Typed);
                                    sym.fields.push((text(n, src).to_string(), recv));
                                }
                            }
                        }
                        self.facts.symbols.push(sym);
                    }
                }
                "enum_item" | "type_item" => {
                    if let Some(sym) = self.named(item, before, Kind::Type, module) {
                        self.facts.symbols.push(sym);
                    }
                }
                "const_item" | "static_item" => {
                    let kind = if item.kind() == "const_item" {
                        Kind::Const
                    } else {
                        Kind::Var
                    };
                    if let Some(mut sym) = self.named(item, before, kind, module) {
                        // `const USERINFO: &AsciiSet = &PATH.add(b'#')` reads `PATH`.
                        if let Some(v) = item.child_by_field_name("value") {
                            value_reads(v, src, &mut sym.reads);
                        }
                        self.facts.symbols.push(sym);
                    }
                }
                "trait_item" => self.trait_item(item, before, module),
                "impl_item" => self.impl_item(item, before, module),
                "macro_definition" => self.macro_definition(item, before, module),
                "macro_invocation" => self.macro_items(item, module),
                _ => {}
            }
        }
    }

    fn symbol(
        &self,
        name: &str,
        kind: Kind,
        node: Node<'_>,
        before: &[Node<'_>],
        module: &[String],
    ) -> RawSymbol {
        let mut sym = RawSymbol::new(name.to_string(), kind, node, self.src);
        sym.container = module.to_vec();
        sym.doc = doc_above(node, before, self.src);
        sym.test = self.in_test;
        sym
    }

    fn named(
        &self,
        item: Node<'_>,
        before: &[Node<'_>],
        kind: Kind,
        module: &[String],
    ) -> Option<RawSymbol> {
        let name = item.child_by_field_name("name")?;
        Some(self.symbol(text(name, self.src), kind, item, before, module))
    }

    fn trait_item(&mut self, item: Node<'_>, before: &[Node<'_>], module: &[String]) {
        let src = self.src;
        self.block_generics = generics(item, src);
        let Some(mut sym) = self.named(item, before, Kind::Interface, module) else {
            return;
        };
        if let Some(bounds) = item.child_by_field_name("bounds") {
            for b in named_children(bounds) {
                if let Some(p) = value_type(b, src, None) {
                    sym.bases.push(p);
                }
            }
        }
        let name = sym.name.clone();
        self.facts.symbols.push(sym);
        let mut container = module.to_vec();
        container.push(name.clone());
        if let Some(body) = item.child_by_field_name("body") {
            let children = named_children(body);
            for (i, &f) in children.iter().enumerate() {
                if matches!(f.kind(), "function_item" | "function_signature_item")
                    && let Some(n) = f.child_by_field_name("name")
                {
                    let m = self.symbol(text(n, src), Kind::Method, f, &children[..i], &container);
                    self.function(m, f, Some(&name));
                }
            }
        }
    }

    fn impl_item(&mut self, item: Node<'_>, before: &[Node<'_>], module: &[String]) {
        let src = self.src;
        self.block_generics = generics(item, src);
        let Some(ty_node) = item.child_by_field_name("type") else {
            return;
        };
        let trait_ = item
            .child_by_field_name("trait")
            .and_then(|t| value_type(t, src, None));
        // A type from outside the repository (`&[u8]`, `Vec<u8>`, `Box<T>`): the block
        // itself is the implementor, a symbol named by the type as written.
        let (ty, implementor, type_name) = match self.outside_type(ty_node, item) {
            Some(written) => {
                let sym = self.symbol(&written, Kind::Type, item, before, module);
                self.facts.symbols.push(sym);
                let at = self.facts.symbols.len() as u32 - 1;
                (Vec::new(), Some(at), written)
            }
            None => {
                let Some(ty) = value_type(ty_node, src, None) else {
                    return;
                };
                let name = ty.last().cloned().unwrap_or_default();
                (ty, None, name)
            }
        };
        let mut container = module.to_vec();
        container.push(type_name.clone());
        let mut methods = Vec::new();
        if let Some(body) = item.child_by_field_name("body") {
            let children = named_children(body);
            for (i, &f) in children.iter().enumerate() {
                if f.kind() == "function_item"
                    && let Some(n) = f.child_by_field_name("name")
                {
                    let m = self.symbol(text(n, src), Kind::Method, f, &children[..i], &container);
                    methods.push(self.facts.symbols.len() as u32);
                    self.function(m, f, Some(&type_name));
                }
            }
        }
        self.facts.impls.push(ImplBlock {
            line: line_of(item),
            module: module.to_vec(),
            ty,
            trait_,
            methods,
            implementor,
        });
    }

    /// The type of an `impl` block as the symbol that implements, when it cannot be a type
    /// of the repository: not a path once references are removed (a slice, an array, a
    /// tuple, a primitive, `dyn Trait`), one of the block's type parameters (`&mut T`,
    /// `T` of a blanket impl), a prelude type (`Box`, `Vec`, `String`, `Option`,
    /// `Result`), a path into `std`, `core` or `alloc`, or a name the file imports from
    /// them (`use alloc::collections::VecDeque`). Any other path may name a repository
    /// type, which the linker looks for (`None` here).
    fn outside_type(&self, t: Node<'_>, item: Node<'_>) -> Option<String> {
        let src = self.src;
        let mut base = t;
        for _ in 0..super::MAX_NESTING {
            match base.kind() {
                "reference_type" | "pointer_type" => {
                    base = base.child_by_field_name("type")?;
                }
                _ => break,
            }
        }
        let from_std = |name: &str| {
            PRELUDE.contains(&name)
                || self.facts.imports.iter().any(|i| {
                    i.local == name
                        && STD_CRATES.contains(&i.module.split('.').next().unwrap_or(""))
                })
        };
        let outside = match base.kind() {
            "type_identifier" => {
                let name = text(base, src);
                self.block_generics.contains_key(name) || from_std(name)
            }
            "scoped_type_identifier" | "generic_type" => {
                let p = path_segments(base, src);
                match p.as_slice() {
                    [one] => self.block_generics.contains_key(one) || from_std(one),
                    [first, ..] => STD_CRATES.contains(&first.as_str()),
                    [] => false,
                }
            }
            _ => true,
        };
        if !outside {
            return None;
        }
        // A blanket `impl<T: Display> ToString for T`: named by its parameter's bounds.
        if base == t
            && base.kind() == "type_identifier"
            && let Some(bounded) = param_bounds(item, text(base, src), src)
        {
            return Some(bounded);
        }
        Some(type_text(t, src))
    }

    /// `macro_rules! name { … }`: a function named `name!` whose calls are those written
    /// in its rules' expansions (the grammar leaves them as tokens).
    fn macro_definition(&mut self, item: Node<'_>, before: &[Node<'_>], module: &[String]) {
        let src = self.src;
        let Some(name) = item.child_by_field_name("name") else {
            return;
        };
        let mut sym = self.symbol(
            &format!("{}!", text(name, src)),
            Kind::Function,
            item,
            before,
            module,
        );
        let scope = HashMap::new();
        for rule in named_children(item) {
            if let Some(right) = rule.child_by_field_name("right") {
                macro_calls(right, src, &scope, None, &mut sym.calls, 0);
            }
        }
        self.facts.symbols.push(sym);
    }

    /// `use` trees, flattened into one import per name (`use a::{b, c::d as e}`).
    fn use_tree(&mut self, n: Node<'_>, prefix: &[String]) {
        let src = self.src;
        match n.kind() {
            "scoped_use_list" => {
                let mut p = prefix.to_vec();
                if let Some(path) = n.child_by_field_name("path") {
                    p.extend(path_segments(path, src));
                }
                if let Some(list) = n.child_by_field_name("list") {
                    self.use_tree(list, &p);
                }
            }
            "use_list" => {
                for c in named_children(n) {
                    self.use_tree(c, prefix);
                }
            }
            "use_as_clause" => {
                if let (Some(path), Some(alias)) = (
                    n.child_by_field_name("path"),
                    n.child_by_field_name("alias"),
                ) {
                    let mut p = prefix.to_vec();
                    p.extend(path_segments(path, src));
                    self.import(text(alias, src), p);
                }
            }
            "use_wildcard" => {
                let mut p = prefix.to_vec();
                if let Some(path) = n.named_child(0) {
                    p.extend(path_segments(path, src));
                }
                self.import(STAR, p);
            }
            _ => {
                let mut p = prefix.to_vec();
                p.extend(path_segments(n, src));
                // `use a::b::{self}` binds `b`.
                if p.last().is_some_and(|l| l == "self") {
                    p.pop();
                }
                if let Some(local) = p.last().cloned() {
                    self.import(&local, p);
                }
            }
        }
    }

    fn import(&mut self, local: &str, path: Vec<String>) {
        if path.is_empty() {
            return;
        }
        self.facts.imports.push(Import {
            local: local.to_string(),
            level: 0,
            module: path.join("."),
            name: None,
        });
    }

    /// A function or method: its parameters, result and the calls of its body. `owner` is
    /// the type of an `impl` or `trait` block, which `Self` names.
    fn function(&mut self, mut sym: RawSymbol, f: Node<'_>, owner: Option<&str>) {
        let src = self.src;
        let mut scope: HashMap<String, Recv> = HashMap::new();
        let mut params_of = self.block_generics.clone();
        params_of.extend(generics(f, src));
        // A value of a type parameter has its bound's methods (`s: &S` with `S: Store`);
        // an unbounded one is unknown, not a type outside the repository.
        let generic = |r: Recv| match r {
            Recv::Typed(p) if p.len() == 1 && params_of.contains_key(&p[0]) => {
                match params_of.get(&p[0]).map(Vec::as_slice).unwrap_or_default() {
                    [] => Recv::Unknown,
                    [b] => Recv::Typed(b.clone()),
                    many => Recv::Bounded(many.to_vec()),
                }
            }
            r => r,
        };
        if let Some(params) = f.child_by_field_name("parameters") {
            for p in named_children(params) {
                if p.kind() != "parameter" {
                    continue;
                }
                let ty = p.child_by_field_name("type");
                if let Some(t) = ty {
                    collect_types(t, src, owner, &mut sym.uses);
                }
                if let Some(pat) = p.child_by_field_name("pattern")
                    && pat.kind() == "identifier"
                {
                    let recv = ty
                        .and_then(|t| value_type(t, src, owner))
                        .map_or(Recv::Opaque, Recv::Typed);
                    scope.insert(text(pat, src).to_string(), generic(recv));
                }
            }
        }
        if let Some(rt) = f.child_by_field_name("return_type") {
            collect_types(rt, src, owner, &mut sym.uses);
            if let Some(p) = value_type(rt, src, owner) {
                sym.results.push(p);
            }
        }
        if let Some(body) = f.child_by_field_name("body") {
            let mut calls = Vec::new();
            let k = kinds();
            // What the body reads by name (`USERINFO`, `parser::USERINFO`), callees and
            // the names `let` binds skipped; filtered once the file is known
            // (`keep_module_reads`).
            let mut reads: Vec<(u32, Path)> = Vec::new();
            let mut skip: HashSet<usize> = HashSet::new();
            walk_pruned(body, &mut |n| {
                if let Some(descend) = read_node(n, src, &mut skip, &mut reads) {
                    return descend;
                }
                if n.kind_id() == k.let_declaration
                    && let Some(pat) = n.child_by_field_name("pattern")
                {
                    skip.insert(pat.id());
                }
                match n.kind_id() {
                    id if id == k.let_declaration => {
                        if let Some(pat) = n.child_by_field_name("pattern")
                            && pat.kind() == "identifier"
                        {
                            let recv = match n.child_by_field_name("type") {
                                Some(t) => value_type(t, src, owner)
                                    .map_or(Recv::Opaque, |p| generic(Recv::Typed(p))),
                                None => n
                                    .child_by_field_name("value")
                                    .map_or(Recv::Unknown, |v| expr_recv(v, src, &scope, owner)),
                            };
                            scope.insert(text(pat, src).to_string(), recv);
                        }
                    }
                    id if id == k.closure_parameters => {
                        for c in named_children(n) {
                            if c.kind() == "identifier" {
                                scope.insert(text(c, src).to_string(), Recv::Unknown);
                            }
                            // `move |i: Input| …`: typed as a function's parameter is.
                            if c.kind() == "parameter"
                                && let Some(pat) = c.child_by_field_name("pattern")
                                && pat.kind() == "identifier"
                            {
                                let recv = c
                                    .child_by_field_name("type")
                                    .and_then(|t| value_type(t, src, owner))
                                    .map_or(Recv::Unknown, |p| generic(Recv::Typed(p)));
                                scope.insert(text(pat, src).to_string(), recv);
                            }
                        }
                    }
                    id if id == k.call_expression => {
                        if let Some(t) = n
                            .child_by_field_name("function")
                            .and_then(|func| call_target(func, src, &scope, owner))
                        {
                            calls.push(RawCall {
                                line: line_of(n),
                                target: t,
                            });
                        }
                    }
                    // `name!(…)`: a call of the macro `name!`, if the repository
                    // defines it (`vec!` and `format!` find nothing).
                    id if id == k.macro_invocation => {
                        if let Some(m) = n.child_by_field_name("macro") {
                            let mut path = path_segments(m, src);
                            if let Some(first) = path.first_mut()
                                && first == "$crate"
                            {
                                *first = "crate".to_string();
                            }
                            if let Some(last) = path.last_mut()
                                && !last.starts_with('$')
                            {
                                last.push('!');
                                calls.push(RawCall {
                                    line: line_of(n),
                                    target: CallTarget::Path(path),
                                });
                            }
                        }
                    }
                    id if id == k.token_tree => {
                        macro_calls(n, src, &scope, owner, &mut calls, 0);
                        return false;
                    }
                    _ => {}
                }
                true
            });
            sym.calls = calls;
            reads.retain(|(_, p)| !scope.contains_key(&p[0]));
            reads.dedup();
            sym.reads = reads;
        }
        let header_end = f
            .child_by_field_name("body")
            .map_or(f.end_byte(), |b| b.start_byte());
        sym.signature = super::signature_from(src, f.start_byte(), header_end);
        self.facts.symbols.push(sym);
    }
}

/// The type parameters of a function, `impl` or `trait` (its `<…>` and `where` clause),
/// each with its trait bounds as written, in order (`T: A + B` and `where T: C` give A, B,
/// C).
fn generics(n: Node<'_>, src: &str) -> HashMap<String, Vec<Path>> {
    let mut out: HashMap<String, Vec<Path>> = HashMap::new();
    let bounds = |b: Option<Node<'_>>| -> Vec<Path> {
        b.map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|t| value_type(t, src, None))
            .collect()
    };
    if let Some(tp) = n.child_by_field_name("type_parameters") {
        for p in named_children(tp) {
            if p.kind() == "type_parameter"
                && let Some(name) = p.child_by_field_name("name")
            {
                out.entry(text(name, src).to_string())
                    .or_default()
                    .extend(bounds(p.child_by_field_name("bounds")));
            }
        }
    }
    for c in named_children(n) {
        if c.kind() != "where_clause" {
            continue;
        }
        for w in named_children(c) {
            if let Some(left) = w.child_by_field_name("left")
                && left.kind() == "type_identifier"
            {
                out.entry(text(left, src).to_string())
                    .or_default()
                    .extend(bounds(w.child_by_field_name("bounds")));
            }
        }
    }
    for b in out.values_mut() {
        b.dedup();
    }
    out
}

/// The segments of a path as written: `crate::a::B` → `crate`, `a`, `B`.
fn path_segments(n: Node<'_>, src: &str) -> Vec<String> {
    // Iterative: a path is as long as the source makes it.
    let mut rev = Vec::new();
    let mut cur = Some(n);
    while let Some(c) = cur {
        match c.kind() {
            "scoped_identifier" | "scoped_type_identifier" => {
                if let Some(name) = c.child_by_field_name("name") {
                    rev.push(text(name, src).to_string());
                }
                cur = c.child_by_field_name("path");
            }
            "generic_type" => cur = c.child_by_field_name("type"),
            _ => {
                rev.push(text(c, src).to_string());
                cur = None;
            }
        }
    }
    rev.reverse();
    rev
}

/// A type as written, on one line and without lifetimes: `&'a mut [u8]` → `&mut [u8]`,
/// `std::io::Cursor<T>`.
fn type_text(t: Node<'_>, src: &str) -> String {
    let mut out = String::new();
    let mut chars = text(t, src).chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' {
            // A lifetime, with the space or comma after it.
            while chars
                .next_if(|c| c.is_alphanumeric() || *c == '_')
                .is_some()
            {}
            while chars.next_if(|c| c.is_whitespace() || *c == ',').is_some() {}
        } else if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out.replace("<>", "")
        .replace(", >", ">")
        .replace("< ", "<")
        .trim()
        .to_string()
}

/// `T: Display` for a type parameter with bounds (in its `<…>` or the `where` clause).
fn param_bounds(item: Node<'_>, name: &str, src: &str) -> Option<String> {
    if let Some(tp) = item.child_by_field_name("type_parameters") {
        for p in named_children(tp) {
            if p.kind() == "type_parameter"
                && p.child_by_field_name("name")
                    .is_some_and(|n| text(n, src) == name)
                && p.child_by_field_name("bounds").is_some()
            {
                return Some(type_text(p, src));
            }
        }
    }
    for c in named_children(item) {
        if c.kind() != "where_clause" {
            continue;
        }
        for w in named_children(c) {
            if w.child_by_field_name("left")
                .is_some_and(|l| text(l, src) == name)
            {
                return Some(type_text(w, src));
            }
        }
    }
    None
}

/// Replaces a leading `Self` with the `impl` block's type.
fn with_self(mut p: Path, owner: Option<&str>) -> Path {
    if let (Some(first), Some(owner)) = (p.first_mut(), owner)
        && first == "Self"
    {
        *first = owner.to_string();
    }
    p
}

/// The named type a value of this type has, whose methods a call on it finds: references,
/// `dyn` and `impl` traits and wrappers (`Box<T>`, `Option<T>`, `Result<T, E>`) unwrapped;
/// primitives, tuples, slices and arrays give `None`.
fn value_type(n: Node<'_>, src: &str, owner: Option<&str>) -> Option<Path> {
    value_type_at(n, src, owner, 0)
}

fn value_type_at(n: Node<'_>, src: &str, owner: Option<&str>, depth: u32) -> Option<Path> {
    if depth > super::MAX_NESTING {
        return None;
    }
    match n.kind() {
        "type_identifier" | "scoped_type_identifier" | "identifier" | "scoped_identifier" => {
            Some(with_self(path_segments(n, src), owner))
        }
        "reference_type" | "pointer_type" => {
            value_type_at(n.child_by_field_name("type")?, src, owner, depth + 1)
        }
        "dynamic_type" | "abstract_type" => {
            value_type_at(n.child_by_field_name("trait")?, src, owner, depth + 1)
        }
        "bounded_type" => named_children(n)
            .into_iter()
            .find_map(|c| value_type_at(c, src, owner, depth + 1)),
        "generic_type" => {
            let p = with_self(path_segments(n, src), owner);
            if p.len() == 1 && WRAPPERS.contains(&p[0].as_str()) {
                let args = n.child_by_field_name("type_arguments")?;
                value_type_at(args.named_child(0)?, src, owner, depth + 1)
            } else {
                Some(p)
            }
        }
        _ => None,
    }
}

/// Every named type in a type, in source order (`HashMap<K, Vec<Item>>` → `HashMap`, `K`,
/// `Vec`, `Item`).
fn collect_types(n: Node<'_>, src: &str, owner: Option<&str>, out: &mut Vec<Path>) {
    collect_types_at(n, src, owner, out, 0);
}

fn collect_types_at(n: Node<'_>, src: &str, owner: Option<&str>, out: &mut Vec<Path>, depth: u32) {
    if depth > super::MAX_NESTING {
        return;
    }
    match n.kind() {
        "type_identifier" | "scoped_type_identifier" => {
            let p = with_self(path_segments(n, src), owner);
            if !out.contains(&p) {
                out.push(p);
            }
        }
        _ => {
            for c in named_children(n) {
                collect_types_at(c, src, owner, out, depth + 1);
            }
        }
    }
}

/// What an expression holds, as far as one file tells.
fn expr_recv(e: Node<'_>, src: &str, scope: &HashMap<String, Recv>, owner: Option<&str>) -> Recv {
    expr_recv_at(e, src, scope, owner, 0)
}

fn expr_recv_at(
    e: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    owner: Option<&str>,
    depth: u32,
) -> Recv {
    if depth > super::MAX_NESTING {
        return Recv::Unknown;
    }
    match e.kind() {
        "identifier" => scope.get(text(e, src)).cloned().unwrap_or(Recv::Unknown),
        "self" => Recv::SelfRef,
        "struct_expression" => e
            .child_by_field_name("name")
            .map(|n| match n.kind() {
                "generic_type_with_turbofish" => n
                    .child_by_field_name("type")
                    .map(|t| path_segments(t, src))
                    .unwrap_or_default(),
                _ => path_segments(n, src),
            })
            .filter(|p| !p.is_empty())
            .map_or(Recv::Opaque, |p| Recv::Typed(with_self(p, owner))),
        "call_expression" => {
            let f = e.child_by_field_name("function");
            // `x.clone()`, `x.lock().unwrap()`: the value keeps the receiver's type.
            if let Some(f) = f
                && f.kind() == "field_expression"
                && let (Some(v), Some(name)) = (
                    f.child_by_field_name("value"),
                    f.child_by_field_name("field"),
                )
                && SAME_TYPE.contains(&text(name, src))
            {
                return expr_recv_at(v, src, scope, owner, depth + 1);
            }
            f.and_then(|f| call_target_at(f, src, scope, owner, depth + 1))
                .map_or(Recv::Unknown, |t| Recv::CallResult(Box::new(t)))
        }
        "try_expression"
        | "await_expression"
        | "parenthesized_expression"
        | "reference_expression" => match e.named_children(&mut e.walk()).last() {
            Some(c) => expr_recv_at(c, src, scope, owner, depth + 1),
            None => Recv::Unknown,
        },
        "field_expression" => {
            let (Some(v), Some(f)) = (
                e.child_by_field_name("value"),
                e.child_by_field_name("field"),
            ) else {
                return Recv::Unknown;
            };
            let field = text(f, src).to_string();
            match expr_recv_at(v, src, scope, owner, depth + 1) {
                Recv::Field(b, mut fs) => {
                    fs.push(field);
                    Recv::Field(b, fs)
                }
                Recv::Unknown => Recv::Unknown,
                b => Recv::Field(Box::new(b), vec![field]),
            }
        }
        "string_literal" | "raw_string_literal" | "integer_literal" | "float_literal"
        | "boolean_literal" | "char_literal" | "array_expression" | "tuple_expression"
        | "closure_expression" | "binary_expression" | "macro_invocation" => Recv::Opaque,
        _ => Recv::Unknown,
    }
}

/// What a call's `function` node calls: a path (`f`, `Type::new`, `module::f`,
/// `Self::helper`), or a method on a value (`self.store.get`, `parser.next`).
fn call_target(
    f: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    owner: Option<&str>,
) -> Option<CallTarget> {
    call_target_at(f, src, scope, owner, 0)
}

fn call_target_at(
    f: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    owner: Option<&str>,
    depth: u32,
) -> Option<CallTarget> {
    if depth > super::MAX_NESTING {
        return None;
    }
    match f.kind() {
        "identifier" => {
            let name = text(f, src);
            // A closure or function value held by a local.
            if scope.contains_key(name) {
                return None;
            }
            Some(CallTarget::Path(vec![name.to_string()]))
        }
        "scoped_identifier" => {
            let p = with_self(path_segments(f, src), owner);
            p.iter()
                .all(|s| !s.is_empty() && !s.starts_with('<'))
                .then_some(CallTarget::Path(p))
        }
        "generic_function" => call_target_at(
            f.child_by_field_name("function")?,
            src,
            scope,
            owner,
            depth + 1,
        ),
        "field_expression" => {
            let name = text(f.child_by_field_name("field")?, src).to_string();
            let value = f.child_by_field_name("value")?;
            let (base, fields) = match expr_recv_at(value, src, scope, owner, depth + 1) {
                Recv::Field(b, fs) => (*b, fs),
                r => (r, Vec::new()),
            };
            Some(CallTarget::Member { base, fields, name })
        }
        _ => None,
    }
}

/// Calls written inside a macro's arguments, which the grammar leaves as tokens:
/// `name(`, `a::b(`, `self.name(`, `x.name(` (x a local), `.name(` on anything else.
fn macro_calls(
    tt: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    owner: Option<&str>,
    out: &mut Vec<RawCall>,
    depth: u32,
) {
    if depth > super::MAX_NESTING {
        return;
    }
    let toks: Vec<Node<'_>> = {
        let mut c = tt.walk();
        tt.children(&mut c).collect()
    };
    for (i, t) in toks.iter().enumerate() {
        if t.kind() == "token_tree" {
            macro_calls(*t, src, scope, owner, out, depth + 1);
            if i == 0 || !text(*t, src).starts_with('(') {
                continue;
            }
            let name = toks[i - 1];
            if name.kind() != "identifier" {
                continue;
            }
            // `fn name(…)` in a macro's expansion defines, it does not call.
            if i >= 2 && toks[i - 2].kind() == "fn" {
                continue;
            }
            let name_s = text(name, src).to_string();
            // Walk back over `a::b::` or `recv.`.
            let before = |k: usize| (k < toks.len()).then(|| text(toks[k], src));
            let target = if i >= 2 && before(i - 2) == Some(".") {
                let base = if i >= 3 {
                    match toks[i - 3].kind() {
                        "self" => Recv::SelfRef,
                        "identifier" => {
                            let prev_is_dot = i >= 4 && before(i - 4) == Some(".");
                            if prev_is_dot {
                                Recv::Unknown
                            } else {
                                scope
                                    .get(text(toks[i - 3], src))
                                    .cloned()
                                    .unwrap_or(Recv::Unknown)
                            }
                        }
                        _ => Recv::Unknown,
                    }
                } else {
                    Recv::Unknown
                };
                CallTarget::Member {
                    base,
                    fields: Vec::new(),
                    name: name_s,
                }
            } else {
                let mut path = vec![name_s];
                let mut k = i - 1;
                while k >= 2 && before(k - 1) == Some("::") {
                    let seg = toks[k - 2];
                    if !matches!(seg.kind(), "identifier" | "self" | "super" | "crate") {
                        break;
                    }
                    path.insert(0, text(seg, src).to_string());
                    k -= 2;
                }
                if path.len() == 1 && scope.contains_key(&path[0]) {
                    continue;
                }
                CallTarget::Path(with_self(path, owner))
            };
            out.push(RawCall {
                line: line_of(*t),
                target,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Language, extract};
    use super::*;

    #[test]
    fn items_impls_and_calls() {
        let src = "use crate::a::{B, c::D as E};\nuse super::*;\n\n/// Doc of S.\n#[derive(Debug)]\n\
                   pub struct S { inner: Box<B> }\n\nimpl S {\n    pub fn new() -> Self { S { inner: B::make() } }\n\
                   \x20   fn run(&self) { self.inner.go(); assert_eq!(helper(1), Self::new().x()); }\n}\n\n\
                   impl Tr for S { fn t(&self) {} }\n\nfn helper(x: u8) -> u8 { let s = S::new(); s.run(); x }\n\n\
                   pub trait Tr: E { fn t(&self); fn d(&self) { self.t() } }\n\nmod inner { fn f() {} }\n\
                   const MAX: u8 = 3;\nstatic mut N: u8 = 0;\n";
        let facts = extract(Language::Rust, src.as_bytes()).unwrap();
        let defs: Vec<_> = facts
            .symbols
            .iter()
            .map(|s| (s.container.join("."), s.name.as_str(), s.kind, s.line))
            .collect();
        assert_eq!(
            defs,
            [
                (String::new(), "S", Kind::Struct, 6),
                ("S".to_string(), "new", Kind::Method, 9),
                ("S".to_string(), "run", Kind::Method, 10),
                ("S".to_string(), "t", Kind::Method, 13),
                (String::new(), "helper", Kind::Function, 15),
                (String::new(), "Tr", Kind::Interface, 17),
                ("Tr".to_string(), "t", Kind::Method, 17),
                ("Tr".to_string(), "d", Kind::Method, 17),
                ("inner".to_string(), "f", Kind::Function, 19),
                (String::new(), "MAX", Kind::Const, 20),
                (String::new(), "N", Kind::Var, 21),
            ]
        );
        assert_eq!(facts.symbols[0].doc.as_deref(), Some("Doc of S."));
        assert_eq!(
            facts.symbols[0].fields,
            [("inner".to_string(), Recv::Typed(vec!["B".to_string()]))]
        );
        let imports: Vec<_> = facts
            .imports
            .iter()
            .map(|i| (i.local.as_str(), i.module.as_str()))
            .collect();
        assert_eq!(
            imports,
            [("B", "crate.a.B"), ("E", "crate.a.c.D"), ("*", "super")]
        );
        assert_eq!(facts.impls.len(), 2);
        assert_eq!(facts.impls[1].trait_, Some(vec!["Tr".to_string()]));
        assert_eq!(facts.impls[0].methods, [1, 2]);
        assert_eq!(facts.symbols[1].results, [vec!["S".to_string()]]);
        let run = &facts.symbols[2];
        let p = |s: &[&str]| CallTarget::Path(s.iter().map(|x| x.to_string()).collect());
        assert_eq!(
            run.calls
                .iter()
                .map(|c| c.target.clone())
                .collect::<Vec<_>>(),
            [
                CallTarget::Member {
                    base: Recv::SelfRef,
                    fields: vec!["inner".to_string()],
                    name: "go".to_string()
                },
                // The macro (a call of the repository's `assert_eq!`, if it had one),
                // then the calls in its arguments.
                p(&["assert_eq!"]),
                p(&["helper"]),
                p(&["S", "new"]),
                CallTarget::Member {
                    base: Recv::Unknown,
                    fields: vec![],
                    name: "x".to_string()
                },
            ]
        );
        let helper = &facts.symbols[4];
        assert_eq!(
            helper.calls[1].target,
            CallTarget::Member {
                base: Recv::CallResult(Box::new(p(&["S", "new"]))),
                fields: vec![],
                name: "run".to_string()
            }
        );
        assert_eq!(facts.symbols[5].bases, [vec!["E".to_string()]]);
    }

    #[test]
    fn impls_for_types_from_outside_are_their_own_implementors() {
        let src = "use alloc::collections::VecDeque;\nstruct Local;\n\
                   impl<'a> Buf for &'a mut [core::mem::MaybeUninit<u8>] { fn a(&self) {} }\n\
                   impl<T: AsRef<[u8]>> Buf for std::io::Cursor<T> {}\n\
                   impl Buf for VecDeque<u8> {}\nimpl BufMut for Vec<u8> {}\n\
                   impl<T> Shown for T where T: Display {}\nimpl<'a> Buf for &'a Local {}\n\
                   impl Buf for Other {}\n";
        let facts = extract(Language::Rust, src.as_bytes()).unwrap();
        let blocks: Vec<(Option<&str>, Vec<String>, u32)> = facts
            .impls
            .iter()
            .map(|b| {
                let name = b
                    .implementor
                    .map(|i| facts.symbols[i as usize].name.as_str());
                (name, b.ty.clone(), b.line)
            })
            .collect();
        let ty = |n: &str| vec![n.to_string()];
        assert_eq!(
            blocks,
            [
                (Some("&mut [core::mem::MaybeUninit<u8>]"), vec![], 3),
                (Some("std::io::Cursor<T>"), vec![], 4),
                (Some("VecDeque<u8>"), vec![], 5),
                (Some("Vec<u8>"), vec![], 6),
                (Some("T: Display"), vec![], 7),
                (None, ty("Local"), 8),
                (None, ty("Other"), 9),
            ]
        );
        let a = facts.symbols.iter().find(|s| s.name == "a").unwrap();
        assert_eq!(a.container, ["&mut [core::mem::MaybeUninit<u8>]"]);
        let first = &facts.symbols[facts.impls[0].implementor.unwrap() as usize];
        assert_eq!((first.kind, first.line), (Kind::Type, 3));
    }

    #[test]
    fn items_inside_an_item_level_macro_are_read_at_their_own_lines() {
        let src = "macro_rules! cfg_rt { ($($item:item)*) => { $($item)* } }\n\
                   cfg_rt! {\n    /// A handle.\n    pub struct JoinHandle<T> { raw: T }\n\n\
                   \x20   impl<T> JoinHandle<T> {\n        pub fn abort(&self) { wake(); }\n    }\n\
                   \x20   cfg_net! {\n        fn inner() {}\n    }\n}\n\
                   lazy_static! {\n    static ref TABLE: u8 = 1;\n}\n\
                   html! {\n    <div class=\"x\">{ fn_like() }</div>\n}\n\
                   fn wake() {}\n";
        let facts = extract(Language::Rust, src.as_bytes()).unwrap();
        let at = |name: &str| {
            facts
                .symbols
                .iter()
                .find(|s| s.name == name)
                .map(|s| (s.kind, s.line, s.container.clone(), s.doc.clone()))
        };
        assert_eq!(
            at("JoinHandle"),
            Some((Kind::Struct, 4, vec![], Some("A handle.".to_string())))
        );
        assert_eq!(
            at("abort"),
            Some((Kind::Method, 7, vec!["JoinHandle".to_string()], None))
        );
        assert_eq!(at("inner"), Some((Kind::Function, 10, vec![], None)));
        let abort = facts.symbols.iter().find(|s| s.name == "abort").unwrap();
        assert_eq!(
            abort.calls.iter().map(|c| c.line).collect::<Vec<_>>(),
            [7],
            "the call inside the macro's method is read"
        );
        // lazy_static's `static ref` is a static the grammar reads; tokens that do not
        // parse as items define nothing.
        assert_eq!(at("TABLE").map(|t| (t.0, t.1)), Some((Kind::Var, 14)));
        assert_eq!(facts.symbols.len(), 6, "{:?}", facts.symbols);
        assert_eq!(at("wake").map(|w| w.1), Some(19));
    }

    #[test]
    fn macros_are_functions_named_with_their_bang() {
        let src = "macro_rules! get {\n    ($t:ident) => {{ check($t.len()); }};\n\
                   () => { fn remaining(&self) -> usize { 0 } };\n}\n\
                   fn f(x: &[u8]) { get!(x); vec![1]; $crate::other!(); }\n";
        let facts = extract(Language::Rust, src.as_bytes()).unwrap();
        let m = &facts.symbols[0];
        assert_eq!(
            (m.name.as_str(), m.kind, m.line),
            ("get!", Kind::Function, 1)
        );
        // `fn remaining(` in an expansion defines a method, it calls nothing.
        let p = |s: &[&str]| CallTarget::Path(s.iter().map(|x| x.to_string()).collect());
        let targets = |s: &RawSymbol| -> Vec<(u32, CallTarget)> {
            s.calls.iter().map(|c| (c.line, c.target.clone())).collect()
        };
        let len = CallTarget::Member {
            base: Recv::Unknown,
            fields: vec![],
            name: "len".to_string(),
        };
        assert_eq!(targets(m), [(2, len), (2, p(&["check"]))]);
        assert_eq!(
            targets(&facts.symbols[1]),
            [
                (5, p(&["get!"])),
                (5, p(&["vec!"])),
                (5, p(&["crate", "other!"]))
            ]
        );
    }

    #[test]
    fn walk_kinds_exist_in_the_grammar() {
        let k = kinds();
        for id in [
            k.let_declaration,
            k.closure_parameters,
            k.call_expression,
            k.token_tree,
            k.macro_invocation,
        ] {
            assert_ne!(id, 0);
        }
    }

    #[test]
    fn cfg_test_modules_are_test_code() {
        let src = "fn a() {}\n#[cfg(test)]\nmod tests {\n    fn t() {}\n    impl S { fn m() {} }\n}\n\
                   mod other { fn o() {} }\n";
        let facts = extract(Language::Rust, src.as_bytes()).unwrap();
        let tests: Vec<_> = facts
            .symbols
            .iter()
            .map(|s| (s.name.as_str(), s.test))
            .collect();
        assert_eq!(
            tests,
            [("a", false), ("t", true), ("m", true), ("o", false)]
        );
    }

    #[test]
    fn values_of_type_parameters_have_their_bounds_methods() {
        let src = "fn f<S: Store, U>(s: &S, u: U) { s.get(); u.put(); }\n\
                   fn g<W>(w: W) where W: Writer { w.write(); }\n\
                   impl<C: Clock> Timer<C> { fn tick(&self, c: C) { c.now(); } }\n";
        let facts = extract(Language::Rust, src.as_bytes()).unwrap();
        let bases: Vec<Recv> = facts
            .symbols
            .iter()
            .flat_map(|s| s.calls.iter())
            .map(|c| match &c.target {
                CallTarget::Member { base, .. } => base.clone(),
                CallTarget::Path(_) => Recv::Opaque,
            })
            .collect();
        let t = |n: &str| Recv::Typed(vec![n.to_string()]);
        assert_eq!(bases, [t("Store"), Recv::Unknown, t("Writer"), t("Clock")]);
    }

    /// A value of a type parameter with several bounds keeps them all (a method is the
    /// one of whichever bound declares it), whether the bounds are in `<…>`, a `where`
    /// clause or both; a closure's typed parameter and a typed `let` are read the same way.
    #[test]
    fn values_with_several_bounds_keep_every_bound() {
        let src = "fn f<I: Take + Compare<T>, T>(i: I) { i.compare(); }\n\
                   fn g<I>(t: T) -> impl Fn(I) where I: Take, I: Compare<T> { move |i: I| { (i).compare() } }\n\
                   fn h<W: Writer>() { let w: W = make(); w.write(); }\n";
        let facts = extract(Language::Rust, src.as_bytes()).unwrap();
        let bases: Vec<Recv> = facts
            .symbols
            .iter()
            .flat_map(|s| s.calls.iter())
            .filter_map(|c| match &c.target {
                CallTarget::Member { base, .. } => Some(base.clone()),
                CallTarget::Path(_) => None,
            })
            .collect();
        let both = Recv::Bounded(vec![vec!["Take".to_string()], vec!["Compare".to_string()]]);
        assert_eq!(
            bases,
            [both.clone(), both, Recv::Typed(vec!["Writer".to_string()])]
        );
    }

    /// Deep nesting (long field chains, paths, generics, macro arguments, inline modules)
    /// is bounded by what the parser accepts, and extraction does not overflow on it.
    #[test]
    fn deep_nesting_does_not_overflow() {
        let n = 3000;
        let mut src = String::from("fn f() { x");
        src.push_str(&".y".repeat(n));
        src.push_str(".z(); a");
        src.push_str(&"::b".repeat(n));
        src.push_str("(); m!(");
        src.push_str(&"(".repeat(n));
        src.push_str(&")".repeat(n));
        src.push_str("); let v: ");
        src.push_str(&"Box<".repeat(n));
        src.push('T');
        src.push_str(&">".repeat(n));
        src.push_str(" = g(); }\n");
        src.push_str(&"mod m { ".repeat(200));
        src.push_str("fn inner() {}");
        src.push_str(&" }".repeat(200));
        let facts = extract(Language::Rust, src.as_bytes()).unwrap();
        assert_eq!(facts.symbols[0].name, "f");
        // Modules deeper than `MAX_NESTING` are not walked.
        let names: Vec<&str> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["f"]);
    }

    #[test]
    fn broken_input_keeps_what_parsed() {
        let facts = extract(Language::Rust, b"fn ok() {}\nimpl { fn (\nstruct 'a").unwrap();
        assert!(facts.had_errors);
        assert_eq!(facts.symbols[0].name, "ok");
    }
}
