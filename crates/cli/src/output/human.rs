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

use explore_agent::lists::ListReport;
use explore_agent::{Event, EventSink, ExploreResult, Location, Role, StopReason};
use explore_tools::display::{self, Hidden, Layout, escape_for_display};
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

/// Escapes untrusted multi-line text as every tool shows file text ([`display::escape`]):
/// line breaks and tabs kept, ESC and the other controls, bidi and invisible characters
/// escaped and counted in `hidden`.
fn clean_lines(s: &str, hidden: &mut Hidden) -> String {
    s.trim()
        .lines()
        .map(|l| display::escape(l.trim_end(), Layout::Text, hidden).into_owned())
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

    let mut hidden = Hidden::default();
    let answer = clean_lines(&result.answer, &mut hidden);
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
            paint(plain_role(file.role), magenta)
        );
        let (labels, rest) = split_rationale(&file.rationale, &file.locations);
        let rationale = clean_lines(&rest, &mut hidden);
        for line in rationale.lines() {
            for piece in wrap(line, style.width.map(|w| w.saturating_sub(3))) {
                let _ = writeln!(out, "   {piece}");
            }
        }
        for loc in &file.locations {
            let at = format!("{path}:{}", loc.line);
            let at = link(style, &file.path, &paint(&at, cyan));
            let what = match labels.iter().find(|(l, _)| *l == loc.line) {
                Some((_, label)) => Some(match loc.end_line {
                    // "Step Plan (method)" + lines: one parenthesis, "(method, lines 1-9)".
                    Some(end) if end > loc.line => match clean(label).strip_suffix(')') {
                        Some(open) => format!("{open}, lines {}-{end})", loc.line),
                        None => format!("{} (lines {}-{end})", clean(label), loc.line),
                    },
                    _ => clean(label),
                }),
                None => describe(loc),
            };
            match what {
                Some(what) => writeln!(out, "{at}: {what}"),
                None => writeln!(out, "{at}"),
            }
            .ok();
        }
    }

    if let Some(note) = hidden.note("in the answer") {
        let _ = writeln!(out);
        let _ = writeln!(out, "{}", paint(&note, dim));
    }

    let m = &result.metadata;
    // A list the files give only part of (a walk that stopped at its limit, a writer
    // that chose the first few) says so, with the command that prints it whole.
    let lists: Vec<ListReport> = m
        .extra
        .get("lists")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    let cut: Vec<&ListReport> = lists
        .iter()
        .filter(|l| l.listed > 0 && l.listed < l.total)
        .collect();
    if !cut.is_empty() {
        let _ = writeln!(out);
    }
    for l in cut {
        let _ = writeln!(
            out,
            "{} of {} {} of {} listed; the list: {}",
            l.listed,
            l.total,
            clean(&l.operation),
            clean(&l.symbol),
            clean(&l.rest)
        );
    }
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
    // Turns and tokens are a model's bookkeeping: the local engine has neither.
    let mut footer = if m.engine == "local" {
        format!("{files} · {} · local engine", duration(m.duration_ms))
    } else {
        format!(
            "{files} · {turns} · {} of {} tokens · {} · {} engine",
            m.usage.total_tokens,
            m.usage.budget,
            duration(m.duration_ms),
            m.engine
        )
    };
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

/// `21 ms` below a second, `9.7 s` above.
fn duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// A role in plain words: the JSON's `context_only` means nothing to someone reading
/// a terminal.
fn plain_role(role: Role) -> &'static str {
    match role {
        Role::ModifyTarget => "where to change",
        Role::Dependency => "a dependency",
        Role::PatternReference => "an example to follow",
        Role::TestTarget => "tests",
        Role::TypeDefinition => "type definitions",
        Role::IntegrationPoint => "an API boundary",
        Role::Config => "configuration",
        Role::ContextOnly => "background",
    }
}

