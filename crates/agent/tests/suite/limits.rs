//! The limits: doom loops, the token budget, the turn limit, and an endpoint whose token
//! counts disagree with tiktoken.

use explore_agent::{RunConfig, StopReason};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::common::*;

fn read(file: &str, start: u32, num: u32) -> (&'static str, Value) {
    (
        "read",
        json!({"file": file, "start_line": start, "num_lines": num}),
    )
}

#[tokio::test]
async fn a_model_that_repeats_itself_is_stopped_with_a_partial_result() {
    let issue = "internal/model/issue.go";
    let server = server(vec![
        reply(&[read(issue, 150, 13)], Some((1000, 20))),
        // A subset of what it has: runs, adds nothing.
        reply(&[read(issue, 155, 5)], Some((1200, 20))),
        // The first call again, keys in another order: not run.
        reply(
            &[(
                "read",
                json!({"num_lines": 13, "start_line": 150, "file": issue}),
            )],
            Some((1300, 20)),
        ),
        reply(&[read(issue, 150, 13)], Some((1400, 20))),
        reply(&[read(issue, 150, 13)], Some((1500, 20))),
    ])
    .await;
    let (result, sink) = run_with(
        &server,
        llm_config(&server),
        &RunConfig::new("where is IssueStore defined"),
    )
    .await;
    let result = result.unwrap();
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 4);
    let refused = last_tool_messages(&bodies[3]).join("");
    assert!(
        refused.starts_with("Not run: you already made this exact call in turn 1 and its result is above; calling it again returns the same text. Change course: "),
        "{refused}"
    );

    assert_eq!(result.metadata.stop_reason, StopReason::DoomLoop);
    assert!(result.metadata.partial);
    assert_eq!(result.metadata.stop_reason.exit_code(), 3);
    let meta = json_of(&result)["_metadata"].clone();
    let events: Vec<(String, bool)> = meta["doom_loop_events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["fatal"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        events,
        vec![
            ("no_gain".to_string(), false),
            ("repeat".to_string(), false),
            ("repeat".to_string(), true)
        ]
    );
    assert_eq!(meta["doom_loop_events"][2]["turn"], 4);
    assert_eq!(sink.notices(), vec!["repeat", "doom_loop"]);
    // The partial result is built from what was read.
    assert_eq!(result.relevant_files.len(), 1);
    assert_eq!(result.relevant_files[0].path, issue);
    assert_eq!(result.relevant_files[0].discovery_source, "read");
    assert_eq!(result.relevant_files[0].locations[0].line, 150);
    assert_eq!(result.relevant_files[0].locations[0].end_line, Some(162));
    assert!(
        result.answer.starts_with(
            "Stopped early: the run kept repeating itself before an answer was submitted."
        ),
        "{}",
        result.answer
    );
    assert!(
        result
            .answer
            .ends_with("What the tools found, best first: internal/model/issue.go:150.")
    );
}

#[tokio::test]
async fn a_b_a_b_oscillation_ends_the_run() {
    let server = server(vec![
        reply(&[("tree", json!({"path": "internal"}))], Some((1000, 20))),
        reply(&[read("internal/retry/retry.go", 90, 10)], Some((1200, 20))),
        reply(&[("tree", json!({"path": "internal"}))], Some((1300, 20))),
        reply(&[read("internal/retry/retry.go", 90, 10)], Some((1400, 20))),
    ])
    .await;
    let result = run(&server, "where is retry logic").await;
    assert_eq!(result.metadata.stop_reason, StopReason::DoomLoop);
    let meta = json_of(&result)["_metadata"].clone();
    let kinds: Vec<&str> = meta["doom_loop_events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["repeat", "oscillation"]);
    // tree listings are not evidence of relevance; the read range is.
    let paths: Vec<&str> = result
        .relevant_files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["internal/retry/retry.go"]);
}

