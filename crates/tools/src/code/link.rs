//! The link step: from every file's facts to one graph of symbols and edges.
//!
//! Linking needs all files at once (an import names another package, a receiver's field
//! has a type defined elsewhere), so it runs after extraction, on the cached facts, every
//! time any file changed. It is a few hash lookups per reference, cheap next to parsing.
//!
//! Resolution, most precise first (see `docs/code-graph.md`):
//! 1. a name in file scope: Go package qualifiers and same-package names, Python module
//!    names and imports (relative, absolute, re-exported through `__init__`);
//! 2. a method on a value whose type is known: Go receivers, typed parameters, `x :=
//!    NewT()`, `&T{}`, struct fields; Python `self`/`cls`, `super()`, annotated
//!    parameters, `x = Class()`, `-> T` results, `self.attr` assigned in methods or
//!    annotated in the class body; methods are looked up through embedded types and base
//!    classes;
//! 3. otherwise, when nothing is known of the receiver, every method of that name, if
//!    there are at most [`MAX_NAME_MATCHES`], each edge marked `inferred`. A receiver of
//!    a known type from outside the repository (`t *testing.T`, `str`) gives no edge.

use std::collections::BTreeMap;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::extract::{
    COMMONJS_EXPORTS, CallTarget, DEFAULT_EXPORT, FileFacts, ImplBlock, Path, RawSymbol, Recv,
    SELF_MODULE, STAR, go_import_name,
};
use super::model::{Edge, EdgeKind, FileInfo, Kind, Language, Symbol, SymbolId};

/// A receiver of unknown type links to every method of that name only when there are
/// this many or fewer; more would be noise.
pub const MAX_NAME_MATCHES: usize = 5;

/// The linked graph, as stored in the cache and loaded into a store.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphData {
    /// Every indexed file.
    pub files: Vec<FileInfo>,
    /// Every symbol; a [`SymbolId`] indexes this list.
    pub symbols: Vec<Symbol>,
    /// Every edge.
    pub edges: Vec<Edge>,
}

/// One file to link: its path, language and facts.
pub struct Input<'a> {
    /// Repo-relative path.
    pub path: &'a str,
    /// Its language.
    pub language: Language,
    /// What extraction found.
    pub facts: &'a FileFacts,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ent {
    Sym(SymbolId),
    /// A Go package or Python module, by index into `Linker::modules`.
    Module(usize),
    /// Something outside the repository.
    External,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Val {
    Type(SymbolId),
    /// The parent classes of this class (`super()`).
    Super(SymbolId),
    External,
    Unknown,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct FileScope {
    /// Go package path, Python module name, Rust module path (`crate.parser.lexer`), Java
    /// package (empty for the default package).
    prefix: String,
    /// Python: the package relative imports start from. Rust: the crate root module.
    package: String,
    /// Local name → Go package path or Python absolute dotted target (TypeScript and
    /// JavaScript: the specifier as written).
    imports: BTreeMap<String, String>,
    /// TypeScript and JavaScript: local name → the module it comes from (`None` outside
    /// the repository) and the exported name (`None` for the whole module).
    js: BTreeMap<String, (Option<usize>, Option<String>)>,
    /// TypeScript and JavaScript: the modules re-exported whole (`export * from`). Rust
    /// and Java: the modules imported whole (`use super::*`, `import a.b.*`).
    stars: Vec<usize>,
}

struct Linker<'a> {
    inputs: &'a [Input<'a>],
    scopes: Vec<FileScope>,
    symbols: Vec<Symbol>,
    raw: Vec<(usize, &'a RawSymbol)>,
    by_qname: HashMap<String, SymbolId>,
    /// Go package paths and Python module names in the repository.
    modules: HashMap<String, usize>,
    module_names: Vec<String>,
    /// Python modules: index of the file that defines it (for re-exports).
    module_file: HashMap<usize, usize>,
    methods: HashMap<SymbolId, HashMap<String, SymbolId>>,
    bases: HashMap<SymbolId, Vec<SymbolId>>,
    /// Methods by language family and name, for calls on values of unknown type.
    methods_by_name: HashMap<(Language, String), Vec<SymbolId>>,
    /// Method → the type that contains it (`self`'s type; a Rust `impl` may be in
    /// another module than its type).
    owner_of: HashMap<SymbolId, SymbolId>,
    /// Rust: the root modules of the repository's crates.
    rust_crates: HashSet<String>,
    /// Rust `impl Trait for Type` in the type's own file: (type, trait) → the `impl` line,
    /// the line its `implements` edge cites.
    impl_lines: HashMap<(SymbolId, SymbolId), u32>,
}

/// Links the facts of `inputs` into a graph. `go_modules` maps a directory holding a
/// `go.mod` (repo-relative, `""` for the root) to its module path.
pub fn link(inputs: &[Input<'_>], go_modules: &[(String, String)]) -> GraphData {
    link_reusing(inputs, go_modules, Reuse::default())
}

/// What a refresh keeps from the previous link when every file's [`surface`] is as it was.
#[derive(Debug, Default)]
pub struct Reuse {
    /// Per file, its calls and uses edges to keep (`None`: resolve them again).
    pub body: Vec<Option<Vec<Edge>>>,
    /// The contains and implements edges of the old graph, when every surface is the same:
    /// they follow from the surfaces alone, so only their lines (the method's, the
    /// implementing type's) are taken again from the new symbols.
    pub declared: Option<Vec<Edge>>,
}

/// [`link`], keeping what `reuse` holds instead of resolving it again: the calls and uses
/// edges of the files whose `reuse.body[i]` is `Some` (missing entries count as `None`),
/// and the contains and implements edges when `reuse.declared` is given.
///
/// Those edges depend on the file's own facts and on what every file declares (its
/// [`surface`]), never on another file's bodies. So after an edit that left every
/// surface as it was, the edges of the unchanged files are still right, ids included,
/// and only the edited files need resolving: that is most of the link's time.
pub fn link_reusing(
    inputs: &[Input<'_>],
    go_modules: &[(String, String)],
    reuse: Reuse,
) -> GraphData {
    link_with_tables(inputs, go_modules, reuse).0
}

/// The tables a link built, kept to be written to the store file beside the graph
/// (`lazy::save`): a later refresh of edited files resolves their calls against them
/// instead of building them again from every file's facts.
#[derive(Debug, Default)]
pub struct Linked {
    /// Per file, its scope.
    pub(super) scopes: Vec<FileScope>,
    /// Per file, the id of its first symbol (symbols are numbered file by file).
    pub(super) first_sym: Vec<SymbolId>,
    pub(super) by_qname: HashMap<String, SymbolId>,
    pub(super) module_names: Vec<String>,
    pub(super) module_file: HashMap<usize, usize>,
    pub(super) methods: HashMap<SymbolId, HashMap<String, SymbolId>>,
    pub(super) bases: HashMap<SymbolId, Vec<SymbolId>>,
    pub(super) methods_by_name: HashMap<(Language, String), Vec<SymbolId>>,
    pub(super) owner_of: HashMap<SymbolId, SymbolId>,
    pub(super) rust_crates: HashSet<String>,
    /// Per module, how many files are that module (their own prefix).
    pub(super) module_own: Vec<u32>,
    /// Go: the package name an import path is imported as when not renamed.
    pub(super) go_names: BTreeMap<String, String>,
    /// Per file, every lookup its link made ([`lookup`] keys, sorted): a change that
    /// alters none of them leaves the file's edges as they are. `None` when not known.
    pub(super) lookups: Option<Vec<Vec<u64>>>,
    /// The files whose calls and uses were kept from an earlier link: their lookups lack
    /// those of the calls and uses ([`Linked::keep_lookups`] adds the earlier link's).
    pub(super) reused: Vec<usize>,
}

impl Linked {
    /// Completes the lookups of the files whose edges were kept with `earlier`'s (per
    /// file, from the link that resolved them: same files, same surfaces, so the same
    /// lookups); without them, the lookups are unknown.
    pub(super) fn keep_lookups(&mut self, earlier: Option<Vec<Vec<u64>>>) {
        if self.reused.is_empty() {
            return;
        }
        match (earlier, self.lookups.as_mut()) {
            (Some(old), Some(logs)) if old.len() == logs.len() => {
                for &fi in &self.reused {
                    logs[fi].extend_from_slice(&old[fi]);
                    logs[fi].sort_unstable();
                    logs[fi].dedup();
                }
            }
            _ => self.lookups = None,
        }
        self.reused.clear();
    }
}

/// What a link looks up in its tables, hashed ([`lookup`]): the kinds of key.
pub(super) mod key {
    /// A qualified name (`Tables::qname_id`).
    pub const QNAME: u8 = 1;
    /// A module by name (`Tables::module`).
    pub const MODULE: u8 = 2;
    /// The file defining a module, by the module's name (`Tables::module_file`).
    pub const MODULE_FILE: u8 = 3;
    /// A type's method by name (`Tables::method`).
    pub const METHOD: u8 = 4;
    /// A type's bases (`Tables::bases`).
    pub const BASES: u8 = 5;
    /// Methods by language family and name (`Tables::named_methods`).
    pub const NAMED: u8 = 6;
    /// A method's type (`Tables::owner`).
    pub const OWNER: u8 = 7;
    /// The package name a Go import path is imported as when not renamed.
    pub const GO_NAME: u8 = 8;
    /// A module by name, looked up while building a file's scope (TypeScript, Rust and
    /// Java imports): a change to it changes the scope itself.
    pub const SCOPE_MODULE: u8 = 9;
}

/// The hash of one lookup (FNV-1a over the kind, an id and a name): what a file's link
/// read, so that a later refresh can tell which files a change can reach.
pub(super) fn lookup(kind: u8, id: u32, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    eat(kind);
    for b in id.to_le_bytes() {
        eat(b);
    }
    for &b in name.as_bytes() {
        eat(b);
    }
    h
}

/// A [`Tables`] that notes every lookup ([`lookup`]) its resolution makes.
pub(super) struct Logged<'t, T: ?Sized> {
    tables: &'t T,
    log: std::cell::RefCell<Vec<u64>>,
}

impl<'t, T: Tables + ?Sized> Logged<'t, T> {
    /// Notes the lookups made through `tables`.
    pub(super) fn new(tables: &'t T) -> Self {
        Logged {
            tables,
            log: std::cell::RefCell::new(Vec::new()),
        }
    }

    fn note(&self, kind: u8, id: u32, name: &str) {
        self.log.borrow_mut().push(lookup(kind, id, name));
    }

    /// The lookups noted, sorted and without repeats.
    pub(super) fn into_log(self) -> Vec<u64> {
        let mut log = self.log.into_inner();
        log.sort_unstable();
        log.dedup();
        log
    }
}

impl<T: Tables + ?Sized> Tables for Logged<'_, T> {
    fn lang(&self, fi: usize) -> Language {
        self.tables.lang(fi)
    }

    fn scope(&self, fi: usize) -> &FileScope {
        self.tables.scope(fi)
    }

    fn kind(&self, id: SymbolId) -> Kind {
        self.tables.kind(id)
    }

    fn qname(&self, id: SymbolId) -> &str {
        self.tables.qname(id)
    }

    fn file_of(&self, id: SymbolId) -> usize {
        self.tables.file_of(id)
    }

    fn raw(&self, id: SymbolId) -> (usize, &RawSymbol) {
        self.tables.raw(id)
    }

    fn qname_id(&self, qname: &str) -> Option<SymbolId> {
        self.note(key::QNAME, 0, qname);
        self.tables.qname_id(qname)
    }

    fn module(&self, name: &str) -> Option<usize> {
        self.note(key::MODULE, 0, name);
        self.tables.module(name)
    }

    fn module_name(&self, m: usize) -> &str {
        self.tables.module_name(m)
    }

    fn module_file(&self, m: usize) -> Option<usize> {
        self.note(key::MODULE_FILE, 0, self.tables.module_name(m));
        self.tables.module_file(m)
    }

    fn method(&self, t: SymbolId, name: &str) -> Option<SymbolId> {
        self.note(key::METHOD, t, name);
        self.tables.method(t, name)
    }

    fn bases(&self, t: SymbolId) -> &[SymbolId] {
        self.note(key::BASES, t, "");
        self.tables.bases(t)
    }

    fn named_methods(&self, family: Language, name: &str) -> Option<Vec<SymbolId>> {
        self.note(key::NAMED, family as u32, name);
        self.tables.named_methods(family, name)
    }

    fn owner(&self, id: SymbolId) -> Option<SymbolId> {
        self.note(key::OWNER, id, "");
        self.tables.owner(id)
    }

    fn rust_crates(&self) -> &HashSet<String> {
        self.tables.rust_crates()
    }
}

