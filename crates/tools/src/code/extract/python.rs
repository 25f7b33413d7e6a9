//! Python: decides which functions are methods, qualifies nested classes, types `self`
//! attributes and local variables (annotations, constructor calls, `-> T` results) and
//! turns each call into a [`CallTarget`].

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::OnceLock;

use tree_sitter::{Node, Tree};

use super::{
    CallTarget, FileFacts, Import, PYTHON_MAX_START_DEPTH, Path, RawCall, RawSymbol, Recv, kind_id,
    line_of, named_children, shorten, text, walk_pruned,
};
use crate::code::model::Kind;

/// Names from `typing` that wrap the type that matters (`Optional[Account]` → `Account`).
const WRAPPERS: [&str; 16] = [
    "Optional",
    "Union",
    "List",
    "Dict",
    "Set",
    "FrozenSet",
    "Tuple",
    "Type",
    "Sequence",
    "Iterable",
    "Iterator",
    "Mapping",
    "list",
    "dict",
    "set",
    "tuple",
];

/// Field ids, looked up once: `child_by_field_name` compares the name with every field
/// name of the grammar on each call.
struct Fields {
    alias: u16,
    attribute: u16,
    body: u16,
    function: u16,
    left: u16,
    module_name: u16,
    name: u16,
    object: u16,
    parameters: u16,
    return_type: u16,
    right: u16,
    superclasses: u16,
    ty: u16,
    value: u16,
}

fn field_ids() -> &'static Fields {
    static FIELDS: OnceLock<Fields> = OnceLock::new();
    FIELDS.get_or_init(|| {
        let l = super::python_language();
        let id = |f: &str| l.field_id_for_name(f).map_or(0, |id| id.get());
        Fields {
            alias: id("alias"),
            attribute: id("attribute"),
            body: id("body"),
            function: id("function"),
            left: id("left"),
            module_name: id("module_name"),
            name: id("name"),
            object: id("object"),
            parameters: id("parameters"),
            return_type: id("return_type"),
            right: id("right"),
            superclasses: id("superclasses"),
            ty: id("type"),
            value: id("value"),
        }
    })
}

/// Node kinds the walks test on every node, by id.
struct Kinds {
    module: u16,
    import_statement: u16,
    import_from_statement: u16,
    class_definition: u16,
    function_definition: u16,
    expression_statement: u16,
    assignment: u16,
    identifier: u16,
    call: u16,
    string: u16,
    attribute: u16,
    augmented_assignment: u16,
    for_statement: u16,
    for_in_clause: u16,
    named_expression: u16,
    as_pattern: u16,
    global_statement: u16,
    nonlocal_statement: u16,
    lambda: u16,
    decorated_definition: u16,
    decorator: u16,
    return_statement: u16,
    keyword_argument: u16,
}

fn kinds() -> &'static Kinds {
    static KINDS: OnceLock<Kinds> = OnceLock::new();
    KINDS.get_or_init(|| {
        let l = super::python_language();
        let id = |k| kind_id(&l, k);
        Kinds {
            module: id("module"),
            import_statement: id("import_statement"),
            import_from_statement: id("import_from_statement"),
            class_definition: id("class_definition"),
            function_definition: id("function_definition"),
            expression_statement: id("expression_statement"),
            assignment: id("assignment"),
            identifier: id("identifier"),
            call: id("call"),
            string: id("string"),
            attribute: id("attribute"),
            augmented_assignment: id("augmented_assignment"),
            for_statement: id("for_statement"),
            for_in_clause: id("for_in_clause"),
            named_expression: id("named_expression"),
            as_pattern: id("as_pattern"),
            global_statement: id("global_statement"),
            nonlocal_statement: id("nonlocal_statement"),
            lambda: id("lambda"),
            decorated_definition: id("decorated_definition"),
            decorator: id("decorator"),
            return_statement: id("return_statement"),
            keyword_argument: id("keyword_argument"),
        }
    })
}

/// One file's extraction in progress.
struct Extractor<'s> {
    src: &'s str,
    k: &'static Kinds,
    facts: FileFacts,
    /// Index of each class symbol by its qualified chain ("Settings.Config").
    classes: HashMap<String, usize>,
    /// `self.attr = value` found in methods: (class chain, attribute, what it holds).
    pending_attrs: Vec<(String, String, Recv)>,
}

pub(super) fn extract(tree: &Tree, src: &str) -> FileFacts {
    let mut x = Extractor {
        src,
        k: kinds(),
        facts: FileFacts::default(),
        classes: HashMap::new(),
        pending_attrs: Vec::new(),
    };
    x.scope_walk(tree.root_node());
    let Extractor {
        mut facts,
        classes,
        pending_attrs,
        ..
    } = x;
    super::apply_fields(&mut facts.symbols, &classes, pending_attrs);
    // `from m import *` binds names no import records: then every read stays.
    if !src.contains("import *") {
        keep_module_reads(&mut facts);
    }
    facts
}

