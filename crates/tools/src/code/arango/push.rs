//! Incremental push: write a built graph to the database, replacing only what changed.
//!
//! Every file document carries a digest of everything pushed for it (its symbols and the
//! edges leaving them, which name their targets by content-derived keys). A push reads the
//! digests already stored, and rewrites only the files whose digest differs, plus removes
//! files that are gone. Because an edge names its target by key, a change that moves or
//! renames a symbol changes the digest of every file calling it, so those files are
//! rewritten too and no edge is left dangling; files whose documents are unchanged are not
//! touched.
//!
//! Order of writes, so that an interrupted push heals on the next one: the stale files'
//! file documents are removed first, their edges and symbols next; then symbols, edges and
//! finally the file documents (with their digests) are inserted. A file whose document is
//! missing is rewritten next time.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use super::aql;
use super::docs::{self, FILES, FileBatch, META, MetaDoc, SYMBOLS, edge_collection};
use super::{ArangoConfig, ArangoError, Backend, Server};
use crate::code::{EdgeKind, GraphData};

/// Documents (or paths) per write request.
pub const DEFAULT_BATCH: usize = 1000;

/// What a push did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PushStats {
    /// Files in the graph.
    pub files: usize,
    /// Files whose documents were already up to date.
    pub unchanged: usize,
    /// Files (re)written.
    pub changed: usize,
    /// Files removed (no longer in the graph).
    pub removed: usize,
    /// Symbol documents written.
    pub symbols: usize,
    /// Edge documents written.
    pub edges: usize,
    /// Write requests sent.
    pub batches: usize,
    /// The stored graph was written by an incompatible build and was replaced whole.
    pub rebuilt: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Connects (creating the database with `cfg.create_db`) and pushes `data` as the graph of
/// `cfg.repo`.
pub fn push(cfg: &ArangoConfig, data: &GraphData) -> Result<PushStats, ArangoError> {
    let server = Server::connect(cfg)?;
    push_with(&server, &cfg.repo, data, DEFAULT_BATCH)
}

/// Which files to rewrite (indexes into `snap`) and which stored paths to remove.
pub(crate) fn plan(
    snap: &[FileBatch],
    stored: &HashMap<String, String>,
) -> (Vec<usize>, Vec<String>) {
    let changed = snap
        .iter()
        .enumerate()
        .filter(|(_, b)| stored.get(&b.file.path) != Some(&b.file.digest))
        .map(|(i, _)| i)
        .collect();
    let local: HashSet<&str> = snap.iter().map(|b| b.file.path.as_str()).collect();
    let mut removed: Vec<String> = stored
        .keys()
        .filter(|p| !local.contains(p.as_str()))
        .cloned()
        .collect();
    removed.sort();
    (changed, removed)
}

/// Creates the collections and the indexes the queries use, unless they exist.
pub(crate) fn ensure_schema(b: &dyn Backend) -> Result<(), ArangoError> {
    b.ensure_collection(META, false)?;
    b.ensure_collection(FILES, false)?;
    b.ensure_collection(SYMBOLS, false)?;
    for k in EdgeKind::ALL {
        b.ensure_collection(edge_collection(k), true)?;
    }
    // Name searches (exact on lname; CONTAINS/REGEX_TEST scan the repo's range),
    // qualified names, files in source order, and digests.
    b.ensure_index(SYMBOLS, &["repo", "lname"])?;
    b.ensure_index(SYMBOLS, &["repo", "qname"])?;
    b.ensure_index(SYMBOLS, &["repo", "path", "pos"])?;
    b.ensure_index(FILES, &["repo", "path"])?;
    // Edges are found by _from/_to (ArangoDB's edge index) and removed by owning file.
    for k in EdgeKind::ALL {
        b.ensure_index(edge_collection(k), &["repo", "path"])?;
    }
    Ok(())
}

fn to_values<T: Serialize>(docs: &[&T]) -> Result<Vec<Value>, ArangoError> {
    docs.iter()
        .map(|d| serde_json::to_value(d).map_err(|e| ArangoError::Protocol(e.to_string())))
        .collect()
}

