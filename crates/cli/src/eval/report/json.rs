//! The report for dashboards: the whole [`Report`] as one pretty JSON document.
//!
//! Its shape (field names, `version`) is documented in `docs/evals.md`; a dashboard keys
//! on `suites[].cases[].id` and plots `summary` and `by_kind` over time.

use super::Report;

/// Renders the report as pretty JSON with a trailing newline.
pub fn render(report: &Report) -> Result<String, serde_json::Error> {
    let mut s = serde_json::to_string_pretty(report)?;
    s.push('\n');
    Ok(s)
}
