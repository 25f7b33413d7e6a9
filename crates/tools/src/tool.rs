//! What a tool is: a name, a description written for the model, a JSON schema for its
//! arguments, and a function from the model's JSON to the text the model will see.
//!
//! Besides the text, a tool reports [`Finding`]s: the files, lines and symbols its output
//! showed. The agent uses them as evidence (a submitted answer may only cite what a tool
//! returned) and as the measure of information gain behind doom-loop detection, so they
//! must list exactly what the text shows, no more.

use serde::{Deserialize, Serialize};

use crate::ToolError;

/// One tool the model can call.
pub trait Tool: Send + Sync {
    /// The name the model calls it by (`tree`, `read`, `bash`, `code`).
    fn name(&self) -> &'static str;
    /// The description sent to the model, from `prompts/tools/<name>.md`.
    fn description(&self) -> &'static str;
    /// The JSON schema of the arguments object.
    fn parameters(&self) -> serde_json::Value;
    /// Runs the tool on the model's arguments, exactly as the model sent them.
    fn call(&self, args: &serde_json::Value) -> Result<ToolOutput, ToolError>;
}

/// A successful tool result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolOutput {
    /// The exact text the model sees.
    pub text: String,
    /// The evidence the text shows: files, line ranges and symbols.
    pub findings: Vec<Finding>,
}

impl ToolOutput {
    /// An output with text and no findings.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            findings: Vec::new(),
        }
    }
}

/// A file (and optionally a line range and symbol) that a tool output showed the model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Finding {
    /// Repo-relative path with `/` separators.
    pub path: String,
    /// First line shown or pointed at, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Last line of the range, inclusive, when the output showed a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// The symbol defined or referenced there, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// The symbol's kind (`function`, `method`, `struct`, …), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

impl Finding {
    /// A finding for a whole file.
    pub fn file(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            ..Self::default()
        }
    }

    /// A finding for a line range of a file.
    pub fn range(path: impl Into<String>, line: u32, end_line: u32) -> Self {
        Self {
            path: path.into(),
            line: Some(line),
            end_line: Some(end_line),
            ..Self::default()
        }
    }
}
