//! The delta file: what changed since the store file was written, so that a refresh after
//! a change writes a few KiB instead of the whole store.
//!
//! A delta describes the graph as a cold index of the tree would number it. Files added
//! and deleted shift every later file and symbol id (ids follow path order), so the delta
//! carries an **id map** ([`IdMap`]): the store's files and symbols that remain, in runs
//! that keep their order, with the added files' ids in between. On top of it:
//!
//! - the records of the files whose content changed (edited in place, keeping their
//!   declarations and ids, or added), with their symbols;
//! - which of the store's edges no longer hold: every edge touching a deleted symbol, the
//!   calls and uses of the files it resolved again, the contains and implements edges of
//!   the symbols whose declarations it recomputed; and the edges that replace them;
//! - the watch list as it is now, and the counts.
//!
//! A [`StoreFile`](super::StoreFile) opened with it answers from the delta and the store
//! through the map. It names the store it patches by the store's `generation`, so a delta
//! left beside a newer store (a full refresh stopped before removing it) is ignored. The
//! next full refresh writes a new store and removes the delta: that is the merge.
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

/// What changed since the store was written. Ids are a cold index's (the new ids) unless
/// said otherwise; "store ids" are the store's.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Delta {
    /// The `generation` of the store it patches.
    pub base: [u8; 16],
    /// Every watched path, with its shape now (replaces the store's list).
    pub watched: Vec<Watched>,
    /// The files whose content changed since the store was written, by new id.
    pub files: Vec<DeltaFile>,
    /// The store's files deleted: (store id, first store symbol, symbol count), by id.
    pub deleted: Vec<(FileId, SymbolId, u32)>,
    /// Ranges of store symbols whose calls and uses the delta replaces (the files it
    /// resolved again), sorted.
    pub body_from: Vec<(SymbolId, SymbolId)>,
    /// Store symbols whose outgoing contains and implements edges it replaces, sorted.
    pub decl_out: Vec<SymbolId>,
    /// Store symbols whose incoming contains edges it replaces, sorted.
    pub contains_in: Vec<SymbolId>,
    /// Store symbols whose outgoing implements edges it replaces, sorted.
    pub impl_out: Vec<SymbolId>,
    /// Store symbols whose incoming implements edges it replaces, sorted.
    pub impl_in: Vec<SymbolId>,
    /// The edges that replace them, and those of the added files.
    pub edges: Vec<Edge>,
    /// The counts now.
    pub summary: Summary,
    /// What the next refresh in place starts from (postcard), not read by queries.
    pub state: Vec<u8>,
}

/// One file whose content changed: its records now.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DeltaFile {
    /// Its id.
    pub id: FileId,
    /// Its store id when it was edited in place (same declarations, same symbols); `None`
    /// when it was added (a file whose declarations changed is deleted and added).
    pub base: Option<FileId>,
    /// An added file: the store file it comes before, and that file's first symbol (the
    /// store's counts at the end).
    pub at: (FileId, SymbolId),
    /// Its file record now.
    pub info: FileInfo,
    /// Its state now.
    pub state: FileState,
    /// The id of its first symbol.
    pub first: SymbolId,
    /// Its symbols now, in id order.
    pub symbols: Vec<Symbol>,
    /// Rust: (type, trait, line) of its `impl Trait for Type` blocks, whose implements
    /// edges are cited at that line.
    pub impl_lines: Vec<(SymbolId, SymbolId, u32)>,
}

/// Where the store's ids are now: runs of kept ids (store start, new start, length),
/// with the gaps of deleted files and the added files' ids between them.
#[derive(Debug, Clone, Default)]
pub struct IdMap {
    syms: Vec<(u32, u32, u32)>,
    files: Vec<(u32, u32, u32)>,
}

/// Runs of kept positions of `0..len` once `deleted` ranges (start, length) are removed
/// and `inserted` (position, length) are placed before the given positions, in order.
fn runs(len: u32, deleted: &[(u32, u32)], inserted: &[(u32, u32)]) -> Vec<(u32, u32, u32)> {
    let mut cuts: Vec<u32> = vec![0, len];
    for &(s, n) in deleted {
        cuts.push(s);
        cuts.push(s + n);
    }
    cuts.extend(inserted.iter().map(|&(at, _)| at));
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::new();
    let mut new = 0u32;
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        new += inserted
            .iter()
            .filter(|&&(at, _)| at == a)
            .map(|&(_, n)| n)
            .sum::<u32>();
        if deleted.iter().any(|&(s, n)| s <= a && a < s + n) || a >= len {
            continue;
        }
        out.push((a, new, b - a));
        new += b - a;
    }
    out
}

