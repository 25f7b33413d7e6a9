//! `explore`: answers questions about a code repository with the exact files and lines.
//!
//! `main` reads top-down: parse the command line, set up logging, run the command, exit
//! with its status. Each command lives in `commands/<verb>.rs`.

mod background;
mod cache;
mod cli;
mod commands;
mod eval;
mod guard;
mod logging;
mod mcp;
mod output;
mod progress;
mod settings;
mod store;
mod treealloc;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc for every Rust allocation: a cold `explore index` allocates and frees millions
/// of small facts, terms and tree nodes on two threads, where glibc's malloc, free and
/// `malloc_consolidate` took about a fifth of the CPU (docs/performance.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    treealloc::install();
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let args = match cli::Cli::try_parse_from(&argv) {
        Ok(args) => args,
        Err(err) => {
            let _ = err.print();
            if err.use_stderr()
                && let Some(hint) = cli::question_hint(&argv)
            {
                anstream::eprintln!("\n{hint}");
            }
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    logging::init(args.global.verbose, args.global.quiet);
    match commands::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            anstream::eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
