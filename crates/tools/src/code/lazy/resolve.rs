//! The link's tables in the store file, so that a refresh after an edit resolves the
//! edited files' references without rebuilding the tables from every file's facts.
//!
//! Resolving one call reads a handful of table entries (a qualified name, a type's method,
//! a field's type, a module's re-exports), but building the tables reads every file's facts
//! and was most of a refresh's time. So a full link writes its tables here, as sections
//! read in part: per-file scopes and per-symbol surfaces as record tables (one positioned
//! read each, decoded on first use), the qualified names, method names, modules and file
//! paths as sorted maps. [`LinkTables`] implements the link's `Tables` over them, so the
//! same resolution code answers from either.

use std::collections::BTreeMap;

use foldhash::HashSet;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::StoreFile;
use super::layout::Sec;
use super::tables::Map;
use super::write::{map_table, records};
use crate::code::extract::{FileFacts, Path, RawSymbol, Recv};
use crate::code::link::{FileScope, Linked, MAX_NAME_MATCHES, Tables};
use crate::code::model::{Kind, Language, SymbolId};

/// What a refresh needs to know of a file to tell whether it changed, and how.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileState {
    /// blake3 of its content: same content under a new mtime is not parsed again.
    pub hash: [u8; 32],
    /// `link::surface` of its facts: while it is the same, no other file's edges change.
    pub surface: [u8; 32],
    /// It had syntax errors (counted by the stats).
    pub had_errors: bool,
}

/// The counts a refresh reports, kept so that a refresh that patches the store can report
/// them without the whole graph.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Lines in the indexed files.
    pub lines: u64,
    /// Files indexed despite syntax errors.
    pub with_syntax_errors: usize,
    /// Files left out, by reason.
    pub skipped: BTreeMap<String, usize>,
    /// Edges by kind.
    pub edges: BTreeMap<String, usize>,
}

/// What a full link leaves for the store, borrowed from the refresh.
pub struct LinkParts<'a> {
    /// The tables the link resolved against.
    pub tables: &'a Linked,
    /// Per file, its facts.
    pub facts: Vec<&'a FileFacts>,
    /// Per file, its state.
    pub states: Vec<FileState>,
    /// The counts of the refresh.
    pub summary: Summary,
}

#[derive(Serialize)]
struct FileRec<'a> {
    language: Language,
    scope: &'a FileScope,
    first: u32,
    count: u32,
    state: FileState,
    package: &'a str,
}

/// One file's record, decoded.
#[derive(Debug, Clone, Deserialize)]
pub struct LinkFile {
    /// Its language.
    pub language: Language,
    scope: FileScope,
    /// The id of its first symbol.
    pub first: u32,
    /// How many symbols it defines.
    pub count: u32,
    /// Its state when the store was written.
    pub state: FileState,
    /// Go: its package clause.
    pub package: String,
}

impl LinkFile {
    /// Its scope: module, package and imports.
    pub fn scope(&self) -> &FileScope {
        &self.scope
    }
}

#[derive(Serialize)]
struct SymRec<'a> {
    file: u32,
    kind: Kind,
    qname: &'a str,
    name: &'a str,
    container: &'a [String],
    fields: &'a [(String, Recv)],
    results: &'a [Path],
    methods: Vec<(&'a str, u32)>,
    bases: &'a [u32],
    owner: Option<u32>,
    derived: &'a [u32],
}

#[derive(Deserialize)]
struct SymOwned {
    file: u32,
    kind: Kind,
    qname: String,
    name: String,
    container: Vec<String>,
    fields: Vec<(String, Recv)>,
    results: Vec<Path>,
    methods: Vec<(String, u32)>,
    bases: Vec<u32>,
    owner: Option<u32>,
    derived: Vec<u32>,
}

