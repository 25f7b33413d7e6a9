//! A one-line spinner on stderr while a run goes: what the agent is doing now (tool and
//! short arguments), the turn, tokens spent of the budget, elapsed time.
//!
//! Shown only when stderr is a terminal and `-q` is not given; a CI log or a redirected
//! stderr gets nothing from here (logs still go through tracing).

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use explore_agent::{Event, EventSink};
use explore_tools::ToolName;
use explore_tools::code::progress::{self as index_progress, Phase, Snapshot};
use explore_tools::display::escape_for_display;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The progress line on screen, if any, for [`suspended`].
static ACTIVE: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Runs `f` (a write to stderr) with the progress line hidden, then redraws it.
pub fn suspended<R>(f: impl FnOnce() -> R) -> R {
    let bar = ACTIVE.lock().ok().and_then(|g| g.clone());
    match bar {
        Some(bar) => bar.suspend(f),
        None => f(),
    }
}

fn set_active(bar: Option<ProgressBar>) {
    if bar.is_some() {
        clear_on_interrupt();
    }
    if let Ok(mut g) = ACTIVE.lock() {
        *g = bar;
    }
}

/// Ctrl-C while the progress line is up: clear it, say so, exit 130 (the shell's code for
/// SIGINT). Without this the half-drawn spinner line stays on the terminal. Installed with
/// the first progress line, so a run without one keeps the default SIGINT behaviour.
fn clear_on_interrupt() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
        else {
            return;
        };
        // Registered here, before the line is drawn, so a quick Ctrl-C is caught too.
        let Ok(mut interrupt) = rt.block_on(async {
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
        }) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("interrupt".into())
            .spawn(move || {
                if rt.block_on(interrupt.recv()).is_some() {
                    if let Some(bar) = ACTIVE.lock().ok().and_then(|g| g.clone()) {
                        bar.finish_and_clear();
                    }
                    let mut err = std::io::stderr().lock();
                    let _ = std::io::Write::write_all(&mut err, b"\r\x1b[2Kinterrupted\n");
                    drop(err);
                    std::process::exit(130);
                }
            });
    });
}

/// The CLI's one spinner line: on stderr (see [`ShortLines`]), ticking, registered as the
/// line [`suspended`] hides and Ctrl-C clears. Call only when stderr is a terminal.
pub fn spinner(message: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        None,
        ProgressDrawTarget::term_like_with_hz(Box::new(ShortLines), 20),
    );
    let style = ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(100));
    bar.set_message(message.to_string());
    set_active(Some(bar.clone()));
    bar
}

/// Clears a [`spinner`] line for good.
pub fn clear(bar: &ProgressBar) {
    set_active(None);
    bar.finish_and_clear();
}

/// stderr as indicatif's terminal, two columns narrower than it is: indicatif pads the
/// line to the width, and a full-width line makes the terminal's `^C` echo wrap onto a
/// new line, leaving the spinner above it after Ctrl-C.
#[derive(Debug)]
struct ShortLines;

impl ShortLines {
    fn put(s: &str) -> std::io::Result<()> {
        use std::io::Write;
        let mut err = std::io::stderr().lock();
        err.write_all(s.as_bytes())
    }

    /// The cursor `n` cells in `direction` (CSI A up, B down, C right, D left).
    fn moved(n: usize, direction: char) -> std::io::Result<()> {
        if n == 0 {
            Ok(())
        } else {
            Self::put(&format!("\x1b[{n}{direction}"))
        }
    }
}

impl indicatif::TermLike for ShortLines {
    fn width(&self) -> u16 {
        terminal_size::terminal_size_of(std::io::stderr())
            .map_or(80, |(w, _)| w.0)
            .saturating_sub(2)
            .max(20)
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        Self::moved(n, 'A')
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        Self::moved(n, 'B')
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        Self::moved(n, 'C')
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        Self::moved(n, 'D')
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        Self::put(&format!("{s}\n"))
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        Self::put(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Self::put("\r\x1b[2K")
    }
    fn flush(&self) -> std::io::Result<()> {
        use std::io::Write;
        std::io::stderr().flush()
    }
}

/// Tees events to several sinks (e.g. the progress line and a JSONL printer).
pub struct Tee<'a>(pub Vec<&'a dyn EventSink>);

impl EventSink for Tee<'_> {
    fn emit(&self, event: &Event) {
        for sink in &self.0 {
            sink.emit(event);
        }
    }
}

