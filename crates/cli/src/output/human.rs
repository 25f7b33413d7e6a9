//! `--format human`: the answer, then each file with its role, rationale and locations.
//!
//! Every location is its own line starting with `path:line:`, the shape grep, compilers,
//! Vim's quickfix and Emacs' compilation mode all jump to, and which terminals make
//! clickable. On a terminal the path is also an OSC 8 hyperlink to the file. Colour only
//! when stdout is a terminal (anstream's rules: `NO_COLOR`, `CLICOLOR`, `CLICOLOR_FORCE`).
//!
//! The answer, rationales and even paths come from a model that read hostile files, so
//! every control character is escaped before it reaches the terminal: a result must not be
//! able to move the cursor, retitle the window or forge lines.

use std::fmt::Write as _;
use std::io;
use std::path::PathBuf;

use explore_agent::{Event, EventSink, ExploreResult, Location, StopReason};
use explore_tools::root::escape_for_display;
use owo_colors::OwoColorize;

use super::{Printer, write_stdout};

/// How the human output is decorated.
#[derive(Debug, Clone, Default)]
pub struct HumanStyle {
    /// ANSI colours.
    pub color: bool,
    /// OSC 8 hyperlinks on paths (needs the repository root to build `file://` URLs).
    pub hyperlinks: Option<PathBuf>,
    /// Wrap prose (answer, rationales) at this many columns; `None` leaves lines whole,
    /// as a pipe or a file wants them.
    pub width: Option<usize>,
}

impl HumanStyle {
    /// The style for stdout as it is: colour and links only on a colour terminal.
    pub fn detect(repo: PathBuf) -> Self {
        let color = anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never;
        let terminal = io::IsTerminal::is_terminal(&io::stdout());
        let width = terminal
            .then(terminal_size::terminal_size)
            .flatten()
            .map(|(w, _)| usize::from(w.0).clamp(40, 120));
        HumanStyle {
            color,
            hyperlinks: (color && terminal).then_some(repo),
            width,
        }
    }
}

/// Prints the human rendering at the end.
#[derive(Debug, Clone)]
pub struct HumanPrinter {
    style: HumanStyle,
}

impl HumanPrinter {
    /// A printer with this style.
    pub fn new(style: HumanStyle) -> Self {
        HumanPrinter { style }
    }
}

impl EventSink for HumanPrinter {
    fn emit(&self, _event: &Event) {}
}

impl Printer for HumanPrinter {
    fn finish(&self, result: &ExploreResult) -> io::Result<()> {
        write_stdout(&render(result, &self.style))
    }
}

/// Escapes one line of untrusted text for the terminal.
fn clean(s: &str) -> String {
    escape_for_display(s)
}

