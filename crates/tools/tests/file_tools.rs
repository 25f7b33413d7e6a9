//! `tree` and `read` through the registry, as the model calls them: spec 000's attack and
//! edge cases, plus the symlink escapes and loops spec 000 left open.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use explore_tools::{ErrorKind, Registry, RegistryOptions, RepoRoot, ToolError};
use serde_json::json;

struct Fixture {
    _dir: tempfile::TempDir,
    outside: std::path::PathBuf,
    reg: Registry,
}

fn write(p: &Path, s: &str) {
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, s).unwrap();
}

/// A small repo beside a sibling `repo-evil` holding a sentinel that must never be shown.
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let outside = dir.path().join("repo-evil");
    write(&outside.join("sentinel.txt"), "SENTINEL-OUTSIDE\n");
    write(
        &repo.join("cmd/server/main.go"),
        "package main\n\nfunc main() {}\n",
    );
    write(&repo.join("cmd/worker/main.go"), "package main\n");
    write(&repo.join("internal/brain/planner.go"), "package brain\n");
    write(&repo.join("internal/model/issue.go"), "package model\n");
    write(&repo.join("internal/store/issue.go"), "package store\n");
    write(&repo.join("go.mod"), "module example.com/x\n");
    write(&repo.join("node_modules/left-pad/index.js"), "x");
    write(&repo.join("vendor/github.com/a/b.go"), "x");
    write(&repo.join(".git/config"), "[core]\n");
    write(&repo.join("__pycache__/a.pyc"), "x");
    write(&repo.join("target/debug/x"), "x");
    write(&repo.join(".gitignore"), "*.log\n/ignored_dir/\n");
    write(&repo.join("server.log"), "noise");
    write(&repo.join("ignored_dir/x.go"), "x");
    write(&repo.join("docs/my notes.md"), "spaces\n");
    write(&repo.join("docs/spé[c]ial&chars.md"), "special\n");
    write(&repo.join("a/b/c/d/e/deep.go"), "package e\n");
    fs::create_dir_all(repo.join("empty")).unwrap();
    write(&repo.join(".env"), "API_TOKEN=never-show-me\n");
    write(&repo.join(".env.example"), "API_TOKEN=\n");
    let reg = Registry::new(RepoRoot::new(&repo).unwrap(), RegistryOptions::default());
    Fixture {
        _dir: dir,
        outside,
        reg,
    }
}

fn tree(f: &Fixture, args: serde_json::Value) -> Result<String, ToolError> {
    f.reg.call("tree", &args).map(|o| o.text)
}

fn read(f: &Fixture, args: serde_json::Value) -> Result<String, ToolError> {
    f.reg.call("read", &args).map(|o| o.text)
}

// --- spec 000 security cases ---

#[test]
fn tree_rejects_absolute_path() {
    let f = fixture();
    let e = tree(&f, json!({"path": "/etc"})).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Refused);
    assert!(e.to_string().contains("is absolute"), "{e}");
}

#[test]
fn tree_rejects_traversal() {
    let f = fixture();
    for p in ["../../../etc", "..", "src/../../..", "cmd/../../repo-evil"] {
        let e = tree(&f, json!({ "path": p })).unwrap_err();
        assert!(e.to_string().contains("uses `..` to leave"), "{p}: {e}");
    }
}

#[test]
fn tree_rejects_sibling_prefix_escape() {
    let f = fixture();
    let e = tree(&f, json!({"path": "../repo-evil"})).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Refused, "{e}");
    let abs = f.outside.to_string_lossy().to_string();
    let e = tree(&f, json!({ "path": abs })).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Refused, "{e}");
}

#[test]
fn tree_rejects_home_and_nul() {
    let f = fixture();
    assert!(
        tree(&f, json!({"path": "~"}))
            .unwrap_err()
            .to_string()
            .contains("`~`")
    );
    assert!(
        tree(&f, json!({"path": "cmd\u{0}"}))
            .unwrap_err()
            .to_string()
            .contains("NUL")
    );
}