/// [`link_reusing`], also returning the tables it resolved against.
pub fn link_with_tables(
    inputs: &[Input<'_>],
    go_modules: &[(String, String)],
    reuse: Reuse,
) -> (GraphData, Linked) {
    let Reuse {
        body: mut kept,
        declared,
    } = reuse;
    let mut files = Vec::with_capacity(inputs.len());
    let init_dirs: HashSet<&str> = inputs
        .iter()
        .filter(|i| i.path == "__init__.py" || i.path.ends_with("/__init__.py"))
        .map(|i| parent_dir(i.path))
        .collect();
    let mut go_mods: Vec<&(String, String)> = go_modules.iter().collect();
    go_mods.sort_by_key(|(d, _)| std::cmp::Reverse(d.len()));

    let mut scopes = Vec::with_capacity(inputs.len());
    for input in inputs {
        let class = crate::paths::classify(input.path);
        files.push(FileInfo {
            path: input.path.to_string(),
            language: input.language,
            lines: input.facts.lines,
            is_test: crate::paths::is_test_code(input.path),
            is_vendored: class.vendored,
            is_generated: input.facts.generated,
        });
        scopes.push(match input.language {
            Language::Go => FileScope {
                prefix: go_package_path(input.path, &input.facts.package, &go_mods),
                package: String::new(),
                imports: BTreeMap::new(),
                js: BTreeMap::new(),
                stars: Vec::new(),
            },
            Language::Python => {
                let (module, package) = python_module(input.path, &init_dirs);
                FileScope {
                    prefix: module,
                    package,
                    imports: BTreeMap::new(),
                    js: BTreeMap::new(),
                    stars: Vec::new(),
                }
            }
            Language::TypeScript | Language::Tsx | Language::JavaScript => FileScope {
                prefix: js_module(input.path).to_string(),
                package: parent_dir(input.path).to_string(),
                imports: BTreeMap::new(),
                js: BTreeMap::new(),
                stars: Vec::new(),
            },
            Language::Rust => {
                let (module, krate) = rust_module(input.path);
                FileScope {
                    prefix: module,
                    package: krate,
                    imports: BTreeMap::new(),
                    js: BTreeMap::new(),
                    stars: Vec::new(),
                }
            }
            Language::Java => FileScope {
                prefix: input.facts.package.clone(),
                package: String::new(),
                imports: BTreeMap::new(),
                js: BTreeMap::new(),
                stars: Vec::new(),
            },
        });
    }

    let mut l = Linker {
        inputs,
        scopes,
        symbols: Vec::new(),
        raw: Vec::new(),
        by_qname: HashMap::new(),
        modules: HashMap::new(),
        module_names: Vec::new(),
        module_file: HashMap::new(),
        methods: HashMap::new(),
        bases: HashMap::new(),
        methods_by_name: HashMap::new(),
        owner_of: HashMap::new(),
        rust_crates: HashSet::new(),
        impl_lines: HashMap::new(),
    };

    // Modules and Go package names.
    let mut go_pkg_names: HashMap<String, String> = HashMap::new();
    for (fi, input) in inputs.iter().enumerate() {
        let prefix = l.scopes[fi].prefix.clone();
        let next = l.module_names.len();
        let mi = *l.modules.entry(prefix.clone()).or_insert(next);
        if mi == next {
            l.module_names.push(prefix.clone());
        }
        if input.language.family() == Language::TypeScript {
            l.module_file.entry(mi).or_insert(fi);
        } else if matches!(input.language, Language::Python | Language::Rust) {
            l.module_file.insert(mi, fi);
            // Parent packages exist as modules even without their own symbols.
            let mut p = prefix.as_str();
            while let Some((parent, _)) = p.rsplit_once('.') {
                let next = l.module_names.len();
                if *l.modules.entry(parent.to_string()).or_insert(next) == next {
                    l.module_names.push(parent.to_string());
                }
                p = parent;
            }
        } else if input.language == Language::Go && !input.facts.package.ends_with("_test") {
            go_pkg_names
                .entry(prefix)
                .or_insert_with(|| input.facts.package.clone());
        }
    }
    // The crates of the repository, by their root module.
    let rust_crates: HashSet<String> = inputs
        .iter()
        .zip(&l.scopes)
        .filter(|(i, _)| i.language == Language::Rust)
        .map(|(_, s)| s.package.clone())
        .collect();
    l.rust_crates = rust_crates.clone();
    // What each file's link looks up, for the refresh in place (`relink`).
    let mut logs: Vec<Vec<u64>> = vec![Vec::new(); inputs.len()];
    // Import maps.
    for (fi, input) in inputs.iter().enumerate() {
        let mut imports = BTreeMap::new();
        let mut js = BTreeMap::new();
        let mut stars = Vec::new();
        for imp in &input.facts.imports {
            match input.language {
                Language::TypeScript | Language::Tsx | Language::JavaScript => {
                    let mut seen = |name: &str| {
                        logs[fi].push(lookup(key::SCOPE_MODULE, 0, name));
                    };
                    let module = if imp.module == SELF_MODULE {
                        seen(&l.scopes[fi].prefix);
                        l.modules.get(&l.scopes[fi].prefix).copied()
                    } else {
                        js_resolve_specifier(
                            &l.scopes[fi].package,
                            &imp.module,
                            &l.modules,
                            &mut seen,
                        )
                    };
                    if imp.local == STAR {
                        stars.extend(module);
                        continue;
                    }
                    imports.insert(imp.local.clone(), imp.module.clone());
                    js.insert(imp.local.clone(), (module, imp.name.clone()));
                }
                Language::Go => {
                    let (local, module) = go_import(imp, |m| {
                        logs[fi].push(lookup(key::GO_NAME, 0, m));
                        go_pkg_names.get(m).cloned()
                    });
                    imports.insert(local, module);
                }
                Language::Python => {
                    let (local, target) = python_import(imp, &l.scopes[fi].package);
                    if local == STAR {
                        logs[fi].push(lookup(key::SCOPE_MODULE, 0, &target));
                        stars.extend(l.modules.get(&target).copied());
                    } else {
                        imports.insert(local, target);
                    }
                }
                Language::Rust => {
                    let target = rust_absolute(
                        &l.scopes[fi],
                        &imp.module,
                        &l.modules,
                        &rust_crates,
                        &mut |name| logs[fi].push(lookup(key::SCOPE_MODULE, 0, name)),
                    );
                    if imp.local == STAR {
                        logs[fi].push(lookup(key::SCOPE_MODULE, 0, &target));
                        stars.extend(l.modules.get(&target).copied());
                    } else {
                        imports.insert(imp.local.clone(), target);
                    }
                }
                Language::Java => {
                    if imp.local == STAR {
                        logs[fi].push(lookup(key::SCOPE_MODULE, 0, &imp.module));
                        stars.extend(l.modules.get(&imp.module).copied());
                    } else {
                        imports.insert(imp.local.clone(), imp.module.clone());
                    }
                }
            }
        }
        l.scopes[fi].imports = imports;
        l.scopes[fi].js = js;
        l.scopes[fi].stars = stars;
    }

    // Symbols.
    let mut first_sym = Vec::with_capacity(inputs.len());
    for (fi, input) in inputs.iter().enumerate() {
        first_sym.push(l.symbols.len() as SymbolId);
        let file = &files[fi];
        for raw in &input.facts.symbols {
            let mut display_parts = raw.container.clone();
            display_parts.push(raw.name.clone());
            let display = display_parts.join(".");
            let prefix = &l.scopes[fi].prefix;
            let qname = if prefix.is_empty() {
                display.clone()
            } else {
                dot(prefix, &display)
            };
            let id = l.symbols.len() as SymbolId;
            l.by_qname.entry(qname.clone()).or_insert(id);
            l.symbols.push(Symbol {
                name: raw.name.clone(),
                display,
                qname,
                kind: raw.kind,
                file: fi as u32,
                path: input.path.to_string(),
                line: raw.line,
                end_line: raw.end_line,
                signature: raw.signature.clone(),
                doc: raw.doc.clone(),
                is_test: file.is_test || raw.test,
                is_vendored: file.is_vendored,
                is_generated: file.is_generated,
            });
            l.raw.push((fi, raw));
        }
    }

    let mut edges = Vec::new();
    // Rust `impl` blocks: their methods belong to the type they name, wherever it is.
    let mut impl_bases: Vec<(SymbolId, SymbolId)> = Vec::new();
    for (fi, input) in inputs.iter().enumerate() {
        for block in &input.facts.impls {
            l.attach_impl(fi, first_sym[fi], block, &mut edges, &mut impl_bases);
        }
    }
    // Contains: type → method.
    for id in 0..l.symbols.len() as SymbolId {
        let (fi, raw) = l.raw[id as usize];
        if raw.kind != Kind::Method || raw.container.is_empty() {
            continue;
        }
        let owner = qualify(&l.scopes[fi].prefix, &raw.container.join("."));
        logs[fi].push(lookup(key::QNAME, 0, &owner));
        if !l.owner_of.contains_key(&id)
            && let Some(&t) = l.by_qname.get(&owner)
            && l.symbols[t as usize].kind.is_type()
        {
            l.owner_of.insert(id, t);
            l.methods
                .entry(t)
                .or_default()
                .entry(raw.name.clone())
                .or_insert(id);
            if declared.is_none() {
                edges.push(Edge {
                    from: t,
                    to: id,
                    kind: EdgeKind::Contains,
                    line: raw.line,
                    inferred: false,
                });
            }
        }
        l.methods_by_name
            .entry((l.lang(fi).family(), raw.name.clone()))
            .or_default()
            .push(id);
    }
    // Bases: embedded types (Go) and base classes (Python).
    for id in 0..l.symbols.len() as SymbolId {
        let (fi, raw) = l.raw[id as usize];
        if !raw.kind.is_type() || raw.bases.is_empty() {
            continue;
        }
        let mut bs = Vec::new();
        let logged = Logged::new(&l);
        for b in &raw.bases {
            if let Some(Ent::Sym(s)) = logged.resolve_path(fi, b)
                && l.symbols[s as usize].kind.is_type()
                && s != id
            {
                bs.push(s);
            }
        }
        logs[fi].extend(logged.into_log());
        if !bs.is_empty() {
            l.bases.insert(id, bs);
        }
    }
    for (t, tr) in impl_bases {
        let bs = l.bases.entry(t).or_default();
        if !bs.contains(&tr) {
            bs.push(tr);
        }
    }
    // Implements.
    match declared {
        Some(old) => {
            // Contains edges carry the method's line, implements edges the type's.
            for mut e in old {
                let at = match e.kind {
                    EdgeKind::Contains => e.to,
                    _ => e.from,
                };
                e.line = l.symbols.get(at as usize).map_or(e.line, |s| s.line);
                // A Rust `impl Trait for Type` in the type's file is cited at its line.
                if e.kind == EdgeKind::Implements
                    && let Some(&line) = l.impl_lines.get(&(e.from, e.to))
                {
                    e.line = line;
                }
                edges.push(e);
            }
        }
        None => {
            l.nominal_implements(&mut edges);
            l.go_implements(&mut edges);
        }
    }
    // Uses and calls: per file, on both cores. Each file's edges depend only on its own
    // facts and on the tables built above, so a refresh may keep them (see
    // [`link_reusing`]).
    let ranges = file_ranges(&l.raw, inputs.len());
    kept.resize_with(inputs.len(), || None);
    let reused: Vec<usize> = kept
        .iter()
        .enumerate()
        .filter(|(_, k)| k.is_some())
        .map(|(i, _)| i)
        .collect();
    let per_file: Vec<(Vec<Edge>, Vec<u64>)> = kept
        .into_par_iter()
        .zip(ranges.into_par_iter())
        .zip(logs.into_par_iter())
        .map(|((kept, range), mut log)| match kept {
            Some(e) => (e, Vec::new()),
            None => {
                let logged = Logged::new(&l);
                let e = logged.file_edges(range);
                log.extend(logged.into_log());
                log.sort_unstable();
                log.dedup();
                (e, log)
            }
        })
        .collect();
    let mut lookups = Vec::with_capacity(per_file.len());
    for (e, log) in per_file {
        edges.extend(e);
        lookups.push(log);
    }
    let mut module_own = vec![0u32; l.module_names.len()];
    for scope in &l.scopes {
        if let Some(&m) = l.modules.get(&scope.prefix) {
            module_own[m] += 1;
        }
    }

    let tables = Linked {
        scopes: l.scopes,
        first_sym,
        by_qname: l.by_qname,
        module_names: l.module_names,
        module_file: l.module_file,
        methods: l.methods,
        bases: l.bases,
        methods_by_name: l.methods_by_name,
        owner_of: l.owner_of,
        rust_crates: l.rust_crates,
        module_own,
        go_names: go_pkg_names.into_iter().collect(),
        lookups: Some(lookups),
        reused,
    };
    let graph = GraphData {
        files,
        symbols: l.symbols,
        edges,
    };
    (graph, tables)
}

/// A Go import as the file sees it: the name it is used by (as written, else the package
/// name `go_name` gives for the path, else the path's last element) and the repository
/// package it names ([`go_path_candidates`]: the path itself, or in a repository without
/// `go.mod` the suffix its directory is known by), else the path as written.
pub(super) fn go_import(
    imp: &super::extract::Import,
    mut go_name: impl FnMut(&str) -> Option<String>,
) -> (String, String) {
    let found = go_path_candidates(&imp.module).find_map(|m| go_name(m).map(|n| (m, n)));
    let path = found
        .as_ref()
        .map_or(imp.module.as_str(), |(m, _)| m)
        .to_string();
    let local = if imp.local.is_empty() {
        found.map_or_else(|| go_import_name(&imp.module).to_string(), |(_, n)| n)
    } else {
        imp.local.clone()
    };
    (local, path)
}

/// The package paths a Go import path may name in this repository, most specific first:
/// the path, then, when its first element is a host (it has a dot, which no standard
/// library path has), each suffix after a `/`. A repository without `go.mod` (GOPATH
/// layouts, distribution packages) knows its packages by directory only, so
/// `github.com/gobwas/glob/syntax/ast` is its `syntax/ast` and `github.com/gobwas/glob`
/// its root package (named by its package clause); `encoding/json` never becomes a
/// local `json`.
pub(super) fn go_path_candidates(path: &str) -> impl Iterator<Item = &str> {
    let hosted = path.split('/').next().is_some_and(|h| h.contains('.'));
    std::iter::once(path).chain(
        path.match_indices('/')
            .filter(move |_| hosted)
            .map(move |(i, _)| &path[i + 1..]),
    )
}

/// A Python import as the file sees it: the local name and the absolute dotted target,
/// relative imports resolved from `package`.
pub(super) fn python_import(imp: &super::extract::Import, package: &str) -> (String, String) {
    let base = if imp.level == 0 {
        imp.module.clone()
    } else {
        let mut pkg = package.to_string();
        for _ in 1..imp.level {
            pkg = pkg
                .rsplit_once('.')
                .map(|(a, _)| a.to_string())
                .unwrap_or_default();
        }
        match (pkg.is_empty(), imp.module.is_empty()) {
            (true, _) => imp.module.clone(),
            (false, true) => pkg,
            (false, false) => format!("{pkg}.{}", imp.module),
        }
    };
    let target = match &imp.name {
        Some(n) => format!("{base}.{n}"),
        None => base,
    };
    (imp.local.clone(), target)
}

impl FileScope {
    /// A Go or Python file's scope: its module (`prefix`), the package relative imports
    /// start from, and its imports.
    pub(super) fn plain(
        prefix: String,
        package: String,
        imports: BTreeMap<String, String>,
    ) -> Self {
        FileScope {
            prefix,
            package,
            imports,
            js: BTreeMap::new(),
            stars: Vec::new(),
        }
    }

    /// Its Go package path, Python module, … (see the field).
    pub(super) fn prefix(&self) -> &str {
        &self.prefix
    }
}

/// The calls and uses edges of `graph`, by the file of their source: what
/// [`link_reusing`] may keep. `None` when the graph does not fit (a symbol out of range).
pub fn body_edges(graph: &GraphData) -> Option<Vec<Vec<Edge>>> {
    let mut out = vec![Vec::new(); graph.files.len()];
    for e in &graph.edges {
        if matches!(e.kind, EdgeKind::Calls | EdgeKind::Uses) {
            let file = graph.symbols.get(e.from as usize)?.file as usize;
            out.get_mut(file)?.push(*e);
        }
    }
    Some(out)
}

/// What a file declares to the rest of the repository, hashed: its Go package, its
/// imports (Python re-exports resolve through them), each definition's name, enclosing
/// types, kind, fields, bases, result types and test flag, in order, and its Rust `impl`
/// blocks but for their lines. Everything the link
/// reads from a file other than the one it resolves. Lines, signatures, docs and bodies
/// (calls, uses) are left out: an edit that changes only those changes no other file's
/// edges and no symbol id.
pub fn surface(facts: &FileFacts) -> [u8; 32] {
    #[derive(Serialize)]
    struct Decl<'a> {
        name: &'a str,
        container: &'a [String],
        kind: Kind,
        fields: &'a [(String, Recv)],
        bases: &'a [Path],
        results: &'a [Path],
        test: bool,
    }
    // A Rust `impl` block's line is left out like a symbol's: only the edges' lines
    // follow it, and a refresh takes them again from the new facts.
    #[derive(Serialize)]
    struct Impl<'a> {
        module: &'a [String],
        ty: &'a Path,
        trait_: &'a Option<Path>,
        methods: &'a [u32],
    }
    let decls: Vec<Decl<'_>> = facts
        .symbols
        .iter()
        .map(|s| Decl {
            name: &s.name,
            container: &s.container,
            kind: s.kind,
            fields: &s.fields,
            bases: &s.bases,
            results: &s.results,
            test: s.test,
        })
        .collect();
    let impls: Vec<Impl<'_>> = facts
        .impls
        .iter()
        .map(|b| Impl {
            module: &b.module,
            ty: &b.ty,
            trait_: &b.trait_,
            methods: &b.methods,
        })
        .collect();
    let bytes =
        postcard::to_stdvec(&(&facts.package, &facts.imports, decls, impls)).unwrap_or_default();
    *blake3::hash(&bytes).as_bytes()
}

