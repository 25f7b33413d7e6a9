//! The ranking corpus from the code graph: the symbols, docs and edges it already holds.
//!
//! The graph is built (or loaded from its cache) once per repository state by the `code`
//! tool, so deriving the lexical corpus from it costs no file reads: paths, symbol names
//! and first doc lines come from the graph, call, use and implementation edges feed the
//! PageRank. Only the shortlist of a question is ever read from disk.

use explore_tools::code::{CodeGraph, EdgeKind};

use super::rank::{Corpus, SymbolInfo};

/// The corpus of a code graph: its files, symbols (names, kinds, ranges, docs) and the
/// edges that say one symbol depends on another (calls, uses, implements).
pub fn from_graph(graph: &CodeGraph) -> Corpus {
    let files: Vec<String> = graph.files().iter().map(|f| f.path.clone()).collect();
    let symbols = graph
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
            )
        })
        .map(|e| (e.from as usize, e.to as usize))
        .collect();
    Corpus {
        files,
        symbols,
        edges,
    }
}
