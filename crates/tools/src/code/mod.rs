//! `code`: the tree-sitter code graph of a repository's Go, Python, TypeScript,
//! JavaScript, Rust and Java code, and the tool that queries it.
//!
//! This is why explore needs three tool calls where a grep-driven agent needs fourteen:
//! "who calls Plan" is one lookup in a graph of definitions and calls, not a text search
//! followed by reading every hit. The graph is built from tags.scm-style queries
//! (`crates/tools/queries/`), linked across files and packages, cached outside the
//! repository and refreshed incrementally; `docs/code-graph.md` gives the design.
//!
//! # Public API (for the local engine and `explore index`)
//!
//! - [`CodeTool::new`]`(root, IndexOptions)`; [`CodeTool::graph`] builds or loads the
//!   graph on first use and returns the same `Arc<CodeGraph>` afterwards;
//!   [`CodeTool::index`] refreshes it and returns [`IndexStats`].
//! - [`CodeGraph`]: [`symbols`](CodeGraph::symbols) ([`Symbol`]: name, display, qname,
//!   kind, path, line, end_line, signature, doc, is_test/is_vendored/is_generated),
//!   [`files`](CodeGraph::files) ([`FileInfo`]: path, language, lines),
//!   [`edges`](CodeGraph::edges) / [`edges_of_kind`](CodeGraph::edges_of_kind)
//!   ([`Edge`]: from, to, kind, line, inferred), and the queries
//!   [`find`](CodeGraph::find), [`resolve`](CodeGraph::resolve),
//!   [`callers`](CodeGraph::callers), [`callees`](CodeGraph::callees),
//!   [`implementations`](CodeGraph::implementations),
//!   [`implemented_by`](CodeGraph::implemented_by), [`methods`](CodeGraph::methods),
//!   [`usages`](CodeGraph::usages), [`trace`](CodeGraph::trace).
//! - [`GraphStore`]: the lookups those queries need, implemented by [`CodeGraph`] (the
//!   embedded store) and, later, by a server-backed store.
//! - [`run`]: the tool's text for a [`CodeArgs`], as the model sees it.

pub mod answer;
pub mod arango;
mod atomic;
#[doc(hidden)]
pub mod crash;
mod extract;
mod goshape;
mod index;
mod lazy;
mod link;
mod model;
mod params;
mod patch;
mod prefilter;
pub mod progress;
mod query;
mod relink;
mod render;
mod stdlib;
mod store;
mod tool;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub use answer::CodeAnswer;
pub use extract::{
    ExtractError, FileFacts, TreeHeap, count_lines, extract, parse_only, set_tree_heap,
};
pub use index::{
    FORMAT_VERSION, IndexStats, MAX_FILE_BYTES, TextSink, cache_path, exit_after_build,
};
pub use lazy::{StoreError, StoreFile, store_path};
pub use link::{GraphData, MAX_NAME_MATCHES};
pub use model::{Edge, EdgeKind, FileId, FileInfo, Kind, Language, Symbol, SymbolId};
pub use prefilter::partial_answer;
pub use query::{
    Hop, MAX_DEPTH, MAX_RESULTS, MAX_TRACE, Match, Related, Resolution, Role, SymbolQuery,
    TraceStep, Walk, file_matches,
};
pub use render::output as render;
pub use store::{CodeGraph, EdgePage, GraphStore, NameMatch};
pub use tool::{CodeArgs, Operation, answer, invalid_kind, run};

use crate::{ErrorKind, RepoRoot, Tool, ToolError, ToolOutput, args};

/// Where and how the code index is kept.
#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    /// Cache directory for the persisted index (default: `EXPLORE_CACHE_DIR`, else the
    /// XDG cache dir, `~/.cache/explore`).
    pub cache_dir: Option<PathBuf>,
    /// Keep the index in memory only: no cache file is read or written.
    pub no_cache: bool,
    /// Answer `code` calls from this shared graph (ArangoDB, `--store arangodb`) instead
    /// of the local index. The local index is still what [`CodeTool::graph`] returns,
    /// for the local engine's ranking, which needs every symbol in memory.
    pub shared: Option<Arc<arango::ArangoStore>>,
}

