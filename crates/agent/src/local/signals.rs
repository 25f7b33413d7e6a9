//! The strong signals of a pasted report (issue 13, "long, noisy questions"): a traceback
//! names the files and functions the failure went through, a title names its subject, a
//! backticked or CamelCase name in the prose says what the reporter is talking about.
//! Bag-of-words ranking weighs these like any other word, so the module every report's
//! sample code imports (`tomlkit.parse(…)`, `jinja2.Environment(…)`) wins; these hints
//! lift the files the report actually points at.
//!
//! Only long questions carry hints (several lines, or many words): in a one-line question
//! a name is the symbol intent's business, and a title is the whole question.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::classify::PathClass;
use super::query::is_identifier_like;
use super::rank::{Corpus, LexIndex};

/// A question with at least this many lines, or [`REPORT_WORDS`] words, is a report.
const REPORT_LINES: usize = 3;
const REPORT_WORDS: usize = 30;

/// What a hint points at, as the report wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A file path or a path suffix (`jinja2/compiler.py`, `container.py`).
    Path(String),
    /// An identifier, possibly dotted (`Node.__hash__`, `OutOfOrderTableProxy`).
    Name(String),
    /// The message of a raised error (`AssertionError: Tried to resolve a name …`), looked
    /// up as text in the source: the code that raises it is where it failed.
    Message(String),
    /// A message a short question quotes ("why do I get 'for loops are not allowed at the
    /// top level'"), looked up in the string literals of the project's own code: unlike a
    /// report's raised error it may be the asker's paraphrase, which a comment or a test
    /// says as well as the code that emits it.
    Quoted(String),
    /// A command-line option (`--cache-show`), looked up as a string literal in the
    /// project's own code: the file that registers it handles it.
    Option(String),
    /// A kebab-case key the report quotes (`no-member`, "undefined-loop-variable"): a
    /// message, rule or setting name, looked up as a string literal in the project's own
    /// code; the file that spells it is the one that emits or reads it.
    Keyword(String),
}

/// Where in the report a hint was found; the source sets its weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The innermost traceback frame in the repository (where it failed).
    InnermostFrame,
    /// Another traceback frame.
    Frame,
    /// A path written in the text (`container.py:187`, `src/app/views.py`).
    Mention,
    /// A link to a file of a code host (`https://github.com/o/r/blob/<ref>/pkg/x.py#L851`):
    /// the reporter points at the code. Only a link whose whole path is a file of the
    /// repository counts: reports link other projects' files too.
    Link,
    /// A Python module the report's code imports by a dotted path
    /// (`from transitions.extensions.nesting import HierarchicalMachine`): the module the
    /// reporter works with, below the package's entry point.
    Import,
    /// An error message some source file spells out.
    Raised,
    /// A command-line option some source file registers.
    CommandOption,
    /// A kebab-case key some source file spells as a string literal.
    Keyword,
    /// A name in the report's first line.
    Title,
    /// A name in backticks in the prose.
    Backticked,
    /// A CamelCase, snake_case or dotted name in the prose.
    Prose,
}

impl Source {
    /// How much one hint of this source adds to a file's score (before it is shared among
    /// the files it could mean).
    pub fn weight(self) -> f64 {
        match self {
            Source::InnermostFrame => 1.0,
            Source::Frame => 0.4,
            Source::Mention => 0.8,
            Source::Link => 1.0,
            Source::Import => 0.4,
            Source::Raised => 0.8,
            Source::CommandOption => 0.8,
            Source::Keyword => 0.8,
            Source::Title => 0.7,
            Source::Backticked => 0.4,
            Source::Prose => 0.25,
        }
    }
}

/// One hint.
#[derive(Debug, Clone, PartialEq)]
pub struct Hint {
    /// What it points at.
    pub target: Target,
    /// Where it was found.
    pub source: Source,
}

/// Compiles a constant pattern: the unit tests compile each one, so it cannot fail here.
#[allow(
    clippy::expect_used,
    reason = "constant patterns, compiled by the tests"
)]
pub(super) fn pattern(re: &str) -> Regex {
    Regex::new(re).expect("a constant pattern")
}

/// `File "…/jinja2/compiler.py", line 1234, in visit_Name`.
static PY_FRAME: LazyLock<Regex> =
    LazyLock::new(|| pattern(r#"File "([^"]+)", line (\d+)(?:, in ([A-Za-z_][A-Za-z0-9_<>]*))?"#));

/// A Go stack frame's location line: `\t/home/u/src/app/server.go:42 +0x1d`.
static GO_FRAME: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"^\s+(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$"));

/// A JavaScript or TypeScript stack frame: `at Router.handle (/app/src/router.js:10:5)`.
static JS_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"\bat (?:([\w.$<>]+) )?\(?([^\s()]+\.(?:js|mjs|cjs|jsx|ts|tsx)):(\d+):(\d+)\)?")
});

