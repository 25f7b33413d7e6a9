//! The refresh after an edit that declared nothing new: re-parse the edited files, resolve
//! their references against the link's tables in the store, and write a delta beside the
//! store instead of the whole index.
//!
//! An agent edits a file and asks again within seconds. The full refresh (`index::refresh`)
//! reads every file's facts, rebuilds the link's tables, builds the graph and writes the
//! cache and the store again: its cost follows the repository. When the edited files still
//! declare what they declared (their `link::surface`: the usual edit inside function
//! bodies), every symbol id, name, path and table stays as it was, and only the edited
//! files' records, their calls and uses, and the lines of the contains and implements
//! edges that touch them change. This refresh computes just that:
//!
//! 1. stats the store's watch list (as the warm check does); only source files edited in
//!    place qualify (no directory, `go.mod` or ignore file changed, no file newly skipped);
//! 2. reads, hashes and parses the edited files, and compares their surfaces with the
//!    store's;
//! 3. resolves their calls and uses with `lazy::LinkTables` (the link's own resolution
//!    code, over tables read in part from the store);
//! 4. writes the delta file (`lazy::Delta`) under the writers' lock, and answers from the
//!    store with it.
//!
//! Anything else (a declaration changed, a file added, moved or deleted, too many files in
//! the delta, a damaged store) returns `None`, and the caller runs the full refresh, which
//! writes a new store and removes the delta. The cache file and the facts are left as the
//! last full refresh wrote them: the next full refresh finds the edited files changed by
//! their stats and parses them again, so the delta never needs merging into them.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use super::crash;
use super::extract::{self, RawSymbol};
use super::index::{self, IndexStats, MAX_FILE_BYTES};
use super::lazy::{self, Delta, DeltaFile, FileState, LinkTables, Shape, StoreFile, Watched};
use super::link::{self, Tables};
use super::model::{Edge, EdgeKind, FileId, FileInfo, Language, Symbol, SymbolId};
use super::relink::{self, Outcome};
use crate::secrets;

/// More edited files than this since the last full refresh: refresh fully (the merge),
/// so that the delta stays small and quick to read.
pub const MAX_DELTA_FILES: usize = 64;

