//! Logs go to stderr through tracing-subscriber, never to stdout (stdout is the result).
//!
//! `RUST_LOG` wins when set; otherwise `-v` shows explore's info logs, `-vv` debug and `-vvv`
//! trace, and `-q` silences everything but errors.

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
        .with_writer(std::io::stderr)
        .with_ansi(
            std::env::var_os("NO_COLOR").is_none()
                && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        )
        .with_target(false)
        .try_init();
}
