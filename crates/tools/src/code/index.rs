//! Building, persisting and refreshing the index.
//!
//! The first query on a repository walks it (`.gitignore` respected, `.git` and hidden
//! directories skipped), extracts every Go and Python file in parallel (rayon), links the
//! graph and writes it to the store file (`lazy`), and each file's facts to a cache file
//! outside the repository (the XDG cache dir, or `IndexOptions::cache_dir`, or
//! `EXPLORE_CACHE_DIR`). Later runs
//! stat every file: a file whose size and mtime match its cache entry is not read; one
//! that differs is hashed (blake3), and re-parsed only if its content changed. When
//! nothing changed the stored graph is used as it is; otherwise the graph is re-linked
//! from the cached facts, which is cheap next to parsing. When every re-parsed file still
//! declares what it declared (an edit inside bodies), only those files' calls and uses
//! are resolved again (`link::link_reusing`); the rest of the graph is kept, ids included.
//!
//! The cache file is a magic line, a format version, the extractor's fingerprint, the
//! blake3 of the body and a postcard body; the facts live in a file named by their hash,
//! and the graph only in the store, whose generation the cache file names (it used to
//! carry a second copy: 25 MB of a cold build's 128 MB of writes on the benchmark
//! corpus). Each is written to a temporary file and renamed into place, the facts and the
//! store first, the cache file last, under a lock that writers take in turn, so a crash
//! at any point leaves the old cache file and the facts it names; a store that is not the
//! one it names is not read for the old graph (`docs/cache.md`). A cache that cannot be read (corrupt, truncated,
//! another format version) is rebuilt with a one-line warning, never an error.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Instant, UNIX_EPOCH};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::atomic::write_atomic;
use super::crash;
use super::extract::{self, FileFacts};
use super::lazy::{self, Shape, Watched};
use super::link::{self, GraphData, Input};
use super::model::{EdgeKind, Language};
use super::progress::Build;
use super::store::CodeGraph;
use crate::secrets;

/// Files larger than this are skipped: generated tables, minified bundles, data.
pub const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;
/// Bumped whenever the cache layout or the extraction changes meaning.
pub const FORMAT_VERSION: u32 = 12;
const MAGIC: &[u8] = b"explore code index\n";

/// What the cached facts depend on besides the files: the format, the queries, the path
/// tables the test, vendored and generated flags come from, the crate version, and a hash
/// of the extraction and link code (`build.rs`). A cache written by another build of the
/// extractor, or under other path conventions, is rebuilt.
pub(super) fn fingerprint() -> [u8; 16] {
    let mut h = blake3::Hasher::new();
    h.update(&FORMAT_VERSION.to_le_bytes());
    h.update(crate::paths::index_tables().as_bytes());
    for q in extract::QUERIES {
        h.update(q.as_bytes());
    }
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(env!("EXPLORE_EXTRACTOR_HASH").as_bytes());
    let mut out = [0u8; 16];
    out.copy_from_slice(&h.finalize().as_bytes()[..16]);
    out
}

/// Where the cache file for `root` lives: `<base>/code/<dir name>-<hash of the path>.idx`.
pub fn cache_path(root: &Path, cache_dir: Option<&Path>) -> Option<PathBuf> {
    let base = match cache_dir {
        Some(d) => d.to_path_buf(),
        None => match std::env::var_os("EXPLORE_CACHE_DIR") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => directories::ProjectDirs::from("", "", "explore")?
                .cache_dir()
                .to_path_buf(),
        },
    };
    let hash = blake3::hash(root.to_string_lossy().as_bytes()).to_hex();
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Some(
        base.join("code")
            .join(format!("{name}-{}.idx", &hash[..16])),
    )
}

