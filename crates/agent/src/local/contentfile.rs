//! The persisted content index: every file's term counts, kept beside the lexical index
//! so a warm pasted report reads only the postings of its own terms.
//!
//! A report is ranked by BM25 over every file's content (`report`), and building that
//! index is a full read and tokenisation of the tree (about 2 s of CPU on the 1.4M-line
//! benchmark corpus), which every report paid. It depends on nothing the report says, so
//! it is written once per state of the lexical index, in `<name>.content` beside
//! `<name>.lex`:
//!
//! ```text
//! MAGIC ("explore content index\n")
//! u32   CONTENT_VERSION (little-endian)
//! [16]  build digest: blake3 of the sources that decide what is indexed
//! [16]  store key: the code store the lexical index was built from
//! [16]  lexical index id: the blake3 of the `.lex` file's header
//! u32   header length, [16] blake3 of the header, then the postcard `Header`
//! sections, at offsets from the end of the header:
//!   lengths   u32 per file: how many terms it holds (0: not read)
//!   terms     the term table of `lexfile` (u32 n, n+1 u32 offsets, n u32 df, n+1 u64
//!             offsets into the postings, the terms sorted by bytes)
//!   postings  per term: 8 bytes of blake3, then the postcard list of (file gap, count)
//! ```
//!
//! A sibling file, not more sections of `.lex`: the two are written at different times.
//! The lexical index is rebuilt by the first concept question after an edit (about 1 s of
//! CPU on the benchmark corpus); adding a full read of the tree to every such question
//! would triple it for the questions that never look at content. So `explore index` (and
//! the background index) writes both, and otherwise the content file is written by the
//! first report that finds it missing or stale; a short concept question never pays for
//! it.
//!
//! Freshness: the content of the files the lexical index lists is decided by the code
//! store's state (the files the graph parses: their stats are in the store's key) and by
//! the stats of the files the graph does not parse, which the lexical index records and
//! checks on open; the file list itself is in the lexical index's `parts`. The header hash
//! of the `.lex` file covers both of those sections, so the content file is keyed by that
//! hash and the store key: whatever makes the lexical index stale makes this file stale.
//! Anything else wrong (truncated, flipped bytes, another version or build) is reported
//! in one line and the file is rebuilt; damage found by a lookup during a report marks the
//! index failed, and the report is ranked again from an index built from the tree.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use super::content::{self, ContentIndex, Postings};
use super::framed::{Body, Frame, Opened, digest_of};
use super::lexfile::{
    LexFileError, SectionRef, Stored, Terms, hash8, hash16, len_u32, put_u32, read_at, records,
    term_table, u32_at, u64_at, write_replacing,
};
use super::rank::LexIndex;

/// The first bytes of a content index file.
const MAGIC: &[u8] = b"explore content index\n";
/// Bumped whenever the layout changes meaning.
pub const CONTENT_VERSION: u32 = 1;

/// The frame of a content index file: this build's, keyed by the code store and the
/// lexical index it was built with (`keys` = the store's key, the lexical index's id).
fn frame(keys: &[[u8; 16]]) -> Frame<'_> {
    Frame {
        magic: MAGIC,
        version: CONTENT_VERSION,
        digest: build_digest(),
        keys,
    }
}

/// The sources whose change changes what the file holds: the tokeniser, the reader that
/// decides which files are read, and this layout.
const SOURCES: [&str; 5] = [
    include_str!("content.rs"),
    include_str!("contentfile.rs"),
    include_str!("text.rs"),
    include_str!("framed.rs"),
    env!("CARGO_PKG_VERSION"),
];

/// The build digest: blake3 of [`SOURCES`].
fn build_digest() -> [u8; 16] {
    static DIGEST: OnceLock<[u8; 16]> = OnceLock::new();
    *DIGEST.get_or_init(|| digest_of(&SOURCES))
}

/// The content file that belongs with the lexical index file `lex`.
pub fn path_for(lex: &Path) -> PathBuf {
    lex.with_extension("content")
}

/// The sections, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sec {
    Lengths = 0,
    Terms,
    Postings,
}

const COUNT: usize = 3;

impl Sec {
    const ALL: [Sec; COUNT] = [Sec::Lengths, Sec::Terms, Sec::Postings];

    fn name(self) -> &'static str {
        match self {
            Sec::Lengths => "lengths",
            Sec::Terms => "content terms",
            Sec::Postings => "content postings",
        }
    }

    /// Postings are checked per record, the rest whole.
    fn hashed_whole(self) -> bool {
        self != Sec::Postings
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    root: String,
    files: u32,
    read: u32,
    sections: Vec<SectionRef>,
}

