//! Ranking files for a concept question: BM25F over what the code graph knows, then a
//! personalised PageRank over the call graph.
//!
//! Each file is a document with three fields built without reading it: its path segments,
//! the words of the symbol names it defines (split at case changes and underscores), and
//! the words of their doc comments. A fourth field, the file's content, is added only for
//! the shortlist, so a question costs a few file reads, not a pass over the repository.
//!
//! Scores combine per field as in BM25F: a term's frequency is summed over fields, each
//! weighted and length-normalised, then saturated once (`tf / (k1 + tf)`) and multiplied
//! by the term's inverse document frequency. A question term also matches its synonyms at
//! a discount, and counts once, at its best form.
//!
//! Lexical scores then seed a personalised PageRank over the file graph (an edge for
//! every call between files): as in Aider's repository map, files the matched files call
//! into, or are called from, gain rank, so the handler that everything reaches outranks a
//! file that merely mentions the word. Test, vendored and generated files are discounted
//! unless the question asks for them.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::classify::{self, Discount, Focus, PathClass};
use super::content::ContentIndex;
use super::text;

/// One symbol, as the code graph reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolInfo {
    /// Short name (`Plan`).
    pub name: String,
    /// Name qualified by its owner (`Planner.Plan`), or the name itself.
    pub display: String,
    /// Kind in the code tool's words (`function`, `method`, `struct`, …).
    pub kind: String,
    /// Index of its file in [`Corpus::files`].
    pub file: usize,
    /// First line, 1-based.
    pub line: u32,
    /// Last line, inclusive.
    pub end_line: u32,
    /// Its doc comment, possibly empty.
    pub doc: String,
}

/// What the ranking works on: files, their symbols, and calls between symbols.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Repo-relative paths.
    pub files: Vec<String>,
    /// Symbols.
    pub symbols: Vec<SymbolInfo>,
    /// Calls and references, symbol index to symbol index.
    pub edges: Vec<(usize, usize)>,
}

/// Field weights and length-normalisation strengths (BM25F's `w` and `b`).
const PATH_W: f64 = 3.0;
const PATH_B: f64 = 0.3;
const NAME_W: f64 = 2.0;
const NAME_B: f64 = 0.5;
const DOC_W: f64 = 1.0;
const DOC_B: f64 = 0.75;
const CONTENT_W: f64 = 0.4;
const CONTENT_B: f64 = 0.75;
/// BM25's saturation constant.
const K1: f64 = 1.2;
/// How much a file's PageRank (normalised to the best file's) adds to its normalised
/// lexical score: enough to break near ties toward the code the matches call, not so much
/// that a hub every caller uses (`client.go`, `lib.rs`, `datetime.js`) outranks the file
/// that does the thing. 0.1 to 0.25 rank concept questions better than 0.3 on every suite
/// of rounds 1 to 9 (132 to 135 of 175 first, against 130), 0.45 and up worse.
pub const PAGERANK_WEIGHT: f64 = 0.15;
/// PageRank's damping factor.
const DAMPING: f64 = 0.85;
/// A file is kept when its score is at least this share of the best file's.
pub const RELATIVE_CUTOFF: f64 = 0.3;
/// The best file must match question terms whose idf sums to at least this, else the
/// question is answered `not_found`: a single term present in most files (idf < 0.7) is not
/// an answer.
pub const MIN_EVIDENCE: f64 = 1.0;
/// Most files a concept answer lists from the ranking (the loop runs at most eight calls
/// a turn: seven reads and one `code` call to follow the best symbol).
pub const MAX_FILES: usize = 7;

/// One file's occurrences of a term in BM25F's three metadata fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posting {
    /// The file, an index into [`LexIndex::files`].
    pub file: u32,
    /// Occurrences in its path, in the names of its symbols and in their docs.
    pub tf: [u32; 3],
}

/// Where an index keeps what a question reads only in part: the postings of each term and
/// the symbol records. In memory after [`LexIndex::build`]; in the persisted file
/// (`lexfile`) for a warm index, where only the question's terms and the shortlist's
/// symbols are read.
pub(crate) trait Backing: Send + Sync + std::fmt::Debug {
    /// In how many files the term occurs (0: nowhere).
    fn df(&self, term: &str) -> usize;
    /// The files holding the term, in file order.
    fn postings(&self, term: &str) -> Vec<Posting>;
    /// One symbol.
    fn symbol(&self, si: usize) -> Option<SymbolInfo>;
    /// Every file and symbol. A persisted index reads its symbols on the first call and
    /// keeps no edges (the ranking only needed them to build the file graph).
    fn corpus(&self) -> &Corpus;
    /// The first problem reading the backing ran into: answers may be incomplete.
    fn failure(&self) -> Option<String> {
        None
    }
    /// The in-memory tables, which only a freshly built index has (to be written out).
    fn memory(&self) -> Option<&Memory> {
        None
    }
}

/// The in-memory backing of a freshly built index.
#[derive(Debug)]
pub(crate) struct Memory {
    pub corpus: Corpus,
    pub postings: HashMap<String, Vec<Posting>>,
}