/// What one build or refresh did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct IndexStats {
    /// Files in the graph.
    pub files: usize,
    /// Lines in those files.
    pub lines: u64,
    /// Symbols in the graph.
    pub symbols: usize,
    /// Edges by kind (`calls`, `implements`, `contains`, `uses`).
    pub edges: BTreeMap<String, usize>,
    /// Go and Python files left out, by reason.
    pub skipped: BTreeMap<String, usize>,
    /// Files parsed in this run.
    pub parsed: usize,
    /// Files whose mtime changed but whose content did not (hashed, not parsed).
    pub rehashed: usize,
    /// Files taken from the cache without reading them.
    pub reused: usize,
    /// Files indexed despite syntax errors (what parsed was kept).
    pub with_syntax_errors: usize,
    /// The cached graph was used as it was (nothing changed, no re-link).
    pub from_cache: bool,
    /// Files whose calls and uses were resolved again by this run's link (all of them on
    /// a first build; only the edited ones after an edit that changed no declaration).
    pub relinked: usize,
    /// Wall-clock seconds for the whole refresh.
    pub seconds: f64,
    /// The cache file, when there is one.
    pub cache_path: Option<PathBuf>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct CachedFile {
    path: String,
    language: Language,
    size: u64,
    mtime_ns: u64,
    hash: [u8; 32],
    facts: FileFacts,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct SkippedFile {
    path: String,
    size: u64,
    mtime_ns: u64,
    reason: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct CacheFile {
    root: String,
    /// blake3 of the facts file's body: the per-file facts live in a second file
    /// (`<cache>.facts`), read only when a file changed and the graph must be re-linked.
    facts_hash: [u8; 32],
    files: Vec<CachedFile>,
    skipped: Vec<SkippedFile>,
    go_modules: Vec<(String, String)>,
    /// The generation of the store written with it (`lazy::StoreFile::generation`): the
    /// linked graph is read from that store when a refresh needs the old one, and only
    /// from that store (one written by a refresh that stopped before this file is not it).
    store_generation: Option<[u8; 16]>,
}

/// The outcome of [`refresh`].
pub struct Built {
    /// The graph.
    pub graph: CodeGraph,
    /// What it took.
    pub stats: IndexStats,
}

struct Seen {
    rel: String,
    abs: PathBuf,
    language: Language,
    size: u64,
    mtime_ns: u64,
}

/// What [`process`] decided for one file.
enum Outcome {
    /// Same size and mtime: the old entry (by index) as it is.
    Reused(usize),
    /// Same content under a new size or mtime: the old entry with these stats.
    Rehashed(usize, u64, u64),
    /// Parsed; the index of the old entry when there was one.
    Parsed(CachedFile, Option<usize>),
    /// Left out.
    Skipped(SkippedFile),
}

/// Told every source file's bytes as the index reads them, on the thread that parses the
/// file: `explore index` keeps them to count the content index's terms (explore-agent's
/// `content::Precount`), so that the tree is read once, not once per index. Only the
/// files read are told (a file the store holds unchanged is not read).
pub trait TextSink: Sync {
    /// `bytes` is the whole file at the repository-relative path `rel` (`/`-separated),
    /// binary or not.
    fn read(&self, rel: &str, bytes: &[u8]);

    /// Told the graph a build has just linked, while the cache and the store are written:
    /// `explore index` builds the lexical and content indexes from it there, on the core
    /// the two writes leave idle, instead of after them on one. Only the indexes keyed by
    /// the store must wait for it (its key is known once it is written); building them
    /// needs only the graph. Not called when nothing is written (no cache).
    fn built(&self, _graph: &CodeGraph) {}
}

/// Builds or refreshes the index of the repository at `root` (an absolute, canonical
/// path), using and updating the cache file at `cache` when given.
pub fn refresh(root: &Path, cache: Option<&Path>) -> Built {
    refresh_with(root, cache, None)
}

/// [`refresh`], handing `sink` every source file's bytes as they are read (see
/// [`TextSink`]).
pub fn refresh_with(root: &Path, cache: Option<&Path>, sink: Option<&dyn TextSink>) -> Built {
    let started = Instant::now();
    // Writers take turns: the second reads what the first wrote, and finds little to do.
    let lock = cache.and_then(writers_lock);
    let progress = Build::start();
    let old = cache.and_then(|p| load(p, root));
    let old_facts = old.as_ref().map(|c| c.facts_hash);
    let old_generation = old.as_ref().and_then(|c| c.store_generation);
    let mut stats = IndexStats {
        cache_path: cache.map(Path::to_path_buf),
        ..Default::default()
    };

    let Walked {
        seen,
        go_mods: go_mod_files,
        skipped: mut walk_skipped,
        watched,
    } = cache
        .and_then(|p| walk_from_store(root, p))
        .unwrap_or_else(|| walk(root));
    tracing::debug!(elapsed = ?started.elapsed(), files = seen.len(), "code index: walked");
    let go_modules = read_go_modules(root, &go_mod_files);
    progress.parsing(seen.len());
    // A store without the link's tables (written by an older build, or lost) needs a link
    // even when nothing changed, so that the next refresh in place has them.
    let store = cache.and_then(|p| {
        lazy::StoreFile::open(&lazy::store_path(p), root, fingerprint())
            .ok()
            .filter(|s| s.has_link_tables())
    });
    // The old graph is read from the store the cache file names, and only from it.
    // Kept open for the old graph and the kept files' lookups: the lock keeps writers out.
    let named_store =
        store.filter(|s| old.as_ref().and_then(|c| c.store_generation) == Some(s.generation()));
    let store_named = named_store.is_some();
    // The facts are needed only when something changed, or the graph must be linked again.
    let mut old = old;
    let mut facts_loaded = false;
    if let Some(c) = old.as_mut()
        && (!store_named || !unchanged(c, &seen, &go_modules))
    {
        match cache.and_then(|p| load_facts(&facts_path(p, &c.facts_hash), c)) {
            Some(()) => facts_loaded = true,
            None => old = None,
        }
    }

    let old_skipped_list = old
        .as_mut()
        .map(|c| std::mem::take(&mut c.skipped))
        .unwrap_or_default();
    let old_files: HashMap<&str, usize> = old
        .as_ref()
        .map(|c| {
            c.files
                .iter()
                .enumerate()
                .map(|(i, f)| (f.path.as_str(), i))
                .collect()
        })
        .unwrap_or_default();
    let old_skipped: HashMap<&str, &SkippedFile> = old_skipped_list
        .iter()
        .map(|f| (f.path.as_str(), f))
        .collect();

    let outcomes: Vec<Outcome> = seen
        .par_iter()
        .map(|s| {
            let before = old_files.get(s.rel.as_str()).copied();
            let outcome = process(
                s,
                before.and_then(|i| Some((i, old.as_ref()?.files.get(i)?))),
                old_skipped.get(s.rel.as_str()).copied(),
                sink,
            );
            progress.tick();
            outcome
        })
        .collect();
    tracing::debug!(elapsed = ?started.elapsed(), "code index: files checked");
    if let Some(p) = cache {
        // Only a test's hook acts here; a failure means nothing before the writes.
        let _ = crash::step(p, crash::Step::Link);
    }

    // Whether every file parsed again declares what it declared before: then the calls and
    // uses of the files that did not change are kept (`link::link_reusing`).
    let surfaces_same = outcomes.iter().all(|o| match o {
        Outcome::Parsed(f, Some(i)) => old
            .as_ref()
            .and_then(|c| c.files.get(*i))
            .is_some_and(|before| link::surface(&before.facts) == link::surface(&f.facts)),
        Outcome::Parsed(_, None) | Outcome::Skipped(_) => false,
        Outcome::Reused(_) | Outcome::Rehashed(..) => true,
    });
    let old_count = old.as_ref().map_or(0, |c| c.files.len());
    drop(old_files);
    // The files' facts are moved out of the old cache, not copied.
    let mut before: Vec<Option<CachedFile>> = old
        .as_mut()
        .map(|c| std::mem::take(&mut c.files))
        .unwrap_or_default()
        .into_iter()
        .map(Some)
        .collect();
    let mut take = |i: usize| before.get_mut(i).and_then(Option::take);

    let mut files = Vec::with_capacity(outcomes.len());
    // For each file: kept from the old cache as it was (its edges may be kept too).
    let mut unchanged_files = Vec::with_capacity(outcomes.len());
    let mut skipped = Vec::new();
    let mut changed = false;
    let mut all_known = true;
    for o in outcomes {
        match o {
            Outcome::Reused(i) => {
                let Some(f) = take(i) else {
                    all_known = false;
                    continue;
                };
                stats.reused += 1;
                files.push(f);
                unchanged_files.push(true);
            }
            Outcome::Rehashed(i, size, mtime_ns) => {
                let Some(mut f) = take(i) else {
                    all_known = false;
                    continue;
                };
                stats.rehashed += 1;
                f.size = size;
                f.mtime_ns = mtime_ns;
                files.push(f);
                unchanged_files.push(true);
            }
            Outcome::Parsed(f, i) => {
                stats.parsed += 1;
                changed = true;
                all_known &= i.is_some();
                files.push(f);
                unchanged_files.push(false);
            }
            Outcome::Skipped(s) => {
                if !old_skipped.contains_key(s.path.as_str()) {
                    changed = true;
                }
                skipped.push(s);
            }
        }
    }
    drop(old_skipped);
    let same_set = old
        .as_ref()
        .is_some_and(|c| old_count == files.len() && all_known && c.go_modules == go_modules);
    let mut tables = None;
    // The old graph, from the store written with the cache, only where it is kept: all of
    // it when nothing changed, the edges of the unchanged files when only bodies did.
    let old_graph = match (&old, &named_store) {
        (Some(_), Some(s)) if same_set && (!changed || surfaces_same) => stored_graph(s, &files),
        _ => None,
    };
    if old.is_some() && old_graph.is_none() && !facts_loaded {
        // The store's header named it, but its records are damaged: nothing to link from
        // (the facts were not read), so the index is built again from the files.
        tracing::warn!("the code store cannot be read whole; rebuilding the code index");
        if let Some(p) = cache {
            let _ = std::fs::remove_file(p);
            let _ = std::fs::remove_file(lazy::store_path(p));
        }
        drop(lock);
        return refresh_with(root, cache, sink);
    }
    let graph_data = match (old, old_graph) {
        (Some(_), Some(g)) if !changed => {
            stats.from_cache = true;
            g
        }
        (old, old_graph) => {
            progress.linking();
            let inputs: Vec<Input<'_>> = files
                .iter()
                .map(|f| Input {
                    path: &f.path,
                    language: f.language,
                    facts: &f.facts,
                })
                .collect();
            // Without a usable store the kept files' lookups are lost: link them all.
            let reuse = old_graph
                .and_then(|g| {
                    let reuse = kept_edges(&g, &files, &unchanged_files);
                    drop_in_background(g);
                    reuse
                })
                .unwrap_or_default();
            if let Some(c) = old {
                drop_in_background(c);
            }
            stats.relinked = inputs.len() - reuse.body.iter().filter(|k| k.is_some()).count();
            let (graph, mut linked) = link::link_with_tables(&inputs, &go_modules, reuse);
            if !linked.reused.is_empty() {
                // The kept files' lookups are the store's (for the refresh in place).
                let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
                let same: Vec<(usize, [u8; 32])> =
                    linked.reused.iter().map(|&i| (i, files[i].hash)).collect();
                let earlier = named_store
                    .as_ref()
                    .and_then(|s| s.file_lookups(&paths, &same));
                linked.keep_lookups(earlier);
            }
            tables = Some(linked);
            graph
        }
    };
    drop(named_store);
    tracing::debug!(elapsed = ?started.elapsed(), relinked = stats.relinked, "code index: linked");

    for s in &skipped {
        *stats.skipped.entry(s.reason.clone()).or_default() += 1;
    }
    for (reason, n) in walk_skipped.drain() {
        *stats.skipped.entry(reason).or_default() += n;
    }
    stats.with_syntax_errors = files.iter().filter(|f| f.facts.had_errors).count();
    stats.files = graph_data.files.len();
    stats.lines = graph_data.files.iter().map(|f| u64::from(f.lines)).sum();
    stats.symbols = graph_data.symbols.len();
    for k in EdgeKind::ALL {
        stats.edges.insert(k.as_str().to_string(), 0);
    }
    for e in &graph_data.edges {
        *stats.edges.entry(e.kind.as_str().to_string()).or_default() += 1;
    }

    let write_needed = !stats.from_cache || stats.rehashed > 0;
    progress.saving();
    let graph = CodeGraph::new(graph_data);
    tracing::debug!(elapsed = ?started.elapsed(), "code index: graph built");
    if let Some(p) = cache {
        let summary = lazy::Summary {
            lines: stats.lines,
            with_syntax_errors: stats.with_syntax_errors,
            skipped: stats.skipped.clone(),
            edges: stats.edges.clone(),
        };
        let link = match &tables {
            Some(t) => lazy::LinkSource::Parts(lazy::LinkParts {
                tables: t,
                facts: files.iter().map(|f| &f.facts).collect(),
                states: files
                    .par_iter()
                    .map(|f| lazy::FileState {
                        hash: f.hash,
                        surface: link::surface(&f.facts),
                        had_errors: f.facts.had_errors,
                    })
                    .collect(),
                summary,
            }),
            None => lazy::LinkSource::Old(summary),
        };
        // The facts and the store are independent: written on both cores, each to a
        // temporary file renamed into place. The cache file names both, so it comes last:
        // stopped before it, the old cache file still names the old facts and store.
        let from_cache = stats.from_cache;
        let (facts, (generation, ())) = rayon::join(
            || {
                let at = Instant::now();
                let saved = write_needed.then(|| save_facts(p, &files)).transpose();
                tracing::debug!(elapsed = ?at.elapsed(), "code index: facts written");
                saved
            },
            || {
                rayon::join(
                    || {
                        let at = Instant::now();
                        let generation = save_store(p, root, &graph, &watched, !from_cache, link);
                        tracing::debug!(elapsed = ?at.elapsed(), "code index: store written");
                        generation
                    },
                    || {
                        if let Some(s) = sink {
                            s.built(&graph);
                        }
                    },
                )
            },
        );
        let saved = facts.and_then(|written| {
            let facts_hash = match (written, old_facts) {
                (Some(hash), _) => hash,
                (None, Some(hash)) if generation == old_generation => {
                    // Nothing written: the facts files a stopped refresh left beside the
                    // ones the cache names go now.
                    remove_old_facts(p, &facts_path(p, &hash));
                    return Ok(());
                }
                (None, Some(hash)) => hash,
                (None, None) => return Ok(()),
            };
            save(
                p,
                root,
                &files,
                &skipped,
                &go_modules,
                facts_hash,
                generation,
            )
        });
        if let Err(e) = saved {
            tracing::warn!("could not write the code index cache {}: {e}", p.display());
        }
    }
    // The facts (every call of every file) are not kept: freed on another thread, so
    // that neither the query waiting for this graph nor a process about to exit waits.
    drop_in_background((files, skipped, old_skipped_list, tables));
    stats.seconds = started.elapsed().as_secs_f64();
    tracing::debug!(?stats, "code index ready");
    Built { graph, stats }
}

/// Set by [`exit_after_build`].
static EXIT_AFTER_BUILD: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Tells the index that this process exits once its build is written (`explore index`):
/// the build's scratch (every file's facts, the link's tables, the old cache) is then left
/// for the exit to reclaim instead of freed on a thread. Freeing those millions of small
/// allocations took about 2% of a cold build's CPU, beside the writes and the other
/// indexes; a process that answers queries afterwards must not call this.
pub fn exit_after_build() {
    EXIT_AFTER_BUILD.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Drops `v` on a short-lived thread (inline if none can be started), or not at all in a
/// process about to exit ([`exit_after_build`]).
fn drop_in_background<T: Send + 'static>(v: T) {
    if EXIT_AFTER_BUILD.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(v);
        return;
    }
    let _ = std::thread::Builder::new()
        .name("explore-free".into())
        .spawn(move || drop(v));
}

/// The lock every refresh of the cache file `cache` holds from reading the cache to
/// writing it (`<cache>.lock`, `flock`/`LockFileEx` through fs4), so that two writers never
/// interleave their files. Readers of the store take none: they see whole files, old or
/// new. `None` (with a warning) when it cannot be taken: the refresh goes on unlocked,
/// still safe for readers.
pub(super) fn writers_lock(cache: &Path) -> Option<std::fs::File> {
    let path = cache.with_extension("lock");
    let locked = (|| {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = std::fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        // Called as a path: the inherent `File::lock` needs a newer Rust than the MSRV.
        fs4::FileExt::lock(&file)?;
        Ok::<_, std::io::Error>(file)
    })();
    match locked {
        Ok(f) => Some(f),
        Err(e) => {
            tracing::warn!("cannot lock {}: {e}; refreshing unlocked", path.display());
            None
        }
    }
}

/// Writes the store file of the cache file `cache`, which warm queries answer from, unless
/// the one there was written from this very walk and graph (`changed` is false and its
/// watch list is the same).
///
/// Then the delta file of a refresh in place (`patch`) goes: the store now holds what it
/// held. Stopped before that, the delta names the old store's generation and is ignored.
/// Returns the generation of the store now in place, `None` when none could be written.
fn save_store(
    cache: &Path,
    root: &Path,
    graph: &CodeGraph,
    watched: &[Watched],
    changed: bool,
    link: lazy::LinkSource<'_>,
) -> Option<[u8; 16]> {
    let path = &lazy::store_path(cache);
    let kept = (!changed)
        .then(|| lazy::StoreFile::open(path, root, fingerprint()).ok())
        .flatten()
        .filter(|s| s.walked_same(watched) && s.has_link_tables())
        .map(|s| s.generation());
    let generation = match kept {
        Some(g) => g,
        None => {
            let saved = crash::step(cache, crash::Step::WriteStore)
                .and_then(|()| lazy::save(path, root, fingerprint(), graph, watched, link));
            match saved {
                Ok(g) => g,
                Err(e) => {
                    tracing::warn!("could not write the code store {}: {e}", path.display());
                    return None;
                }
            }
        }
    };
    if crash::step(cache, crash::Step::RemoveDelta).is_err() {
        return Some(generation);
    }
    match std::fs::remove_file(lazy::delta_path(path)) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => tracing::warn!("could not remove the code store delta: {e}"),
    }
    Some(generation)
}

