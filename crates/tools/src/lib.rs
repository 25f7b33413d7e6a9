//! The tools explore's agent calls, and the one sandbox they share.
//!
//! Every tool takes the model's JSON arguments exactly as sent and returns the exact text
//! the model will see, or a [`ToolError`] whose text tells the model what to send instead.
//! A bad argument never aborts a run: it becomes a message the model can act on.
//!
//! All of them are read-only and confined to one repository: every path the model gives
//! goes through [`RepoRoot::resolve`], which resolves symlinks before it checks containment,
//! and through [`secrets`], which keeps credentials from ever reaching a model endpoint.

pub mod args;
pub mod bash;
pub mod code;
pub mod display;
pub mod error;
pub mod overview;
pub mod paths;
pub mod read;
pub mod registry;
pub mod root;
pub mod secrets;
pub mod spill;
pub mod tool;
pub mod tree;
pub mod walk;

pub use error::{ErrorKind, ToolError};
pub use registry::{Registry, RegistryOptions};
pub use root::{RepoRoot, ResolvedPath, RootError};
pub use spill::SpillStore;
pub use tool::{Finding, Tool, ToolDetail, ToolName, ToolOutput};