/// The contains and implements edges of `graph`: what [`Reuse::declared`] keeps.
pub fn declared_edges(graph: &GraphData) -> Vec<Edge> {
    graph
        .edges
        .iter()
        .filter(|e| matches!(e.kind, EdgeKind::Contains | EdgeKind::Implements))
        .copied()
        .collect()
}

/// The range of symbol ids of each file (symbols are numbered file by file).
fn file_ranges(raw: &[(usize, &RawSymbol)], files: usize) -> Vec<std::ops::Range<SymbolId>> {
    let mut out = vec![0..0; files];
    let mut start = 0usize;
    while start < raw.len() {
        let fi = raw[start].0;
        let mut end = start;
        while end < raw.len() && raw[end].0 == fi {
            end += 1;
        }
        out[fi] = start as SymbolId..end as SymbolId;
        start = end;
    }
    out
}

pub(super) fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// `prefix.name`, or `name` alone for an empty prefix (Java's default package).
pub(super) fn qualify(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        dot(prefix, name)
    }
}

/// `prefix.name`: `format!("{prefix}.{name}")` without the formatting machinery, which
/// was about 40% of the link's path resolution (it builds one such name per lookup).
fn dot(prefix: &str, name: &str) -> String {
    let mut s = String::with_capacity(prefix.len() + 1 + name.len());
    s.push_str(prefix);
    s.push('.');
    s.push_str(name);
    s
}