/// Pushes `data` as the graph of `repo` through any backend, `batch` documents or paths
/// per write request.
pub fn push_with(
    b: &dyn Backend,
    repo: &str,
    data: &GraphData,
    batch: usize,
) -> Result<PushStats, ArangoError> {
    let started = Instant::now();
    let batch = batch.max(1);
    let mut stats = PushStats::default();
    ensure_schema(b)?;

    let meta_rows = b.run(&aql::meta(&docs::meta_key(repo)))?.rows;
    if let Some(row) = meta_rows.into_iter().next() {
        let meta: MetaDoc =
            serde_json::from_value(row).map_err(|e| ArangoError::Protocol(e.to_string()))?;
        if !meta.compatible() {
            tracing::info!(
                "the stored graph of {repo} was written by explore {} in another format; replacing it",
                meta.writer
            );
            let mut colls = vec![FILES, SYMBOLS];
            colls.extend(EdgeKind::ALL.map(edge_collection));
            for c in colls {
                b.run(&aql::remove_repo(c, repo))?;
                stats.batches += 1;
            }
            stats.rebuilt = true;
        }
    }

    // Every stored file: the count must fit, or a removal could be missed.
    let want = data.files.len() + 1_000_000;
    let stored_rows = b.run(&aql::file_digests(repo, want))?;
    if stored_rows
        .full_count
        .is_some_and(|n| n > stored_rows.rows.len())
    {
        return Err(ArangoError::Protocol(format!(
            "the database lists more than {want} files for {repo}"
        )));
    }
    let mut stored = HashMap::new();
    for row in stored_rows.rows {
        if let (Some(p), Some(d)) = (row["path"].as_str(), row["digest"].as_str()) {
            stored.insert(p.to_string(), d.to_string());
        }
    }

    let snap = docs::snapshot(repo, data);
    let (changed, removed) = plan(&snap, &stored);
    stats.files = snap.len();
    stats.changed = changed.len();
    stats.removed = removed.len();
    stats.unchanged = snap.len() - changed.len();

    // Remove what is stale: files first (the commit markers), then edges and symbols.
    let mut stale: Vec<String> = changed
        .iter()
        .map(|&i| snap[i].file.path.clone())
        .filter(|p| stored.contains_key(p))
        .collect();
    stale.extend(removed.iter().cloned());
    let mut colls = vec![FILES];
    colls.extend(EdgeKind::ALL.map(edge_collection));
    colls.push(SYMBOLS);
    for chunk in stale.chunks(batch) {
        for c in &colls {
            b.run(&aql::remove_paths(c, repo, chunk))?;
            stats.batches += 1;
        }
    }

    // Write what changed: symbols, edges by kind, then the file documents.
    let symbols: Vec<&docs::SymbolDoc> = changed
        .iter()
        .flat_map(|&i| snap[i].symbols.iter())
        .collect();
    for chunk in symbols.chunks(batch) {
        b.run(&aql::insert(SYMBOLS, to_values(chunk)?))?;
        stats.batches += 1;
    }
    stats.symbols = symbols.len();
    for k in EdgeKind::ALL {
        let edges: Vec<&docs::EdgeDoc> = changed
            .iter()
            .flat_map(|&i| snap[i].edges.iter())
            .filter(|(ek, _)| *ek == k)
            .map(|(_, e)| e)
            .collect();
        for chunk in edges.chunks(batch) {
            b.run(&aql::insert(edge_collection(k), to_values(chunk)?))?;
            stats.batches += 1;
        }
        stats.edges += edges.len();
    }
    let files: Vec<&docs::FileDoc> = changed.iter().map(|&i| &snap[i].file).collect();
    for chunk in files.chunks(batch) {
        b.run(&aql::insert(FILES, to_values(chunk)?))?;
        stats.batches += 1;
    }
    let meta = MetaDoc::current(repo);
    b.run(&aql::insert(META, to_values(&[&meta])?))?;
    stats.batches += 1;
    stats.seconds = started.elapsed().as_secs_f64();
    tracing::debug!(?stats, "pushed the code graph to ArangoDB");
    Ok(stats)
}
