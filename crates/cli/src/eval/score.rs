//! Scoring: one case's result against its expectations, and summaries over many cases.
//!
//! Every number here is defined in `docs/evals.md`; the definitions are the contract with
//! the teams that gate CI on them, so they are plain (no weighting, no partial credit
//! hidden in a pass) and computed only from the result document and the wall clock.

use std::collections::{BTreeMap, BTreeSet};

use explore_agent::{ExploreResult, StopReason};
use serde::Serialize;

use super::suite::{Case, Kind, Thresholds, normalize_path};

/// How one run went, as the runner saw it.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The result, or why there is none (a run error, a missing transcript).
    pub result: Result<ExploreResult, String>,
    /// Wall time measured by the harness, milliseconds.
    pub wall_ms: u64,
}

/// One case's score.
#[derive(Debug, Clone, Serialize)]
pub struct CaseScore {
    /// Case id.
    pub id: String,
    /// Suite name.
    pub suite: String,
    /// Question kind.
    pub kind: Kind,
    /// The question.
    pub query: String,
    /// All checks passed.
    pub passed: bool,
    /// Why it failed, one line per failed check (empty when passed).
    pub failures: Vec<String>,
    /// The run produced no result: why.
    pub error: Option<String>,
    /// Every expected file within rank 1 (`None` when the case expects no files).
    pub acc_at_1: Option<bool>,
    /// Every expected file within rank 3.
    pub acc_at_3: Option<bool>,
    /// Every expected file within rank 5.
    pub acc_at_5: Option<bool>,
    /// 1 / rank of the best-ranked expected file, 0 when none was returned.
    pub reciprocal_rank: Option<f64>,
    /// Expected locations hit.
    pub locations_hit: usize,
    /// Expected locations.
    pub locations_total: usize,
    /// Every expected location hit (`None` when the case expects none).
    pub location_hit: Option<bool>,
    /// Fraction of expected lines among the first `line_budget` returned lines.
    pub line_recall: Option<f64>,
    /// Distinct lines covered by all returned locations (no budget).
    pub lines_returned: u64,
    /// The case's line budget.
    pub line_budget: u32,
    /// `usage.total_tokens`.
    pub tokens: u64,
    /// Turns taken.
    pub turns: u32,
    /// Tool calls made, all tools.
    pub tool_calls: u32,
    /// Harness wall time, milliseconds.
    pub wall_ms: u64,
    /// Why the run ended (`None` when it produced no result).
    pub stop_reason: Option<String>,
    /// What came back, best first: `path` or `path:line[-end]` per location.
    pub returned: Vec<String>,
    /// Local runs: whether `--engine auto` with a model would keep this answer (the
    /// routing gate's verdict, `certain` or `uncertain`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routing: Option<String>,
    /// The case's note, for failure reports.
    pub note: Option<String>,
}

