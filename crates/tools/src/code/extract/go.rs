//! Go: qualifies definitions (receiver types, interface methods), types local variables
//! (`x := NewT()`, `&T{}`, declared parameters) and turns each call into a [`CallTarget`].

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::OnceLock;

use tree_sitter::{Node, Tree};

use super::{
    CallTarget, FileFacts, Import, Path, RawCall, RawSymbol, Recv, kind_id, line_of,
    named_children, text, walk, walk_pruned,
};
use crate::code::model::Kind;

/// Field ids, looked up once: `child_by_field_name` compares the name with every field
/// name of the grammar on each call.
struct Fields {
    arguments: u16,
    body: u16,
    field: u16,
    function: u16,
    left: u16,
    name: u16,
    operand: u16,
    package: u16,
    parameters: u16,
    path: u16,
    receiver: u16,
    result: u16,
    right: u16,
    ty: u16,
    value: u16,
}

fn field_ids() -> &'static Fields {
    static FIELDS: OnceLock<Fields> = OnceLock::new();
    FIELDS.get_or_init(|| {
        let l = super::go_language();
        let id = |f: &str| l.field_id_for_name(f).map_or(0, |id| id.get());
        Fields {
            arguments: id("arguments"),
            body: id("body"),
            field: id("field"),
            function: id("function"),
            left: id("left"),
            name: id("name"),
            operand: id("operand"),
            package: id("package"),
            parameters: id("parameters"),
            path: id("path"),
            receiver: id("receiver"),
            result: id("result"),
            right: id("right"),
            ty: id("type"),
            value: id("value"),
        }
    })
}

/// Node kinds the walks test on every node, by id.
struct Kinds {
    call_expression: u16,
    short_var_declaration: u16,
    var_spec: u16,
    func_literal: u16,
    range_clause: u16,
    identifier: u16,
    selector_expression: u16,
    keyed_element: u16,
    type_identifier: u16,
    qualified_type: u16,
    comment: u16,
    interpreted_string_literal: u16,
    raw_string_literal: u16,
}

fn kinds() -> &'static Kinds {
    static KINDS: OnceLock<Kinds> = OnceLock::new();
    KINDS.get_or_init(|| {
        let l = super::go_language();
        let id = |k| kind_id(&l, k);
        Kinds {
            call_expression: id("call_expression"),
            short_var_declaration: id("short_var_declaration"),
            var_spec: id("var_spec"),
            func_literal: id("func_literal"),
            range_clause: id("range_clause"),
            identifier: id("identifier"),
            selector_expression: id("selector_expression"),
            keyed_element: id("keyed_element"),
            type_identifier: id("type_identifier"),
            qualified_type: id("qualified_type"),
            comment: id("comment"),
            interpreted_string_literal: id("interpreted_string_literal"),
            raw_string_literal: id("raw_string_literal"),
        }
    })
}

/// A definition found by [`definitions`]: the node, its kind and name, and the first
/// comment of the comment block right above it, if any (see [`doc_comment`]).
struct Def<'t> {
    node: Node<'t>,
    kind: Kind,
    name: String,
    /// Doc candidates, nearest first: the block above the node among its siblings, then
    /// the one above its declaration (`type (…)`, `var (…)`) among the file's.
    docs: [Option<Node<'t>>; 2],
    /// `method_elem`: the interface's `type_spec`.
    spec: Option<Node<'t>>,
}

