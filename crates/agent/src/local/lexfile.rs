//! The persisted lexical index: the concept ranking's terms, postings and file graph,
//! written next to the code store so a warm concept question reads only what it needs.
//!
//! Building the ranking's index means reading every symbol record of the store (93k on the
//! 1.4M-line benchmark corpus), splitting and stemming their names and docs, inverting
//! them into postings and folding the call edges into a file graph: most of a concept
//! question's second. None of it depends on the question, so it is done once per state of
//! the code index and kept in `<name>.lex` beside `<name>.store`:
//!
//! ```text
//! MAGIC ("explore lexical index\n")
//! u32   LEX_VERSION (little-endian)
//! [16]  build digest: blake3 of the sources that decide the index's content
//! [16]  store key: the code store it was built from (`StoreFile::key`)
//! u32   header length, [16] blake3 of the header, then the postcard `Header`
//! sections, at offsets from the end of the header:
//!   parts     postcard `Parts`: paths, field lengths, symbols by file, the file graph,
//!             first-party callers per symbol (every question reads it whole)
//!   terms     u32 n, n+1 u32 offsets into the blob, n u32 df, n+1 u64 offsets into the
//!             postings, the blob (terms sorted by bytes)
//!   postings  per term: 8 bytes of blake3, then the postcard list of `Posting`
//!   symbol offsets  symbols+1 u64 offsets into the symbol records
//!   symbols   per symbol: 8 bytes of blake3, then the postcard `SymbolInfo`
//!   sources   postcard list of the files the graph does not parse, with their stats
//! ```
//!
//! A question reads the prefix, the header, `parts`, `terms` and `sources` (each checked
//! by its blake3), one postings record per term and synonym it asks (a binary search in
//! `terms`), and the symbol records of its shortlist; a pasted report also reads every
//! symbol record once, for the names it mentions. Records carry their own checksum.
//!
//! Freshness: the file is keyed by the code store's key, which changes whenever the
//! store is rewritten for a changed tree (its watched stats are in it), and by the build
//! digest, which changes with the splitting, stemming, ranking and text-search code. The
//! files the graph does not parse (ranked by their text-found definitions) are not
//! watched by the store, so their stats are recorded here and checked on open; the set of
//! them cannot change while the store is fresh (it watches every directory the walk
//! entered). Anything else wrong (truncated, flipped bytes, another version) is reported
//! in one line and the index is rebuilt from the store.

use foldhash::{HashMap, HashMapExt};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use explore_tools::code::CodeTool;

use super::framed::{Body, Frame, Opened, digest_of};
use super::rank::{Backing, Corpus, LexIndex, Memory, Parts, Posting, SymbolInfo};
use super::{content, contentfile, corpus, lexical};

/// The first bytes of a lexical index file.
const MAGIC: &[u8] = b"explore lexical index\n";
/// Bumped whenever the layout changes meaning.
pub const LEX_VERSION: u32 = 1;

/// The frame of a lexical index file: this build's, keyed by the code store it was built
/// from (`keys` = the store's key).
fn frame(keys: &[[u8; 16]]) -> Frame<'_> {
    Frame {
        magic: MAGIC,
        version: LEX_VERSION,
        digest: build_digest(),
        keys,
    }
}

/// The sources whose change changes what the index holds: a build with other splitting,
/// stemming, ranking or text-search code must not read this build's files even if
/// nobody bumped [`LEX_VERSION`].
const SOURCES: [&str; 9] = [
    include_str!("text.rs"),
    include_str!("rank.rs"),
    include_str!("corpus.rs"),
    include_str!("lexical.rs"),
    include_str!("lines.rs"),
    include_str!("classify.rs"),
    include_str!("lexfile.rs"),
    include_str!("framed.rs"),
    env!("CARGO_PKG_VERSION"),
];

/// The build digest: blake3 of [`SOURCES`].
fn build_digest() -> [u8; 16] {
    static DIGEST: OnceLock<[u8; 16]> = OnceLock::new();
    *DIGEST.get_or_init(|| digest_of(&SOURCES))
}

pub(super) fn first16(bytes: &[u8]) -> [u8; 16] {
    let mut out = [0u8; 16];
    out.copy_from_slice(&bytes[..16]);
    out
}

pub(super) fn hash16(bytes: &[u8]) -> [u8; 16] {
    first16(blake3::hash(bytes).as_bytes())
}

pub(super) fn hash8(bytes: &[u8]) -> [u8; 8] {
    let mut out = [0u8; 8];
    out.copy_from_slice(&blake3::hash(bytes).as_bytes()[..8]);
    out
}