/// Keeps the reads that can name a module-level variable or constant: a name this file
/// assigns at module level or imports (`from .helpers import LINK_LABEL`, `import config`
/// for `config.TIMEOUT`). The rest (builtins, classes, functions) would resolve to no
/// variable, and the link need not try.
fn keep_module_reads(facts: &mut FileFacts) {
    let known: HashSet<String> = facts
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
}

impl Extractor<'_> {
    /// One pre-order pass over the module outside function bodies: the definitions of
    /// the query file (classes and functions not inside a function, at most
    /// `PYTHON_MAX_START_DEPTH` deep; module-level assignments), the imports, and each
    /// function body through [`bind_locals`]. Expression statements are not entered
    /// (they hold neither definitions nor imports), nor are function bodies twice.
    fn scope_walk(&mut self, root: Node<'_>) {
        let k = self.k;
        let root_is_module = root.kind_id() == k.module;
        let mut cursor = root.walk();
        let mut depth = 0u32;
        // The classes around the current node, outermost first, with their depth.
        let mut chain: Vec<(u32, String)> = Vec::new();
        // The end of the innermost `@property` definition seen: its function ends there.
        let mut property_end = None;
        'outer: loop {
            let n = cursor.node();
            let mut descend = true;
            if n.is_named() {
                while chain.last().is_some_and(|(d, _)| *d >= depth) {
                    chain.pop();
                }
                let id = n.kind_id();
                if id == k.import_statement || id == k.import_from_statement {
                    import(n, self.src, &mut self.facts.imports);
                    descend = false;
                } else if id == k.decorated_definition {
                    if is_property(n, self.src, k) {
                        property_end = Some(n.end_byte());
                    }
                } else if id == k.function_definition {
                    if depth <= PYTHON_MAX_START_DEPTH
                        && let Some(name) = n.child_by_field_id(field_ids().name)
                        && name.kind_id() == k.identifier
                    {
                        let names: Vec<String> = chain.iter().map(|(_, c)| c.clone()).collect();
                        let property = property_end == Some(n.end_byte());
                        self.function(n, text(name, self.src).to_string(), names, property);
                    } else {
                        // Too deep to be a definition; its imports still count.
                        imports_under(n, self.src, k, &mut self.facts.imports);
                    }
                    descend = false;
                } else if id == k.class_definition {
                    let name = n.child_by_field_id(field_ids().name);
                    if depth <= PYTHON_MAX_START_DEPTH
                        && let Some(name) = name
                        && name.kind_id() == k.identifier
                    {
                        let names: Vec<String> = chain.iter().map(|(_, c)| c.clone()).collect();
                        self.class(n, text(name, self.src).to_string(), names);
                    }
                    if let Some(name) = name {
                        chain.push((depth, text(name, self.src).to_string()));
                    }
                } else if id == k.expression_statement {
                    if depth == 1 && root_is_module {
                        self.module_vars(n);
                    }
                    descend = false;
                }
            }
            if descend && cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'outer;
                }
                depth -= 1;
            }
        }
    }

    /// `NAME = …` at module level: a var, const or type alias.
    fn module_vars(&mut self, st: Node<'_>) {
        let mut cursor = st.walk();
        for a in st.named_children(&mut cursor) {
            if a.kind_id() == self.k.assignment
                && let Some(left) = a.child_by_field_id(field_ids().left)
                && left.kind_id() == self.k.identifier
            {
                let name = text(left, self.src).to_string();
                let kind = assignment_kind(&name, a, self.src);
                let mut sym = RawSymbol::new(name, kind, a, self.src);
                if let Some(r) = a.child_by_field_id(field_ids().right) {
                    expression_reads(r, self.src, self.k, &mut sym.reads);
                }
                // `_Segment = Segment`: an alias, resolved as the name it holds.
                if kind != Kind::Type
                    && a.child_by_field_id(field_ids().ty).is_none()
                    && let Some(r) = a.child_by_field_id(field_ids().right)
                    && (r.kind_id() == self.k.identifier || r.kind_id() == self.k.attribute)
                    && let Some(p) = dotted(r, self.src)
                {
                    sym.results.push(p);
                }
                // `app = Flask(…)`, `session: Session = …`: what it holds, so that calls
                // through it resolve ([`RawSymbol::value`]).
                let value = match a.child_by_field_id(field_ids().ty) {
                    Some(t) => annotation_type(t, self.src).map(Recv::Typed),
                    None => a
                        .child_by_field_id(field_ids().right)
                        .filter(|r| r.kind_id() == self.k.call)
                        .map(|r| expr_recv(r, self.src, &Locals::default())),
                };
                if kind != Kind::Type
                    && let Some(v) = value.filter(|v| !matches!(v, Recv::Unknown | Recv::Opaque))
                {
                    sym.fields.push((sym.name.clone(), v));
                }
                self.facts.symbols.push(sym);
            }
        }
    }

    fn class(&mut self, node: Node<'_>, name: String, chain: Vec<String>) {
        let src = self.src;
        let mut sym = RawSymbol::new(name, Kind::Class, node, src);
        sym.container = chain;
        if let Some(supers) = node.child_by_field_id(field_ids().superclasses) {
            for b in named_children(supers) {
                let b = if b.kind() == "subscript" {
                    b.child_by_field_id(field_ids().value).unwrap_or(b)
                } else {
                    b
                };
                if let Some(p) = dotted(b, src)
                    && p.first().is_some_and(|f| f != "object")
                {
                    sym.bases.push(p);
                }
            }
        }
        if let Some(body) = node.child_by_field_id(field_ids().body) {
            sym.doc = docstring(body, src);
            for st in named_children(body) {
                if st.kind_id() != self.k.expression_statement {
                    continue;
                }
                for a in named_children(st) {
                    // `_extra_to_name = {ALLOW_EXTRA: …}`: the class reads what its
                    // attributes are initialised from.
                    if a.kind_id() == self.k.assignment
                        && let Some(r) = a.child_by_field_id(field_ids().right)
                    {
                        expression_reads(r, src, self.k, &mut sym.reads);
                    }
                    if a.kind_id() == self.k.assignment
                        && let (Some(l), Some(t)) = (
                            a.child_by_field_id(field_ids().left),
                            a.child_by_field_id(field_ids().ty),
                        )
                        && l.kind_id() == self.k.identifier
                        && let Some(p) = annotation_type(t, src)
                    {
                        sym.fields.push((text(l, src).to_string(), Recv::Typed(p)));
                    }
                }
            }
        }
        let mut key = sym.container.clone();
        key.push(sym.name.clone());
        self.classes.insert(key.join("."), self.facts.symbols.len());
        self.facts.symbols.push(sym);
    }

    /// A function or method; `property` when it is decorated `@property` (or
    /// `@cached_property`): then what it returns is an attribute of its class.
    fn function(&mut self, node: Node<'_>, name: String, chain: Vec<String>, property: bool) {
        let src = self.src;
        let is_method = !chain.is_empty();
        let kind = if is_method {
            Kind::Method
        } else {
            Kind::Function
        };
        let mut sym = RawSymbol::new(name, kind, node, src);
        sym.container = chain;
        sym.signature = def_signature(node, src);
        let mut locals = Locals::default();
        if let Some(params) = node.child_by_field_id(field_ids().parameters) {
            bind_params(params, src, is_method, &mut locals.scope, &mut sym.uses);
            // `cls: object = UNDEFINED`: a default is read where the function is defined.
            for p in named_children(params) {
                if matches!(p.kind(), "default_parameter" | "typed_default_parameter")
                    && let Some(v) = p.child_by_field_id(field_ids().value)
                {
                    expression_reads(v, src, self.k, &mut sym.reads);
                }
            }
        }
        if let Some(rt) = node.child_by_field_id(field_ids().return_type) {
            collect_annotation_types(rt, src, &mut sym.uses);
            if let Some(p) = annotation_type(rt, src) {
                sym.results.push(p);
            }
        }
        sym.calls.extend(decorator_calls(node, src, self.k));
        if let Some(body) = node.child_by_field_id(field_ids().body) {
            sym.doc = docstring(body, src);
            let class_key = sym.container.join(".");
            let mut calls = Vec::new();
            let pending = &mut self.pending_attrs;
            bind_locals(
                body,
                src,
                self.k,
                &mut locals,
                &mut |attr, recv| {
                    if is_method {
                        pending.push((class_key.clone(), attr, recv));
                    }
                },
                &mut calls,
                &mut self.facts.imports,
                &mut sym.reads,
            );
            for call in calls {
                if let Some(function) = call.child_by_field_id(field_ids().function)
                    && let Some(target) = call_target(function, src, &locals, is_method)
                {
                    sym.calls.push(RawCall {
                        line: line_of(call),
                        target,
                    });
                }
            }
            if property && is_method {
                // Its return annotation, else the one expression it returns.
                let recv = match sym.results.first() {
                    Some(p) => Recv::Typed(p.clone()),
                    None => sole_return(body, self.k)
                        .map_or(Recv::Unknown, |e| expr_recv(e, src, &locals)),
                };
                if recv != Recv::Unknown {
                    self.pending_attrs.push((class_key, sym.name.clone(), recv));
                }
            }
        }
        self.facts.symbols.push(sym);
    }
}

