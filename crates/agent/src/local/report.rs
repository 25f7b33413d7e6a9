//! Ranking files for a pasted report: a bug report, a traceback, an issue's text.
//!
//! A report is long and noisy (prose, a code sample, an environment dump), and the file
//! to fix is named by what the report *talks about*, most of which is in the files'
//! bodies, not in their names or doc comments: `(n/cf).ceiling()`, a setting key in a
//! table, a warning's text. The metadata ranking ([`LexIndex::rank`]) reads the content of
//! a shortlist chosen by names alone, so on a large repository (sympy: 1,400 files) the
//! file to fix never reaches the shortlist, and the hub modules whose names match every
//! report (`application.py`, `config/__init__.py`) win.
//!
//! So a report is ranked by Okapi BM25 over every file's content, measured on the 84 real
//! bug reports of `evals/issues*` (docs/evals.md, "Reports ranked by content"): the words
//! count as often as the report repeats them (a report says what is broken again and
//! again), the title's words count more, the strong signals of [`signals`] (traceback
//! frames, written paths, raised messages, names) add to that, a file whose own name the
//! report spells out is lifted, and tests, samples, vendored and generated code count
//! less whatever the report's words say (a pytest report says "test" forty times).

use std::collections::HashMap;
use std::sync::Arc;

use super::classify::PathClass;
use super::content::{ContentIndex, terms_of};
use super::contentfile;
use super::rank::{LexIndex, MAX_FILES, RankedFile};
use super::text;

/// BM25's saturation and length normalisation.
pub(super) const K1: f64 = 1.2;
pub(super) const B: f64 = 0.75;
/// Extra counts of each word of the report's first line: a title says what is wrong.
const TITLE_BOOST: f64 = 2.0;
/// What a file gets when the report spells out its name (`linkcheck`, `faulthandler`),
/// shared among the files whose paths carry that word.
const NAMED_FILE: f64 = 0.5;
/// A file-name word carried by more paths than this names no file in particular.
const NAMED_FILE_MAX_PATHS: usize = 3;
/// How much [`signals`]' bonuses count against the content score (the best file's is 1).
pub const SIGNAL_WEIGHT: f64 = 0.4;
/// Path classes that a report rarely asks to fix, and how much their score counts.
const TEST_FACTOR: f64 = 0.3;
/// Test helpers outside the project's test suite (see [`SUITE_DIRS`]).
const HELPER_FACTOR: f64 = 0.7;
const SAMPLE_FACTOR: f64 = 0.3;
const THIRD_PARTY_FACTOR: f64 = 0.2;
/// A word in at most this share of the files is rare enough to name one when run
/// together with another ([`compound_parts`]).
const RARE_SHARE: f64 = 0.1;
/// A file is listed when its score is at least this share of the best file's.
const CUTOFF: f64 = 0.1;
/// How much a file in another language than the report's counts (a Python traceback
/// against a package that ships a JavaScript port beside its Python code).
const OTHER_LANGUAGE_FACTOR: f64 = 0.5;

/// The languages a report's code, traces and commands can be told apart by; JavaScript
/// and TypeScript are one (a JavaScript user reports against a TypeScript library), and
/// C and C++ are none: a Python report may well be about a C extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Python,
    Script,
    Go,
    Rust,
    Java,
}

impl Family {
    fn of_path(path: &str) -> Option<Family> {
        use explore_tools::code::Language;
        Some(match Language::of_path(path)? {
            Language::Python => Family::Python,
            Language::TypeScript | Language::Tsx | Language::JavaScript => Family::Script,
            Language::Go => Family::Go,
            Language::Rust => Family::Rust,
            Language::Java => Family::Java,
        })
    }
}

/// What marks a report as written in each language: a fenced block's tag, a prompt, a
/// trace's frame, a package manager (lower case).
const LANGUAGE_MARKS: &[(Family, &[&str])] = &[
    (
        Family::Python,
        &[
            "traceback (most recent call last)",
            ">>> ",
            "```py",
            ".py\", line",
            "pip install",
            "site-packages",
        ],
    ),
    (
        Family::Script,
        &[
            "```js",
            "```javascript",
            "```ts",
            "```typescript",
            "```jsx",
            "```tsx",
            "require(",
            "node_modules",
            "npm install",
            "console.log(",
        ],
    ),
    (
        Family::Go,
        &[
            "```go",
            "goroutine ",
            "go get ",
            "go version",
            "func main()",
        ],
    ),
    (
        Family::Rust,
        &["```rust", "```rs", "cargo ", "panicked at", "fn main()"],
    ),
    (
        Family::Java,
        &[
            "```java",
            ".java:",
            "exception in thread",
            "public static void main",
        ],
    ),
];

