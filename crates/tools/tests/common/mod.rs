//! A temporary copy of a fixture with a cache folder of its own, shared by the test
//! binaries that change files and check what the index makes of it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use explore_tools::RepoRoot;
use explore_tools::code::{CodeTool, IndexOptions};

/// `evals/fixtures/<name>`.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../evals/fixtures")
        .join(name)
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// A copy of a fixture and a cache directory, both temporary.
pub struct Repo {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub cache: PathBuf,
}

impl Repo {
    pub fn new(name: &str) -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(name);
        copy_dir(&fixture(name), &root);
        let cache = dir.path().join("cache");
        Repo {
            root: root.canonicalize().unwrap(),
            cache,
            _dir: dir,
        }
    }

    /// An empty repository, to be written file by file.
    pub fn empty() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(&root).unwrap();
        let cache = dir.path().join("cache");
        Repo {
            root: root.canonicalize().unwrap(),
            cache,
            _dir: dir,
        }
    }

    /// Writes (or overwrites) a file of the repository, creating its directories.
    pub fn write(&self, path: &str, text: &str) {
        let path = self.root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// A `code` tool over the copy, caching in its own folder.
    pub fn tool(&self) -> CodeTool {
        CodeTool::new(
            RepoRoot::new(self.root.clone()).unwrap(),
            IndexOptions {
                cache_dir: Some(self.cache.clone()),
                ..Default::default()
            },
        )
    }
}