/// Whether every file is as the cache saw it (same set, sizes and mtimes, `go.mod`s).
fn unchanged(c: &CacheFile, seen: &[Seen], go_modules: &[(String, String)]) -> bool {
    if c.go_modules != go_modules || c.files.len() + c.skipped.len() != seen.len() {
        return false;
    }
    let files: HashMap<&str, &CachedFile> = c.files.iter().map(|f| (f.path.as_str(), f)).collect();
    let skipped: HashMap<&str, &SkippedFile> =
        c.skipped.iter().map(|f| (f.path.as_str(), f)).collect();
    seen.iter().all(|s| match files.get(s.rel.as_str()) {
        Some(f) => f.size == s.size && f.mtime_ns == s.mtime_ns && f.language == s.language,
        None => skipped
            .get(s.rel.as_str())
            .is_some_and(|k| k.size == s.size && k.mtime_ns == s.mtime_ns),
    })
}

/// The facts file next to the cache file, named by the hash of its body: a refresh writes
/// its facts beside the old ones, so that a crash before the cache file is renamed into
/// place leaves the old cache file with the facts it names.
fn facts_path(cache: &Path, hash: &[u8; 32]) -> PathBuf {
    let mut name = cache.file_stem().unwrap_or_default().to_os_string();
    name.push(".facts-");
    name.push(&blake3::Hash::from(*hash).to_hex()[..16]);
    cache.with_file_name(name)
}

