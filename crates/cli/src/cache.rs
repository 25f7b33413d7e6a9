//! The exploration cache of spec 004, under `--session DIR`:
//! `DIR/explorations/cache-index.json` lists the entries and each angle's result lives in
//! `DIR/explorations/explore-<angle>.json`, exactly as spec 004 lays them out.
//!
//! Where we go past spec 004 (see `docs/cache.md`):
//! - **Key.** Spec 004 keys by angle alone. A command line asks different questions under
//!   the same angle (`general` by default), so an entry is a hit only when its angle *and*
//!   its normalised query (lowercase, whitespace collapsed, trailing `?.!` dropped) match.
//!   An angle holds up to [`MAX_PER_ANGLE`] questions: the newest in spec 004's
//!   `explore-<angle>.json`, older ones beside it as `explore-<angle>.<key hash>.json`;
//!   the oldest is evicted first.
//! - **Freshness.** Each entry stores the blake3 hash of every file its result cites and
//!   the repository it was made for; a hit re-hashes those files and treats the entry as
//!   stale when any changed or disappeared, so a session directory can live across
//!   sessions and branches.
//! - **Only complete answers are stored** (`stop_reason: answered`): a partial result
//!   should be retried with a bigger budget, and a `not_found` cites no file whose change
//!   could invalidate it.
//! - **Concurrency.** Every change happens under an exclusive lock on
//!   `explorations/.lock` and every file is written to a temporary file in the same
//!   directory and renamed into place, so readers never see half a file and two writers
//!   never lose each other's entries.
//! - **Repair.** A stale entry (its file missing or unreadable) is removed from the index;
//!   a corrupt index is rebuilt from the result files present, which carry what the index
//!   needs in their `_metadata`.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use explore_agent::ExploreResult;
use explore_agent::result::now_timestamp;
use serde::{Deserialize, Serialize};

/// The index file's name.
pub const INDEX_FILE: &str = "cache-index.json";
/// Questions kept per angle (the newest in the spec 004 file); past this, the oldest go.
pub const MAX_PER_ANGLE: usize = 8;
/// The lock file's name.
const LOCK_FILE: &str = ".lock";
/// `_metadata` keys the stored result carries for rebuilding the index; not shown to users.
const META_KEYWORDS: &str = "cache_keywords";
const META_HASHES: &str = "cache_source_hashes";
const META_REPO: &str = "cache_repo";

/// `cache-index.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// Up to [`MAX_PER_ANGLE`] entries per angle, oldest first.
    pub entries: Vec<Entry>,
}

/// One entry of the index: spec 004's fields, then ours.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The focus angle.
    pub angle: String,
    /// The keywords given.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// The result file, relative to `explorations/`.
    pub file: String,
    /// Who wrote it (`explore`).
    #[serde(default)]
    pub created_by: String,
    /// RFC 3339 time of writing.
    #[serde(default)]
    pub created_at: String,
    /// `relevant_files` count.
    #[serde(default)]
    pub file_count: usize,
    /// The question as asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The normalised question the entry is keyed on (with the angle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query_key: Option<String>,
    /// The canonical repository root the result was made for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    /// blake3 of each cited file (repo-relative path to hex hash; `""` for a file that did
    /// not exist when stored).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub source_hashes: BTreeMap<String, String>,
    /// Fields other writers added; kept as they were.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// What a lookup found.
#[derive(Debug)]
pub enum Lookup {
    /// A fresh entry: its result, ready to print.
    Hit(Box<ExploreResult>),
    /// No entry for this angle and question.
    Miss,
    /// There was an entry but it can't be used; it has been removed. The reason is for
    /// `_metadata` and logs.
    Stale(String),
}

/// The cache of one session directory.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

/// Spec 004's file name for an angle's result: the angle's newest question.
pub fn result_file_name(angle: &str) -> String {
    format!("explore-{angle}.json")
}

/// The file of an older question under `angle`, named by its key's hash so that moving
/// it aside never collides with another question's file.
fn older_file_name(angle: &str, key: &str) -> String {
    let hash = blake3::hash(key.as_bytes()).to_hex();
    format!("explore-{angle}.{}.json", &hash[..12])
}

