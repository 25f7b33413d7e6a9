//! The project's own name. People say it in questions ("where does chi respond with 405",
//! "how does tomlkit deal with…"), and as a word it matches whatever file happens to carry
//! it (`chi.go`), not what the question is about; concept ranking counts it little.

use std::path::Path;

use super::text;

/// How much a project-name word counts in concept ranking, relative to its weight.
pub const PROJECT_WORD_WEIGHT: f64 = 0.2;

/// The stems of the project's name: the Go module's last path segment (`github.com/go-chi/chi/v5`
/// → chi), and the repository folder's name without its version (`Jinja2-3.0.1` → jinja2,
/// jinja) when a folder of `files` carries it too (`src/jinja2/`), so a checkout folder
/// named `main` or `work` is not taken for a name.
pub fn words(root: &Path, files: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if let Ok(gomod) = std::fs::read_to_string(root.join("go.mod"))
        && let Some(module) = gomod.lines().find_map(|l| l.trim().strip_prefix("module "))
    {
        let segment = module
            .trim()
            .trim_matches('"')
            .split('/')
            .rev()
            .find(|s| !is_major_version(s));
        names.extend(segment.map(str::to_lowercase));
    }
    if let Some(folder) = root.file_name().and_then(|n| n.to_str()) {
        let base: String = folder
            .split(['-', '_', '.'])
            .take_while(|p| !p.starts_with(|c: char| c.is_ascii_digit()) && !p.is_empty())
            .collect::<Vec<_>>()
            .join("-")
            .to_lowercase();
        let carried = !base.is_empty()
            && files.iter().any(|f| {
                let dirs = f.rsplit_once('/').map_or("", |(d, _)| d);
                dirs.split('/').any(|part| part.eq_ignore_ascii_case(&base))
            });
        if carried {
            names.push(base);
        }
    }
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let bare = name
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string();
        for n in [name, bare] {
            for w in text::index_terms(&n) {
                if !out.contains(&w) {
                    out.push(w);
                }
            }
        }
    }
    out
}

/// `v2`, `v10`: a Go major-version suffix, not a name.
fn is_major_version(segment: &str) -> bool {
    segment
        .strip_prefix('v')
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_module_and_folder_names() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("chi-5.0.7");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(
            root.join("go.mod"),
            "module github.com/go-chi/chi/v5\n\ngo 1.14\n",
        )
        .unwrap();
        let files = vec!["chi.go".to_string(), "mux.go".to_string()];
        assert_eq!(words(&root, &files), vec!["chi".to_string()]);

        let root = dir.path().join("Jinja2-3.0.1");
        std::fs::create_dir_all(&root).unwrap();
        let files = vec!["src/jinja2/nodes.py".to_string()];
        // Identifiers split at digits: jinja2 is the term jinja.
        assert_eq!(words(&root, &files), vec!["jinja".to_string()]);

        // A checkout folder that no folder of the project is named after (a file is not
        // enough: `main.rs`).
        let root = dir.path().join("main");
        std::fs::create_dir_all(&root).unwrap();
        let files = vec!["crates/cli/src/main.rs".to_string()];
        assert!(words(&root, &files).is_empty());
    }
}
