//! Logs go to stderr through tracing-subscriber, never to stdout (stdout is the result).
//!
//! `RUST_LOG` wins when set; otherwise `-v` shows explore's info logs, `-vv` debug and `-vvv`
//! trace, and `-q` silences everything but errors.
//!
//! While a progress line is on screen, each log line hides it, prints, and redraws it
//! (see [`crate::progress::suspended`]), so logs and the spinner never share a line.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber.
pub fn init(verbose: u8, quiet: bool) {
    let default = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "warn,explore_cli=info,explore_agent=info,explore_tools=info",
        (false, 2) => "info,explore_cli=debug,explore_agent=debug,explore_tools=debug",
        (false, _) => "debug,explore_cli=trace,explore_agent=trace,explore_tools=trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| SuspendingStderr)
        .with_ansi(
            std::env::var_os("NO_COLOR").is_none()
                && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        )
        .with_target(false);
    // Without -v the warnings are for a person: `warning: …`, no timestamp or level
    // column. With -v they are a log.
    let _ = if verbose == 0 && std::env::var_os("RUST_LOG").is_none() {
        builder.event_format(Plain).try_init()
    } else {
        builder.try_init()
    };
}

/// `warning: the message`: one plain line per event.
struct Plain;

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for Plain
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let level = match *event.metadata().level() {
            tracing::Level::ERROR => "error",
            tracing::Level::WARN => "warning",
            tracing::Level::INFO => "info",
            tracing::Level::DEBUG => "debug",
            tracing::Level::TRACE => "trace",
        };
        write!(writer, "{level}: ")?;
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// stderr, written with the progress line (if any) out of the way.
struct SuspendingStderr;

impl std::io::Write for SuspendingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        crate::progress::suspended(|| std::io::stderr().write(buf))
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        crate::progress::suspended(|| std::io::stderr().write_all(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}
