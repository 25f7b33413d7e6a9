//! The refresh in place for any change to a Go and Python repository's files: edited
//! (declarations kept or not), added, deleted or moved, without re-linking the repository.
//!
//! A file added or deleted shifts every later symbol id (ids follow path order) and may
//! change what other files resolve to: a call that found nothing finds the new function, a
//! type gains a method, an interface a new implementor. This refresh computes exactly
//! what a cold index of the tree would hold, relative to the store:
//!
//! 1. **The files that changed since the store was written**, from the previous delta's
//!    state and the watch list: files edited in place (whose declarations, their
//!    `link::surface`, are unchanged: same ids), files added (a changed directory is
//!    listed with the walk's own rules), files deleted. A file whose declarations changed
//!    counts as deleted and added at the same path.
//! 2. **The id map** ([`lazy::IdMap`]): the store's remaining ids in order, with the added
//!    files' symbols where a cold index numbers them.
//! 3. **What the change alters in the link's tables**: every qualified name, module, method
//!    name, type's method and Go package name that the deleted and added files declare,
//!    compared before and after (`Now`, the link's `Tables` over the store's tables and the
//!    changes). The full link recorded which lookups each file made (`link::Logged`, the
//!    store's [`Sec::LinkLookups`](lazy::Sec)); only the files that looked up a key whose
//!    answer changed are resolved again (parsed again from disk: their content did not
//!    change), and the types' bases and methods' owners they declare are compared in turn,
//!    until nothing more changes.
//! 4. **The edges**: the calls and uses of the edited, added and affected files, their
//!    contains edges, their classes' base edges, and Go's implements edges for every type
//!    whose method set may have changed (its own, or of a type it embeds), from the method
//!    sets the link stored ([`Sec::LinkGo`](lazy::Sec)).
//!
//! The delta written holds the result and, for the next refresh, the facts of every file
//! it resolved: each refresh recomputes the delta from the store, so changes accumulate
//! without drift. Anything it cannot tell (an `__init__.py` or a `go.mod` added or
//! deleted, a Go package name that changes for importers, a file newly skipped, more than
//! [`patch::MAX_DELTA_FILES`] files) returns `None`: the full refresh runs, as before.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::crash;
use super::extract::{self, FileFacts, RawSymbol};
use super::index::{self, IndexStats, MAX_FILE_BYTES};
use super::lazy::{
    self, Delta, DeltaFile, FileState, IdMap, LinkTables, Sec, Shape, StoreFile, Summary, Watched,
};
use super::link::{self, FileScope, Tables, key, lookup};
use super::model::{Edge, EdgeKind, FileId, FileInfo, Kind, Language, Symbol, SymbolId};
use super::patch::MAX_DELTA_FILES;
use crate::secrets;

/// What a refresh in place leaves for the next one (inside the delta).
#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    /// Files whose content differs from the store's, by path.
    changed: Vec<Changed>,
    /// Store files deleted (a file whose declarations changed among them), ascending.
    deleted: Vec<FileId>,
    /// The facts of store files resolved again though their content is the store's.
    parsed: Vec<(FileId, FileFacts)>,
}

/// A file whose content differs from the store's.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Changed {
    path: String,
    language: Language,
    /// Its store id when it declares what the store's file declared (same symbol ids).
    base: Option<FileId>,
    state: FileState,
    facts: FileFacts,
}

/// Refreshes in place after any change to files of a Go and Python repository (see the
/// module). `entries` is the watch list with each path's shape now.
pub(super) fn refresh(
    root: &Path,
    cache: &Path,
    store: StoreFile,
    entries: Vec<(Watched, Shape)>,
    started: Instant,
) -> Outcome {
    match patch(root, cache, &store, &entries, started) {
        Some(Step::Done(delta, digest, stats)) => {
            Outcome::Done(store.with_delta(*delta, digest), stats)
        }
        Some(Step::Other) => Outcome::Other(store, entries),
        None => Outcome::Full,
    }
}

/// What [`refresh`] did.
pub(super) enum Outcome {
    /// The store with its new delta, and what it took.
    Done(StoreFile, IndexStats),
    /// Only files of other languages than Go and Python were edited: the refresh in place
    /// for edits (`patch`) may do it.
    Other(StoreFile, Vec<(Watched, Shape)>),
    /// The full refresh is needed.
    Full,
}

enum Step {
    Done(Box<Delta>, [u8; 32], IndexStats),
    Other,
}

fn is_go_python(language: Language) -> bool {
    matches!(language, Language::Go | Language::Python)
}

