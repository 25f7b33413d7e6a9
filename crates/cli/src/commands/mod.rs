//! One module per command; [`run`] dispatches.

mod ask;
mod completions;
mod config;
mod engine;
mod eval;
mod index;
mod mcp;
mod tool;

pub(crate) use engine::{explore_with, run_config};

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use explore_tools::RepoRoot;

use crate::cli::{AskArgs, Cli, Command, ConfigArgs, Format, GlobalArgs};
use crate::settings::{self, ProcessEnv, Source, Sourced};

/// Runs the parsed command line and returns the process exit status.
pub fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Some(Command::Tool(args)) => tool::run(&cli.global, args),
        Some(Command::Index(args)) => index::run(&cli.global, &args),
        Some(Command::Eval(args)) => eval::run(&cli.global, args),
        Some(Command::Config(ref args)) => config::run(&effective_settings(&cli)?, args),
        Some(Command::Completions(args)) => completions::run(&args),
        Some(Command::Mcp) => mcp::run(&cli.global, cli.ask),
        None if cli.ask.print_config => {
            let args = ConfigArgs {
                json: cli.ask.json || cli.ask.format == Some(Format::Json),
            };
            config::run(&effective_settings(&cli)?, &args)
        }
        None => ask::run(&cli.global, &cli.ask, &cli.query),
    }
}

/// The settings a question runs with (flags, the environment, the configuration files),
/// their warnings logged, and the repository they name, opened.
pub fn run_settings(global: &GlobalArgs, args: &AskArgs) -> Result<(settings::Settings, RepoRoot)> {
    let repo = repo_sourced(global.repo.as_deref())?;
    guard(&repo.value, global)?;
    let settings = settings::resolve(
        args,
        repo,
        &ProcessEnv,
        settings::user_file_path(&ProcessEnv),
    )?;
    for warning in &settings.warnings {
        tracing::warn!("{warning}");
    }
    let root = RepoRoot::new(&settings.repo.value).with_context(|| {
        format!(
            "cannot open the repository `{}`",
            settings.repo.value.display()
        )
    })?;
    Ok((settings, root))
}

/// The merged settings for `explore config` and `--print-config`.
fn effective_settings(cli: &Cli) -> Result<settings::Settings> {
    let repo = repo_sourced(cli.global.repo.as_deref())?;
    settings::resolve(
        &cli.ask,
        repo,
        &ProcessEnv,
        settings::user_file_path(&ProcessEnv),
    )
}

/// [`repo_dir`] with where the answer came from, for `explore config`.
pub fn repo_sourced(explicit: Option<&Path>) -> Result<Sourced<PathBuf>> {
    let dir = repo_dir(explicit)?;
    let source = match explicit {
        Some(_) => Source::Flag("-C/--repo"),
        None if dir.join(".git").exists() => {
            Source::Derived("git top-level of the working directory".into())
        }
        None => Source::Derived("working directory".into()),
    };
    Ok(Sourced { value: dir, source })
}

/// The repository to work on: `-C DIR`, else the git top-level of the working directory,
/// else the working directory.
pub fn repo_dir(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = explicit {
        if !dir.is_dir() {
            bail!(
                "repository `{}` does not exist or is not a directory",
                dir.display()
            );
        }
        return Ok(dir.to_path_buf());
    }
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    Ok(git_toplevel(&cwd).unwrap_or(cwd))
}

/// [`crate::guard::check`] of the repository a command is about to read.
pub fn guard(dir: &Path, global: &crate::cli::GlobalArgs) -> Result<()> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    crate::guard::check(dir, home.as_deref(), global.any_dir)
}

/// The nearest ancestor holding `.git`, found without running git (a hostile repo's git
/// config must not run anything just because explore started there).
fn git_toplevel(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}
