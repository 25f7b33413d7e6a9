//! Where the graph lives: the [`GraphStore`] trait and the embedded store, [`CodeGraph`].
//!
//! The trait is the handful of lookups the `code` tool's queries need (symbols by name,
//! qualified name or file; edges in and out by kind, with limits and totals), so that a
//! server-backed store (ArangoDB, a later issue) can answer the same queries with the same
//! ranking and output. Everything above it ([`super::query`]) is written against the trait.
//!
//! The embedded store keeps the linked graph in memory with hash indexes built at load
//! time: no server, and a warm query costs one cache read.

use foldhash::HashMap;

use rayon::prelude::*;

use super::link::GraphData;
use super::model::{Edge, EdgeKind, FileId, FileInfo, Symbol, SymbolId};

/// How a name search matches bare symbol names. All matching ignores ASCII case; the
/// query layer ranks case-exact matches first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameMatch {
    /// The whole name.
    Exact(String),
    /// A substring of the name.
    Contains(String),
    /// A glob over the name (`*Issue*`, `Handle?`).
    Glob(String),
}

/// A page of edges and how many there are in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EdgePage {
    /// At most the requested number of edges, in a stable order (by source location).
    pub edges: Vec<Edge>,
    /// How many edges matched before the limit.
    pub total: usize,
}