fn patch(
    root: &Path,
    cache: &Path,
    store: &StoreFile,
    entries: &[(Watched, Shape)],
    started: Instant,
) -> Option<Step> {
    let path = lazy::store_path(cache);
    let print = index::fingerprint();
    // 1. What changed since the last refresh, then since the store.
    let seen = scan(root, entries)?;
    let others = seen
        .edited
        .iter()
        .chain(&seen.added)
        .any(|(_, l)| !is_go_python(*l))
        || seen
            .gone
            .iter()
            .any(|p| Language::of_path(p).is_some_and(|l| !is_go_python(l)));
    let only_edits = seen.added.is_empty() && seen.gone.is_empty();
    let mut prior: State = match store.delta() {
        Some(d) if !d.state.is_empty() => postcard::from_bytes(&d.state).ok()?,
        // A delta of the refresh for edits: it may go on with edits.
        Some(d) if !d.files.is_empty() || !d.deleted.is_empty() => {
            return only_edits.then_some(Step::Other);
        }
        _ => State::default(),
    };
    if others {
        let fresh = prior.changed.is_empty() && prior.deleted.is_empty();
        return (fresh && only_edits).then_some(Step::Other);
    }
    let mut stats = IndexStats {
        cache_path: Some(cache.to_path_buf()),
        ..Default::default()
    };
    let base = LinkTables::new(store)?;
    let mut changed: BTreeMap<String, Changed> = std::mem::take(&mut prior.changed)
        .into_iter()
        .map(|c| (c.path.clone(), c))
        .collect();
    let mut deleted: BTreeSet<FileId> = prior.deleted.iter().copied().collect();
    for rel in &seen.gone {
        if let Some(c) = changed.remove(rel)
            && let Some(f) = c.base
        {
            deleted.insert(f);
        }
        if let Some(f) = store.file_id(rel) {
            deleted.insert(f);
        }
    }
    for (rel, language) in seen.edited.iter().chain(&seen.added) {
        let src = std::fs::read(root.join(rel)).ok()?;
        if memchr::memchr(0, &src[..src.len().min(8192)]).is_some() {
            return None;
        }
        let hash = *blake3::hash(&src).as_bytes();
        if changed.get(rel).is_some_and(|c| c.state.hash == hash) {
            stats.rehashed += 1;
            continue;
        }
        let in_store = store.file_id(rel);
        let before = in_store.map(|f| base.file(f as usize).clone());
        if let Some(b) = &before
            && b.state.hash == hash
        {
            // Back to what the store holds.
            changed.remove(rel);
            deleted.remove(&in_store?);
            stats.rehashed += 1;
            continue;
        }
        let mut facts = extract::extract(*language, &src).ok()?;
        facts.generated = crate::paths::is_generated(rel, &src);
        stats.parsed += 1;
        let state = FileState {
            hash,
            surface: link::surface(&facts),
            had_errors: facts.had_errors,
        };
        let same = before.as_ref().is_some_and(|b| {
            b.language == *language
                && b.state.surface == state.surface
                && b.count as usize == facts.symbols.len()
        });
        let is_init = rel == "__init__.py" || rel.ends_with("/__init__.py");
        if !same && is_init {
            return None;
        }
        if let Some(f) = in_store {
            if same {
                deleted.remove(&f);
            } else {
                deleted.insert(f);
            }
        }
        changed.insert(
            rel.clone(),
            Changed {
                path: rel.clone(),
                language: *language,
                base: in_store.filter(|_| same),
                state,
                facts,
            },
        );
    }
    if changed.len() + deleted.len() > MAX_DELTA_FILES {
        return None;
    }
    for &f in &deleted {
        let p = store.base_file(f)?.path;
        if p == "__init__.py" || p.ends_with("/__init__.py") {
            return None;
        }
    }
    let (n_syms, n_files) = store.counts();
    let (n_syms, n_files) = (n_syms as u32, n_files as u32);

    // 2. The id map.
    let del: Vec<(FileId, SymbolId, u32)> = deleted
        .iter()
        .map(|&f| {
            let r = base.file(f as usize);
            (f, r.first, r.count)
        })
        .collect();
    let mut added: Vec<Added> = Vec::new();
    let go_mods = go_modules(root, &seen.watched);
    for c in changed.values().filter(|c| c.base.is_none()) {
        // The first store path not before it.
        let mut taken = 0;
        let at = store
            .base_paths_from(&c.path, |_| {
                taken += 1;
                taken == 1
            })
            .first()
            .map_or(n_files, |(_, id)| *id);
        let at_sym = if at == n_files {
            n_syms
        } else {
            base.file(at as usize).first
        };
        added.push(Added::new(c, at, at_sym, store, &base, &deleted, &go_mods)?);
    }
    let adds: Vec<(FileId, SymbolId, u32)> = added
        .iter()
        .map(|a| (a.at, a.at_sym, a.facts.symbols.len() as u32))
        .collect();
    let map = IdMap::new(n_files, n_syms, &del, &adds);
    // New ids of the added files: after the store files before them and the added ones
    // before them.
    {
        let (mut files_before, mut syms_before) = (0u32, 0u32);
        for a in &mut added {
            let kept_files = a.at - del.iter().filter(|d| d.0 < a.at).count() as u32;
            let kept_syms = a.at_sym
                - del
                    .iter()
                    .filter(|d| d.1 < a.at_sym)
                    .map(|d| d.2)
                    .sum::<u32>();
            a.id = kept_files + files_before;
            a.first = kept_syms + syms_before;
            files_before += 1;
            syms_before += a.facts.symbols.len() as u32;
        }
    }

    // 3. The tables now, and what changed in them.
    let mut now = Now::new(store, &base, map, added, &deleted);
    let mut facts_of: HashMap<FileId, Arc<FileFacts>> = HashMap::new();
    for c in changed.values() {
        if let Some(f) = c.base {
            facts_of.insert(now.map.file(f)?, Arc::new(c.facts.clone()));
        }
    }
    let mut parsed_before: HashMap<FileId, FileFacts> = std::mem::take(&mut prior.parsed)
        .into_iter()
        .filter(|(f, _)| !deleted.contains(f))
        .collect();
    let mut keys = now.changed_keys(&base, &del)?;
    if now.broken.get()
        || now
            .added
            .iter()
            .any(|a| a.unnamed.iter().any(|m| keys.go_names.contains(m)))
    {
        return None;
    }
    // Files resolved again: the edited ones, and those whose lookups a change reached,
    // until what they declare (bases, owners) changes nothing more.
    let mut resolved: BTreeSet<FileId> = facts_of.keys().copied().collect();
    let mut asked: HashSet<u64> = HashSet::new();
    now.set_facts(&facts_of);
    keys.all.extend(now.declared_keys(&base, &resolved)?);
    loop {
        let mut more = BTreeMap::new();
        for &k in &keys.all {
            if !asked.insert(k) {
                continue;
            }
            for f in base.lookup_files(k) {
                if let Some(n) = now.map.file(f)
                    && !resolved.contains(&n)
                {
                    more.insert(n, f);
                }
            }
        }
        if more.is_empty() {
            break;
        }
        if resolved.len() + more.len() + now.added.len() + deleted.len() > MAX_DELTA_FILES * 2 {
            return None;
        }
        for (n, f) in more {
            if !is_go_python(base.file(f as usize).language) {
                // Its link (a Rust `impl`, a TypeScript scope) is not redone here.
                return None;
            }
            let facts = match parsed_before.remove(&f) {
                Some(facts) => facts,
                None => {
                    let info = store.base_file(f)?;
                    let src = std::fs::read(root.join(&info.path)).ok()?;
                    if *blake3::hash(&src).as_bytes() != base.file(f as usize).state.hash {
                        return None;
                    }
                    let mut facts = extract::extract(info.language, &src).ok()?;
                    facts.generated = crate::paths::is_generated(&info.path, &src);
                    stats.parsed += 1;
                    facts
                }
            };
            if facts.imports.iter().any(|i| {
                link::go_path_candidates(&i.module)
                    .enumerate()
                    .any(|(k, m)| (k > 0 || i.local.is_empty()) && keys.go_names.contains(m))
            }) {
                // Its imports would be named differently: the full refresh.
                return None;
            }
            facts_of.insert(n, Arc::new(facts));
            resolved.insert(n);
        }
        now.set_facts(&facts_of);
        keys.all.extend(now.declared_keys(&base, &resolved)?);
    }
    if now.broken.get() {
        return None;
    }
    let _ = crash::step(cache, crash::Step::Link);

    // 4. The edges.
    let mut edges: Vec<Edge> = Vec::new();
    let mut ranges: Vec<(FileId, SymbolId, SymbolId)> = Vec::new();
    for &n in &resolved {
        let r = base.file(now.map.base_file(n)? as usize);
        if r.count > 0 {
            let first = now.map.sym(r.first)?;
            ranges.push((n, first, first + r.count));
        }
    }
    ranges.extend(
        now.added
            .iter()
            .map(|a| (a.id, a.first, a.first + a.facts.symbols.len() as u32)),
    );
    for &(_, a, b) in &ranges {
        edges.extend(now.file_edges(a..b));
    }
    let mut impl_out = Vec::new();
    let mut contains_in = Vec::new();
    let mut body_from = Vec::new();
    for &(n, a, b) in &ranges {
        let kept = now.map.base_file(n).is_some();
        if kept && let Some(ba) = now.map.base_sym(a) {
            body_from.push((ba, ba + (b - a)));
        }
        for id in a..b {
            let (_, raw) = now.raw(id);
            if let Some(t) = now.owner(id) {
                edges.push(Edge {
                    from: t,
                    to: id,
                    kind: EdgeKind::Contains,
                    line: raw.line,
                    inferred: false,
                });
            }
            if now.lang(now.file_of(id)) != Language::Go {
                for &b in now.bases(id) {
                    edges.push(Edge {
                        from: id,
                        to: b,
                        kind: EdgeKind::Implements,
                        line: raw.line,
                        inferred: false,
                    });
                }
            }
            if kept && let Some(b) = now.map.base_sym(id) {
                impl_out.push(b);
                contains_in.push(b);
            }
        }
    }
    let (go_edges, go_out, go_in) = now.go_implements(&base, &keys, &ranges)?;
    edges.extend(go_edges);
    impl_out.extend(go_out);
    let mut impl_in = go_in;
    for v in [&mut impl_out, &mut contains_in, &mut impl_in] {
        v.sort_unstable();
        v.dedup();
    }
    body_from.sort_unstable();
    if now.broken.get() || store.failure().is_some() {
        return None;
    }

    // 5. The records of the changed files.
    let mut files: Vec<DeltaFile> = Vec::new();
    for c in changed.values() {
        let facts = &c.facts;
        let (id, first, info, base_id, at) = match c.base {
            Some(f) => {
                let mut info = store.base_file(f)?;
                info.lines = facts.lines;
                info.is_generated = facts.generated;
                let first = now.map.sym(base.file(f as usize).first).unwrap_or(0);
                (now.map.file(f)?, first, info, Some(f), (0, 0))
            }
            None => {
                let a = now.added.iter().find(|a| a.path == c.path)?;
                (a.id, a.first, a.info.clone(), None, (a.at, a.at_sym))
            }
        };
        let mut symbols = Vec::with_capacity(facts.symbols.len());
        for (i, raw) in facts.symbols.iter().enumerate() {
            let sid = first + i as SymbolId;
            let mut s = match c.base {
                Some(_) => {
                    let mut s = store.base_symbol(now.map.base_sym(sid)?)?;
                    s.file = id;
                    s
                }
                None => {
                    let (display, qname) = now.names_of(sid)?;
                    Symbol {
                        name: raw.name.clone(),
                        display,
                        qname,
                        kind: raw.kind,
                        file: id,
                        path: info.path.clone(),
                        line: 0,
                        end_line: 0,
                        signature: String::new(),
                        doc: None,
                        is_test: false,
                        is_vendored: false,
                        is_generated: false,
                    }
                }
            };
            super::patch::take_extracted(&mut s, raw, &info);
            symbols.push(s);
        }
        files.push(DeltaFile {
            id,
            base: base_id,
            at,
            info,
            state: c.state,
            first,
            symbols,
            impl_lines: Vec::new(),
        });
    }
    files.sort_by_key(|f| f.id);

    // 6. The counts, the watch list and the state for the next refresh.
    let summary_before = base.summary().clone();
    let parsed: Vec<(FileId, FileFacts)> = resolved
        .iter()
        .filter_map(|&n| {
            let b = now.map.base_file(n)?;
            if changed.values().any(|c| c.base == Some(b)) {
                return None;
            }
            Some((b, FileFacts::clone(facts_of.get(&n)?)))
        })
        .collect();
    let state = State {
        changed: changed.into_values().collect(),
        deleted: deleted.iter().copied().collect(),
        parsed,
    };
    let mut watched: Vec<Watched> = entries
        .iter()
        .filter(|(w, now)| !(*now == Shape::Missing && w.shape != Shape::Missing))
        .map(|(w, now)| Watched {
            path: w.path.clone(),
            shape: *now,
        })
        .collect();
    watched.extend(seen.watched_new);
    watched.sort_by(|a, b| lazy::walk_order(&a.path, &b.path));
    let n_added = now.added.len();
    let added_syms: usize = now.added.iter().map(|a| a.facts.symbols.len()).sum();
    drop(now);
    drop(base);
    let delta = Delta {
        base: store.generation(),
        watched,
        files,
        deleted: del.clone(),
        body_from,
        decl_out: Vec::new(),
        contains_in,
        impl_out,
        impl_in,
        edges,
        summary: Summary::default(),
        state: postcard::to_stdvec(&state).ok()?,
    };
    let ov = store.overlay(delta);
    let summary = summarize(store, summary_before, &ov, &state)?;
    let mut delta = ov.delta;
    delta.summary = summary;
    let digest = super::patch::write_delta(cache, &path, print, &delta)?;
    stats.symbols = n_syms as usize + added_syms - del.iter().map(|d| d.2 as usize).sum::<usize>();
    stats.files = n_files as usize + n_added - del.len();
    super::patch::take_summary(&mut stats, &delta);
    stats.relinked = resolved.len() + n_added;
    stats.reused = stats.files.saturating_sub(stats.relinked);
    stats.seconds = started.elapsed().as_secs_f64();
    tracing::debug!(?stats, "code store refreshed in place");
    Some(Step::Done(Box::new(delta), digest, stats))
}

