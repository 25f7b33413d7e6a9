//! Hashes the code that decides what a cached index holds (the extractors, the link step,
//! the model), so a cache written by a build with other extraction code is rebuilt even
//! when nobody bumped `FORMAT_VERSION`: every commit is 0.1.0, and a stale cache would
//! serve wrong facts without a word.

use std::path::Path;

/// The sources whose change changes the facts or the graph.
const SOURCES: &[&str] = &[
    "src/code/extract",
    "src/code/link.rs",
    "src/code/model.rs",
    "src/code/stdlib.rs",
];

fn main() {
    let mut files = Vec::new();
    for s in SOURCES {
        println!("cargo:rerun-if-changed={s}");
        collect(Path::new(s), &mut files);
    }
    files.sort();
    // FNV-1a, 64 bits: no dependency, and stable for the same bytes.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for f in files {
        let bytes = std::fs::read(&f).unwrap_or_default();
        for b in f.to_string_lossy().bytes().chain(bytes) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=EXPLORE_EXTRACTOR_HASH={hash:016x}");
}

fn collect(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        if let Ok(entries) = std::fs::read_dir(path) {
            for e in entries.flatten() {
                collect(&e.path(), out);
            }
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}
