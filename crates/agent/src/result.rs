//! The result document: the contract's section 3, the shape of spec 004 plus our additions.
//!
//! Field names here are a public interface (scripts read them with `jq`); renaming one is a
//! breaking change. `relevant_files` is ordered best first and every path in it is
//! repo-relative and was returned by a tool during the run.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The version of the result document's shape.
pub const RESULT_VERSION: u32 = 1;

/// The answer to one exploration question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ExploreResult {
    /// Always [`RESULT_VERSION`].
    pub version: u32,
    /// The question as asked.
    pub query: String,
    /// The focus angle (spec 004), `general` by default.
    pub angle: String,
    /// A prose answer citing `path:line` locations.
    pub answer: String,
    /// The files that answer the question, best first.
    pub relevant_files: Vec<RelevantFile>,
    /// Conventions and design patterns seen.
    #[serde(default)]
    pub patterns: Vec<Pattern>,
    /// Relations between files (imports, calls).
    #[serde(default)]
    pub dependencies: Vec<Dependency>,
    /// Third-party libraries involved.
    #[serde(default)]
    pub external_refs: Vec<ExternalRef>,
    /// How the answer was produced.
    #[serde(rename = "_metadata")]
    pub metadata: Metadata,
}

/// One file of the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RelevantFile {
    /// Repo-relative path.
    pub path: String,
    /// Why this file matters, saying what was found there.
    pub rationale: String,
    /// The file's role for the question.
    pub role: Role,
    /// The tool that found it (`code`, `bash`, `read`, `tree`, `cache`).
    pub discovery_source: String,
    /// The symbols in it that matter.
    #[serde(default)]
    pub key_symbols: Vec<String>,
    /// Exact places in it; may be empty, always present.
    #[serde(default)]
    pub locations: Vec<Location>,
}

/// A line range in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Location {
    /// First line, 1-based.
    pub line: u32,
    /// Last line, inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// The symbol at this place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// The symbol's kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// Spec 004's eight file roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// File likely needs modification for the task.
    ModifyTarget,
    /// A dependency of a modify target.
    Dependency,
    /// Demonstrates a pattern to follow.
    PatternReference,
    /// Test file for a modify target.
    TestTarget,
    /// Type or interface definitions relevant to the task.
    TypeDefinition,
    /// At a module boundary or API surface.
    IntegrationPoint,
    /// Configuration relevant to the task.
    Config,
    /// Context only; won't be modified.
    ContextOnly,
}

impl Role {
    /// All roles, in spec 004's order.
    pub const ALL: [Role; 8] = [
        Role::ModifyTarget,
        Role::Dependency,
        Role::PatternReference,
        Role::TestTarget,
        Role::TypeDefinition,
        Role::IntegrationPoint,
        Role::Config,
        Role::ContextOnly,
    ];

    /// The role's name as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::ModifyTarget => "modify_target",
            Role::Dependency => "dependency",
            Role::PatternReference => "pattern_reference",
            Role::TestTarget => "test_target",
            Role::TypeDefinition => "type_definition",
            Role::IntegrationPoint => "integration_point",
            Role::Config => "config",
            Role::ContextOnly => "context_only",
        }
    }

    /// Parses a role name; `None` for anything not in spec 004's list.
    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// A pattern seen in the code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Pattern {
    /// Short name.
    pub name: String,
    /// What it is and how it is used.
    pub description: String,
    /// Files that show it.
    #[serde(default)]
    pub files: Vec<String>,
}

/// A relation from one file to another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Dependency {
    /// The depending file.
    pub from: String,
    /// The file depended on.
    pub to: String,
    /// `import`, `calls`, `implements`, …
    #[serde(rename = "type")]
    pub kind: String,
}

/// A third-party library involved in the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ExternalRef {
    /// Package name.
    pub name: String,
    /// Version constraint, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What it is used for.
    #[serde(default)]
    pub usage: String,
}

/// Why the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The question was answered.
    Answered,
    /// The run finished and found nothing relevant.
    NotFound,
    /// The token budget ran out.
    Budget,
    /// The run repeated itself without learning anything.
    DoomLoop,
    /// The turn limit was reached.
    MaxTurns,
    /// The model endpoint failed past its retries.
    ProviderError,
}

impl StopReason {
    /// True exactly for the reasons that cut a run short (the contract's `partial`).
    pub fn is_partial(self) -> bool {
        matches!(
            self,
            StopReason::Budget
                | StopReason::DoomLoop
                | StopReason::MaxTurns
                | StopReason::ProviderError
        )
    }

    /// The name as it appears in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Answered => "answered",
            StopReason::NotFound => "not_found",
            StopReason::Budget => "budget",
            StopReason::DoomLoop => "doom_loop",
            StopReason::MaxTurns => "max_turns",
            StopReason::ProviderError => "provider_error",
        }
    }

    /// The exit status of the main command for this reason (contract section 1).
    pub fn exit_code(self) -> i32 {
        match self {
            StopReason::Answered => 0,
            StopReason::NotFound => 1,
            _ => 3,
        }
    }
}

/// Tokens spent, as the contract defines them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Usage {
    /// Sum of prompt tokens over every model call.
    pub prompt_tokens: u64,
    /// Sum of completion tokens over every model call.
    pub completion_tokens: u64,
    /// `prompt_tokens + completion_tokens`; never above `budget`.
    pub total_tokens: u64,
    /// The run's budget.
    pub budget: u64,
}

/// How the result was produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Metadata {
    /// Always `explore`.
    pub created_by: String,
    /// RFC 3339 UTC time the result was made.
    pub timestamp: String,
    /// The cache key (the angle).
    pub cache_key: String,
    /// `local` or `llm`.
    pub engine: String,
    /// The model name, for `llm`.
    pub model: Option<String>,
    /// The tools whose output the answer rests on.
    pub search_sources: Vec<String>,
    /// Files the run looked at (indexed or listed).
    pub total_files_scanned: u64,
    /// `relevant_files.len()`.
    pub relevant_file_count: usize,
    /// True exactly when `stop_reason` is budget, doom_loop, max_turns or provider_error.
    pub partial: bool,
    /// Why the run ended.
    pub stop_reason: StopReason,
    /// Tokens spent.
    pub usage: Usage,
    /// Model turns taken.
    pub turns: u32,
    /// Calls per tool.
    pub tool_calls: BTreeMap<String, u32>,
    /// Wall time of the run.
    pub duration_ms: u64,
    /// Further fields: per-operation metrics, doom-loop events, cache status, …
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// The current time as the contract's timestamp (`2026-11-21T10:00:00Z`).
pub fn now_timestamp() -> String {
    let now = time::OffsetDateTime::now_utc().replace_nanosecond(0);
    now.map(|t| {
        t.format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default()
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_reasons_partial_and_exit_codes() {
        assert!(!StopReason::Answered.is_partial());
        assert!(!StopReason::NotFound.is_partial());
        for r in [
            StopReason::Budget,
            StopReason::DoomLoop,
            StopReason::MaxTurns,
            StopReason::ProviderError,
        ] {
            assert!(r.is_partial());
            assert_eq!(r.exit_code(), 3);
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
        }
        assert_eq!(StopReason::NotFound.exit_code(), 1);
    }

    #[test]
    fn roles_round_trip() {
        for r in Role::ALL {
            assert_eq!(Role::parse(r.as_str()), Some(r));
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
        }
        assert_eq!(Role::parse("owner"), None);
    }

    #[test]
    fn timestamp_is_rfc3339_utc_seconds() {
        let t = now_timestamp();
        assert_eq!(t.len(), 20, "{t}");
        assert!(t.ends_with('Z'));
    }
}