/// Calls `f` with each child of `node` (anonymous ones included) and the first comment
/// of the block of comment siblings that ends on the line right above it, if any. Each
/// comment of the block must end on the line before the next one starts.
fn children_with_docs<'t>(
    node: Node<'t>,
    comment: u16,
    f: &mut impl FnMut(Node<'t>, Option<Node<'t>>),
) {
    let mut cursor = node.walk();
    // The run of comment siblings just before the current child: its first comment and
    // the last one's end row.
    let mut run: Option<(Node<'t>, usize)> = None;
    let mut prev_was_comment = false;
    for c in node.children(&mut cursor) {
        let row = c.start_position().row;
        let above = run.filter(|(_, end)| prev_was_comment && end + 1 == row);
        if c.kind_id() == comment {
            let first = above.map_or(c, |(first, _)| first);
            run = Some((first, c.end_position().row));
            prev_was_comment = true;
        } else {
            f(c, above.map(|(first, _)| first));
            run = None;
            prev_was_comment = false;
        }
    }
}

/// The package-level definitions the query file describes, in source order: functions,
/// methods, types (struct and interface kinds kept), interface methods, consts and vars.
/// A spec that declares several names (`const a, b = 1, 2`) yields one definition per
/// name, as the query yields one match per name.
fn definitions<'t>(root: Node<'t>, src: &str, k: &Kinds) -> Vec<Def<'t>> {
    let mut defs = Vec::new();
    let names_of = |n: Node<'_>, kind: &str| -> Vec<String> {
        let mut cursor = n.walk();
        n.children_by_field_name("name", &mut cursor)
            .filter(|c| c.kind() == kind)
            .map(|c| text(c, src).to_string())
            .collect()
    };
    let name_of = |n: Node<'_>, kind: &str| names_of(n, kind).into_iter().next();
    children_with_docs(root, k.comment, &mut |top, top_doc| {
        if !top.is_named() {
            return;
        }
        match top.kind() {
            "function_declaration" | "method_declaration" => {
                let (kind, name_kind) = if top.kind() == "function_declaration" {
                    (Kind::Function, "identifier")
                } else {
                    (Kind::Method, "field_identifier")
                };
                if let Some(name) = top
                    .child_by_field_id(field_ids().name)
                    .filter(|n| n.kind() == name_kind)
                {
                    defs.push(Def {
                        node: top,
                        kind,
                        name: text(name, src).to_string(),
                        docs: [top_doc, None],
                        spec: None,
                    });
                }
            }
            "type_declaration" => children_with_docs(top, k.comment, &mut |spec, doc| {
                let is_spec = spec.kind() == "type_spec";
                if !(is_spec || spec.kind() == "type_alias") {
                    return;
                }
                let ty = spec.child_by_field_id(field_ids().ty);
                let kind = match ty.map(|t| t.kind()) {
                    Some("struct_type") if is_spec => Kind::Struct,
                    Some("interface_type") if is_spec => Kind::Interface,
                    _ => Kind::Type,
                };
                if let Some(name) = name_of(spec, "type_identifier") {
                    defs.push(Def {
                        node: spec,
                        kind,
                        name,
                        docs: [doc, top_doc],
                        spec: None,
                    });
                }
                if let Some(t) = ty
                    && kind == Kind::Interface
                {
                    children_with_docs(t, k.comment, &mut |elem, doc| {
                        if elem.kind() == "method_elem"
                            && let Some(name) = name_of(elem, "field_identifier")
                        {
                            defs.push(Def {
                                node: elem,
                                kind: Kind::Method,
                                name,
                                docs: [doc, None],
                                spec: Some(spec),
                            });
                        }
                    });
                }
            }),
            "const_declaration" | "var_declaration" => {
                let (kind, spec_kind) = if top.kind() == "const_declaration" {
                    (Kind::Const, "const_spec")
                } else {
                    (Kind::Var, "var_spec")
                };
                children_with_docs(top, k.comment, &mut |c, doc| {
                    let mut push = |spec: Node<'t>, doc| {
                        for name in names_of(spec, "identifier") {
                            defs.push(Def {
                                node: spec,
                                kind,
                                name,
                                docs: [doc, top_doc],
                                spec: None,
                            });
                        }
                    };
                    if c.kind() == spec_kind {
                        push(c, doc);
                    } else if kind == Kind::Var && c.kind() == "var_spec_list" {
                        children_with_docs(c, k.comment, &mut |v, doc| {
                            if v.kind() == spec_kind {
                                push(v, doc);
                            }
                        });
                    }
                });
            }
            _ => {}
        }
    });
    defs
}

