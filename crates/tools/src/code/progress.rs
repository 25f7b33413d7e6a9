//! How far an index build has got, for a progress display.
//!
//! The first question on a large repository waits seconds for the index; a display that
//! says only "thinking" looks hung. The build runs deep inside the `code` tool (on the
//! first call, or in the background after a first query), so rather than thread a
//! callback through every caller it publishes its phase and counts here, and a display
//! polls [`snapshot`]. One process builds one repository's index at a time; were two
//! builds to overlap, the display would mix their counts, nothing else.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// What the build is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// No build is running.
    Idle,
    /// Listing the repository's files.
    Walking,
    /// Parsing files (`done` of `total`; files unchanged since the cache are quick).
    Parsing,
    /// Resolving calls and references across files.
    Linking,
    /// Writing the cache.
    Saving,
}

impl Phase {
    /// The phase in words, for a status line.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Walking => "listing files",
            Phase::Parsing => "parsing",
            Phase::Linking => "linking calls",
            Phase::Saving => "saving the index",
        }
    }

    fn from_u8(n: u8) -> Phase {
        match n {
            1 => Phase::Walking,
            2 => Phase::Parsing,
            3 => Phase::Linking,
            4 => Phase::Saving,
            _ => Phase::Idle,
        }
    }
}

static PHASE: AtomicU8 = AtomicU8::new(0);
static DONE: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);

/// The build's state now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    /// What it is doing.
    pub phase: Phase,
    /// Files processed.
    pub done: usize,
    /// Files to process (0 until the walk is over).
    pub total: usize,
}

/// The current build's state ([`Phase::Idle`] when none runs).
pub fn snapshot() -> Snapshot {
    Snapshot {
        phase: Phase::from_u8(PHASE.load(Ordering::Relaxed)),
        done: DONE.load(Ordering::Relaxed),
        total: TOTAL.load(Ordering::Relaxed),
    }
}

/// A running build: sets the phases, and [`Phase::Idle`] again when dropped (also on a
/// panic), so a display never shows a build that ended.
#[derive(Debug)]
pub(crate) struct Build(());

impl Build {
    /// Starts a build: walking.
    pub(crate) fn start() -> Build {
        DONE.store(0, Ordering::Relaxed);
        TOTAL.store(0, Ordering::Relaxed);
        PHASE.store(1, Ordering::Relaxed);
        Build(())
    }

    /// The walk found `total` files to process.
    pub(crate) fn parsing(&self, total: usize) {
        TOTAL.store(total, Ordering::Relaxed);
        PHASE.store(2, Ordering::Relaxed);
    }

    /// One more file processed.
    pub(crate) fn tick(&self) {
        DONE.fetch_add(1, Ordering::Relaxed);
    }

    /// Linking across files.
    pub(crate) fn linking(&self) {
        PHASE.store(3, Ordering::Relaxed);
    }

    /// Writing the cache.
    pub(crate) fn saving(&self) {
        PHASE.store(4, Ordering::Relaxed);
    }
}

impl Drop for Build {
    fn drop(&mut self) {
        PHASE.store(0, Ordering::Relaxed);
    }
}