/// Scores one case.
pub fn score_case(case: &Case, outcome: &Outcome) -> CaseScore {
    let mut s = CaseScore {
        id: case.id.clone(),
        suite: case.suite.clone(),
        kind: case.kind,
        query: case.query.clone(),
        passed: false,
        failures: Vec::new(),
        error: None,
        acc_at_1: None,
        acc_at_3: None,
        acc_at_5: None,
        reciprocal_rank: None,
        locations_hit: 0,
        locations_total: case.expect.locations.len(),
        location_hit: None,
        line_recall: None,
        lines_returned: 0,
        line_budget: case.line_budget,
        tokens: 0,
        turns: 0,
        tool_calls: 0,
        wall_ms: outcome.wall_ms,
        stop_reason: None,
        returned: Vec::new(),
        routing: None,
        note: case.note.clone(),
    };
    let result = match &outcome.result {
        Ok(r) => r,
        Err(e) => {
            s.error = Some(e.clone());
            s.failures.push(format!("no result: {e}"));
            if !case.expect.files.is_empty() {
                s.acc_at_1 = Some(false);
                s.acc_at_3 = Some(false);
                s.acc_at_5 = Some(false);
                s.reciprocal_rank = Some(0.0);
            }
            if !case.expect.locations.is_empty() {
                s.location_hit = Some(false);
            }
            s.line_recall = line_recall(case, &BTreeSet::new());
            return s;
        }
    };
    let m = &result.metadata;
    s.tokens = m.usage.total_tokens;
    s.turns = m.turns;
    s.tool_calls = m.tool_calls.values().sum();
    s.stop_reason = Some(m.stop_reason.as_str().to_string());
    s.returned = describe_returned(result);
    s.routing = m
        .extra
        .get("routing")
        .and_then(|r| r["verdict"].as_str())
        .map(str::to_string);

    let ranked = ranked_files(result);
    let rank_of = |path: &str| ranked.iter().position(|p| p == path).map(|i| i + 1);
    let mut failures = Vec::new();

    // Files and Acc@k.
    let exp = &case.expect;
    if !exp.files.is_empty() {
        let ranks: Vec<Option<usize>> = exp.files.iter().map(|f| rank_of(&f.path)).collect();
        for (f, r) in exp.files.iter().zip(&ranks) {
            match r {
                None => failures.push(format!(
                    "expected file `{}` (within rank {}), not returned",
                    f.path, f.rank
                )),
                Some(r) if *r > f.rank => failures.push(format!(
                    "expected file `{}` within rank {}, returned at rank {r}",
                    f.path, f.rank
                )),
                Some(_) => {}
            }
        }
        let within = |k: usize| ranks.iter().all(|r| r.is_some_and(|r| r <= k));
        s.acc_at_1 = Some(within(1));
        s.acc_at_3 = Some(within(3));
        s.acc_at_5 = Some(within(5));
        s.reciprocal_rank = Some(
            ranks
                .iter()
                .flatten()
                .min()
                .map_or(0.0, |best| 1.0 / *best as f64),
        );
    }

    // Locations.
    let returned_locs = returned_ranges(result);
    if !exp.locations.is_empty() {
        for l in &exp.locations {
            let hit = returned_locs.iter().any(|(p, a, b)| {
                *p == l.path
                    && l.line + l.tolerance >= *a
                    && l.line <= b.saturating_add(l.tolerance)
            });
            if hit {
                s.locations_hit += 1;
            } else {
                let near: Vec<String> = returned_locs
                    .iter()
                    .filter(|(p, _, _)| *p == l.path)
                    .map(|(_, a, b)| {
                        if a == b {
                            a.to_string()
                        } else {
                            format!("{a}-{b}")
                        }
                    })
                    .collect();
                failures.push(if near.is_empty() {
                    format!(
                        "expected location `{}:{}` (±{}), no location in that file",
                        l.path, l.line, l.tolerance
                    )
                } else {
                    format!(
                        "expected location `{}:{}` (±{}), returned lines {} there",
                        l.path,
                        l.line,
                        l.tolerance,
                        near.join(", ")
                    )
                });
            }
        }
        s.location_hit = Some(s.locations_hit == exp.locations.len());
    }

    // Line recall within the line budget.
    let budgeted = budgeted_lines(&returned_locs, case.line_budget);
    s.lines_returned = distinct_lines(&returned_locs);
    s.line_recall = line_recall(case, &budgeted);

    // Symbols.
    let names = returned_symbols(result);
    for want in &exp.symbols {
        if !names.iter().any(|got| symbol_matches(want, got)) {
            failures.push(format!(
                "expected symbol `{want}`, not named in key_symbols or locations"
            ));
        }
    }

    // Decoys must rank below every expected file that was returned.
    let wanted: BTreeSet<&str> = exp
        .files
        .iter()
        .map(|f| f.path.as_str())
        .chain(exp.locations.iter().map(|l| l.path.as_str()))
        .collect();
    let worst_wanted = wanted.iter().filter_map(|p| rank_of(p)).max();
    for d in &exp.decoys {
        if let (Some(dr), Some(worst)) = (rank_of(d), worst_wanted)
            && dr < worst
        {
            failures.push(format!(
                "decoy `{d}` at rank {dr} outranks an expected file (worst expected rank {worst})"
            ));
        }
    }

    // Answer text.
    let answer = result.answer.to_lowercase();
    for want in &exp.answer_contains {
        if !answer.contains(&want.to_lowercase()) {
            failures.push(format!("answer does not mention `{want}`"));
        }
    }

    // Stop reason.
    let stop = m.stop_reason;
    if exp.not_found {
        let honest = stop == StopReason::NotFound
            || (stop == StopReason::Answered && result.relevant_files.is_empty());
        if !honest {
            failures.push(format!(
                "expected not_found, got {} with {} file(s){}",
                stop.as_str(),
                result.relevant_files.len(),
                ranked
                    .first()
                    .map(|p| format!(" (first: `{p}`)"))
                    .unwrap_or_default()
            ));
        }
    } else if stop != StopReason::Answered {
        failures.push(format!(
            "stopped with `{}` instead of answering",
            stop.as_str()
        ));
    }

    s.passed = failures.is_empty();
    s.failures = failures;
    s
}