/// The one language a report is written in, when it shows the marks of exactly one.
fn report_family(question: &str) -> Option<Family> {
    let lower = question.to_lowercase();
    let found: Vec<Family> = LANGUAGE_MARKS
        .iter()
        .filter(|(_, marks)| marks.iter().any(|m| lower.contains(m)))
        .map(|(f, _)| *f)
        .collect();
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// A text without its web addresses: a link's host, user and commit hash are not what
/// the report is about (a link to a file of the repository is a signal of its own).
fn without_urls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = [rest.find("http://"), rest.find("https://")]
        .into_iter()
        .flatten()
        .min()
    {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | ']' | '>' | '"' | '\''))
            .unwrap_or(tail.len());
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// Labels of an environment line whose value is the machine, not the program: `OS:
/// Windows 10`, `Platform: linux; (…)`.
const MACHINE_LABELS: &[&str] = &["os", "platform", "operating system", "arch", "architecture"];

/// Whether a line of a report states the environment it ran in rather than what went
/// wrong: `- python-dotenv version: 1.2.1`, `**Version of tomlkit**: 0.11.6`, `Python
/// version:        3.11.0 (main, …)`, `OS: Arch Linux`. Bug report templates ask for
/// them, 41 lines in the 94 reports of `evals/issues*`; their words (`version`,
/// `python`, the project's own name) say nothing about the fault and lift the files they
/// happen to name, such as a package's `version.py`.
fn environment_line(line: &str) -> bool {
    let bare = line
        .trim_start()
        .trim_start_matches(['-', '*', '+', ' '])
        .replace(['*', '`'], "");
    let Some((label, value)) = bare.split_once(':') else {
        return false;
    };
    let label = label.trim().to_lowercase();
    let short = label.len() <= 48
        && label.split_whitespace().count() <= 5
        && label
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '.' | '-' | '_' | '/' | '(' | ')'));
    // "the version: 1.2 is parsed as 1.2.0" is a sentence about a version, not a field.
    let article = label
        .split_whitespace()
        .any(|w| matches!(w, "the" | "a" | "an" | "this" | "that" | "my" | "our"));
    if !short || label.is_empty() || article {
        return false;
    }
    let value = value.trim().trim_start_matches('v');
    let versioned = value.starts_with(|c: char| c.is_ascii_digit());
    let says_version = label
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "version" || w == "versions");
    (says_version && versioned) || MACHINE_LABELS.contains(&label.as_str())
}

/// A report's text as ranked: without its web addresses ([`without_urls`]) and without
/// the lines that state its environment ([`environment_line`]).
fn report_text(question: &str) -> String {
    let kept: Vec<&str> = question.lines().filter(|l| !environment_line(l)).collect();
    without_urls(&kept.join("\n"))
}

/// A report's words ([`report_text`]) with how often it says each, its first line's
/// counted [`TITLE_BOOST`] more times.
pub fn report_terms(question: &str) -> Vec<(String, f64)> {
    let mut order: Vec<String> = Vec::new();
    let mut counts: HashMap<String, f64> = HashMap::new();
    let title = question
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let title_terms = terms_of(&without_urls(title));
    for t in terms_of(&report_text(question)) {
        let c = counts.entry(t.clone()).or_insert(0.0);
        if *c == 0.0 {
            order.push(t);
        }
        *c += 1.0;
    }
    let mut boosted: Vec<&String> = Vec::new();
    for t in &title_terms {
        if !boosted.contains(&t) {
            boosted.push(t);
            if let Some(c) = counts.get_mut(t) {
                *c += TITLE_BOOST;
            }
        }
    }
    order
        .into_iter()
        .map(|t| {
            let c = counts[&t];
            (t, c)
        })
        .collect()
}

/// Directories of a project's own test suite. Other test directories (`testing/`,
/// `test/`, `testutil/`) are often a library's public test helpers (`numpy.testing`,
/// `xarray.testing`, `django.test`) that reports are about.
const SUITE_DIRS: &[&str] = &["tests", "__tests__", "testdata"];