#[derive(Debug, Default)]
struct State {
    /// The local engine: no model, so no turns, tokens or "thinking" to show.
    local: bool,
    turn: u32,
    tokens: u64,
    budget: u64,
    doing: String,
    /// The index build under way, shown first: the first question on a large repository
    /// waits on it for seconds.
    indexing: Option<Snapshot>,
}

/// The progress line.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    state: Arc<Mutex<State>>,
    _watch: Option<IndexWatch>,
}

impl Progress {
    /// A spinner on stderr, or `None` when stderr is not a terminal or `quiet`.
    pub fn for_stderr(quiet: bool) -> Option<Self> {
        if quiet || !std::io::stderr().is_terminal() {
            return None;
        }
        let bar = spinner("starting");
        let state = Arc::new(Mutex::new(State::default()));
        let watch = {
            let (bar, state) = (bar.clone(), state.clone());
            IndexWatch::start(move |snap| {
                if bar.is_finished() {
                    return;
                }
                if let Ok(mut s) = state.lock()
                    && s.indexing != snap
                {
                    s.indexing = snap;
                    bar.set_message(Self::render(&s));
                }
            })
        };
        Some(Progress {
            bar,
            state,
            _watch: Some(watch),
        })
    }

    fn render(state: &State) -> String {
        let mut parts = Vec::new();
        if let Some(snap) = &state.indexing {
            parts.push(indexing(snap));
        }
        if state.turn > 0 && !state.local {
            parts.push(format!("turn {}", state.turn));
        }
        if state.budget > 0 && !state.local {
            parts.push(format!(
                "{} of {} tokens",
                compact(state.tokens),
                compact(state.budget)
            ));
        }
        // "local engine starting" says nothing while the index is being built.
        let idle_start = state.doing.ends_with("engine starting") && state.indexing.is_some();
        if !state.doing.is_empty() && !idle_start {
            parts.push(state.doing.clone());
        }
        parts.join(" · ")
    }

    /// Clears the line (also done on drop).
    pub fn finish(&self) {
        clear(&self.bar);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

impl EventSink for Progress {
    fn emit(&self, event: &Event) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        match event {
            Event::Start { budget, engine, .. } => {
                state.budget = *budget;
                state.local = engine == "local";
                state.doing = format!("{engine} engine starting");
            }
            Event::Turn { turn } => {
                state.turn = *turn;
                if !state.local {
                    state.doing = "thinking".into();
                }
            }
            Event::ToolCall { tool, args, turn } => {
                state.turn = *turn;
                state.doing = short_call(tool, args);
            }
            Event::ToolResult { .. } => {}
            Event::Usage { usage } => {
                state.tokens = usage.total_tokens;
                state.budget = usage.budget;
            }
            Event::Notice { message, .. } => {
                self.bar
                    .println(format!("note: {}", one_line(message, 160)));
            }
            Event::Final { .. } => {
                drop(state);
                self.finish();
                return;
            }
        }
        self.bar.set_message(Self::render(&state));
    }
}

/// How often the index build's counts are read.
const WATCH_EVERY: Duration = Duration::from_millis(150);
/// A build shown only once it has run this long: refreshing a warm index takes a moment
/// and is not worth a flicker.
const WATCH_AFTER: Duration = Duration::from_millis(400);

/// Reports the index build's progress to a callback (`None` when no build has run for
/// [`WATCH_AFTER`]) from a thread, until dropped.
#[derive(Debug)]
pub struct IndexWatch {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl IndexWatch {
    /// Starts watching.
    pub fn start(report: impl Fn(Option<Snapshot>) + Send + 'static) -> IndexWatch {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let mut since: Option<std::time::Instant> = None;
            while !flag.load(Ordering::Relaxed) {
                let snap = index_progress::snapshot();
                let shown = if snap.phase == Phase::Idle {
                    since = None;
                    None
                } else {
                    let start = *since.get_or_insert_with(std::time::Instant::now);
                    (start.elapsed() >= WATCH_AFTER).then_some(snap)
                };
                report(shown);
                std::thread::sleep(WATCH_EVERY);
            }
        });
        IndexWatch {
            stop,
            handle: Some(handle),
        }
    }
}

impl Drop for IndexWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// `indexing, first run only: parsing 1234 of 5000 files`.
pub fn indexing(snap: &Snapshot) -> String {
    let what = match snap.phase {
        Phase::Parsing => format!("parsing {} of {} files", snap.done, snap.total),
        Phase::Linking | Phase::Saving => {
            format!("{} ({} files)", snap.phase.as_str(), snap.total)
        }
        phase => phase.as_str().to_string(),
    };
    format!("indexing, first run only: {what}")
}

