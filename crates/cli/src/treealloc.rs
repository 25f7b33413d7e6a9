//! Tree-sitter's allocator: mimalloc, and a heap per parsed file during extraction.
//!
//! Every node of every parse tree is a C allocation. Through mimalloc rather than glibc
//! they cost a fraction (docs/performance.md). And while the code index extracts a file,
//! tree-sitter's allocations on that thread come from a mimalloc heap of the thread's
//! batch of files (`explore_tools::code::TreeHeap`): their trees are then released with
//! one `mi_heap_destroy`, not node by node, which was about 3% of a cold `explore index`.

use std::cell::Cell;
use std::ffi::c_void;

#[allow(unsafe_code)]
unsafe extern "C" {
    fn mi_malloc(size: usize) -> *mut c_void;
    fn mi_calloc(count: usize, size: usize) -> *mut c_void;
    fn mi_realloc(p: *mut c_void, size: usize) -> *mut c_void;
    fn mi_free(p: *mut c_void);
    fn mi_heap_new() -> *mut c_void;
    fn mi_heap_destroy(heap: *mut c_void);
    fn mi_heap_malloc(heap: *mut c_void, size: usize) -> *mut c_void;
    fn mi_heap_calloc(heap: *mut c_void, count: usize, size: usize) -> *mut c_void;
    fn mi_heap_realloc(heap: *mut c_void, p: *mut c_void, size: usize) -> *mut c_void;
}

thread_local! {
    /// The heap this thread's tree-sitter allocations come from while the extraction has
    /// entered it, or null for mimalloc's default. A const-initialised `Cell` of a pointer: no lazy initialisation and no
    /// destructor, so the allocator hooks may read it at any time.
    static FILE_HEAP: Cell<*mut c_void> = const { Cell::new(std::ptr::null_mut()) };
}

/// Installs the allocator and the extraction's per-file heap hooks. Called first in
/// `main`, before any parser, tree or query exists and before any other thread starts: a
/// tree allocated by one allocator must be freed by it.
#[allow(unsafe_code)]
pub fn install() {
    // SAFETY: no tree-sitter object exists yet (see above); the four functions make a
    // matching set: whatever either heap allocated, `mi_free` frees.
    unsafe {
        tree_sitter::set_allocator(
            Some(ts_malloc),
            Some(ts_calloc),
            Some(ts_realloc),
            Some(mi_free),
        );
    }
    explore_tools::code::set_tree_heap(explore_tools::code::TreeHeap {
        new: new_heap,
        enter: enter_heap,
        leave: leave_heap,
        destroy: destroy_heap,
    });
}

#[allow(unsafe_code)]
unsafe extern "C" fn ts_malloc(size: usize) -> *mut c_void {
    let heap = FILE_HEAP.with(Cell::get);
    // SAFETY: mimalloc's functions, with a heap this thread made and has not destroyed.
    unsafe {
        if heap.is_null() {
            mi_malloc(size)
        } else {
            mi_heap_malloc(heap, size)
        }
    }
}

#[allow(unsafe_code)]
unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut c_void {
    let heap = FILE_HEAP.with(Cell::get);
    // SAFETY: as `ts_malloc`.
    unsafe {
        if heap.is_null() {
            mi_calloc(count, size)
        } else {
            mi_heap_calloc(heap, count, size)
        }
    }
}

#[allow(unsafe_code)]
unsafe extern "C" fn ts_realloc(p: *mut c_void, size: usize) -> *mut c_void {
    let heap = FILE_HEAP.with(Cell::get);
    // SAFETY: as `ts_malloc`; `p` is a block tree-sitter got from these hooks.
    unsafe {
        if heap.is_null() {
            mi_realloc(p, size)
        } else {
            mi_heap_realloc(heap, p, size)
        }
    }
}

/// A new heap for parse trees (`TreeHeap::new`).
#[allow(unsafe_code)]
fn new_heap() -> Option<usize> {
    // SAFETY: a plain constructor; null when mimalloc could not make a heap.
    let heap = unsafe { mi_heap_new() };
    (!heap.is_null()).then_some(heap as usize)
}

/// Routes this thread's tree-sitter allocations to `heap` (`TreeHeap::enter`).
fn enter_heap(heap: usize) {
    FILE_HEAP.with(|h| h.set(heap as *mut c_void));
}

/// Routes them back to mimalloc's default heap (`TreeHeap::leave`).
fn leave_heap() {
    FILE_HEAP.with(|h| h.set(std::ptr::null_mut()));
}

/// Frees `heap` whole (`TreeHeap::destroy`): the extraction forgot the parsers and the
/// trees that live in it and keeps nothing else of tree-sitter's.
#[allow(unsafe_code)]
fn destroy_heap(heap: usize) {
    if heap != 0 {
        // SAFETY: made by `new_heap`, not entered (the extraction destroys a batch's heap
        // outside `enter`/`leave`), and no block in it is used again (the contract of
        // `TreeHeap`).
        unsafe { mi_heap_destroy(heap as *mut c_void) };
    }
}