/// The content index of `idx`'s files: read from the content file when it is fresh for
/// the stored lexical index, else built with `read` and written for the next process. An
/// index that was never stored is built in memory only.
pub(crate) fn load(idx: &LexIndex, read: &(dyn Fn(&str) -> Option<String> + Sync)) -> ContentIndex {
    let Some(stored) = idx.stored() else {
        return ContentIndex::build(idx.files(), read);
    };
    let path = path_for(&stored.path);
    match open(&path, stored, idx.files().len()) {
        Ok(c) => return c,
        Err(e) if e.is_expected() => {
            tracing::debug!("the content index {} is rebuilt: {e}", path.display());
        }
        Err(e) => tracing::warn!(
            "the content index {} cannot be used ({e}); rebuilding",
            path.display()
        ),
    }
    build_and_save(idx, stored, read, content::Precounted::default())
}

/// Writes the content file for `idx` unless a fresh one is there: `explore index` warms
/// it with the lexical index, so the first report reads it instead of the tree. The files
/// `pre` counted already (in the same repository) are not read again.
pub fn refresh(idx: &LexIndex, pre: Option<content::Precount>) {
    let Some(stored) = idx.stored() else {
        return;
    };
    if open(&path_for(&stored.path), stored, idx.files().len()).is_ok() {
        return;
    }
    let root = stored.root.clone();
    let counted = pre
        .filter(|p| p.root() == root)
        .map(content::Precount::finish)
        .unwrap_or_default();
    build_and_save(
        idx,
        stored,
        &|rel: &str| content::read_small(&root, rel),
        counted,
    );
}

/// Writes `content`, built in memory for the lexical index `idx` (which must have been
/// written: the content file is keyed by it). A failed write is a warning.
/// Writes `content` beside the lexical file `stored`; a failed write is a warning (the
/// index still answers from memory). Whether it was written.
fn save_or_warn(stored: &Stored, content: &ContentIndex) -> bool {
    let path = path_for(&stored.path);
    match save(&path, stored, content) {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!("cannot write the content index {} ({e})", path.display());
            false
        }
    }
}

/// Drops a content file that a lookup found damaged: removes it and builds the index
/// again from the tree, in memory and on disk.
pub(crate) fn rebuild_damaged(
    idx: &LexIndex,
    why: &str,
    read: &(dyn Fn(&str) -> Option<String> + Sync),
) -> ContentIndex {
    let Some(stored) = idx.stored() else {
        return ContentIndex::build(idx.files(), read);
    };
    let path = path_for(&stored.path);
    tracing::warn!(
        "the content index {} cannot be used ({why}); rebuilding",
        path.display()
    );
    let _ = std::fs::remove_file(&path);
    build_and_save(idx, stored, read, content::Precounted::default())
}

fn build_and_save(
    idx: &LexIndex,
    stored: &Stored,
    read: &(dyn Fn(&str) -> Option<String> + Sync),
    counted: content::Precounted,
) -> ContentIndex {
    let started = std::time::Instant::now();
    let content = ContentIndex::build_with(idx.files(), read, counted);
    let built = started.elapsed();
    if save_or_warn(stored, &content) {
        tracing::debug!(
            "content index of {} files built in {:.2?}, written in {:.2?}",
            content.files_read(),
            built,
            started.elapsed() - built
        );
    }
    content
}

/// Writes `content` (built in memory) at `path`, keyed by the lexical index `stored`.
/// Written to a temporary file and renamed into place.
pub(crate) fn save(path: &Path, stored: &Stored, content: &ContentIndex) -> std::io::Result<()> {
    write_replacing(path, &encode(stored, content)?)
}

/// Writes the body [`encode_body`] gave for the content index of the lexical index
/// `stored`, beside it.
pub(super) fn save_body(stored: &Stored, body: Body) -> std::io::Result<()> {
    let (parts, _) = frame(&[stored.store_key, stored.id]).parts(body)?;
    write_replacing(&path_for(&stored.path), &parts)
}

/// The file's bytes: prefix and header, then each section.
fn encode(stored: &Stored, content: &ContentIndex) -> std::io::Result<Vec<Vec<u8>>> {
    let (parts, _) =
        frame(&[stored.store_key, stored.id]).parts(encode_body(&stored.root, content)?)?;
    Ok(parts)
}