/// `code callers Plan`, `read internal/x.go:40`, `bash rg -n retry`, … at most ~60 chars.
pub fn short_call(tool: &str, args: &serde_json::Value) -> String {
    let s = |k: &str| args.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let detail = match ToolName::parse(tool) {
        Some(ToolName::Code) => format!("{} {}", s("operation"), s("symbol")),
        Some(ToolName::Read) => match args.get("start_line").and_then(|v| v.as_u64()) {
            Some(line) => format!("{}:{line}", s("file")),
            None => s("file").to_string(),
        },
        Some(ToolName::Tree) => match s("path") {
            "" => ".".to_string(),
            p => p.to_string(),
        },
        Some(ToolName::Bash) => s("command").to_string(),
        None if tool == explore_agent::specs::SUBMIT => "writing the answer".to_string(),
        None => args.to_string(),
    };
    one_line(&format!("{tool} {}", detail.trim()), 60)
}

/// First line of `s`, escaped as the tools escape text ([`escape_for_display`]: a
/// model may copy a file's bidi override or ESC into a tool argument), cut to `max`
/// characters with `…`.
fn one_line(s: &str, max: usize) -> String {
    let line = escape_for_display(s.lines().next().unwrap_or_default());
    if line.chars().count() <= max {
        line
    } else {
        let cut: String = line.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}

/// `950`, `12.3k`, `60k`.
fn compact(n: u64) -> String {
    if n < 1000 {
        n.to_string()
    } else if n.is_multiple_of(1000) {
        format!("{}k", n / 1000)
    } else {
        format!("{:.1}k", n as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A tool argument with a bidi override or an ESC sequence (copied from a hostile
    /// file) shows as escapes on the progress line, as the tools show them.
    #[test]
    fn progress_line_escapes_hidden_characters_in_arguments() {
        let line = short_call(
            "code",
            &json!({"operation": "find", "symbol": "is\u{202e}Admin\x1b[2J"}),
        );
        assert_eq!(line, "code find is\\u{202e}Admin\\u{001b}[2J");
    }

    #[test]
    fn calls_are_shown_short() {
        assert_eq!(
            short_call("code", &json!({"operation":"callers","symbol":"Plan"})),
            "code callers Plan"
        );
        assert_eq!(
            short_call("read", &json!({"file":"a/b.go","start_line":40})),
            "read a/b.go:40"
        );
        assert_eq!(short_call("tree", &json!({})), "tree .");
        assert_eq!(
            short_call(
                "bash",
                &json!({"command": "rg -n 'retry' --type go internal/ cmd/ pkg/ | head -50\nrm"})
            ),
            "bash rg -n 'retry' --type go internal/ cmd/ pkg/ | head -50"
        );
        assert_eq!(
            short_call("bash", &json!({"command": "x".repeat(100)}))
                .chars()
                .count(),
            60
        );
    }

    #[test]
    fn token_counts_are_compact() {
        assert_eq!(compact(950), "950");
        assert_eq!(compact(60_000), "60k");
        assert_eq!(compact(12_345), "12.3k");
    }

    #[test]
    fn state_renders_turn_tokens_and_activity() {
        let mut state = State {
            local: false,
            turn: 3,
            tokens: 1234,
            budget: 60_000,
            doing: "code callers Plan".into(),
            indexing: None,
        };
        assert_eq!(
            Progress::render(&state),
            "turn 3 · 1.2k of 60k tokens · code callers Plan"
        );
        state.indexing = Some(Snapshot {
            phase: Phase::Parsing,
            done: 1234,
            total: 5000,
        });
        assert_eq!(
            Progress::render(&state),
            "indexing, first run only: parsing 1234 of 5000 files · turn 3 · 1.2k of 60k tokens · code callers Plan"
        );
    }

    #[test]
    fn the_local_engine_shows_only_what_it_does() {
        let p = |events: &[Event]| {
            let progress = Progress {
                bar: ProgressBar::hidden(),
                state: Arc::new(Mutex::new(State::default())),
                _watch: None,
            };
            for e in events {
                progress.emit(e);
            }
            Progress::render(&progress.state.lock().unwrap())
        };
        let start = Event::Start {
            query: "who calls Plan".into(),
            engine: "local".into(),
            budget: 60_000,
        };
        let call = Event::ToolCall {
            tool: "code".into(),
            args: json!({"operation": "callers", "symbol": "Plan"}),
            turn: 1,
        };
        assert_eq!(p(std::slice::from_ref(&start)), "local engine starting");
        assert_eq!(
            p(&[start.clone(), call, Event::Turn { turn: 2 }]),
            "code callers Plan"
        );
    }
}
