//! Document mapping: how files, symbols and edges of a [`GraphData`] become ArangoDB
//! documents, and back.
//!
//! Keys are derived from content, never from positions in one build, so that pushing the
//! same graph twice writes the same documents (re-indexing is idempotent) and so that an
//! edge from an unchanged file still points at a symbol whose file was re-pushed. Every
//! document carries `repo`, so one database can hold the graphs of many repositories.
//!
//! Two fields exist only for ordering: `pkey` (the path's bytes in hex, which sorts the
//! same under ArangoDB's ICU string collation as the path does byte-wise in Rust) and
//! `pos` (the symbol's position in its file). Sorting by `(pkey, pos)` reproduces the
//! embedded store's symbol order exactly, which is what makes the two stores' answers
//! identical, ties included.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::super::link::GraphData;
use super::super::model::{EdgeKind, FileId, FileInfo, Kind, Language, Symbol, SymbolId};

/// The document collection of files.
pub const FILES: &str = "files";
/// The document collection of symbols.
pub const SYMBOLS: &str = "symbols";
/// The collection of per-repository meta documents (format versions).
pub const META: &str = "explore_meta";

/// Layout version of the documents below; bumped whenever a field changes meaning.
pub const ARANGO_FORMAT: u32 = 1;

/// The edge collection holding edges of `kind`.
pub fn edge_collection(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Calls => "calls",
        EdgeKind::Implements => "implements",
        EdgeKind::Contains => "contains",
        EdgeKind::Uses => "uses",
    }
}

/// A document that does not map back to the graph's types.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocError {
    /// A field holds a value this build does not know.
    #[error("document {key}: unknown {field} {value:?}")]
    Unknown {
        /// The document's key.
        key: String,
        /// Which field.
        field: &'static str,
        /// What it held.
        value: String,
    },
    /// The JSON is not a document of the expected shape.
    #[error("malformed document: {0}")]
    Malformed(String),
}

fn hash_key(parts: &[&[u8]]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().to_hex()[..32].to_string()
}

