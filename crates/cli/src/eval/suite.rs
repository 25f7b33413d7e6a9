//! Suite files: what an eval asks and what a correct answer contains.
//!
//! A suite is a TOML file (`docs/evals.md` documents the format) with a `[suite]` table of
//! defaults, an optional `[thresholds]` table, and one `[[case]]` per question. Parsing is
//! strict: an unknown key, a wrong type, an unknown kind or a malformed `path:line` is an
//! error that names the file, the case and the field, because a typo in a CI gate must
//! never silently turn into a case that checks nothing.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use explore_agent::DEFAULT_BUDGET;
use serde::Deserialize;

/// Default rank within which an expected file must appear when a case does not say.
pub const DEFAULT_RANK: usize = 5;
/// Default tolerance, in lines, for an expected `path:line`.
pub const DEFAULT_TOLERANCE: u32 = 2;
/// Default number of returned lines over which line recall is measured.
pub const DEFAULT_LINE_BUDGET: u32 = 200;

/// A malformed suite: which file, which case, which field, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteError {
    /// The suite file.
    pub file: PathBuf,
    /// The case id (or `#N` when the case has no usable id); `None` for suite-level errors.
    pub case: Option<String>,
    /// The field, e.g. `locations[1].at`; `None` when the whole file is unreadable.
    pub field: Option<String>,
    /// What is wrong, and what to write instead.
    pub message: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed suite {}", self.file.display())?;
        if let Some(case) = &self.case {
            write!(f, ": case `{case}`")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SuiteError {}

/// The engine a case runs with (`engine = "local"` or `"llm"` in a suite).
pub use explore_agent::Engine;

/// What kind of question a case asks; scores are also reported per kind.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, serde::Serialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Where is X defined.
    Definition,
    /// Who calls X.
    Callers,
    /// What does X call.
    Callees,
    /// What implements / subclasses X.
    Implementations,
    /// What methods does X have (and which override which).
    Methods,
    /// Where is X used (references, not only calls).
    Usages,
    /// How does A reach B.
    Trace,
    /// A question about a concept rather than a name (webhooks, retry logic).
    Concept,
    /// A question whose honest answer is "not in this repository".
    NotFound,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 9] = [
        Kind::Definition,
        Kind::Callers,
        Kind::Callees,
        Kind::Implementations,
        Kind::Methods,
        Kind::Usages,
        Kind::Trace,
        Kind::Concept,
        Kind::NotFound,
    ];

    /// The name as written in suites and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Definition => "definition",
            Kind::Callers => "callers",
            Kind::Callees => "callees",
            Kind::Implementations => "implementations",
            Kind::Methods => "methods",
            Kind::Usages => "usages",
            Kind::Trace => "trace",
            Kind::Concept => "concept",
            Kind::NotFound => "not_found",
        }
    }

    /// Parses a kind name.
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A file that must appear in `relevant_files`, at or above `rank` (1-based).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ExpectedFile {
    /// Repo-relative path.
    pub path: String,
    /// Worst acceptable rank.
    pub rank: usize,
}

/// A line that some returned location must hit, within `tolerance` lines.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ExpectedLocation {
    /// Repo-relative path.
    pub path: String,
    /// 1-based line.
    pub line: u32,
    /// Lines of slack either side.
    pub tolerance: u32,
}

/// A line range whose lines should be among the returned lines (line recall).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Region {
    /// Repo-relative path.
    pub path: String,
    /// First line, 1-based.
    pub start: u32,
    /// Last line, inclusive.
    pub end: u32,
}

