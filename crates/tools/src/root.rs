//! Containment: the one place a model-given path becomes a path on disk.
//!
//! Spec 000 checked containment lexically and left symlinks open: a link inside the repo
//! pointing at `/etc` passed. Here a path is first checked lexically (absolute paths, `~`,
//! NUL bytes and `..` that climbs above the root are refused outright, so the error can say
//! exactly what was wrong), then resolved with every symlink followed, and the *resolved*
//! path must still lie inside the resolved root. Containment is tested component-wise
//! (`Path::starts_with`), so `/repo-evil` is never inside `/repo`.

use std::io;
use std::path::{Component, Path, PathBuf};

use crate::ToolError;
use crate::display::escape_for_display;

/// Why a repository root could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum RootError {
    /// The directory does not exist or cannot be resolved.
    #[error("cannot open repository `{path}`: {source}")]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The path exists but is not a directory.
    #[error("repository `{0}` is not a directory")]
    NotADirectory(PathBuf),
}

/// The canonical root of the repository every tool is confined to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoRoot {
    root: PathBuf,
}

/// A model-given path that passed containment: it exists and lies inside the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    /// The canonical absolute path, symlinks resolved.
    pub abs: PathBuf,
    /// The repo-relative path of `abs`, `/`-separated; `.` for the root itself.
    pub rel: String,
}

impl RepoRoot {
    /// Opens `path` as a repository root, resolving symlinks.
    pub fn new(path: impl AsRef<Path>) -> Result<Self, RootError> {
        let path = path.as_ref();
        let root = path.canonicalize().map_err(|source| RootError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if !root.is_dir() {
            return Err(RootError::NotADirectory(path.to_path_buf()));
        }
        Ok(Self { root })
    }

    /// The canonical absolute root.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The repo-relative, `/`-separated form of an absolute path inside the root, or `None`
    /// when it is outside. The root itself is `.`.
    pub fn rel_of(&self, abs: &Path) -> Option<String> {
        let rel = abs.strip_prefix(&self.root).ok()?;
        if rel.as_os_str().is_empty() {
            return Some(".".to_string());
        }
        Some(
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
        )
    }

    /// Checks a model-given path lexically, without touching the disk, and returns it joined
    /// to the root. Refuses NUL bytes, `~`, absolute paths and `..` that climbs out.
    pub fn check_lexical(&self, input: &str) -> Result<PathBuf, ToolError> {
        let shown = escape_for_display(input);
        if input.contains('\0') {
            return Err(refused(&shown, "contains a NUL byte"));
        }
        if input == "~" || input.starts_with("~/") || input.starts_with('~') {
            return Err(refused(
                &shown,
                "starts with `~` (a home directory), which is outside the repository",
            ));
        }
        let path = Path::new(input);
        let mut depth: i64 = 0;
        for component in path.components() {
            match component {
                Component::Prefix(_) | Component::RootDir => {
                    return Err(refused(
                        &shown,
                        "is absolute; paths are relative to the repository root",
                    ));
                }
                Component::ParentDir => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(refused(&shown, "uses `..` to leave the repository"));
                    }
                }
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
            }
        }
        Ok(self.root.join(path))
    }

    /// Resolves a model-given path to an existing file or directory inside the root.
    /// An empty path or `.` is the root.
    pub fn resolve(&self, input: &str) -> Result<ResolvedPath, ToolError> {
        let joined = self.check_lexical(input)?;
        let shown = escape_for_display(input);
        let abs = match joined.canonicalize() {
            Ok(abs) => abs,
            Err(e) if e.raw_os_error() == Some(libc_eloop()) => {
                return Err(refused(&shown, "is a symlink loop"));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(self.not_found(input, &joined));
            }
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                return Err(ToolError::failed(format!(
                    "Cannot access `{shown}`: permission denied. Try another path."
                )));
            }
            Err(e) => {
                return Err(ToolError::failed(format!("Cannot access `{shown}`: {e}.")));
            }
        };
        match self.rel_of(&abs) {
            Some(rel) => Ok(ResolvedPath { abs, rel }),
            None => Err(refused(
                &shown,
                "resolves (through a symlink) to a location outside the repository",
            )),
        }
    }

    /// A not-found error that points at the deepest existing ancestor, so the model can look
    /// there with `tree` instead of guessing again.
    fn not_found(&self, input: &str, joined: &Path) -> ToolError {
        let shown = escape_for_display(input);
        let mut parent = joined.parent();
        while let Some(p) = parent {
            if let Ok(abs) = p.canonicalize() {
                if let Some(rel) = self.rel_of(&abs)
                    && abs.is_dir()
                {
                    return ToolError::not_found(format!(
                        "No such file or directory: `{shown}`. The closest existing directory is `{rel}`; list it with tree {{\"path\":\"{}\"}}.",
                        json_escape(&rel)
                    ));
                }
                break;
            }
            parent = p.parent();
        }
        ToolError::not_found(format!(
            "No such file or directory: `{shown}`. Use tree to see what exists."
        ))
    }
}