/// Whether a path is a test of the project's own suite: a test file by name, or a file
/// under one of [`SUITE_DIRS`].
fn in_test_suite(path: &str) -> bool {
    let lower = path.to_lowercase();
    let (dirs, name) = lower.rsplit_once('/').unwrap_or(("", lower.as_str()));
    explore_tools::paths::TEST_FILES
        .iter()
        .any(|p| p.matches(name))
        || dirs.split('/').any(|d| SUITE_DIRS.contains(&d))
}

/// How much a file's class counts in a report's ranking.
fn factor(path: &str, class: &PathClass) -> f64 {
    let mut f = 1.0;
    if class.test {
        f *= if in_test_suite(path) {
            TEST_FACTOR
        } else {
            HELPER_FACTOR
        };
    }
    if class.sample {
        f *= SAMPLE_FACTOR;
    }
    if class.vendored || class.generated {
        f *= THIRD_PARTY_FACTOR;
    }
    f
}

/// The words of `s` that can name a file: [`text::index_terms`] of each alphanumeric
/// run, except that a run mixing letters and digits is one word (`h5netcdf`, `nc2zarr`,
/// `python3`): it is the name of something, and its pieces name no file (`nc2zarr`, a
/// project's name, is not `zarr.py`; `python3` in a path is not `python.py`).
fn name_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for run in s.split(|c: char| !c.is_alphanumeric()) {
        let digits = run.chars().any(|c| c.is_ascii_digit());
        if digits && run.chars().any(char::is_alphabetic) {
            out.push(run.to_lowercase());
        } else if !run.is_empty() {
            out.extend(text::index_terms(run));
        }
    }
    out
}

/// How often the report says each of its [`name_words`] ([`report_text`]).
fn name_counts(question: &str) -> HashMap<String, f64> {
    let mut counts = HashMap::new();
    for w in name_words(&report_text(question)) {
        *counts.entry(w).or_insert(0.0) += 1.0;
    }
    counts
}

/// A file-name word written as two words run together (`lcovreport`, `xmlreport`) as
/// those two words, when the report says both (`coverage lcov` … `[report]`) and one of
/// them is rare in the repository's text ([`RARE_SHARE`]: `lcov`, not `pool` of
/// `poolmanager` nor `data` of `dataarray`, which a report says without naming the
/// file); any other word as itself. Each part has at least three letters.
fn compound_parts(
    word: &str,
    said: &HashMap<&str, f64>,
    share: &dyn Fn(&str) -> f64,
) -> Vec<String> {
    let known = |part: &str| said.contains_key(text::stem(part).as_str());
    let rare = |part: &str| share(&text::stem(part)) <= RARE_SHARE;
    if said.contains_key(word) || word.len() < 6 || !word.chars().all(|c| c.is_ascii_lowercase()) {
        return vec![word.to_string()];
    }
    (3..=word.len() - 3)
        .find(|&at| {
            let (a, b) = word.split_at(at);
            known(a) && known(b) && (rare(a) || rare(b))
        })
        .map_or_else(
            || vec![word.to_string()],
            |at| vec![text::stem(&word[..at]), text::stem(&word[at..])],
        )
}

/// The files whose own name the report spells out, each with its bonus: every word of
/// the file's name is a word of the report, and some word of it is carried by at most
/// [`NAMED_FILE_MAX_PATHS`] paths (`builders/linkcheck.py` for "linkcheck",
/// `faulthandler.py` for "faulthandler"; not `__init__.py`, `utils.py`).
fn named_files(
    files: &[String],
    terms: &HashMap<&str, f64>,
    share: &dyn Fn(&str) -> f64,
) -> Vec<(usize, f64)> {
    let mut path_df: HashMap<String, usize> = HashMap::new();
    let words: Vec<Vec<String>> = files
        .iter()
        .map(|p| {
            let stem = p.rsplit_once('.').map_or(p.as_str(), |(s, _)| s);
            let mut all = name_words(stem);
            all.sort();
            all.dedup();
            for w in &all {
                *path_df.entry(w.clone()).or_insert(0) += 1;
            }
            let name = stem.rsplit('/').next().unwrap_or(stem);
            name_words(name)
                .into_iter()
                .flat_map(|w| compound_parts(&w, terms, share))
                .collect::<Vec<String>>()
        })
        .collect();
    // A report says "error" and "exception" of whatever went wrong, and quotes the
    // exception's module (`tomlkit.exceptions.EmptyTableNameError`): that names where the
    // type is declared, not where the bug is (where it is raised).
    let generic: Vec<String> = ["error", "errors", "exception", "exceptions"]
        .iter()
        .flat_map(|w| name_words(w))
        .collect();
    let mut out = Vec::new();
    for (f, name) in words.iter().enumerate() {
        if name.is_empty()
            || !name.iter().all(|w| terms.contains_key(w.as_str()))
            || name.iter().all(|w| generic.contains(w))
        {
            continue;
        }
        let Some((word, df)) = name
            .iter()
            .map(|w| (w, path_df.get(w).copied().unwrap_or(1)))
            .filter(|&(_, df)| df <= NAMED_FILE_MAX_PATHS)
            .min_by_key(|&(_, df)| df)
        else {
            continue;
        };
        // Said more than once, the name is what the report is about.
        let repeated = terms.get(word.as_str()).is_some_and(|&c| c > 1.0);
        let bonus = NAMED_FILE * if repeated { 1.5 } else { 1.0 } / df.max(1) as f64;
        out.push((f, bonus));
    }
    out
}

