//! `submit` checked against evidence: one repair round, then unbacked claims are dropped.

use explore_agent::{Location, RunConfig, StopReason};
use pretty_assertions::assert_eq;
use serde_json::json;

use super::common::*;

fn read_issue_tail() -> wiremock::ResponseTemplate {
    reply(
        &[(
            "read",
            json!({"file": "internal/model/issue.go", "start_line": 150, "num_lines": 13}),
        )],
        Some((1000, 30)),
    )
}

#[tokio::test]
async fn bad_paths_lines_and_roles_get_one_repair_round_then_are_dropped_and_counted() {
    let server = server(vec![
        read_issue_tail(),
        reply(
            &[(
                "submit",
                json!({"answer": "IssueStore: internal/model/issue.go:155", "relevant_files": [
                    {"path": "internal/model/issue.go", "rationale": "declares it", "role": "owner",
                     "locations": [{"line": 155, "end_line": 162}, {"line": 40}, {"line": 400}]},
                    {"path": "internal/model/issues.go", "rationale": "invented", "role": "context_only"}
                ]}),
            )],
            Some((1300, 90)),
        ),
        reply(
            &[(
                "submit",
                json!({"answer": "IssueStore: internal/model/issue.go:155", "relevant_files": [
                    {"path": "internal/model/issue.go", "rationale": "declares it", "role": "type_definition",
                     "locations": [{"line": 155, "end_line": 162}, {"line": 40}]},
                    {"path": "internal/model/issues.go", "rationale": "invented", "role": "context_only"}
                ]}),
            )],
            Some((1700, 80)),
        ),
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
    assert_eq!(bodies.len(), 3);
    let complaint = last_tool_messages(&bodies[2]).join("");
    let expected = "Not accepted: 4 problems with your answer:\n\
- relevant_files[0].role `owner` is not a role; use one of: modify_target, dependency, pattern_reference, test_target, type_definition, integration_point, config, context_only\n\
- relevant_files[0].locations[1]: line 40 of `internal/model/issue.go` was never shown by a tool (shown: lines 150-162); cite lines you saw, or read them first\n\
- relevant_files[0].locations[2] cites line 400 of `internal/model/issue.go`, which has 162 lines\n\
- relevant_files[1].path `internal/model/issues.go` was not returned by any tool in this run; cite only paths a tool printed (or look it up first, e.g. code {\"operation\":\"find\",\"symbol\":\"…\"}), or drop it\n\
Fix them and call `submit` again. This is the one repair round: whatever is still not backed by a tool's output is then dropped.";
    assert!(complaint.starts_with(expected), "{complaint}");
    assert_eq!(sink.notices(), vec!["submit_repair".to_string()]);

    assert_eq!(result.metadata.stop_reason, StopReason::Answered);
    assert_eq!(result.relevant_files.len(), 1);
    assert_eq!(result.relevant_files[0].path, "internal/model/issue.go");
    assert_eq!(
        result.relevant_files[0].locations,
        vec![Location {
            line: 155,
            end_line: Some(162),
            symbol: None,
            kind: None
        }]
    );
    let meta = json_of(&result)["_metadata"].clone();
    assert_eq!(meta["repair_rounds"], 1);
    assert_eq!(meta["evidence_coverage"]["claims"], 4);
    assert_eq!(meta["evidence_coverage"]["cited"], 2);
    assert_eq!(meta["evidence_coverage"]["dropped"], 2);
    assert_eq!(meta["evidence_coverage"]["coverage"], 0.5);
    assert_eq!(meta["usage"]["total_tokens"], 4200);
}

#[tokio::test]
async fn on_the_final_turn_only_submit_is_offered_and_bad_claims_are_dropped_at_once() {
    let server = server(vec![
        read_issue_tail(),
        reply(
            &[(
                "submit",
                json!({"answer": "see issue.go", "relevant_files": [
                    {"path": "internal/model/issue.go", "rationale": "declares it", "role": "type_definition",
                     "locations": [{"line": 155}]},
                    {"path": "internal/store/issue.go", "rationale": "never seen", "role": "dependency"}
                ]}),
            )],
            Some((1300, 90)),
        ),
    ])
    .await;
    let mut config = RunConfig::new("where is IssueStore defined");
    config.max_turns = 2;
    let (result, _) = run_with(&server, llm_config(&server), &config).await;
    let result = result.unwrap();
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert_eq!(tool_names(&bodies[1]), ["submit"]);
    assert_eq!(bodies[1]["tool_choice"], "required");
    let msgs = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(
        msgs.last().unwrap()["content"],
        "This is the last turn: call `submit` now with what you have found. Only `submit` is available. Cite only files and lines the tools showed you; say in the answer what you could not confirm."
    );
    assert_eq!(result.metadata.stop_reason, StopReason::Answered);
    let paths: Vec<&str> = result
        .relevant_files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["internal/model/issue.go"]);
    let meta = json_of(&result)["_metadata"].clone();
    assert_eq!(meta["repair_rounds"], 0);
    assert_eq!(meta["evidence_coverage"]["dropped"], 1);
}

#[tokio::test]
async fn an_answer_citing_only_invented_files_is_not_found() {
    let server = server(vec![
        read_issue_tail(),
        reply(
            &[(
                "submit",
                json!({"answer": "in store", "relevant_files": [
                    {"path": "internal/store/issue_store.go", "rationale": "?", "role": "dependency"}]}),
            )],
            Some((1300, 40)),
        ),
        reply(
            &[(
                "submit",
                json!({"answer": "in store", "relevant_files": [
                    {"path": "internal/store/issue_store.go", "rationale": "?", "role": "dependency"}]}),
            )],
            Some((1400, 40)),
        ),
    ])
    .await;
    let result = run(&server, "where is IssueStore implemented").await;
    assert_eq!(result.metadata.stop_reason, StopReason::NotFound);
    assert_eq!(result.relevant_files, vec![]);
    assert_eq!(result.metadata.relevant_file_count, 0);
}

#[tokio::test]
async fn a_submission_with_json_encoded_arrays_and_loose_role_spelling_is_read() {
    let files = json!([{"path": "internal/model/issue.go", "rationale": "declares IssueStore",
        "role": "Type Definition", "locations": [{"line": 155}]}])
    .to_string();
    let server = server(vec![
        read_issue_tail(),
        reply(
            &[(
                "submit",
                json!({"answer": "issue.go:155", "relevant_files": files}),
            )],
            Some((1300, 40)),
        ),
    ])
    .await;
    let result = run(&server, "where is IssueStore defined").await;
    assert_eq!(result.metadata.stop_reason, StopReason::Answered);
    assert_eq!(result.relevant_files.len(), 1);
    assert_eq!(
        result.relevant_files[0].role,
        explore_agent::Role::TypeDefinition
    );
    assert_eq!(json_of(&result)["_metadata"]["repair_rounds"], 0);
}

#[tokio::test]
async fn paths_the_answer_invents_are_sent_back_then_marked_unverified() {
    let submit = json!({
        "answer": "IssueStore is at internal/model/issue.go:155; the Postgres one is in internal/store/pg.go:12.",
        "relevant_files": [{"path": "internal/model/issue.go", "rationale": "declares IssueStore",
            "role": "type_definition", "locations": [{"line": 155}]}]
    });
    let server = server(vec![
        read_issue_tail(),
        reply(&[("submit", submit.clone())], Some((1300, 40))),
        reply(&[("submit", submit)], Some((1400, 40))),
    ])
    .await;
    let result = run(&server, "where is IssueStore defined").await;
    let bodies = bodies(&server).await;
    let complaint = last_tool_messages(&bodies[2]).join("");
    assert!(
        complaint.starts_with("Not accepted: 1 problem with your answer:\n- the answer cites `internal/store/pg.go:12`, a path no tool returned in this run; cite only paths a tool printed\n"),
        "{complaint}"
    );
    assert_eq!(result.metadata.stop_reason, StopReason::Answered);
    assert_eq!(
        result.answer,
        "IssueStore is at internal/model/issue.go:155; the Postgres one is in internal/store/pg.go:12 (unverified)."
    );
    assert_eq!(
        json_of(&result)["_metadata"]["evidence_coverage"]["answer_unbacked"],
        1
    );
}
