//! Finishing the code index after a process that answered from a partial one.
//!
//! The first `code` query on a repository never indexed is answered from the files that
//! mention the name (`explore_tools::code` "first query"), and the full index is started
//! on a thread. A one-shot command (`explore tool code …`, a short model run) would end
//! before that build does and lose it, so every later command would again find no cache.
//! Instead, like `git gc --auto` detaching itself, the command starts `explore index
//! --background` as a detached process with no terminal and no output, and exits. That
//! process builds and writes the cache once (a lock makes concurrent ones bow out), and
//! the next query takes the warm path.
//!
//! `EXPLORE_BACKGROUND_INDEX=0` turns it off (the tests do, and a CI job that wants no
//! stray process can too).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};

/// The variable that turns background indexing off (`0`, `false`, `off`, `no`).
pub const ENV: &str = "EXPLORE_BACKGROUND_INDEX";

/// True unless [`ENV`] says no.
pub fn enabled() -> bool {
    !std::env::var(ENV).is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "0" | "false" | "off" | "no"
        )
    })
}

/// Starts `explore -q -C <repo> index --background` detached, when the tool answered from
/// a partial graph and nothing will write the full one. Failures are logged, never fatal:
/// the answer has been printed already.
pub fn finish_index(code: &explore_tools::code::CodeTool, repo: &Path) {
    if !code.full_index_pending() || code.cache_path().is_none() || !enabled() {
        return;
    }
    match spawn(repo) {
        Ok(pid) => tracing::info!("building the full code index in the background (pid {pid})"),
        Err(e) => tracing::debug!("could not start the background index: {e:#}"),
    }
}

fn spawn(repo: &Path) -> Result<u32> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().context("cannot find the explore executable")?;
    let child = Command::new(exe)
        .arg("-q")
        .arg("-C")
        .arg(repo)
        .args(["index", "--background"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // Its own process group: a Ctrl-C meant for the shell's job does not reach it.
        .process_group(0)
        .spawn()
        .context("cannot start `explore index --background`")?;
    // Not waited for: it outlives us and is reaped by init.
    Ok(child.id())
}

/// The lock a background build holds for its repository's cache, removed when dropped so
/// no empty `.building` file stays in the cache folder.
#[derive(Debug)]
pub struct BuildLock {
    file: File,
    path: PathBuf,
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        // Unlinked while still held: a process that opened the old file finds it locked
        // and bows out; one that comes later makes a new file (see `try_lock`).
        let _ = std::fs::remove_file(&self.path);
        let _ = fs4::FileExt::unlock(&self.file);
    }
}

/// Takes the build lock of `cache`: `None` when another process holds it (that one will
/// write the cache; this one has nothing to do).
pub fn try_lock(cache: &Path) -> Result<Option<BuildLock>> {
    let path = lock_path(cache);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
    }
    // A holder may unlink the file between our open and our lock: then the lock we got
    // is on a file nobody else will see, and we try again on the new one.
    for _ in 0..3 {
        let file = crate::cache::open_lock_file(&path)?;
        // fs4 rather than `File::try_lock`, which needs Rust 1.89 (the MSRV is 1.88);
        // called as a path so the newer inherent method is not picked.
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => return Ok(None),
            Err(fs4::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock `{}`", path.display()));
            }
        }
        if same_file(&file, &path) {
            return Ok(Some(BuildLock { file, path }));
        }
    }
    Ok(None)
}

/// True when `path` still names the open `file`.
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

fn lock_path(cache: &Path) -> PathBuf {
    let mut name = cache.file_name().unwrap_or_default().to_os_string();
    name.push(".building");
    cache.with_file_name(name)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn one_background_build_per_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("code").join("relay-0123.idx");
        let first = try_lock(&cache).unwrap();
        assert!(first.is_some());
        let lock = dir.path().join("code/relay-0123.idx.building");
        assert!(lock.exists());
        // A second builder (another open file description) bows out while the first holds it.
        assert!(try_lock(&cache).unwrap().is_none());
        drop(first);
        // Released: the lock file is gone, and the next builder gets a new one.
        assert!(!lock.exists());
        let second = try_lock(&cache).unwrap();
        assert!(second.is_some());
        assert!(lock.exists());
        drop(second);
        assert!(!lock.exists());
    }
}
