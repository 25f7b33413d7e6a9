//! `tree`: the layout of a directory, so the model knows where to look before it searches.
//!
//! Spec 000's behaviour: depth 2 by default and 4 at most, a fixed list of directories that
//! are never worth listing, `.gitignore` respected, directories first with a trailing `/`,
//! `├──`/`└──` connectors, and at most 200 entries with a note that says how to narrow.
//! Symlinks are shown but never followed, so a link cannot lead the listing out of the
//! repository or round a loop.

use std::collections::BTreeMap;
use std::path::Path;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::display::display_name;
use crate::root::RepoRoot;
use crate::{Finding, Tool, ToolError, ToolOutput, args};

/// Directories never listed: VCS data, dependencies, caches and build output.
pub const EXCLUDED_DIRS: [&str; 13] = [
    ".git",
    "node_modules",
    "vendor",
    "__pycache__",
    ".next",
    "dist",
    "build",
    ".idea",
    ".vscode",
    ".cache",
    "coverage",
    ".turbo",
    "target",
];

/// Default listing depth.
pub const DEFAULT_DEPTH: u32 = 2;
/// Deepest listing allowed.
pub const MAX_DEPTH: u32 = 4;
/// Most entries shown before the listing is cut.
pub const MAX_ENTRIES: usize = 200;

const FIELDS: [&str; 2] = ["path?", "depth?"];
const EXAMPLE: &str = r#"{"path":"internal","depth":2}"#;

/// Arguments of `tree`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TreeArgs {
    /// Directory to list, relative to the repository root (default: the root).
    #[serde(default)]
    pub path: Option<String>,
    /// How many levels to show (default 2, max 4).
    #[serde(default)]
    #[schemars(range(min = 1, max = 4))]
    pub depth: Option<u32>,
}

/// The `tree` tool.
#[derive(Debug, Clone)]
pub struct TreeTool {
    root: RepoRoot,
}

impl TreeTool {
    /// A `tree` tool confined to `root`.
    pub fn new(root: RepoRoot) -> Self {
        Self { root }
    }
}

#[derive(Default)]
struct Dir {
    dirs: BTreeMap<String, Dir>,
    files: Vec<String>,
}

impl Dir {
    fn count(&self) -> usize {
        self.files.len() + self.dirs.values().map(|d| 1 + d.count()).sum::<usize>()
    }
}

impl Tool for TreeTool {
    fn name(&self) -> crate::ToolName {
        crate::ToolName::Tree
    }

    fn description(&self) -> &'static str {
        include_str!("../../../prompts/tools/tree.md")
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(TreeArgs)).unwrap_or_default()
    }

    fn call(&self, raw: &serde_json::Value) -> Result<ToolOutput, ToolError> {
        let a: TreeArgs = args::parse("tree", raw, &FIELDS, EXAMPLE)?;
        let depth = a.depth.unwrap_or(DEFAULT_DEPTH);
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(args::invalid(
                "tree",
                &format!(
                    "`depth` must be from 1 to {MAX_DEPTH}, got {depth}; to see deeper, list a subdirectory with `path`"
                ),
                &FIELDS,
                EXAMPLE,
            ));
        }
        let input = a.path.as_deref().unwrap_or("");
        let resolved = self.root.resolve(input)?;
        if !resolved.abs.is_dir() {
            return Err(ToolError::invalid_arguments(format!(
                "`{}` is a file, not a directory. Read it with read {{\"file\":\"{}\"}}, or list its directory with tree.",
                resolved.rel, resolved.rel
            )));
        }

        let mut top = Dir::default();
        let mut findings = Vec::new();
        let walker = ignore::WalkBuilder::new(&resolved.abs)
            .max_depth(Some(depth as usize))
            .hidden(false)
            .git_ignore(true)
            .git_exclude(false)
            .git_global(false)
            .require_git(false)
            .parents(true)
            .follow_links(false)
            .filter_entry(|e| {
                !(e.file_type().is_some_and(|t| t.is_dir())
                    && EXCLUDED_DIRS.contains(&e.file_name().to_string_lossy().as_ref()))
            })
            .build();
        for entry in walker {
            let Ok(entry) = entry else { continue };
            if entry.depth() == 0 {
                continue;
            }
            let Ok(rel_to_listed) = entry.path().strip_prefix(&resolved.abs) else {
                continue;
            };
            let mut node = &mut top;
            let parts: Vec<_> = rel_to_listed.components().collect();
            for c in &parts[..parts.len().saturating_sub(1)] {
                node = node.dirs.entry(display_name(c.as_os_str())).or_default();
            }
            let name = display_name(entry.file_name());
            let ft = entry.file_type();
            if ft.is_some_and(|t| t.is_dir()) {
                node.dirs.entry(name).or_default();
            } else if ft.is_some_and(|t| t.is_symlink()) {
                node.files.push(self.describe_link(entry.path(), &name));
            } else {
                if let Some(rel) = self.root.rel_of(entry.path()) {
                    findings.push(Finding::file(rel));
                }
                node.files.push(name);
            }
        }

        let header = if resolved.rel == "." {
            "./".to_string()
        } else {
            format!("{}/", resolved.rel)
        };
        let total = top.count();
        if total == 0 {
            return Ok(ToolOutput {
                text: format!("{header}\n(empty directory)"),
                findings,
                detail: None,
            });
        }
        let mut lines = vec![header];
        let mut shown = 0usize;
        render(&top, "", &mut lines, &mut shown);
        if total > MAX_ENTRIES {
            let biggest = top
                .dirs
                .iter()
                .max_by_key(|(_, d)| d.count())
                .map(|(n, _)| n.clone());
            let narrow = match biggest {
                Some(d) => {
                    let p = if resolved.rel == "." {
                        d
                    } else {
                        format!("{}/{d}", resolved.rel)
                    };
                    format!("list a subdirectory, e.g. tree {{\"path\":\"{p}\"}}")
                }
                None => "use a smaller depth".to_string(),
            };
            lines.push(format!(
                "... truncated: showing {MAX_ENTRIES} of {total} entries; {narrow}, or lower depth"
            ));
        }
        Ok(ToolOutput {
            text: lines.join("\n"),
            findings,
            detail: None,
        })
    }
}

impl TreeTool {
    fn describe_link(&self, link: &Path, name: &str) -> String {
        match link.canonicalize() {
            Ok(target) => match self.root.rel_of(&target) {
                Some(rel) if target.is_dir() => format!("{name} -> {rel}/"),
                Some(rel) => format!("{name} -> {rel}"),
                None => format!("{name} -> (outside the repository)"),
            },
            Err(_) => format!("{name} -> (broken or looping link)"),
        }
    }
}

fn render(dir: &Dir, prefix: &str, lines: &mut Vec<String>, shown: &mut usize) {
    let mut files = dir.files.clone();
    files.sort();
    let n = dir.dirs.len() + files.len();
    let entries = dir
        .dirs
        .iter()
        .map(|(name, d)| (format!("{name}/"), Some(d)))
        .chain(files.into_iter().map(|f| (f, None)));
    for (i, (label, sub)) in entries.enumerate() {
        if *shown >= MAX_ENTRIES {
            return;
        }
        let last = i + 1 == n;
        lines.push(format!(
            "{prefix}{}{label}",
            if last { "└── " } else { "├── " }
        ));
        *shown += 1;
        if let Some(d) = sub {
            let child = format!("{prefix}{}", if last { "    " } else { "│   " });
            render(d, &child, lines, shown);
        }
    }
}