/// Why a lexical index file (or its content part, `contentfile`) cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LexFileError {
    /// The file could not be read or written.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// The file does not start like a lexical index.
    #[error("it is not a lexical index file")]
    NotALexFile,
    /// Another layout version.
    #[error("it has format {found}, this build reads {reads}")]
    Version {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        reads: u32,
    },
    /// Written by a build whose ranking or text code differs.
    #[error("it was written by another build of the ranking")]
    Build,
    /// Built from another state of the code index (the repository changed since).
    #[error("it was built from another state of the code index")]
    Stale,
    /// A file the graph does not parse changed since the index was built.
    #[error("{0} changed since it was built")]
    SourceChanged(String),
    /// The header is cut short, does not match its checksum or does not decode.
    #[error("its header is corrupt")]
    Header,
    /// Built for another repository root.
    #[error("it belongs to another repository ({0})")]
    OtherRoot(String),
    /// A section ends past the end of the file.
    #[error("it is truncated (the {0} section ends past the end of the file)")]
    Truncated(&'static str),
    /// A section or record does not match its checksum or is malformed.
    #[error("its {0} section is corrupt")]
    Corrupt(&'static str),
}

impl LexFileError {
    /// Whether the file is merely out of date (rebuilt without a warning) or missing.
    pub fn is_expected(&self) -> bool {
        match self {
            LexFileError::Io(e) => e.kind() == std::io::ErrorKind::NotFound,
            LexFileError::Stale | LexFileError::SourceChanged(_) => true,
            _ => false,
        }
    }
}

/// The lexical index file that belongs with the code cache file `cache`.
pub fn path_for(cache: &Path) -> PathBuf {
    cache.with_extension("lex")
}

/// Adds the files of `sources` the graph does not parse to `corpus` (the Rust of a Rust
/// repository with Go fixtures: they rank by their text-found definitions), builds the
/// index, and writes it at `file` keyed by the code store's `key` when both are known (a
/// failed write is a warning: the index is still answered from memory).
pub fn build_and_save(
    corpus: Corpus,
    root: &Path,
    sources: &[String],
    file: Option<&Path>,
    key: Option<[u8; 16]>,
) -> LexIndex {
    let (corpus, stats) = extend(corpus, root, sources);
    let built = Built {
        idx: LexIndex::build(corpus),
        stats,
    };
    if let (Some(path), Some(key)) = (file, key) {
        built.save(path, root, key);
    }
    built.idx
}

/// A lexical index built in memory and the stats of the files it holds beyond the
/// graph's, which its file records to tell when they change.
pub(super) struct Built {
    pub(super) idx: LexIndex,
    stats: Vec<SourceStat>,
}

impl Built {
    /// Writes the index at `path`, keyed by the code store's `key` (a failed write is a
    /// warning: the index is still answered from memory).
    fn save(&self, path: &Path, root: &Path, key: [u8; 16]) {
        if let Err(e) = save(path, root, key, &self.idx, &self.stats) {
            tracing::warn!("cannot write the lexical index {} ({e})", path.display());
        }
    }
}

/// The files of `corpus` (from the graph) and those of `sources` the graph does not parse,
/// in the order the index numbers them, known before the index is built.
pub(super) fn extend(
    mut corpus: Corpus,
    root: &Path,
    sources: &[String],
) -> (Corpus, Vec<SourceStat>) {
    let graph_files = corpus.files.len();
    lexical::extend_corpus(&mut corpus, root, sources);
    let stats = corpus.files[graph_files..]
        .iter()
        .map(|rel| SourceStat::of(root, rel))
        .collect();
    (corpus, stats)
}

/// The lexical and content indexes built in memory by `explore index` from the graph it
/// has just linked, while the code store was written ([`content::Precount`] as the code
/// index's `TextSink`), and their files encoded: only the files' prefixes (which hold the
/// store's key) and their writes wait for the store.
pub(super) struct Prebuilt {
    /// The lexical file's header and sections.
    lex: std::io::Result<Body>,
    /// The content file's.
    content: std::io::Result<Body>,
}

impl Prebuilt {
    /// Writes both files at `path` (the lexical one) and beside it, keyed by the code
    /// store's `store_key`, each on its own core. The content file is keyed by the
    /// lexical file's id, which its header decides, so neither waits for the other; a
    /// content file written beside a lexical file that could not be written is removed.
    fn write(self, path: &Path, root: &Path, store_key: [u8; 16]) {
        let Prebuilt {
            lex: lex_body,
            content: content_body,
        } = self;
        let lex_body = match lex_body {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!("cannot write the lexical index {} ({e})", path.display());
                return;
            }
        };
        let stored = Stored {
            path: path.to_path_buf(),
            root: root.to_path_buf(),
            store_key,
            id: lex_body.id(),
        };
        let (lex_saved, content_saved) = rayon::join(
            || {
                let (parts, _) = frame(&[store_key]).parts(lex_body)?;
                write_replacing(path, &parts)
            },
            || content_body.and_then(|b| contentfile::save_body(&stored, b)),
        );
        if let Err(e) = content_saved {
            tracing::warn!(
                "cannot write the content index {} ({e})",
                contentfile::path_for(path).display()
            );
        }
        if let Err(e) = lex_saved {
            tracing::warn!("cannot write the lexical index {} ({e})", path.display());
            let _ = std::fs::remove_file(contentfile::path_for(path));
        }
    }
}

/// Builds [`Prebuilt`] from `graph`: the lexical index and, beside it on the other core,
/// the content index from the counts `pre` took (the files they hold are known before
/// either is built); then encodes both files but for their prefixes, so that after the
/// store only the writes are left.
pub(super) fn prebuild(
    graph: &explore_tools::code::CodeGraph,
    pre: &content::Precount,
) -> Option<Prebuilt> {
    if graph.symbols().is_empty() {
        return None;
    }
    let root = pre.root().to_path_buf();
    let sources = pre
        .sources()
        .unwrap_or_else(|| lexical::list_sources(&root));
    let (corpus, stats) = extend(corpus::from_graph(graph), &root, &sources);
    let files = corpus.files.clone();
    let (idx, content) = rayon::join(
        || LexIndex::build(corpus),
        || {
            content::ContentIndex::build_with(
                &files,
                &|rel: &str| content::read_small(&root, rel),
                pre.take_counted(),
            )
        },
    );
    let (lex, content) = rayon::join(
        || encode_body(&root, &idx, &stats),
        || contentfile::encode_body(&root, &content),
    );
    Some(Prebuilt { lex, content })
}

/// Writes the index for the code index `code` has just refreshed, and its content part
/// (`contentfile`), unless fresh ones are there already: `explore index` warms them with
/// the code index, so the first concept question and the first pasted report read them
/// instead of building them.
pub fn refresh(code: &CodeTool, root: &Path) {
    refresh_with(code, root, None);
}