/// The file's header and sections for the repository at `root` (all but the prefix,
/// which holds the keys).
pub(super) fn encode_body(root: &Path, content: &ContentIndex) -> std::io::Result<Body> {
    let Some(memory) = content.memory() else {
        return Err(std::io::Error::other(
            "only a content index built in memory is written",
        ));
    };
    let mut terms: Vec<(&String, &Vec<(u32, u32)>)> = memory.iter().collect();
    terms.sort_unstable_by(|a, b| a.0.cmp(b.0));
    // Files as gaps from the previous one: most are a byte.
    let gaps = terms.iter().map(|(_, list)| {
        let mut prev = 0;
        list.iter()
            .map(|&(f, c)| {
                let gap = f - prev;
                prev = f;
                (gap, c)
            })
            .collect::<Vec<(u32, u32)>>()
    });
    let (post_offsets, post_data) = records(gaps)?;
    let term_sec = term_table(
        &terms
            .iter()
            .map(|(t, l)| (t.as_str(), l.len()))
            .collect::<Vec<_>>(),
        &post_offsets,
    )?;
    let mut lengths = Vec::with_capacity(content.lengths().len() * 4);
    for &l in content.lengths() {
        put_u32(&mut lengths, l);
    }
    let sections = [lengths, term_sec, post_data];
    let refs = Frame::layout(
        Sec::ALL
            .iter()
            .zip(&sections)
            .map(|(sec, bytes)| (bytes.as_slice(), sec.hashed_whole())),
    );
    let header = Header {
        root: root.to_string_lossy().into_owned(),
        files: len_u32(content.lengths().len())?,
        read: len_u32(content.files_read())?,
        sections: refs,
    };
    let header = postcard::to_stdvec(&header).map_err(std::io::Error::other)?;
    Ok(Body {
        header,
        sections: sections.into(),
    })
}

/// Opens the content file at `path` written for the lexical index `stored` over `files`
/// files, and checks its prefix, header, lengths and term table. Postings are read per
/// term, on demand.
pub(crate) fn open(
    path: &Path,
    stored: &Stored,
    files: usize,
) -> Result<ContentIndex, LexFileError> {
    let opened = frame(&[stored.store_key, stored.id]).open(path)?;
    let header: Header = postcard::from_bytes(&opened.header).map_err(|_| LexFileError::Header)?;
    if header.sections.len() != COUNT
        || header.files as usize != files
        || header.read > header.files
    {
        return Err(LexFileError::Header);
    }
    if header.root != stored.root.to_string_lossy() {
        return Err(LexFileError::OtherRoot(header.root));
    }
    opened.check_sections(&header.sections, |i| Sec::ALL[i].name())?;
    let Opened { file, body, .. } = opened;
    let section = |sec: Sec| -> Result<Box<[u8]>, LexFileError> {
        let r = header.sections[sec as usize];
        let n = usize::try_from(r.len).map_err(|_| LexFileError::Truncated(sec.name()))?;
        let mut buf = vec![0u8; n];
        read_at(&file, body + r.offset, &mut buf)?;
        if hash16(&buf) != r.hash {
            return Err(LexFileError::Corrupt(sec.name()));
        }
        Ok(buf.into_boxed_slice())
    };
    let raw = section(Sec::Lengths)?;
    if raw.len() != files * 4 {
        return Err(LexFileError::Corrupt(Sec::Lengths.name()));
    }
    let lengths: Vec<u32> = (0..files).filter_map(|i| u32_at(&raw, i)).collect();
    let terms = section(Sec::Terms)?;
    let table = Terms::parse(&terms).ok_or(LexFileError::Corrupt(Sec::Terms.name()))?;
    if !table.valid(header.sections[Sec::Postings as usize].len) {
        return Err(LexFileError::Corrupt(Sec::Terms.name()));
    }
    let read = header.read as usize;
    let reader = Reader {
        file,
        at: body + header.sections[Sec::Postings as usize].offset,
        len: header.sections[Sec::Postings as usize].len,
        files: header.files,
        terms,
        lists: Mutex::new(HashMap::new()),
        failure: OnceLock::new(),
    };
    Ok(ContentIndex::with_postings(
        lengths,
        read,
        Postings::File(reader),
    ))
}

/// One term's postings as read: (file, count), files in increasing order.
type List = Arc<[(u32, u32)]>;

