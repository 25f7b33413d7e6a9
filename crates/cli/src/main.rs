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

use std::process::ExitCode;

use clap::Parser;

/// mimalloc for every Rust allocation: a cold `explore index` allocates and frees millions
/// of small facts, terms and tree nodes on two threads, where glibc's malloc, free and
/// `malloc_consolidate` took about a fifth of the CPU (docs/performance.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[allow(unsafe_code)]
unsafe extern "C" {
    fn mi_malloc(size: usize) -> *mut std::ffi::c_void;
    fn mi_calloc(count: usize, size: usize) -> *mut std::ffi::c_void;
    fn mi_realloc(p: *mut std::ffi::c_void, size: usize) -> *mut std::ffi::c_void;
    fn mi_free(p: *mut std::ffi::c_void);
}

/// Tree-sitter's C allocations (every node of every parse tree) through mimalloc too.
/// Before anything else: a tree allocated by one allocator must be freed by it.
#[allow(unsafe_code)]
fn tree_sitter_allocator() {
    // SAFETY: called first in `main`, before any parser, tree or query exists and before
    // any other thread starts; the four functions are mimalloc's, a matching set.
    unsafe {
        tree_sitter::set_allocator(
            Some(mi_malloc),
            Some(mi_calloc),
            Some(mi_realloc),
            Some(mi_free),
        );
    }
}

fn main() -> ExitCode {
    tree_sitter_allocator();
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
