//! The model policy: a model behind any OpenAI-compatible Chat Completions endpoint.
//!
//! One `POST {base_url}/chat/completions` per turn, non-streaming, with the tools as
//! function definitions and `usage` read back. The wire types are async-openai's; the HTTP
//! is ours (reqwest), because the loop needs what async-openai's client does not give:
//! the status and `Retry-After` of a failed attempt, our own bounded retry schedule, and
//! the raw bodies for `--record`/`--replay`.
//!
//! Failures split in two. A setting that is wrong (401/403: the key; 404: the model or the
//! base URL) fails at once with [`PolicyError::Config`] naming the setting, since retrying
//! cannot help. Everything transient (429, 5xx, timeouts, dropped connections, garbled
//! bodies) is retried with exponential backoff and jitter, honouring `Retry-After`, a
//! bounded number of times, then becomes [`PolicyError::Provider`]: the loop ends the run
//! with `provider_error` and a partial result built from the evidence so far.

mod transcript;
pub mod wire;

use std::path::PathBuf;
use std::time::Duration;

pub use transcript::{Recorder, Replayer, TranscriptEntry};
use wire::CapField;

use crate::policy::{Engine, Policy, PolicyError, Turn, TurnRequest};

/// OpenAI's API, the default endpoint.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The model used when none is configured.
pub const DEFAULT_MODEL: &str = "gpt-4o-mini";
/// How long one HTTP attempt may take by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// Retries after the first attempt, by default.
pub const DEFAULT_MAX_RETRIES: u32 = 4;
/// The first backoff step; it doubles each retry.
pub const DEFAULT_RETRY_BASE: Duration = Duration::from_millis(500);
/// The longest single wait, whatever `Retry-After` says.
pub const MAX_RETRY_WAIT: Duration = Duration::from_secs(60);

/// How to reach the model.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`.
    pub base_url: String,
    /// The model name as the endpoint knows it.
    pub model: String,
    /// Bearer token (`OPENAI_API_KEY`); local servers usually need none.
    pub api_key: Option<String>,
    /// Limit for one HTTP attempt (connect, send, read the whole body).
    pub timeout: Duration,
    /// Retries of transient failures after the first attempt.
    pub max_retries: u32,
    /// First backoff step; doubles per retry, with jitter.
    pub retry_base: Duration,
    /// Write every request and response here as JSON Lines (`--record`).
    pub record: Option<PathBuf>,
    /// Answer from this transcript instead of the endpoint (`--replay`): no network, no key.
    pub replay: Option<PathBuf>,
}

impl LlmConfig {
    /// A configuration for `model` at `base_url` with the default timeouts and retries.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: DEFAULT_TIMEOUT,
            max_retries: DEFAULT_MAX_RETRIES,
            retry_base: DEFAULT_RETRY_BASE,
            record: None,
            replay: None,
        }
    }

    /// The endpoint's URL.
    pub fn completions_url(&self) -> String {
        format!("{}/chat/completions", self.base_url.trim_end_matches('/'))
    }
}

/// A [`Policy`] that asks a model.
#[derive(Debug)]
pub struct LlmPolicy {
    config: LlmConfig,
    http: reqwest::Client,
    cap_field: CapField,
    /// False once the endpoint refused `temperature` (reasoning models accept only the
    /// default).
    send_temperature: bool,
    /// False once the endpoint refused `tool_choice: "required"` (older local servers).
    require_tool: bool,
    recorder: Option<Recorder>,
    replayer: Option<Replayer>,
    calls: u64,
}

/// What one failed attempt means.
enum Attempt {
    /// Worth retrying; the server may have said how long to wait.
    Retry(String, Option<Duration>),
    /// Retrying cannot help: a provider failure.
    Fatal(String),
    /// A setting is wrong.
    Config(String),
    /// A 400 that names a parameter we can send differently (`max_tokens`,
    /// `temperature`, `tool_choice`): adapt the request and try again.
    Adapt(String),
}