/// What a correct answer contains.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Expect {
    /// Files that must appear, each within its rank.
    pub files: Vec<ExpectedFile>,
    /// Lines that must be hit by a returned location.
    pub locations: Vec<ExpectedLocation>,
    /// Regions measured by line recall (not a pass condition).
    pub regions: Vec<Region>,
    /// Symbols that must be named in `key_symbols` or a location's `symbol`.
    pub symbols: Vec<String>,
    /// Files that may appear but must rank below every expected file (test doubles,
    /// generated or vendored look-alikes).
    pub decoys: Vec<String>,
    /// Substrings the prose answer must contain (case-insensitive).
    pub answer_contains: Vec<String>,
    /// The honest answer is "nothing relevant here".
    pub not_found: bool,
}

/// One question and its expected answer, with every default resolved.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Case {
    /// Unique id across the run; also the transcript file name (`<id>.jsonl`).
    pub id: String,
    /// The suite's name.
    pub suite: String,
    /// The repository the question is about (absolute or relative to the working
    /// directory, resolved from the suite file's directory).
    pub repo: PathBuf,
    /// The question.
    pub query: String,
    /// The question's kind.
    pub kind: Kind,
    /// The engine from the suite or case (the command line may override it).
    pub engine: Option<Engine>,
    /// Token budget.
    pub budget: u64,
    /// Turn limit, when set.
    pub max_turns: Option<u32>,
    /// Returned lines counted for line recall.
    pub line_budget: u32,
    /// What a correct answer contains.
    pub expect: Expect,
    /// Why the case exists (the trap it tests); shown with failures.
    pub note: Option<String>,
}

/// Pass thresholds of a suite.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Minimum fraction of passed cases over the suite.
    pub min_accuracy: Option<f64>,
    /// Minimum fraction of passed cases per kind.
    #[serde(default)]
    pub kinds: BTreeMap<Kind, f64>,
    /// Minimum mean reciprocal rank over cases that expect files.
    pub min_mrr: Option<f64>,
    /// Maximum mean tokens per case.
    pub max_mean_tokens: Option<f64>,
}

/// A parsed suite.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Suite {
    /// The file it came from.
    pub path: PathBuf,
    /// Its name (the `name` key, else the file stem).
    pub name: String,
    /// What it covers.
    pub description: Option<String>,
    /// Skip the suite (with a notice) when its repository is missing, e.g. a third-party
    /// codebase that a fetch script has not downloaded.
    pub skip_if_missing: bool,
    /// Printed with the skip notice: how to get the repository.
    pub fetch_hint: Option<String>,
    /// Pass thresholds.
    pub thresholds: Thresholds,
    /// The cases, in file order.
    pub cases: Vec<Case>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSuiteTable {
    name: Option<String>,
    description: Option<String>,
    repo: Option<String>,
    engine: Option<Engine>,
    budget: Option<u64>,
    max_turns: Option<u32>,
    rank: Option<usize>,
    tolerance: Option<u32>,
    line_budget: Option<u32>,
    #[serde(default)]
    skip_if_missing: bool,
    fetch_hint: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    id: String,
    query: String,
    kind: String,
    repo: Option<String>,
    engine: Option<Engine>,
    budget: Option<u64>,
    max_turns: Option<u32>,
    line_budget: Option<u32>,
    rank: Option<usize>,
    tolerance: Option<u32>,
    #[serde(default)]
    files: Vec<toml::Value>,
    #[serde(default)]
    locations: Vec<toml::Value>,
    #[serde(default)]
    regions: Vec<String>,
    #[serde(default)]
    symbols: Vec<String>,
    #[serde(default)]
    decoys: Vec<String>,
    #[serde(default)]
    answer_contains: Vec<String>,
    note: Option<String>,
}

const TOP_KEYS: [&str; 3] = ["suite", "thresholds", "case"];

/// True when a TOML document looks like a suite (has `[suite]` or `[[case]]`), so a
/// directory can hold other TOML files (a fixture's `pyproject.toml`) without them
/// being read as suites.
pub fn looks_like_suite(text: &str) -> bool {
    match toml::from_str::<toml::Table>(text) {
        Ok(t) => t.contains_key("suite") || t.contains_key("case"),
        // Unparseable: let `parse` report it with the file name.
        Err(_) => true,
    }
}

