//! `explore index`: build or refresh the code index now and print what it holds.
//!
//! The index is built on first use anyway; this command exists to warm it ahead of time
//! (in CI, after a checkout) and to show what the graph saw: files, symbols, edges by
//! kind, files skipped and why, how long it took and where the cache lives.

use anyhow::{Result, anyhow};
use explore_tools::RepoRoot;
use explore_tools::code::{CodeTool, IndexOptions, IndexStats};

use crate::cli::{GlobalArgs, IndexArgs};

/// Runs `explore index`.
pub fn run(global: &GlobalArgs, args: &IndexArgs) -> Result<u8> {
    let dir = super::repo_dir(global.repo.as_deref())?;
    let root = RepoRoot::new(&dir)?;
    let tool = CodeTool::new(root, IndexOptions::default());
    let stats = tool.index().map_err(|e| anyhow!("{e}"))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json(&stats))?);
    } else {
        print!("{}", human(&stats));
    }
    Ok(0)
}

fn json(stats: &IndexStats) -> serde_json::Value {
    serde_json::json!({
        "files": stats.files,
        "lines": stats.lines,
        "symbols": stats.symbols,
        "edges": stats.edges,
        "skipped": stats.skipped,
        "parsed": stats.parsed,
        "rehashed": stats.rehashed,
        "reused": stats.reused,
        "with_syntax_errors": stats.with_syntax_errors,
        "from_cache": stats.from_cache,
        "seconds": (stats.seconds * 1000.0).round() / 1000.0,
        "cache_path": stats.cache_path,
    })
}

fn human(stats: &IndexStats) -> String {
    let edges = stats
        .edges
        .iter()
        .map(|(k, v)| format!("{v} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let skipped = if stats.skipped.is_empty() {
        "none".to_string()
    } else {
        stats
            .skipped
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::new();
    out.push_str(&format!(
        "files      {} ({} lines)\n",
        stats.files, stats.lines
    ));
    out.push_str(&format!("symbols    {}\n", stats.symbols));
    out.push_str(&format!("edges      {edges}\n"));
    out.push_str(&format!("skipped    {skipped}\n"));
    out.push_str(&format!(
        "parsed     {} (reused {}, rehashed {}{})\n",
        stats.parsed,
        stats.reused,
        stats.rehashed,
        if stats.with_syntax_errors > 0 {
            format!(", {} with syntax errors", stats.with_syntax_errors)
        } else {
            String::new()
        }
    ));
    out.push_str(&format!("seconds    {:.3}\n", stats.seconds));
    out.push_str(&format!(
        "cache      {}\n",
        stats.cache_path.as_ref().map_or_else(
            || "none (in memory only)".to_string(),
            |p| p.display().to_string()
        )
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_stats() {
        let mut stats = IndexStats {
            files: 3,
            lines: 120,
            symbols: 17,
            parsed: 1,
            reused: 2,
            seconds: 0.0421,
            ..Default::default()
        };
        stats.edges.insert("calls".into(), 9);
        stats.edges.insert("uses".into(), 2);
        stats.skipped.insert("binary".into(), 1);
        assert_eq!(
            human(&stats),
            "files      3 (120 lines)\nsymbols    17\nedges      9 calls, 2 uses\nskipped    1 binary\nparsed     1 (reused 2, rehashed 0)\nseconds    0.042\ncache      none (in memory only)\n"
        );
        assert_eq!(json(&stats)["seconds"], 0.042);
        assert_eq!(json(&stats)["skipped"]["binary"], 1);
    }
}
