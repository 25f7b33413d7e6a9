//! The store file: the linked graph laid out so that a warm query reads only what it
//! needs, and answers through [`GraphStore`] exactly as the embedded [`CodeGraph`] does.
//!
//! A warm `explore tool code find X` used to walk the repository, read and deserialise
//! the whole cache, build hash maps over 93k symbols and free it all again, for one line
//! of output. With the store file next to the cache it:
//!
//! 1. reads the header and the watch section and stats the paths the last walk depended
//!    on (`fresh`); if any changed it falls back to the full refresh;
//! 2. answers from the sections the operation touches: a binary search in the sorted
//!    lower-case names (a scan of their blob for partial matches and globs), then one
//!    positioned read per symbol shown, and the edge lists only for relationship queries.
//!
//! Every byte used is checked (blake3 per section, or per record for the symbol and file
//! records), so a truncated or corrupt file is noticed: [`StoreFile::open`] fails, or a
//! lookup records a [`failure`](StoreFile::failure), and the caller rebuilds instead of
//! answering from bad data. See `docs/cache.md` for the layout.

mod delta;
mod fresh;
mod layout;
pub(super) mod resolve;
mod tables;
mod write;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub(super) use delta::{
    Delta, DeltaFile, IdMap, Overlay, delta_path, encode as encode_delta, save as save_delta,
};
pub use fresh::{Shape, Watched, walk_order, watch_dir};
pub(super) use layout::Sec;
use layout::{COUNT, Header, MAGIC, MAX_HEADER, PREFIX_LEN, STORE_VERSION, hash8, hash16};
pub(super) use resolve::{FileState, GoNamed, LinkParts, LinkTables, Summary};
use tables::{Adjacency, Map, Paths, Strings};

use super::model::{Edge, EdgeKind, FileId, FileInfo, Symbol, SymbolId};
use super::store::{CodeGraph, EdgePage, GraphStore, NameMatch};

/// Why a store file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file could not be read.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// The file does not start like a store file, or is shorter than its prefix.
    #[error("it is not a code store file")]
    NotAStore,
    /// Another layout version.
    #[error("it has store format {found}, this build reads {STORE_VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Written by a build whose extraction differs.
    #[error("it was written by another build of the extractor")]
    Fingerprint,
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

/// The store file that belongs with the cache file `cache`.
pub fn store_path(cache: &Path) -> PathBuf {
    cache.with_extension("store")
}

/// Where the link tables of a new store come from.
pub enum LinkSource<'a> {
    /// The link that made the graph.
    Parts(LinkParts<'a>),
    /// The store being replaced (the graph came from the cache as it was), with the
    /// counts of this refresh.
    Old(Summary),
}

/// Writes the store file for `graph` at `path` (a temporary file renamed into place) and
/// returns its generation.
pub fn save(
    path: &Path,
    root: &Path,
    fingerprint: [u8; 16],
    graph: &CodeGraph,
    watched: &[Watched],
    link: LinkSource<'_>,
) -> std::io::Result<[u8; 16]> {
    let link = match link {
        LinkSource::Parts(parts) => resolve::encode(&parts, graph.data())?,
        LinkSource::Old(summary) => StoreFile::open(path, root, fingerprint)
            .ok()
            .and_then(|old| old.link_sections(summary))
            .unwrap_or_default(),
    };
    let (parts, generation) = write::encode(root, fingerprint, graph, watched, link)?;
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    super::atomic::write_atomic(path, &parts)?;
    Ok(generation)
}

/// A store file opened for lookups. Sections are read on first use and kept.
#[derive(Debug)]
pub struct StoreFile {
    file: File,
    /// Absolute offset of the first section.
    body: u64,
    header: Header,
    sections: [OnceLock<Option<Box<[u8]>>>; COUNT],
    failure: OnceLock<String>,
    /// The blake3 of the prefix (see [`StoreFile::key`]).
    key: [u8; 16],
    /// The delta file's changes, when opened with [`StoreFile::open_live`].
    delta: Option<delta::Overlay>,
}

