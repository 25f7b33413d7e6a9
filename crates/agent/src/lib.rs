//! explore's agent: the loop that turns a question into a validated [`ExploreResult`].
//!
//! The loop is the same whoever drives it, a model behind an OpenAI-compatible endpoint or
//! the local engine: the same tools from [`explore_tools::Registry`], the same token
//! budget, the same doom-loop detection, the same evidence check on the final `submit`, and
//! the same [`Event`]s for whoever watches the run.

pub mod budget;
pub mod doom;
pub mod event;
pub mod evidence;
pub mod lists;
pub mod llm;
pub mod local;
pub mod policy;
pub mod result;
pub mod run;
pub mod specs;

pub use event::{Event, EventSink};
pub use llm::{LlmConfig, LlmPolicy};
pub use policy::{
    Engine, Message, Policy, PolicyError, ToolCall, ToolSpec, Turn, TurnRequest, TurnUsage,
};
pub use result::{
    Dependency, ExploreResult, ExternalRef, Location, Metadata, Pattern, RelevantFile, Role,
    StopReason, Usage,
};
pub use run::{DEFAULT_BUDGET, RunConfig, RunError, explore};
pub use specs::tool_specs;