impl LlmPolicy {
    /// Builds the client. Fails with [`PolicyError::Config`] when a transcript to replay
    /// cannot be read or one to record cannot be created.
    pub fn new(config: LlmConfig) -> Result<Self, PolicyError> {
        if config.replay.is_none() {
            let url = reqwest::Url::parse(&config.completions_url()).map_err(|e| {
                PolicyError::Config(format!(
                    "the model endpoint base URL `{}` is not a URL ({e}); set --base-url (or OPENAI_BASE_URL), e.g. http://localhost:11434/v1",
                    config.base_url
                ))
            })?;
            if !matches!(url.scheme(), "http" | "https") {
                return Err(PolicyError::Config(format!(
                    "the model endpoint base URL `{}` must start with http:// or https://; set --base-url (or OPENAI_BASE_URL)",
                    config.base_url
                )));
            }
        }
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| PolicyError::Config(format!("cannot build the HTTP client: {e}")))?;
        let replayer = match &config.replay {
            Some(p) => Some(Replayer::open(p)?),
            None => None,
        };
        let recorder = match &config.record {
            Some(p) => Some(Recorder::create(p)?),
            None => None,
        };
        let cap_field = CapField::for_model(&config.model);
        Ok(Self {
            send_temperature: cap_field == CapField::MaxTokens,
            require_tool: true,
            cap_field,
            config,
            http,
            recorder,
            replayer,
            calls: 0,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// Changes `body` to avoid what a 400 complained about; false when there is nothing
    /// left to change (the 400 is then a provider failure). What is learned sticks for the
    /// rest of the run.
    fn adapt(&mut self, body: &mut serde_json::Value, detail: &str) -> bool {
        let Some(obj) = body.as_object_mut() else {
            return false;
        };
        if detail.contains("max_tokens") && obj.contains_key("max_tokens") {
            self.cap_field = CapField::MaxCompletionTokens;
            if let Some(v) = obj.remove("max_tokens") {
                obj.insert("max_completion_tokens".into(), v);
            }
            return true;
        }
        if detail.contains("temperature") && obj.remove("temperature").is_some() {
            self.send_temperature = false;
            return true;
        }
        if detail.contains("tool_choice")
            && obj.get("tool_choice").and_then(|v| v.as_str()) == Some("required")
        {
            self.require_tool = false;
            obj.insert("tool_choice".into(), serde_json::Value::from("auto"));
            return true;
        }
        false
    }

    /// Applies what earlier 400s taught to a fresh request body.
    fn shape(&self, body: &mut serde_json::Value) {
        let Some(obj) = body.as_object_mut() else {
            return;
        };
        if !self.send_temperature {
            obj.remove("temperature");
        }
        if !self.require_tool {
            obj.insert("tool_choice".into(), serde_json::Value::from("auto"));
        }
    }

    /// Sends one request with retries; returns the response body.
    async fn send(
        &mut self,
        body: &mut serde_json::Value,
    ) -> Result<serde_json::Value, PolicyError> {
        let url = self.config.completions_url();
        let mut attempt: u32 = 0;
        loop {
            let outcome = self.attempt(&url, body).await;
            let failure = match outcome {
                Ok(v) => return Ok(v),
                Err(f) => f,
            };
            match failure {
                Attempt::Config(msg) => return Err(PolicyError::Config(msg)),
                Attempt::Fatal(msg) => return Err(PolicyError::Provider(msg)),
                Attempt::Adapt(msg) => {
                    if !self.adapt(body, &msg) {
                        return Err(PolicyError::Provider(msg));
                    }
                    tracing::info!("model endpoint: {msg}; adapted the request");
                }
                Attempt::Retry(msg, retry_after) => {
                    if attempt >= self.config.max_retries {
                        return Err(PolicyError::Provider(format!(
                            "{msg} (gave up after {} attempts)",
                            attempt + 1
                        )));
                    }
                    let wait = retry_after
                        .unwrap_or_else(|| backoff(self.config.retry_base, attempt))
                        .min(MAX_RETRY_WAIT);
                    tracing::warn!(
                        "model endpoint: {msg}; retry {} of {} in {} ms",
                        attempt + 1,
                        self.config.max_retries,
                        wait.as_millis()
                    );
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
            }
        }
    }

    async fn attempt(
        &self,
        url: &str,
        body: &serde_json::Value,
    ) -> Result<serde_json::Value, Attempt> {
        let mut req = self.http.post(url).json(body);
        if let Some(key) = self.config.api_key.as_deref().filter(|k| !k.is_empty()) {
            req = req.bearer_auth(key);
        }
        let resp = req.send().await.map_err(|e| {
            if e.is_timeout() {
                Attempt::Retry(
                    format!("no answer within {} s", self.config.timeout.as_secs_f32()),
                    None,
                )
            } else if e.is_connect() {
                Attempt::Retry(format!("cannot connect to {url}: {e}"), None)
            } else {
                Attempt::Retry(format!("request to {url} failed: {e}"), None)
            }
        })?;
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64);
        let text = resp.text().await.map_err(|e| {
            if e.is_timeout() {
                Attempt::Retry(
                    format!("no answer within {} s", self.config.timeout.as_secs_f32()),
                    None,
                )
            } else {
                Attempt::Retry(format!("the connection dropped while reading: {e}"), None)
            }
        })?;
        if status.is_success() {
            return serde_json::from_str(&text).map_err(|e| {
                Attempt::Retry(
                    format!("the endpoint sent a body that is not JSON ({e})"),
                    None,
                )
            });
        }
        let detail = error_detail(&text);
        let code = status.as_u16();
        Err(match code {
            401 | 403 => Attempt::Config(format!(
                "the model endpoint {} refused the API key ({code}: {detail}); set OPENAI_API_KEY to a valid key for it, or check --base-url",
                self.config.base_url
            )),
            404 => Attempt::Config(format!(
                "the model endpoint answered 404 for {url} ({detail}); the model `{}` is unknown there or the base URL is wrong: check --model and --base-url",
                self.config.model
            )),
            400 => Attempt::Adapt(format!("400: {detail}")),
            408 | 409 | 425 | 429 => Attempt::Retry(format!("{code}: {detail}"), retry_after),
            500..=599 => Attempt::Retry(format!("{code}: {detail}"), retry_after),
            _ => Attempt::Fatal(format!("{code}: {detail}")),
        })
    }
}

/// The error message in a provider's error body, or the start of the body.
fn error_detail(text: &str) -> String {
    let msg = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| {
            v.pointer("/error/message")
                .or_else(|| v.get("error"))
                .or_else(|| v.get("message"))
                .and_then(|m| m.as_str().map(str::to_string))
        })
        .unwrap_or_else(|| text.trim().to_string());
    let mut msg: String = msg.chars().take(300).collect();
    if msg.is_empty() {
        msg = "no details".into();
    }
    msg
}

/// Exponential backoff with jitter: a wait drawn from the upper half of
/// `base * 2^attempt`, so retries of many clients spread out.
fn backoff(base: Duration, attempt: u32) -> Duration {
    use rand::Rng;
    let full = base.saturating_mul(1u32 << attempt.min(10));
    let half = full / 2;
    let jitter = rand::rng().random_range(0..=half.as_millis().max(1) as u64);
    half + Duration::from_millis(jitter)
}

impl Policy for LlmPolicy {
    fn engine(&self) -> Engine {
        Engine::Llm
    }