/// The imports anywhere under `node`, in source order.
fn imports_under(node: Node<'_>, src: &str, k: &Kinds, out: &mut Vec<Import>) {
    walk_pruned(node, &mut |n| {
        let id = n.kind_id();
        if id == k.import_statement || id == k.import_from_statement {
            import(n, src, out);
            return false;
        }
        true
    });
}

/// The bindings of one `import …` or `from … import …` statement.
fn import(n: Node<'_>, src: &str, out: &mut Vec<Import>) {
    if n.kind() == "import_statement" {
        for c in named_children(n) {
            match c.kind() {
                "dotted_name" => {
                    let module = text(c, src).to_string();
                    let local = module.split('.').next().unwrap_or("").to_string();
                    out.push(Import {
                        local,
                        level: 0,
                        module: local_top(&module),
                        name: None,
                    });
                }
                "aliased_import" => {
                    if let (Some(name), Some(alias)) = (
                        c.child_by_field_id(field_ids().name),
                        c.child_by_field_id(field_ids().alias),
                    ) {
                        out.push(Import {
                            local: text(alias, src).to_string(),
                            level: 0,
                            module: text(name, src).to_string(),
                            name: None,
                        });
                    }
                }
                _ => {}
            }
        }
        return;
    }
    let Some(m) = n.child_by_field_id(field_ids().module_name) else {
        return;
    };
    let (level, module) = if m.kind() == "relative_import" {
        let mut level = 0;
        let mut module = String::new();
        for c in named_children(m) {
            match c.kind() {
                "import_prefix" => level = text(c, src).len() as u32,
                "dotted_name" => module = text(c, src).to_string(),
                _ => {}
            }
        }
        (level, module)
    } else {
        (0, text(m, src).to_string())
    };
    // `from .representer import *`: every public name of the module (resolved at link
    // time, through the module's own definitions and imports).
    if named_children(n)
        .iter()
        .any(|c| c.kind() == "wildcard_import")
    {
        out.push(Import {
            local: super::STAR.to_string(),
            level,
            module: module.clone(),
            name: None,
        });
        return;
    }
    let mut cursor = n.walk();
    for c in n.children_by_field_name("name", &mut cursor) {
        let (name, local) = match c.kind() {
            "aliased_import" => match (
                c.child_by_field_id(field_ids().name),
                c.child_by_field_id(field_ids().alias),
            ) {
                (Some(nm), Some(al)) => (text(nm, src), text(al, src)),
                _ => continue,
            },
            _ => (text(c, src), text(c, src)),
        };
        out.push(Import {
            local: local.to_string(),
            level,
            module: module.clone(),
            name: Some(name.to_string()),
        });
    }
}

