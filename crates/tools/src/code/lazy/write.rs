//! Writing a store file from the embedded graph, in the layout of [`super::layout`].

use std::path::Path;

use rayon::prelude::*;

use super::fresh::Watched;
use super::layout::{Header, MAGIC, STORE_VERSION, Sec, SectionRef, hash8, hash16};
use crate::code::store::CodeGraph;

/// Appends `v` as little-endian u32.
fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn len_u32(n: usize) -> std::io::Result<u32> {
    u32::try_from(n).map_err(|_| std::io::Error::other("the code graph is too large to store"))
}

/// A string table: `u32 n`, `n + 1` u32 offsets, `n` u32 ids sorted by (string, id), blob.
fn string_table<'a>(strings: impl Iterator<Item = &'a str>) -> std::io::Result<Vec<u8>> {
    let list: Vec<&str> = strings.collect();
    let mut order: Vec<u32> = (0..len_u32(list.len())?).collect();
    // Ties broken by id, so the unstable parallel sort gives one order.
    order.par_sort_unstable_by(|&a, &b| list[a as usize].cmp(list[b as usize]).then(a.cmp(&b)));
    let blob_len: usize = list.iter().map(|s| s.len()).sum();
    let mut out = Vec::with_capacity(4 + list.len() * 8 + 4 + blob_len);
    put_u32(&mut out, len_u32(list.len())?);
    let mut at = 0usize;
    put_u32(&mut out, 0);
    for s in &list {
        at += s.len();
        put_u32(&mut out, len_u32(at)?);
    }
    for id in order {
        put_u32(&mut out, id);
    }
    for s in &list {
        out.extend_from_slice(s.as_bytes());
    }
    Ok(out)
}

/// A record table: u64 offsets and records of a checksum plus the postcard value.
pub(super) fn records<T: serde::Serialize>(items: &[T]) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    let mut offsets = Vec::with_capacity((items.len() + 1) * 8);
    let mut data = Vec::new();
    offsets.extend_from_slice(&0u64.to_le_bytes());
    let mut body = Vec::new();
    for item in items {
        body.clear();
        body = postcard::to_extend(item, body).map_err(std::io::Error::other)?;
        data.extend_from_slice(&hash8(&body));
        data.extend_from_slice(&body);
        offsets.extend_from_slice(&(data.len() as u64).to_le_bytes());
    }
    Ok((offsets, data))
}

/// Edge lists: `u32 n`, `n + 1` u32 offsets, 10-byte records (other end, line, kind,
/// inferred).
fn adjacency(graph: &CodeGraph, lists: &[Vec<u32>], outgoing: bool) -> std::io::Result<Vec<u8>> {
    let edges = graph.edges();
    let total: usize = lists.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(4 + (lists.len() + 1) * 4 + total * 10);
    put_u32(&mut out, len_u32(lists.len())?);
    let mut at = 0usize;
    put_u32(&mut out, 0);
    for l in lists {
        at += l.len();
        put_u32(&mut out, len_u32(at)?);
    }
    for l in lists {
        for &e in l {
            let Some(edge) = edges.get(e as usize) else {
                return Err(std::io::Error::other("an edge list names a missing edge"));
            };
            put_u32(&mut out, if outgoing { edge.to } else { edge.from });
            put_u32(&mut out, edge.line);
            out.push(edge.kind as u8);
            out.push(u8::from(edge.inferred));
        }
    }
    Ok(out)
}

/// Symbols grouped by path: `u32 k`, path offsets, id offsets, path blob, ids.
fn paths(graph: &CodeGraph) -> std::io::Result<Vec<u8>> {
    let mut by_path: std::collections::BTreeMap<&str, Vec<u32>> = Default::default();
    for (i, s) in graph.symbols().iter().enumerate() {
        by_path
            .entry(s.path.as_str())
            .or_default()
            .push(len_u32(i)?);
    }
    let mut out = Vec::new();
    put_u32(&mut out, len_u32(by_path.len())?);
    let (mut at, mut ids) = (0usize, 0usize);
    put_u32(&mut out, 0);
    for p in by_path.keys() {
        at += p.len();
        put_u32(&mut out, len_u32(at)?);
    }
    put_u32(&mut out, 0);
    for v in by_path.values() {
        ids += v.len();
        put_u32(&mut out, len_u32(ids)?);
    }
    for p in by_path.keys() {
        out.extend_from_slice(p.as_bytes());
    }
    for v in by_path.values() {
        for &id in v {
            put_u32(&mut out, id);
        }
    }
    Ok(out)
}

