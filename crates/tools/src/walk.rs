//! The one walk of a repository: which files the code index, the first-query prefilter and
//! the local engine's text search and line scanner see.
//!
//! They used to walk with different rules (the engine honoured `.gitignore` files above
//! the repository and the user's global excludes, the index did not), so a file could be
//! in the engine's corpus and missing from the code graph, or the other way round, and the
//! answer depended on the machine it ran on. Now every reader of the repository's files
//! starts from [`walker`]. (`tree`, `overview` and the bash policy's secret masking walk on
//! purpose with other rules: they list or mask, they do not read code.)

use std::path::{Path, PathBuf};

use crate::secrets;

/// The walk: hidden entries and `.git` skipped; `.gitignore`, `.ignore` and
/// `.git/info/exclude` honoured even outside a git checkout; no ignore files above `root`
/// and no global excludes, so the files seen depend on the repository alone; symlinks not
/// followed, so the walk cannot leave the repository or loop.
pub fn walker(root: &Path) -> ignore::WalkBuilder {
    let mut b = ignore::WalkBuilder::new(root);
    b.hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .parents(false)
        .follow_links(false)
        .filter_entry(|e| e.file_name() != ".git");
    b
}

/// One file found by [`files`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoFile {
    /// Repo-relative path with `/` separators.
    pub rel: String,
    /// Absolute path.
    pub abs: PathBuf,
}

/// Every regular file of [`walker`]'s walk except the contract's secret files, sorted by
/// relative path. Unreadable entries are skipped; a caller that must count them walks
/// with [`walker`] itself, as the code index does.
pub fn files(root: &Path) -> Vec<RepoFile> {
    let mut out = Vec::new();
    for entry in walker(root).build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let abs = entry.path();
        if secrets::is_secret_path(abs) {
            continue;
        }
        let Ok(rel) = abs.strip_prefix(root) else {
            continue;
        };
        out.push(RepoFile {
            rel: rel.to_string_lossy().replace('\\', "/"),
            abs: abs.to_path_buf(),
        });
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_honour_the_repository_ignores_only() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let outer = dir.path();
        // An ignore file above the repository does not apply to it.
        std::fs::write(outer.join(".gitignore"), "*.go\n")?;
        let root = outer.join("repo");
        let write = |rel: &str, text: &str| -> std::io::Result<()> {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap_or(&root))?;
            std::fs::write(p, text)
        };
        write("b/main.go", "package main\n")?;
        write("a.py", "x = 1\n")?;
        write(".gitignore", "build/\n")?;
        write("build/out.go", "package out\n")?;
        write(".hidden/x.go", "package x\n")?;
        write(".git/config", "[core]\n")?;
        write("server.key", "-----BEGIN PRIVATE KEY-----\n")?;
        write("ignored.py", "x = 1\n")?;
        write(".git/info/exclude", "ignored.py\n")?;
        let got: Vec<String> = files(&root).into_iter().map(|f| f.rel).collect();
        assert_eq!(got, ["a.py", "b/main.go"]);
        Ok(())
    }
}