/// Distinct paths of `relevant_files`, best first (a repeated path keeps its first rank).
fn ranked_files(result: &ExploreResult) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in &result.relevant_files {
        let p = normalize_path(&f.path);
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// Every returned location as `(path, start, end)`, in rank order then location order.
fn returned_ranges(result: &ExploreResult) -> Vec<(String, u32, u32)> {
    let mut out = Vec::new();
    for f in &result.relevant_files {
        let p = normalize_path(&f.path);
        for l in &f.locations {
            let end = l.end_line.unwrap_or(l.line).max(l.line);
            out.push((p.clone(), l.line, end));
        }
    }
    out
}

/// The first `budget` distinct returned lines, walking ranges in order; the range that
/// crosses the budget is cut.
pub fn budgeted_lines(ranges: &[(String, u32, u32)], budget: u32) -> BTreeSet<(String, u32)> {
    let mut set = BTreeSet::new();
    'outer: for (p, a, b) in ranges {
        for line in *a..=*b {
            if set.len() >= budget as usize {
                break 'outer;
            }
            set.insert((p.clone(), line));
        }
    }
    set
}

fn distinct_lines(ranges: &[(String, u32, u32)]) -> u64 {
    let mut per_file: BTreeMap<&str, Vec<(u32, u32)>> = BTreeMap::new();
    for (p, a, b) in ranges {
        per_file.entry(p).or_default().push((*a, *b));
    }
    let mut total = 0u64;
    for (_, mut v) in per_file {
        v.sort_unstable();
        let mut cur: Option<(u32, u32)> = None;
        for (a, b) in v {
            cur = match cur {
                Some((ca, cb)) if a <= cb.saturating_add(1) => Some((ca, cb.max(b))),
                Some((ca, cb)) => {
                    total += u64::from(cb - ca) + 1;
                    Some((a, b))
                }
                None => Some((a, b)),
            };
        }
        if let Some((ca, cb)) = cur {
            total += u64::from(cb - ca) + 1;
        }
    }
    total
}

/// Line recall: expected units covered by the budgeted returned lines, over all units.
/// A unit is each line of each `regions` entry, plus each expected location not inside a
/// region of its file (covered when a budgeted line lies within its tolerance).
pub fn line_recall(case: &Case, budgeted: &BTreeSet<(String, u32)>) -> Option<f64> {
    let exp = &case.expect;
    let mut region_lines: BTreeSet<(String, u32)> = BTreeSet::new();
    for r in &exp.regions {
        for line in r.start..=r.end {
            region_lines.insert((r.path.clone(), line));
        }
    }
    let mut units = region_lines.len();
    let mut hits = region_lines
        .iter()
        .filter(|k| budgeted.contains(*k))
        .count();
    for l in &exp.locations {
        if region_lines.contains(&(l.path.clone(), l.line)) {
            continue;
        }
        units += 1;
        let lo = l.line.saturating_sub(l.tolerance);
        let hi = l.line.saturating_add(l.tolerance);
        if budgeted
            .range((l.path.clone(), lo)..=(l.path.clone(), hi))
            .next()
            .is_some()
        {
            hits += 1;
        }
    }
    (units > 0).then(|| hits as f64 / units as f64)
}

