//! Go: qualifies definitions (receiver types, interface methods), types local variables
//! (`x := NewT()`, `&T{}`, declared parameters) and turns each call into a [`CallTarget`].

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Tree};

use super::{
    CallTarget, Compiled, FileFacts, Import, Path, RawCall, RawSymbol, Recv, line_of,
    named_children, run_query, text, walk,
};
use crate::code::model::Kind;

pub(super) fn extract(tree: &Tree, src: &[u8], q: &Compiled) -> FileFacts {
    let root = tree.root_node();
    let mut facts = FileFacts::default();
    for child in named_children(root) {
        match child.kind() {
            "package_clause" => {
                if let Some(id) = named_children(child).first() {
                    facts.package = text(*id, src).to_string();
                }
            }
            "import_declaration" => walk(child, &mut |n| {
                if n.kind() == "import_spec"
                    && let Some(path) = n.child_by_field_name("path")
                {
                    let module = text(path, src).trim_matches(['"', '`']).to_string();
                    let local = n
                        .child_by_field_name("name")
                        .map(|a| text(a, src).to_string())
                        .unwrap_or_default();
                    facts.imports.push(Import {
                        local,
                        level: 0,
                        module,
                        name: None,
                    });
                }
            }),
            _ => {}
        }
    }
    let import_names: HashSet<String> = facts
        .imports
        .iter()
        .map(|i| {
            if i.local.is_empty() {
                default_import_name(&i.module).to_string()
            } else {
                i.local.clone()
            }
        })
        .collect();

    let hits = run_query(q, tree, src);
    // The generic `type` pattern also matches structs and interfaces: keep the specific kind.
    let mut def_kind: HashMap<usize, (Kind, String, Node<'_>)> = HashMap::new();
    let mut order = Vec::new();
    for h in hits {
        // Reference patterns are disabled: calls come from the body walk.
        if let Some(kind) = h.def {
            let id = h.node.id();
            match def_kind.get(&id) {
                Some((Kind::Struct | Kind::Interface, _, _)) => {}
                Some(_) => {
                    def_kind.insert(id, (kind, h.name, h.node));
                }
                None => {
                    order.push(id);
                    def_kind.insert(id, (kind, h.name, h.node));
                }
            }
        }
    }

    for id in order {
        let Some((kind, name, node)) = def_kind.remove(&id) else {
            continue;
        };
        let mut sym = RawSymbol::new(name, kind, node, src);
        sym.doc = doc_comment(node, src);
        let keyword = match node.kind() {
            "type_spec" | "type_alias" => "type ",
            "const_spec" => "const ",
            "var_spec" => "var ",
            _ => "",
        };
        if !keyword.is_empty() {
            sym.signature = super::shorten(&format!("{keyword}{}", sym.signature), 160);
        }
        let mut scope = HashMap::new();
        match node.kind() {
            "function_declaration" | "method_declaration" => {
                if let Some(recv) = node.child_by_field_name("receiver") {
                    for p in named_children(recv) {
                        if let Some(t) = p.child_by_field_name("type")
                            && let Some(tr) = type_ref(t, src)
                            && let Some(base) = tr.last()
                        {
                            sym.container = vec![base.clone()];
                            if let Some(n) = p.child_by_field_name("name") {
                                scope.insert(text(n, src).to_string(), Recv::Typed(tr.clone()));
                            }
                        }
                    }
                }
                if let Some(params) = node.child_by_field_name("parameters") {
                    bind_params(params, src, &mut scope);
                    collect_named_types(params, src, &mut sym.uses);
                }
                if let Some(result) = node.child_by_field_name("result") {
                    collect_named_types(result, src, &mut sym.uses);
                    if result.kind() == "parameter_list" {
                        bind_params(result, src, &mut scope);
                        for p in named_children(result) {
                            if let Some(t) = p.child_by_field_name("type")
                                && let Some(tr) = type_ref(t, src)
                            {
                                sym.results.push(tr);
                            }
                        }
                    } else if let Some(tr) = type_ref(result, src) {
                        sym.results.push(tr);
                    }
                }
                if let Some(body) = node.child_by_field_name("body") {
                    let mut calls = Vec::new();
                    bind_locals(body, src, &import_names, &mut scope, &mut calls);
                    for call in calls {
                        if let Some(function) = call.child_by_field_name("function")
                            && let Some(target) = call_target(function, src, &scope, &import_names)
                        {
                            sym.calls.push(RawCall {
                                line: line_of(call),
                                target,
                            });
                        }
                    }
                }
            }
            "type_spec" | "type_alias" => {
                if let Some(t) = node.child_by_field_name("type") {
                    match t.kind() {
                        "struct_type" => struct_fields(t, src, &mut sym),
                        "interface_type" => {
                            for c in named_children(t) {
                                if c.kind() == "type_elem" {
                                    for e in named_children(c) {
                                        if let Some(tr) = type_ref(e, src) {
                                            sym.bases.push(tr);
                                        }
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            "method_elem" => {
                // The interface is the type_spec two levels up.
                if let Some(spec) = node.parent().and_then(|p| p.parent())
                    && let Some(n) = spec.child_by_field_name("name")
                {
                    sym.container = vec![text(n, src).to_string()];
                }
                if let Some(params) = node.child_by_field_name("parameters") {
                    collect_named_types(params, src, &mut sym.uses);
                }
                if let Some(result) = node.child_by_field_name("result") {
                    collect_named_types(result, src, &mut sym.uses);
                    if let Some(tr) = type_ref(result, src) {
                        sym.results.push(tr);
                    } else if result.kind() == "parameter_list" {
                        for p in named_children(result) {
                            if let Some(t) = p.child_by_field_name("type")
                                && let Some(tr) = type_ref(t, src)
                            {
                                sym.results.push(tr);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        facts.symbols.push(sym);
    }

    facts
}

/// The name a package is referred to by when imported without an alias: the last path
/// element, skipping a major-version suffix (`gopkg.in/yaml.v3` → `yaml`, `x/v2` → `x`).
pub fn default_import_name(path: &str) -> &str {
    let mut parts = path.rsplit('/');
    let last = parts.next().unwrap_or(path);
    let is_version =
        last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit());
    let last = if is_version {
        parts.next().unwrap_or(last)
    } else {
        last
    };
    let last = last.split('.').next().unwrap_or(last);
    last.strip_prefix("go-").unwrap_or(last)
}

/// The named type a type expression denotes, pointer removed: `*model.Issue` →
/// `["model", "Issue"]`. `None` for slices, maps, functions and other unnamed types.
fn type_ref(node: Node<'_>, src: &[u8]) -> Option<Path> {
    match node.kind() {
        "type_identifier" => Some(vec![text(node, src).to_string()]),
        "qualified_type" => {
            let pkg = node.child_by_field_name("package")?;
            let name = node.child_by_field_name("name")?;
            Some(vec![
                text(pkg, src).to_string(),
                text(name, src).to_string(),
            ])
        }
        "pointer_type" | "parenthesized_type" => {
            named_children(node).first().and_then(|c| type_ref(*c, src))
        }
        "generic_type" => type_ref(node.child_by_field_name("type")?, src),
        _ => None,
    }
}

/// Every named type mentioned under `node` (inside slices, maps, pointers, funcs).
fn collect_named_types(node: Node<'_>, src: &[u8], out: &mut Vec<Path>) {
    walk(node, &mut |n| {
        let parent_is_qualified = n.parent().is_some_and(|p| p.kind() == "qualified_type");
        if ((n.kind() == "type_identifier" && !parent_is_qualified) || n.kind() == "qualified_type")
            && let Some(tr) = type_ref(n, src)
            && !out.contains(&tr)
        {
            out.push(tr);
        }
    });
}

fn recv_of_type(t: Node<'_>, src: &[u8]) -> Recv {
    match type_ref(t, src) {
        Some(tr) => Recv::Typed(tr),
        None => Recv::Opaque,
    }
}

fn bind_params(list: Node<'_>, src: &[u8], scope: &mut HashMap<String, Recv>) {
    for p in named_children(list) {
        let Some(t) = p.child_by_field_name("type") else {
            continue;
        };
        let recv = if p.kind() == "variadic_parameter_declaration" {
            Recv::Opaque
        } else {
            recv_of_type(t, src)
        };
        let mut cursor = p.walk();
        for n in p.children_by_field_name("name", &mut cursor) {
            scope.insert(text(n, src).to_string(), recv.clone());
        }
    }
}

fn struct_fields(st: Node<'_>, src: &[u8], sym: &mut RawSymbol) {
    walk(st, &mut |n| {
        if n.kind() != "field_declaration" || n.parent().and_then(|p| p.parent()) != Some(st) {
            return;
        }
        let Some(t) = n.child_by_field_name("type") else {
            return;
        };
        let mut cursor = n.walk();
        let names: Vec<_> = n
            .children_by_field_name("name", &mut cursor)
            .map(|x| text(x, src).to_string())
            .collect();
        if names.is_empty() {
            if let Some(tr) = type_ref(t, src) {
                if let Some(last) = tr.last() {
                    sym.fields.push((last.clone(), Recv::Typed(tr.clone())));
                }
                sym.bases.push(tr);
            }
        } else {
            let recv = recv_of_type(t, src);
            for name in names {
                sym.fields.push((name, recv.clone()));
            }
        }
    });
}

/// Types the local variables of a function body from their declarations and initializers,
/// and collects its calls (the `@reference.call` nodes of the query file).
fn bind_locals<'t>(
    body: Node<'t>,
    src: &[u8],
    imports: &HashSet<String>,
    scope: &mut HashMap<String, Recv>,
    calls: &mut Vec<Node<'t>>,
) {
    walk(body, &mut |n| match n.kind() {
        "call_expression" => calls.push(n),
        "short_var_declaration" => {
            let (Some(left), Some(right)) = (
                n.child_by_field_name("left"),
                n.child_by_field_name("right"),
            ) else {
                return;
            };
            let lefts = named_children(left);
            let rights = named_children(right);
            for (i, l) in lefts.iter().enumerate() {
                if l.kind() != "identifier" {
                    continue;
                }
                let recv = match rights.get(i) {
                    Some(r) if rights.len() == lefts.len() => expr_recv(*r, src, scope, imports),
                    _ if i == 0 && rights.len() == 1 => expr_recv(rights[0], src, scope, imports),
                    _ => Recv::Opaque,
                };
                scope.insert(text(*l, src).to_string(), recv);
            }
        }
        "var_spec" => {
            let recv = if let Some(t) = n.child_by_field_name("type") {
                recv_of_type(t, src)
            } else if let Some(v) = n.child_by_field_name("value") {
                named_children(v)
                    .first()
                    .map(|e| expr_recv(*e, src, scope, imports))
                    .unwrap_or(Recv::Unknown)
            } else {
                Recv::Unknown
            };
            let mut cursor = n.walk();
            let names: Vec<_> = n.children_by_field_name("name", &mut cursor).collect();
            for name in names {
                scope.insert(text(name, src).to_string(), recv.clone());
            }
        }
        "func_literal" => {
            if let Some(params) = n.child_by_field_name("parameters") {
                bind_params(params, src, scope);
            }
        }
        "range_clause" => {
            if let Some(left) = n.child_by_field_name("left") {
                for l in named_children(left) {
                    scope
                        .entry(text(l, src).to_string())
                        .or_insert(Recv::Unknown);
                }
            }
        }
        _ => {}
    });
}

fn expr_recv(
    e: Node<'_>,
    src: &[u8],
    scope: &HashMap<String, Recv>,
    imports: &HashSet<String>,
) -> Recv {
    match e.kind() {
        "composite_literal" => e
            .child_by_field_name("type")
            .map(|t| recv_of_type(t, src))
            .unwrap_or(Recv::Opaque),
        "unary_expression" | "parenthesized_expression" => e
            .child_by_field_name("operand")
            .or_else(|| named_children(e).first().copied())
            .map(|o| expr_recv(o, src, scope, imports))
            .unwrap_or(Recv::Unknown),
        "identifier" => scope.get(text(e, src)).cloned().unwrap_or(Recv::Unknown),
        "selector_expression" => {
            let mut fields = Vec::new();
            let mut base = e;
            while base.kind() == "selector_expression" {
                match (
                    base.child_by_field_name("field"),
                    base.child_by_field_name("operand"),
                ) {
                    (Some(f), Some(o)) => {
                        fields.push(text(f, src).to_string());
                        base = o;
                    }
                    _ => return Recv::Unknown,
                }
            }
            fields.reverse();
            match scope.get(text(base, src)) {
                Some(r) if base.kind() == "identifier" => Recv::Field(Box::new(r.clone()), fields),
                _ => Recv::Unknown,
            }
        }
        "call_expression" => {
            let Some(f) = e.child_by_field_name("function") else {
                return Recv::Unknown;
            };
            if f.kind() == "identifier"
                && text(f, src) == "new"
                && let Some(args) = e.child_by_field_name("arguments")
                && let Some(t) = named_children(args).first()
            {
                return recv_of_type(*t, src);
            }
            match call_target(f, src, scope, imports) {
                Some(t) => Recv::CallResult(Box::new(t)),
                None => Recv::Opaque,
            }
        }
        "interpreted_string_literal"
        | "raw_string_literal"
        | "int_literal"
        | "float_literal"
        | "func_literal"
        | "true"
        | "false"
        | "nil"
        | "binary_expression" => Recv::Opaque,
        _ => Recv::Unknown,
    }
}

fn call_target(
    function: Node<'_>,
    src: &[u8],
    scope: &HashMap<String, Recv>,
    imports: &HashSet<String>,
) -> Option<CallTarget> {
    match function.kind() {
        "identifier" => {
            let name = text(function, src);
            if scope.contains_key(name) {
                return None; // a local function value
            }
            Some(CallTarget::Path(vec![name.to_string()]))
        }
        "selector_expression" => {
            let name = text(function.child_by_field_name("field")?, src).to_string();
            let mut fields = Vec::new();
            let mut base = function.child_by_field_name("operand")?;
            while base.kind() == "selector_expression" {
                fields.push(text(base.child_by_field_name("field")?, src).to_string());
                base = base.child_by_field_name("operand")?;
            }
            fields.reverse();
            if base.kind() == "identifier" {
                let b = text(base, src);
                if let Some(recv) = scope.get(b) {
                    return Some(CallTarget::Member {
                        base: recv.clone(),
                        fields,
                        name,
                    });
                }
                if imports.contains(b) {
                    if fields.is_empty() {
                        return Some(CallTarget::Path(vec![b.to_string(), name]));
                    }
                    // pkg.Var.Method(): resolve the package-level var by path.
                    let mut path = vec![b.to_string()];
                    path.extend(fields);
                    path.push(name);
                    return Some(CallTarget::Path(path));
                }
                let mut path = vec![b.to_string()];
                path.extend(fields);
                path.push(name);
                return Some(CallTarget::Path(path));
            }
            Some(CallTarget::Member {
                base: expr_recv(base, src, scope, imports),
                fields,
                name,
            })
        }
        _ => None,
    }
}

/// The first line of the comment block right above a declaration.
fn doc_comment(node: Node<'_>, src: &[u8]) -> Option<String> {
    let mut candidates = vec![node];
    if let Some(p) = node.parent() {
        if matches!(
            p.kind(),
            "type_declaration" | "const_declaration" | "var_declaration"
        ) {
            candidates.push(p);
        }
        if p.kind() == "var_spec_list"
            && let Some(pp) = p.parent()
        {
            candidates.push(pp);
        }
    }
    for c in candidates {
        let mut row = c.start_position().row;
        let mut first = None;
        let mut prev = c.prev_sibling();
        while let Some(p) = prev {
            if p.kind() != "comment" || p.end_position().row + 1 != row {
                break;
            }
            row = p.start_position().row;
            first = Some(p);
            prev = p.prev_sibling();
        }
        if let Some(f) = first {
            let t = text(f, src);
            let line = t
                .lines()
                .map(|l| {
                    l.trim()
                        .trim_start_matches("//")
                        .trim_start_matches("/*")
                        .trim_end_matches("*/")
                        .trim()
                })
                .find(|l| !l.is_empty())?;
            return Some(super::shorten(line, 160));
        }
    }
    None
}
