//! The local engine: answering with no model, through the same loop and tools.
//!
//! `explore` must work on a fresh machine with no key, and every CI eval run uses this
//! engine, so it is not a shortcut around the agent but a [`Policy`] like the model's: it
//! returns turns whose tool calls (`code`, `read`, `submit`) the loop executes, budgets,
//! records and validates exactly as it would a model's. Its answers can therefore only
//! cite what a tool returned during the run.
//!
//! A run is a short, deterministic plan:
//!
//! 1. Parse the question ([`query`]): a symbol question (definition, callers, callees,
//!    implementations, methods, trace) or a concept question.
//! 2. Symbol questions call `code` with the matching operation. An ambiguous name is
//!    narrowed (by the question's qualifier or kind, else real code over tests, vendored
//!    and generated code) or, when several real candidates remain, each is queried and
//!    the answer covers them all. A name the graph does not know falls back to step 3.
//! 3. Concept questions rank files ([`rank`]: BM25F over paths, symbol names and docs,
//!    content for the shortlist, personalised PageRank over calls), then `read` the best
//!    line ranges of the chosen files so every cited line is backed by a tool result.
//! 4. `submit` the files best first with roles ([`classify`]), a rationale saying what was
//!    found where, exact locations, and an answer citing `path:line`; or an empty list,
//!    which the loop reports as `not_found`, when nothing passes the relevance threshold.
//!
//! This module holds the engine's state and its turn machine (what was asked, which calls
//! are pending and why); each kind of work lives beside it: `symbol` (symbol questions
//! and the typed `code` answers), `search` (text search), `concept` (ranking and the
//! reads that back it) and `writer` (grouping, roles and the answer's prose).

mod body;
pub mod classify;
mod concept;
mod content;
mod contentfile;
pub mod corpus;
pub mod evidence;
mod framed;
pub mod lexfile;
pub mod lexical;
mod lines;
mod project;
pub mod query;
pub mod rank;
mod report;
mod request;
pub mod routing;
pub mod scan;
mod search;
pub(crate) mod signals;
mod suggest;
mod symbol;
pub mod text;
mod writer;

pub use content::Precount;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use explore_tools::code::GraphStore;
use explore_tools::{Finding, Registry, ToolDetail, ToolName};
use serde_json::{Value, json};

use crate::policy::{Engine, Message, Policy, PolicyError, ToolCall, Turn, TurnRequest, TurnUsage};
use crate::result::{Location, Role};
use classify::Relation;
use evidence::{Hit, Reply};
use explore_tools::code::Operation;
use explore_tools::code::answer::Relation as CodeRelation;
use query::{Intent, Query, SymbolRef};
use rank::{Corpus, LexIndex};

/// Most files a concept answer adds by following its best symbol's calls.
const MAX_EXPANSION: usize = 4;
/// A callee called from more places than this is a general helper, not part of the answer.
const MAX_EXPANSION_CALLERS: usize = 3;

/// Content terms up to which a question is short: its missing word may be its topic.
const SHORT_QUESTION_TERMS: usize = 6;

/// The intent of a symbol question answered by ranking.
static CONCEPT: Intent = Intent::Concept;

/// The tool that ends a run.
const SUBMIT: &str = "submit";

/// Builds the corpus the concept ranking works on, once per engine.
pub type CorpusSource = Box<dyn Fn() -> Corpus + Send + Sync>;

