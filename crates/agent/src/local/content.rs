//! Every file's content as term counts: the inverted index a pasted report is ranked by
//! (`report`).
//!
//! Building it is a full read of the tree: every source file is read and tokenised (the
//! 1.4M-line benchmark corpus: 264 MB in 13,780 files). None of it depends on the report,
//! so it is built once per state of the code index and kept beside the lexical index
//! (`contentfile`, docs/cache.md): a warm report reads the term table and the postings of
//! its own few hundred terms. A freshly built index answers from a hash map, a persisted
//! one from the file, through the same scoring code, so the two rank alike.

use std::collections::HashMap;

use super::contentfile;
use super::text;

/// Every file's content as term counts: an inverted index over the corpus's files.
pub struct ContentIndex {
    /// Terms in each file (0 for a file that could not be read).
    lengths: Vec<u32>,
    /// Mean length over the files that were read.
    avg: f64,
    /// Files that were read.
    read: usize,
    postings: Postings,
}

/// Where the postings are: term → (file, count), files in increasing order.
pub(super) enum Postings {
    /// Built in this process.
    Memory(HashMap<String, Vec<(u32, u32)>>),
    /// Read from the content file, a term's list at a time.
    File(contentfile::Reader),
}

impl std::fmt::Debug for ContentIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let terms = match &self.postings {
            Postings::Memory(m) => m.len(),
            Postings::File(r) => r.terms(),
        };
        f.debug_struct("ContentIndex")
            .field("terms", &terms)
            .field("files", &self.read)
            .finish()
    }
}