fn refused(shown: &str, why: &str) -> ToolError {
    ToolError::refused(format!(
        "Path refused: `{shown}` {why}. Send a path relative to the repository root, such as `src` or `internal/model/issue.go`."
    ))
}

/// ELOOP on Linux and the BSDs we might run on.
fn libc_eloop() -> i32 {
    if cfg!(any(
        target_os = "macos",
        target_os = "freebsd",
        target_os = "openbsd"
    )) {
        62
    } else {
        40
    }
}

fn json_escape(s: &str) -> String {
    serde_json::to_string(s)
        .map(|q| q[1..q.len() - 1].to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use std::fs;

    fn repo() -> (tempfile::TempDir, RepoRoot) {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("repo/src")).unwrap();
        fs::write(dir.path().join("repo/src/a.go"), "package a\n").unwrap();
        fs::create_dir_all(dir.path().join("repo-evil")).unwrap();
        fs::write(dir.path().join("repo-evil/secret"), "x").unwrap();
        let root = RepoRoot::new(dir.path().join("repo")).unwrap();
        (dir, root)
    }

    #[test]
    fn resolves_inside() {
        let (_d, root) = repo();
        assert_eq!(root.resolve("src/a.go").unwrap().rel, "src/a.go");
        assert_eq!(root.resolve("").unwrap().rel, ".");
        assert_eq!(root.resolve("./src/../src/a.go").unwrap().rel, "src/a.go");
    }

    #[test]
    fn refuses_escapes_with_reasons() {
        let (_d, root) = repo();
        let cases = [
            ("/etc/passwd", "is absolute"),
            ("../repo-evil/secret", "uses `..`"),
            ("src/../../repo-evil", "uses `..`"),
            ("~/.ssh/id_rsa", "starts with `~`"),
            ("src/a.go\0", "NUL byte"),
        ];
        for (input, why) in cases {
            let err = root.resolve(input).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Refused, "{input}: {err}");
            assert!(err.to_string().contains(why), "{input}: {err}");
        }
    }

    #[test]
    fn refuses_symlink_escape_and_loop() {
        let (d, root) = repo();
        std::os::unix::fs::symlink(d.path().join("repo-evil"), root.path().join("out")).unwrap();
        std::os::unix::fs::symlink("loop2", root.path().join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", root.path().join("loop2")).unwrap();
        let err = root.resolve("out/secret").unwrap_err();
        assert!(err.to_string().contains("outside the repository"), "{err}");
        let err = root.resolve("loop1").unwrap_err();
        assert!(err.to_string().contains("symlink loop"), "{err}");
    }

    #[test]
    fn symlink_inside_is_followed() {
        let (_d, root) = repo();
        std::os::unix::fs::symlink("src", root.path().join("alias")).unwrap();
        assert_eq!(root.resolve("alias/a.go").unwrap().rel, "src/a.go");
    }

    #[test]
    fn not_found_points_at_closest_dir() {
        let (_d, root) = repo();
        let err = root.resolve("src/missing/b.go").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        assert!(
            err.to_string()
                .contains("closest existing directory is `src`"),
            "{err}"
        );
    }
}
