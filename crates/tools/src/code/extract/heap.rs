//! Parse trees kept in a heap per thread and batch of files, freed whole.
//!
//! A parse tree is a few hundred thousand small nodes for a large file. Dropping a `Tree`
//! walks every node to release it (`ts_tree_delete`): about 3% of a cold `explore index`'s
//! CPU on the 1.4M-line benchmark corpus, for memory that could all be released at once.
//! When the binary installs [`TreeHeap`] hooks (through tree-sitter's allocator, which it
//! sets), [`extract`](super::extract) parses with parsers made inside a heap of the
//! thread's own: every allocation tree-sitter makes on that thread while a file is
//! extracted (the parser's stacks, the tree, the cursors of the walks) comes from that
//! heap. The trees are forgotten instead of dropped, and once the batch has parsed
//! [`BATCH_BYTES`] of source, the heap is freed in one step with the batch's trees and
//! parsers, and the next file starts a new one.
//!
//! The heap saves more than the delete: a tree's nodes come from fresh contiguous pages
//! instead of the free lists earlier trees left scattered (mimalloc's allocation fell from
//! 5% of the CPU samples to 1%). A heap per file would bound the memory tighter, but a parser
//! made in each file's heap costs about 220,000 instructions (it zeroes its tables), more
//! than the delete it saves; the parsers must live in the heap because they grow their
//! stacks during a parse.
//!
//! The contract with the hooks: between `enter` and `leave`, tree-sitter's allocations on
//! the calling thread come from the heap entered; `destroy` frees a heap with everything in
//! it. Nothing allocated in a batch's heap is used after it is destroyed: the extraction
//! keeps only Rust values (names, lines, paths) built from the source text, and the
//! batch's parsers are forgotten with it. Without hooks (tests, other binaries) extraction
//! drops its trees as before.

use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::sync::OnceLock;

use tree_sitter::{Parser, Tree};

use super::ExtractError;
use crate::code::model::Language;

/// Source bytes a batch parses before its heap is freed. On the benchmark corpus, 16 KiB
/// to 256 KiB batches took the same CPU (about 7% less than dropping each tree) and the
/// same peak memory as dropping each tree; 4 MiB batches held 130 MiB more. A thread keeps
/// one batch at most, so a long-lived process that extracts now and then holds that much
/// source's trees per thread.
const BATCH_BYTES: usize = 256 << 10;

/// The binary's hooks around the heaps of parse trees (see the module docs). A heap is an
/// opaque handle.
#[derive(Clone, Copy, Debug)]
pub struct TreeHeap {
    /// A new heap, `None` when none could be made.
    pub new: fn() -> Option<usize>,
    /// Routes this thread's tree-sitter allocations to `heap` until [`TreeHeap::leave`].
    pub enter: fn(usize),
    /// Routes them back to the default heap.
    pub leave: fn(),
    /// Frees `heap` with everything still in it (never while it is entered).
    pub destroy: fn(usize),
}

static HOOKS: OnceLock<TreeHeap> = OnceLock::new();

/// Installs the hooks, once per process, before any extraction; false if some were
/// installed already (they stay).
pub fn set_tree_heap(hooks: TreeHeap) -> bool {
    HOOKS.set(hooks).is_ok()
}

/// A thread's heap, the parsers made in it and the source bytes parsed since it was made.
/// Dropped (when full, or when its thread ends) it frees its heap, parsers included.
struct Batch {
    heap: usize,
    destroy: fn(usize),
    parsers: [Option<ManuallyDrop<Parser>>; Language::ALL.len()],
    parsed: usize,
}

impl Drop for Batch {
    fn drop(&mut self) {
        // The parsers are `ManuallyDrop`: they and the batch's trees go with the heap.
        (self.destroy)(self.heap);
    }
}

thread_local! {
    static BATCH: RefCell<Option<Batch>> = const { RefCell::new(None) };
}

/// While alive, this thread's tree-sitter allocations go to the batch's heap (also when a
/// panic unwinds through the extraction: what it drops is freed into the heap).
struct Entered(fn());

impl Entered {
    fn new(hooks: &TreeHeap, heap: usize) -> Entered {
        (hooks.enter)(heap);
        Entered(hooks.leave)
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        (self.0)();
    }
}