/// A content file opened for lookups: the term table in memory, each term's postings
/// read once, when first asked.
pub(crate) struct Reader {
    file: File,
    /// Where the postings section starts in the file, and its length.
    at: u64,
    len: u64,
    files: u32,
    terms: Box<[u8]>,
    /// Lists already read: a report asks each of its terms several times.
    lists: Mutex<HashMap<String, List>>,
    failure: OnceLock<String>,
}

impl Reader {
    fn fail(&self, e: &LexFileError) {
        if self.failure.set(e.to_string()).is_ok() {
            tracing::debug!("content index lookup failed: {e}");
        }
    }

    /// The first problem a lookup ran into.
    pub(crate) fn failure(&self) -> Option<String> {
        self.failure.get().cloned()
    }

    /// How many terms the table holds.
    pub(crate) fn terms(&self) -> usize {
        Terms::parse(&self.terms).map_or(0, |t| t.n)
    }

    /// In how many files `term` occurs.
    pub(crate) fn df(&self, term: &str) -> usize {
        let Some(t) = Terms::parse(&self.terms) else {
            return 0;
        };
        t.find(term)
            .and_then(|i| u32_at(t.df, i))
            .map_or(0, |d| d as usize)
    }

    /// The files holding `term` and its count in each, in file order; empty when none
    /// does or the record is damaged (then [`Reader::failure`] says so).
    pub(crate) fn postings(&self, term: &str) -> List {
        let mut lists = match self.lists.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(l) = lists.get(term) {
            return l.clone();
        }
        let list: List = self.read_list(term).unwrap_or_default().into();
        lists.insert(term.to_string(), list.clone());
        list
    }

    fn read_list(&self, term: &str) -> Option<Vec<(u32, u32)>> {
        let t = Terms::parse(&self.terms)?;
        let i = t.find(term)?;
        let corrupt = || LexFileError::Corrupt(Sec::Postings.name());
        let (Some(a), Some(b), Some(df)) = (
            u64_at(t.postings, i),
            u64_at(t.postings, i + 1),
            u32_at(t.df, i),
        ) else {
            self.fail(&corrupt());
            return None;
        };
        if b > self.len || a.checked_add(8).is_none_or(|min| b < min) {
            self.fail(&corrupt());
            return None;
        }
        let mut buf = vec![0u8; (b - a) as usize];
        if let Err(e) = read_at(&self.file, self.at + a, &mut buf) {
            self.fail(&LexFileError::Io(e));
            return None;
        }
        let body = buf.split_off(8);
        if hash8(&body) != buf[..] {
            self.fail(&corrupt());
            return None;
        }
        let Ok(gaps) = postcard::from_bytes::<Vec<(u32, u32)>>(&body) else {
            self.fail(&corrupt());
            return None;
        };
        // Files strictly increasing and in range, every count at least one, as many as
        // the table says.
        let mut out = Vec::with_capacity(gaps.len());
        let mut file: Option<u32> = None;
        for (gap, count) in gaps {
            let f = match file {
                None => Some(gap),
                Some(prev) if gap > 0 => prev.checked_add(gap),
                Some(_) => None,
            };
            match f {
                Some(f) if f < self.files && count > 0 => {
                    out.push((f, count));
                    file = Some(f);
                }
                _ => {
                    self.fail(&corrupt());
                    return None;
                }
            }
        }
        if out.len() != df as usize {
            self.fail(&corrupt());
            return None;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes before the header in this kind of file.
    fn prefix_len() -> usize {
        frame(&[[0; 16]; 2]).prefix_len()
    }
    use crate::local::content::read_small;
    use crate::local::lexfile::tests::{
        Repo, ask, built, cited, lex_path, registry, repo, store_key,
    };
    use crate::local::{lexfile, report};

    /// Pasted reports whose words the fixtures hold (and some they do not).
    const REPORTS: [&str; 4] = [
        "Webhook signature check rejects valid requests\n\nWhen the relay receives a webhook \
         with a valid X-Relay-Signature-256 header the handler still answers 401.\n\
         VerifySignature seems to compare the wrong bytes; retries then back off forever.",
        "Planner builds an empty plan\n\nThe task planner returns no steps when the issue \
         store has an issue with labels.\nSteps to reproduce: create an issue, run the worker.",
        "Transfer between accounts in different currencies raises CurrencyMismatchError\n\n\
         ledger transfer --from A --to B 10 EUR fails although the amount is converted.\n\
         Traceback: ledger/services/ledger_service.py post_transaction",
        "Reconciliation report is wrong\n\nThe reconcile command prints unbalanced \
         transactions twice and the audit log misses refunds.\nzebra quokka flux capacitor",
    ];

    /// A fixture's lexical index, stored, and its content index built in memory and
    /// written beside it.
    fn stored(r: &Repo) -> (LexIndex, ContentIndex, PathBuf) {
        let (reg, idx) = built(r);
        let lex = lex_path(&reg);
        lexfile::save(&lex, &r.root, store_key(&reg), &idx, &[]).unwrap();
        let root = r.root.clone();
        let content = ContentIndex::build(idx.files(), &|rel: &str| read_small(&root, rel));
        let path = path_for(&lex);
        save(&path, idx.stored().unwrap(), &content).unwrap();
        (idx, content, path)
    }

    /// Every term of the memory index, and every report's ranking, read back alike.
    fn assert_same(idx: &LexIndex, a: &ContentIndex, b: &ContentIndex) {
        assert_eq!(a.lengths(), b.lengths());
        assert_eq!(a.files_read(), b.files_read());
        let memory = a.memory().unwrap();
        for (term, list) in memory {
            assert_eq!(&b.with_list(term, |l| l.to_vec()), list, "{term}");
            assert_eq!(a.idf(term).to_bits(), b.idf(term).to_bits(), "{term}");
            assert!(b.knows(term));
        }
        assert!(!b.knows("capacitor") && !b.holds("capacitor", 0));
        for q in REPORTS {
            let terms = report::report_terms(q);
            let (sa, sb) = (a.scores(&terms, 1.2, 0.75), b.scores(&terms, 1.2, 0.75));
            let bits = |s: &[f64]| s.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&sa), bits(&sb), "{q}");
            assert_eq!(
                report::rank(idx, a, q, &[]),
                report::rank(idx, b, q, &[]),
                "{q}"
            );
        }
        assert_eq!(b.failure(), None);
    }

