//! The spec 004 cache through the binary: hits in every format, corrupt index, stale
//! entries, `--force-refresh`.

use std::path::Path;

use serde_json::{Value, json};

use super::common::{Sandbox, filters, stderr, stdout, tiny_repo};

fn hash(path: &Path) -> String {
    blake3::hash(&std::fs::read(path).unwrap())
        .to_hex()
        .to_string()
}

/// A stored answer for `where is Store defined` in `repo`, as `explore` writes it.
fn stored_result(repo: &Path) -> Value {
    json!({
        "version": 1,
        "query": "where is Store defined",
        "angle": "general",
        "answer": "Store is an interface in store/store.go:4.",
        "relevant_files": [{
            "path": "store/store.go",
            "rationale": "Declares the Store interface (Get)",
            "role": "type_definition",
            "discovery_source": "code",
            "key_symbols": ["Store"],
            "locations": [{"line": 4, "end_line": 6, "symbol": "Store", "kind": "interface"}]
        }],
        "patterns": [], "dependencies": [], "external_refs": [],
        "_metadata": {
            "created_by": "explore", "timestamp": "2026-11-21T10:00:00Z", "cache_key": "general",
            "engine": "local", "model": null, "search_sources": ["code"],
            "total_files_scanned": 2, "relevant_file_count": 1, "partial": false,
            "stop_reason": "answered",
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "budget": 60000},
            "turns": 2, "tool_calls": {"code": 1, "submit": 1}, "duration_ms": 7,
            "cache_keywords": ["store"],
            "cache_source_hashes": {"store/store.go": hash(&repo.join("store/store.go"))},
            "cache_repo": repo.canonicalize().unwrap().display().to_string()
        }
    })
}

fn seed(session: &Path, repo: &Path) {
    let dir = session.join("explorations");
    std::fs::create_dir_all(&dir).unwrap();
    let result = stored_result(repo);
    std::fs::write(
        dir.join("explore-general.json"),
        serde_json::to_string_pretty(&result).unwrap(),
    )
    .unwrap();
    let index = json!({"entries": [{
        "angle": "general", "keywords": ["store"], "file": "explore-general.json",
        "created_by": "explore", "created_at": "2026-11-21T10:00:00Z", "file_count": 1,
        "query": "where is Store defined", "query_key": "where is store defined",
        "repo": result["_metadata"]["cache_repo"],
        "source_hashes": result["_metadata"]["cache_source_hashes"],
    }]});
    std::fs::write(
        dir.join("cache-index.json"),
        serde_json::to_string_pretty(&index).unwrap(),
    )
    .unwrap();
}

