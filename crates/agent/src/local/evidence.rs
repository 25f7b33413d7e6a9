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
    /// Where it is called, for callees and trace hops: the path when printed (`None`
    /// means the file of the symbol it was called from) and the line.
    pub call_site: Option<CallSite>,
    /// The graph guessed this call from the name alone (`[inferred]`).
    pub inferred: bool,
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

/// Parses a `path:line` token (a trailing `,` or `)` allowed).
fn path_line(token: &str) -> Option<(String, u32)> {
    let token = token
        .trim_end_matches([',', ')', ';', '.'])
        .trim_start_matches('(');
    let (path, num) = token.rsplit_once(':')?;
    let num = num.split('-').next().unwrap_or(num);
    let line: u32 = num.parse().ok()?;
    if path.is_empty() || !(path.contains('.') || path.contains('/')) || line == 0 {
        return None;
    }
    Some((path.to_string(), line))
}

/// Where a call happens: the path when printed (`None`: the caller's file) and the line.
type CallSite = (Option<String>, u32);

/// One result line: `Name (kind) at path:line[, called at line N | path:N][ tags]`.
fn parse_line(line: &str) -> Option<(Hit, Option<CallSite>)> {
    let mut body = line.trim();
    body = body.trim_start_matches("->").trim_start();
    let at = body.find(" at ")?;
    let head = &body[..at];
    let rest = &body[at + 4..];
    let first = rest.split_whitespace().next()?;
    let (path, line_no) = path_line(first)?;
    let (name, kind) = split_name_kind(head);
    let mut call_site = None;
    if let Some(i) = rest.find("called at ") {
        let after = &rest[i + "called at ".len()..];
        let mut words = after.split_whitespace();
        match words.next() {
            Some("line") => {
                if let Some(n) = words
                    .next()
                    .and_then(|n| n.trim_end_matches([',', ')']).parse().ok())
                {
                    call_site = Some((None, n));
                }
            }
            Some(tok) => {
                if let Some((p, n)) = path_line(tok) {
                    call_site = Some((Some(p), n));
                }
            }
            None => {}
        }
    }
    Some((
        Hit {
            name,
            kind,
            path,
            line: line_no,
            end_line: None,
            section: None,
            call_site: None,
            inferred: rest.contains("[inferred]"),
        },
        call_site,
    ))
}

/// Reads `Name (kind)` from the text before ` at `.
fn split_name_kind(head: &str) -> (Option<String>, Option<String>) {
    let s = head
        .trim()
        .trim_start_matches(['-', '*', '•', '>', ' '])
        .trim();
    let (name, kind) = match s.rfind(" (") {
        Some(i) if s.ends_with(')') => (
            s[..i].trim().to_string(),
            Some(s[i + 2..s.len() - 1].trim().to_string()),
        ),
        _ => (s.to_string(), None),
    };
    let name = name
        .split_whitespace()
        .last()
        .map(|n| n.trim_matches(['`', ',']).to_string())
        .filter(|n| !n.is_empty());
    let kind = kind.filter(|k| !k.contains(' '));
    (name, kind)
}

/// The places a tool's text shows, each matched to its finding for the range. Notes in
/// parentheses (`(also 1 in tests …)`, `(34 more contain …)`) and `... and N more` lines
/// are not results.
pub fn parse_hits(text: &str, findings: &[Finding]) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut section = None;
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('(') || line.starts_with("...") {
            continue;
        }
        // Headers end with a colon, even those that name a place ("Through
        // LedgerService.post_transaction (method at …:195), which may dispatch here:").
        if let Some(h) = line.strip_suffix(':') {
            section = Some(h.trim().to_lowercase());
            continue;
        }
        match parse_line(line) {
            Some((mut hit, call_site)) => {
                let finding = findings
                    .iter()
                    .find(|f| f.path == hit.path && f.line == Some(hit.line));
                if hit.name.is_none() {
                    hit.name = finding.and_then(|f| f.symbol.clone());
                }
                if hit.kind.is_none() {
                    hit.kind = finding.and_then(|f| f.kind.clone());
                }
                hit.end_line = finding.and_then(|f| f.end_line);
                hit.section = section.clone();
                hit.call_site = call_site;
                hits.push(hit);
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
                    call_site: None,
                    inferred: false,
                });
            }
        }
    }
    hits
}