fn returned_symbols(result: &ExploreResult) -> Vec<String> {
    let mut out = Vec::new();
    for f in &result.relevant_files {
        out.extend(f.key_symbols.iter().cloned());
        out.extend(f.locations.iter().filter_map(|l| l.symbol.clone()));
    }
    out
}

/// `want` matches `got` when `got`'s dotted components end with `want`'s: `Plan` matches
/// `Planner.Plan` and `brain.(*Planner).Plan`; `Planner.Plan` does not match `Plan`.
pub fn symbol_matches(want: &str, got: &str) -> bool {
    let clean = |s: &str| -> Vec<String> {
        s.replace(['(', ')', '*'], "")
            .replace("::", ".")
            .split('.')
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect()
    };
    let w = clean(want);
    let g = clean(got);
    !w.is_empty() && g.len() >= w.len() && g[g.len() - w.len()..] == w[..]
}

fn describe_returned(result: &ExploreResult) -> Vec<String> {
    let mut out = Vec::new();
    for f in &result.relevant_files {
        if f.locations.is_empty() {
            out.push(f.path.clone());
        }
        for l in &f.locations {
            match l.end_line {
                Some(e) if e > l.line => out.push(format!("{}:{}-{e}", f.path, l.line)),
                _ => out.push(format!("{}:{}", f.path, l.line)),
            }
        }
    }
    out
}

/// Numbers over a set of cases.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Cases.
    pub cases: usize,
    /// Passed cases.
    pub passed: usize,
    /// Cases with no result (run errors).
    pub errors: usize,
    /// `passed / cases`.
    pub accuracy: f64,
    /// Mean of Acc@1 over cases that expect files.
    pub acc_at_1: Option<f64>,
    /// Mean of Acc@3.
    pub acc_at_3: Option<f64>,
    /// Mean of Acc@5.
    pub acc_at_5: Option<f64>,
    /// Mean reciprocal rank over cases that expect files.
    pub mrr: Option<f64>,
    /// Fraction of cases with locations whose every location was hit.
    pub location_hit_rate: Option<f64>,
    /// Mean line recall over cases that have it.
    pub line_recall: Option<f64>,
    /// Mean tokens per case.
    pub mean_tokens: f64,
    /// Median tokens per case.
    pub median_tokens: f64,
    /// Median wall time (nearest rank), milliseconds.
    pub p50_ms: u64,
    /// 95th-percentile wall time (nearest rank), milliseconds.
    pub p95_ms: u64,
    /// Mean turns.
    pub mean_turns: f64,
    /// Mean tool calls.
    pub mean_tool_calls: f64,
    /// Cases whose local answer the routing gate calls certain: with `--engine auto`,
    /// answered without a model (issue 18).
    pub certain: usize,
    /// Tokens the model spent on the cases it answered.
    pub model_tokens: u64,
    /// Cases the model answered.
    pub model_cases: usize,
}