/// The frames of a Go panic or stack dump, innermost first, each with the function named
/// on the line before its location (`pkg.(*Server).Serve(…)` → `Serve`).
fn go_frames(text: &str) -> Vec<(String, Option<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(c) = GO_FRAME.captures(line) {
            let func = i
                .checked_sub(1)
                .map(|j| lines[j].trim())
                .and_then(|prev| prev.rfind('(').map(|open| &prev[..open]))
                .filter(|f| !f.is_empty() && !f.contains(' '))
                .map(leaf);
            out.push((c[1].to_string(), func));
        }
    }
    out
}

/// The last component of a qualified function name: `pkg.(*Server).Serve` → `Serve`,
/// `Object.handle` → `handle`.
fn leaf(qualified: &str) -> String {
    qualified
        .rsplit('.')
        .next()
        .unwrap_or(qualified)
        .trim_matches(|c: char| c == '(' || c == ')' || c == '*')
        .to_string()
}

/// A source path, optionally with a line: `container.py:187`, `/go/src/x/y.go:42`.
static PATH: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?:^|[\s(`'\x22\[])((?:[\w.-]+/)*[\w-]+\.(?:py|go|ts|tsx|js|jsx|mjs|cjs|rs|java|rb))(?::(\d+))?\b",
    )
});

/// A link to a file on a code host: GitHub's and Gitea's `/<owner>/<repo>/blob/<ref>/<path>`
/// (`tree`, `raw` and `src` too), GitLab's `/-/blob/`; group 1 is the path, without the
/// line anchor or query.
static LINK: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"https?://[\w.-]+/[\w.-]+/[\w.-]+/(?:-/)?(?:blob|tree|raw|src)/[\w.-]+/([^\s#?)\]>'\x22`]+)",
    )
});

/// A Python import of a dotted module path: `from a.b.c import X` or `import a.b.c`;
/// group 1 or 2 is the path (a relative `from .x import` has no package to place it).
static PY_IMPORT: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"^\s*(?:>>>\s*)?(?:from\s+([A-Za-z_]\w*(?:\.\w+)+)\s+import\b|import\s+([A-Za-z_]\w*(?:\.\w+)+))",
    )
});

/// `ValueError: year 52383 is out of range`, `pkg.errors.ParseError: …`, `panic: …`.
static RAISED: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"^\s*(?:[\w.]+\.)?(?:[A-Z]\w*(?:Error|Exception|Warning|Failure)|panic):\s+(.{12,})$")
});

/// A long command-line option as a report writes it (`pytest --cache-show --help`,
/// `` `--doctest-modules` ``), not a markdown rule (`---`) or a diff line.
static OPTION: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?:^|[\s(`'\x22\[=])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\b"));

/// Options every command has: they name no file in particular.
const COMMON_OPTIONS: &[&str] = &["help", "version", "verbose", "quiet", "debug"];

/// Whether a question is a pasted report rather than a question: several lines, or many
/// words.
pub fn is_report(question: &str) -> bool {
    let lines = question.lines().filter(|l| !l.trim().is_empty()).count();
    lines >= REPORT_LINES || question.split_whitespace().count() >= REPORT_WORDS
}

/// The hints of `question`, strongest first; empty for a short question.
pub fn of(question: &str) -> Vec<Hint> {
    if !is_report(question) {
        // A short question's names that can only be names (`globalState`, `_globalL`,
        // `zap.Error`) point at their definitions, as a title's do; a message it quotes
        // ("why do I get 'for loops are not allowed at the top level'") at the code that
        // spells it, as a report's raised error does (a quote too short for a
        // [`message_windows`] piece finds nothing).
        let names = names_in(question).into_iter().map(|(name, _)| Hint {
            target: Target::Name(name),
            source: Source::Title,
        });
        let messages = super::body::quoted(question).into_iter().map(|m| Hint {
            target: Target::Quoted(m),
            source: Source::Raised,
        });
        return names.chain(messages).collect();
    }
    let lines: Vec<&str> = question.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut hints = Vec::new();
    // Stack frames, innermost first (Python prints it last; Go and JavaScript first). The
    // first frame in the repository weighs most: see `bonuses`.
    let mut frames: Vec<(String, Option<String>)> = PY_FRAME
        .captures_iter(question)
        .map(|c| (c[1].to_string(), c.get(3).map(|m| m.as_str().to_string())))
        .collect();
    frames.reverse();
    frames.extend(go_frames(question));
    frames.extend(
        JS_FRAME
            .captures_iter(question)
            .map(|c| (c[2].to_string(), c.get(1).map(|m| leaf(m.as_str())))),
    );
    for (path, func) in frames {
        hints.push(Hint {
            target: Target::Path(path),
            source: Source::Frame,
        });
        if let Some(f) = func.filter(|f| !f.starts_with('<') && !f.is_empty()) {
            hints.push(Hint {
                target: Target::Name(f),
                source: Source::Frame,
            });
        }
    }
    let mut fenced = false;
    for (n, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        // Options anywhere, code blocks included: that is where commands are written.
        for c in OPTION.captures_iter(line) {
            let name = c[1].to_string();
            if !COMMON_OPTIONS.contains(&name.as_str()) {
                hints.push(Hint {
                    target: Target::Option(name),
                    source: Source::CommandOption,
                });
            }
        }
        // Keys anywhere too: a linter's output block names its message (`(no-member)`).
        for key in keywords_in(line) {
            hints.push(Hint {
                target: Target::Keyword(key),
                source: Source::Keyword,
            });
        }
        if let Some(c) = RAISED.captures(line) {
            hints.push(Hint {
                target: Target::Message(c[1].trim().to_string()),
                source: Source::Raised,
            });
        }
        // A module imported by its dotted path is a file of the package when one is
        // named so (`a/b/c.py`; a package's `__init__.py` is its entry point, not this).
        if let Some(c) = PY_IMPORT.captures(line)
            && let Some(m) = c.get(1).or_else(|| c.get(2))
        {
            hints.push(Hint {
                target: Target::Path(format!("{}.py", m.as_str().replace('.', "/"))),
                source: Source::Import,
            });
        }
        for c in LINK.captures_iter(line) {
            hints.push(Hint {
                target: Target::Path(c[1].trim_end_matches('.').to_string()),
                source: Source::Link,
            });
        }
        // Paths written anywhere (a frame's path was taken above).
        if !PY_FRAME.is_match(line) {
            for c in PATH.captures_iter(line) {
                hints.push(Hint {
                    target: Target::Path(c[1].to_string()),
                    source: Source::Mention,
                });
            }
        }
        // Code is the reporter's setup: it calls the package's entry points, which say
        // little about where the fault is. Names count from the prose.
        if fenced || trimmed.starts_with(">>>") || trimmed.starts_with("...") {
            continue;
        }
        for (name, backticked) in names_in(line) {
            let source = if n == 0 {
                Source::Title
            } else if backticked {
                Source::Backticked
            } else {
                Source::Prose
            };
            hints.push(Hint {
                target: Target::Name(name),
                source,
            });
        }
    }
    hints
}

/// The identifiers of a prose line: backticked spans (their identifier-shaped words),
/// and outside them words that can only be names (CamelCase, snake_case, dotted).
fn names_in(line: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (i, part) in line.split('`').enumerate() {
        let backticked = i % 2 == 1;
        for raw in part.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '"' | '\'')) {
            let word = raw
                .trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'))
                .trim_end_matches("()");
            let word = word.split('(').next().unwrap_or(word);
            if word.len() < 3
                || !word
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                || word.starts_with(|c: char| c.is_ascii_digit())
                || word.contains("..")
            {
                continue;
            }
            // A file name is a path (taken above), not a symbol.
            if PATH.is_match(&format!(" {word}")) {
                continue;
            }
            // Outside backticks a capitalised word is prose ("Hello", "Python"); a name
            // needs an inner capital, an underscore or a dot.
            let shaped = word.contains(['_', '.'])
                || word.chars().skip(1).any(char::is_uppercase)
                    && word.chars().any(char::is_lowercase);
            if (backticked && is_identifier_like(word)) || shaped {
                out.push((word.to_string(), backticked));
            }
        }
    }
    out
}