/// Classifies a `code` result.
pub fn read_code(content: &str, findings: &[Finding], is_error: bool) -> CodeAnswer {
    let lower = content.trim_start().to_lowercase();
    if lower.starts_with("no symbol") || (is_error && lower.starts_with("no call path")) {
        return CodeAnswer::NotFound;
    }
    let hits = parse_hits(content, findings);
    if lower.starts_with("multiple ") && hits.len() >= 2 {
        return CodeAnswer::Ambiguous(hits);
    }
    if is_error {
        if lower.contains("not found") || lower.starts_with("no ") {
            return CodeAnswer::NotFound;
        }
        return CodeAnswer::Error(content.to_string());
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
    fn real_code_tool_lines() {
        let (h, site) = parse_line(
            "  Errorf (function) at internal/errs/errors.go:25, called at line 69 (+2 more calls)",
        )
        .unwrap();
        assert_eq!(h.name.as_deref(), Some("Errorf"));
        assert_eq!(h.kind.as_deref(), Some("function"));
        assert_eq!((h.path.as_str(), h.line), ("internal/errs/errors.go", 25));
        assert_eq!(site, Some((None, 69)));
        let (h, site) = parse_line("  -> EventIngest.Ingest (method) at internal/service/event_ingest.go:40, called at internal/webhook/handler.go:95 [inferred]").unwrap();
        assert_eq!(h.name.as_deref(), Some("EventIngest.Ingest"));
        assert_eq!(h.line, 40);
        assert_eq!(site, Some((Some("internal/webhook/handler.go".into()), 95)));
        assert!(h.inferred);
        let (h, _) =
            parse_line("  fakeIssueStore (type) at internal/brain/planner_test.go:17 [test]")
                .unwrap();
        assert_eq!((h.kind.as_deref(), h.line), (Some("type"), 17));
        assert_eq!(parse_line("Callers: none found."), None);
    }

    #[test]
    fn headers_that_name_a_place_are_headers() {
        let text = "A.post (method) at a.py:60\n\nCallers:\n  t (function) at tests/t.py:52 [test] [inferred]\nThrough B.post (method at b.py:195), which may dispatch here:\n  B.deposit (method) at b.py:145";
        let h = parse_hits(text, &[]);
        assert_eq!(h.len(), 3);
        assert_eq!(h[2].name.as_deref(), Some("B.deposit"));
        assert!(
            h[2].section
                .as_deref()
                .unwrap()
                .starts_with("through b.post")
        );
        assert!(h[1].inferred);
    }

    #[test]
    fn notes_are_not_results() {
        let text = "Issue (struct) at internal/model/issue.go:51\n(also 1 in tests, vendored or generated code, e.g. Issue (struct) at internal/gen/issue.pb.go:60 [generated]; add file=\"x\" for it)\n\nUsed by (parameters or results):\n  Orchestrator.Run (method) at internal/brain/orchestrator.go:39\n... and 19 more";
        let h = parse_hits(text, &[]);
        assert_eq!(h.len(), 2);
        assert_eq!(
            h[1].section.as_deref(),
            Some("used by (parameters or results)")
        );
    }

    #[test]
    fn ambiguity_is_not_an_error_in_the_real_tool() {
        let text = "Multiple methods named \"Plan\":\n  Planner.Plan (method) at internal/brain/planner.go:101\n  TaskPlanner.Plan (method) at internal/task/planner.go:42\n\nAdd symbol=\"Planner.Plan\" or file=\"internal/brain\" to specify.";
        let CodeAnswer::Ambiguous(c) = read_code(text, &[], false) else {
            panic!()
        };
        assert_eq!(c.len(), 2);
        assert_eq!(
            read_code(
                "No symbol \"X\" found.\nSimilar:\n  Y (function) at a.go:3",
                &[],
                true
            ),
            CodeAnswer::NotFound
        );
    }
}
