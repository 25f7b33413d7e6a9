//! Java: the type declarations of a file (classes, records, interfaces, enums, annotation
//! types) and those nested in their bodies are definitions; methods and constructors are
//! methods. The package declaration is the file's module; imports bind a class (`import
//! a.b.C`), a package's classes (`import a.b.*`) or a static member. Each method body is
//! walked once for its calls (lambdas and anonymous classes included), typing local
//! variables and parameters from their declared types and the class's fields from theirs;
//! an unqualified call is a call on `this`.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use tree_sitter::{Node, Tree};

use super::{
    CallTarget, FileFacts, Import, Path, RawCall, RawSymbol, Recv, STAR, line_of, named_children,
    shorten, signature_from, text, walk_pruned,
};
use crate::code::model::Kind;

struct Extractor<'s> {
    src: &'s str,
    facts: FileFacts,
    /// Statically imported members (`import static a.B.m`): an unqualified call of one is
    /// not a call on `this`.
    static_imports: HashSet<String>,
    /// Nested types by simple name → their enclosing types, to qualify references.
    nested: HashMap<String, Vec<String>>,
    /// Top-level type names of the file.
    top: HashSet<String>,
}

pub(super) fn extract(tree: &Tree, src: &str) -> FileFacts {
    let mut x = Extractor {
        src,
        facts: FileFacts::default(),
        static_imports: HashSet::new(),
        nested: HashMap::new(),
        top: HashSet::new(),
    };
    let root = tree.root_node();
    for n in named_children(root) {
        match n.kind() {
            "package_declaration" => {
                if let Some(id) = named_children(n)
                    .into_iter()
                    .find(|c| matches!(c.kind(), "identifier" | "scoped_identifier"))
                {
                    x.facts.package = text(id, src).split_whitespace().collect();
                }
            }
            "import_declaration" => x.import(n),
            _ => {}
        }
    }
    x.collect_types(root, &[]);
    let children = named_children(root);
    for (i, &n) in children.iter().enumerate() {
        x.declaration(n, children[..i].last().copied(), &[]);
    }
    let Extractor {
        mut facts,
        nested,
        top,
        ..
    } = x;
    if !nested.is_empty() {
        qualify_nested(&mut facts, &nested, &top);
    }
    facts
}

/// References to a nested type by its simple name (`Builder` inside `Config`) become the
/// path the linker resolves (`Config.Builder`).
fn qualify_nested(
    facts: &mut FileFacts,
    nested: &HashMap<String, Vec<String>>,
    top: &HashSet<String>,
) {
    let fix = |p: &mut Path| {
        if let Some(head) = p.first()
            && !top.contains(head)
            && let Some(outer) = nested.get(head)
        {
            let mut q = outer.clone();
            q.append(p);
            *p = q;
        }
    };
    fn recv(r: &mut Recv, fix: &dyn Fn(&mut Path)) {
        match r {
            Recv::Typed(p) => fix(p),
            Recv::CallResult(t) => target(t, fix),
            Recv::Field(b, _) => recv(b, fix),
            _ => {}
        }
    }
    fn target(t: &mut CallTarget, fix: &dyn Fn(&mut Path)) {
        match t {
            CallTarget::Path(p) => fix(p),
            CallTarget::Member { base, .. } => recv(base, fix),
        }
    }
    for s in &mut facts.symbols {
        for p in s.bases.iter_mut().chain(&mut s.results).chain(&mut s.uses) {
            fix(p);
        }
        for (_, r) in &mut s.fields {
            recv(r, &fix);
        }
        for c in &mut s.calls {
            target(&mut c.target, &fix);
        }
    }
}

/// Whether a node declares a type.
fn is_type_decl(kind: &str) -> bool {
    matches!(
        kind,
        "class_declaration"
            | "record_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "annotation_type_declaration"
    )
}

