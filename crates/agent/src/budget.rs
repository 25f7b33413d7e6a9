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
#[derive(Clone)]
pub struct TokenCounter {
    bpe: &'static tiktoken_rs::CoreBPE,
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
        if let Some(m) = model
            && let Some(tok) = tiktoken_rs::tokenizer::get_tokenizer(m)
            && let Ok(bpe) = tiktoken_rs::bpe_for_tokenizer(tok)
        {
            let encoding = match tok {
                tiktoken_rs::tokenizer::Tokenizer::Cl100kBase => "cl100k_base",
                tiktoken_rs::tokenizer::Tokenizer::O200kBase => "o200k_base",
                _ => "model",
            };
            return Self { bpe, encoding };
        }
        Self {
            bpe: tiktoken_rs::o200k_base_singleton(),
            encoding: "o200k_base",
        }
    }

    /// The encoding's name, for `_metadata`.
    pub fn encoding(&self) -> &'static str {
        self.encoding
    }

    /// Tokens of one text.
    pub fn count(&self, text: &str) -> u64 {
        self.bpe.count_ordinary(text) as u64
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