/// Ranks the files of `idx` for a report: content BM25 normalised to the best file,
/// plus the files it names, plus `bonuses` (from [`signals::bonuses`], with the symbols
/// they named, cited first), times the class factor. Best first, at most
/// [`MAX_FILES`], each at least [`CUTOFF`] of the best.
pub fn rank(
    idx: &LexIndex,
    content: &ContentIndex,
    question: &str,
    bonuses: &[(usize, f64, Vec<usize>)],
) -> Vec<RankedFile> {
    let files = idx.files();
    let terms = report_terms(question);
    let raw = content.scores(&terms, K1, B);
    let top = raw.iter().copied().fold(0.0, f64::max);
    let mut score: Vec<f64> = raw
        .iter()
        .map(|&s| if top > 0.0 { s / top } else { 0.0 })
        .collect();
    score.resize(files.len(), 0.0);
    let said = name_counts(question);
    let said: HashMap<&str, f64> = said.iter().map(|(w, c)| (w.as_str(), *c)).collect();
    let share = |t: &str| content.share(t);
    for (f, bonus) in named_files(files, &said, &share) {
        score[f] += bonus;
    }
    let mut named: HashMap<usize, Vec<usize>> = HashMap::new();
    for (f, bonus, syms) in bonuses {
        if let Some(s) = score.get_mut(*f) {
            *s += SIGNAL_WEIGHT * bonus;
            named.entry(*f).or_default().extend(syms.iter().copied());
        }
    }
    // A file in another language than the report's, when the repository has files in
    // the report's.
    let family = report_family(question)
        .filter(|fam| files.iter().any(|p| Family::of_path(p) == Some(*fam)));
    let foreign =
        |path: &str| family.is_some_and(|fam| Family::of_path(path).is_some_and(|f| f != fam));
    for (f, s) in score.iter_mut().enumerate() {
        *s *= factor(&files[f], &idx.class_of(f));
        if foreign(&files[f]) {
            *s *= OTHER_LANGUAGE_FACTOR;
        }
    }
    let mut order: Vec<usize> = (0..score.len()).filter(|&f| score[f] > 0.0).collect();
    order.sort_by(|&a, &b| score[b].total_cmp(&score[a]).then(a.cmp(&b)));
    if tracing::enabled!(tracing::Level::DEBUG) {
        // Why each file ranks where it does (`-vv`): the parts of its score.
        let named: HashMap<usize, f64> = named_files(files, &said, &share).into_iter().collect();
        let signal: HashMap<usize, f64> = bonuses.iter().map(|(f, b, _)| (*f, *b)).collect();
        for &f in order.iter().take(MAX_FILES) {
            tracing::debug!(
                score = score[f],
                content = raw
                    .get(f)
                    .map_or(0.0, |r| if top > 0.0 { r / top } else { 0.0 }),
                named = named.get(&f).copied().unwrap_or(0.0),
                signals = signal.get(&f).copied().unwrap_or(0.0),
                class = factor(&files[f], &idx.class_of(f)),
                "report rank: {}",
                files[f]
            );
        }
    }
    let best = order.first().map_or(0.0, |&f| score[f]);
    let words: Vec<String> = terms.iter().map(|(t, _)| t.clone()).collect();
    let weights: Vec<f64> = vec![1.0; words.len()];
    order
        .into_iter()
        .take_while(|&f| score[f] >= CUTOFF * best)
        .take(MAX_FILES)
        .map(|f| {
            let mut matched: Vec<(String, f64)> = terms
                .iter()
                .filter(|(t, _)| content.holds(t, f))
                .map(|(t, c)| (t.clone(), c * content.idf(t)))
                .collect();
            matched.sort_by(|a, b| b.1.total_cmp(&a.1));
            let evidence: f64 = matched.iter().map(|(t, _)| content.idf(t)).sum();
            let line = |si: usize| idx.symbol(si).map_or(0, |s| s.line);
            let mut symbols: Vec<(usize, f64)> = idx
                .symbols_in(f)
                .iter()
                .map(|&si| (si, idx.symbol_score(si, &words, &weights)))
                .filter(|x| x.1 > 0.0)
                .collect();
            symbols.sort_by(|a, b| b.1.total_cmp(&a.1).then(line(a.0).cmp(&line(b.0))));
            let mut first: Vec<usize> = named.remove(&f).unwrap_or_default();
            first.dedup();
            for (si, _) in symbols {
                if !first.contains(&si) {
                    first.push(si);
                }
            }
            RankedFile {
                file: f,
                score: score[f],
                lexical: raw.get(f).copied().unwrap_or(0.0),
                evidence,
                matched: matched.into_iter().take(6).map(|x| x.0).collect(),
                symbols: first,
                named: false,
            }
        })
        .collect()
}