fn index(session: &Path) -> Value {
    let text = std::fs::read_to_string(session.join("explorations/cache-index.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn hit_returns_the_stored_answer_in_json() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let session = tempfile::tempdir().unwrap();
    seed(session.path(), repo.path());
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .arg("--session")
        .arg(session.path())
        // Different case, spacing and a question mark: the same normalised question.
        .args(["--json", "Where is  Store defined?"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["_metadata"]["cache"], "hit");
    assert_eq!(
        doc["_metadata"]["cache_file"],
        session
            .path()
            .join("explorations/explore-general.json")
            .display()
            .to_string()
    );
    assert_eq!(doc["relevant_files"][0]["path"], "store/store.go");
    assert_eq!(doc["relevant_files"][0]["locations"][0]["line"], 4);
    // The index-rebuilding fields stay on disk, not in what users see.
    let meta = doc["_metadata"].as_object().unwrap();
    assert!(!meta.contains_key("cache_source_hashes"));
    assert!(!meta.contains_key("cache_repo"));
    assert!(!meta.contains_key("cache_keywords"));
}

#[test]
fn hit_in_human_format() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let session = tempfile::tempdir().unwrap();
    seed(session.path(), repo.path());
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .arg("--session")
        .arg(session.path())
        .args(["--format", "human", "where is Store defined"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::with_settings!({filters => filters()}, {
        insta::assert_snapshot!(stdout(&out));
    });
}

#[test]
fn hit_in_human_format_with_forced_colour_and_no_color_wins() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let session = tempfile::tempdir().unwrap();
    seed(session.path(), repo.path());
    let run = |no_color: bool| {
        let mut cmd = sb.cmd();
        cmd.arg("-C")
            .arg(repo.path())
            .arg("--session")
            .arg(session.path())
            .args(["--format", "human", "where is Store defined"])
            .env("CLICOLOR_FORCE", "1");
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        stdout(&cmd.output().unwrap())
    };
    let coloured = run(false);
    assert!(
        coloured.contains("\x1b[36mstore/store.go:4\x1b[39m: Store (interface, lines 4-6)"),
        "{coloured:?}"
    );
    let plain = run(true);
    assert!(!plain.contains('\x1b'), "{plain:?}");
    assert!(plain.contains("\nstore/store.go:4: Store (interface, lines 4-6)\n"));
}

#[test]
fn hit_in_jsonl_is_a_notice_then_the_final_event() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let session = tempfile::tempdir().unwrap();
    seed(session.path(), repo.path());
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .arg("--session")
        .arg(session.path())
        .args(["--format", "jsonl", "where is Store defined"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["event"], "notice");
    assert_eq!(lines[0]["kind"], "cache_hit");
    assert_eq!(lines[1]["event"], "final");
    assert_eq!(lines[1]["result"]["_metadata"]["cache"], "hit");
}

#[test]
fn corrupt_index_is_rebuilt_and_still_hits() {
    let sb = Sandbox::new();
    let repo = tiny_repo();
    let session = tempfile::tempdir().unwrap();
    seed(session.path(), repo.path());
    let before = index(session.path());
    std::fs::write(
        session.path().join("explorations/cache-index.json"),
        "{\"entries\": [{\"angle\": ",
    )
    .unwrap();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo.path())
        .arg("--session")
        .arg(session.path())
        .args(["--json", "where is Store defined"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["_metadata"]["cache"], "hit");
    assert!(
        stderr(&out).contains("is corrupt"),
        "the rebuild is logged: {}",
        stderr(&out)
    );
    let after = index(session.path());
    let keys = [
        "angle",
        "keywords",
        "file",
        "query_key",
        "repo",
        "source_hashes",
        "file_count",
    ];
    for k in keys {
        assert_eq!(after["entries"][0][k], before["entries"][0][k], "{k}");
    }
}

fn ask(sb: &Sandbox, repo: &Path, session: &Path, extra: &[&str], query: &str) -> (i32, Value) {
    let out = sb
        .cmd()
        .arg("-C")
        .arg(repo)
        .arg("--session")
        .arg(session)
        .args(["--engine", "local", "--json"])
        .args(extra)
        .arg(query)
        .output()
        .unwrap();
    let doc = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(&out), stderr(&out)));
    (out.status.code().unwrap(), doc)
}

/// A copy of the relay fixture's model package, small enough to edit in a test.
fn relay_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = super::common::relay().join("internal/model");
    let dst = dir.path().join("internal/model");
    std::fs::create_dir_all(&dst).unwrap();
    for entry in std::fs::read_dir(&src).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dst.join(entry.file_name())).unwrap();
    }
    std::fs::copy(
        super::common::relay().join("go.mod"),
        dir.path().join("go.mod"),
    )
    .unwrap();
    dir
}