fn forward(runs: &[(u32, u32, u32)], id: u32) -> Option<u32> {
    let i = runs.partition_point(|r| r.0 <= id).checked_sub(1)?;
    let (b, n, len) = runs[i];
    (id < b + len).then(|| n + (id - b))
}

fn backward(runs: &[(u32, u32, u32)], id: u32) -> Option<u32> {
    let i = runs.partition_point(|r| r.1 <= id).checked_sub(1)?;
    let (b, n, len) = runs[i];
    (id < n + len).then(|| b + (id - n))
}

impl IdMap {
    /// The map of a store of `files` files and `symbols` symbols once `deleted` files
    /// (store id, first symbol, count) go and `added` files (position before a store file,
    /// before a store symbol, symbol count; in new id order) come.
    pub fn new(
        files: u32,
        symbols: u32,
        deleted: &[(FileId, SymbolId, u32)],
        added: &[(FileId, SymbolId, u32)],
    ) -> Self {
        let del_files: Vec<(u32, u32)> = deleted.iter().map(|&(f, _, _)| (f, 1)).collect();
        let del_syms: Vec<(u32, u32)> = deleted
            .iter()
            .filter(|d| d.2 > 0)
            .map(|&(_, s, n)| (s, n))
            .collect();
        let ins_files: Vec<(u32, u32)> = added.iter().map(|&(f, _, _)| (f, 1)).collect();
        let ins_syms: Vec<(u32, u32)> = added.iter().map(|&(_, s, n)| (s, n)).collect();
        IdMap {
            syms: runs(symbols, &del_syms, &ins_syms),
            files: runs(files, &del_files, &ins_files),
        }
    }

    /// The new id of store symbol `id`; `None` when its file was deleted.
    pub fn sym(&self, id: SymbolId) -> Option<SymbolId> {
        forward(&self.syms, id)
    }

    /// The store id of symbol `id`; `None` for a symbol of an added file.
    pub fn base_sym(&self, id: SymbolId) -> Option<SymbolId> {
        backward(&self.syms, id)
    }

    /// The new id of store file `id`; `None` when it was deleted.
    pub fn file(&self, id: FileId) -> Option<FileId> {
        forward(&self.files, id)
    }

    /// The store id of file `id`; `None` for an added file.
    pub fn base_file(&self, id: FileId) -> Option<FileId> {
        backward(&self.files, id)
    }
}

/// A delta with the indexes lookups need.
#[derive(Debug)]
pub struct Overlay {
    /// The delta.
    pub delta: Delta,
    /// What identifies its content (the blake3 of its body).
    pub digest: [u8; 32],
    /// Its id map.
    pub map: IdMap,
    /// (first, end, index into `delta.files`), by first id.
    ranges: Vec<(SymbolId, SymbolId, usize)>,
    by_file: HashMap<FileId, usize>,
    /// Edges added, by source and by target.
    out: HashMap<SymbolId, Vec<Edge>>,
    inc: HashMap<SymbolId, Vec<Edge>>,
}

impl Overlay {
    /// Indexes `delta` for the store of `files` files and `symbols` symbols.
    pub fn new(delta: Delta, digest: [u8; 32], files: u32, symbols: u32) -> Self {
        let added: Vec<(FileId, SymbolId, u32)> = delta
            .files
            .iter()
            .filter(|f| f.base.is_none())
            .map(|f| (f.at.0, f.at.1, f.symbols.len() as u32))
            .collect();
        let map = IdMap::new(files, symbols, &delta.deleted, &added);
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
        for e in &delta.edges {
            out.entry(e.from).or_default().push(*e);
            inc.entry(e.to).or_default().push(*e);
        }
        Overlay {
            delta,
            digest,
            map,
            ranges,
            by_file,
            out,
            inc,
        }
    }

    /// The changed file whose symbols include `id`.
    fn file_of(&self, id: SymbolId) -> Option<&DeltaFile> {
        let i = self.ranges.partition_point(|r| r.0 <= id);
        let (first, end, f) = *self.ranges.get(i.checked_sub(1)?)?;
        ((first..end).contains(&id)).then(|| &self.delta.files[f])
    }