#[test]
fn symlink_escape_is_refused_and_not_followed() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    symlink(&f.outside, root.join("escape")).unwrap();
    symlink(
        f.outside.join("sentinel.txt"),
        root.join("looks_innocent.txt"),
    )
    .unwrap();
    let e = tree(&f, json!({"path": "escape"})).unwrap_err();
    assert!(e.to_string().contains("outside the repository"), "{e}");
    let e = read(&f, json!({"file": "looks_innocent.txt"})).unwrap_err();
    assert!(e.to_string().contains("outside the repository"), "{e}");
    let e = read(&f, json!({"file": "escape/sentinel.txt"})).unwrap_err();
    assert!(!e.to_string().contains("SENTINEL"));
    // The listing shows the link but never its contents or its target outside.
    let out = tree(&f, json!({"depth": 1})).unwrap();
    assert!(out.contains("escape -> (outside the repository)"), "{out}");
    assert!(!out.contains("sentinel"), "{out}");
    assert!(
        !out.contains(&f.outside.to_string_lossy().to_string()),
        "{out}"
    );
}

#[test]
fn symlink_loops_are_refused_and_listing_terminates() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    symlink("loop_b", root.join("loop_a")).unwrap();
    symlink("loop_a", root.join("loop_b")).unwrap();
    symlink(".", root.join("internal/self")).unwrap();
    let e = tree(&f, json!({"path": "loop_a"})).unwrap_err();
    assert!(e.to_string().contains("symlink loop"), "{e}");
    let out = tree(&f, json!({"depth": 4})).unwrap();
    assert!(out.contains("loop_a -> (broken or looping link)"), "{out}");
    assert!(out.contains("self -> internal/"), "{out}");
    let e = read(&f, json!({"file": "loop_b"})).unwrap_err();
    assert!(e.to_string().contains("symlink loop"), "{e}");
}

// --- spec 000 functionality cases ---

#[test]
fn tree_default_depth_two_dirs_first_with_connectors() {
    let f = fixture();
    let out = tree(&f, json!({})).unwrap();
    let expected_start = "./\n├── a/\n│   └── b/\n├── cmd/\n│   ├── server/\n│   └── worker/\n";
    assert!(out.starts_with(expected_start), "{out}");
    assert!(
        out.contains("├── internal/\n│   ├── brain/\n│   ├── model/\n│   └── store/\n"),
        "{out}"
    );
    assert!(out.ends_with("└── go.mod"), "{out}");
    // Depth 2 shows no files at depth 3.
    assert!(!out.contains("main.go"), "{out}");
}

#[test]
fn tree_path_parameter_lists_a_subdirectory() {
    let f = fixture();
    let out = tree(&f, json!({"path": "cmd"})).unwrap();
    assert_eq!(
        out,
        "cmd/\n├── server/\n│   └── main.go\n└── worker/\n    └── main.go"
    );
}

#[test]
fn tree_excludes_noise_dirs_and_gitignored_files() {
    let f = fixture();
    let out = tree(&f, json!({"depth": 4})).unwrap();
    for gone in [
        "node_modules",
        "vendor",
        ".git/",
        "__pycache__",
        "target",
        "server.log",
        "ignored_dir",
    ] {
        assert!(!out.contains(gone), "{gone} should be excluded:\n{out}");
    }
    // Secret names may be listed; their contents never are.
    assert!(out.contains("── .env\n"), "{out}");
}

#[test]
fn tree_depth_limits() {
    let f = fixture();
    let out = tree(&f, json!({"path": "a", "depth": 4})).unwrap();
    assert_eq!(
        out,
        "a/\n└── b/\n    └── c/\n        └── d/\n            └── e/"
    );
    for bad in [0, 5, 100] {
        let e = tree(&f, json!({"depth": bad})).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArguments);
        assert!(e.to_string().contains("`depth` must be from 1 to 4"), "{e}");
    }
    let e = tree(&f, json!({"depth": -1})).unwrap_err();
    assert!(
        e.to_string().contains("Invalid arguments for `tree`"),
        "{e}"
    );
}

#[test]
fn tree_nonexistent_path() {
    let f = fixture();
    let e = tree(&f, json!({"path": "internal/nope"})).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert!(
        e.to_string()
            .contains("closest existing directory is `internal`"),
        "{e}"
    );
}

