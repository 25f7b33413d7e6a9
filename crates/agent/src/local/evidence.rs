//! Reading tool results back: the places a `code` output shows, and what each one is.
//!
//! The `code` tool prints one result per line, `Name (kind) at path:line`, under headers
//! such as `Callers:`; its findings carry the same places with end lines and kinds. The
//! local engine reads both: the text says which place is the target and which are callers
//! or implementations (the section), the findings give the exact ranges. Only places the
//! tool returned ever reach an answer.

use explore_tools::Finding;

/// One place a tool output showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The symbol's name as printed (`Planner.Plan`), when the line gave one.
    pub name: Option<String>,
    /// Its kind, when printed or in the finding.
    pub kind: Option<String>,
    /// Repo-relative path.
    pub path: String,
    /// Line, 1-based.
    pub line: u32,
    /// Last line, from the finding.
    pub end_line: Option<u32>,
    /// The header the line was under (`Callers`), lower-cased, without the colon; `None`
    /// for lines before any header (the target).
    pub section: Option<String>,
}

/// What a `code` call answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeAnswer {
    /// Results.
    Hits(Vec<Hit>),
    /// The name matched several symbols and the tool wants a narrower one.
    Ambiguous(Vec<Hit>),
    /// Nothing by that name.
    NotFound,
    /// Any other error (bad arguments, operation not valid for the symbol's kind), with
    /// the tool's text.
    Error(String),
}

/// Parses `path:line` at the end of a result line, with the text before it.
fn split_location(line: &str) -> Option<(&str, String, u32)> {
    let trimmed = line.trim_end().trim_end_matches([')', ',', '.', ';']);
    // The last whitespace-separated token that looks like path:line.
    let (before, token) = match trimmed.rfind([' ', '\t']) {
        Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
        None => ("", trimmed),
    };
    let token = token.trim_start_matches('(');
    let (path, num) = token.rsplit_once(':')?;
    let num = num.split('-').next().unwrap_or(num);
    let line_no: u32 = num.parse().ok()?;
    if path.is_empty() || !(path.contains('.') || path.contains('/')) || line_no == 0 {
        return None;
    }
    Some((before, path.to_string(), line_no))
}

/// Reads `Name (kind)` (with an optional trailing ` at`) from the text before a location.
fn split_name_kind(before: &str) -> (Option<String>, Option<String>) {
    let mut s = before.trim();
    for suffix in [" at", " in", " —", " -", ":"] {
        if let Some(x) = s.strip_suffix(suffix) {
            s = x.trim_end();
        }
    }
    let s = s
        .trim_start_matches(['-', '*', '•', '└', '├', '─', ' '])
        .trim();
    let (name, kind) = match s.rfind(" (") {
        Some(i) if s.ends_with(')') => (
            s[..i].trim().to_string(),
            Some(s[i + 2..s.len() - 1].trim().to_string()),
        ),
        _ => (s.to_string(), None),
    };
    // The name is the first token ("Plan (method)", "call Plan", "Orchestrator.Run").
    let name = name
        .split_whitespace()
        .last()
        .map(|n| n.trim_matches(['`', ',']).to_string())
        .filter(|n| !n.is_empty());
    let kind = kind.filter(|k| !k.contains(' '));
    (name, kind)
}

/// The places a tool's text shows, each matched to its finding for the range.
pub fn parse_hits(text: &str, findings: &[Finding]) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut section = None;
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        match split_location(line) {
            Some((before, path, line_no)) => {
                let (name, kind) = split_name_kind(before);
                let finding = findings
                    .iter()
                    .find(|f| f.path == path && f.line == Some(line_no));
                hits.push(Hit {
                    name: name.or_else(|| finding.and_then(|f| f.symbol.clone())),
                    kind: kind.or_else(|| finding.and_then(|f| f.kind.clone())),
                    path,
                    line: line_no,
                    end_line: finding.and_then(|f| f.end_line),
                    section: section.clone(),
                });
            }
            None => {
                if let Some(h) = line.strip_suffix(':') {
                    section = Some(h.trim().to_lowercase());
                }
            }
        }
    }
    if hits.is_empty() {
        // A format the parser does not know: fall back to the findings, first one the
        // target.
        for (i, f) in findings.iter().enumerate() {
            if let Some(l) = f.line {
                hits.push(Hit {
                    name: f.symbol.clone(),
                    kind: f.kind.clone(),
                    path: f.path.clone(),
                    line: l,
                    end_line: f.end_line,
                    section: (i > 0).then(|| "results".to_string()),
                });
            }
        }
    }
    hits
}

