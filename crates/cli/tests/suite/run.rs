//! The main command end to end with the local engine on the relay fixture, and with a
//! scripted model endpoint: the three formats, exit codes 0/1/3, the question from stdin,
//! precedence seen in the result.

use serde_json::{Value, json};

use super::common::{Sandbox, filters, relay, stderr, stdout};
use super::server::{Server, tool_call};

fn json_doc(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(out), stderr(out)))
}

#[test]
fn json_is_the_default_when_stdout_is_not_a_terminal() {
    let sb = Sandbox::new();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args(["--engine", "local", "where", "is", "IssueStore", "defined"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json_doc(&out);
    assert_eq!(doc["query"], "where is IssueStore defined");
    assert_eq!(doc["version"], 1);
    let first = &doc["relevant_files"][0];
    assert_eq!(first["path"], "internal/model/issue.go");
    assert_eq!(first["role"], "type_definition");
    assert_eq!(
        first["locations"][0],
        json!({"line": 155, "end_line": 162, "symbol": "IssueStore", "kind": "interface"})
    );
    let meta = &doc["_metadata"];
    assert_eq!(meta["engine"], "local");
    assert_eq!(meta["stop_reason"], "answered");
    assert_eq!(meta["partial"], false);
    assert_eq!(meta["usage"]["budget"], 60000);
    assert!(meta.get("cache").is_none(), "no session, no cache field");
}

#[test]
fn human_format_snapshot() {
    let sb = Sandbox::new();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args([
            "--engine",
            "local",
            "--format",
            "human",
            "where is IssueStore defined",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::with_settings!({filters => filters()}, {
        insta::assert_snapshot!(stdout(&out));
    });
}

#[test]
fn json_format_snapshot() {
    let sb = Sandbox::new();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args(["--engine", "local", "--json", "where is IssueStore defined"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The contract's fields in the document's order; the loop's extra metrics are its
    // own business.
    let mut doc: explore_agent::ExploreResult = serde_json::from_slice(&out.stdout).unwrap();
    doc.metadata.extra.clear();
    let text = serde_json::to_string_pretty(&doc).unwrap();
    insta::with_settings!({filters => filters()}, {
        insta::assert_snapshot!(text);
    });
}

#[test]
fn jsonl_streams_events_then_the_result() {
    let sb = Sandbox::new();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args([
            "--engine",
            "local",
            "--format",
            "jsonl",
            "where is IssueStore defined",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let events: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.first(), Some(&"start"));
    assert_eq!(kinds.last(), Some(&"final"));
    assert_eq!(kinds.iter().filter(|k| **k == "final").count(), 1);
    let first_call = events.iter().find(|e| e["event"] == "tool_call").unwrap();
    assert_eq!(
        first_call["args"],
        json!({"operation": "find", "symbol": "IssueStore"})
    );
    assert_eq!(first_call["tool"], "code");
    assert!(kinds.contains(&"tool_result"));
    assert!(kinds.contains(&"usage"));
    let result = &events.last().unwrap()["result"];
    assert_eq!(
        result["relevant_files"][0]["path"],
        "internal/model/issue.go"
    );
}

#[test]
fn question_from_stdin() {
    let sb = Sandbox::new();
    for args in [vec!["-"], vec![]] {
        let out = sb
            .cmd()
            .arg("-C")
            .arg(relay())
            .args(["--engine", "local", "--json"])
            .args(&args)
            .write_stdin("where is IssueStore\n   defined\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let doc = json_doc(&out);
        assert_eq!(doc["query"], "where is IssueStore defined");
        assert_eq!(doc["relevant_files"][0]["path"], "internal/model/issue.go");
    }
}

/// A report piped in keeps its lines (title, frames, fences), as `explore eval` reads it.
#[test]
fn a_report_from_stdin_keeps_its_lines() {
    let sb = Sandbox::new();
    let report = "server exits at start when the database URL is empty\r\n\r\n\
        ```\r\npanic: runtime error: invalid memory address or nil pointer dereference\r\n\r\n\
        goroutine 1 [running]:\r\nexample.com/relay/internal/config.Config.Validate(...)\r\n\
        \t/home/me/relay/internal/config/config.go:99 +0x1d\r\n```\r\n";
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args(["--engine", "local", "--json", "-"])
        .write_stdin(report)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json_doc(&out);
    let query = doc["query"].as_str().unwrap();
    assert!(
        query.starts_with("server exits at start when the database URL is empty\n\n```\npanic:"),
        "{query:?}"
    );
    assert!(query.ends_with("config.go:99 +0x1d\n```"), "{query:?}");
    assert_eq!(
        doc["relevant_files"][0]["path"],
        "internal/config/config.go"
    );
}

#[test]
fn nonsense_question_is_exit_1_not_found() {
    let sb = Sandbox::new();
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args([
            "--engine",
            "local",
            "--json",
            "how does the flux capacitor reticulate splines",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json_doc(&out);
    assert_eq!(doc["_metadata"]["stop_reason"], "not_found");
    assert_eq!(doc["_metadata"]["partial"], false);
    assert_eq!(doc["relevant_files"], json!([]));
}

#[test]
fn budget_precedence_shows_in_the_result() {
    let sb = Sandbox::new();
    sb.write_user_file("budget = 40000\n");
    let run = |extra: &[&str], env: Option<(&str, &str)>| {
        let mut cmd = sb.cmd();
        cmd.arg("-C")
            .arg(relay())
            .args(["--engine", "local", "--json"])
            .args(extra)
            .arg("where is IssueStore defined");
        if let Some((k, v)) = env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        json_doc(&out)["_metadata"]["usage"]["budget"].clone()
    };
    assert_eq!(run(&[], None), 40000);
    assert_eq!(run(&[], Some(("EXPLORE_BUDGET", "30000"))), 30000);
    assert_eq!(
        run(&["--budget", "20000"], Some(("EXPLORE_BUDGET", "30000"))),
        20000
    );
}

#[test]
fn model_that_never_submits_stops_at_the_turn_limit_with_exit_3() {
    let sb = Sandbox::new();
    let replies = (1..=4)
        .map(|d| tool_call(&format!("call_{d}"), "tree", &json!({"depth": d})))
        .collect();
    let server = Server::start(replies, 8);
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args([
            "--engine",
            "llm",
            "--model",
            "test-model",
            "--max-turns",
            "2",
            "--json",
        ])
        .args(["--base-url", &server.base_url])
        .arg("where is IssueStore defined")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let doc = json_doc(&out);
    assert_eq!(doc["_metadata"]["stop_reason"], "max_turns");
    assert_eq!(doc["_metadata"]["partial"], true);
    assert_eq!(doc["_metadata"]["engine"], "llm");
    assert_eq!(doc["_metadata"]["model"], "test-model");
    assert_eq!(server.requests.lock().unwrap().len(), 2);
}

#[test]
fn endpoint_failing_with_500s_is_exit_3_with_a_partial_result() {
    let sb = Sandbox::new();
    let server = Server::start(vec![(500, r#"{"error":{"message":"boom"}}"#.into())], 10);
    let out = sb
        .cmd()
        .arg("-C")
        .arg(relay())
        .args([
            "--engine",
            "llm",
            "--model",
            "test-model",
            "--format",
            "jsonl",
        ])
        .args(["--base-url", &server.base_url])
        .arg("where is IssueStore defined")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let last: Value = serde_json::from_str(stdout(&out).lines().last().unwrap()).unwrap();
    assert_eq!(last["event"], "final");
    assert_eq!(last["result"]["_metadata"]["stop_reason"], "provider_error");
    assert_eq!(last["result"]["_metadata"]["partial"], true);
}

/// A scripted model whose every reply submits an empty answer (up to 4 requests).
fn model_that_submits_nothing() -> Server {
    let submit = tool_call(
        "call_1",
        "submit",
        &json!({"answer": "nothing specific", "relevant_files": []}),
    );
    Server::start(vec![submit], 4)
}

/// `--engine auto` with a model: a certain symbol answer makes no request; an uncertain
/// question goes to the model as `--engine llm` would, and both say why.
#[test]
fn auto_answers_certain_questions_locally_and_sends_the_rest_to_the_model() {
    let sb = Sandbox::new();
    let server = model_that_submits_nothing();
    let ask = |q: &str| {
        sb.cmd()
            .arg("-C")
            .arg(relay())
            .args(["--model", "test-model", "--json"])
            .args(["--base-url", &server.base_url])
            .arg(q)
            .output()
            .unwrap()
    };
    let out = ask("where is IssueStore defined");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json_doc(&out);
    assert_eq!(doc["_metadata"]["engine"], "local");
    assert_eq!(doc["_metadata"]["routing"]["verdict"], "certain");
    assert_eq!(doc["_metadata"]["usage"]["total_tokens"], 0);
    assert_eq!(doc["relevant_files"][0]["path"], "internal/model/issue.go");
    assert_eq!(server.requests.lock().unwrap().len(), 0);

    let out = ask("how are webhooks handled");
    let doc = json_doc(&out);
    assert_eq!(doc["_metadata"]["engine"], "llm", "{}", stderr(&out));
    assert_eq!(doc["_metadata"]["routing"]["verdict"], "uncertain");
    assert_eq!(
        doc["_metadata"]["routing"]["doubts"][0],
        "not_symbol_question"
    );
    assert_eq!(server.requests.lock().unwrap().len(), 1);
}

/// `explore eval --engine auto`: certain cases make no request, the rest go to the model,
/// and the report says how many were kept local and what that saved.
#[test]
fn eval_auto_routes_certain_cases_locally() {
    let sb = Sandbox::new();
    let server = model_that_submits_nothing();
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("auto.toml");
    std::fs::write(
        &suite,
        format!(
            r#"[suite]
name = "auto"
repo = "{}"

[[case]]
id = "certain-def"
query = "where is IssueStore defined"
kind = "definition"
files = ["internal/model/issue.go"]

[[case]]
id = "concept"
query = "how are webhooks handled"
kind = "concept"
files = ["internal/webhook/handler.go"]
"#,
            relay().display()
        ),
    )
    .unwrap();
    let out = sb
        .cmd()
        .env("OPENAI_BASE_URL", &server.base_url)
        .env("EXPLORE_MODEL", "test-model")
        .args(["eval", "--engine", "auto", "--jobs", "1"])
        .arg(&suite)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(
        text.contains("routing: 1 of 2 cases certain locally"),
        "{text}\n{}",
        stderr(&out)
    );
    assert!(text.contains("about 920 tokens saved"), "{text}");
    assert_eq!(server.requests.lock().unwrap().len(), 1);
}
