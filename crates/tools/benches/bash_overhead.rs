//! Overhead of the `bash` tool: the same command run through the tool (parse, policy, path
//! checks, spawn, confinement, output handling) and spawned directly with
//! `std::process::Command`, median of many runs, on the Go fixture `evals/fixtures/relay`.
//!
//! `cargo bench -p explore-tools --bench bash_overhead` prints one table per confinement:
//! the default (what `Auto` picks here), then Landlock, bubblewrap and the fallback forced
//! (a forced one the machine lacks falls back, and its header says so). Numbers go to `docs/performance.md`; nothing here asserts a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use explore_tools::RepoRoot;
use explore_tools::bash::{BashOptions, BashTool, Confinement, exec::find_program};

const RUNS: usize = 60;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn direct(repo: &Path, argv: &[&str]) -> Duration {
    let program: PathBuf = find_program(argv[0]).unwrap_or_else(|| PathBuf::from(argv[0]));
    let start = Instant::now();
    let out = Command::new(program)
        .args(&argv[1..])
        .current_dir(repo)
        .stdin(Stdio::null())
        .output();
    let took = start.elapsed();
    if let Err(e) = out {
        eprintln!("direct run of {argv:?} failed: {e}");
    }
    took
}

fn through_tool(tool: &BashTool, cmd: &str) -> Duration {
    let start = Instant::now();
    let out = tool.run(cmd);
    let took = start.elapsed();
    if let Err(e) = out {
        eprintln!("tool refused `{cmd}`: {e}");
    }
    took
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let t = e.file_type()?;
        if t.is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()))?;
        } else if t.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}

