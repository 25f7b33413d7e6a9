//! `bash`: read-only shell commands, parsed and vetted here, never run by a shell.
//!
//! Placeholder until the sandbox lands (issue 4): every command is refused.

use crate::{RepoRoot, Tool, ToolError, ToolOutput};

/// Settings of the `bash` tool.
#[derive(Debug, Clone, Default)]
pub struct BashOptions {}

/// The `bash` tool.
#[derive(Debug, Clone)]
pub struct BashTool {
    #[allow(dead_code)]
    root: RepoRoot,
}

impl BashTool {
    /// A `bash` tool confined to `root`.
    pub fn new(root: RepoRoot, _options: BashOptions) -> Self {
        Self { root }
    }
}

impl Tool for BashTool {
    fn name(&self) -> &'static str {
        "bash"
    }
    fn description(&self) -> &'static str {
        include_str!("../../../../prompts/tools/bash.md")
    }
    fn parameters(&self) -> serde_json::Value {
        serde_json::json!({"type":"object","properties":{"command":{"type":"string"}},"required":["command"],"additionalProperties":false})
    }
    fn call(&self, _args: &serde_json::Value) -> Result<ToolOutput, ToolError> {
        Err(ToolError::Refused(
            "Command blocked: the bash tool is not available in this build; use read and code."
                .into(),
        ))
    }
}
