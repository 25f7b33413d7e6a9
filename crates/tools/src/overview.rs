//! A three-line orientation for the model's first turn: how big the repository is, which
//! languages it is written in, and what sits at its top level.
//!
//! Without it a model's first call is almost always `tree` (or a `code` lookup in a
//! language the graph does not parse), and every later request pays for that output
//! again. Three lines cost ~60 tokens once and let the first call be the useful one: the
//! model knows whether `code` covers the repository or `bash rg` must do, and which top
//! directories to aim at.

use std::collections::HashMap;
use std::path::Path;

use crate::RepoRoot;
use crate::display::display_name;
use crate::tree::EXCLUDED_DIRS;

/// Files counted at most: beyond this the counts say "at least".
pub const MAX_FILES: usize = 200_000;
/// Top-level entries named at most.
pub const MAX_TOP: usize = 24;
/// Languages named at most.
pub const MAX_LANGUAGES: usize = 6;

/// What the orientation found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overview {
    /// Files seen (ignore rules and [`EXCLUDED_DIRS`] applied), capped at [`MAX_FILES`].
    pub files: usize,
    /// True when the walk stopped at [`MAX_FILES`].
    pub truncated: bool,
    /// Source files per language, most first (ties by name).
    pub languages: Vec<(&'static str, usize)>,
    /// Top-level directories (with a trailing `/`) then files, by name.
    pub top: Vec<String>,
    /// Top-level entries beyond [`MAX_TOP`].
    pub more_top: usize,
}

/// The language of a file name, for the languages a question is likely to be about.
pub fn language_of(name: &str) -> Option<&'static str> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "go" => "Go",
        "py" | "pyi" => "Python",
        "rs" => "Rust",
        "ts" | "tsx" | "mts" | "cts" => "TypeScript",
        "js" | "jsx" | "mjs" | "cjs" => "JavaScript",
        "java" => "Java",
        "kt" | "kts" => "Kotlin",
        "scala" => "Scala",
        "c" | "h" => "C",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "C++",
        "cs" => "C#",
        "rb" => "Ruby",
        "php" => "PHP",
        "swift" => "Swift",
        "m" | "mm" => "Objective-C",
        "ex" | "exs" => "Elixir",
        "erl" => "Erlang",
        "hs" => "Haskell",
        "lua" => "Lua",
        "sh" | "bash" => "Shell",
        "dart" => "Dart",
        "zig" => "Zig",
        "clj" | "cljs" => "Clojure",
        "ml" | "mli" => "OCaml",
        "r" => "R",
        "jl" => "Julia",
        "sql" => "SQL",
        "proto" => "Protobuf",
        "vue" => "Vue",
        "svelte" => "Svelte",
        _ => return None,
    })
}

/// Walks the repository once (ignore rules respected, symlinks not followed).
pub fn survey(root: &RepoRoot) -> Overview {
    survey_path(root.path())
}

fn survey_path(path: &Path) -> Overview {
    let mut by_lang: HashMap<&'static str, usize> = HashMap::new();
    let mut dirs = Vec::new();
    let mut files = Vec::new();
    let mut out = Overview::default();
    let walker = ignore::WalkBuilder::new(path)
        .hidden(true)
        .git_ignore(true)
        .git_exclude(false)
        .git_global(false)
        .require_git(false)
        .parents(false)
        .follow_links(false)
        .filter_entry(|e| {
            !(e.file_type().is_some_and(|t| t.is_dir())
                && EXCLUDED_DIRS.contains(&e.file_name().to_string_lossy().as_ref()))
        })
        .build();
    for entry in walker.flatten() {
        if entry.depth() == 0 {
            continue;
        }
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        let name = display_name(entry.file_name());
        if entry.depth() == 1 {
            if is_dir {
                dirs.push(format!("{name}/"));
            } else {
                files.push(name.clone());
            }
        }
        if is_dir {
            continue;
        }
        if out.files == MAX_FILES {
            out.truncated = true;
            break;
        }
        out.files += 1;
        if let Some(lang) = language_of(&name) {
            *by_lang.entry(lang).or_default() += 1;
        }
    }
    let mut langs: Vec<_> = by_lang.into_iter().collect();
    langs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    out.languages = langs;
    dirs.sort();
    files.sort();
    let mut top: Vec<String> = dirs.into_iter().chain(files).collect();
    out.more_top = top.len().saturating_sub(MAX_TOP);
    top.truncate(MAX_TOP);
    out.top = top;
    out
}

