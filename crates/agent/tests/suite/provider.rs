//! The endpoint misbehaving: retries with backoff, Retry-After, timeouts, give-up, and
//! settings that are wrong (401, 404) failing fast.

use std::time::Duration;

use explore_agent::{RunConfig, RunError, StopReason};
use pretty_assertions::assert_eq;
use serde_json::json;
use wiremock::ResponseTemplate;

use super::common::*;

fn submit_nothing() -> ResponseTemplate {
    reply(
        &[(
            "submit",
            json!({"answer": "nothing here", "relevant_files": []}),
        )],
        Some((900, 20)),
    )
}

#[tokio::test]
async fn a_500_then_a_429_with_retry_after_then_success() {
    let server = server(vec![
        ResponseTemplate::new(500).set_body_string("upstream exploded"),
        ResponseTemplate::new(429)
            .insert_header("retry-after", "1")
            .set_body_json(
                json!({"error": {"message": "Rate limit reached", "type": "rate_limit"}}),
            ),
        submit_nothing(),
    ])
    .await;
    let started = std::time::Instant::now();
    let result = run(&server, "anything").await;
    assert_eq!(result.metadata.stop_reason, StopReason::NotFound);
    assert_eq!(result.metadata.turns, 1);
    assert_eq!(result.metadata.usage.total_tokens, 920);
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    // The same request each time.
    assert_eq!(bodies[0], bodies[1]);
    assert_eq!(bodies[1], bodies[2]);
    // Retry-After: 1 was honoured (the 2 ms backoff alone would have been far shorter).
    assert!(started.elapsed() >= Duration::from_secs(1));
    let auth = server.received_requests().await.unwrap()[0]
        .headers
        .get("authorization")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(auth, "Bearer sk-test");
}

#[tokio::test]
async fn an_endpoint_that_keeps_failing_ends_with_provider_error_and_the_evidence() {
    let mut script = vec![reply(
        &[(
            "read",
            json!({"file": "internal/retry/retry.go", "start_line": 93, "num_lines": 20}),
        )],
        Some((1000, 30)),
    )];
    for _ in 0..10 {
        script.push(ResponseTemplate::new(503).set_body_string("overloaded"));
    }
    let server = server(script).await;
    let mut llm = llm_config(&server);
    llm.max_retries = 3;
    let (result, sink) = run_with(&server, llm, &RunConfig::new("where is retry logic")).await;
    let result = result.unwrap();
    assert_eq!(bodies(&server).await.len(), 1 + 4);
    assert_eq!(result.metadata.stop_reason, StopReason::ProviderError);
    assert!(result.metadata.partial);
    assert_eq!(result.metadata.stop_reason.exit_code(), 3);
    assert_eq!(sink.notices(), vec!["provider_error"]);
    let notices = json_of(&result)["_metadata"]["notices"].clone();
    assert_eq!(
        notices,
        json!(["provider_error: 503: overloaded (gave up after 4 attempts)"])
    );
    assert_eq!(result.relevant_files.len(), 1);
    assert_eq!(result.relevant_files[0].path, "internal/retry/retry.go");
    assert_eq!(result.relevant_files[0].locations[0].line, 93);
    assert_eq!(result.relevant_files[0].locations[0].end_line, Some(112));
    assert_eq!(result.metadata.usage.total_tokens, 1030);
}

#[tokio::test]
async fn a_slow_answer_times_out_and_is_retried() {
    let server = server(vec![
        submit_nothing().set_delay(Duration::from_secs(3)),
        submit_nothing(),
    ])
    .await;
    let mut llm = llm_config(&server);
    llm.timeout = Duration::from_millis(300);
    let (result, _) = run_with(&server, llm, &RunConfig::new("anything")).await;
    let result = result.unwrap();
    assert_eq!(result.metadata.stop_reason, StopReason::NotFound);
    assert_eq!(bodies(&server).await.len(), 2);
    assert_eq!(result.metadata.usage.total_tokens, 920);
}

#[tokio::test]
async fn timeouts_past_the_retries_are_a_provider_error() {
    let server = server(vec![
        submit_nothing().set_delay(Duration::from_secs(3)),
        submit_nothing().set_delay(Duration::from_secs(3)),
    ])
    .await;
    let mut llm = llm_config(&server);
    llm.timeout = Duration::from_millis(200);
    llm.max_retries = 1;
    let (result, _) = run_with(&server, llm, &RunConfig::new("anything")).await;
    let result = result.unwrap();
    assert_eq!(result.metadata.stop_reason, StopReason::ProviderError);
    assert_eq!(result.relevant_files, vec![]);
    assert_eq!(
        json_of(&result)["_metadata"]["notices"],
        json!(["provider_error: no answer within 0.2 s (gave up after 2 attempts)"])
    );
}

