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