/// The local engine.
pub struct LocalPolicy {
    registry: Registry,
    corpus_source: Option<CorpusSource>,
    index: Arc<Mutex<Option<Arc<LexIndex>>>>,
    query: Option<Query>,
    next_id: u32,
    pending: HashMap<String, Purpose>,
    phase: Phase,
    found: Vec<Entry>,
    notes: Vec<String>,
    /// Why a symbol question fell back to ranking ("No symbol `X` was found"), for the
    /// answer.
    fallback: Option<String>,
    /// The `code` operations whose results were recorded.
    ops: Vec<&'static str>,
    /// A trace found no path and shows both ends instead.
    no_path: bool,
    /// Question words no file mentions, which made the answer `not_found`.
    absent: Vec<String>,
    /// The repository's source files, listed once for every text search of this engine.
    sources: Arc<Mutex<Option<Arc<Vec<String>>>>>,
    /// How a text search found the answer ("found by text search; the code graph does
    /// not parse Rust"), said first in the answer.
    text_note: Option<String>,
    /// A text search found the asked-for name in none of this many source files.
    unmentioned: Option<usize>,
    /// What could make the answer wrong, noted as the engine works (see [`routing`]).
    doubts: Vec<routing::Doubt>,
    /// What a certain answer found, in words, for the routing reason.
    certain_because: Option<String>,
    /// The words of a symbol name the question asked about and the graph did not know
    /// (`FrobnicateQuux` → frobnicate, quux): any of them missing everywhere means
    /// `not_found`.
    name_terms: Vec<String>,
    /// How many related symbols the recorded `code` lists hold in all, for "8 of 12
    /// methods shown".
    list_total: usize,
    /// A definition question whose name the repository does not define: the run ends
    /// `not_found`, with [`LocalPolicy::suggestions`] in the answer.
    undefined: bool,
    /// Definitions of names close to an undefined one, as `code` returned them.
    suggestions: Vec<Hit>,
}

impl std::fmt::Debug for LocalPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalPolicy")
            .field("query", &self.query)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

