//! Why a command was refused, and which layer refused it.
//!
//! The model sees only the reason (`Command blocked: <reason>`); the layer is for the
//! tool's callers and its tests, which check that each attack is stopped where it should
//! be (a secret by the secrets rule, not by an accident of option parsing) and count
//! refusals per layer.

use std::fmt;

/// The layer that refused a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusedBy {
    /// Size, control, bidi or zero-width characters (layer 1).
    InputGate,
    /// Shell syntax that is not run here: subshells, `$VAR`, `<(…)`, writes by
    /// redirection, brace lists that are not plain words (layer 2).
    Parse,
    /// A program (or git subcommand) that is not allowed (layer 3).
    Program,
    /// An option, operand or script of an allowed program (layer 3).
    Option,
    /// A path outside the repository, a link that leads out, a FIFO or device (layer 4).
    Path,
    /// The secrets rule: a secret name, a masked or multiply-linked file, a blob named
    /// without its path, the repository's git config (layer 4).
    Secrets,
    /// Something this machine or repository lacks: a program not installed, git without
    /// a plain `.git` directory, a program that cannot start.
    Unavailable,
    /// A bound on the work one command may ask for (glob matches).
    Limits,
}

impl fmt::Display for RefusedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RefusedBy::InputGate => "input-gate",
            RefusedBy::Parse => "parse",
            RefusedBy::Program => "program",
            RefusedBy::Option => "option",
            RefusedBy::Path => "path",
            RefusedBy::Secrets => "secrets",
            RefusedBy::Unavailable => "unavailable",
            RefusedBy::Limits => "limits",
        })
    }
}

/// A refusal: the layer and the model-facing reason (the text after `Command blocked: `).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Blocked {
    by: RefusedBy,
    reason: String,
}

impl Blocked {
    /// A refusal by `by` for `reason`.
    pub fn new(by: RefusedBy, reason: impl Into<String>) -> Self {
        Self {
            by,
            reason: reason.into(),
        }
    }

    /// Refused by the input gate.
    pub fn input_gate(reason: impl Into<String>) -> Self {
        Self::new(RefusedBy::InputGate, reason)
    }

    /// Refused by the parse.
    pub fn parse(reason: impl Into<String>) -> Self {
        Self::new(RefusedBy::Parse, reason)
    }

    /// A program that is not allowed.
    pub fn program(reason: impl Into<String>) -> Self {
        Self::new(RefusedBy::Program, reason)
    }

    /// An option, operand or script of an allowed program.
    pub fn option(reason: impl Into<String>) -> Self {
        Self::new(RefusedBy::Option, reason)
    }

    /// A path that leaves the repository or is not a file.
    pub fn path(reason: impl Into<String>) -> Self {
        Self::new(RefusedBy::Path, reason)
    }

    /// The secrets rule.
    pub fn secrets(reason: impl Into<String>) -> Self {
        Self::new(RefusedBy::Secrets, reason)
    }

    /// Something the machine or repository lacks.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Self::new(RefusedBy::Unavailable, reason)
    }

    /// A limit on the work one command may ask for.
    pub fn limits(reason: impl Into<String>) -> Self {
        Self::new(RefusedBy::Limits, reason)
    }

    /// The layer that refused.
    pub fn by(&self) -> RefusedBy {
        self.by
    }

    /// The model-facing reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The same refusal, its reason prefixed with where it happened (`after expansion`).
    pub fn context(self, what: &str) -> Self {
        Self {
            by: self.by,
            reason: format!("{what}: {}", self.reason),
        }
    }
}

/// Refusals of an option, operand or script are the common case in the per-program
/// checks (`policy.rs`, `git.rs`, `readers.rs`, `scripts.rs`), which write them as plain
/// text; every other layer is constructed by name where it refuses.
impl From<String> for Blocked {
    fn from(reason: String) -> Self {
        Self::option(reason)
    }
}

impl From<&str> for Blocked {
    fn from(reason: &str) -> Self {
        Self::option(reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_is_the_text_and_context_keeps_the_layer() {
        let b = Blocked::secrets("`.env` is masked").context("after expansion");
        assert_eq!(b.to_string(), "after expansion: `.env` is masked");
        assert_eq!(b.by(), RefusedBy::Secrets);
        assert_eq!(Blocked::from("x").by(), RefusedBy::Option);
        assert_eq!(RefusedBy::InputGate.to_string(), "input-gate");
    }
}