/// Removes the facts files next to `cache` other than `keep` (those of earlier refreshes,
/// and the `.facts` of older builds). Called under the writers' lock, after the cache file
/// naming `keep` is in place; warm readers never read facts files.
fn remove_old_facts(cache: &Path, keep: &Path) {
    let (Some(dir), Some(stem)) = (cache.parent(), cache.file_stem()) else {
        return;
    };
    let mut prefix = stem.to_os_string();
    prefix.push(".facts");
    let prefix = prefix.to_string_lossy().into_owned();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path != keep && e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Reads the facts file into `c`'s files; `None` (with a warning) when it is missing,
/// corrupt or not the one `c` was written with.
fn load_facts(path: &Path, c: &mut CacheFile) -> Option<()> {
    let bytes = std::fs::read(path).ok();
    let facts = bytes.as_deref().and_then(|b| {
        let body = b.strip_prefix(MAGIC)?;
        (*blake3::hash(body).as_bytes() == c.facts_hash)
            .then(|| postcard::from_bytes::<Vec<FileFacts>>(body).ok())
            .flatten()
    });
    match facts {
        Some(facts) if facts.len() == c.files.len() => {
            for (f, facts) in c.files.iter_mut().zip(facts) {
                f.facts = facts;
            }
            Some(())
        }
        _ => {
            tracing::warn!(
                "the code index facts {} are missing or do not match the index; rebuilding",
                path.display()
            );
            None
        }
    }
}

fn mtime_ns(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Walks the repository: Go and Python files to index, `go.mod` files, and files left out
/// before reading (secrets, too large), counted by reason.
fn walk(root: &Path) -> Walked {
    let mut seen = Vec::new();
    let mut go_mods = Vec::new();
    let mut skipped: HashMap<String, usize> = HashMap::new();
    let mut watched = Vec::new();
    for entry in crate::walk::walker(root).build() {
        let Ok(entry) = entry else {
            *skipped.entry("unreadable".into()).or_default() += 1;
            continue;
        };
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            // What the warm check stats instead of walking again (see `lazy::fresh`).
            match entry.metadata() {
                Ok(meta) => lazy::watch_dir(entry.path(), &rel, &meta, &mut watched),
                Err(_) => watched.push(Watched {
                    path: rel,
                    shape: Shape::Other,
                }),
            }
            continue;
        }
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if rel == "go.mod" || rel.ends_with("/go.mod") {
            watched.push(Watched {
                path: rel.clone(),
                shape: Shape::stat(entry.path()),
            });
            go_mods.push(rel);
            continue;
        }
        let Some(language) = Language::of_path(&rel) else {
            continue;
        };
        if secrets::is_secret_path(entry.path()) {
            // Watched too, so that `walk_from_store` counts it as this walk does.
            watched.push(Watched {
                path: rel,
                shape: Shape::stat(entry.path()),
            });
            *skipped.entry("secret".into()).or_default() += 1;
            continue;
        }
        let Ok(meta) = entry.metadata() else {
            watched.push(Watched {
                path: rel,
                shape: Shape::Other,
            });
            *skipped.entry("unreadable".into()).or_default() += 1;
            continue;
        };
        watched.push(Watched {
            path: rel.clone(),
            shape: Shape::of(&meta),
        });
        if secrets::is_multiply_linked(&meta) {
            *skipped.entry("secret".into()).or_default() += 1;
            continue;
        }
        if meta.len() > MAX_FILE_BYTES {
            *skipped.entry("too large".into()).or_default() += 1;
            continue;
        }
        seen.push(Seen {
            rel,
            abs: entry.path().to_path_buf(),
            language,
            size: meta.len(),
            mtime_ns: mtime_ns(&meta),
        });
    }
    seen.sort_by(|a, b| a.rel.cmp(&b.rel));
    watched.sort_by(|a, b| lazy::walk_order(&a.path, &b.path));
    Walked {
        seen,
        go_mods,
        skipped,
        watched,
    }
}

/// What [`walk`] would find, from the store's watch list instead of a walk, when the only
/// paths that changed since the last walk are source files edited in place: no directory
/// changed (so no file was created, deleted or renamed), no ignore file, no `go.mod`.
/// Walking lists and matches every directory of the repository; this stats the watched
/// paths, as the warm check does. `None` (walk) otherwise, or without a usable store.
fn walk_from_store(root: &Path, cache: &Path) -> Option<Walked> {
    let store = lazy::StoreFile::open(&lazy::store_path(cache), root, fingerprint()).ok()?;
    let entries = store.restat(root).ok()?;
    let mut seen = Vec::new();
    let mut go_mods = Vec::new();
    let mut skipped: HashMap<String, usize> = HashMap::new();
    let mut watched = Vec::with_capacity(entries.len());
    for (w, now) in entries {
        let language = Language::of_path(&w.path);
        let is_go_mod = w.path == "go.mod" || w.path.ends_with("/go.mod");
        if now != w.shape {
            let edited = matches!((w.shape, now), (Shape::File { .. }, Shape::File { .. }));
            if !edited || language.is_none() || is_go_mod {
                return None;
            }
        }
        let path = w.path;
        // The same decisions, in the same order, as `walk`.
        match (now, language) {
            (Shape::Dir { .. }, _) => {}
            _ if is_go_mod => go_mods.push(path.clone()),
            (_, Some(_)) if secrets::is_secret_path(&root.join(&path)) => {
                *skipped.entry("secret".into()).or_default() += 1;
            }
            (Shape::File { linked: true, .. }, Some(_)) => {
                *skipped.entry("secret".into()).or_default() += 1;
            }
            (Shape::File { size, .. }, Some(_)) if size > MAX_FILE_BYTES => {
                *skipped.entry("too large".into()).or_default() += 1;
            }
            (Shape::File { size, mtime_ns, .. }, Some(language)) => seen.push(Seen {
                rel: path.clone(),
                abs: root.join(&path),
                language,
                size,
                mtime_ns,
            }),
            (Shape::Other | Shape::Missing, Some(_)) => {
                *skipped.entry("unreadable".into()).or_default() += 1;
            }
            (_, None) => {}
        }
        watched.push(Watched { path, shape: now });
    }
    seen.sort_by(|a, b| a.rel.cmp(&b.rel));
    Some(Walked {
        seen,
        go_mods,
        skipped,
        watched,
    })
}

/// What [`walk`] found.
struct Walked {
    /// Go and Python files to index, by path.
    seen: Vec<Seen>,
    /// Repo-relative paths of the `go.mod` files.
    go_mods: Vec<String>,
    /// Files left out before reading, counted by reason.
    skipped: HashMap<String, usize>,
    /// The paths whose stats decide whether the next run may skip the walk, by path.
    watched: Vec<Watched>,
}

/// `module` lines of the repository's `go.mod` files, by directory.
pub(super) fn read_go_modules(root: &Path, go_mods: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for rel in go_mods {
        let Ok(text) = std::fs::read_to_string(root.join(rel)) else {
            continue;
        };
        let module = text.lines().find_map(|l| {
            let l = l.trim();
            l.strip_prefix("module")
                .filter(|rest| rest.starts_with([' ', '\t']))
                .map(|rest| rest.trim().trim_matches('"').to_string())
        });
        if let Some(m) = module {
            let dir = rel
                .strip_suffix("go.mod")
                .unwrap_or("")
                .trim_end_matches('/');
            out.push((dir.to_string(), m));
        }
    }
    out.sort();
    out
}

/// Whether one file must be read and parsed again. `old` is its entry in the old cache
/// (index and entry), `old_skip` its entry among the files left out.
fn process(
    s: &Seen,
    old: Option<(usize, &CachedFile)>,
    old_skip: Option<&SkippedFile>,
    sink: Option<&dyn TextSink>,
) -> Outcome {
    if let Some((i, o)) = old
        && o.size == s.size
        && o.mtime_ns == s.mtime_ns
        && o.language == s.language
    {
        return Outcome::Reused(i);
    }
    if let Some(o) = old_skip
        && o.size == s.size
        && o.mtime_ns == s.mtime_ns
    {
        return Outcome::Skipped(o.clone());
    }
    let skip = |reason: &str| {
        Outcome::Skipped(SkippedFile {
            path: s.rel.clone(),
            size: s.size,
            mtime_ns: s.mtime_ns,
            reason: reason.to_string(),
        })
    };
    let Ok(src) = std::fs::read(&s.abs) else {
        return skip("unreadable");
    };
    if let Some(sink) = sink {
        sink.read(&s.rel, &src);
    }
    if memchr::memchr(0, &src[..src.len().min(8192)]).is_some() {
        return skip("binary");
    }
    let hash = *blake3::hash(&src).as_bytes();
    if let Some((i, o)) = old
        && o.hash == hash
        && o.language == s.language
    {
        return Outcome::Rehashed(i, s.size, s.mtime_ns);
    }
    match extract::extract(s.language, &src) {
        Ok(mut facts) => {
            facts.generated = crate::paths::is_generated(&s.rel, &src);
            Outcome::Parsed(
                CachedFile {
                    path: s.rel.clone(),
                    language: s.language,
                    size: s.size,
                    mtime_ns: s.mtime_ns,
                    hash,
                    facts,
                },
                old.map(|(i, _)| i),
            )
        }
        Err(e) => {
            tracing::debug!("skipping {}: {e}", s.rel);
            skip("unparseable")
        }
    }
}

fn load(path: &Path, root: &Path) -> Option<CacheFile> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            tracing::warn!(
                "cannot read the code index cache {}: {e}; rebuilding",
                path.display()
            );
            return None;
        }
    };
    let Some(rest) = bytes.strip_prefix(MAGIC) else {
        tracing::warn!(
            "the code index cache {} is not an index file; rebuilding",
            path.display()
        );
        return None;
    };
    let Some((ver, rest)) = rest.split_at_checked(4) else {
        tracing::warn!(
            "the code index cache {} is truncated; rebuilding",
            path.display()
        );
        return None;
    };
    let version = u32::from_le_bytes([ver[0], ver[1], ver[2], ver[3]]);
    if version != FORMAT_VERSION {
        tracing::warn!(
            "the code index cache {} has format {version}, this build reads {FORMAT_VERSION}; rebuilding",
            path.display()
        );
        return None;
    }
    let Some((print, rest)) = rest.split_at_checked(16) else {
        tracing::warn!(
            "the code index cache {} is truncated; rebuilding",
            path.display()
        );
        return None;
    };
    if print != fingerprint() {
        tracing::info!(
            "the code index cache {} was written by another build of the extractor; rebuilding",
            path.display()
        );
        return None;
    }
    // The body's blake3: a damaged body could still decode, into a wrong graph.
    let body = match rest.split_at_checked(32) {
        Some((hash, body)) if blake3::hash(body).as_bytes() == hash => body,
        _ => {
            tracing::warn!(
                "the code index cache {} is damaged (its checksum does not match); rebuilding",
                path.display()
            );
            return None;
        }
    };
    match postcard::from_bytes::<CacheFile>(body) {
        Ok(c) if c.root == root.to_string_lossy() => Some(c),
        Ok(_) => {
            tracing::warn!(
                "the code index cache {} belongs to another repository; rebuilding",
                path.display()
            );
            None
        }
        Err(e) => {
            tracing::warn!(
                "the code index cache {} is corrupt ({e}); rebuilding",
                path.display()
            );
            None
        }
    }
}

