//! The command line, as clap sees it. The contract's section 1 is the source of truth.

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand};

const AFTER_HELP: &str = "\
Examples:
  In a terminal (human output, colour, a progress line on stderr):
    explore \"where is IssueStore defined\"
    explore -C ~/src/relay \"who calls Plan\"
    explore --engine local \"what implements IssueStore\"
    explore tool code '{\"operation\":\"callers\",\"symbol\":\"Plan\"}'
  In CI (no terminal: JSON on stdout, no progress, the exit status says what happened):
    explore -q --json --session .explore \"where is retry logic\" > explore.json
    explore -q --engine llm --budget 20000 --max-turns 8 \"how are webhooks handled\"
    explore eval evals/ --format junit --out explore-junit.xml
  In a pipeline:
    explore --json \"how are webhooks handled\" | jq -r '.relevant_files[].path'
    explore --json \"who calls Plan\" | jq -r '.relevant_files[] | \"\\(.path):\\(.locations[0].line)\"'
    echo \"where is retry logic\" | explore --format jsonl - | jq -c 'select(.event == \"tool_call\")'

Configuration: flags > environment > .explore.toml in the repository > the user file
(`explore config` shows the effective values and where each came from).

Exit status: 0 answered, 1 nothing relevant found, 2 error, 3 stopped early (partial result).";

/// explore answers questions about a code repository: the relevant files, the exact
/// lines, and why each matters.
#[derive(Debug, Parser)]
#[command(
    name = "explore",
    version,
    about,
    after_help = AFTER_HELP,
    subcommand_negates_reqs = true,
    disable_help_flag = true
)]
pub struct Cli {
    /// Print help (`explore help` shows every option, with details).
    // `--help` is the short help: the long one is pages of ArangoDB and cache options a
    // first question does not need.
    #[arg(short = 'h', long = "help", action = clap::ArgAction::HelpShort, global = true)]
    pub help: Option<bool>,

    /// Options that apply to every command.
    #[command(flatten)]
    pub global: GlobalArgs,

    /// The question, e.g. "where is IssueStore defined". `-` reads it from stdin.
    #[arg(value_name = "QUERY")]
    pub query: Vec<String>,

    /// Options of the main command (asking a question).
    #[command(flatten)]
    pub ask: AskArgs,

    /// A command other than asking a question.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// How the result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The answer and each file with its locations, for people.
    Human,
    /// The contract's result document, pretty-printed.
    Json,
    /// One JSON event per line as the run goes, the result last.
    Jsonl,
}

/// Who drives the exploration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// `llm` when a model endpoint is configured (a base URL or `OPENAI_API_KEY`), else
    /// `local`.
    Auto,
    /// A model behind an OpenAI-compatible endpoint.
    Llm,
    /// The deterministic local engine: no model, no network.
    Local,
}

/// The main command's options. Values left unset here fall back to the environment and
/// the configuration files (see `settings.rs`).
#[derive(Debug, Default, Args)]
pub struct AskArgs {
    /// Output format (default: human on a terminal, json otherwise).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,

    /// Same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// Who answers: a model (`llm`), the local engine, or `auto`.
    #[arg(long, value_enum, value_name = "ENGINE")]
    pub engine: Option<Engine>,

    /// The model name (also `EXPLORE_MODEL`).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,