/// True when `file` is where an entry of `angle` for question `key` may live.
fn names_question(file: &str, angle: &str, key: &str) -> bool {
    file == result_file_name(angle) || file == older_file_name(angle, key)
}

/// The cache key of a question: lowercase, whitespace collapsed, trailing `?`, `.`, `!`
/// dropped, so "Where is X defined?" and "where is  x defined" share an entry.
pub fn query_key(query: &str) -> String {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    words
        .join(" ")
        .trim_end_matches(['?', '.', '!', ' '])
        .to_string()
}

/// blake3 of a file's content, `""` when it can't be read.
fn hash_file(path: &Path) -> String {
    match std::fs::read(path) {
        Ok(bytes) => blake3::hash(&bytes).to_hex().to_string(),
        Err(_) => String::new(),
    }
}

impl Cache {
    /// The cache of session directory `session` (created on first write).
    pub fn new(session: &Path) -> Self {
        Cache {
            dir: session.join("explorations"),
        }
    }

    /// `DIR/explorations`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Path of the result file for `angle`.
    pub fn result_path(&self, angle: &str) -> PathBuf {
        self.dir.join(result_file_name(angle))
    }

    /// Looks up `angle` + `query` for the repository at `repo` (canonical). A stale entry
    /// is removed before returning [`Lookup::Stale`]; a corrupt index is rebuilt.
    pub fn lookup(&self, angle: &str, query: &str, repo: &Path) -> Result<Lookup> {
        let index_path = self.dir.join(INDEX_FILE);
        if !index_path.exists() {
            return Ok(Lookup::Miss);
        }
        let index = match read_index(&index_path) {
            Ok(index) => index,
            Err(err) => {
                tracing::warn!("{err:#}; rebuilding the cache index from the result files");
                let _lock = self.lock()?;
                self.repair_index()?
            }
        };
        let key = query_key(query);
        // This question's entry; an entry another spec 004 writer made (no key) stands
        // for the whole angle.
        let Some(entry) = index
            .entries
            .iter()
            .rev()
            .find(|e| e.angle == angle && e.query_key.as_deref() == Some(key.as_str()))
            .or_else(|| {
                index
                    .entries
                    .iter()
                    .rev()
                    .find(|e| e.angle == angle && e.query_key.is_none())
            })
        else {
            return Ok(Lookup::Miss);
        };
        if entry.repo.as_deref().is_some_and(|r| Path::new(r) != repo) {
            return Ok(Lookup::Miss);
        }
        let reason = match self.load_result(&entry.file) {
            Err(reason) => reason,
            Ok(mut result) => {
                let changed: Vec<&String> = entry
                    .source_hashes
                    .iter()
                    .filter(|(path, hash)| hash_file(&repo.join(path)) != **hash)
                    .map(|(path, _)| path)
                    .collect();
                if changed.is_empty() {
                    let meta = &mut result.metadata.extra;
                    for key in [META_KEYWORDS, META_HASHES, META_REPO] {
                        meta.remove(key);
                    }
                    meta.insert("cache".into(), "hit".into());
                    meta.insert(
                        "cache_file".into(),
                        self.dir.join(&entry.file).display().to_string().into(),
                    );
                    return Ok(Lookup::Hit(Box::new(result)));
                }
                let shown: Vec<&str> = changed.iter().take(3).map(|s| s.as_str()).collect();
                format!(
                    "{} changed since the entry was made",
                    shown.join(", ") + if changed.len() > 3 { ", …" } else { "" }
                )
            }
        };
        self.remove(angle, entry.query_key.as_deref())?;
        Ok(Lookup::Stale(reason))
    }

