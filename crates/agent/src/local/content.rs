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
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use explore_tools::code::progress::Phase;
use foldhash::HashMap as FastMap;

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
        Self::build_with(files, read, Precounted::default())
    }

    /// [`ContentIndex::build`], taking the terms of the files `pre` counted already (by
    /// path, from a [`Precount`] that read them with the same rules as `read`) instead of
    /// reading and counting them again. The index is the same either way: a file's counts
    /// depend on its text alone, and the postings are inverted in file order below.
    pub(super) fn build_with(
        files: &[String],
        read: &(dyn Fn(&str) -> Option<String> + Sync),
        pre: Precounted,
    ) -> Self {
        let Precounted {
            counter,
            files: mut pre,
        } = pre;
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 8);
        let started = std::time::Instant::now();
        // Per file: `None` until counted, then its counts (`None` inside: not read).
        let mut slots: Vec<Option<Counted>> = files.iter().map(|f| pre.remove(f)).collect();
        let precounted = slots.iter().filter(|s| s.is_some()).count();
        let todo: Vec<usize> = (0..files.len()).filter(|&i| slots[i].is_none()).collect();
        let chunk = todo.len().div_ceil(threads).max(1);
        let counter = &counter;
        let counted: Vec<Vec<(usize, Counted)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = todo
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|&i| (i, read(&files[i]).map(|t| counter.count(&t))))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        for (i, c) in counted.into_iter().flatten() {
            slots[i] = Some(c);
        }
        let counted_in = started.elapsed();
        // Inverted by term id: each list is filled in file order, so it is sorted.
        let terms = counter.take().terms();
        let mut lists: Vec<Vec<(u32, u32)>> = vec![Vec::new(); terms.len()];
        let mut lengths = vec![0u32; files.len()];
        let mut read = 0;
        for (f, slot) in slots.into_iter().enumerate() {
            // Not read, or its thread panicked: no terms, as the file had none.
            let Some(Some(counts)) = slot else {
                continue;
            };
            read += 1;
            lengths[f] = counts.iter().map(|&(_, c)| c).sum();
            let f = u32::try_from(f).unwrap_or(u32::MAX);
            for (t, c) in counts {
                if let Some(list) = lists.get_mut(t as usize) {
                    list.push((f, c));
                }
            }
        }
        // Terms only files outside `files` held (counted ahead, then left out) go.
        let postings: HashMap<String, Vec<(u32, u32)>> = terms
            .into_iter()
            .zip(lists)
            .filter(|(_, list)| !list.is_empty())
            .map(|(t, list)| (t.into_string(), list))
            .collect();
        tracing::debug!(
            "content index: {} files read and counted in {counted_in:.2?} ({threads} threads, \
             {precounted} counted ahead), {} terms inverted in {:.2?}",
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

    /// The share of the files read whose text holds the term (0 when none was read).
    pub(super) fn share(&self, term: &str) -> f64 {
        if self.read == 0 {
            return 0.0;
        }
        self.df(term) as f64 / self.read as f64
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
/// once, not at every occurrence. The terms are a [`Vocab`]'s ids.
///
/// Hashed with foldhash (seeded per process): the chunks are the repository's text, which
/// may be hostile, so not a hash anyone can collide ahead of time.
#[derive(Default)]
struct Memo {
    terms: FastMap<Box<str>, Box<[u32]>>,
    /// One file's count of each term, by id (zero when not seen): counted without
    /// hashing, and cleared through `touched` after each file.
    counts: Vec<u32>,
    /// The ids of `counts` that are not zero, in the order first counted.
    touched: Vec<u32>,
}

/// Distinct chunks a [`Memo`] keeps before it starts over (a few tens of megabytes).
const MEMO_MAX: usize = 1 << 18;

/// Every term counted, numbered in the order first seen: a file's counts are term ids,
/// so that neither counting nor inverting hashes or copies a term's text again.
#[derive(Default)]
struct Vocab {
    ids: FastMap<Box<str>, u32>,
    terms: Vec<Box<str>>,
}

impl Vocab {
    fn id(&mut self, term: String) -> u32 {
        if let Some(&id) = self.ids.get(term.as_str()) {
            return id;
        }
        let id = u32::try_from(self.terms.len()).unwrap_or(u32::MAX);
        let term = term.into_boxed_str();
        self.terms.push(term.clone());
        self.ids.insert(term, id);
        id
    }

    /// The terms, by id.
    fn terms(self) -> Vec<Box<str>> {
        self.terms
    }
}

/// Counts files' terms on any number of threads at once, into one [`Vocab`].
#[derive(Default)]
pub(super) struct Counter {
    vocab: Mutex<Vocab>,
    /// A memo per thread counting at once, taken for a file and put back.
    memos: Mutex<Vec<Memo>>,
}

impl Counter {
    /// The terms of `text` and how often each occurs, as (term id, count), each term once.
    fn count(&self, text: &str) -> Vec<(u32, u32)> {
        let mut memo = self
            .memos
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        let counts = count_terms(text, &mut memo, &self.vocab);
        self.memos
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(memo);
        counts
    }

    /// The terms numbered so far (the memos go): what the counts' ids name.
    fn take(&self) -> Vocab {
        self.memos
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        std::mem::take(&mut *self.vocab.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Moves everything out into a new counter (this one is left empty).
    fn take_all(&self) -> Counter {
        let memos = std::mem::take(&mut *self.memos.lock().unwrap_or_else(PoisonError::into_inner));
        Counter {
            vocab: Mutex::new(self.take()),
            memos: Mutex::new(memos),
        }
    }
}

/// One file's terms and how often each occurs, as ([`Counter`]'s term id, count); `None`
/// when the file could not be read.
pub(super) type Counted = Option<Vec<(u32, u32)>>;

/// Files counted ahead ([`Precount`]), by path, and the counter whose ids their counts
/// hold.
#[derive(Default)]
pub(super) struct Precounted {
    counter: Counter,
    files: HashMap<String, Counted>,
}

/// The content index's reading and counting, started before `explore index` builds the
/// code index, run while that build links and writes.
///
/// Counting every file's terms is most of the content index's cost (about 2 s of CPU on
/// the 1.4M-line benchmark corpus), and it needs only the file list, not the code graph.
/// Built after the code index and the lexical index, as it was, it added its whole time
/// to `explore index`; yet the code index's link and serialisation and the lexical index
/// run mostly on one thread. This thread walks the repository while the code index walks
/// it (both on one thread), waits while the extraction keeps every core busy (counting
/// then would only slow it down), and counts once the code index links. Whatever it has
/// not counted when the content index is built is counted then, as before
/// ([`ContentIndex::build_with`]), and the index is the same: a file's counts depend on
/// its text alone.
///
/// It is also the code index's [`TextSink`]: handed to [`CodeTool::index_with`], it keeps
/// each file the extraction has just read (tens of megabytes for a large repository) and
/// counts it once the extraction is over, on the core the link leaves idle; what is left
/// when the indexes are built is counted then on every core. The tree is read once, and
/// this thread reads only the files the code index does not (other languages, or the files
/// a refresh keeps). Counting on the parsing threads instead cost both cores a twelfth of
/// the extraction. The extraction still leaves about a tenth of the cores idle (reads,
/// the walk, the last files of each thread), and a second thread at the lowest priority
/// ([`PreShared::count_when_idle`], Linux) counts in those gaps: a third of the files on
/// the benchmark corpus, which the tail after the extraction no longer counts.
///
/// [`TextSink`]: explore_tools::code::TextSink
/// [`CodeTool::index_with`]: explore_tools::code::CodeTool::index_with
pub struct Precount {
    shared: Arc<PreShared>,
    /// Whether the thread started (then `sources` is set by it).
    started: bool,
    /// The counting thread and the idle one ([`PreShared::count_when_idle`]): taken (and
    /// joined) by [`Precount::take_counted`].
    threads: Mutex<Vec<std::thread::JoinHandle<()>>>,
    /// The lexical and content indexes built from the graph while the code store was
    /// written (the code index's [`TextSink::built`]), for `lexfile` to write.
    ///
    /// [`TextSink::built`]: explore_tools::code::TextSink::built
    pub(super) built: Mutex<Option<super::lexfile::Prebuilt>>,
}

struct PreShared {
    root: PathBuf,
    /// The repository's source files (`lexical::list_sources`), `None` when the walk
    /// failed; set before any counting.
    sources: OnceLock<Option<Vec<String>>>,
    /// Set by [`Precount::finish`] (or a drop): stop after the file in hand.
    stop: AtomicBool,
    counter: Counter,
    counted: Mutex<HashMap<String, Counted>>,
    /// Files the code index read, kept as read until counted: counting them on the thread
    /// that parses them took a share of both cores during the extraction, when nothing is
    /// idle; this thread counts them while the link runs on one core, and
    /// [`Precount::take_counted`] counts what is left on every core.
    pending: Mutex<Vec<(String, String)>>,
}

impl std::fmt::Debug for Precount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Precount")
            .field("root", &self.shared.root)
            .finish()
    }
}

impl Precount {
    /// Starts walking and counting the source files under `root` (an absolute path, as
    /// the lexical index's) on a thread of its own.
    pub fn start(root: &Path) -> Precount {
        let shared = Arc::new(PreShared {
            root: root.to_path_buf(),
            sources: OnceLock::new(),
            stop: AtomicBool::new(false),
            counter: Counter::default(),
            counted: Mutex::new(HashMap::new()),
            pending: Mutex::new(Vec::new()),
        });
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("explore-content".into())
            .spawn(move || s.run())
            .ok();
        let started = thread.is_some();
        let mut threads: Vec<_> = thread.into_iter().collect();
        if started && IDLE_PRIORITY_IS_THE_THREADS {
            let s = shared.clone();
            threads.extend(
                std::thread::Builder::new()
                    .name("explore-content-idle".into())
                    .spawn(move || s.count_when_idle())
                    .ok(),
            );
        }
        Precount {
            shared,
            started,
            threads: Mutex::new(threads),
            built: Mutex::new(None),
        }
    }

    /// The repository the files are counted in.
    pub(super) fn root(&self) -> &Path {
        &self.shared.root
    }

    /// The repository's source files as `lexical::list_sources` lists them, walked at
    /// the start (waits for that walk, which runs at the normal priority); `None` when the
    /// thread could not be started or the walk failed.
    pub(super) fn sources(&self) -> Option<Vec<String>> {
        if !self.started {
            return None;
        }
        self.shared.sources.wait().clone()
    }

    /// Stops the counting after the file in hand and hands over the files counted, by
    /// path (none when the thread failed).
    pub(super) fn finish(self) -> Precounted {
        self.take_counted()
    }

    /// [`Precount::finish`] through a reference: a second call hands over nothing.
    pub(super) fn take_counted(&self) -> Precounted {
        self.shared.stop.store(true, Ordering::Relaxed);
        let threads =
            std::mem::take(&mut *self.threads.lock().unwrap_or_else(PoisonError::into_inner));
        // Every thread, so that no file is in the hands of one: the first is the counting
        // thread (none when it did not start, or a second call).
        let ended: Vec<bool> = threads.into_iter().map(|t| t.join().is_ok()).collect();
        let joined = !ended.is_empty() && ended.iter().all(|&ok| ok);
        // What the thread did not get to, on every core.
        let pending = std::mem::take(
            &mut *self
                .shared
                .pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        if joined && !pending.is_empty() {
            use rayon::prelude::*;
            let counter = &self.shared.counter;
            let counts: Vec<(String, Counted)> = pending
                .into_par_iter()
                .map(|(rel, text)| {
                    let c = counter.count(&text);
                    (rel, Some(c))
                })
                .collect();
            if let Ok(mut m) = self.shared.counted.lock() {
                m.extend(counts);
            }
        }
        match self.shared.counted.lock() {
            Ok(mut m) if joined => Precounted {
                counter: self.shared.counter.take_all(),
                files: std::mem::take(&mut *m),
            },
            _ => Precounted::default(),
        }
    }

    /// The indexes built while the code store was written, if they were.
    pub(super) fn take_built(&self) -> Option<super::lexfile::Prebuilt> {
        self.built
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

impl explore_tools::code::TextSink for Precount {
    /// Keeps the file's text for counting when [`read_small`] would read it: not a
    /// secret's name, at most 1 MiB, UTF-8 (the code index reads only regular, singly
    /// linked files); any other file is counted as unread.
    fn read(&self, rel: &str, bytes: &[u8]) {
        let s = &self.shared;
        if s.stop.load(Ordering::Relaxed) {
            return;
        }
        let text =
            if explore_tools::secrets::secret_name_reason(rel.rsplit('/').next().unwrap_or(rel))
                .is_some()
                || bytes.len() > READ_MAX
            {
                None
            } else {
                std::str::from_utf8(bytes).ok()
            };
        match text {
            Some(t) => s
                .pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((rel.to_string(), t.to_string())),
            None => {
                s.counted
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(rel.to_string(), None);
            }
        }
    }

    /// The lexical and content indexes from the graph (see [`super::lexfile::prebuild`]),
    /// kept for `lexfile` to write once the store's key is known.
    fn built(&self, graph: &explore_tools::code::CodeGraph) {
        let started = std::time::Instant::now();
        let built = super::lexfile::prebuild(graph, self);
        tracing::debug!(
            "lexical and content indexes built beside the store in {:.2?}",
            started.elapsed()
        );
        *self.built.lock().unwrap_or_else(PoisonError::into_inner) = built;
    }
}

impl Drop for Precount {
    fn drop(&mut self) {
        // Not joined: a process that no longer needs the counts does not wait for them.
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

/// Whether a thread's priority can be lowered for it alone: Linux applies a thread id's
/// nice value to that thread; elsewhere it would be the whole process's.
const IDLE_PRIORITY_IS_THE_THREADS: bool = cfg!(target_os = "linux");

impl PreShared {
    /// Counts the files the code index has read while the extraction runs, at the lowest
    /// priority (nice 19), so that it takes only what the parsing threads leave idle: the
    /// extraction keeps the cores about nine tenths busy (reads, the walk, the last files
    /// of each thread), and what is counted then is not counted after it, when the link,
    /// the writes and the counting share the cores. Stops once the extraction is over (the
    /// counting thread, at the normal priority, goes on from there) or when told to.
    fn count_when_idle(&self) {
        #[cfg(target_os = "linux")]
        if rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19).is_err() {
            return;
        }
        let mut done = 0usize;
        while !self.stop.load(Ordering::Relaxed) {
            match self.count_pending() {
                Some(true) => done += 1,
                Some(false) => return,
                // Before the build starts too (the phase is then idle).
                None if !matches!(
                    explore_tools::code::progress::snapshot().phase,
                    Phase::Linking | Phase::Saving
                ) =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(2))
                }
                None => break,
            }
        }
        tracing::debug!("content index: {done} files counted on idle time during the extraction");
    }

    /// Counts one file the code index read: `None` when none waits, `Some(false)` when
    /// the counts can no longer be kept (a thread panicked holding them).
    fn count_pending(&self) -> Option<bool> {
        let (rel, text) = self
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()?;
        let counted = Some(self.counter.count(&text));
        Some(match self.counted.lock() {
            Ok(mut m) => {
                m.insert(rel, counted);
                true
            }
            Err(_) => false,
        })
    }

    fn run(&self) {
        let walked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::lexical::list_sources(&self.root)
        }))
        .ok();
        let Some(sources) = self.sources.get_or_init(|| walked) else {
            return;
        };
        // The extraction uses every core; the link, the writes and the lexical index after
        // it mostly one.
        while !self.stop.load(Ordering::Relaxed)
            && matches!(
                explore_tools::code::progress::snapshot().phase,
                Phase::Walking | Phase::Parsing
            )
        {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        // The files the code index read, one at a time (the rest are left for
        // `take_counted` when it stops this thread).
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            match self.count_pending() {
                Some(true) => {}
                Some(false) => return,
                None => break,
            }
        }
        for rel in sources {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            // Read by the code index: counted above, or waiting to be.
            if self
                .counted
                .lock()
                .map_or(true, |m| m.contains_key(rel.as_str()))
            {
                continue;
            }
            let counted = read_small(&self.root, rel).map(|t| self.counter.count(&t));
            match self.counted.lock() {
                Ok(mut m) => {
                    m.insert(rel.clone(), counted);
                }
                Err(_) => return,
            }
        }
    }
}

/// How often each term of [`terms_of`] occurs in `text`, counted chunk by chunk: the terms
/// of a text are those of its alphanumeric runs, each on its own, so a run's terms count
/// as often as the run occurs. The runs `memo` has not seen are split here and their
/// terms numbered in `vocab` (a short lock each); the counts are kept by term id in the
/// memo, without hashing.
fn count_terms(text: &str, memo: &mut Memo, vocab: &Mutex<Vocab>) -> Vec<(u32, u32)> {
    if memo.terms.len() > MEMO_MAX {
        memo.terms.clear();
    }
    let Memo {
        terms,
        counts,
        touched,
    } = memo;
    let mut add = |ids: &[u32]| {
        for &id in ids {
            let i = id as usize;
            if i >= counts.len() {
                counts.resize(i + 1, 0);
            }
            if counts[i] == 0 {
                touched.push(id);
            }
            counts[i] += 1;
        }
    };
    for run in alnum_runs(text) {
        if let Some(ids) = terms.get(run) {
            add(ids);
            continue;
        }
        let split = terms_of(run);
        let ids: Box<[u32]> = {
            let mut vocab = vocab.lock().unwrap_or_else(PoisonError::into_inner);
            split.into_iter().map(|t| vocab.id(t)).collect()
        };
        add(&ids);
        terms.insert(run.into(), ids);
    }
    let out = touched
        .iter()
        .map(|&id| (id, std::mem::take(&mut counts[id as usize])))
        .collect();
    touched.clear();
    out
}

/// The non-empty runs of alphanumeric characters of `text`, as
/// `text.split(|c: char| !c.is_alphanumeric())` gives them, without decoding the ASCII
/// (most of any source file).
fn alnum_runs(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    // Whether the character at `i` (a character boundary) is alphanumeric, and its length.
    let at = move |i: usize| match bytes[i] {
        b if b.is_ascii() => (b.is_ascii_alphanumeric(), 1),
        _ => text
            .get(i..)
            .and_then(|t| t.chars().next())
            .map_or((false, 1), |c| (c.is_alphanumeric(), c.len_utf8())),
    };
    let mut i = 0;
    std::iter::from_fn(move || {
        loop {
            if i >= bytes.len() {
                return None;
            }
            let (alnum, len) = at(i);
            if alnum {
                break;
            }
            i += len;
        }
        let start = i;
        while i < bytes.len() {
            let (alnum, len) = at(i);
            if !alnum {
                break;
            }
            i += len;
        }
        text.get(start..i)
    })
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

/// The largest file [`read_small`] reads.
const READ_MAX: usize = 1 << 20;

/// Reads a source file for ranking (never a secret file; at most 1 MiB): what the content
/// index holds of each file, and what a concept question reads of its shortlist.
pub(crate) fn read_small(root: &std::path::Path, rel: &str) -> Option<String> {
    if explore_tools::secrets::secret_name_reason(rel.rsplit('/').next().unwrap_or(rel)).is_some() {
        return None;
    }
    let abs = root.join(rel);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    if !meta.is_file()
        || meta.len() > READ_MAX as u64
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

    /// Everything an index holds, in a comparable form: lengths, files read, postings.
    type Parts = (Vec<u32>, usize, Vec<(String, Vec<(u32, u32)>)>);

    fn parts(idx: &ContentIndex) -> Parts {
        let mut terms: Vec<_> = idx
            .memory()
            .expect("built in memory")
            .iter()
            .map(|(t, l)| (t.clone(), l.clone()))
            .collect();
        terms.sort();
        (idx.lengths().to_vec(), idx.files_read(), terms)
    }

    #[test]
    fn counts_taken_ahead_make_the_same_index() {
        let files: Vec<String> = ["a.py", "b.go", "c.bin", "d.rs", "a.py"]
            .iter()
            .map(|p| p.to_string())
            .collect();
        let read = |p: &str| match p {
            "a.py" => Some("def ceiling(self): return ceiling_of(self)".to_string()),
            "b.go" => Some("func Floor() int { return floor }".to_string()),
            "d.rs" => Some("fn main() { HTTPClient::new() }".to_string()),
            _ => None,
        };
        let whole = parts(&ContentIndex::build(&files, &read));
        // None, some, all of the files counted ahead, an unreadable one among them, and a
        // path the list does not hold.
        let subsets: [&[&str]; 4] = [
            &[],
            &["b.go", "c.bin"],
            &["a.py", "b.go", "c.bin", "d.rs"],
            &["zz.py"],
        ];
        for subset in subsets {
            let counter = Counter::default();
            let counted: HashMap<String, Counted> = subset
                .iter()
                .map(|p| (p.to_string(), read(p).map(|t| counter.count(&t))))
                .collect();
            let pre = Precounted {
                counter,
                files: counted,
            };
            assert_eq!(
                parts(&ContentIndex::build_with(&files, &read, pre)),
                whole,
                "{subset:?}"
            );
        }
    }

    #[test]
    fn a_precount_lists_and_counts_as_the_build_does() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for (rel, text) in [
            ("pkg/a.go", "package pkg\nfunc Retry() {}\n"),
            ("b.py", "def backoff(): pass\n"),
            ("notes.txt", "not a source file"),
            ("c.rs", "fn jitter() {}\n"),
        ] {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let pre = Precount::start(&root);
        let sources = pre.sources().expect("walked");
        assert_eq!(sources, super::super::lexical::list_sources(&root));
        let read = |rel: &str| read_small(&root, rel);
        let counted = pre.finish();
        assert!(
            counted.files.keys().all(|k| sources.contains(k)),
            "{:?}",
            counted.files
        );
        assert_eq!(
            parts(&ContentIndex::build_with(&sources, &read, counted)),
            parts(&ContentIndex::build(&sources, &read))
        );
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
        let counter = Counter::default();
        for text in texts {
            let mut want: HashMap<String, u32> = HashMap::new();
            for t in terms_of(text) {
                *want.entry(t).or_insert(0) += 1;
            }
            // Twice: from an empty memo and from one that holds the runs.
            assert_eq!(named(&counter, counter.count(text)), want, "{text}");
            assert_eq!(named(&counter, counter.count(text)), want, "{text}");
        }
    }

    /// Counts by term id as counts by term, each term once.
    fn named(counter: &Counter, counts: Vec<(u32, u32)>) -> HashMap<String, u32> {
        let vocab = counter.vocab.lock().unwrap();
        let n = counts.len();
        let named: HashMap<String, u32> = counts
            .into_iter()
            .map(|(t, c)| (vocab.terms[t as usize].to_string(), c))
            .collect();
        assert_eq!(named.len(), n, "a term twice");
        named
    }

    #[test]
    fn runs_are_those_of_splitting_at_every_other_character() {
        let texts = [
            "",
            "x",
            "  leading and trailing  ",
            "snake_case camelCase HTTPServer 0x1F __init__",
            "naïve Ünïcode straße ΣΊΣΥΦΟΣ 名前 a1b2c3 ½ ² ٣ 𝔘𝔫𝔦 €uro — dash…",
            "emoji😀inside and\u{200b}zero width\tTab\r\nCRLF",
            "ÀÉÎÕÜ",
            "a\u{301}combining",
        ];
        for text in texts {
            let want: Vec<&str> = text
                .split(|c: char| !c.is_alphanumeric())
                .filter(|r| !r.is_empty())
                .collect();
            assert_eq!(alnum_runs(text).collect::<Vec<_>>(), want, "{text}");
        }
    }

    #[test]
    fn files_the_code_index_reads_are_counted_as_the_build_reads_them() {
        use explore_tools::code::TextSink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let big = format!("x = 1\n{}", "# padding padding\n".repeat(70_000));
        let files: Vec<(&str, Vec<u8>)> = vec![
            (
                "pkg/a.go",
                b"package pkg\nfunc Retry() { backoff() }\n".to_vec(),
            ),
            (
                "b.py",
                "def naïve_backoff(): return 1\n".as_bytes().to_vec(),
            ),
            ("latin1.py", b"s = '\xe9t\xe9'\n".to_vec()),
            ("nul.py", b"x = 1\0\n".to_vec()),
            ("big.py", big.into_bytes()),
            ("id_rsa.py", b"secret = 1\n".to_vec()),
            ("c.rs", b"fn jitter() {}\n".to_vec()),
        ];
        for (rel, bytes) in &files {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }
        let pre = Precount::start(&root);
        let sources = pre.sources().expect("walked");
        // What the code index hands over (the Rust file stays for the thread to read).
        for (rel, bytes) in files.iter().filter(|(r, _)| !r.ends_with(".rs")) {
            pre.read(rel, bytes);
        }
        let read = |rel: &str| read_small(&root, rel);
        let counted = pre.finish();
        assert!(counted.files.contains_key("latin1.py"));
        assert_eq!(
            parts(&ContentIndex::build_with(&sources, &read, counted)),
            parts(&ContentIndex::build(&sources, &read))
        );
    }

    /// The idle counter lowers its own priority, not the process's nor the caller's, and
    /// the files it counts are handed over like the others.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_idle_counter_lowers_only_its_own_priority() {
        use explore_tools::code::TextSink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let texts: Vec<(String, String)> = (0..200)
            .map(|i| {
                (
                    format!("m{i}.py"),
                    format!("def retry_{i}(): return backoff_{i}\n"),
                )
            })
            .collect();
        for (rel, text) in &texts {
            std::fs::write(root.join(rel), text).unwrap();
        }
        let me = rustix::thread::gettid();
        let before = rustix::process::getpriority_process(Some(me)).unwrap();
        let pre = Precount::start(&root);
        let sources = pre.sources().expect("walked");
        for (rel, text) in &texts {
            pre.read(rel, text.as_bytes());
        }
        // The idle thread counts while no build is past its parsing (here: none runs).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !pre.shared.pending.lock().unwrap().is_empty() && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(
            rustix::process::getpriority_process(Some(me)).unwrap(),
            before
        );
        assert_eq!(rustix::process::getpriority_process(None).unwrap(), before);
        let read = |rel: &str| read_small(&root, rel);
        let counted = pre.finish();
        assert_eq!(counted.files.len(), texts.len());
        assert_eq!(
            parts(&ContentIndex::build_with(&sources, &read, counted)),
            parts(&ContentIndex::build(&sources, &read))
        );
    }

    #[test]
    fn files_skipped_by_the_reader_count_for_nothing() {
        let paths = vec!["a.py".to_string(), "b.bin".to_string()];
        let idx = ContentIndex::build(&paths, &|p| p.ends_with(".py").then(|| "ceiling".into()));
        assert_eq!((idx.read, idx.lengths.clone()), (1, vec![1, 0]));
    }
}
