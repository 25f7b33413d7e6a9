//! `read`: a numbered window of one file, at most 300 lines at a time.
//!
//! Spec 000 found agents spending thousands of tokens reading whole files; a window with
//! line numbers, a header that gives the file's length, and a footer with the exact
//! arguments of the next page lets the model read only what it needs. Everything that can
//! go wrong (a directory, a binary, an empty file, a range past the end, a secret) gets its
//! own message saying what to do instead. The text is shown through
//! [`display::escape`](crate::display::escape), as every tool shows file text: a hostile
//! file's bidi overrides, terminal escapes and invisible characters appear as `\u{…}`
//! escapes with a note naming their lines, and the line numbers stay the file's.

use schemars::JsonSchema;
use serde::Deserialize;

use std::borrow::Cow;

use crate::display::{self, Hidden, Layout, escape_for_display};
use crate::root::RepoRoot;
use crate::spill::{HANDLE_PREFIX, SpillStore};
use crate::{Finding, Tool, ToolError, ToolOutput, args, secrets};

/// Default and maximum number of lines per call.
pub const MAX_LINES: u32 = 300;
/// Characters kept of one line; the rest is cut with a marker.
pub const MAX_LINE_CHARS: usize = 2000;
/// Largest file `read` opens.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

const FIELDS: [&str; 3] = ["file", "start_line?", "num_lines?"];
const EXAMPLE: &str = r#"{"file":"internal/model/issue.go","start_line":40,"num_lines":60}"#;

/// Arguments of `read`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadArgs {
    /// File to read, relative to the repository root (or an `@out/N` handle of a cut output).
    pub file: String,
    /// First line to show, 1-based (default 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub start_line: Option<u32>,
    /// How many lines to show (default and max 300).
    #[serde(default)]
    #[schemars(range(min = 1, max = 300))]
    pub num_lines: Option<u32>,
}

/// The `read` tool.
#[derive(Debug, Clone)]
pub struct ReadTool {
    root: RepoRoot,
    spill: SpillStore,
}

impl ReadTool {
    /// A `read` tool confined to `root`, paging cut outputs from `spill`.
    pub fn new(root: RepoRoot, spill: SpillStore) -> Self {
        Self { root, spill }
    }
}

impl Tool for ReadTool {
    fn name(&self) -> crate::ToolName {
        crate::ToolName::Read
    }

    fn description(&self) -> &'static str {
        include_str!("../../../prompts/tools/read.md")
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(ReadArgs)).unwrap_or_default()
    }

    fn call(&self, raw: &serde_json::Value) -> Result<ToolOutput, ToolError> {
        let a: ReadArgs = args::parse("read", raw, &FIELDS, EXAMPLE)?;
        let start = a.start_line.unwrap_or(1);
        let num = a.num_lines.unwrap_or(MAX_LINES);
        if start == 0 {
            return Err(args::invalid(
                "read",
                "`start_line` is 1-based; the first line is 1",
                &FIELDS,
                EXAMPLE,
            ));
        }
        if !(1..=MAX_LINES).contains(&num) {
            return Err(args::invalid(
                "read",
                &format!(
                    "`num_lines` must be from 1 to {MAX_LINES}, got {num}; read the rest in further calls"
                ),
                &FIELDS,
                EXAMPLE,
            ));
        }
        if a.file.starts_with(HANDLE_PREFIX)
            && let Some(text) = self.spill.get(&a.file)
        {
            let window = window(&a.file, &text, start, num, false)?;
            // A spilled output is not a repo file: it is no evidence by itself.
            return Ok(ToolOutput::text(window.text));
        }
        let resolved = self.root.resolve(&a.file)?;
        let meta = std::fs::metadata(&resolved.abs)
            .map_err(|e| ToolError::failed(format!("Cannot read `{}`: {e}.", resolved.rel)))?;
        if meta.is_dir() {
            return Err(ToolError::invalid_arguments(format!(
                "`{}` is a directory. List it with tree {{\"path\":\"{}\"}} and read one of its files.",
                resolved.rel, resolved.rel
            )));
        }
        if let Some(why) = secrets::refusal(std::path::Path::new(&a.file), &resolved.abs, &meta) {
            return Err(ToolError::refused(why));
        }
        if secrets::is_git_config(&resolved.rel) {
            return Err(ToolError::refused(format!(
                "Refused: {} (a bash command).",
                secrets::git_config_refusal(&escape_for_display(&a.file), &resolved.rel)
            )));
        }
        if !meta.is_file() {
            return Err(ToolError::refused(format!(
                "`{}` is not a regular file (a device, socket or pipe); it cannot be read.",
                resolved.rel
            )));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(ToolError::refused(format!(
                "`{}` is {} MiB, too large to page through; search it instead, e.g. bash {{\"command\":\"grep -n PATTERN {}\"}}.",
                resolved.rel,
                meta.len() / (1024 * 1024),
                resolved.rel
            )));
        }
        let bytes = std::fs::read(&resolved.abs).map_err(|e| match e.kind() {
            std::io::ErrorKind::PermissionDenied => ToolError::failed(format!(
                "Cannot read `{}`: permission denied. Try another file.",
                resolved.rel
            )),
            _ => ToolError::failed(format!("Cannot read `{}`: {e}.", resolved.rel)),
        })?;
        if bytes.is_empty() {
            return Ok(ToolOutput {
                text: format!("`{}` is empty (0 lines).", resolved.rel),
                findings: vec![Finding::file(resolved.rel)],
                detail: None,
            });
        }
        let sniff = &bytes[..bytes.len().min(8192)];
        if memchr::memchr(0, sniff).is_some() {
            return Err(ToolError::refused(format!(
                "`{}` is a binary file ({} bytes); its contents are not shown. Look for the source or documentation that describes it.",
                resolved.rel,
                bytes.len()
            )));
        }
        let (text, lossy) = match String::from_utf8(bytes) {
            Ok(s) => (s, false),
            Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
        };
        let w = window(&resolved.rel, &text, start, num, lossy)?;
        Ok(ToolOutput {
            text: w.text,
            findings: vec![Finding::range(resolved.rel, w.first, w.last)],
            detail: None,
        })
    }
}

