//! `explore eval`: suites of questions with known answers, run through the same machinery
//! as the main command, scored, and reported for people, dashboards and CI.
//!
//! Teams gate CI on these numbers (did a prompt, model or tool change make exploration
//! worse or costlier?), so the pieces are separate and testable on their own: [`suite`]
//! parses and validates suite files, [`run`] runs cases in parallel, [`score`] turns a
//! result into numbers, [`report`] renders them. `docs/evals.md` is the user's manual.

pub mod engine;
pub mod report;
pub mod run;
pub mod score;
pub mod suite;