/// [`refresh`] with the repository's source files walked and counted ahead by `pre`
/// (`explore index` starts it before the code index, see [`content::Precount`]): the
/// lexical index takes its file list, the content index its counts.
pub fn refresh_with(code: &CodeTool, root: &Path, pre: Option<content::Precount>) {
    let pre = pre.filter(|p| p.root() == root);
    let at = std::time::Instant::now();
    let (Some(path), Some(store)) = (code.cache_path().map(|c| path_for(&c)), code.fresh_store())
    else {
        return;
    };
    tracing::debug!(
        "lexical index: the code store checked fresh in {:.2?}",
        at.elapsed()
    );
    if let Some(built) = pre.as_ref().and_then(content::Precount::take_built) {
        let started = std::time::Instant::now();
        built.write(&path, root, store.key());
        tracing::debug!(
            "lexical and content indexes built beside the store, written in {:.2?}",
            started.elapsed()
        );
        return;
    }
    let idx = match open(&path, root, store.key()) {
        Ok(idx) => idx,
        Err(_) => {
            let Ok(graph) = code.graph() else {
                return;
            };
            if graph.symbols().is_empty() {
                return;
            }
            let corpus = corpus::from_graph(&graph);
            drop(graph);
            let sources = pre
                .as_ref()
                .and_then(content::Precount::sources)
                .unwrap_or_else(|| lexical::list_sources(root));
            build_and_save(corpus, root, &sources, Some(&path), Some(store.key()))
        }
    };
    contentfile::refresh(&idx, pre);
}

/// The sections, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sec {
    Parts = 0,
    Terms,
    Postings,
    SymbolOffsets,
    Symbols,
    Sources,
}

const COUNT: usize = 6;

impl Sec {
    const ALL: [Sec; COUNT] = [
        Sec::Parts,
        Sec::Terms,
        Sec::Postings,
        Sec::SymbolOffsets,
        Sec::Symbols,
        Sec::Sources,
    ];

    fn name(self) -> &'static str {
        match self {
            Sec::Parts => "parts",
            Sec::Terms => "terms",
            Sec::Postings => "postings",
            Sec::SymbolOffsets => "symbol offsets",
            Sec::Symbols => "symbols",
            Sec::Sources => "sources",
        }
    }

    /// Record data is checked per record, the rest whole.
    fn hashed_whole(self) -> bool {
        !matches!(self, Sec::Postings | Sec::Symbols)
    }
}

/// Where a section lies (from the end of the header), and its blake3 when it is checked
/// whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct SectionRef {
    pub offset: u64,
    pub len: u64,
    pub hash: [u8; 16],
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    root: String,
    files: u32,
    symbols: u32,
    sections: Vec<SectionRef>,
}

/// A file the code graph does not parse, ranked by its text-found definitions, as it was
/// when the index was built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceStat {
    /// Repo-relative path.
    pub path: String,
    /// Its size and modification time in nanoseconds, `None` when it could not be read.
    pub stat: Option<(u64, i128)>,
}

impl SourceStat {
    /// The stats of `rel` under `root` now.
    pub fn of(root: &Path, rel: &str) -> SourceStat {
        let stat = std::fs::symlink_metadata(root.join(rel)).ok().map(|m| {
            let mtime = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128);
            (m.len(), mtime)
        });
        SourceStat {
            path: rel.to_string(),
            stat,
        }
    }
}

pub(super) fn len_u32(n: usize) -> std::io::Result<u32> {
    u32::try_from(n).map_err(|_| std::io::Error::other("the lexical index is too large"))
}