/// The kebab-case words of a line (`no-member`, `undefined-loop-variable`): lower-case
/// letters and digits in two or more hyphenated parts, not an option (`--x-y`, taken
/// above) nor part of a path or URL (`pylint-dev/pylint`).
fn keywords_in(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for raw in line.split_whitespace() {
        if raw.contains(['/', '\\', '=', '@']) {
            continue;
        }
        let word = raw.trim_matches(|c: char| "()[]{}<>`'\",.:;!?*".contains(c));
        let mut parts = word.split('-');
        let well_formed = parts.next().is_some_and(|first| {
            first.starts_with(|c: char| c.is_ascii_lowercase())
                && first
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        }) && word.contains('-')
            && parts.all(|p| {
                !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            });
        if well_formed && !out.iter().any(|k| k == word) {
            out.push(word.to_string());
        }
    }
    out
}

/// Most files a name may define and still point somewhere: a name defined in more
/// places (`__init__`, `get`) says nothing.
const MAX_DEFINING_FILES: usize = 4;

/// The bonus each file of `corpus` gets from `hints`, and the symbols the hints named in
/// it (to cite first). A hint that could mean several files shares its weight among them.
/// `read` gives a file's text, for error messages (read only when the report has one).
pub fn bonuses(
    index: &LexIndex,
    hints: &[Hint],
    read: &mut dyn FnMut(&str) -> Option<String>,
) -> Vec<(usize, f64, Vec<usize>)> {
    let spelled = files_spelling(index, hints, read);
    let mut by_file: std::collections::BTreeMap<usize, (f64, Vec<usize>)> = Default::default();
    let mut seen: Vec<&Target> = Vec::new();
    // Frames come innermost first; the first one in the repository is where it failed.
    let mut innermost_taken = false;
    for h in hints {
        // A name said three times in the prose is one hint (its strongest mention).
        if seen.contains(&&h.target) {
            continue;
        }
        seen.push(&h.target);
        match &h.target {
            Target::Path(p) => {
                // A link or an import names the whole path; its last parts alone may be
                // another project's (`django/core/files/storage.py`).
                let files = if matches!(h.source, Source::Link | Source::Import) {
                    files_at_path(index.files(), p)
                } else {
                    files_for_path(index.files(), p)
                };
                if files.is_empty() {
                    continue;
                }
                let source = if h.source == Source::Frame && !innermost_taken {
                    innermost_taken = true;
                    Source::InnermostFrame
                } else {
                    h.source
                };
                let share = source.weight() / files.len() as f64;
                for f in files {
                    by_file.entry(f).or_default().0 += share;
                }
            }
            Target::Message(_) | Target::Quoted(_) | Target::Option(_) | Target::Keyword(_) => {
                let files = spelled.get(&h.target).cloned().unwrap_or_default();
                if files.is_empty() || files.len() > MAX_DEFINING_FILES {
                    continue;
                }
                tracing::debug!(
                    "report signal: {:?} -> {:?}",
                    h.target,
                    files.iter().map(|&f| &index.files()[f]).collect::<Vec<_>>()
                );
                let share = h.source.weight() / files.len() as f64;
                for f in files {
                    by_file.entry(f).or_default().0 += share;
                }
            }
            Target::Name(n) => {
                let corpus = index.corpus();
                let syms = symbols_named(corpus, n);
                let mut files: Vec<usize> =
                    syms.iter().map(|&si| corpus.symbols[si].file).collect();
                files.sort_unstable();
                files.dedup();
                if files.is_empty() || files.len() > MAX_DEFINING_FILES {
                    continue;
                }
                let share = h.source.weight() / files.len() as f64;
                tracing::debug!(
                    "report signal: name {n} ({:?}) -> {:?}",
                    h.source,
                    files.iter().map(|&f| &index.files()[f]).collect::<Vec<_>>()
                );
                for f in files {
                    let e = by_file.entry(f).or_default();
                    e.0 += share;
                    e.1.extend(
                        syms.iter()
                            .copied()
                            .filter(|&si| corpus.symbols[si].file == f),
                    );
                }
            }
        }
    }
    by_file
        .into_iter()
        .map(|(f, (bonus, syms))| (f, bonus, syms))
        .collect()
}