#[test]
fn tree_on_a_file_points_to_read() {
    let f = fixture();
    let e = tree(&f, json!({"path": "go.mod"})).unwrap_err();
    assert!(e.to_string().contains(r#"read {"file":"go.mod"}"#), "{e}");
}

#[test]
fn tree_empty_directory() {
    let f = fixture();
    assert_eq!(
        tree(&f, json!({"path": "empty"})).unwrap(),
        "empty/\n(empty directory)"
    );
}

#[test]
fn tree_unknown_field_is_self_correcting() {
    let f = fixture();
    let e = tree(&f, json!({"dir": "cmd"})).unwrap_err();
    let m = e.to_string();
    assert!(m.contains("unknown field `dir`"), "{m}");
    assert!(m.contains("`path?`") && m.contains("Example:"), "{m}");
}

// --- spec 000 edge cases ---

#[test]
fn tree_paths_with_spaces_and_special_characters() {
    let f = fixture();
    let out = tree(&f, json!({"path": "docs"})).unwrap();
    assert_eq!(out, "docs/\n├── my notes.md\n└── spé[c]ial&chars.md");
    assert!(
        read(&f, json!({"file": "docs/my notes.md"}))
            .unwrap()
            .contains("spaces")
    );
}

#[test]
fn tree_deep_nesting_within_limit() {
    let f = fixture();
    let out = tree(&f, json!({"path": "a/b", "depth": 4})).unwrap();
    assert!(out.ends_with("└── deep.go"), "{out}");
}

#[test]
fn tree_caps_entries_with_a_narrowing_hint() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    for i in 0..250 {
        write(&root.join(format!("big/f{i:03}.go")), "x");
    }
    let out = tree(&f, json!({"depth": 2})).unwrap();
    let lines: Vec<_> = out.lines().collect();
    // Header + 200 entries + the note.
    assert_eq!(lines.len(), 202, "{out}");
    let note = lines.last().unwrap();
    assert!(note.starts_with("... truncated: showing 200 of"), "{note}");
    assert!(note.contains(r#"tree {"path":"big"}"#), "{note}");
}

#[test]
fn hostile_file_names_cannot_forge_lines() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    write(&root.join("evil/a\n└── fake.go"), "x");
    write(&root.join("evil/b\u{202e}og.txt"), "x");
    let out = tree(&f, json!({"path": "evil"})).unwrap();
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.contains("a\\n└── fake.go"), "{out}");
    assert!(out.contains("b\\u{202e}og.txt"), "{out}");
}

// --- read ---

/// Trojan Source (bidi overrides and isolates that make a comment look like code), a
/// zero-width space that makes `is\u{200b}Admin` look like `isAdmin`, and terminal
/// escapes, beside ordinary text that must stay exactly as it is: a tab, CJK, emoji
/// (one a family joined by zero-width joiners) and a CRLF line end.
const HOSTILE_TEXT: &str = "\tif (isAdmin) {\u{202e} } \u{2066}// admin only\u{2069} \u{2066}{\nlet is\u{200b}Admin = \"日本語 😀 👨\u{200d}👩\u{200d}👧\";\r\nprint(\"\x1b[2J\x1b]0;pwned\x07\")\n";

const HIDDEN_NOTE: &str = "8 hidden or control characters shown as escapes";
const HIDDEN_KINDS: &str = ": \\u{0007} (control character), \\u{001b} (escape, starts terminal control sequences) ×2, \\u{200b} (invisible), \\u{202e} (bidi control), \\u{2066} (bidi control) ×2, \\u{2069} (bidi control); an editor or terminal would display this text differently]";

#[test]
fn read_escapes_bidi_control_and_invisible_characters_with_a_note() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    write(&root.join("docs/trojan.txt"), HOSTILE_TEXT);
    let out = read(&f, json!({"file": "docs/trojan.txt"})).unwrap();
    assert_eq!(
        out,
        format!(
            "docs/trojan.txt: lines 1-3 of 3\n\
             [note: {HIDDEN_NOTE} (on lines 1, 2 and 3){HIDDEN_KINDS}\n     \
             1\t\tif (isAdmin) {{\\u{{202e}} }} \\u{{2066}}// admin only\\u{{2069}} \\u{{2066}}{{\n     \
             2\tlet is\\u{{200b}}Admin = \"日本語 😀 👨\u{200d}👩\u{200d}👧\";\n     \
             3\tprint(\"\\u{{001b}}[2J\\u{{001b}}]0;pwned\\u{{0007}}\")\n\
             (end of file)"
        )
    );
    // A window without such characters has no note; line numbers are the file's.
    let out = read(&f, json!({"file": "cmd/server/main.go", "start_line": 3})).unwrap();
    assert_eq!(
        out,
        "cmd/server/main.go: lines 3-3 of 3\n     3\tfunc main() {}\n(end of file)"
    );
}