/// Reads and parses the suite at `path`.
pub fn load(path: &Path) -> Result<Suite, SuiteError> {
    let text = std::fs::read_to_string(path).map_err(|e| SuiteError {
        file: path.to_path_buf(),
        case: None,
        field: None,
        message: format!("cannot read the file: {e}"),
    })?;
    parse(path, &text)
}

/// Parses suite text; `path` names the file in errors and anchors relative repo paths.
pub fn parse(path: &Path, text: &str) -> Result<Suite, SuiteError> {
    let err = |case: Option<String>, field: Option<&str>, message: String| SuiteError {
        file: path.to_path_buf(),
        case,
        field: field.map(str::to_string),
        message,
    };
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        err(
            None,
            None,
            format!("not valid TOML: {}", one_line(&e.to_string())),
        )
    })?;
    for key in table.keys() {
        if !TOP_KEYS.contains(&key.as_str()) {
            return Err(err(
                None,
                Some(key),
                format!(
                    "unknown top-level key; a suite has `[suite]`, `[thresholds]` and `[[case]]` (found `{key}`)"
                ),
            ));
        }
    }
    let raw_suite: RawSuiteTable = match table.get("suite") {
        Some(v) => v
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| err(None, Some("suite"), one_line(e.message())))?,
        None => RawSuiteTable::default(),
    };
    let thresholds: Thresholds = match table.get("thresholds") {
        Some(v) => v
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| err(None, Some("thresholds"), one_line(e.message())))?,
        None => Thresholds::default(),
    };
    check_thresholds(&thresholds).map_err(|(f, m)| err(None, Some(&f), m))?;

    let base = path.parent().unwrap_or(Path::new("."));
    let name = raw_suite.name.clone().unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "suite".to_string())
    });
    let suite_repo = raw_suite.repo.as_deref().map(|r| base.join(r));
    let rank = raw_suite.rank.unwrap_or(DEFAULT_RANK);
    if rank == 0 {
        return Err(err(
            None,
            Some("suite.rank"),
            "rank is 1-based; use 1 or more".into(),
        ));
    }
    let tolerance = raw_suite.tolerance.unwrap_or(DEFAULT_TOLERANCE);
    let line_budget = raw_suite.line_budget.unwrap_or(DEFAULT_LINE_BUDGET);

    let raw_cases = match table.get("case") {
        None => Vec::new(),
        Some(toml::Value::Array(a)) => a.clone(),
        Some(_) => {
            return Err(err(
                None,
                Some("case"),
                "cases are an array of tables: write each one under `[[case]]`".into(),
            ));
        }
    };
    if raw_cases.is_empty() {
        return Err(err(
            None,
            Some("case"),
            "the suite has no `[[case]]`".into(),
        ));
    }

    let mut cases = Vec::with_capacity(raw_cases.len());
    let mut seen = HashSet::new();
    for (i, value) in raw_cases.into_iter().enumerate() {
        let label = value
            .get("id")
            .and_then(toml::Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| format!("#{}", i + 1));
        let cerr = |field: &str, message: String| err(Some(label.clone()), Some(field), message);
        let raw: RawCase = value.try_into().map_err(|e: toml::de::Error| {
            let msg = one_line(e.message());
            let field = field_of_serde_message(&msg).unwrap_or_else(|| "case".to_string());
            err(Some(label.clone()), Some(&field), msg)
        })?;
        if raw.id.is_empty()
            || !raw
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            || raw.id.starts_with('.')
        {
            return Err(cerr(
                "id",
                "ids name transcript files: use letters, digits, `-`, `_` and `.` only".into(),
            ));
        }
        if !seen.insert(raw.id.clone()) {
            return Err(cerr(
                "id",
                "duplicate id; every case id must be unique".into(),
            ));
        }
        if raw.query.trim().is_empty() {
            return Err(cerr("query", "the query is empty".into()));
        }
        let kind = Kind::parse(&raw.kind).ok_or_else(|| {
            cerr(
                "kind",
                format!(
                    "unknown kind `{}`; use one of: {}",
                    raw.kind,
                    Kind::ALL.map(Kind::as_str).join(", ")
                ),
            )
        })?;
        let case_rank = raw.rank.unwrap_or(rank);
        if case_rank == 0 {
            return Err(cerr("rank", "rank is 1-based; use 1 or more".into()));
        }
        let case_tol = raw.tolerance.unwrap_or(tolerance);
        let mut expect = Expect {
            not_found: kind == Kind::NotFound,
            symbols: raw.symbols,
            decoys: raw.decoys.iter().map(|d| normalize_path(d)).collect(),
            answer_contains: raw.answer_contains,
            ..Expect::default()
        };
        for (j, v) in raw.files.iter().enumerate() {
            let f =
                parse_expected_file(v, case_rank).map_err(|m| cerr(&format!("files[{j}]"), m))?;
            expect.files.push(f);
        }
        for (j, v) in raw.locations.iter().enumerate() {
            let l = parse_expected_location(v, case_tol)
                .map_err(|(sub, m)| cerr(&format!("locations[{j}]{sub}"), m))?;
            expect.locations.push(l);
        }
        for (j, r) in raw.regions.iter().enumerate() {
            let region = parse_region(r).map_err(|m| cerr(&format!("regions[{j}]"), m))?;
            expect.regions.push(region);
        }
        if kind == Kind::NotFound {
            if !expect.files.is_empty() || !expect.locations.is_empty() {
                return Err(cerr(
                    "kind",
                    "a `not_found` case expects nothing: remove `files` and `locations`".into(),
                ));
            }
        } else if expect.files.is_empty() && expect.locations.is_empty() {
            return Err(cerr(
                "files",
                "the case checks nothing: give `files` and/or `locations` (or use kind `not_found`)"
                    .into(),
            ));
        }
        let repo = match (&raw.repo, &suite_repo) {
            (Some(r), _) => base.join(r),
            (None, Some(r)) => r.clone(),
            (None, None) => {
                return Err(cerr(
                    "repo",
                    "no repository: set `repo` in `[suite]` or in the case (relative to the suite file)"
                        .into(),
                ));
            }
        };
        cases.push(Case {
            id: raw.id,
            suite: name.clone(),
            repo,
            query: raw.query,
            kind,
            engine: raw.engine.or(raw_suite.engine),
            budget: raw.budget.or(raw_suite.budget).unwrap_or(DEFAULT_BUDGET),
            max_turns: raw.max_turns.or(raw_suite.max_turns),
            line_budget: raw.line_budget.unwrap_or(line_budget),
            expect,
            note: raw.note,
        });
    }
    Ok(Suite {
        path: path.to_path_buf(),
        name,
        description: raw_suite.description,
        skip_if_missing: raw_suite.skip_if_missing,
        fetch_hint: raw_suite.fetch_hint,
        thresholds,
        cases,
    })
}