impl Overview {
    /// The lines the model reads, e.g.
    /// `Repository: 412 files. Languages: Go 230, TypeScript 120 (…)`.
    pub fn render(&self) -> String {
        let at_least = if self.truncated { "at least " } else { "" };
        let mut out = format!("Repository: {at_least}{} files.", group(self.files as u64));
        if self.languages.is_empty() {
            out.push_str(" No source files in a known language.");
        } else {
            let shown: Vec<String> = self
                .languages
                .iter()
                .take(MAX_LANGUAGES)
                .map(|(l, n)| format!("{l} {}", group(*n as u64)))
                .collect();
            out.push_str(&format!(" Languages: {}.", shown.join(", ")));
            let in_graph = |l: &str| {
                matches!(
                    l,
                    "Go" | "Python" | "TypeScript" | "JavaScript" | "Rust" | "Java"
                )
            };
            let graph = self.languages.iter().any(|(l, _)| in_graph(l));
            let others = self.languages.iter().any(|(l, _)| !in_graph(l));
            match (graph, others) {
                (true, false) => {}
                (true, true) => out.push_str(
                    " `code` covers the Go, Python, TypeScript, JavaScript, Rust and Java files; search the others with bash rg.",
                ),
                (false, _) => out.push_str(
                    " `code` covers only Go, Python, TypeScript, JavaScript, Rust and Java, so it has nothing here: search with bash rg and read.",
                ),
            }
        }
        if !self.top.is_empty() {
            out.push_str(&format!("\nTop level: {}", self.top.join(" ")));
            if self.more_top > 0 {
                out.push_str(&format!(" … and {} more", self.more_top));
            }
        }
        out
    }
}

/// 1234567 → "1,234,567": counts the model reads (files here, tokens in the agent's
/// budget notes).
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn repo(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x\n").unwrap();
        }
        dir
    }

    #[test]
    fn counts_languages_and_names_the_top_level() {
        let dir = repo(&[
            "go.mod",
            "cmd/app/main.go",
            "internal/a.go",
            "internal/b.go",
            "web/src/app.ts",
            "node_modules/x/index.js",
            ".git/config",
            "README.md",
        ]);
        std::fs::write(dir.path().join(".gitignore"), "web/dist/\n").unwrap();
        std::fs::create_dir_all(dir.path().join("web/dist")).unwrap();
        std::fs::write(dir.path().join("web/dist/bundle.js"), "x").unwrap();
        let o = survey_path(dir.path());
        assert_eq!(o.files, 6);
        assert_eq!(o.languages, vec![("Go", 3), ("TypeScript", 1)]);
        assert_eq!(o.top, ["cmd/", "internal/", "web/", "README.md", "go.mod"]);
        assert_eq!(
            o.render(),
            "Repository: 6 files. Languages: Go 3, TypeScript 1.\nTop level: cmd/ internal/ \
             web/ README.md go.mod"
        );
    }

    #[test]
    fn a_repository_without_go_or_python_is_told_to_search_by_text() {
        let dir = repo(&["lib/app.rb", "lib/user.rb", "Gemfile"]);
        let text = survey_path(dir.path()).render();
        assert_eq!(
            text,
            "Repository: 3 files. Languages: Ruby 2. `code` covers only Go, Python, TypeScript, \
             JavaScript, Rust and Java, so it has nothing here: search with bash rg and read.\nTop \
             level: lib/ Gemfile"
        );
    }

    #[test]
    fn empty_and_long_listings_stay_short() {
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(
            survey_path(empty.path()).render(),
            "Repository: 0 files. No source files in a known language."
        );
        let names: Vec<String> = (0..30).map(|i| format!("f{i:02}.py")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let dir = repo(&refs);
        let o = survey_path(dir.path());
        assert_eq!(o.top.len(), MAX_TOP);
        assert_eq!(o.more_top, 6);
        assert!(
            o.render().ends_with("f23.py … and 6 more"),
            "{}",
            o.render()
        );
        assert_eq!(group(1_234_567), "1,234,567");
        assert_eq!(group(60_000), "60,000");
        assert_eq!(group(999), "999");
    }
}
