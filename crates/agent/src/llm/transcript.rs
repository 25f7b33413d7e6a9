//! `--record` and `--replay`: a run's model calls as JSON Lines.
//!
//! Each line is one call: the exact request body and either the response body or the
//! provider error it ended in. Replaying answers call N with line N, with no network and
//! no key, so a model run can be re-checked in CI. The loop is deterministic given the
//! same answers (token counts, calibration and tool outputs do not depend on time), so a
//! replay sends the same requests and reaches the same result; a request that differs
//! from the recorded one is logged, since it means the prompts or tools changed.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::policy::PolicyError;

/// One recorded model call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TranscriptEntry {
    /// The endpoint answered.
    Response {
        /// The request body sent.
        request: serde_json::Value,
        /// The response body received.
        response: serde_json::Value,
    },
    /// The endpoint failed past its retries.
    Error {
        /// The request body sent.
        request: serde_json::Value,
        /// The provider error.
        error: String,
    },
}

impl TranscriptEntry {
    /// The request of this call.
    pub fn request(&self) -> &serde_json::Value {
        match self {
            TranscriptEntry::Response { request, .. } | TranscriptEntry::Error { request, .. } => {
                request
            }
        }
    }
}

/// Appends calls to a transcript file.
#[derive(Debug)]
pub struct Recorder {
    path: PathBuf,
    file: std::fs::File,
}

impl Recorder {
    /// Creates (or truncates) the transcript at `path`.
    pub fn create(path: &Path) -> Result<Self, PolicyError> {
        let file = std::fs::File::create(path).map_err(|e| {
            PolicyError::Config(format!(
                "cannot create the transcript `{}` (--record): {e}",
                path.display()
            ))
        })?;
        Ok(Self {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Writes one call as a line and flushes it, so a crash loses nothing already said.
    pub fn write(&mut self, entry: &TranscriptEntry) -> Result<(), PolicyError> {
        let line = serde_json::to_string(entry).unwrap_or_default();
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .map_err(|e| {
                PolicyError::Config(format!(
                    "cannot write the transcript `{}` (--record): {e}",
                    self.path.display()
                ))
            })
    }
}

/// Answers calls from a transcript file, in order.
#[derive(Debug)]
pub struct Replayer {
    path: PathBuf,
    entries: std::collections::VecDeque<TranscriptEntry>,
}

impl Replayer {
    /// Reads the whole transcript at `path`.
    pub fn open(path: &Path) -> Result<Self, PolicyError> {
        let file = std::fs::File::open(path).map_err(|e| {
            PolicyError::Config(format!(
                "cannot read the transcript `{}` (--replay): {e}",
                path.display()
            ))
        })?;
        let mut entries = std::collections::VecDeque::new();
        for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| {
                PolicyError::Config(format!(
                    "cannot read the transcript `{}` (--replay): {e}",
                    path.display()
                ))
            })?;
            if line.trim().is_empty() {
                continue;
            }
            let entry: TranscriptEntry = serde_json::from_str(&line).map_err(|e| {
                PolicyError::Config(format!(
                    "`{}` line {} is not a transcript entry (--replay): {e}",
                    path.display(),
                    i + 1
                ))
            })?;
            entries.push_back(entry);
        }
        Ok(Self {
            path: path.to_path_buf(),
            entries,
        })
    }

    /// The answer to call number `call` (1-based), whose request body is `request`.
    pub fn next(
        &mut self,
        call: u64,
        request: &serde_json::Value,
    ) -> Result<TranscriptEntry, PolicyError> {
        let Some(entry) = self.entries.pop_front() else {
            return Err(PolicyError::Provider(format!(
                "the transcript `{}` has no answer for model call {call}",
                self.path.display()
            )));
        };
        if entry.request() != request {
            tracing::warn!(
                "replay: model call {call} differs from the recorded request in `{}`; answering with the recorded response anyway",
                self.path.display()
            );
        }
        Ok(entry)
    }
}
