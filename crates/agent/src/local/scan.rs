//! A line-based symbol scanner: the corpus for ranking when the code graph cannot give one.
//!
//! The code graph (tree-sitter, `explore-tools`' `code` module) is the real source of
//! symbols, docs and call edges. This scanner is the fallback for when its index is not
//! available: it takes the files of the one repository walk ([`explore_tools::walk`]:
//! `.gitignore` respected, the contract's secret files skipped), reads them as the text
//! search does (nothing over 1 MiB), and recognises Go and Python definitions by their
//! leading keywords, with the comment or docstring that documents them; other languages
//! get the shape-based definitions of [`super::lexical`]. It finds no call edges, so
//! ranking over its corpus is lexical only.

use std::path::Path;

use super::lines::{ident_prefix, indent_block_end, indent_of};
use super::rank::{Corpus, SymbolInfo};

/// Extensions whose files are listed in the corpus (their paths are searchable).
const LISTED: &[&str] = &[
    "go", "py", "rs", "js", "ts", "java", "rb", "c", "h", "cc", "cpp", "proto", "toml", "yaml",
    "yml", "json", "md", "txt", "cfg", "ini", "mod", "sql", "sh",
];

/// Walks the repository at `root` and scans every Go and Python file.
pub fn scan_repo(root: &Path) -> Corpus {
    let mut corpus = Corpus::default();
    let paths = explore_tools::walk::files(root).into_iter().filter(|f| {
        let name = f.rel.rsplit('/').next().unwrap_or("");
        let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        LISTED.contains(&ext) || name == "Makefile" || name == "Dockerfile"
    });
    for rel in paths.map(|f| f.rel) {
        let file = corpus.files.len();
        let lang = if rel.ends_with(".go") {
            Some(Lang::Go)
        } else if rel.ends_with(".py") {
            Some(Lang::Python)
        } else {
            None
        };
        let source = super::lexical::language_of(&rel).is_some();
        corpus.files.push(rel);
        if lang.is_none() && !source {
            continue;
        }
        // Listed but not scanned when over 1 MiB or multiply linked, as the text search.
        let Some(text) = super::lexical::read_source(root, &corpus.files[file]) else {
            continue;
        };
        match lang {
            Some(lang) => corpus.symbols.extend(scan_source(&text, lang, file)),
            // Other languages: definitions recognised by the shape of a line.
            None => {
                let rel = &corpus.files[file];
                corpus
                    .symbols
                    .extend(super::lexical::symbols(&text, rel, file));
            }
        }
    }
    corpus
}

/// A language the scanner knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Go.
    Go,
    /// Python.
    Python,
}

/// The definitions in one file's text.
pub fn scan_source(text: &str, lang: Lang, file: usize) -> Vec<SymbolInfo> {
    let lines: Vec<&str> = text.lines().collect();
    match lang {
        Lang::Go => scan_go(&lines, file),
        Lang::Python => scan_python(&lines, file),
    }
}

fn go_doc(lines: &[&str], i: usize) -> String {
    let mut doc = Vec::new();
    let mut j = i;
    while j > 0 {
        let l = lines[j - 1].trim();
        if let Some(c) = l.strip_prefix("//") {
            doc.push(c.trim().to_string());
            j -= 1;
        } else {
            break;
        }
    }
    doc.reverse();
    doc.join(" ")
}

/// The line of the `}` that closes a block opened on line `i` (0-based), by brace depth;
/// braces in strings and comments are rare enough at this level to ignore.
fn go_block_end(lines: &[&str], i: usize) -> usize {
    super::lines::brace_block_end(lines, i, 3, false)
}