/// The members of a type body (an enum's are in its `enum_body_declarations`).
fn members(body: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    for c in named_children(body) {
        if c.kind() == "enum_body_declarations" {
            out.extend(named_children(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// The first line of the comment right before a declaration (`prev`, its previous sibling
/// from the caller's list: `prev_sibling` scans the parent's children on every call),
/// when it ends on the line above: a Javadoc summary.
fn javadoc(node: Node<'_>, prev: Option<Node<'_>>, src: &str) -> Option<String> {
    let prev = prev?;
    if !prev.kind().ends_with("comment") || prev.end_position().row + 1 < node.start_position().row
    {
        return None;
    }
    let line = text(prev, src)
        .lines()
        .map(|l| {
            l.trim()
                .trim_start_matches("/**")
                .trim_start_matches("/*")
                .trim_start_matches("//")
                .trim_end_matches("*/")
                .trim_start_matches('*')
                .trim()
        })
        .find(|l| !l.is_empty())?;
    Some(shorten(line, 160))
}

/// The line a declaration starts on after its annotations, and that line's text.
pub(super) fn start(node: Node<'_>, src: &str) -> (u32, String) {
    let skip = |k: &str| {
        matches!(
            k,
            "annotation" | "marker_annotation" | "line_comment" | "block_comment"
        )
    };
    let mut first = node;
    let mut cur = node.walk();
    'outer: for c in node.children(&mut cur) {
        if c.kind() == "modifiers" {
            let mut mc = c.walk();
            for m in c.children(&mut mc) {
                if !skip(m.kind()) {
                    first = m;
                    break 'outer;
                }
            }
            continue;
        }
        if !skip(c.kind()) {
            first = c;
            break;
        }
    }
    // The line's text from byte offsets: no scan from the top of the file per symbol. A
    // header over several lines (a parameter per line) is collapsed onto one.
    let begin = first.start_byte() - first.start_position().column;
    let header_end = node
        .child_by_field_name("body")
        .map_or(node.end_byte(), |b| b.start_byte());
    let line = signature_from(src, begin, header_end);
    let line = line.trim_end_matches('{').trim_end();
    (line_of(first), shorten(line, 160))
}

impl Extractor<'_> {
    fn import(&mut self, n: Node<'_>) {
        let src = self.src;
        let is_static = {
            let mut c = n.walk();
            n.children(&mut c).any(|c| c.kind() == "static")
        };
        let star = named_children(n).iter().any(|c| c.kind() == "asterisk");
        let Some(id) = named_children(n)
            .into_iter()
            .find(|c| matches!(c.kind(), "identifier" | "scoped_identifier"))
        else {
            return;
        };
        let dotted: String = text(id, src).split_whitespace().collect();
        let local = if star {
            STAR.to_string()
        } else {
            dotted.rsplit('.').next().unwrap_or(&dotted).to_string()
        };
        if is_static && !star {
            self.static_imports.insert(local.clone());
        }
        self.facts.imports.push(Import {
            local,
            level: u32::from(is_static),
            module: dotted,
            name: None,
        });
    }

    /// Records where each nested type is declared.
    fn collect_types(&mut self, body: Node<'_>, outer: &[String]) {
        for n in members(body) {
            if !is_type_decl(n.kind()) {
                continue;
            }
            let Some(name) = n.child_by_field_name("name") else {
                continue;
            };
            let name = text(name, self.src).to_string();
            if outer.is_empty() {
                self.top.insert(name.clone());
            } else {
                self.nested
                    .entry(name.clone())
                    .or_insert_with(|| outer.to_vec());
            }
            if let Some(b) = n.child_by_field_name("body")
                && outer.len() as u32 <= super::MAX_NESTING
            {
                let mut inner = outer.to_vec();
                inner.push(name);
                self.collect_types(b, &inner);
            }
        }
    }

    /// A type declaration and its members; `outer` is the enclosing types.
    fn declaration(&mut self, n: Node<'_>, prev: Option<Node<'_>>, outer: &[String]) {
        let src = self.src;
        let kind = match n.kind() {
            "class_declaration" | "record_declaration" => Kind::Class,
            "interface_declaration" | "annotation_type_declaration" => Kind::Interface,
            "enum_declaration" => Kind::Type,
            _ => return,
        };
        let Some(name) = n.child_by_field_name("name") else {
            return;
        };
        let name = text(name, src).to_string();
        let mut sym = RawSymbol::new(name.clone(), kind, n, src);
        (sym.line, sym.signature) = start(n, src);
        sym.container = outer.to_vec();
        sym.doc = javadoc(n, prev, src);
        // Bases: `extends`, `implements`, an interface's `extends`.
        for c in named_children(n) {
            if matches!(
                c.kind(),
                "superclass" | "super_interfaces" | "extends_interfaces"
            ) {
                let mut types = Vec::new();
                for t in named_children(c) {
                    if t.kind() == "type_list" {
                        types.extend(named_children(t));
                    } else {
                        types.push(t);
                    }
                }
                sym.bases
                    .extend(types.into_iter().filter_map(|t| type_path(t, src)));
            }
        }
        let body = n.child_by_field_name("body");
        let members = body.map(members).unwrap_or_default();
        // Fields: declared type, and record components.
        let mut field_names = HashSet::new();
        let mut params = n
            .child_by_field_name("parameters")
            .map(named_children)
            .unwrap_or_default();
        for m in &members {
            if matches!(m.kind(), "field_declaration" | "constant_declaration") {
                params.push(*m);
            }
        }
        for f in params {
            let ty = f.child_by_field_name("type");
            let recv = ty
                .and_then(|t| type_path(t, src))
                .map_or(Recv::Opaque, Recv::Typed);
            let names: Vec<Node<'_>> = if f.kind() == "formal_parameter" {
                f.child_by_field_name("name").into_iter().collect()
            } else {
                let mut c = f.walk();
                f.children_by_field_name("declarator", &mut c)
                    .filter_map(|d| d.child_by_field_name("name"))
                    .collect()
            };
            for nm in names {
                let nm = text(nm, src).to_string();
                field_names.insert(nm.clone());
                sym.fields.push((nm, recv.clone()));
            }
        }
        self.facts.symbols.push(sym);
        let mut inner = outer.to_vec();
        inner.push(name.clone());
        for (i, &m) in members.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| members[j]);
            match m.kind() {
                "method_declaration" | "constructor_declaration" => {
                    self.method(m, prev, &inner, &field_names);
                }
                k if is_type_decl(k) && inner.len() as u32 <= super::MAX_NESTING => {
                    self.declaration(m, prev, &inner);
                }
                _ => {}
            }
        }
    }

    fn method(
        &mut self,
        m: Node<'_>,
        prev: Option<Node<'_>>,
        container: &[String],
        fields: &HashSet<String>,
    ) {
        let src = self.src;
        let Some(name) = m.child_by_field_name("name") else {
            return;
        };
        let mut sym = RawSymbol::new(text(name, src).to_string(), Kind::Method, m, src);
        (sym.line, sym.signature) = start(m, src);
        sym.container = container.to_vec();
        sym.doc = javadoc(m, prev, src);
        let mut scope: HashMap<String, Recv> = HashMap::new();
        if let Some(params) = m.child_by_field_name("parameters") {
            for p in named_children(params) {
                let (ty, nm) = match p.kind() {
                    "formal_parameter" => {
                        (p.child_by_field_name("type"), p.child_by_field_name("name"))
                    }
                    "spread_parameter" => (
                        None,
                        named_children(p)
                            .into_iter()
                            .find(|c| c.kind() == "variable_declarator")
                            .and_then(|d| d.child_by_field_name("name")),
                    ),
                    _ => (None, None),
                };
                if let Some(t) = ty {
                    collect_types(t, src, &mut sym.uses);
                }
                if let Some(nm) = nm {
                    let recv = ty
                        .and_then(|t| type_path(t, src))
                        .map_or(Recv::Opaque, Recv::Typed);
                    scope.insert(text(nm, src).to_string(), recv);
                }
            }
        }
        if let Some(rt) = m.child_by_field_name("type") {
            collect_types(rt, src, &mut sym.uses);
            if let Some(p) = type_path(rt, src) {
                sym.results.push(p);
            }
        }
        if let Some(body) = m.child_by_field_name("body") {
            let mut calls = Vec::new();
            let statics = &self.static_imports;
            walk_pruned(body, &mut |n| {
                match n.kind() {
                    "local_variable_declaration" => {
                        let ty = n.child_by_field_name("type");
                        let declared = ty
                            .filter(|t| text(*t, src) != "var")
                            .map(|t| type_path(t, src).map_or(Recv::Opaque, Recv::Typed));
                        let mut c = n.walk();
                        for d in n.children_by_field_name("declarator", &mut c) {
                            let Some(nm) = d.child_by_field_name("name") else {
                                continue;
                            };
                            let recv = declared.clone().unwrap_or_else(|| {
                                d.child_by_field_name("value")
                                    .map_or(Recv::Unknown, |v| expr_recv(v, src, &scope, fields))
                            });
                            scope.insert(text(nm, src).to_string(), recv);
                        }
                    }
                    "enhanced_for_statement" | "catch_formal_parameter" => {
                        if let Some(nm) = n.child_by_field_name("name") {
                            let recv = n
                                .child_by_field_name("type")
                                .and_then(|t| type_path(t, src))
                                .map_or(Recv::Unknown, Recv::Typed);
                            scope.insert(text(nm, src).to_string(), recv);
                        }
                    }
                    "lambda_expression" => {
                        if let Some(p) = n.child_by_field_name("parameters") {
                            let ids: Vec<Node<'_>> = if p.kind() == "identifier" {
                                vec![p]
                            } else {
                                named_children(p)
                            };
                            for id in ids {
                                let nm = if id.kind() == "identifier" {
                                    Some(id)
                                } else {
                                    id.child_by_field_name("name")
                                };
                                if let Some(nm) = nm {
                                    scope.insert(text(nm, src).to_string(), Recv::Unknown);
                                }
                            }
                        }
                    }
                    "method_invocation" => {
                        if let Some(t) = invocation(n, src, &scope, fields, statics) {
                            calls.push(RawCall {
                                line: line_of(n),
                                target: t,
                            });
                        }
                    }
                    "object_creation_expression" => {
                        if let Some(p) = n
                            .child_by_field_name("type")
                            .and_then(|t| type_path(t, src))
                        {
                            calls.push(RawCall {
                                line: line_of(n),
                                target: CallTarget::Path(p),
                            });
                        }
                    }
                    _ => {}
                }
                true
            });
            sym.calls = calls;
        }
        self.facts.symbols.push(sym);
    }
}