pub(super) fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(super) fn u32_at(bytes: &[u8], i: usize) -> Option<u32> {
    let start = i.checked_mul(4)?;
    let b = bytes.get(start..start.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

pub(super) fn u64_at(bytes: &[u8], i: usize) -> Option<u64> {
    let start = i.checked_mul(8)?;
    let b = bytes.get(start..start.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Some(u64::from_le_bytes(a))
}

/// Record tables: u64 offsets, and records of a checksum then the postcard value.
pub(super) fn records<T: Serialize>(
    items: impl Iterator<Item = T>,
) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    let mut offsets = 0u64.to_le_bytes().to_vec();
    let mut data = Vec::new();
    let mut body = Vec::new();
    for item in items {
        body.clear();
        body = postcard::to_extend(&item, body).map_err(std::io::Error::other)?;
        data.extend_from_slice(&hash8(&body));
        data.extend_from_slice(&body);
        offsets.extend_from_slice(&(data.len() as u64).to_le_bytes());
    }
    Ok((offsets, data))
}

/// Which file an index was written to or read from, and the state it was keyed by: what
/// its content part (`contentfile`) is keyed by in turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stored {
    /// The lexical index file.
    pub path: PathBuf,
    /// The repository root it was built for.
    pub root: PathBuf,
    /// The code store's key.
    pub store_key: [u8; 16],
    /// The blake3 of its header (in its prefix), which covers the file list and the stats
    /// of the files the graph does not parse.
    pub id: [u8; 16],
}

/// Writes the index `idx` (built in memory) for `root` at `path`, keyed by the code
/// store's `store_key`, with the stats of the files the graph does not parse. Written to
/// a temporary file and renamed into place, so a reader sees the old file or the new.
/// The index then knows where it is stored ([`LexIndex::stored`]).
pub fn save(
    path: &Path,
    root: &Path,
    store_key: [u8; 16],
    idx: &LexIndex,
    sources: &[SourceStat],
) -> std::io::Result<()> {
    let (parts, id) = encode(root, store_key, idx, sources)?;
    write_replacing(path, &parts)?;
    idx.set_stored(Stored {
        path: path.to_path_buf(),
        root: root.to_path_buf(),
        store_key,
        id,
    });
    Ok(())
}

/// Writes `parts` to a temporary file beside `path` and renames it into place, so a
/// reader sees the old file or the new.
pub(super) fn write_replacing(path: &Path, parts: &[Vec<u8>]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("lex");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = File::create(&tmp)?;
        for p in parts {
            f.write_all(p)?;
        }
        f.sync_data()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The file's bytes (prefix and header, then each section) and the blake3 of its header.
fn encode(
    root: &Path,
    store_key: [u8; 16],
    idx: &LexIndex,
    sources: &[SourceStat],
) -> std::io::Result<(Vec<Vec<u8>>, [u8; 16])> {
    frame(&[store_key]).parts(encode_body(root, idx, sources)?)
}

/// The file's header and sections (all but the prefix, which holds the store's key).
pub(super) fn encode_body(
    root: &Path,
    idx: &LexIndex,
    sources: &[SourceStat],
) -> std::io::Result<Body> {
    let Some(memory) = idx.backing().memory() else {
        return Err(std::io::Error::other(
            "only an index built in memory is written",
        ));
    };
    let mut terms: Vec<(&String, &Vec<Posting>)> = memory.postings.iter().collect();
    terms.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let (post_offsets, post_data) = records(terms.iter().map(|t| t.1))?;
    let term_sec = term_table(
        &terms
            .iter()
            .map(|(t, p)| (t.as_str(), p.len()))
            .collect::<Vec<_>>(),
        &post_offsets,
    )?;
    let symbols = &memory.corpus.symbols;
    let (sym_offsets, sym_data) = records(symbols.iter())?;
    let parts = postcard::to_stdvec(idx.parts()).map_err(std::io::Error::other)?;
    let sources = postcard::to_stdvec(sources).map_err(std::io::Error::other)?;
    let sections: Vec<(Sec, Vec<u8>)> = vec![
        (Sec::Parts, parts),
        (Sec::Terms, term_sec),
        (Sec::Postings, post_data),
        (Sec::SymbolOffsets, sym_offsets),
        (Sec::Symbols, sym_data),
        (Sec::Sources, sources),
    ];
    let refs = Frame::layout(
        sections
            .iter()
            .map(|(sec, bytes)| (bytes.as_slice(), sec.hashed_whole())),
    );
    let header = Header {
        root: root.to_string_lossy().into_owned(),
        files: len_u32(idx.files().len())?,
        symbols: len_u32(symbols.len())?,
        sections: refs,
    };
    let header = postcard::to_stdvec(&header).map_err(std::io::Error::other)?;
    Ok(Body {
        header,
        sections: sections.into_iter().map(|(_, b)| b).collect(),
    })
}

/// The term table of sorted `terms` with their df, and the offsets of their postings
/// records: u32 n, n+1 u32 offsets into the blob, n u32 df, the n+1 u64 offsets, the blob
/// (read back by [`Terms`]).
pub(super) fn term_table(terms: &[(&str, usize)], post_offsets: &[u8]) -> std::io::Result<Vec<u8>> {
    let blob: usize = terms.iter().map(|t| t.0.len()).sum();
    let mut out = Vec::with_capacity(4 + terms.len() * 8 + post_offsets.len() + blob + 4);
    put_u32(&mut out, len_u32(terms.len())?);
    let mut at = 0usize;
    put_u32(&mut out, 0);
    for (t, _) in terms {
        at += t.len();
        put_u32(&mut out, len_u32(at)?);
    }
    for (_, df) in terms {
        put_u32(&mut out, len_u32(*df)?);
    }
    out.extend_from_slice(post_offsets);
    for (t, _) in terms {
        out.extend_from_slice(t.as_bytes());
    }
    Ok(out)
}

/// Fills `buf` from `file` at `offset` without a shared cursor.
#[cfg(unix)]
pub(super) fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

/// Fills `buf` from `file` at `offset` (Windows: `seek_read` until full).
#[cfg(windows)]
pub(super) fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    let mut done = 0;
    while done < buf.len() {
        let n = file.seek_read(&mut buf[done..], offset + done as u64)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        done += n;
    }
    Ok(())
}

/// Opens the index at `path` for `root`, built from the code store with `store_key` by
/// this build, and checks its prefix, header, whole sections and the stats of the files
/// the graph does not parse. The postings and symbol records are read on demand.
pub fn open(path: &Path, root: &Path, store_key: [u8; 16]) -> Result<LexIndex, LexFileError> {
    let opened = frame(&[store_key]).open(path)?;
    let header: Header = postcard::from_bytes(&opened.header).map_err(|_| LexFileError::Header)?;
    if header.sections.len() != COUNT {
        return Err(LexFileError::Header);
    }
    if header.root != root.to_string_lossy() {
        return Err(LexFileError::OtherRoot(header.root));
    }
    opened.check_sections(&header.sections, |i| Sec::ALL[i].name())?;
    let id = hash16(&opened.header);
    let Opened { file, body, .. } = opened;
    let reader = Reader {
        file,
        body,
        header,
        terms: Box::default(),
        sym_offsets: OnceLock::new(),
        symbols: Mutex::new(HashMap::new()),
        corpus: OnceLock::new(),
        files: Vec::new(),
        failure: OnceLock::new(),
    };
    let sources: Vec<SourceStat> = reader.decode_section(Sec::Sources)?;
    for s in &sources {
        if SourceStat::of(root, &s.path).stat != s.stat {
            return Err(LexFileError::SourceChanged(s.path.clone()));
        }
    }
    let parts: Parts = reader.decode_section(Sec::Parts)?;
    let terms = reader.section(Sec::Terms)?;
    let corrupt = || LexFileError::Corrupt(Sec::Terms.name());
    let table = Terms::parse(&terms).ok_or_else(corrupt)?;
    let postings_len = reader.header.sections[Sec::Postings as usize].len;
    if !table.valid(postings_len) {
        return Err(corrupt());
    }
    let (files, symbols) = (reader.header.files as usize, reader.header.symbols as usize);
    let parts_ok = parts.files.len() == files
        && parts.lens.len() == files
        && parts.by_file.len() == files
        && parts.file_edges.len() == files
        && parts.in_degree.len() == symbols
        && parts
            .by_file
            .iter()
            .flatten()
            .all(|&s| (s as usize) < symbols)
        && parts
            .file_edges
            .iter()
            .flatten()
            .all(|&(f, _)| (f as usize) < files);
    if !parts_ok {
        return Err(LexFileError::Corrupt(Sec::Parts.name()));
    }
    let reader = Reader {
        terms,
        files: parts.files.clone(),
        ..reader
    };
    let idx = LexIndex::from_parts(parts, Box::new(reader));
    idx.set_stored(Stored {
        path: path.to_path_buf(),
        root: root.to_path_buf(),
        store_key,
        id,
    });
    Ok(idx)
}

/// The term table of [`Sec::Terms`] (and of the content file's), borrowed.
pub(super) struct Terms<'a> {
    pub n: usize,
    pub offsets: &'a [u8],
    pub df: &'a [u8],
    pub postings: &'a [u8],
    pub blob: &'a [u8],
}

