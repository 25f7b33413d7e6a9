//! The report for people: one table row per case, summaries per suite and per kind, then
//! every failure with what was expected and what came back, and the verdict last.

use std::fmt::Write as _;

use super::super::score::{CaseScore, Summary, pct};
use super::{Report, verdict};

/// What `--engine auto` does (or would do) with the run's cases: how many local answers
/// are certain, and, where a model answered the rest, what it spent and what the certain
/// ones saved at that rate.
fn routing_line(s: &Summary) -> Option<String> {
    if s.certain == 0 {
        return None;
    }
    let mut line = format!(
        "routing: {} of {} cases certain locally (auto answers them with no model)",
        s.certain, s.cases
    );
    if s.model_cases > 0 {
        let mean = s.model_tokens / s.model_cases as u64;
        let _ = write!(
            line,
            "; the model answered {} cases with {} tokens ({mean} per case), so about {} tokens saved",
            s.model_cases,
            s.model_tokens,
            mean * s.certain as u64
        );
    }
    Some(line)
}

/// Renders the report as plain text (no colour: it is read in CI logs as often as in a
/// terminal). The last line is the verdict.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let id_w = report
        .suites
        .iter()
        .flat_map(|s| &s.cases)
        .map(|c| c.id.len())
        .max()
        .unwrap_or(4)
        .clamp(4, 48);
    for suite in &report.suites {
        let _ = writeln!(out, "suite {} ({})", suite.name, suite.path.display());
        if let Some(why) = &suite.skipped {
            let _ = writeln!(out, "  skipped: {why}\n");
            continue;
        }
        let _ = writeln!(
            out,
            "  {:<id_w$} {:<15} {:<4} {:>2} {:>2} {:>2} {:>5} {:>5} {:>6} {:>7} {:>5} {:>5} {:>7}  stop",
            "case",
            "kind",
            "ok",
            "@1",
            "@3",
            "@5",
            "RR",
            "loc",
            "recall",
            "tokens",
            "turns",
            "tools",
            "ms"
        );
        for c in &suite.cases {
            let _ = writeln!(out, "  {}", row(c, id_w));
        }
        let _ = writeln!(out, "  {}", summary_line(&suite.summary));
        for m in &suite.missed {
            let _ = writeln!(out, "  threshold missed: {m}");
        }
        out.push('\n');
    }

    let _ = writeln!(
        out,
        "by kind         {:>5} {:>7} {:>5} {:>5} {:>5} {:>5} {:>6} {:>9} {:>9} {:>7} {:>7}",
        "cases",
        "acc",
        "@1",
        "@3",
        "@5",
        "MRR",
        "recall",
        "mean tok",
        "med tok",
        "p50 ms",
        "p95 ms"
    );
    for (kind, s) in &report.by_kind {
        let _ = writeln!(out, "{}", kind_row(kind.as_str(), s));
    }
    let _ = writeln!(out, "{}", kind_row("all", &report.summary));
    if let Some(line) = routing_line(&report.summary) {
        let _ = writeln!(out, "\n{line}");
    }

    let failed: Vec<&CaseScore> = report
        .suites
        .iter()
        .flat_map(|s| &s.cases)
        .filter(|c| !c.passed)
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(out, "\nfailures ({}):", failed.len());
        for c in failed {
            let _ = writeln!(out, "\n  {} [{}] {:?}", c.id, c.kind.as_str(), c.query);
            if let Some(note) = &c.note {
                let _ = writeln!(out, "    note: {note}");
            }
            for f in &c.failures {
                let _ = writeln!(out, "    - {f}");
            }
            if c.error.is_none() {
                if c.returned.is_empty() {
                    let _ = writeln!(out, "    returned: nothing");
                } else {
                    let shown: Vec<&str> = c.returned.iter().take(8).map(String::as_str).collect();
                    let more = c.returned.len().saturating_sub(shown.len());
                    let _ = write!(out, "    returned: {}", shown.join(", "));
                    if more > 0 {
                        let _ = write!(out, " … and {more} more");
                    }
                    out.push('\n');
                }
            }
        }
    }
    if !report.missed.is_empty() {
        out.push('\n');
        for m in &report.missed {
            let _ = writeln!(out, "threshold missed: {m}");
        }
    }
    let _ = writeln!(out, "\n{}", verdict(report));
    out
}

fn yes_no(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "y",
        Some(false) => "n",
        None => "-",
    }
}

fn opt_f(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".to_string(), |x| format!("{x:.digits$}"))
}

fn row(c: &CaseScore, id_w: usize) -> String {
    let id: String = if c.id.chars().count() > id_w {
        let mut s: String = c.id.chars().take(id_w - 1).collect();
        s.push('…');
        s
    } else {
        c.id.clone()
    };
    let loc = if c.locations_total == 0 {
        "-".to_string()
    } else {
        format!("{}/{}", c.locations_hit, c.locations_total)
    };
    format!(
        "{:<id_w$} {:<15} {:<4} {:>2} {:>2} {:>2} {:>5} {:>5} {:>6} {:>7} {:>5} {:>5} {:>7}  {}",
        id,
        c.kind.as_str(),
        if c.passed { "pass" } else { "FAIL" },
        yes_no(c.acc_at_1),
        yes_no(c.acc_at_3),
        yes_no(c.acc_at_5),
        opt_f(c.reciprocal_rank, 2),
        loc,
        opt_f(c.line_recall, 2),
        c.tokens,
        c.turns,
        c.tool_calls,
        c.wall_ms,
        c.stop_reason.as_deref().unwrap_or("error"),
    )
}

fn summary_line(s: &Summary) -> String {
    format!(
        "passed {}/{} ({}), Acc@1 {}, Acc@3 {}, Acc@5 {}, MRR {}, locations {}, line recall {}, tokens mean {:.0} median {:.0}, time p50 {} ms p95 {} ms",
        s.passed,
        s.cases,
        pct(s.accuracy),
        s.acc_at_1.map_or("-".into(), pct),
        s.acc_at_3.map_or("-".into(), pct),
        s.acc_at_5.map_or("-".into(), pct),
        opt_f(s.mrr, 3),
        s.location_hit_rate.map_or("-".into(), pct),
        opt_f(s.line_recall, 3),
        s.mean_tokens,
        s.median_tokens,
        s.p50_ms,
        s.p95_ms
    )
}

fn kind_row(name: &str, s: &Summary) -> String {
    format!(
        "{:<15} {:>5} {:>7} {:>5} {:>5} {:>5} {:>5} {:>6} {:>9.0} {:>9.0} {:>7} {:>7}",
        name,
        s.cases,
        pct(s.accuracy),
        opt_f(s.acc_at_1, 2),
        opt_f(s.acc_at_3, 2),
        opt_f(s.acc_at_5, 2),
        opt_f(s.mrr, 2),
        opt_f(s.line_recall, 2),
        s.mean_tokens,
        s.median_tokens,
        s.p50_ms,
        s.p95_ms
    )
}