/// One symbol's surface and tables, decoded.
pub struct LinkSym {
    /// Its file.
    pub file: u32,
    /// Its kind.
    pub kind: Kind,
    /// Its qualified name.
    pub qname: String,
    /// Its surface (name, container, kind, fields, results).
    pub raw: RawSymbol,
    /// Its methods by name (sorted by name).
    pub methods: Vec<(String, u32)>,
    /// Its resolved bases.
    pub bases: Vec<u32>,
    /// The type it is a method of.
    pub owner: Option<u32>,
    /// The types whose bases include it.
    pub derived: Vec<u32>,
}

impl From<SymOwned> for LinkSym {
    fn from(s: SymOwned) -> Self {
        let mut methods = s.methods;
        methods.sort();
        LinkSym {
            file: s.file,
            kind: s.kind,
            qname: s.qname,
            raw: surface_only(s.name, s.container, s.kind, s.fields, s.results),
            methods,
            bases: s.bases,
            owner: s.owner,
            derived: s.derived,
        }
    }
}

fn surface_only(
    name: String,
    container: Vec<String>,
    kind: Kind,
    fields: Vec<(String, Recv)>,
    results: Vec<Path>,
) -> RawSymbol {
    RawSymbol {
        name,
        container,
        kind,
        line: 0,
        end_line: 0,
        signature: String::new(),
        doc: None,
        fields,
        bases: Vec::new(),
        results,
        uses: Vec::new(),
        reads: Vec::new(),
        calls: Vec::new(),
        test: false,
    }
}

#[derive(Serialize, Deserialize, Default)]
struct Misc {
    module_names: Vec<String>,
    /// Per module, the file that defines it, or `u32::MAX`.
    module_file: Vec<u32>,
    rust_crates: Vec<String>,
    summary: Summary,
    /// Per module, how many files are that module.
    module_own: Vec<u32>,
    /// Every file's lookups are in [`Sec::LinkLookups`] (none kept from an older link).
    lookups: bool,
    /// Go: import path → the package name it is imported as when not renamed, sorted.
    go_names: Vec<(String, String)>,
}

/// One entry of a [`Sec::LinkGo`] list: the concrete types with a method, and the
/// interfaces with it.
#[derive(Serialize, Deserialize, Default)]
pub struct GoNamed {
    /// (type, module) of the concrete Go types whose method set has the name.
    pub concrete: Vec<(u32, u32)>,
    /// (interface, module, method set size, has an unexported method).
    pub interfaces: Vec<(u32, u32, u32, bool)>,
}

fn u32s(ids: &[u32]) -> Vec<u8> {
    ids.iter().flat_map(|i| i.to_le_bytes()).collect()
}

fn family_key(family: Language, name: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(name.len() + 1);
    k.push(family as u8);
    k.extend_from_slice(name.as_bytes());
    k
}