/// The content index of `idx`'s files: read from its file or built on first use (see
/// [`contentfile::load`]), and kept with it.
pub fn content_of(
    idx: &LexIndex,
    read: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Arc<ContentIndex> {
    idx.content_index(|| contentfile::load(idx, read))
}

/// [`rank`] over the content index of `idx` (read with `read` when it must be built), and
/// that index. A persisted index that a lookup finds damaged is dropped and built again
/// from the tree, and the report ranked again: the answer is that of an undamaged index.
pub fn rank_report(
    idx: &LexIndex,
    question: &str,
    bonuses: &[(usize, f64, Vec<usize>)],
    read: &(dyn Fn(&str) -> Option<String> + Sync),
) -> (Vec<RankedFile>, Arc<ContentIndex>) {
    let content = content_of(idx, read);
    let ranked = rank(idx, &content, question, bonuses);
    let Some(why) = content.failure() else {
        return (ranked, content);
    };
    let content = Arc::new(contentfile::rebuild_damaged(idx, &why, read));
    idx.set_content_index(content.clone());
    (rank(idx, &content, question, bonuses), content)
}

#[cfg(test)]
mod tests {
    #[test]
    fn environment_lines_are_not_the_fault() {
        for line in [
            "- python-dotenv version: 1.2.1",
            "**Version of tomlkit**: 0.11.6",
            "Python version:        3.11.0 (main, Oct 27 2022) [GCC 11.3.0])",
            "* cattrs version: 23.1.2 -> 23.2.1",
            "used tomlkit version: `0.11.6`",
            "OS: Arch Linux 5.15.45-1-lts",
            "* Operating System: macOS Sequoia 15.0",
            "Sphinx version: v7.4.0",
        ] {
            assert!(environment_line(line), "{line}");
        }
        for line in [
            "the version: 1.2 is parsed as 1.2.0",
            "Version: a string the parser rejects",
            "KEY=value  # comment",
            "error: version mismatch at line 3",
            "Traceback (most recent call last):",
            "when the version of the file is 2: it fails",
        ] {
            assert!(!environment_line(line), "{line}");
        }
        let with_env =
            report_terms("Comment kept as value\n\n- python-dotenv version: 1.2.1\nthe value");
        let without = report_terms("Comment kept as value\n\nthe value");
        assert_eq!(with_env, without);
        assert!(!without.is_empty());
    }

    use super::*;

    #[test]
    fn a_report_counts_repeated_words_and_its_title_more() {
        let terms = report_terms("Ceiling fails on Pow\n\nthe ceiling of a pow object fails");
        let get = |t: &str| terms.iter().find(|(x, _)| x == t).map(|x| x.1);
        // Twice in the text, plus the title's boost.
        assert_eq!(get("ceil"), Some(2.0 + TITLE_BOOST));
        assert_eq!(get("object"), Some(1.0));
    }

    #[test]
    fn links_are_not_words() {
        assert_eq!(
            without_urls("see [this](https://github.com/a/b/blob/x/t.py#L3) and http://x.io end"),
            "see [this]() and  end"
        );
    }

    #[test]
    fn the_test_suite_counts_less_than_a_librarys_test_helpers() {
        for p in [
            "tests/test_api.py",
            "pkg/tests/util.py",
            "src/a/b_test.go",
            "web/__tests__/x.js",
        ] {
            assert!(in_test_suite(p), "{p}");
        }
        for p in [
            "xarray/testing/assertions.py",
            "django/test/client.py",
            "pkg/testutil/fake.go",
        ] {
            assert!(!in_test_suite(p), "{p}");
        }
    }

    #[test]
    fn a_name_with_digits_is_one_word_and_names_no_file_by_its_pieces() {
        assert_eq!(
            name_words("nc2zarr h5netcdf_ python3"),
            ["nc2zarr", "h5netcdf", "python3"]
        );
        let files: Vec<String> = ["pkg/backends/zarr.py", "pkg/backends/h5netcdf_.py"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let said = name_counts("error in an [nc2zarr](https://x.io/nc2zarr) test with h5netcdf");
        let said: HashMap<&str, f64> = said.iter().map(|(w, c)| (w.as_str(), *c)).collect();
        let named = named_files(&files, &said, &|_| 0.5);
        assert_eq!(named, [(1, NAMED_FILE)]);
    }

    /// The module of a quoted exception (`tomlkit.exceptions.EmptyTableNameError`) is where
    /// the type is declared: `exceptions.py` is not named by it, `parser.py` by "parser" is.
    #[test]
    fn an_exception_module_is_not_named_by_the_report() {
        let files: Vec<String> = [
            "tomlkit/exceptions.py",
            "tomlkit/parser.py",
            "pkg/errors.go",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let said = name_counts(
            "The parser raises an exception:\ntomlkit.exceptions.EmptyTableNameError: errors",
        );
        let said: HashMap<&str, f64> = said.iter().map(|(w, c)| (w.as_str(), *c)).collect();
        let named = named_files(&files, &said, &|_| 0.5);
        assert_eq!(named, [(1, NAMED_FILE)]);
    }

    #[test]
    fn a_file_the_report_names_is_found_by_its_rare_name() {
        let files: Vec<String> = [
            "sphinx/builders/linkcheck.py",
            "sphinx/builders/html.py",
            "sphinx/util/__init__.py",
            "sphinx/ext/__init__.py",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let terms: HashMap<&str, f64> = [("linkcheck", 3.0), ("html", 1.0), ("broken", 1.0)]
            .into_iter()
            .collect();
        let named = named_files(&files, &terms, &|_| 0.5);
        assert_eq!(named.len(), 2, "{named:?}");
        assert_eq!(named[0], (0, NAMED_FILE * 1.5));
        assert_eq!(named[1], (1, NAMED_FILE));
    }

    #[test]
    fn two_words_run_together_name_a_file_when_one_is_rare() {
        let files: Vec<String> = ["coverage/lcovreport.py", "urllib3/poolmanager.py"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let said = name_counts("IndexError on coverage lcov\n[report]\nthe pool manager is fine");
        let said: HashMap<&str, f64> = said.iter().map(|(w, c)| (w.as_str(), *c)).collect();
        // `lcov` is in few files; `pool` and `manager` in most.
        let share = |t: &str| if t == "lcov" { 0.02 } else { 0.6 };
        assert_eq!(named_files(&files, &said, &share), [(0, NAMED_FILE)]);
        assert_eq!(
            compound_parts("lcovreport", &said, &share),
            ["lcov", "report"]
        );
        assert_eq!(
            compound_parts("poolmanager", &said, &share),
            ["poolmanager"]
        );
        // Without the report saying `report`, the name is not spelled out.
        let said: HashMap<&str, f64> = [("lcov", 1.0)].into_iter().collect();
        assert_eq!(compound_parts("lcovreport", &said, &share), ["lcovreport"]);
    }

    #[test]
    fn a_report_is_in_one_language_when_it_shows_the_marks_of_one() {
        let py = "Decoding fails\n\n>>> import jsonpickle\n>>> jsonpickle.decode(s)\nTraceback (most recent call last):";
        assert_eq!(report_family(py), Some(Family::Python));
        let js = "renderString prints null\n\n```js\nconst n = require('nunjucks');\n```";
        assert_eq!(report_family(js), Some(Family::Script));
        // Marks of two languages, or of none: no language.
        assert_eq!(report_family(&format!("{py}\n{js}")), None);
        assert_eq!(report_family("the parser drops a trailing comma"), None);
        // JavaScript and TypeScript are one; C has no family, so it is never foreign.
        assert_eq!(Family::of_path("src/index.d.ts"), Some(Family::Script));
        assert_eq!(Family::of_path("lib/main.js"), Some(Family::Script));
        assert_eq!(Family::of_path("ext/_speedups.c"), None);
    }
}