/// The counts after `delta`: the store's, less what the delta removes, plus what it adds.
fn summarize(
    store: &StoreFile,
    before: Summary,
    ov: &lazy::Overlay,
    state: &State,
) -> Option<Summary> {
    let delta = &ov.delta;
    let mut s = before;
    for &(f, _, _) in &delta.deleted {
        let info = store.base_file(f)?;
        s.lines = s.lines.saturating_sub(u64::from(info.lines));
    }
    let tables = LinkTables::new(store)?;
    for &(f, _, _) in &delta.deleted {
        s.with_syntax_errors = s
            .with_syntax_errors
            .saturating_sub(usize::from(tables.file(f as usize).state.had_errors));
    }
    for c in &state.changed {
        if let Some(f) = c.base {
            let info = store.base_file(f)?;
            s.lines = s.lines.saturating_sub(u64::from(info.lines));
            s.with_syntax_errors = s
                .with_syntax_errors
                .saturating_sub(usize::from(tables.file(f as usize).state.had_errors));
        }
        s.lines += u64::from(c.facts.lines);
        s.with_syntax_errors += usize::from(c.state.had_errors);
    }
    drop(tables);
    // The store's edges the delta removes: each leaves one symbol, found from either end.
    let mut sources: BTreeSet<SymbolId> = BTreeSet::new();
    for &(_, first, n) in &delta.deleted {
        for id in first..first + n {
            sources.insert(id);
            for e in store.base_edges(Sec::In, id) {
                sources.insert(e.from);
            }
        }
    }
    for &(a, b) in &delta.body_from {
        sources.extend(a..b);
    }
    sources.extend(delta.decl_out.iter().chain(&delta.impl_out));
    for &id in delta.contains_in.iter().chain(&delta.impl_in) {
        for e in store.base_edges(Sec::In, id) {
            sources.insert(e.from);
        }
    }
    for id in sources {
        for e in store.base_edges(Sec::Out, id) {
            if ov.removed(&e)
                && let Some(n) = s.edges.get_mut(e.kind.as_str())
            {
                *n = n.saturating_sub(1);
            }
        }
    }
    for e in &delta.edges {
        *s.edges.entry(e.kind.as_str().to_string()).or_default() += 1;
    }
    Some(s)
}

/// What changed on disk since the watch list: paths edited in place, added or gone.
struct Seen {
    edited: Vec<(String, Language)>,
    added: Vec<(String, Language)>,
    gone: Vec<String>,
    /// Watch entries for the added files and directories.
    watched_new: Vec<Watched>,
    /// Every watched path now (for the `go.mod` files).
    watched: Vec<String>,
}