struct Window {
    text: String,
    first: u32,
    last: u32,
}

fn window(name: &str, text: &str, start: u32, num: u32, lossy: bool) -> Result<Window, ToolError> {
    let shown_name = escape_for_display(name);
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len() as u32;
    if start > total {
        let from = total.saturating_sub(MAX_LINES - 1).max(1);
        return Err(ToolError::invalid_arguments(format!(
            "`{shown_name}` has {total} {}; start_line {start} is past the end. To see its end, read {{\"file\":\"{shown_name}\",\"start_line\":{from}}}.",
            plural(total, "line")
        )));
    }
    let last = (start + num - 1).min(total);
    let width = last.to_string().len().max(6);
    let mut body = String::new();
    let mut hidden = Hidden::default();
    let mut hidden_lines: Vec<usize> = Vec::new();
    for (i, line) in lines[(start - 1) as usize..last as usize]
        .iter()
        .enumerate()
    {
        let n = start as usize + i;
        let line = line.strip_suffix('\r').unwrap_or(line);
        let chars = line.chars().count();
        let (kept, cut) = if chars > MAX_LINE_CHARS {
            let kept: String = line.chars().take(MAX_LINE_CHARS).collect();
            (
                Cow::Owned(kept),
                format!(" … [line cut: {chars} characters]"),
            )
        } else {
            (Cow::Borrowed(line), String::new())
        };
        let before = hidden.total();
        let shown = display::escape(&kept, Layout::Text, &mut hidden);
        if hidden.total() > before {
            hidden_lines.push(n);
        }
        body.push_str(&format!("{n:>width$}\t{shown}{cut}\n"));
    }
    let mut out = format!(
        "{shown_name}: lines {start}-{last} of {total}{}\n",
        if lossy {
            " (not valid UTF-8: invalid bytes shown as \u{fffd})"
        } else {
            ""
        }
    );
    if let Some(note) = hidden.note(&on_lines(&hidden_lines)) {
        out.push_str(&note);
        out.push('\n');
    }
    out.push_str(&body);
    if last < total {
        out.push_str(&format!(
            "({} more {}; next page: read {{\"file\":\"{shown_name}\",\"start_line\":{}}})",
            total - last,
            plural(total - last, "line"),
            last + 1
        ));
    } else {
        out.push_str("(end of file)");
    }
    Ok(Window {
        text: out,
        first: start,
        last,
    })
}

/// `on line 3`, `on lines 3 and 7`, `on lines 3, 7, 9 and 4 more`.
fn on_lines(lines: &[usize]) -> String {
    const SHOWN: usize = 5;
    let mut names: Vec<String> = lines.iter().take(SHOWN).map(|n| n.to_string()).collect();
    if lines.len() > SHOWN {
        names.push(format!("{} more", lines.len() - SHOWN));
    }
    match names.split_last() {
        None => String::new(),
        Some((only, [])) => format!("on line {only}"),
        Some((last, rest)) => format!("on lines {} and {last}", rest.join(", ")),
    }
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}