/// The path's bytes in lower-case hex: a sort key that orders like the bytes.
pub fn path_key(path: &str) -> String {
    let mut out = String::with_capacity(path.len() * 2);
    for b in path.bytes() {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The key of the file document for `path` in `repo`.
pub fn file_key(repo: &str, path: &str) -> String {
    hash_key(&[b"file", repo.as_bytes(), path.as_bytes()])
}

/// The key of a symbol: repo, path, qualified name, line and kind, plus `dup`, the number
/// of earlier symbols in the file with all of those equal (zero but for odd code).
pub fn symbol_key(repo: &str, s: &Symbol, dup: u32) -> String {
    hash_key(&[
        b"symbol",
        repo.as_bytes(),
        s.path.as_bytes(),
        s.qname.as_bytes(),
        &s.line.to_le_bytes(),
        s.kind.as_str().as_bytes(),
        &dup.to_le_bytes(),
    ])
}

/// The key of the meta document of `repo`.
pub fn meta_key(repo: &str) -> String {
    hash_key(&[b"meta", repo.as_bytes()])
}

/// The key of an edge between two symbol keys.
pub fn edge_key(kind: EdgeKind, from: &str, to: &str, line: u32, dup: u32) -> String {
    hash_key(&[
        kind.as_str().as_bytes(),
        from.as_bytes(),
        to.as_bytes(),
        &line.to_le_bytes(),
        &dup.to_le_bytes(),
    ])
}

/// `symbols/<key>`: the `_id` of a symbol document.
pub fn symbol_id(key: &str) -> String {
    format!("{SYMBOLS}/{key}")
}

/// A symbol document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolDoc {
    /// Document key, see [`symbol_key`].
    #[serde(rename = "_key")]
    pub key: String,
    /// Repository id.
    pub repo: String,
    /// Bare name.
    pub name: String,
    /// Bare name in ASCII lower case: what name searches match (indexed).
    pub lname: String,
    /// Name qualified by its type.
    pub display: String,
    /// Fully qualified name (indexed).
    pub qname: String,
    /// `function`, `method`, …
    pub kind: String,
    /// Repo-relative path (indexed).
    pub path: String,
    /// [`path_key`] of `path`, for ordering.
    pub pkey: String,
    /// Position of the symbol in its file, for ordering.
    pub pos: u32,
    /// First line.
    pub line: u32,
    /// Last line.
    pub end_line: u32,
    /// First line of the definition.
    pub signature: String,
    /// First line of the doc comment.
    pub doc: Option<String>,
    /// In a test file.
    pub is_test: bool,
    /// Vendored.
    pub is_vendored: bool,
    /// Generated.
    pub is_generated: bool,
    /// [`Symbol::rank_class`], stored so that `edges_in` can sort by it server-side.
    pub rank: u8,
}

impl SymbolDoc {
    /// The document for `s`, the `pos`-th symbol of its file.
    pub fn new(repo: &str, s: &Symbol, pos: u32, dup: u32) -> Self {
        SymbolDoc {
            key: symbol_key(repo, s, dup),
            repo: repo.to_string(),
            name: s.name.clone(),
            lname: s.name.to_ascii_lowercase(),
            display: s.display.clone(),
            qname: s.qname.clone(),
            kind: s.kind.as_str().to_string(),
            path: s.path.clone(),
            pkey: path_key(&s.path),
            pos,
            line: s.line,
            end_line: s.end_line,
            signature: s.signature.clone(),
            doc: s.doc.clone(),
            is_test: s.is_test,
            is_vendored: s.is_vendored,
            is_generated: s.is_generated,
            rank: s.rank_class(),
        }
    }

    /// The symbol, with `file` as its file id in the reading store.
    pub fn to_symbol(&self, file: FileId) -> Result<Symbol, DocError> {
        let kind = Kind::parse(&self.kind).ok_or_else(|| DocError::Unknown {
            key: self.key.clone(),
            field: "kind",
            value: self.kind.clone(),
        })?;
        Ok(Symbol {
            name: self.name.clone(),
            display: self.display.clone(),
            qname: self.qname.clone(),
            kind,
            file,
            path: self.path.clone(),
            line: self.line,
            end_line: self.end_line,
            signature: self.signature.clone(),
            doc: self.doc.clone(),
            is_test: self.is_test,
            is_vendored: self.is_vendored,
            is_generated: self.is_generated,
        })
    }
}

/// A file document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDoc {
    /// Document key, see [`file_key`].
    #[serde(rename = "_key")]
    pub key: String,
    /// Repository id.
    pub repo: String,
    /// Repo-relative path (indexed).
    pub path: String,
    /// [`path_key`] of `path`.
    pub pkey: String,
    /// `go` or `python`.
    pub language: String,
    /// Number of lines.
    pub lines: u32,
    /// A test file.
    pub is_test: bool,
    /// Vendored.
    pub is_vendored: bool,
    /// Generated.
    pub is_generated: bool,
    /// Hash of everything pushed for this file (this document without the digest, its
    /// symbols, the edges leaving them): a push rewrites a file only when it changed.
    pub digest: String,
}

impl FileDoc {
    /// The file's info.
    pub fn to_info(&self) -> Result<FileInfo, DocError> {
        let language = match Language::parse(&self.language) {
            Some(l) => l,
            None => {
                let other = self.language.as_str();
                return Err(DocError::Unknown {
                    key: self.key.clone(),
                    field: "language",
                    value: other.to_string(),
                });
            }
        };
        Ok(FileInfo {
            path: self.path.clone(),
            language,
            lines: self.lines,
            is_test: self.is_test,
            is_vendored: self.is_vendored,
            is_generated: self.is_generated,
        })
    }
}

