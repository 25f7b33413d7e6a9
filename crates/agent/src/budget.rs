//! Counting tokens before they are spent, and keeping the run under its budget.
//!
//! Spec 000's runs spent 110-121k tokens because nothing counted until the provider's hard
//! limit hit. Here the budget is the *total* of prompt and completion tokens over every
//! call, and the loop refuses to send a request that could cross it. Tokens are counted
//! with tiktoken (the encoding chosen from the model name, o200k for names it does not
//! know), then corrected by the ratio between what the endpoint reported and what we
//! counted for the same prompt: local models' tokenizers differ from OpenAI's, and the
//! chat template adds tokens we cannot see.

use crate::policy::{Message, ToolSpec};

/// Tokens every message costs on top of its text (role markers of the chat template).
pub const PER_MESSAGE_OVERHEAD: u64 = 4;
/// Tokens a request costs on top of its messages.
pub const PER_REQUEST_OVERHEAD: u64 = 3;
/// Safety margin on a calibrated prompt estimate, in percent.
pub const SAFETY_MARGIN_PCT: u64 = 10;

/// Counts tokens the way the model's tokenizer does, as closely as tiktoken allows.
///
/// The tokenizer is built on the first count, not when the counter is made: building
/// o200k costs ~170 ms, most of a local-engine answer, and a run without a model (the
/// local engine) counts nothing unless an output is large enough to need the cap.
#[derive(Clone)]
pub struct TokenCounter {
    tokenizer: Option<tiktoken_rs::tokenizer::Tokenizer>,
    bpe: std::sync::OnceLock<&'static tiktoken_rs::CoreBPE>,
    encoding: &'static str,
}

impl std::fmt::Debug for TokenCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenCounter")
            .field("encoding", &self.encoding)
            .finish()
    }
}

impl TokenCounter {
    /// The counter for `model`: its own encoding when tiktoken knows the name, else o200k
    /// (the encoding of current OpenAI models, and a fair proxy for other BPE tokenizers).
    pub fn for_model(model: Option<&str>) -> Self {
        use tiktoken_rs::tokenizer::Tokenizer;
        let tokenizer = model.and_then(tiktoken_rs::tokenizer::get_tokenizer);
        let encoding = match tokenizer {
            None | Some(Tokenizer::O200kBase) => "o200k_base",
            Some(Tokenizer::Cl100kBase) => "cl100k_base",
            Some(_) => "model",
        };
        Self {
            tokenizer,
            bpe: std::sync::OnceLock::new(),
            encoding,
        }
    }

    fn bpe(&self) -> &'static tiktoken_rs::CoreBPE {
        self.bpe.get_or_init(|| {
            self.tokenizer
                .and_then(|t| tiktoken_rs::bpe_for_tokenizer(t).ok())
                .unwrap_or_else(tiktoken_rs::o200k_base_singleton)
        })
    }

    /// Whether the tokenizer was built (a count was needed).
    #[cfg(test)]
    pub(crate) fn is_built(&self) -> bool {
        self.bpe.get().is_some()
    }

    /// The encoding's name, for `_metadata`.
    pub fn encoding(&self) -> &'static str {
        self.encoding
    }

    /// Tokens of one text.
    pub fn count(&self, text: &str) -> u64 {
        self.bpe().count_ordinary(text) as u64
    }

    /// Whether `text` is at most `cap` tokens, counting only when it must: a BPE token is
    /// at least one byte, so a text of at most `cap` bytes fits without a count.
    pub fn fits(&self, text: &str, cap: u64) -> bool {
        text.len() as u64 <= cap || self.count(text) <= cap
    }

    /// Tokens of one message as sent.
    pub fn count_message(&self, message: &Message) -> u64 {
        PER_MESSAGE_OVERHEAD
            + match message {
                Message::System { content } | Message::User { content } => self.count(content),
                Message::Assistant {
                    content,
                    tool_calls,
                } => {
                    content.as_deref().map_or(0, |c| self.count(c))
                        + tool_calls
                            .iter()
                            .map(|c| self.count(&c.name) + self.count(&c.arguments) + 8)
                            .sum::<u64>()
                }
                Message::Tool { content, .. } => self.count(content) + 6,
            }
    }

    /// Tokens of the tool definitions as sent.
    pub fn count_tools(&self, tools: &[ToolSpec]) -> u64 {
        tools
            .iter()
            .map(|t| {
                self.count(&t.name)
                    + self.count(&t.description)
                    + self.count(&t.parameters.to_string())
                    + 10
            })
            .sum()
    }

    /// Uncalibrated tokens of a whole request's prompt.
    pub fn count_prompt(&self, messages: &[Message], tools: &[ToolSpec]) -> u64 {
        PER_REQUEST_OVERHEAD
            + messages.iter().map(|m| self.count_message(m)).sum::<u64>()
            + self.count_tools(tools)
    }
}