    /// The OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (also `OPENAI_BASE_URL`).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Token budget of the run, prompt and completion together (the help names the
    /// default from [`explore_agent::DEFAULT_BUDGET`], so it cannot go stale).
    #[arg(long, value_name = "TOKENS", help = format!(
        "Token budget of the run, prompt and completion together [default: {}]",
        explore_agent::DEFAULT_BUDGET
    ))]
    pub budget: Option<u64>,

    /// Most turns before the run stops with a partial result.
    #[arg(help_heading = "Advanced options", long, value_name = "N")]
    pub max_turns: Option<u32>,

    /// The focus angle (`general`, `architecture`, `security`, …): answers are cached per
    /// angle [default: general].
    #[arg(help_heading = "Advanced options", long, value_name = "ANGLE")]
    pub angle: Option<String>,

    /// Keywords that steer the search, comma-separated.
    #[arg(
        help_heading = "Advanced options",
        long,
        value_name = "WORDS",
        value_delimiter = ','
    )]
    pub keywords: Vec<String>,

    /// A session directory: turns on the exploration cache in DIR/explorations.
    #[arg(help_heading = "Advanced options", long, value_name = "DIR")]
    pub session: Option<PathBuf>,

    /// With --session: explore again even when the cache has an answer, and replace it.
    #[arg(help_heading = "Advanced options", long)]
    pub force_refresh: bool,

    /// Write every model call to FILE (JSON Lines).
    #[arg(
        help_heading = "Advanced options",
        long,
        value_name = "FILE",
        conflicts_with = "replay"
    )]
    pub record: Option<PathBuf>,

    /// Answer model calls from a transcript written by --record, without a network.
    #[arg(help_heading = "Advanced options", long, value_name = "FILE")]
    pub replay: Option<PathBuf>,

    /// Print the effective configuration (same as `explore config`) and exit.
    #[arg(help_heading = "Advanced options", long)]
    pub print_config: bool,

    /// Which graph the `code` tool queries.
    #[command(flatten, next_help_heading = "Shared code graph (ArangoDB)")]
    pub store: StoreArgs,
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

    /// Explore a directory outside any repository even when it is `/`, your home or
    /// holds more than 50000 files (refused otherwise, as it would read all of them).
    #[arg(
        long,
        global = true,
        help_heading = "Advanced options",
        env = "EXPLORE_ANY_DIR",
        action = clap::ArgAction::SetTrue,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub any_dir: bool,
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

    /// Build or refresh the code index and print its stats.
    #[command(after_help = "\
Examples:
  explore index
  explore index -C ~/src/relay --json

The cache lives outside the repository: $EXPLORE_CACHE_DIR, else $XDG_CACHE_HOME/explore.")]
    Index(IndexArgs),

    /// Show the effective configuration and where each value came from.
    #[command(after_help = "\
Sources, strongest first: flags, environment, .explore.toml in the repository, the user
file ($XDG_CONFIG_HOME/explore/config.toml). The API key is never printed.")]
    Config(ConfigArgs),

    /// Print a shell completion script.
    #[command(after_help = "\
Examples:
  explore completions bash > ~/.local/share/bash-completion/completions/explore
  explore completions zsh > ~/.zfunc/_explore
  explore completions fish > ~/.config/fish/completions/explore.fish")]
    Completions(CompletionsArgs),

    /// Serve the answer and the tools over MCP on stdio, for coding agents.
    #[command(after_help = "\
Tools: explore (a question -> the result document), code, read, tree, bash; all read-only.
stdout carries only the protocol; logs go to stderr. The engine, model and budget are the
main command's: flags before `mcp`, the environment, the configuration files.

Examples:
  explore mcp -C ~/src/relay
  claude mcp add explore -- explore mcp -C ~/src/relay
  explore --engine local --budget 20000 mcp -C .

See docs/mcp.md for Codex, Cursor and opencode.")]
    Mcp,

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

/// `explore index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Print the stats as JSON.
    #[arg(long)]
    pub json: bool,

    /// Started by explore itself after a first query (see docs/code-graph.md): build only
    /// if no other background build holds the repository's lock, print nothing.
    #[arg(long, hide = true)]
    pub background: bool,

    /// Where the graph goes: `embedded` (the local cache only) or `arangodb` (also push it,
    /// incrementally, to a shared ArangoDB; see docs/arangodb.md).
    #[command(flatten)]
    pub store: StoreArgs,
}

/// The graph store and its connection: for `explore index` where the graph is written, for
/// questions and `explore tool code` where it is read.
#[derive(Debug, Args, Clone, Default)]
pub struct StoreArgs {
    /// The code graph's store: `embedded` (the local index, built on first use) or
    /// `arangodb` (a shared ArangoDB filled by `explore index --store arangodb`; see
    /// docs/arangodb.md) [default: embedded].
    #[arg(long, value_enum, env = "EXPLORE_STORE", value_name = "STORE")]
    pub store: Option<StoreKind>,

    /// ArangoDB connection, for --store arangodb.
    #[command(flatten)]
    pub arango: ArangoArgs,
}

/// Where the code graph lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoreKind {
    /// The cache file on this machine.
    Embedded,
    /// A shared ArangoDB database (plus the local cache).
    Arangodb,
}