#[test]
fn miss_then_hit_then_stale_after_an_edit_then_force_refresh() {
    let sb = Sandbox::new();
    let repo = relay_copy();
    let session = tempfile::tempdir().unwrap();
    let q = "where is IssueStore defined";

    let (code, first) = ask(&sb, repo.path(), session.path(), &[], q);
    assert_eq!(code, 0);
    assert_eq!(first["_metadata"]["cache"], "miss");
    assert_eq!(
        first["relevant_files"][0]["path"],
        "internal/model/issue.go"
    );
    let idx = index(session.path());
    assert_eq!(idx["entries"].as_array().unwrap().len(), 1);
    let entry = &idx["entries"][0];
    assert_eq!(entry["angle"], "general");
    assert_eq!(entry["file"], "explore-general.json");
    assert_eq!(entry["file_count"], 1);
    assert_eq!(
        entry["source_hashes"]["internal/model/issue.go"],
        hash(&repo.path().join("internal/model/issue.go"))
    );
    assert!(
        session
            .path()
            .join("explorations/explore-general.json")
            .is_file()
    );

    let (code, second) = ask(&sb, repo.path(), session.path(), &[], q);
    assert_eq!(code, 0);
    assert_eq!(second["_metadata"]["cache"], "hit");
    assert_eq!(second["relevant_files"], first["relevant_files"]);
    assert_eq!(
        second["_metadata"]["timestamp"],
        first["_metadata"]["timestamp"]
    );

    // An edit to a cited file: stale, explored again, and the new answer sees the edit.
    let issue = repo.path().join("internal/model/issue.go");
    let text = std::fs::read_to_string(&issue).unwrap();
    std::fs::write(&issue, format!("// a new first line\n{text}")).unwrap();
    let (code, third) = ask(&sb, repo.path(), session.path(), &[], q);
    assert_eq!(code, 0);
    assert_eq!(third["_metadata"]["cache"], "stale");
    assert_eq!(
        third["_metadata"]["cache_stale"],
        "internal/model/issue.go changed since the entry was made"
    );
    assert_eq!(third["relevant_files"][0]["locations"][0]["line"], 156);

    let (code, fourth) = ask(&sb, repo.path(), session.path(), &["--force-refresh"], q);
    assert_eq!(code, 0);
    assert_eq!(fourth["_metadata"]["cache"], "refresh");
    assert_eq!(
        index(session.path())["entries"].as_array().unwrap().len(),
        1
    );
}

#[test]
fn missing_result_file_is_repaired() {
    let sb = Sandbox::new();
    let repo = relay_copy();
    let session = tempfile::tempdir().unwrap();
    let q = "where is IssueStore defined";
    ask(&sb, repo.path(), session.path(), &[], q);
    std::fs::remove_file(session.path().join("explorations/explore-general.json")).unwrap();
    let (code, doc) = ask(&sb, repo.path(), session.path(), &[], q);
    assert_eq!(code, 0);
    assert_eq!(doc["_metadata"]["cache"], "stale");
    assert_eq!(
        doc["_metadata"]["cache_stale"],
        "explore-general.json is missing"
    );
    assert!(
        session
            .path()
            .join("explorations/explore-general.json")
            .is_file()
    );
    assert_eq!(
        index(session.path())["entries"].as_array().unwrap().len(),
        1
    );
}

#[test]
fn not_found_is_not_cached() {
    let sb = Sandbox::new();
    let repo = relay_copy();
    let session = tempfile::tempdir().unwrap();
    let (code, doc) = ask(
        &sb,
        repo.path(),
        session.path(),
        &[],
        "how does the flux capacitor reticulate splines",
    );
    assert_eq!(code, 1);
    assert_eq!(doc["_metadata"]["cache"], "miss");
    assert!(
        !session
            .path()
            .join("explorations/cache-index.json")
            .exists()
    );
}