/// Splits a rationale into the facts that name one of the file's locations ("Caller000
/// calls Target at line 6"), which become that location's label so each fact is one
/// line, and the rest, which stays the file's rationale. A fact is a `; `-separated
/// part naming exactly one `at line N` that is a location of the file.
fn split_rationale(rationale: &str, locations: &[Location]) -> (Vec<(u32, String)>, String) {
    const AT: &str = "at line ";
    let mut labels: Vec<(u32, String)> = Vec::new();
    let mut rest: Vec<String> = Vec::new();
    for part in rationale.split("; ") {
        let at = part.find(AT);
        let line = at.and_then(|i| {
            let digits: String = part[i + AT.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse::<u32>().ok().map(|n| (i, n, digits.len()))
        });
        let Some((i, n, len)) = line.filter(|&(i, n, _)| {
            part[i + AT.len()..].find(AT).is_none() && locations.iter().any(|l| l.line == n)
        }) else {
            rest.push(part.to_string());
            continue;
        };
        let head = part[..i]
            .trim_end()
            .trim_end_matches("declared")
            .trim_end()
            .trim_end_matches(',');
        let tail = &part[i + AT.len() + len..];
        // ", called by Plan" belongs to the fact; " (matches …)" or " — test code" is
        // about the whole file.
        let (label, about_file) = if tail.starts_with(',') {
            (format!("{head}{tail}"), "")
        } else {
            (head.to_string(), tail.trim())
        };
        match labels.iter_mut().find(|(l, _)| *l == n) {
            Some((_, existing)) => {
                existing.push_str("; ");
                existing.push_str(&label);
            }
            None => labels.push((n, label)),
        }
        if !about_file.is_empty() {
            rest.push(about_file.to_string());
        }
    }
    (labels, rest.join("; "))
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

    use explore_agent::{Metadata, RelevantFile, Usage};

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
             1. internal/model/issue.go  type definitions\n   \
             Declares the IssueStore interface\n\
             internal/model/issue.go:62: IssueStore (interface, lines 62-66)\n\
             internal/model/issue.go:70\n\
             \n\
             [note: 2 hidden or control characters shown as escapes (in the answer): \\u{0007} (control character), \\u{001b} (escape, starts terminal control sequences); an editor or terminal would display this text differently]\n\
             \n\
             answered · 1 file · 12 ms · local engine\n"
        );
    }

    /// File text quoted in an answer is shown as the tools show it: ESC sequences (which
    /// would repaint the terminal) and bidi overrides escaped, with the note; tabs, CJK
    /// and emoji exactly as written.
    #[test]
    fn answer_text_from_files_is_escaped_like_the_tools_show_it() {
        let mut result = sample();
        result.answer =
            "uses\tisAdmin 日本語 👨\u{200d}👩\u{200d}👧\n\x1b[2Jcheck \u{202e}} \u{2066}".into();
        result.relevant_files[0].rationale = "Declares\u{200b} it".into();
        let text = render(&result, &HumanStyle::default());
        assert!(
            text.starts_with(
                "uses\tisAdmin 日本語 👨\u{200d}👩\u{200d}👧\n\\u{001b}[2Jcheck \\u{202e}} \\u{2066}\n\n1."
            ),
            "{text}"
        );
        assert!(text.contains("   Declares\\u{200b} it\n"), "{text}");
        assert!(
            text.contains("\n[note: 4 hidden or control characters shown as escapes (in the answer): \\u{001b} (escape, starts terminal control sequences), \\u{200b} (invisible), \\u{202e} (bidi control), \\u{2066} (bidi control); "),
            "{text}"
        );
        assert!(
            !text.contains('\x1b') && !text.contains('\u{202e}'),
            "{text}"
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
        r.metadata.engine = "llm".into();
        r.metadata.model = Some("gpt-4o-mini".into());
        r.metadata.duration_ms = 9674;
        let text = render(&r, &HumanStyle::default());
        assert!(
            text.ends_with("stopped early (budget): partial result · 1 file · 1 turn · 0 of 60000 tokens · 9.7 s · llm engine (gpt-4o-mini)\n"),
            "{text}"
        );
    }

    #[test]
    fn facts_about_a_location_label_it_once() {
        let mut r = sample();
        r.relevant_files[0].rationale = "Defines interface IssueStore at line 62; Get calls IssueStore at line 70, called by main; Upsert at line 99 (matches issue, store)".into();
        let text = render(&r, &HumanStyle::default());
        assert!(
            text.contains(
                "1. internal/model/issue.go  type definitions\n   \
                 Upsert at line 99 (matches issue, store)\n\
                 internal/model/issue.go:62: Defines interface IssueStore (lines 62-66)\n\
                 internal/model/issue.go:70: Get calls IssueStore, called by main\n\n"
            ),
            "{text}"
        );
        r.relevant_files[0].rationale = "Step IssueStore (interface) at line 62".into();
        let text = render(&r, &HumanStyle::default());
        assert!(
            text.contains("issue.go:62: Step IssueStore (interface, lines 62-66)\n"),
            "{text}"
        );
        let (labels, rest) = split_rationale(
            "Step Plan (method) at line 5 (matches plan); X implements interface Y, declared at line 9",
            &r.relevant_files[0].locations[..1]
                .iter()
                .cloned()
                .chain([
                    Location {
                        line: 5,
                        end_line: None,
                        symbol: None,
                        kind: None,
                    },
                    Location {
                        line: 9,
                        end_line: None,
                        symbol: None,
                        kind: None,
                    },
                ])
                .collect::<Vec<_>>(),
        );
        assert_eq!(
            labels,
            vec![
                (5, "Step Plan (method)".to_string()),
                (9, "X implements interface Y".to_string())
            ]
        );
        assert_eq!(rest, "(matches plan)");
    }
}