/// The `code` tool: the graph, built on first use, and its queries.
pub struct CodeTool {
    root: RepoRoot,
    options: IndexOptions,
    state: Mutex<Option<(Arc<CodeGraph>, IndexStats)>>,
    /// The first query on a repository never indexed (`prefilter`): answered from the
    /// files that mention the name while the full index is built in the background.
    first: prefilter::FirstQuery,
    /// The warm path (see [`CodeTool::warm_store`]): `None` until the first call looks,
    /// then the store file to answer from, or `Some(None)` to use [`CodeTool::graph`].
    warm: Mutex<Option<Option<Arc<StoreFile>>>>,
    /// The cache file, resolved once: `None` when caching is off or its folder cannot be
    /// made (said once, and the index stays in memory).
    cache: std::sync::OnceLock<Option<PathBuf>>,
    /// What the refresh in place did, when the warm store came from one.
    patched: Mutex<Option<IndexStats>>,
}

impl std::fmt::Debug for CodeTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeTool")
            .field("root", &self.root)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl CodeTool {
    /// A `code` tool over the repository at `root`. Nothing is read until the first query.
    pub fn new(root: RepoRoot, options: IndexOptions) -> Self {
        Self {
            root,
            options,
            state: Mutex::new(None),
            first: prefilter::FirstQuery::default(),
            warm: Mutex::new(None),
            cache: std::sync::OnceLock::new(),
            patched: Mutex::new(None),
        }
    }

    /// The cache file this tool reads and writes, if any. A cache folder that cannot be
    /// made (a file in the way, no permission) is one warning, not one per cache file
    /// read and written: the index is then kept in memory for the run.
    pub fn cache_path(&self) -> Option<PathBuf> {
        self.cache
            .get_or_init(|| {
                if self.options.no_cache {
                    return None;
                }
                let path = index::cache_path(self.root.path(), self.options.cache_dir.as_deref())?;
                let folder = path.parent()?;
                match std::fs::create_dir_all(folder) {
                    Ok(()) => Some(path),
                    Err(e) => {
                        tracing::warn!(
                            "cannot use the cache folder {} ({e}); the code index stays in memory for this run (set EXPLORE_CACHE_DIR to a writable folder)",
                            folder.display()
                        );
                        None
                    }
                }
            })
            .clone()
    }

    /// The graph: loaded from the cache (refreshed for changed files) or built on the
    /// first call, then shared.
    pub fn graph(&self) -> Result<Arc<CodeGraph>, ToolError> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| ToolError::failed("the code index is unavailable (a build panicked)"))?;
        if state.is_none()
            && let Some(built) = self.first.wait()
        {
            *state = Some((Arc::new(built.graph), built.stats));
        }
        if let Some((g, _)) = state.as_ref() {
            return Ok(g.clone());
        }
        let built = index::refresh(self.root.path(), self.cache_path().as_deref());
        let g = Arc::new(built.graph);
        *state = Some((g.clone(), built.stats));
        Ok(g)
    }

    // ---- The warm path: answer from the store file without loading the graph. ----

    /// The store file a query can answer from without loading the graph, when the cache
    /// has one for this repository and nothing the last walk depended on has changed
    /// (stats only, no walk; see `docs/cache.md`). Looked up once per tool; `None` means
    /// "use [`CodeTool::graph`]", which rebuilds or refreshes the cache and the store.
    pub fn warm_store(&self) -> Option<Arc<StoreFile>> {
        let mut warm = self.warm.lock().ok()?;
        if let Some(w) = warm.as_ref() {
            return w.clone();
        }
        let graph_loaded = self.state.lock().map(|s| s.is_some()).unwrap_or(true);
        let opened = if graph_loaded { None } else { self.open_warm() };
        *warm = Some(opened.clone());
        opened
    }

    fn open_warm(&self) -> Option<Arc<StoreFile>> {
        let cache = self.cache_path()?;
        let path = lazy::store_path(&cache);
        let root = self.root.path();
        let why = match StoreFile::open_live(&path, root, index::fingerprint()) {
            Ok(store) => match store.is_fresh(root) {
                Ok(true) => return Some(Arc::new(store)),
                Ok(false) => {
                    tracing::debug!("the repository changed since the code store was written");
                    // Edits that declared nothing new: patch the store instead of
                    // refreshing the whole index.
                    drop(store);
                    let (store, stats) = patch::refresh_in_place(root, &cache)?;
                    if let Ok(mut p) = self.patched.lock() {
                        *p = Some(stats);
                    }
                    return Some(Arc::new(store));
                }
                Err(e) => e,
            },
            Err(StoreError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => e,
        };
        tracing::warn!(
            "the code store {} cannot be used ({why}); rebuilding",
            path.display()
        );
        None
    }

    /// The store file (and its delta) as the last refresh left it, opened anew, if it is whole and still
    /// fresh (stats only): what a caller that holds the refreshed graph keys data derived
    /// from it by (the local engine's lexical index). `None` when there is no cache, or
    /// the tree changed since the refresh read it.
    pub fn fresh_store(&self) -> Option<StoreFile> {
        let path = lazy::store_path(&self.cache_path()?);
        let root = self.root.path();
        // With its delta: a refresh in place leaves the store and its delta.
        let store = StoreFile::open_live(&path, root, index::fingerprint()).ok()?;
        store.is_fresh(root).ok()?.then_some(store)
    }

    /// Refuses a `file` filter that names a place outside the repository (absolute, `~`,
    /// `..` that climbs out, a symlink that leads out) with the error `read` gives for the
    /// same path, through the same [`RepoRoot::resolve`]: the filter would only find
    /// nothing there, and the model should learn why rather than conclude the symbol
    /// does not exist. A filter that is not a path from the root (`plan.go`, a suffix)
    /// is not found by `resolve`, and filters as before.
    fn check_file_filter(&self, file: Option<&str>) -> Result<(), ToolError> {
        let Some(file) = file.map(str::trim).filter(|f| !f.is_empty()) else {
            return Ok(());
        };
        match self.root.resolve(file) {
            Err(e) if e.kind() == ErrorKind::Refused => Err(e),
            _ => Ok(()),
        }
    }

    /// Answers from the warm store if there is one; `None` when the caller must use the
    /// graph (no store, stale, or a lookup found the store corrupt: then it is removed so
    /// that the refresh writes it again).
    fn call_warm(&self, a: &CodeArgs) -> Option<Result<ToolOutput, ToolError>> {
        let store = self.warm_store()?;
        let out = tool::run(&*store, a);
        let Some(why) = store.failure() else {
            return Some(out);
        };
        if let Some(path) = self.cache_path().map(|p| lazy::store_path(&p)) {
            tracing::warn!(
                "the code store {} cannot be used ({why}); rebuilding",
                path.display()
            );
            let _ = std::fs::remove_file(path);
        }
        if let Ok(mut warm) = self.warm.lock() {
            *warm = Some(None);
        }
        None
    }

    // ---- End of the warm path. ----

    /// Refreshes the index from disk now and returns what it took.
    pub fn index(&self) -> Result<IndexStats, ToolError> {
        self.index_with(None)
    }

    /// [`CodeTool::index`], handing `sink` the bytes of every file it reads (see
    /// [`TextSink`]).
    pub fn index_with(&self, sink: Option<&dyn TextSink>) -> Result<IndexStats, ToolError> {
        if let Ok(mut warm) = self.warm.lock() {
            *warm = Some(None);
        }
        let built = index::refresh_with(self.root.path(), self.cache_path().as_deref(), sink);
        let stats = built.stats.clone();
        let mut state = self
            .state
            .lock()
            .map_err(|_| ToolError::failed("the code index is unavailable (a build panicked)"))?;
        *state = Some((Arc::new(built.graph), built.stats));
        Ok(stats)
    }

    /// True when a call was answered from a partial graph (the first query on a
    /// repository never indexed) and the full index it started is not in use yet: a
    /// process about to exit would lose that build, so the CLI hands it to a background
    /// `explore index` (see `crates/cli/src/background.rs`).
    pub fn full_index_pending(&self) -> bool {
        self.first.pending()
    }

    /// What the refresh in place (a delta beside the store, see `docs/cache.md`) did, when
    /// [`CodeTool::warm_store`] ran one.
    pub fn patched(&self) -> Option<IndexStats> {
        self.patched.lock().ok().and_then(|p| p.clone())
    }

    /// The stats of the last build or refresh, if the graph was built.
    pub fn stats(&self) -> Option<IndexStats> {
        self.state
            .lock()
            .ok()
            .and_then(|s| s.as_ref().map(|(_, st)| st.clone()))
    }
}