#[test]
fn bash_output_escapes_like_read_with_a_note() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    write(&root.join("docs/trojan.txt"), HOSTILE_TEXT);
    let out = f
        .reg
        .call("bash", &json!({"command": "cat docs/trojan.txt"}))
        .unwrap()
        .text;
    assert_eq!(
        out,
        format!(
            "\tif (isAdmin) {{\\u{{202e}} }} \\u{{2066}}// admin only\\u{{2069}} \\u{{2066}}{{\n\
             let is\\u{{200b}}Admin = \"日本語 😀 👨\u{200d}👩\u{200d}👧\";\r\n\
             print(\"\\u{{001b}}[2J\\u{{001b}}]0;pwned\\u{{0007}}\")\n\
             [note: {HIDDEN_NOTE} (in this output){HIDDEN_KINDS}\n"
        )
    );
}

#[test]
fn read_numbers_lines_and_pages() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    let body: String = (1..=650).map(|i| format!("line {i}\n")).collect();
    write(&root.join("long.txt"), &body);
    let out = read(&f, json!({"file": "long.txt"})).unwrap();
    let lines: Vec<_> = out.lines().collect();
    assert_eq!(lines[0], "long.txt: lines 1-300 of 650");
    assert_eq!(lines[1], "     1\tline 1");
    assert_eq!(lines[300], "   300\tline 300");
    assert_eq!(
        lines[301],
        r#"(350 more lines; next page: read {"file":"long.txt","start_line":301})"#
    );
    let out = read(
        &f,
        json!({"file": "long.txt", "start_line": 601, "num_lines": 100}),
    )
    .unwrap();
    assert!(
        out.starts_with("long.txt: lines 601-650 of 650\n   601\tline 601\n"),
        "{out}"
    );
    assert!(out.ends_with("(end of file)"), "{out}");
    let o = f
        .reg
        .call(
            "read",
            &json!({"file": "long.txt", "start_line": 10, "num_lines": 5}),
        )
        .unwrap();
    assert_eq!(o.findings.len(), 1);
    assert_eq!(
        (o.findings[0].line, o.findings[0].end_line),
        (Some(10), Some(14))
    );
}

#[test]
fn read_argument_errors() {
    let f = fixture();
    let e = read(&f, json!({"file": "go.mod", "num_lines": 301})).unwrap_err();
    assert!(
        e.to_string().contains("`num_lines` must be from 1 to 300"),
        "{e}"
    );
    let e = read(&f, json!({"file": "go.mod", "start_line": 0})).unwrap_err();
    assert!(e.to_string().contains("1-based"), "{e}");
    let e = read(&f, json!({"path": "go.mod"})).unwrap_err();
    assert!(e.to_string().contains("unknown field `path`"), "{e}");
    let e = read(&f, json!({})).unwrap_err();
    assert!(e.to_string().contains("missing field `file`"), "{e}");
}

#[test]
fn read_past_end_empty_dir_missing() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    let e = read(&f, json!({"file": "go.mod", "start_line": 9})).unwrap_err();
    assert!(
        e.to_string()
            .contains("has 1 line; start_line 9 is past the end"),
        "{e}"
    );
    write(&root.join("empty.txt"), "");
    assert_eq!(
        read(&f, json!({"file": "empty.txt"})).unwrap(),
        "`empty.txt` is empty (0 lines)."
    );
    let e = read(&f, json!({"file": "internal"})).unwrap_err();
    assert!(e.to_string().contains("is a directory"), "{e}");
    let e = read(&f, json!({"file": "internal/missing.go"})).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound, "{e}");
}