/// Refreshes the store of the cache file `cache` in place after edits that changed no
/// declaration; `None` when the full refresh is needed. The store returned answers with
/// the changes.
pub(super) fn refresh_in_place(root: &Path, cache: &Path) -> Option<(StoreFile, IndexStats)> {
    let started = Instant::now();
    let _lock = index::writers_lock(cache);
    let path = lazy::store_path(cache);
    let print = index::fingerprint();
    // Opened under the lock: another writer's delta is read, not overwritten.
    let store = StoreFile::open_live(&path, root, print).ok()?;
    let entries = store.restat(root).ok()?;
    // With every file's lookups in the store, Go and Python files may be added, deleted
    // and redeclared too (`relink`).
    let (store, entries) = if LinkTables::new(&store)?.has_lookups() {
        match relink::refresh(root, cache, store, entries, started) {
            Outcome::Done(store, stats) => return Some((store, stats)),
            Outcome::Other(store, entries) => (store, entries),
            Outcome::Full => return None,
        }
    } else {
        (store, entries)
    };
    let mut edited: Vec<(String, Language)> = Vec::new();
    let watched: HashSet<&str> = entries.iter().map(|(w, _)| w.path.as_str()).collect();
    for (w, now) in &entries {
        if *now == w.shape {
            continue;
        }
        // Editors that save by renaming a temporary file (and `sed -i`) change the
        // directory's mtime: fine while it holds what the walk saw.
        if let (Shape::Dir { .. }, Shape::Dir { .. }) = (w.shape, *now) {
            if !same_entries(root, &w.path, &watched) {
                return None;
            }
            continue;
        }
        let language = Language::of_path(&w.path)?;
        let Shape::File { size, linked, .. } = *now else {
            return None;
        };
        let in_place = matches!(w.shape, Shape::File { .. });
        let go_mod = w.path == "go.mod" || w.path.ends_with("/go.mod");
        if !in_place
            || go_mod
            || linked
            || size > MAX_FILE_BYTES
            || secrets::is_secret_path(&root.join(&w.path))
        {
            return None;
        }
        edited.push((w.path.clone(), language));
    }
    let mut stats = IndexStats {
        cache_path: Some(cache.to_path_buf()),
        ..Default::default()
    };
    let old = store.delta().cloned().unwrap_or_else(|| Delta {
        base: store.generation(),
        ..Default::default()
    });
    let mut tables = LinkTables::new(&store)?;
    if !old.deleted.is_empty() || old.files.iter().any(|f| f.base.is_none()) {
        return None;
    }
    // The calls and uses of the files edited before, kept.
    let mut bodies: BTreeMap<FileId, Vec<Edge>> = BTreeMap::new();
    for f in &old.files {
        let range = f.first..f.first + f.symbols.len() as SymbolId;
        bodies.insert(
            f.id,
            old.edges
                .iter()
                .filter(|e| is_body(e.kind) && range.contains(&e.from))
                .copied()
                .collect(),
        );
    }
    let mut files: BTreeMap<FileId, DeltaFile> = old.files.into_iter().map(|f| (f.id, f)).collect();
    if files.len() + edited.len() > MAX_DELTA_FILES {
        return None;
    }

    // Read, hash and parse the edited files.
    let mut parsed = Vec::new();
    for (rel, language) in &edited {
        let id = store.file_id(rel)?;
        let base = tables.file(id as usize).clone();
        if base.language != *language {
            return None;
        }
        let now = files.get(&id).map_or(base.state, |f| f.state);
        let src = std::fs::read(root.join(rel)).ok()?;
        if memchr::memchr(0, &src[..src.len().min(8192)]).is_some() {
            return None;
        }
        let hash = *blake3::hash(&src).as_bytes();
        if hash == now.hash {
            stats.rehashed += 1;
            continue;
        }
        let mut facts = extract::extract(*language, &src).ok()?;
        facts.generated = crate::paths::is_generated(rel, &src);
        let surface = link::surface(&facts);
        if surface != base.state.surface || facts.symbols.len() != base.count as usize {
            return None;
        }
        let state = FileState {
            hash,
            surface,
            had_errors: facts.had_errors,
        };
        parsed.push((id, base.first, facts, state));
    }
    stats.parsed = parsed.len();
    // Only a test's hook acts here; a failure means nothing before the writes.
    let _ = crash::step(cache, crash::Step::Link);

    // Resolve their calls and uses against the stored tables.
    for (id, first, facts, _) in &parsed {
        tables.with_own(*id as usize, *first, facts);
    }
    for (id, first, facts, state) in &parsed {
        let fi = *id as usize;
        let count = facts.symbols.len() as SymbolId;
        let body = tables.file_edges(*first..*first + count);
        let impl_lines = facts
            .impls
            .iter()
            .filter_map(|b| {
                let (t, tr) = tables.resolve_impl(fi, *first, b)?;
                (tables.file_of(t) == fi).then_some((t, tr?, b.line))
            })
            .collect();
        let mut info = store.base_file(*id)?;
        info.lines = facts.lines;
        info.is_generated = facts.generated;
        let mut symbols = Vec::with_capacity(facts.symbols.len());
        for (i, raw) in facts.symbols.iter().enumerate() {
            let mut s = store.base_symbol(*first + i as SymbolId)?;
            take_extracted(&mut s, raw, &info);
            symbols.push(s);
        }
        bodies.insert(*id, body);
        files.insert(
            *id,
            DeltaFile {
                id: *id,
                base: Some(*id),
                at: (0, 0),
                info,
                state: *state,
                first: *first,
                symbols,
                impl_lines,
            },
        );
    }
    let declared = declared_edges(&store, &files);
    let mut summary = tables.summary().clone();
    for f in files.values() {
        let base = tables.file(f.id as usize);
        let before = store.base_file(f.id)?;
        summary.lines =
            (summary.lines + u64::from(f.info.lines)).saturating_sub(u64::from(before.lines));
        summary.with_syntax_errors = (summary.with_syntax_errors + usize::from(f.state.had_errors))
            .saturating_sub(usize::from(base.state.had_errors));
        for sym in f.first..f.first + f.symbols.len() as SymbolId {
            for e in store.base_edges(lazy::Sec::Out, sym) {
                if is_body(e.kind)
                    && let Some(n) = summary.edges.get_mut(e.kind.as_str())
                {
                    *n = n.saturating_sub(1);
                }
            }
        }
        for e in bodies.get(&f.id).into_iter().flatten() {
            *summary
                .edges
                .entry(e.kind.as_str().to_string())
                .or_default() += 1;
        }
    }
    drop(tables);
    if store.failure().is_some() {
        return None;
    }
    let mut edges: Vec<Edge> = bodies.into_values().flatten().collect();
    edges.extend(declared);
    let symbols: Vec<SymbolId> = files
        .values()
        .flat_map(|f| f.first..f.first + f.symbols.len() as SymbolId)
        .collect();
    let delta = Delta {
        base: store.generation(),
        watched: entries
            .into_iter()
            .map(|(w, now)| Watched {
                path: w.path,
                shape: now,
            })
            .collect(),
        body_from: files
            .values()
            .map(|f| (f.first, f.first + f.symbols.len() as SymbolId))
            .filter(|r| r.0 < r.1)
            .collect(),
        decl_out: symbols.clone(),
        contains_in: symbols,
        files: files.into_values().collect(),
        edges,
        summary,
        ..Default::default()
    };
    let digest = write_delta(cache, &path, print, &delta)?;
    (stats.symbols, stats.files) = store.counts();
    take_summary(&mut stats, &delta);
    stats.relinked = stats.parsed;
    stats.reused = stats.files.saturating_sub(stats.parsed + stats.rehashed);
    stats.seconds = started.elapsed().as_secs_f64();
    tracing::debug!(?stats, "code store refreshed in place");
    Some((store.with_delta(delta, digest), stats))
}

