//! The loop: ask the policy, run its tool calls, feed the results back, until `submit`.
//!
//! Everything that must hold whoever drives the run lives here:
//! - **Budget.** `usage.total_tokens` (prompt + completion over every call) never exceeds
//!   the budget. Before each request the loop estimates its prompt (tiktoken, calibrated
//!   against the endpoint's reported usage) and caps the completion; a normal turn is only
//!   taken when, after it, a final submit-only turn still fits. The model is told what is
//!   left after every turn.
//! - **Context.** Each tool output is capped ([`DEFAULT_TOOL_OUTPUT_TOKENS`]); the rest is
//!   kept in the registry's spill store and the cut note says how to page it. As the
//!   context grows past a soft limit, the oldest outputs become one-line stubs.
//! - **Doom loops.** See [`crate::doom`].
//! - **Evidence.** See [`crate::evidence`]: `submit` is checked, repaired once, trimmed.
//! - **Ending.** Always a result, except for a wrong setting ([`RunError`]): a run cut
//!   short by budget, turns, a doom loop or the endpoint ends with a partial result built
//!   from what its tools found.

use std::collections::BTreeMap;
use std::time::Instant;

use explore_tools::code::{CodeAnswer, Kind, Operation};
use explore_tools::overview::group;
use explore_tools::{Finding, Registry, ToolDetail, ToolError, ToolOutput};
use serde_json::json;

use crate::budget::{Calibration, TokenCounter};
use crate::doom::{self, DoomDetector, DoomEvent, Verdict};
use crate::event::{Event, EventSink};
use crate::evidence::{self, Checked, Evidence};
use crate::lists::{self, ListSeen};
use crate::policy::{Engine, Message, Policy, PolicyError, ToolCall, ToolSpec, TurnRequest};
use crate::result::{
    ExploreResult, Metadata, RESULT_VERSION, RelevantFile, StopReason, Usage, now_timestamp,
};
use crate::specs::{self, SUBMIT, SubmitArgs};

/// The default token budget of a run (spec 000's bar for an average exploration). The
/// CLI's default and an eval case's default are this constant, so they cannot drift.
pub const DEFAULT_BUDGET: u64 = 60_000;
/// The default turn limit.
pub const DEFAULT_MAX_TURNS: u32 = 12;
/// The most tokens of one tool output sent to the model; the rest is spilled.
pub const DEFAULT_TOOL_OUTPUT_TOKENS: u64 = 4_000;
/// The completion cap of a normal turn.
pub const DEFAULT_MAX_COMPLETION_TOKENS: u64 = 2_048;
/// The completion cap of the final, submit-only turn.
pub const DEFAULT_FINAL_COMPLETION_TOKENS: u64 = 2_048;
/// The smallest completion worth asking for on the final turn.
pub const MIN_FINAL_COMPLETION_TOKENS: u64 = 400;
/// Tool calls run per turn; further calls in the same turn are refused.
pub const MAX_CALLS_PER_TURN: usize = 8;
/// Files in a partial result built from evidence.
pub const MAX_FALLBACK_FILES: usize = 10;
/// The context's soft limit is a quarter of the remaining budget, within these bounds.
pub const CONTEXT_SOFT_MIN: u64 = 6_000;
/// See [`CONTEXT_SOFT_MIN`].
pub const CONTEXT_SOFT_MAX: u64 = 24_000;
/// Tokens a stub of an elided output costs, for the final-turn reserve.
const STUB_TOKENS: u64 = 60;

/// The system prompt.
pub const SYSTEM_PROMPT: &str = include_str!("../../../prompts/system.md");

/// What to explore and within which limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunConfig {
    /// The question.
    pub query: String,
    /// Spec 004's focus angle; `general` by default.
    pub angle: String,
    /// Keywords that hint where to look (spec 004), may be empty.
    pub keywords: Vec<String>,
    /// Total tokens (prompt + completion over every model call) the run may spend.
    pub budget: u64,
    /// Most policy turns, the final submit-only turn included.
    pub max_turns: u32,
    /// Most tokens of one tool output sent to the model.
    pub tool_output_tokens: u64,
    /// Completion cap of a normal turn.
    pub max_completion_tokens: u64,
    /// Completion cap of the final turn.
    pub final_completion_tokens: u64,
    /// Add a three-line orientation (size, languages, top level; see
    /// `explore_tools::overview`) to the first message, so a model's first call need not
    /// be `tree`. Off by default: the local engine has no use for it.
    pub orient: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        Self {
            query: String::new(),
            angle: "general".into(),
            keywords: Vec::new(),
            budget: DEFAULT_BUDGET,
            max_turns: DEFAULT_MAX_TURNS,
            tool_output_tokens: DEFAULT_TOOL_OUTPUT_TOKENS,
            max_completion_tokens: DEFAULT_MAX_COMPLETION_TOKENS,
            final_completion_tokens: DEFAULT_FINAL_COMPLETION_TOKENS,
            orient: false,
        }
    }
}

impl RunConfig {
    /// The defaults for `query`, tidied ([`tidy_question`]).
    pub fn new(query: impl Into<String>) -> Self {
        Self {
            query: tidy_question(&query.into()),
            ..Self::default()
        }
    }
}