/// Writes the facts file (named by its hash, beside the old one) and returns its hash.
fn save_facts(path: &Path, files: &[CachedFile]) -> std::io::Result<[u8; 32]> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("cache path has no parent"))?;
    std::fs::create_dir_all(dir)?;
    let facts: Vec<&FileFacts> = files.iter().map(|f| &f.facts).collect();
    let facts_body = postcard::to_stdvec(&facts).map_err(std::io::Error::other)?;
    let facts_hash = *blake3::hash(&facts_body).as_bytes();
    crash::step(path, crash::Step::WriteFacts)?;
    write_atomic(&facts_path(path, &facts_hash), &[MAGIC, &facts_body])?;
    Ok(facts_hash)
}

/// Writes the cache file naming the facts file `facts_hash` (already written) and the
/// store of `store_generation`, then removes older facts files: a reader finds either the
/// old cache file with the facts and store it names, or the new one with its own, never
/// a cache file whose facts are half written.
fn save(
    path: &Path,
    root: &Path,
    files: &[CachedFile],
    skipped: &[SkippedFile],
    go_modules: &[(String, String)],
    facts_hash: [u8; 32],
    store_generation: Option<[u8; 16]>,
) -> std::io::Result<()> {
    crash::step(path, crash::Step::WriteIndex)?;
    // The same layout as `CacheFile`, borrowed, with the facts left out.
    #[derive(Serialize)]
    struct Light<'a> {
        root: &'a str,
        facts_hash: [u8; 32],
        files: Vec<LightFile<'a>>,
        skipped: &'a [SkippedFile],
        go_modules: &'a [(String, String)],
        store_generation: Option<[u8; 16]>,
    }
    #[derive(Serialize)]
    struct LightFile<'a> {
        path: &'a str,
        language: Language,
        size: u64,
        mtime_ns: u64,
        hash: [u8; 32],
        facts: &'a FileFacts,
    }
    // The facts' flags stay in the cache file (`with_syntax_errors` counts them when the
    // facts are not read); their lists are in the facts file.
    let flags: Vec<FileFacts> = files
        .iter()
        .map(|f| FileFacts {
            lines: f.facts.lines,
            had_errors: f.facts.had_errors,
            generated: f.facts.generated,
            ..FileFacts::default()
        })
        .collect();
    let root = root.to_string_lossy();
    let light = Light {
        root: &root,
        facts_hash,
        files: files
            .iter()
            .zip(&flags)
            .map(|(f, flags)| LightFile {
                path: &f.path,
                language: f.language,
                size: f.size,
                mtime_ns: f.mtime_ns,
                hash: f.hash,
                facts: flags,
            })
            .collect(),
        skipped,
        go_modules,
        store_generation,
    };
    let body = postcard::to_stdvec(&light).map_err(std::io::Error::other)?;
    write_atomic(
        path,
        &[
            MAGIC,
            &FORMAT_VERSION.to_le_bytes(),
            &fingerprint(),
            blake3::hash(&body).as_bytes(),
            &body,
        ],
    )?;
    crash::step(path, crash::Step::Cleanup)?;
    remove_old_facts(path, &facts_path(path, &facts_hash));
    Ok(())
}