fn check_thresholds(t: &Thresholds) -> Result<(), (String, String)> {
    let frac = |field: String, v: f64| {
        if (0.0..=1.0).contains(&v) {
            Ok(())
        } else {
            Err((field, format!("{v} is not a fraction between 0 and 1")))
        }
    };
    if let Some(v) = t.min_accuracy {
        frac("thresholds.min_accuracy".into(), v)?;
    }
    if let Some(v) = t.min_mrr {
        frac("thresholds.min_mrr".into(), v)?;
    }
    for (k, v) in &t.kinds {
        frac(format!("thresholds.kinds.{}", k.as_str()), *v)?;
    }
    if let Some(v) = t.max_mean_tokens
        && v < 0.0
    {
        return Err((
            "thresholds.max_mean_tokens".into(),
            format!("{v} is negative"),
        ));
    }
    Ok(())
}

/// serde names the offending field in its messages (`missing field `query``, `unknown
/// field `quary``, `invalid type ... for key `budget``); pull it out so the error names it.
fn field_of_serde_message(msg: &str) -> Option<String> {
    for marker in ["missing field `", "unknown field `", "for key `"] {
        if let Some(start) = msg.find(marker) {
            let rest = &msg[start + marker.len()..];
            if let Some(end) = rest.find('`') {
                return Some(rest[..end].to_string());
            }
        }
    }
    None
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Repo-relative paths are compared textually: `./a/b` and `a/b` are the same file.
pub fn normalize_path(p: &str) -> String {
    let p = p.trim().replace('\\', "/");
    let mut s = p.as_str();
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    s.to_string()
}

fn parse_expected_file(v: &toml::Value, default_rank: usize) -> Result<ExpectedFile, String> {
    match v {
        toml::Value::String(s) if !s.trim().is_empty() => Ok(ExpectedFile {
            path: normalize_path(s),
            rank: default_rank,
        }),
        toml::Value::Table(t) => {
            for k in t.keys() {
                if k != "path" && k != "rank" {
                    return Err(format!(
                        "unknown key `{k}`; a file is \"path\" or {{ path = \"...\", rank = N }}"
                    ));
                }
            }
            let path = t
                .get("path")
                .and_then(toml::Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .ok_or("missing `path` (a repo-relative file path)")?;
            let rank = match t.get("rank") {
                None => default_rank,
                Some(r) => match r.as_integer() {
                    Some(n) if n >= 1 => n as usize,
                    _ => return Err("`rank` must be an integer of 1 or more".into()),
                },
            };
            Ok(ExpectedFile {
                path: normalize_path(path),
                rank,
            })
        }
        _ => Err("expected a path string or a table { path = \"...\", rank = N }".into()),
    }
}

fn parse_expected_location(
    v: &toml::Value,
    default_tol: u32,
) -> Result<ExpectedLocation, (String, String)> {
    let (at, tol) = match v {
        toml::Value::String(s) => (s.as_str(), default_tol),
        toml::Value::Table(t) => {
            for k in t.keys() {
                if k != "at" && k != "tolerance" {
                    return Err((
                        String::new(),
                        format!(
                            "unknown key `{k}`; a location is \"path:line\" or {{ at = \"path:line\", tolerance = N }}"
                        ),
                    ));
                }
            }
            let at = t
                .get("at")
                .and_then(toml::Value::as_str)
                .ok_or((String::new(), "missing `at` (\"path:line\")".to_string()))?;
            let tol = match t.get("tolerance") {
                None => default_tol,
                Some(x) => match x.as_integer() {
                    Some(n) if (0..=1000).contains(&n) => n as u32,
                    _ => {
                        return Err((
                            ".tolerance".into(),
                            "`tolerance` must be an integer from 0 to 1000".into(),
                        ));
                    }
                },
            };
            (at, tol)
        }
        _ => {
            return Err((
                String::new(),
                "expected \"path:line\" or { at = \"path:line\", tolerance = N }".into(),
            ));
        }
    };
    let (path, line) = split_path_line(at).map_err(|m| (".at".to_string(), m))?;
    Ok(ExpectedLocation {
        path,
        line,
        tolerance: tol,
    })
}

fn split_path_line(at: &str) -> Result<(String, u32), String> {
    let (path, line) = at
        .rsplit_once(':')
        .ok_or_else(|| format!("`{at}` is not `path:line`"))?;
    let line: u32 = line
        .parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("`{at}`: the line must be a number of 1 or more"))?;
    if path.trim().is_empty() {
        return Err(format!("`{at}`: the path is empty"));
    }
    Ok((normalize_path(path), line))
}

fn parse_region(s: &str) -> Result<Region, String> {
    let (path, range) = s
        .rsplit_once(':')
        .ok_or_else(|| format!("`{s}` is not `path:start-end`"))?;
    let (a, b) = range.split_once('-').unwrap_or((range, range));
    let start: u32 = a
        .parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("`{s}`: the start line must be a number of 1 or more"))?;
    let end: u32 = b
        .parse()
        .ok()
        .ok_or_else(|| format!("`{s}`: the end line must be a number"))?;
    if end < start {
        return Err(format!("`{s}`: the end line is before the start line"));
    }
    if path.trim().is_empty() {
        return Err(format!("`{s}`: the path is empty"));
    }
    Ok(Region {
        path: normalize_path(path),
        start,
        end,
    })
}