/// A question as the engines read it. A short question is one line, its whitespace
/// collapsed (a shell or an editor wrapped it). A pasted report keeps its lines, without
/// trailing blanks and with `\r\n` made `\n`: its title, traceback frames, code fences
/// and error lines are told apart by line (`local::signals`), so a report piped to
/// `explore -` is read as `explore eval` reads the same text.
pub fn tidy_question(raw: &str) -> String {
    let raw = raw.trim();
    if !crate::local::signals::is_report(raw) {
        return raw.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    raw.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A run that produced no result at all (exit status 2): a setting is wrong.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The policy cannot work as configured (bad key, unknown model, unreadable
    /// transcript); the message names the setting to fix.
    #[error("{0}")]
    Config(String),
}

impl RunError {
    /// The exit status of the main command (contract section 1).
    pub fn exit_code(&self) -> i32 {
        2
    }
}

/// Runs one exploration: `policy` decides, `registry`'s tools answer, `sink` watches.
///
/// Returns a result for every way a run can end (its `stop_reason` says which), and
/// [`RunError`] only when a setting is wrong and there is nothing to show.
pub async fn explore<P: Policy>(
    registry: &Registry,
    policy: &mut P,
    config: &RunConfig,
    sink: &dyn EventSink,
) -> Result<ExploreResult, RunError> {
    let mut run = Run::new(
        registry,
        policy.model(),
        policy.engine(),
        policy.metered(),
        config,
        sink,
    );
    run.go(policy).await
}

/// What a tool message carries besides its text: the places it shows and its typed answer.
#[derive(Debug, Default)]
struct Facts {
    findings: Vec<Finding>,
    detail: Option<ToolDetail>,
}

/// Metadata about one tool message in the context.
#[derive(Debug, Clone)]
struct ToolMsg {
    index: usize,
    turn: u32,
    sig: String,
    stub: String,
    elided: bool,
}

#[derive(Debug, Default)]
struct Metrics {
    tool_calls: BTreeMap<String, u32>,
    by_operation: BTreeMap<String, u32>,
    tool_errors: BTreeMap<String, u32>,
    invalid_kinds: u32,
    ambiguous_resolves: u32,
    trace_found: u32,
    trace_not_found: u32,
    malformed_calls: u32,
    unknown_tools: u32,
    refused_repeats: u32,
    refused_extra_calls: u32,
    cut_outputs: u32,
    elided_outputs: u32,
    repair_rounds: u32,
    estimated_prompt_tokens: u64,
    /// Every list a `code` call returned, to count how much of each the result cites.
    lists: Vec<ListSeen>,
}

/// What ends a run.
enum End {
    Submitted(Box<SubmitArgs>),
    Partial(StopReason),
}

struct Run<'a> {
    registry: &'a Registry,
    config: &'a RunConfig,
    sink: &'a dyn EventSink,
    model: Option<String>,
    engine: Engine,
    metered: bool,
    counter: TokenCounter,
    calibration: Calibration,
    messages: Vec<Message>,
    tool_msgs: Vec<ToolMsg>,
    evidence: Evidence,
    /// Digests of every output seen, for outputs without findings.
    digests: std::collections::HashSet<[u8; 32]>,
    /// Every tool call id used so far.
    call_ids: std::collections::HashSet<String>,
    doom: DoomDetector,
    usage: Usage,
    turns: u32,
    metrics: Metrics,
    repair_used: bool,
    repair_turn: Option<u32>,
    pending: Option<SubmitArgs>,
    last_prose: Option<String>,
    notices: Vec<String>,
    started: Instant,
    all_tools: Vec<ToolSpec>,
    submit_only: Vec<ToolSpec>,
}

impl<'a> Run<'a> {
    fn new(
        registry: &'a Registry,
        model: Option<String>,
        engine: Engine,
        metered: bool,
        config: &'a RunConfig,
        sink: &'a dyn EventSink,
    ) -> Self {
        let counter = TokenCounter::for_model(model.as_deref());
        Self {
            registry,
            config,
            sink,
            model,
            engine,
            metered,
            counter,
            calibration: Calibration::default(),
            messages: Vec::new(),
            tool_msgs: Vec::new(),
            evidence: Evidence::default(),
            digests: std::collections::HashSet::new(),
            call_ids: std::collections::HashSet::new(),
            doom: DoomDetector::default(),
            usage: Usage {
                budget: config.budget,
                ..Usage::default()
            },
            turns: 0,
            metrics: Metrics::default(),
            repair_used: false,
            repair_turn: None,
            pending: None,
            last_prose: None,
            notices: Vec::new(),
            started: Instant::now(),
            all_tools: specs::tool_specs(registry),
            submit_only: vec![specs::submit_spec()],
        }
    }

    fn spent(&self) -> u64 {
        self.usage.total_tokens
    }

    fn remaining(&self) -> u64 {
        self.config.budget.saturating_sub(self.spent())
    }

    fn notice(&mut self, kind: &str, message: String) {
        tracing::debug!("{kind}: {message}");
        self.sink.emit(&Event::Notice {
            kind: kind.to_string(),
            message: message.clone(),
        });
        self.notices.push(format!("{kind}: {message}"));
    }

    async fn go<P: Policy>(&mut self, policy: &mut P) -> Result<ExploreResult, RunError> {
        self.sink.emit(&Event::Start {
            query: self.config.query.clone(),
            engine: self.engine.as_str().to_string(),
            budget: self.config.budget,
        });
        self.messages.push(Message::System {
            content: system_prompt(self.config),
        });
        let mut first = user_prompt(self.config);
        if self.config.orient {
            let root = self.registry.root().clone();
            let overview =
                tokio::task::spawn_blocking(move || explore_tools::overview::survey(&root))
                    .await
                    .map(|o| o.render())
                    .unwrap_or_default();
            if !overview.is_empty() {
                first.push('\n');
                first.push_str(&overview);
            }
        }
        self.messages.push(Message::User { content: first });
        let end = self.turns_loop(policy).await?;
        Ok(self.finish(end))
    }

    async fn turns_loop<P: Policy>(&mut self, policy: &mut P) -> Result<End, RunError> {
        loop {
            let turn = self.turns + 1;
            let mut final_turn = turn >= self.config.max_turns.max(1);
            let mut final_reason = StopReason::MaxTurns;
            if self.metered {
                if self.spent() >= self.config.budget {
                    return Ok(End::Partial(StopReason::Budget));
                }
                if !final_turn {
                    self.compact(turn);
                    let normal =
                        self.estimate(&self.all_tools.clone()) + self.config.max_completion_tokens;
                    let reserve = self.final_reserve();
                    if self.spent() + normal + reserve > self.config.budget {
                        final_turn = true;
                        final_reason = StopReason::Budget;
                    }
                }
            }
            let (tools, max_completion) = if final_turn {
                self.messages.push(Message::User {
                    content: final_note(final_reason, self.remaining()),
                });
                let mut cap = self.config.final_completion_tokens;
                if self.metered {
                    loop {
                        let prompt = self.estimate(&self.submit_only.clone());
                        let avail = self.config.budget.saturating_sub(self.spent() + prompt);
                        if avail >= MIN_FINAL_COMPLETION_TOKENS {
                            cap = cap.min(avail);
                            break;
                        }
                        if !self.elide_oldest(u32::MAX) {
                            self.notice(
                                "budget",
                                format!(
                                    "no room left for a final turn ({} of {} tokens spent)",
                                    self.spent(),
                                    self.config.budget
                                ),
                            );
                            return Ok(End::Partial(StopReason::Budget));
                        }
                    }
                }
                (self.submit_only.clone(), cap)
            } else {
                (self.all_tools.clone(), self.config.max_completion_tokens)
            };

            self.sink.emit(&Event::Turn { turn });
            // Without a model nothing is sent, so there is no prompt to estimate.
            let raw_prompt = if self.metered {
                self.counter.count_prompt(&self.messages, &tools)
            } else {
                0
            };
            let est_prompt = self.calibration.apply(raw_prompt);
            self.metrics.estimated_prompt_tokens += est_prompt;
            let request = TurnRequest {
                messages: &self.messages,
                tools: &tools,
                max_tokens: est_prompt + max_completion,
                max_completion_tokens: max_completion,
                final_turn,
            };
            let answer = policy.next_turn(request).await;
            self.turns = turn;
            let mut reply = match answer {
                Ok(t) => t,
                Err(PolicyError::Config(m)) => return Err(RunError::Config(m)),
                Err(PolicyError::Provider(m)) => {
                    self.notice("provider_error", m);
                    return Ok(End::Partial(StopReason::ProviderError));
                }
            };

            // What the turn cost.
            let (prompt, completion) = if !self.metered {
                reply
                    .usage
                    .map_or((0, 0), |u| (u.prompt_tokens, u.completion_tokens))
            } else if let Some(u) = reply.usage {
                self.calibration.observe(raw_prompt, u.prompt_tokens);
                (u.prompt_tokens, u.completion_tokens)
            } else {
                let completion = reply
                    .content
                    .as_deref()
                    .map_or(0, |c| self.counter.count(c))
                    + reply
                        .tool_calls
                        .iter()
                        .map(|c| self.counter.count(&c.name) + self.counter.count(&c.arguments))
                        .sum::<u64>();
                (raw_prompt, completion)
            };
            self.usage.prompt_tokens += prompt;
            self.usage.completion_tokens += completion;
            self.usage.total_tokens = self.usage.prompt_tokens + self.usage.completion_tokens;
            self.sink.emit(&Event::Usage { usage: self.usage });
            if self.metered && self.spent() > self.config.budget {
                self.notice(
                    "budget",
                    format!(
                        "the endpoint reported {} tokens, over the budget of {}",
                        self.spent(),
                        self.config.budget
                    ),
                );
            }

            if let Some(c) = &reply.content {
                self.last_prose = Some(c.clone());
            }
            // Some local servers send empty or repeated call ids; each tool message must
            // answer exactly one call, so make them unique (deterministically, for replay).
            for (i, call) in reply.tool_calls.iter_mut().enumerate() {
                if call.id.trim().is_empty() || !self.call_ids.insert(call.id.clone()) {
                    call.id = format!("call_{turn}_{i}");
                    self.call_ids.insert(call.id.clone());
                }
            }
            self.messages.push(Message::Assistant {
                content: reply.content.clone(),
                tool_calls: reply.tool_calls.clone(),
            });

            if reply.tool_calls.is_empty() {
                if final_turn {
                    return Ok(End::Partial(final_reason));
                }
                self.messages.push(Message::User {
                    content: "You called no tool. Answer by calling `submit` (cite only files and lines the tools showed you), or call a tool to keep looking.".into(),
                });
                if let Err(ev) = self.doom.end_turn(turn, false) {
                    self.doom_notice(&ev);
                    return Ok(End::Partial(StopReason::DoomLoop));
                }
                continue;
            }

            let mut gained = false;
            let mut ending: Option<End> = None;
            for (i, call) in reply.tool_calls.iter().enumerate() {
                if ending.is_some() {
                    // The run is over; the remaining calls get no answer and no request
                    // follows, so the conversation stays well-formed.
                    break;
                }
                if call.name == SUBMIT {
                    match self.handle_submit(turn, call, final_turn.then_some(final_reason)) {
                        Some(end) => ending = Some(end),
                        None => {
                            // A repair round: answer the rest of this turn's calls as not run.
                            for rest in &reply.tool_calls[i + 1..] {
                                self.push_tool(
                                    turn,
                                    rest,
                                    "",
                                    "Not run: `submit` was called in the same turn. Fix the answer first.".into(),
                                    Facts::default(),
                                    true,
                                );
                            }
                            break;
                        }
                    }
                    continue;
                }
                if final_turn {
                    self.push_tool(
                        turn,
                        call,
                        "",
                        "Not run: this is the final turn; only `submit` is allowed now.".into(),
                        Facts::default(),
                        true,
                    );
                    continue;
                }
                if i >= MAX_CALLS_PER_TURN {
                    self.metrics.refused_extra_calls += 1;
                    self.push_tool(
                        turn,
                        call,
                        "",
                        format!("Not run: at most {MAX_CALLS_PER_TURN} tool calls are run per turn. Call it again next turn if you still need it."),
                        Facts::default(),
                        true,
                    );
                    continue;
                }
                match self.run_call(turn, call, gained).await {
                    Ok(g) => gained |= g,
                    Err(ev) => {
                        self.doom_notice(&ev);
                        ending = Some(End::Partial(StopReason::DoomLoop));
                    }
                }
            }
            if let Some(end) = ending {
                return Ok(end);
            }
            if final_turn {
                return Ok(End::Partial(final_reason));
            }
            // A turn that opened the repair round was a submission, not a search: it is not
            // stale.
            if self.repair_turn != Some(turn)
                && let Err(ev) = self.doom.end_turn(turn, gained)
            {
                self.doom_notice(&ev);
                return Ok(End::Partial(StopReason::DoomLoop));
            }
            self.append_budget_note(turn);
        }
    }

    fn doom_notice(&mut self, ev: &DoomEvent) {
        let msg = match ev.kind.as_str() {
            "oscillation" => format!("calls alternate between two signatures: {}", ev.call),
            "stale_turns" => format!(
                "{} turns in a row added no new file or location",
                doom::STALE_TURN_LIMIT
            ),
            _ => format!("{} repeated calls (last: {})", doom::REPEAT_LIMIT, ev.call),
        };
        self.notice("doom_loop", msg);
    }

    /// Calibrated estimate of the prompt as it stands, with `tools` offered.
    fn estimate(&self, tools: &[ToolSpec]) -> u64 {
        self.calibration
            .apply(self.counter.count_prompt(&self.messages, tools))
    }

    /// Tokens to keep for the final submit-only turn after one more normal turn: the
    /// context with every output elided, what the turn may add, and the final completion.
    fn final_reserve(&self) -> u64 {
        let floor: Vec<Message> = self
            .messages
            .iter()
            .enumerate()
            .map(
                |(i, m)| match self.tool_msgs.iter().find(|t| t.index == i) {
                    Some(t) => match m {
                        Message::Tool {
                            call_id, is_error, ..
                        } => Message::Tool {
                            call_id: call_id.clone(),
                            content: t.stub.clone(),
                            findings: Vec::new(),
                            is_error: *is_error,
                            detail: None,
                        },
                        other => other.clone(),
                    },
                    None => m.clone(),
                },
            )
            .collect();
        let floor_prompt = self.counter.count_prompt(&floor, &self.submit_only);
        let growth =
            self.config.max_completion_tokens + STUB_TOKENS * MAX_CALLS_PER_TURN as u64 + 120;
        self.calibration.apply(floor_prompt + growth) + self.config.final_completion_tokens
    }

    /// Elides old outputs while the context is over its soft limit, keeping the outputs
    /// of the previous turn.
    fn compact(&mut self, turn: u32) {
        let soft = (self.remaining() / 4).clamp(CONTEXT_SOFT_MIN, CONTEXT_SOFT_MAX);
        let tools = self.all_tools.clone();
        while self.estimate(&tools) > soft {
            if !self.elide_oldest(turn.saturating_sub(1)) {
                break;
            }
        }
    }

    /// Replaces the oldest output from a turn before `before_turn` with its stub; false
    /// when there is none left.
    fn elide_oldest(&mut self, before_turn: u32) -> bool {
        let Some(pos) = self
            .tool_msgs
            .iter()
            .position(|t| !t.elided && t.turn < before_turn)
        else {
            return false;
        };
        let t = &mut self.tool_msgs[pos];
        t.elided = true;
        if let Some(Message::Tool { content, .. }) = self.messages.get_mut(t.index) {
            *content = t.stub.clone();
        }
        let sig = t.sig.clone();
        if !sig.is_empty() {
            self.doom.elided(&sig);
        }
        self.metrics.elided_outputs += 1;
        true
    }

    fn append_budget_note(&mut self, turn: u32) {
        if !self.metered {
            return;
        }
        let note = format!(
            "\n[budget: {} of {} tokens left; turn {turn} of {} done]",
            group(self.remaining()),
            group(self.config.budget),
            self.config.max_turns
        );
        if let Some(Message::Tool { content, .. }) = self.messages.last_mut() {
            content.push_str(&note);
        } else {
            self.messages.push(Message::User {
                content: note.trim().to_string(),
            });
        }
    }

    fn push_tool(
        &mut self,
        turn: u32,
        call: &ToolCall,
        sig: &str,
        content: String,
        facts: Facts,
        is_error: bool,
    ) {
        let stub = format!(
            "[elided to save tokens: {} {} → {}. Call it again if you need the text.]",
            call.name,
            short(&call.arguments, 80),
            short(content.lines().next().unwrap_or(""), 100)
        );
        self.tool_msgs.push(ToolMsg {
            index: self.messages.len(),
            turn,
            sig: sig.to_string(),
            stub,
            elided: false,
        });
        self.messages.push(Message::Tool {
            call_id: call.id.clone(),
            content,
            findings: facts.findings,
            is_error,
            detail: facts.detail,
        });
    }

    /// Runs one registry tool call; `Ok(gained)`, or the doom event that ends the run.
    /// `sibling_gained`: an earlier call of the same turn added evidence. A call that adds
    /// nothing beside it is part of a fan-out (the same callers reached through four
    /// interface methods), not a loop, and is not counted as one.
    async fn run_call(
        &mut self,
        turn: u32,
        call: &ToolCall,
        sibling_gained: bool,
    ) -> Result<bool, DoomEvent> {
        *self
            .metrics
            .tool_calls
            .entry(call.name.clone())
            .or_default() += 1;
        let raw = call.arguments.trim();
        let args: serde_json::Value = if raw.is_empty() {
            json!({})
        } else {
            match serde_json::from_str(raw) {
                Ok(v) => v,
                Err(e) => {
                    self.metrics.malformed_calls += 1;
                    let msg = format!(
                        "Your arguments for `{}` are not valid JSON ({e}); nothing was run. Send exactly one JSON object{}.",
                        call.name,
                        self.accepted_fields(&call.name)
                    );
                    self.emit_call(turn, call, &json!(raw));
                    self.emit_result(turn, call, false, &msg);
                    self.push_tool(turn, call, "", msg, Facts::default(), true);
                    return Ok(false);
                }
            }
        };
        self.emit_call(turn, call, &args);
        if self.registry.get(&call.name).is_none() {
            self.metrics.unknown_tools += 1;
            let mut names = self.registry.names();
            names.push(SUBMIT);
            let msg = format!(
                "Unknown tool `{}`; nothing was run. The tools are: {}. To search text use bash {{\"command\":\"rg -n PATTERN\"}}; to find a symbol use code {{\"operation\":\"find\",\"symbol\":\"Name\"}}.",
                short(&call.name, 60),
                names.join(", ")
            );
            self.emit_result(turn, call, false, &msg);
            self.push_tool(turn, call, "", msg, Facts::default(), true);
            return Ok(false);
        }
        let sig = doom::signature(&call.name, &args);
        let rerun = self.doom.was_elided(&sig);
        match self.doom.check(turn, &sig)? {
            Verdict::AlreadyHave { turn: earlier } => {
                self.metrics.refused_repeats += 1;
                let msg = format!(
                    "Not run: you already made this exact call in turn {earlier} and its result is above; calling it again returns the same text. Change course: read a different range, look up another symbol, or submit what you have."
                );
                self.notice("repeat", format!("{} {}", call.name, short(raw, 120)));
                self.emit_result(turn, call, false, &msg);
                self.push_tool(turn, call, "", msg, Facts::default(), true);
                return Ok(false);
            }
            Verdict::Run => {}
        }
        let registry = self.registry.clone();
        let name = call.name.clone();
        let call_args = args.clone();
        let outcome = tokio::task::spawn_blocking(move || registry.call(&name, &call_args))
            .await
            .unwrap_or_else(|e| {
                Err(ToolError::failed(format!(
                    "The tool crashed ({e}); try different arguments or another tool."
                )))
            });
        self.code_metrics(&call.name, &args, &outcome);
        match outcome {
            Ok(ToolOutput {
                text,
                findings,
                detail,
            }) => {
                let gain = self.evidence.add(&call.name, &findings);
                // The typed answer's places the text left out were returned too (the
                // local engine reads them); they are evidence, though the model saw no gain.
                if let Some(d) = &detail {
                    self.evidence.add(&call.name, &d.places());
                }
                // Outputs that carry no findings (a page of a cut output, `git log`,
                // `wc -l`) cannot show new evidence; for them, new text is the gain.
                let digest = blake3::hash(text.as_bytes());
                let new_text = self.digests.insert(*digest.as_bytes());
                let gained = gain.any() || (findings.is_empty() && new_text);
                let text = self.cap_output(text);
                self.emit_result(turn, call, true, &text);
                self.push_tool(turn, call, &sig, text, Facts { findings, detail }, false);
                self.doom.ran(turn, &sig, gained || sibling_gained, rerun)?;
                Ok(gained)
            }
            Err(e) => {
                *self
                    .metrics
                    .tool_errors
                    .entry(e.class().to_string())
                    .or_default() += 1;
                let msg = e.message().to_string();
                // An error may still show places (the candidates of an ambiguous name):
                // they are evidence like any output's.
                self.evidence.add(&call.name, e.findings());
                if let Some(d) = e.detail() {
                    self.evidence.add(&call.name, &d.places());
                }
                self.emit_result(turn, call, false, &msg);
                // Errors are not repeats by content: the model is correcting itself.
                // Identical failing calls are still caught as identical.
                let facts = Facts {
                    findings: e.findings().to_vec(),
                    detail: e.detail().cloned(),
                };
                self.push_tool(turn, call, &sig, msg, facts, true);
                self.doom.ran(turn, &sig, true, rerun)?;
                Ok(false)
            }
        }
    }

    fn accepted_fields(&self, tool: &str) -> String {
        let Some(spec) = self.all_tools.iter().find(|t| t.name == tool) else {
            return String::new();
        };
        let required: Vec<&str> = spec
            .parameters
            .get("required")
            .and_then(|r| r.as_array())
            .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        let fields: Vec<String> = spec
            .parameters
            .get("properties")
            .and_then(|p| p.as_object())
            .map(|p| {
                p.keys()
                    .map(|k| {
                        if required.contains(&k.as_str()) {
                            format!("`{k}`")
                        } else {
                            format!("`{k}?`")
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        if fields.is_empty() {
            String::new()
        } else {
            format!(" with {} (? = optional)", fields.join(", "))
        }
    }

    fn code_metrics(
        &mut self,
        tool: &str,
        args: &serde_json::Value,
        outcome: &Result<ToolOutput, ToolError>,
    ) {
        if tool != "code" {
            return;
        }
        // Counted as the model asked, answered or not.
        let asked = args
            .get("operation")
            .and_then(|o| o.as_str())
            .unwrap_or("?");
        let op = Operation::parse(asked).map_or("?", Operation::as_str);
        *self
            .metrics
            .by_operation
            .entry(format!("code.{op}"))
            .or_default() += 1;
        let detail = match outcome {
            Ok(o) => o.detail.as_ref(),
            Err(e) => e.detail(),
        };
        let Some(answer) = detail.and_then(ToolDetail::code) else {
            // Arguments the tool could not take: no operation was answered.
            let kind = args.get("kind").and_then(|k| k.as_str()).map(str::trim);
            if kind.is_some_and(|k| !k.is_empty() && Kind::parse(k).is_none()) {
                self.metrics.invalid_kinds += 1;
            }
            return;
        };
        self.metrics.lists.extend(ListSeen::of(answer));
        let op = answer.operation();
        if matches!(answer, CodeAnswer::Ambiguous(_)) {
            self.metrics.ambiguous_resolves += 1;
        }
        if op == Operation::Trace {
            match answer {
                CodeAnswer::Found(_) => self.metrics.trace_found += 1,
                _ => self.metrics.trace_not_found += 1,
            }
        }
    }

    /// Caps an output at the configured tokens, spilling the whole text for paging.
    ///
    /// Only a metered run's outputs: the cap keeps one output from filling a model's
    /// context. An unmetered run (the local engine) sends nothing to a model and reads the
    /// outputs' typed findings, never their text (which is all the cap cuts), so its
    /// outputs pass whole. Counting them would build the tokenizer for any output over
    /// the cap in bytes: most of a warm local answer's CPU, for a count nobody uses.
    fn cap_output(&mut self, text: String) -> String {
        let cap = self.config.tool_output_tokens;
        if !self.metered || self.counter.fits(&text, cap) {
            return text;
        }
        let tokens = self.counter.count(&text);
        self.metrics.cut_outputs += 1;
        let total_lines = text.lines().count();
        let keep_budget = cap.saturating_sub(150);
        let mut kept = String::new();
        let mut used = 0u64;
        let mut shown = 0usize;
        for line in text.lines() {
            let t = self.counter.count(line) + 1;
            if used + t > keep_budget {
                if shown == 0 {
                    // One enormous line: keep a prefix of it.
                    let chars: String = line.chars().take(keep_budget as usize * 2).collect();
                    kept.push_str(&chars);
                    kept.push_str(" …\n");
                    shown = 1;
                }
                break;
            }
            kept.push_str(line);
            kept.push('\n');
            used += t;
            shown += 1;
        }
        let handle = self.registry.spill().put(text);
        format!(
            "{kept}[output cut: it is {} tokens, over the {}-token limit per output; showing lines 1-{shown} of {total_lines}. The full output is kept as {handle}: page it with read {{\"file\":\"{handle}\",\"start_line\":{}}}, or narrow the call.]",
            group(tokens),
            group(cap),
            shown + 1
        )
    }

    fn emit_call(&self, turn: u32, call: &ToolCall, args: &serde_json::Value) {
        self.sink.emit(&Event::ToolCall {
            turn,
            tool: call.name.clone(),
            args: args.clone(),
        });
    }

    fn emit_result(&self, turn: u32, call: &ToolCall, ok: bool, text: &str) {
        self.sink.emit(&Event::ToolResult {
            turn,
            tool: call.name.clone(),
            ok,
            summary: short(text.lines().next().unwrap_or(""), 160),
            // What the output costs a model; 0 when no model reads it (the local engine).
            tokens: if self.metered {
                self.counter.count(text)
            } else {
                0
            },
        });
    }

    /// Handles `submit`: `Some(end)` ends the run, `None` opened the repair round.
    fn handle_submit(
        &mut self,
        turn: u32,
        call: &ToolCall,
        final_reason: Option<StopReason>,
    ) -> Option<End> {
        let final_turn = final_reason.is_some();
        *self
            .metrics
            .tool_calls
            .entry(SUBMIT.to_string())
            .or_default() += 1;
        let args: Result<serde_json::Value, String> = serde_json::from_str(call.arguments.trim())
            .map_err(|e| {
                format!(
                    "Your arguments for `submit` are not valid JSON ({e}). Send one JSON object. Example: {}",
                    specs::SUBMIT_EXAMPLE
                )
            });
        self.emit_call(
            turn,
            call,
            args.as_ref().unwrap_or(&json!(call.arguments.clone())),
        );
        let parsed = args.and_then(|a| specs::parse_submit(&a));
        let can_repair = !self.repair_used && !final_turn && turn < self.config.max_turns;
        let submitted = match parsed {
            Ok(s) => s,
            Err(msg) => {
                self.metrics.malformed_calls += 1;
                self.emit_result(turn, call, false, &msg);
                if can_repair {
                    self.repair_used = true;
                    self.repair_turn = Some(turn);
                    self.metrics.repair_rounds += 1;
                    self.push_tool(turn, call, "", msg, Facts::default(), true);
                    return None;
                }
                self.notice("submit", format!("unusable submission: {msg}"));
                // The repair round is spent: an earlier, readable submission stands (trimmed
                // to what checks out); without one the run has no answer.
                if let Some(earlier) = self.pending.take() {
                    return Some(End::Submitted(Box::new(earlier)));
                }
                return Some(End::Partial(final_reason.unwrap_or(StopReason::DoomLoop)));
            }
        };
        let checked = self.check(&submitted);
        if !checked.complaints.is_empty() && can_repair {
            self.repair_used = true;
            self.repair_turn = Some(turn);
            self.metrics.repair_rounds += 1;
            let msg = format!(
                "Not accepted: {} problem{} with your answer:\n- {}\nFix them and call `submit` again. This is the one repair round: whatever is still not backed by a tool's output is then dropped.",
                checked.complaints.len(),
                if checked.complaints.len() == 1 {
                    ""
                } else {
                    "s"
                },
                checked.complaints.join("\n- ")
            );
            self.notice(
                "submit_repair",
                format!(
                    "{} problem(s) sent back to the model",
                    checked.complaints.len()
                ),
            );
            self.emit_result(turn, call, false, &msg);
            self.pending = Some(submitted);
            self.push_tool(turn, call, "", msg, Facts::default(), true);
            return None;
        }
        self.emit_result(turn, call, true, "accepted");
        Some(End::Submitted(Box::new(submitted)))
    }

    fn check(&self, submitted: &SubmitArgs) -> Checked {
        let root = self.registry.root().clone();
        let line_count = move |path: &str| -> Option<u32> {
            let resolved = root.resolve(path).ok()?;
            let bytes = std::fs::read(&resolved.abs).ok()?;
            let text = String::from_utf8_lossy(&bytes);
            Some(text.lines().count() as u32)
        };
        evidence::check_submission(submitted, &self.evidence, &line_count)
    }

    fn finish(&mut self, end: End) -> ExploreResult {
        let mut extra = serde_json::Map::new();
        let (stop, answer, files, patterns, dependencies, external_refs) = match end {
            End::Submitted(s) => {
                let s = *s;
                let checked = self.check(&s);
                self.coverage(&mut extra, &checked);
                let answer = evidence::mark_unverified(&s.answer, &checked.answer_unbacked);
                let files = checked.files;
                let stop = if files.is_empty() {
                    StopReason::NotFound
                } else {
                    StopReason::Answered
                };
                let (patterns, deps) = self.known_only(s.patterns, s.dependencies, &mut extra);
                (stop, answer, files, patterns, deps, s.external_refs)
            }
            End::Partial(reason) => {
                // A submission that was sent back for repair is still the model's best
                // statement; use what of it checks out, else the evidence.
                if let Some(s) = self.pending.take() {
                    let checked = self.check(&s);
                    self.coverage(&mut extra, &checked);
                    if !checked.files.is_empty() {
                        let (patterns, deps) =
                            self.known_only(s.patterns, s.dependencies, &mut extra);
                        let answer = evidence::mark_unverified(&s.answer, &checked.answer_unbacked);
                        let files = checked.files;
                        (reason, answer, files, patterns, deps, s.external_refs)
                    } else {
                        let files = self.evidence.ranked(MAX_FALLBACK_FILES);
                        (
                            reason,
                            self.partial_answer(reason, &files),
                            files,
                            vec![],
                            vec![],
                            vec![],
                        )
                    }
                } else {
                    let files = self.evidence.ranked(MAX_FALLBACK_FILES);
                    (
                        reason,
                        self.partial_answer(reason, &files),
                        files,
                        vec![],
                        vec![],
                        vec![],
                    )
                }
            }
        };
        let mut search_sources: Vec<String> = Vec::new();
        for f in &files {
            if !search_sources.contains(&f.discovery_source) {
                search_sources.push(f.discovery_source.clone());
            }
        }
        let m = &self.metrics;
        extra.insert("tool_calls_by_operation".into(), json!(m.by_operation));
        extra.insert("invalid_kinds".into(), json!(m.invalid_kinds));
        extra.insert("ambiguous_resolves".into(), json!(m.ambiguous_resolves));
        extra.insert(
            "trace".into(),
            json!({"found": m.trace_found, "not_found": m.trace_not_found}),
        );
        extra.insert("tool_errors".into(), json!(m.tool_errors));
        extra.insert("malformed_calls".into(), json!(m.malformed_calls));
        extra.insert("unknown_tools".into(), json!(m.unknown_tools));
        extra.insert("refused_repeats".into(), json!(m.refused_repeats));
        extra.insert("refused_extra_calls".into(), json!(m.refused_extra_calls));
        extra.insert("cut_outputs".into(), json!(m.cut_outputs));
        extra.insert("elided_outputs".into(), json!(m.elided_outputs));
        extra.insert("repair_rounds".into(), json!(m.repair_rounds));
        extra.insert("doom_loop_events".into(), json!(self.doom.events()));
        extra.insert(
            "tokens".into(),
            json!({
                "encoding": self.counter.encoding(),
                "calibration": self.calibration.per_mille() as f64 / 1000.0,
                "calibration_samples": self.calibration.samples(),
                "estimated_prompt_tokens": m.estimated_prompt_tokens,
            }),
        );
        extra.insert("notices".into(), json!(self.notices));
        extra.insert("lists".into(), json!(lists::reports(&m.lists, &files)));
        let result = ExploreResult {
            version: RESULT_VERSION,
            query: self.config.query.clone(),
            angle: self.config.angle.clone(),
            answer,
            patterns,
            dependencies,
            external_refs,
            metadata: Metadata {
                created_by: "explore".into(),
                timestamp: now_timestamp(),
                cache_key: self.config.angle.clone(),
                engine: self.engine.as_str().to_string(),
                model: self.model.clone(),
                search_sources,
                total_files_scanned: self.evidence.file_count() as u64,
                relevant_file_count: files.len(),
                partial: stop.is_partial(),
                stop_reason: stop,
                usage: self.usage,
                turns: self.turns,
                tool_calls: self.metrics.tool_calls.clone(),
                duration_ms: self.started.elapsed().as_millis() as u64,
                extra,
            },
            relevant_files: files,
        };
        self.sink.emit(&Event::Final {
            result: Box::new(result.clone()),
        });
        result
    }

    /// Records how much of the submission was backed by evidence.
    fn coverage(&self, extra: &mut serde_json::Map<String, serde_json::Value>, checked: &Checked) {
        let cited = checked.claims.saturating_sub(checked.dropped);
        let ratio = if checked.claims == 0 {
            1.0
        } else {
            (f64::from(cited) / f64::from(checked.claims) * 1000.0).round() / 1000.0
        };
        extra.insert(
            "evidence_coverage".into(),
            json!({
                "claims": checked.claims,
                "cited": cited,
                "dropped": checked.dropped,
                "coverage": ratio,
                "roles_replaced": checked.roles_replaced,
                "answer_unbacked": checked.answer_unbacked.len(),
                "complaints": checked.complaints,
            }),
        );
    }

    /// Keeps the patterns' files and the dependencies whose paths a tool returned.
    fn known_only(
        &self,
        patterns: Vec<crate::result::Pattern>,
        dependencies: Vec<crate::result::Dependency>,
        extra: &mut serde_json::Map<String, serde_json::Value>,
    ) -> (Vec<crate::result::Pattern>, Vec<crate::result::Dependency>) {
        let mut dropped = 0u32;
        let known = |p: &str| self.evidence.file(p.trim()).is_some();
        let patterns = patterns
            .into_iter()
            .map(|mut p| {
                let before = p.files.len();
                p.files.retain(|f| known(f));
                dropped += (before - p.files.len()) as u32;
                p
            })
            .collect();
        let before = dependencies.len();
        let dependencies: Vec<_> = dependencies
            .into_iter()
            .filter(|d| known(&d.from) && known(&d.to))
            .collect();
        dropped += (before - dependencies.len()) as u32;
        extra.insert("dropped_unbacked_paths".into(), json!(dropped));
        (patterns, dependencies)
    }

    /// The answer of a run that stopped before an accepted `submit`.
    fn partial_answer(&self, reason: StopReason, files: &[RelevantFile]) -> String {
        let why = match reason {
            StopReason::Budget => {
                format!("the token budget of {} ran out", group(self.config.budget))
            }
            StopReason::MaxTurns => {
                format!("the turn limit of {} was reached", self.config.max_turns)
            }
            StopReason::DoomLoop => "the run kept repeating itself".to_string(),
            StopReason::ProviderError => "the model endpoint failed".to_string(),
            _ => "the run ended".to_string(),
        };
        let mut out = format!("Stopped early: {why} before an answer was submitted.");
        if let Some(p) = &self.last_prose {
            out.push_str(&format!(" The model's last words: {}", short(p, 400)));
        }
        if files.is_empty() {
            out.push_str(" No file was found.");
        } else {
            let cites: Vec<String> = files
                .iter()
                .take(5)
                .map(|f| match f.locations.first() {
                    Some(l) => format!("{}:{}", f.path, l.line),
                    None => f.path.clone(),
                })
                .collect();
            out.push_str(&format!(
                " What the tools found, best first: {}.",
                cites.join(", ")
            ));
        }
        out
    }
}

/// The system prompt with the run's numbers filled in.
fn system_prompt(config: &RunConfig) -> String {
    SYSTEM_PROMPT
        .replace("{budget}", &group(config.budget))
        .replace("{max_turns}", &config.max_turns.to_string())
        .replace("{tool_output_tokens}", &group(config.tool_output_tokens))
        .trim()
        .to_string()
}

/// The first user message: the question, the angle, the keywords, the limits.
fn user_prompt(config: &RunConfig) -> String {
    let mut out = format!("Question: {}\nAngle: {}", config.query.trim(), config.angle);
    if let Some(focus) = angle_focus(&config.angle) {
        out.push_str(&format!(" (look for: {focus})"));
    }
    if !config.keywords.is_empty() {
        out.push_str(&format!("\nKeywords: {}", config.keywords.join(", ")));
    }
    out.push_str(&format!(
        "\nBudget: {} tokens for the whole run, at most {} turns.",
        group(config.budget),
        config.max_turns
    ));
    out
}

/// What each of spec 004's angles looks for, so the model searches with the right eyes.
pub fn angle_focus(angle: &str) -> Option<&'static str> {
    Some(match angle {
        "architecture" => {
            "layer boundaries, design patterns, component responsibilities, module hierarchy"
        }
        "dependencies" => {
            "import chains, external libraries, shared utilities, version constraints"
        }
        "modularity" => "module interfaces, separation of concerns, coupling",
        "integration-points" => "API endpoints, data flow between modules, events, webhooks",
        "security" => "auth and permissions, input validation, sensitive data, middleware",
        "auth-patterns" => "auth flows, sessions, token validation, permissions",
        "dataflow" => "data transformations, state propagation, validation points, serialization",
        "performance" => "bottlenecks, N+1 queries, blocking calls, caching",
        "error-handling" => "error types, propagation, retries and recovery, logging",
        "patterns" => "code conventions, design patterns in use, naming",
        "testing" => "test files, test helpers and fixtures, mocks, coverage gaps",
        _ => return None,
    })
}

/// The note that opens the final turn.
fn final_note(reason: StopReason, remaining: u64) -> String {
    let why = if reason == StopReason::Budget {
        format!(
            "The budget is nearly spent ({} tokens left)",
            group(remaining)
        )
    } else {
        "This is the last turn".to_string()
    };
    format!(
        "{why}: call `submit` now with what you have found. Only `submit` is available. Cite only files and lines the tools showed you; say in the answer what you could not confirm."
    )
}

/// The first `max` characters of `s`, with an ellipsis when cut.
fn short(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max).collect();
        out.push('…');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_question_is_one_line_and_a_report_keeps_its_lines() {
        assert_eq!(
            tidy_question("  where is IssueStore\n   defined\n"),
            "where is IssueStore defined"
        );
        let report = "panic in Serve\r\n\r\ngoroutine 1 [running]:  \r\nmain.(*Server).Serve(...)\r\n\t/src/app/server.go:42 +0x1d\r\n";
        assert_eq!(
            tidy_question(report),
            "panic in Serve\n\ngoroutine 1 [running]:\nmain.(*Server).Serve(...)\n\t/src/app/server.go:42 +0x1d"
        );
        assert_eq!(RunConfig::new(report).query, tidy_question(report));
    }

    /// A run of `engine` over an empty repository, with outputs capped at 50 tokens.
    fn capped_run(engine: Engine, config: &RunConfig, f: impl FnOnce(&mut Run<'_>)) {
        let dir = tempfile::tempdir().unwrap();
        let registry = Registry::new(
            explore_tools::RepoRoot::new(dir.path()).unwrap(),
            explore_tools::RegistryOptions::default(),
        );
        let metered = engine != Engine::Local;
        let model = metered.then(|| "gpt-4o".to_string());
        let sink = crate::event::NullSink;
        let mut run = Run::new(&registry, model, engine, metered, config, &sink);
        f(&mut run);
    }

    #[test]
    fn only_a_metered_run_counts_and_cuts_its_outputs() {
        let mut config = RunConfig::new("q");
        config.tool_output_tokens = 50;
        let long: String = (0..200)
            .map(|i| format!("line {i} of the output\n"))
            .collect();
        capped_run(Engine::Local, &config, |run| {
            assert_eq!(run.cap_output(long.clone()), long);
            assert_eq!(run.metrics.cut_outputs, 0);
            assert!(!run.counter.is_built(), "no tokenizer for a local run");
        });
        capped_run(Engine::Llm, &config, |run| {
            let cut = run.cap_output(long.clone());
            assert!(cut.contains("[output cut: it is "), "{cut}");
            assert_eq!(run.metrics.cut_outputs, 1);
            // Short outputs still fit without a count.
            let mut fresh = Run::new(
                run.registry,
                run.model.clone(),
                Engine::Llm,
                true,
                run.config,
                run.sink,
            );
            assert_eq!(fresh.cap_output("fn main() {}".into()), "fn main() {}");
            assert!(!fresh.counter.is_built());
        });
    }

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(group(60000), "60,000");
        assert_eq!(group(999), "999");
        assert_eq!(group(1234567), "1,234,567");
    }
}
