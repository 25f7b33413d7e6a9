//! The report for CI systems: JUnit XML, the format Jenkins, GitLab, GitHub Actions
//! reporters and Buildkite all read.
//!
//! One `<testsuite>` per suite, one `<testcase>` per case (`classname` is
//! `<suite>.<kind>`, so CI UIs group by kind), a `<failure>` listing every failed check
//! with what came back, an `<error>` when the run produced no result, and a `thresholds`
//! test case per suite so a missed gate shows in the CI UI and not only in the exit code.
//! XML is written with quick-xml, which escapes text and attributes; characters that XML
//! 1.0 cannot carry at all (most control characters) are replaced by U+FFFD first, since a
//! query or a model's answer may contain anything.

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};

use super::super::score::{CaseScore, Summary};
use super::{Report, SuiteReport, verdict};

/// Renders the report as JUnit XML.
pub fn render(report: &Report) -> Result<String, String> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    emit(
        &mut w,
        Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)),
    )?;
    let s = &report.summary;
    let skipped_suites = report.suites.iter().filter(|s| s.skipped.is_some()).count();
    let threshold_cases = report.suites.iter().filter(|s| s.skipped.is_none()).count()
        + usize::from(report.min_score.is_some());
    let threshold_failures = report
        .suites
        .iter()
        .filter(|s| !s.missed.is_empty())
        .count()
        + usize::from(
            report.min_score.is_some() && report.missed.iter().any(|m| m.contains("--min-score")),
        );
    let mut root = BytesStart::new("testsuites");
    root.push_attribute(("name", "explore eval"));
    root.push_attribute(("tests", (s.cases + threshold_cases).to_string().as_str()));
    root.push_attribute((
        "failures",
        (s.cases - s.passed - s.errors + threshold_failures)
            .to_string()
            .as_str(),
    ));
    root.push_attribute(("errors", s.errors.to_string().as_str()));
    root.push_attribute(("skipped", skipped_suites.to_string().as_str()));
    root.push_attribute(("time", secs(report.duration_ms).as_str()));
    root.push_attribute(("timestamp", clean(&report.timestamp).as_str()));
    emit(&mut w, Event::Start(root))?;
    for suite in &report.suites {
        suite_xml(&mut w, suite, &report.timestamp)?;
    }
    if let Some(min) = report.min_score {
        let missed: Vec<&String> = report
            .missed
            .iter()
            .filter(|m| m.contains("--min-score"))
            .collect();
        let mut ts = BytesStart::new("testsuite");
        ts.push_attribute(("name", "explore eval thresholds"));
        ts.push_attribute(("tests", "1"));
        ts.push_attribute(("failures", missed.len().min(1).to_string().as_str()));
        ts.push_attribute(("errors", "0"));
        ts.push_attribute(("skipped", "0"));
        ts.push_attribute(("time", "0.000"));
        emit(&mut w, Event::Start(ts))?;
        let mut tc = BytesStart::new("testcase");
        tc.push_attribute(("name", "min-score"));
        tc.push_attribute(("classname", "thresholds"));
        tc.push_attribute(("time", "0.000"));
        emit(&mut w, Event::Start(tc))?;
        if let Some(m) = missed.first() {
            failure(
                &mut w,
                "failure",
                m,
                &format!("{m}\nrequired overall accuracy: {min}"),
            )?;
        }
        emit(&mut w, Event::End(BytesEnd::new("testcase")))?;
        emit(&mut w, Event::End(BytesEnd::new("testsuite")))?;
    }
    emit(&mut w, Event::End(BytesEnd::new("testsuites")))?;
    let mut xml = String::from_utf8(w.into_inner()).map_err(|e| e.to_string())?;
    xml.push('\n');
    xml.push_str(&format!(
        "<!-- {} -->\n",
        clean(&verdict(report)).replace("--", "- -")
    ));
    Ok(xml)
}

fn suite_xml(w: &mut Writer<Vec<u8>>, suite: &SuiteReport, timestamp: &str) -> Result<(), String> {
    let s = &suite.summary;
    let mut ts = BytesStart::new("testsuite");
    ts.push_attribute(("name", clean(&suite.name).as_str()));
    let has_gate = suite.skipped.is_none();
    ts.push_attribute((
        "tests",
        (s.cases + usize::from(has_gate)).to_string().as_str(),
    ));
    ts.push_attribute((
        "failures",
        (s.cases - s.passed - s.errors + usize::from(!suite.missed.is_empty()))
            .to_string()
            .as_str(),
    ));
    ts.push_attribute(("errors", s.errors.to_string().as_str()));
    ts.push_attribute((
        "skipped",
        usize::from(suite.skipped.is_some()).to_string().as_str(),
    ));
    let total_ms: u64 = suite.cases.iter().map(|c| c.wall_ms).sum();
    ts.push_attribute(("time", secs(total_ms).as_str()));
    ts.push_attribute(("timestamp", clean(timestamp).as_str()));
    ts.push_attribute(("file", clean(&suite.path.display().to_string()).as_str()));
    emit(w, Event::Start(ts))?;

    emit(w, Event::Start(BytesStart::new("properties")))?;
    for (k, v) in summary_properties(s) {
        let mut p = BytesStart::new("property");
        p.push_attribute(("name", k.as_str()));
        p.push_attribute(("value", v.as_str()));
        emit(w, Event::Empty(p))?;
    }
    emit(w, Event::End(BytesEnd::new("properties")))?;

    if let Some(why) = &suite.skipped {
        let mut tc = BytesStart::new("testcase");
        tc.push_attribute(("name", "suite"));
        tc.push_attribute(("classname", clean(&suite.name).as_str()));
        tc.push_attribute(("time", "0.000"));
        emit(w, Event::Start(tc))?;
        let mut sk = BytesStart::new("skipped");
        sk.push_attribute(("message", clean(why).as_str()));
        emit(w, Event::Empty(sk))?;
        emit(w, Event::End(BytesEnd::new("testcase")))?;
    }
    for c in &suite.cases {
        case_xml(w, c)?;
    }
    if has_gate {
        let mut tc = BytesStart::new("testcase");
        tc.push_attribute(("name", "thresholds"));
        tc.push_attribute((
            "classname",
            format!("{}.thresholds", clean(&suite.name)).as_str(),
        ));
        tc.push_attribute(("time", "0.000"));
        emit(w, Event::Start(tc))?;
        if let Some(first) = suite.missed.first() {
            failure(w, "failure", first, &suite.missed.join("\n"))?;
        }
        emit(w, Event::End(BytesEnd::new("testcase")))?;
    }
    emit(w, Event::End(BytesEnd::new("testsuite")))?;
    Ok(())
}