impl<'a> Terms<'a> {
    pub(super) fn parse(bytes: &'a [u8]) -> Option<Self> {
        let n = u32_at(bytes, 0)? as usize;
        let offsets_end = 4 + (n + 1) * 4;
        let df_end = offsets_end + n * 4;
        let postings_end = df_end + (n + 1) * 8;
        if bytes.len() < postings_end {
            return None;
        }
        Some(Terms {
            n,
            offsets: &bytes[4..offsets_end],
            df: &bytes[offsets_end..df_end],
            postings: &bytes[df_end..postings_end],
            blob: &bytes[postings_end..],
        })
    }

    /// Offsets that stay within the blob and the postings, never decreasing.
    pub(super) fn valid(&self, postings_len: u64) -> bool {
        u32_at(self.offsets, 0) == Some(0)
            && u32_at(self.offsets, self.n).is_some_and(|e| e as usize == self.blob.len())
            && (0..self.n).all(|i| u32_at(self.offsets, i) <= u32_at(self.offsets, i + 1))
            && u64_at(self.postings, 0) == Some(0)
            && u64_at(self.postings, self.n) == Some(postings_len)
            && (0..self.n).all(|i| u64_at(self.postings, i) <= u64_at(self.postings, i + 1))
    }

    fn term(&self, i: usize) -> &'a [u8] {
        let a = u32_at(self.offsets, i).unwrap_or(0) as usize;
        let b = u32_at(self.offsets, i + 1).unwrap_or(0) as usize;
        self.blob.get(a..b).unwrap_or_default()
    }

    /// The index of `term`, by binary search.
    pub(super) fn find(&self, term: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.term(mid).cmp(term.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }
}

/// A persisted index opened for lookups: the term table in memory, postings and symbols
/// read per record.
#[derive(Debug)]
struct Reader {
    file: File,
    body: u64,
    header: Header,
    terms: Box<[u8]>,
    sym_offsets: OnceLock<Option<Box<[u8]>>>,
    /// Symbol records already read: the ranking and the answer read the shortlist's
    /// symbols several times.
    symbols: Mutex<HashMap<usize, SymbolInfo>>,
    corpus: OnceLock<Corpus>,
    files: Vec<String>,
    failure: OnceLock<String>,
}

impl Reader {
    fn fail(&self, e: &LexFileError) {
        if self.failure.set(e.to_string()).is_ok() {
            tracing::debug!("lexical index lookup failed: {e}");
        }
    }

    fn section(&self, sec: Sec) -> Result<Box<[u8]>, LexFileError> {
        let r = self.header.sections[sec as usize];
        let len = usize::try_from(r.len).map_err(|_| LexFileError::Truncated(sec.name()))?;
        let mut buf = vec![0u8; len];
        read_at(&self.file, self.body + r.offset, &mut buf)?;
        if sec.hashed_whole() && hash16(&buf) != r.hash {
            return Err(LexFileError::Corrupt(sec.name()));
        }
        Ok(buf.into_boxed_slice())
    }

    fn decode_section<T: serde::de::DeserializeOwned>(&self, sec: Sec) -> Result<T, LexFileError> {
        let bytes = self.section(sec)?;
        postcard::from_bytes(&bytes).map_err(|_| LexFileError::Corrupt(sec.name()))
    }

    /// Record bytes `a..b` of a record section, checksum verified and stripped.
    fn record(&self, sec: Sec, a: u64, b: u64) -> Option<Vec<u8>> {
        let r = self.header.sections[sec as usize];
        if b > r.len || a.checked_add(8).is_none_or(|min| b < min) {
            self.fail(&LexFileError::Corrupt(sec.name()));
            return None;
        }
        let mut buf = vec![0u8; (b - a) as usize];
        if let Err(e) = read_at(&self.file, self.body + r.offset + a, &mut buf) {
            self.fail(&LexFileError::Io(e));
            return None;
        }
        let body = buf.split_off(8);
        if hash8(&body) != buf[..] {
            self.fail(&LexFileError::Corrupt(sec.name()));
            return None;
        }
        Some(body)
    }

    fn decode<T: serde::de::DeserializeOwned>(&self, bytes: &[u8], sec: Sec) -> Option<T> {
        match postcard::from_bytes(bytes) {
            Ok(v) => Some(v),
            Err(_) => {
                self.fail(&LexFileError::Corrupt(sec.name()));
                None
            }
        }
    }