    #[test]
    fn the_persisted_content_index_scores_as_the_one_built_in_memory() {
        for name in ["relay", "ledger"] {
            let r = repo(name);
            let (idx, content, path) = stored(&r);
            let opened = open(&path, idx.stored().unwrap(), idx.files().len()).unwrap();
            assert!(opened.memory().is_none(), "read from the file");
            assert_same(&idx, &content, &opened);
            // Some report matched something: the comparison is not of empty lists.
            assert!(
                REPORTS
                    .iter()
                    .any(|q| !report::rank(&idx, &opened, q, &[]).is_empty()),
                "{name}"
            );
        }
    }

    #[test]
    fn a_foreign_stale_or_damaged_file_is_refused_or_reports_its_failure() {
        let r = repo("relay");
        let (idx, content, path) = stored(&r);
        let stored = idx.stored().unwrap().clone();
        let files = idx.files().len();
        let good = std::fs::read(&path).unwrap();
        // Another state of the code store or of the lexical index, another root.
        for other in [
            Stored {
                store_key: [7; 16],
                ..stored.clone()
            },
            Stored {
                id: [7; 16],
                ..stored.clone()
            },
        ] {
            assert!(matches!(
                open(&path, &other, files),
                Err(LexFileError::Stale)
            ));
        }
        let elsewhere = Stored {
            root: PathBuf::from("/elsewhere"),
            ..stored.clone()
        };
        assert!(matches!(
            open(&path, &elsewhere, files),
            Err(LexFileError::OtherRoot(_))
        ));
        assert!(matches!(
            open(&path, &stored, files + 1),
            Err(LexFileError::Header)
        ));
        // Another version, another build.
        for (at, want) in [(MAGIC.len(), "format"), (MAGIC.len() + 4, "another build")] {
            let mut other = good.clone();
            other[at] ^= 1;
            std::fs::write(&path, &other).unwrap();
            let err = open(&path, &stored, files).unwrap_err();
            assert!(err.to_string().contains(want), "{err}");
            assert!(!err.is_expected());
        }
        // Cut anywhere: refused.
        for cut in (0..good.len()).step_by(good.len() / 41 + 1) {
            std::fs::write(&path, &good[..cut]).unwrap();
            assert!(open(&path, &stored, files).is_err(), "cut at {cut}");
        }
        // A flipped byte anywhere: refused, or noticed by the lookup that reads it, or in
        // a byte nothing reads back; never a wrong answer without a failure.
        let mut noticed = 0;
        for at in (prefix_len()..good.len()).step_by(good.len() / 61 + 1) {
            let mut bad = good.clone();
            bad[at] ^= 0x20;
            std::fs::write(&path, &bad).unwrap();
            let Ok(opened) = open(&path, &stored, files) else {
                continue;
            };
            let same = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                assert_same(&idx, &content, &opened)
            }));
            assert!(
                same.is_ok() || opened.failure().is_some(),
                "byte {at} changed an answer unnoticed"
            );
            noticed += usize::from(opened.failure().is_some());
        }
        assert!(noticed > 0, "some flip lands in a postings record");
    }

    /// The content file of a registry's repository.
    fn content_path(r: &Repo) -> PathBuf {
        path_for(&lex_path(&registry(r)))
    }

    #[tokio::test]
    async fn a_report_writes_the_content_index_and_a_damaged_one_is_rebuilt() {
        let r = repo("relay");
        let report = REPORTS[0];
        let reg = registry(&r);
        reg.code().index().unwrap();
        let path = content_path(&r);
        assert!(!path.exists());
        let first = ask(&registry(&r), report).await;
        assert!(!first.relevant_files.is_empty());
        let good = std::fs::read(&path).expect("written by the first report");
        // Read back by the next one: the same answer.
        assert_eq!(cited(&ask(&registry(&r), report).await), cited(&first));
        // Truncated, of another version, empty: each time the same answer, and the file
        // is written again.
        let mut foreign = good.clone();
        foreign[MAGIC.len()] = 9;
        for bad in [good[..good.len() / 2].to_vec(), foreign, Vec::new()] {
            std::fs::write(&path, &bad).unwrap();
            let again = ask(&registry(&r), report).await;
            assert_eq!(cited(&again), cited(&first));
            assert_eq!(std::fs::read(&path).unwrap(), good);
        }
        // Damage that only a lookup finds (the postings): the same answer, from an index
        // built again, and the file rewritten whole.
        let header_len = u32_at(&good[prefix_len() - 20..prefix_len() - 16], 0).unwrap() as usize;
        let header: Header =
            postcard::from_bytes(&good[prefix_len()..prefix_len() + header_len]).unwrap();
        let body = prefix_len() + header_len;
        let post = header.sections[Sec::Postings as usize];
        let mut bad = good.clone();
        for b in &mut bad[body + post.offset as usize..body + (post.offset + post.len) as usize] {
            *b ^= 0x55;
        }
        std::fs::write(&path, &bad).unwrap();
        let again = ask(&registry(&r), report).await;
        assert_eq!(cited(&again), cited(&first));
        assert_eq!(std::fs::read(&path).unwrap(), good, "rewritten whole");
        // A short concept question reads it too (its shortlist takes the files whose
        // text matches best): it is written again.
        std::fs::remove_file(&path).unwrap();
        ask(&registry(&r), "how are webhooks handled").await;
        assert_eq!(std::fs::read(&path).unwrap(), good);
    }

    #[tokio::test]
    async fn explore_index_writes_it_and_an_edit_makes_it_stale() {
        let r = repo("relay");
        let reg = registry(&r);
        reg.code().index().unwrap();
        lexfile::refresh(reg.code(), &r.root);
        let path = content_path(&r);
        let lex = lexfile::open(&lex_path(&reg), &r.root, store_key(&reg)).unwrap();
        let opened = open(&path, lex.stored().unwrap(), lex.files().len());
        assert!(opened.is_ok(), "written by `explore index`");
        assert!(!opened.unwrap().knows("quokka"));
        // A word only a function body holds: the next report's index has it.
        let file = r.root.join("internal/retry/retry.go");
        let mut text = std::fs::read_to_string(&file).unwrap();
        text.push_str("\nfunc zebra() { quokka := 1; _ = quokka }\n");
        std::fs::write(&file, text).unwrap();
        let report = "Retry loop never stops\n\nthe quokka counter in the retry backoff \
                      never resets\nso the worker retries forever";
        let found = ask(&registry(&r), report).await;
        assert_eq!(
            found.relevant_files.first().map(|f| f.path.as_str()),
            Some("internal/retry/retry.go")
        );
        let reg = registry(&r);
        let lex = lexfile::open(&lex_path(&reg), &r.root, store_key(&reg)).unwrap();
        let content = open(&path, lex.stored().unwrap(), lex.files().len()).unwrap();
        assert!(content.knows("quokka"), "rewritten for the edited tree");
    }
}