fn case_xml(w: &mut Writer<Vec<u8>>, c: &CaseScore) -> Result<(), String> {
    let mut tc = BytesStart::new("testcase");
    tc.push_attribute(("name", clean(&c.id).as_str()));
    tc.push_attribute((
        "classname",
        format!("{}.{}", clean(&c.suite), c.kind.as_str()).as_str(),
    ));
    tc.push_attribute(("time", secs(c.wall_ms).as_str()));
    emit(w, Event::Start(tc))?;
    if let Some(err) = &c.error {
        failure(w, "error", err, &format!("query: {}\n{err}", c.query))?;
    } else if !c.passed {
        let mut body = format!("query: {}\n", c.query);
        if let Some(note) = &c.note {
            body.push_str(&format!("note: {note}\n"));
        }
        for f in &c.failures {
            body.push_str(&format!("- {f}\n"));
        }
        body.push_str("returned:\n");
        for r in &c.returned {
            body.push_str(&format!("  {r}\n"));
        }
        let first = c.failures.first().map(String::as_str).unwrap_or("failed");
        failure(w, "failure", first, &body)?;
    }
    let out = format!(
        "query: {}\nstop_reason: {}\nacc@1: {} acc@3: {} acc@5: {} rr: {}\nlocations: {}/{} line_recall: {}\ntokens: {} turns: {} tool_calls: {} wall_ms: {}\n",
        c.query,
        c.stop_reason.as_deref().unwrap_or("none"),
        opt_b(c.acc_at_1),
        opt_b(c.acc_at_3),
        opt_b(c.acc_at_5),
        c.reciprocal_rank.map_or("-".into(), |v| format!("{v:.3}")),
        c.locations_hit,
        c.locations_total,
        c.line_recall.map_or("-".into(), |v| format!("{v:.3}")),
        c.tokens,
        c.turns,
        c.tool_calls,
        c.wall_ms
    );
    emit(w, Event::Start(BytesStart::new("system-out")))?;
    emit(w, Event::Text(BytesText::new(&clean(&out))))?;
    emit(w, Event::End(BytesEnd::new("system-out")))?;
    emit(w, Event::End(BytesEnd::new("testcase")))?;
    Ok(())
}

fn failure(w: &mut Writer<Vec<u8>>, tag: &str, message: &str, body: &str) -> Result<(), String> {
    let mut f = BytesStart::new(tag);
    f.push_attribute(("message", clean(message).as_str()));
    f.push_attribute((
        "type",
        if tag == "error" {
            "run_error"
        } else {
            "eval_failure"
        },
    ));
    emit(w, Event::Start(f))?;
    emit(w, Event::Text(BytesText::new(&clean(body))))?;
    emit(w, Event::End(BytesEnd::new(tag)))?;
    Ok(())
}

fn summary_properties(s: &Summary) -> Vec<(String, String)> {
    let f = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.4}"));
    vec![
        ("accuracy".into(), format!("{:.4}", s.accuracy)),
        ("acc_at_1".into(), f(s.acc_at_1)),
        ("acc_at_3".into(), f(s.acc_at_3)),
        ("acc_at_5".into(), f(s.acc_at_5)),
        ("mrr".into(), f(s.mrr)),
        ("location_hit_rate".into(), f(s.location_hit_rate)),
        ("line_recall".into(), f(s.line_recall)),
        ("mean_tokens".into(), format!("{:.1}", s.mean_tokens)),
        ("median_tokens".into(), format!("{:.1}", s.median_tokens)),
        ("p50_ms".into(), s.p50_ms.to_string()),
        ("p95_ms".into(), s.p95_ms.to_string()),
    ]
}

fn opt_b(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "1",
        Some(false) => "0",
        None => "-",
    }
}

fn secs(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// Replaces characters XML 1.0 cannot represent (control characters other than tab,
/// newline and carriage return; U+FFFE and U+FFFF) with U+FFFD. Escaping `<`, `&` and
/// quotes is quick-xml's job.
pub fn clean(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if (c as u32) < 0x20 => '\u{FFFD}',
            '\u{FFFE}' | '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

fn emit(w: &mut Writer<Vec<u8>>, e: Event<'_>) -> Result<(), String> {
    w.write_event(e)
        .map_err(|e| format!("cannot write JUnit XML: {e}"))
}