/// Every `.go` file of the fixture outside vendor/, for a model that reads forever.
fn go_files() -> Vec<String> {
    let root = relay_dir();
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if !p.ends_with("vendor") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "go") {
                out.push(
                    p.strip_prefix(&root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn a_model_that_never_stops_reading_stays_within_the_budget() {
    let files = go_files();
    // No usage in the replies: the loop counts every token itself.
    let server =
        dynamic_server(move |n, _req| reply(&[read(&files[n % files.len()], 1, 300)], None)).await;
    let mut config = RunConfig::new("explain everything");
    config.budget = 40_000;
    let (result, _) = run_with(&server, llm_config(&server), &config).await;
    let result = result.unwrap();
    let bodies = bodies(&server).await;

    assert_eq!(result.metadata.stop_reason, StopReason::Budget);
    assert!(result.metadata.partial);
    let usage = result.metadata.usage;
    assert!(usage.total_tokens <= 40_000, "{usage:?}");
    assert_eq!(
        usage.total_tokens,
        usage.prompt_tokens + usage.completion_tokens
    );
    assert!(
        usage.total_tokens > 10_000,
        "the budget was used: {usage:?}"
    );
    // The last request offered only submit and required it; earlier ones everything.
    let last = bodies.last().unwrap();
    assert_eq!(tool_names(last), ["submit"]);
    assert_eq!(last["tool_choice"], "required");
    assert!(
        last["messages"].as_array().unwrap().last().unwrap()["content"]
            .as_str()
            .unwrap()
            .starts_with("The budget is nearly spent (")
    );
    assert_eq!(tool_names(&bodies[0]).len(), 5);
    // Every completion cap fit in what was left.
    for b in &bodies {
        assert!(b["max_tokens"].as_u64().unwrap() <= 2048);
    }
    assert_eq!(result.metadata.turns as usize, bodies.len());
    // Old outputs became one-line stubs as the context grew.
    let meta = json_of(&result)["_metadata"].clone();
    assert!(meta["elided_outputs"].as_u64().unwrap() > 0);
    let stubbed = bodies.iter().any(|b| {
        b["messages"].as_array().unwrap().iter().any(|m| {
            m["role"] == "tool"
                && m["content"]
                    .as_str()
                    .unwrap()
                    .starts_with("[elided to save tokens: read {")
        })
    });
    assert!(stubbed);
    // The partial result lists files read, best first, with the ranges read.
    assert!(!result.relevant_files.is_empty());
    assert!(
        result
            .relevant_files
            .iter()
            .all(|f| f.discovery_source == "read")
    );
    assert_eq!(result.relevant_files[0].locations[0].line, 1);
}

#[tokio::test]
async fn the_turn_limit_holds_and_the_last_turn_is_submit_only() {
    let files = go_files();
    let server = dynamic_server(move |n, _req| {
        reply(
            &[read(&files[n % files.len()], 1, 20)],
            Some((800 + 300 * n as u64, 30)),
        )
    })
    .await;
    let mut config = RunConfig::new("explain everything");
    config.max_turns = 3;
    let (result, _) = run_with(&server, llm_config(&server), &config).await;
    let result = result.unwrap();
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    assert_eq!(result.metadata.stop_reason, StopReason::MaxTurns);
    assert_eq!(result.metadata.turns, 3);
    assert_eq!(tool_names(&bodies[2]), ["submit"]);
    // The final turn's read was not run.
    assert_eq!(result.metadata.tool_calls.get("read"), Some(&2));
    assert_eq!(result.relevant_files.len(), 2);
    assert_eq!(result.metadata.usage.total_tokens, 800 + 1100 + 1400 + 90);
    let fed = last_tool_messages(&bodies[2]);
    assert!(fed.is_empty(), "the final note follows the tool output");
    let msgs = bodies[2]["messages"].as_array().unwrap();
    assert!(
        msgs[msgs.len() - 2]["content"]
            .as_str()
            .unwrap()
            .ends_with("[budget: 58,040 of 60,000 tokens left; turn 2 of 3 done]")
    );
}

#[tokio::test]
async fn usage_that_disagrees_with_tiktoken_is_calibrated_and_the_budget_holds() {
    let files = go_files();
    // This endpoint's tokenizer counts one token per two bytes of the request: about
    // twice what tiktoken says.
    let server = dynamic_server(move |n, req| {
        let prompt = (req.body.len() / 2) as u64;
        reply(&[read(&files[n % files.len()], 1, 120)], Some((prompt, 40)))
    })
    .await;
    let mut config = RunConfig::new("explain everything");
    config.budget = 30_000;
    let (result, _) = run_with(&server, llm_config(&server), &config).await;
    let result = result.unwrap();
    let bodies = bodies(&server).await;

    let reported: u64 = bodies
        .iter()
        .map(|b| (serde_json::to_vec(b).unwrap().len() / 2) as u64)
        .sum();
    let usage = result.metadata.usage;
    assert_eq!(usage.completion_tokens, 40 * bodies.len() as u64);
    assert!(usage.total_tokens <= 30_000, "{usage:?}");
    assert_eq!(result.metadata.stop_reason, StopReason::Budget);
    let meta = json_of(&result)["_metadata"].clone();
    let ratio = meta["tokens"]["calibration"].as_f64().unwrap();
    assert!(ratio > 1.5, "calibration {ratio}");
    // What we add up is what the endpoint reported (bodies re-serialised may differ in
    // byte length only by formatting, which serde_json reproduces exactly).
    assert_eq!(usage.prompt_tokens, reported);
}

#[tokio::test]
async fn turns_that_find_nothing_new_end_the_run() {
    // Each call is different, and each fails: no repeats, but nothing learned either.
    let server = server(vec![
        reply(&[read("internal/model/nope1.go", 1, 10)], Some((900, 20))),
        reply(&[read("internal/model/nope2.go", 1, 10)], Some((1000, 20))),
        reply(&[read("internal/model/nope3.go", 1, 10)], Some((1100, 20))),
        reply(&[read("internal/model/nope4.go", 1, 10)], Some((1200, 20))),
    ])
    .await;
    let result = run(&server, "where is the moon").await;
    assert_eq!(bodies(&server).await.len(), 3);
    assert_eq!(result.metadata.stop_reason, StopReason::DoomLoop);
    assert_eq!(
        json_of(&result)["_metadata"]["doom_loop_events"],
        json!([{"turn": 3, "kind": "stale_turns", "call": "", "fatal": true}])
    );
    assert_eq!(
        json_of(&result)["_metadata"]["tool_errors"],
        json!({"not_found": 3})
    );
    assert_eq!(result.relevant_files, vec![]);
}

#[tokio::test]
async fn code_metrics_count_operations_and_ambiguity() {
    let server = server(vec![
        reply(
            &[
                ("code", json!({"operation": "callers", "symbol": "Plan"})),
                (
                    "code",
                    json!({"operation": "find", "symbol": "Plan", "kind": "klass"}),
                ),
            ],
            Some((900, 20)),
        ),
        reply(
            &[(
                "submit",
                json!({"answer": "ambiguous", "relevant_files": []}),
            )],
            Some((1000, 20)),
        ),
    ])
    .await;
    let result = run(&server, "who calls Plan").await;
    let meta = json_of(&result)["_metadata"].clone();
    assert_eq!(
        meta["tool_calls_by_operation"],
        json!({"code.callers": 1, "code.find": 1})
    );
    // Loosely: the code tool is another engineer's; these hold for its current messages.
    let fed = last_tool_messages(&bodies(&server).await[1]);
    if fed[0].starts_with("Multiple ") {
        assert_eq!(meta["ambiguous_resolves"], 1);
    }
    if fed[1].contains("klass") {
        assert_eq!(meta["invalid_kinds"], 1);
    }
}