fn scan_go(lines: &[&str], file: usize) -> Vec<SymbolInfo> {
    let mut out = Vec::new();
    // The keyword of the `const (` / `var (` / `type (` group we are in.
    let mut group: Option<&str> = None;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let line = (i + 1) as u32;
        if let Some(kw) = group {
            if l.starts_with(')') {
                group = None;
            } else if let Some(rest) = l.strip_prefix('\t')
                && !rest.starts_with(['\t', ' ', '/'])
            {
                let name = ident_prefix(rest);
                if !name.is_empty() {
                    let after = rest[name.len()..].trim_start();
                    let kind = match kw {
                        "type" if after.starts_with("struct") => "struct",
                        "type" if after.starts_with("interface") => "interface",
                        k => k,
                    };
                    out.push(SymbolInfo {
                        name: name.to_string(),
                        display: name.to_string(),
                        kind: kind.into(),
                        file,
                        line,
                        end_line: line,
                        doc: go_doc(lines, i),
                    });
                }
            }
            i += 1;
            continue;
        }
        if let Some(kw) = ["const (", "var (", "type ("]
            .iter()
            .find(|p| l.trim_end() == **p)
        {
            group = kw.split(' ').next();
            i += 1;
            continue;
        }
        if let Some(rest) = l.strip_prefix("func ") {
            let (recv, rest) = if let Some(r) = rest.strip_prefix('(') {
                let close = r.find(')').unwrap_or(0);
                let recv_ty = r[..close]
                    .split_whitespace()
                    .last()
                    .unwrap_or("")
                    .trim_start_matches('*');
                let recv_ty = ident_prefix(recv_ty).to_string();
                (Some(recv_ty), r[close + 1..].trim_start())
            } else {
                (None, rest)
            };
            let name = ident_prefix(rest);
            if !name.is_empty() {
                let end = go_block_end(lines, i);
                let display = recv
                    .as_ref()
                    .map_or(name.to_string(), |r| format!("{r}.{name}"));
                out.push(SymbolInfo {
                    name: name.to_string(),
                    display,
                    kind: if recv.is_some() { "method" } else { "function" }.into(),
                    file,
                    line,
                    end_line: (end + 1) as u32,
                    doc: go_doc(lines, i),
                });
            }
        } else if let Some(rest) = l.strip_prefix("type ") {
            let name = ident_prefix(rest);
            if !name.is_empty() {
                let after = rest[name.len()..].trim_start();
                let kind = if after.starts_with("struct") {
                    "struct"
                } else if after.starts_with("interface") {
                    "interface"
                } else {
                    "type"
                };
                let end = if after.ends_with('{') {
                    go_block_end(lines, i)
                } else {
                    i
                };
                out.push(SymbolInfo {
                    name: name.to_string(),
                    display: name.to_string(),
                    kind: kind.into(),
                    file,
                    line,
                    end_line: (end + 1) as u32,
                    doc: go_doc(lines, i),
                });
            }
        } else if let Some((kw, rest)) = l
            .strip_prefix("const ")
            .map(|r| ("const", r))
            .or_else(|| l.strip_prefix("var ").map(|r| ("var", r)))
        {
            let name = ident_prefix(rest);
            if !name.is_empty() {
                out.push(SymbolInfo {
                    name: name.to_string(),
                    display: name.to_string(),
                    kind: kw.into(),
                    file,
                    line,
                    end_line: line,
                    doc: go_doc(lines, i),
                });
            }
        }
        i += 1;
    }
    out
}

fn python_docstring(lines: &[&str], i: usize) -> String {
    // The first non-blank line after the signature (which may span lines up to `:`).
    let mut j = i;
    while j < lines.len() && !lines[j].trim_end().ends_with(':') {
        j += 1;
    }
    let Some(l) = lines.get(j + 1).map(|l| l.trim()) else {
        return String::new();
    };
    for q in ["\"\"\"", "'''"] {
        if let Some(rest) = l.strip_prefix(q) {
            return rest.trim_end_matches(q).trim().to_string();
        }
    }
    String::new()
}