/// The module a dotted module path is in (`crate.a.b` → `crate.a`; a crate root is its
/// own parent, as `super` at the root is an error anyway).
fn parent_module(module: &str) -> &str {
    module.rsplit_once('.').map_or(module, |(p, _)| p)
}

/// A Rust file's module path and its crate's root module. The crate is the directory
/// above the last `src/`, `tests/`, `benches/` or `examples/` (its name, `-` read as `_`,
/// or `crate` at the repository root); the module is the path below `src/`
/// (`src/parser/mod.rs` and `src/parser.rs` → `parser`, `src/lib.rs` and `src/main.rs` →
/// the root), or `tests.name` for `tests/name.rs` (and so on). Other files (`build.rs`)
/// are modules of the root crate by their path.
fn rust_module(path: &str) -> (String, String) {
    let stem = path.strip_suffix(".rs").unwrap_or(path);
    let at = ["src/", "tests/", "benches/", "examples/"]
        .iter()
        .flat_map(|d| stem.match_indices(d))
        .filter(|(i, _)| *i == 0 || stem.as_bytes()[i - 1] == b'/')
        .max_by_key(|(i, _)| *i);
    let (dir, rel) = match at {
        Some((i, "src/")) => (stem[..i].trim_end_matches('/'), stem[i + 4..].to_string()),
        Some((i, d)) => (
            stem[..i].trim_end_matches('/'),
            format!("{}{}", d, &stem[i + d.len()..]),
        ),
        None => ("", stem.to_string()),
    };
    let krate = match dir.rsplit('/').next() {
        Some(d) if !d.is_empty() => d.replace('-', "_"),
        _ => "crate".to_string(),
    };
    let rel = rel.strip_suffix("/mod").unwrap_or(&rel);
    if matches!(at, Some((_, "src/"))) && matches!(rel, "lib" | "main" | "mod") {
        return (krate.clone(), krate);
    }
    (format!("{krate}.{}", rel.replace('/', ".")), krate)
}

/// The crate of this repository an external crate name names, if one does: its directory
/// name, or that name with the workspace's prefix or suffix (`explore_tools` for
/// `crates/tools`), when exactly one crate matches. The linker does not read
/// `Cargo.toml`; `crate` (a crate at the repository root) matches no name.
fn rust_crate<'c>(name: &str, crates: &'c HashSet<String>) -> Option<&'c str> {
    let mut found = crates.iter().filter(|c| {
        c.as_str() != "crate"
            && (name == c.as_str()
                || name
                    .strip_suffix(c.as_str())
                    .is_some_and(|p| p.ends_with('_'))
                || name
                    .strip_prefix(c.as_str())
                    .is_some_and(|p| p.starts_with('_')))
    });
    let first = found.next()?;
    found.next().is_none().then_some(first.as_str())
}

/// A Rust `use` path made absolute: `crate::`, `self::` and `super::` from the file's
/// module, a first segment naming a child module of the file's module or of the crate
/// root (2015-style paths), anything else (`std`, another crate) as written.
fn rust_absolute(
    scope: &FileScope,
    written: &str,
    modules: &HashMap<String, usize>,
    crates: &HashSet<String>,
    seen: &mut dyn FnMut(&str),
) -> String {
    let mut segs = written.split('.');
    let first = segs.next().unwrap_or("");
    let mut base = match first {
        "crate" => scope.package.clone(),
        "self" => scope.prefix.clone(),
        "super" => parent_module(&scope.prefix).to_string(),
        _ => {
            let child = qualify(&scope.prefix, first);
            let from_root = qualify(&scope.package, first);
            seen(&child);
            seen(&from_root);
            if modules.contains_key(&child) {
                child
            } else if modules.contains_key(&from_root) {
                from_root
            } else if let Some(c) = rust_crate(first, crates) {
                c.to_string()
            } else {
                return written.to_string();
            }
        }
    };
    for s in segs {
        if s == "super" {
            base = parent_module(&base).to_string();
        } else {
            base = qualify(&base, s);
        }
    }
    base
}

/// Extensions a TypeScript or JavaScript module specifier may name or leave out.
const JS_EXTENSIONS: [&str; 10] = [
    ".d.ts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json",
];

/// A TypeScript or JavaScript file's module: its path without the extension
/// (`src/shapes/circle.ts` → `src/shapes/circle`).
fn js_module(path: &str) -> &str {
    JS_EXTENSIONS
        .iter()
        .find_map(|e| path.strip_suffix(e))
        .unwrap_or(path)
}

/// The repository module an import specifier names, from the importing file's directory:
/// `./circle`, `../shapes/index.js` (a `.js` specifier names the `.ts` file compiled to
/// it), a directory's `index`, or a path from the repository root (`src/shapes`, as
/// `baseUrl` allows). Packages (`react`, `node:fs`) are outside.
fn js_resolve_specifier(
    dir: &str,
    spec: &str,
    modules: &HashMap<String, usize>,
    seen: &mut dyn FnMut(&str),
) -> Option<usize> {
    let joined = if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".."
    {
        let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
        for seg in spec.split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        parts.join("/")
    } else {
        spec.trim_start_matches('/').to_string()
    };
    let base = js_module(&joined);
    let index = format!("{base}/index");
    let joined_index = format!("{joined}/index");
    for name in [base, &index, &joined_index] {
        seen(name);
    }
    modules
        .get(base)
        .or_else(|| modules.get(&index))
        .or_else(|| modules.get(&joined_index))
        .copied()
}

