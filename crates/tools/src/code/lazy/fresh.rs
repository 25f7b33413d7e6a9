//! Whether a repository is still as the index saw it, without walking it again.
//!
//! Walking the repository with the `ignore` walker (reading every directory and every
//! ignore file, matching globs) costs more than everything else a warm query does. Instead
//! the index records what the walk depended on, and a warm query only stats those paths:
//!
//! - every directory the walk entered, by mtime: a file created, deleted or renamed in a
//!   directory changes the directory's mtime, so a new `.go` file (or a new `.gitignore`)
//!   is noticed without listing anything;
//! - every Go and Python file and every `go.mod`, by size, mtime and whether it has other
//!   hard links (the walk leaves multiply-linked files out);
//! - the ignore files that exist (`.gitignore`, `.ignore`) and, in a directory with a
//!   `.git`, `.git/info/exclude` even when it is missing, because editing or creating
//!   them changes what the walk sees without touching any directory the walk entered.
//!
//! Any difference (or a path that cannot be stat'ed as before) means "changed", and the
//! caller falls back to the full walk, which re-derives everything. False alarms (a
//! README added to a directory) only cost that walk.

use std::path::Path;
use std::time::UNIX_EPOCH;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::secrets;

/// What a path looked like when the index was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// Nothing at that path.
    Missing,
    /// A path that exists but could not be stat'ed, or is neither a file nor a directory.
    Other,
    /// A regular file.
    File {
        /// Length in bytes.
        size: u64,
        /// Modification time, nanoseconds since the epoch.
        mtime_ns: u64,
        /// More than one hard link (such files are left out of the index).
        linked: bool,
    },
    /// A directory.
    Dir {
        /// Modification time, nanoseconds since the epoch.
        mtime_ns: u64,
    },
}

impl Shape {
    /// The shape of a path from its (not followed) metadata.
    pub fn of(meta: &std::fs::Metadata) -> Shape {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as u64);
        if meta.is_dir() {
            Shape::Dir { mtime_ns }
        } else if meta.is_file() {
            Shape::File {
                size: meta.len(),
                mtime_ns,
                linked: secrets::is_multiply_linked(meta),
            }
        } else {
            Shape::Other
        }
    }

    /// Stats `path` without following a final symlink, as the walk does.
    pub fn stat(path: &Path) -> Shape {
        match std::fs::symlink_metadata(path) {
            Ok(m) => Shape::of(&m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Shape::Missing,
            Err(_) => Shape::Other,
        }
    }
}

/// One path the walk depended on, relative to the repository root (`""` is the root).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watched {
    /// Repo-relative path with `/` separators.
    pub path: String,
    /// What was there.
    pub shape: Shape,
}

/// [`Watched`] as read back from the store: the path borrows the loaded section, so the
/// check allocates no string per entry. Encodes exactly like [`Watched`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct WatchedRef<'a> {
    /// Repo-relative path with `/` separators.
    pub path: &'a str,
    /// What was there.
    pub shape: Shape,
}

/// The ignore files the walk reads in a directory, recorded when present.
pub const IGNORE_FILES: [&str; 2] = [".gitignore", ".ignore"];

/// What to watch for the directory `rel` (already known to be one the walk entered): the
/// directory itself and its ignore files. `abs` is its absolute path.
pub fn watch_dir(abs: &Path, rel: &str, meta: &std::fs::Metadata, out: &mut Vec<Watched>) {
    out.push(Watched {
        path: rel.to_string(),
        shape: Shape::of(meta),
    });
    let join = |name: &str| {
        if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        }
    };
    for name in IGNORE_FILES {
        let shape = Shape::stat(&abs.join(name));
        if shape != Shape::Missing {
            out.push(Watched {
                path: join(name),
                shape,
            });
        }
    }
    if Shape::stat(&abs.join(".git")) != Shape::Missing {
        out.push(Watched {
            path: join(".git/info/exclude"),
            shape: Shape::stat(&abs.join(".git").join("info").join("exclude")),
        });
    }
}

/// The order paths are recorded in: by components, so that a directory comes right before
/// what is inside it (a depth-first walk) and the check keeps only one chain of
/// directories open.
pub fn walk_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.split('/').cmp(b.split('/'))
}