fn local_top(module: &str) -> String {
    module.split('.').next().unwrap_or(module).to_string()
}

/// A dotted name from an identifier or attribute chain: `a.b.C` → `["a","b","C"]`.
fn dotted(node: Node<'_>, src: &str) -> Option<Path> {
    match node.kind() {
        "identifier" => Some(vec![text(node, src).to_string()]),
        "attribute" => {
            let mut p = dotted(node.child_by_field_id(field_ids().object)?, src)?;
            p.push(text(node.child_by_field_id(field_ids().attribute)?, src).to_string());
            Some(p)
        }
        "dotted_name" => Some(text(node, src).split('.').map(str::to_string).collect()),
        _ => None,
    }
}

/// Every dotted name in an annotation, wrappers included, in source order.
fn annotation_names(node: Node<'_>, src: &str, out: &mut Vec<Path>) {
    match node.kind() {
        "identifier" | "attribute" => {
            if let Some(p) = dotted(node, src) {
                out.push(p);
            }
        }
        "string" => {
            let t = text(node, src).trim_matches(['"', '\'']);
            for part in t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')) {
                if !part.is_empty() && part.chars().next().is_some_and(|c| !c.is_ascii_digit()) {
                    out.push(part.split('.').map(str::to_string).collect());
                }
            }
        }
        _ => {
            for c in named_children(node) {
                annotation_names(c, src, out);
            }
        }
    }
}

/// The type an annotation names, typing wrappers removed.
fn annotation_type(node: Node<'_>, src: &str) -> Option<Path> {
    let mut names = Vec::new();
    annotation_names(node, src, &mut names);
    names.into_iter().find(|p| {
        let last = p.last().map(String::as_str).unwrap_or("");
        !WRAPPERS.contains(&last) && last != "None" && !(p.len() == 2 && p[0] == "typing")
    })
}

fn collect_annotation_types(node: Node<'_>, src: &str, out: &mut Vec<Path>) {
    let mut names = Vec::new();
    annotation_names(node, src, &mut names);
    for p in names {
        if !out.contains(&p) {
            out.push(p);
        }
    }
}

fn bind_params(
    params: Node<'_>,
    src: &str,
    is_method: bool,
    scope: &mut HashMap<String, Recv>,
    uses: &mut Vec<Path>,
) {
    for (i, p) in named_children(params).into_iter().enumerate() {
        let (name, ty) = match p.kind() {
            "identifier" => (Some(text(p, src)), None),
            "typed_parameter" => (
                named_children(p)
                    .into_iter()
                    .find(|c| c.kind() == "identifier")
                    .map(|c| text(c, src)),
                p.child_by_field_id(field_ids().ty),
            ),
            "default_parameter" | "typed_default_parameter" => (
                p.child_by_field_id(field_ids().name).map(|c| text(c, src)),
                p.child_by_field_id(field_ids().ty),
            ),
            _ => (None, None),
        };
        let Some(name) = name else { continue };
        if i == 0 && is_method && ty.is_none() {
            scope.insert(name.to_string(), Recv::SelfRef);
            continue;
        }
        let recv = match ty {
            Some(t) => {
                collect_annotation_types(t, src, uses);
                annotation_type(t, src).map_or(Recv::Opaque, Recv::Typed)
            }
            None => Recv::Unknown,
        };
        scope.insert(name.to_string(), recv);
    }
}

