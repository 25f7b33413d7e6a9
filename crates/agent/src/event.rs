//! What a run reports as it goes, for progress bars, JSONL streams and recorders.
//!
//! The loop emits [`Event`]s to an [`EventSink`]; the CLI renders them as an indicatif
//! spinner on a terminal, as JSON Lines with `--format jsonl`, or not at all.

use serde::Serialize;

use crate::result::{ExploreResult, Usage};

/// One thing that happened during a run.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The run started.
    Start {
        /// The question.
        query: String,
        /// `local` or `llm`.
        engine: String,
        /// Token budget.
        budget: u64,
    },
    /// A model (or local policy) turn is about to be taken.
    Turn {
        /// 1-based turn number.
        turn: u32,
    },
    /// A tool is being called.
    ToolCall {
        /// Turn number.
        turn: u32,
        /// Tool name.
        tool: String,
        /// Arguments as sent.
        args: serde_json::Value,
    },
    /// A tool returned.
    ToolResult {
        /// Turn number.
        turn: u32,
        /// Tool name.
        tool: String,
        /// False when the tool answered with an error.
        ok: bool,
        /// First line of the output, for display.
        summary: String,
        /// Tokens of the output as sent to the model.
        tokens: u64,
    },
    /// Tokens spent so far.
    Usage {
        /// Running totals.
        usage: Usage,
    },
    /// Something noteworthy the loop decided (a repeat refused, a doom loop, a retry).
    Notice {
        /// Short machine-readable kind.
        kind: String,
        /// Human-readable text.
        message: String,
    },
    /// The run ended with this result.
    Final {
        /// The result document.
        result: Box<ExploreResult>,
    },
}

/// Receives events as the run goes.
pub trait EventSink: Send + Sync {
    /// Handles one event. Must not block for long.
    fn emit(&self, event: &Event);
}

/// A sink that drops everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NullSink;

impl EventSink for NullSink {
    fn emit(&self, _event: &Event) {}
}
