//! Which function does what the question asks: scoring the *bodies* of a file's functions.
//!
//! A concept answer picks files by their names, symbols and docs, then cites each file's
//! symbols whose *names or docs* match ([`super::rank::LexIndex::symbol_score`]). A
//! behaviour question ("how does the sampler decide which entries to drop", "where does
//! the parser report \"Key has already been defined\"") is answered by a function whose
//! name says nothing of it (`sampler.Check`, `parser.setValue`) and that often has no doc
//! at all: what it does is in its body (`s.hook(ent, LogDropped)`, the `panicf` with the
//! message). Name matching alone cites the types and constructors around it instead.
//!
//! So each function and method of a chosen file is scored as a small document of its own:
//! BM25 over the words of its lines (identifiers split and stemmed as everywhere,
//! [`text::index_terms`]), with the question's term weights and synonyms, the lexical
//! index's idf, and length normalised against the file's other functions, so a 200-line
//! function does not win by size. Two things the code spells differently from a question
//! are read too:
//!
//! - a message the question quotes is looked up as a phrase (runs of three of its words,
//!   so a format string's `'%s'` between them does not hide it); a quoted message found in
//!   a body is the strongest signal a question can give;
//! - escapes name characters a question says in words: `'\n'` is a newline, `'"'` and
//!   `\"` a quote, `'\t'` a tab.

use super::rank::{LexIndex, SymbolInfo};
use super::text;

/// BM25's saturation constant, as for files.
const K1: f64 = 1.2;
/// Length normalisation: most of a long body's matches are incidental.
const B: f64 = 0.75;
/// How much a quoted message found in a body adds, per idf of its words (fully found).
/// Far above what the same words score one by one: the question named the exact text.
const PHRASE_WEIGHT: f64 = 3.0;
/// How much a name the question writes as code counts when a body spells it, per idf
/// of its words (saturated like a term).
const NAME_WEIGHT: f64 = 1.0;
/// A body must match this many distinct full-weight question terms (or a quoted phrase)
/// to be cited for its body: one shared word is a coincidence, not what the question asks.
pub const MIN_TERMS: usize = 2;

/// A function whose body matches the question.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyMatch {
    /// Index of the symbol in the corpus.
    pub symbol: usize,
    /// Its BM25 score (plus the phrase bonus).
    pub score: f64,
    /// Distinct question terms its body holds (weighted ones count by weight, rounded
    /// down by [`BodyMatch::strong`]).
    pub terms: f64,
    /// A quoted phrase of the question was found in it.
    pub phrase: bool,
}

impl BodyMatch {
    /// Worth citing for its body: a quoted phrase, or enough distinct question terms.
    pub fn strong(&self) -> bool {
        self.phrase || self.terms >= MIN_TERMS as f64
    }
}

/// The quoted parts of a question: text between double quotes (straight or curly), or
/// between single quotes that open after a space and close before one (not the
/// apostrophe of "zap's"). Only quotes of at least two words count as phrases.
pub fn quoted(question: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = question.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let close = match c {
            '"' => Some('"'),
            '\u{201c}' => Some('\u{201d}'),
            '\'' if i == 0 || !chars[i - 1].is_alphanumeric() => Some('\''),
            _ => None,
        };
        if let Some(close) = close
            && let Some(len) = chars[i + 1..].iter().position(|&x| {
                x == close || (close == '"' && x == '\u{201d}') || (close == '\u{201d}' && x == '"')
            })
        {
            let end = i + 1 + len;
            let after_ok = close != '\'' || chars.get(end + 1).is_none_or(|x| !x.is_alphanumeric());
            if after_ok {
                let inner: String = chars[i + 1..end].iter().collect();
                // A message has spaces; 'foo.bar' is an example value, not a phrase.
                if inner.split_whitespace().count() >= 2 && phrase_words(&inner).len() >= 2 {
                    out.push(inner);
                }
                i = end + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The names a question writes as code: `time.Duration`, `pre_load`, `ReportCaller`,
/// `RAISE`, `Key::get` (dotted, snake_case, camelCase or CamelCase with two humps,
/// SCREAMING_CASE, qualified), backticks and trailing punctuation stripped. A body that
/// spells one exactly is about it: the question quoted the code.
pub fn code_names(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in question.split_whitespace() {
        let w = raw.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
        let inner = |c: char| w.trim_matches('_').contains(c);
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        let humps = w
            .chars()
            .zip(w.chars().skip(1))
            .filter(|(a, b)| a.is_lowercase() && b.is_uppercase())
            .count();
        let shaped = (w.contains('.') && !w.ends_with('.'))
            || inner('_')
            || w.contains("::")
            || humps >= 1
            || (letters >= 3 && w.chars().all(|c| c.is_uppercase() || c == '_'));
        let all_alnum = w
            .split(['.', ':'])
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_'));
        if shaped && all_alnum && letters >= 3 && !out.iter().any(|x| x == w) {
            out.push(w.to_string());
        }
    }
    out
}

/// How often `name` occurs in `text` as a whole name (not inside a longer identifier).
fn name_count(text: &str, name: &str) -> usize {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name)
        .filter(|(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            !before.is_some_and(ident) && !after.is_some_and(ident)
        })
        .count()
}

/// The words a phrase is matched by: lower-cased runs of letters and digits, without
/// one-character ones (the `s` of a `'%s'` placeholder, "a").
fn phrase_words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1)
        .map(str::to_lowercase)
        .collect()
}

