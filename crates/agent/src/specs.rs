//! The tools as the policy sees them: the registry's tools plus `submit`.
//!
//! `submit` is not a registry tool because it does nothing to the repository: it is how
//! the policy hands in its answer, and the loop (not a tool) checks that answer against
//! the evidence of the run. Its schema is the result document's fields, written by hand so
//! the model sees the eight roles as an enum and no field it must not send (`_metadata`).
//! `explore tool --list` prints the same list.

use serde::Deserialize;

use crate::policy::ToolSpec;
use crate::result::{Dependency, ExternalRef, Pattern, Role};

/// The name of the tool that ends a run.
pub const SUBMIT: &str = "submit";

/// The description of `submit` sent to the model.
pub const SUBMIT_DESCRIPTION: &str = include_str!("../../../prompts/tools/submit.md");

/// Every tool the policy may call, in the order offered: the registry's, then `submit`.
pub fn tool_specs(registry: &explore_tools::Registry) -> Vec<ToolSpec> {
    let mut specs: Vec<ToolSpec> = registry
        .tools()
        .iter()
        .map(|t| ToolSpec {
            name: t.name().to_string(),
            description: t.description().trim().to_string(),
            parameters: t.parameters(),
        })
        .collect();
    specs.push(submit_spec());
    specs
}

/// The `submit` tool alone, as offered on the final turn.
pub fn submit_spec() -> ToolSpec {
    ToolSpec {
        name: SUBMIT.to_string(),
        description: SUBMIT_DESCRIPTION.trim().to_string(),
        parameters: submit_schema(),
    }
}

/// The JSON schema of `submit`'s arguments.
pub fn submit_schema() -> serde_json::Value {
    let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
    serde_json::json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["answer", "relevant_files"],
        "properties": {
            "answer": {
                "type": "string",
                "description": "The answer in a few sentences, citing path:line locations."
            },
            "relevant_files": {
                "type": "array",
                "description": "The files that answer the question, best first. Only files a tool showed you.",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["path", "rationale", "role"],
                    "properties": {
                        "path": {"type": "string", "description": "Repo-relative path, exactly as a tool printed it."},
                        "rationale": {"type": "string", "description": "What is in this file that answers the question."},
                        "role": {"type": "string", "enum": roles},
                        "discovery_source": {"type": "string", "description": "The tool that found it (code, read, bash, tree)."},
                        "key_symbols": {"type": "array", "items": {"type": "string"}},
                        "locations": {
                            "type": "array",
                            "description": "Exact lines a tool showed you.",
                            "items": {
                                "type": "object",
                                "additionalProperties": false,
                                "required": ["line"],
                                "properties": {
                                    "line": {"type": "integer", "minimum": 1},
                                    "end_line": {"type": "integer", "minimum": 1},
                                    "symbol": {"type": "string"},
                                    "kind": {"type": "string"}
                                }
                            }
                        }
                    }
                }
            },
            "patterns": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "description"],
                    "properties": {
                        "name": {"type": "string"},
                        "description": {"type": "string"},
                        "files": {"type": "array", "items": {"type": "string"}}
                    }
                }
            },
            "dependencies": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["from", "to", "type"],
                    "properties": {
                        "from": {"type": "string"},
                        "to": {"type": "string"},
                        "type": {"type": "string", "description": "import, calls, implements, …"}
                    }
                }
            },
            "external_refs": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string"},
                        "version": {"type": "string"},
                        "usage": {"type": "string"}
                    }
                }
            }
        }
    })
}

/// `submit`'s arguments as the policy sent them, before the evidence check. Roles stay
/// strings here so that an unknown role is a complaint the model can fix, not a parse
/// failure of the whole submission.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitArgs {
    /// The prose answer.
    pub answer: String,
    /// The files, best first.
    #[serde(default)]
    pub relevant_files: Vec<SubmittedFile>,
    /// Patterns seen.
    #[serde(default)]
    pub patterns: Vec<Pattern>,
    /// Relations between files.
    #[serde(default)]
    pub dependencies: Vec<Dependency>,
    /// Third-party libraries.
    #[serde(default)]
    pub external_refs: Vec<ExternalRef>,
}

/// One submitted file, unchecked.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmittedFile {
    /// The path as the model wrote it.
    pub path: String,
    /// Why it matters.
    #[serde(default)]
    pub rationale: String,
    /// The role as the model wrote it.
    #[serde(default)]
    pub role: String,
    /// The tool the model says found it (the loop records the real one).
    #[serde(default)]
    pub discovery_source: Option<String>,
    /// Symbols that matter.
    #[serde(default)]
    pub key_symbols: Vec<String>,
    /// Cited lines.
    #[serde(default)]
    pub locations: Vec<SubmittedLocation>,
}

/// One cited place, unchecked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmittedLocation {
    /// First line, 1-based.
    pub line: u32,
    /// Last line, inclusive.
    #[serde(default)]
    pub end_line: Option<u32>,
    /// The symbol there.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Its kind.
    #[serde(default)]
    pub kind: Option<String>,
}

/// Parses `submit`'s arguments, with an error the model can act on.
pub fn parse_submit(args: &serde_json::Value) -> Result<SubmitArgs, String> {
    if !args.is_object() {
        return Err(format!(
            "Invalid arguments for `submit`: the arguments must be a JSON object with `answer` and `relevant_files`. Example: {SUBMIT_EXAMPLE}"
        ));
    }
    // Some models send the arrays JSON-encoded inside a string; accept what we can read.
    let mut args = args.clone();
    if let Some(obj) = args.as_object_mut() {
        for key in [
            "relevant_files",
            "patterns",
            "dependencies",
            "external_refs",
        ] {
            if let Some(serde_json::Value::String(text)) = obj.get(key)
                && let Ok(v @ serde_json::Value::Array(_)) = serde_json::from_str(text)
            {
                obj.insert(key.to_string(), v);
            }
        }
    }
    serde_json::from_value(args).map_err(|e| {
        format!("Invalid arguments for `submit`: {e}. Send `answer` (string) and `relevant_files` (array of {{path, rationale, role, key_symbols?, locations?[{{line, end_line?, symbol?, kind?}}]}}), plus optional `patterns`, `dependencies`, `external_refs`. Example: {SUBMIT_EXAMPLE}")
    })
}

/// A valid `submit` call, shown to the model when it sends a bad one.
pub const SUBMIT_EXAMPLE: &str = r#"{"answer":"IssueStore is declared in internal/model/issue.go:62","relevant_files":[{"path":"internal/model/issue.go","rationale":"declares the IssueStore interface","role":"type_definition","key_symbols":["IssueStore"],"locations":[{"line":62,"end_line":66,"symbol":"IssueStore","kind":"interface"}]}]}"#;
