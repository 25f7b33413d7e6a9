//! The one list of tools, shared by the agent loop and `explore tool`.
//!
//! Both callers go through [`Registry::call`], so a tool behaves the same whether the model
//! or a person calls it, and an unknown tool name gets the same self-correcting message.

use std::sync::Arc;

use crate::bash::{BashOptions, BashTool};
use crate::code::{CodeTool, IndexOptions};
use crate::read::ReadTool;
use crate::tree::TreeTool;
use crate::{RepoRoot, SpillStore, Tool, ToolError, ToolOutput};

/// Settings for the tools that have any.
#[derive(Debug, Clone, Default)]
pub struct RegistryOptions {
    /// The code index.
    pub index: IndexOptions,
    /// The bash sandbox.
    pub bash: BashOptions,
}

/// All tools, bound to one repository.
#[derive(Clone)]
pub struct Registry {
    root: RepoRoot,
    spill: SpillStore,
    tools: Vec<Arc<dyn Tool>>,
    code: Arc<CodeTool>,
    bash: Arc<BashTool>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("root", &self.root)
            .field("tools", &self.names())
            .finish()
    }
}

impl Registry {
    /// Builds every tool for the repository at `root`.
    pub fn new(root: RepoRoot, options: RegistryOptions) -> Self {
        let spill = SpillStore::default();
        let code = Arc::new(CodeTool::new(root.clone(), options.index));
        let bash = Arc::new(BashTool::new(root.clone(), options.bash));
        let tools: Vec<Arc<dyn Tool>> = vec![
            Arc::new(TreeTool::new(root.clone())),
            Arc::new(ReadTool::new(root.clone(), spill.clone())),
            bash.clone(),
            code.clone(),
        ];
        Self {
            root,
            spill,
            tools,
            code,
            bash,
        }
    }

    /// The repository root.
    pub fn root(&self) -> &RepoRoot {
        &self.root
    }

    /// The store of cut outputs that `read` pages through.
    pub fn spill(&self) -> &SpillStore {
        &self.spill
    }

    /// The code tool, for callers that query its index directly (the local engine).
    pub fn code(&self) -> &Arc<CodeTool> {
        &self.code
    }

    /// The bash tool, for callers that report its active sandbox layers
    /// ([`BashTool::layers`], [`BashTool::missing_layers`]).
    pub fn bash(&self) -> &Arc<BashTool> {
        &self.bash
    }

    /// All tools in the order they are offered to the model.
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The tool names.
    pub fn names(&self) -> Vec<&'static str> {
        self.tools.iter().map(|t| t.name().as_str()).collect()
    }

    /// The tool called `name` on the wire.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        let name = crate::ToolName::parse(name)?;
        self.tools.iter().find(|t| t.name() == name)
    }

    /// Calls tool `name` with the model's arguments. An unknown name is a model-facing error
    /// that lists the tools.
    pub fn call(&self, name: &str, args: &serde_json::Value) -> Result<ToolOutput, ToolError> {
        match self.get(name) {
            Some(tool) => tool.call(args),
            None => Err(ToolError::invalid_arguments(format!(
                "Unknown tool `{}`. The tools are: {}.",
                crate::display::escape_for_display(name),
                self.names().join(", ")
            ))),
        }
    }
}
