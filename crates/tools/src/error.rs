//! The one error a tool returns: a message for the model.
//!
//! Tool failures are never fatal to a run. Whatever went wrong (bad arguments, a path
//! outside the repo, a blocked command, a missing file) the model reads the message and
//! tries something else, so every message says what to send instead.

/// A tool call that produced no result. The `Display` text is exactly what the model sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// The arguments did not fit the tool's schema (unknown field, wrong type, out of range).
    #[error("{0}")]
    InvalidArguments(String),
    /// The call was understood and refused by policy: a path outside the repo, a secret
    /// file, a blocked command. Blocked `bash` commands start with `Command blocked:`.
    #[error("{0}")]
    Refused(String),
    /// The thing asked for does not exist (file, directory, symbol).
    #[error("{0}")]
    NotFound(String),
    /// The call was allowed but could not be carried out (I/O error, timeout, index failure).
    #[error("{0}")]
    Failed(String),
}

impl ToolError {
    /// A short machine-readable name for the error class, for metrics and JSONL events.
    pub fn class(&self) -> &'static str {
        match self {
            ToolError::InvalidArguments(_) => "invalid_arguments",
            ToolError::Refused(_) => "refused",
            ToolError::NotFound(_) => "not_found",
            ToolError::Failed(_) => "failed",
        }
    }

    /// The model-facing text.
    pub fn message(&self) -> &str {
        match self {
            ToolError::InvalidArguments(m)
            | ToolError::Refused(m)
            | ToolError::NotFound(m)
            | ToolError::Failed(m) => m,
        }
    }
}