/// The link sections of a store for `graph`, in [`Sec`] order.
pub(super) fn encode(
    parts: &LinkParts<'_>,
    graph: &crate::code::link::GraphData,
) -> std::io::Result<Vec<(Sec, Vec<u8>)>> {
    let t = parts.tables;
    let n = graph.files.len();
    if t.scopes.len() != n || t.first_sym.len() != n || parts.facts.len() != n {
        return Err(std::io::Error::other(
            "the link tables do not match the files",
        ));
    }
    let files: Vec<FileRec<'_>> = (0..n)
        .map(|fi| FileRec {
            language: graph.files[fi].language,
            scope: &t.scopes[fi],
            first: t.first_sym[fi],
            count: parts.facts[fi].symbols.len() as u32,
            state: parts.states.get(fi).copied().unwrap_or_default(),
            package: &parts.facts[fi].package,
        })
        .collect();
    let mut derived: std::collections::HashMap<u32, Vec<u32>> = Default::default();
    for (&t, bs) in &t.bases {
        for &b in bs {
            derived.entry(b).or_default().push(t);
        }
    }
    for v in derived.values_mut() {
        v.sort_unstable();
        v.dedup();
    }
    let mut syms = Vec::with_capacity(graph.symbols.len());
    for (id, s) in graph.symbols.iter().enumerate() {
        let fi = s.file as usize;
        let raw = t
            .first_sym
            .get(fi)
            .and_then(|&first| parts.facts[fi].symbols.get(id - first as usize))
            .ok_or_else(|| std::io::Error::other("a symbol has no facts"))?;
        let id = id as SymbolId;
        syms.push(SymRec {
            file: s.file,
            kind: s.kind,
            qname: &s.qname,
            name: &raw.name,
            container: &raw.container,
            fields: &raw.fields,
            results: &raw.results,
            methods: t
                .methods
                .get(&id)
                .map(|m| {
                    let mut v: Vec<(&str, u32)> = m.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                    v.sort_unstable();
                    v
                })
                .unwrap_or_default(),
            bases: t.bases.get(&id).map_or(&[], Vec::as_slice),
            owner: t.owner_of.get(&id).copied(),
            derived: derived.get(&id).map_or(&[], Vec::as_slice),
        });
    }
    let (file_offsets, file_data) = records(&files)?;
    let (sym_offsets, sym_data) = records(&syms)?;
    let qnames = map_table(
        t.by_qname
            .iter()
            .map(|(k, v)| (k.as_bytes().to_vec(), v.to_le_bytes().to_vec()))
            .collect(),
    )?;
    // Every name with its count; the ids too when there are at most MAX_NAME_MATCHES.
    let named = map_table(
        t.methods_by_name
            .iter()
            .map(|((family, name), ids)| {
                let mut v = (ids.len() as u32).to_le_bytes().to_vec();
                if ids.len() <= MAX_NAME_MATCHES {
                    v.extend(u32s(ids));
                }
                (family_key(*family, name), v)
            })
            .collect(),
    )?;
    let lookups = match &t.lookups {
        Some(logs) => {
            let mut by_key: std::collections::HashMap<u64, Vec<u32>> = Default::default();
            for (fi, log) in logs.iter().enumerate() {
                for &k in log {
                    by_key.entry(k).or_default().push(fi as u32);
                }
            }
            map_table(
                by_key
                    .into_iter()
                    .map(|(k, files)| (k.to_be_bytes().to_vec(), u32s(&files)))
                    .collect(),
            )?
        }
        None => map_table(Vec::new())?,
    };
    let go = go_sets(t, &parts.facts, graph)?;
    let modules = map_table(
        t.module_names
            .iter()
            .enumerate()
            .map(|(i, m)| (m.as_bytes().to_vec(), (i as u32).to_le_bytes().to_vec()))
            .collect(),
    )?;
    let paths = map_table(
        graph
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    f.path.as_bytes().to_vec(),
                    (i as u32).to_le_bytes().to_vec(),
                )
            })
            .collect(),
    )?;
    let misc = Misc {
        module_names: t.module_names.clone(),
        module_file: (0..t.module_names.len())
            .map(|m| t.module_file.get(&m).map_or(u32::MAX, |&f| f as u32))
            .collect(),
        rust_crates: {
            let mut c: Vec<String> = t.rust_crates.iter().cloned().collect();
            c.sort();
            c
        },
        summary: parts.summary.clone(),
        module_own: t.module_own.clone(),
        lookups: t.lookups.is_some(),
        go_names: t
            .go_names
            .iter()
            .map(|(a, b)| (a.clone(), b.clone()))
            .collect(),
    };
    let misc = postcard::to_stdvec(&misc).map_err(std::io::Error::other)?;
    Ok(vec![
        (Sec::LinkFileOffsets, file_offsets),
        (Sec::LinkFileData, file_data),
        (Sec::LinkSymOffsets, sym_offsets),
        (Sec::LinkSymData, sym_data),
        (Sec::LinkQnames, qnames),
        (Sec::LinkNamed, named),
        (Sec::LinkModules, modules),
        (Sec::FilePaths, paths),
        (Sec::LinkMisc, misc),
        (Sec::LinkLookups, lookups),
        (Sec::LinkGo, go),
    ])
}