/// The store file for `graph`, built for `root`, with the index `fingerprint`: the prefix
/// and header, then each section, to be written one after the other; and the store's
/// generation.
pub fn encode(
    root: &Path,
    fingerprint: [u8; 16],
    graph: &CodeGraph,
    watched: &[Watched],
    link: Vec<(Sec, Vec<u8>)>,
) -> std::io::Result<(Vec<Vec<u8>>, [u8; 16])> {
    let mut link: std::collections::HashMap<Sec, Vec<u8>> = link.into_iter().collect();
    let symbols = graph.symbols();
    let (out_lists, in_lists) = graph.adjacency();
    let lower: Vec<String> = symbols
        .iter()
        .map(|s| s.name.to_ascii_lowercase())
        .collect();
    // The two record tables and the two sorted string tables are most of the work, and
    // independent: build them on both cores while the cold index waits.
    let ((syms, files), (names, qnames)) = rayon::join(
        || (records(symbols), records(graph.files())),
        || {
            rayon::join(
                || string_table(lower.iter().map(String::as_str)),
                || string_table(symbols.iter().map(|s| s.qname.as_str())),
            )
        },
    );
    let (mut sym_offsets, mut sym_data) = syms?;
    let (mut file_offsets, mut file_data) = files?;
    let (mut names, mut qnames) = (names?, qnames?);
    let mut sections: Vec<(Sec, Vec<u8>)> = Vec::with_capacity(Sec::ALL.len());
    for sec in Sec::ALL {
        let bytes = match sec {
            Sec::Watch => postcard::to_stdvec(watched).map_err(std::io::Error::other)?,
            Sec::Names => std::mem::take(&mut names),
            Sec::SymbolOffsets => std::mem::take(&mut sym_offsets),
            Sec::SymbolData => std::mem::take(&mut sym_data),
            Sec::FileOffsets => std::mem::take(&mut file_offsets),
            Sec::FileData => std::mem::take(&mut file_data),
            Sec::Qnames => std::mem::take(&mut qnames),
            Sec::Paths => paths(graph)?,
            Sec::Out => adjacency(graph, out_lists, true)?,
            Sec::In => adjacency(graph, in_lists, false)?,
            link_sec => link.remove(&link_sec).unwrap_or_default(),
        };
        sections.push((sec, bytes));
    }
    let mut refs = Vec::with_capacity(sections.len());
    let mut offset = 0u64;
    for (sec, bytes) in &sections {
        refs.push(SectionRef {
            offset,
            len: bytes.len() as u64,
            hash: if sec.hashed_whole() {
                hash16(bytes)
            } else {
                [0; 16]
            },
        });
        offset += bytes.len() as u64;
    }
    // Names this store's content (every section's hash, and the length of the record
    // data, which is checked per record): a delta made for a store is applied to no other.
    // A store written again from the same walk and graph is the same store.
    let generation = {
        let mut h = blake3::Hasher::new();
        for r in &refs {
            h.update(&r.hash);
            h.update(&r.len.to_le_bytes());
        }
        let mut g = [0u8; 16];
        g.copy_from_slice(&h.finalize().as_bytes()[..16]);
        g
    };
    let header = Header {
        root: root.to_string_lossy().into_owned(),
        symbols: len_u32(symbols.len())?,
        files: len_u32(graph.files().len())?,
        generation,
        sections: refs,
    };
    let header = postcard::to_stdvec(&header).map_err(std::io::Error::other)?;
    let mut head = Vec::with_capacity(super::layout::PREFIX_LEN + header.len());
    head.extend_from_slice(MAGIC);
    put_u32(&mut head, STORE_VERSION);
    head.extend_from_slice(&fingerprint);
    put_u32(&mut head, len_u32(header.len())?);
    head.extend_from_slice(&hash16(&header));
    head.extend_from_slice(&header);
    let mut parts = vec![head];
    parts.extend(sections.into_iter().map(|(_, bytes)| bytes));
    Ok((parts, generation))
}

/// A map section (see `tables::Map`) from `(key, value)` pairs in any order.
pub(super) fn map_table(mut pairs: Vec<(Vec<u8>, Vec<u8>)>) -> std::io::Result<Vec<u8>> {
    pairs.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let keys: usize = pairs.iter().map(|p| p.0.len()).sum();
    let values: usize = pairs.iter().map(|p| p.1.len()).sum();
    let mut out = Vec::with_capacity(12 + pairs.len() * 8 + keys + values);
    put_u32(&mut out, len_u32(pairs.len())?);
    let mut at = 0usize;
    put_u32(&mut out, 0);
    for (k, _) in &pairs {
        at += k.len();
        put_u32(&mut out, len_u32(at)?);
    }
    at = 0;
    put_u32(&mut out, 0);
    for (_, v) in &pairs {
        at += v.len();
        put_u32(&mut out, len_u32(at)?);
    }
    for (k, _) in &pairs {
        out.extend_from_slice(k);
    }
    for (_, v) in &pairs {
        out.extend_from_slice(v);
    }
    Ok(out)
}