/// The share of a phrase's word trigrams (its words, when it has fewer than three) that
/// occur in `words`, in order.
fn phrase_share(phrase: &[String], words: &[String]) -> f64 {
    let n = phrase.len().min(3);
    if n == 0 || words.len() < n {
        return 0.0;
    }
    let grams: Vec<&[String]> = phrase.windows(n).collect();
    let found = grams
        .iter()
        .filter(|g| words.windows(n).any(|w| w == **g))
        .count();
    found as f64 / grams.len() as f64
}

/// The words escapes spell: a question says "newlines" and "quotes" where the code
/// writes `'\n'` and `'"'`. Each escape found in `line` adds its word's stem.
fn escape_terms(line: &str, out: &mut Vec<String>) {
    const NAMED: [(&str, &str); 8] = [
        ("\\n", "newline"),
        ("\\r", "carriage"),
        ("\\t", "tab"),
        ("\\\"", "quote"),
        ("'\"'", "quote"),
        ("\\'", "quote"),
        ("\\\\", "backslash"),
        ("\\0", "null"),
    ];
    for (written, word) in NAMED {
        let n = line.matches(written).count();
        if n > 0 {
            let t = text::stem(word);
            out.extend(std::iter::repeat_n(t, n));
        }
    }
}

/// What of the question bodies are matched against.
#[derive(Debug, Clone, Copy)]
pub struct Question<'a> {
    /// Its stemmed content terms ([`text::query_terms_weighted`]).
    pub terms: &'a [String],
    /// Their weights (a missing one counts 1).
    pub weights: &'a [f64],
    /// Its quoted messages ([`quoted`]).
    pub phrases: &'a [String],
    /// The names it writes as code ([`code_names`]).
    pub names: &'a [String],
}

/// How many of the best files have their bodies scored and cited.
pub const FILES: usize = 3;

/// A runner-up in the top file is cited too when it scores at least this share of the
/// best: the scorer cannot tell them apart (0.6 to 0.75 choose the same on every suite).
const RUNNER_UP: f64 = 0.7;

/// The bodies to cite from a file's ranking ([`rank_bodies`]): the best strong one; in the
/// top file also a runner-up nearly as good ([`RUNNER_UP`]) and the body covering more of
/// the question's terms than the best when there is one (BM25 favours a rare word; the
/// question may be answered by the function that does all of it: `getOptions` parses the
/// `omitempty` tag, `eStruct` is where it skips the field).
pub fn chosen(ranked: &[BodyMatch], top: bool) -> Vec<usize> {
    let strong: Vec<&BodyMatch> = ranked.iter().filter(|m| m.strong()).collect();
    let Some(best) = strong.first() else {
        return Vec::new();
    };
    let mut out = vec![best.symbol];
    if top {
        if let Some(m) = strong.get(1).filter(|m| m.score >= RUNNER_UP * best.score) {
            out.push(m.symbol);
        }
        let widest = strong
            .iter()
            .skip(1)
            .filter(|m| m.terms > best.terms)
            .max_by(|a, b| {
                a.terms
                    .total_cmp(&b.terms)
                    .then(b.score.total_cmp(&a.score))
            });
        if let Some(m) = widest
            && !out.contains(&m.symbol)
        {
            out.push(m.symbol);
        }
    }
    out
}

/// Scores every function and method of file `file` (whose text is `source`) by how well
/// its body matches the question, best first (ties: earlier line first). Only bodies
/// with a positive score are returned.
///
/// Each line is split once and keeps only the question's forms it holds, so a file of a
/// thousand functions costs one pass, not one per function and term.
pub fn rank_bodies(idx: &LexIndex, file: usize, source: &str, q: &Question<'_>) -> Vec<BodyMatch> {
    rank_spans(idx, file, source, q, Scope::Bodies)
}

/// Scores the type definitions of file `file` of the `kinds` a question asks for ("the
/// enum saying how much more input a parser wants", "trait that splits the input at the
/// first character failing a predicate"), as [`rank_bodies`] scores functions: each
/// definition's doc comment and body (fields, variants, members) is a small document.
///
/// Such a question describes the type rather than naming it, and the description is in
/// the doc comment above it (`/// Contains information on needed data`) and in its
/// fields, which name matching reads only in part: without this the file is found but
/// its functions are cited, not the type.
pub fn rank_types(
    idx: &LexIndex,
    file: usize,
    source: &str,
    q: &Question<'_>,
    kinds: &[&str],
) -> Vec<BodyMatch> {
    rank_spans(idx, file, source, q, Scope::Types(kinds))
}

