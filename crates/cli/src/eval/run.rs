//! Running cases in parallel, bounded by `--jobs`, keeping the suite's order in the report.
//!
//! Each worker is a plain thread that takes the next case from a shared counter, so a slow
//! case never holds up the others and the number of cases in flight never exceeds the
//! bound. How a case is answered is a [`CaseRunner`]: the agent (local engine or model) in
//! the binary, hand-made results in tests.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use explore_agent::ExploreResult;

use super::score::{CaseScore, Outcome, score_case};
use super::suite::Case;

/// Answers one case.
pub trait CaseRunner: Sync {
    /// The result of asking the case's question, or why there is none.
    fn run(&self, case: &Case) -> Result<ExploreResult, String>;
}

impl<F> CaseRunner for F
where
    F: Fn(&Case) -> Result<ExploreResult, String> + Sync,
{
    fn run(&self, case: &Case) -> Result<ExploreResult, String> {
        self(case)
    }
}

/// Runs and scores `cases` with at most `jobs` in flight; `done` is called as each case
/// finishes (in completion order). The scores come back in `cases` order.
pub fn run_all(
    cases: &[&Case],
    jobs: usize,
    runner: &dyn CaseRunner,
    done: &(dyn Fn(&CaseScore) + Sync),
) -> Vec<CaseScore> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<CaseScore>>> = Mutex::new(vec![None; cases.len()]);
    let workers = jobs.clamp(1, cases.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let started = Instant::now();
                    // A panic in one case must not take the run down with it.
                    let result =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| runner.run(case)))
                            .unwrap_or_else(|_| Err("the run panicked".to_string()));
                    let outcome = Outcome {
                        result,
                        wall_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                    };
                    let score = score_case(case, &outcome);
                    done(&score);
                    if let Ok(mut s) = slots.lock() {
                        s[i] = Some(score);
                    }
                }
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .zip(cases)
        .map(|(s, case)| {
            s.unwrap_or_else(|| {
                score_case(
                    case,
                    &Outcome {
                        result: Err("the case did not run".to_string()),
                        wall_ms: 0,
                    },
                )
            })
        })
        .collect()
}