impl ContentIndex {
    /// Reads and indexes `files` (`read` gives a file's text, `None` to skip it), on every
    /// core: a large repository's sources are tens of megabytes.
    pub fn build(files: &[String], read: &(dyn Fn(&str) -> Option<String> + Sync)) -> Self {
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 8);
        let chunk = files.len().div_ceil(threads).max(1);
        let started = std::time::Instant::now();
        let counted: Vec<Vec<(usize, HashMap<String, u32>)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = files
                .chunks(chunk)
                .enumerate()
                .map(|(c, part)| {
                    scope.spawn(move || {
                        let mut memo = Memo::default();
                        part.iter()
                            .enumerate()
                            .filter_map(|(i, path)| {
                                let text = read(path)?;
                                Some((c * chunk + i, count_terms(&text, &mut memo)))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        let counted_in = started.elapsed();
        let mut postings: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut lengths = vec![0u32; files.len()];
        let mut read = 0;
        for (f, counts) in counted.into_iter().flatten() {
            read += 1;
            lengths[f] = counts.values().sum();
            let f = u32::try_from(f).unwrap_or(u32::MAX);
            for (t, c) in counts {
                postings.entry(t).or_default().push((f, c));
            }
        }
        for list in postings.values_mut() {
            list.sort_unstable();
        }
        tracing::debug!(
            "content index: {} files read and counted in {counted_in:.2?} ({threads} threads), \
             {} terms inverted in {:.2?}",
            read,
            postings.len(),
            started.elapsed() - counted_in
        );
        Self::with_postings(lengths, read, Postings::Memory(postings))
    }

    /// An index over `lengths` and the postings of `postings`, `read` files of which were
    /// read.
    pub(super) fn with_postings(lengths: Vec<u32>, read: usize, postings: Postings) -> Self {
        let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        let avg = if read == 0 {
            1.0
        } else {
            (total as f64 / read as f64).max(1.0)
        };
        ContentIndex {
            lengths,
            avg,
            read,
            postings,
        }
    }

    /// Terms in each file.
    pub(super) fn lengths(&self) -> &[u32] {
        &self.lengths
    }

    /// How many files were read.
    pub(super) fn files_read(&self) -> usize {
        self.read
    }

    /// The postings built in this process (to be written out).
    pub(super) fn memory(&self) -> Option<&HashMap<String, Vec<(u32, u32)>>> {
        match &self.postings {
            Postings::Memory(m) => Some(m),
            Postings::File(_) => None,
        }
    }

    /// The first problem a lookup in the content file ran into: scores may be short.
    pub fn failure(&self) -> Option<String> {
        match &self.postings {
            Postings::Memory(_) => None,
            Postings::File(r) => r.failure(),
        }
    }

    /// In how many files the term occurs.
    fn df(&self, term: &str) -> usize {
        match &self.postings {
            Postings::Memory(m) => m.get(term).map_or(0, Vec::len),
            Postings::File(r) => r.df(term),
        }
    }

    /// `f` of the term's postings (empty when no file holds it).
    pub(super) fn with_list<R>(&self, term: &str, f: impl FnOnce(&[(u32, u32)]) -> R) -> R {
        match &self.postings {
            Postings::Memory(m) => f(m.get(term).map_or(&[], Vec::as_slice)),
            Postings::File(r) => f(&r.postings(term)),
        }
    }

    /// BM25's inverse document frequency of a term over the files read.
    pub fn idf(&self, term: &str) -> f64 {
        let n = self.read as f64;
        let df = self.df(term) as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// True when some file's text holds the term.
    pub fn knows(&self, term: &str) -> bool {
        self.df(term) > 0
    }

    /// True when file `f`'s text holds the term.
    pub fn holds(&self, term: &str, f: usize) -> bool {
        self.with_list(term, |l| {
            l.binary_search_by_key(&(f as u32), |x| x.0).is_ok()
        })
    }

    /// Okapi BM25 of every file for weighted query terms (`k1`, `b`); files without a
    /// match are 0.
    pub(super) fn scores(&self, terms: &[(String, f64)], k1: f64, b: f64) -> Vec<f64> {
        let mut out = vec![0.0; self.lengths.len()];
        for (t, qtf) in terms {
            if !self.knows(t) {
                continue;
            }
            let idf = self.idf(t);
            self.with_list(t, |list| {
                for &(f, tf) in list {
                    let Some(slot) = out.get_mut(f as usize) else {
                        continue;
                    };
                    let tf = f64::from(tf);
                    let len = self.lengths.get(f as usize).copied().unwrap_or(0);
                    let norm = k1 * (1.0 - b + b * f64::from(len) / self.avg);
                    *slot += qtf * idf * tf * (k1 + 1.0) / (tf + norm);
                }
            });
        }
        out
    }
}

/// The terms of each identifier-shaped chunk already split, for one thread: code repeats
/// its identifiers (`self`, `return`, `err`), so each distinct one is split and stemmed
/// once, not at every occurrence.
#[derive(Default)]
struct Memo {
    terms: HashMap<String, Vec<String>>,
}

/// Distinct chunks a [`Memo`] keeps before it starts over (a few tens of megabytes).
const MEMO_MAX: usize = 1 << 18;

/// How often each term of [`terms_of`] occurs in `text`, counted chunk by chunk: the terms
/// of a text are those of its alphanumeric runs, each on its own, so a run's terms count
/// as often as the run occurs.
fn count_terms(text: &str, memo: &mut Memo) -> HashMap<String, u32> {
    let mut runs: HashMap<&str, u32> = HashMap::new();
    for run in text.split(|c: char| !c.is_alphanumeric()) {
        if !run.is_empty() {
            *runs.entry(run).or_insert(0) += 1;
        }
    }
    if memo.terms.len() > MEMO_MAX {
        memo.terms.clear();
    }
    let mut counts: HashMap<String, u32> = HashMap::new();
    for (run, n) in runs {
        if !memo.terms.contains_key(run) {
            memo.terms.insert(run.to_string(), terms_of(run));
        }
        for t in memo.terms.get(run).map_or(&[][..], Vec::as_slice) {
            match counts.get_mut(t.as_str()) {
                Some(c) => *c += n,
                None => {
                    counts.insert(t.clone(), n);
                }
            }
        }
    }
    counts
}

/// The words of a text as the index counts them: [`text::index_terms`] (identifiers
/// split into words, stemmed), plus each identifier written as several words kept whole
/// (`h5netcdf`, `dataarray`, `cacheprovider` is one word already): the compound names one
/// thing where its parts name many.
pub(super) fn terms_of(s: &str) -> Vec<String> {
    let mut out = text::index_terms(s);
    for chunk in s.split(|c: char| !c.is_alphanumeric()) {
        if chunk.len() > 3 && text::split_words(chunk).len() > 1 {
            out.push(chunk.to_lowercase());
        }
    }
    out
}

/// Reads a source file for ranking (never a secret file; at most 1 MiB): what the content
/// index holds of each file, and what a concept question reads of its shortlist.
pub(super) fn read_small(root: &std::path::Path, rel: &str) -> Option<String> {
    if explore_tools::secrets::secret_name_reason(rel.rsplit('/').next().unwrap_or(rel)).is_some() {
        return None;
    }
    let abs = root.join(rel);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    if !meta.is_file()
        || meta.len() > (1 << 20)
        || explore_tools::secrets::is_multiply_linked(&meta)
    {
        return None;
    }
    std::fs::read_to_string(abs).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn index(files: &[(&str, &str)]) -> ContentIndex {
        let paths: Vec<String> = files.iter().map(|(p, _)| p.to_string()).collect();
        let texts: HashMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        ContentIndex::build(&paths, &|p| texts.get(p).cloned())
    }

    #[test]
    fn compound_names_are_kept_whole() {
        let t = terms_of("h5netcdf_ engine, DataArray");
        for w in ["netcdf", "h5netcdf", "data", "array", "dataarray", "engin"] {
            assert!(t.contains(&w.to_string()), "{w} in {t:?}");
        }
    }

    #[test]
    fn content_scores_follow_bm25() {
        let idx = index(&[
            ("a.py", "def ceiling(self): return ceiling_of(self)"),
            ("b.py", "def floor(self): pass"),
            ("c.py", "x = 1"),
        ]);
        assert_eq!(idx.read, 3);
        let s = idx.scores(&[("ceil".to_string(), 1.0)], 1.2, 0.75);
        assert!(s[0] > 0.0, "{s:?}");
        assert_eq!(&s[1..], &[0.0, 0.0]);
        assert!(idx.knows("floor") && !idx.knows("ceil_of"));
        assert!(idx.holds("floor", 1) && !idx.holds("floor", 0));
    }

    #[test]
    fn counting_run_by_run_counts_as_the_whole_text() {
        let texts = [
            "def ceiling(self): return ceiling_of(self) # HTTPClient x2 h5netcdf_ engine",
            "// VerifySignature checks the X-Relay-Signature-256 header\nfunc VerifySignature() {}",
            "naïve Ünïcode straße ΣΊΣΥΦΟΣ 名前 a1b2c3 0xDEADBEEF __init__ getHTTPResponseCode",
            "",
            "self self self self.self(self)",
        ];
        let mut memo = Memo::default();
        for text in texts {
            let mut want: HashMap<String, u32> = HashMap::new();
            for t in terms_of(text) {
                *want.entry(t).or_insert(0) += 1;
            }
            // Twice: from an empty memo and from one that holds the runs.
            assert_eq!(count_terms(text, &mut memo), want, "{text}");
            assert_eq!(count_terms(text, &mut memo), want, "{text}");
        }
    }

    #[test]
    fn files_skipped_by_the_reader_count_for_nothing() {
        let paths = vec!["a.py".to_string(), "b.bin".to_string()];
        let idx = ContentIndex::build(&paths, &|p| p.ends_with(".py").then(|| "ceiling".into()));
        assert_eq!((idx.read, idx.lengths.clone()), (1, vec![1, 0]));
    }
}