/// Whether every watched path under `root` still has its recorded shape. The list is in
/// [`walk_order`]; chunks are checked in parallel, each with its own open directories.
pub fn unchanged(root: &Path, watched: &[WatchedRef<'_>]) -> bool {
    watched.par_chunks(1024).all(|chunk| {
        let mut dirs = Dirs::new(root);
        chunk.iter().all(|w| dirs.stat(w.path) == w.shape)
    })
}

/// The shape of every watched path under `root` now, in the list's order (checked as
/// [`unchanged`] does).
pub fn restat(root: &Path, watched: &[WatchedRef<'_>]) -> Vec<Shape> {
    watched
        .par_chunks(1024)
        .flat_map_iter(|chunk| {
            let mut dirs = Dirs::new(root);
            chunk.iter().map(|w| dirs.stat(w.path)).collect::<Vec<_>>()
        })
        .collect()
}

/// Stats paths under a root. On Linux it keeps the chain of directories above the last
/// path open and stats each path relative to its directory (`statx` on a directory fd):
/// resolving every component of every path again was most of a warm query's time.
#[cfg(target_os = "linux")]
struct Dirs<'r> {
    root: &'r Path,
    /// The directory the fds lead to, relative to the root, by component.
    at: Vec<&'r str>,
    /// The same directory as one path, to recognise a sibling of the last path at once.
    current: &'r str,
    /// The root's fd, then one per component of `at`; `Err` is what a path below a
    /// directory that could not be opened looks like.
    fds: Vec<Result<rustix::fd::OwnedFd, Shape>>,
}

#[cfg(target_os = "linux")]
impl<'r> Dirs<'r> {
    const DIR_FLAGS: rustix::fs::OFlags = rustix::fs::OFlags::PATH
        .union(rustix::fs::OFlags::DIRECTORY)
        .union(rustix::fs::OFlags::CLOEXEC);

    fn new(root: &'r Path) -> Self {
        let fd =
            rustix::fs::open(root, Self::DIR_FLAGS, rustix::fs::Mode::empty()).map_err(errno_shape);
        Dirs {
            root,
            at: Vec::new(),
            current: "",
            fds: vec![fd],
        }
    }

    /// Makes the fds lead to `parent` (a `/`-separated path relative to the root),
    /// reusing the directories the previous path shared with it.
    fn enter(&mut self, parent: &'r str) -> Result<&rustix::fd::OwnedFd, Shape> {
        if parent != self.current {
            self.descend(parent);
        }
        match self.fds.last() {
            Some(Ok(fd)) => Ok(fd),
            Some(Err(shape)) => Err(*shape),
            None => Err(Shape::Other),
        }
    }

    /// Re-points the fds at `parent`, keeping the directories it shares with the last one.
    fn descend(&mut self, parent: &'r str) {
        self.current = parent;
        let want = parent.split('/').filter(|c| !c.is_empty());
        let common = self
            .at
            .iter()
            .zip(want.clone())
            .take_while(|(a, b)| **a == *b)
            .count();
        self.at.truncate(common);
        self.fds.truncate(common + 1);
        for c in want.skip(common) {
            let next = match self.fds.last() {
                Some(Ok(fd)) => {
                    rustix::fs::openat(fd, c, Self::DIR_FLAGS, rustix::fs::Mode::empty())
                        .map_err(errno_shape)
                }
                Some(Err(shape)) => Err(*shape),
                None => Err(Shape::Other),
            };
            self.fds.push(next);
            self.at.push(c);
        }
    }

    fn stat(&mut self, rel: &'r str) -> Shape {
        use rustix::fs::{AtFlags, FileType, StatxFlags, statx};
        if rel.is_empty() {
            return Shape::stat(self.root);
        }
        let (parent, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        let dir = match self.enter(parent) {
            Ok(fd) => fd,
            Err(shape) => return shape,
        };
        let mask = StatxFlags::TYPE | StatxFlags::NLINK | StatxFlags::SIZE | StatxFlags::MTIME;
        match statx(dir, name, AtFlags::SYMLINK_NOFOLLOW, mask) {
            Ok(st) => {
                let t = st.stx_mtime;
                let mtime_ns = u64::try_from(t.tv_sec).map_or(0, |s| {
                    // As `Duration::as_nanos() as u64` does for `Shape::of`.
                    (u128::from(s) * 1_000_000_000 + u128::from(t.tv_nsec)) as u64
                });
                match FileType::from_raw_mode(u32::from(st.stx_mode)) {
                    FileType::Directory => Shape::Dir { mtime_ns },
                    FileType::RegularFile => Shape::File {
                        size: st.stx_size,
                        mtime_ns,
                        linked: st.stx_nlink > 1,
                    },
                    _ => Shape::Other,
                }
            }
            Err(e) => errno_shape(e),
        }
    }
}

/// What a path looks like when stat'ing it (or a directory above it) failed with `e`:
/// missing for `ENOENT`, as `std::fs::symlink_metadata` reports it, otherwise unreadable.
#[cfg(target_os = "linux")]
fn errno_shape(e: rustix::io::Errno) -> Shape {
    if e == rustix::io::Errno::NOENT {
        Shape::Missing
    } else {
        Shape::Other
    }
}

/// Stats paths under a root, each by its full path (other systems).
#[cfg(not(target_os = "linux"))]
struct Dirs<'r> {
    root: &'r Path,
}

#[cfg(not(target_os = "linux"))]
impl<'r> Dirs<'r> {
    fn new(root: &'r Path) -> Self {
        Dirs { root }
    }

    fn stat(&mut self, rel: &'r str) -> Shape {
        Shape::stat(&self.root.join(rel))
    }
}

/// Whether a decoded list is the same as a freshly walked one.
pub fn same(stored: &[WatchedRef<'_>], walked: &[Watched]) -> bool {
    stored.len() == walked.len()
        && stored
            .iter()
            .zip(walked)
            .all(|(s, w)| s.path == w.path && s.shape == w.shape)
}
