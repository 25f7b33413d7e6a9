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

use super::classify::{self, Discount, Focus, PathClass};
use super::text;

/// One symbol, as the code graph reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
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
/// lexical score.
pub const PAGERANK_WEIGHT: f64 = 0.3;
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

#[derive(Debug, Default, Clone)]
struct FileFields {
    path: HashMap<String, f64>,
    names: HashMap<String, f64>,
    docs: HashMap<String, f64>,
    path_len: f64,
    names_len: f64,
    docs_len: f64,
}

/// The lexical index of a corpus: built once per repository state, queried many times.
#[derive(Debug, Clone)]
pub struct LexIndex {
    corpus: Corpus,
    fields: Vec<FileFields>,
    df: HashMap<String, usize>,
    avg: (f64, f64, f64),
    /// Symbols of each file.
    by_file: Vec<Vec<usize>>,
    /// File-level call graph: out-edges with weights.
    file_edges: Vec<Vec<(usize, f64)>>,
    classes: Vec<PathClass>,
    /// Incoming edges per symbol, from first-party code.
    in_degree: Vec<usize>,
    /// Every file's content, indexed the first time a pasted report needs it.
    content: std::sync::OnceLock<std::sync::Arc<super::report::ContentIndex>>,
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
}

fn add_terms(map: &mut HashMap<String, f64>, s: &str) -> f64 {
    let mut n = 0.0;
    for t in text::index_terms(s) {
        *map.entry(t).or_insert(0.0) += 1.0;
        n += 1.0;
    }
    n
}

/// [`add_terms`] with the terms of each distinct text computed once.
fn add_terms_memo<'a>(
    map: &mut HashMap<String, f64>,
    s: &'a str,
    memo: &mut HashMap<&'a str, Vec<String>>,
) -> f64 {
    let terms = memo.entry(s).or_insert_with(|| text::index_terms(s));
    for t in terms.iter() {
        match map.get_mut(t) {
            Some(c) => *c += 1.0,
            None => {
                map.insert(t.clone(), 1.0);
            }
        }
    }
    terms.len() as f64
}

