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
