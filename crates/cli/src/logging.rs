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
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| SuspendingStderr)
        .with_ansi(
            std::env::var_os("NO_COLOR").is_none()
                && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        )
        .with_target(false)
        .try_init();
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