/// The names an expression outside any function body reads (a parameter's default, a
/// module-level or class-level initializer), as [`bind_locals`] keeps them from a body:
/// `UNDEFINED`, `config.TIMEOUT`; not a callee, an attribute's field nor a keyword's name.
/// Nothing there is local to a function, so every one is kept.
fn expression_reads(node: Node<'_>, src: &str, k: &Kinds, reads: &mut Vec<(u32, Path)>) {
    let mut not_reads: HashSet<usize> = HashSet::new();
    walk_pruned(node, &mut |n| {
        let id = n.kind_id();
        if id == k.identifier {
            if !not_reads.contains(&n.id()) {
                push_read(reads, line_of(n), &[text(n, src)]);
            }
        } else if id == k.attribute {
            return attribute_reads(n, src, &mut not_reads, &mut |(line, p, len)| {
                push_read(reads, line, &p[..len]);
            });
        } else if id == k.keyword_argument {
            if let Some(name) = n.child_by_field_id(field_ids().name) {
                not_reads.insert(name.id());
            }
        } else if id == k.call {
            if let Some(f) = n.child_by_field_id(field_ids().function) {
                not_reads.insert(f.id());
            }
        } else if id == k.lambda || id == k.string {
            // A lambda's names are its own; a string holds none.
            return false;
        }
        true
    });
}

/// Records one read, unless the same name was read on the same line just before.
fn push_read(reads: &mut Vec<(u32, Path)>, line: u32, path: &[&str]) {
    let same =
        |(l, p): &(u32, Path)| *l == line && p.iter().map(String::as_str).eq(path.iter().copied());
    if !reads.iter().rev().take(8).any(same) {
        reads.push((line, path.iter().map(|s| s.to_string()).collect()));
    }
}

/// What a function body binds: the types of its local names, and the names bound once
/// to a class, a function or a bound method, which calls go through.
#[derive(Default)]
struct Locals {
    /// What is known of each local's value (parameters first, then the first binding).
    scope: HashMap<String, Recv>,
    /// A name bound once, by a plain assignment, to a dotted name: what a call through it
    /// calls. `_Segment = Segment` makes `_Segment.set_shape(…)` a call of
    /// `Segment.set_shape`; `render_str = console.render_str` makes `render_str(…)` one of
    /// `console.render_str`.
    aliases: HashMap<String, CallTarget>,
}

/// Calls `f` with each name a binding target binds: `x`, `a, (b, *c)`; not `o.x`, `o[i]`.
fn bound_names(target: Node<'_>, src: &str, k: &Kinds, f: &mut impl FnMut(&str)) {
    let id = target.kind_id();
    if id == k.identifier {
        f(text(target, src));
    } else if id != k.attribute && target.kind() != "subscript" {
        for c in named_children(target) {
            bound_names(c, src, k, f);
        }
    }
}

/// The name a parameter binds (`x`, `x: T`, `x=1`, `*args`, `**kw`).
fn param_name<'t>(p: Node<'t>, k: &Kinds) -> Option<Node<'t>> {
    if p.kind_id() == k.identifier {
        return Some(p);
    }
    p.child_by_field_id(field_ids().name).or_else(|| {
        named_children(p)
            .into_iter()
            .find(|c| c.kind_id() == k.identifier)
    })
}