/// What an index holds in memory whatever its backing: small per-file and per-symbol
/// tables that every question reads whole (the file graph for the PageRank among them).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Parts {
    /// Repo-relative paths.
    pub files: Vec<String>,
    /// Per file: how many terms its path, symbol names and docs hold.
    pub lens: Vec<[u32; 3]>,
    /// Symbols of each file, in corpus order.
    pub by_file: Vec<Vec<u32>>,
    /// File-level call graph: out-edges with weights, in the order they were built.
    pub file_edges: Vec<Vec<(u32, f64)>>,
    /// Distinct first-party callers per symbol.
    pub in_degree: Vec<u32>,
}

/// The lexical index of a corpus: built once per repository state, queried many times.
#[derive(Debug)]
pub struct LexIndex {
    parts: Parts,
    avg: (f64, f64, f64),
    classes: Vec<PathClass>,
    backing: Box<dyn Backing>,
    /// Every file's content, read or built the first time a pasted report needs it.
    content: std::sync::Mutex<Option<std::sync::Arc<ContentIndex>>>,
    /// The file the index was written to or read from.
    stored: std::sync::OnceLock<super::lexfile::Stored>,
}

/// A ranked file.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedFile {
    /// Index into [`Corpus::files`].
    pub file: usize,
    /// Final score.
    pub score: f64,
    /// Lexical score alone (after path-class discounts).
    pub lexical: f64,
    /// Sum of idf over the question terms the file matched.
    pub evidence: f64,
    /// Matched question terms.
    pub matched: Vec<String>,
    /// Its symbols that match the question, best first.
    pub symbols: Vec<usize>,
    /// The question spells out its name or one of its symbols' (it was lifted first).
    pub named: bool,
}

fn add_terms(map: &mut HashMap<String, f64>, s: &str) -> f64 {
    let mut n = 0.0;
    for t in text::index_terms(s) {
        *map.entry(t).or_insert(0.0) += 1.0;
        n += 1.0;
    }
    n
}

/// Counts the terms of `s` into field `field` of a file's term table; returns how many.
fn count_terms(map: &mut HashMap<String, [u32; 3]>, terms: &[String], field: usize) -> u32 {
    for t in terms {
        match map.get_mut(t) {
            Some(c) => c[field] += 1,
            None => {
                let mut c = [0; 3];
                c[field] = 1;
                map.insert(t.clone(), c);
            }
        }
    }
    u32::try_from(terms.len()).unwrap_or(u32::MAX)
}

/// The part of a path that is signal: directories and the file stem (the extension is
/// noise).
fn path_stem(path: &str) -> &str {
    path.rsplit_once('.').map_or(path, |(s, _)| s)
}

/// A question term's form (itself or a synonym) as the ranking of one question needs it:
/// its idf and the files holding it.
struct Form {
    idf: f64,
    tf: HashMap<usize, [u32; 3]>,
}

impl LexIndex {
    /// Indexes a corpus in memory.
    pub fn build(corpus: Corpus) -> Self {
        let n = corpus.files.len();
        let mut tables: Vec<HashMap<String, [u32; 3]>> = vec![HashMap::new(); n];
        let mut lens = vec![[0u32; 3]; n];
        let mut by_file = vec![Vec::new(); n];
        for (i, path) in corpus.files.iter().enumerate() {
            lens[i][0] = count_terms(&mut tables[i], &text::index_terms(path_stem(path)), 0);
        }
        // Names repeat across a big repository (`New`, `__init__`, `String`, `Error`), so
        // each distinct name or doc line is split and stemmed once.
        let mut memo: HashMap<&str, Vec<String>> = HashMap::new();
        for (si, s) in corpus.symbols.iter().enumerate() {
            let Some(table) = tables.get_mut(s.file) else {
                continue;
            };
            by_file[s.file].push(u32::try_from(si).unwrap_or(u32::MAX));
            for (field, text) in [(1, s.name.as_str()), (2, s.doc.as_str())] {
                let terms = memo.entry(text).or_insert_with(|| text::index_terms(text));
                lens[s.file][field] += count_terms(table, terms, field);
            }
        }
        drop(memo);
        // Inverted: each term's files, in file order.
        let mut postings: HashMap<String, Vec<Posting>> = HashMap::new();
        for (f, table) in tables.into_iter().enumerate() {
            let file = u32::try_from(f).unwrap_or(u32::MAX);
            for (t, tf) in table {
                postings.entry(t).or_default().push(Posting { file, tf });
            }
        }
        let mut weights: HashMap<(usize, usize), f64> = HashMap::new();
        for &(a, b) in &corpus.edges {
            let (Some(sa), Some(sb)) = (corpus.symbols.get(a), corpus.symbols.get(b)) else {
                continue;
            };
            if sa.file != sb.file {
                *weights.entry((sa.file, sb.file)).or_insert(0.0) += 1.0;
            }
        }
        let mut file_edges = vec![Vec::new(); n];
        let mut pairs: Vec<_> = weights.into_iter().collect();
        pairs.sort_by_key(|x| x.0);
        for ((a, b), w) in pairs {
            // Rank flows both ways: a file matters when relevant files call it and when it
            // calls into them.
            let (a32, b32) = (
                u32::try_from(a).unwrap_or(u32::MAX),
                u32::try_from(b).unwrap_or(u32::MAX),
            );
            file_edges[a].push((b32, w));
            file_edges[b].push((a32, w * 0.5));
        }
        let classes: Vec<PathClass> = corpus.files.iter().map(|p| classify::classify(p)).collect();
        // Distinct callers; callers from tests, vendored and generated code do not make a
        // symbol central.
        let mut in_degree = vec![0u32; corpus.symbols.len()];
        let mut pairs_seen: Vec<(usize, usize)> = corpus.edges.clone();
        pairs_seen.sort_unstable();
        pairs_seen.dedup();
        for &(a, b) in &pairs_seen {
            let from_real = corpus
                .symbols
                .get(a)
                .and_then(|s| classes.get(s.file))
                .is_some_and(|c: &PathClass| !c.secondary());
            if a != b
                && from_real
                && let Some(d) = in_degree.get_mut(b)
            {
                *d += 1;
            }
        }
        let parts = Parts {
            files: corpus.files.clone(),
            lens,
            by_file,
            file_edges,
            in_degree,
        };
        Self::with_classes(parts, classes, Box::new(Memory { corpus, postings }))
    }