/// The type a declaration names, whose methods a call on the value finds: `Repo`,
/// `a.b.Repo`, `List<Item>` → `List`; primitives and arrays give `None`.
fn type_path(t: Node<'_>, src: &str) -> Option<Path> {
    type_path_at(t, src, 0)
}

fn type_path_at(t: Node<'_>, src: &str, depth: u32) -> Option<Path> {
    if depth > super::MAX_NESTING {
        return None;
    }
    match t.kind() {
        "type_identifier" => Some(vec![text(t, src).to_string()]),
        "scoped_type_identifier" => {
            let mut p = Vec::new();
            for c in named_children(t) {
                match c.kind() {
                    "type_identifier" => p.push(text(c, src).to_string()),
                    "scoped_type_identifier" | "generic_type" => {
                        p.extend(type_path_at(c, src, depth + 1)?)
                    }
                    _ => {}
                }
            }
            (!p.is_empty()).then_some(p)
        }
        "generic_type" => named_children(t)
            .into_iter()
            .find(|c| matches!(c.kind(), "type_identifier" | "scoped_type_identifier"))
            .and_then(|c| type_path_at(c, src, depth + 1)),
        _ => None,
    }
}

fn collect_types(n: Node<'_>, src: &str, out: &mut Vec<Path>) {
    collect_types_at(n, src, out, 0);
}