impl LexIndex {
    /// Indexes a corpus.
    pub fn build(corpus: Corpus) -> Self {
        let n = corpus.files.len();
        let mut fields = vec![FileFields::default(); n];
        let mut by_file = vec![Vec::new(); n];
        for (i, path) in corpus.files.iter().enumerate() {
            // The extension is noise; directories and the file stem are signal.
            let stem = path.rsplit_once('.').map_or(path.as_str(), |(s, _)| s);
            fields[i].path_len = add_terms(&mut fields[i].path, stem);
        }
        // Names repeat across a big repository (`New`, `__init__`, `String`, `Error`), so
        // each distinct name or doc line is split and stemmed once.
        let mut memo: HashMap<&str, Vec<String>> = HashMap::new();
        for (si, s) in corpus.symbols.iter().enumerate() {
            let Some(f) = fields.get_mut(s.file) else {
                continue;
            };
            by_file[s.file].push(si);
            f.names_len += add_terms_memo(&mut f.names, &s.name, &mut memo);
            f.docs_len += add_terms_memo(&mut f.docs, &s.doc, &mut memo);
        }
        drop(memo);
        let mut df: HashMap<String, usize> = HashMap::new();
        for f in &fields {
            let mut seen: Vec<&String> = f.path.keys().chain(f.names.keys()).collect();
            seen.extend(f.docs.keys());
            seen.sort();
            seen.dedup();
            for t in seen {
                *df.entry(t.clone()).or_insert(0) += 1;
            }
        }
        let avg_of = |g: &dyn Fn(&FileFields) -> f64| {
            if n == 0 {
                1.0
            } else {
                (fields.iter().map(g).sum::<f64>() / n as f64).max(1.0)
            }
        };
        let avg = (
            avg_of(&|f| f.path_len),
            avg_of(&|f| f.names_len),
            avg_of(&|f| f.docs_len),
        );
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
            file_edges[a].push((b, w));
            file_edges[b].push((a, w * 0.5));
        }
        let classes: Vec<PathClass> = corpus.files.iter().map(|p| classify::classify(p)).collect();
        // Distinct callers; callers from tests, vendored and generated code do not make a
        // symbol central.
        let mut in_degree = vec![0; corpus.symbols.len()];
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
        Self {
            in_degree,
            content: std::sync::OnceLock::new(),
            corpus,
            fields,
            df,
            avg,
            by_file,
            file_edges,
            classes,
        }
    }

    /// The content index of the corpus's files, built by `build` on first use.
    pub fn content_index(
        &self,
        build: impl FnOnce() -> super::report::ContentIndex,
    ) -> std::sync::Arc<super::report::ContentIndex> {
        self.content
            .get_or_init(|| std::sync::Arc::new(build()))
            .clone()
    }

    /// The path class of file `f` (the default for an unknown file).
    pub fn class_of(&self, f: usize) -> PathClass {
        self.classes.get(f).copied().unwrap_or_default()
    }

    /// The indexed corpus.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// Inverse document frequency of a term (BM25's, always positive).
    pub fn idf(&self, term: &str) -> f64 {
        let n = self.corpus.files.len() as f64;
        let df = self.df.get(term).copied().unwrap_or(0) as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// True when some file's path, symbol names or docs hold the term.
    pub fn knows(&self, term: &str) -> bool {
        self.df.contains_key(term)
    }

    fn weighted_tf(&self, f: usize, term: &str, content: Option<&HashMap<String, f64>>) -> f64 {
        let ff = &self.fields[f];
        let norm = |tf: f64, len: f64, avg: f64, b: f64| tf / (1.0 - b + b * len / avg);
        let mut tf = 0.0;
        if let Some(&x) = ff.path.get(term) {
            tf += PATH_W * norm(x, ff.path_len, self.avg.0, PATH_B);
        }
        if let Some(&x) = ff.names.get(term) {
            tf += NAME_W * norm(x, ff.names_len, self.avg.1, NAME_B);
        }
        if let Some(&x) = ff.docs.get(term) {
            tf += DOC_W * norm(x, ff.docs_len, self.avg.2, DOC_B);
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
        content: Option<&HashMap<String, f64>>,
    ) -> (f64, Vec<String>, f64) {
        let mut score = 0.0;
        let mut matched = Vec::new();
        let mut evidence = 0.0;
        for (i, t) in terms.iter().enumerate() {
            let tw = weights.get(i).copied().unwrap_or(1.0);
            let mut best = 0.0;
            let mut via = None;
            let forms = std::iter::once((t.as_str(), 1.0)).chain(text::synonyms(t).iter().copied());
            for (form, weight) in forms {
                let tf = self.weighted_tf(f, form, content);
                if tf > 0.0 {
                    let s = weight * self.idf(form) * tf * (K1 + 1.0) / (K1 + tf);
                    if s > best {
                        best = s;
                        via = Some((form, weight));
                    }
                }
            }
            if let Some((form, weight)) = via {
                score += tw * best;
                matched.push(t.clone());
                evidence += tw * weight * self.idf(form);
            }
        }
        (score, matched, evidence)
    }

    /// How well one symbol matches the question: idf of the terms in its name (counted
    /// double) and doc comment, each term by its weight (an action word like "read" or
    /// "handled" counts less than the topic), a missing weight counting 1.
    pub fn symbol_score(&self, si: usize, terms: &[String], weights: &[f64]) -> f64 {
        let Some(s) = self.corpus.symbols.get(si) else {
            return 0.0;
        };
        // In a file whose path matches ("retry/retry.go"), names need not repeat the
        // topic: there the symbols the rest of the code calls most are the file's API.
        let path_idf = self
            .fields
            .get(s.file)
            .map(|f| {
                terms
                    .iter()
                    .filter(|t| f.path.contains_key(*t))
                    .map(|t| self.idf(t))
                    .fold(0.0, f64::max)
            })
            .unwrap_or(0.0);
        let callers = self.in_degree.get(si).copied().unwrap_or(0) as f64;
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
                let idf = self.idf(form);
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
    pub fn symbols_in(&self, f: usize) -> &[usize] {
        self.by_file.get(f).map_or(&[], Vec::as_slice)
    }

    /// How many other first-party symbols call, use or implement symbol `si`.
    pub fn callers_of(&self, si: usize) -> usize {
        self.in_degree.get(si).copied().unwrap_or(0)
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
        if terms.is_empty() || self.corpus.files.is_empty() {
            return Vec::new();
        }
        // Stage 1: metadata only, every file.
        let mut first: Vec<(usize, f64)> = (0..self.corpus.files.len())
            .filter_map(|f| {
                let (s, _, _) = self.score_file(f, terms, weights, None);
                (s > 0.0).then_some((f, s))
            })
            .collect();
        first.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        first.truncate(SHORTLIST);
        // Stage 2: the shortlist with content.
        let mut lex: HashMap<usize, (f64, Vec<String>, f64)> = HashMap::new();
        for &(f, _) in &first {
            let c = content(&self.corpus.files[f]);
            let (s, m, e) = self.score_file(f, terms, weights, c.as_ref());
            let s = s * self.classes[f].discount(focus);
            lex.insert(f, (s, m, e));
        }
        let top_lex = lex.values().map(|x| x.0).fold(0.0, f64::max);
        if top_lex <= 0.0 {
            return Vec::new();
        }
        let ppr = self.pagerank(&lex.iter().map(|(&f, x)| (f, x.0)).collect::<Vec<_>>());
        let top_ppr = lex
            .keys()
            .map(|f| ppr.get(*f).copied().unwrap_or(0.0))
            .fold(0.0, f64::max);
        let mut out: Vec<RankedFile> = lex
            .into_iter()
            .map(|(f, (s, matched, evidence))| {
                let pr = if top_ppr > 0.0 {
                    ppr.get(f).copied().unwrap_or(0.0) / top_ppr
                } else {
                    0.0
                };
                let score =
                    s / top_lex + PAGERANK_WEIGHT * pr * self.classes[f].discount(focus).min(1.0);
                let mut symbols: Vec<(usize, f64)> = self.by_file[f]
                    .iter()
                    .map(|&si| (si, self.symbol_score(si, terms, weights)))
                    .filter(|x| x.1 > 0.0)
                    .collect();
                symbols.sort_by(|a, b| {
                    b.1.total_cmp(&a.1).then(
                        self.corpus.symbols[a.0]
                            .line
                            .cmp(&self.corpus.symbols[b.0].line),
                    )
                });
                RankedFile {
                    file: f,
                    score,
                    lexical: s,
                    evidence,
                    matched,
                    symbols: symbols.into_iter().map(|x| x.0).collect(),
                }
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
        let n = self.corpus.files.len();
        let total: f64 = seeds.iter().map(|s| s.1).sum();
        if n == 0 || total <= 0.0 {
            return vec![0.0; n];
        }
        let mut p = vec![0.0; n];
        for &(f, s) in seeds {
            p[f] = s / total;
        }
        let out_w: Vec<f64> = self
            .file_edges
            .iter()
            .map(|e| e.iter().map(|x| x.1).sum())
            .collect();
        let mut r = p.clone();
        for _ in 0..30 {
            let mut next: Vec<f64> = p.iter().map(|x| (1.0 - DAMPING) * x).collect();
            let mut dangling = 0.0;
            for f in 0..n {
                if out_w[f] <= 0.0 {
                    dangling += r[f];
                    continue;
                }
                for &(g, w) in &self.file_edges[f] {
                    next[g] += DAMPING * r[f] * w / out_w[f];
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

/// How many files get their content read in stage 2.
const SHORTLIST: usize = 24;

/// Term counts of a file's text, for [`LexIndex::rank`]'s content callback.
pub fn content_terms(text: &str) -> HashMap<String, f64> {
    let mut m = HashMap::new();
    add_terms(&mut m, text);
    m
}

#[cfg(test)]
mod tests {
    use super::*;

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
