//! `explore eval`: load suites, run their cases in parallel through the same agent as the
//! main command, score, report, and turn the thresholds into an exit status.
//!
//! Exit status: 0 when every threshold is met, 1 when one is missed (the reason is the
//! last line), 2 when a suite is malformed or an option is bad (nothing is run then: a
//! broken gate must not look like a failing engine).

use crate::output::out;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::cli::{EvalArgs, EvalFormat, GlobalArgs};
use crate::eval::engine::{AgentRunner, LlmSettings};
use crate::eval::report::{self, RunInfo};
use crate::eval::run::run_all;
use crate::eval::score::CaseScore;
use crate::eval::suite::{self, Case, Suite};

/// Runs `explore eval`.
pub fn run(global: &GlobalArgs, args: EvalArgs) -> Result<u8> {
    match prepare(&args) {
        Ok(prepared) => execute(global, &args, prepared),
        Err(message) => {
            anstream::eprintln!("error: {message}");
            Ok(2)
        }
    }
}

struct Prepared {
    suites: Vec<Suite>,
    /// Per suite: why it is skipped, if it is.
    skipped: Vec<Option<String>>,
}

/// Everything that can make the run exit 2, checked before any case runs.
fn prepare(args: &EvalArgs) -> Result<Prepared, String> {
    if let Some(x) = args.min_score
        && !(0.0..=1.0).contains(&x)
    {
        return Err(format!(
            "--min-score {x} is not a fraction between 0 and 1 (e.g. 0.8 for 80%)"
        ));
    }
    if let Some(dir) = &args.replay_dir
        && !dir.is_dir()
    {
        return Err(format!(
            "--replay-dir `{}` is not a directory of transcripts",
            dir.display()
        ));
    }
    let files = suite::discover(&args.target).map_err(|e| e.to_string())?;
    let mut suites = Vec::new();
    for f in &files {
        suites.push(suite::load(f).map_err(|e| e.to_string())?);
    }
    // Ids name transcript files, so they must be unique across the whole run.
    let mut seen: std::collections::HashMap<String, PathBuf> = std::collections::HashMap::new();
    for s in &suites {
        for c in &s.cases {
            if let Some(other) = seen.insert(c.id.clone(), s.path.clone()) {
                return Err(suite::SuiteError {
                    file: s.path.clone(),
                    case: Some(c.id.clone()),
                    field: Some("id".into()),
                    message: format!(
                        "the id is also used in {}; ids must be unique across the suites of one run",
                        other.display()
                    ),
                }
                .to_string());
            }
        }
    }
    if let Some(f) = &args.filter {
        // A suite left without cases is not part of this run (its thresholds would fail
        // on zero cases).
        for s in &mut suites {
            s.cases.retain(|c| c.id.contains(f.as_str()));
        }
        suites.retain(|s| !s.cases.is_empty());
        if suites.is_empty() {
            return Err(format!("--filter `{f}` matches no case"));
        }
    }
    let mut skipped = Vec::new();
    for s in &mut suites {
        let missing = s.cases.iter().find(|c| !c.repo.is_dir());
        match missing {
            Some(c) if s.skip_if_missing => {
                let hint = s
                    .fetch_hint
                    .as_deref()
                    .map(|h| format!("; {h}"))
                    .unwrap_or_default();
                skipped.push(Some(format!(
                    "repository `{}` is missing{hint}",
                    c.repo.display()
                )));
            }
            Some(c) => {
                return Err(suite::SuiteError {
                    file: s.path.clone(),
                    case: Some(c.id.clone()),
                    field: Some("repo".into()),
                    message: format!(
                        "repository `{}` does not exist or is not a directory (paths are relative to the suite file)",
                        c.repo.display()
                    ),
                }
                .to_string());
            }
            None => skipped.push(None),
        }
    }
    Ok(Prepared { suites, skipped })
}

fn execute(global: &GlobalArgs, args: &EvalArgs, prepared: Prepared) -> Result<u8> {
    let started = Instant::now();
    let timestamp = explore_agent::result::now_timestamp();
    let jobs = args.jobs.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(std::num::NonZeroUsize::get)
            .unwrap_or(1)
    });
    let (engine_override, auto) = match args.engine {
        None => (None, false),
        Some(crate::cli::Engine::Auto) => (None, true),
        Some(crate::cli::Engine::Llm) => (Some(explore_agent::Engine::Llm), false),
        Some(crate::cli::Engine::Local) => (Some(explore_agent::Engine::Local), false),
    };
    let mut runner = AgentRunner::new(
        engine_override,
        args.replay_dir.clone(),
        args.record_dir.clone(),
        LlmSettings::from_env(),
    );
    runner.auto = auto;
    if let Some(dir) = &args.record_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create --record-dir `{}`", dir.display()))?;
    }

    let cases: Vec<&Case> = prepared
        .suites
        .iter()
        .zip(&prepared.skipped)
        .filter(|(_, skip)| skip.is_none())
        .flat_map(|(s, _)| &s.cases)
        .collect();
    let total = cases.len();
    let show_progress = !global.quiet && std::io::stderr().is_terminal();
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let progress = |s: &CaseScore| {
        let n = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if show_progress {
            anstream::eprintln!(
                "[{n}/{total}] {} {} ({} ms)",
                if s.passed { "pass" } else { "FAIL" },
                s.id,
                s.wall_ms
            );
        }
    };
    let scores = run_all(&cases, jobs, &runner, &progress);

    let mut by_id: std::collections::HashMap<String, CaseScore> =
        scores.into_iter().map(|s| (s.id.clone(), s)).collect();
    let mut parts = Vec::new();
    for (s, skip) in prepared.suites.iter().zip(&prepared.skipped) {
        match skip {
            Some(why) => {
                if !global.quiet {
                    anstream::eprintln!("warning: suite `{}` skipped: {why}", s.name);
                }
                parts.push((s, Err(why.clone())));
            }
            None => {
                let v: Vec<CaseScore> =
                    s.cases.iter().filter_map(|c| by_id.remove(&c.id)).collect();
                parts.push((s, Ok(v)));
            }
        }
    }
    let info = RunInfo {
        engine: if auto {
            Some("auto".to_string())
        } else {
            engine_override.map(|e| e.as_str().to_string())
        },
        timestamp,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        jobs,
        min_score: args.min_score,
    };
    let report = report::build(info, parts);
    let text = match args.format {
        EvalFormat::Human => report::human::render(&report),
        EvalFormat::Json => report::json::render(&report)?,
        EvalFormat::Junit => report::junit::render(&report).map_err(anyhow::Error::msg)?,
    };
    let verdict_in_stdout = args.out.is_none() && args.format == EvalFormat::Human;
    match &args.out {
        Some(path) => {
            if let Some(parent) = path.parent()
                && !parent.as_os_str().is_empty()
            {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create `{}`", parent.display()))?;
            }
            std::fs::write(path, &text)
                .with_context(|| format!("cannot write the report to `{}`", path.display()))?;
        }
        None => out!("{text}"),
    }
    if !verdict_in_stdout {
        if args.out.is_some() && args.format != EvalFormat::Human && !global.quiet {
            // A short human summary in the log next to the machine-readable file.
            for m in &report.missed {
                anstream::eprintln!("threshold missed: {m}");
            }
        }
        anstream::eprintln!("{}", report::verdict(&report));
    }
    Ok(if report.passed { 0 } else { 1 })
}