/// The ratio between what the endpoint reports and what we count, learned call by call.
///
/// Kept as a fraction in thousandths so it is exact and deterministic (a replayed run
/// makes the same decisions). It starts at 1 and follows the largest ratio seen, so one
/// call that happens to tokenize cheaply cannot make the next estimate optimistic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Calibration {
    per_mille: u64,
    samples: u32,
}

impl Default for Calibration {
    fn default() -> Self {
        Self {
            per_mille: 1000,
            samples: 0,
        }
    }
}

impl Calibration {
    /// Learns from one call: we estimated `estimated` prompt tokens, the endpoint said
    /// `reported`.
    pub fn observe(&mut self, estimated: u64, reported: u64) {
        if estimated == 0 || reported == 0 {
            return;
        }
        let ratio = reported.saturating_mul(1000).div_ceil(estimated);
        // Below 1 only on evidence: the first sample sets it, later ones may only raise it.
        self.per_mille = if self.samples == 0 {
            ratio
        } else {
            self.per_mille.max(ratio)
        };
        self.samples += 1;
    }

    /// The ratio in thousandths (1000 = tiktoken agrees with the endpoint).
    pub fn per_mille(&self) -> u64 {
        self.per_mille
    }

    /// How many calls it learned from.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// A raw count corrected by the ratio and the safety margin, rounded up.
    pub fn apply(&self, raw: u64) -> u64 {
        let scaled = raw.saturating_mul(self.per_mille).div_ceil(1000);
        scaled + scaled.saturating_mul(SAFETY_MARGIN_PCT).div_ceil(100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tokenizer_is_built_only_when_a_count_is_needed() {
        let c = TokenCounter::for_model(Some("gpt-4o-mini"));
        assert_eq!(c.encoding(), "o200k_base");
        // Short enough in bytes to fit any cap of as many tokens: no tokenizer built.
        assert!(c.fits("fn main() {}", 12));
        assert!(c.bpe.get().is_none());
        // Longer than the cap in bytes: counted (4 tokens at most for this text).
        assert!(c.fits("hello hello hello", 5));
        assert!(c.bpe.get().is_some());
        assert!(!c.fits(&"word ".repeat(100), 50));
        assert_eq!(
            TokenCounter::for_model(Some("gpt-4")).encoding(),
            "cl100k_base"
        );
        assert_eq!(
            TokenCounter::for_model(Some("qwen2.5-coder")).encoding(),
            "o200k_base"
        );
    }

    #[test]
    fn calibration_follows_the_largest_ratio_after_the_first() {
        let mut c = Calibration::default();
        assert_eq!(c.apply(1000), 1100);
        c.observe(1000, 800);
        assert_eq!(c.per_mille(), 800);
        assert_eq!(c.apply(1000), 880);
        c.observe(1000, 1500);
        assert_eq!(c.per_mille(), 1500);
        c.observe(1000, 900);
        assert_eq!(c.per_mille(), 1500);
        assert_eq!(c.apply(100), 165);
    }

    #[test]
    fn counter_picks_encoding_by_model() {
        assert_eq!(
            TokenCounter::for_model(Some("gpt-4o")).encoding(),
            "o200k_base"
        );
        assert_eq!(
            TokenCounter::for_model(Some("gpt-4")).encoding(),
            "cl100k_base"
        );
        assert_eq!(
            TokenCounter::for_model(Some("qwen2.5-coder:7b")).encoding(),
            "o200k_base"
        );
        assert_eq!(TokenCounter::for_model(None).count("hello world"), 2);
    }
}