fn scan_python(lines: &[&str], file: usize) -> Vec<SymbolInfo> {
    let mut out = Vec::new();
    // (indent, class name) of enclosing classes.
    let mut classes: Vec<(usize, String)> = Vec::new();
    let mut in_string = false;
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        // Skip the bodies of module and function docstrings (`def flush():` in a docstring
        // is not a definition).
        let quotes = t.matches("\"\"\"").count() + t.matches("'''").count();
        if in_string {
            if quotes % 2 == 1 {
                in_string = false;
            }
            continue;
        }
        if quotes % 2 == 1 {
            in_string = true;
            continue;
        }
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let ind = indent_of(l);
        while classes.last().is_some_and(|c| c.0 >= ind) {
            classes.pop();
        }
        let line = (i + 1) as u32;
        let def = t
            .strip_prefix("async def ")
            .or_else(|| t.strip_prefix("def "))
            .map(|r| (r, false))
            .or_else(|| t.strip_prefix("class ").map(|r| (r, true)));
        if let Some((rest, is_class)) = def {
            let name = ident_prefix(rest);
            if name.is_empty() {
                continue;
            }
            let end = indent_block_end(lines, i, false);
            let owner = classes.last().map(|c| c.1.clone());
            let (kind, display) = match (&owner, is_class) {
                (_, true) => ("class", name.to_string()),
                (Some(o), false) => ("method", format!("{o}.{name}")),
                (None, false) => ("function", name.to_string()),
            };
            out.push(SymbolInfo {
                name: name.to_string(),
                display,
                kind: kind.into(),
                file,
                line,
                end_line: (end + 1) as u32,
                doc: python_docstring(lines, i),
            });
            if is_class {
                classes.push((ind, name.to_string()));
            }
        } else if ind == 0 {
            let name = ident_prefix(t);
            let rest = t[name.len()..].trim_start();
            let assigns = rest.starts_with('=') && !rest.starts_with("==")
                || rest.starts_with(':') && rest.contains('=');
            if !name.is_empty()
                && assigns
                && name.chars().any(|c| c.is_ascii_uppercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            {
                out.push(SymbolInfo {
                    name: name.to_string(),
                    display: name.to_string(),
                    kind: "const".into(),
                    file,
                    line,
                    end_line: line,
                    doc: String::new(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_definitions_with_docs_and_ranges() {
        let src = "package x\n\n// IssueStore persists issues.\ntype IssueStore interface {\n\tGet(id int) error\n}\n\nfunc (p *Planner) Plan(ctx int) error {\n\treturn nil\n}\n\nfunc Do() {}\n\nconst Max = 3\n\nconst (\n\t// Open is open.\n\tOpen Status = \"open\"\n\tClosed Status = \"closed\"\n)\n";
        let syms = scan_source(src, Lang::Go, 7);
        let got: Vec<(String, String, u32, u32, String)> = syms
            .iter()
            .map(|s| {
                (
                    s.display.clone(),
                    s.kind.clone(),
                    s.line,
                    s.end_line,
                    s.doc.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "IssueStore".into(),
                    "interface".into(),
                    4,
                    6,
                    "IssueStore persists issues.".into()
                ),
                ("Planner.Plan".into(), "method".into(), 8, 10, String::new()),
                ("Do".into(), "function".into(), 12, 12, String::new()),
                ("Max".into(), "const".into(), 14, 14, String::new()),
                (
                    "Open".into(),
                    "const".into(),
                    18,
                    18,
                    "Open is open.".into()
                ),
                ("Closed".into(), "const".into(), 19, 19, String::new()),
            ]
        );
        assert!(syms.iter().all(|s| s.file == 7));
    }

    #[test]
    fn python_definitions_methods_and_docstrings() {
        let src = "\"\"\"Module.\n\n    def flush():\n\"\"\"\nMAX_AMOUNT = 5\n\n\nclass Repository(abc.ABC):\n    \"\"\"Stores accounts.\"\"\"\n\n    def get(self, id):\n        return None\n\n\ndef retry(times=3):\n    \"\"\"Retry with backoff.\n    more\n    \"\"\"\n    pass\n";
        let syms = scan_source(src, Lang::Python, 0);
        let got: Vec<(String, String, u32, u32, String)> = syms
            .iter()
            .map(|s| {
                (
                    s.display.clone(),
                    s.kind.clone(),
                    s.line,
                    s.end_line,
                    s.doc.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("MAX_AMOUNT".into(), "const".into(), 5, 5, String::new()),
                (
                    "Repository".into(),
                    "class".into(),
                    8,
                    12,
                    "Stores accounts.".into()
                ),
                (
                    "Repository.get".into(),
                    "method".into(),
                    11,
                    12,
                    String::new()
                ),
                (
                    "retry".into(),
                    "function".into(),
                    15,
                    19,
                    "Retry with backoff.".into()
                ),
            ]
        );
    }
}