/// What a text target is looked up as in the source.
enum Needles {
    /// Pieces of an error message ([`message_windows`]), any file.
    Message(Vec<String>),
    /// Pieces of a quoted message, inside a string literal of the project's own code.
    Quoted(Vec<String>),
    /// An option registered as a string literal: "--cache-show" (Python, JavaScript,
    /// Java, Rust's clap), or "cache-show" in Go's flag packages; only in the project's
    /// own code (a test that passes the option registers nothing).
    Option { dashed: [String; 2], bare: String },
    /// A key spelled as a whole string literal ("no-member" or 'no-member'), in the
    /// project's own code.
    Literal([String; 2]),
}

impl Needles {
    fn of(target: &Target) -> Option<Needles> {
        match target {
            Target::Message(m) => {
                let windows = message_windows(m);
                (!windows.is_empty()).then_some(Needles::Message(windows))
            }
            Target::Quoted(m) => {
                let windows = message_windows(m);
                (!windows.is_empty()).then_some(Needles::Quoted(windows))
            }
            Target::Option(o) => Some(Needles::Option {
                dashed: [format!("\"--{o}\""), format!("'--{o}'")],
                bare: format!("\"{o}\""),
            }),
            Target::Keyword(k) => Some(Needles::Literal([format!("\"{k}\""), format!("'{k}'")])),
            Target::Path(_) | Target::Name(_) => None,
        }
    }

    fn found(&self, path: &str, class: &PathClass, text: &str) -> bool {
        let has = |n: &str| memchr::memmem::find(text.as_bytes(), n.as_bytes()).is_some();
        match self {
            Needles::Message(windows) => windows.iter().any(|w| has(w)),
            Needles::Quoted(windows) => {
                !class.test && !class.sample && windows.iter().any(|w| in_string_literal(text, w))
            }
            Needles::Option { dashed, bare } => {
                !class.test
                    && !class.sample
                    && (dashed.iter().any(|d| has(d)) || (path.ends_with(".go") && has(bare)))
            }
            Needles::Literal(quoted) => {
                !class.test && !class.sample && !class.config && quoted.iter().any(|q| has(q))
            }
        }
    }
}

/// The files that spell out each message and option of `hints`, every file read once
/// however many there are (nothing is read when there are none).
fn files_spelling<'h>(
    index: &LexIndex,
    hints: &'h [Hint],
    read: &mut dyn FnMut(&str) -> Option<String>,
) -> HashMap<&'h Target, Vec<usize>> {
    let mut targets: Vec<(&Target, Needles)> = Vec::new();
    for h in hints {
        if !targets.iter().any(|(t, _)| *t == &h.target)
            && let Some(n) = Needles::of(&h.target)
        {
            targets.push((&h.target, n));
        }
    }
    let mut out: HashMap<&Target, Vec<usize>> = HashMap::new();
    if targets.is_empty() {
        return out;
    }
    for (f, path) in index.files().iter().enumerate() {
        let Some(text) = read(path) else { continue };
        let class = index.class_of(f);
        for (t, needles) in &targets {
            if needles.found(path, &class, &text) {
                out.entry(*t).or_default().push(f);
            }
        }
    }
    out
}