/// The suite files named by `target`: the file itself, or every suite under a directory
/// (recursively, sorted; hidden directories, `target/` and `fixtures/` are skipped, and
/// TOML files that are not suites are ignored).
pub fn discover(target: &Path) -> Result<Vec<PathBuf>, SuiteError> {
    if target.is_file() {
        return Ok(vec![target.to_path_buf()]);
    }
    if !target.is_dir() {
        return Err(SuiteError {
            file: target.to_path_buf(),
            case: None,
            field: None,
            message: "no such suite file or directory".into(),
        });
    }
    let mut out = Vec::new();
    walk(target, &mut out)?;
    out.sort();
    if out.is_empty() {
        return Err(SuiteError {
            file: target.to_path_buf(),
            case: None,
            field: None,
            message: "the directory holds no suite (`*.toml` with `[suite]` or `[[case]]`)".into(),
        });
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), SuiteError> {
    let entries = std::fs::read_dir(dir).map_err(|e| SuiteError {
        file: dir.to_path_buf(),
        case: None,
        field: None,
        message: format!("cannot list the directory: {e}"),
    })?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(ft) = entry.file_type() else { continue };
        if ft.is_dir() {
            if name.starts_with('.') || name == "target" || name == "fixtures" {
                continue;
            }
            walk(&path, out)?;
        } else if ft.is_file() && name.ends_with(".toml") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if looks_like_suite(&text) {
                out.push(path);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Suite, SuiteError> {
        parse(Path::new("evals/suites/x.toml"), text)
    }

    #[test]
    fn shorthand_and_tables_resolve_defaults() {
        let s = p(r#"
[suite]
name = "relay"
repo = "../fixtures/relay"
rank = 3
tolerance = 1

[[case]]
id = "a"
query = "where is IssueStore defined"
kind = "definition"
files = ["./internal/model/issue.go", { path = "x.go", rank = 1 }]
locations = ["internal/model/issue.go:155", { at = "x.go:3", tolerance = 0 }]
regions = ["internal/model/issue.go:153-162", "x.go:7"]
"#)
        .unwrap();
        let c = &s.cases[0];
        assert_eq!(c.repo, PathBuf::from("evals/suites/../fixtures/relay"));
        assert_eq!(c.expect.files[0].path, "internal/model/issue.go");
        assert_eq!(c.expect.files[0].rank, 3);
        assert_eq!(c.expect.files[1].rank, 1);
        assert_eq!(c.expect.locations[0].tolerance, 1);
        assert_eq!(c.expect.locations[1].tolerance, 0);
        assert_eq!(c.expect.regions[1].start, 7);
        assert_eq!(c.expect.regions[1].end, 7);
        assert_eq!(c.budget, DEFAULT_BUDGET);
    }

    #[test]
    fn field_is_named_in_serde_errors() {
        let e = p(r#"
[suite]
repo = "r"
[[case]]
id = "c1"
quary = "x"
kind = "definition"
files = ["a"]
"#)
        .unwrap_err();
        assert_eq!(e.case.as_deref(), Some("c1"));
        assert_eq!(e.field.as_deref(), Some("quary"));
    }
}
