//! `explore`: answers questions about a code repository with the exact files and lines.
//!
//! `main` reads top-down: parse the command line, set up logging, run the command, exit
//! with its status. Each command lives in `commands/<verb>.rs`.

mod background;
mod cache;
mod cli;
mod commands;
mod eval;
mod logging;
mod mcp;
mod output;
mod progress;
mod settings;
mod store;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    logging::init(args.global.verbose, args.global.quiet);
    match commands::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            anstream::eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
