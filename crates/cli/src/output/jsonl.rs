//! `--format jsonl`: one JSON object per line as the run goes (`start`, `turn`,
//! `tool_call`, `tool_result`, `usage`, `notice`, and `final` with the result document),
//! flushed line by line so `jq` or a CI log sees each event when it happens.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use explore_agent::{Event, EventSink, ExploreResult};

use super::{Printer, write_stdout};

/// Streams events as JSON Lines.
#[derive(Debug, Default)]
pub struct JsonlPrinter {
    /// Set once the `final` event went out, so [`Printer::finish`] does not repeat it.
    final_sent: AtomicBool,
}

impl JsonlPrinter {
    fn line(event: &Event) -> io::Result<()> {
        let mut text = serde_json::to_string(event).map_err(io::Error::other)?;
        text.push('\n');
        write_stdout(&text)
    }
}

impl EventSink for JsonlPrinter {
    fn emit(&self, event: &Event) {
        if matches!(event, Event::Final { .. }) {
            self.final_sent.store(true, Ordering::SeqCst);
        }
        if let Err(err) = Self::line(event) {
            tracing::error!("cannot write to stdout: {err}");
        }
    }
}

impl Printer for JsonlPrinter {
    fn finish(&self, result: &ExploreResult) -> io::Result<()> {
        if self.final_sent.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        Self::line(&Event::Final {
            result: Box::new(result.clone()),
        })
    }
}