/// Which definitions of a file are scored, and over which lines.
#[derive(Clone, Copy)]
enum Scope<'a> {
    /// Functions and methods, over their bodies.
    Bodies,
    /// Definitions of these kinds, over their doc comment and body.
    Types(&'a [&'a str]),
}

fn rank_spans(
    idx: &LexIndex,
    file: usize,
    source: &str,
    q: &Question<'_>,
    scope: Scope<'_>,
) -> Vec<BodyMatch> {
    let Question {
        terms,
        weights,
        phrases,
        names,
    } = *q;
    let lines: Vec<&str> = source.lines().collect();
    let forms = forms_of(terms);
    let slot: std::collections::HashMap<&str, usize> =
        forms.iter().enumerate().map(|(k, f)| (*f, k)).collect();
    let LineTerms { len_at, hits } = line_terms(&lines, &slot);
    struct Body {
        si: usize,
        len: usize,
        tf: Vec<usize>,
        words: Vec<String>,
        named: Vec<usize>,
    }
    let tests_asked = asks_tests(terms);
    let bodies: Vec<Body> = idx
        .symbols_in(file)
        .iter()
        .copied()
        .filter_map(|si| idx.symbol(si).map(|s| (si, s)))
        .filter(|(_, s)| match scope {
            Scope::Bodies => scored(s, &lines, tests_asked),
            // Not the `impl` block the graph names after a type from outside the
            // repository (`impl ParseError<I> for (I, ErrorKind)`): that defines no type.
            Scope::Types(kinds) => {
                kinds.contains(&s.kind.as_str())
                    && !(s.line as usize)
                        .checked_sub(1)
                        .and_then(|i| lines.get(i))
                        .is_some_and(|l| l.trim_start().starts_with("impl"))
            }
        })
        .filter_map(|(si, s)| {
            let a = (s.line as usize).checked_sub(1)?;
            let a = match scope {
                Scope::Bodies => a,
                Scope::Types(_) => doc_start(&lines, a),
            };
            let b = (s.end_line.max(s.line) as usize).min(lines.len());
            let body = lines.get(a..b)?;
            let words: Vec<String> = if phrases.is_empty() {
                Vec::new()
            } else {
                body.iter().flat_map(|l| phrase_words(l)).collect()
            };
            let named: Vec<usize> = if names.is_empty() {
                Vec::new()
            } else {
                let text = body.join("\n");
                names.iter().map(|n| name_count(&text, n)).collect()
            };
            Some(Body {
                si,
                len: len_at[b] - len_at[a],
                tf: {
                    let mut tf = vec![0usize; forms.len()];
                    for k in hits[a..b]
                        .iter()
                        .chain(impl_header(&lines, a).map(|h| &hits[h]))
                        .flatten()
                    {
                        tf[*k] += 1;
                    }
                    tf
                },
                words,
                named,
            })
        })
        .collect();
    if bodies.is_empty() {
        return Vec::new();
    }
    let avg = (bodies.iter().map(|b| b.len).sum::<usize>() as f64 / bodies.len() as f64).max(1.0);
    let phrases: Vec<(Vec<String>, f64)> = phrases
        .iter()
        .map(|p| {
            let idf: f64 = text::index_terms(p).iter().map(|t| idf_of(idx, t)).sum();
            (phrase_words(p), idf)
        })
        .collect();
    // A term in most of the file's functions (`sampler` in sampler.go, `json` in
    // json_encoder.go) says nothing about which of them does it: each term's idf is
    // scaled by how rare it is among the file's functions.
    let n = bodies.len() as f64;
    let rarity = |df: usize| -> f64 {
        (1.0 + (n - df as f64 + 0.5) / (df as f64 + 0.5)).ln() / (1.0 + (n + 0.5) / 1.5).ln()
    };
    let form_weight: Vec<f64> = (0..forms.len())
        .map(|k| {
            let df = bodies.iter().filter(|b| b.tf[k] > 0).count();
            idf_of(idx, forms[k]) * rarity(df)
        })
        .collect();
    let name_weight: Vec<f64> = names
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let df = bodies.iter().filter(|b| b.named[k] > 0).count();
            let idf: f64 = text::index_terms(name).iter().map(|t| idf_of(idx, t)).sum();
            NAME_WEIGHT * rarity(df) * idf
        })
        .collect();
    let saturate = |tf: f64| tf * (K1 + 1.0) / (K1 + tf);
    let mut out: Vec<BodyMatch> = bodies
        .iter()
        .filter_map(|body| {
            let norm = 1.0 - B + B * body.len as f64 / avg;
            let mut score = 0.0;
            let mut matched = 0.0;
            for (i, t) in terms.iter().enumerate() {
                let tw = weights.get(i).copied().unwrap_or(1.0);
                let mut best: f64 = 0.0;
                for (form, w) in
                    std::iter::once((t.as_str(), 1.0)).chain(text::synonyms(t).iter().copied())
                {
                    let Some(&k) = slot.get(form) else {
                        continue;
                    };
                    if body.tf[k] > 0 {
                        best = best.max(w * form_weight[k] * saturate(body.tf[k] as f64 / norm));
                    }
                }
                if best > 0.0 {
                    score += tw * best;
                    matched += tw.min(1.0);
                }
            }
            // A name the question writes as code, spelt out in the body.
            for (k, &c) in body.named.iter().enumerate() {
                if c > 0 {
                    score += name_weight[k] * saturate(c as f64);
                }
            }
            let mut phrase = false;
            for (words_of, idf) in &phrases {
                let share = phrase_share(words_of, &body.words);
                if share >= 0.5 {
                    phrase = true;
                    score += PHRASE_WEIGHT * share * idf;
                }
            }
            (score > 0.0).then_some(BodyMatch {
                symbol: body.si,
                score,
                terms: matched,
                phrase,
            })
        })
        .collect();
    let line = |si: usize| idx.symbol(si).map_or(0, |s| s.line);
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(line(a.symbol).cmp(&line(b.symbol)))
    });
    out
}