/// ArangoDB connection settings: flags, else the environment, else defaults.
#[derive(Args, Clone, Default)]
pub struct ArangoArgs {
    /// ArangoDB URL [default: http://localhost:8529].
    #[arg(
        long,
        hide_short_help = true,
        env = "EXPLORE_ARANGO_URL",
        value_name = "URL"
    )]
    pub arango_url: Option<String>,

    /// ArangoDB user [default: root].
    #[arg(
        long,
        hide_short_help = true,
        env = "EXPLORE_ARANGO_USER",
        value_name = "USER"
    )]
    pub arango_user: Option<String>,

    /// ArangoDB password (prefer the environment variable; never printed).
    #[arg(
        long,
        env = "EXPLORE_ARANGO_PASSWORD",
        value_name = "PASSWORD",
        hide_env_values = true,
        hide_short_help = true
    )]
    pub arango_password: Option<String>,

    /// ArangoDB database [default: explore].
    #[arg(
        long,
        hide_short_help = true,
        env = "EXPLORE_ARANGO_DB",
        value_name = "DB"
    )]
    pub arango_db: Option<String>,

    /// The id the repository's graph is stored under [default: the repository's directory
    /// name].
    #[arg(long, hide_short_help = true, value_name = "ID")]
    pub arango_repo: Option<String>,

    /// Create the ArangoDB database if it does not exist.
    #[arg(long, hide_short_help = true)]
    pub create_db: bool,
}

// By hand: the password must never reach a log or a debug print.
impl std::fmt::Debug for ArangoArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArangoArgs")
            .field("arango_url", &self.arango_url)
            .field("arango_user", &self.arango_user)
            .field(
                "arango_password",
                &self.arango_password.as_ref().map(|_| "<redacted>"),
            )
            .field("arango_db", &self.arango_db)
            .field("arango_repo", &self.arango_repo)
            .field("create_db", &self.create_db)
            .finish()
    }
}

/// `explore eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A suite file, or a directory searched recursively for suites (`*.toml` with
    /// `[suite]` or `[[case]]`; `fixtures/`, `target/` and hidden directories skipped).
    #[arg(value_name = "SUITE|DIR")]
    pub target: PathBuf,

    /// The engine for every case (default: each suite's `engine`, else local); `auto`
    /// answers locally when the local answer is certain and asks the model otherwise.
    #[arg(long, value_enum)]
    pub engine: Option<Engine>,

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

/// `explore config`.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `explore completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
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

    /// Print JSON: with --list, the tools and schemas; with a call,
    /// `{"ok": bool, "text": "<what the model sees>", "detail": <the typed answer or null>}`.
    #[arg(long)]
    pub json: bool,

    /// Which graph the `code` tool queries.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// A hint for a command line clap refused whose first word is a command's name followed
/// by more words (`explore config loading`, `explore help me find the planner`): most
/// likely a question, which needs quotes or `--` to be read as one.
pub fn question_hint(argv: &[std::ffi::OsString]) -> Option<String> {
    let words: Vec<&str> = argv.iter().skip(1).filter_map(|a| a.to_str()).collect();
    // The first word that is neither an option nor an option's value (`-C DIR`).
    let cli = Cli::command();
    let takes_value = |w: &str| {
        cli.get_arguments().any(|a| {
            a.get_action().takes_values()
                && (a.get_long().is_some_and(|l| w == format!("--{l}"))
                    || a.get_short().is_some_and(|c| w == format!("-{c}")))
        })
    };
    let mut first = None;
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if !w.starts_with('-') {
            first = Some(i);
            break;
        }
        i += if takes_value(w) { 2 } else { 1 };
    }
    let first = first?;
    let command = words[first];
    let rest = &words[first + 1..];
    let is_command = command == "help" || cli.get_subcommands().any(|c| c.get_name() == command);
    if !is_command || rest.is_empty() {
        return None;
    }
    let question = words[first..].join(" ");
    Some(format!(
        "hint: `{command}` is a command. To ask a question that starts with it, quote the \
         question or put `--` before it:\n  explore \"{question}\"\n  explore -- {question}"
    ))
}

#[cfg(test)]
mod hint_tests {
    use super::*;

    fn hint(line: &str) -> Option<String> {
        let argv: Vec<std::ffi::OsString> = line.split(' ').map(Into::into).collect();
        question_hint(&argv)
    }

    #[test]
    fn a_question_starting_with_a_command_gets_a_hint() {
        assert_eq!(
            hint("explore config loading").unwrap(),
            "hint: `config` is a command. To ask a question that starts with it, quote the question or put `--` before it:\n  explore \"config loading\"\n  explore -- config loading"
        );
        assert!(hint("explore -q help me find the planner").is_some());
        assert!(hint("explore -C relay --format human index the planner").is_some());
        assert_eq!(hint("explore config"), None);
        assert_eq!(hint("explore where is Plan"), None);
    }
}