/// Why a call was made, so its result can be read back.
#[derive(Debug, Clone)]
enum Purpose {
    /// The first `code` call of a symbol question.
    Code { op: &'static str, sym: SymbolRef },
    /// A narrowed `code` call for one candidate of an ambiguous name.
    Narrowed { op: &'static str, sym: SymbolRef },
    /// The first `code` call of a symbol question asked with its package word as the
    /// qualifier (`sort.Interface`): a name the repository does not define may still be
    /// one the tool knows (a standard-library interface). Not found, the name is asked
    /// alone and narrowed by the package word, as every other symbol question.
    Qualified { op: &'static str, sym: SymbolRef },
    /// A `find` of the name said with the word after it (`SymbolRef::joined`): a
    /// definition spelled so is asked for with `op`, else the name alone.
    Joined { op: &'static str, sym: SymbolRef },
    /// "Implementations of Zone#offset": the types that implement or extend the method's
    /// owner, asked first; their methods of the same name are the implementations.
    OverrideOwners { sym: SymbolRef },
    /// Every definition of the method's bare name, kept where its owner is one of `types`.
    Overrides { sym: SymbolRef, types: Vec<String> },
    /// A `read` backing a concept answer's citations in one file.
    Read { file: ConceptFile },
    /// A `read` backing places a text search found in one file.
    TextRead { entries: Vec<Entry> },
    /// A `find` of a name close to an undefined one ("did you mean").
    Suggest,
    /// The callees of a concept answer's best symbol.
    Expand {
        op: &'static str,
        from: String,
        path: String,
        index: Arc<LexIndex>,
    },
}

/// One file chosen by the concept ranking, with what it will cite if the read confirms.
#[derive(Debug, Clone)]
struct ConceptFile {
    path: String,
    rank: usize,
    cites: Vec<Cite>,
    matched: Vec<String>,
    types: bool,
}

#[derive(Debug, Clone)]
struct Cite {
    line: u32,
    end_line: u32,
    symbol: Option<String>,
    kind: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Waiting,
    Done,
}

/// A place that will be cited, with how it relates to the question.
#[derive(Debug, Clone)]
struct Entry {
    path: String,
    relation: Relation,
    name: Option<String>,
    kind: Option<String>,
    line: u32,
    end_line: Option<u32>,
    /// What the rationale says about it.
    note: String,
    source: &'static str,
    /// For relation answers: the target symbol it relates to (for ambiguous names).
    target: Option<String>,
    /// The graph guessed it from a name alone (a callee on an untyped receiver): listed
    /// after what it linked.
    guessed: bool,
}
impl LocalPolicy {
    /// A local engine over the registry's repository. The concept ranking's corpus comes
    /// from the registry's code graph ([`corpus::from_graph`]), or from the line scanner
    /// ([`scan`]) when the graph has nothing, unless [`LocalPolicy::with_corpus`] gives
    /// another source.
    pub fn new(registry: Registry) -> Self {
        Self {
            registry,
            corpus_source: None,
            index: Arc::new(Mutex::new(None)),
            query: None,
            next_id: 0,
            pending: HashMap::new(),
            phase: Phase::Start,
            found: Vec::new(),
            notes: Vec::new(),
            fallback: None,
            ops: Vec::new(),
            no_path: false,
            absent: Vec::new(),
            sources: Arc::new(Mutex::new(None)),
            text_note: None,
            unmentioned: None,
            name_terms: Vec::new(),
            list_total: 0,
            undefined: false,
            suggestions: Vec::new(),
            doubts: Vec::new(),
            certain_because: None,
        }
    }

    /// Uses `source` to build the ranking corpus (called at most once, on the first
    /// concept question).
    pub fn with_corpus(mut self, source: CorpusSource) -> Self {
        self.corpus_source = Some(source);
        self
    }

    /// Shares a built index with other engines over the same repository (a warm cache).
    pub fn with_shared_index(mut self, index: Arc<Mutex<Option<Arc<LexIndex>>>>) -> Self {
        self.index = index;
        self
    }

    /// Whether this run's answer is certain enough to stand without a model: the
    /// doubts noted while answering, plus text search, a ranking fallback or nothing found.
    pub fn routing(&self) -> routing::Routing {
        let mut doubts = self.doubts.clone();
        if self.text_note.is_some() || self.fallback.is_some() {
            doubts.push(routing::Doubt::NotInGraph);
        }
        let what = self.certain_because.clone().unwrap_or_default();
        routing::decide(&doubts, &what, self.found.len())
    }

    /// The index holder, to share with [`LocalPolicy::with_shared_index`].
    pub fn shared_index(&self) -> Arc<Mutex<Option<Arc<LexIndex>>>> {
        self.index.clone()
    }

    fn call(&mut self, tool: ToolName, args: Value, purpose: Option<Purpose>) -> ToolCall {
        self.request(tool.as_str(), args, purpose)
    }

    /// A call by wire name: a tool's, or the loop's `submit`.
    fn request(&mut self, name: &str, args: Value, purpose: Option<Purpose>) -> ToolCall {
        self.next_id += 1;
        let id = format!("local-{}", self.next_id);
        if let Some(p) = purpose {
            self.pending.insert(id.clone(), p);
        }
        ToolCall {
            id,
            name: name.to_string(),
            arguments: args.to_string(),
        }
    }

    /// The next turn from the conversation so far: pure computation over the messages.
    pub fn decide(&mut self, messages: &[Message], final_turn: bool) -> Turn {
        if self.query.is_none() {
            let question = question_of(messages);
            self.query = Some(query::parse(&question));
        }
        let query = self.query.clone().unwrap_or_else(|| query::parse(""));
        let mut calls = Vec::new();
        match self.phase {
            Phase::Start => {
                calls = self.start(&query);
            }
            Phase::Waiting => {
                let results = self.take_results(messages);
                calls = self.react(&query, results);
            }
            Phase::Done => {}
        }
        if calls.is_empty() || final_turn {
            self.phase = Phase::Done;
            let args = self.submission(&query);
            let submit = self.request(SUBMIT, args, None);
            return turn(vec![submit]);
        }
        self.phase = Phase::Waiting;
        turn(calls)
    }

    /// Results of this engine's pending calls found in the conversation.
    fn take_results(&mut self, messages: &[Message]) -> Vec<(Purpose, ToolResult)> {
        let mut out = Vec::new();
        for m in messages {
            if let Message::Tool {
                call_id,
                findings,
                is_error,
                detail,
                ..
            } = m
                && let Some(p) = self.pending.remove(call_id)
            {
                out.push((
                    p,
                    ToolResult {
                        findings: findings.clone(),
                        is_error: *is_error,
                        detail: detail.clone(),
                    },
                ));
            }
        }
        out
    }

    fn react(&mut self, query: &Query, results: Vec<(Purpose, ToolResult)>) -> Vec<ToolCall> {
        let mut calls = Vec::new();
        for (purpose, result) in results {
            match purpose {
                Purpose::Code { op, sym } => {
                    let answer = evidence::read_code(result.detail.as_ref());
                    let total = evidence::list_total(result.detail.as_ref());
                    calls.extend(self.on_code(query, op, &sym, answer, total, false));
                }
                Purpose::Qualified { op, sym } => {
                    let answer = evidence::read_code(result.detail.as_ref());
                    if matches!(answer, Reply::NotFound) || result.is_error {
                        // "Which types implement std::error::Error": a standard library's
                        // type is not the repository's own `Error`; the text says who
                        // implements it (`impl error::Error for X`, `implements
                        // java.io.Closeable`).
                        if sym.std_rooted()
                            && let Some(text) = self.text_search(op, &sym, false)
                        {
                            calls.extend(text);
                            continue;
                        }
                        let args = json!({"operation": op, "symbol": sym.name});
                        calls.push(self.call(
                            ToolName::Code,
                            args,
                            Some(Purpose::Code { op, sym }),
                        ));
                    } else {
                        let total = evidence::list_total(result.detail.as_ref());
                        let sym = SymbolRef {
                            within: Vec::new(),
                            ..sym
                        };
                        calls.extend(self.on_code(query, op, &sym, answer, total, false));
                    }
                }
                Purpose::Joined { op, sym } => {
                    let spelled = sym
                        .joined
                        .as_deref()
                        .and_then(|j| evidence::spelled_as(result.detail.as_ref(), j));
                    let sym = match spelled {
                        Some(name) => SymbolRef {
                            name,
                            joined: None,
                            ..sym
                        },
                        None => SymbolRef {
                            joined: None,
                            ..sym
                        },
                    };
                    calls.extend(self.symbol_call(op, sym));
                }
                Purpose::OverrideOwners { sym } => {
                    let answer = evidence::read_code(result.detail.as_ref());
                    calls.extend(self.on_override_owners(query, &sym, answer));
                }
                Purpose::Overrides { sym, types } => {
                    let answer = evidence::read_code(result.detail.as_ref());
                    calls.extend(self.on_overrides(query, &sym, &types, answer));
                }
                Purpose::Narrowed { op, sym } => {
                    let answer = evidence::read_code(result.detail.as_ref());
                    let total = evidence::list_total(result.detail.as_ref());
                    calls.extend(self.on_code(query, op, &sym, answer, total, true));
                }
                Purpose::Suggest => {
                    self.on_suggest(evidence::read_code(result.detail.as_ref()));
                }
                Purpose::Read { file } => {
                    if !result.is_error {
                        self.on_read(file, &result.findings);
                    }
                }
                Purpose::TextRead { entries } => {
                    if !result.is_error {
                        self.on_text_read(entries, &result.findings);
                    }
                }
                Purpose::Expand {
                    op,
                    from,
                    path,
                    index,
                } => {
                    self.on_expand(op, &from, &path, &index, &result);
                }
            }
        }
        calls
    }
}

/// The text of a tool result.
#[derive(Debug, Clone)]
struct ToolResult {
    findings: Vec<Finding>,
    is_error: bool,
    detail: Option<ToolDetail>,
}

fn turn(tool_calls: Vec<ToolCall>) -> Turn {
    Turn {
        content: None,
        tool_calls,
        usage: Some(TurnUsage::default()),
    }
}

/// The question: the first user message, without a `Question:` label if the loop adds
/// one.
fn question_of(messages: &[Message]) -> String {
    let first = messages.iter().find_map(|m| match m {
        Message::User { content } => Some(content.as_str()),
        _ => None,
    });
    let text = first.unwrap_or("").trim();
    // The loop's first message is `Question: …` then `Angle: …` on its own line. A
    // question may span lines (a pasted bug report with its traceback): all of it is the
    // question, up to the `Angle:` line.
    for label in ["Question:", "question:", "Query:", "query:"] {
        if let Some(at) = text.find(label) {
            let rest = &text[at + label.len()..];
            let end = rest.find("\nAngle:").unwrap_or(rest.len());
            return rest[..end].trim().to_string();
        }
    }
    text.to_string()
}

impl Policy for LocalPolicy {
    fn engine(&self) -> Engine {
        Engine::Local
    }

    fn model(&self) -> Option<String> {
        None
    }

    fn next_turn(
        &mut self,
        request: TurnRequest<'_>,
    ) -> impl std::future::Future<Output = Result<Turn, PolicyError>> + Send {
        let turn = self.decide(request.messages, request.final_turn);
        std::future::ready(Ok(turn))
    }
}