    fn model(&self) -> Option<String> {
        Some(self.config.model.clone())
    }

    async fn next_turn(&mut self, request: TurnRequest<'_>) -> Result<Turn, PolicyError> {
        let mut body = wire::request_body(
            &self.config.model,
            request.messages,
            request.tools,
            request.max_completion_tokens,
            self.cap_field,
            request.final_turn,
        );
        self.shape(&mut body);
        self.calls += 1;
        if let Some(replayer) = self.replayer.as_mut() {
            let entry = replayer.next(self.calls, &body)?;
            return match entry {
                TranscriptEntry::Response { response, .. } => {
                    wire::parse_response(&response).map_err(PolicyError::Provider)
                }
                TranscriptEntry::Error { error, .. } => Err(PolicyError::Provider(error)),
            };
        }
        let result = self.send(&mut body).await;
        match result {
            Ok(response) => {
                if let Some(r) = self.recorder.as_mut() {
                    r.write(&TranscriptEntry::Response {
                        request: body.clone(),
                        response: response.clone(),
                    })?;
                }
                wire::parse_response(&response).map_err(|e| {
                    let detail = response
                        .get("error")
                        .map(|err| format!(" (it says: {})", error_detail(&err.to_string())))
                        .unwrap_or_default();
                    PolicyError::Provider(format!("the endpoint's answer is unusable: {e}{detail}"))
                })
            }
            Err(PolicyError::Provider(msg)) => {
                if let Some(r) = self.recorder.as_mut() {
                    r.write(&TranscriptEntry::Error {
                        request: body.clone(),
                        error: msg.clone(),
                    })?;
                }
                Err(PolicyError::Provider(msg))
            }
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_within_jitter() {
        let base = Duration::from_millis(100);
        for attempt in 0..4 {
            let full = 100u64 << attempt;
            let w = backoff(base, attempt).as_millis() as u64;
            assert!(w >= full / 2 && w <= full, "attempt {attempt}: {w}");
        }
    }

    #[test]
    fn error_detail_reads_openai_errors() {
        assert_eq!(
            error_detail(
                r#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#
            ),
            "Incorrect API key provided"
        );
        assert_eq!(error_detail("upstream timeout"), "upstream timeout");
        assert_eq!(error_detail(""), "no details");
    }
}