    /// An index over tables read back from a persisted file.
    pub(crate) fn from_parts(parts: Parts, backing: Box<dyn Backing>) -> Self {
        let classes = parts.files.iter().map(|p| classify::classify(p)).collect();
        Self::with_classes(parts, classes, backing)
    }

    fn with_classes(parts: Parts, classes: Vec<PathClass>, backing: Box<dyn Backing>) -> Self {
        let n = parts.files.len();
        // Sums of whole numbers: exact in any order, so a persisted index averages alike.
        let avg_of = |field: usize| {
            if n == 0 {
                1.0
            } else {
                (parts.lens.iter().map(|l| f64::from(l[field])).sum::<f64>() / n as f64).max(1.0)
            }
        };
        let avg = (avg_of(0), avg_of(1), avg_of(2));
        Self {
            parts,
            avg,
            classes,
            backing,
            content: std::sync::Mutex::new(None),
            stored: std::sync::OnceLock::new(),
        }
    }

    /// The content index of the corpus's files, made by `make` on first use.
    pub fn content_index(
        &self,
        make: impl FnOnce() -> ContentIndex,
    ) -> std::sync::Arc<ContentIndex> {
        let mut slot = match self.content.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        slot.get_or_insert_with(|| std::sync::Arc::new(make()))
            .clone()
    }

    /// Replaces the content index (one that a lookup found damaged).
    pub(crate) fn set_content_index(&self, content: std::sync::Arc<ContentIndex>) {
        let mut slot = match self.content.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        *slot = Some(content);
    }

    /// The file the index was written to or read from, if any.
    pub(crate) fn stored(&self) -> Option<&super::lexfile::Stored> {
        self.stored.get()
    }

    pub(crate) fn set_stored(&self, stored: super::lexfile::Stored) {
        let _ = self.stored.set(stored);
    }

    /// The path class of file `f` (the default for an unknown file).
    pub fn class_of(&self, f: usize) -> PathClass {
        self.classes.get(f).copied().unwrap_or_default()
    }

    /// The tables every question reads whole, for the persisted file.
    pub(crate) fn parts(&self) -> &Parts {
        &self.parts
    }

    /// Where the postings and symbols are kept.
    pub(crate) fn backing(&self) -> &dyn Backing {
        &*self.backing
    }

    /// The indexed corpus: every file and symbol. A persisted index reads all its symbol
    /// records on the first call; prefer [`LexIndex::files`] and [`LexIndex::symbol`].
    pub fn corpus(&self) -> &Corpus {
        self.backing.corpus()
    }

    /// The indexed files (repo-relative paths).
    pub fn files(&self) -> &[String] {
        &self.parts.files
    }

    /// One symbol of the corpus.
    pub fn symbol(&self, si: usize) -> Option<SymbolInfo> {
        self.backing.symbol(si)
    }

    /// The first problem reading a persisted index ran into, if any: the answers it gave
    /// may be incomplete, and the file should be rebuilt.
    pub fn failure(&self) -> Option<String> {
        self.backing.failure()
    }

    /// Inverse document frequency of a term (BM25's, always positive).
    pub fn idf(&self, term: &str) -> f64 {
        idf_of(self.parts.files.len(), self.backing.df(term))
    }

    /// In how many files' paths, symbol names or docs the term is.
    pub fn df(&self, term: &str) -> usize {
        self.backing.df(term)
    }

    /// True when some file's path, symbol names or docs hold the term.
    pub fn knows(&self, term: &str) -> bool {
        self.backing.df(term) > 0
    }

