//! The command line, as clap sees it. The contract's section 1 is the source of truth.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

const AFTER_HELP: &str = "\
Examples:
  In a terminal:
    explore \"where is IssueStore defined\"
    explore -C ~/src/relay \"who calls Plan\"
    explore tool code '{\"operation\":\"callers\",\"symbol\":\"Plan\"}'
  In CI:
    explore eval evals/ --format junit --out explore-junit.xml
  In a pipeline:
    explore --json \"how are webhooks handled\" | jq -r '.relevant_files[].path'
    echo \"where is retry logic\" | explore --format jsonl -

Exit status: 0 answered, 1 nothing relevant found, 2 error, 3 stopped early (partial result).";

/// explore answers questions about a code repository: the relevant files, the exact
/// lines, and why each matters.
#[derive(Debug, Parser)]
#[command(
    name = "explore",
    version,
    about,
    after_help = AFTER_HELP,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    /// Options that apply to every command.
    #[command(flatten)]
    pub global: GlobalArgs,

    /// The question, e.g. "where is IssueStore defined". `-` reads it from stdin.
    #[arg(value_name = "QUERY")]
    pub query: Vec<String>,

    /// A command other than asking a question.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options shared by every command.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// The repository (default: the git top-level of the working directory, else the
    /// working directory).
    #[arg(short = 'C', long = "repo", value_name = "DIR", global = true)]
    pub repo: Option<PathBuf>,

    /// More logging on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,

    /// No progress and no logs on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

/// The commands besides the main one.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one tool exactly as the model calls it.
    #[command(after_help = "\
Examples:
  explore tool --list
  explore tool tree '{\"path\":\"internal\",\"depth\":3}'
  explore tool read '{\"file\":\"internal/model/issue.go\",\"start_line\":55,\"num_lines\":20}'

Exit status: 0 on a result, 1 when the tool answered with an error (same text either way).")]
    Tool(ToolArgs),
    /// Run eval suites (questions with known answers) and score the answers.
    #[command(after_help = "\
Examples:
  explore eval evals/suites
  explore eval evals/suites/relay.toml --format json --out eval.json
  explore eval evals/ --engine local --format junit --out target/eval-junit.xml
  explore eval evals/suites --engine llm --replay-dir evals/transcripts

Exit status: 0 every threshold met, 1 a threshold missed (the reason is the last line),
2 a malformed suite or a bad option (the error names the file, case and field).")]
    Eval(EvalArgs),
}

/// `explore eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A suite file, or a directory searched recursively for suites (`*.toml` with
    /// `[suite]` or `[[case]]`; `fixtures/`, `target/` and hidden directories skipped).
    #[arg(value_name = "SUITE|DIR")]
    pub target: PathBuf,

    /// The engine for every case (default: each suite's `engine`, else local).
    #[arg(long, value_enum)]
    pub engine: Option<EvalEngine>,

    /// Answer LLM cases from recorded transcripts `DIR/<case-id>.jsonl` (no network, no key).
    #[arg(long, value_name = "DIR", conflicts_with = "record_dir")]
    pub replay_dir: Option<PathBuf>,

    /// Record each LLM case's model calls to `DIR/<case-id>.jsonl`.
    #[arg(long, value_name = "DIR")]
    pub record_dir: Option<PathBuf>,

    /// Cases run at once (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Report format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: EvalFormat,

    /// Write the report to FILE instead of stdout (the verdict still goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Minimum overall accuracy (fraction of passed cases, 0 to 1), on top of each
    /// suite's own thresholds.
    #[arg(long, value_name = "X")]
    pub min_score: Option<f64>,

    /// Only the cases whose id contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
}

/// `explore eval --engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalEngine {
    /// The deterministic local engine.
    Local,
    /// A model (or its transcripts with --replay-dir).
    Llm,
}

/// `explore eval --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalFormat {
    /// A table, the failures with expected vs returned, the verdict last.
    Human,
    /// One JSON document for dashboards.
    Json,
    /// JUnit XML for CI systems.
    Junit,
}

/// `explore tool`.
#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The tool to run (see --list).
    #[arg(value_name = "NAME", required_unless_present = "list")]
    pub name: Option<String>,

    /// The arguments as a JSON object, exactly as the model sends them; `-` reads stdin.
    #[arg(value_name = "ARGS_JSON")]
    pub args: Option<String>,

    /// List the tools with their descriptions and JSON schemas.
    #[arg(long, conflicts_with = "name")]
    pub list: bool,

    /// With --list: print JSON.
    #[arg(long, requires = "list")]
    pub json: bool,
}