/// Compares the watch list with the tree: source files edited, deleted, and (listing each
/// changed directory as the walk would) added. `None` for anything else: an ignore file or
/// `go.mod` changed, added or deleted, a file newly left out (secret, linked, too large).
fn scan(root: &Path, entries: &[(Watched, Shape)]) -> Option<Seen> {
    let watched: HashSet<&str> = entries.iter().map(|(w, _)| w.path.as_str()).collect();
    let mut seen = Seen {
        edited: Vec::new(),
        added: Vec::new(),
        gone: Vec::new(),
        watched_new: Vec::new(),
        watched: entries.iter().map(|(w, _)| w.path.clone()).collect(),
    };
    let mut dirs: Vec<String> = Vec::new();
    for (w, now) in entries {
        if *now == w.shape {
            continue;
        }
        let go_mod = w.path == "go.mod" || w.path.ends_with("/go.mod");
        let language = Language::of_path(&w.path).filter(|_| !go_mod);
        match (w.shape, *now, language) {
            (Shape::Dir { .. }, Shape::Dir { .. }, _) => dirs.push(w.path.clone()),
            (Shape::Dir { .. }, Shape::Missing, _) => {}
            (Shape::File { .. }, Shape::Missing, Some(_)) => seen.gone.push(w.path.clone()),
            (Shape::File { .. }, Shape::File { size, linked, .. }, Some(language)) => {
                if linked || size > MAX_FILE_BYTES || secrets::is_secret_path(&root.join(&w.path)) {
                    return None;
                }
                seen.edited.push((w.path.clone(), language));
            }
            _ => return None,
        }
    }
    if dirs.is_empty() {
        return Some(seen);
    }
    for d in &dirs {
        if !hidden_same(root, d, &watched) {
            return None;
        }
    }
    // The walk's own rules (ignore files, hidden entries), entering only the changed
    // directories and the directories new in them.
    let targets: Arc<Vec<String>> = Arc::new(dirs.clone());
    let known: Arc<HashSet<String>> = Arc::new(watched.iter().map(|s| s.to_string()).collect());
    let root_buf = root.to_path_buf();
    let mut walker = crate::walk::walker(root);
    {
        let (targets, known, root_buf) = (targets.clone(), known.clone(), root_buf.clone());
        walker.filter_entry(move |e| {
            if e.file_name() == ".git" {
                return false;
            }
            let Ok(rel) = e.path().strip_prefix(&root_buf) else {
                return false;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            relevant(&rel, &targets, &known)
        });
    }
    for entry in walker.build() {
        let entry = entry.ok()?;
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if rel.is_empty() || watched.contains(rel.as_str()) || !below(&rel, &targets) {
            continue;
        }
        let Some(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            let meta = entry.metadata().ok()?;
            lazy::watch_dir(entry.path(), &rel, &meta, &mut seen.watched_new);
            continue;
        }
        if !kind.is_file() {
            continue;
        }
        if rel == "go.mod" || rel.ends_with("/go.mod") {
            return None;
        }
        let Some(language) = Language::of_path(&rel) else {
            continue;
        };
        if rel == "__init__.py"
            || rel.ends_with("/__init__.py")
            || secrets::is_secret_path(entry.path())
        {
            return None;
        }
        let meta = entry.metadata().ok()?;
        if secrets::is_multiply_linked(&meta) || meta.len() > MAX_FILE_BYTES {
            return None;
        }
        seen.watched_new.push(Watched {
            path: rel.clone(),
            shape: Shape::of(&meta),
        });
        seen.added.push((rel, language));
    }
    Some(seen)
}

/// Whether the walk should enter or yield `rel`: a changed directory's ancestors (to read
/// their ignore files), its entries, and everything under a directory new in it.
fn relevant(rel: &str, targets: &[String], known: &HashSet<String>) -> bool {
    if rel.is_empty() {
        return true;
    }
    for t in targets {
        if t == rel {
            return true;
        }
        let inside = if t.is_empty() {
            Some(rel)
        } else {
            rel.strip_prefix(t.as_str())
                .and_then(|r| r.strip_prefix('/'))
        };
        if let Some(rest) = inside {
            match rest.split_once('/') {
                None => return true,
                Some((child, _)) => {
                    let child = if t.is_empty() {
                        child.to_string()
                    } else {
                        format!("{t}/{child}")
                    };
                    if !known.contains(&child) {
                        return true;
                    }
                }
            }
        } else if t.starts_with(rel) && t.as_bytes().get(rel.len()) == Some(&b'/') {
            return true;
        }
    }
    false
}

/// Whether `rel` is inside one of the changed directories (not one of their ancestors).
fn below(rel: &str, targets: &[String]) -> bool {
    targets.iter().any(|t| {
        t.is_empty()
            || rel
                .strip_prefix(t.as_str())
                .is_some_and(|r| r.starts_with('/'))
    })
}

/// Whether the hidden entries of directory `dir` the walk depends on are as watched: no
/// ignore file and no `.git` appeared.
fn hidden_same(root: &Path, dir: &str, watched: &HashSet<&str>) -> bool {
    let Ok(list) = std::fs::read_dir(root.join(dir)) else {
        return false;
    };
    for entry in list {
        let Ok(entry) = entry else {
            return false;
        };
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return false;
        };
        let rel = if dir.is_empty() {
            name.to_string()
        } else {
            format!("{dir}/{name}")
        };
        let seen = match name {
            ".git" => watched.contains(format!("{rel}/info/exclude").as_str()),
            ".gitignore" | ".ignore" => watched.contains(rel.as_str()),
            _ => true,
        };
        if !seen {
            return false;
        }
    }
    true
}

/// The repository's `go.mod` modules, by directory, longest first (as the link wants).
fn go_modules(root: &Path, watched: &[String]) -> Vec<(String, String)> {
    let mods: Vec<String> = watched
        .iter()
        .filter(|p| *p == "go.mod" || p.ends_with("/go.mod"))
        .cloned()
        .collect();
    index::read_go_modules(root, &mods)
}

/// An added file, as the link would see it.
struct Added {
    path: String,
    language: Language,
    facts: FileFacts,
    scope: FileScope,
    info: FileInfo,
    /// The store file it comes before, and that file's first symbol.
    at: FileId,
    at_sym: SymbolId,
    /// Its new id and first symbol.
    id: FileId,
    first: SymbolId,
    /// Per symbol: display name and qualified name.
    names: Vec<(String, String)>,
    /// Go: the package paths its imports were looked up by whose answer names them or
    /// picks the package (every path of an unnamed import, the shortened ones of all).
    unnamed: Vec<String>,
}

impl Added {
    fn new(
        c: &Changed,
        at: FileId,
        at_sym: SymbolId,
        store: &StoreFile,
        base: &LinkTables<'_, '_>,
        deleted: &BTreeSet<FileId>,
        go_mods: &[(String, String)],
    ) -> Option<Self> {
        let path = &c.path;
        let mut unnamed = Vec::new();
        let scope = match c.language {
            Language::Go => {
                let mut mods: Vec<&(String, String)> = go_mods.iter().collect();
                mods.sort_by_key(|(d, _)| std::cmp::Reverse(d.len()));
                let prefix = link::go_package_path(path, &c.facts.package, &mods);
                let mut imports = BTreeMap::new();
                for imp in &c.facts.imports {
                    let (local, module) = link::go_import(imp, |m| {
                        if imp.local.is_empty() || m != imp.module {
                            unnamed.push(m.to_string());
                        }
                        base.go_name(m)
                    });
                    imports.insert(local, module);
                }
                FileScope::plain(prefix, String::new(), imports)
            }
            Language::Python => {
                // Directories with an `__init__.py` (in the store: adding or deleting one
                // takes the full refresh).
                let mut inits: Vec<String> = Vec::new();
                let mut d = link::parent_dir(path);
                loop {
                    let init = if d.is_empty() {
                        "__init__.py".to_string()
                    } else {
                        format!("{d}/__init__.py")
                    };
                    if store.file_id(&init).is_some_and(|f| !deleted.contains(&f)) {
                        inits.push(d.to_string());
                    }
                    if d.is_empty() {
                        break;
                    }
                    d = link::parent_dir(d);
                }
                let init_dirs: HashSet<&str> = inits.iter().map(String::as_str).collect();
                let (module, package) = link::python_module(path, &init_dirs);
                let mut imports = BTreeMap::new();
                for imp in &c.facts.imports {
                    let (local, target) = link::python_import(imp, &package);
                    imports.insert(local, target);
                }
                FileScope::plain(module, package, imports)
            }
            _ => return None,
        };
        let class = crate::paths::classify(path);
        let info = FileInfo {
            path: path.clone(),
            language: c.language,
            lines: c.facts.lines,
            is_test: crate::paths::is_test_code(path),
            is_vendored: class.vendored,
            is_generated: c.facts.generated,
        };
        let names = c
            .facts
            .symbols
            .iter()
            .map(|raw| {
                let mut parts = raw.container.clone();
                parts.push(raw.name.clone());
                let display = parts.join(".");
                let qname = link::qualify(scope.prefix(), &display);
                (display, qname)
            })
            .collect();
        Some(Added {
            path: path.clone(),
            language: c.language,
            facts: c.facts.clone(),
            scope,
            info,
            at,
            at_sym,
            id: 0,
            first: 0,
            names,
            unnamed,
        })
    }
}