/// The import path of a Go file's package: vendored code by its path under `vendor/`,
/// else the enclosing `go.mod`'s module path plus the directory below it.
pub(super) fn go_package_path(path: &str, package: &str, go_mods: &[&(String, String)]) -> String {
    let dir = parent_dir(path);
    if let Some(i) = dir.rfind("vendor/")
        && (i == 0 || dir.as_bytes()[i - 1] == b'/')
    {
        return dir[i + "vendor/".len()..].to_string();
    }
    for (mdir, module) in go_mods {
        if mdir.is_empty() {
            return if dir.is_empty() {
                module.clone()
            } else {
                format!("{module}/{dir}")
            };
        }
        if dir == mdir.as_str() {
            return module.clone();
        }
        if let Some(rest) = dir.strip_prefix(mdir.as_str())
            && let Some(rest) = rest.strip_prefix('/')
        {
            return format!("{module}/{rest}");
        }
    }
    if dir.is_empty() {
        package.to_string()
    } else {
        dir.to_string()
    }
}

/// A Python file's module name and the package its relative imports start from. The
/// source root is the nearest ancestor directory without `__init__.py`, which finds
/// `src/` layouts (`src/ledger/storage/base.py` → `ledger.storage.base`).
pub(super) fn python_module(path: &str, init_dirs: &HashSet<&str>) -> (String, String) {
    let mut root = parent_dir(path);
    while !root.is_empty() && init_dirs.contains(root) {
        root = parent_dir(root);
    }
    let rel = if root.is_empty() {
        path
    } else {
        &path[root.len() + 1..]
    };
    let rel = rel.strip_suffix(".py").unwrap_or(rel);
    let is_package = rel == "__init__" || rel.ends_with("/__init__");
    let rel = rel
        .strip_suffix("/__init__")
        .unwrap_or(if rel == "__init__" { "" } else { rel });
    let module = rel.replace('/', ".");
    let package = if is_package {
        module.clone()
    } else {
        module
            .rsplit_once('.')
            .map(|(p, _)| p.to_string())
            .unwrap_or_default()
    };
    (module, package)
}

impl Tables for Linker<'_> {
    fn lang(&self, fi: usize) -> Language {
        self.inputs[fi].language
    }

    fn scope(&self, fi: usize) -> &FileScope {
        &self.scopes[fi]
    }

    fn kind(&self, id: SymbolId) -> Kind {
        self.symbols[id as usize].kind
    }

    fn qname(&self, id: SymbolId) -> &str {
        &self.symbols[id as usize].qname
    }

    fn file_of(&self, id: SymbolId) -> usize {
        self.symbols[id as usize].file as usize
    }

    fn raw(&self, id: SymbolId) -> (usize, &RawSymbol) {
        self.raw[id as usize]
    }

    fn qname_id(&self, qname: &str) -> Option<SymbolId> {
        self.by_qname.get(qname).copied()
    }

    fn module(&self, name: &str) -> Option<usize> {
        self.modules.get(name).copied()
    }

    fn module_name(&self, m: usize) -> &str {
        &self.module_names[m]
    }

    fn module_file(&self, m: usize) -> Option<usize> {
        self.module_file.get(&m).copied()
    }

    fn method(&self, t: SymbolId, name: &str) -> Option<SymbolId> {
        self.methods.get(&t).and_then(|ms| ms.get(name)).copied()
    }

    fn bases(&self, t: SymbolId) -> &[SymbolId] {
        self.bases.get(&t).map_or(&[], Vec::as_slice)
    }

    fn named_methods(&self, family: Language, name: &str) -> Option<Vec<SymbolId>> {
        self.methods_by_name
            .get(&(family, name.to_string()))
            .filter(|c| c.len() <= MAX_NAME_MATCHES)
            .cloned()
    }

    fn owner(&self, id: SymbolId) -> Option<SymbolId> {
        self.owner_of.get(&id).copied()
    }

    fn rust_crates(&self) -> &HashSet<String> {
        &self.rust_crates
    }
}

impl Linker<'_> {
    /// Attaches a Rust `impl` block's methods to the type it names (resolved in its file,
    /// inline modules first): a `Contains` edge each, the qualified name under the type's
    /// (`crate.ast.Node.walk` for an `impl Node` in `crate.visit`), and the trait of
    /// `impl Trait for Type` as a base of the type.
    fn attach_impl(
        &mut self,
        fi: usize,
        first: SymbolId,
        block: &ImplBlock,
        edges: &mut Vec<Edge>,
        impl_bases: &mut Vec<(SymbolId, SymbolId)>,
    ) {
        let Some((t, trait_)) = self.resolve_impl(fi, first, block) else {
            return;
        };
        if let Some(tr) = trait_ {
            impl_bases.push((t, tr));
            if self.symbols[t as usize].file as usize == fi {
                self.impl_lines.insert((t, tr), block.line);
            }
        }
        let (tq, td) = {
            let ts = &self.symbols[t as usize];
            (ts.qname.clone(), ts.display.clone())
        };
        for &i in &block.methods {
            let id = first + i;
            let Some(sym) = self.symbols.get_mut(id as usize) else {
                continue;
            };
            let name = sym.name.clone();
            let qname = dot(&tq, &name);
            if sym.qname != qname {
                sym.qname = qname.clone();
                sym.display = dot(&td, &name);
                self.by_qname.entry(qname).or_insert(id);
            }
            self.owner_of.insert(id, t);
            self.methods.entry(t).or_default().entry(name).or_insert(id);
            edges.push(Edge {
                from: t,
                to: id,
                kind: EdgeKind::Contains,
                line: sym.line,
                inferred: false,
            });
        }
    }

    /// Nominal inheritance (every language but Go): a type → each base it names (Python
    /// base classes; TypeScript and JavaScript `extends` and `implements`).
    fn nominal_implements(&self, edges: &mut Vec<Edge>) {
        for (&c, bs) in &self.bases {
            let sym = &self.symbols[c as usize];
            if self.lang(sym.file as usize) == Language::Go {
                continue;
            }
            for &b in bs {
                edges.push(Edge {
                    from: c,
                    to: b,
                    kind: EdgeKind::Implements,
                    line: self.impl_lines.get(&(c, b)).copied().unwrap_or(sym.line),
                    inferred: false,
                });
            }
        }
    }

    /// Go's implicit interfaces: a type implements an interface when its method set
    /// (pointer receivers included, promoted methods of embedded types included) has
    /// every method of the interface (embedded interfaces included). Names are compared,
    /// not signatures.
    fn go_implements(&self, edges: &mut Vec<Edge>) {
        let is_go = |s: SymbolId| self.lang(self.symbols[s as usize].file as usize) == Language::Go;
        let set_of = |t: SymbolId| -> HashSet<String> {
            method_set(
                t,
                |c, out| {
                    if let Some(ms) = self.methods.get(&c) {
                        out.extend(ms.keys().cloned());
                    }
                    let (fi, raw) = self.raw[c as usize];
                    std_promoted(raw, &self.scopes[fi], out);
                },
                |c| self.bases.get(&c).map_or(&[][..], Vec::as_slice),
            )
        };
        let mut concrete: Vec<(SymbolId, HashSet<String>)> = Vec::new();
        let mut by_method: HashMap<&str, Vec<usize>> = HashMap::new();
        for id in 0..self.symbols.len() as SymbolId {
            let k = self.symbols[id as usize].kind;
            if matches!(k, Kind::Struct | Kind::Type) && is_go(id) {
                let set = set_of(id);
                if !set.is_empty() {
                    concrete.push((id, set));
                }
            }
        }
        for (i, (_, set)) in concrete.iter().enumerate() {
            for m in set {
                by_method.entry(m.as_str()).or_default().push(i);
            }
        }
        for id in 0..self.symbols.len() as SymbolId {
            if self.symbols[id as usize].kind != Kind::Interface || !is_go(id) {
                continue;
            }
            let iset = set_of(id);
            let Some(rarest) = iset
                .iter()
                .min_by_key(|m| by_method.get(m.as_str()).map_or(0, Vec::len))
            else {
                continue;
            };
            let ipkg = self.symbols[id as usize].file;
            let unexported = iset
                .iter()
                .any(|m| m.chars().next().is_some_and(char::is_lowercase));
            for &ci in by_method.get(rarest.as_str()).into_iter().flatten() {
                let (t, tset) = &concrete[ci];
                if unexported
                    && self.scopes[self.symbols[*t as usize].file as usize].prefix
                        != self.scopes[ipkg as usize].prefix
                {
                    continue;
                }
                if iset.iter().all(|m| tset.contains(m)) {
                    edges.push(Edge {
                        from: *t,
                        to: id,
                        kind: EdgeKind::Implements,
                        line: self.symbols[*t as usize].line,
                        inferred: false,
                    });
                }
            }
        }
    }
}