#[test]
fn concurrent_processes_lose_no_entry() {
    let sb = Sandbox::new();
    let repo = relay_copy();
    let session = tempfile::tempdir().unwrap();
    let questions = [
        ("types", "where is IssueStore defined"),
        ("ctor", "where is NewIssue defined"),
        ("status", "where is Status defined"),
        ("issue", "where is Issue defined"),
        ("store-2", "where is IssueStore defined"),
        ("ctor-2", "where is NewIssue defined"),
    ];
    let children: Vec<_> = questions
        .iter()
        .map(|(angle, q)| {
            let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("explore"));
            let template = sb.cmd();
            for (k, v) in template.get_envs() {
                match v {
                    Some(v) => cmd.env(k, v),
                    None => cmd.env_remove(k),
                };
            }
            cmd.arg("-C")
                .arg(repo.path())
                .arg("--session")
                .arg(session.path())
                .args(["--engine", "local", "--json", "--angle", angle, q])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let idx = index(session.path());
    let mut angles: Vec<&str> = idx["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["angle"].as_str().unwrap())
        .collect();
    angles.sort();
    let mut want: Vec<&str> = questions.iter().map(|(a, _)| *a).collect();
    want.sort();
    assert_eq!(angles, want);
    for (angle, q) in questions {
        let text = std::fs::read_to_string(
            session
                .path()
                .join(format!("explorations/explore-{angle}.json")),
        )
        .unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["query"], q);
        assert_eq!(doc["angle"], angle);
    }
    // No temporary file left behind.
    let leftovers: Vec<String> = std::fs::read_dir(session.path().join("explorations"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert_eq!(leftovers, Vec::<String>::new());
}

#[test]
fn unusable_cache_never_stops_an_exploration() {
    let sb = Sandbox::new();
    let repo = relay_copy();
    let session = tempfile::tempdir().unwrap();
    // `explorations` is a file: nothing can be read or written there.
    std::fs::write(session.path().join("explorations"), "not a directory").unwrap();
    let (code, doc) = ask(
        &sb,
        repo.path(),
        session.path(),
        &[],
        "where is IssueStore defined",
    );
    assert_eq!(code, 0);
    assert_eq!(doc["relevant_files"][0]["path"], "internal/model/issue.go");
    assert_eq!(doc["_metadata"]["cache"], "miss");
    assert!(doc["_metadata"].get("cache_file").is_none());
}

/// The first `code` query on a repository never indexed answers from a partial graph and
/// leaves the full index to a detached `explore index --background`, so the next query is
/// warm even though the first process exited at once.
#[test]
fn a_first_query_leaves_a_background_build_that_writes_the_cache() {
    let sb = super::common::Sandbox::new();
    let repo = super::common::tiny_repo();
    let cache = sb.home.path().join("idx-cache");
    let out = sb
        .cmd()
        .env("EXPLORE_CACHE_DIR", &cache)
        .env("EXPLORE_BACKGROUND_INDEX", "1")
        .args(["-q", "-C"])
        .arg(repo.path())
        .args(["tool", "code", r#"{"operation":"find","symbol":"Store"}"#])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        super::common::stdout(&out).contains("Store (interface) at store/store.go:4"),
        "{}",
        super::common::stdout(&out)
    );
    // Wait for the detached builder (not a timing assertion: it only bounds the wait).
    let written = |ext: &str| {
        walk_files(&cache)
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == ext))
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !(written("idx") && written("store")) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        written("idx") && written("store"),
        "{:?}",
        walk_files(&cache)
    );
    // With it disabled, no background build ever runs (it would leave its lock file; the
    // in-process build may still finish and write the cache before the process exits).
    let other = super::common::tiny_repo();
    let cache2 = sb.home.path().join("idx-cache-2");
    let out = sb
        .cmd()
        .env("EXPLORE_CACHE_DIR", &cache2)
        .args(["-q", "-C"])
        .arg(other.path())
        .args(["tool", "code", r#"{"operation":"find","symbol":"Store"}"#])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        !walk_files(&cache2)
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "building")),
        "{:?}",
        walk_files(&cache2)
    );
}

/// What the detached process runs: `explore index --background` builds the cache quietly
/// under its lock, and bows out when another build holds it.
#[test]
fn index_background_builds_quietly_under_a_lock() {
    let sb = super::common::Sandbox::new();
    let repo = super::common::tiny_repo();
    let cache = sb.home.path().join("bg-cache");
    let run = || {
        sb.cmd()
            .env("EXPLORE_CACHE_DIR", &cache)
            .args(["-q", "-C"])
            .arg(repo.path())
            .args(["index", "--background"])
            .output()
            .unwrap()
    };
    let out = run();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(super::common::stdout(&out), "");
    let files = walk_files(&cache);
    for ext in ["idx", "store"] {
        assert!(
            files
                .iter()
                .any(|p| p.extension().is_some_and(|e| e == ext)),
            "{ext}: {files:?}"
        );
    }
    // The build's lock file goes with the build.
    assert!(
        !files
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "building")),
        "{files:?}"
    );
    // Another build holds the lock: this one writes nothing and still exits 0.
    let idx = files
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "idx"))
        .unwrap()
        .clone();
    let mut lock = idx.clone().into_os_string();
    lock.push(".building");
    let held = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .unwrap();
    fs4::FileExt::lock(&held).unwrap();
    std::fs::remove_file(&idx).unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(0));
    assert!(!idx.exists(), "a second builder ran despite the lock");
    drop(held);
    let out = run();
    assert_eq!(out.status.code(), Some(0));
    assert!(idx.exists());
}

fn walk_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}
