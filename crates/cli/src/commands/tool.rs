//! `explore tool`: one tool call, exactly as the model makes it, for people and scripts.

use std::io::Read;

use anyhow::{Context, Result};
use explore_tools::{Registry, RegistryOptions, RepoRoot};

use crate::cli::{GlobalArgs, ToolArgs};

/// Runs `explore tool`.
pub fn run(global: &GlobalArgs, args: ToolArgs) -> Result<u8> {
    let dir = super::repo_dir(global.repo.as_deref())?;
    let root = RepoRoot::new(&dir)?;
    let registry = Registry::new(root, RegistryOptions::default());
    if args.list {
        return list(&registry, args.json);
    }
    let name = args.name.unwrap_or_default();
    let raw = match args.args.as_deref() {
        None => "{}".to_string(),
        Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read the arguments from stdin")?;
            s
        }
        Some(s) => s.to_string(),
    };
    // Malformed JSON is the model's mistake to correct, not a CLI error: same text, exit 1.
    let value: serde_json::Value = match serde_json::from_str(&raw) {
        Ok(v) => v,
        Err(e) => {
            println!(
                "Invalid arguments for `{name}`: not valid JSON ({e}). Send one JSON object, e.g. {{\"path\":\"src\"}}."
            );
            return Ok(1);
        }
    };
    match registry.call(&name, &value) {
        Ok(out) => {
            println!("{}", out.text);
            Ok(0)
        }
        Err(err) => {
            println!("{err}");
            Ok(1)
        }
    }
}

fn list(registry: &Registry, json: bool) -> Result<u8> {
    if json {
        let tools: Vec<_> = registry
            .tools()
            .iter()
            .map(|t| {
                serde_json::json!({
                    "name": t.name(),
                    "description": t.description(),
                    "parameters": t.parameters(),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&tools)?);
    } else {
        for t in registry.tools() {
            let first = t.description().lines().next().unwrap_or_default();
            println!("{:<6} {first}", t.name());
        }
    }
    Ok(0)
}
