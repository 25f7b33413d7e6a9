//! TypeScript (TSX too) and JavaScript: one extractor for the three grammars, which share
//! their node kinds (the TypeScript grammar extends the JavaScript one). Module-level
//! declarations (exported or not, `declare`d or not) are definitions; class and interface
//! members are methods; `const f = () => …` is a function. Imports are ES module bindings,
//! re-exports (`export … from`) and CommonJS `require`; each function body is walked once
//! for its calls, typing local variables from annotations, `new T()`, `x as T` and call
//! results, and `this.x = …` assignments as fields of the class.

use foldhash::{HashMap, HashMapExt};

use tree_sitter::{Node, Tree};

use super::{
    CallTarget, FileFacts, Import, Path, RawCall, RawSymbol, Recv, doc_comment_above, line_of,
    named_children, text, walk_pruned,
};
use crate::code::model::Kind;

/// Generic wrappers whose type argument is the type that matters (`Promise<User>` → `User`).
const WRAPPERS: [&str; 8] = [
    "Promise",
    "Array",
    "ReadonlyArray",
    "Partial",
    "Readonly",
    "Required",
    "Set",
    "Observable",
];

/// Globals of the runtime: a call on them (`console.log`, `Math.max`) is outside the
/// repository, never a name match.
const GLOBALS: [&str; 22] = [
    "console",
    "Math",
    "JSON",
    "Object",
    "Array",
    "Promise",
    "process",
    "window",
    "document",
    "Number",
    "String",
    "Reflect",
    "Symbol",
    "Date",
    "Buffer",
    "Error",
    "Map",
    "Set",
    "globalThis",
    "module",
    "exports",
    "require",
];

/// The name CommonJS and ES default exports are recorded under.
pub(crate) const DEFAULT_EXPORT: &str = "default";

/// What a whole `require('m')` binds (`const Base = require('./base-cmd.js')`): the
/// module's `module.exports`, which is its default export when it assigns one
/// (`module.exports = BaseCommand`: a class `extends Base` then names), else the module
/// itself (`exports.f = …`: `m.f` is its member). Not an identifier, so no export is
/// named so.
pub(crate) const COMMONJS_EXPORTS: &str = "module.exports";

/// The module specifier of the file itself (its own `export default X`).
pub(crate) const SELF_MODULE: &str = "";

/// The local name of an `export * from './m'` re-export.
pub(crate) const STAR: &str = "*";

struct Extractor<'s> {
    src: &'s str,
    facts: FileFacts,
    /// Index of each class or interface symbol by name.
    types: HashMap<String, usize>,
    /// `this.x = …` and constructor parameter properties: (class, field, what it holds).
    pending_fields: Vec<(String, String, Recv)>,
    /// Indices of the symbols declared by a signature without a body (overloads,
    /// interface methods, `declare function`).
    signatures: std::collections::HashSet<usize>,
}

pub(super) fn extract(tree: &Tree, src: &str) -> FileFacts {
    let mut x = Extractor {
        src,
        facts: FileFacts::default(),
        types: HashMap::new(),
        pending_fields: Vec::new(),
        signatures: std::collections::HashSet::new(),
    };
    for st in named_children(tree.root_node()) {
        x.statement(st, st);
    }
    let Extractor {
        mut facts,
        types,
        pending_fields,
        signatures,
        ..
    } = x;
    super::apply_fields(&mut facts.symbols, &types, pending_fields);
    // Overloads are one definition: the implementation, or the first signature when
    // there is none (an interface, a `declare`).
    if !signatures.is_empty() {
        let key = |s: &RawSymbol| (s.container.join("."), s.name.clone());
        let implemented: std::collections::HashSet<(String, String)> = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(i, s)| s.kind.is_callable() && !signatures.contains(i))
            .map(|(_, s)| key(s))
            .collect();
        let mut seen = std::collections::HashSet::new();
        let mut i = 0;
        facts.symbols.retain(|s| {
            let is_signature = signatures.contains(&i);
            i += 1;
            !is_signature || (!implemented.contains(&key(s)) && seen.insert(key(s)))
        });
    }
    // Only a read of a module-level variable or constant of this file, or of an import
    // (`operators`, `codegen.operators`), can name one; the link need not try the rest.
    let known: foldhash::HashSet<String> = facts
        .symbols
        .iter()
        .filter(|s| s.container.is_empty() && matches!(s.kind, Kind::Var | Kind::Const))
        .map(|s| s.name.clone())
        .chain(facts.imports.iter().map(|i| i.local.clone()))
        .collect();
    for sym in &mut facts.symbols {
        sym.reads
            .retain(|(_, p)| p.first().is_some_and(|h| known.contains(h)));
    }
    facts
}