fn collect_types_at(n: Node<'_>, src: &str, out: &mut Vec<Path>, depth: u32) {
    if depth > super::MAX_NESTING {
        return;
    }
    match n.kind() {
        "type_identifier" | "scoped_type_identifier" => {
            if let Some(p) = type_path(n, src)
                && !out.contains(&p)
            {
                out.push(p);
            }
            if n.kind() == "scoped_type_identifier" {
                return;
            }
        }
        _ => {}
    }
    for c in named_children(n) {
        collect_types_at(c, src, out, depth + 1);
    }
}

/// What an expression holds, as far as one file tells.
fn expr_recv(
    e: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    fields: &HashSet<String>,
) -> Recv {
    expr_recv_at(e, src, scope, fields, 0)
}

fn expr_recv_at(
    e: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    fields: &HashSet<String>,
    depth: u32,
) -> Recv {
    if depth > super::MAX_NESTING {
        return Recv::Unknown;
    }
    match e.kind() {
        "identifier" => {
            let n = text(e, src);
            match scope.get(n) {
                Some(r) => r.clone(),
                None if fields.contains(n) => {
                    Recv::Field(Box::new(Recv::SelfRef), vec![n.to_string()])
                }
                None => Recv::Unknown,
            }
        }
        "this" => Recv::SelfRef,
        "object_creation_expression" => e
            .child_by_field_name("type")
            .and_then(|t| type_path(t, src))
            .map_or(Recv::Opaque, Recv::Typed),
        "cast_expression" => e
            .child_by_field_name("type")
            .and_then(|t| type_path(t, src))
            .map_or(Recv::Opaque, Recv::Typed),
        "parenthesized_expression" => e.named_child(0).map_or(Recv::Unknown, |c| {
            expr_recv_at(c, src, scope, fields, depth + 1)
        }),
        "method_invocation" => invocation_at(e, src, scope, fields, &HashSet::new(), depth + 1)
            .map_or(Recv::Unknown, |t| Recv::CallResult(Box::new(t))),
        "field_access" => {
            let (Some(o), Some(f)) = (
                e.child_by_field_name("object"),
                e.child_by_field_name("field"),
            ) else {
                return Recv::Unknown;
            };
            let f = text(f, src).to_string();
            match expr_recv_at(o, src, scope, fields, depth + 1) {
                Recv::Field(b, mut fs) => {
                    fs.push(f);
                    Recv::Field(b, fs)
                }
                Recv::Unknown => Recv::Unknown,
                b => Recv::Field(Box::new(b), vec![f]),
            }
        }
        "string_literal"
        | "decimal_integer_literal"
        | "true"
        | "false"
        | "null_literal"
        | "array_creation_expression"
        | "lambda_expression"
        | "binary_expression"
        | "character_literal"
        | "decimal_floating_point_literal" => Recv::Opaque,
        _ => Recv::Unknown,
    }
}

