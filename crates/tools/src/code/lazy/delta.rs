//! The delta file: what changed since the store file was written, for the files edited
//! since, so that a refresh after an edit writes a few KiB instead of the whole store.
//!
//! A refresh whose edited files still declare what they declared (`link::surface`) keeps
//! every symbol id, name and path: only the edited files' symbol and file records, their
//! calls and uses, and the lines of the contains and implements edges that touch them
//! change. The delta holds exactly those, and the watch list as it is now; a
//! [`StoreFile`](super::StoreFile) opened with it answers from the delta first, then from
//! the store. It names the store it patches by the store's `generation`, so a delta left
//! beside a newer store (a full refresh stopped before removing it) is ignored. The next
//! full refresh writes a new store and removes the delta: that is the merge.
//!
//! ```text
//! "explore code delta\n"  u32 store version  [16] index fingerprint  [32] blake3 of the body
//! body (postcard Delta)
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::fresh::Watched;
use super::layout::STORE_VERSION;
use super::resolve::{FileState, Summary};
use crate::code::model::{Edge, EdgeKind, FileId, FileInfo, Symbol, SymbolId};

const MAGIC: &[u8] = b"explore code delta\n";

/// The delta file of the store file `store`.
pub fn delta_path(store: &Path) -> PathBuf {
    store.with_extension("delta")
}

/// What changed since the store was written.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Delta {
    /// The `generation` of the store it patches.
    pub base: [u8; 16],
    /// Every watched path, with its shape now (replaces the store's list).
    pub watched: Vec<Watched>,
    /// The files edited since the store was written, by id.
    pub files: Vec<DeltaFile>,
    /// The contains and implements edges that touch those files, with their lines now.
    pub declared: Vec<Edge>,
    /// The counts now.
    pub summary: Summary,
}

/// One edited file: its records now, and its calls and uses.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DeltaFile {
    /// Its id (the same as in the store).
    pub id: FileId,
    /// Its file record now.
    pub info: FileInfo,
    /// Its state now.
    pub state: FileState,
    /// The id of its first symbol (the same as in the store).
    pub first: SymbolId,
    /// Its symbols now, in id order.
    pub symbols: Vec<Symbol>,
    /// Its calls and uses edges now.
    pub body: Vec<Edge>,
    /// Rust: (type, trait, line) of its `impl Trait for Type` blocks, whose implements
    /// edges are cited at that line.
    pub impl_lines: Vec<(SymbolId, SymbolId, u32)>,
}

/// A delta with the indexes lookups need.
#[derive(Debug)]
pub struct Overlay {
    /// The delta.
    pub delta: Delta,
    /// (first, end, index into `delta.files`), by first id.
    ranges: Vec<(SymbolId, SymbolId, usize)>,
    by_file: HashMap<FileId, usize>,
    /// Edges added, by source and by target.
    out: HashMap<SymbolId, Vec<Edge>>,
    inc: HashMap<SymbolId, Vec<Edge>>,
}

impl Overlay {
    /// Indexes `delta`.
    pub fn new(delta: Delta) -> Self {
        let mut ranges: Vec<(SymbolId, SymbolId, usize)> = delta
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.first, f.first + f.symbols.len() as SymbolId, i))
            .collect();
        ranges.sort_unstable();
        let by_file = delta
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.id, i))
            .collect();
        let mut out: HashMap<SymbolId, Vec<Edge>> = HashMap::new();
        let mut inc: HashMap<SymbolId, Vec<Edge>> = HashMap::new();
        let added = delta
            .files
            .iter()
            .flat_map(|f| f.body.iter())
            .chain(delta.declared.iter());
        for e in added {
            out.entry(e.from).or_default().push(*e);
            inc.entry(e.to).or_default().push(*e);
        }
        Overlay {
            delta,
            ranges,
            by_file,
            out,
            inc,
        }
    }

    /// The edited file whose symbols include `id`.
    fn file_of(&self, id: SymbolId) -> Option<&DeltaFile> {
        let i = self.ranges.partition_point(|r| r.0 <= id);
        let (first, end, f) = *self.ranges.get(i.checked_sub(1)?)?;
        ((first..end).contains(&id)).then(|| &self.delta.files[f])
    }

    /// Whether `id` is a symbol of an edited file.
    pub fn changed(&self, id: SymbolId) -> bool {
        self.file_of(id).is_some()
    }

    /// Symbol `id` now, if its file was edited.
    pub fn symbol(&self, id: SymbolId) -> Option<&Symbol> {
        let f = self.file_of(id)?;
        f.symbols.get((id - f.first) as usize)
    }

    /// File `id` now, if it was edited.
    pub fn file(&self, id: FileId) -> Option<&DeltaFile> {
        self.by_file.get(&id).map(|&i| &self.delta.files[i])
    }

    /// Whether the store's edge `e` is replaced by the delta: it leaves an edited file, or
    /// is a contains edge into one (its line is the method's).
    pub fn removed(&self, e: &Edge) -> bool {
        self.changed(e.from) || (e.kind == EdgeKind::Contains && self.changed(e.to))
    }

    /// The delta's edges leaving `id`.
    pub fn out(&self, id: SymbolId) -> &[Edge] {
        self.out.get(&id).map_or(&[], Vec::as_slice)
    }

    /// The delta's edges arriving at `id`.
    pub fn inc(&self, id: SymbolId) -> &[Edge] {
        self.inc.get(&id).map_or(&[], Vec::as_slice)
    }
}

/// Writes `delta` for the store at `store` (a temporary file renamed into place).
pub fn save(store: &Path, fingerprint: [u8; 16], delta: &Delta) -> std::io::Result<()> {
    let body = postcard::to_stdvec(delta).map_err(std::io::Error::other)?;
    crate::code::atomic::write_atomic(
        &delta_path(store),
        &[
            MAGIC,
            &STORE_VERSION.to_le_bytes(),
            &fingerprint,
            blake3::hash(&body).as_bytes(),
            &body,
        ],
    )
}

/// Reads the delta of the store at `store` if there is one for the store written as
/// `generation`. `Err` (with why) for a delta that cannot be used: damaged, of another
/// format, or for another writing of the store.
pub fn load(
    store: &Path,
    fingerprint: [u8; 16],
    generation: [u8; 16],
) -> Result<Option<Delta>, String> {
    let bytes = match std::fs::read(delta_path(store)) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    let rest = bytes.strip_prefix(MAGIC).ok_or("it is not a delta file")?;
    let (version, rest) = rest.split_at_checked(4).ok_or("it is truncated")?;
    if version != STORE_VERSION.to_le_bytes() {
        return Err("it has another format".into());
    }
    let (print, rest) = rest.split_at_checked(16).ok_or("it is truncated")?;
    if print != fingerprint {
        return Err("it was written by another build of the extractor".into());
    }
    let (hash, body) = rest.split_at_checked(32).ok_or("it is truncated")?;
    if blake3::hash(body).as_bytes() != hash {
        return Err("it is damaged (its checksum does not match)".into());
    }
    let delta: Delta = postcard::from_bytes(body).map_err(|e| format!("it is corrupt ({e})"))?;
    if delta.base != generation {
        return Err("it patches an older store".into());
    }
    Ok(Some(delta))
}
