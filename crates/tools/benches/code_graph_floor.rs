//! The floor under the code index's cold build, and where the build's time goes.
//!
//! Issue 3 asks for a cold index within 1.3x of "the pure tree-sitter parse time of the
//! same files". This binary measures that floor on the benchmark corpus
//! (`evals/bench/corpus.sh`): the same file list the index walks, each file read and
//! parsed with the same grammars (`code::parse_only`, the index's own thread-local
//! parsers), on a rayon pool of `--threads` threads (default 2), nothing else. Beside it,
//! the steps a cold build adds, each timed alone, so that a missed target points at its
//! cause: the walk, reading, hashing (blake3), extraction (parse + tags queries), and the
//! whole in-process build with and without writing the cache.
//!
//! ```text
//! cargo bench -p explore-tools --bench code_graph_floor -- [CORPUS] [--runs N]
//!     [--threads N] [--json FILE] [--facts FILE] [--floor-only]
//! ```
//!
//! `--floor-only` runs the floor step alone (once per run) and prints its time, so that
//! `perf stat` can count its cycles and instructions next to an `explore index` process:
//! on a loaded machine those counts move much less than wall or CPU time.
//!
//! `--facts FILE` times nothing: it writes every file's extracted facts (one line per
//! file, `path<TAB>facts` in `Debug` form, files sorted) and exits, so that a change to
//! extraction can be checked for unchanged output on the whole corpus with `cmp`.
//!
//! `evals/bench/run.sh` runs it next to the process-level timings (`explore index`,
//! `ctags -R`, `rg -n`) and writes `docs/performance.md`'s figures. Timings are medians of
//! wall-clock runs on a warm page cache; nothing here asserts a time.

use std::path::{Path, PathBuf};
use std::time::Instant;

use explore_tools::RepoRoot;
use explore_tools::code::{
    CodeTool, IndexOptions, IndexStats, Language, MAX_FILE_BYTES, count_lines, extract, parse_only,
};
use rayon::prelude::*;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

struct Options {
    corpus: PathBuf,
    runs: usize,
    threads: usize,
    json: Option<PathBuf>,
    facts: Option<PathBuf>,
    floor_only: bool,
}

fn options() -> Result<Options, BoxError> {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut opts = Options {
        corpus: workspace.join("target/bench-corpus/src"),
        runs: 3,
        threads: 2,
        json: None,
        facts: None,
        floor_only: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            // `cargo bench` passes --bench to harness-less benches.
            "--bench" => {}
            "--runs" => opts.runs = args.next().ok_or("--runs needs a number")?.parse()?,
            "--threads" => {
                opts.threads = args.next().ok_or("--threads needs a number")?.parse()?;
            }
            "--json" => opts.json = Some(args.next().ok_or("--json needs a file")?.into()),
            "--facts" => opts.facts = Some(args.next().ok_or("--facts needs a file")?.into()),
            "--floor-only" => opts.floor_only = true,
            s if s.starts_with("--") => return Err(format!("unknown option {s}").into()),
            s => opts.corpus = PathBuf::from(s),
        }
    }
    if opts.runs == 0 || opts.threads == 0 {
        return Err("--runs and --threads must be at least 1".into());
    }
    if !opts.corpus.is_dir() {
        return Err(format!(
            "no corpus at {}; run evals/bench/corpus.sh first",
            opts.corpus.display()
        )
        .into());
    }
    opts.corpus = opts.corpus.canonicalize()?;
    Ok(opts)
}