/// What a method invocation calls.
fn invocation(
    n: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    fields: &HashSet<String>,
    statics: &HashSet<String>,
) -> Option<CallTarget> {
    invocation_at(n, src, scope, fields, statics, 0)
}

fn invocation_at(
    n: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    fields: &HashSet<String>,
    statics: &HashSet<String>,
    depth: u32,
) -> Option<CallTarget> {
    if depth > super::MAX_NESTING {
        return None;
    }
    let name = text(n.child_by_field_name("name")?, src).to_string();
    let Some(obj) = n.child_by_field_name("object") else {
        // `super.m()` has a `super` child and no object field.
        let is_super = {
            let mut c = n.walk();
            n.children(&mut c).any(|c| c.kind() == "super")
        };
        if is_super {
            return Some(CallTarget::Member {
                base: Recv::Super,
                fields: Vec::new(),
                name,
            });
        }
        if statics.contains(&name) {
            return Some(CallTarget::Path(vec![name]));
        }
        return Some(CallTarget::Member {
            base: Recv::SelfRef,
            fields: Vec::new(),
            name,
        });
    };
    match obj.kind() {
        "super" => Some(CallTarget::Member {
            base: Recv::Super,
            fields: Vec::new(),
            name,
        }),
        // `Util.f()`, `a.b.Util.f()`: a static call, unless the head is a value.
        "identifier" | "field_access"
            if static_path(obj, src)
                .is_some_and(|p| !scope.contains_key(&p[0]) && !fields.contains(&p[0])) =>
        {
            let mut p = static_path(obj, src)?;
            p.push(name);
            Some(CallTarget::Path(p))
        }
        _ => {
            let (base, fs) = match expr_recv_at(obj, src, scope, fields, depth + 1) {
                Recv::Field(b, fs) => (*b, fs),
                r => (r, Vec::new()),
            };
            Some(CallTarget::Member {
                base,
                fields: fs,
                name,
            })
        }
    }
}

/// `a.b.C` made of identifiers only.
fn static_path(n: Node<'_>, src: &str) -> Option<Path> {
    // Iterative: a chain is as long as the source makes it.
    let mut rev = Vec::new();
    let mut cur = n;
    loop {
        match cur.kind() {
            "identifier" => {
                rev.push(text(cur, src).to_string());
                break;
            }
            "field_access" => {
                rev.push(text(cur.child_by_field_name("field")?, src).to_string());
                cur = cur.child_by_field_name("object")?;
            }
            _ => return None,
        }
    }
    rev.reverse();
    Some(rev)
}

#[cfg(test)]
mod tests {
    use super::super::{Language, extract};
    use super::*;