/// `src` with a `;` written before each generic call or construct signature that starts a
/// line of an interface or object type after a member with no separator, or `None` if
/// there is none:
///
/// ```text
/// interface IActionFactory {
///     <T>(fn: T): T
///     <T>(name: string, fn: T): T     // parsed as `T<T>(…)`: the rest of the file is lost
/// }
/// ```
///
/// TypeScript reads the newline as the separator; tree-sitter-typescript 0.23 reads `T <T
/// …>` as type arguments and gives up on the whole file (mobx's `api/action.ts` kept none
/// of its definitions). The `;` replaces the indentation's last character, so every line
/// and column before it stays where it was. The extractor parses the file again with it
/// only when the first parse had errors, and keeps that parse only when it has fewer.
pub(super) fn separate_call_signatures(src: &str) -> Option<String> {
    let mut out = String::with_capacity(src.len());
    let mut prev_code = "";
    let mut changed = false;
    for line in src.split_inclusive('\n') {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        let ends_member = prev_code
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | ')' | ']' | '>' | '}'))
            && !prev_code.ends_with("=>");
        let last_space = line[..indent].char_indices().last();
        if let Some((at, c)) = last_space
            && body.starts_with('<')
            && ends_member
        {
            out.push_str(&line[..at]);
            // As many bytes as the character it replaces.
            out.push_str(&";".repeat(c.len_utf8()));
            out.push_str(body);
            changed = true;
        } else {
            out.push_str(line);
        }
        let code = body.trim_end();
        if !code.is_empty() && !code.starts_with("//") && !code.starts_with(['*', '/']) {
            prev_code = code;
        }
    }
    changed.then_some(out)
}

/// The name of a declaration node (`name` field), if it is a plain identifier.
fn name_of<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    let n = node.child_by_field_name("name")?;
    matches!(
        n.kind(),
        "identifier" | "type_identifier" | "property_identifier" | "private_property_identifier"
    )
    .then(|| text(n, src))
}