/// The [`Sec::LinkGo`] section: every Go type's method set, by method name.
fn go_sets(
    t: &Linked,
    facts: &[&FileFacts],
    graph: &crate::code::link::GraphData,
) -> std::io::Result<Vec<u8>> {
    let modules: std::collections::HashMap<&str, u32> = t
        .module_names
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i as u32))
        .collect();
    let mut by_name: BTreeMap<String, GoNamed> = BTreeMap::new();
    for (id, s) in graph.symbols.iter().enumerate() {
        let fi = s.file as usize;
        if graph.files.get(fi).map(|f| f.language) != Some(Language::Go) {
            continue;
        }
        let concrete = matches!(s.kind, Kind::Struct | Kind::Type);
        if !concrete && s.kind != Kind::Interface {
            continue;
        }
        let set = crate::code::link::method_set(
            id as SymbolId,
            |c, out| {
                if let Some(ms) = t.methods.get(&c) {
                    out.extend(ms.keys().cloned());
                }
                let cf = graph.symbols.get(c as usize).map(|s| s.file as usize);
                let raw = cf.and_then(|cf| {
                    let first = *t.first_sym.get(cf)? as usize;
                    facts.get(cf)?.symbols.get((c as usize).checked_sub(first)?)
                });
                if let (Some(cf), Some(raw)) = (cf, raw) {
                    crate::code::link::std_promoted(raw, &t.scopes[cf], out);
                }
            },
            |c| t.bases.get(&c).map_or(&[][..], Vec::as_slice),
        );
        let module = t
            .scopes
            .get(fi)
            .and_then(|sc| modules.get(sc.prefix()))
            .copied()
            .unwrap_or(u32::MAX);
        let unexported = set
            .iter()
            .any(|m| m.chars().next().is_some_and(char::is_lowercase));
        for name in &set {
            let e = by_name.entry(name.clone()).or_default();
            if concrete {
                e.concrete.push((id as u32, module));
            } else {
                e.interfaces
                    .push((id as u32, module, set.len() as u32, unexported));
            }
        }
    }
    let mut pairs = Vec::with_capacity(by_name.len());
    for (name, e) in by_name {
        pairs.push((
            name.into_bytes(),
            postcard::to_stdvec(&e).map_err(std::io::Error::other)?,
        ));
    }
    map_table(pairs)
}

/// The [`Sec::LinkMisc`] section `bytes` with `summary` as its counts.
pub(super) fn with_summary(bytes: &[u8], summary: Summary) -> Option<Vec<u8>> {
    let mut misc: Misc = postcard::from_bytes(bytes).ok()?;
    misc.summary = summary;
    postcard::to_stdvec(&misc).ok()
}

fn empty_sym() -> LinkSym {
    LinkSym {
        file: 0,
        kind: Kind::Var,
        qname: String::new(),
        raw: surface_only(String::new(), Vec::new(), Kind::Var, Vec::new(), Vec::new()),
        methods: Vec::new(),
        bases: Vec::new(),
        owner: None,
        derived: Vec::new(),
    }
}

fn u32_of(bytes: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.try_into().ok()?))
}

