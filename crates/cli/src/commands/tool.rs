//! `explore tool`: one tool call, exactly as the model makes it, for people and scripts.

use crate::output::outln;
use std::io::Read;

use anyhow::{Context, Result};
use explore_tools::{Registry, RegistryOptions, RepoRoot, ToolDetail};

use crate::cli::{GlobalArgs, ToolArgs};

/// Runs `explore tool`.
pub fn run(global: &GlobalArgs, args: ToolArgs) -> Result<u8> {
    let dir = super::repo_dir(global.repo.as_deref())?;
    let root = RepoRoot::new(&dir)?;
    let mut options = RegistryOptions::default();
    if !args.list {
        super::guard(&dir, global)?;
        options.index.shared = crate::store::open_shared(&args.store, &dir)?;
    }
    let registry = Registry::new(root, options);
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
            let text = format!(
                "Invalid arguments for `{name}`: not valid JSON ({e}). Send one JSON object, e.g. {{\"path\":\"src\"}}."
            );
            return print(args.json, false, &text, None);
        }
    };
    if name == "submit" {
        let (ok, text) = check_submit(&value);
        return print(args.json, ok, &text, None);
    }
    let status = match registry.call(&name, &value) {
        Ok(out) => print(args.json, true, &out.text, out.detail.as_ref())?,
        Err(err) => print(args.json, false, err.message(), err.detail())?,
    };
    crate::background::finish_index(registry.code(), &dir);
    // The process exits next: freeing a loaded code graph (tens of MiB of small
    // allocations on a big repository) would only delay the exit.
    std::mem::forget(registry);
    Ok(status)
}

/// Prints one tool result, as text or as `{"ok", "text", "detail"}`; the exit status is
/// 0 for a result and 1 for a tool error, the same either way.
fn print(json: bool, ok: bool, text: &str, detail: Option<&ToolDetail>) -> Result<u8> {
    if json {
        let doc = serde_json::json!({"ok": ok, "text": text, "detail": detail});
        outln!("{}", serde_json::to_string(&doc)?);
    } else {
        outln!("{text}");
    }
    Ok(u8::from(!ok))
}

/// `submit` ends a run, so outside one it can only be checked: the same parse the loop
/// applies, with the same model-facing error. The evidence check needs a run's history.
fn check_submit(value: &serde_json::Value) -> (bool, String) {
    match explore_agent::specs::parse_submit(value) {
        Ok(args) => (
            true,
            format!(
                "`submit` arguments are well-formed ({} relevant files). In a run, every path and line is then checked against what the tools returned.",
                args.relevant_files.len()
            ),
        ),
        Err(err) => (false, err.to_string()),
    }
}

/// The tools as the model is offered them: the registry's tools plus `submit`.
fn list(registry: &Registry, json: bool) -> Result<u8> {
    let specs = explore_agent::tool_specs(registry);
    if json {
        outln!("{}", serde_json::to_string_pretty(&specs)?);
    } else {
        for t in &specs {
            outln!("{:<6} {}", t.name, first_sentence(&t.description));
        }
        // Which sandbox layers `bash` runs under here, so a user can see what the kernel
        // and the machine gave it (issue 4: degrade with a warning, report what is active).
        let bash = registry.bash();
        let layers: Vec<String> = bash.layers().iter().map(ToString::to_string).collect();
        outln!();
        outln!("bash sandbox layers: {}", layers.join(", "));
        for missing in bash.missing_layers() {
            outln!("bash sandbox missing: {missing}");
        }
    }
    Ok(0)
}

/// The first sentence of a description, which may wrap over several lines.
fn first_sentence(text: &str) -> String {
    let paragraph: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    let joined = paragraph.join(" ");
    match joined.find(". ") {
        Some(i) => joined[..=i].to_string(),
        None => joined,
    }
}