/// Whether `needle` occurs in `text` inside a string literal: after an odd number of
/// one kind of quote (`"`, `'` or `` ` ``) on its line, and not after a line comment's
/// marker. A literal that spans lines (a Python docstring, a Go raw string) is not seen;
/// messages are written on one line.
fn in_string_literal(text: &str, needle: &str) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), needle.as_bytes()).any(|at| {
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[start..at];
        let quotes = |q: char| before.chars().filter(|&c| c == q).count() % 2 == 1;
        let open = quotes('"') || quotes('\'') || quotes('`');
        let trimmed = before.trim_start();
        let commented = ["//", "#", "/*", "*", "--"]
            .iter()
            .any(|m| trimmed.starts_with(m));
        open && !commented
    })
}

/// Runs of four plain words of an error message, the pieces a format string keeps
/// whatever values were put between them ("Tried to resolve a", "to resolve a name", …;
/// a message split over two literals still matches in each half).
fn message_windows(message: &str) -> Vec<String> {
    let mut runs: Vec<Vec<&str>> = vec![Vec::new()];
    for raw in message.split_whitespace() {
        let word = raw.trim_end_matches([',', '.', ':', ';']);
        let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphabetic() || c == '-');
        if plain && let Some(run) = runs.last_mut() {
            run.push(word);
        }
        // A value ('x', 52383) or punctuation ends a run.
        if !plain || word.len() != raw.len() {
            runs.push(Vec::new());
        }
    }
    let mut out = Vec::new();
    for run in runs {
        for win in run.windows(4) {
            // "where it is not" is in some comment of every project: a piece of the
            // message says what it is about only with two words that mean something.
            let meaningful = win
                .iter()
                .filter(|w| !super::text::is_stopword(&w.to_lowercase()))
                .count();
            if meaningful < 2 {
                continue;
            }
            let text = win.join(" ");
            if text.len() >= 12 && !out.contains(&text) {
                out.push(text);
            }
        }
    }
    out
}

/// The files a written path means: those whose path ends with its longest suffix that
/// any file has, on component boundaries, down to the file name
/// (`/usr/lib/python3/site-packages/jinja2/compiler.py` → `src/jinja2/compiler.py`).
fn files_for_path(files: &[String], written: &str) -> Vec<usize> {
    let norm = written.replace('\\', "/");
    let parts: Vec<&str> = norm
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    for start in 0..parts.len() {
        let suffix = parts[start..].join("/");
        let components = parts.len() - start;
        // A file name alone matches only a file at the top, or a path written bare: a
        // frame in `/usr/lib/python3/json/decoder.py` is not the repository's
        // `pkg/decoder.py`.
        let hits: Vec<usize> = files
            .iter()
            .enumerate()
            .filter(|(_, f)| *f == &suffix || f.ends_with(&format!("/{suffix}")))
            .filter(|(_, f)| components >= 2 || parts.len() == 1 || !f.contains('/'))
            .map(|(i, _)| i)
            .collect();
        if !hits.is_empty() {
            return hits;
        }
    }
    Vec::new()
}

/// The files whose path is `written` whole: the repository's own (`pkg/x.py`) or, in a
/// tree that holds it under a directory, `…/pkg/x.py` (`src/pkg/x.py`); never a shorter
/// suffix, which a link into another project, or an import of another package, would
/// match by chance (`tests/test_writer.py`, `files/storage.py` of `django.core.files`).
fn files_at_path(files: &[String], written: &str) -> Vec<usize> {
    let written = written.trim_matches('/');
    if !written.contains('/') {
        return Vec::new();
    }
    let under = format!("/{written}");
    files
        .iter()
        .enumerate()
        .filter(|(_, f)| *f == written || f.ends_with(&under))
        .map(|(i, _)| i)
        .collect()
}

/// The symbols a written name means: its qualified form (`Node.__hash__`) when some
/// symbol has it, else its last component, matched exactly, narrowed by the qualifiers
/// written before it ([`narrowed_by_qualifiers`]).
fn symbols_named(corpus: &Corpus, written: &str) -> Vec<usize> {
    let qualified: Vec<usize> = (0..corpus.symbols.len())
        .filter(|&si| {
            let d = &corpus.symbols[si].display;
            d == written || d.ends_with(&format!(".{written}"))
        })
        .collect();
    if !qualified.is_empty() || !written.contains('.') {
        return qualified;
    }
    let leaf = written.rsplit('.').next().unwrap_or(written);
    let all: Vec<usize> = (0..corpus.symbols.len())
        .filter(|&si| corpus.symbols[si].name == leaf)
        .collect();
    narrowed_by_qualifiers(corpus, written, all)
}

