//! One module per command; [`run`] dispatches.

mod eval;
mod tool;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::cli::{Cli, Command};

/// Runs the parsed command line and returns the process exit status.
pub fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Some(Command::Tool(args)) => tool::run(&cli.global, args),
        Some(Command::Eval(args)) => eval::run(&cli.global, args),
        None => {
            if cli.query.is_empty() {
                bail!(
                    "no question given; try `explore \"where is main defined\"` or `explore --help`"
                );
            }
            bail!("answering questions is not available in this build yet; use `explore tool`")
        }
    }
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

/// The nearest ancestor holding `.git`, found without running git (a hostile repo's git
/// config must not run anything just because explore started there).
fn git_toplevel(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}
