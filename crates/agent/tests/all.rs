//! explore-agent's integration tests: one binary (link once), modules under `suite/`.
//!
//! Every model test runs the real loop against a wiremock server that speaks Chat
//! Completions with scripted replies, and asserts on what the loop sent back in the next
//! request: the tool output, the error text, the budget note, the tools offered.

// Harness helpers outside #[test] functions panic on purpose when the fixture is broken.
#![allow(clippy::unwrap_used)]

mod suite;
