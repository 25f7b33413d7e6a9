//! The harness: a fixture registry, a scripted Chat Completions server, an event collector.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use explore_agent::{Event, EventSink, ExploreResult, LlmConfig, LlmPolicy, RunConfig, RunError};
use explore_tools::code::IndexOptions;
use explore_tools::{Registry, RegistryOptions, RepoRoot};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// The Go fixture repository.
pub fn relay_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../evals/fixtures/relay")
}

/// A registry over the Go fixture, its code index kept in a private temp dir.
pub fn registry() -> Registry {
    let cache = tempfile::tempdir().unwrap().keep();
    let options = RegistryOptions {
        index: IndexOptions {
            cache_dir: Some(cache),
            ..Default::default()
        },
        ..Default::default()
    };
    Registry::new(RepoRoot::new(relay_dir()).unwrap(), options)
}

/// A model reply calling `calls` (name, arguments JSON text), with reported usage.
pub fn reply_raw(calls: &[(&str, &str)], usage: Option<(u64, u64)>) -> ResponseTemplate {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|(name, args)| {
            let n = NEXT.fetch_add(1, Ordering::SeqCst);
            json!({"id": format!("call_{n}"), "type": "function",
                   "function": {"name": name, "arguments": args}})
        })
        .collect();
    let mut body = json!({
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1_700_000_000,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": null, "tool_calls": tool_calls}}]
    });
    if let Some((p, c)) = usage {
        body["usage"] = json!({"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c});
    }
    ResponseTemplate::new(200).set_body_json(body)
}

/// A model reply calling `calls` with JSON arguments.
pub fn reply(calls: &[(&str, Value)], usage: Option<(u64, u64)>) -> ResponseTemplate {
    let texts: Vec<(&str, String)> = calls.iter().map(|(n, a)| (*n, a.to_string())).collect();
    let refs: Vec<(&str, &str)> = texts.iter().map(|(n, a)| (*n, a.as_str())).collect();
    reply_raw(&refs, usage)
}

/// Replies in order; a request past the end of the script gets a 400 the test will see.
pub struct Script(Mutex<VecDeque<ResponseTemplate>>);

impl Respond for Script {
    fn respond(&self, _request: &Request) -> ResponseTemplate {
        self.0
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or_else(|| ResponseTemplate::new(400).set_body_string("script exhausted"))
    }
}

/// Replies computed from the call number (0-based) and the request.
pub struct Dynamic<F>(pub AtomicUsize, pub F);

impl<F: Fn(usize, &Request) -> ResponseTemplate + Send + Sync> Respond for Dynamic<F> {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let n = self.0.fetch_add(1, Ordering::SeqCst);
        (self.1)(n, request)
    }
}

/// A server answering `/v1/chat/completions` from `script`.
pub async fn server(script: Vec<ResponseTemplate>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Script(Mutex::new(script.into())))
        .mount(&server)
        .await;
    server
}

/// A server answering with `f`.
pub async fn dynamic_server<F>(f: F) -> MockServer
where
    F: Fn(usize, &Request) -> ResponseTemplate + Send + Sync + 'static,
{
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Dynamic(AtomicUsize::new(0), f))
        .mount(&server)
        .await;
    server
}

/// The client configuration for `server`: fast retries, short timeout.
pub fn llm_config(server: &MockServer) -> LlmConfig {
    let mut c = LlmConfig::new(format!("{}/v1", server.uri()), "gpt-4o-mini");
    c.api_key = Some("sk-test".into());
    c.retry_base = Duration::from_millis(2);
    c.timeout = Duration::from_secs(5);
    c
}

/// Collects every event.
#[derive(Default)]
pub struct Collect(pub Mutex<Vec<Event>>);

impl EventSink for Collect {
    fn emit(&self, event: &Event) {
        self.0.lock().unwrap().push(event.clone());
    }
}

impl Collect {
    /// The `kind` of every notice, in order.
    pub fn notices(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|e| match e {
                Event::Notice { kind, .. } => Some(kind.clone()),
                _ => None,
            })
            .collect()
    }
}

/// Runs the loop against `server` with `config`.
pub async fn run_with(
    server: &MockServer,
    llm: LlmConfig,
    config: &RunConfig,
) -> (Result<ExploreResult, RunError>, Collect) {
    let registry = registry();
    let mut policy = LlmPolicy::new(llm).unwrap();
    let sink = Collect::default();
    let result = explore_agent::explore(&registry, &mut policy, config, &sink).await;
    let _ = server;
    (result, sink)
}

/// Runs the loop against `server` with defaults for `query`.
pub async fn run(server: &MockServer, query: &str) -> ExploreResult {
    let (r, _) = run_with(server, llm_config(server), &RunConfig::new(query)).await;
    r.unwrap()
}

/// The JSON bodies of every request the server received, in order.
pub async fn bodies(server: &MockServer) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect()
}

/// The `tool` messages at the end of a request body (the answers to the last turn).
pub fn last_tool_messages(body: &Value) -> Vec<String> {
    let msgs = body["messages"].as_array().unwrap();
    let mut out: Vec<String> = msgs
        .iter()
        .rev()
        .take_while(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_string())
        .collect();
    out.reverse();
    out
}

/// The names of the tools offered in a request.
pub fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_string())
        .collect()
}

/// The result as JSON, for assertions on `_metadata` extras.
pub fn json_of(result: &ExploreResult) -> Value {
    serde_json::to_value(result).unwrap()
}
