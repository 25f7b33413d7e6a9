//! Views over the packed sections (string tables, path groups, edge lists), checked once
//! when a section is loaded so that lookups can only fail on a bug, never on bad bytes.

use super::layout::u32_at;
use crate::code::model::{Edge, EdgeKind, SymbolId};

/// Splits `bytes` at `n` u32s.
fn take_u32s(bytes: &[u8], n: usize) -> Option<(&[u8], &[u8])> {
    bytes.split_at_checked(n.checked_mul(4)?)
}

/// Offsets `0 = o[0] <= o[1] <= … <= o[n] = end` in a packed array.
fn monotonic(offs: &[u8], n: usize, end: usize) -> bool {
    let mut prev = 0u32;
    for i in 0..=n {
        let Some(o) = u32_at(offs, i) else {
            return false;
        };
        if (i == 0 && o != 0) || o < prev {
            return false;
        }
        prev = o;
    }
    prev as usize == end
}

/// A string table: strings by id, and ids sorted by (string, id).
pub struct Strings<'a> {
    n: usize,
    offs: &'a [u8],
    sorted: &'a [u8],
    blob: &'a [u8],
}

impl<'a> Strings<'a> {
    /// Slices a [`super::layout::Sec::Names`]-shaped section; `None` if it is malformed.
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        let n = u32_at(bytes, 0)? as usize;
        let (offs, rest) = take_u32s(bytes.get(4..)?, n.checked_add(1)?)?;
        let (sorted, blob) = take_u32s(rest, n)?;
        Some(Strings {
            n,
            offs,
            sorted,
            blob,
        })
    }

    /// Whether the offsets and the sorted ids are consistent (run once per load).
    pub fn valid(&self, count: usize) -> bool {
        self.n == count
            && monotonic(self.offs, self.n, self.blob.len())
            && (0..self.n).all(|j| u32_at(self.sorted, j).is_some_and(|id| (id as usize) < self.n))
    }

    /// How many strings.
    pub fn len(&self) -> usize {
        self.n
    }

    /// The string of id `i`, as bytes.
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let a = u32_at(self.offs, i)? as usize;
        let b = u32_at(self.offs, i + 1)? as usize;
        self.blob.get(a..b)
    }

    /// Every id whose string is `key`, ascending.
    pub fn equal(&self, key: &[u8]) -> Vec<SymbolId> {
        let at = |j: usize| u32_at(self.sorted, j).and_then(|id| self.get(id as usize));
        let lo = partition(self.n, |j| at(j).is_some_and(|s| s < key));
        let mut out = Vec::new();
        for j in lo..self.n {
            match (u32_at(self.sorted, j), at(j)) {
                (Some(id), Some(s)) if s == key => out.push(id),
                _ => break,
            }
        }
        out
    }

    /// Every id whose string starts with `prefix`, in string order.
    pub fn with_prefix(&self, prefix: &[u8]) -> Vec<SymbolId> {
        let at = |j: usize| u32_at(self.sorted, j).and_then(|id| self.get(id as usize));
        let lo = partition(self.n, |j| at(j).is_some_and(|s| s < prefix));
        let mut out = Vec::new();
        for j in lo..self.n {
            match (u32_at(self.sorted, j), at(j)) {
                (Some(id), Some(s)) if s.starts_with(prefix) => out.push(id),
                _ => break,
            }
        }
        out
    }

    /// Every id whose string contains `part`, ascending.
    pub fn containing(&self, part: &[u8]) -> Vec<SymbolId> {
        if part.is_empty() {
            return (0..self.n as u32).collect();
        }
        let finder = memchr::memmem::Finder::new(part);
        let mut out = Vec::new();
        let mut from = 0usize;
        while let Some(hit) = self.blob.get(from..).and_then(|b| finder.find(b)) {
            let p = from + hit;
            // The name holding byte p: the last id whose start is <= p.
            let id = partition(self.n, |i| {
                u32_at(self.offs, i + 1).is_some_and(|end| end as usize <= p)
            });
            let Some(end) = u32_at(self.offs, id + 1) else {
                break;
            };
            if p + part.len() <= end as usize {
                out.push(id as SymbolId);
            }
            // The next match can only start in the next name.
            from = (end as usize).max(p + 1);
        }
        out
    }
}

/// The first index in `0..n` for which `before` is false (`before` true then false).
fn partition(n: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0usize, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Symbols grouped by their file path.
pub struct Paths<'a> {
    k: usize,
    path_offs: &'a [u8],
    id_offs: &'a [u8],
    blob: &'a [u8],
    ids: &'a [u8],
}

