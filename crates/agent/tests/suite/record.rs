//! `--record` then `--replay`: the same result with no endpoint at all.

use explore_agent::{LlmConfig, LlmPolicy, RunConfig, StopReason};
use pretty_assertions::assert_eq;
use serde_json::json;

use super::common::*;

#[tokio::test]
async fn record_then_replay_reaches_the_same_result_without_the_network() {
    let server = server(vec![
        reply(
            &[("tree", json!({"path": "internal/model"}))],
            Some((1100, 20)),
        ),
        reply(
            &[(
                "read",
                json!({"file": "internal/model/issue.go", "start_line": 150, "num_lines": 13}),
            )],
            Some((1300, 30)),
        ),
        reply(
            &[(
                "submit",
                json!({"answer": "internal/model/issue.go:155", "relevant_files": [{
                    "path": "internal/model/issue.go", "rationale": "declares IssueStore",
                    "role": "type_definition", "key_symbols": ["IssueStore"],
                    "locations": [{"line": 155, "end_line": 162}]}]}),
            )],
            Some((1500, 60)),
        ),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("run.jsonl");
    let mut llm = llm_config(&server);
    llm.record = Some(transcript.clone());
    let config = RunConfig::new("where is IssueStore defined");
    let (recorded, _) = run_with(&server, llm, &config).await;
    let recorded = recorded.unwrap();
    assert_eq!(recorded.metadata.stop_reason, StopReason::Answered);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&transcript)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["request"], bodies(&server).await[0]);
    assert_eq!(lines[2]["response"]["usage"]["prompt_tokens"], 1500);

    // Replay: a base URL nothing listens on, no key.
    let mut replay = LlmConfig::new("http://127.0.0.1:9/v1", "gpt-4o-mini");
    replay.replay = Some(transcript);
    let mut policy = LlmPolicy::new(replay).unwrap();
    let sink = Collect::default();
    let replayed = explore_agent::explore(&registry(), &mut policy, &config, &sink)
        .await
        .unwrap();
    let strip = |r: &explore_agent::ExploreResult| {
        let mut v = json_of(r);
        v["_metadata"]["timestamp"] = json!(null);
        v["_metadata"]["duration_ms"] = json!(null);
        v
    };
    assert_eq!(strip(&replayed), strip(&recorded));
}

#[tokio::test]
async fn a_replay_that_runs_out_is_a_provider_error() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("empty.jsonl");
    std::fs::write(&transcript, "").unwrap();
    let mut replay = LlmConfig::new("http://127.0.0.1:9/v1", "gpt-4o-mini");
    replay.replay = Some(transcript);
    let mut policy = LlmPolicy::new(replay).unwrap();
    let result = explore_agent::explore(
        &registry(),
        &mut policy,
        &RunConfig::new("anything"),
        &Collect::default(),
    )
    .await
    .unwrap();
    assert_eq!(result.metadata.stop_reason, StopReason::ProviderError);
}
