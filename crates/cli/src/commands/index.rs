//! `explore index`: build or refresh the code index now and print what it holds.
//!
//! The index is built on first use anyway; this command exists to warm it ahead of time
//! (in CI, after a checkout) and to show what the graph saw: files, symbols, edges by
//! kind, files skipped and why, how long it took and where the cache lives.

use crate::output::{out, outln};
use anyhow::{Result, anyhow};
use explore_agent::local::{Precount, lexfile};
use explore_tools::RepoRoot;
use explore_tools::code::arango::{self, ArangoConfig, PushStats};
use explore_tools::code::{CodeTool, IndexOptions, IndexStats, TextSink};

use crate::cli::{GlobalArgs, IndexArgs, StoreKind};

/// Runs `explore index`.
pub fn run(global: &GlobalArgs, args: &IndexArgs) -> Result<u8> {
    let dir = super::repo_dir(global.repo.as_deref())?;
    super::guard(&dir, global)?;
    let root = RepoRoot::new(&dir)?;
    let root_path = root.path().to_path_buf();
    // This process exits once the indexes are written: what the build no longer needs is
    // left to the exit, not freed (see `exit_after_build`).
    explore_tools::code::exit_after_build();
    let tool = CodeTool::new(root, IndexOptions::default());
    if args.background {
        // One builder per cache; the others have nothing to add.
        let Some(cache) = tool.cache_path() else {
            return Ok(0);
        };
        let Some(_lock) = crate::background::try_lock(&cache)? else {
            return Ok(0);
        };
        let pre = precount(&tool, &root_path);
        tool.index_with(sink(&pre)).map_err(|e| anyhow!("{e}"))?;
        lexfile::refresh_with(&tool, &root_path, pre);
        return Ok(0);
    }
    let stats = {
        // Phase and files done of total on stderr while the build runs (terminal only).
        let _watch = index_bar(global.quiet);
        let pre = precount(&tool, &root_path);
        let stats = tool.index_with(sink(&pre)).map_err(|e| anyhow!("{e}"))?;
        // The concept ranking's index, so that the first concept question reads it.
        lexfile::refresh_with(&tool, &root_path, pre);
        stats
    };
    let store = crate::store::resolve(&args.store, &dir)?;
    for w in &store.warnings {
        tracing::warn!("{w}");
    }
    let pushed = if store.kind.value == StoreKind::Arangodb {
        let graph = tool.graph().map_err(|e| anyhow!("{e}"))?;
        let cfg = store.arango;
        let p = arango::push(&cfg, graph.data()).map_err(|e| anyhow!("{e}"))?;
        Some((cfg, p))
    } else {
        None
    };
    if args.json {
        let mut v = json(&stats);
        if let Some((cfg, p)) = &pushed {
            v["arangodb"] = serde_json::json!({
                "url": cfg.url,
                "database": cfg.database,
                "repo": cfg.repo,
                "push": p,
            });
        }
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        out!("{}", human(&stats));
        if let Some((cfg, p)) = &pushed {
            out!("{}", human_push(cfg, p));
        }
    }
    // The graph (hundreds of thousands of allocations) goes with the process.
    std::mem::forget(tool);
    Ok(0)
}

/// The content index's counting, started on whatever core the code index leaves idle
/// ([`Precount`]), when the code index is about to change (no store, or a stale one) and
/// with it the lexical and content indexes keyed by it; a fresh one needs no counting.
fn precount(tool: &CodeTool, root: &std::path::Path) -> Option<Precount> {
    tool.fresh_store().is_none().then(|| Precount::start(root))
}

/// The counting as the code index's [`TextSink`]: it is handed each file the code index
/// reads, so that the content index does not read it again.
fn sink(pre: &Option<Precount>) -> Option<&dyn TextSink> {
    pre.as_ref().map(|p| p as &dyn TextSink)
}

fn human_push(cfg: &ArangoConfig, p: &PushStats) -> String {
    format!(
        "arangodb   {} database {} as {}: {} files changed, {} removed, {} unchanged ({} symbols, {} edges written in {} batches{}, {:.3} s)\n",
        cfg.url,
        cfg.database,
        cfg.repo,
        p.changed,
        p.removed,
        p.unchanged,
        p.symbols,
        p.edges,
        p.batches,
        if p.rebuilt {
            "; replaced a graph of another format"
        } else {
            ""
        },
        p.seconds
    )
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

/// A spinner on stderr showing the index build's phase and counts while it lives.
struct IndexBar {
    watch: Option<crate::progress::IndexWatch>,
    bar: indicatif::ProgressBar,
}

impl Drop for IndexBar {
    fn drop(&mut self) {
        // The watch first, so nothing redraws the cleared line.
        self.watch.take();
        crate::progress::clear(&self.bar);
    }
}

/// An [`IndexBar`] when stderr is a terminal and not `-q`.
fn index_bar(quiet: bool) -> Option<IndexBar> {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = crate::progress::spinner("indexing");
    let shown = bar.clone();
    let watch = crate::progress::IndexWatch::start(move |snap| {
        if let Some(s) = snap {
            shown.set_message(crate::progress::indexing(&s));
        }
    });
    Some(IndexBar {
        watch: Some(watch),
        bar,
    })
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

    #[test]
    fn push_line() {
        let cfg = ArangoConfig {
            url: "http://db:8529".into(),
            user: "root".into(),
            password: Some("s3cret".into()),
            database: "explore".into(),
            repo: "relay".into(),
            create_db: false,
        };
        let p = PushStats {
            files: 5,
            unchanged: 3,
            changed: 2,
            removed: 1,
            symbols: 7,
            edges: 9,
            batches: 6,
            rebuilt: false,
            seconds: 0.25,
        };
        assert_eq!(
            human_push(&cfg, &p),
            "arangodb   http://db:8529 database explore as relay: 2 files changed, 1 removed, 3 unchanged (7 symbols, 9 edges written in 6 batches, 0.250 s)\n"
        );
    }
}
