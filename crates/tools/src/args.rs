//! Turning the model's JSON arguments into typed ones, with errors the model can act on.
//!
//! serde's own messages ("invalid type: string \"2\", expected u32 at line 1 column 9") are
//! written for programmers. The model needs to know which field was wrong, what the tool
//! accepts, and an example of a good call, in one paragraph.

use serde::de::DeserializeOwned;

use crate::ToolError;

/// Parses `args` into `T`. `fields` lists the accepted fields (`"file"`, `"start_line?"`),
/// `example` is a valid arguments object shown to the model when parsing fails.
pub fn parse<T: DeserializeOwned>(
    tool: &str,
    args: &serde_json::Value,
    fields: &[&str],
    example: &str,
) -> Result<T, ToolError> {
    let args = match args {
        // Some models send `null` or nothing for tools whose fields are all optional.
        serde_json::Value::Null => serde_json::Value::Object(serde_json::Map::new()),
        other => other.clone(),
    };
    if !args.is_object() {
        return Err(invalid(
            tool,
            &format!(
                "the arguments must be a JSON object, not {}",
                kind_of(&args)
            ),
            fields,
            example,
        ));
    }
    serde_json::from_value(args).map_err(|e| invalid(tool, &clean(&e.to_string()), fields, example))
}

/// Builds the standard invalid-arguments error for `tool`.
pub fn invalid(tool: &str, problem: &str, fields: &[&str], example: &str) -> ToolError {
    ToolError::invalid_arguments(format!(
        "Invalid arguments for `{tool}`: {problem}. It accepts {} (? = optional). Example: {example}",
        fields
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn kind_of(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Drops serde_json's "at line 1 column 23" suffix, meaningless for a value the model sent.
fn clean(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct A {
        file: String,
        start_line: Option<u32>,
    }

    #[test]
    fn unknown_field_names_field_and_example() {
        let err = parse::<A>(
            "read",
            &serde_json::json!({"path": "x"}),
            &["file", "start_line?"],
            r#"{"file":"a.go"}"#,
        )
        .unwrap_err();
        let m = err.to_string();
        assert!(m.contains("unknown field `path`"), "{m}");
        assert!(m.contains(r#"Example: {"file":"a.go"}"#), "{m}");
        assert!(!m.contains("column"), "{m}");
    }

    #[test]
    fn wrong_type_is_reported() {
        let err = parse::<A>(
            "read",
            &serde_json::json!({"file": "x", "start_line": "3"}),
            &["file"],
            "{}",
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("invalid type: string \"3\""),
            "{err}"
        );
    }

    #[test]
    fn non_object_is_reported() {
        let err = parse::<A>("read", &serde_json::json!([1]), &["file"], "{}").unwrap_err();
        assert!(
            err.to_string()
                .contains("must be a JSON object, not an array")
        );
    }
}
