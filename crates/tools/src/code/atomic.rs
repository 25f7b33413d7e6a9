//! Writing a cache file so that a reader sees the old file or the new one, never half of
//! one. Its own module because both cache files use it: the index's facts and graph
//! ([`super::index`]) and the lazy store ([`super::lazy`]), which the index writes through;
//! kept in `index.rs` it made `lazy` import the module that imports it.

use std::path::Path;

/// Writes `parts`, one after the other, to a temporary file next to `path` and renames it
/// into place. Parts rather than one buffer: the cache files are tens of MiB, and joining
/// them first would copy every byte once more.
pub fn write_atomic(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("cache path has no parent"))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        std::process::id()
    ));
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp)?;
        for p in parts {
            f.write_all(p)?;
        }
        drop(f);
        std::fs::rename(&tmp, path)
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_parts_in_order_and_leaves_no_temporary_file() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("cache.idx");
        std::fs::write(&path, b"old")?;
        write_atomic(&path, &[b"head\n", b"", b"body"])?;
        assert_eq!(std::fs::read(&path)?, b"head\nbody");
        let names: Vec<String> = std::fs::read_dir(dir.path())?
            .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect::<Result<_, _>>()?;
        assert_eq!(names, ["cache.idx"]);
        Ok(())
    }

    #[test]
    fn a_failed_write_leaves_the_old_file() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        // The target is a directory: the rename fails and the temporary file is removed.
        let path = dir.path().join("taken");
        std::fs::create_dir(&path)?;
        std::fs::write(path.join("keep"), b"x")?;
        assert!(write_atomic(&path, &[b"new"]).is_err());
        assert_eq!(std::fs::read(path.join("keep"))?, b"x");
        assert_eq!(std::fs::read_dir(dir.path())?.count(), 1);
        Ok(())
    }
}