    fn sym_offsets(&self) -> Option<&[u8]> {
        self.sym_offsets
            .get_or_init(|| {
                let n = self.header.symbols as usize;
                let data_len = self.header.sections[Sec::Symbols as usize].len;
                match self.section(Sec::SymbolOffsets) {
                    Ok(b)
                        if b.len() == (n + 1) * 8
                            && u64_at(&b, 0) == Some(0)
                            && u64_at(&b, n) == Some(data_len)
                            && (0..n).all(|i| u64_at(&b, i) <= u64_at(&b, i + 1)) =>
                    {
                        Some(b)
                    }
                    Ok(_) => {
                        self.fail(&LexFileError::Corrupt(Sec::SymbolOffsets.name()));
                        None
                    }
                    Err(e) => {
                        self.fail(&e);
                        None
                    }
                }
            })
            .as_deref()
    }

    fn read_symbol(&self, si: usize) -> Option<SymbolInfo> {
        let offs = self.sym_offsets()?;
        let (a, b) = (u64_at(offs, si)?, u64_at(offs, si + 1)?);
        let bytes = self.record(Sec::Symbols, a, b)?;
        self.decode(&bytes, Sec::Symbols)
    }

    /// Every symbol, from one read of the symbol section.
    fn all_symbols(&self) -> Vec<SymbolInfo> {
        let n = self.header.symbols as usize;
        let Some(offs) = self.sym_offsets() else {
            return Vec::new();
        };
        let data = match self.section(Sec::Symbols) {
            Ok(d) => d,
            Err(e) => {
                self.fail(&e);
                return Vec::new();
            }
        };
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let (Some(a), Some(b)) = (u64_at(offs, i), u64_at(offs, i + 1)) else {
                break;
            };
            let rec = data.get(a as usize..b as usize).unwrap_or_default();
            let (sum, body) = rec.split_at(rec.len().min(8));
            if sum.len() < 8 || hash8(body) != sum {
                self.fail(&LexFileError::Corrupt(Sec::Symbols.name()));
                return Vec::new();
            }
            match self.decode(body, Sec::Symbols) {
                Some(s) => out.push(s),
                None => return Vec::new(),
            }
        }
        out
    }
}

impl Backing for Reader {
    fn df(&self, term: &str) -> usize {
        let Some(t) = Terms::parse(&self.terms) else {
            return 0;
        };
        t.find(term)
            .and_then(|i| u32_at(t.df, i))
            .map_or(0, |d| d as usize)
    }

    fn postings(&self, term: &str) -> Vec<Posting> {
        let Some(t) = Terms::parse(&self.terms) else {
            return Vec::new();
        };
        let Some(i) = t.find(term) else {
            return Vec::new();
        };
        let (Some(a), Some(b)) = (u64_at(t.postings, i), u64_at(t.postings, i + 1)) else {
            return Vec::new();
        };
        let Some(bytes) = self.record(Sec::Postings, a, b) else {
            return Vec::new();
        };
        let list: Vec<Posting> = self.decode(&bytes, Sec::Postings).unwrap_or_default();
        let df = u32_at(t.df, i).map_or(0, |d| d as usize);
        if list.len() != df || list.iter().any(|p| p.file >= self.header.files) {
            self.fail(&LexFileError::Corrupt(Sec::Postings.name()));
            return Vec::new();
        }
        list
    }

    fn symbol(&self, si: usize) -> Option<SymbolInfo> {
        if let Some(c) = self.corpus.get() {
            return c.symbols.get(si).cloned();
        }
        if si >= self.header.symbols as usize {
            return None;
        }
        let mut cache = match self.symbols.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(s) = cache.get(&si) {
            return Some(s.clone());
        }
        let s = self.read_symbol(si)?;
        cache.insert(si, s.clone());
        Some(s)
    }

    fn corpus(&self) -> &Corpus {
        self.corpus.get_or_init(|| Corpus {
            files: self.files.clone(),
            symbols: self.all_symbols(),
            edges: Vec::new(),
        })
    }

    fn failure(&self) -> Option<String> {
        self.failure.get().cloned()
    }
}

impl Backing for Memory {
    fn df(&self, term: &str) -> usize {
        self.postings.get(term).map_or(0, Vec::len)
    }
    fn postings(&self, term: &str) -> Vec<Posting> {
        self.postings.get(term).cloned().unwrap_or_default()
    }
    fn symbol(&self, si: usize) -> Option<SymbolInfo> {
        self.corpus.symbols.get(si).cloned()
    }
    fn corpus(&self) -> &Corpus {
        &self.corpus
    }
    fn memory(&self) -> Option<&Memory> {
        Some(self)
    }
}

#[cfg(test)]
pub(super) mod tests {
    /// Bytes before the header in a lexical index file.
    fn prefix_len() -> usize {
        super::frame(&[[0; 16]; 1]).prefix_len()
    }

    use std::path::PathBuf;

    use explore_tools::code::IndexOptions;
    use explore_tools::{Registry, RegistryOptions, RepoRoot};

    use super::*;
    use crate::event::NullSink;
    use crate::local::LocalPolicy;
    use crate::local::classify::Focus;
    use crate::local::rank::RankedFile;
    use crate::local::text;
    use crate::{ExploreResult, RunConfig, explore};

    fn fixture(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../evals/fixtures")
            .join(name)
    }

