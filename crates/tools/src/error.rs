//! The one error a tool returns: a message for the model, and sometimes a typed value.
//!
//! Tool failures are never fatal to a run. Whatever went wrong (bad arguments, a path
//! outside the repo, a blocked command, a missing file) the model reads the message and
//! tries something else, so every message says what to send instead.
//!
//! Some errors are answers in their own right: the `code` tool's "no symbol X" carries the
//! near names it found, its "X is a struct, not a function" the item it resolved. Those
//! carry the same [`ToolDetail`] a successful output would, so code that consumes results
//! (the local engine, `explore tool --json`, MCP clients) reads the value, never the text.

use serde::Serialize;

use crate::tool::{Finding, ToolDetail};

/// What kind of failure a [`ToolError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The arguments did not fit the tool's schema (unknown field, wrong type, out of
    /// range), or did not fit what they named (an operation for another kind of symbol).
    InvalidArguments,
    /// The call was understood and refused by policy: a path outside the repo, a secret
    /// file, a blocked command. Blocked `bash` commands start with `Command blocked:`.
    Refused,
    /// The thing asked for does not exist (file, directory, symbol, call path).
    NotFound,
    /// A name that fits several symbols: the call must say which.
    Ambiguous,
    /// The call was allowed but could not be carried out (I/O error, timeout, index failure).
    Failed,
}

impl ErrorKind {
    /// A short machine-readable name, for metrics and JSONL events.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidArguments => "invalid_arguments",
            ErrorKind::Refused => "refused",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::Failed => "failed",
        }
    }
}

/// A tool call that produced no result. The `Display` text is exactly what the model sees.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    kind: ErrorKind,
    message: String,
    findings: Vec<Finding>,
    detail: Option<Box<ToolDetail>>,
}

impl ToolError {
    /// An error of `kind` with the model-facing `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            findings: Vec::new(),
            detail: None,
        }
    }

    /// Bad arguments.
    pub fn invalid_arguments(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArguments, message)
    }

    /// Refused by policy.
    pub fn refused(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Refused, message)
    }

    /// Nothing by that name.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotFound, message)
    }

    /// Could not be carried out.
    pub fn failed(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Failed, message)
    }

    /// The same error carrying the typed answer behind its text.
    pub fn with_detail(mut self, detail: ToolDetail) -> Self {
        self.detail = Some(Box::new(detail));
        self
    }

    /// The same error with the places its text shows (the candidates of an ambiguous
    /// name, the near names of a missing one).
    pub fn with_findings(mut self, findings: Vec<Finding>) -> Self {
        self.findings = findings;
        self
    }

    /// The places the text shows.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// A short machine-readable name for the error class, for metrics and JSONL events.
    pub fn class(&self) -> &'static str {
        self.kind.as_str()
    }

    /// The model-facing text.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The typed answer behind the text, when the tool has one.
    pub fn detail(&self) -> Option<&ToolDetail> {
        self.detail.as_deref()
    }
}