/// The link's tables read from a store file, for resolving the references of a few
/// edited files whose surfaces did not change (so the tables are still right). Their own
/// facts stand in for the stored surfaces of their symbols ([`LinkTables::with_own`]).
pub struct LinkTables<'s, 'f> {
    store: &'s StoreFile,
    misc: Misc,
    rust_crates: HashSet<String>,
    qnames: Option<Map<'s>>,
    named: Option<Map<'s>>,
    modules: Option<Map<'s>>,
    files: Vec<OnceLock<Box<LinkFile>>>,
    syms: Vec<OnceLock<Box<LinkSym>>>,
    /// (first id, end id, file, facts) of the files whose facts are given.
    own: Vec<(SymbolId, SymbolId, usize, &'f FileFacts)>,
    /// What a record that cannot be read reads as (the store records the failure).
    missing_file: LinkFile,
    missing_sym: LinkSym,
}

impl<'s, 'f> LinkTables<'s, 'f> {
    /// The tables of `store`; `None` (recorded as its failure) when a section is damaged.
    pub fn new(store: &'s StoreFile) -> Option<Self> {
        let misc: Misc = store.decode(store.section(Sec::LinkMisc)?, Sec::LinkMisc)?;
        let rust_crates = misc.rust_crates.iter().cloned().collect();
        let (n_files, n_syms) = (store.header.files as usize, store.header.symbols as usize);
        Some(LinkTables {
            store,
            misc,
            rust_crates,
            qnames: Some(Map::parse(store.section(Sec::LinkQnames)?)?),
            named: Some(Map::parse(store.section(Sec::LinkNamed)?)?),
            modules: Some(Map::parse(store.section(Sec::LinkModules)?)?),
            files: (0..n_files).map(|_| OnceLock::new()).collect(),
            syms: (0..n_syms).map(|_| OnceLock::new()).collect(),
            own: Vec::new(),
            missing_file: LinkFile {
                language: Language::Go,
                scope: FileScope::default(),
                first: 0,
                count: 0,
                state: FileState::default(),
                package: String::new(),
            },
            missing_sym: empty_sym(),
        })
    }

    /// Resolves with `facts` as the facts of file `fi` (whose first symbol is `first`).
    pub fn with_own(&mut self, fi: usize, first: SymbolId, facts: &'f FileFacts) {
        let end = first + facts.symbols.len() as SymbolId;
        self.own.push((first, end, fi, facts));
    }

    /// The summary the store was written with.
    pub fn summary(&self) -> &Summary {
        &self.misc.summary
    }

    /// File `fi`'s record.
    pub fn file(&self, fi: usize) -> &LinkFile {
        let Some(slot) = self.files.get(fi) else {
            self.store
                .fail(&super::StoreError::Corrupt(Sec::LinkFileData.name()));
            return &self.missing_file;
        };
        slot.get_or_init(|| {
            let rec = self
                .store
                .record(Sec::LinkFileOffsets, Sec::LinkFileData, fi as u32)
                .and_then(|b| self.store.decode::<LinkFile>(&b, Sec::LinkFileData));
            Box::new(rec.unwrap_or_else(|| self.missing_file.clone()))
        })
    }

    /// Go: the package name the import path `module` is imported as when not renamed.
    pub fn go_name(&self, module: &str) -> Option<String> {
        let v = &self.misc.go_names;
        v.binary_search_by(|(k, _)| k.as_str().cmp(module))
            .ok()
            .map(|i| v[i].1.clone())
    }

    /// Whether every file's lookups were recorded.
    pub fn has_lookups(&self) -> bool {
        self.misc.lookups
    }

    /// How many modules the store knows.
    pub fn module_count(&self) -> usize {
        self.misc.module_names.len()
    }

    /// How many files are module `m` (their own prefix).
    pub fn module_own(&self, m: usize) -> u32 {
        self.misc.module_own.get(m).copied().unwrap_or(0)
    }

    /// How many methods of `family` are named `name`, and their ids when there are at
    /// most `MAX_NAME_MATCHES`.
    pub fn named_count(&self, family: Language, name: &str) -> (u32, Option<Vec<SymbolId>>) {
        let Some(bytes) = self
            .named
            .as_ref()
            .and_then(|m| m.get(&family_key(family, name)))
        else {
            return (0, Some(Vec::new()));
        };
        let count = bytes.get(..4).and_then(u32_of).unwrap_or(0);
        let ids: Vec<SymbolId> = bytes[4.min(bytes.len())..]
            .chunks_exact(4)
            .filter_map(u32_of)
            .collect();
        (count, (count as usize <= MAX_NAME_MATCHES).then_some(ids))
    }