/// The lookups the `code` tool needs from a graph store.
pub trait GraphStore: Send + Sync {
    /// The symbol with this id.
    fn symbol(&self, id: SymbolId) -> Option<Symbol>;
    /// The file with this id.
    fn file(&self, id: FileId) -> Option<FileInfo>;
    /// Symbols whose bare name matches, in index order.
    fn find_names(&self, pattern: &NameMatch) -> Vec<SymbolId>;
    /// Symbols with exactly this qualified name.
    fn by_qname(&self, qname: &str) -> Vec<SymbolId>;
    /// Symbols defined in the file at this repo-relative path, in source order.
    fn in_file(&self, path: &str) -> Vec<SymbolId>;
    /// Edges of `kind` leaving `id`, at most `limit`.
    fn edges_out(&self, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage;
    /// Edges of `kind` arriving at `id`, at most `limit`.
    fn edges_in(&self, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage;
    /// A hint before a walk over call edges: every symbol within `hops` calls of `from`
    /// (callers when `up`, callees otherwise) will have its call edges asked for. A
    /// server-backed store fetches them in one traversal instead of one round trip per
    /// symbol; answers must not change. In-memory stores have nothing to do.
    fn prefetch_calls(&self, from: &[SymbolId], hops: u32, up: bool) {
        let _ = (from, hops, up);
    }
}

/// The embedded graph store: the linked graph plus in-memory indexes.
#[derive(Debug, Default)]
pub struct CodeGraph {
    data: GraphData,
    lower_names: Vec<String>,
    by_lower_name: HashMap<String, Vec<SymbolId>>,
    by_qname: HashMap<String, Vec<SymbolId>>,
    by_path: HashMap<String, Vec<SymbolId>>,
    out: Vec<Vec<u32>>,
    inc: Vec<Vec<u32>>,
}

impl CodeGraph {
    /// Builds the indexes over a linked graph.
    pub fn new(data: GraphData) -> Self {
        let n = data.symbols.len();
        let mut g = CodeGraph {
            lower_names: Vec::with_capacity(n),
            out: vec![Vec::new(); n],
            inc: vec![Vec::new(); n],
            ..Default::default()
        };
        for (i, s) in data.symbols.iter().enumerate() {
            let id = i as SymbolId;
            let lower = s.name.to_ascii_lowercase();
            g.by_lower_name.entry(lower.clone()).or_default().push(id);
            g.lower_names.push(lower);
            g.by_qname.entry(s.qname.clone()).or_default().push(id);
            g.by_path.entry(s.path.clone()).or_default().push(id);
        }
        let mut order: Vec<u32> = (0..data.edges.len() as u32).collect();
        // Edges sorted by the source's location, then line: stable, readable output.
        order.par_sort_by_key(|&e| {
            let e = &data.edges[e as usize];
            (e.from, e.line, e.to)
        });
        for e in order {
            let edge = &data.edges[e as usize];
            if let Some(v) = g.out.get_mut(edge.from as usize) {
                v.push(e);
            }
            if let Some(v) = g.inc.get_mut(edge.to as usize) {
                v.push(e);
            }
        }
        // Borrowed keys: no path is cloned per comparison (the sort is stable, as before).
        let key = |e: u32| {
            let e = &data.edges[e as usize];
            let s = &data.symbols[e.from as usize];
            (s.rank_class(), s.path.as_str(), e.line)
        };
        g.inc
            .par_iter_mut()
            .for_each(|list| list.sort_by(|&a, &b| key(a).cmp(&key(b))));
        g.data = data;
        g
    }

    /// Every symbol; a [`SymbolId`] indexes this slice.
    pub fn symbols(&self) -> &[Symbol] {
        &self.data.symbols
    }

    /// Every indexed file; a [`FileId`] indexes this slice.
    pub fn files(&self) -> &[FileInfo] {
        &self.data.files
    }

    /// Every edge.
    pub fn edges(&self) -> &[Edge] {
        &self.data.edges
    }

    /// The edges of one kind.
    pub fn edges_of_kind(&self, kind: EdgeKind) -> impl Iterator<Item = &Edge> {
        self.data.edges.iter().filter(move |e| e.kind == kind)
    }

    /// The symbol with this id, borrowed.
    pub fn get(&self, id: SymbolId) -> Option<&Symbol> {
        self.data.symbols.get(id as usize)
    }

    /// The linked data, for persisting.
    pub fn data(&self) -> &GraphData {
        &self.data
    }

    /// The edge lists in query order, for persisting them as they are: per symbol, the
    /// indexes into [`edges`](Self::edges) of its outgoing and of its incoming edges.
    pub(super) fn adjacency(&self) -> (&[Vec<u32>], &[Vec<u32>]) {
        (&self.out, &self.inc)
    }

    fn page(&self, list: Option<&Vec<u32>>, kind: EdgeKind, limit: usize) -> EdgePage {
        let mut page = EdgePage::default();
        for &e in list.into_iter().flatten() {
            let edge = self.data.edges[e as usize];
            if edge.kind != kind {
                continue;
            }
            page.total += 1;
            if page.edges.len() < limit {
                page.edges.push(edge);
            }
        }
        page
    }
}

impl GraphStore for CodeGraph {
    fn symbol(&self, id: SymbolId) -> Option<Symbol> {
        self.data.symbols.get(id as usize).cloned()
    }

    fn file(&self, id: FileId) -> Option<FileInfo> {
        self.data.files.get(id as usize).cloned()
    }

    fn find_names(&self, pattern: &NameMatch) -> Vec<SymbolId> {
        match pattern {
            NameMatch::Exact(n) => self
                .by_lower_name
                .get(&n.to_ascii_lowercase())
                .cloned()
                .unwrap_or_default(),
            NameMatch::Contains(part) => {
                let part = part.to_ascii_lowercase();
                self.lower_names
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.contains(&part))
                    .map(|(i, _)| i as SymbolId)
                    .collect()
            }
            NameMatch::Glob(g) => {
                let Ok(glob) = globset::GlobBuilder::new(&g.to_ascii_lowercase())
                    .literal_separator(false)
                    .build()
                else {
                    return Vec::new();
                };
                let m = glob.compile_matcher();
                self.lower_names
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| m.is_match(n.as_str()))
                    .map(|(i, _)| i as SymbolId)
                    .collect()
            }
        }
    }

    fn by_qname(&self, qname: &str) -> Vec<SymbolId> {
        self.by_qname.get(qname).cloned().unwrap_or_default()
    }

    fn in_file(&self, path: &str) -> Vec<SymbolId> {
        self.by_path.get(path).cloned().unwrap_or_default()
    }

    fn edges_out(&self, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage {
        self.page(self.out.get(id as usize), kind, limit)
    }

    fn edges_in(&self, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage {
        self.page(self.inc.get(id as usize), kind, limit)
    }
}
