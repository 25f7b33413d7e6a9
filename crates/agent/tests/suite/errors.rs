//! Bad calls from the model: each gets an actionable message and the run goes on.

use explore_agent::StopReason;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::common::*;

#[tokio::test]
async fn malformed_json_unknown_tools_and_bad_kinds_are_answered_and_the_run_goes_on() {
    let server = server(vec![
        reply_raw(
            &[
                (
                    "read",
                    r#"{"file": "internal/model/issue.go", "start_line": 150,"#,
                ),
                ("grep", r#"{"pattern": "IssueStore"}"#),
                (
                    "code",
                    r#"{"operation": "find", "symbol": "IssueStore", "kind": "klass"}"#,
                ),
            ],
            Some((1000, 60)),
        ),
        reply(
            &[(
                "read",
                json!({"file": "internal/model/issue.go", "start_line": 153, "num_lines": 10}),
            )],
            Some((1400, 30)),
        ),
        reply(
            &[(
                "submit",
                json!({"answer": "internal/model/issue.go:155", "relevant_files": [{
                    "path": "internal/model/issue.go", "rationale": "declares IssueStore",
                    "role": "type_definition", "locations": [{"line": 155}]}]}),
            )],
            Some((1600, 50)),
        ),
    ])
    .await;
    let result = run(&server, "where is IssueStore defined").await;
    assert_eq!(result.metadata.stop_reason, StopReason::Answered);
    assert_eq!(result.relevant_files[0].locations[0].line, 155);

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    let fed = last_tool_messages(&bodies[1]);
    assert_eq!(fed.len(), 3);
    assert!(
        fed[0].starts_with("Your arguments for `read` are not valid JSON (EOF while parsing a value at line 1 column 54); nothing was run. Send exactly one JSON object with "),
        "{}",
        fed[0]
    );
    assert!(fed[0].contains("`file`"), "{}", fed[0]);
    assert!(fed[0].contains("`start_line?`"), "{}", fed[0]);
    assert_eq!(
        fed[1],
        "Unknown tool `grep`; nothing was run. The tools are: tree, read, bash, code, submit. To search text use bash {\"command\":\"rg -n PATTERN\"}; to find a symbol use code {\"operation\":\"find\",\"symbol\":\"Name\"}."
    );
    // The code tool is someone else's: whatever it says about the kind, the loop passed
    // it on and went on.
    assert!(!fed[2].is_empty());
    assert!(
        fed[2].ends_with("tokens left; turn 1 of 12 done]"),
        "{}",
        fed[2]
    );

    let meta = json_of(&result)["_metadata"].clone();
    assert_eq!(meta["malformed_calls"], 1);
    assert_eq!(meta["unknown_tools"], 1);
    assert_eq!(meta["tool_calls_by_operation"], json!({"code.find": 1}));
    if fed[2].contains("klass") {
        assert_eq!(meta["invalid_kinds"], 1);
    }
    assert_eq!(
        meta["tool_calls"],
        json!({"code": 1, "grep": 1, "read": 2, "submit": 1})
    );
    assert_eq!(meta["doom_loop_events"], json!([]));
}

#[tokio::test]
async fn a_turn_without_tool_calls_is_nudged() {
    let prose = wiremock::ResponseTemplate::new(200).set_body_json(json!({
        "id": "x", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": "I think it is in model."}}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 10, "total_tokens": 910}
    }));
    let server = server(vec![
        prose,
        reply(
            &[(
                "submit",
                json!({"answer": "not found", "relevant_files": []}),
            )],
            Some((1000, 20)),
        ),
    ])
    .await;
    let result = run(&server, "where is the moon").await;
    assert_eq!(result.metadata.stop_reason, StopReason::NotFound);
    assert_eq!(result.metadata.stop_reason.exit_code(), 1);
    let bodies = bodies(&server).await;
    let msgs = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(msgs[2]["content"], "I think it is in model.");
    assert_eq!(
        msgs[3]["content"],
        "You called no tool. Answer by calling `submit` (cite only files and lines the tools showed you), or call a tool to keep looking."
    );
}

#[tokio::test]
async fn repeated_call_ids_from_a_local_server_are_made_unique() {
    let body = |calls: serde_json::Value| {
        wiremock::ResponseTemplate::new(200).set_body_json(json!({
            "choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 30}
        }))
    };
    let server = server(vec![
        body(json!([
            {"id": "call_0", "type": "function", "function": {"name": "tree", "arguments": "{\"path\":\"internal/retry\"}"}},
            {"id": "call_0", "type": "function", "function": {"name": "read", "arguments": "{\"file\":\"internal/retry/retry.go\",\"start_line\":93,\"num_lines\":5}"}}
        ])),
        body(json!([
            {"id": "", "type": "function", "function": {"name": "submit", "arguments": "{\"answer\":\"none\",\"relevant_files\":[]}"}}
        ])),
    ])
    .await;
    let result = run(&server, "where is retry logic").await;
    assert_eq!(result.metadata.stop_reason, StopReason::NotFound);
    let bodies = bodies(&server).await;
    let msgs = bodies[1]["messages"].as_array().unwrap();
    let ids: Vec<&str> = msgs[2]["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["call_0", "call_1_1"]);
    assert_eq!(msgs[3]["tool_call_id"], "call_0");
    assert_eq!(msgs[4]["tool_call_id"], "call_1_1");
}