/// Whether the question is about tests: only then are a source file's own test functions
/// (Rust's `#[cfg(test)] mod tests`, a `#[test] fn`) candidates to cite.
fn asks_tests(terms: &[String]) -> bool {
    terms.iter().any(|t| t == "test")
}

/// Whether a symbol's body is scored: functions and methods, but not the tests a source
/// file carries (`tests.test_from_lowercase`, `#[test] fn test_debug`), which exercise
/// what the question asks about in the question's words without doing it.
fn scored(s: &SymbolInfo, lines: &[&str], tests_asked: bool) -> bool {
    if !matches!(s.kind.as_str(), "function" | "method") {
        return false;
    }
    if tests_asked {
        return true;
    }
    let in_tests = s.display.starts_with("tests.") || s.display.contains(".tests.");
    let attribute = (s.line as usize)
        .checked_sub(2)
        .and_then(|i| lines.get(i))
        .is_some_and(|l| {
            let l = l.trim();
            l.starts_with("#[") && l.ends_with("test]")
        });
    !(in_tests || attribute)
}

/// The `impl Trait for Type` line a method at 0-based line `at` is declared under, if
/// any (not an inherent `impl Type`, whose words every method shares): the trait says what the method is for (`fmt` under `impl fmt::Debug for
/// HeaderValue` is its debug output), so its words count as the body's.
fn impl_header(lines: &[&str], at: usize) -> Option<usize> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(lines.get(at)?);
    if own == 0 {
        return None;
    }
    let h = (0..at)
        .rev()
        .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]) < own)?;
    let t = lines[h].trim_start();
    ((t.starts_with("impl ") || t.starts_with("impl<")) && t.contains(" for ")).then_some(h)
}

/// The first line of the doc comment and attributes right above 0-based line `at` (`///`,
/// `//`, `#`, `/** … */`, `#[derive(…)]`, `@Annotation`), or `at` when there are none.
fn doc_start(lines: &[&str], at: usize) -> usize {
    let mut start = at;
    while start > 0 {
        let l = lines[start - 1].trim_start();
        let comment = ["//", "#", "/*", "*", "@", "--"]
            .iter()
            .any(|p| l.starts_with(p));
        if !comment || l.is_empty() {
            break;
        }
        start -= 1;
    }
    start
}