    /// Each question term and its synonyms, with their idf and postings: all the ranking
    /// reads of the term tables.
    fn forms<'a>(&self, terms: &'a [String]) -> HashMap<&'a str, Form> {
        let mut forms: HashMap<&'a str, Form> = HashMap::new();
        for t in terms {
            let all = std::iter::once(t.as_str()).chain(text::synonyms(t).iter().map(|x| x.0));
            for form in all {
                if forms.contains_key(form) {
                    continue;
                }
                let postings = self.backing.postings(form);
                let idf = idf_of(self.parts.files.len(), postings.len());
                let tf = postings
                    .into_iter()
                    .map(|p| (p.file as usize, p.tf))
                    .collect();
                forms.insert(form, Form { idf, tf });
            }
        }
        forms
    }

    fn weighted_tf(
        &self,
        f: usize,
        fields: Option<&[u32; 3]>,
        term: &str,
        content: Option<&HashMap<String, f64>>,
    ) -> f64 {
        let norm = |tf: f64, len: f64, avg: f64, b: f64| tf / (1.0 - b + b * len / avg);
        let len = self.parts.lens.get(f).copied().unwrap_or_default();
        let mut tf = 0.0;
        if let Some(x) = fields {
            if x[0] > 0 {
                tf += PATH_W * norm(f64::from(x[0]), f64::from(len[0]), self.avg.0, PATH_B);
            }
            if x[1] > 0 {
                tf += NAME_W * norm(f64::from(x[1]), f64::from(len[1]), self.avg.1, NAME_B);
            }
            if x[2] > 0 {
                tf += DOC_W * norm(f64::from(x[2]), f64::from(len[2]), self.avg.2, DOC_B);
            }
        }
        if let Some(c) = content
            && let Some(&x) = c.get(term)
        {
            let len: f64 = c.values().sum();
            tf += CONTENT_W * norm(x, len, 400.0, CONTENT_B);
        }
        tf
    }

    /// The BM25F score of one file and the question terms it matched (with the idf sum).
    fn score_file(
        &self,
        f: usize,
        terms: &[String],
        weights: &[f64],
        forms: &HashMap<&str, Form>,
        content: Option<&HashMap<String, f64>>,
    ) -> (f64, Vec<String>, f64) {
        let mut score = 0.0;
        let mut matched = Vec::new();
        let mut evidence = 0.0;
        for (i, t) in terms.iter().enumerate() {
            let tw = weights.get(i).copied().unwrap_or(1.0);
            let mut best = 0.0;
            let mut via = None;
            let all = std::iter::once((t.as_str(), 1.0)).chain(text::synonyms(t).iter().copied());
            for (form, weight) in all {
                let Some(fm) = forms.get(form) else {
                    continue;
                };
                let tf = self.weighted_tf(f, fm.tf.get(&f), form, content);
                if tf > 0.0 {
                    let s = weight * fm.idf * tf * (K1 + 1.0) / (K1 + tf);
                    if s > best {
                        best = s;
                        via = Some((fm.idf, weight));
                    }
                }
            }
            if let Some((idf, weight)) = via {
                score += tw * best;
                matched.push(t.clone());
                evidence += tw * weight * idf;
            }
        }
        (score, matched, evidence)
    }

    /// The stemmed words of a file's path, as its path field holds them.
    fn path_terms(&self, f: usize) -> Option<Vec<String>> {
        self.parts
            .files
            .get(f)
            .map(|p| text::index_terms(path_stem(p)))
    }

    /// How well one symbol matches the question: idf of the terms in its name (counted
    /// double) and doc comment, each term by its weight (an action word like "read" or
    /// "handled" counts less than the topic), a missing weight counting 1.
    pub fn symbol_score(&self, si: usize, terms: &[String], weights: &[f64]) -> f64 {
        let Some(s) = self.symbol(si) else {
            return 0.0;
        };
        self.score_symbol(si, &s, terms, weights, &|t| self.idf(t))
    }

    fn score_symbol(
        &self,
        si: usize,
        s: &SymbolInfo,
        terms: &[String],
        weights: &[f64],
        idf: &dyn Fn(&str) -> f64,
    ) -> f64 {
        // In a file whose path matches ("retry/retry.go"), names need not repeat the
        // topic: there the symbols the rest of the code calls most are the file's API.
        let path_idf = self
            .path_terms(s.file)
            .map(|path| {
                terms
                    .iter()
                    .filter(|t| path.contains(t))
                    .map(|t| idf(t))
                    .fold(0.0, f64::max)
            })
            .unwrap_or(0.0);
        let callers = f64::from(self.parts.in_degree.get(si).copied().unwrap_or(0));
        let structural = 0.3 * path_idf * (1.0 + callers).ln();
        let kind_factor = if matches!(s.kind.as_str(), "const" | "var") {
            0.6
        } else {
            1.0
        };
        let name = text::index_terms(&s.name);
        let doc = text::index_terms(&s.doc);
        let mut score = 0.0;
        for (i, t) in terms.iter().enumerate() {
            let forms = std::iter::once((t.as_str(), 1.0)).chain(text::synonyms(t).iter().copied());
            let mut best: f64 = 0.0;
            for (form, w) in forms {
                let idf = idf(form);
                if name.iter().any(|x| x == form) {
                    best = best.max(2.0 * w * idf);
                } else if doc.iter().any(|x| x == form) {
                    best = best.max(w * idf);
                }
            }
            score += best * weights.get(i).copied().unwrap_or(1.0);
        }
        (score + structural) * kind_factor
    }

    /// The symbols defined in file `f`.
    pub fn symbols_in(&self, f: usize) -> Vec<usize> {
        self.parts
            .by_file
            .get(f)
            .map_or_else(Vec::new, |v| v.iter().map(|&s| s as usize).collect())
    }

    /// How many other first-party symbols call, use or implement symbol `si`.
    pub fn callers_of(&self, si: usize) -> usize {
        self.parts.in_degree.get(si).copied().unwrap_or(0) as usize
    }

    /// Ranks files for the question terms. `content` gives the term counts of a file's
    /// text for the shortlist (return `None` to skip a file's content). `focus` says which
    /// path classes the question is after (see [`Discount::discount`]).
    pub fn rank(
        &self,
        terms: &[String],
        weights: &[f64],
        content: &mut dyn FnMut(&str) -> Option<HashMap<String, f64>>,
        focus: Focus,
    ) -> Vec<RankedFile> {
        self.rank_with(terms, weights, content, focus, &[])
    }

    /// [`LexIndex::rank`], with `also` (files whose text holds the terms, from the content
    /// index) scored beside the shortlist of names and paths: a file that does the thing
    /// without naming it (`squashmigrations.py` for "where are migrations squashed") is
    /// not left out for want of a matching name.
    pub fn rank_with(
        &self,
        terms: &[String],
        weights: &[f64],
        content: &mut dyn FnMut(&str) -> Option<HashMap<String, f64>>,
        focus: Focus,
        also: &[usize],
    ) -> Vec<RankedFile> {
        if terms.is_empty() || self.parts.files.is_empty() {
            return Vec::new();
        }
        let forms = self.forms(terms);
        // Stage 1: metadata only, every file that holds a form of a term (the others
        // score nothing).
        let mut candidates: Vec<usize> =
            forms.values().flat_map(|f| f.tf.keys().copied()).collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut first: Vec<(usize, f64)> = candidates
            .into_iter()
            .filter_map(|f| {
                let (s, _, _) = self.score_file(f, terms, weights, &forms, None);
                (s > 0.0).then_some((f, s))
            })
            .collect();
        first.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        first.truncate(SHORTLIST);
        for &f in also {
            if f < self.parts.files.len() && !first.iter().any(|x| x.0 == f) {
                first.push((f, 0.0));
            }
        }
        // Stage 2: the shortlist with content.
        let mut lex: HashMap<usize, (f64, Vec<String>, f64)> = HashMap::new();
        for &(f, _) in &first {
            let c = content(&self.parts.files[f]);
            let (s, m, e) = self.score_file(f, terms, weights, &forms, c.as_ref());
            let s = s * self.classes[f].discount(focus);
            lex.insert(f, (s, m, e));
        }
        let top_lex = lex.values().map(|x| x.0).fold(0.0, f64::max);
        if top_lex <= 0.0 {
            return Vec::new();
        }
        // Seeds in file order: their sum is then the same on every run.
        let mut seeds: Vec<(usize, f64)> = lex.iter().map(|(&f, x)| (f, x.0)).collect();
        seeds.sort_by_key(|s| s.0);
        let ppr = self.pagerank(&seeds);
        let top_ppr = lex
            .keys()
            .map(|f| ppr.get(*f).copied().unwrap_or(0.0))
            .fold(0.0, f64::max);
        let idf = |t: &str| forms.get(t).map_or_else(|| self.idf(t), |fm: &Form| fm.idf);
        // The whole question's words ("where are amounts validated": `validate_amount`),
        // or its topic's: an action word ("compiled", weight below 1) need not be part of
        // the name ("where is the route regexp compiled": `routeRegexp`).
        let topic: Vec<String> = terms
            .iter()
            .enumerate()
            .filter(|(i, _)| weights.get(*i).copied().unwrap_or(1.0) >= 1.0)
            .map(|(_, t)| t.clone())
            .collect();
        let spelled =
            |words: Vec<String>| spells_question(&words, terms) || spells_question(&words, &topic);
        let out: Vec<(RankedFile, bool)> = lex
            .into_iter()
            .map(|(f, (s, matched, evidence))| {
                let pr = if top_ppr > 0.0 {
                    ppr.get(f).copied().unwrap_or(0.0) / top_ppr
                } else {
                    0.0
                };
                let score =
                    s / top_lex + PAGERANK_WEIGHT * pr * self.classes[f].discount(focus).min(1.0);
                let mut symbols: Vec<(usize, f64, u32, bool)> = self
                    .symbols_in(f)
                    .into_iter()
                    .filter_map(|si| {
                        let sym = self.symbol(si)?;
                        let score = self.score_symbol(si, &sym, terms, weights, &idf);
                        let exact = spelled(text::index_terms(&sym.name));
                        Some((si, score, sym.line, exact))
                    })
                    .filter(|x| x.1 > 0.0)
                    .collect();
                // The question spells out this file's or one of its symbols' name ("the
                // JSON encoder": `json_encoder.go`, `jsonEncoder`): that is its subject.
                let named = symbols.iter().any(|x| x.3)
                    || self.parts.files.get(f).is_some_and(|p| {
                        let stem = path_stem(p);
                        spelled(text::index_terms(stem.rsplit('/').next().unwrap_or(stem)))
                    });
                // Tests, samples and vendored code are not lifted: the question names the
                // thing, not its test or its copy.
                let named = named && self.classes[f].discount(focus) >= 1.0;
                symbols.sort_by(|a, b| b.3.cmp(&a.3).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
                let ranked = RankedFile {
                    file: f,
                    score,
                    lexical: s,
                    evidence,
                    matched,
                    symbols: symbols.into_iter().map(|x| x.0).collect(),
                    named,
                };
                (ranked, named)
            })
            .collect();
        // A file the question spells out goes first, spelled files in their own order,
        // just above the best of the rest (so the relative cutoff keeps what it kept).
        let best = out.iter().map(|(r, _)| r.score).fold(0.0, f64::max);
        let mut out: Vec<RankedFile> = out
            .into_iter()
            .map(|(mut r, named)| {
                if named && best > 0.0 {
                    r.score = best * (1.0 + SPELLED_LEAD * r.score / best);
                }
                r
            })
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.file.cmp(&b.file)));
        out
    }

    /// Keeps the files worth answering with: none when the best file's evidence is below
    /// [`MIN_EVIDENCE`], else those within [`RELATIVE_CUTOFF`] of the best, at most
    /// [`MAX_FILES`].
    pub fn select(ranked: Vec<RankedFile>) -> Vec<RankedFile> {
        let Some(best) = ranked.first() else {
            return Vec::new();
        };
        if best.evidence < MIN_EVIDENCE {
            return Vec::new();
        }
        let floor = best.score * RELATIVE_CUTOFF;
        ranked
            .into_iter()
            .filter(|r| r.score >= floor)
            .take(MAX_FILES)
            .collect()
    }

    /// Personalised PageRank over the file graph, restarting at `seeds` in proportion to
    /// their scores. Power iteration; dangling mass returns to the seeds.
    fn pagerank(&self, seeds: &[(usize, f64)]) -> Vec<f64> {
        let n = self.parts.files.len();
        let total: f64 = seeds.iter().map(|s| s.1).sum();
        if n == 0 || total <= 0.0 {
            return vec![0.0; n];
        }
        let mut p = vec![0.0; n];
        for &(f, s) in seeds {
            p[f] = s / total;
        }
        let edges = &self.parts.file_edges;
        let out_w: Vec<f64> = edges.iter().map(|e| e.iter().map(|x| x.1).sum()).collect();
        let mut r = p.clone();
        for _ in 0..30 {
            let mut next: Vec<f64> = p.iter().map(|x| (1.0 - DAMPING) * x).collect();
            let mut dangling = 0.0;
            for f in 0..n {
                if out_w[f] <= 0.0 {
                    dangling += r[f];
                    continue;
                }
                for &(g, w) in &edges[f] {
                    next[g as usize] += DAMPING * r[f] * w / out_w[f];
                }
            }
            for f in 0..n {
                next[f] += DAMPING * dangling * p[f];
            }
            r = next;
        }
        r
    }
}