    /// Symbol `id` now, if its file changed.
    pub fn symbol(&self, id: SymbolId) -> Option<&Symbol> {
        let f = self.file_of(id)?;
        f.symbols.get((id - f.first) as usize)
    }

    /// File `id` now, if it changed.
    pub fn file(&self, id: FileId) -> Option<&DeltaFile> {
        self.by_file.get(&id).map(|&i| &self.delta.files[i])
    }

    /// The added files (no store id).
    pub fn added(&self) -> impl Iterator<Item = &DeltaFile> {
        self.delta.files.iter().filter(|f| f.base.is_none())
    }

    /// Whether the store's edge `e` (store ids) no longer holds.
    pub fn removed(&self, e: &Edge) -> bool {
        let has = |v: &[SymbolId], id: SymbolId| v.binary_search(&id).is_ok();
        if self.map.sym(e.from).is_none() || self.map.sym(e.to).is_none() {
            return true;
        }
        match e.kind {
            EdgeKind::Calls | EdgeKind::Uses => {
                let i = self.delta.body_from.partition_point(|r| r.0 <= e.from);
                i.checked_sub(1)
                    .is_some_and(|i| e.from < self.delta.body_from[i].1)
            }
            EdgeKind::Contains => {
                has(&self.delta.decl_out, e.from) || has(&self.delta.contains_in, e.to)
            }
            EdgeKind::Implements => {
                has(&self.delta.decl_out, e.from)
                    || has(&self.delta.impl_out, e.from)
                    || has(&self.delta.impl_in, e.to)
            }
        }
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

/// The body of `delta` as written, and its digest.
pub fn encode(delta: &Delta) -> std::io::Result<(Vec<u8>, [u8; 32])> {
    let body = postcard::to_stdvec(delta).map_err(std::io::Error::other)?;
    let digest = *blake3::hash(&body).as_bytes();
    Ok((body, digest))
}

/// Writes `delta` (its `body` and `digest` from [`encode`]) for the store at `store` (a
/// temporary file renamed into place).
pub fn save(
    store: &Path,
    fingerprint: [u8; 16],
    body: &[u8],
    digest: &[u8; 32],
) -> std::io::Result<()> {
    crate::code::atomic::write_atomic(
        &delta_path(store),
        &[
            MAGIC,
            &STORE_VERSION.to_le_bytes(),
            &fingerprint,
            digest,
            body,
        ],
    )
}

/// Reads the delta of the store at `store` if there is one for the store written as
/// `generation`, with its digest. `Err` (with why) for a delta that cannot be used:
/// damaged, of another format, or for another writing of the store.
pub fn load(
    store: &Path,
    fingerprint: [u8; 16],
    generation: [u8; 16],
) -> Result<Option<(Delta, [u8; 32])>, String> {
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
    let digest = *blake3::hash(body).as_bytes();
    if digest != hash {
        return Err("it is damaged (its checksum does not match)".into());
    }
    let delta: Delta = postcard::from_bytes(body).map_err(|e| format!("it is corrupt ({e})"))?;
    if delta.base != generation {
        return Err("it patches an older store".into());
    }
    Ok(Some((delta, digest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_map_keeps_order_around_added_and_deleted_files() {
        // Store: files 0..4 with symbols [0,2) [2,5) [5,5) [5,9). File 1 deleted, one file
        // of 4 symbols added before file 3, one of 1 symbol at the end.
        let m = IdMap::new(4, 9, &[(1, 2, 3)], &[(3, 5, 4), (4, 9, 1)]);
        assert_eq!(m.file(0), Some(0));
        assert_eq!(m.file(1), None);
        assert_eq!(m.file(2), Some(1));
        assert_eq!(m.file(3), Some(3));
        assert_eq!(m.base_file(2), None);
        assert_eq!(m.base_file(3), Some(3));
        assert_eq!(m.base_file(4), None);
        assert_eq!(m.sym(1), Some(1));
        assert_eq!(m.sym(2), None);
        assert_eq!(m.sym(4), None);
        assert_eq!(m.sym(5), Some(6));
        assert_eq!(m.sym(8), Some(9));
        assert_eq!(m.base_sym(2), None);
        assert_eq!(m.base_sym(5), None);
        assert_eq!(m.base_sym(6), Some(5));
        assert_eq!(m.base_sym(10), None);
    }
}