/// Classifies a `code` result.
pub fn read_code(content: &str, findings: &[Finding], is_error: bool) -> CodeAnswer {
    let lower = content.to_lowercase();
    let hits = parse_hits(content, findings);
    let ambiguous = lower.contains("multiple ")
        || lower.contains("ambiguous")
        || lower.contains("to specify")
        || lower.contains("narrow");
    if is_error {
        if ambiguous && hits.len() >= 2 {
            return CodeAnswer::Ambiguous(hits);
        }
        if lower.starts_with("no symbol")
            || lower.contains("not found")
            || lower.contains("no match")
        {
            return CodeAnswer::NotFound;
        }
        return CodeAnswer::Error(content.to_string());
    }
    if ambiguous && hits.len() >= 2 && findings.iter().all(|f| f.line.is_none()) {
        return CodeAnswer::Ambiguous(hits);
    }
    if hits.is_empty() {
        if lower.starts_with("no ") || lower.contains("not found") {
            return CodeAnswer::NotFound;
        }
        return CodeAnswer::Hits(Vec::new());
    }
    CodeAnswer::Hits(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(path: &str, line: u32, end: u32, sym: &str, kind: &str) -> Finding {
        Finding {
            path: path.into(),
            line: Some(line),
            end_line: Some(end),
            symbol: Some(sym.into()),
            kind: Some(kind.into()),
        }
    }

    #[test]
    fn callers_output_has_a_target_and_a_section() {
        let text = "Planner.Plan (method) at internal/brain/planner.go:101\n\nCallers:\n  Orchestrator.Run at internal/brain/orchestrator.go:41\n  TestPlan (function) at internal/brain/planner_test.go:69\n";
        let findings = [f(
            "internal/brain/planner.go",
            101,
            130,
            "Planner.Plan",
            "method",
        )];
        let hits = parse_hits(text, &findings);
        assert_eq!(hits.len(), 3);
        assert_eq!(hits[0].name.as_deref(), Some("Planner.Plan"));
        assert_eq!(hits[0].kind.as_deref(), Some("method"));
        assert_eq!(hits[0].end_line, Some(130));
        assert_eq!(hits[0].section, None);
        assert_eq!(hits[1].name.as_deref(), Some("Orchestrator.Run"));
        assert_eq!(hits[1].path, "internal/brain/orchestrator.go");
        assert_eq!(hits[1].line, 41);
        assert_eq!(hits[1].kind, None);
        assert_eq!(hits[1].section.as_deref(), Some("callers"));
        assert_eq!(hits[2].kind.as_deref(), Some("function"));
    }

    #[test]
    fn ambiguity_and_not_found() {
        let text = "Multiple methods named \"Plan\":\n  Planner.Plan at internal/brain/planner.go:101\n  TaskPlanner.Plan at internal/task/planner.go:42\n\nAdd file=\"brain\" or symbol=\"Planner.Plan\" to specify.";
        let CodeAnswer::Ambiguous(c) = read_code(text, &[], true) else {
            panic!()
        };
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].name.as_deref(), Some("TaskPlanner.Plan"));
        assert_eq!(c[1].line, 42);
        assert_eq!(
            read_code(
                "No symbol \"FooBar\" found.\nTry: rg -n \"FooBar\" for text search.",
                &[],
                true
            ),
            CodeAnswer::NotFound
        );
        assert!(matches!(
            read_code("Invalid arguments for `code`: kind", &[], true),
            CodeAnswer::Error(_)
        ));
    }

    #[test]
    fn single_find_and_findings_fallback() {
        let text = "IssueStore (interface) at internal/model/issue.go:155";
        let CodeAnswer::Hits(h) = read_code(text, &[], false) else {
            panic!()
        };
        assert_eq!(h[0].name.as_deref(), Some("IssueStore"));
        assert_eq!(h[0].kind.as_deref(), Some("interface"));
        let findings = [
            f("a.go", 3, 9, "A", "struct"),
            f("b.go", 5, 5, "B", "function"),
        ];
        let h = parse_hits("something unusual", &findings);
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].section, None);
        assert_eq!(h[1].section.as_deref(), Some("results"));
        assert_eq!(h[1].end_line, Some(5));
    }

    #[test]
    fn locations_with_ranges_and_punctuation() {
        assert_eq!(
            split_location("Do (function) at internal/retry/retry.go:93-110"),
            Some(("Do (function) at", "internal/retry/retry.go".into(), 93))
        );
        assert_eq!(split_location("no location here: 12"), None);
        assert_eq!(
            split_location("  call x (src/a.py:4)"),
            Some(("  call x", "src/a.py".into(), 4))
        );
    }
}
