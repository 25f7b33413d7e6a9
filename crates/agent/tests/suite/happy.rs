//! The efficient path: read a range, submit, done; and what the loop sends at each step.

use explore_agent::{Location, RelevantFile, Role, StopReason, Usage};
use pretty_assertions::assert_eq;
use serde_json::json;

use super::common::*;

fn issue_store_submit() -> serde_json::Value {
    json!({
        "answer": "IssueStore is the interface at internal/model/issue.go:155-162.",
        "relevant_files": [{
            "path": "internal/model/issue.go",
            "rationale": "declares the IssueStore interface (Get, Upsert, List)",
            "role": "type_definition",
            "key_symbols": ["IssueStore"],
            "locations": [{"line": 155, "end_line": 162, "symbol": "IssueStore", "kind": "interface"}]
        }]
    })
}

#[tokio::test]
async fn read_then_submit_gives_a_checked_answer() {
    let server = server(vec![
        reply(
            &[(
                "read",
                json!({"file": "internal/model/issue.go", "start_line": 150, "num_lines": 13}),
            )],
            Some((1200, 40)),
        ),
        reply(&[("submit", issue_store_submit())], Some((1500, 120))),
    ])
    .await;
    let result = run(&server, "where is IssueStore defined").await;

    assert_eq!(result.metadata.stop_reason, StopReason::Answered);
    assert!(!result.metadata.partial);
    assert_eq!(
        result.answer,
        "IssueStore is the interface at internal/model/issue.go:155-162."
    );
    assert_eq!(
        result.relevant_files,
        vec![RelevantFile {
            path: "internal/model/issue.go".into(),
            rationale: "declares the IssueStore interface (Get, Upsert, List)".into(),
            role: Role::TypeDefinition,
            discovery_source: "read".into(),
            key_symbols: vec!["IssueStore".into()],
            locations: vec![Location {
                line: 155,
                end_line: Some(162),
                symbol: Some("IssueStore".into()),
                kind: Some("interface".into()),
            }],
        }]
    );
    assert_eq!(
        result.metadata.usage,
        Usage {
            prompt_tokens: 2700,
            completion_tokens: 160,
            total_tokens: 2860,
            budget: 60_000
        }
    );
    assert_eq!(result.metadata.turns, 2);
    assert_eq!(result.metadata.engine, "llm");
    assert_eq!(result.metadata.model.as_deref(), Some("gpt-4o-mini"));
    assert_eq!(result.metadata.search_sources, vec!["read".to_string()]);
    assert_eq!(result.metadata.relevant_file_count, 1);
    assert_eq!(result.metadata.total_files_scanned, 1);
    let tools: Vec<(String, u32)> = result.metadata.tool_calls.clone().into_iter().collect();
    assert_eq!(tools, vec![("read".into(), 1), ("submit".into(), 1)]);
    let meta = json_of(&result)["_metadata"].clone();
    assert_eq!(
        meta["evidence_coverage"],
        json!({"claims": 2, "cited": 2, "dropped": 0, "coverage": 1.0, "roles_replaced": 0,
               "answer_unbacked": 0, "complaints": []})
    );
    assert_eq!(meta["doom_loop_events"], json!([]));

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    let first = &bodies[0];
    assert_eq!(first["model"], "gpt-4o-mini");
    assert_eq!(
        tool_names(first),
        ["tree", "read", "bash", "code", "submit"]
    );
    assert_eq!(first["tool_choice"], "auto");
    assert_eq!(first["max_tokens"], 2048);
    assert_eq!(first["messages"][0]["role"], "system");
    assert_eq!(
        first["messages"][1]["content"],
        "Question: where is IssueStore defined\nAngle: general\nBudget: 60,000 tokens for the whole run, at most 12 turns."
    );
    // What the loop fed back: the read window, numbered, then the budget note.
    let fed = last_tool_messages(&bodies[1]);
    assert_eq!(fed.len(), 1);
    assert!(
        fed[0].starts_with("internal/model/issue.go: lines 150-162 of 162\n"),
        "{}",
        fed[0]
    );
    assert!(
        fed[0].contains("\n   155\ttype IssueStore interface {\n"),
        "{}",
        fed[0]
    );
    assert!(
        fed[0]
            .ends_with("(end of file)\n[budget: 58,760 of 60,000 tokens left; turn 1 of 12 done]"),
        "{}",
        fed[0]
    );
    let call_id = bodies[1]["messages"][2]["tool_calls"][0]["id"].clone();
    assert_eq!(bodies[1]["messages"][3]["tool_call_id"], call_id);
}