/// Types local variables, records aliases (a name bound exactly once in the body, nested
/// functions' parameters and loop targets counted), reports `self.x = …` assignments
/// through `on_attr`, and collects the calls (the `@reference.call` nodes of the query
/// file).
#[allow(clippy::too_many_arguments)]
fn bind_locals<'t, 's>(
    body: Node<'t>,
    src: &'s str,
    k: &Kinds,
    locals: &mut Locals,
    on_attr: &mut impl FnMut(String, Recv),
    calls: &mut Vec<Node<'t>>,
    imports: &mut Vec<Import>,
    reads: &mut Vec<(u32, Path)>,
) {
    // How many times each name is bound in the body.
    let mut bindings: HashMap<String, u32> = HashMap::new();
    let mut bind = |name: &str, times: u32| *bindings.entry(name.to_string()).or_default() += times;
    // Names declared `global` (or `nonlocal`): assigning them is a use of the outer one.
    let mut outer: HashSet<&'s str> = HashSet::new();
    // What the body reads or assigns by name (`LIMIT`, `config.TIMEOUT`), kept below
    // unless the name is local; nodes that name no value (a callee, an attribute's field,
    // a keyword argument's name) are skipped.
    let mut candidates: Vec<Found<'s>> = Vec::new();
    let mut not_reads: HashSet<usize> = HashSet::new();
    walk_pruned(body, &mut |n| {
        let id = n.kind_id();
        if id == k.identifier {
            if !not_reads.contains(&n.id()) {
                candidates.push((line_of(n), [text(n, src), "", ""], 1));
            }
            return true;
        }
        if id == k.attribute {
            return attribute_reads(n, src, &mut not_reads, &mut |f| candidates.push(f));
        }
        if id == k.keyword_argument {
            if let Some(name) = n.child_by_field_id(field_ids().name) {
                not_reads.insert(name.id());
            }
            return true;
        }
        if id == k.augmented_assignment || id == k.for_statement || id == k.for_in_clause {
            if let Some(left) = n.child_by_field_id(field_ids().left) {
                bound_names(left, src, k, &mut |x| bind(x, 1));
            }
            return true;
        }
        if id == k.named_expression {
            if let Some(name) = n.child_by_field_id(field_ids().name) {
                bind(text(name, src), 1);
            }
            return true;
        }
        if id == k.as_pattern {
            if let Some(alias) = n.child_by_field_id(field_ids().alias) {
                bound_names(alias, src, k, &mut |x| bind(x, 1));
            }
            return true;
        }
        if id == k.global_statement || id == k.nonlocal_statement {
            bound_names(n, src, k, &mut |x| bind(x, 2));
            for name in named_children(n) {
                if name.kind_id() == k.identifier {
                    outer.insert(text(name, src));
                }
            }
            return false;
        }
        if id == k.function_definition || id == k.lambda || id == k.class_definition {
            if let Some(name) = n.child_by_field_id(field_ids().name) {
                bind(text(name, src), 1);
            }
            if let Some(params) = n.child_by_field_id(field_ids().parameters) {
                for p in named_children(params) {
                    if let Some(name) = param_name(p, k) {
                        bind(text(name, src), 1);
                    }
                }
            }
            return true;
        }
        if id == k.string {
            // Only an f-string (or t-string) holds expressions; the nodes of the others
            // are skipped, a good share of the walk.
            let head = src.get(n.start_byte()..).unwrap_or("");
            let prefix = &head[..head.find(['"', '\'']).unwrap_or(0)];
            return prefix.contains(['f', 'F', 't', 'T']);
        }
        if id == k.call {
            calls.push(n);
            // A call is no read of its callee (`f(x)`); `obj.m(x)` still reads `obj`.
            if let Some(f) = n.child_by_field_id(field_ids().function) {
                not_reads.insert(f.id());
            }
            return true;
        }
        if id == k.import_statement || id == k.import_from_statement {
            import(n, src, imports);
            return false;
        }
        if id != k.assignment {
            return true;
        }
        let Some(left) = n.child_by_field_id(field_ids().left) else {
            return true;
        };
        let ty = n.child_by_field_id(field_ids().ty);
        let right = n.child_by_field_id(field_ids().right);
        bound_names(left, src, k, &mut |x| bind(x, 1));
        let recv = if let Some(t) = ty {
            annotation_type(t, src).map_or(Recv::Opaque, Recv::Typed)
        } else if let Some(r) = right {
            expr_recv(r, src, locals)
        } else {
            return true;
        };
        match left.kind() {
            "identifier" => {
                let name = text(left, src).to_string();
                if ty.is_none()
                    && !locals.scope.contains_key(&name)
                    && let Some(r) = right
                    && (r.kind_id() == k.identifier || r.kind_id() == k.attribute)
                    && let Some(t) = call_target(r, src, locals, false)
                {
                    locals.aliases.insert(name.clone(), t);
                }
                // The first binding wins: later reassignments rarely change the type.
                locals.scope.entry(name).or_insert(recv);
            }
            "attribute" => {
                if let (Some(obj), Some(attr)) = (
                    left.child_by_field_id(field_ids().object),
                    left.child_by_field_id(field_ids().attribute),
                ) && matches!(locals.scope.get(text(obj, src)), Some(Recv::SelfRef))
                {
                    on_attr(text(attr, src).to_string(), recv);
                }
            }
            _ => {}
        }
        true
    });
    // A name bound again (or a parameter, bound before the body) is no alias.
    locals
        .aliases
        .retain(|name, _| bindings.get(name).copied() == Some(1));
    let mut seen: HashSet<Found<'_>> = HashSet::new();
    for found @ (line, p, len) in candidates {
        let head = p[0];
        let local = !outer.contains(head)
            && (locals.scope.contains_key(head) || bindings.contains_key(head));
        if !local && seen.insert(found) {
            reads.push((line, p[..len].iter().map(|s| s.to_string()).collect()));
        }
    }
}

/// A read as found: up to three names (`tenacity.stop.stop_never`) and how many there are.
type Found<'s> = (u32, [&'s str; 3], usize);

