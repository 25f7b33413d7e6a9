//! Outputs too large to send whole, kept so the model can page through them with `read`.
//!
//! The agent caps every tool output it sends. What it cuts is not lost: the full text is
//! stored here under a handle such as `@out/3`, and the cut note tells the model to call
//! `read` with `{"file":"@out/3","start_line":…}`. The store lives for one run, in memory.

use std::sync::{Arc, Mutex};

/// The prefix of every spill handle. No repo path can start with it: `read` checks the store
/// first, and a real file named `@out/…` is still reachable as `./@out/…`.
pub const HANDLE_PREFIX: &str = "@out/";

/// A shared, append-only store of full tool outputs.
#[derive(Debug, Clone, Default)]
pub struct SpillStore {
    outputs: Arc<Mutex<Vec<String>>>,
}

impl SpillStore {
    /// Stores `text` and returns its handle.
    pub fn put(&self, text: String) -> String {
        let mut outputs = self.outputs.lock().unwrap_or_else(|e| e.into_inner());
        outputs.push(text);
        format!("{HANDLE_PREFIX}{}", outputs.len())
    }

    /// The text stored under `handle`, if any.
    pub fn get(&self, handle: &str) -> Option<String> {
        let n: usize = handle.strip_prefix(HANDLE_PREFIX)?.parse().ok()?;
        let outputs = self.outputs.lock().unwrap_or_else(|e| e.into_inner());
        outputs.get(n.checked_sub(1)?).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_then_get() {
        let s = SpillStore::default();
        let h = s.put("hello".into());
        assert_eq!(h, "@out/1");
        assert_eq!(s.get(&h).as_deref(), Some("hello"));
        assert_eq!(s.get("@out/0"), None);
        assert_eq!(s.get("@out/2"), None);
        assert_eq!(s.get("src/a.go"), None);
    }
}