    /// Reads a result file named by the index; `Err` says why it can't be used.
    fn load_result(&self, file: &str) -> std::result::Result<ExploreResult, String> {
        // The index is data: a name with a separator could point outside explorations/.
        if file.contains(['/', '\\']) || file.starts_with('.') {
            return Err(format!("the index names `{file}`, not a result file"));
        }
        let path = self.dir.join(file);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!("{file} is missing"));
            }
            Err(e) => return Err(format!("{file} is unreadable ({e})")),
        };
        serde_json::from_str(&text).map_err(|e| format!("{file} is not a result document ({e})"))
    }

    /// Stores a complete result for `angle` + its query as the angle's newest entry, in
    /// spec 004's file; the question that was there moves aside, the same question asked
    /// before is replaced, and past [`MAX_PER_ANGLE`] the oldest are evicted. `keywords`
    /// are recorded as spec 004 asks. Returns the result file's path.
    pub fn store(
        &self,
        angle: &str,
        keywords: &[String],
        result: &ExploreResult,
        repo: &Path,
    ) -> Result<PathBuf> {
        fs_err::create_dir_all(&self.dir)?;
        let source_hashes: BTreeMap<String, String> = result
            .relevant_files
            .iter()
            .map(|f| (f.path.clone(), hash_file(&repo.join(&f.path))))
            .collect();
        let repo_str = repo.display().to_string();

        let mut stored = result.clone();
        let meta = &mut stored.metadata.extra;
        for key in ["cache", "cache_file", "cache_stale"] {
            meta.remove(key);
        }
        meta.insert(META_KEYWORDS.into(), serde_json::to_value(keywords)?);
        meta.insert(META_HASHES.into(), serde_json::to_value(&source_hashes)?);
        meta.insert(META_REPO.into(), repo_str.clone().into());

        let file = result_file_name(angle);
        let key = query_key(&result.query);
        let entry = Entry {
            angle: angle.to_string(),
            keywords: keywords.to_vec(),
            file: file.clone(),
            created_by: "explore".into(),
            created_at: now_timestamp(),
            file_count: result.relevant_files.len(),
            query: Some(result.query.clone()),
            query_key: Some(key.clone()),
            repo: Some(repo_str),
            source_hashes,
            extra: serde_json::Map::new(),
        };

        let _lock = self.lock()?;
        let mut index = self.read_or_repair()?;
        // The same question (or a keyless spec 004 entry) is replaced; its older file goes.
        let mut gone = Vec::new();
        index.entries.retain(|e| {
            let same = e.angle == angle && e.query_key.as_deref().is_none_or(|k| k == key);
            if same && e.file != file {
                gone.push(e.file.clone());
            }
            !same
        });
        // The angle's newest question so far moves aside to make room in spec 004's file.
        if let Some(prev) = index
            .entries
            .iter_mut()
            .find(|e| e.angle == angle && e.file == file)
        {
            let older = older_file_name(angle, prev.query_key.as_deref().unwrap_or(""));
            match std::fs::rename(self.dir.join(&file), self.dir.join(&older)) {
                Ok(()) => prev.file = older,
                // Its file is gone: the entry goes with it.
                Err(_) => prev.file.clear(),
            }
        }
        index.entries.retain(|e| !e.file.is_empty());
        index.entries.push(entry);
        let mine: Vec<usize> = (0..index.entries.len())
            .filter(|&i| index.entries[i].angle == angle)
            .collect();
        if mine.len() > MAX_PER_ANGLE {
            let evict = &mine[..mine.len() - MAX_PER_ANGLE];
            for &i in evict {
                gone.push(index.entries[i].file.clone());
            }
            let mut i = 0;
            index.entries.retain(|_| {
                i += 1;
                !evict.contains(&(i - 1))
            });
        }
        let path = self.dir.join(&file);
        write_atomic(&path, &serde_json::to_vec_pretty(&stored)?)?;
        self.write_index(&index)?;
        for name in gone {
            // Best effort: a leftover file is not in the index, so it is never read.
            let _ = std::fs::remove_file(self.dir.join(name));
        }
        Ok(path)
    }

    /// Removes the entry of `angle` for question `key` (a stale one); `None` is the
    /// keyless entry another spec 004 writer made.
    fn remove(&self, angle: &str, key: Option<&str>) -> Result<()> {
        let _lock = self.lock()?;
        let mut index = self.read_or_repair()?;
        let before = index.entries.len();
        index
            .entries
            .retain(|e| !(e.angle == angle && e.query_key.as_deref() == key));
        if index.entries.len() != before {
            self.write_index(&index)?;
        }
        Ok(())
    }

    /// The index, rebuilt when missing entries' files or corrupt. Call under the lock.
    fn read_or_repair(&self) -> Result<Index> {
        let path = self.dir.join(INDEX_FILE);
        if !path.exists() {
            return Ok(Index::default());
        }
        match read_index(&path) {
            Ok(index) => Ok(index),
            Err(err) => {
                tracing::warn!("{err:#}; rebuilding the cache index from the result files");
                self.repair_index()
            }
        }
    }

    /// Rebuilds the index from the `explore-*.json` files present and writes it. Call
    /// under the lock.
    pub fn repair_index(&self) -> Result<Index> {
        let mut entries = Vec::new();
        let listing = match std::fs::read_dir(&self.dir) {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Index::default()),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot list `{}`", self.dir.display()));
            }
        };
        let mut names: Vec<String> = listing
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.starts_with("explore-") && n.ends_with(".json"))
            .collect();
        names.sort();
        for name in names {
            let Ok(result) = self.load_result(&name) else {
                continue;
            };
            if !names_question(&name, &result.angle, &query_key(&result.query)) {
                continue;
            }
            let meta = &result.metadata.extra;
            entries.push(Entry {
                angle: result.angle.clone(),
                keywords: meta
                    .get(META_KEYWORDS)
                    .and_then(|v| serde_json::from_value(v.clone()).ok())
                    .unwrap_or_default(),
                file: name,
                created_by: result.metadata.created_by.clone(),
                created_at: result.metadata.timestamp.clone(),
                file_count: result.relevant_files.len(),
                query: Some(result.query.clone()),
                query_key: Some(query_key(&result.query)),
                repo: meta
                    .get(META_REPO)
                    .and_then(|v| v.as_str())
                    .map(str::to_string),
                source_hashes: meta
                    .get(META_HASHES)
                    .and_then(|v| serde_json::from_value(v.clone()).ok())
                    .unwrap_or_default(),
                extra: serde_json::Map::new(),
            });
        }
        // Oldest first, as stored: eviction and lookups rely on the order.
        entries.sort_by(|a, b| a.created_at.cmp(&b.created_at));
        let index = Index { entries };
        self.write_index(&index)?;
        Ok(index)
    }

    fn write_index(&self, index: &Index) -> Result<()> {
        write_atomic(
            &self.dir.join(INDEX_FILE),
            &serde_json::to_vec_pretty(index)?,
        )
    }

    /// Takes the session's exclusive lock; released when the returned file is dropped.
    fn lock(&self) -> Result<File> {
        fs_err::create_dir_all(&self.dir)?;
        let path = self.dir.join(LOCK_FILE);
        let file = open_lock_file(&path)?;
        fs4::FileExt::lock(&file).with_context(|| format!("cannot lock `{}`", path.display()))?;
        Ok(file)
    }
}