pub(super) fn extract(tree: &Tree, src: &str) -> FileFacts {
    let k = kinds();
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
                    && let Some(path) = n.child_by_field_id(field_ids().path)
                {
                    let module = text(path, src).trim_matches(['"', '`']).to_string();
                    let local = n
                        .child_by_field_id(field_ids().name)
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

    for def in definitions(root, src, k) {
        let Def {
            node,
            kind,
            name,
            docs,
            spec,
        } = def;
        let mut sym = RawSymbol::new(name, kind, node, src);
        sym.doc = doc_comment(docs, src);
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
                if let Some(recv) = node.child_by_field_id(field_ids().receiver) {
                    for p in named_children(recv) {
                        if let Some(t) = p.child_by_field_id(field_ids().ty)
                            && let Some(tr) = type_ref(t, src)
                            && let Some(base) = tr.last()
                        {
                            sym.container = vec![base.clone()];
                            if let Some(n) = p.child_by_field_id(field_ids().name) {
                                scope.insert(text(n, src).to_string(), Recv::Typed(tr.clone()));
                            }
                        }
                    }
                }
                if let Some(params) = node.child_by_field_id(field_ids().parameters) {
                    bind_params(params, src, &mut scope);
                    collect_named_types(params, src, &mut sym.uses);
                }
                if let Some(result) = node.child_by_field_id(field_ids().result) {
                    collect_named_types(result, src, &mut sym.uses);
                    if result.kind() == "parameter_list" {
                        bind_params(result, src, &mut scope);
                        for p in named_children(result) {
                            if let Some(t) = p.child_by_field_id(field_ids().ty)
                                && let Some(tr) = type_ref(t, src)
                            {
                                sym.results.push(tr);
                            }
                        }
                    } else if let Some(tr) = type_ref(result, src) {
                        sym.results.push(tr);
                    }
                }
                if let Some(body) = node.child_by_field_id(field_ids().body) {
                    collect_calls(body, src, &import_names, &mut scope, &mut sym);
                }
            }
            // A package-level variable's initializer runs code too (`var helpCommand =
            // &Command{Action: func(c *Context) error { … ShowAppHelp(c) … }}`): its calls
            // are the variable's, as in TypeScript and JavaScript.
            "var_spec" | "const_spec" => {
                if let Some(value) = node.child_by_field_id(field_ids().value) {
                    collect_calls(value, src, &import_names, &mut scope, &mut sym);
                }
                // What it holds, so that calls through it resolve (`CommandLine.VarPF(…)`
                // with `var CommandLine = NewFlagSet(…)`).
                if let Some(recv) = var_value(node, &sym.name, src, &import_names) {
                    sym.fields.push((sym.name.clone(), recv));
                }
            }
            "type_spec" | "type_alias" => {
                if let Some(t) = node.child_by_field_id(field_ids().ty) {
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
                if let Some(spec) = spec
                    && let Some(n) = spec.child_by_field_id(field_ids().name)
                {
                    sym.container = vec![text(n, src).to_string()];
                }
                if let Some(params) = node.child_by_field_id(field_ids().parameters) {
                    collect_named_types(params, src, &mut sym.uses);
                }
                if let Some(result) = node.child_by_field_id(field_ids().result) {
                    collect_named_types(result, src, &mut sym.uses);
                    if let Some(tr) = type_ref(result, src) {
                        sym.results.push(tr);
                    } else if result.kind() == "parameter_list" {
                        for p in named_children(result) {
                            if let Some(t) = p.child_by_field_id(field_ids().ty)
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

/// Records the calls under `node` (a function body, an initializer) as `sym`'s, typing
/// the locals it declares on the way.
fn collect_calls(
    node: Node<'_>,
    src: &str,
    import_names: &HashSet<String>,
    scope: &mut HashMap<String, Recv>,
    sym: &mut RawSymbol,
) {
    let mut calls = Vec::new();
    bind_locals(node, src, import_names, scope, &mut calls, &mut sym.reads);
    for call in calls {
        if let Some(function) = call.child_by_field_id(field_ids().function)
            && let Some(target) = call_target(function, src, scope, import_names)
        {
            sym.calls.push(RawCall {
                line: line_of(call),
                target,
            });
        }
    }
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
fn type_ref(node: Node<'_>, src: &str) -> Option<Path> {
    match node.kind() {
        "type_identifier" => Some(vec![text(node, src).to_string()]),
        "qualified_type" => {
            let pkg = node.child_by_field_id(field_ids().package)?;
            let name = node.child_by_field_id(field_ids().name)?;
            Some(vec![
                text(pkg, src).to_string(),
                text(name, src).to_string(),
            ])
        }
        "pointer_type" | "parenthesized_type" => {
            named_children(node).first().and_then(|c| type_ref(*c, src))
        }
        "generic_type" => type_ref(node.child_by_field_id(field_ids().ty)?, src),
        _ => None,
    }
}

/// Every named type mentioned under `node` (inside slices, maps, pointers, funcs).
fn collect_named_types(node: Node<'_>, src: &str, out: &mut Vec<Path>) {
    let k = kinds();
    // A qualified type's own `type_identifier` is part of it: not entered.
    walk_pruned(node, &mut |n| {
        let id = n.kind_id();
        let qualified = id == k.qualified_type;
        if (qualified || id == k.type_identifier)
            && let Some(tr) = type_ref(n, src)
            && !out.contains(&tr)
        {
            out.push(tr);
        }
        !qualified
    });
}

fn recv_of_type(t: Node<'_>, src: &str) -> Recv {
    match type_ref(t, src) {
        Some(tr) => Recv::Typed(tr),
        None => Recv::Opaque,
    }
}

fn bind_params(list: Node<'_>, src: &str, scope: &mut HashMap<String, Recv>) {
    for p in named_children(list) {
        let Some(t) = p.child_by_field_id(field_ids().ty) else {
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

/// The fields of a struct type: the `field_declaration`s of its field list (those of
/// nested anonymous structs are not its own).
fn struct_fields(st: Node<'_>, src: &str, sym: &mut RawSymbol) {
    for list in named_children(st) {
        for n in named_children(list) {
            if n.kind() == "field_declaration" {
                struct_field(n, src, sym);
            }
        }
    }
}

/// One field declaration: named fields, or an embedded type (a field and a base).
fn struct_field(n: Node<'_>, src: &str, sym: &mut RawSymbol) {
    let Some(t) = n.child_by_field_id(field_ids().ty) else {
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
}

/// Types the local variables of a function body from their declarations and initializers,
/// and collects its calls (the `@reference.call` nodes of the query file) and the
/// non-local names it reads or assigns (see [`RawSymbol::reads`]).
fn bind_locals<'t>(
    body: Node<'t>,
    src: &'t str,
    imports: &HashSet<String>,
    scope: &mut HashMap<String, Recv>,
    calls: &mut Vec<Node<'t>>,
    reads: &mut Vec<(u32, Path)>,
) {
    let k = kinds();
    let f = field_ids();
    // Nodes that name something other than a value: a callee (a call, not a read), the
    // key of a keyed element (a struct field).
    let mut not_reads: HashSet<usize> = HashSet::new();
    // A name read on a line once (an operand and its field, or a name alone): borrowed
    // from `src`, so that a name read again allocates nothing.
    let mut seen: HashSet<(u32, &str, &str)> = HashSet::new();
    let mut read = |line: u32, first: &'t str, second: Option<&'t str>| {
        if seen.insert((line, first, second.unwrap_or(""))) {
            let mut p = vec![first.to_string()];
            p.extend(second.map(str::to_string));
            reads.push((line, p));
        }
    };
    walk_pruned(body, &mut |n| {
        let id = n.kind_id();
        if id == k.interpreted_string_literal || id == k.raw_string_literal {
            // Nothing to find inside a string literal; skipping its nodes saves a
            // good share of the walk.
            return false;
        }
        if id == k.identifier {
            let name = text(n, src);
            if name != "_"
                && !scope.contains_key(name)
                && !imports.contains(name)
                && !not_reads.contains(&n.id())
            {
                read(line_of(n), name, None);
            }
            return true;
        }
        if id == k.selector_expression {
            // `zapcore.DebugLevel`: a name of another package.
            if !not_reads.contains(&n.id())
                && let (Some(op), Some(field)) =
                    (n.child_by_field_id(f.operand), n.child_by_field_id(f.field))
                && op.kind_id() == k.identifier
                && imports.contains(text(op, src))
                && !scope.contains_key(text(op, src))
            {
                read(line_of(n), text(op, src), Some(text(field, src)));
            }
            return true;
        }
        if id == k.keyed_element {
            if let Some(key) = n.named_child(0) {
                not_reads.insert(key.id());
                if let Some(inner) = key.named_child(0) {
                    not_reads.insert(inner.id());
                }
            }
            return true;
        }
        if id == k.call_expression {
            calls.push(n);
            if let Some(callee) = n.child_by_field_id(f.function) {
                not_reads.insert(callee.id());
            }
        } else if id == k.short_var_declaration {
            let (Some(left), Some(right)) = (
                n.child_by_field_id(field_ids().left),
                n.child_by_field_id(field_ids().right),
            ) else {
                return true;
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
        } else if id == k.var_spec {
            let recv = if let Some(t) = n.child_by_field_id(field_ids().ty) {
                recv_of_type(t, src)
            } else if let Some(v) = n.child_by_field_id(field_ids().value) {
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
        } else if id == k.func_literal {
            if let Some(params) = n.child_by_field_id(field_ids().parameters) {
                bind_params(params, src, scope);
            }
        } else if id == k.range_clause
            && let Some(left) = n.child_by_field_id(field_ids().left)
        {
            for l in named_children(left) {
                scope
                    .entry(text(l, src).to_string())
                    .or_insert(Recv::Unknown);
            }
        }
        true
    });
}

fn expr_recv(
    e: Node<'_>,
    src: &str,
    scope: &HashMap<String, Recv>,
    imports: &HashSet<String>,
) -> Recv {
    match e.kind() {
        "composite_literal" => e
            .child_by_field_id(field_ids().ty)
            .map(|t| recv_of_type(t, src))
            .unwrap_or(Recv::Opaque),
        "unary_expression" | "parenthesized_expression" => e
            .child_by_field_id(field_ids().operand)
            .or_else(|| named_children(e).first().copied())
            .map(|o| expr_recv(o, src, scope, imports))
            .unwrap_or(Recv::Unknown),
        "identifier" => scope.get(text(e, src)).cloned().unwrap_or(Recv::Unknown),
        // `list, ok := node.(*ast.ObjectList)`: the asserted type.
        "type_assertion_expression" => e
            .child_by_field_id(field_ids().ty)
            .map(|t| recv_of_type(t, src))
            .unwrap_or(Recv::Unknown),
        "selector_expression" => {
            let mut fields = Vec::new();
            let mut base = e;
            while base.kind() == "selector_expression" {
                match (
                    base.child_by_field_id(field_ids().field),
                    base.child_by_field_id(field_ids().operand),
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
            let Some(f) = e.child_by_field_id(field_ids().function) else {
                return Recv::Unknown;
            };
            if f.kind() == "identifier"
                && text(f, src) == "new"
                && let Some(args) = e.child_by_field_id(field_ids().arguments)
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

/// What the package-level variable `name` of `spec` holds: its declared type, else what
/// its own initializer is (`NewFlagSet(…)`'s result, `&Logger{}`); `None` when nothing is
/// known (`var a, b = f()`, a literal).
fn var_value(spec: Node<'_>, name: &str, src: &str, imports: &HashSet<String>) -> Option<Recv> {
    if let Some(t) = spec.child_by_field_id(field_ids().ty) {
        return Some(recv_of_type(t, src));
    }
    let mut cursor = spec.walk();
    let names: Vec<Node<'_>> = spec.children_by_field_name("name", &mut cursor).collect();
    let at = names.iter().position(|n| text(*n, src) == name)?;
    let value = spec.child_by_field_id(field_ids().value)?;
    let values = named_children(value);
    if values.len() != names.len() {
        return None;
    }
    match expr_recv(values[at], src, &HashMap::new(), imports) {
        Recv::Unknown | Recv::Opaque => None,
        recv => Some(recv),
    }
}

fn call_target(
    function: Node<'_>,
    src: &str,
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
            let name = text(function.child_by_field_id(field_ids().field)?, src).to_string();
            let mut fields = Vec::new();
            let mut base = function.child_by_field_id(field_ids().operand)?;
            while base.kind() == "selector_expression" {
                fields.push(text(base.child_by_field_id(field_ids().field)?, src).to_string());
                base = base.child_by_field_id(field_ids().operand)?;
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

/// The first line of the comment block right above a declaration: the first of `docs`
/// (found by [`children_with_docs`]) that is there.
fn doc_comment(docs: [Option<Node<'_>>; 2], src: &str) -> Option<String> {
    let first = docs.into_iter().flatten().next()?;
    let line = text(first, src)
        .lines()
        .map(|l| {
            l.trim()
                .trim_start_matches("//")
                .trim_start_matches("/*")
                .trim_end_matches("*/")
                .trim()
        })
        .find(|l| !l.is_empty())?;
    Some(super::shorten(line, 160))
}

#[cfg(test)]
mod tests {
    use crate::code::extract::{CallTarget, extract};
    use crate::code::model::Language;

    #[test]
    fn calls_in_a_package_level_initializer_belong_to_the_variable() {
        let src = "package cli\n\nvar helpCommand = &Command{\n\tAction: func(c *Context) error {\n\t\t_ = ShowAppHelp(c)\n\t\treturn nil\n\t},\n}\n\nconst n = len(\"abc\")\n";
        let facts = extract(Language::Go, src.as_bytes()).unwrap();
        let calls = |name: &str| -> Vec<(String, u32)> {
            let sym = facts.symbols.iter().find(|s| s.name == name).unwrap();
            sym.calls
                .iter()
                .map(|c| match &c.target {
                    CallTarget::Path(p) => (p.join("."), c.line),
                    CallTarget::Member { name, .. } => (name.clone(), c.line),
                })
                .collect()
        };
        assert_eq!(calls("helpCommand"), vec![("ShowAppHelp".to_string(), 5)]);
        assert_eq!(calls("n"), vec![("len".to_string(), 10)]);
    }

    #[test]
    fn every_field_and_kind_the_walks_use_is_in_the_grammar() {
        let f = super::field_ids();
        let k = super::kinds();
        for id in [
            f.arguments,
            f.body,
            f.field,
            f.function,
            f.left,
            f.name,
            f.operand,
            f.package,
            f.parameters,
            f.path,
            f.receiver,
            f.result,
            f.right,
            f.ty,
            f.value,
            k.call_expression,
            k.short_var_declaration,
            k.var_spec,
            k.func_literal,
            k.range_clause,
            k.type_identifier,
            k.qualified_type,
            k.comment,
            k.interpreted_string_literal,
            k.raw_string_literal,
        ] {
            assert_ne!(id, 0);
        }
    }
}