/// An edge document (in the collection of its kind, [`edge_collection`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeDoc {
    /// Document key, see [`edge_key`].
    #[serde(rename = "_key")]
    pub key: String,
    /// `symbols/<key>` of the source.
    #[serde(rename = "_from")]
    pub from: String,
    /// `symbols/<key>` of the target.
    #[serde(rename = "_to")]
    pub to: String,
    /// Repository id.
    pub repo: String,
    /// The source symbol's path: the file that owns the edge (re-pushed with it).
    pub path: String,
    /// Call site line for calls; the source's line otherwise.
    pub line: u32,
    /// Guessed from the method name alone.
    pub inferred: bool,
}

/// The meta document of one repository's graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetaDoc {
    /// Document key, see [`meta_key`].
    #[serde(rename = "_key")]
    pub key: String,
    /// Repository id.
    pub repo: String,
    /// [`ARANGO_FORMAT`] of the writer.
    pub format: u32,
    /// The code index's `FORMAT_VERSION` of the writer (what the facts mean).
    pub index_format: u32,
    /// The writer's crate version, for messages.
    pub writer: String,
}

impl MetaDoc {
    /// The meta document this build writes for `repo`.
    pub fn current(repo: &str) -> Self {
        MetaDoc {
            key: meta_key(repo),
            repo: repo.to_string(),
            format: ARANGO_FORMAT,
            index_format: crate::code::FORMAT_VERSION,
            writer: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// Whether this build reads what the document's writer wrote.
    pub fn compatible(&self) -> bool {
        self.format == ARANGO_FORMAT && self.index_format == crate::code::FORMAT_VERSION
    }
}

/// Everything pushed for one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileBatch {
    /// The file document (with its digest).
    pub file: FileDoc,
    /// Its symbols, in source order.
    pub symbols: Vec<SymbolDoc>,
    /// The edges leaving its symbols, by kind, sorted by key.
    pub edges: Vec<(EdgeKind, EdgeDoc)>,
}

/// The documents of a whole graph, one [`FileBatch`] per file, in the graph's file order.
pub fn snapshot(repo: &str, data: &GraphData) -> Vec<FileBatch> {
    let mut batches: Vec<FileBatch> = data
        .files
        .iter()
        .map(|f| FileBatch {
            file: FileDoc {
                key: file_key(repo, &f.path),
                repo: repo.to_string(),
                path: f.path.clone(),
                pkey: path_key(&f.path),
                language: f.language.as_str().to_string(),
                lines: f.lines,
                is_test: f.is_test,
                is_vendored: f.is_vendored,
                is_generated: f.is_generated,
                digest: String::new(),
            },
            symbols: Vec::new(),
            edges: Vec::new(),
        })
        .collect();
    let mut keys: Vec<String> = Vec::with_capacity(data.symbols.len());
    let mut pos: HashMap<FileId, u32> = HashMap::new();
    let mut dups: HashMap<(FileId, &str, u32, Kind), u32> = HashMap::new();
    for s in &data.symbols {
        let p = pos.entry(s.file).or_default();
        let d = dups.entry((s.file, &s.qname, s.line, s.kind)).or_default();
        let doc = SymbolDoc::new(repo, s, *p, *d);
        *p += 1;
        *d += 1;
        keys.push(doc.key.clone());
        if let Some(b) = batches.get_mut(s.file as usize) {
            b.symbols.push(doc);
        }
    }
    let mut edge_dups: HashMap<(EdgeKind, SymbolId, SymbolId, u32), u32> = HashMap::new();
    for e in &data.edges {
        let (Some(from), Some(to), Some(src)) = (
            keys.get(e.from as usize),
            keys.get(e.to as usize),
            data.symbols.get(e.from as usize),
        ) else {
            continue;
        };
        let d = edge_dups.entry((e.kind, e.from, e.to, e.line)).or_default();
        let doc = EdgeDoc {
            key: edge_key(e.kind, from, to, e.line, *d),
            from: symbol_id(from),
            to: symbol_id(to),
            repo: repo.to_string(),
            path: src.path.clone(),
            line: e.line,
            inferred: e.inferred,
        };
        *d += 1;
        if let Some(b) = batches.get_mut(src.file as usize) {
            b.edges.push((e.kind, doc));
        }
    }
    for b in &mut batches {
        b.edges
            .sort_by(|x, y| (x.0, &x.1.key).cmp(&(y.0, &y.1.key)));
        b.file.digest = digest(b);
    }
    batches
}

/// The digest of a batch: its documents, serialized, hashed (the digest field excluded).
fn digest(b: &FileBatch) -> String {
    let mut h = blake3::Hasher::new();
    let mut file = b.file.clone();
    file.digest.clear();
    let parts = (
        &file,
        &b.symbols,
        b.edges
            .iter()
            .map(|(k, e)| (k.as_str(), e))
            .collect::<Vec<_>>(),
    );
    // Serializing plain structs of strings and numbers cannot fail.
    h.update(serde_json::to_string(&parts).unwrap_or_default().as_bytes());
    h.finalize().to_hex()[..32].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::{Edge, FileInfo};

    fn sym(name: &str, qname: &str, kind: Kind, file: FileId, path: &str, line: u32) -> Symbol {
        Symbol {
            name: name.into(),
            display: qname.rsplit('/').next().unwrap_or(qname).into(),
            qname: qname.into(),
            kind,
            file,
            path: path.into(),
            line,
            end_line: line + 3,
            signature: format!("func {name}()"),
            doc: None,
            is_test: path.ends_with("_test.go"),
            is_vendored: false,
            is_generated: false,
        }
    }

    fn file(path: &str) -> FileInfo {
        FileInfo {
            path: path.into(),
            language: Language::Go,
            lines: 40,
            is_test: path.ends_with("_test.go"),
            is_vendored: false,
            is_generated: false,
        }
    }

    fn graph() -> GraphData {
        GraphData {
            files: vec![file("a/a.go"), file("b/b_test.go")],
            symbols: vec![
                sym("Plan", "m/a.Planner.Plan", Kind::Method, 0, "a/a.go", 10),
                sym("Planner", "m/a.Planner", Kind::Struct, 0, "a/a.go", 3),
                sym(
                    "TestPlan",
                    "m/b.TestPlan",
                    Kind::Function,
                    1,
                    "b/b_test.go",
                    5,
                ),
            ],
            edges: vec![
                Edge {
                    from: 2,
                    to: 0,
                    kind: EdgeKind::Calls,
                    line: 7,
                    inferred: false,
                },
                Edge {
                    from: 1,
                    to: 0,
                    kind: EdgeKind::Contains,
                    line: 10,
                    inferred: false,
                },
            ],
        }
    }

    #[test]
    fn path_keys_sort_like_bytes() {
        assert_eq!(path_key("a/B.go"), "612f422e676f");
        let mut paths = vec!["b.go", "a_b.go", "a/b.go", "A.go", "ab.go", "a.go"];
        let mut by_key = paths.clone();
        paths.sort();
        by_key.sort_by_key(|p| path_key(p));
        assert_eq!(paths, by_key);
    }

    #[test]
    fn keys_are_deterministic_and_distinct() {
        let g = graph();
        let s = &g.symbols[0];
        assert_eq!(symbol_key("relay", s, 0), symbol_key("relay", s, 0));
        assert_eq!(symbol_key("relay", s, 0).len(), 32);
        assert_ne!(symbol_key("relay", s, 0), symbol_key("ledger", s, 0));
        assert_ne!(symbol_key("relay", s, 0), symbol_key("relay", s, 1));
        let mut moved = s.clone();
        moved.line += 1;
        assert_ne!(symbol_key("relay", s, 0), symbol_key("relay", &moved, 0));
        assert_ne!(file_key("relay", "a/a.go"), file_key("ledger", "a/a.go"));
        assert!(
            symbol_key("relay", s, 0)
                .chars()
                .all(|c| c.is_ascii_hexdigit())
        );
    }

    #[test]
    fn symbol_round_trip() {
        let g = graph();
        let doc = SymbolDoc::new("relay", &g.symbols[2], 0, 0);
        assert_eq!(doc.lname, "testplan");
        assert_eq!(doc.kind, "function");
        assert_eq!(doc.rank, 1);
        assert_eq!(doc.pkey, path_key("b/b_test.go"));
        let json = serde_json::to_value(&doc).unwrap();
        assert_eq!(json["_key"], doc.key.as_str());
        assert_eq!(json["repo"], "relay");
        assert_eq!(json["line"], 5);
        // The server adds _id and _rev; reading ignores them.
        let mut from_server = json.clone();
        from_server["_id"] = format!("symbols/{}", doc.key).into();
        from_server["_rev"] = "_h1".into();
        let back: SymbolDoc = serde_json::from_value(from_server).unwrap();
        let mut expected = g.symbols[2].clone();
        expected.file = 9;
        assert_eq!(back.to_symbol(9).unwrap(), expected);
    }

    #[test]
    fn unknown_kind_is_an_error() {
        let g = graph();
        let mut doc = SymbolDoc::new("relay", &g.symbols[0], 0, 0);
        doc.kind = "macro".into();
        assert_eq!(
            doc.to_symbol(0).unwrap_err().to_string(),
            format!("document {}: unknown kind \"macro\"", doc.key)
        );
    }

    #[test]
    fn snapshot_groups_by_owning_file() {
        let g = graph();
        let snap = snapshot("relay", &g);
        assert_eq!(snap.len(), 2);
        assert_eq!(snap[0].file.path, "a/a.go");
        assert_eq!(
            snap[0]
                .symbols
                .iter()
                .map(|s| (s.name.as_str(), s.pos))
                .collect::<Vec<_>>(),
            vec![("Plan", 0), ("Planner", 1)]
        );
        assert_eq!(snap[1].symbols[0].pos, 0);
        // The contains edge belongs to Planner's file, the call to the test's file.
        assert_eq!(snap[0].edges.len(), 1);
        assert_eq!(snap[0].edges[0].0, EdgeKind::Contains);
        let call = &snap[1].edges[0];
        assert_eq!(call.0, EdgeKind::Calls);
        assert_eq!(call.1.from, format!("symbols/{}", snap[1].symbols[0].key));
        assert_eq!(call.1.to, format!("symbols/{}", snap[0].symbols[0].key));
        assert_eq!(call.1.path, "b/b_test.go");
        assert_eq!(call.1.line, 7);
        // Same graph, same documents: re-indexing is idempotent.
        assert_eq!(snapshot("relay", &g), snap);
    }

    #[test]
    fn digests_follow_content() {
        let g = graph();
        let before = snapshot("relay", &g);
        let mut g2 = g.clone();
        g2.symbols[2].signature = "func TestPlan(t *testing.T)".into();
        let after = snapshot("relay", &g2);
        assert_eq!(before[0].file.digest, after[0].file.digest);
        assert_ne!(before[1].file.digest, after[1].file.digest);
        // Moving the callee changes its key, so the caller's file (its edge) changes too.
        let mut g3 = g.clone();
        g3.symbols[0].line = 12;
        let moved = snapshot("relay", &g3);
        assert_ne!(before[0].file.digest, moved[0].file.digest);
        assert_ne!(before[1].file.digest, moved[1].file.digest);
    }

    #[test]
    fn meta_compatibility() {
        let m = MetaDoc::current("relay");
        assert!(m.compatible());
        assert_eq!(m.key, meta_key("relay"));
        let old = MetaDoc { format: 0, ..m };
        assert!(!old.compatible());
    }
}
