//! The ranking corpus from the code graph: the symbols, docs and edges it already holds.
//!
//! The graph is built (or loaded from its cache) once per repository state by the `code`
//! tool, so deriving the lexical corpus from it costs no file reads: paths, symbol names
//! and first doc lines come from the graph, call, use and implementation edges feed the
//! PageRank. Only the shortlist of a question is ever read from disk.

use explore_tools::code::{CodeGraph, EdgeKind, GraphStore};

use super::rank::{Corpus, SymbolInfo};

/// The corpus of a code graph: its files, symbols (names, kinds, ranges, docs) and the
/// edges that say one symbol depends on another (calls, uses, implements).
pub fn from_graph(graph: &CodeGraph) -> Corpus {
    let files: Vec<String> = graph.files().iter().map(|f| f.path.clone()).collect();
    let symbols: Vec<SymbolInfo> = graph
        .symbols()
        .iter()
        .map(|s| SymbolInfo {
            name: s.name.clone(),
            display: s.display.clone(),
            kind: s.kind.as_str().to_string(),
            file: s.file as usize,
            line: s.line,
            end_line: s.end_line.max(s.line),
            doc: s.doc.clone().unwrap_or_default(),
        })
        .collect();
    let edges = graph
        .edges()
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EdgeKind::Calls | EdgeKind::Uses | EdgeKind::Implements
            ) && !is_read(e.kind, &symbols, e.from as usize, e.to as usize, e.line)
        })
        .map(|e| (e.from as usize, e.to as usize))
        .collect();
    Corpus {
        files,
        symbols,
        edges,
    }
}

/// A read of a variable or constant (a uses edge into one, one per line), or a type
/// named as a value in a body (a uses edge at another line than its user's own): not
/// ranked. The ranking was tuned on uses edges from signatures into types alone; reads
/// would weigh a package's error variables (`ErrIgnoredEvent`, read on 17 lines) over the
/// functions around them.
fn is_read(kind: EdgeKind, symbols: &[SymbolInfo], from: usize, to: usize, line: u32) -> bool {
    kind == EdgeKind::Uses
        && (symbols
            .get(to)
            .is_some_and(|s| matches!(s.kind.as_str(), "var" | "const"))
            || symbols.get(from).is_some_and(|s| s.line != line))
}

/// The relations that make one symbol depend on another, for the PageRank.
const RANKED_EDGES: [EdgeKind; 3] = [EdgeKind::Calls, EdgeKind::Uses, EdgeKind::Implements];

/// The same corpus as [`from_graph`], read record by record through the `code` tool's
/// lookups: from the warm store file this avoids loading, linking and freeing the whole
/// graph (most of a concept question's time on a big repository). `None` when the store
/// has no symbols or a record could not be read (the caller then loads the graph).
/// The edges come grouped by source symbol rather than in the graph's order; the ranking
/// only counts them, so the order does not matter.
pub fn from_store(store: &dyn GraphStore) -> Option<Corpus> {
    let mut files = Vec::new();
    while let Some(f) = store.file(u32::try_from(files.len()).ok()?) {
        files.push(f.path);
    }
    let mut symbols = Vec::new();
    while let Some(s) = store.symbol(u32::try_from(symbols.len()).ok()?) {
        symbols.push(SymbolInfo {
            name: s.name,
            display: s.display,
            kind: s.kind.as_str().to_string(),
            file: s.file as usize,
            line: s.line,
            end_line: s.end_line.max(s.line),
            doc: s.doc.unwrap_or_default(),
        });
    }
    if symbols.is_empty() {
        return None;
    }
    let mut edges = Vec::new();
    for id in 0..symbols.len() {
        let from = u32::try_from(id).ok()?;
        for kind in RANKED_EDGES {
            let page = store.edges_out(from, kind, usize::MAX);
            edges.extend(
                page.edges
                    .iter()
                    .filter(|e| !is_read(e.kind, &symbols, e.from as usize, e.to as usize, e.line))
                    .map(|e| (e.from as usize, e.to as usize)),
            );
        }
    }
    Some(Corpus {
        files,
        symbols,
        edges,
    })
}
