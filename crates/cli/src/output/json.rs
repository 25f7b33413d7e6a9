//! `--format json`: the contract's result document, pretty-printed, once at the end.

use std::io;

use explore_agent::{Event, EventSink, ExploreResult};

use super::{Printer, write_stdout};

/// Prints the result document and nothing else.
#[derive(Debug, Default, Clone, Copy)]
pub struct JsonPrinter;

impl EventSink for JsonPrinter {
    fn emit(&self, _event: &Event) {}
}

impl Printer for JsonPrinter {
    fn finish(&self, result: &ExploreResult) -> io::Result<()> {
        let mut text = serde_json::to_string_pretty(result).map_err(io::Error::other)?;
        text.push('\n');
        write_stdout(&text)
    }
}