/// What a symbol's record takes from its file's new extraction: its place, signature
/// and doc, and its file's test, vendored and generated flags.
pub(super) fn take_extracted(s: &mut Symbol, raw: &RawSymbol, info: &FileInfo) {
    s.line = raw.line;
    s.end_line = raw.end_line;
    s.signature = raw.signature.clone();
    s.doc = raw.doc.clone();
    s.is_test = info.is_test || raw.test;
    s.is_vendored = info.is_vendored;
    s.is_generated = info.is_generated;
}

/// Encodes `delta` and writes it beside the store at `path`, returning its digest. A write
/// that fails is a warning, not a failure: the answer comes from the delta in memory, and
/// the next query refreshes again.
pub(super) fn write_delta(
    cache: &Path,
    path: &Path,
    print: [u8; 16],
    delta: &Delta,
) -> Option<[u8; 32]> {
    let (body, digest) = lazy::encode_delta(delta).ok()?;
    let saved = crash::step(cache, crash::Step::WriteDelta)
        .and_then(|()| lazy::save_delta(path, print, &body, &digest));
    if let Err(e) = saved {
        tracing::warn!(
            "could not write the code store delta for {}: {e}",
            path.display()
        );
    }
    Some(digest)
}

/// The counts a refresh in place reports that the delta's summary holds.
pub(super) fn take_summary(stats: &mut IndexStats, delta: &Delta) {
    let s = &delta.summary;
    stats.lines = s.lines;
    stats.with_syntax_errors = s.with_syntax_errors;
    stats.skipped = s.skipped.clone();
    stats.edges = s.edges.clone();
}

/// Whether the directory `dir` (repo-relative) holds what the walk that made the watch list
/// saw: every subdirectory, source file and `go.mod` in it is watched, and so are the ignore
/// files and the `.git` whose presence changes the walk. Other files (a README, an
/// editor's temporary file) do not matter; a hidden one is never walked. An entry not
/// watched may be new, or ignored: either way the full refresh decides.
fn same_entries(root: &Path, dir: &str, watched: &HashSet<&str>) -> bool {
    let Ok(list) = std::fs::read_dir(root.join(dir)) else {
        return false;
    };
    let join = |name: &str| {
        if dir.is_empty() {
            name.to_string()
        } else {
            format!("{dir}/{name}")
        }
    };
    for entry in list {
        let Ok(entry) = entry else {
            return false;
        };
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return false;
        };
        let rel = join(name);
        if name.starts_with('.') {
            let seen = match name {
                ".git" => watched.contains(format!("{rel}/info/exclude").as_str()),
                ".gitignore" | ".ignore" => watched.contains(rel.as_str()),
                _ => true,
            };
            if !seen {
                return false;
            }
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            return false;
        };
        let walked = kind.is_dir()
            || (kind.is_file() && (Language::of_path(&rel).is_some() || name == "go.mod"));
        if walked && !watched.contains(rel.as_str()) {
            return false;
        }
    }
    true
}

fn is_body(kind: EdgeKind) -> bool {
    matches!(kind, EdgeKind::Calls | EdgeKind::Uses)
}

/// The contains and implements edges that touch the edited `files`, with their lines now:
/// those from their symbols, and the contains edges into their methods. The store's edges
/// are the right ones (surfaces are unchanged); only lines move. A contains edge is cited
/// at the method's line, an implements edge at the type's, or at the `impl Trait for Type`
/// block's in the type's file (Rust).
fn declared_edges(store: &StoreFile, files: &BTreeMap<FileId, DeltaFile>) -> Vec<Edge> {
    let ranges: Vec<(SymbolId, SymbolId, &DeltaFile)> = files
        .values()
        .map(|f| (f.first, f.first + f.symbols.len() as SymbolId, f))
        .collect();
    let line_of = |id: SymbolId| -> Option<u32> {
        ranges
            .iter()
            .find(|(a, b, _)| (*a..*b).contains(&id))
            .and_then(|(a, _, f)| f.symbols.get((id - a) as usize))
            .map(|s| s.line)
    };
    let impl_lines: HashMap<(SymbolId, SymbolId), u32> = files
        .values()
        .flat_map(|f| f.impl_lines.iter().map(|&(t, tr, line)| ((t, tr), line)))
        .collect();
    let mut out = Vec::new();
    for &(first, end, _) in &ranges {
        for id in first..end {
            for mut e in store.base_edges(lazy::Sec::Out, id) {
                match e.kind {
                    EdgeKind::Contains => {
                        e.line = line_of(e.to).unwrap_or(e.line);
                        out.push(e);
                    }
                    EdgeKind::Implements => {
                        e.line = impl_lines
                            .get(&(e.from, e.to))
                            .copied()
                            .or_else(|| line_of(e.from))
                            .unwrap_or(e.line);
                        out.push(e);
                    }
                    EdgeKind::Calls | EdgeKind::Uses => {}
                }
            }
            for mut e in store.base_edges(lazy::Sec::In, id) {
                if e.kind == EdgeKind::Contains && line_of(e.from).is_none() {
                    e.line = line_of(id).unwrap_or(e.line);
                    out.push(e);
                }
            }
        }
    }
    out
}