/// The reads an attribute chain rooted at a name makes: `tenacity.stop.stop_never` reads
/// `tenacity`, `tenacity.stop` and `tenacity.stop.stop_never` (the linker keeps whichever
/// is a variable or constant: a module's, or the name itself); a callee's last field is
/// no read (`LOGGER.info(…)` reads `LOGGER`). Returns whether the walk must still enter the
/// node: not for a chain of names, whose every part is read here; yes when it starts at
/// an expression (`f(x).y`), whose field is then marked as no read.
fn attribute_reads<'s>(
    n: Node<'_>,
    src: &'s str,
    not_reads: &mut HashSet<usize>,
    out: &mut impl FnMut(Found<'s>),
) -> bool {
    let k = kinds();
    let callee = not_reads.contains(&n.id());
    let mut fields: Vec<&'s str> = Vec::new();
    let mut at = n;
    let root = loop {
        let (Some(obj), Some(field)) = (
            at.child_by_field_id(field_ids().object),
            at.child_by_field_id(field_ids().attribute),
        ) else {
            return true;
        };
        fields.push(text(field, src));
        if obj.kind_id() == k.attribute {
            at = obj;
            continue;
        }
        if obj.kind_id() != k.identifier {
            if let Some(field) = n.child_by_field_id(field_ids().attribute) {
                not_reads.insert(field.id());
            }
            return true;
        }
        break obj;
    };
    fields.reverse();
    if callee {
        fields.pop();
    }
    let line = line_of(n);
    let mut p = [text(root, src), "", ""];
    out((line, p, 1));
    for (i, f) in fields.into_iter().take(2).enumerate() {
        p[i + 1] = f;
        out((line, p, i + 2));
    }
    false
}

/// The decorators of a definition as calls it makes (`@retry(max_attempts=3)` and `@retry`
/// both call `retry` with the function): applying a decorator is where it is used. Names
/// are resolved in the enclosing scope, not the function's.
fn decorator_calls(def: Node<'_>, src: &str, k: &Kinds) -> Vec<RawCall> {
    let Some(parent) = def
        .parent()
        .filter(|p| p.kind_id() == k.decorated_definition)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in named_children(parent) {
        if d.kind_id() != k.decorator {
            continue;
        }
        let Some(expr) = named_children(d).into_iter().next() else {
            continue;
        };
        let callee = if expr.kind_id() == k.call {
            expr.child_by_field_id(field_ids().function)
        } else {
            Some(expr)
        };
        if let Some(c) = callee
            && let Some(target) = call_target(c, src, &Locals::default(), false)
        {
            out.push(RawCall {
                line: line_of(d),
                target,
            });
        }
    }
    out
}

/// Whether a decorated definition is a `@property` (`cached_property`,
/// `functools.cached_property`, `abc.abstractproperty`).
fn is_property(n: Node<'_>, src: &str, k: &Kinds) -> bool {
    named_children(n).into_iter().any(|d| {
        d.kind_id() == k.decorator
            && matches!(
                text(d, src).trim_start_matches('@').trim(),
                "property"
                    | "cached_property"
                    | "functools.cached_property"
                    | "abstractproperty"
                    | "abc.abstractproperty"
            )
    })
}

/// The expression of a body that is one `return <expr>` (after its docstring).
fn sole_return<'t>(body: Node<'t>, k: &Kinds) -> Option<Node<'t>> {
    let mut stmts = named_children(body);
    stmts.retain(|s| s.kind() != "comment");
    if stmts.first().is_some_and(|s| {
        s.kind_id() == k.expression_statement
            && named_children(*s)
                .first()
                .is_some_and(|c| c.kind_id() == k.string)
    }) {
        stmts.remove(0);
    }
    match stmts.as_slice() {
        [r] if r.kind_id() == k.return_statement => named_children(*r).first().copied(),
        _ => None,
    }
}

fn expr_recv(e: Node<'_>, src: &str, locals: &Locals) -> Recv {
    let scope = &locals.scope;
    match e.kind() {
        "call" => {
            let Some(f) = e.child_by_field_id(field_ids().function) else {
                return Recv::Unknown;
            };
            match call_target(f, src, locals, true) {
                Some(t) => Recv::CallResult(Box::new(t)),
                None => Recv::Unknown,
            }
        }
        "identifier" => scope.get(text(e, src)).cloned().unwrap_or(Recv::Unknown),
        "attribute" => match dotted(e, src) {
            Some(p) if p.len() > 1 => match scope.get(&p[0]) {
                Some(r) => Recv::Field(Box::new(r.clone()), p[1..].to_vec()),
                None => Recv::Unknown,
            },
            _ => Recv::Unknown,
        },
        "boolean_operator" => {
            let l = e
                .child_by_field_id(field_ids().left)
                .map_or(Recv::Unknown, |l| expr_recv(l, src, locals));
            match l {
                Recv::Unknown | Recv::Opaque => e
                    .child_by_field_id(field_ids().right)
                    .map_or(Recv::Unknown, |r| expr_recv(r, src, locals)),
                other => other,
            }
        }
        "parenthesized_expression" | "conditional_expression" => named_children(e)
            .first()
            .map_or(Recv::Unknown, |c| expr_recv(*c, src, locals)),
        "string"
        | "integer"
        | "float"
        | "list"
        | "dictionary"
        | "set"
        | "tuple"
        | "true"
        | "false"
        | "none"
        | "list_comprehension"
        | "dictionary_comprehension"
        | "binary_operator"
        | "lambda" => Recv::Opaque,
        _ => Recv::Unknown,
    }
}

