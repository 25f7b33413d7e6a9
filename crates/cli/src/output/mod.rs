//! How a run is shown on stdout: one [`Printer`] per `--format`, after codex's
//! `EventProcessor`. A printer is an [`EventSink`] (JSONL streams events as they come;
//! the others ignore them) and prints the final result with [`Printer::finish`].
//!
//! stdout carries the result and nothing else: progress and logs go to stderr.

mod human;
mod json;
mod jsonl;

use std::io::{self, Write};

use explore_agent::{EventSink, ExploreResult};

pub use human::{HumanPrinter, HumanStyle, render as render_human};
pub use json::JsonPrinter;
pub use jsonl::JsonlPrinter;

use crate::cli::Format;

/// Shows a run on stdout.
pub trait Printer: EventSink {
    /// Prints the final result, unless the event stream already carried it.
    fn finish(&self, result: &ExploreResult) -> io::Result<()>;
}

/// The printer for `format`, writing to stdout.
pub fn printer(format: Format, style: HumanStyle) -> Box<dyn Printer> {
    match format {
        Format::Human => Box::new(HumanPrinter::new(style)),
        Format::Json => Box::new(JsonPrinter),
        Format::Jsonl => Box::new(JsonlPrinter::default()),
    }
}

/// `println!` for command output: through [`write_stdout`], so `explore … | head` ends
/// quietly instead of panicking on the closed pipe. Needs a `Result` whose error takes an
/// `io::Error`.
macro_rules! outln {
    () => {
        $crate::output::write_stdout("\n")?
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(&format!("{}\n", format_args!($($arg)*)))?
    };
}

/// `print!` through [`write_stdout`]; see [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(&format!($($arg)*))?
    };
}

pub(crate) use {out, outln};

/// Writes `text` to stdout and flushes; a closed pipe (`explore … | head`) is not an
/// error worth a message, so `BrokenPipe` is swallowed.
pub(crate) fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