/// Opens (creating it, never truncating) a file that exists to be locked.
pub fn open_lock_file(path: &Path) -> Result<File> {
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open the lock file `{}`", path.display()))
}

fn read_index(path: &Path) -> Result<Index> {
    let text = fs_err::read_to_string(path)?;
    serde_json::from_str(&text)
        .with_context(|| format!("the cache index `{}` is corrupt", path.display()))
}

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk and renames it
/// over `path`: readers see the old file or the new one, never a mix.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in `{}`", dir.display()))?;
    tmp.write_all(bytes)?;
    tmp.write_all(b"\n")?;
    tmp.as_file().sync_all()?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use explore_agent::{Location, Metadata, RelevantFile, Role, StopReason, Usage};

    use super::*;

    fn result(query: &str, angle: &str, files: &[&str]) -> ExploreResult {
        ExploreResult {
            version: 1,
            query: query.into(),
            angle: angle.into(),
            answer: "an answer".into(),
            relevant_files: files
                .iter()
                .map(|p| RelevantFile {
                    path: (*p).into(),
                    rationale: "why".into(),
                    role: Role::TypeDefinition,
                    discovery_source: "code".into(),
                    key_symbols: vec![],
                    locations: vec![Location {
                        line: 1,
                        end_line: None,
                        symbol: None,
                        kind: None,
                    }],
                })
                .collect(),
            patterns: vec![],
            dependencies: vec![],
            external_refs: vec![],
            metadata: Metadata {
                created_by: "explore".into(),
                timestamp: "2026-11-21T10:00:00Z".into(),
                cache_key: angle.into(),
                engine: "local".into(),
                model: None,
                search_sources: vec!["code".into()],
                total_files_scanned: 3,
                relevant_file_count: files.len(),
                partial: false,
                stop_reason: StopReason::Answered,
                usage: Usage::default(),
                turns: 1,
                tool_calls: BTreeMap::new(),
                duration_ms: 5,
                extra: serde_json::Map::new(),
            },
        }
    }

    struct Fixture {
        _dirs: (tempfile::TempDir, tempfile::TempDir),
        repo: PathBuf,
        cache: Cache,
    }

    fn fixture() -> Fixture {
        let repo_dir = tempfile::tempdir().unwrap();
        let session = tempfile::tempdir().unwrap();
        let repo = repo_dir.path().canonicalize().unwrap();
        std::fs::write(repo.join("a.go"), "package a\n").unwrap();
        std::fs::write(repo.join("b.go"), "package b\n").unwrap();
        let cache = Cache::new(session.path());
        Fixture {
            _dirs: (repo_dir, session),
            repo,
            cache,
        }
    }

    fn index(cache: &Cache) -> Index {
        read_index(&cache.dir().join(INDEX_FILE)).unwrap()
    }

    #[test]
    fn store_then_hit_with_spec_004_layout() {
        let f = fixture();
        let r = result("Where is A defined?", "general", &["a.go"]);
        let path = f
            .cache
            .store("general", &["a".into()], &r, &f.repo)
            .unwrap();
        assert_eq!(path, f.cache.dir().join("explore-general.json"));
        let idx = index(&f.cache);
        assert_eq!(idx.entries.len(), 1);
        let e = &idx.entries[0];
        assert_eq!(e.angle, "general");
        assert_eq!(e.file, "explore-general.json");
        assert_eq!(e.keywords, vec!["a".to_string()]);
        assert_eq!(e.file_count, 1);
        assert_eq!(e.created_by, "explore");
        assert_eq!(e.query_key.as_deref(), Some("where is a defined"));
        assert_eq!(
            e.source_hashes.get("a.go").map(String::as_str),
            Some(blake3::hash(b"package a\n").to_hex().as_str())
        );

        match f
            .cache
            .lookup("general", "where is  a DEFINED", &f.repo)
            .unwrap()
        {
            Lookup::Hit(hit) => {
                assert_eq!(hit.answer, "an answer");
                assert_eq!(hit.metadata.extra["cache"], "hit");
                assert!(!hit.metadata.extra.contains_key(META_HASHES));
            }
            other => panic!("expected a hit, got {other:?}"),
        }
        assert!(matches!(
            f.cache.lookup("general", "who calls A", &f.repo).unwrap(),
            Lookup::Miss
        ));
        assert!(matches!(
            f.cache
                .lookup("security", "where is a defined", &f.repo)
                .unwrap(),
            Lookup::Miss
        ));
    }

    #[test]
    fn changed_cited_file_makes_the_entry_stale_and_removes_it() {
        let f = fixture();
        let r = result("q", "general", &["a.go", "b.go"]);
        f.cache.store("general", &[], &r, &f.repo).unwrap();
        std::fs::write(f.repo.join("b.go"), "package b\n\nfunc B() {}\n").unwrap();
        match f.cache.lookup("general", "q", &f.repo).unwrap() {
            Lookup::Stale(reason) => assert_eq!(reason, "b.go changed since the entry was made"),
            other => panic!("expected stale, got {other:?}"),
        }
        assert!(index(&f.cache).entries.is_empty());
    }

    #[test]
    fn missing_result_file_is_a_stale_entry_that_gets_removed() {
        let f = fixture();
        f.cache
            .store("general", &[], &result("q", "general", &["a.go"]), &f.repo)
            .unwrap();
        f.cache
            .store("testing", &[], &result("t", "testing", &["b.go"]), &f.repo)
            .unwrap();
        std::fs::remove_file(f.cache.result_path("general")).unwrap();
        match f.cache.lookup("general", "q", &f.repo).unwrap() {
            Lookup::Stale(reason) => assert_eq!(reason, "explore-general.json is missing"),
            other => panic!("expected stale, got {other:?}"),
        }
        let angles: Vec<String> = index(&f.cache)
            .entries
            .into_iter()
            .map(|e| e.angle)
            .collect();
        assert_eq!(angles, vec!["testing".to_string()]);
    }

    #[test]
    fn corrupt_index_is_rebuilt_from_result_files() {
        let f = fixture();
        f.cache
            .store(
                "general",
                &["k".into()],
                &result("q", "general", &["a.go"]),
                &f.repo,
            )
            .unwrap();
        f.cache
            .store("testing", &[], &result("t", "testing", &["b.go"]), &f.repo)
            .unwrap();
        let before = index(&f.cache);
        std::fs::write(f.cache.dir().join(INDEX_FILE), "{\"entries\": [ {oops").unwrap();
        assert!(matches!(
            f.cache.lookup("general", "q", &f.repo).unwrap(),
            Lookup::Hit(_)
        ));
        let after = index(&f.cache);
        assert_eq!(after.entries.len(), 2);
        for (a, b) in before.entries.iter().zip(&after.entries) {
            assert_eq!(a.angle, b.angle);
            assert_eq!(a.keywords, b.keywords);
            assert_eq!(a.source_hashes, b.source_hashes);
            assert_eq!(a.query_key, b.query_key);
            assert_eq!(a.repo, b.repo);
        }
    }

    #[test]
    fn other_repository_is_a_miss() {
        let f = fixture();
        f.cache
            .store("general", &[], &result("q", "general", &["a.go"]), &f.repo)
            .unwrap();
        assert!(matches!(
            f.cache
                .lookup("general", "q", Path::new("/somewhere/else"))
                .unwrap(),
            Lookup::Miss
        ));
    }

    #[test]
    fn index_entry_naming_a_path_outside_is_stale() {
        let f = fixture();
        std::fs::create_dir_all(f.cache.dir()).unwrap();
        std::fs::write(
            f.cache.dir().join(INDEX_FILE),
            r#"{"entries":[{"angle":"general","file":"../../etc/passwd"}]}"#,
        )
        .unwrap();
        match f.cache.lookup("general", "q", &f.repo).unwrap() {
            Lookup::Stale(reason) => {
                assert_eq!(
                    reason,
                    "the index names `../../etc/passwd`, not a result file"
                )
            }
            other => panic!("expected stale, got {other:?}"),
        }
    }

    fn stored_keys(cache: &Cache, angle: &str) -> Vec<String> {
        index(cache)
            .entries
            .into_iter()
            .filter(|e| e.angle == angle)
            .map(|e| e.query_key.unwrap_or_default())
            .collect()
    }

    #[test]
    fn several_questions_share_an_angle_newest_in_the_spec_004_file() {
        let f = fixture();
        let ask = |q: &str, file: &str| {
            f.cache
                .store("general", &[], &result(q, "general", &[file]), &f.repo)
                .unwrap()
        };
        ask("who calls A", "a.go");
        ask("where is B defined", "b.go");
        // A, B, A: the first question is still there.
        match f.cache.lookup("general", "who calls A", &f.repo).unwrap() {
            Lookup::Hit(hit) => assert_eq!(hit.relevant_files[0].path, "a.go"),
            other => panic!("expected a hit, got {other:?}"),
        }
        assert_eq!(
            stored_keys(&f.cache, "general"),
            vec!["who calls a", "where is b defined"]
        );
        // Spec 004's file holds the newest question.
        let newest: ExploreResult =
            serde_json::from_str(&std::fs::read_to_string(f.cache.result_path("general")).unwrap())
                .unwrap();
        assert_eq!(newest.query, "where is B defined");
        // Asking the first again replaces its entry (no duplicate) and makes it newest.
        ask("Who calls A?", "a.go");
        assert_eq!(
            stored_keys(&f.cache, "general"),
            vec!["where is b defined", "who calls a"]
        );
        let files: Vec<String> = std::fs::read_dir(f.cache.dir())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with("explore-"))
            .collect();
        assert_eq!(files.len(), 2, "{files:?}");
    }

    #[test]
    fn the_oldest_question_of_an_angle_is_evicted() {
        let f = fixture();
        for i in 0..MAX_PER_ANGLE + 2 {
            let q = format!("question {i}");
            f.cache
                .store("general", &[], &result(&q, "general", &["a.go"]), &f.repo)
                .unwrap();
        }
        let keys = stored_keys(&f.cache, "general");
        assert_eq!(keys.len(), MAX_PER_ANGLE);
        assert_eq!(keys[0], "question 2");
        assert!(matches!(
            f.cache.lookup("general", "question 0", &f.repo).unwrap(),
            Lookup::Miss
        ));
        assert!(matches!(
            f.cache.lookup("general", "question 5", &f.repo).unwrap(),
            Lookup::Hit(_)
        ));
        let on_disk = std::fs::read_dir(f.cache.dir())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with("explore-"))
            .count();
        assert_eq!(on_disk, MAX_PER_ANGLE);
    }

    #[test]
    fn a_stale_question_leaves_the_angle_s_others() {
        let f = fixture();
        for (q, file) in [("q1", "a.go"), ("q2", "b.go")] {
            f.cache
                .store("general", &[], &result(q, "general", &[file]), &f.repo)
                .unwrap();
        }
        std::fs::write(f.repo.join("a.go"), "package a\n\nfunc A() {}\n").unwrap();
        assert!(matches!(
            f.cache.lookup("general", "q1", &f.repo).unwrap(),
            Lookup::Stale(_)
        ));
        assert_eq!(stored_keys(&f.cache, "general"), vec!["q2"]);
        assert!(matches!(
            f.cache.lookup("general", "q2", &f.repo).unwrap(),
            Lookup::Hit(_)
        ));
    }

    #[test]
    fn a_rebuilt_index_keeps_every_question_of_an_angle() {
        let f = fixture();
        for q in ["q1", "q2", "q3"] {
            f.cache
                .store("general", &[], &result(q, "general", &["a.go"]), &f.repo)
                .unwrap();
        }
        std::fs::write(f.cache.dir().join(INDEX_FILE), "not json").unwrap();
        assert!(matches!(
            f.cache.lookup("general", "q1", &f.repo).unwrap(),
            Lookup::Hit(_)
        ));
        let mut keys = stored_keys(&f.cache, "general");
        keys.sort();
        assert_eq!(keys, vec!["q1", "q2", "q3"]);
    }

    #[test]
    fn concurrent_writers_lose_no_entry() {
        let f = fixture();
        let threads: Vec<_> = (0..16)
            .map(|i| {
                let cache = f.cache.clone();
                let repo = f.repo.clone();
                std::thread::spawn(move || {
                    let angle = format!("angle-{i}");
                    for round in 0..5 {
                        let r = result(&format!("q{i} r{round}"), &angle, &["a.go"]);
                        cache.store(&angle, &[], &r, &repo).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let mut angles: Vec<String> = index(&f.cache)
            .entries
            .into_iter()
            .map(|e| e.angle)
            .collect();
        angles.sort();
        angles.dedup();
        let mut want: Vec<String> = (0..16).map(|i| format!("angle-{i}")).collect();
        want.sort();
        assert_eq!(angles, want);
        for i in 0..16 {
            let text = std::fs::read_to_string(f.cache.result_path(&format!("angle-{i}"))).unwrap();
            let doc: ExploreResult = serde_json::from_str(&text).unwrap();
            assert_eq!(doc.query, format!("q{i} r4"));
        }
    }
}