/// The files the index would parse: the index's walk ([`explore_tools::walk::walker`]),
/// Go and Python only, nothing over `MAX_FILE_BYTES`.
fn source_files(root: &Path) -> Vec<(PathBuf, Language)> {
    let mut out = Vec::new();
    let walker = explore_tools::walk::walker(root).build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(language) = Language::of_path(&entry.path().to_string_lossy()) else {
            continue;
        };
        if entry.metadata().is_ok_and(|m| m.len() <= MAX_FILE_BYTES) {
            out.push((entry.path().to_path_buf(), language));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn is_binary(src: &[u8]) -> bool {
    memchr::memchr(0, &src[..src.len().min(8192)]).is_some()
}

/// CPU seconds (user + system) this process has used so far, from `/proc/self/stat`.
/// On a machine shared with other builds the wall time of a step grows with the load;
/// its CPU time does not, so both are reported.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may contain spaces) start at field 3; utime
    // and stime are fields 14 and 15, in clock ticks (100 per second on Linux).
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// One step's cost: median wall time and median CPU time of `runs` calls.
#[derive(Clone, Copy)]
struct Cost {
    wall: f64,
    cpu: f64,
}

/// Runs `f` `runs` times; the median wall and CPU times, and the last call's result.
fn median_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Cost, T) {
    let mut walls = Vec::with_capacity(runs);
    let mut cpus = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let cpu0 = cpu_seconds();
        let started = Instant::now();
        let v = f();
        walls.push(started.elapsed());
        cpus.push(cpu_seconds() - cpu0);
        last = Some(v);
    }
    walls.sort();
    cpus.sort_by(f64::total_cmp);
    let cost = Cost {
        wall: walls[walls.len() / 2].as_secs_f64(),
        cpu: cpus[cpus.len() / 2],
    };
    match last {
        Some(v) => (cost, v),
        None => (cost, f()),
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    files: usize,
    bytes: u64,
    lines: u64,
    failed: usize,
    with_errors: usize,
}

impl Tally {
    fn add(mut self, o: Tally) -> Tally {
        self.files += o.files;
        self.bytes += o.bytes;
        self.lines += o.lines;
        self.failed += o.failed;
        self.with_errors += o.with_errors;
        self
    }
}

/// Reads every file and applies `step` to the bytes of the readable, non-binary ones.
fn over_files(
    files: &[(PathBuf, Language)],
    step: impl Fn(Language, &[u8]) -> Tally + Sync,
) -> Tally {
    files
        .par_iter()
        .map(|(p, lang)| match std::fs::read(p) {
            Ok(src) if !is_binary(&src) => step(*lang, &src),
            _ => Tally {
                failed: 1,
                ..Tally::default()
            },
        })
        .reduce(Tally::default, Tally::add)
}

fn parsed(lang: Language, src: &[u8]) -> Tally {
    match parse_only(lang, src) {
        Ok(tree) => Tally {
            files: 1,
            bytes: src.len() as u64,
            lines: u64::from(count_lines(src)),
            with_errors: usize::from(tree.root_node().has_error()),
            ..Tally::default()
        },
        Err(_) => Tally {
            failed: 1,
            ..Tally::default()
        },
    }
}

fn cold_index(root: &RepoRoot, cache: Option<&Path>) -> Result<IndexStats, BoxError> {
    let options = match cache {
        Some(dir) => {
            // A fresh cache directory per run: every build is cold.
            let _ = std::fs::remove_dir_all(dir);
            IndexOptions {
                cache_dir: Some(dir.to_path_buf()),
                no_cache: false,
                ..IndexOptions::default()
            }
        }
        None => IndexOptions {
            cache_dir: None,
            no_cache: true,
            ..IndexOptions::default()
        },
    };
    Ok(CodeTool::new(root.clone(), options).index()?)
}

/// Writes each file's extracted facts, one line per file, for `cmp` against an earlier
/// build's output.
fn dump_facts(corpus: &Path, out: &Path) -> Result<(), BoxError> {
    use std::fmt::Write as _;
    let files = source_files(corpus);
    let lines: Vec<String> = files
        .par_iter()
        .map(|(p, lang)| {
            let rel = p.strip_prefix(corpus).unwrap_or(p).display().to_string();
            let facts = match std::fs::read(p) {
                Ok(src) if !is_binary(&src) => match extract(*lang, &src) {
                    Ok(f) => format!("{f:?}"),
                    Err(e) => format!("error: {e}"),
                },
                Ok(_) => "binary".to_string(),
                Err(e) => format!("unreadable: {e}"),
            };
            format!("{rel}\t{facts}\n")
        })
        .collect();
    let mut text = String::new();
    for l in lines {
        let _ = write!(text, "{l}");
    }
    std::fs::write(out, text)?;
    println!(
        "facts of {} files written to {}",
        files.len(),
        out.display()
    );
    Ok(())
}

fn main() -> Result<(), BoxError> {
    let opts = options()?;
    if let Some(out) = &opts.facts {
        return dump_facts(&opts.corpus, out);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()?;
    let root = RepoRoot::new(&opts.corpus)?;
    let cache = tempfile::tempdir()?;
    let cache_dir = cache.path().join("explore");
    let runs = opts.runs;

    if opts.floor_only {
        return pool.install(|| {
            let files = source_files(&opts.corpus);
            let (floor, tally) = median_of(runs, || over_files(&files, parsed));
            println!(
                "floor: {} files, {} lines; wall {:.3} s, cpu {:.2} s",
                tally.files, tally.lines, floor.wall, floor.cpu
            );
            Ok(())
        });
    }
    let report = pool.install(|| -> Result<serde_json::Value, BoxError> {
        let (walk, files) = median_of(runs, || source_files(&opts.corpus));
        // Warm the page cache once so that every step below reads from memory, as the
        // process-level runs in run.sh do.
        let (read, _) = median_of(runs, || over_files(&files, |_, _| Tally::default()));
        let (hash, _) = median_of(runs, || {
            over_files(&files, |_, src| {
                std::hint::black_box(blake3::hash(src));
                Tally::default()
            })
        });
        let (floor, tally) = median_of(runs, || over_files(&files, parsed));
        let sources: Vec<(Language, Vec<u8>)> = files
            .iter()
            .filter_map(|(p, l)| std::fs::read(p).ok().map(|s| (*l, s)))
            .filter(|(_, s)| !is_binary(s))
            .collect();
        let (parse_mem, _) = median_of(runs, || {
            sources
                .par_iter()
                .map(|(l, s)| parsed(*l, s))
                .reduce(Tally::default, Tally::add)
        });
        drop(sources);
        let (extract_t, extracted) = median_of(runs, || {
            over_files(&files, |lang, src| match extract(lang, src) {
                Ok(facts) => Tally {
                    files: 1,
                    bytes: src.len() as u64,
                    lines: u64::from(facts.lines),
                    with_errors: usize::from(facts.had_errors),
                    failed: 0,
                },
                Err(_) => Tally {
                    failed: 1,
                    ..Tally::default()
                },
            })
        });
        let (index_mem, stats_mem) = median_of(runs, || cold_index(&root, None));
        let stats_mem = stats_mem?;
        let (index_disk, stats_disk) = median_of(runs, || cold_index(&root, Some(&cache_dir)));
        let stats_disk = stats_disk?;
        let cache_bytes = stats_disk
            .cache_path
            .as_ref()
            .and_then(|p| std::fs::metadata(p).ok())
            .map_or(0, |m| m.len());

        let rows = [
            ("walk (list files)", walk),
            ("read", read),
            ("read + blake3", hash),
            ("parse only, sources in memory", parse_mem),
            ("FLOOR: read + parse", floor),
            ("read + extract (parse + queries)", extract_t),
            ("cold index in process, no cache", index_mem),
            ("cold index in process, writing cache", index_disk),
        ];
        println!(
            "corpus {}: {} files parsed ({} lines, {:.1} MiB; {} with syntax errors, {} unreadable/binary/failed)",
            opts.corpus.display(),
            tally.files,
            tally.lines,
            tally.bytes as f64 / (1024.0 * 1024.0),
            tally.with_errors,
            tally.failed,
        );
        println!(
            "{} rayon threads, median of {runs} runs; extract failed on {} files",
            opts.threads, extracted.failed
        );
        println!(
            "{:<40} {:>9} {:>8} {:>9} {:>8}",
            "step", "wall s", "x floor", "cpu s", "x floor"
        );
        for (name, c) in rows {
            println!(
                "{name:<40} {:>9.3} {:>8.2} {:>9.2} {:>8.2}",
                c.wall,
                c.wall / floor.wall,
                c.cpu,
                c.cpu / floor.cpu.max(0.01)
            );
        }
        println!(
            "index: {} files, {} lines, {} symbols, edges {:?}, skipped {:?}; cache file {:.1} MiB",
            stats_disk.files,
            stats_disk.lines,
            stats_disk.symbols,
            stats_disk.edges,
            stats_disk.skipped,
            cache_bytes as f64 / (1024.0 * 1024.0)
        );
        let step = |c: Cost| serde_json::json!({"wall_s": c.wall, "cpu_s": c.cpu});
        Ok(serde_json::json!({
            "corpus": opts.corpus,
            "threads": opts.threads,
            "runs": runs,
            "files": tally.files,
            "lines": tally.lines,
            "bytes": tally.bytes,
            "with_syntax_errors": tally.with_errors,
            "failed": tally.failed,
            "walk": step(walk),
            "read": step(read),
            "hash": step(hash),
            "parse_mem": step(parse_mem),
            "floor": step(floor),
            "floor_s": floor.wall,
            "extract": step(extract_t),
            "index_nocache": step(index_mem),
            "index_cache": step(index_disk),
            "index_nocache_reported_s": stats_mem.seconds,
            "index_files": stats_disk.files,
            "index_lines": stats_disk.lines,
            "index_symbols": stats_disk.symbols,
            "index_edges": stats_disk.edges,
            "index_skipped": stats_disk.skipped,
            "cache_bytes": cache_bytes,
        }))
    })?;
    if let Some(path) = &opts.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)?;
    }
    Ok(())
}