    /// The files whose link made the lookup `key` (`link::lookup`).
    pub fn lookup_files(&self, key: u64) -> Vec<u32> {
        let Some(map) = self
            .store
            .section(Sec::LinkLookups)
            .and_then(super::tables::Map::parse)
        else {
            return Vec::new();
        };
        map.get(&key.to_be_bytes())
            .map(|b| b.chunks_exact(4).filter_map(u32_of).collect())
            .unwrap_or_default()
    }

    /// The Go types whose method set has `name`.
    pub fn go_named(&self, name: &str) -> GoNamed {
        self.store
            .section(Sec::LinkGo)
            .and_then(super::tables::Map::parse)
            .and_then(|m| m.get(name.as_bytes()))
            .and_then(|b| self.store.decode(b, Sec::LinkGo))
            .unwrap_or_default()
    }

    /// Symbol `id`'s record.
    pub fn sym(&self, id: SymbolId) -> &LinkSym {
        let Some(slot) = self.syms.get(id as usize) else {
            self.store
                .fail(&super::StoreError::Corrupt(Sec::LinkSymData.name()));
            return &self.missing_sym;
        };
        slot.get_or_init(|| {
            let rec = self
                .store
                .record(Sec::LinkSymOffsets, Sec::LinkSymData, id)
                .and_then(|b| self.store.decode::<SymOwned>(&b, Sec::LinkSymData));
            Box::new(match rec {
                Some(r) => r.into(),
                None => empty_sym(),
            })
        })
    }
}

impl Tables for LinkTables<'_, '_> {
    fn lang(&self, fi: usize) -> Language {
        self.file(fi).language
    }

    fn scope(&self, fi: usize) -> &FileScope {
        &self.file(fi).scope
    }

    fn kind(&self, id: SymbolId) -> Kind {
        self.sym(id).kind
    }

    fn qname(&self, id: SymbolId) -> &str {
        &self.sym(id).qname
    }

    fn file_of(&self, id: SymbolId) -> usize {
        self.sym(id).file as usize
    }

    fn raw(&self, id: SymbolId) -> (usize, &RawSymbol) {
        for &(first, end, fi, facts) in &self.own {
            if (first..end).contains(&id)
                && let Some(raw) = facts.symbols.get((id - first) as usize)
            {
                return (fi, raw);
            }
        }
        let s = self.sym(id);
        (s.file as usize, &s.raw)
    }

    fn qname_id(&self, qname: &str) -> Option<SymbolId> {
        self.qnames.as_ref()?.get(qname.as_bytes()).and_then(u32_of)
    }

    fn module(&self, name: &str) -> Option<usize> {
        self.modules
            .as_ref()?
            .get(name.as_bytes())
            .and_then(u32_of)
            .map(|m| m as usize)
    }

    fn module_name(&self, m: usize) -> &str {
        self.misc.module_names.get(m).map_or("", String::as_str)
    }

    fn module_file(&self, m: usize) -> Option<usize> {
        self.misc
            .module_file
            .get(m)
            .filter(|&&f| f != u32::MAX)
            .map(|&f| f as usize)
    }

    fn method(&self, t: SymbolId, name: &str) -> Option<SymbolId> {
        let ms = &self.sym(t).methods;
        ms.binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| ms[i].1)
    }

    fn bases(&self, t: SymbolId) -> &[SymbolId] {
        &self.sym(t).bases
    }

    fn named_methods(&self, family: Language, name: &str) -> Option<Vec<SymbolId>> {
        match self.named_count(family, name) {
            (0, _) => None,
            (_, ids) => ids,
        }
    }

    fn owner(&self, id: SymbolId) -> Option<SymbolId> {
        self.sym(id).owner
    }

    fn rust_crates(&self) -> &HashSet<String> {
        &self.rust_crates
    }
}
