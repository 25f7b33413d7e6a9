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

use std::collections::{BTreeMap, HashSet};
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
}

/// One symbol's surface and tables, decoded.
struct LinkSym {
    file: u32,
    kind: Kind,
    qname: String,
    raw: RawSymbol,
    /// Sorted by name.
    methods: Vec<(String, u32)>,
    bases: Vec<u32>,
    owner: Option<u32>,
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
        })
        .collect();
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
    let named = map_table(
        t.methods_by_name
            .iter()
            .filter(|(_, ids)| ids.len() <= MAX_NAME_MATCHES)
            .map(|((family, name), ids)| (family_key(*family, name), u32s(ids)))
            .collect(),
    )?;
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
    ])
}

/// The [`Sec::LinkMisc`] section `bytes` with `summary` as its counts.
pub(super) fn with_summary(bytes: &[u8], summary: Summary) -> Option<Vec<u8>> {
    let mut misc: Misc = postcard::from_bytes(bytes).ok()?;
    misc.summary = summary;
    postcard::to_stdvec(&misc).ok()
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
            },
            missing_sym: LinkSym {
                file: 0,
                kind: Kind::Var,
                qname: String::new(),
                raw: surface_only(String::new(), Vec::new(), Kind::Var, Vec::new(), Vec::new()),
                methods: Vec::new(),
                bases: Vec::new(),
                owner: None,
            },
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

    fn sym(&self, id: SymbolId) -> &LinkSym {
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
                None => LinkSym {
                    file: 0,
                    kind: Kind::Var,
                    qname: String::new(),
                    raw: surface_only(String::new(), Vec::new(), Kind::Var, Vec::new(), Vec::new()),
                    methods: Vec::new(),
                    bases: Vec::new(),
                    owner: None,
                },
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
        let bytes = self.named.as_ref()?.get(&family_key(family, name))?;
        Some(bytes.chunks_exact(4).filter_map(u32_of).collect())
    }

    fn owner(&self, id: SymbolId) -> Option<SymbolId> {
        self.sym(id).owner
    }

    fn rust_crates(&self) -> &HashSet<String> {
        &self.rust_crates
    }
}
