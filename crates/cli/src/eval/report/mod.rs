//! The report of one `explore eval` run, and its three renderings: a table for people,
//! JSON for dashboards, JUnit XML for CI systems.
//!
//! All three render the same [`Report`], so a number never differs between what a person
//! reads in the log and what the dashboard plots.

pub mod human;
pub mod json;
pub mod junit;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::score::{CaseScore, Summary, by_kind, missed_thresholds, pct, summarize};
use super::suite::{Kind, Suite, Thresholds};

/// The version of the JSON report's shape.
pub const REPORT_VERSION: u32 = 1;

/// One suite's part of the report.
#[derive(Debug, Clone, Serialize)]
pub struct SuiteReport {
    /// Suite name.
    pub name: String,
    /// Suite file.
    pub path: PathBuf,
    /// What it covers.
    pub description: Option<String>,
    /// Why it was skipped, when it was (its repository is missing).
    pub skipped: Option<String>,
    /// Its thresholds.
    pub thresholds: Thresholds,
    /// Over all its cases.
    pub summary: Summary,
    /// Per kind.
    pub by_kind: BTreeMap<Kind, Summary>,
    /// Thresholds missed.
    pub missed: Vec<String>,
    /// Case scores, in file order.
    pub cases: Vec<CaseScore>,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// The engine forced on the command line, if any (else each suite's own).
    pub engine: Option<String>,
    /// When the run started (RFC 3339 UTC).
    pub timestamp: String,
    /// Wall time of the whole run, milliseconds.
    pub duration_ms: u64,
    /// Parallel jobs.
    pub jobs: usize,
    /// Per suite.
    pub suites: Vec<SuiteReport>,
    /// Over every case of every suite.
    pub summary: Summary,
    /// Per kind over every case.
    pub by_kind: BTreeMap<Kind, Summary>,
    /// `--min-score`: minimum overall accuracy.
    pub min_score: Option<f64>,
    /// Every threshold missed (suite ones first, then `--min-score`).
    pub missed: Vec<String>,
    /// True when no threshold was missed.
    pub passed: bool,
}

/// Settings of the run that the report records.
#[derive(Debug, Clone, Default)]
pub struct RunInfo {
    /// Engine forced on the command line.
    pub engine: Option<String>,
    /// Start time.
    pub timestamp: String,
    /// Wall time, milliseconds.
    pub duration_ms: u64,
    /// Parallel jobs.
    pub jobs: usize,
    /// `--min-score`.
    pub min_score: Option<f64>,
}

/// Builds the report: `suites` with their case scores (in the suite's case order) or the
/// reason the suite was skipped.
pub fn build(info: RunInfo, suites: Vec<(&Suite, Result<Vec<CaseScore>, String>)>) -> Report {
    let mut reports = Vec::new();
    let mut missed = Vec::new();
    for (suite, scores) in suites {
        let (cases, skipped) = match scores {
            Ok(c) => (c, None),
            Err(why) => (Vec::new(), Some(why)),
        };
        let summary = summarize(&cases);
        let kinds = by_kind(&cases);
        let suite_missed = if skipped.is_some() {
            Vec::new()
        } else {
            missed_thresholds(&suite.name, &suite.thresholds, &summary, &kinds)
        };
        missed.extend(suite_missed.iter().cloned());
        reports.push(SuiteReport {
            name: suite.name.clone(),
            path: suite.path.clone(),
            description: suite.description.clone(),
            skipped,
            thresholds: suite.thresholds.clone(),
            summary,
            by_kind: kinds,
            missed: suite_missed,
            cases,
        });
    }
    let all: Vec<&CaseScore> = reports.iter().flat_map(|r| &r.cases).collect();
    let summary = summarize(all.iter().copied());
    let kinds = by_kind(all.iter().copied());
    if let Some(min) = info.min_score
        && summary.accuracy + 1e-9 < min
    {
        missed.push(format!(
            "overall accuracy {} ({}/{}) is below --min-score {}",
            pct(summary.accuracy),
            summary.passed,
            summary.cases,
            pct(min)
        ));
    }
    Report {
        version: REPORT_VERSION,
        engine: info.engine,
        timestamp: info.timestamp,
        duration_ms: info.duration_ms,
        jobs: info.jobs,
        suites: reports,
        passed: missed.is_empty(),
        summary,
        by_kind: kinds,
        min_score: info.min_score,
        missed,
    }
}

/// The report's last line: the verdict, with the first missed threshold as the reason.
pub fn verdict(report: &Report) -> String {
    let s = &report.summary;
    match report.missed.as_slice() {
        [] => format!(
            "eval passed: {}/{} cases ({})",
            s.passed,
            s.cases,
            pct(s.accuracy)
        ),
        [only] => format!("eval failed: {only}"),
        [first, rest @ ..] => format!(
            "eval failed: {first} (and {} more threshold(s) missed)",
            rest.len()
        ),
    }
}