/// Summarises cases.
pub fn summarize<'a>(scores: impl IntoIterator<Item = &'a CaseScore>) -> Summary {
    let scores: Vec<&CaseScore> = scores.into_iter().collect();
    let n = scores.len();
    if n == 0 {
        return Summary::default();
    }
    let mean_opt = |f: &dyn Fn(&CaseScore) -> Option<f64>| {
        let v: Vec<f64> = scores.iter().filter_map(|s| f(s)).collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    };
    let as01 = |b: Option<bool>| b.map(|b| if b { 1.0 } else { 0.0 });
    let mut tokens: Vec<u64> = scores.iter().map(|s| s.tokens).collect();
    tokens.sort_unstable();
    let mut times: Vec<u64> = scores.iter().map(|s| s.wall_ms).collect();
    times.sort_unstable();
    let passed = scores.iter().filter(|s| s.passed).count();
    Summary {
        cases: n,
        passed,
        errors: scores.iter().filter(|s| s.error.is_some()).count(),
        accuracy: passed as f64 / n as f64,
        acc_at_1: mean_opt(&|s| as01(s.acc_at_1)),
        acc_at_3: mean_opt(&|s| as01(s.acc_at_3)),
        acc_at_5: mean_opt(&|s| as01(s.acc_at_5)),
        mrr: mean_opt(&|s| s.reciprocal_rank),
        location_hit_rate: mean_opt(&|s| as01(s.location_hit)),
        line_recall: mean_opt(&|s| s.line_recall),
        mean_tokens: tokens.iter().sum::<u64>() as f64 / n as f64,
        median_tokens: median(&tokens),
        p50_ms: percentile(&times, 50.0),
        p95_ms: percentile(&times, 95.0),
        mean_turns: scores.iter().map(|s| f64::from(s.turns)).sum::<f64>() / n as f64,
        mean_tool_calls: scores.iter().map(|s| f64::from(s.tool_calls)).sum::<f64>() / n as f64,
        certain: scores
            .iter()
            .filter(|s| s.routing.as_deref() == Some("certain"))
            .count(),
        model_tokens: scores
            .iter()
            .filter(|s| s.tokens > 0)
            .map(|s| s.tokens)
            .sum(),
        model_cases: scores.iter().filter(|s| s.tokens > 0).count(),
    }
}

/// Summaries per kind, for the kinds present.
pub fn by_kind<'a>(scores: impl IntoIterator<Item = &'a CaseScore>) -> BTreeMap<Kind, Summary> {
    let mut groups: BTreeMap<Kind, Vec<&CaseScore>> = BTreeMap::new();
    for s in scores {
        groups.entry(s.kind).or_default().push(s);
    }
    groups.into_iter().map(|(k, v)| (k, summarize(v))).collect()
}

/// The median of sorted values (mean of the two middle ones for an even count).
pub fn median(sorted: &[u64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2] as f64,
        n => (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0,
    }
}

/// Nearest-rank percentile of sorted values: the smallest value with at least `p`% of
/// the values at or below it.
pub fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The thresholds a summary misses, one reason each (empty when all are met).
pub fn missed_thresholds(
    label: &str,
    t: &Thresholds,
    summary: &Summary,
    kinds: &BTreeMap<Kind, Summary>,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(min) = t.min_accuracy
        && summary.accuracy + 1e-9 < min
    {
        out.push(format!(
            "{label}: accuracy {} ({}/{}) is below the minimum {}",
            pct(summary.accuracy),
            summary.passed,
            summary.cases,
            pct(min)
        ));
    }
    for (kind, min) in &t.kinds {
        match kinds.get(kind) {
            Some(k) if k.accuracy + 1e-9 < *min => out.push(format!(
                "{label}: {} accuracy {} ({}/{}) is below the minimum {}",
                kind.as_str(),
                pct(k.accuracy),
                k.passed,
                k.cases,
                pct(*min)
            )),
            Some(_) => {}
            None => out.push(format!(
                "{label}: a minimum is set for kind {} but the suite has no such case",
                kind.as_str()
            )),
        }
    }
    if let Some(min) = t.min_mrr {
        let mrr = summary.mrr.unwrap_or(0.0);
        if mrr + 1e-9 < min {
            out.push(format!(
                "{label}: MRR {mrr:.3} is below the minimum {min:.3}"
            ));
        }
    }
    if let Some(max) = t.max_mean_tokens
        && summary.mean_tokens > max
    {
        out.push(format!(
            "{label}: mean tokens {:.0} is above the maximum {max:.0}",
            summary.mean_tokens
        ));
    }
    out
}

/// A fraction as a percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}