/// The changed keys and what they concern.
#[derive(Default)]
struct Keys {
    /// Every changed key's hash.
    all: Vec<u64>,
    /// Store types whose methods changed, or that lost or gained a name.
    types: BTreeSet<SymbolId>,
    /// Go import paths whose package name changed.
    go_names: HashSet<String>,
}

/// The link's tables after the change, in new ids: the store's, through the id map, with
/// the added files' declarations, and recomputed where a change reaches.
struct Now<'s> {
    store: &'s StoreFile,
    base: &'s LinkTables<'s, 's>,
    map: IdMap,
    added: Vec<Added>,
    deleted: BTreeSet<FileId>,
    /// Facts of the files resolved again (new file id).
    facts: HashMap<FileId, Arc<FileFacts>>,
    /// Qualified names the deleted and added files declare, and the names of the types
    /// their methods belong to.
    touched_q: HashSet<String>,
    touched_owners: HashSet<String>,
    q_now: RefCell<HashMap<String, Option<SymbolId>>>,
    /// Modules of the deleted and added files: whether each exists now, its index.
    modules: HashMap<String, Option<usize>>,
    /// New modules' names (indexes after the store's).
    module_extra: Vec<String>,
    module_files: HashMap<usize, Option<usize>>,
    /// (family, name) of the methods the deleted (store ids) and added files declare.
    named: HashMap<(Language, String), (Vec<SymbolId>, Vec<SymbolId>)>,
    /// Owners of the methods of resolved and added files.
    owners: HashMap<SymbolId, Option<SymbolId>>,
    /// Bases of the types of resolved and added files, computed in id order.
    bases: HashMap<SymbolId, OnceLock<Vec<SymbolId>>>,
    limit: Cell<Option<SymbolId>>,
    /// The store's bases in new ids, by store id.
    mapped_bases: Vec<OnceLock<Vec<SymbolId>>>,
    rust_crates: HashSet<String>,
    empty_raw: RawSymbol,
    empty_scope: FileScope,
    /// A store answer named a deleted symbol: what the change was thought to touch was
    /// not all it touched. The full refresh runs.
    broken: Cell<bool>,
}

impl<'s> Now<'s> {
    fn new(
        store: &'s StoreFile,
        base: &'s LinkTables<'s, 's>,
        map: IdMap,
        added: Vec<Added>,
        deleted: &BTreeSet<FileId>,
    ) -> Self {
        let n = store.counts().0;
        Now {
            store,
            base,
            map,
            added,
            deleted: deleted.clone(),
            facts: HashMap::new(),
            touched_q: HashSet::new(),
            touched_owners: HashSet::new(),
            q_now: RefCell::default(),
            modules: HashMap::new(),
            module_extra: Vec::new(),
            module_files: HashMap::new(),
            named: HashMap::new(),
            owners: HashMap::new(),
            bases: HashMap::new(),
            limit: Cell::new(None),
            mapped_bases: (0..n).map(|_| OnceLock::new()).collect(),
            rust_crates: HashSet::new(),
            empty_raw: RawSymbol {
                name: String::new(),
                container: Vec::new(),
                kind: Kind::Var,
                line: 0,
                end_line: 0,
                signature: String::new(),
                doc: None,
                fields: Vec::new(),
                bases: Vec::new(),
                results: Vec::new(),
                uses: Vec::new(),
                reads: Vec::new(),
                calls: Vec::new(),
                test: false,
            },
            empty_scope: FileScope::default(),
            broken: Cell::new(false),
        }
    }

    fn added_of(&self, id: SymbolId) -> Option<(&Added, usize)> {
        self.added.iter().find_map(|a| {
            let n = a.facts.symbols.len() as SymbolId;
            (a.first..a.first + n)
                .contains(&id)
                .then(|| (a, (id - a.first) as usize))
        })
    }

    fn added_file(&self, fi: usize) -> Option<&Added> {
        self.added.iter().find(|a| a.id as usize == fi)
    }

    /// A store id mapped to its new id; a deleted one marks the tables broken.
    fn fwd(&self, id: SymbolId) -> Option<SymbolId> {
        let n = self.map.sym(id);
        if n.is_none() {
            self.broken.set(true);
        }
        n
    }

    /// The display and qualified name of an added symbol.
    fn names_of(&self, id: SymbolId) -> Option<(String, String)> {
        let (a, i) = self.added_of(id)?;
        a.names.get(i).cloned()
    }

    /// Every symbol now whose qualified name is `q`, ascending.
    fn all_q(&self, q: &str) -> Vec<SymbolId> {
        let mut out: Vec<SymbolId> = self
            .store
            .base_by_qname(q)
            .into_iter()
            .filter_map(|b| self.map.sym(b))
            .collect();
        for a in &self.added {
            for (i, (_, qn)) in a.names.iter().enumerate() {
                if qn == q {
                    out.push(a.first + i as SymbolId);
                }
            }
        }
        out.sort_unstable();
        out
    }

    fn is_method(&self, id: SymbolId) -> bool {
        let (_, raw) = self.raw(id);
        raw.kind == Kind::Method && !raw.container.is_empty()
    }