/// The graph of `store` (the one written with the cache file), if its records are whole
/// and line up with `files`; `None` otherwise (the refresh then links every file).
fn stored_graph(store: &lazy::StoreFile, files: &[CachedFile]) -> Option<GraphData> {
    let g = store.graph_data()?;
    let aligned =
        g.files.len() == files.len() && g.files.iter().zip(files).all(|(o, f)| o.path == f.path);
    aligned.then_some(g)
}

/// What [`link::link_reusing`] may keep when every surface is as it was: the calls and
/// uses edges of the files kept as they were (`unchanged[i]`), and the contains and
/// implements edges, from the old graph. `None` when the old graph does not line
/// up with `files` (then everything is linked again).
fn kept_edges(old: &GraphData, files: &[CachedFile], unchanged: &[bool]) -> Option<link::Reuse> {
    if old.files.len() != files.len()
        || unchanged.len() != files.len()
        || old.files.iter().zip(files).any(|(o, f)| o.path != f.path)
    {
        return None;
    }
    let by_file = link::body_edges(old)?;
    Some(link::Reuse {
        body: by_file
            .into_iter()
            .zip(unchanged)
            .map(|(edges, &same)| same.then_some(edges))
            .collect(),
        declared: Some(link::declared_edges(old)),
    })
}

