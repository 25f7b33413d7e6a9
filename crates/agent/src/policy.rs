//! What drives the loop: a model behind an endpoint, or the local engine.
//!
//! The loop owns everything that must not depend on who drives it: executing tool calls,
//! the token budget, doom-loop detection, evidence checks on `submit`. A [`Policy`] only
//! decides the next assistant turn from the conversation so far, exactly as a model would,
//! which is why the local engine's runs have the same transcript, metadata and result
//! shape as a model's.

use explore_tools::{Finding, ToolDetail};
use serde::{Deserialize, Serialize};

/// One message of the conversation, independent of any provider's wire format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// The system prompt.
    System {
        /// Text.
        content: String,
    },
    /// The user's question, and notes the loop adds for the model (budget, warnings).
    User {
        /// Text.
        content: String,
    },
    /// A turn of the policy.
    Assistant {
        /// Prose, if any.
        content: Option<String>,
        /// Tool calls requested in this turn.
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call.
    Tool {
        /// The id of the call this answers.
        call_id: String,
        /// The text sent to the model (possibly cut or elided later).
        content: String,
        /// Structured evidence of the output; never sent to a model, read by the local
        /// engine and the evidence check.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        findings: Vec<Finding>,
        /// True when the tool answered with an error.
        #[serde(default)]
        is_error: bool,
        /// The tool's typed answer (the `code` tool's [`CodeAnswer`]); never sent to a
        /// model, read by the local engine instead of the text.
        ///
        /// [`CodeAnswer`]: explore_tools::code::CodeAnswer
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<ToolDetail>,
    },
}

/// A tool call requested by the policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// Call id, unique within the run.
    pub id: String,
    /// Tool name (`tree`, `read`, `bash`, `code`, `submit`).
    pub name: String,
    /// The arguments as the raw JSON text the model produced (it may be malformed).
    pub arguments: String,
}

/// A tool as offered to the policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Name.
    pub name: String,
    /// Description for the model.
    pub description: String,
    /// JSON schema of the arguments.
    pub parameters: serde_json::Value,
}

/// What the policy is asked for.
#[derive(Debug, Clone, Copy)]
pub struct TurnRequest<'a> {
    /// The conversation so far, system prompt first.
    pub messages: &'a [Message],
    /// The tools it may call this turn (only `submit` on the final turn).
    pub tools: &'a [ToolSpec],
    /// Most tokens this turn may spend, prompt and completion together.
    pub max_tokens: u64,
    /// Most completion tokens this turn may generate (what the loop's budget leaves after
    /// its calibrated estimate of the prompt); a model policy sends it as `max_tokens`.
    pub max_completion_tokens: u64,
    /// True when this is the last turn: the policy must call `submit`.
    pub final_turn: bool,
}

/// Tokens a turn spent, as the endpoint reported them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnUsage {
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
}

/// The policy's answer: prose and/or tool calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Prose, if any.
    pub content: Option<String>,
    /// Tool calls, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Tokens spent, when the endpoint reported them; the loop counts with tiktoken
    /// otherwise. The local engine reports zero.
    pub usage: Option<TurnUsage>,
}

/// Why a policy could not produce a turn.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// The endpoint failed after all retries (5xx, 429, timeouts, dropped connections).
    #[error("model endpoint failed: {0}")]
    Provider(String),
    /// A setting is wrong and retrying cannot help (401, 404 unknown model): names the
    /// setting to fix.
    #[error("{0}")]
    Config(String),
}

/// Who answers: a model, or the local engine. One enum for the loop, the CLI's settings,
/// eval suites and `_metadata.engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The deterministic local engine: no model, no network.
    Local,
    /// A model behind an OpenAI-compatible endpoint (or its recorded transcripts).
    Llm,
}

impl Engine {
    /// Every engine.
    pub const ALL: [Engine; 2] = [Engine::Local, Engine::Llm];

    /// `local` or `llm`, as written on the command line, in suites and in `_metadata`.
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Local => "local",
            Engine::Llm => "llm",
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Engine {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Engine::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| format!("unknown engine `{s}`: expected `local` or `llm`"))
    }
}

/// Decides the next assistant turn.
pub trait Policy: Send {
    /// Which engine this is.
    fn engine(&self) -> Engine;
    /// The model's name, for `llm`.
    fn model(&self) -> Option<String>;
    /// True when turns cost tokens, so the loop must estimate and cap them before asking.
    /// The local engine spends none: its turns are never refused for budget.
    fn metered(&self) -> bool {
        self.engine() != Engine::Local
    }
    /// The next turn, given the conversation so far.
    fn next_turn(
        &mut self,
        request: TurnRequest<'_>,
    ) -> impl std::future::Future<Output = Result<Turn, PolicyError>> + Send;
}