/// Runs `f` with this thread's batch parser for `language` (made in the batch's heap on
/// first use), `len` source bytes being parsed, and forgets the tree it returns; `None`
/// without hooks (or a heap), and then the caller parses as usual.
pub(super) fn in_batch<T>(
    language: Language,
    len: usize,
    f: impl FnOnce(&mut Parser) -> Result<(T, Tree), ExtractError>,
) -> Option<Result<T, ExtractError>> {
    in_batch_with(HOOKS.get()?, language, len, f)
}

/// [`in_batch`] with `hooks`.
fn in_batch_with<T>(
    hooks: &TreeHeap,
    language: Language,
    len: usize,
    f: impl FnOnce(&mut Parser) -> Result<(T, Tree), ExtractError>,
) -> Option<Result<T, ExtractError>> {
    BATCH.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        if slot.as_ref().is_some_and(|b| b.parsed >= BATCH_BYTES) {
            *slot = None;
        }
        if slot.is_none() {
            *slot = Some(Batch {
                heap: (hooks.new)()?,
                destroy: hooks.destroy,
                parsers: [const { None }; Language::ALL.len()],
                parsed: 0,
            });
        }
        let batch = slot.as_mut()?;
        batch.parsed += len;
        let _entered = Entered::new(hooks, batch.heap);
        let i = Language::ALL
            .iter()
            .position(|l| *l == language)
            .unwrap_or(0);
        if batch.parsers[i].is_none() {
            match super::new_parser(language) {
                Ok(p) => batch.parsers[i] = Some(ManuallyDrop::new(p)),
                Err(e) => return Some(Err(e)),
            }
        }
        let parser = batch.parsers[i].as_deref_mut()?;
        Some(f(parser).map(|(value, tree)| {
            // Freed with the heap.
            std::mem::forget(tree);
            value
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};

    // Hooks that only record what they are asked (the allocator is not changed, so what
    // the batches forget stays allocated: a few small trees).
    thread_local! {
        static MADE: Cell<usize> = const { Cell::new(0) };
        static ENTERED: Cell<Option<usize>> = const { Cell::new(None) };
        static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    fn log(s: String) {
        LOG.with(|l| l.borrow_mut().push(s));
    }

    const FAKE: TreeHeap = TreeHeap {
        new: || {
            let n = MADE.with(|m| m.get()) + 1;
            MADE.with(|m| m.set(n));
            Some(n)
        },
        enter: |h| {
            assert_eq!(ENTERED.with(Cell::get), None, "entered twice");
            ENTERED.with(|e| e.set(Some(h)));
        },
        leave: || {
            assert!(ENTERED.with(Cell::get).is_some(), "left without entering");
            ENTERED.with(|e| e.set(None));
        },
        destroy: |h| {
            assert_eq!(ENTERED.with(Cell::get), None, "destroyed while entered");
            log(format!("destroy {h}"));
        },
    };

    /// Facts taken in a batch are those of a plain extraction; the tree-sitter work of
    /// each file happens between enter and leave; a batch's heap is destroyed once it has
    /// parsed its bytes, outside any file, and the next file starts a new heap.
    #[test]
    fn batches_extract_as_a_plain_extraction_and_free_their_heap_when_full() {
        let src = "package p\n\n// F calls G.\nfunc F() { G(1) }\n\nfunc G(x int) {}\n";
        let plain = super::super::extract(Language::Go, src.as_bytes()).unwrap();
        let mut parsed = 0;
        let mut files = 0;
        while parsed < BATCH_BYTES {
            let facts = in_batch_with(&FAKE, Language::Go, src.len(), |parser| {
                assert_eq!(ENTERED.with(Cell::get), Some(1));
                super::super::extract_parsed(Language::Go, src, parser)
            })
            .unwrap()
            .unwrap();
            assert_eq!(facts, plain);
            parsed += src.len();
            files += 1;
        }
        assert!(files > 1);
        assert!(LOG.with(|l| l.borrow().is_empty()), "destroyed before full");
        in_batch_with(&FAKE, Language::Python, 10, |parser| {
            assert_eq!(ENTERED.with(Cell::get), Some(2), "a new heap");
            super::super::extract_parsed(Language::Python, "x = 1\n", parser)
        })
        .unwrap()
        .unwrap();
        assert_eq!(LOG.with(|l| l.borrow().clone()), ["destroy 1"]);
        assert_eq!(ENTERED.with(Cell::get), None);
        // A thread's batch goes with it.
        BATCH.with(|b| b.borrow_mut().take());
        assert_eq!(LOG.with(|l| l.borrow().clone()), ["destroy 1", "destroy 2"]);
    }
}
