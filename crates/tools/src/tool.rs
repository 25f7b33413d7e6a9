//! What a tool is: a name, a description written for the model, a JSON schema for its
//! arguments, and a function from the model's JSON to the text the model will see.
//!
//! Besides the text, a tool reports [`Finding`]s: the files, lines and symbols its output
//! showed. The agent uses them as evidence (a submitted answer may only cite what a tool
//! returned) and as the measure of information gain behind doom-loop detection, so they
//! must list exactly what the text shows, no more.
//!
//! A tool with a structured answer also returns it as a [`ToolDetail`]: never sent to a
//! model, read by code (the local engine, `explore tool --json`, MCP's structured content),
//! so no consumer ever parses the model-facing text.

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::code::CodeAnswer;

/// The tools, by the name the model calls them by. A name from a model (or an MCP client,
/// or the command line) is text until [`ToolName::parse`] says which tool it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ToolName {
    /// Directory tree.
    Tree,
    /// Lines of a file.
    Read,
    /// Read-only shell commands.
    Bash,
    /// The code graph.
    Code,
}

impl ToolName {
    /// Every tool, in the order they are offered to the model.
    pub const ALL: [ToolName; 4] = [
        ToolName::Tree,
        ToolName::Read,
        ToolName::Bash,
        ToolName::Code,
    ];

    /// The name on the wire (`tree`, `read`, `bash`, `code`).
    pub fn as_str(self) -> &'static str {
        match self {
            ToolName::Tree => "tree",
            ToolName::Read => "read",
            ToolName::Bash => "bash",
            ToolName::Code => "code",
        }
    }

    /// The tool a wire name names, if any.
    pub fn parse(name: &str) -> Option<ToolName> {
        ToolName::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl std::fmt::Display for ToolName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One tool the model can call.
pub trait Tool: Send + Sync {
    /// Which tool it is; its wire name is `name().as_str()`.
    fn name(&self) -> ToolName;
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
    /// The typed answer behind the text, for tools that have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<ToolDetail>,
}

impl ToolOutput {
    /// An output with text and no findings.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            findings: Vec::new(),
            detail: None,
        }
    }
}

/// A tool's typed answer, by tool. Serialized as the answer itself (the tool is known
/// from the call).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ToolDetail {
    /// The `code` tool's answer (boxed: it is large next to the text it travels with).
    Code(Box<CodeAnswer>),
}

impl ToolDetail {
    /// Every place the answer holds, including those its text leaves out.
    pub fn places(&self) -> Vec<Finding> {
        match self {
            ToolDetail::Code(c) => c.places(),
        }
    }

    /// The `code` answer, when this is one.
    pub fn code(&self) -> Option<&CodeAnswer> {
        match self {
            ToolDetail::Code(c) => Some(c),
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

#[cfg(test)]
mod tests {
    use super::ToolName;

    #[test]
    fn wire_names_round_trip_and_nothing_else_parses() {
        for t in ToolName::ALL {
            assert_eq!(ToolName::parse(t.as_str()), Some(t));
            assert_eq!(t.to_string(), t.as_str());
        }
        for other in ["submit", "Code", "", "read "] {
            assert_eq!(ToolName::parse(other), None, "{other:?}");
        }
    }
}