impl StoreFile {
    /// Opens the store at `path` and checks its prefix, header and section bounds: a store
    /// for `root` written with this `fingerprint`, whole.
    pub fn open(path: &Path, root: &Path, fingerprint: [u8; 16]) -> Result<Self, StoreError> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        if len < PREFIX_LEN as u64 {
            return Err(StoreError::NotAStore);
        }
        let mut prefix = [0u8; PREFIX_LEN];
        layout::read_at(&file, 0, &mut prefix)?;
        let rest = prefix.strip_prefix(MAGIC).ok_or(StoreError::NotAStore)?;
        let (version, rest) = rest.split_at(4);
        let found = layout::u32_at(version, 0).ok_or(StoreError::NotAStore)?;
        if found != STORE_VERSION {
            return Err(StoreError::Version { found });
        }
        let (print, rest) = rest.split_at(16);
        if print != fingerprint {
            return Err(StoreError::Fingerprint);
        }
        let (header_len, header_hash) = rest.split_at(4);
        let header_len = layout::u32_at(header_len, 0).ok_or(StoreError::Header)?;
        if header_len > MAX_HEADER || PREFIX_LEN as u64 + u64::from(header_len) > len {
            return Err(StoreError::Header);
        }
        let mut header = vec![0u8; header_len as usize];
        layout::read_at(&file, PREFIX_LEN as u64, &mut header)?;
        if hash16(&header) != header_hash {
            return Err(StoreError::Header);
        }
        let header: Header = postcard::from_bytes(&header).map_err(|_| StoreError::Header)?;
        if header.sections.len() != COUNT {
            return Err(StoreError::Header);
        }
        if header.root != root.to_string_lossy() {
            return Err(StoreError::OtherRoot(header.root));
        }
        let body = PREFIX_LEN as u64 + u64::from(header_len);
        for (sec, r) in Sec::ALL.iter().zip(&header.sections) {
            let end = r
                .offset
                .checked_add(r.len)
                .and_then(|e| e.checked_add(body));
            if end.is_none_or(|e| e > len) {
                return Err(StoreError::Truncated(sec.name()));
            }
        }
        Ok(StoreFile {
            file,
            body,
            header,
            sections: Default::default(),
            failure: OnceLock::new(),
            key: hash16(&prefix),
            delta: None,
        })
    }

    /// What identifies this store's content: the blake3 of its prefix, which holds the
    /// format version, the index fingerprint and the header's hash (so every section's
    /// hash, the watched stats among them). Another state of the tree or another build of
    /// the extractor gives another key; the local engine keys its lexical index by it.
    /// A delta's changes are part of the content: an edit patched in place gives another
    /// key too.
    pub fn key(&self) -> [u8; 16] {
        match &self.delta {
            Some(o) => {
                let mut bytes = self.key.to_vec();
                bytes.extend(o.digest);
                hash16(&bytes)
            }
            None => self.key,
        }
    }

    /// [`StoreFile::open`], with the changes of its delta file if it has one: the store as
    /// the last refresh left it. A delta that cannot be used is left out with a warning
    /// (the store's own watch list then shows the files it covered as changed).
    pub fn open_live(path: &Path, root: &Path, fingerprint: [u8; 16]) -> Result<Self, StoreError> {
        let mut store = Self::open(path, root, fingerprint)?;
        let (files, symbols) = (store.header.files, store.header.symbols);
        match delta::load(path, fingerprint, store.header.generation) {
            Ok(d) => {
                store.delta = d.map(|(d, digest)| delta::Overlay::new(d, digest, files, symbols))
            }
            Err(why) => tracing::warn!(
                "the code store delta {} cannot be used ({why}); refreshing",
                delta_path(path).display()
            ),
        }
        Ok(store)
    }

    /// This store with `delta` (of this `digest`) as its changes.
    pub(super) fn with_delta(mut self, delta: Delta, digest: [u8; 32]) -> Self {
        let (files, symbols) = (self.header.files, self.header.symbols);
        self.delta = Some(delta::Overlay::new(delta, digest, files, symbols));
        self
    }

    /// `delta` indexed for this store (to tell which of its edges the delta removes).
    pub(super) fn overlay(&self, delta: Delta) -> delta::Overlay {
        delta::Overlay::new(delta, [0; 32], self.header.files, self.header.symbols)
    }

    /// The changes of the delta file this store was opened with.
    pub(super) fn delta(&self) -> Option<&Delta> {
        self.delta.as_ref().map(|o| &o.delta)
    }

    /// How many symbols and files the store holds (not the delta).
    pub(super) fn counts(&self) -> (usize, usize) {
        (self.header.symbols as usize, self.header.files as usize)
    }

    /// Every store id of the symbols whose qualified name is `qname` (not the delta).
    pub(super) fn base_by_qname(&self, qname: &str) -> Vec<SymbolId> {
        self.section(Sec::Qnames)
            .and_then(Strings::parse)
            .map(|t| t.equal(qname.as_bytes()))
            .unwrap_or_default()
    }

    /// Every store id of the symbols whose qualified name starts with `prefix` (not the
    /// delta), ascending.
    pub(super) fn base_qname_prefix(&self, prefix: &str) -> Vec<SymbolId> {
        let mut v = self
            .section(Sec::Qnames)
            .and_then(Strings::parse)
            .map(|t| t.with_prefix(prefix.as_bytes()))
            .unwrap_or_default();
        v.sort_unstable();
        v
    }

    /// Every store id of the symbols whose lower-case name is `lower` (not the delta).
    pub(super) fn base_by_lower_name(&self, lower: &str) -> Vec<SymbolId> {
        self.section(Sec::Names)
            .and_then(Strings::parse)
            .map(|t| t.equal(lower.as_bytes()))
            .unwrap_or_default()
    }

    /// The store's file paths from `from` on, in order, with their ids, while `keep` says
    /// so (not the delta).
    pub(super) fn base_paths_from(
        &self,
        from: &str,
        mut keep: impl FnMut(&str) -> bool,
    ) -> Vec<(String, FileId)> {
        let Some(map) = self.section(Sec::FilePaths).and_then(Map::parse) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, v) in map.iter_from(from.as_bytes()) {
            let Ok(k) = std::str::from_utf8(k) else {
                break;
            };
            if !keep(k) {
                break;
            }
            if let Ok(v) = <[u8; 4]>::try_from(v) {
                out.push((k.to_string(), u32::from_le_bytes(v)));
            }
        }
        out
    }

    /// Every file's lookups (`link::lookup` keys, sorted), from [`Sec::LinkLookups`],
    /// when the store was linked from the files at `paths` (by id), the files `same`
    /// (id, content hash) as they are now; `None` when it was not, or does not have
    /// them all.
    pub(super) fn file_lookups(
        &self,
        paths: &[&str],
        same: &[(usize, [u8; 32])],
    ) -> Option<Vec<Vec<u64>>> {
        let tables = resolve::LinkTables::new(self)?;
        if !tables.has_lookups() || paths.len() != self.header.files as usize {
            return None;
        }
        for (i, path) in paths.iter().enumerate() {
            if self.file_id(path) != Some(i as FileId) {
                return None;
            }
        }
        if same
            .iter()
            .any(|(i, hash)| tables.file(*i).state.hash != *hash)
        {
            return None;
        }
        drop(tables);
        let map = Map::parse(self.section(Sec::LinkLookups)?)?;
        let mut out = vec![Vec::new(); self.header.files as usize];
        for (k, files) in map.iter_from(&[]) {
            let k = u64::from_be_bytes(k.try_into().ok()?);
            for f in files.chunks_exact(4) {
                let f = u32::from_le_bytes(f.try_into().ok()?) as usize;
                out.get_mut(f)?.push(k);
            }
        }
        // Keys come in order: each file's list is sorted already.
        Some(out)
    }

    /// Whether it holds the link's tables (a store of an older build may not).
    pub(super) fn has_link_tables(&self) -> bool {
        self.section(Sec::LinkMisc).is_some_and(|b| !b.is_empty())
    }

    /// Reads every byte of the link's tables, as a refresh in place would read them, and
    /// records the first damage as the failure. For tests: lookups never read them.
    #[doc(hidden)]
    pub fn verify_link_tables(&self) {
        for sec in Sec::ALL
            .into_iter()
            .filter(|s| s.is_link() && s.hashed_whole())
        {
            self.section(sec);
        }
        let _ = resolve::LinkTables::new(self);
        for i in 0..self.header.files {
            self.record(Sec::LinkFileOffsets, Sec::LinkFileData, i);
        }
        for i in 0..self.header.symbols {
            self.record(Sec::LinkSymOffsets, Sec::LinkSymData, i);
        }
    }

    /// The writing of the store this is (a delta names it).
    pub(crate) fn generation(&self) -> [u8; 16] {
        self.header.generation
    }

    /// The id of the file at `path`.
    pub(super) fn file_id(&self, path: &str) -> Option<FileId> {
        let map = Map::parse(self.section(Sec::FilePaths)?)?;
        let v = map.get(path.as_bytes())?;
        Some(u32::from_le_bytes(v.try_into().ok()?))
    }

    /// Symbol `id` as the store has it (not the delta).
    pub(super) fn base_symbol(&self, id: SymbolId) -> Option<Symbol> {
        if id >= self.header.symbols {
            return None;
        }
        let bytes = self.record(Sec::SymbolOffsets, Sec::SymbolData, id)?;
        self.decode(&bytes, Sec::SymbolData)
    }

    /// File `id` as the store has it (not the delta).
    pub(super) fn base_file(&self, id: FileId) -> Option<FileInfo> {
        if id >= self.header.files {
            return None;
        }
        let bytes = self.record(Sec::FileOffsets, Sec::FileData, id)?;
        self.decode(&bytes, Sec::FileData)
    }

    /// Every edge of `id` as the store has it (not the delta), in stored order.
    pub(super) fn base_edges(&self, sec: Sec, id: SymbolId) -> Vec<Edge> {
        self.section(sec)
            .and_then(Adjacency::parse)
            .map(|adj| adj.edges(id, sec == Sec::Out).collect())
            .unwrap_or_default()
    }

    /// The whole graph this store holds (not the delta): every file and symbol record and
    /// every edge, each checked as a lookup checks it. A full refresh that finds nothing
    /// changed, or only bodies, takes the old graph from here instead of a second copy in
    /// the cache file. The edges come in the order of the outgoing lists, which is the
    /// order [`CodeGraph::new`] sorts them into, so the graph built from them answers as
    /// the one that was stored. `None` (with the failure recorded) when any part is
    /// corrupt.
    pub(super) fn graph_data(&self) -> Option<crate::code::link::GraphData> {
        let files = self.all_records::<FileInfo>(Sec::FileOffsets, Sec::FileData)?;
        let symbols = self.all_records::<Symbol>(Sec::SymbolOffsets, Sec::SymbolData)?;
        let adj = self.section(Sec::Out).and_then(Adjacency::parse)?;
        let mut edges = Vec::new();
        for id in 0..self.header.symbols {
            edges.extend(adj.edges(id, true));
        }
        Some(crate::code::link::GraphData {
            files,
            symbols,
            edges,
        })
    }

    /// Every record of a record table, read with one read and each checked.
    fn all_records<T: serde::de::DeserializeOwned>(
        &self,
        offsets: Sec,
        data: Sec,
    ) -> Option<Vec<T>> {
        let offs = self.section(offsets)?;
        let bytes = match self.load_unchecked(data) {
            Ok(b) => b,
            Err(e) => {
                self.fail(&e);
                return None;
            }
        };
        let count = offs.len() / 8 - 1;
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            let (a, b) = (layout::u64_at(offs, i)?, layout::u64_at(offs, i + 1)?);
            let record = usize::try_from(a)
                .ok()
                .zip(usize::try_from(b).ok())
                .and_then(|(a, b)| bytes.get(a..b))
                .filter(|r| r.len() >= 8 && hash8(&r[8..]) == r[..8]);
            let Some(record) = record else {
                self.fail(&StoreError::Corrupt(data.name()));
                return None;
            };
            out.push(self.decode(&record[8..], data)?);
        }
        Some(out)
    }

    /// The link sections as they are, to be written into the store replacing this one,
    /// with `summary` as the counts; `None` if this store has none that can be read.
    fn link_sections(&self, summary: Summary) -> Option<Vec<(Sec, Vec<u8>)>> {
        let mut out = Vec::new();
        for sec in Sec::ALL.into_iter().filter(|s| s.is_link()) {
            let bytes = if sec == Sec::LinkMisc {
                resolve::with_summary(self.section(sec)?, summary.clone())?
            } else if sec.hashed_whole() {
                self.section(sec)?.to_vec()
            } else {
                self.load_unchecked(sec).ok()?
            };
            out.push((sec, bytes));
        }
        (!out.iter().any(|(s, b)| *s == Sec::LinkMisc && b.is_empty())).then_some(out)
    }

    /// A section's bytes read whole without a check (record data, checked per record).
    fn load_unchecked(&self, sec: Sec) -> Result<Vec<u8>, StoreError> {
        let r = self.header.sections[sec as usize];
        let len = usize::try_from(r.len).map_err(|_| StoreError::Truncated(sec.name()))?;
        let mut buf = vec![0u8; len];
        layout::read_at(&self.file, self.body + r.offset, &mut buf)?;
        Ok(buf)
    }

    /// Whether every path the last walk depended on is unchanged: stats only, no walk.
    pub fn is_fresh(&self, root: &Path) -> Result<bool, StoreError> {
        let watched = self.watched()?;
        Ok(fresh::unchanged(root, &watched))
    }

    /// Whether the store was written from exactly this walk (same paths and stats).
    pub fn walked_same(&self, walked: &[Watched]) -> bool {
        self.watched().is_ok_and(|w| fresh::same(&w, walked))
    }

    /// Every watched path with its recorded shape and its shape now: what a refresh needs
    /// to know which files changed without walking.
    pub fn restat(&self, root: &Path) -> Result<Vec<(Watched, Shape)>, StoreError> {
        let watched = self.watched()?;
        let now = fresh::restat(root, &watched);
        Ok(watched
            .iter()
            .zip(now)
            .map(|(w, now)| {
                (
                    Watched {
                        path: w.path.to_string(),
                        shape: w.shape,
                    },
                    now,
                )
            })
            .collect())
    }

    fn watched(&self) -> Result<Vec<fresh::WatchedRef<'_>>, StoreError> {
        if let Some(d) = &self.delta {
            return Ok(d
                .delta
                .watched
                .iter()
                .map(|w| fresh::WatchedRef {
                    path: &w.path,
                    shape: w.shape,
                })
                .collect());
        }
        let bytes = self
            .section(Sec::Watch)
            .ok_or(StoreError::Corrupt(Sec::Watch.name()))?;
        postcard::from_bytes(bytes).map_err(|_| StoreError::Corrupt(Sec::Watch.name()))
    }

    /// The first problem a lookup ran into, if any: its answer may be incomplete, and the
    /// store should be rebuilt.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    fn fail(&self, e: &StoreError) {
        let _ = self.failure.set(e.to_string());
    }

    /// The section's bytes, read and checked on first use; `None` (recorded as the
    /// failure) when it does not match its checksum or layout.
    fn section(&self, sec: Sec) -> Option<&[u8]> {
        self.sections[sec as usize]
            .get_or_init(|| match self.load(sec) {
                Ok(b) => Some(b),
                Err(e) => {
                    self.fail(&e);
                    None
                }
            })
            .as_deref()
    }

    fn load(&self, sec: Sec) -> Result<Box<[u8]>, StoreError> {
        let r = self.header.sections[sec as usize];
        let len = usize::try_from(r.len).map_err(|_| StoreError::Truncated(sec.name()))?;
        let mut buf = vec![0u8; len];
        layout::read_at(&self.file, self.body + r.offset, &mut buf)?;
        let corrupt = StoreError::Corrupt(sec.name());
        if sec.hashed_whole() && hash16(&buf) != r.hash {
            return Err(corrupt);
        }
        let (n, files) = (self.header.symbols as usize, self.header.files as usize);
        let ok = match sec {
            Sec::Names | Sec::Qnames => Strings::parse(&buf).is_some_and(|t| t.valid(n)),
            Sec::Paths => Paths::parse(&buf).is_some_and(|t| t.valid(n)),
            Sec::Out | Sec::In => Adjacency::parse(&buf).is_some_and(|t| t.valid(n)),
            Sec::SymbolOffsets | Sec::LinkSymOffsets => offsets_valid(&buf, n),
            Sec::FileOffsets | Sec::LinkFileOffsets => offsets_valid(&buf, files),
            Sec::LinkQnames
            | Sec::LinkNamed
            | Sec::LinkModules
            | Sec::FilePaths
            | Sec::LinkLookups
            | Sec::LinkGo => Map::parse(&buf).is_some_and(|m| m.valid()),
            Sec::Watch | Sec::SymbolData | Sec::FileData | Sec::LinkMisc => true,
            Sec::LinkFileData | Sec::LinkSymData => true,
        };
        if !ok {
            return Err(corrupt);
        }
        Ok(buf.into_boxed_slice())
    }

    /// Record `i` of a record table, its checksum verified.
    fn record(&self, offsets: Sec, data: Sec, i: u32) -> Option<Vec<u8>> {
        let offs = self.section(offsets)?;
        let a = layout::u64_at(offs, i as usize)?;
        let b = layout::u64_at(offs, i as usize + 1)?;
        let r = self.header.sections[data as usize];
        let corrupt = StoreError::Corrupt(data.name());
        if b > r.len || a.checked_add(8).is_none_or(|min| b < min) {
            self.fail(&corrupt);
            return None;
        }
        let mut buf = vec![0u8; (b - a) as usize];
        if let Err(e) = layout::read_at(&self.file, self.body + r.offset + a, &mut buf) {
            self.fail(&StoreError::Io(e));
            return None;
        }
        let body = buf.split_off(8);
        if hash8(&body) != buf[..] {
            self.fail(&corrupt);
            return None;
        }
        Some(body)
    }

    fn decode<T: serde::de::DeserializeOwned>(&self, bytes: &[u8], sec: Sec) -> Option<T> {
        match postcard::from_bytes(bytes) {
            Ok(v) => Some(v),
            Err(_) => {
                self.fail(&StoreError::Corrupt(sec.name()));
                None
            }
        }
    }

    fn page(&self, sec: Sec, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage {
        let mut page = EdgePage::default();
        let Some(adj) = self.section(sec).and_then(Adjacency::parse) else {
            return page;
        };
        for edge in adj.edges(id, sec == Sec::Out) {
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

/// `count + 1` u64 offsets starting at 0 and never decreasing.
fn offsets_valid(bytes: &[u8], count: usize) -> bool {
    bytes.len() == (count + 1) * 8
        && layout::u64_at(bytes, 0) == Some(0)
        && (0..count).all(|i| layout::u64_at(bytes, i) <= layout::u64_at(bytes, i + 1))
}

impl StoreFile {
    /// The edges of `kind` of `id` (a new id) with the delta's changes: the store's list
    /// without the edges the delta removes, in new ids, plus the delta's, in the order the
    /// embedded graph gives (outgoing by line and target; incoming by the source's rank
    /// class, path and line).
    fn page_live(
        &self,
        ov: &delta::Overlay,
        sec: Sec,
        id: SymbolId,
        kind: EdgeKind,
        limit: usize,
    ) -> EdgePage {
        let outgoing = sec == Sec::Out;
        let mut changed = false;
        let mut list: Vec<Edge> = match ov.map.base_sym(id) {
            Some(b) => self
                .base_edges(sec, b)
                .into_iter()
                .filter(|e| e.kind == kind)
                .filter_map(|e| {
                    if ov.removed(&e) {
                        changed = true;
                        return None;
                    }
                    Some(Edge {
                        from: ov.map.sym(e.from)?,
                        to: ov.map.sym(e.to)?,
                        ..e
                    })
                })
                .collect(),
            None => Vec::new(),
        };
        let added = if outgoing { ov.out(id) } else { ov.inc(id) };
        let before = list.len();
        list.extend(added.iter().filter(|e| e.kind == kind));
        if changed || list.len() != before {
            if outgoing {
                list.sort_by_key(|e| (e.line, e.to));
            } else {
                let mut keys: std::collections::HashMap<SymbolId, (u8, String)> =
                    std::collections::HashMap::new();
                for e in &list {
                    keys.entry(e.from).or_insert_with(|| {
                        self.symbol(e.from)
                            .map(|s| (s.rank_class(), s.path))
                            .unwrap_or_default()
                    });
                }
                list.sort_by(|a, b| {
                    let (ka, kb) = (&keys[&a.from], &keys[&b.from]);
                    (ka.0, &ka.1, a.line, a.from).cmp(&(kb.0, &kb.1, b.line, b.from))
                });
            }
        }
        EdgePage {
            total: list.len(),
            edges: list.into_iter().take(limit).collect(),
        }
    }

    /// Store ids mapped to new ids (deleted ones left out), with the added files' symbols
    /// that `add` selects, ascending.
    fn live_ids(
        &self,
        ov: &delta::Overlay,
        base: Vec<SymbolId>,
        add: impl Fn(&Symbol) -> bool,
    ) -> Vec<SymbolId> {
        let mut out: Vec<SymbolId> = base.into_iter().filter_map(|b| ov.map.sym(b)).collect();
        let before = out.len();
        for f in ov.added() {
            for (i, s) in f.symbols.iter().enumerate() {
                if add(s) {
                    out.push(f.first + i as SymbolId);
                }
            }
        }
        if out.len() != before {
            out.sort_unstable();
        }
        out
    }
}

impl GraphStore for StoreFile {
    fn symbol(&self, id: SymbolId) -> Option<Symbol> {
        let Some(ov) = &self.delta else {
            return self.base_symbol(id);
        };
        if let Some(s) = ov.symbol(id) {
            return Some(s.clone());
        }
        let mut s = self.base_symbol(ov.map.base_sym(id)?)?;
        s.file = ov.map.file(s.file)?;
        Some(s)
    }

    fn file(&self, id: FileId) -> Option<FileInfo> {
        let Some(ov) = &self.delta else {
            return self.base_file(id);
        };
        if let Some(f) = ov.file(id) {
            return Some(f.info.clone());
        }
        self.base_file(ov.map.base_file(id)?)
    }

    fn find_names(&self, pattern: &NameMatch) -> Vec<SymbolId> {
        let Some(names) = self.section(Sec::Names).and_then(Strings::parse) else {
            return Vec::new();
        };
        let base = match pattern {
            NameMatch::Exact(n) => names.equal(n.to_ascii_lowercase().as_bytes()),
            NameMatch::Contains(part) => names.containing(part.to_ascii_lowercase().as_bytes()),
            NameMatch::Glob(g) => {
                let Ok(glob) = globset::GlobBuilder::new(&g.to_ascii_lowercase())
                    .literal_separator(false)
                    .build()
                else {
                    return Vec::new();
                };
                let m = glob.compile_matcher();
                let mut out = Vec::new();
                for i in 0..names.len() {
                    match names.get(i).map(std::str::from_utf8) {
                        Some(Ok(n)) if m.is_match(n) => out.push(i as SymbolId),
                        Some(Ok(_)) => {}
                        _ => {
                            self.fail(&StoreError::Corrupt(Sec::Names.name()));
                            return Vec::new();
                        }
                    }
                }
                if let Some(ov) = &self.delta {
                    return self.live_ids(ov, out, |s| {
                        m.is_match(s.name.to_ascii_lowercase().as_str())
                    });
                }
                out
            }
        };
        match &self.delta {
            Some(ov) => self.live_ids(ov, base, |s| {
                let lower = s.name.to_ascii_lowercase();
                match pattern {
                    NameMatch::Exact(n) => lower == n.to_ascii_lowercase(),
                    NameMatch::Contains(part) => lower.contains(&part.to_ascii_lowercase()),
                    NameMatch::Glob(_) => false,
                }
            }),
            None => base,
        }
    }

    fn by_qname(&self, qname: &str) -> Vec<SymbolId> {
        let base = self.base_by_qname(qname);
        match &self.delta {
            Some(ov) => self.live_ids(ov, base, |s| s.qname == qname),
            None => base,
        }
    }

    fn in_file(&self, path: &str) -> Vec<SymbolId> {
        let base = self
            .section(Sec::Paths)
            .and_then(Paths::parse)
            .map(|t| t.symbols_at(path))
            .unwrap_or_default();
        match &self.delta {
            Some(ov) => self.live_ids(ov, base, |s| s.path == path),
            None => base,
        }
    }

    fn edges_out(&self, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage {
        match &self.delta {
            Some(ov) => self.page_live(ov, Sec::Out, id, kind, limit),
            None => self.page(Sec::Out, id, kind, limit),
        }
    }

    fn edges_in(&self, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage {
        match &self.delta {
            Some(ov) => self.page_live(ov, Sec::In, id, kind, limit),
            None => self.page(Sec::In, id, kind, limit),
        }
    }
}