impl<'a> Paths<'a> {
    /// Slices a [`super::layout::Sec::Paths`] section; `None` if it is malformed.
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        let k = u32_at(bytes, 0)? as usize;
        let (path_offs, rest) = take_u32s(bytes.get(4..)?, k.checked_add(1)?)?;
        let (id_offs, rest) = take_u32s(rest, k + 1)?;
        let blob_len = u32_at(path_offs, k)? as usize;
        let (blob, ids) = rest.split_at_checked(blob_len)?;
        Some(Paths {
            k,
            path_offs,
            id_offs,
            blob,
            ids,
        })
    }

    /// Whether the offsets are consistent and every id is a symbol (run once per load).
    pub fn valid(&self, symbols: usize) -> bool {
        monotonic(self.path_offs, self.k, self.blob.len())
            && self.ids.len().is_multiple_of(4)
            && monotonic(self.id_offs, self.k, self.ids.len() / 4)
            && (0..self.ids.len() / 4)
                .all(|i| u32_at(self.ids, i).is_some_and(|id| (id as usize) < symbols))
    }

    fn path(&self, i: usize) -> Option<&'a [u8]> {
        let a = u32_at(self.path_offs, i)? as usize;
        let b = u32_at(self.path_offs, i + 1)? as usize;
        self.blob.get(a..b)
    }

    /// The symbols defined at `path`, in id order.
    pub fn symbols_at(&self, path: &str) -> Vec<SymbolId> {
        let key = path.as_bytes();
        let i = partition(self.k, |i| self.path(i).is_some_and(|p| p < key));
        if self.path(i) != Some(key) {
            return Vec::new();
        }
        let (Some(a), Some(b)) = (u32_at(self.id_offs, i), u32_at(self.id_offs, i + 1)) else {
            return Vec::new();
        };
        (a as usize..b as usize)
            .filter_map(|j| u32_at(self.ids, j))
            .collect()
    }
}

/// Bytes per edge record: the other end (u32), line (u32), kind, inferred.
const EDGE_BYTES: usize = 10;

/// One direction of the edge lists.
pub struct Adjacency<'a> {
    n: usize,
    offs: &'a [u8],
    records: &'a [u8],
}

impl<'a> Adjacency<'a> {
    /// Slices a [`super::layout::Sec::Out`]/[`super::layout::Sec::In`] section.
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        let n = u32_at(bytes, 0)? as usize;
        let (offs, records) = take_u32s(bytes.get(4..)?, n.checked_add(1)?)?;
        Some(Adjacency { n, offs, records })
    }

    /// Whether the offsets, ends and kinds are consistent (run once per load).
    pub fn valid(&self, symbols: usize) -> bool {
        self.n == symbols
            && self.records.len().is_multiple_of(EDGE_BYTES)
            && monotonic(self.offs, self.n, self.records.len() / EDGE_BYTES)
            && self.records.chunks_exact(EDGE_BYTES).all(|r| {
                u32_at(r, 0).is_some_and(|o| (o as usize) < symbols)
                    && kind(r[8]).is_some()
                    && r[9] <= 1
            })
    }

    /// The edges of `id` (`outgoing`: `id` is their source), in stored order.
    pub fn edges(&self, id: SymbolId, outgoing: bool) -> impl Iterator<Item = Edge> + 'a {
        let i = id as usize;
        let range = match (u32_at(self.offs, i), u32_at(self.offs, i + 1)) {
            (Some(a), Some(b)) if i < self.n => a as usize * EDGE_BYTES..b as usize * EDGE_BYTES,
            _ => 0..0,
        };
        self.records
            .get(range)
            .unwrap_or_default()
            .chunks_exact(EDGE_BYTES)
            .filter_map(move |r| {
                let other = u32_at(r, 0)?;
                let line = u32_at(r, 1)?;
                let (from, to) = if outgoing { (id, other) } else { (other, id) };
                Some(Edge {
                    from,
                    to,
                    kind: kind(r[8])?,
                    line,
                    inferred: r[9] == 1,
                })
            })
    }
}

/// The edge kind stored as its discriminant.
fn kind(b: u8) -> Option<EdgeKind> {
    EdgeKind::ALL.into_iter().find(|k| *k as u8 == b)
}

/// A sorted map from byte-string keys to byte-string values: `u32 n`, `n + 1` u32 key
/// offsets, `n + 1` u32 value offsets, the keys (ascending), the values.
pub struct Map<'a> {
    n: usize,
    key_offs: &'a [u8],
    value_offs: &'a [u8],
    keys: &'a [u8],
    values: &'a [u8],
}

impl<'a> Map<'a> {
    /// Slices a map section; `None` if it is malformed.
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        let n = u32_at(bytes, 0)? as usize;
        let (key_offs, rest) = take_u32s(bytes.get(4..)?, n.checked_add(1)?)?;
        let (value_offs, rest) = take_u32s(rest, n + 1)?;
        let (keys, values) = rest.split_at_checked(u32_at(key_offs, n)? as usize)?;
        Some(Map {
            n,
            key_offs,
            value_offs,
            keys,
            values,
        })
    }

    /// Whether the offsets are consistent (run once per load).
    pub fn valid(&self) -> bool {
        monotonic(self.key_offs, self.n, self.keys.len())
            && monotonic(self.value_offs, self.n, self.values.len())
    }

    fn key(&self, i: usize) -> Option<&'a [u8]> {
        let a = u32_at(self.key_offs, i)? as usize;
        let b = u32_at(self.key_offs, i + 1)? as usize;
        self.keys.get(a..b)
    }

    /// The entries whose key is `from` or after it, in key order.
    pub fn iter_from(&self, from: &[u8]) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + '_ {
        let lo = partition(self.n, |i| self.key(i).is_some_and(|k| k < from));
        (lo..self.n).map_while(move |i| {
            let a = u32_at(self.value_offs, i)? as usize;
            let b = u32_at(self.value_offs, i + 1)? as usize;
            Some((self.key(i)?, self.values.get(a..b)?))
        })
    }

    /// The value of `key`, if it is in the map.
    pub fn get(&self, key: &[u8]) -> Option<&'a [u8]> {
        let i = partition(self.n, |i| self.key(i).is_some_and(|k| k < key));
        if self.key(i)? != key {
            return None;
        }
        let a = u32_at(self.value_offs, i)? as usize;
        let b = u32_at(self.value_offs, i + 1)? as usize;
        self.values.get(a..b)
    }
}
