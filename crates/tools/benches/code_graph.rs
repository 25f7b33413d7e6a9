//! The code graph benchmark of issue 3, run once on a real corpus (`evals/bench/corpus.sh`):
//! cold index against the pure tree-sitter parse of the same files (the floor) and against
//! `ctags -R`; a warm `explore tool code find` process against `rg -n`; the first query on a
//! repository never indexed; peak memory. Prints a Markdown table for `docs/performance.md`.
//!
//! ```text
//! evals/bench/corpus.sh                      # once: >= 1M lines in target/bench-corpus/src
//! cargo build --release -p explore-cli       # the binary the process timings run
//! cargo bench -p explore-tools --bench code_graph
//! ```
//!
//! Environment: `EXPLORE_BENCH_CORPUS` (default `target/bench-corpus/src`),
//! `EXPLORE_BIN` (default `target/release/explore`), `EXPLORE_BENCH_SYMBOL` (default
//! `NewClient`), `EXPLORE_BENCH_RUNS` (default 5). Timings are wall-clock on this machine;
//! there are no assertions.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use explore_tools::RepoRoot;
use explore_tools::code::{
    CodeArgs, CodeTool, IndexOptions, Language, SymbolQuery, parse_only, run,
};
use rayon::prelude::*;

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_string())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Wall seconds and peak RSS (KiB) of a command, through `/usr/bin/time`.
fn timed(cmd: &mut Command) -> (f64, u64, String) {
    let started = Instant::now();
    let out = cmd.output().expect("run command");
    let secs = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let rss = stderr
        .lines()
        .rev()
        .find_map(|l| {
            l.trim()
                .strip_prefix("maxrss=")
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0);
    (secs, rss, String::from_utf8_lossy(&out.stdout).into_owned())
}

fn with_time(program: &str) -> Command {
    let mut c = Command::new("/usr/bin/time");
    c.args(["-f", "maxrss=%M", program]);
    c
}

fn vm_hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The files the index would parse: its walk, Go and Python, nothing over its size limit.
fn source_files(root: &Path) -> Vec<(PathBuf, Language)> {
    let mut out = Vec::new();
    for e in explore_tools::walk::walker(root).build().flatten() {
        if !e.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let p = e.path().to_string_lossy().into_owned();
        if let Some(lang) = Language::of_path(&p)
            && e.metadata()
                .is_ok_and(|m| m.len() <= explore_tools::code::MAX_FILE_BYTES)
        {
            out.push((e.path().to_path_buf(), lang));
        }
    }
    out
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = PathBuf::from(env_or(
        "EXPLORE_BENCH_CORPUS",
        &workspace.join("target/bench-corpus/src").to_string_lossy(),
    ));
    if !corpus.is_dir() {
        eprintln!(
            "no corpus at {}; run evals/bench/corpus.sh first",
            corpus.display()
        );
        return;
    }
    let corpus = corpus.canonicalize().unwrap();
    let bin = PathBuf::from(env_or(
        "EXPLORE_BIN",
        &workspace.join("target/release/explore").to_string_lossy(),
    ));
    let symbol = env_or("EXPLORE_BENCH_SYMBOL", "NewClient");
    let runs: usize = env_or("EXPLORE_BENCH_RUNS", "5").parse().unwrap_or(5);
    let threads = rayon::current_num_threads();

    // 1. Cold index, in process (walk, read, hash, extract, link, write the cache).
    let cache = tempfile::tempdir().unwrap();
    let tool = CodeTool::new(
        RepoRoot::new(&corpus).unwrap(),
        IndexOptions {
            cache_dir: Some(cache.path().to_path_buf()),
            ..Default::default()
        },
    );
    let started = Instant::now();
    let cold = tool.index().unwrap();
    let cold_secs = started.elapsed().as_secs_f64();
    let cold_hwm = vm_hwm_kib();
    drop(tool);
    // `EXPLORE_BENCH_ONLY=cold` stops here (for profiling with perf).
    if std::env::var("EXPLORE_BENCH_ONLY").is_ok_and(|v| v == "cold") {
        println!(
            "cold index: {cold_secs:.2} s, {} files, {} lines",
            cold.files, cold.lines
        );
        return;
    }

    // 2. The floor: read and parse the same files with tree-sitter, nothing else.
    let files = source_files(&corpus);
    let started = Instant::now();
    let parsed: usize = files
        .par_iter()
        .map(|(p, lang)| {
            let src = std::fs::read(p).unwrap_or_default();
            usize::from(parse_only(*lang, &src).is_ok())
        })
        .sum();
    let parse_secs = started.elapsed().as_secs_f64();

    // 3. Warm refresh and a find, in process.
    let tool = CodeTool::new(
        RepoRoot::new(&corpus).unwrap(),
        IndexOptions {
            cache_dir: Some(cache.path().to_path_buf()),
            ..Default::default()
        },
    );
    let started = Instant::now();
    let warm = tool.index().unwrap();
    let g = tool.graph().unwrap();
    let hits = g.find(&SymbolQuery::new(&symbol)).len();
    let warm_secs = started.elapsed().as_secs_f64();
    drop((g, tool));

    // 3b. The warm path a `code` call takes: the store file's stat check, then the find
    // answered from the store file (no walk, no graph load).
    let started = Instant::now();
    let tool = CodeTool::new(
        RepoRoot::new(&corpus).unwrap(),
        IndexOptions {
            cache_dir: Some(cache.path().to_path_buf()),
            ..Default::default()
        },
    );
    let store = tool.warm_store();
    let check_secs = started.elapsed().as_secs_f64();
    let find_args: CodeArgs =
        serde_json::from_value(serde_json::json!({"operation": "find", "symbol": symbol})).unwrap();
    let store_find = store.map(|s| {
        let started = Instant::now();
        let lines = run(&*s, &find_args).map_or(0, |o| o.text.lines().count());
        (started.elapsed().as_secs_f64(), lines)
    });

    // 4. ctags -R over the same tree (single-threaded).
    let (ctags_secs, ctags_rss, _) = timed(
        with_time("ctags")
            .args(["-R", "-f", "/dev/null", "--languages=Go,Python"])
            .arg(&corpus),
    );

    // 5. rg -n SYMBOL, and the explore processes.
    let rg: Vec<f64> = (0..runs)
        .map(|_| timed(with_time("rg").args(["-n", &symbol]).arg(&corpus)).0)
        .collect();
    let rg_secs = median(rg);
    let args = format!("{{\"operation\":\"find\",\"symbol\":\"{symbol}\"}}");
    let mut cli = None;
    if bin.is_file() {
        let bin_s = bin.to_string_lossy().into_owned();
        let fresh = tempfile::tempdir().unwrap();
        let (first_secs, first_rss, _) = timed(
            with_time(&bin_s)
                .env("EXPLORE_CACHE_DIR", fresh.path())
                .args(["-q", "-C"])
                .arg(&corpus)
                .args(["tool", "code", &args]),
        );
        let warm_cli: Vec<(f64, u64)> = (0..runs)
            .map(|_| {
                let (s, r, _) = timed(
                    with_time(&bin_s)
                        .env("EXPLORE_CACHE_DIR", fresh.path())
                        .args(["-q", "-C"])
                        .arg(&corpus)
                        .args(["tool", "code", &args]),
                );
                (s, r)
            })
            .collect();
        let warm_rss = warm_cli.iter().map(|x| x.1).max().unwrap_or(0);
        let warm_find = median(warm_cli.iter().map(|x| x.0).collect());
        cli = Some((first_secs, first_rss, warm_find, warm_rss));
    }

    let lines = cold.lines;
    println!("## Code graph\n");
    println!(
        "Corpus: `{}`: {} Go and Python files indexed, {} lines ({} skipped: {:?}); {} cores, {threads} rayon threads.\n",
        corpus.display(),
        cold.files,
        lines,
        cold.skipped.values().sum::<usize>(),
        cold.skipped,
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );
    println!("Graph: {} symbols, edges {:?}.\n", cold.symbols, cold.edges);
    println!("| measure | time | vs | target | met |");
    println!("|---|---|---|---|---|");
    let ratio = cold_secs / parse_secs;
    println!(
        "| cold index (in process: walk, hash, extract, link, write cache) | {cold_secs:.2} s | parse floor {parse_secs:.2} s ({parsed} files): {ratio:.2}x | ≤ 1.3x | {} |",
        if ratio <= 1.3 { "yes" } else { "no" }
    );
    println!(
        "| cold index vs `ctags -R` (one thread) | {cold_secs:.2} s | ctags {ctags_secs:.2} s: {:.2}x | — | — |",
        cold_secs / ctags_secs
    );
    println!(
        "| warm refresh + find `{symbol}` (in process, {hits} hits, {} files re-parsed) | {:.0} ms | — | — | — |",
        warm.parsed,
        warm_secs * 1000.0
    );
    match store_find {
        Some((find_secs, lines)) => println!(
            "| warm store: stat check + find `{symbol}` (in process, {lines} lines of output) | {:.1} ms (check {:.1} ms, find {:.1} ms) | — | — | — |",
            (check_secs + find_secs) * 1000.0,
            check_secs * 1000.0,
            find_secs * 1000.0
        ),
        None => println!("| warm store | not usable after the refresh (a bug) | — | — | no |"),
    }
    if let Some((first, first_rss, warm_find, warm_rss)) = cli {
        let r = warm_find / rg_secs;
        println!(
            "| warm `explore tool code find {symbol}` (process, median of {runs}) | {:.0} ms | `rg -n {symbol}` {:.0} ms: {r:.2}x | ≤ 0.2x | {} |",
            warm_find * 1000.0,
            rg_secs * 1000.0,
            if r <= 0.2 { "yes" } else { "no" }
        );
        let r = first / rg_secs;
        println!(
            "| first `find` on a never-indexed repo (process) | {:.2} s | rg {:.0} ms: {r:.1}x | ≤ 2x | {} |",
            first,
            rg_secs * 1000.0,
            if r <= 2.0 { "yes" } else { "no" }
        );
        println!(
            "| peak memory, first query (cold index) | {} MiB | per 1M lines: {:.0} MiB | < 1 GiB / 1M lines | {} |",
            first_rss / 1024,
            first_rss as f64 / 1024.0 / (lines as f64 / 1e6),
            if (first_rss as f64 / 1024.0) / (lines as f64 / 1e6) < 1024.0 {
                "yes"
            } else {
                "no"
            }
        );
        println!(
            "| peak memory, warm find | {} MiB | — | — | — |",
            warm_rss / 1024
        );
    } else {
        println!(
            "| (no CLI binary at {}: process timings skipped) | | | | |",
            bin.display()
        );
    }
    println!(
        "| peak memory, in-process cold index | {} MiB | ctags {} MiB | — | — |",
        cold_hwm / 1024,
        ctags_rss / 1024
    );
}
