//! `code`: the tree-sitter code graph of a Go and Python repository.
//!
//! Placeholder until the graph lands (issue 3).

use std::path::PathBuf;

use crate::{RepoRoot, Tool, ToolError, ToolOutput};

/// Where and how the code index is kept.
#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    /// Cache directory for the persisted index (default: the XDG cache dir).
    pub cache_dir: Option<PathBuf>,
}

/// The `code` tool.
#[derive(Debug, Clone)]
pub struct CodeTool {
    #[allow(dead_code)]
    root: RepoRoot,
}

impl CodeTool {
    /// A `code` tool over the repository at `root`.
    pub fn new(root: RepoRoot, _options: IndexOptions) -> Self {
        Self { root }
    }
}

impl Tool for CodeTool {
    fn name(&self) -> &'static str {
        "code"
    }
    fn description(&self) -> &'static str {
        include_str!("../../../../prompts/tools/code.md")
    }
    fn parameters(&self) -> serde_json::Value {
        serde_json::json!({"type":"object"})
    }
    fn call(&self, _args: &serde_json::Value) -> Result<ToolOutput, ToolError> {
        Err(ToolError::Failed(
            "The code graph is not available in this build; use read and tree.".into(),
        ))
    }
}
