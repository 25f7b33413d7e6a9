//! The repository guard: `explore` started outside any repository must not silently read
//! a whole filesystem.
//!
//! `cd / && explore "where is main defined"` used to index every file under `/`. A
//! directory with no version-control root above it is refused when it is `/`, the home
//! directory, or holds more than [`MAX_FILES`] files; the message names `-C` (point it at
//! the repository) and `--any-dir` / `EXPLORE_ANY_DIR=1`, which lift the guard for a
//! directory meant to be explored as it is.
//!
//! Counting walks the whole directory, which costs a warm query more than answering it
//! (about 20 ms for 14k files), so a directory explore has indexed before (its code store
//! is in the cache) is not counted again: it was accepted once, by being small or by
//! `--any-dir`. The filesystem root and the home directory are refused whatever the cache
//! holds.

use std::path::Path;

use anyhow::{Result, bail};

/// Files a directory outside any repository may hold; the count stops just past it.
pub const MAX_FILES: usize = 50_000;

/// Markers of a version-control root.
const VCS_MARKERS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".fossil", "_FOSSIL_"];

/// Refuses `dir` unless it is inside a repository or small enough to be one; `any_dir`
/// lifts the guard.
pub fn check(dir: &Path, home: Option<&Path>, any_dir: bool) -> Result<()> {
    check_with(dir, home, any_dir, None)
}

/// [`check`] with the cache folder the index uses (`None`: `EXPLORE_CACHE_DIR`, else the
/// user's cache folder).
fn check_with(
    dir: &Path,
    home: Option<&Path>,
    any_dir: bool,
    cache_dir: Option<&Path>,
) -> Result<()> {
    if any_dir {
        return Ok(());
    }
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    if dir
        .ancestors()
        .any(|d| VCS_MARKERS.iter().any(|m| d.join(m).exists()))
    {
        return Ok(());
    }
    let home = home.and_then(|h| h.canonicalize().ok());
    let what = if dir.parent().is_none() {
        "the filesystem root".to_string()
    } else if home.as_deref() == Some(dir.as_path()) {
        "your home directory".to_string()
    } else if !indexed_before(&dir, cache_dir) && count_files(&dir, MAX_FILES + 1) > MAX_FILES {
        format!("a directory of more than {MAX_FILES} files")
    } else {
        return Ok(());
    };
    bail!(
        "`{}` is {what}, not inside a repository (no .git, .hg, .svn or .jj above it), so \
         explore would read every file under it. Run explore inside a repository or name one \
         with `-C DIR`; `--any-dir` (or EXPLORE_ANY_DIR=1) explores this directory anyway.",
        dir.display()
    )
}

/// Whether the code index's store for `dir` (canonical) is in the cache.
fn indexed_before(dir: &Path, cache_dir: Option<&Path>) -> bool {
    explore_tools::code::cache_path(dir, cache_dir)
        .is_some_and(|c| explore_tools::code::store_path(&c).is_file())
}

/// Regular files under `dir`, counted up to `limit` (symbolic links not followed).
fn count_files(dir: &Path, limit: usize) -> usize {
    let mut count = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                count += 1;
                if count >= limit {
                    return count;
                }
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_and_home_are_refused_unless_asked_for() {
        let home = tempfile::tempdir().unwrap();
        let err = check(Path::new("/"), None, false).unwrap_err().to_string();
        assert!(err.starts_with("`/` is the filesystem root"), "{err}");
        assert!(err.contains("`-C DIR`"), "{err}");
        let err = check(home.path(), Some(home.path()), false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("is your home directory"), "{err}");
        assert!(check(Path::new("/"), None, true).is_ok());
    }

    #[test]
    fn a_repository_or_a_small_directory_is_fine() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(home.path().join(".git")).unwrap();
        assert!(check(home.path(), Some(home.path()), false).is_ok());
        let small = tempfile::tempdir().unwrap();
        std::fs::write(small.path().join("a.go"), "package a\n").unwrap();
        assert!(check(small.path(), None, false).is_ok());
        assert_eq!(count_files(small.path(), 10), 1);
    }

    #[test]
    fn a_large_directory_is_counted_until_it_has_been_indexed() {
        let cache = tempfile::tempdir().unwrap();
        let big = tempfile::tempdir().unwrap();
        let dir = big.path().canonicalize().unwrap();
        for i in 0..=MAX_FILES {
            std::fs::write(dir.join(format!("{i}.txt")), "").unwrap();
        }
        let store = explore_tools::code::store_path(
            &explore_tools::code::cache_path(&dir, Some(cache.path())).unwrap(),
        );
        let checked = |indexed: bool| {
            if indexed {
                std::fs::create_dir_all(store.parent().unwrap()).unwrap();
                std::fs::write(&store, "").unwrap();
            }
            check_with(&dir, None, false, Some(cache.path()))
        };
        let err = checked(false).unwrap_err().to_string();
        assert!(err.contains("more than 50000 files"), "{err}");
        assert!(checked(true).is_ok());
    }
}