#[tokio::test]
async fn tool_specs_offer_submit_with_the_result_fields() {
    let specs = explore_agent::tool_specs(&registry());
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["tree", "read", "bash", "code", "submit"]);
    let submit = &specs[4].parameters;
    assert_eq!(submit["required"], json!(["answer", "relevant_files"]));
    assert_eq!(
        submit["properties"]["relevant_files"]["items"]["properties"]["role"]["enum"],
        json!([
            "modify_target",
            "dependency",
            "pattern_reference",
            "test_target",
            "type_definition",
            "integration_point",
            "config",
            "context_only"
        ])
    );
    assert!(specs[4].description.starts_with("Hand in your answer"));
}

#[tokio::test]
async fn a_cut_output_is_paged_with_read() {
    // router.go's first 300 lines are far over a 600-token cap.
    let server = dynamic_server(|n, req| {
        let body: serde_json::Value = serde_json::from_slice(&req.body).unwrap();
        match n {
            0 => reply(
                &[("read", json!({"file": "internal/webhook/router.go"}))],
                Some((1000, 20)),
            ),
            1 => {
                // Page the spilled output from where the cut note says.
                let fed = last_tool_messages(&body).join("");
                let at = fed.find(r#"read {"file":"@out/1","start_line":"#).unwrap();
                let rest = &fed[at + r#"read {"file":"@out/1","start_line":"#.len()..];
                let start: u32 = rest[..rest.find('}').unwrap()].parse().unwrap();
                reply(
                    &[(
                        "read",
                        json!({"file": "@out/1", "start_line": start, "num_lines": 5}),
                    )],
                    Some((1500, 20)),
                )
            }
            _ => reply(
                &[("submit", json!({"answer": "nothing", "relevant_files": []}))],
                Some((1600, 20)),
            ),
        }
    })
    .await;
    let mut config = explore_agent::RunConfig::new("what is in router.go");
    config.tool_output_tokens = 600;
    let (result, _) = run_with(&server, llm_config(&server), &config).await;
    let result = result.unwrap();
    assert_eq!(result.metadata.stop_reason, StopReason::NotFound);
    let bodies = bodies(&server).await;
    let cut = last_tool_messages(&bodies[1]).join("");
    assert!(
        cut.starts_with("internal/webhook/router.go: lines 1-300 of 935\n"),
        "{cut}"
    );
    assert!(
        cut.contains("[output cut: it is ")
            && cut.contains("tokens, over the 600-token limit per output; showing lines 1-"),
        "{cut}"
    );
    let paged = last_tool_messages(&bodies[2]).join("");
    assert!(paged.starts_with("@out/1: lines "), "{paged}");
    assert_eq!(json_of(&result)["_metadata"]["cut_outputs"], 1);
    // Paging a cut output shows no findings, but new text: not a repeat.
    assert_eq!(json_of(&result)["_metadata"]["doom_loop_events"], json!([]));
}

/// With `orient`, the first message also says how big the repository is, its languages and
/// its top level, so the model's first call can skip `tree`.
#[tokio::test]
async fn orientation_rides_on_the_first_message() {
    let server = server(vec![
        reply(
            &[(
                "read",
                json!({"file": "internal/model/issue.go", "start_line": 150, "num_lines": 13}),
            )],
            Some((1300, 40)),
        ),
        reply(&[("submit", issue_store_submit())], Some((1600, 120))),
    ])
    .await;
    let mut config = explore_agent::RunConfig::new("where is IssueStore defined");
    config.orient = true;
    let (result, _) = run_with(&server, llm_config(&server), &config).await;
    assert_eq!(result.unwrap().metadata.stop_reason, StopReason::Answered);
    let bodies = bodies(&server).await;
    let first = bodies[0]["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 5, "{first}");
    assert_eq!(lines[0], "Question: where is IssueStore defined");
    assert!(lines[3].starts_with("Repository: "), "{first}");
    assert!(lines[3].contains(" files. Languages: Go "), "{first}");
    // vendor/ is never listed or counted, as in `tree`.
    assert_eq!(
        lines[4],
        "Top level: cmd/ internal/ proto/ Makefile README.md go.mod go.sum"
    );
}