/// Go: adds the methods a type gains from the standard-library types and interfaces it
/// embeds (`*sql.DB`, `sync.Mutex`, `http.ResponseWriter`; `stdlib::promoted`), which the
/// graph has no symbols for. `raw` is the type's facts, `scope` its file's. Every method
/// set the link, the store and the refresh in place compute adds these, so they agree.
pub(super) fn std_promoted(raw: &RawSymbol, scope: &FileScope, out: &mut HashSet<String>) {
    for base in &raw.bases {
        let [package, name] = base.as_slice() else {
            continue;
        };
        if let Some(path) = scope.imports.get(package)
            && let Some(methods) = super::stdlib::promoted(path, name)
        {
            out.extend(methods.iter().map(|m| (*m).to_string()));
        }
    }
}

/// A Go type's method set: its own methods' names and, through embedded types (at most 32
/// types visited), theirs. `methods` adds a type's own method names, `bases` gives its
/// embedded types. Shared by the link and the refresh in place, which must agree.
pub(super) fn method_set<'b>(
    t: SymbolId,
    methods: impl Fn(SymbolId, &mut HashSet<String>),
    bases: impl Fn(SymbolId) -> &'b [SymbolId],
) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut stack = vec![t];
    let mut seen = HashSet::new();
    while let Some(c) = stack.pop() {
        if !seen.insert(c) || seen.len() > 32 {
            continue;
        }
        methods(c, &mut out);
        stack.extend(bases(c).iter().copied());
    }
    out
}

/// What resolving a reference reads: the link's tables. The [`Linker`] holds them in
/// memory while it links every file; a refresh that re-resolves only the edited files reads
/// them from the store file instead (`lazy::LinkTables`), so that it does not rebuild them
/// from every file's facts. The resolution itself is written once, here, as provided
/// methods, so both answer alike.
pub(super) trait Tables {
    /// The language of file `fi`.
    fn lang(&self, fi: usize) -> Language;
    /// The scope of file `fi`: its module, package and imports.
    fn scope(&self, fi: usize) -> &FileScope;
    /// The kind of symbol `id`.
    fn kind(&self, id: SymbolId) -> Kind;
    /// The qualified name of symbol `id`.
    fn qname(&self, id: SymbolId) -> &str;
    /// The file of symbol `id`.
    fn file_of(&self, id: SymbolId) -> usize;
    /// The file and facts of symbol `id` (for symbols of other files, at least its surface:
    /// name, container, kind, fields, bases and results).
    fn raw(&self, id: SymbolId) -> (usize, &RawSymbol);
    /// The symbol a qualified name names (the first one defined, as the link numbers them).
    fn qname_id(&self, qname: &str) -> Option<SymbolId>;
    /// A Go package, Python module, TypeScript/Rust module or Java package by name.
    fn module(&self, name: &str) -> Option<usize>;
    /// The name of module `m`.
    fn module_name(&self, m: usize) -> &str;
    /// The file that defines module `m` (Python `__init__`, a TypeScript or Rust file).
    fn module_file(&self, m: usize) -> Option<usize>;
    /// The method `name` of type `t` (its own, not inherited).
    fn method(&self, t: SymbolId, name: &str) -> Option<SymbolId>;
    /// The resolved bases of type `t`: embedded types, base classes, traits.
    fn bases(&self, t: SymbolId) -> &[SymbolId];
    /// The methods named `name` in a language family, when there are at most
    /// [`MAX_NAME_MATCHES`]; `None` when there are none or more.
    fn named_methods(&self, family: Language, name: &str) -> Option<Vec<SymbolId>>;
    /// The type that contains method `id`.
    fn owner(&self, id: SymbolId) -> Option<SymbolId>;
    /// Rust: the root modules of the repository's crates.
    fn rust_crates(&self) -> &HashSet<String>;

    /// The type a Rust `impl` block of file `fi` names (inline modules first), and its
    /// trait when it names one of the repository's other than the type itself.
    /// An implementor the extractor made of the block itself (`impl Buf for &[u8]`: a type
    /// outside the repository) is symbol `first + i` of the file.
    fn resolve_impl(
        &self,
        fi: usize,
        first: SymbolId,
        block: &ImplBlock,
    ) -> Option<(SymbolId, Option<SymbolId>)> {
        let resolve = |p: &Path| -> Option<SymbolId> {
            let found = if block.module.is_empty() {
                None
            } else {
                let mut q = block.module.clone();
                q.extend(p.iter().cloned());
                self.resolve_path(fi, &q)
            };
            match found.or_else(|| self.resolve_path(fi, p)) {
                Some(Ent::Sym(s)) if self.kind(s).is_type() => Some(s),
                _ => None,
            }
        };
        let t = match block.implementor {
            Some(i) => first + i,
            None => resolve(&block.ty)?,
        };
        let trait_ = block
            .trait_
            .as_ref()
            .and_then(resolve)
            .filter(|&tr| tr != t);
        Some((t, trait_))
    }

    /// The uses and calls edges of the symbols in `ids` (one file's).
    fn file_edges(&self, ids: std::ops::Range<SymbolId>) -> Vec<Edge> {
        let mut edges = Vec::new();
        let mut seen: HashSet<(SymbolId, SymbolId, u32)> = HashSet::new();
        for id in ids {
            let (fi, raw) = self.raw(id);
            // Functions and methods; TypeScript and JavaScript module-level variables carry
            // the calls of their initializers too (`const router = createRouter([])`).
            let mut used = HashSet::new();
            for u in raw.uses.iter().filter(|_| raw.kind.is_callable()) {
                if let Some(Ent::Sym(t)) = self.resolve_path(fi, u)
                    && self.kind(t).is_type()
                    && used.insert(t)
                {
                    edges.push(Edge {
                        from: id,
                        to: t,
                        kind: EdgeKind::Uses,
                        line: raw.line,
                        inferred: false,
                    });
                }
            }
            // A variable or constant read or assigned, at the line it is; a type named
            // as a value (`case ContentDeleted:`, `isinstance(x, Foo)`) too, at a line
            // other than the function's own, where its signature's types are.
            for (line, p) in &raw.reads {
                if let Some(Ent::Sym(t)) = self.resolve_path(fi, p)
                    && t != id
                    && (matches!(self.kind(t), Kind::Var | Kind::Const)
                        || (self.kind(t).is_type() && *line != raw.line))
                    && seen.insert((id, t, *line))
                {
                    edges.push(Edge {
                        from: id,
                        to: t,
                        kind: EdgeKind::Uses,
                        line: *line,
                        inferred: false,
                    });
                }
            }
            for call in &raw.calls {
                let (targets, inferred) = self.call_targets(fi, id, &call.target);
                for t in targets {
                    if seen.insert((id, t, call.line)) {
                        edges.push(Edge {
                            from: id,
                            to: t,
                            kind: EdgeKind::Calls,
                            line: call.line,
                            inferred,
                        });
                    }
                }
            }
        }
        edges
    }

    fn sym_or_module(&self, dotted: &str) -> Option<Ent> {
        if let Some(s) = self.qname_id(dotted) {
            return Some(Ent::Sym(s));
        }
        self.module(dotted).map(Ent::Module)
    }

    /// Resolves an absolute dotted Python name, following re-exports through package
    /// `__init__` imports.
    fn resolve_dotted(&self, dotted: &str, depth: u32) -> Option<Ent> {
        if depth > 8 {
            return None;
        }
        if let Some(e) = self.sym_or_module(dotted) {
            return Some(e);
        }
        let (prefix, last) = dotted.rsplit_once('.')?;
        match self.resolve_dotted(prefix, depth + 1)? {
            Ent::Module(m) => self.module_member(m, last, depth + 1),
            Ent::Sym(s) => self.member_of_sym(s, last).map(Ent::Sym),
            Ent::External => Some(Ent::External),
        }
    }

    fn module_member(&self, m: usize, name: &str, depth: u32) -> Option<Ent> {
        let full = dot(self.module_name(m), name);
        if let Some(e) = self.sym_or_module(&full) {
            return Some(e);
        }
        let fi = self.module_file(m)?;
        let target = self.scope(fi).imports.get(name)?;
        self.resolve_import_target(target, depth + 1)
    }

    /// A public name that Python star imports (`from .representer import *`) bring in:
    /// defined or imported by one of the modules, or brought in by their own star
    /// imports (`yaml/__init__.py` → `loader` → `reader`), a few modules deep.
    fn star_member(&self, stars: &[usize], name: &str, depth: u32) -> Option<Ent> {
        if depth > 3 || name.starts_with('_') {
            return None;
        }
        stars.iter().find_map(|&m| {
            self.module_member(m, name, depth).or_else(|| {
                let fi = self.module_file(m)?;
                self.star_member(&self.scope(fi).stars, name, depth + 1)
            })
        })
    }

    fn resolve_import_target(&self, target: &str, depth: u32) -> Option<Ent> {
        match self.resolve_dotted(target, depth) {
            Some(e) => Some(e),
            None => {
                let top = target.split('.').next().unwrap_or(target);
                if self.module(top).is_some() {
                    None
                } else {
                    Some(Ent::External)
                }
            }
        }
    }

    /// A TypeScript or JavaScript import: the module itself, or one of its exports.
    fn js_import(&self, module: Option<usize>, name: Option<&str>, depth: u32) -> Option<Ent> {
        let Some(m) = module else {
            return Some(Ent::External);
        };
        match name {
            None => Some(Ent::Module(m)),
            // `require('m')` whole: its default export if it assigns `module.exports`.
            Some(COMMONJS_EXPORTS) => self
                .js_member(m, DEFAULT_EXPORT, depth)
                .or(Some(Ent::Module(m))),
            Some(n) => self.js_member(m, n, depth),
        }
    }