    /// Every method now whose qualified name is `q.name` for some name, ascending.
    fn methods_under(&self, q: &str) -> Vec<SymbolId> {
        let prefix = format!("{q}.");
        let mut out: Vec<SymbolId> = Vec::new();
        for b in self.store.base_qname_prefix(&prefix) {
            if let Some(n) = self.map.sym(b)
                && !self.qname(n)[prefix.len()..].contains('.')
                && self.is_method(n)
            {
                out.push(n);
            }
        }
        for a in &self.added {
            for (i, (_, qn)) in a.names.iter().enumerate() {
                let id = a.first + i as SymbolId;
                if qn
                    .strip_prefix(&prefix)
                    .is_some_and(|rest| !rest.contains('.'))
                    && self.is_method(id)
                {
                    out.push(id);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Whether type `t`'s methods must be computed (not taken from the store): it is new,
    /// its name is declared by a changed file, or one of its methods' names is.
    fn methods_changed(&self, t: SymbolId) -> bool {
        if self.map.base_sym(t).is_none() {
            return true;
        }
        let q = self.qname(t);
        let changed = self.touched_q.contains(q) || self.touched_owners.contains(q);
        if changed && !is_go_python(self.lang(self.file_of(t))) {
            // Methods the link attached from `impl` blocks: not recomputed here.
            self.broken.set(true);
        }
        changed
    }

    /// Type `t`'s methods now: (name, the first method of that name).
    fn methods_now(&self, t: SymbolId) -> Vec<(String, SymbolId)> {
        if !self.methods_changed(t) {
            let Some(b) = self.map.base_sym(t) else {
                return Vec::new();
            };
            return self
                .base
                .sym(b)
                .methods
                .iter()
                .filter_map(|(n, m)| Some((n.clone(), self.fwd(*m)?)))
                .collect();
        }
        if !self.kind(t).is_type() || self.qname_id(self.qname(t)) != Some(t) {
            return Vec::new();
        }
        let mut out: Vec<(String, SymbolId)> = Vec::new();
        for m in self.methods_under(self.qname(t)) {
            let name = self.raw(m).1.name.clone();
            if !out.iter().any(|(n, _)| *n == name) {
                out.push((name, m));
            }
        }
        out.sort();
        out
    }

    /// The symbols of the resolved (kept) and added files, ascending.
    fn own_ids(&self) -> Vec<SymbolId> {
        let mut ids: Vec<SymbolId> = Vec::new();
        for &f in self.facts.keys() {
            let Some(b) = self.map.base_file(f) else {
                continue;
            };
            let r = self.base.file(b as usize);
            if r.count > 0
                && let Some(first) = self.map.sym(r.first)
            {
                ids.extend(first..first + r.count);
            }
        }
        for a in &self.added {
            ids.extend(a.first..a.first + a.facts.symbols.len() as SymbolId);
        }
        ids.sort_unstable();
        ids
    }

    /// Sets the facts of the files resolved again, and recomputes what they and the added
    /// files declare: their methods' owners, their types' bases.
    fn set_facts(&mut self, facts: &HashMap<FileId, Arc<FileFacts>>) {
        self.facts = facts.clone();
        let ids = self.own_ids();
        let mut owners = HashMap::new();
        for &id in &ids {
            let (fi, raw) = self.raw(id);
            let owner = if raw.kind == Kind::Method && !raw.container.is_empty() {
                let q = link::qualify(self.scope(fi).prefix(), &raw.container.join("."));
                self.qname_id(&q).filter(|&t| self.kind(t).is_type())
            } else {
                None
            };
            owners.insert(id, owner);
        }
        self.owners = owners;
        // Bases, in id order: the link resolves a type's bases seeing only earlier types'.
        self.bases = ids
            .iter()
            .filter(|&&id| self.raw(id).1.kind.is_type())
            .map(|&id| (id, OnceLock::new()))
            .collect();
        for &id in &ids {
            let (fi, raw) = self.raw(id);
            if !raw.kind.is_type() {
                continue;
            }
            self.limit.set(Some(id));
            let mut bs = Vec::new();
            for p in &raw.bases {
                if let Some(link::Ent::Sym(s)) = self.resolve_path(fi, p)
                    && self.kind(s).is_type()
                    && s != id
                {
                    bs.push(s);
                }
            }
            self.limit.set(None);
            if let Some(slot) = self.bases.get(&id) {
                let _ = slot.set(bs);
            }
        }
    }

    /// The package name Go import path `module` is imported as now, when the deleted and
    /// added files of that package are in `dirs`: the package clause of its first file
    /// (by path) that is not an external test package. `Err` when its files are not all
    /// in those directories.
    fn go_name_now(&self, module: &str, dirs: &BTreeSet<String>) -> Result<Option<String>, ()> {
        let mut best: Option<(String, String)> = None;
        let mut count = 0u32;
        let mut consider = |path: &str, package: &str| {
            count += 1;
            if package.ends_with("_test") {
                return;
            }
            if best.as_ref().is_none_or(|(p, _)| path < p.as_str()) {
                best = Some((path.to_string(), package.to_string()));
            }
        };
        for a in &self.added {
            if a.language == Language::Go && a.scope.prefix() == module {
                consider(&a.path, &a.facts.package);
            }
        }
        for d in dirs {
            let from = if d.is_empty() {
                String::new()
            } else {
                format!("{d}/")
            };
            for (p, f) in self.store.base_paths_from(&from, |p| p.starts_with(&from)) {
                if link::parent_dir(&p) != d || self.deleted.contains(&f) {
                    continue;
                }
                let r = self.base.file(f as usize);
                if r.language == Language::Go && r.scope().prefix() == module {
                    consider(&p, &r.package);
                }
            }
        }
        let own = match self.modules.get(module) {
            Some(Some(m)) => self.own_now(*m, module),
            _ => 0,
        };
        if count != own {
            return Err(());
        }
        Ok(best.map(|(_, p)| p))
    }

    /// How many files are module `m` (named `name`) now.
    fn own_now(&self, m: usize, name: &str) -> u32 {
        let before = if m < self.base.module_count() {
            self.base.module_own(m)
        } else {
            0
        };
        let mut n = i64::from(before);
        for &f in &self.deleted {
            if self.base.file(f as usize).scope().prefix() == name {
                n -= 1;
            }
        }
        n += self
            .added
            .iter()
            .filter(|a| a.scope.prefix() == name)
            .count() as i64;
        u32::try_from(n).unwrap_or(0)
    }

    /// The keys whose answers the deleted and added files change (before any other file
    /// is resolved again).
    fn changed_keys(
        &mut self,
        base: &LinkTables<'_, '_>,
        del: &[(FileId, SymbolId, u32)],
    ) -> Option<Keys> {
        let mut keys = Keys::default();
        // What the deleted and added files declare.
        let mut methods: Vec<(String, String)> = Vec::new(); // (owner's qname, name)
        let mut modules: BTreeMap<String, (Vec<FileId>, Language)> = BTreeMap::new();
        let mut go_dirs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for &(f, first, n) in del {
            let r = base.file(f as usize);
            let lang = r.language;
            let prefix = r.scope().prefix().to_string();
            modules.entry(prefix.clone()).or_insert((Vec::new(), lang));
            if lang == Language::Go {
                let path = self.store.base_file(f)?.path;
                go_dirs
                    .entry(prefix)
                    .or_default()
                    .insert(link::parent_dir(&path).to_string());
            }
            for id in first..first + n {
                let s = base.sym(id);
                self.touched_q.insert(s.qname.clone());
                if s.kind == Kind::Method && !s.raw.container.is_empty() {
                    let owner =
                        s.qname[..s.qname.len().saturating_sub(s.raw.name.len() + 1)].to_string();
                    self.touched_owners.insert(owner.clone());
                    methods.push((owner, s.raw.name.clone()));
                    self.named
                        .entry((lang.family(), s.raw.name.clone()))
                        .or_default()
                        .0
                        .push(id);
                }
            }
        }
        for a in &self.added {
            let prefix = a.scope.prefix().to_string();
            modules
                .entry(prefix.clone())
                .or_insert((Vec::new(), a.language))
                .0
                .push(a.id);
            if a.language == Language::Go {
                go_dirs
                    .entry(prefix)
                    .or_default()
                    .insert(link::parent_dir(&a.path).to_string());
            }
            for (i, raw) in a.facts.symbols.iter().enumerate() {
                let qname = &a.names[i].1;
                self.touched_q.insert(qname.clone());
                if raw.kind == Kind::Method && !raw.container.is_empty() {
                    let owner = qname[..qname.len().saturating_sub(raw.name.len() + 1)].to_string();
                    self.touched_owners.insert(owner.clone());
                    methods.push((owner, raw.name.clone()));
                    self.named
                        .entry((a.language.family(), raw.name.clone()))
                        .or_default()
                        .1
                        .push(a.first + i as SymbolId);
                }
            }
        }
        // Modules: whether each exists, and (Python) the file that defines it.
        for (name, (adds, lang)) in &modules {
            let old = base.module(name);
            // Its index stays (or is the next free one) while it exists.
            let m = old.unwrap_or(base.module_count() + self.module_extra.len());
            let own = self.own_now(m, name);
            let now = if own > 0 {
                if old.is_none() {
                    self.module_extra.push(name.clone());
                }
                Some(m)
            } else {
                None
            };
            self.modules.insert(name.clone(), now);
            if old.is_some() != now.is_some() {
                keys.all.push(lookup(key::MODULE, 0, name));
                if !base
                    .lookup_files(lookup(key::SCOPE_MODULE, 0, name))
                    .is_empty()
                {
                    // A file's scope (its imports) would change: the full link.
                    return None;
                }
            }
            if let Some(m) = now
                && *lang == Language::Python
            {
                let kept = old.and_then(|m| base.module_file(m));
                let kept_now = kept.and_then(|f| self.map.file(f as FileId));
                if kept.is_some() && kept_now.is_none() && own as usize > adds.len() {
                    // Its defining file went, and another of the store's files is it.
                    return None;
                }
                let file = kept_now
                    .into_iter()
                    .chain(adds.iter().copied())
                    .max()
                    .map(|f| f as usize);
                self.module_files.insert(m, file);
                if old.is_some() && file != kept_now.map(|f| f as usize) {
                    keys.all.push(lookup(key::MODULE_FILE, 0, name));
                }
            }
        }
        // Qualified names.
        let touched: Vec<String> = self.touched_q.iter().cloned().collect();
        for q in &touched {
            let old = base.qname_id(q);
            let now = self.qname_id(q);
            if old.map(|b| self.map.sym(b)) != now.map(Some) {
                keys.all.push(lookup(key::QNAME, 0, q));
                keys.types.extend(old);
                keys.types.extend(now.and_then(|n| self.map.base_sym(n)));
            }
        }
        // Types' methods.
        for (owner, name) in &methods {
            let olds = base.qname_id(owner);
            let news = self.qname_id(owner).and_then(|n| self.map.base_sym(n));
            for t in olds.into_iter().chain(news) {
                let Some(tn) = self.map.sym(t) else {
                    continue;
                };
                let old = base.method(t, name).map(|m| self.map.sym(m));
                let now = self.method(tn, name);
                if old != now.map(Some) {
                    keys.all.push(lookup(key::METHOD, t, name));
                    keys.types.insert(t);
                }
            }
        }
        // Methods by name.
        let named: Vec<(Language, String)> = self.named.keys().cloned().collect();
        for (family, name) in named {
            let old = base
                .named_methods(family, &name)
                .map(|v| v.into_iter().map(|b| self.map.sym(b)).collect::<Vec<_>>());
            let now = self
                .named_methods(family, &name)
                .map(|v| v.into_iter().map(Some).collect::<Vec<_>>());
            if old != now {
                keys.all.push(lookup(key::NAMED, family as u32, &name));
            }
        }
        // Go package names.
        for (p, dirs) in &go_dirs {
            let old = base.go_name(p);
            let now = self.go_name_now(p, dirs).ok()?;
            if old != now {
                keys.all.push(lookup(key::GO_NAME, 0, p));
                keys.go_names.insert(p.clone());
            }
        }
        Some(keys)
    }

    /// The keys of what the resolved files declare (their methods' owners, their types'
    /// bases) whose answers differ from the store's.
    fn declared_keys(
        &mut self,
        base: &LinkTables<'_, '_>,
        resolved: &BTreeSet<FileId>,
    ) -> Option<Vec<u64>> {
        let mut out = Vec::new();
        for &f in resolved {
            let b = self.map.base_file(f)?;
            let r = base.file(b as usize);
            for bid in r.first..r.first + r.count {
                let id = self.map.sym(bid)?;
                let s = base.sym(bid);
                let old_owner = s.owner.map(|o| self.map.sym(o));
                let now_owner = self.owners.get(&id).copied().flatten();
                if old_owner != now_owner.map(Some) {
                    out.push(lookup(key::OWNER, bid, ""));
                }
                if s.kind.is_type() {
                    let old: Vec<Option<SymbolId>> =
                        s.bases.iter().map(|&x| self.map.sym(x)).collect();
                    let now: Vec<Option<SymbolId>> =
                        self.bases(id).iter().map(|&x| Some(x)).collect();
                    if old != now {
                        out.push(lookup(key::BASES, bid, ""));
                    }
                }
            }
        }
        Some(out)
    }

    /// Go's implements edges of every type whose method set may have changed, and the
    /// store's types whose outgoing (concrete) or incoming (interface) implements edges
    /// they replace.
    #[allow(clippy::type_complexity)]
    fn go_implements(
        &self,
        base: &LinkTables<'_, '_>,
        keys: &Keys,
        ranges: &[(FileId, SymbolId, SymbolId)],
    ) -> Option<(Vec<Edge>, Vec<SymbolId>, Vec<SymbolId>)> {
        let is_go_type = |id: SymbolId| {
            self.lang(self.file_of(id)) == Language::Go
                && matches!(self.kind(id), Kind::Struct | Kind::Type | Kind::Interface)
        };
        // The types whose method set may differ: those of the resolved and added files,
        // those whose methods or name changed, and every type embedding one of them.
        let mut dirty: BTreeSet<SymbolId> = BTreeSet::new();
        let mut work: Vec<SymbolId> = Vec::new();
        for &(_, a, b) in ranges {
            work.extend((a..b).filter(|&id| is_go_type(id)));
        }
        for &t in &keys.types {
            if let Some(n) = self.map.sym(t)
                && is_go_type(n)
            {
                work.push(n);
            }
        }
        while let Some(t) = work.pop() {
            if !dirty.insert(t) {
                continue;
            }
            if let Some(b) = self.map.base_sym(t) {
                for &d in &base.sym(b).derived {
                    if let Some(n) = self.map.sym(d)
                        && !self.bases.contains_key(&n)
                        && is_go_type(n)
                    {
                        work.push(n);
                    }
                }
            }
            for (&y, bs) in &self.bases {
                if bs.get().is_some_and(|v| v.contains(&t)) && is_go_type(y) {
                    work.push(y);
                }
            }
        }
        let mut sets: BTreeMap<SymbolId, HashSet<String>> = BTreeMap::new();
        for &t in &dirty {
            let set = link::method_set(
                t,
                |c, out| {
                    out.extend(self.methods_now(c).into_iter().map(|(n, _)| n));
                    let (fi, raw) = self.raw(c);
                    link::std_promoted(raw, self.scope(fi), out);
                },
                |c| self.bases(c),
            );
            sets.insert(t, set);
        }
        let names: BTreeSet<&String> = sets.values().flatten().collect();
        let named: HashMap<&str, lazy::GoNamed> = names
            .into_iter()
            .map(|n| (n.as_str(), base.go_named(n)))
            .collect();
        let prefix_of = |t: SymbolId| self.scope(self.file_of(t)).prefix().to_string();
        let unexported = |set: &HashSet<String>| {
            set.iter()
                .any(|m| m.chars().next().is_some_and(char::is_lowercase))
        };
        let mut pairs: BTreeSet<(SymbolId, SymbolId)> = BTreeSet::new();
        for (&t, tset) in &sets {
            if self.kind(t) == Kind::Interface || tset.is_empty() {
                continue;
            }
            let tp = prefix_of(t);
            // The store's interfaces whose method set is unchanged.
            let mut hits: HashMap<SymbolId, (u32, u32, u32, bool)> = HashMap::new();
            for name in tset {
                for &(i, module, size, unexp) in &named[name.as_str()].interfaces {
                    let Some(n) = self.map.sym(i) else { continue };
                    if !dirty.contains(&n) {
                        hits.entry(n).or_insert((0, module, size, unexp)).0 += 1;
                    }
                }
            }
            for (i, (count, module, size, unexp)) in hits {
                if count == size && !(unexp && base.module_name(module as usize) != tp) {
                    pairs.insert((t, i));
                }
            }
            // Interfaces whose set may have changed.
            for (&i, iset) in &sets {
                if self.kind(i) != Kind::Interface || iset.is_empty() {
                    continue;
                }
                if unexported(iset) && prefix_of(i) != tp {
                    continue;
                }
                if iset.iter().all(|m| tset.contains(m)) {
                    pairs.insert((t, i));
                }
            }
        }
        for (&i, iset) in &sets {
            if self.kind(i) != Kind::Interface || iset.is_empty() {
                continue;
            }
            let ip = prefix_of(i);
            let unexp = unexported(iset);
            let lists: Vec<&Vec<(u32, u32)>> =
                iset.iter().map(|m| &named[m.as_str()].concrete).collect();
            let Some(rarest) = lists.iter().min_by_key(|l| l.len()) else {
                continue;
            };
            for &(t, module) in rarest.iter() {
                let Some(n) = self.map.sym(t) else { continue };
                if dirty.contains(&n) || (unexp && base.module_name(module as usize) != ip) {
                    continue;
                }
                if lists
                    .iter()
                    .all(|l| l.binary_search_by_key(&t, |e| e.0).is_ok())
                {
                    pairs.insert((n, i));
                }
            }
        }
        let line_of = |t: SymbolId| -> u32 {
            let fi = self.file_of(t);
            if self.facts.contains_key(&(fi as FileId)) || self.added_file(fi).is_some() {
                self.raw(t).1.line
            } else {
                self.map
                    .base_sym(t)
                    .and_then(|b| self.store.base_symbol(b))
                    .map_or(0, |s| s.line)
            }
        };
        let edges = pairs
            .into_iter()
            .map(|(t, i)| Edge {
                from: t,
                to: i,
                kind: EdgeKind::Implements,
                line: line_of(t),
                inferred: false,
            })
            .collect();
        let mut out = Vec::new();
        let mut inc = Vec::new();
        for &t in &dirty {
            if let Some(b) = self.map.base_sym(t) {
                if self.kind(t) == Kind::Interface {
                    inc.push(b);
                } else {
                    out.push(b);
                }
            }
        }
        Some((edges, out, inc))
    }
}

impl Tables for Now<'_> {
    fn lang(&self, fi: usize) -> Language {
        match self.map.base_file(fi as FileId) {
            Some(b) => self.base.lang(b as usize),
            None => self.added_file(fi).map_or(Language::Go, |a| a.language),
        }
    }

    fn scope(&self, fi: usize) -> &FileScope {
        match self.map.base_file(fi as FileId) {
            Some(b) => self.base.scope(b as usize),
            None => self.added_file(fi).map_or(&self.empty_scope, |a| &a.scope),
        }
    }

    fn kind(&self, id: SymbolId) -> Kind {
        match self.map.base_sym(id) {
            Some(b) => self.base.kind(b),
            None => self
                .added_of(id)
                .map_or(Kind::Var, |(a, i)| a.facts.symbols[i].kind),
        }
    }

    fn qname(&self, id: SymbolId) -> &str {
        match self.map.base_sym(id) {
            Some(b) => self.base.qname(b),
            None => self.added_of(id).map_or("", |(a, i)| a.names[i].1.as_str()),
        }
    }

    fn file_of(&self, id: SymbolId) -> usize {
        match self.map.base_sym(id) {
            Some(b) => self
                .map
                .file(self.base.file_of(b) as FileId)
                .map_or(usize::MAX, |f| f as usize),
            None => self.added_of(id).map_or(usize::MAX, |(a, _)| a.id as usize),
        }
    }

    fn raw(&self, id: SymbolId) -> (usize, &RawSymbol) {
        match self.map.base_sym(id) {
            Some(b) => {
                let fi = self.file_of(id);
                if let Some(facts) = self.facts.get(&(fi as FileId)) {
                    let first = self.base.file(self.base.file_of(b)).first;
                    if let Some(raw) = facts.symbols.get((b - first) as usize) {
                        return (fi, raw);
                    }
                }
                (fi, self.base.raw(b).1)
            }
            None => match self.added_of(id) {
                Some((a, i)) => (a.id as usize, &a.facts.symbols[i]),
                None => (usize::MAX, &self.empty_raw),
            },
        }
    }

    fn qname_id(&self, qname: &str) -> Option<SymbolId> {
        if self.touched_q.contains(qname) {
            if let Some(v) = self.q_now.borrow().get(qname) {
                return *v;
            }
            let all = self.all_q(qname);
            // The link also names Rust methods by their path before their `impl` moved
            // them: a store answer outside the symbols' names is one of those.
            if let Some(n) = self.base.qname_id(qname).and_then(|b| self.map.sym(b))
                && !all.contains(&n)
            {
                self.broken.set(true);
            }
            let v = all.first().copied();
            self.q_now.borrow_mut().insert(qname.to_string(), v);
            return v;
        }
        self.base.qname_id(qname).and_then(|b| self.fwd(b))
    }

    fn module(&self, name: &str) -> Option<usize> {
        match self.modules.get(name) {
            Some(m) => *m,
            None => self.base.module(name),
        }
    }

    fn module_name(&self, m: usize) -> &str {
        let n = self.base.module_count();
        if m < n {
            self.base.module_name(m)
        } else {
            self.module_extra.get(m - n).map_or("", String::as_str)
        }
    }

    fn module_file(&self, m: usize) -> Option<usize> {
        if let Some(f) = self.module_files.get(&m) {
            return *f;
        }
        if m >= self.base.module_count() {
            return None;
        }
        let f = self.base.module_file(m)?;
        self.map.file(f as FileId).map(|f| f as usize).or_else(|| {
            self.broken.set(true);
            None
        })
    }

    fn method(&self, t: SymbolId, name: &str) -> Option<SymbolId> {
        if !self.methods_changed(t) {
            let b = self.map.base_sym(t)?;
            return self.base.method(b, name).and_then(|m| self.fwd(m));
        }
        if !self.kind(t).is_type() || self.qname_id(self.qname(t)) != Some(t) {
            return None;
        }
        let q = format!("{}.{name}", self.qname(t));
        self.all_q(&q).into_iter().find(|&m| self.is_method(m))
    }

    fn bases(&self, t: SymbolId) -> &[SymbolId] {
        if self.limit.get().is_some_and(|l| t >= l) {
            return &[];
        }
        if let Some(slot) = self.bases.get(&t) {
            return slot.get().map_or(&[], Vec::as_slice);
        }
        let Some(b) = self.map.base_sym(t) else {
            return &[];
        };
        let base_bases = &self.base.sym(b).bases;
        if base_bases.is_empty() {
            return &[];
        }
        match self.mapped_bases.get(b as usize) {
            Some(slot) => {
                slot.get_or_init(|| base_bases.iter().filter_map(|&x| self.fwd(x)).collect())
            }
            None => &[],
        }
    }

    fn named_methods(&self, family: Language, name: &str) -> Option<Vec<SymbolId>> {
        let Some((removed, added)) = self.named.get(&(family, name.to_string())) else {
            return self
                .base
                .named_methods(family, name)
                .map(|v| v.into_iter().filter_map(|b| self.fwd(b)).collect());
        };
        let (count, ids) = self.base.named_count(family, name);
        let count = (count as usize + added.len()).saturating_sub(removed.len());
        if count == 0 || count > link::MAX_NAME_MATCHES {
            return None;
        }
        let mut out: Vec<SymbolId> = match ids {
            Some(ids) => ids.into_iter().filter_map(|b| self.map.sym(b)).collect(),
            None => self
                .store
                .base_by_lower_name(&name.to_ascii_lowercase())
                .into_iter()
                .filter(|&b| {
                    let s = self.base.sym(b);
                    s.raw.name == name
                        && s.kind == Kind::Method
                        && !s.raw.container.is_empty()
                        && self.base.lang(s.file as usize).family() == family
                })
                .filter_map(|b| self.map.sym(b))
                .collect(),
        };
        out.extend(added.iter().copied());
        out.sort_unstable();
        out.dedup();
        if out.len() != count {
            self.broken.set(true);
            return None;
        }
        Some(out)
    }

    fn owner(&self, id: SymbolId) -> Option<SymbolId> {
        if let Some(o) = self.owners.get(&id) {
            return *o;
        }
        let b = self.map.base_sym(id)?;
        self.base.owner(b).and_then(|o| self.fwd(o))
    }

    fn rust_crates(&self) -> &HashSet<String> {
        &self.rust_crates
    }
}