/// BM25's inverse document frequency of a term found in `df` of `n` files.
fn idf_of(n: usize, df: usize) -> f64 {
    let (n, df) = (n as f64, df as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// How many files get their content read in stage 2.
const SHORTLIST: usize = 24;

/// How far above the best other file a file the question spells out is put
/// ([`spells_question`]), as a share of the best score (times its own share of it).
const SPELLED_LEAD: f64 = 0.1;

/// Whether a name's words are exactly the question's words, two or more of them, in any
/// order, kind words aside: "the JSON encoder" spells `jsonEncoder` and `json_encoder.go`,
/// "what methods does the reindent filter have" `ReindentFilter`;
/// `TimeEncoder.UnmarshalJSON` merely shares its words.
fn spells_question(name: &[String], terms: &[String]) -> bool {
    let terms: Vec<&str> = terms
        .iter()
        .map(String::as_str)
        .filter(|t| !super::query::is_kind_term(t) || name.iter().any(|n| n == t))
        .collect();
    if terms.len() < 2 || name.len() != terms.len() {
        return false;
    }
    let mut a: Vec<&str> = name.iter().map(String::as_str).collect();
    let mut b: Vec<&str> = terms;
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Term counts of a file's text, for [`LexIndex::rank`]'s content callback.
pub fn content_terms(text: &str) -> HashMap<String, f64> {
    let mut m = HashMap::new();
    add_terms(&mut m, text);
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_spells_a_name_with_exactly_its_words() {
        let words = |s: &str| text::index_terms(s);
        let q = words("where is the JSON encoder");
        assert!(spells_question(&words("jsonEncoder"), &q));
        assert!(spells_question(&words("json_encoder"), &q));
        assert!(spells_question(&words("EncoderJSON"), &q));
        assert!(!spells_question(&words("UnmarshalJSON"), &q));
        assert!(!spells_question(&words("JSONEncoderPool"), &q));
        // Kind words are not part of the name, unless the name has them.
        let methods = words("what methods does the reindent filter have");
        assert!(spells_question(&words("ReindentFilter"), &methods));
        assert!(spells_question(
            &words("json_encoder"),
            &words("the JSON encoder struct")
        ));
        assert!(spells_question(
            &words("TypeEncoder"),
            &words("the type encoder")
        ));
        // One word names nothing in particular.
        assert!(!spells_question(&words("encoder"), &words("the encoder")));
    }

    fn sym(name: &str, kind: &str, file: usize, line: u32, doc: &str) -> SymbolInfo {
        SymbolInfo {
            name: name.into(),
            display: name.into(),
            kind: kind.into(),
            file,
            line,
            end_line: line + 5,
            doc: doc.into(),
        }
    }

    fn corpus() -> Corpus {
        Corpus {
            files: vec![
                "internal/webhook/handler.go".into(),         // 0
                "internal/webhook/handler_test.go".into(),    // 1
                "internal/retry/retry.go".into(),             // 2
                "internal/service/event_ingest.go".into(),    // 3
                "internal/model/issue.go".into(),             // 4
                "vendor/github.com/acme/uuid/uuid.go".into(), // 5
                "internal/llm/http.go".into(),                // 6
            ],
            symbols: vec![
                sym(
                    "HandleWebhook",
                    "method",
                    0,
                    66,
                    "HandleWebhook verifies and routes a webhook delivery",
                ),
                sym("TestHandleWebhook", "function", 1, 20, ""),
                sym(
                    "Do",
                    "function",
                    2,
                    93,
                    "Do runs op with exponential backoff until it succeeds",
                ),
                sym(
                    "Backoff",
                    "method",
                    2,
                    119,
                    "Backoff returns the delay before an attempt",
                ),
                sym(
                    "Ingest",
                    "method",
                    3,
                    40,
                    "Ingest records an event under a new uuid",
                ),
                sym("Issue", "struct", 4, 51, "Issue is a tracked issue"),
                sym("New", "function", 5, 30, "New returns a random UUID"),
                sym(
                    "Complete",
                    "method",
                    6,
                    68,
                    "Complete sends a prompt, with retries",
                ),
            ],
            edges: vec![(0, 4), (1, 0), (7, 2), (0, 4)],
        }
    }

    fn no_content(_: &str) -> Option<HashMap<String, f64>> {
        None
    }

    /// A file whose symbols each carry one of the words loses to the one whose symbol is
    /// spelled by them, the question's action word aside.
    #[test]
    fn a_spelled_name_goes_first_without_its_action_word() {
        let c = Corpus {
            files: vec![
                "mux.go".into(),
                "regexp.go".into(),
                "middleware.go".into(),
                "doc.go".into(),
                "example.go".into(),
                "bench.go".into(),
            ],
            symbols: vec![
                sym("Use", "method", 2, 5, "Use appends a middleware"),
                sym("Walk", "function", 3, 5, "Walk visits the tree"),
                sym("Serve", "function", 4, 5, "Serve answers a request"),
                sym("Bench", "function", 5, 5, "Bench measures"),
                sym(
                    "Route",
                    "struct",
                    0,
                    10,
                    "Route stores information to match a request",
                ),
                sym(
                    "Regexp",
                    "method",
                    0,
                    40,
                    "Regexp returns the route's regexp",
                ),
                sym(
                    "compileRoute",
                    "function",
                    0,
                    70,
                    "compileRoute compiles the route regexp",
                ),
                sym(
                    "RouteCompiled",
                    "method",
                    0,
                    90,
                    "RouteCompiled reports a compiled route",
                ),
                sym(
                    "routeRegexp",
                    "struct",
                    1,
                    20,
                    "routeRegexp stores a regexp to match a host or path",
                ),
                sym(
                    "newRouteRegexp",
                    "function",
                    1,
                    60,
                    "newRouteRegexp parses a route template",
                ),
            ],
            edges: vec![(8, 6), (9, 4), (0, 4), (1, 5), (2, 7), (3, 6)],
        };
        let idx = LexIndex::build(c);
        let (terms, weights): (Vec<String>, Vec<f64>) =
            text::query_terms_weighted("where is the route regexp compiled")
                .into_iter()
                .unzip();
        assert!(weights.iter().any(|w| *w < 1.0), "{terms:?} {weights:?}");
        let ranked =
            LexIndex::select(idx.rank(&terms, &weights, &mut no_content, Focus::default()));
        assert_eq!(idx.corpus().files[ranked[0].file], "regexp.go");
        assert_eq!(ranked[0].symbols[0], 8, "routeRegexp cited first");
    }

    /// A file much of the code calls (the client every caller configures) does not take
    /// first place from the file that does the thing on the strength of its centrality:
    /// PageRank only breaks near ties.
    #[test]
    fn a_hub_file_does_not_outrank_the_file_that_does_the_thing() {
        let mut symbols = vec![
            sym(
                "SetAuthToken",
                "method",
                0,
                10,
                "SetAuthToken sets the token sent in the request header",
            ),
            sym(
                "SetHeader",
                "method",
                0,
                20,
                "SetHeader sets a request header",
            ),
            sym("R", "method", 0, 30, "R creates a call"),
            sym(
                "addCredentials",
                "function",
                1,
                40,
                "addCredentials adds the authorization header with the token to the request",
            ),
        ];
        let mut files: Vec<String> = vec!["client.go".into(), "middleware.go".into()];
        let mut edges = vec![(2, 3)];
        for i in 0..6 {
            files.push(format!("service{i}.go"));
            symbols.push(sym(&format!("Call{i}"), "function", 2 + i, 5, ""));
            let caller = symbols.len() - 1;
            edges.extend([(caller, 0), (caller, 1), (caller, 2)]);
        }
        let idx = LexIndex::build(Corpus {
            files,
            symbols,
            edges,
        });
        let (terms, weights): (Vec<String>, Vec<f64>) = text::query_terms_weighted(
            "where is the authorization header with the token added to the request",
        )
        .into_iter()
        .unzip();
        let ranked = idx.rank(&terms, &weights, &mut no_content, Focus::default());
        let paths: Vec<&str> = ranked
            .iter()
            .map(|r| idx.corpus().files[r.file].as_str())
            .collect();
        assert_eq!(paths[..2], ["middleware.go", "client.go"], "{ranked:?}");
    }

    #[test]
    fn webhook_question_ranks_the_handler_first_and_its_test_lower() {
        let idx = LexIndex::build(corpus());
        let terms = text::query_terms("how are webhooks handled");
        let ranked = LexIndex::select(idx.rank(&terms, &[], &mut no_content, Focus::default()));
        let paths: Vec<&str> = ranked
            .iter()
            .map(|r| idx.corpus().files[r.file].as_str())
            .collect();
        assert_eq!(
            paths,
            [
                "internal/webhook/handler.go",
                "internal/webhook/handler_test.go"
            ]
        );
        assert_eq!(ranked[0].matched, ["webhook", "handl"]);
        assert_eq!(ranked[0].symbols, [0]);
        assert!(ranked[0].score > ranked[1].score * 2.0);
    }

    #[test]
    fn retry_question_uses_synonyms_and_pagerank() {
        let idx = LexIndex::build(corpus());
        let terms = text::query_terms("where is the retry logic");
        let ranked = LexIndex::select(idx.rank(&terms, &[], &mut no_content, Focus::default()));
        let paths: Vec<&str> = ranked
            .iter()
            .map(|r| idx.corpus().files[r.file].as_str())
            .collect();
        assert_eq!(paths, ["internal/retry/retry.go", "internal/llm/http.go"]);
        // Do's doc says "backoff" (a synonym), Backoff's name says it outright.
        assert_eq!(ranked[0].symbols, [3, 2]);
    }

    #[test]
    fn symbol_scores_follow_term_weights() {
        let corpus = Corpus {
            files: vec!["a.go".into(), "b.go".into()],
            symbols: vec![
                sym("ReadThing", "function", 0, 1, ""),
                sym("EnvThing", "function", 1, 1, ""),
            ],
            edges: Vec::new(),
        };
        let idx = LexIndex::build(corpus);
        let terms = vec!["read".to_string(), "env".to_string()];
        let full = idx.symbol_score(0, &terms, &[]);
        // Same idf for both words; "read" as an action word counts 0.4.
        assert_eq!(full, idx.symbol_score(1, &terms, &[]));
        let weighted = idx.symbol_score(0, &terms, &[0.4, 1.0]);
        assert!((weighted - 0.4 * full).abs() < 1e-9, "{weighted} vs {full}");
        assert_eq!(idx.symbol_score(1, &terms, &[0.4, 1.0]), full);
    }

    #[test]
    fn nonsense_is_not_found() {
        let idx = LexIndex::build(corpus());
        for q in [
            "how is the flux capacitor calibrated",
            "FrobnicateQuux",
            "where is it",
        ] {
            let terms = text::query_terms(q);
            assert!(
                LexIndex::select(idx.rank(&terms, &[], &mut no_content, Focus::default()))
                    .is_empty(),
                "{q}"
            );
        }
    }

    #[test]
    fn content_of_the_shortlist_reranks() {
        let idx = LexIndex::build(corpus());
        let terms = text::query_terms("where is the issue event ingested");
        let mut content = |p: &str| {
            (p == "internal/service/event_ingest.go").then(|| {
                content_terms("func (s *EventIngest) Ingest(issue Issue) { issue issue issue }")
            })
        };
        let ranked = idx.rank(&terms, &[], &mut content, Focus::default());
        assert_eq!(
            idx.corpus().files[ranked[0].file],
            "internal/service/event_ingest.go"
        );
    }

    #[test]
    fn vendored_code_is_discounted() {
        let idx = LexIndex::build(corpus());
        let terms = text::query_terms("uuid");
        let ranked = idx.rank(&terms, &[], &mut no_content, Focus::default());
        let paths: Vec<&str> = ranked
            .iter()
            .map(|r| idx.corpus().files[r.file].as_str())
            .collect();
        assert_eq!(
            paths,
            [
                "internal/service/event_ingest.go",
                "vendor/github.com/acme/uuid/uuid.go"
            ]
        );
    }

    #[test]
    fn idf_is_higher_for_rarer_terms() {
        let idx = LexIndex::build(corpus());
        assert!(idx.idf("webhook") < idx.idf("backoff"));
        assert!(idx.idf("nothing") > idx.idf("backoff"));
        assert!(idx.knows("webhook"));
        assert!(!idx.knows("capacitor"));
    }
}