/// Escapes untrusted multi-line text, keeping its line breaks.
fn clean_lines(s: &str) -> String {
    s.trim()
        .lines()
        .map(|l| escape_for_display(l.trim_end()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Renders a result for people.
pub fn render(result: &ExploreResult, style: &HumanStyle) -> String {
    let mut out = String::new();
    let paint = |s: &str, f: fn(&str) -> String| if style.color { f(s) } else { s.to_string() };
    let bold = |s: &str| s.bold().to_string();
    let dim = |s: &str| s.dimmed().to_string();
    let cyan = |s: &str| s.cyan().to_string();
    let magenta = |s: &str| s.magenta().to_string();
    let yellow = |s: &str| s.yellow().to_string();
    let green = |s: &str| s.green().to_string();

    let answer = clean_lines(&result.answer);
    for line in answer.lines() {
        for piece in wrap(line, style.width) {
            let _ = writeln!(out, "{piece}");
        }
    }

    for (n, file) in result.relevant_files.iter().enumerate() {
        let path = clean(&file.path);
        let shown_path = link(style, &file.path, &paint(&path, bold));
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{}. {}  {}",
            n + 1,
            shown_path,
            paint(file.role.as_str(), magenta)
        );
        let rationale = clean_lines(&file.rationale);
        for line in rationale.lines() {
            for piece in wrap(line, style.width.map(|w| w.saturating_sub(3))) {
                let _ = writeln!(out, "   {piece}");
            }
        }
        for loc in &file.locations {
            let at = format!("{path}:{}", loc.line);
            let at = link(style, &file.path, &paint(&at, cyan));
            match describe(loc) {
                Some(what) => writeln!(out, "{at}: {what}"),
                None => writeln!(out, "{at}"),
            }
            .ok();
        }
    }

    let m = &result.metadata;
    let outcome = match m.stop_reason {
        StopReason::Answered => paint("answered", green),
        StopReason::NotFound => paint("nothing relevant found", yellow),
        reason => paint(
            &format!("stopped early ({}): partial result", reason.as_str()),
            yellow,
        ),
    };
    let files = match result.relevant_files.len() {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    let turns = match m.turns {
        1 => "1 turn".to_string(),
        n => format!("{n} turns"),
    };
    let mut footer = format!(
        "{files} · {turns} · {} of {} tokens · {} ms · {} engine",
        m.usage.total_tokens, m.usage.budget, m.duration_ms, m.engine
    );
    if let Some(model) = &m.model {
        let _ = write!(footer, " ({})", clean(model));
    }
    if m.extra.get("cache").and_then(|v| v.as_str()) == Some("hit") {
        footer.push_str(" · from the cache");
    }
    // `--engine auto` with a model answered this without it: say so, and why.
    if let Some(reason) = m
        .extra
        .get("routing")
        .filter(|r| r["verdict"] == "certain")
        .and_then(|r| r["reason"].as_str())
    {
        let _ = write!(footer, " · no model needed: {}", clean(reason));
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "{outcome} · {}", paint(&footer, dim));
    out
}

/// Greedy word wrap at `width` columns (characters); a word longer than the width gets a
/// line of its own, never split (it may be a path someone wants to click).
fn wrap(line: &str, width: Option<usize>) -> Vec<String> {
    let Some(width) = width else {
        return vec![line.to_string()];
    };
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let len = current.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    lines.push(current);
    lines
}

/// `IssueStore (interface, lines 62-66)`, or what is known of it; `None` when nothing is.
fn describe(loc: &Location) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(kind) = &loc.kind {
        parts.push(clean(kind));
    }
    match loc.end_line {
        Some(end) if end > loc.line => parts.push(format!("lines {}-{end}", loc.line)),
        _ => {}
    }
    match (&loc.symbol, parts.is_empty()) {
        (Some(sym), true) => Some(clean(sym)),
        (Some(sym), false) => Some(format!("{} ({})", clean(sym), parts.join(", "))),
        (None, true) => None,
        (None, false) => Some(parts.join(", ")),
    }
}

/// Wraps `shown` in an OSC 8 hyperlink to the file when the style asks for links.
fn link(style: &HumanStyle, rel: &str, shown: &str) -> String {
    let Some(root) = &style.hyperlinks else {
        return shown.to_string();
    };
    let abs = root.join(rel);
    let url: String = abs
        .display()
        .to_string()
        .chars()
        .map(|c| match c {
            c if c.is_ascii_alphanumeric() || "/-_.~".contains(c) => c.to_string(),
            c => {
                let mut buf = [0u8; 4];
                c.encode_utf8(&mut buf)
                    .bytes()
                    .map(|b| format!("%{b:02X}"))
                    .collect()
            }
        })
        .collect();
    format!("\x1b]8;;file://{url}\x1b\\{shown}\x1b]8;;\x1b\\")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use explore_agent::{Metadata, RelevantFile, Role, Usage};

    use super::*;

    fn sample() -> ExploreResult {
        ExploreResult {
            version: 1,
            query: "where is IssueStore defined".into(),
            angle: "general".into(),
            answer: "IssueStore is an interface in internal/model/issue.go:62.\x1b]0;pwned\x07"
                .into(),
            relevant_files: vec![RelevantFile {
                path: "internal/model/issue.go".into(),
                rationale: "Declares the IssueStore interface".into(),
                role: Role::TypeDefinition,
                discovery_source: "code".into(),
                key_symbols: vec!["IssueStore".into()],
                locations: vec![
                    Location {
                        line: 62,
                        end_line: Some(66),
                        symbol: Some("IssueStore".into()),
                        kind: Some("interface".into()),
                    },
                    Location {
                        line: 70,
                        end_line: None,
                        symbol: None,
                        kind: None,
                    },
                ],
            }],
            patterns: vec![],
            dependencies: vec![],
            external_refs: vec![],
            metadata: Metadata {
                created_by: "explore".into(),
                timestamp: "2026-11-21T10:00:00Z".into(),
                cache_key: "general".into(),
                engine: "local".into(),
                model: None,
                search_sources: vec!["code".into()],
                total_files_scanned: 41,
                relevant_file_count: 1,
                partial: false,
                stop_reason: StopReason::Answered,
                usage: Usage {
                    budget: 60000,
                    ..Usage::default()
                },
                turns: 1,
                tool_calls: BTreeMap::new(),
                duration_ms: 12,
                extra: serde_json::Map::new(),
            },
        }
    }

    #[test]
    fn plain_rendering_has_clickable_locations_and_no_escapes() {
        let text = render(&sample(), &HumanStyle::default());
        assert_eq!(
            text,
            "IssueStore is an interface in internal/model/issue.go:62.\\u{001b}]0;pwned\\u{0007}\n\
             \n\
             1. internal/model/issue.go  type_definition\n   \
             Declares the IssueStore interface\n\
             internal/model/issue.go:62: IssueStore (interface, lines 62-66)\n\
             internal/model/issue.go:70\n\
             \n\
             answered · 1 file · 1 turn · 0 of 60000 tokens · 12 ms · local engine\n"
        );
    }

    #[test]
    fn terminal_rendering_links_paths_to_files() {
        let style = HumanStyle {
            color: true,
            hyperlinks: Some(PathBuf::from("/src/my repo")),
            width: None,
        };
        let text = render(&sample(), &style);
        assert!(text.contains(
            "\x1b]8;;file:///src/my%20repo/internal/model/issue.go\x1b\\\x1b[36minternal/model/issue.go:62\x1b[39m\x1b]8;;\x1b\\: IssueStore"
        ), "{text:?}");
    }

    #[test]
    fn prose_wraps_on_a_terminal_only() {
        assert_eq!(
            wrap("one two three internal/model/issue.go:62 four", Some(10)),
            vec!["one two", "three", "internal/model/issue.go:62", "four"]
        );
        assert_eq!(wrap("one two three", None), vec!["one two three"]);
        let mut r = sample();
        r.answer = "IssueStore is an interface declared in the model package".into();
        let style = HumanStyle {
            width: Some(40),
            ..HumanStyle::default()
        };
        let text = render(&r, &style);
        assert!(
            text.starts_with("IssueStore is an interface declared in\nthe model package\n\n"),
            "{text}"
        );
    }

    #[test]
    fn partial_results_say_so() {
        let mut r = sample();
        r.metadata.stop_reason = StopReason::Budget;
        r.metadata.partial = true;
        let text = render(&r, &HumanStyle::default());
        assert!(
            text.ends_with("stopped early (budget): partial result · 1 file · 1 turn · 0 of 60000 tokens · 12 ms · local engine\n"),
            "{text}"
        );
    }
}
