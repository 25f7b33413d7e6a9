//! The `code` tool's text is the model's interface: every operation and every error on
//! both fixtures is pinned by a snapshot, so a wording change is a reviewed diff, never a
//! silent change of what the model (or anything reading the text) sees. The typed answer
//! behind the text is pinned too, and checked against it: every place the text shows is a
//! place the value holds.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use explore_tools::code::{CodeTool, IndexOptions};
use explore_tools::{Finding, RepoRoot, Tool};
use serde_json::{Value, json};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../evals/fixtures")
        .join(name)
}

fn tool(name: &str) -> CodeTool {
    let options = IndexOptions {
        no_cache: true,
        ..IndexOptions::default()
    };
    CodeTool::new(RepoRoot::new(fixture(name)).unwrap(), options)
}

/// Every call's text, one block each, as the model reads it (errors marked).
fn transcript(tool: &CodeTool, calls: &[Value]) -> String {
    let mut out = String::new();
    for args in calls {
        let (mark, text, findings, detail) = match tool.call(args) {
            Ok(o) => ("ok", o.text, o.findings, o.detail),
            Err(e) => (
                e.class(),
                e.message().to_string(),
                e.findings().to_vec(),
                e.detail().cloned(),
            ),
        };
        if let Some(d) = &detail {
            let places = d.places();
            for f in &findings {
                assert!(
                    places.iter().any(|p| same_place(p, f)),
                    "{args}: the text shows {f:?}, which the answer does not hold"
                );
            }
        }
        out.push_str(&format!("### {args} -> {mark}\n{text}\n\n"));
    }
    out
}

fn same_place(a: &Finding, b: &Finding) -> bool {
    a.path == b.path && a.line == b.line
}

fn relay_calls() -> Vec<Value> {
    vec![
        json!({"operation":"find","symbol":"IssueStore"}),
        json!({"operation":"find","symbol":"Plan"}),
        json!({"operation":"find","symbol":"*Issue*"}),
        json!({"operation":"find","symbol":"Issue","kind":"struct"}),
        json!({"operation":"find","symbol":"Planner","file":"internal/brain"}),
        json!({"operation":"find","symbol":"Frobnicate"}),
        json!({"operation":"find","symbol":"Plan","kind":"klass"}),
        json!({"operation":"callers","symbol":"Planner.Plan"}),
        json!({"operation":"callers","symbol":"Plan"}),
        json!({"operation":"callers","symbol":"Errorf","depth":2}),
        json!({"operation":"callers","symbol":"Issue"}),
        json!({"operation":"callers","symbol":"Frobnicate"}),
        json!({"operation":"callees","symbol":"HandleWebhook"}),
        json!({"operation":"callees","symbol":"Orchestrator.Run","depth":2}),
        json!({"operation":"implementations","symbol":"IssueStore"}),
        json!({"operation":"implementations","symbol":"Store","file":"internal/store/memory"}),
        json!({"operation":"methods","symbol":"Planner"}),
        json!({"operation":"methods","symbol":"Planner.Plan"}),
        json!({"operation":"usages","symbol":"Issue"}),
        json!({"operation":"trace","symbol":"HandleWebhook","to":"Ingest"}),
        json!({"operation":"trace","symbol":"Plan","to":"HandleWebhook"}),
        json!({"operation":"trace","symbol":"IssueStore","to":"Plan"}),
        json!({"operation":"callers","symbol":"Plan","depth":9}),
        json!({"operation":"find","symbol":"Plan","depth":2}),
        json!({"operation":"callers","symbol":"Plan","to":"Run"}),
        json!({"operation":"trace","symbol":"Plan"}),
        json!({"operation":"find","symbol":"  "}),
    ]
}

fn ledger_calls() -> Vec<Value> {
    vec![
        json!({"operation":"find","symbol":"LedgerService"}),
        json!({"operation":"find","symbol":"post_transaction"}),
        json!({"operation":"callers","symbol":"LedgerService.post_transaction"}),
        json!({"operation":"callers","symbol":"SqlRepository.save"}),
        json!({"operation":"callees","symbol":"dispatch"}),
        json!({"operation":"implementations","symbol":"Repository"}),
        json!({"operation":"implementations","symbol":"BaseExporter"}),
        json!({"operation":"implementations","symbol":"ExcelCsvExporter"}),
        json!({"operation":"methods","symbol":"JsonExporter"}),
        json!({"operation":"usages","symbol":"Transaction"}),
        json!({"operation":"trace","symbol":"handle_payment_succeeded","to":"post_transaction"}),
        json!({"operation":"find","symbol":"nothing_like_this"}),
    ]
}

#[test]
fn relay_text_of_every_operation_and_error() {
    insta::assert_snapshot!(transcript(&tool("relay"), &relay_calls()));
}

#[test]
fn ledger_text_of_every_operation_and_error() {
    insta::assert_snapshot!(transcript(&tool("ledger"), &ledger_calls()));
}

#[test]
fn typed_answers_of_each_status() {
    let relay = tool("relay");
    let calls = [
        json!({"operation":"callers","symbol":"Planner.Plan"}),
        json!({"operation":"callers","symbol":"Plan"}),
        json!({"operation":"callers","symbol":"Issue"}),
        json!({"operation":"find","symbol":"Frobnicate"}),
        json!({"operation":"trace","symbol":"Plan","to":"HandleWebhook"}),
    ];
    let details: Vec<Value> = calls
        .iter()
        .map(|args| {
            let detail = match relay.call(args) {
                Ok(o) => o.detail,
                Err(e) => e.detail().cloned(),
            };
            serde_json::to_value(detail.expect("every answered call has a detail")).unwrap()
        })
        .collect();
    insta::assert_json_snapshot!(details);
}