    /// Questions whose words the fixtures hold, and some they do not.
    const QUESTIONS: [&str; 12] = [
        "how are webhooks handled",
        "where is retry logic",
        "how are retries with backoff handled",
        "how does the planner build a plan",
        "where is the configuration loaded",
        "how are transactions posted to the ledger",
        "where are amounts converted between currencies",
        "how is the issue store queried",
        "what happens when a signature check fails",
        "where are tests for the repository",
        "how is the flux capacitor calibrated",
        "how are accounts reconciled and audited in storage",
    ];

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy_dir(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }

    /// A copy of a fixture and a cache folder, both temporary.
    pub(crate) struct Repo {
        _dir: tempfile::TempDir,
        pub root: PathBuf,
        pub cache: PathBuf,
    }

    pub(crate) fn repo(name: &str) -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(name);
        copy_dir(&fixture(name), &root);
        let root = root.canonicalize().unwrap();
        let cache = dir.path().join("cache");
        Repo {
            _dir: dir,
            root,
            cache,
        }
    }

    pub(crate) fn registry(r: &Repo) -> Registry {
        let options = RegistryOptions {
            index: IndexOptions {
                cache_dir: Some(r.cache.clone()),
                ..Default::default()
            },
            ..Default::default()
        };
        Registry::new(RepoRoot::new(&r.root).unwrap(), options)
    }

    /// The lexical index file of a registry's repository.
    pub(crate) fn lex_path(reg: &Registry) -> PathBuf {
        path_for(&reg.code().cache_path().unwrap())
    }

    pub(crate) fn store_key(reg: &Registry) -> [u8; 16] {
        reg.code().fresh_store().unwrap().key()
    }

    pub(crate) async fn ask(reg: &Registry, question: &str) -> ExploreResult {
        let mut policy = LocalPolicy::new(reg.clone());
        explore(reg, &mut policy, &RunConfig::new(question), &NullSink)
            .await
            .unwrap()
    }

    /// `(path, lines)` of every relevant file: what an answer says.
    pub(crate) fn cited(r: &ExploreResult) -> Vec<(String, Vec<u32>)> {
        r.relevant_files
            .iter()
            .map(|f| (f.path.clone(), f.locations.iter().map(|l| l.line).collect()))
            .collect()
    }

    /// The index of a fixture built in memory from its graph, as the engine builds it.
    pub(crate) fn built(r: &Repo) -> (Registry, LexIndex) {
        let reg = registry(r);
        let graph = reg.code().graph().unwrap();
        let corpus = corpus::from_graph(&graph);
        let sources = lexical::list_sources(&r.root);
        (reg, build_and_save(corpus, &r.root, &sources, None, None))
    }

    fn rank_all(idx: &LexIndex, root: &Path) -> Vec<Vec<RankedFile>> {
        QUESTIONS
            .iter()
            .map(|q| {
                let terms = text::query_terms(q);
                let mut content = |rel: &str| {
                    crate::local::concept::read_small(root, rel)
                        .map(|t| crate::local::rank::content_terms(&t))
                };
                idx.rank(&terms, &[], &mut content, Focus::of(&terms))
            })
            .collect()
    }

    /// Everything a question can read from an index, compared between two.
    fn assert_same(a: &LexIndex, b: &LexIndex, root: &Path) {
        assert_eq!(a.files(), b.files());
        assert_eq!(a.parts(), b.parts());
        assert_eq!(rank_all(a, root), rank_all(b, root));
        let Some(mem) = a.backing().memory() else {
            panic!("the first index is built in memory");
        };
        for (term, postings) in &mem.postings {
            assert_eq!(&b.backing().postings(term), postings, "{term}");
            assert_eq!(a.idf(term), b.idf(term));
            assert!(b.knows(term));
        }
        assert!(!b.knows("capacitor"));
        for si in 0..a.corpus().symbols.len() {
            assert_eq!(a.symbol(si), b.symbol(si));
        }
        assert_eq!(a.corpus().files, b.corpus().files);
        assert_eq!(a.corpus().symbols, b.corpus().symbols);
        assert_eq!(b.failure(), None);
    }

    #[test]
    fn indexes_built_beside_the_store_are_the_files_built_after_it() {
        for name in ["relay", "ledger"] {
            // `explore index`: the counting as the code index's sink, the lexical and
            // content indexes built from the graph while the store is written.
            let r = repo(name);
            let reg = registry(&r);
            let pre = content::Precount::start(&r.root);
            reg.code()
                .index_with(Some(&pre as &dyn explore_tools::code::TextSink))
                .unwrap();
            assert!(
                pre.built.lock().unwrap().is_some(),
                "{name}: built beside the store"
            );
            refresh_with(reg.code(), &r.root, Some(pre));
            let lex = lex_path(&reg);
            let content = contentfile::path_for(&lex);
            let beside: Vec<Vec<u8>> = [&lex, &content]
                .iter()
                .map(|p| std::fs::read(p).unwrap())
                .collect();
            // The first concept question after both are lost: built after the store,
            // from the tree.
            std::fs::remove_file(&lex).unwrap();
            std::fs::remove_file(&content).unwrap();
            let reg = registry(&r);
            refresh(reg.code(), &r.root);
            for (p, before) in [&lex, &content].iter().zip(beside) {
                let after = std::fs::read(p).unwrap();
                assert!(before.len() > 100, "{name}: written");
                assert!(before == after, "{name}: {} the same bytes", p.display());
            }
        }
    }

    #[test]
    fn the_persisted_index_ranks_as_the_one_built_in_memory() {
        for name in ["relay", "ledger"] {
            let r = repo(name);
            let (reg, idx) = built(&r);
            let path = lex_path(&reg);
            save(&path, &r.root, store_key(&reg), &idx, &[]).unwrap();
            let opened = open(&path, &r.root, store_key(&reg)).unwrap();
            assert_same(&idx, &opened, &r.root);
            // Some question found something: the comparison is not of empty lists.
            assert!(
                rank_all(&idx, &r.root).iter().any(|x| !x.is_empty()),
                "{name}"
            );
        }
    }

    #[test]
    fn a_foreign_stale_or_damaged_file_is_refused_or_reports_its_failure() {
        let r = repo("relay");
        let (reg, idx) = built(&r);
        let path = lex_path(&reg);
        let key = store_key(&reg);
        save(&path, &r.root, key, &idx, &[]).unwrap();
        let good = std::fs::read(&path).unwrap();
        // Another state of the code index, another root, another version or build.
        assert!(matches!(
            open(&path, &r.root, [7; 16]),
            Err(LexFileError::Stale)
        ));
        assert!(matches!(
            open(&path, Path::new("/elsewhere"), key),
            Err(LexFileError::OtherRoot(_))
        ));
        let mut other = good.clone();
        other[MAGIC.len()] ^= 1;
        std::fs::write(&path, &other).unwrap();
        assert!(matches!(
            open(&path, &r.root, key),
            Err(LexFileError::Version { .. })
        ));
        let mut other = good.clone();
        other[MAGIC.len() + 4] ^= 1;
        std::fs::write(&path, &other).unwrap();
        assert!(matches!(
            open(&path, &r.root, key),
            Err(LexFileError::Build)
        ));
        // Cut anywhere: refused.
        for cut in (0..good.len()).step_by(good.len() / 41 + 1) {
            std::fs::write(&path, &good[..cut]).unwrap();
            assert!(open(&path, &r.root, key).is_err(), "cut at {cut}");
        }
        // A flipped byte anywhere: refused, or noticed by the lookup that reads it, or in
        // a byte nothing reads back; never a wrong answer without a failure.
        for at in (prefix_len()..good.len()).step_by(good.len() / 61 + 1) {
            let mut bad = good.clone();
            bad[at] ^= 0x20;
            std::fs::write(&path, &bad).unwrap();
            let Ok(opened) = open(&path, &r.root, key) else {
                continue;
            };
            let same = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                assert_same(&idx, &opened, &r.root)
            }));
            assert!(
                same.is_ok() || opened.failure().is_some(),
                "byte {at} changed an answer unnoticed"
            );
        }
    }

    #[tokio::test]
    async fn a_concept_question_writes_the_index_and_a_damaged_one_is_rebuilt() {
        let r = repo("relay");
        let question = "how are webhooks handled";
        let reg = registry(&r);
        reg.code().index().unwrap();
        let path = lex_path(&reg);
        assert!(!path.exists());
        let first = ask(&registry(&r), question).await;
        assert!(!first.relevant_files.is_empty());
        let key = store_key(&reg);
        assert!(
            open(&path, &r.root, key).is_ok(),
            "written by the first question"
        );
        let good = std::fs::read(&path).unwrap();
        // Truncated, then of another version: each time the answer is the same and the
        // file is written again.
        let mut foreign = good.clone();
        foreign[MAGIC.len()] = 9;
        for bad in [good[..good.len() / 2].to_vec(), foreign, Vec::new()] {
            std::fs::write(&path, &bad).unwrap();
            let again = ask(&registry(&r), question).await;
            assert_eq!(cited(&again), cited(&first));
            assert!(open(&path, &r.root, key).is_ok());
        }
        // Damage that only a lookup finds (a symbol record): the answer is still the same,
        // from an index built again.
        let opened = open(&path, &r.root, key).unwrap();
        let header = &opened_header(&path);
        let sym = header.sections[Sec::Symbols as usize];
        let body = good.len() as u64 - header.sections.iter().map(|s| s.len).sum::<u64>();
        let mut bad = good.clone();
        for b in &mut bad[(body + sym.offset) as usize..(body + sym.offset + sym.len) as usize] {
            *b ^= 0x55;
        }
        drop(opened);
        std::fs::write(&path, &bad).unwrap();
        let again = ask(&registry(&r), question).await;
        assert_eq!(cited(&again), cited(&first));
        assert_eq!(std::fs::read(&path).unwrap(), good, "rewritten whole");
    }

    fn opened_header(path: &Path) -> Header {
        let bytes = std::fs::read(path).unwrap();
        let len = u32_at(&bytes[prefix_len() - 20..prefix_len() - 16], 0).unwrap() as usize;
        postcard::from_bytes(&bytes[prefix_len()..prefix_len() + len]).unwrap()
    }

    #[tokio::test]
    async fn an_edit_refreshes_the_index() {
        let r = repo("relay");
        let reg = registry(&r);
        reg.code().index().unwrap();
        refresh(reg.code(), &r.root);
        let path = lex_path(&reg);
        let before = store_key(&reg);
        assert!(
            open(&path, &r.root, before).is_ok(),
            "written by `explore index`"
        );
        let question = "where is the zebra quokka bookkeeping";
        let missing = ask(&registry(&r), question).await;
        assert!(missing.relevant_files.is_empty());
        // A new function in an existing file: the next question sees it.
        let file = r.root.join("internal/retry/retry.go");
        let mut text = std::fs::read_to_string(&file).unwrap();
        text.push_str("\n// ZebraQuokkaBookkeeping keeps the zebra quokka books.\nfunc ZebraQuokkaBookkeeping() {}\n");
        std::fs::write(&file, text).unwrap();
        let found = ask(&registry(&r), question).await;
        assert_eq!(
            found.relevant_files.first().map(|f| f.path.as_str()),
            Some("internal/retry/retry.go")
        );
        let reg = registry(&r);
        let after = store_key(&reg);
        assert_ne!(before, after);
        let opened = open(&path, &r.root, after).unwrap();
        let (_, fresh) = built(&r);
        assert_same(&fresh, &opened, &r.root);
    }
}