#[tokio::test]
async fn a_401_fails_fast_naming_the_key() {
    let server = server(vec![
        ResponseTemplate::new(401).set_body_json(
            json!({"error": {"message": "Incorrect API key provided: sk-test", "type": "invalid_request_error"}}),
        ),
        submit_nothing(),
    ])
    .await;
    let (result, _) = run_with(&server, llm_config(&server), &RunConfig::new("anything")).await;
    let RunError::Config(msg) = result.unwrap_err();
    assert_eq!(
        msg,
        format!(
            "the model endpoint {}/v1 refused the API key (401: Incorrect API key provided: sk-test); set OPENAI_API_KEY to a valid key for it, or check --base-url",
            server.uri()
        )
    );
    assert_eq!(bodies(&server).await.len(), 1);
}

#[tokio::test]
async fn a_404_fails_fast_naming_the_model_and_base_url() {
    let server = server(vec![ResponseTemplate::new(404).set_body_json(
        json!({"error": {"message": "The model `gpt-9` does not exist", "type": "invalid_request_error"}}),
    )])
    .await;
    let (result, _) = run_with(&server, llm_config(&server), &RunConfig::new("anything")).await;
    let err = result.unwrap_err();
    assert_eq!(err.exit_code(), 2);
    let msg = err.to_string();
    assert!(msg.contains("The model `gpt-9` does not exist"), "{msg}");
    assert!(msg.ends_with("the model `gpt-4o-mini` is unknown there or the base URL is wrong: check --model and --base-url"), "{msg}");
    assert_eq!(bodies(&server).await.len(), 1);
}

#[tokio::test]
async fn a_400_naming_a_parameter_is_adapted_to_for_the_rest_of_the_run() {
    let server = server(vec![
        ResponseTemplate::new(400).set_body_json(json!({"error": {
            "message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}})),
        ResponseTemplate::new(400).set_body_json(json!({"error": {
            "message": "Unsupported value: 'temperature' does not support 0 with this model."}})),
        reply(&[("tree", json!({"path": "internal/retry"}))], Some((900, 20))),
        submit_nothing(),
    ])
    .await;
    let result = run(&server, "anything").await;
    assert_eq!(result.metadata.stop_reason, StopReason::NotFound);
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 4);
    assert_eq!(bodies[0]["max_tokens"], 2048);
    assert_eq!(bodies[0]["temperature"], 0.0);
    assert_eq!(bodies[1]["max_completion_tokens"], 2048);
    assert!(bodies[1].get("max_tokens").is_none());
    for b in &bodies[2..] {
        assert!(b.get("max_tokens").is_none());
        assert!(b.get("temperature").is_none());
        assert!(b["max_completion_tokens"].as_u64().is_some());
    }
}

#[tokio::test]
async fn any_other_400_is_a_provider_error_at_once() {
    let server = server(vec![ResponseTemplate::new(400).set_body_json(
        json!({"error": {"message": "This model's maximum context length is 8192 tokens."}}),
    )])
    .await;
    let result = run(&server, "anything").await;
    assert_eq!(result.metadata.stop_reason, StopReason::ProviderError);
    assert_eq!(bodies(&server).await.len(), 1);
    assert_eq!(
        json_of(&result)["_metadata"]["notices"],
        json!(["provider_error: 400: This model's maximum context length is 8192 tokens."])
    );
}

#[tokio::test]
async fn a_base_url_that_is_not_a_url_is_a_setting_to_fix() {
    let err = explore_agent::LlmPolicy::new(explore_agent::LlmConfig::new("localhost:11434", "m"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the model endpoint base URL `localhost:11434` must start with http:// or https://; set --base-url (or OPENAI_BASE_URL)"
    );
    let err = explore_agent::LlmPolicy::new(explore_agent::LlmConfig::new("", "m")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the model endpoint base URL `` is not a URL (")
    );
}

#[tokio::test]
async fn a_200_carrying_an_error_is_a_provider_error_that_quotes_it() {
    let server = server(vec![ResponseTemplate::new(200).set_body_json(
        json!({"error": {"message": "model is loading", "code": 503}}),
    )])
    .await;
    let result = run(&server, "anything").await;
    assert_eq!(result.metadata.stop_reason, StopReason::ProviderError);
    assert_eq!(
        json_of(&result)["_metadata"]["notices"],
        json!([
            "provider_error: the endpoint's answer is unusable: the response has no choices[0].message (it says: model is loading)"
        ])
    );
}