/// Of the symbols a dotted name's last component names, those whose file path or
/// enclosing names carry the most of the qualifiers written before it: `testing.
/// assert_allclose` is `xarray/testing/assertions.py`'s, not the test suite's helper of
/// the same name; `np.core.defchararray`'s `core` narrows as `core/` does. A qualifier
/// that matches nothing (an import alias, `xr`, `np`) narrows nothing, and the result is
/// never empty when `symbols` is not.
fn narrowed_by_qualifiers(corpus: &Corpus, written: &str, symbols: Vec<usize>) -> Vec<usize> {
    let parts: Vec<String> = written.split('.').map(str::to_lowercase).collect();
    let Some((_, qualifiers)) = parts.split_last() else {
        return symbols;
    };
    if qualifiers.is_empty() || symbols.len() < 2 {
        return symbols;
    }
    let carried = |si: usize| -> usize {
        let sym = &corpus.symbols[si];
        let path = corpus.files[sym.file].to_lowercase();
        let stem = path.rsplit_once('.').map_or(path.as_str(), |(s, _)| s);
        let mut words: Vec<&str> = stem.split('/').collect();
        let display = sym.display.to_lowercase();
        words.extend(display.split('.'));
        qualifiers
            .iter()
            .filter(|q| words.contains(&q.as_str()))
            .count()
    };
    let counts: Vec<usize> = symbols.iter().map(|&si| carried(si)).collect();
    let best = counts.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return symbols;
    }
    symbols
        .into_iter()
        .zip(counts)
        .filter(|&(_, c)| c == best)
        .map(|(si, _)| si)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local::rank::SymbolInfo;

    fn corpus() -> Corpus {
        let sym = |name: &str, display: &str, file: usize, line: u32| SymbolInfo {
            name: name.into(),
            display: display.into(),
            kind: "method".into(),
            file,
            line,
            end_line: line + 5,
            doc: String::new(),
        };
        Corpus {
            files: vec![
                "src/pkg/api.py".into(),
                "src/pkg/compiler.py".into(),
                "src/pkg/nodes.py".into(),
                "tests/test_nodes.py".into(),
            ],
            symbols: vec![
                sym("parse", "parse", 0, 10),
                sym("visit_Name", "CodeGenerator.visit_Name", 1, 40),
                sym("__hash__", "Node.__hash__", 2, 70),
                sym("__hash__", "Other.__hash__", 1, 90),
            ],
            edges: vec![],
        }
    }

    #[test]
    fn error_messages_match_their_format_string_in_pieces() {
        assert_eq!(
            message_windows("Tried to resolve a name ('x') to a reference"),
            vec!["Tried to resolve a", "to resolve a name"]
        );
        assert_eq!(
            message_windows("The 'yourapp' package was not installed in a way"),
            vec!["package was not installed", "installed in a way"]
        );
        // No piece of only one meaningful word: "where it is not" is in any comment.
        assert_eq!(
            message_windows("cannot access local variable 'x' where it is not associated"),
            vec!["cannot access local variable"]
        );
        let report = "It fails\n\nwith\n```\nValueError: The 'yourapp' package was not installed in a way\n```\n";
        let c = corpus();
        let b = bonuses(&LexIndex::build(c.clone()), &of(report), &mut |p| {
            (p == "src/pkg/api.py").then(|| {
                "raise ValueError(f\"The {x!r} package was not installed in a way that\")"
                    .to_string()
            })
        });
        assert_eq!(b.len(), 1);
        assert_eq!((b[0].0, b[0].1), (0, 0.8));
    }

    #[test]
    fn a_short_questions_quoted_message_points_at_the_literal_that_spells_it() {
        let question = "where is the 'required flag was not specified' error produced";
        let c = corpus();
        let b = bonuses(
            &LexIndex::build(c.clone()),
            &of(question),
            &mut |p| match p {
                "src/pkg/api.py" => Some("msg = \"the required flag was not specified\"".into()),
                // A comment paraphrases it; a test asserts it: neither emits it.
                "src/pkg/nodes.py" => Some("# ErrRequired: a required flag was not given\n".into()),
                "tests/test_nodes.py" => Some("check(\"required flag was not specified\")".into()),
                _ => Some(String::new()),
            },
        );
        assert_eq!(b.len(), 1, "{b:?}");
        assert_eq!((b[0].0, b[0].1), (0, Source::Raised.weight()));
        assert!(in_string_literal("x = f(\"a b c d\")", "a b c d"));
        assert!(!in_string_literal("// \"a b c d\"", "a b c d"));
        assert!(!in_string_literal("a b c d", "a b c d"));
    }

    #[test]
    fn a_command_line_option_points_at_the_file_registering_it() {
        let report = "--cache-show --help crashes\n\nRunning\n```\n$ pytest --cache-show --help\n```\nfails; `--lf` too. ---\n";
        let options: Vec<String> = of(report)
            .into_iter()
            .filter_map(|h| match h.target {
                Target::Option(o) => Some(o),
                _ => None,
            })
            .collect();
        // `--help` is every command's; a markdown rule is no option.
        assert_eq!(options, ["cache-show", "cache-show", "lf"]);
        let c = corpus();
        let b = bonuses(&LexIndex::build(c.clone()), &of(report), &mut |p| match p {
            "src/pkg/api.py" => {
                Some("parser.addoption(\"--cache-show\", action=\"store_true\")".into())
            }
            // A test that passes the option registers nothing.
            "tests/test_nodes.py" => Some("run(\"--cache-show\")".into()),
            _ => Some(String::new()),
        });
        assert_eq!(b.len(), 1, "{b:?}");
        assert_eq!((b[0].0, b[0].1), (0, Source::CommandOption.weight()));
    }

    #[test]
    fn a_quoted_kebab_case_key_points_at_the_file_spelling_it() {
        let report = "False positive `no-member` on decorated methods\n\nSee https://github.com/pylint-dev/pylint/issues/1 and --no-docstring-rgx.\n```\na.py:3:0: E1101: Instance has no member (no-member)\n```\nA built-in, I expected \"undefined-loop-variable\".\n";
        let keys: Vec<String> = of(report)
            .into_iter()
            .filter_map(|h| match h.target {
                Target::Keyword(k) => Some(k),
                _ => None,
            })
            .collect();
        // Not a URL's `pylint-dev`, not an option; the output block's key counts.
        assert_eq!(
            keys,
            [
                "no-member",
                "no-member",
                "built-in",
                "undefined-loop-variable"
            ]
        );
        let c = corpus();
        let b = bonuses(&LexIndex::build(c.clone()), &of(report), &mut |p| match p {
            "src/pkg/api.py" => Some("msgs = {\"E1101\": (\"%s\", 'no-member', \"…\")}".into()),
            // A test that names the key is no checker of it.
            "tests/test_nodes.py" => Some("expect(\"no-member\")".into()),
            _ => Some(String::new()),
        });
        assert_eq!(b.len(), 1, "{b:?}");
        assert_eq!((b[0].0, b[0].1), (0, Source::Keyword.weight()));
    }

    #[test]
    fn a_dotted_names_qualifiers_narrow_its_definitions() {
        let sym = |name: &str, display: &str, file: usize| SymbolInfo {
            name: name.into(),
            display: display.into(),
            kind: "function".into(),
            file,
            line: 1,
            end_line: 2,
            doc: String::new(),
        };
        let c = Corpus {
            files: vec![
                "xarray/testing/assertions.py".into(),
                "xarray/tests/__init__.py".into(),
                "xarray/core/formatting.py".into(),
            ],
            symbols: vec![
                sym("assert_allclose", "assert_allclose", 0),
                sym("assert_allclose", "assert_allclose", 1),
                sym("diff", "Formatter.diff", 2),
                sym("diff", "diff", 0),
            ],
            edges: vec![],
        };
        // The module word picks the file; an alias (`xr`) narrows nothing.
        assert_eq!(symbols_named(&c, "testing.assert_allclose"), vec![0]);
        assert_eq!(symbols_named(&c, "xr.testing.assert_allclose"), vec![0]);
        // A class qualifier picks the method.
        assert_eq!(symbols_named(&c, "Formatter.diff"), vec![2]);
        // Qualifiers that match nothing keep every definition.
        assert_eq!(symbols_named(&c, "np.assert_allclose"), vec![0, 1]);
        assert_eq!(symbols_named(&c, "assert_allclose"), vec![0, 1]);
    }

    #[test]
    fn go_and_javascript_frames_innermost_first() {
        let go = "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\n\
            example.com/app/pkg.(*Server).Serve(0xc000010000)\n\
            \t/home/u/src/app/pkg/server.go:42 +0x1d\n\
            main.main()\n\
            \t/home/u/src/app/main.go:12 +0x25\n";
        let targets: Vec<Target> = of(go)
            .into_iter()
            .filter(|h| h.source == Source::Frame)
            .map(|h| h.target)
            .collect();
        assert_eq!(
            targets,
            vec![
                Target::Path("/home/u/src/app/pkg/server.go".into()),
                Target::Name("Serve".into()),
                Target::Path("/home/u/src/app/main.go".into()),
                Target::Name("main".into()),
            ]
        );
        let js = "TypeError: cannot read properties of undefined (reading 'id')\n    at Router.handle (/srv/app/src/router.js:10:5)\n    at /srv/app/src/index.js:3:1\n";
        let targets: Vec<Target> = of(js)
            .into_iter()
            .filter(|h| h.source == Source::Frame)
            .map(|h| h.target)
            .collect();
        assert_eq!(
            targets,
            vec![
                Target::Path("/srv/app/src/router.js".into()),
                Target::Name("handle".into()),
                Target::Path("/srv/app/src/index.js".into()),
            ]
        );
    }

    #[test]
    fn the_first_frame_in_the_repository_weighs_most_and_bare_names_need_a_folder() {
        let c = corpus();
        // The stdlib frame is innermost but not in the repository: `json/nodes.py` is not
        // `src/pkg/nodes.py`.
        let report = "boom\n\nTraceback (most recent call last):\n  \
            File \"/venv/site-packages/pkg/api.py\", line 3, in go\n  \
            File \"/usr/lib/python3/json/nodes.py\", line 9, in load\nValueError: x\n";
        let b = bonuses(&LexIndex::build(c.clone()), &of(report), &mut |_| None);
        let get = |f: usize| b.iter().find(|x| x.0 == f).map(|x| x.1);
        assert_eq!(get(0), Some(1.0));
        assert_eq!(get(2), None);
    }

    #[test]
    fn a_one_line_question_has_only_its_names() {
        assert_eq!(
            of("why does Node.__hash__ raise on parsed input"),
            vec![Hint {
                target: Target::Name("Node.__hash__".into()),
                source: Source::Title,
            }]
        );
        assert!(of("where does mobx create its state object").is_empty());
    }

    #[test]
    fn traceback_frames_title_and_prose_names() {
        let report = "Node.__hash__ raises on parsed input\n\
            I tried `pkg.parse` and got:\n\
            ```\n\
            Traceback (most recent call last):\n  \
              File \"repro.py\", line 3, in <module>\n  \
              File \"/venv/lib/site-packages/pkg/compiler.py\", line 41, in visit_Name\n\
            ValueError: boom\n\
            ```\n\
            The FooBar helper in nodes.py looks wrong.";
        let hints = of(report);
        let want = |t: Target, s: Source| Hint {
            target: t,
            source: s,
        };
        assert_eq!(
            hints,
            vec![
                want(
                    Target::Path("/venv/lib/site-packages/pkg/compiler.py".into()),
                    Source::Frame
                ),
                want(Target::Name("visit_Name".into()), Source::Frame),
                want(Target::Path("repro.py".into()), Source::Frame),
                want(Target::Name("Node.__hash__".into()), Source::Title),
                want(Target::Name("pkg.parse".into()), Source::Backticked),
                want(Target::Path("nodes.py".into()), Source::Mention),
                want(Target::Name("FooBar".into()), Source::Prose),
            ]
        );
        let c = corpus();
        let b = bonuses(&LexIndex::build(c.clone()), &hints, &mut |_| None);
        // compiler.py: the innermost frame (1.0) and its function (0.4); nodes.py: the
        // title's Node.__hash__ (0.7) and the mention (0.8); repro.py is not in the repo;
        // api.py: `pkg.parse` (0.4).
        let get = |f: usize| {
            b.iter()
                .find(|x| x.0 == f)
                .map(|x| (x.1 * 100.0).round() / 100.0)
        };
        assert_eq!(get(1), Some(1.4));
        assert_eq!(get(2), Some(1.5));
        assert_eq!(get(0), Some(0.4));
        assert_eq!(get(3), None);
        let nodes = b.iter().find(|x| x.0 == 2).unwrap();
        assert_eq!(nodes.2, vec![2]);
    }

    #[test]
    fn a_link_to_a_file_of_the_repository_points_at_it() {
        let report = "trigger() raises AttributeError, not MachineError\n\
            This is due to the try/except in https://github.com/o/pkg/blob/c2755e/src/pkg/compiler.py#L851-L852\n\
            and the same as https://github.com/o/other/blob/master/tests/test_nodes.py#L3 in another project,\n\
            see also https://gitlab.com/o/pkg/-/blob/main/pkg/nodes.py?ref_type=heads.";
        let hints = of(report);
        let links: Vec<&Target> = hints
            .iter()
            .filter(|h| h.source == Source::Link)
            .map(|h| &h.target)
            .collect();
        assert_eq!(
            links,
            vec![
                &Target::Path("src/pkg/compiler.py".into()),
                &Target::Path("tests/test_nodes.py".into()),
                &Target::Path("pkg/nodes.py".into()),
            ]
        );
        let b = bonuses(&LexIndex::build(corpus()), &hints, &mut |_| None);
        let get = |f: usize| b.iter().find(|x| x.0 == f).map(|x| x.1);
        // compiler.py by its whole path, nodes.py under `src/`.
        assert!(get(1).is_some_and(|w| w >= 1.0), "{b:?}");
        assert!(get(2).is_some_and(|w| w >= 1.0), "{b:?}");
        // The other project's `tests/test_nodes.py` is this one's too, by its whole path;
        // a shorter suffix never counts.
        assert_eq!(
            files_at_path(&corpus().files, "other/tests/test_nodes.py"),
            Vec::<usize>::new()
        );
        assert_eq!(
            files_at_path(&corpus().files, "compiler.py"),
            Vec::<usize>::new()
        );
    }

    #[test]
    fn a_module_imported_by_its_dotted_path_is_a_hint() {
        let report = "Adding children later loses their transitions\n\
            ```python\n\
            from pkg.compiler import CodeGenerator\n\
            import pkg.nodes as n\n\
            from . import helpers\n\
            from pkg import api\n\
            ```\n\
            It raises AttributeError.";
        let imports: Vec<Target> = of(report)
            .into_iter()
            .filter(|h| h.source == Source::Import)
            .map(|h| h.target)
            .collect();
        assert_eq!(
            imports,
            vec![
                Target::Path("pkg/compiler.py".into()),
                Target::Path("pkg/nodes.py".into()),
            ]
        );
        let b = bonuses(&LexIndex::build(corpus()), &of(report), &mut |_| None);
        assert!(b.iter().any(|x| x.0 == 1 && x.1 > 0.0), "{b:?}");
        // Another package's module shares only its last parts with this one's.
        let other = "Saving fails\n```\nfrom django.pkg.nodes import Node\n```\nIt raises.";
        let hints: Vec<Hint> = of(other)
            .into_iter()
            .filter(|h| h.source == Source::Import)
            .collect();
        assert_eq!(hints.len(), 1);
        let b = bonuses(&LexIndex::build(corpus()), &hints, &mut |_| None);
        assert!(b.is_empty(), "{b:?}");
    }
}