impl CodeGraph {
    fn store(&self) -> &dyn GraphStore {
        self
    }

    /// Symbols matching a name, qualified name or glob, best first (partial matches last).
    pub fn find(&self, q: &SymbolQuery) -> Vec<Match> {
        query::find(self.store(), q, true)
    }

    /// Resolves a name to one symbol the role accepts, or says why not.
    pub fn resolve(&self, q: &SymbolQuery, role: Role) -> Resolution {
        query::resolve(self.store(), q, role)
    }

    /// Who calls `id`, `depth` levels up (1 to 3).
    pub fn callers(&self, id: SymbolId, depth: u32) -> Walk {
        query::callers(self.store(), id, depth)
    }

    /// What `id` calls, `depth` levels down (1 to 3).
    pub fn callees(&self, id: SymbolId, depth: u32) -> Walk {
        query::callees(self.store(), id, depth)
    }

    /// Implementations of an interface, or subclasses of a class (indirect included).
    pub fn implementations(&self, id: SymbolId) -> Vec<Related> {
        query::implementations(self.store(), id)
    }

    /// The interfaces a type satisfies, or the classes a class extends.
    pub fn implemented_by(&self, id: SymbolId) -> Vec<Related> {
        query::implemented_by(self.store(), id)
    }

    /// The methods of a type.
    pub fn methods(&self, id: SymbolId) -> Vec<Related> {
        query::methods(self.store(), id)
    }