    /// An export of a TypeScript or JavaScript module: its own definition, a name it
    /// imports or re-exports (`export { X } from`, its default export), or an
    /// `export * from` module's.
    fn js_member(&self, m: usize, name: &str, depth: u32) -> Option<Ent> {
        if depth > 8 {
            return None;
        }
        let full = dot(self.module_name(m), name);
        if let Some(s) = self.qname_id(&full) {
            return Some(Ent::Sym(s));
        }
        let fi = self.module_file(m)?;
        let scope = self.scope(fi);
        if let Some((module, n)) = scope.js.get(name)
            && (name != DEFAULT_EXPORT || *module != Some(m) || n.as_deref() != Some(name))
        {
            return self.js_import(*module, n.as_deref(), depth + 1);
        }
        scope
            .stars
            .iter()
            .filter(|&&s| s != m)
            .find_map(|&s| self.js_member(s, name, depth + 1))
    }

    /// A method (or nested class) of a type, looked up through its bases.
    fn member_of_sym(&self, s: SymbolId, name: &str) -> Option<SymbolId> {
        if !self.kind(s).is_type() {
            return None;
        }
        let mut stack = vec![s];
        let mut seen = HashSet::new();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) || seen.len() > 32 {
                continue;
            }
            if let Some(m) = self.method(t, name) {
                return Some(m);
            }
            let nested = dot(self.qname(t), name);
            if let Some(n) = self.qname_id(&nested) {
                return Some(n);
            }
            stack.extend(self.bases(t).iter().rev());
        }
        None
    }

    /// Resolves a path as written in file `fi`.
    fn resolve_path(&self, fi: usize, path: &Path) -> Option<Ent> {
        self.resolve_path_at(fi, path, 0)
    }

    /// A Python module-level variable assigned a dotted name (`_Segment = Segment`, the
    /// name in its `results`) stands for what that name resolves to; any other symbol, or
    /// an alias that resolves to nothing, for itself.
    fn through_alias(&self, e: Ent, depth: u32) -> Ent {
        let Ent::Sym(s) = e else { return e };
        if depth > 8 || !matches!(self.kind(s), Kind::Var | Kind::Const) {
            return e;
        }
        let (sfi, raw) = self.raw(s);
        match raw.results.first() {
            Some(p) if self.lang(sfi) == Language::Python => {
                self.resolve_path_at(sfi, p, depth + 1).unwrap_or(e)
            }
            _ => e,
        }
    }

    /// [`Tables::resolve_path`], `depth` aliases deep.
    fn resolve_path_at(&self, fi: usize, path: &Path, depth: u32) -> Option<Ent> {
        let head = path.first()?;
        let scope = self.scope(fi);
        let mut cur = match self.lang(fi) {
            Language::Go => {
                if let Some(pkg) = scope.imports.get(head) {
                    match self.module(pkg) {
                        Some(m) => Ent::Module(m),
                        None => return Some(Ent::External),
                    }
                } else {
                    let q = dot(&scope.prefix, head);
                    Ent::Sym(self.qname_id(&q)?)
                }
            }
            Language::Python => {
                let q = dot(&scope.prefix, head);
                let e = if let Some(s) = self.qname_id(&q) {
                    Ent::Sym(s)
                } else if let Some(target) = scope.imports.get(head) {
                    self.resolve_import_target(target, 0)?
                } else if let Some(e) = self.star_member(&scope.stars, head, 0) {
                    e
                } else if !scope.stars.is_empty()
                    && let Some(m) = self.module(&q)
                {
                    // A package's `__init__` that star-imports its submodules has them
                    // bound as names too (`loader.FullLoader` after `from .loader import
                    // *`).
                    Ent::Module(m)
                } else {
                    return None;
                };
                self.through_alias(e, depth)
            }
            Language::TypeScript | Language::Tsx | Language::JavaScript => {
                let q = dot(&scope.prefix, head);
                if let Some(s) = self.qname_id(&q) {
                    Ent::Sym(s)
                } else if let Some((module, name)) = scope.js.get(head) {
                    self.js_import(*module, name.as_deref(), 0)?
                } else {
                    return None;
                }
            }
            Language::Rust => match head.as_str() {
                "crate" => Ent::Module(self.module(&scope.package)?),
                "self" => Ent::Module(self.module(&scope.prefix)?),
                "super" => Ent::Module(self.module(parent_module(&scope.prefix))?),
                _ => {
                    let q = qualify(&scope.prefix, head);
                    if let Some(e) = self.sym_or_module(&q) {
                        e
                    } else if let Some(target) = scope.imports.get(head) {
                        self.resolve_import_target(target, 0)?
                    } else if let Some(e) = scope
                        .stars
                        .iter()
                        .find_map(|&m| self.module_member(m, head, 0))
                    {
                        e
                    } else if head.ends_with('!') {
                        // A `macro_rules!` macro is in scope in the modules after it
                        // (child modules included) and, exported, at the crate root.
                        let mut m = scope.prefix.as_str();
                        loop {
                            let up = parent_module(m);
                            if up == m {
                                return None;
                            }
                            m = up;
                            if let Some(s) = self.qname_id(&qualify(m, head)) {
                                break Ent::Sym(s);
                            }
                        }
                    } else {
                        // `explore_tools::secrets::f()`: another crate of the repository.
                        let c = rust_crate(head, self.rust_crates())?;
                        Ent::Module(self.module(c)?)
                    }
                }
            },
            Language::Java => {
                let q = qualify(&scope.prefix, head);
                if let Some(s) = self.qname_id(&q) {
                    Ent::Sym(s)
                } else if let Some(target) = scope.imports.get(head) {
                    self.resolve_import_target(target, 0)?
                } else if let Some(s) = scope
                    .stars
                    .iter()
                    .find_map(|&m| self.qname_id(&dot(self.module_name(m), head)))
                {
                    Ent::Sym(s)
                } else if head.starts_with(char::is_uppercase) {
                    // `java.lang` and the classes of packages imported whole from outside.
                    Ent::External
                } else {
                    return None;
                }
            }
        };
        for seg in &path[1..] {
            cur = match cur {
                Ent::External => return Some(Ent::External),
                Ent::Module(m) => match self.lang(fi) {
                    Language::Go => {
                        let q = dot(self.module_name(m), seg);
                        Ent::Sym(self.qname_id(&q)?)
                    }
                    Language::Python => self.through_alias(self.module_member(m, seg, 0)?, depth),
                    Language::TypeScript | Language::Tsx | Language::JavaScript => {
                        self.js_member(m, seg, 0)?
                    }
                    Language::Rust if seg == "super" => {
                        Ent::Module(self.module(parent_module(self.module_name(m)))?)
                    }
                    Language::Rust | Language::Java => self.module_member(m, seg, 0)?,
                },
                Ent::Sym(s) => match self.member_of_sym(s, seg) {
                    Some(m) => Ent::Sym(m),
                    None => match self.value_of_var(s, depth) {
                        Val::Type(t) => Ent::Sym(self.member_of_sym(t, seg)?),
                        Val::External => return Some(Ent::External),
                        Val::Super(_) | Val::Unknown => return None,
                    },
                },
            };
        }
        Some(cur)
    }

    /// What a module-level variable holds ([`RawSymbol::value`]): a member of it is a
    /// member of that type (`CommandLine.VarPF` is `FlagSet.VarPF`).
    fn value_of_var(&self, s: SymbolId, depth: u32) -> Val {
        let (sfi, raw) = self.raw(s);
        match raw.value() {
            Some(recv) if depth < 6 => self.val_of(sfi, s, recv, depth + 1),
            _ => Val::Unknown,
        }
    }

    /// What a typed value is, in the scope of file `fi` inside symbol `owner`.
    fn val_of(&self, fi: usize, owner: SymbolId, recv: &Recv, depth: u32) -> Val {
        if depth > 6 {
            return Val::Unknown;
        }
        match recv {
            Recv::Typed(p) => match self.resolve_path_at(fi, p, depth) {
                Some(Ent::Sym(s)) if self.kind(s).is_type() => Val::Type(s),
                Some(Ent::Sym(_)) | Some(Ent::Module(_)) => Val::Unknown,
                // Declared with a type the repository does not define (`*testing.T`, `str`).
                Some(Ent::External) | None => Val::External,
            },
            // Read as its first bound the repository defines (a field or a call result
            // through it); a method call tries every bound (`call_targets`).
            Recv::Bounded(ps) => ps
                .iter()
                .map(|p| self.val_of(fi, owner, &Recv::Typed(p.clone()), depth + 1))
                .find(|v| matches!(v, Val::Type(_)))
                .unwrap_or(Val::External),
            Recv::CallResult(t) => {
                let callee = match t.as_ref() {
                    CallTarget::Path(p) => match self.resolve_path_at(fi, p, depth) {
                        Some(Ent::Sym(s)) => s,
                        Some(Ent::External) => return Val::External,
                        _ => return Val::Unknown,
                    },
                    CallTarget::Member { base, fields, name } => {
                        match self.member_val(fi, owner, base, fields, depth + 1) {
                            Val::Type(c) => match self.member_of_sym(c, name) {
                                Some(m) => m,
                                None => return Val::External,
                            },
                            Val::Super(c) => match self
                                .bases(c)
                                .iter()
                                .find_map(|b| self.member_of_sym(*b, name))
                            {
                                Some(m) => m,
                                None => return Val::Unknown,
                            },
                            other => return other,
                        }
                    }
                };
                let kind = self.kind(callee);
                if kind.is_type() {
                    // Python `Class()`, or a Go conversion `T(x)`.
                    return Val::Type(callee);
                }
                if !kind.is_callable() {
                    return Val::Unknown;
                }
                let (cfi, craw) = self.raw(callee);
                match craw.results.first() {
                    Some(r) => self.val_of(cfi, callee, &Recv::Typed(r.clone()), depth + 1),
                    None => Val::Unknown,
                }
            }
            // A field of a class that holds `self` or one of its own fields (`self.a =
            // self.b`, a property returning `self._x`): the class is the owner.
            Recv::SelfRef if self.kind(owner).is_type() => Val::Type(owner),
            Recv::Super if self.kind(owner).is_type() => Val::Super(owner),
            Recv::SelfRef | Recv::Super => {
                let (ofi, oraw) = self.raw(owner);
                if oraw.container.is_empty() {
                    return Val::Unknown;
                }
                let q = qualify(&self.scope(ofi).prefix, &oraw.container.join("."));
                match self.owner(owner).or_else(|| self.qname_id(&q)) {
                    Some(c) if matches!(recv, Recv::Super) => Val::Super(c),
                    Some(c) => Val::Type(c),
                    None => Val::Unknown,
                }
            }
            Recv::Field(base, fields) => self.member_val(fi, owner, base, fields, depth),
            Recv::Opaque => Val::External,
            Recv::Unknown => Val::Unknown,
        }
    }

    /// The value of `base.fields…`.
    fn member_val(
        &self,
        fi: usize,
        owner: SymbolId,
        base: &Recv,
        fields: &[String],
        depth: u32,
    ) -> Val {
        let mut v = self.val_of(fi, owner, base, depth + 1);
        for f in fields {
            v = match v {
                Val::Type(t) => self.field_val(t, f, depth + 1),
                Val::Super(_) => Val::Unknown,
                other => other,
            };
        }
        v
    }

    /// The type of field `name` of type `t`, looked up through its bases.
    fn field_val(&self, t: SymbolId, name: &str, depth: u32) -> Val {
        if depth > 6 {
            return Val::Unknown;
        }
        let mut stack = vec![t];
        let mut seen = HashSet::new();
        while let Some(c) = stack.pop() {
            if !seen.insert(c) || seen.len() > 32 {
                continue;
            }
            let (fi, raw) = self.raw(c);
            if let Some((_, r)) = raw.fields.iter().find(|(n, _)| n == name) {
                return self.val_of(fi, c, r, depth + 1);
            }
            stack.extend(self.bases(c).iter().rev());
        }
        match self.lang(self.file_of(t)) {
            // A Go struct's fields are all declared: a missing one is promoted from a type
            // outside the repository. A Rust struct's are all declared.
            Language::Go | Language::Rust => Val::External,
            _ => Val::Unknown,
        }
    }

    fn call_targets(
        &self,
        fi: usize,
        owner: SymbolId,
        target: &CallTarget,
    ) -> (Vec<SymbolId>, bool) {
        match target {
            CallTarget::Path(p) => match self.resolve_path(fi, p) {
                Some(Ent::Sym(s)) => {
                    let kind = self.kind(s);
                    if kind.is_callable() || (kind == Kind::Class) {
                        (vec![s], false)
                    } else if kind.is_type() || p.len() == 1 {
                        (Vec::new(), false)
                    } else {
                        // A call on a package-level value: its type is not tracked.
                        self.by_name(fi, p.last().map_or("", String::as_str))
                    }
                }
                Some(_) => (Vec::new(), false),
                None if p.len() > 1 => {
                    // A head that resolves to nothing but is not an import: a package-level
                    // value, or a name the extractor could not type. A Rust path is a
                    // path, never a value (`String::new`, `io::stdin`).
                    let head_known = self.scope(fi).imports.contains_key(&p[0]);
                    if head_known || self.lang(fi) == Language::Rust {
                        (Vec::new(), false)
                    } else {
                        self.by_name(fi, p.last().map_or("", String::as_str))
                    }
                }
                None => (Vec::new(), false),
            },
            // A method of a value with several bounds is the first bound's that has it.
            CallTarget::Member { base, fields, name }
                if fields.is_empty()
                    && let Recv::Bounded(ps) = base =>
            {
                let found = ps.iter().find_map(|p| {
                    match self.val_of(fi, owner, &Recv::Typed(p.clone()), 0) {
                        Val::Type(t) => self.member_of_sym(t, name),
                        _ => None,
                    }
                });
                (found.into_iter().collect(), false)
            }
            CallTarget::Member { base, fields, name } => {
                match self.member_val(fi, owner, base, fields, 0) {
                    Val::Type(t) => {
                        let found = self.member_of_sym(t, name).or_else(|| {
                            (matches!(base, Recv::SelfRef) && fields.is_empty())
                                .then(|| self.outer_member(fi, owner, name))
                                .flatten()
                        });
                        (found.into_iter().collect(), false)
                    }
                    Val::Super(c) => {
                        let found = self
                            .bases(c)
                            .iter()
                            .find_map(|b| self.member_of_sym(*b, name));
                        (found.into_iter().collect(), false)
                    }
                    Val::External => (Vec::new(), false),
                    Val::Unknown => self.by_name(fi, name),
                }
            }
        }
    }

    /// Java: an unqualified call in a nested class that its class does not have is a
    /// method of an enclosing class (`Outer.this.m()`), nearest first.
    fn outer_member(&self, fi: usize, owner: SymbolId, name: &str) -> Option<SymbolId> {
        if self.lang(fi) != Language::Java {
            return None;
        }
        let (ofi, oraw) = self.raw(owner);
        let prefix = &self.scope(ofi).prefix;
        (1..oraw.container.len()).rev().find_map(|n| {
            let q = qualify(prefix, &oraw.container[..n].join("."));
            self.qname_id(&q).and_then(|c| self.member_of_sym(c, name))
        })
    }

    /// Every method named `name` in the language family of file `fi`, marked inferred.
    ///
    /// Go: a method whose name is not exported can only be called from its own package
    /// (types of other packages do not promote it), so only that package's methods of the
    /// name are candidates, and one candidate is the method called (`sec.mapToField(…)`
    /// on a range variable is `Section.mapToField`), not a guess.
    fn by_name(&self, fi: usize, name: &str) -> (Vec<SymbolId>, bool) {
        let Some(mut c) = self.named_methods(self.lang(fi).family(), name) else {
            return (Vec::new(), false);
        };
        if self.lang(fi) == Language::Go && name.starts_with(|ch: char| ch.is_ascii_lowercase()) {
            let package = &self.scope(fi).prefix;
            c.retain(|&m| &self.scope(self.file_of(m)).prefix == package);
            return match c.len() {
                0 => (Vec::new(), false),
                1 => (c, false),
                _ => (c, true),
            };
        }
        (c, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_modules_find_the_source_root() {
        let inits: HashSet<&str> = ["src/ledger", "src/ledger/storage", "tests"]
            .into_iter()
            .collect();
        assert_eq!(
            python_module("src/ledger/storage/base.py", &inits),
            (
                "ledger.storage.base".to_string(),
                "ledger.storage".to_string()
            )
        );
        assert_eq!(
            python_module("src/ledger/storage/__init__.py", &inits),
            ("ledger.storage".to_string(), "ledger.storage".to_string())
        );
        assert_eq!(
            python_module("tests/conftest.py", &inits),
            ("tests.conftest".to_string(), "tests".to_string())
        );
        assert_eq!(
            python_module("scripts/run.py", &inits),
            ("run".to_string(), String::new())
        );
    }

    #[test]
    fn rust_modules_and_crates() {
        let m = |p: &str| rust_module(p);
        let s = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(m("src/lib.rs"), s("crate", "crate"));
        assert_eq!(m("src/shapes/mod.rs"), s("crate.shapes", "crate"));
        assert_eq!(m("src/shapes/circle.rs"), s("crate.shapes.circle", "crate"));
        assert_eq!(
            m("crates/tools/src/code/index.rs"),
            s("tools.code.index", "tools")
        );
        assert_eq!(
            m("crates/tools/tests/code.rs"),
            s("tools.tests.code", "tools")
        );
        assert_eq!(m("crates/my-cli/src/main.rs"), s("my_cli", "my_cli"));
        assert_eq!(m("build.rs"), s("crate.build", "crate"));
        let crates: HashSet<String> = ["tools", "agent", "crate"]
            .map(String::from)
            .into_iter()
            .collect();
        assert_eq!(rust_crate("explore_tools", &crates), Some("tools"));
        assert_eq!(rust_crate("agent", &crates), Some("agent"));
        assert_eq!(rust_crate("std", &crates), None);
        assert_eq!(rust_crate("crate", &crates), None);
    }

    #[test]
    fn go_package_paths() {
        let m = ("".to_string(), "example.com/relay".to_string());
        let mods = vec![&m];
        assert_eq!(
            go_package_path("internal/model/issue.go", "model", &mods),
            "example.com/relay/internal/model"
        );
        assert_eq!(
            go_package_path("vendor/github.com/acme/uuid/uuid.go", "uuid", &mods),
            "github.com/acme/uuid"
        );
        assert_eq!(
            go_package_path("main.go", "main", &mods),
            "example.com/relay"
        );
    }
}