impl Extractor<'_> {
    /// One module-level statement; `outer` is the node whose preceding comment documents it
    /// (the `export` statement around a declaration).
    fn statement(&mut self, st: Node<'_>, outer: Node<'_>) {
        let src = self.src;
        match st.kind() {
            "import_statement" => self.import(st),
            "export_statement" => self.export(st),
            "ambient_declaration" => {
                for c in named_children(st) {
                    self.statement(c, outer);
                }
            }
            "function_declaration" | "generator_function_declaration" | "function_signature" => {
                if let Some(name) = name_of(st, src) {
                    self.function(name.to_string(), Kind::Function, Vec::new(), st, st, outer);
                }
            }
            "class_declaration" | "abstract_class_declaration" => self.class(st, outer),
            "interface_declaration" => self.interface(st, outer),
            "type_alias_declaration" | "enum_declaration" => {
                if let Some(sym) = type_symbol(st, outer, Kind::Type, src) {
                    self.push_type(sym);
                }
            }
            "lexical_declaration" | "variable_declaration" => self.variables(st, outer),
            "expression_statement" => {
                if let Some(e) = st.named_child(0) {
                    self.commonjs(e, outer);
                }
            }
            _ => {}
        }
    }

    fn push_type(&mut self, sym: RawSymbol) {
        self.types
            .insert(sym.name.clone(), self.facts.symbols.len());
        self.facts.symbols.push(sym);
    }

    fn import(&mut self, st: Node<'_>) {
        let src = self.src;
        let Some(module) = st
            .child_by_field_name("source")
            .map(|s| string_value(s, src))
        else {
            return;
        };
        for clause in named_children(st) {
            if clause.kind() != "import_clause" {
                continue;
            }
            for c in named_children(clause) {
                match c.kind() {
                    "identifier" => self.bind(text(c, src), &module, Some(DEFAULT_EXPORT)),
                    "namespace_import" => {
                        if let Some(id) = named_children(c)
                            .into_iter()
                            .find(|i| i.kind() == "identifier")
                        {
                            self.bind(text(id, src), &module, None);
                        }
                    }
                    "named_imports" => {
                        for spec in named_children(c) {
                            if spec.kind() != "import_specifier" {
                                continue;
                            }
                            let Some(name) = spec.child_by_field_name("name") else {
                                continue;
                            };
                            let local = spec.child_by_field_name("alias").unwrap_or(name);
                            self.bind(text(local, src), &module, Some(&string_value(name, src)));
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn bind(&mut self, local: &str, module: &str, name: Option<&str>) {
        self.facts.imports.push(Import {
            local: local.to_string(),
            level: 0,
            module: module.to_string(),
            name: name.map(str::to_string),
        });
    }

    fn export(&mut self, st: Node<'_>) {
        let src = self.src;
        if let Some(source) = st.child_by_field_name("source") {
            // `export { a as b } from './m'`, `export * from './m'`, `export * as ns from`.
            let module = string_value(source, src);
            let mut named = false;
            for c in named_children(st) {
                match c.kind() {
                    "export_clause" => {
                        named = true;
                        for spec in named_children(c) {
                            let Some(name) = spec.child_by_field_name("name") else {
                                continue;
                            };
                            let local = spec.child_by_field_name("alias").unwrap_or(name);
                            self.bind(text(local, src), &module, Some(&string_value(name, src)));
                        }
                    }
                    "namespace_export" => {
                        named = true;
                        if let Some(id) = c.named_child(0) {
                            self.bind(&string_value(id, src), &module, None);
                        }
                    }
                    _ => {}
                }
            }
            if !named {
                self.bind(STAR, &module, None);
            }
            return;
        }
        let is_default = (0..st.child_count())
            .filter_map(|i| st.child(i))
            .any(|c| c.kind() == "default");
        if let Some(decl) = st.child_by_field_name("declaration") {
            self.statement(decl, st);
            if is_default && let Some(name) = name_of(decl, src) {
                self.bind(DEFAULT_EXPORT, SELF_MODULE, Some(name));
            }
        } else if let Some(value) = st.child_by_field_name("value") {
            match value.kind() {
                "identifier" if is_default => {
                    self.bind(DEFAULT_EXPORT, SELF_MODULE, Some(text(value, src)));
                }
                "class" | "function_expression" | "function" => {
                    if let Some(name) = name_of(value, src) {
                        // `export default class Foo {}` parsed as an expression.
                        if value.kind() == "class" {
                            self.class(value, st);
                        } else {
                            self.function(
                                name.to_string(),
                                Kind::Function,
                                Vec::new(),
                                value,
                                value,
                                st,
                            );
                        }
                        self.bind(DEFAULT_EXPORT, SELF_MODULE, Some(name));
                    }
                }
                _ => {}
            }
        }
        // `export { a, b as c }` (no source): local names, already defined here.
    }

    /// CommonJS: `module.exports = X`, `exports.f = function …`, `module.exports.f = …`.
    fn commonjs(&mut self, e: Node<'_>, outer: Node<'_>) {
        let src = self.src;
        if e.kind() != "assignment_expression" {
            return;
        }
        let (Some(left), Some(right)) = (
            e.child_by_field_name("left"),
            e.child_by_field_name("right"),
        ) else {
            return;
        };
        let Some(path) = member_path(left, src) else {
            return;
        };
        let parts: Vec<&str> = path.iter().map(String::as_str).collect();
        let exported = match parts.as_slice() {
            ["module", "exports"] => None,
            ["exports", name] | ["module", "exports", name] => Some(name.to_string()),
            _ => return,
        };
        let is_fn = matches!(
            right.kind(),
            "function_expression" | "arrow_function" | "function" | "generator_function"
        );
        match (exported, right.kind()) {
            (None, "identifier") => self.bind(DEFAULT_EXPORT, SELF_MODULE, Some(text(right, src))),
            (None, "class") => {
                if let Some(name) = name_of(right, src) {
                    self.class(right, outer);
                    self.bind(DEFAULT_EXPORT, SELF_MODULE, Some(name));
                }
            }
            // A mixin: `module.exports = cls => class Reifier extends cls { … }` (npm's
            // arborist builds its Arborist class of a dozen so). The class is the
            // module's code; its base is the parameter, which names nothing.
            (None, "arrow_function") => {
                if let Some(body) = right.child_by_field_name("body")
                    && body.kind() == "class"
                    && let Some(name) = name_of(body, src)
                {
                    self.class(body, outer);
                    self.bind(DEFAULT_EXPORT, SELF_MODULE, Some(name));
                }
            }
            (Some(name), _) if is_fn => {
                self.function(name, Kind::Function, Vec::new(), e, right, outer);
            }
            _ => {}
        }
    }

    fn variables(&mut self, st: Node<'_>, outer: Node<'_>) {
        let src = self.src;
        let is_const = st.child(0).is_some_and(|c| c.kind() == "const");
        for d in named_children(st) {
            if d.kind() != "variable_declarator" {
                continue;
            }
            let Some(name) = d.child_by_field_name("name") else {
                continue;
            };
            let value = d.child_by_field_name("value");
            if let Some((module, member)) = value.and_then(|v| require_of(v, src)) {
                // `const x = require('m')`, `const { a, b: c } = require('m')`.
                match name.kind() {
                    "identifier" => self.bind(
                        text(name, src),
                        &module,
                        Some(member.as_deref().unwrap_or(COMMONJS_EXPORTS)),
                    ),
                    "object_pattern" => {
                        for p in named_children(name) {
                            let (imported, local) = match p.kind() {
                                "shorthand_property_identifier_pattern" => (p, p),
                                "pair_pattern" => match (
                                    p.child_by_field_name("key"),
                                    p.child_by_field_name("value"),
                                ) {
                                    (Some(k), Some(v)) if v.kind() == "identifier" => (k, v),
                                    _ => continue,
                                },
                                _ => continue,
                            };
                            self.bind(text(local, src), &module, Some(text(imported, src)));
                        }
                    }
                    _ => {}
                }
                continue;
            }
            if name.kind() != "identifier" {
                continue;
            }
            let name = text(name, src).to_string();
            match value {
                Some(v) if is_function(v) => {
                    self.function(name, Kind::Function, Vec::new(), d, v, outer);
                }
                _ => {
                    let kind = if is_const { Kind::Const } else { Kind::Var };
                    let mut sym = RawSymbol::new(name, kind, d, src);
                    sym.signature = signature(d, outer, src);
                    sym.doc = doc_comment_above(outer, src);
                    // `const router = createRouter([])`: a module-level call has this
                    // variable as its caller (there is no other).
                    if let Some(v) = value {
                        let mut calls = Vec::new();
                        let mut reads = Reads::default();
                        walk_pruned(v, &mut |n| {
                            if !reads.visit(n, src) {
                                return false;
                            }
                            if matches!(n.kind(), "call_expression" | "new_expression") {
                                calls.push(n);
                            }
                            true
                        });
                        sym.calls = call_sites(&calls, src, &HashMap::new());
                        // `const ops = operators`: the initializer reads module-level names.
                        reads.keep(&mut sym.reads, |_| false);
                    }
                    self.facts.symbols.push(sym);
                }
            }
        }
    }

    fn class(&mut self, node: Node<'_>, outer: Node<'_>) {
        let src = self.src;
        let Some(mut sym) = type_symbol(node, outer, Kind::Class, src) else {
            return;
        };
        let name = sym.name.clone();
        for c in named_children(node) {
            if c.kind() != "class_heritage" {
                continue;
            }
            for clause in named_children(c) {
                // JavaScript's grammar has `extends` expressions directly in the heritage.
                let targets = match clause.kind() {
                    "extends_clause" | "implements_clause" => named_children(clause),
                    _ => vec![clause],
                };
                for t in targets {
                    if let Some(p) = type_path(t, src) {
                        sym.bases.push(p);
                    }
                }
            }
        }
        let body = node.child_by_field_name("body");
        self.push_type(sym);
        let Some(body) = body else { return };
        let container = vec![name.clone()];
        for m in named_children(body) {
            match m.kind() {
                "method_definition" | "method_signature" | "abstract_method_signature" => {
                    if let Some(mname) = name_of(m, src) {
                        self.function(mname.to_string(), Kind::Method, container.clone(), m, m, m);
                    }
                }
                "public_field_definition" | "field_definition" => {
                    let Some(fname) = m
                        .child_by_field_name("name")
                        .or_else(|| m.child_by_field_name("property"))
                        .filter(|n| {
                            matches!(
                                n.kind(),
                                "property_identifier" | "private_property_identifier"
                            )
                        })
                    else {
                        continue;
                    };
                    let fname = text(fname, src).to_string();
                    let value = m.child_by_field_name("value");
                    if let Some(v) = value.filter(|v| is_function(*v)) {
                        self.function(fname, Kind::Method, container.clone(), m, v, m);
                        continue;
                    }
                    let recv = match m.child_by_field_name("type") {
                        Some(t) => annotation_type(t, src).map_or(Recv::Opaque, Recv::Typed),
                        None => value.map_or(Recv::Unknown, |v| expr_recv(v, src, &HashMap::new())),
                    };
                    self.pending_fields.push((name.clone(), fname, recv));
                }
                _ => {}
            }
        }
    }

    fn interface(&mut self, node: Node<'_>, outer: Node<'_>) {
        let src = self.src;
        let Some(mut sym) = type_symbol(node, outer, Kind::Interface, src) else {
            return;
        };
        let name = sym.name.clone();
        let mut body = node.child_by_field_name("body");
        for c in named_children(node) {
            if c.kind() == "extends_type_clause" {
                for t in named_children(c) {
                    if let Some(p) = type_path(t, src) {
                        sym.bases.push(p);
                    }
                }
            } else if body.is_none() && matches!(c.kind(), "interface_body" | "object_type") {
                body = Some(c);
            }
        }
        let container = vec![name.clone()];
        let mut methods = Vec::new();
        if let Some(body) = body {
            for m in named_children(body) {
                match m.kind() {
                    "method_signature" => {
                        if let Some(mname) = name_of(m, src) {
                            methods.push((mname.to_string(), m));
                        }
                    }
                    "property_signature" => {
                        if let Some(f) = name_of(m, src) {
                            let ty = m.child_by_field_name("type");
                            match ty.and_then(function_type_of) {
                                // `onSave: (x: T) => void` is a method of the interface.
                                Some(_) => methods.push((f.to_string(), m)),
                                None => {
                                    let recv = match ty {
                                        Some(t) => annotation_type(t, src)
                                            .map_or(Recv::Opaque, Recv::Typed),
                                        None => Recv::Unknown,
                                    };
                                    sym.fields.push((f.to_string(), recv));
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        self.push_type(sym);
        for (mname, m) in methods {
            self.function(mname, Kind::Method, container.clone(), m, m, m);
        }
    }

    /// A function or method: `def` is the node whose lines it spans, `f` the function node
    /// (parameters, return type, body), `outer` the node its doc comment is above.
    fn function(
        &mut self,
        name: String,
        kind: Kind,
        container: Vec<String>,
        def: Node<'_>,
        f: Node<'_>,
        outer: Node<'_>,
    ) {
        let src = self.src;
        let mut sym = RawSymbol::new(name, kind, def, src);
        sym.line = start_line(def);
        sym.signature = signature(def, outer, src);
        sym.container = container;
        sym.doc = doc_comment_above(outer, src);
        let is_method = kind == Kind::Method;
        let class = sym.container.first().cloned();
        let mut scope: HashMap<String, Recv> = HashMap::new();
        // A property typed as a function type: its parameters and result.
        let f = if f.kind() == "property_signature" {
            f.child_by_field_name("type")
                .and_then(function_type_of)
                .unwrap_or(f)
        } else {
            f
        };
        if let Some(params) = f.child_by_field_name("parameters") {
            for p in named_children(params) {
                let (pat, ty) = match p.kind() {
                    "required_parameter" | "optional_parameter" => (
                        p.child_by_field_name("pattern"),
                        p.child_by_field_name("type"),
                    ),
                    "identifier" => (Some(p), None),
                    "assignment_pattern" => (p.child_by_field_name("left"), None),
                    _ => (None, None),
                };
                if let Some(t) = ty {
                    collect_types(t, src, &mut sym.uses);
                }
                let Some(pat) = pat.filter(|n| n.kind() == "identifier") else {
                    continue;
                };
                let recv = match ty {
                    Some(t) => annotation_type(t, src).map_or(Recv::Opaque, Recv::Typed),
                    None => Recv::Unknown,
                };
                // `constructor(private repo: Repo)`: a field of the class.
                if is_method
                    && let Some(class) = &class
                    && named_children(p)
                        .iter()
                        .any(|c| matches!(c.kind(), "accessibility_modifier" | "override_modifier"))
                        | (0..p.child_count())
                            .filter_map(|i| p.child(i))
                            .any(|c| c.kind() == "readonly")
                {
                    self.pending_fields.push((
                        class.clone(),
                        text(pat, src).to_string(),
                        recv.clone(),
                    ));
                }
                scope.insert(text(pat, src).to_string(), recv);
            }
        } else if let Some(p) = f.child_by_field_name("parameter") {
            // `x => …`
            scope.insert(text(p, src).to_string(), Recv::Unknown);
        }
        if let Some(rt) = f.child_by_field_name("return_type") {
            collect_types(rt, src, &mut sym.uses);
            if let Some(p) = annotation_type(rt, src) {
                sym.results.push(p);
            }
        }
        if let Some(body) = f.child_by_field_name("body") {
            let mut calls = Vec::new();
            let mut reads = Reads::default();
            walk_pruned(body, &mut |n| {
                if !reads.visit(n, src) {
                    return false;
                }
                match n.kind() {
                    "variable_declarator" => {
                        if let Some(name) = n.child_by_field_name("name")
                            && name.kind() == "identifier"
                        {
                            let recv = match n.child_by_field_name("type") {
                                Some(t) => {
                                    annotation_type(t, src).map_or(Recv::Opaque, Recv::Typed)
                                }
                                None => n
                                    .child_by_field_name("value")
                                    .map_or(Recv::Unknown, |v| expr_recv(v, src, &scope)),
                            };
                            scope.insert(text(name, src).to_string(), recv);
                        }
                    }
                    "assignment_expression" => {
                        if let (Some(l), Some(r), Some(class)) = (
                            n.child_by_field_name("left"),
                            n.child_by_field_name("right"),
                            &class,
                        ) && l.kind() == "member_expression"
                            && l.child_by_field_name("object")
                                .is_some_and(|o| o.kind() == "this")
                            && let Some(prop) = l.child_by_field_name("property")
                        {
                            self.pending_fields.push((
                                class.clone(),
                                text(prop, src).to_string(),
                                expr_recv(r, src, &scope),
                            ));
                        }
                    }
                    "call_expression" | "new_expression" => calls.push(n),
                    _ => {}
                }
                true
            });
            sym.calls = call_sites(&calls, src, &scope);
            reads.keep(&mut sym.reads, |name| scope.contains_key(name));
        }
        if matches!(f.kind(), "function_signature" | "method_signature") {
            self.signatures.insert(self.facts.symbols.len());
        }
        self.facts.symbols.push(sym);
    }
}

/// The names a body or an initializer reads or assigns (see [`RawSymbol::reads`]),
/// gathered during its walk: an identifier (`LIMIT`, `{ operators }` shorthand), or a
/// member chain from one (`codegen.operators.ADD` reads `codegen`, `codegen.operators` and
/// `codegen.operators.ADD`); not a callee's last member, a declared name or a nested
/// function's parameter. Which of them are the body's own locals is known at its end.
#[derive(Default)]
struct Reads<'s> {
    found: Vec<(u32, [&'s str; 3], usize)>,
    /// Names a nested function, a `catch` or a declaration binds inside the walk.
    bound: foldhash::HashSet<&'s str>,
    /// Nodes that are no read: callees, declared names.
    skip: foldhash::HashSet<usize>,
}

impl<'s> Reads<'s> {
    /// Notes what node `n` reads; false when its children need no visit for reads or
    /// anything else (a member chain of names).
    fn visit(&mut self, n: Node<'_>, src: &'s str) -> bool {
        match n.kind() {
            "identifier" | "shorthand_property_identifier" if !self.skip.contains(&n.id()) => {
                self.found.push((line_of(n), [text(n, src), "", ""], 1));
            }
            "call_expression" => {
                if let Some(f) = n.child_by_field_name("function") {
                    self.skip.insert(f.id());
                }
            }
            "new_expression" => {
                if let Some(c) = n.child_by_field_name("constructor") {
                    self.skip.insert(c.id());
                }
            }
            "variable_declarator" | "function_declaration" | "generator_function_declaration" => {
                if let Some(name) = n.child_by_field_name("name")
                    && name.kind() == "identifier"
                {
                    self.skip.insert(name.id());
                    self.bound.insert(text(name, src));
                }
            }
            "required_parameter" | "optional_parameter" => {
                if let Some(p) = n.child_by_field_name("pattern")
                    && p.kind() == "identifier"
                {
                    self.skip.insert(p.id());
                    self.bound.insert(text(p, src));
                }
            }
            "arrow_function" => {
                if let Some(p) = n.child_by_field_name("parameter") {
                    self.skip.insert(p.id());
                    self.bound.insert(text(p, src));
                }
            }
            "formal_parameters" => {
                // JavaScript's parameters are bare identifiers.
                for p in named_children(n) {
                    if p.kind() == "identifier" {
                        self.skip.insert(p.id());
                        self.bound.insert(text(p, src));
                    }
                }
            }
            "catch_clause" => {
                if let Some(p) = n.child_by_field_name("parameter")
                    && p.kind() == "identifier"
                {
                    self.skip.insert(p.id());
                    self.bound.insert(text(p, src));
                }
            }
            "object_pattern" | "array_pattern" => {
                // `const { a, b: c } = x`, `[x, y] = pair`: names bound, not read.
                walk_pruned(n, &mut |p| {
                    if matches!(
                        p.kind(),
                        "identifier" | "shorthand_property_identifier_pattern"
                    ) {
                        self.skip.insert(p.id());
                        self.bound.insert(text(p, src));
                    }
                    true
                });
            }
            "for_in_statement" => {
                if let Some(l) = n.child_by_field_name("left")
                    && l.kind() == "identifier"
                {
                    self.skip.insert(l.id());
                    self.bound.insert(text(l, src));
                }
            }
            "member_expression" => return self.member(n, src),
            "string" | "regex" | "type_annotation" => {
                // No value names in a string or a type (a template string's
                // substitutions are code: `${usePattern(cxt, pat)}`).
                return false;
            }
            _ => {}
        }
        true
    }

    /// A member chain: read from its root name when it is one (and not entered again),
    /// else entered for the expression it starts from.
    fn member(&mut self, n: Node<'_>, src: &'s str) -> bool {
        let callee = self.skip.contains(&n.id());
        let mut props: Vec<&'s str> = Vec::new();
        let mut at = n;
        let root = loop {
            let (Some(obj), Some(prop)) = (
                at.child_by_field_name("object"),
                at.child_by_field_name("property"),
            ) else {
                return true;
            };
            props.push(text(prop, src));
            match obj.kind() {
                "member_expression" => at = obj,
                "identifier" => break obj,
                _ => return true,
            }
        };
        props.reverse();
        if callee {
            props.pop();
        }
        let line = line_of(n);
        let mut p = [text(root, src), "", ""];
        self.found.push((line, p, 1));
        for (i, prop) in props.into_iter().take(2).enumerate() {
            p[i + 1] = prop;
            self.found.push((line, p, i + 2));
        }
        false
    }

    /// Moves the reads that are not local (`local` says which names the body binds) into
    /// `out`, one per path and line.
    fn keep(self, out: &mut Vec<(u32, Path)>, local: impl Fn(&str) -> bool) {
        let mut seen = foldhash::HashSet::default();
        for found @ (line, p, len) in self.found {
            let head = p[0];
            if self.bound.contains(head) || local(head) || GLOBALS.contains(&head) {
                continue;
            }
            if seen.insert(found) {
                out.push((line, p[..len].iter().map(|s| s.to_string()).collect()));
            }
        }
    }
}

/// A named type declaration (class, interface, alias, enum) with its line after the
/// decorators, signature and doc comment.
fn type_symbol(node: Node<'_>, outer: Node<'_>, kind: Kind, src: &str) -> Option<RawSymbol> {
    let mut sym = RawSymbol::new(name_of(node, src)?.to_string(), kind, node, src);
    sym.line = start_line(node);
    sym.signature = signature(node, outer, src);
    sym.doc = doc_comment_above(outer, src);
    Some(sym)
}

/// The calls among `calls` (call and `new` expressions) whose target can be written down.
fn call_sites(calls: &[Node<'_>], src: &str, scope: &HashMap<String, Recv>) -> Vec<RawCall> {
    let mut out = Vec::new();
    for call in calls {
        let target = if call.kind() == "new_expression" {
            call.child_by_field_name("constructor")
                .and_then(|c| type_path(c, src))
                .map(CallTarget::Path)
        } else {
            call.child_by_field_name("function")
                .and_then(|f| call_target(f, src, scope))
        };
        if let Some(target) = target {
            out.push(RawCall {
                line: line_of(*call),
                target,
            });
        }
    }
    out
}

/// The signature line of a definition: the first line of the statement around it (`export
/// const f = (…) =>`) when that starts on the definition's line, decorators skipped.
fn signature(def: Node<'_>, outer: Node<'_>, src: &str) -> String {
    let node = if start_line(outer) == start_line(def) {
        outer
    } else {
        def
    };
    let line = text(node, src)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('@'))
        .unwrap_or("");
    super::shorten(line.trim_end_matches('{').trim_end(), 160)
}

/// The first line of a declaration, after its decorators.
fn start_line(node: Node<'_>) -> u32 {
    let mut cursor = node.walk();
    for c in node.children(&mut cursor) {
        if c.kind() != "decorator" && c.kind() != "comment" {
            return line_of(c);
        }
    }
    line_of(node)
}

fn is_function(v: Node<'_>) -> bool {
    matches!(
        v.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

/// The function type of a property annotation (`: (x: T) => void`).
fn function_type_of(t: Node<'_>) -> Option<Node<'_>> {
    let inner = if t.kind() == "type_annotation" {
        t.named_child(0)?
    } else {
        t
    };
    (inner.kind() == "function_type").then_some(inner)
}

/// The text of a string literal without its quotes.
fn string_value(s: Node<'_>, src: &str) -> String {
    text(s, src)
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string()
}

/// How deep the recursive readers below are, on this thread: a file can nest member
/// chains, calls, parentheses and generic arguments thousands deep (minified or generated
/// code, or a hostile file), and the readers call each other, so one counter bounds them
/// all instead of the stack.
struct Deeper;

thread_local! {
    static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

impl Deeper {
    /// One level deeper, or `None` past [`super::MAX_NESTING`] levels.
    fn enter() -> Option<Deeper> {
        DEPTH.with(|d| {
            if d.get() >= super::MAX_NESTING {
                None
            } else {
                d.set(d.get() + 1);
                Some(Deeper)
            }
        })
    }
}

impl Drop for Deeper {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// `require('m')` → (`m`, None); `require('m').x` → (`m`, Some(`x`)).
fn require_of(v: Node<'_>, src: &str) -> Option<(String, Option<String>)> {
    let _deeper = Deeper::enter()?;
    match v.kind() {
        "call_expression" => {
            let f = v.child_by_field_name("function")?;
            if f.kind() != "identifier" || text(f, src) != "require" {
                return None;
            }
            let args = v.child_by_field_name("arguments")?;
            let s = args.named_child(0).filter(|a| a.kind() == "string")?;
            Some((string_value(s, src), None))
        }
        "member_expression" => {
            let (m, None) = require_of(v.child_by_field_name("object")?, src)? else {
                return None;
            };
            Some((
                m,
                Some(text(v.child_by_field_name("property")?, src).to_string()),
            ))
        }
        _ => None,
    }
}

/// `a.b.c` (identifiers and properties only) → `["a", "b", "c"]`.
fn member_path(n: Node<'_>, src: &str) -> Option<Path> {
    let _deeper = Deeper::enter()?;
    match n.kind() {
        "identifier" | "property_identifier" | "type_identifier" => {
            Some(vec![text(n, src).to_string()])
        }
        "member_expression" => {
            let mut p = member_path(n.child_by_field_name("object")?, src)?;
            p.push(text(n.child_by_field_name("property")?, src).to_string());
            Some(p)
        }
        _ => None,
    }
}

/// The type a heritage clause or `new` names: `Base`, `ns.Base`, `Repo<T>` → `Repo`.
fn type_path(n: Node<'_>, src: &str) -> Option<Path> {
    let _deeper = Deeper::enter()?;
    match n.kind() {
        "identifier" | "type_identifier" | "member_expression" => member_path(n, src),
        "nested_type_identifier" => Some(
            text(n, src)
                .split('.')
                .map(|s| s.trim().to_string())
                .collect(),
        ),
        "generic_type" => type_path(n.child_by_field_name("name")?, src),
        _ => None,
    }
}

/// Every named type in an annotation, in source order (`Map<K, User[]>` → `Map`, `K`,
/// `User`).
fn type_names(n: Node<'_>, src: &str, out: &mut Vec<Path>) {
    let Some(_deeper) = Deeper::enter() else {
        return;
    };
    match n.kind() {
        "type_identifier" | "nested_type_identifier" => {
            if let Some(p) = type_path(n, src) {
                out.push(p);
            }
        }
        _ => {
            for c in named_children(n) {
                type_names(c, src, out);
            }
        }
    }
}

fn collect_types(n: Node<'_>, src: &str, out: &mut Vec<Path>) {
    let mut names = Vec::new();
    type_names(n, src, &mut names);
    for p in names {
        if !out.contains(&p) {
            out.push(p);
        }
    }
}

/// The type a value of this annotation has, when it is a named type: `User`,
/// `Promise<User>` and `User | null` → `User`; arrays, object literals, functions and
/// primitives → `None` (their methods are not the repository's).
fn annotation_type(n: Node<'_>, src: &str) -> Option<Path> {
    let _deeper = Deeper::enter()?;
    match n.kind() {
        "type_annotation" | "parenthesized_type" | "readonly_type" => {
            annotation_type(n.named_child(0)?, src)
        }
        "type_identifier" | "nested_type_identifier" => type_path(n, src),
        "generic_type" => {
            let p = type_path(n, src)?;
            if p.len() == 1 && WRAPPERS.contains(&p[0].as_str()) {
                let args = n.child_by_field_name("type_arguments")?;
                annotation_type(args.named_child(0)?, src)
            } else {
                Some(p)
            }
        }
        "union_type" => named_children(n)
            .into_iter()
            .find_map(|c| annotation_type(c, src)),
        _ => None,
    }
}

/// What an expression holds, as far as one file tells.
fn expr_recv(e: Node<'_>, src: &str, scope: &HashMap<String, Recv>) -> Recv {
    let Some(_deeper) = Deeper::enter() else {
        return Recv::Unknown;
    };
    match e.kind() {
        "new_expression" => e
            .child_by_field_name("constructor")
            .and_then(|c| type_path(c, src))
            .map_or(Recv::Opaque, Recv::Typed),
        "call_expression" => e
            .child_by_field_name("function")
            .and_then(|f| call_target(f, src, scope))
            .map_or(Recv::Unknown, |t| Recv::CallResult(Box::new(t))),
        "await_expression" | "parenthesized_expression" | "non_null_expression" => e
            .named_child(0)
            .map_or(Recv::Unknown, |c| expr_recv(c, src, scope)),
        "as_expression" | "satisfies_expression" => e
            .named_child(1)
            .and_then(|t| annotation_type(t, src))
            .map_or(Recv::Unknown, Recv::Typed),
        "identifier" => scope.get(text(e, src)).cloned().unwrap_or(Recv::Unknown),
        "this" => Recv::SelfRef,
        "member_expression" => {
            let (Some(obj), Some(prop)) = (
                e.child_by_field_name("object"),
                e.child_by_field_name("property"),
            ) else {
                return Recv::Unknown;
            };
            let base = expr_recv(obj, src, scope);
            let prop = text(prop, src).to_string();
            match base {
                Recv::Field(b, mut fs) => {
                    fs.push(prop);
                    Recv::Field(b, fs)
                }
                Recv::Unknown => Recv::Unknown,
                b => Recv::Field(Box::new(b), vec![prop]),
            }
        }
        "string"
        | "template_string"
        | "number"
        | "array"
        | "object"
        | "arrow_function"
        | "function_expression"
        | "true"
        | "false"
        | "null"
        | "undefined"
        | "regex"
        | "binary_expression" => Recv::Opaque,
        _ => Recv::Unknown,
    }
}

/// What a call's `function` node calls.
fn call_target(f: Node<'_>, src: &str, scope: &HashMap<String, Recv>) -> Option<CallTarget> {
    let _deeper = Deeper::enter()?;
    match f.kind() {
        "identifier" => {
            let name = text(f, src);
            if scope.contains_key(name) || GLOBALS.contains(&name) {
                return None;
            }
            Some(CallTarget::Path(vec![name.to_string()]))
        }
        "member_expression" => {
            let name = text(f.child_by_field_name("property")?, src).to_string();
            let mut fields = Vec::new();
            let mut base = f.child_by_field_name("object")?;
            while base.kind() == "member_expression" {
                fields.push(text(base.child_by_field_name("property")?, src).to_string());
                base = base.child_by_field_name("object")?;
            }
            fields.reverse();
            let recv = match base.kind() {
                "this" => Recv::SelfRef,
                "super" => Recv::Super,
                "identifier" => {
                    let head = text(base, src);
                    if let Some(r) = scope.get(head) {
                        r.clone()
                    } else if GLOBALS.contains(&head) {
                        Recv::Opaque
                    } else {
                        let mut p = vec![head.to_string()];
                        p.extend(fields);
                        p.push(name);
                        return Some(CallTarget::Path(p));
                    }
                }
                _ => expr_recv(base, src, scope),
            };
            Some(CallTarget::Member {
                base: recv,
                fields,
                name,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::code::extract::extract;
    use crate::code::model::Language;

    /// Member chains, call chains, parentheses and generic arguments nested far deeper
    /// than any real code: extraction finishes, keeps the definitions, and does not
    /// overflow the stack.
    #[test]
    fn deep_nesting_is_bounded_not_a_stack_overflow() {
        let depth = 50_000;
        let mut src = String::from("export function f(): void {}\n");
        src.push_str(&format!("const a = x{};\n", ".y".repeat(depth)));
        src.push_str(&format!("const b = g(){};\n", ".h()".repeat(depth)));
        src.push_str(&format!(
            "const c = {}1{};\n",
            "(".repeat(depth),
            ")".repeat(depth)
        ));
        src.push_str(&format!(
            "let d: {}T{};\n",
            "Promise<".repeat(depth / 10),
            ">".repeat(depth / 10)
        ));
        for lang in [Language::TypeScript, Language::JavaScript] {
            let facts = extract(lang, src.as_bytes()).unwrap();
            let names: Vec<&str> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
            assert!(
                names.contains(&"f") && names.contains(&"a"),
                "{lang:?}: {names:?}"
            );
        }
    }
}