    /// The interface or base-class methods a method implements or overrides.
    pub fn dispatch_parents(&self, id: SymbolId) -> Vec<Related> {
        query::dispatch_parents(self.store(), id)
    }

    /// Functions whose parameters or results name the type.
    pub fn usages(&self, id: SymbolId) -> Vec<Related> {
        query::usages(self.store(), id)
    }

    /// The shortest call path from any of `from` to any of `to`.
    pub fn trace(&self, from: &[SymbolId], to: &[SymbolId]) -> Option<Vec<TraceStep>> {
        query::trace(self.store(), from, to)
    }
}

impl Tool for CodeTool {
    fn name(&self) -> crate::ToolName {
        crate::ToolName::Code
    }

    fn description(&self) -> &'static str {
        include_str!("../../../../prompts/tools/code.md")
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(CodeArgs)).unwrap_or_default()
    }

    fn call(&self, raw: &serde_json::Value) -> Result<ToolOutput, ToolError> {
        let a: CodeArgs = args::parse("code", raw, &tool::FIELDS, tool::EXAMPLE)?;
        self.check_file_filter(a.file.as_deref())?;
        if let Some(shared) = &self.options.shared {
            return answer_shared(shared, &a);
        }
        if let Some(out) = self.call_warm(&a) {
            return out;
        }
        let built = self.state.lock().map_or(true, |s| s.is_some());
        let cache = self.cache_path();
        if let Some(out) = self
            .first
            .try_answer(self.root.path(), cache.as_deref(), built, &a)
        {
            return out;
        }
        let graph = self.graph()?;
        tool::run(&*graph, &a)
    }
}

/// One call answered by the shared store. The trait has no error channel, so a lookup the
/// server failed shows up as a short answer; the store keeps the failure and we turn it
/// into an error the model (or person) can act on.
fn answer_shared(shared: &arango::ArangoStore, a: &CodeArgs) -> Result<ToolOutput, ToolError> {
    shared.take_error();
    let out = tool::run(shared, a);
    // Checked whatever the answer: a failed name lookup reads as "not found".
    match shared.take_error() {
        Some(e) => Err(ToolError::failed(format!(
            "the shared ArangoDB graph did not answer ({e}); retry, or query the local index \
             by running without --store arangodb"
        ))),
        None => out,
    }
}