/// Every form a question term matches in (itself and its synonyms), once.
fn forms_of(terms: &[String]) -> Vec<&str> {
    let mut forms: Vec<&str> = Vec::new();
    for t in terms {
        for (form, _) in std::iter::once((t.as_str(), 1.0)).chain(text::synonyms(t).iter().copied())
        {
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
    }
    forms
}

/// A file's lines as the body scorers read them.
struct LineTerms {
    /// Prefix sums of each line's number of words: a body's length is a difference.
    len_at: Vec<usize>,
    /// The slots (in the question's forms) of the words each line holds.
    hits: Vec<Vec<usize>>,
}

/// Splits each line once, keeping only the question's forms it holds.
fn line_terms(lines: &[&str], slot: &std::collections::HashMap<&str, usize>) -> LineTerms {
    let mut len_at = vec![0usize; lines.len() + 1];
    let mut hits: Vec<Vec<usize>> = vec![Vec::new(); lines.len()];
    for (i, l) in lines.iter().enumerate() {
        let mut words = text::index_terms(l);
        escape_terms(l, &mut words);
        len_at[i + 1] = len_at[i] + words.len();
        hits[i] = words
            .iter()
            .filter_map(|w| slot.get(w.as_str()).copied())
            .collect();
    }
    LineTerms { len_at, hits }
}

/// The best body of each file, scored so that files compare: for each `(file, source)`,
/// the BM25 score of its function or method whose body matches the question best, with
/// the index's idf and every body's length normalised against the average body of all
/// the files given (not of its own file, as [`rank_bodies`] does to choose within one).
/// A body counts only with at least [`MIN_TERMS`] distinct question terms (an action
/// word counts here as any other: its weight already lowers its score); a file with none
/// scores 0.
///
/// A behaviour question ("where is the bearer token added to the request") is answered
/// by the file whose function does it, while files of setters whose docs say the same
/// words match as well by name and doc: the body tells them apart.
pub fn best_bodies(idx: &LexIndex, files: &[(usize, &str)], q: &Question<'_>) -> Vec<f64> {
    let forms = forms_of(q.terms);
    let slot: std::collections::HashMap<&str, usize> =
        forms.iter().enumerate().map(|(k, f)| (*f, k)).collect();
    let tests_asked = asks_tests(q.terms);
    // Per file, each body's length and term frequencies.
    let per_file: Vec<Vec<(usize, Vec<usize>)>> = files
        .iter()
        .map(|&(file, source)| {
            let lines: Vec<&str> = source.lines().collect();
            let LineTerms { len_at, hits } = line_terms(&lines, &slot);
            idx.symbols_in(file)
                .iter()
                .filter_map(|&si| idx.symbol(si))
                .filter(|s| scored(s, &lines, tests_asked))
                .filter_map(|s| {
                    let a = (s.line as usize).checked_sub(1)?;
                    let b = (s.end_line.max(s.line) as usize).min(lines.len());
                    (a < b).then(|| {
                        let mut tf = vec![0usize; forms.len()];
                        let header = impl_header(&lines, a).map(|h| &hits[h]);
                        for k in hits[a..b].iter().chain(header).flatten() {
                            tf[*k] += 1;
                        }
                        (len_at[b] - len_at[a], tf)
                    })
                })
                .collect()
        })
        .collect();
    let (sum, n) = per_file
        .iter()
        .flatten()
        .fold((0usize, 0usize), |(s, n), (len, _)| (s + len, n + 1));
    let avg = (sum as f64 / n.max(1) as f64).max(1.0);
    let idf: Vec<f64> = forms.iter().map(|f| idf_of(idx, f)).collect();
    let saturate = |tf: f64| tf * (K1 + 1.0) / (K1 + tf);
    per_file
        .iter()
        .map(|bodies| {
            bodies
                .iter()
                .filter_map(|(len, tf)| {
                    let norm = 1.0 - B + B * *len as f64 / avg;
                    let mut score = 0.0;
                    let mut matched = 0.0;
                    for (i, t) in q.terms.iter().enumerate() {
                        let tw = q.weights.get(i).copied().unwrap_or(1.0);
                        let mut best: f64 = 0.0;
                        for (form, w) in std::iter::once((t.as_str(), 1.0))
                            .chain(text::synonyms(t).iter().copied())
                        {
                            if let Some(&k) = slot.get(form)
                                && tf[k] > 0
                            {
                                best = best.max(w * idf[k] * saturate(tf[k] as f64 / norm));
                            }
                        }
                        if best > 0.0 {
                            score += tw * best;
                            matched += 1.0;
                        }
                    }
                    (matched >= MIN_TERMS as f64).then_some(score)
                })
                .fold(0.0, f64::max)
        })
        .collect()
}

/// A term's idf in the lexical index.
fn idf_of(idx: &LexIndex, term: &str) -> f64 {
    idx.idf(term)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local::rank::Corpus;

    /// A Go file in the shape of zap's sampler: the constructor's name and doc say
    /// "sampler" and "drop", the method that drops says neither in its name.
    const SAMPLER: &str = "\
// NewSampler creates a Core that samples entries; the rest are dropped.
func NewSampler(core Core, first int) Core {
\treturn &sampler{Core: core, first: first}
}

func (s *sampler) Level() Level {
\treturn LevelOf(s.Core)
}

func (s *sampler) Check(ent Entry, ce *CheckedEntry) *CheckedEntry {
\tn := s.counts.get(ent.Level, ent.Message).Inc()
\tif n > s.first {
\t\ts.hook(ent, LogDropped)
\t\treturn ce
\t}
\ts.hook(ent, LogSampled)
\treturn s.Core.Check(ent, ce)
}

func (p *parser) setValue(key string) {
\tif _, ok := p.hash[key]; ok {
\t\tp.panicf(\"Key '%s' has already been defined.\", key)
\t}
}

func (enc *jsonEncoder) tryAddRuneSelf(b byte) bool {
\tswitch b {
\tcase '\\\\', '\"':
\t\tenc.buf.AppendByte('\\\\')
\tcase '\\n':
\t\tenc.buf.AppendByte('n')
\t}
\treturn true
}
";

    fn index() -> LexIndex {
        let sym = |name: &str, kind: &str, line: u32, end_line: u32, doc: &str| SymbolInfo {
            name: name.into(),
            display: name.into(),
            kind: kind.into(),
            file: 0,
            line,
            end_line,
            doc: doc.into(),
        };
        LexIndex::build(Corpus {
            files: vec!["zapcore/sampler.go".into(), "other/unrelated.go".into()],
            symbols: vec![
                sym(
                    "NewSampler",
                    "function",
                    2,
                    4,
                    "NewSampler creates a Core that samples entries; the rest are dropped.",
                ),
                sym("Level", "method", 6, 8, ""),
                sym("Check", "method", 10, 18, ""),
                sym("setValue", "method", 20, 24, ""),
                sym("tryAddRuneSelf", "method", 26, 34, ""),
                sym("sampler", "struct", 36, 36, ""),
            ],
            edges: Vec::new(),
        })
    }

    fn best(question: &str) -> Option<String> {
        let idx = index();
        let (terms, weights): (Vec<String>, Vec<f64>) =
            text::query_terms_weighted(question).into_iter().unzip();
        let phrases = quoted(question);
        let names = code_names(question);
        let q = Question {
            terms: &terms,
            weights: &weights,
            phrases: &phrases,
            names: &names,
        };
        rank_bodies(&idx, 0, SAMPLER, &q)
            .into_iter()
            .find(BodyMatch::strong)
            .map(|m| idx.symbol(m.symbol).map(|s| s.name).unwrap_or_default())
    }

    #[test]
    fn the_body_that_does_it_wins_over_the_name_that_says_it() {
        // NewSampler's doc and name say "sampler" and "dropped"; Check's body does it.
        assert_eq!(
            best("how does the sampler decide which log entries to drop").as_deref(),
            Some("Check")
        );
    }

    #[test]
    fn a_quoted_message_finds_its_format_string() {
        assert_eq!(
            best("where does the parser report \"Key has already been defined\"").as_deref(),
            Some("setValue")
        );
        // The same words unquoted are only words: setValue still has them, but no phrase.
        let idx = index();
        let terms = text::query_terms("key already defined");
        let q = Question {
            terms: &terms,
            weights: &[],
            phrases: &[],
            names: &[],
        };
        let m = rank_bodies(&idx, 0, SAMPLER, &q);
        assert!(m.iter().all(|m| !m.phrase));
    }

    #[test]
    fn escapes_are_read_as_the_characters_they_name() {
        assert_eq!(
            best("how are quotes and newlines escaped").as_deref(),
            Some("tryAddRuneSelf")
        );
    }

    #[test]
    fn one_shared_word_is_not_enough() {
        // "level" alone is in Level and Check: a coincidence, not an answer.
        assert_eq!(best("where is the level"), None);
    }

    #[test]
    fn quotes_are_phrases_of_two_words_or_more_not_apostrophes() {
        assert_eq!(
            quoted("where does zap's parser say \"Key has already been defined\""),
            vec!["Key has already been defined".to_string()]
        );
        assert_eq!(
            quoted("the 'invalid value' error, and “no such file”, not \"5m30s\""),
            vec!["invalid value".to_string(), "no such file".to_string()]
        );
        assert!(quoted("what's the user's default").is_empty());
    }

    #[test]
    fn phrase_share_counts_trigrams_in_order() {
        let w = |s: &str| phrase_words(s);
        let body = w("p.panicf(\"Key '%s' has already been defined.\", key)");
        // The placeholder's `s` is one letter and dropped: every trigram is there.
        assert_eq!(phrase_share(&w("Key has already been defined"), &body), 1.0);
        assert_eq!(phrase_share(&w("Key was already defined"), &body), 0.0);
        assert_eq!(phrase_share(&w("defined been already"), &body), 0.0);
        assert_eq!(
            phrase_share(&w("already defined"), &w("defined already")),
            0.0
        );
        assert_eq!(
            phrase_share(&w("already defined"), &w("x already defined")),
            1.0
        );
    }

    #[test]
    fn names_written_as_code() {
        assert_eq!(
            code_names("how does decoding turn \"5m30s\" into a time.Duration field?"),
            vec!["time.Duration".to_string()]
        );
        assert_eq!(
            code_names("unknown fields (RAISE / INCLUDE / EXCLUDE), pre_load, `ReportCaller`"),
            vec!["RAISE", "INCLUDE", "EXCLUDE", "pre_load", "ReportCaller"]
        );
        // Prose, a sentence's end, an abbreviation of two letters, a path-less word.
        assert!(code_names("How does it work. Is IO slow? the Logger").is_empty());
        assert_eq!(
            name_count("d := time.Duration(x) // time.DurationX", "time.Duration"),
            1
        );
    }

    #[test]
    fn a_name_spelt_in_the_body_decides_a_tie() {
        // Both bodies hold "time" and "duration"; only the later one spells
        // `time.Duration` (ties go to the earlier line).
        let src = "\
func b(v interface{}) {
\tduration := time.Now()
}
func a(v interface{}) {
\tt := v.(time.Duration)
}
";
        let sym = |name: &str, line: u32| SymbolInfo {
            name: name.into(),
            display: name.into(),
            kind: "function".into(),
            file: 0,
            line,
            end_line: line + 2,
            doc: String::new(),
        };
        let idx = LexIndex::build(Corpus {
            files: vec!["decode.go".into()],
            symbols: vec![sym("b", 1), sym("a", 4)],
            edges: Vec::new(),
        });
        let terms = vec!["time".to_string(), "durat".to_string()];
        let names = code_names("a time.Duration field");
        let q = Question {
            terms: &terms,
            weights: &[],
            phrases: &[],
            names: &names,
        };
        let ranked = rank_bodies(&idx, 0, src, &q);
        assert_eq!(idx.corpus().symbols[ranked[0].symbol].name, "a");
        assert!(ranked[0].score > ranked[1].score);
    }

    /// A Rust file's own tests are not cited for a question that is not about tests, and a
    /// trait impl's name counts as its methods' words (an inherent impl's does not).
    #[test]
    fn inline_tests_are_skipped_and_trait_names_count() {
        let src = "\
impl fmt::Debug for Value {
    fn fmt(&self) -> String {
        if self.sensitive { hide() } else { show() }
    }
}
impl Value {
    fn sensitive(&self) -> bool {
        self.sensitive
    }
}
#[test]
fn test_debug() {
    assert_eq!(format!(\"{:?}\", sensitive_value()), \"Sensitive\");
}
";
        let sym = |name: &str, display: &str, kind: &str, line: u32, end_line: u32| SymbolInfo {
            name: name.into(),
            display: display.into(),
            kind: kind.into(),
            file: 0,
            line,
            end_line,
            doc: String::new(),
        };
        let idx = LexIndex::build(Corpus {
            files: vec!["src/value.rs".into()],
            symbols: vec![
                sym("fmt", "Value.fmt", "method", 2, 4),
                sym("sensitive", "Value.sensitive", "method", 7, 9),
                sym("test_debug", "test_debug", "function", 12, 14),
            ],
            edges: Vec::new(),
        });
        let ask = |words: &[&str]| {
            let terms: Vec<String> = words.iter().map(|w| text::stem(w)).collect();
            let q = Question {
                terms: &terms,
                weights: &[],
                phrases: &[],
                names: &[],
            };
            rank_bodies(&idx, 0, src, &q)
                .iter()
                .map(|m| idx.corpus().symbols[m.symbol].display.clone())
                .collect::<Vec<_>>()
        };
        let got = ask(&["sensitive", "debug"]);
        assert_eq!(
            got.first().map(String::as_str),
            Some("Value.fmt"),
            "{got:?}"
        );
        assert!(!got.contains(&"test_debug".to_string()), "{got:?}");
        assert!(ask(&["sensitive", "debug", "tests"]).contains(&"test_debug".to_string()));
        let lines: Vec<&str> = src.lines().collect();
        assert_eq!(impl_header(&lines, 1), Some(0));
        assert_eq!(impl_header(&lines, 6), None);
    }

    #[test]
    fn the_top_file_cites_a_close_runner_up_and_the_widest_body() {
        let m = |symbol: usize, score: f64, terms: f64| BodyMatch {
            symbol,
            score,
            terms,
            phrase: false,
        };
        // 1 is close behind 0; 2 is far behind but covers more terms; 3 is weak.
        let ranked = vec![
            m(0, 10.0, 3.0),
            m(1, 8.0, 2.0),
            m(2, 4.0, 5.0),
            m(3, 3.0, 1.0),
        ];
        assert_eq!(chosen(&ranked, true), vec![0, 1, 2]);
        assert_eq!(chosen(&ranked, false), vec![0]);
        let ranked = vec![m(0, 10.0, 3.0), m(1, 6.0, 3.0)];
        assert_eq!(chosen(&ranked, true), vec![0]);
        // Nothing strong, nothing cited.
        assert!(chosen(&[m(0, 10.0, 1.0)], true).is_empty());
    }

    /// Two Go files in resty's shape: `client.go` holds setters whose docs say what the
    /// question asks; `middleware.go` holds the function whose body does it.
    const SETTERS: &str = "\
// SetAuthToken sets the Authorization header token; the default scheme is Bearer.
func (c *Client) SetAuthToken(token string) *Client {
\tc.Token = token
\treturn c
}
";
    const MIDDLEWARE: &str = "\
func addCredentials(c *Client, r *Request) error {
\tif r.Token != \"\" {
\t\tr.RawRequest.Header.Set(\"Authorization\", \"Bearer \"+r.Token)
\t}
\treturn nil
}

func parseRequestHeader(c *Client, r *Request) error {
\treturn nil
}
";

    #[test]
    fn the_body_that_does_it_outscores_the_setter_that_says_it() {
        let sym = |name: &str, file: usize, line: u32, end_line: u32, doc: &str| SymbolInfo {
            name: name.into(),
            display: name.into(),
            kind: if file == 0 { "method" } else { "function" }.into(),
            file,
            line,
            end_line,
            doc: doc.into(),
        };
        let idx = LexIndex::build(Corpus {
            files: vec!["client.go".into(), "middleware.go".into()],
            symbols: vec![
                sym(
                    "SetAuthToken",
                    0,
                    2,
                    5,
                    "SetAuthToken sets the Authorization header token; the default scheme is Bearer.",
                ),
                sym("addCredentials", 1, 1, 6, ""),
                sym("parseRequestHeader", 1, 8, 10, ""),
            ],
            edges: Vec::new(),
        });
        let question =
            "where is the Authorization header with the bearer token added to the request";
        let (terms, weights): (Vec<String>, Vec<f64>) =
            text::query_terms_weighted(question).into_iter().unzip();
        let q = Question {
            terms: &terms,
            weights: &weights,
            phrases: &[],
            names: &[],
        };
        let best = best_bodies(&idx, &[(0, SETTERS), (1, MIDDLEWARE)], &q);
        assert_eq!(best.len(), 2);
        assert!(best[1] > best[0], "{best:?}");
        // A question none of whose words a body holds twice scores no body at all.
        let (terms, weights): (Vec<String>, Vec<f64>) =
            text::query_terms_weighted("where are retries scheduled")
                .into_iter()
                .unzip();
        let q = Question {
            terms: &terms,
            weights: &weights,
            phrases: &[],
            names: &[],
        };
        assert_eq!(
            best_bodies(&idx, &[(0, SETTERS), (1, MIDDLEWARE)], &q),
            vec![0.0, 0.0]
        );
    }

    /// A type asked for by description is found by its doc comment and variants, not by
    /// its name; an `impl` block for an outside type is no type definition.
    #[test]
    fn a_described_type_is_found_by_its_doc_and_variants() {
        let src = "\
/// The result of a parse: the rest of the input and the output.
pub type IResult<I, O> = Result<(I, O), Err>;

/// Contains information on needed data if a parser returned `Incomplete`
#[derive(Debug)]
pub enum Needed {
  /// Needs more data, but we do not know how much
  Unknown,
  /// Contains the number of needed bytes
  Size(usize),
}

// kept for the parsers that stream their input
impl ParseError for (Input, More) {
  fn more(self) -> bool { true }
}

/// Reports how much input was consumed by a parser.
pub fn consumed(input: &str) -> usize {
  input.len()
}
";
        let sym = |name: &str, kind: &str, line: u32, end_line: u32| SymbolInfo {
            name: name.into(),
            display: name.into(),
            kind: kind.into(),
            file: 0,
            line,
            end_line,
            doc: String::new(),
        };
        let idx = LexIndex::build(Corpus {
            files: vec!["src/internal.rs".into()],
            symbols: vec![
                sym("IResult", "type", 2, 2),
                sym("Needed", "type", 6, 11),
                sym("(Input, More)", "type", 14, 16),
                sym("consumed", "function", 19, 21),
            ],
            edges: Vec::new(),
        });
        let ask = |question: &str, kinds: &[&str]| {
            let (terms, weights): (Vec<String>, Vec<f64>) =
                text::query_terms_weighted(question).into_iter().unzip();
            let q = Question {
                terms: &terms,
                weights: &weights,
                phrases: &[],
                names: &[],
            };
            rank_types(&idx, 0, src, &q, kinds)
                .into_iter()
                .filter(BodyMatch::strong)
                .map(|m| idx.corpus().symbols[m.symbol].name.clone())
                .collect::<Vec<_>>()
        };
        let got = ask(
            "the enum saying how much more input a streaming parser wants",
            &["type", "class"],
        );
        assert_eq!(got.first().map(String::as_str), Some("Needed"), "{got:?}");
        assert!(!got.contains(&"(Input, More)".to_string()), "{got:?}");
        // Functions are not types: the function that says "input" and "parser" is not cited.
        assert!(!got.contains(&"consumed".to_string()), "{got:?}");
        // Only the kinds asked for: a trait question finds no enum.
        assert!(
            ask(
                "the trait saying how much more input a parser wants",
                &["interface"]
            )
            .is_empty()
        );
        let lines: Vec<&str> = src.lines().collect();
        assert_eq!(doc_start(&lines, 5), 3);
        assert_eq!(doc_start(&lines, 1), 0);
    }
}