fn git(repo: &Path, args: &[&str]) {
    let _ = Command::new("git")
        .args([
            "-c",
            "user.name=b",
            "-c",
            "user.email=b@e",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(repo)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output();
}

fn main() {
    // A copy of the Go fixture made into a git repository (the fixture itself is a plain
    // directory inside explore's checkout).
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../evals/fixtures/relay");
    let Ok(tmp) = tempfile::tempdir() else {
        eprintln!("no temp dir");
        return;
    };
    let repo = tmp.path().join("relay");
    if let Err(e) = copy_dir(&src, &repo) {
        eprintln!("cannot copy the fixture: {e}");
        return;
    }
    // A JSON file for jq (the fixture has none).
    if let Err(e) = std::fs::write(repo.join("package.json"), "{\"name\": \"relay\"}\n") {
        eprintln!("cannot write package.json: {e}");
        return;
    }
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "fixture"]);
    git(
        &repo,
        &[
            "remote",
            "add",
            "origin",
            "https://bot:t0ken@example.com/relay.git",
        ],
    );
    let root = match RepoRoot::new(&repo) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("fixture missing: {e}");
            return;
        }
    };
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("cat go.mod", vec!["cat", "go.mod"]),
        (
            "head -20 internal/brain/plan.go",
            vec!["head", "-20", "internal/brain/plan.go"],
        ),
        (
            "grep -rn 'func ' --include=*.go internal",
            vec!["grep", "-rn", "func ", "--include=*.go", "internal"],
        ),
        ("rg -n IssueStore", vec!["rg", "-n", "IssueStore"]),
        (
            "find . -name '*.go' -path '*internal*'",
            vec!["find", ".", "-name", "*.go", "-path", "*internal*"],
        ),
        (
            "git log --oneline -5",
            vec!["git", "log", "--oneline", "-5"],
        ),
        // Issue 15's additions: a git read form whose output is redacted, a brace list
        // expanded by the tool, and the new readers.
        ("git remote -v", vec!["git", "remote", "-v"]),
        (
            "git config --get remote.origin.url",
            vec!["git", "config", "--get", "remote.origin.url"],
        ),
        (
            "ls -d internal/{brain,store}",
            vec!["ls", "-d", "internal/brain", "internal/store"],
        ),
        (
            "jq -r .name package.json",
            vec!["jq", "-r", ".name", "package.json"],
        ),
        ("sha256sum go.mod", vec!["sha256sum", "go.mod"]),
    ];
    for (label, confinement) in [
        ("default (auto)", Confinement::Auto),
        ("landlock (forced)", Confinement::Landlock),
        ("bubblewrap (forced)", Confinement::Bubblewrap),
        (
            "fallback (no OS file or network confinement)",
            Confinement::Off,
        ),
    ] {
        let tool = BashTool::new(
            root.clone(),
            BashOptions {
                confinement,
                ..BashOptions::default()
            },
        );
        // The first call probes the confinement (Landlock: builds the rulesets and the
        // seccomp filter and runs `true` under them; bubblewrap: runs `true` in a sandbox).
        let start = Instant::now();
        let layers = tool.layers();
        let probe = start.elapsed();
        println!(
            "\n## {label}: layers {}",
            layers
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        println!(
            "one-time probe (first `layers()` call): {:.2} ms",
            probe.as_secs_f64() * 1e3
        );
        let missing = tool.missing_layers();
        if !missing.is_empty() {
            println!("missing: {missing:?}");
        }
        println!("| command | direct (median) | tool (median) | overhead |");
        println!("|---|---|---|---|");
        for (cmd, argv) in &cases {
            if find_program(argv[0]).is_none() {
                println!("| `{cmd}` | {} not installed | | |", argv[0]);
                continue;
            }
            // Warm up (page cache, the tool's one-time probes).
            for _ in 0..3 {
                direct(&repo, argv);
                through_tool(&tool, cmd);
            }
            let mut d = Vec::with_capacity(RUNS);
            let mut t = Vec::with_capacity(RUNS);
            for _ in 0..RUNS {
                d.push(direct(&repo, argv));
                t.push(through_tool(&tool, cmd));
            }
            let (md, mt) = (median(d), median(t));
            println!(
                "| `{cmd}` | {:.2} ms | {:.2} ms | {:+.2} ms |",
                md.as_secs_f64() * 1e3,
                mt.as_secs_f64() * 1e3,
                (mt.as_secs_f64() - md.as_secs_f64()) * 1e3
            );
        }
        // A three-stage pipeline through the tool: every stage is a confined program.
        let pipeline = "grep -rn func internal | sort | head -5";
        let mut p = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            p.push(through_tool(&tool, pipeline));
        }
        println!(
            "\n`{pipeline}` through the tool (3 programs): {:.2} ms median",
            median(p).as_secs_f64() * 1e3
        );
        // Policy alone: parse + vet, nothing spawned.
        let mut p = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            let start = Instant::now();
            let _ = tool.check("cd internal/brain && grep -n func *.go | head -20");
            p.push(start.elapsed());
        }
        println!(
            "\nparse + policy + paths only (`check`, a 3-stage command with a glob): {:.3} ms median",
            median(p).as_secs_f64() * 1e3
        );
    }
    // The one-time probe on a large repository (the benchmark corpus, when it was
    // fetched): Landlock's cost grows with the directories on the way to masked files.
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-corpus/src");
    if let Ok(root) = RepoRoot::new(&corpus) {
        println!("\n## one-time probe on {}", corpus.display());
        for confinement in [Confinement::Landlock, Confinement::Bubblewrap] {
            let tool = BashTool::new(
                root.clone(),
                BashOptions {
                    confinement,
                    ..BashOptions::default()
                },
            );
            let start = Instant::now();
            let layers = tool.layers();
            println!(
                "{confinement:?}: {:.1} ms (Landlock scans for masked files here, bubblewrap at the first command), layers {}",
                start.elapsed().as_secs_f64() * 1e3,
                layers
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let start = Instant::now();
            let _ = tool.run("ls go");
            println!(
                "{confinement:?}: first command after the probe: {:.1} ms",
                start.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