#[cfg(test)]
mod fingerprint_tests {
    /// The build script hashed the extraction code (16 hex digits), so a cache written by
    /// other extraction code gets another fingerprint.
    #[test]
    fn the_extractor_hash_is_part_of_the_fingerprint() {
        let hash = env!("EXPLORE_EXTRACTOR_HASH");
        assert_eq!(hash.len(), 16);
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(hash, "cbf29ce484222325", "the build script read no source");
    }
}

#[cfg(test)]
mod sink_tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Texts(Mutex<Vec<(String, Vec<u8>)>>);

    impl TextSink for Texts {
        fn read(&self, rel: &str, bytes: &[u8]) {
            self.0
                .lock()
                .unwrap()
                .push((rel.to_string(), bytes.to_vec()));
        }
    }

    /// Each file read is handed over once, whole; a file the store keeps is not read.
    #[test]
    fn the_sink_is_handed_every_file_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        let cache = dir.path().join("cache").join("index");
        std::fs::create_dir_all(root.join("pkg")).unwrap();
        std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
        let files = [
            ("pkg/a.go", "package pkg\n\nfunc A() {}\n"),
            ("b.py", "def b():\n    pass\n"),
            ("bin.py", "x = 1\0\n"),
        ];
        for (rel, text) in files {
            std::fs::write(root.join(rel), text).unwrap();
        }
        std::fs::write(root.join("notes.txt"), "not source").unwrap();
        let root = root.canonicalize().unwrap();
        let texts = Texts::default();
        refresh_with(&root, Some(&cache), Some(&texts));
        let mut got = std::mem::take(&mut *texts.0.lock().unwrap());
        got.sort();
        let mut want: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|(r, t)| (r.to_string(), t.as_bytes().to_vec()))
            .collect();
        want.sort();
        assert_eq!(got, want);
        // Warm: nothing read.
        refresh_with(&root, Some(&cache), Some(&texts));
        assert!(texts.0.lock().unwrap().is_empty());
    }
}
