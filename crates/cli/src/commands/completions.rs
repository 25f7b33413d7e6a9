//! `explore completions <SHELL>`: the completion script, generated from the same clap
//! definition the binary parses with, so it never drifts from the real options.

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};

/// Prints the completion script for the shell to stdout.
pub fn run(args: &CompletionsArgs) -> Result<u8> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "explore", &mut out);
    crate::output::write_stdout(&String::from_utf8_lossy(&out))?;
    Ok(0)
}