fn call_target(
    function: Node<'_>,
    src: &str,
    locals: &Locals,
    is_method: bool,
) -> Option<CallTarget> {
    let scope = &locals.scope;
    match function.kind() {
        "identifier" => {
            let name = text(function, src);
            if let Some(t) = locals.aliases.get(name) {
                return Some(t.clone());
            }
            if scope.contains_key(name) || name == "super" {
                return None;
            }
            Some(CallTarget::Path(vec![name.to_string()]))
        }
        "attribute" => {
            let name = text(function.child_by_field_id(field_ids().attribute)?, src).to_string();
            let mut fields = Vec::new();
            let mut base = function.child_by_field_id(field_ids().object)?;
            while base.kind() == "attribute" {
                fields.push(text(base.child_by_field_id(field_ids().attribute)?, src).to_string());
                base = base.child_by_field_id(field_ids().object)?;
            }
            fields.reverse();
            let base_recv = match base.kind() {
                "identifier" => {
                    let b = text(base, src);
                    // Through an alias, as if its value were written here.
                    match locals.aliases.get(b).cloned() {
                        Some(CallTarget::Path(mut path)) => {
                            path.extend(fields);
                            path.push(name);
                            return Some(CallTarget::Path(path));
                        }
                        Some(CallTarget::Member {
                            base,
                            fields: mut chain,
                            name: attr,
                        }) => {
                            chain.push(attr);
                            chain.extend(fields);
                            return Some(CallTarget::Member {
                                base,
                                fields: chain,
                                name,
                            });
                        }
                        None => {}
                    }
                    match scope.get(b) {
                        Some(r) => r.clone(),
                        None => {
                            let mut path = vec![b.to_string()];
                            path.extend(fields);
                            path.push(name);
                            return Some(CallTarget::Path(path));
                        }
                    }
                }
                "call" => {
                    let is_super = base
                        .child_by_field_id(field_ids().function)
                        .is_some_and(|f| text(f, src) == "super");
                    if is_super && is_method {
                        Recv::Super
                    } else {
                        expr_recv(base, src, locals)
                    }
                }
                _ => expr_recv(base, src, locals),
            };
            Some(CallTarget::Member {
                base: base_recv,
                fields,
                name,
            })
        }
        _ => None,
    }
}

/// `def name(params) -> ret:` on one line, whitespace collapsed.
fn def_signature(node: Node<'_>, src: &str) -> String {
    let end = node
        .child_by_field_id(field_ids().body)
        .map_or(node.end_byte(), |b| b.start_byte());
    let head = src.get(node.start_byte()..end).unwrap_or("");
    let collapsed: String = head.split_whitespace().collect::<Vec<_>>().join(" ");
    let collapsed = collapsed
        .replace("( ", "(")
        .replace(", )", ")")
        .replace(",)", ")");
    shorten(&collapsed, 160)
}

/// First non-empty line of a block's docstring.
fn docstring(body: Node<'_>, src: &str) -> Option<String> {
    let first = named_children(body).into_iter().next()?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let s = named_children(first).into_iter().next()?;
    if s.kind() != "string" {
        return None;
    }
    let t = text(s, src);
    let t = t.trim_start_matches(['r', 'u', 'R', 'U', 'b', 'B']);
    let t = t.trim_matches(['"', '\'']);
    t.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| shorten(l, 160))
}

fn assignment_kind(name: &str, node: Node<'_>, src: &str) -> Kind {
    if let Some(t) = node.child_by_field_id(field_ids().ty)
        && text(t, src).contains("TypeAlias")
    {
        return Kind::Type;
    }
    let has_letter = name.chars().any(|c| c.is_ascii_alphabetic());
    if has_letter
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        return Kind::Const;
    }
    if name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && let Some(r) = node.child_by_field_id(field_ids().right)
        && r.kind() == "subscript"
        && let Some(v) = r.child_by_field_id(field_ids().value)
    {
        let head = text(v, src);
        let head = head.rsplit('.').next().unwrap_or(head);
        if matches!(
            head,
            "Callable"
                | "Union"
                | "Optional"
                | "Dict"
                | "List"
                | "Tuple"
                | "Type"
                | "Literal"
                | "Mapping"
                | "Sequence"
        ) {
            return Kind::Type;
        }
    }
    Kind::Var
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_field_and_kind_the_walks_use_is_in_the_grammar() {
        let f = super::field_ids();
        let k = super::kinds();
        for id in [
            f.alias,
            f.attribute,
            f.body,
            f.function,
            f.left,
            f.module_name,
            f.name,
            f.object,
            f.parameters,
            f.return_type,
            f.right,
            f.superclasses,
            f.ty,
            f.value,
            k.module,
            k.import_statement,
            k.import_from_statement,
            k.class_definition,
            k.function_definition,
            k.expression_statement,
            k.assignment,
            k.identifier,
            k.call,
            k.string,
            k.attribute,
            k.augmented_assignment,
            k.for_statement,
            k.for_in_clause,
            k.named_expression,
            k.as_pattern,
            k.global_statement,
            k.nonlocal_statement,
            k.lambda,
            k.decorated_definition,
            k.decorator,
            k.return_statement,
        ] {
            assert_ne!(id, 0);
        }
    }
}
