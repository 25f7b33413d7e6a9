//! The points between a refresh's writes, where a test makes the refresh fail as a crash
//! there would: whatever was renamed into place before stays, nothing after is written.
//!
//! A refresh writes three files (the facts, the cache file naming them, the store), each
//! to a temporary file renamed into place, so a crash can only fall between two of them.
//! The tests (`crates/tools/tests/refresh.rs`) stop a refresh at each of these steps and
//! check that the old index is still read, and that the next refresh repairs it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A point of a refresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Every file read (and parsed if it changed), before the link.
    Link,
    /// Before the facts file is written.
    WriteFacts,
    /// After the facts file, before the cache file that names it.
    WriteIndex,
    /// Before the store file.
    WriteStore,
    /// After the cache file, before the facts files it no longer names are removed.
    Cleanup,
    /// A refresh in place (`patch`): before the delta file is written.
    WriteDelta,
    /// After a full refresh wrote the store, before it removes the delta file.
    RemoveDelta,
}

/// What a test armed at a step.
enum Action {
    Fail,
    Run(Box<dyn FnOnce() + Send>),
}

/// Actions armed by [`fail_at`] and [`run_at`]: the cache file, the step, the action.
type Armed = Vec<(PathBuf, Step, Action)>;
static ARMED: Mutex<Armed> = Mutex::new(Vec::new());

/// Makes the next refresh writing the cache file `cache` fail at `step`, once. For tests.
#[doc(hidden)]
pub fn fail_at(cache: &Path, step: Step) {
    if let Ok(mut armed) = ARMED.lock() {
        armed.push((cache.to_path_buf(), step, Action::Fail));
    }
}

/// Runs `f` when the next refresh writing the cache file `cache` reaches `step`, once
/// (e.g. to edit a file while the refresh runs). For tests.
#[doc(hidden)]
pub fn run_at(cache: &Path, step: Step, f: impl FnOnce() + Send + 'static) {
    if let Ok(mut armed) = ARMED.lock() {
        armed.push((cache.to_path_buf(), step, Action::Run(Box::new(f))));
    }
}

/// Passes `step` of the refresh writing `cache`: an error when a test armed a failure.
pub(crate) fn step(cache: &Path, step: Step) -> std::io::Result<()> {
    let action = {
        let Ok(mut armed) = ARMED.lock() else {
            return Ok(());
        };
        match armed.iter().position(|(p, s, _)| p == cache && *s == step) {
            Some(i) => armed.remove(i).2,
            None => return Ok(()),
        }
    };
    match action {
        Action::Fail => Err(std::io::Error::other(format!(
            "refresh stopped at {step:?} (injected)"
        ))),
        Action::Run(f) => {
            f();
            Ok(())
        }
    }
}