#[test]
fn read_binary_non_utf8_and_huge_lines() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    fs::write(root.join("blob.bin"), b"\x7fELF\x00\x01\x02").unwrap();
    let e = read(&f, json!({"file": "blob.bin"})).unwrap_err();
    assert!(e.to_string().contains("binary file (7 bytes)"), "{e}");
    fs::write(root.join("latin1.txt"), b"caf\xe9\n").unwrap();
    let out = read(&f, json!({"file": "latin1.txt"})).unwrap();
    assert!(out.contains("not valid UTF-8"), "{out}");
    assert!(out.contains("caf\u{fffd}"), "{out}");
    write(
        &root.join("min.js"),
        &format!("{}\nshort\n", "x".repeat(5000)),
    );
    let out = read(&f, json!({"file": "min.js"})).unwrap();
    assert!(out.contains("… [line cut: 5000 characters]"), "{out}");
    assert!(out.len() < 2200, "{}", out.len());
}

#[test]
fn read_refuses_secrets_and_hard_links() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    let e = read(&f, json!({"file": ".env"})).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Refused);
    assert!(!e.to_string().contains("never-show-me"));
    assert!(read(&f, json!({"file": ".env.example"})).is_ok());
    // A link with an innocent name to a secret is refused by the resolved name.
    symlink(".env", root.join("notes.txt")).unwrap();
    assert!(read(&f, json!({"file": "notes.txt"})).is_err());
    // A hard link is refused whatever its name.
    fs::hard_link(f.outside.join("sentinel.txt"), root.join("hard.txt")).unwrap();
    let e = read(&f, json!({"file": "hard.txt"})).unwrap_err();
    assert!(e.to_string().contains("hard link"), "{e}");
}

/// git's configuration files can hold credentials (a token in a remote URL, the
/// extraheader CI checkouts write, into each submodule's config too): `read` refuses them
/// and points to `git config`, which redacts them.
#[test]
fn read_refuses_git_configuration_files() {
    let f = fixture();
    let root = f.reg.root().path().to_path_buf();
    let token = "AUTHORIZATION: basic c2VjcmV0";
    write(
        &root.join(".git/config"),
        &format!("[http]\n\textraheader = {token}\n"),
    );
    write(
        &root.join(".git/config.worktree"),
        &format!("[http]\n\textraheader = {token}\n"),
    );
    write(
        &root.join(".git/modules/lib/config"),
        &format!("[http]\n\textraheader = {token}\n"),
    );
    write(
        &root.join("vendor/x/.git/config"),
        &format!("[http]\n\textraheader = {token}\n"),
    );
    write(&root.join(".git/HEAD"), "ref: refs/heads/main\n");
    symlink(".git/config", root.join("settings.ini")).unwrap();
    for file in [
        ".git/config",
        ".git/./config",
        ".git/config.worktree",
        ".git/modules/lib/config",
        "vendor/x/.git/config",
        "settings.ini",
    ] {
        let e = read(&f, json!({ "file": file })).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Refused, "{file}: {e}");
        let msg = e.to_string();
        assert!(msg.contains("git config"), "{file}: {msg}");
        assert!(!msg.contains(token), "{file}: {msg}");
    }
    // git's other files are not configuration.
    assert!(
        read(&f, json!({"file": ".git/HEAD"}))
            .unwrap()
            .contains("ref: refs/heads/main")
    );
}

#[test]
fn read_pages_a_spilled_output() {
    let f = fixture();
    let handle = f.reg.spill().put("a\nb\nc\n".to_string());
    let out = read(&f, json!({"file": handle, "start_line": 2, "num_lines": 1})).unwrap();
    assert_eq!(
        out,
        "@out/1: lines 2-2 of 3\n     2\tb\n(1 more line; next page: read {\"file\":\"@out/1\",\"start_line\":3})"
    );
}

#[test]
fn unknown_tool_lists_tools() {
    let f = fixture();
    let e = f.reg.call("grep", &json!({})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Unknown tool `grep`. The tools are: tree, read, bash, code."
    );
}