    #[test]
    fn types_members_and_calls() {
        let src = "package com.acme.shop;\n\nimport java.util.List;\nimport com.acme.util.*;\n\
                   import static com.acme.util.Strings.blank;\n\n/** A cart. */\n@Entity\n\
                   public class Cart extends Base implements Priced, Named {\n    private Repo repo;\n\
                   \x20   Cart(Repo r) { this.repo = r; }\n    @Override\n    public int total(List<Item> items) {\n\
                   \x20       Item first = items.get(0);\n        first.price();\n        repo.save(this);\n\
                   \x20       helper();\n        blank(\"\");\n        Util.f();\n        return new Builder().build();\n    }\n\
                   \x20   static class Builder { Cart build() { return null; } }\n}\n\
                   interface Priced { int total(List<Item> items); }\nenum Color { RED; void m() {} }\n";
        let facts = extract(Language::Java, src.as_bytes()).unwrap();
        assert_eq!(facts.package, "com.acme.shop");
        let defs: Vec<_> = facts
            .symbols
            .iter()
            .map(|s| (s.container.join("."), s.name.as_str(), s.kind, s.line))
            .collect();
        assert_eq!(
            defs,
            [
                (String::new(), "Cart", Kind::Class, 9),
                ("Cart".to_string(), "Cart", Kind::Method, 11),
                ("Cart".to_string(), "total", Kind::Method, 13),
                ("Cart".to_string(), "Builder", Kind::Class, 22),
                ("Cart.Builder".to_string(), "build", Kind::Method, 22),
                (String::new(), "Priced", Kind::Interface, 24),
                ("Priced".to_string(), "total", Kind::Method, 24),
                (String::new(), "Color", Kind::Type, 25),
                ("Color".to_string(), "m", Kind::Method, 25),
            ]
        );
        let cart = &facts.symbols[0];
        assert_eq!(cart.doc.as_deref(), Some("A cart."));
        assert_eq!(
            cart.signature,
            "public class Cart extends Base implements Priced, Named"
        );
        assert_eq!(cart.bases.len(), 3);
        let total = &facts.symbols[2];
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let targets: Vec<_> = total.calls.iter().map(|c| c.target.clone()).collect();
        assert_eq!(
            targets,
            [
                CallTarget::Member {
                    base: Recv::Typed(s(&["List"])),
                    fields: vec![],
                    name: "get".into()
                },
                CallTarget::Member {
                    base: Recv::Typed(s(&["Item"])),
                    fields: vec![],
                    name: "price".into()
                },
                CallTarget::Member {
                    base: Recv::SelfRef,
                    fields: s(&["repo"]),
                    name: "save".into()
                },
                CallTarget::Member {
                    base: Recv::SelfRef,
                    fields: vec![],
                    name: "helper".into()
                },
                CallTarget::Path(s(&["blank"])),
                CallTarget::Path(s(&["Util", "f"])),
                CallTarget::Member {
                    base: Recv::Typed(s(&["Cart", "Builder"])),
                    fields: vec![],
                    name: "build".into()
                },
                CallTarget::Path(s(&["Cart", "Builder"])),
            ]
        );
        let imports: Vec<_> = facts
            .imports
            .iter()
            .map(|i| (i.local.as_str(), i.module.as_str(), i.level))
            .collect();
        assert_eq!(
            imports,
            [
                ("List", "java.util.List", 0),
                ("*", "com.acme.util", 0),
                ("blank", "com.acme.util.Strings.blank", 1)
            ]
        );
    }

    /// Deep nesting (field chains, qualified names, generics, nested classes) does not
    /// overflow the extractor.
    #[test]
    fn deep_nesting_does_not_overflow() {
        let n = 3000;
        let mut src = String::from("class A { void f() { x");
        src.push_str(&".y".repeat(n));
        src.push_str(".z(); this");
        src.push_str(&".b".repeat(n));
        src.push_str(".c(); a");
        src.push_str(&".b".repeat(n));
        src.push_str(".c(); List");
        src.push_str(&"<List".repeat(n));
        src.push_str(&">".repeat(n));
        src.push_str(" v = null; } ");
        src.push_str(&"class B { ".repeat(200));
        src.push_str(&"} ".repeat(200));
        src.push_str("}\n");
        let facts = extract(Language::Java, src.as_bytes()).unwrap();
        assert_eq!(facts.symbols[1].name, "f");
        // A, f, and nested classes down to `MAX_NESTING`.
        assert_eq!(facts.symbols.len(), 2 + super::super::MAX_NESTING as usize);
    }

    #[test]
    fn broken_input_keeps_what_parsed() {
        let facts = extract(Language::Java, b"class A { void ok() {} }\nclass { void (").unwrap();
        assert!(facts.had_errors);
        assert_eq!(facts.symbols[1].name, "ok");
    }
}
