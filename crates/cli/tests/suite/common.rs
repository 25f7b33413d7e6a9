//! A sandboxed `explore` command: no API key, no endpoint, no user config, no colour forced,
//! unless a test sets them.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// Environment variables that would leak the developer's setup into a test.
const SCRUBBED: &[&str] = &[
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "EXPLORE_MODEL",
    "EXPLORE_ENGINE",
    "EXPLORE_BUDGET",
    "EXPLORE_MAX_TURNS",
    "EXPLORE_ANGLE",
    "EXPLORE_SESSION",
    "EXPLORE_CONFIG",
    "CLICOLOR_FORCE",
    "CLICOLOR",
    "NO_COLOR",
    "RUST_LOG",
    "EXPLORE_CACHE_DIR",
    "XDG_CACHE_HOME",
    "EXPLORE_STORE",
    "EXPLORE_ARANGO_URL",
    "EXPLORE_ARANGO_USER",
    "EXPLORE_ARANGO_PASSWORD",
    "EXPLORE_ARANGO_DB",
];

/// A temporary home with its own config directory.
pub struct Sandbox {
    pub home: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Sandbox {
            home: tempfile::tempdir().unwrap(),
        }
    }

    /// `$XDG_CONFIG_HOME/explore/config.toml`.
    pub fn user_file(&self) -> PathBuf {
        self.home
            .path()
            .join("config")
            .join("explore")
            .join("config.toml")
    }

    /// Writes the user file.
    pub fn write_user_file(&self, text: &str) {
        let p = self.user_file();
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// `explore` with a clean environment.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("explore").unwrap();
        for var in SCRUBBED {
            cmd.env_remove(var);
        }
        cmd.env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path().join("config"))
            // No detached indexer outliving a test (one test turns it back on).
            .env("EXPLORE_BACKGROUND_INDEX", "0")
            .current_dir(self.home.path());
        cmd
    }
}

impl Sandbox {
    /// The same sandboxed `explore` as a plain `std::process::Command`, for tests that
    /// need the child's pipes.
    pub fn std_cmd(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("explore"));
        for var in SCRUBBED {
            cmd.env_remove(var);
        }
        cmd.env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path().join("config"))
            // No detached indexer outliving a test (one test turns it back on).
            .env("EXPLORE_BACKGROUND_INDEX", "0")
            .current_dir(self.home.path());
        cmd
    }
}

/// The Go fixture repository.
pub fn relay() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../evals/fixtures/relay")
        .canonicalize()
        .unwrap()
}

/// A small repository in a temporary directory.
pub fn tiny_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("store")).unwrap();
    std::fs::write(
        dir.path().join("store/store.go"),
        "package store\n\n// Store keeps things.\ntype Store interface {\n\tGet(id int) string\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("main.go"),
        "package main\n\nfunc main() {}\n",
    )
    .unwrap();
    dir
}

/// stdout as text.
pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// stderr as text.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Insta filters for what changes from run to run: temp paths, times, durations.
pub fn filters() -> Vec<(&'static str, &'static str)> {
    vec![
        (r"/tmp/[^\s\x22]*?/\.tmp[A-Za-z0-9]+", "[TEMP]"),
        (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "[TIMESTAMP]"),
        (r"\x22duration_ms\x22: \d+", "\"duration_ms\": [MS]"),
        (r"\d+ ms ·", "[MS] ms ·"),
        (r"\d+\.\d s ·", "[MS] ms ·"),
    ]
}
