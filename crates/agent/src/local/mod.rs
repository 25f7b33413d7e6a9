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

pub mod classify;
pub mod corpus;
pub mod evidence;
pub mod lexical;
mod lines;
pub mod query;
pub mod rank;
pub mod scan;
pub mod text;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use explore_tools::code::GraphStore;
use explore_tools::{Finding, Registry, ToolDetail};
use serde_json::{Value, json};

use crate::policy::{Message, Policy, PolicyError, ToolCall, Turn, TurnRequest, TurnUsage};
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
    /// The words of a symbol name the question asked about and the graph did not know
    /// (`FrobnicateQuux` → frobnicate, quux): any of them missing everywhere means
    /// `not_found`.
    name_terms: Vec<String>,
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
    /// A `read` backing a concept answer's citations in one file.
    Read { file: ConceptFile },
    /// A `read` backing places a text search found in one file.
    TextRead { entries: Vec<Entry> },
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

    /// The index holder, to share with [`LocalPolicy::with_shared_index`].
    pub fn shared_index(&self) -> Arc<Mutex<Option<Arc<LexIndex>>>> {
        self.index.clone()
    }

    fn lex_index(&self) -> Arc<LexIndex> {
        let mut guard = match self.index.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(idx) = guard.as_ref() {
            return idx.clone();
        }
        let corpus = match &self.corpus_source {
            Some(src) => src(),
            None => {
                let root = self.registry.root().path();
                // A warm store gives the corpus without loading the whole graph.
                let code = self.registry.code();
                let stored = code.warm_store().and_then(|store| {
                    corpus::from_store(&*store).filter(|_| store.failure().is_none())
                });
                let mut corpus = match stored {
                    Some(c) => c,
                    None => match code.graph() {
                        Ok(g) if !g.symbols().is_empty() => corpus::from_graph(&g),
                        _ => scan::scan_repo(root),
                    },
                };
                // The files in languages the graph does not parse (the Rust of a Rust
                // repository with Go fixtures) rank by their text-found definitions.
                let files = self.source_files();
                lexical::extend_corpus(&mut corpus, root, &files);
                corpus
            }
        };
        let idx = Arc::new(LexIndex::build(corpus));
        *guard = Some(idx.clone());
        idx
    }

    fn call(&mut self, name: &str, args: Value, purpose: Option<Purpose>) -> ToolCall {
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
            let submit = self.call(SUBMIT, args, None);
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

    fn start(&mut self, query: &Query) -> Vec<ToolCall> {
        match &query.intent {
            Intent::Concept => self.concept(query),
            Intent::Trace { from, to } => {
                let args = json!({"operation": "trace", "symbol": from.name, "to": to.name});
                vec![self.call(
                    "code",
                    args,
                    Some(Purpose::Code {
                        op: "trace",
                        sym: from.clone(),
                    }),
                )]
            }
            intent => {
                let op = operation(intent);
                let Some(sym) = intent.symbol().cloned() else {
                    return self.concept(query);
                };
                // Package and module words (`sym.within`) are not sent as a `file` filter,
                // which could match nothing: the candidates are narrowed by them after.
                let args = json!({"operation": op, "symbol": sym.name});
                vec![self.call("code", args, Some(Purpose::Code { op, sym }))]
            }
        }
    }

    fn react(&mut self, query: &Query, results: Vec<(Purpose, ToolResult)>) -> Vec<ToolCall> {
        let mut calls = Vec::new();
        for (purpose, result) in results {
            match purpose {
                Purpose::Code { op, sym } => {
                    let answer = evidence::read_code(result.detail.as_ref());
                    calls.extend(self.on_code(query, op, &sym, answer, false));
                }
                Purpose::Narrowed { op, sym } => {
                    let answer = evidence::read_code(result.detail.as_ref());
                    calls.extend(self.on_code(query, op, &sym, answer, true));
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

    fn on_code(
        &mut self,
        query: &Query,
        op: &'static str,
        sym: &SymbolRef,
        answer: Reply,
        narrowed: bool,
    ) -> Vec<ToolCall> {
        match answer {
            Reply::Hits(hits) if !hits.is_empty() => {
                // Only tests, fixtures or examples in the languages the graph parses: the
                // product itself may be in another language (Rust beside Go fixtures).
                if !narrowed
                    && matches!(op, "find" | "implementations" | "callers" | "usages")
                    && hits.iter().all(|h| classify::classify(&h.path).secondary())
                    && let Some(calls) = self.text_search(op, sym, true)
                {
                    return calls;
                }
                let hits = if op == "find" {
                    let chosen = choose_definitions(sym, hits.clone());
                    self.note_dropped(sym, &hits, &chosen);
                    chosen
                } else if hits.iter().any(|h| h.section.is_some() && !h.inferred) {
                    // Calls the graph guessed from a name alone are noise next to linked
                    // ones.
                    hits.into_iter().filter(|h| !h.inferred).collect()
                } else {
                    hits
                };
                self.record(op, sym, hits);
                Vec::new()
            }
            Reply::Ambiguous(candidates) if !narrowed => {
                if candidates
                    .iter()
                    .all(|h| classify::classify(&h.path).secondary())
                    && let Some(calls) = self.text_search(op, sym, true)
                {
                    return calls;
                }
                // Overloads (`@typing.overload` stubs before the implementation) share a
                // name and a file: the tool cannot tell them apart by `file`, the text can.
                if op != "find"
                    && op != "trace"
                    && candidates.len() > 1
                    && candidates
                        .iter()
                        .all(|c| c.path == candidates[0].path && c.name == candidates[0].name)
                    && let Some(calls) = self.text_search(op, sym, false)
                {
                    return calls;
                }
                let chosen = narrow(sym, &candidates);
                if op == "find" {
                    // A find that lists several is an answer in itself.
                    let hits = choose_definitions(sym, candidates.clone());
                    self.note_dropped(sym, &candidates, &hits);
                    self.record(op, sym, hits);
                    return Vec::new();
                }
                if chosen.len() > 1 {
                    self.notes.push(format!(
                        "The name `{}` is ambiguous: {}.",
                        sym.name,
                        chosen
                            .iter()
                            .map(|c| format!(
                                "`{}` at {}:{}",
                                c.name.as_deref().unwrap_or(&sym.name),
                                c.path,
                                c.line
                            ))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                } else if let Some(c) = chosen.first() {
                    let others = candidates.len() - 1;
                    self.notes.push(format!(
                        "`{}` matched {} symbols; chose `{}` at {}:{} ({}).",
                        sym.name,
                        candidates.len(),
                        c.name.as_deref().unwrap_or(&sym.name),
                        c.path,
                        c.line,
                        if others > 0 {
                            "the others are tests, vendored or generated code, or do not match the question"
                        } else {
                            "the only one"
                        }
                    ));
                }
                let mut calls = Vec::new();
                for c in chosen.into_iter().take(4) {
                    let name = c.name.clone().unwrap_or_else(|| sym.name.clone());
                    let narrowed_sym = SymbolRef {
                        name: name.clone(),
                        kind: sym.kind,
                        within: Vec::new(),
                    };
                    let args = match op {
                        "trace" => {
                            let to = match &query.intent {
                                Intent::Trace { to, .. } => to.name.clone(),
                                _ => String::new(),
                            };
                            json!({"operation": op, "symbol": name, "file": c.path, "to": to})
                        }
                        _ => json!({"operation": op, "symbol": name, "file": c.path}),
                    };
                    calls.push(self.call(
                        "code",
                        args,
                        Some(Purpose::Narrowed {
                            op,
                            sym: narrowed_sym,
                        }),
                    ));
                }
                calls
            }
            Reply::WrongKind { instead } if op == "callers" && !narrowed => {
                // `callers` of a type is not a call relation: ask for its usages.
                if instead.contains(&Operation::Usages) {
                    let args = json!({"operation": "usages", "symbol": sym.name});
                    return vec![self.call(
                        "code",
                        args,
                        Some(Purpose::Code {
                            op: "usages",
                            sym: sym.clone(),
                        }),
                    )];
                }
                // A constant or variable (the graph links calls and type uses only), or a
                // name the graph does not know: search the text.
                if let Some(calls) = self.text_search(op, sym, false) {
                    return calls;
                }
                self.concept_fallback(query, sym)
            }
            other => {
                if narrowed && self.found.is_empty() && self.text_note.is_none() && op != "trace" {
                    // Even the narrowed name found nothing: the text may.
                    return self.text_search(op, sym, false).unwrap_or_default();
                }
                if narrowed || !self.found.is_empty() {
                    return Vec::new();
                }
                if op == "trace"
                    && other == Reply::NotFound
                    && let Intent::Trace { from, to } = &query.intent
                {
                    // No linked path: show both ends, what the start calls and what
                    // calls the target, so the gap (a registry, a decorator) is visible.
                    self.no_path = true;
                    self.notes.push(format!(
                        "The call graph has no path from `{}` to `{}` (calls through registries, decorators, interfaces or function values are not linked); shown are what `{}` calls and what calls `{}`.",
                        from.name, to.name, from.name, to.name
                    ));
                    let a = json!({"operation": "callees", "symbol": from.name});
                    let b = json!({"operation": "callers", "symbol": to.name});
                    let ca = self.call(
                        "code",
                        a,
                        Some(Purpose::Code {
                            op: "callees",
                            sym: from.clone(),
                        }),
                    );
                    let cb = self.call(
                        "code",
                        b,
                        Some(Purpose::Code {
                            op: "callers",
                            sym: to.clone(),
                        }),
                    );
                    return vec![ca, cb];
                }
                if op != "trace"
                    && let Some(calls) = self.text_search(op, sym, false)
                {
                    return calls;
                }
                self.concept_fallback(query, sym)
            }
        }
    }

    /// The repository's source files, listed once per engine.
    fn source_files(&self) -> Arc<Vec<String>> {
        let mut guard = match self.sources.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(files) = guard.as_ref() {
            return files.clone();
        }
        let files = Arc::new(lexical::list_sources(self.registry.root().path()));
        *guard = Some(files.clone());
        files
    }

    /// The paths the code graph parsed. A warm store answers without loading the graph
    /// (one small record per file instead of the whole graph, ~0.5 s on 1.4M lines);
    /// without one (cold or stale cache) the graph is loaded as the `code` tool would.
    fn graph_files(&self) -> std::collections::HashSet<String> {
        let code = self.registry.code();
        if let Some(store) = code.warm_store() {
            let mut paths = std::collections::HashSet::new();
            let mut id = 0;
            while let Some(f) = store.file(id) {
                paths.insert(f.path);
                id += 1;
            }
            if store.failure().is_none() {
                return paths;
            }
        }
        match code.graph() {
            Ok(g) => g.files().iter().map(|f| f.path.clone()).collect(),
            Err(_) => std::collections::HashSet::new(),
        }
    }

    /// Answers a symbol question by text search (definitions, usages or implementations
    /// recognised by the shape of a line), for languages the code graph does not parse
    /// and for names it records no relation for (constants, variables). Returns the
    /// `read` calls that back the places found, or `None` when the text has nothing (or,
    /// with `need_primary`, nothing outside tests, fixtures, examples, vendored and
    /// generated code).
    fn text_search(
        &mut self,
        op: &'static str,
        sym: &SymbolRef,
        need_primary: bool,
    ) -> Option<Vec<ToolCall>> {
        if !matches!(
            op,
            "find" | "callers" | "usages" | "implementations" | "methods" | "callees"
        ) {
            return None;
        }
        let root = self.registry.root().path().to_path_buf();
        let files = self.source_files();
        let leaf = sym.leaf().to_string();
        let secondary = |p: &str| classify::classify(p).secondary();
        // Every file is read once; only those that contain the name are searched.
        let texts = lexical::candidates(&root, &files, &leaf);
        if texts.is_empty() {
            self.unmentioned = Some(files.len());
        }
        let mut defs = lexical::definitions(&texts, &sym.name);
        if defs.is_empty() && sym.qualifier().is_some() {
            defs = lexical::definitions(&texts, &leaf);
        }
        if let Some(k) = sym.kind {
            let keep: Vec<lexical::TextHit> = defs
                .iter()
                .filter(|d| d.kind.is_some_and(|g| kind_matches(k, g)))
                .cloned()
                .collect();
            if !keep.is_empty() {
                defs = keep;
            }
        }
        if defs.iter().any(|d| !secondary(&d.path)) {
            defs.retain(|d| !secondary(&d.path));
        }
        let value_or_type = defs.iter().any(|d| {
            matches!(
                d.kind,
                Some(
                    "struct"
                        | "class"
                        | "enum"
                        | "trait"
                        | "interface"
                        | "type"
                        | "const"
                        | "variable"
                )
            )
        });
        let calls_only = op == "callers" && !value_or_type;
        let (main, relation) = match op {
            "find" => (defs.clone(), Relation::Definition),
            "implementations" => (
                lexical::implementations(&texts, &leaf),
                Relation::Implementation,
            ),
            "methods" => (lexical::methods(&texts, &leaf), Relation::Definition),
            "callees" => (self.text_callees(&texts, &defs), Relation::Callee),
            _ => (lexical::usages(&texts, &leaf, calls_only), Relation::Caller),
        };
        if main.is_empty() || (need_primary && main.iter().all(|h| secondary(&h.path))) {
            return None;
        }
        let verb = if calls_only { "calls" } else { "uses" };
        let mut entries: Vec<Entry> = Vec::new();
        for (_, hits) in lexical::rank_files(main).into_iter().take(8) {
            for h in hits.into_iter().take(6) {
                let shown = h.name.clone().unwrap_or_else(|| leaf.clone());
                let kind = h.kind.map(str::to_string);
                let note = match relation {
                    Relation::Definition => format!(
                        "Defines {}{shown} at line {}",
                        kind.as_deref().map(|k| format!("{k} ")).unwrap_or_default(),
                        h.line
                    ),
                    Relation::Implementation => format!(
                        "{shown} ({}) implements {}, at line {}",
                        kind.as_deref().unwrap_or("type"),
                        sym.name,
                        h.line
                    ),
                    Relation::Callee => format!(
                        "Defines {}{shown} at line {}, called by {}",
                        kind.as_deref().map(|k| format!("{k} ")).unwrap_or_default(),
                        h.line,
                        sym.name
                    ),
                    _ => match &h.name {
                        Some(n) => format!("{n} {verb} {} at line {}", sym.name, h.line),
                        None => format!("Uses {} at line {}", sym.name, h.line),
                    },
                };
                entries.push(Entry {
                    path: h.path,
                    relation,
                    name: h.name,
                    kind,
                    line: h.line,
                    end_line: (h.end_line > h.line).then_some(h.end_line),
                    note,
                    source: "read",
                    target: Some(sym.name.clone()),
                });
            }
        }
        if op != "find" {
            for d in defs.iter().take(3) {
                let kind = d.kind.map(str::to_string);
                entries.push(Entry {
                    path: d.path.clone(),
                    relation: Relation::Definition,
                    name: d.name.clone(),
                    kind: kind.clone(),
                    line: d.line,
                    end_line: (d.end_line > d.line).then_some(d.end_line),
                    note: format!(
                        "Defines {}{} at line {}",
                        kind.as_deref().map(|k| format!("{k} ")).unwrap_or_default(),
                        d.name.as_deref().unwrap_or(&leaf),
                        d.line
                    ),
                    source: "read",
                    target: Some(sym.name.clone()),
                });
            }
        }
        // Say how it was found, and why the graph did not find it.
        let graph_files = self.graph_files();
        let mut langs: Vec<&str> = Vec::new();
        for e in &entries {
            if !graph_files.contains(&e.path)
                && let Some(l) = lexical::language_of(&e.path)
                && !langs.contains(&l)
            {
                langs.push(l);
            }
        }
        self.text_note = Some(if langs.is_empty() {
            format!(
                "Found by text search (the code graph records no {} for `{}`).",
                match op {
                    "find" => "definition",
                    "implementations" => "implementations",
                    "methods" => "methods",
                    "callees" => "calls",
                    _ if calls_only => "calls",
                    _ => "uses",
                },
                sym.name
            )
        } else {
            format!(
                "Found by text search (no code graph for {}).",
                langs.join(", ")
            )
        });
        self.ops.push(if calls_only { "callers" } else { "usages" });
        self.ops.push(op);
        // One `read` per file and window, so every place is backed by what it showed.
        let mut by_file: Vec<(String, Vec<Entry>)> = Vec::new();
        for e in entries {
            match by_file.iter_mut().find(|(p, _)| *p == e.path) {
                Some((_, v)) => v.push(e),
                None => by_file.push((e.path.clone(), vec![e])),
            }
        }
        let mut calls = Vec::new();
        for (path, mut list) in by_file {
            list.sort_by_key(|e| e.line);
            let mut windows: Vec<Vec<Entry>> = Vec::new();
            for e in list {
                let fits = windows.last().is_some_and(|w| {
                    let start = w[0].line.saturating_sub(2).max(1);
                    e.end_line.unwrap_or(e.line) < start + 300
                });
                match windows.last_mut() {
                    Some(w) if fits => w.push(e),
                    _ => windows.push(vec![e]),
                }
            }
            for w in windows.into_iter().take(3) {
                let start = w[0].line.saturating_sub(2).max(1);
                let last = w
                    .iter()
                    .map(|e| e.end_line.unwrap_or(e.line))
                    .max()
                    .unwrap_or(start);
                let num = (last + 1).saturating_sub(start).clamp(1, 300);
                let args = json!({"file": path, "start_line": start, "num_lines": num});
                calls.push(self.call("read", args, Some(Purpose::TextRead { entries: w })));
            }
        }
        Some(calls)
    }

    /// What the text-found definitions `defs` call: the names called in their bodies that
    /// the ranking corpus defines (the same file first, then real code), at most eight.
    /// Names defined nowhere in the repository (the standard library) are left out.
    fn text_callees(
        &self,
        texts: &[(String, String)],
        defs: &[lexical::TextHit],
    ) -> Vec<lexical::TextHit> {
        let idx = self.lex_index();
        let corpus = idx.corpus();
        let mut out: Vec<lexical::TextHit> = Vec::new();
        for d in defs.iter().take(2) {
            let Some((_, text)) = texts.iter().find(|(p, _)| *p == d.path) else {
                continue;
            };
            for (name, _, method) in lexical::calls_in(text, d.line, d.end_line) {
                let named: Vec<&rank::SymbolInfo> = corpus
                    .symbols
                    .iter()
                    .filter(|s| s.name == name && s.kind != "module")
                    .collect();
                // A call on a value (`x.kind()`) says nothing about the type: only a
                // definition in the same file or the only one of that name is its target.
                if method
                    && named.len() > 1
                    && !named.iter().any(|s| corpus.files[s.file] == d.path)
                {
                    continue;
                }
                let best = named.into_iter().min_by_key(|s| {
                    let path = &corpus.files[s.file];
                    (
                        u8::from(*path != d.path),
                        u8::from(classify::classify(path).secondary()),
                    )
                });
                if let Some(s) = best
                    && out.len() < 8
                {
                    out.push(lexical::TextHit {
                        path: corpus.files[s.file].clone(),
                        line: s.line,
                        end_line: s.end_line,
                        name: Some(s.display.clone()),
                        kind: Some(match s.kind.as_str() {
                            "method" => "method",
                            "struct" => "struct",
                            "class" => "class",
                            _ => "function",
                        }),
                    });
                }
            }
        }
        out
    }

    /// Keeps the places of a text search that a `read` showed.
    fn on_text_read(&mut self, entries: Vec<Entry>, findings: &[Finding]) {
        let covered = |path: &str, line: u32| {
            findings.iter().any(|f| {
                f.path == path
                    && f.line.is_some_and(|a| a <= line)
                    && f.end_line.or(f.line).is_some_and(|b| line <= b)
            })
        };
        for mut e in entries {
            if !covered(&e.path, e.line) {
                continue;
            }
            if let Some(end) = e.end_line
                && !covered(&e.path, end)
            {
                e.end_line = None;
            }
            self.found.push(e);
        }
    }

    fn concept_fallback(&mut self, query: &Query, sym: &SymbolRef) -> Vec<ToolCall> {
        if self.unmentioned.is_some() {
            // Not a word of any source file: nothing to rank.
            return Vec::new();
        }
        self.name_terms = text::index_terms(&sym.name);
        if self.fallback.is_none() {
            self.fallback = Some(format!("No symbol `{}` was found", sym.name));
        }
        // Search by the symbol's words ("FrobnicateQuux" → frobnicate, quux) as well as
        // the rest of the question.
        let mut q = query.clone();
        for t in text::index_terms(&sym.name) {
            if !q.terms.contains(&t) {
                q.terms.push(t);
                q.weights.push(1.0);
            }
        }
        self.concept(&q)
    }

    /// Says which same-named definitions an answer leaves out, and why.
    fn note_dropped(&mut self, sym: &SymbolRef, all: &[Hit], chosen: &[Hit]) {
        let leaf = sym.leaf();
        for h in all {
            let same = h.name.as_deref().and_then(|n| n.rsplit('.').next()) == Some(leaf);
            let kept = chosen.iter().any(|c| c.path == h.path && c.line == h.line);
            let class = classify::classify(&h.path);
            if same && !kept && class.secondary() {
                let why = if class.generated {
                    "generated code"
                } else if class.vendored {
                    "vendored code"
                } else if class.test {
                    "test code"
                } else {
                    "example or fixture code"
                };
                self.notes.push(format!(
                    "`{}` at {}:{} is {why}, not the answer.",
                    h.name.as_deref().unwrap_or(leaf),
                    h.path,
                    h.line
                ));
            }
        }
    }

    /// Records the hits of a successful `code` call as entries.
    fn record(&mut self, op: &'static str, sym: &SymbolRef, hits: Vec<Hit>) {
        self.ops.push(op);
        let target_name = hits
            .iter()
            .find(|h| h.section.is_none())
            .and_then(|h| h.name.clone())
            .unwrap_or_else(|| sym.name.clone());
        for (i, h) in hits.into_iter().enumerate() {
            let relation = match (&h.section, op) {
                (None, "trace") => Relation::TraceHop,
                (None, "methods") if i > 0 => Relation::Definition,
                (None, _) => Relation::Definition,
                (Some(s), _) => section_relation(*s),
            };
            let name = h.name.clone();
            let shown = name.clone().unwrap_or_else(|| sym.name.clone());
            let kind_txt = h.kind.clone().map(|k| format!("{k} ")).unwrap_or_default();
            let note = match relation {
                Relation::Definition if op == "methods" && h.section.is_some() => {
                    format!("Method {shown} at line {}", h.line)
                }
                Relation::Definition => format!("Defines {kind_txt}{shown} at line {}", h.line),
                Relation::Caller => {
                    if op == "usages" {
                        format!("{shown} uses {target_name} at line {}", h.line)
                    } else {
                        format!("{shown} calls {target_name} at line {}", h.line)
                    }
                }
                Relation::Callee => format!(
                    "Defines {kind_txt}{shown} at line {}, called by {target_name}",
                    h.line
                ),
                Relation::Implementation => {
                    format!(
                        "{shown} ({}) implements {target_name}, at line {}",
                        h.kind.as_deref().unwrap_or("type"),
                        h.line
                    )
                }
                Relation::Supertype => format!(
                    "{target_name} implements {} {shown}, declared at line {}",
                    h.kind.as_deref().unwrap_or("type"),
                    h.line
                ),
                Relation::TraceHop => format!(
                    "Hop {shown} ({}) at line {}",
                    h.kind.as_deref().unwrap_or("symbol"),
                    h.line
                ),
                Relation::Concept { .. } => format!("{shown} at line {}", h.line),
            };
            // Callees and trace hops also say where they are called: cite the call site in
            // the calling file.
            if let Some((site_path, site_line)) = &h.call_site {
                self.found.push(Entry {
                    path: site_path.clone(),
                    relation: if op == "trace" {
                        Relation::TraceHop
                    } else {
                        Relation::Definition
                    },
                    name: None,
                    kind: None,
                    line: *site_line,
                    end_line: None,
                    note: format!("Calls {shown} at line {site_line}"),
                    source: "code",
                    target: Some(target_name.clone()),
                });
            }
            // A caller that calls more than once: every call site is a location.
            if relation == Relation::Caller {
                for &line in h.calls.iter().skip(1).filter(|&&l| l != h.line) {
                    self.found.push(Entry {
                        path: h.path.clone(),
                        relation,
                        name: name.clone(),
                        kind: h.kind.clone(),
                        line,
                        end_line: Some(line),
                        note: format!("{shown} calls {target_name} again at line {line}"),
                        source: "code",
                        target: Some(target_name.clone()),
                    });
                }
            }
            self.found.push(Entry {
                path: h.path,
                relation,
                name,
                kind: h.kind,
                line: h.line,
                end_line: h.end_line,
                note,
                source: "code",
                target: Some(target_name.clone()),
            });
        }
    }

    /// Ranks files for a concept question and reads the best ranges of the chosen ones.
    fn concept(&mut self, query: &Query) -> Vec<ToolCall> {
        let idx = self.lex_index();
        let root = self.registry.root().path().to_path_buf();
        let focus = classify::Focus::of(&query.terms);
        let mut contents: HashMap<String, String> = HashMap::new();
        let mut content = |rel: &str| -> Option<HashMap<String, f64>> {
            let text = read_small(&root, rel)?;
            let terms = rank::content_terms(&text);
            contents.insert(rel.to_string(), text);
            Some(terms)
        };
        let ranked = LexIndex::select(idx.rank(&query.terms, &query.weights, &mut content, focus));
        let corpus = idx.corpus();
        // A question naming something the repository never mentions ("where is the
        // GraphQL schema", "Kafka", "Redis") is not answered by whatever matches its
        // other words.
        let unknown: Vec<&String> = query
            .terms
            .iter()
            .zip(&query.weights)
            .filter(|(t, w)| **w >= 1.0 && !idx.knows(t))
            .map(|(t, _)| t)
            .collect();
        if !unknown.is_empty() {
            let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
            for c in contents.values() {
                seen.extend(text::index_terms(c));
            }
            let absent: Vec<String> = unknown
                .into_iter()
                .filter(|t| !seen.contains(*t))
                .cloned()
                .collect();
            // A missing word is the question's topic when it is a name (capitalised:
            // GraphQL, Kafka, Redis) or when little else is asked ("where is the flux
            // capacitor"); a missing verb among many found words ("where is the errs
            // Code type used to pick an HTTP status") is just phrasing.
            let present = query
                .terms
                .iter()
                .zip(&query.weights)
                .filter(|(t, w)| **w >= 1.0 && !absent.contains(t))
                .count();
            // Only a short question is about its missing word: in a long one (a bug
            // report, a paragraph) a word no file contains is ignored, and the answer
            // stops only when nothing it says matches.
            let asked = present + absent.len();
            let short = asked <= SHORT_QUESTION_TERMS;
            if !absent.is_empty()
                && (present == 0
                    || (short
                        && (present <= 2
                            || absent.iter().any(|t| {
                                capitalised_in(&query.raw, t) || self.name_terms.contains(t)
                            }))))
            {
                self.absent = absent;
                return Vec::new();
            }
        }
        // The symbol to follow through the call graph (see below), cited in the top file.
        let callable =
            |si: &&usize| matches!(corpus.symbols[**si].kind.as_str(), "function" | "method");
        let how = query.raw.to_lowercase().starts_with("how");
        let pick = ranked.first().and_then(|top| {
            if how {
                top.symbols.iter().find(callable).copied()
            } else {
                top.symbols
                    .iter()
                    .filter(callable)
                    .max_by_key(|&&si| (idx.callers_of(si), std::cmp::Reverse(si)))
                    .copied()
            }
        });
        let mut calls = Vec::new();
        for (rank, r) in ranked.iter().enumerate() {
            let path = corpus.files[r.file].clone();
            let mut cites: Vec<Cite> = r
                .symbols
                .iter()
                .take(3)
                .map(|&si| {
                    let s = &corpus.symbols[si];
                    Cite {
                        line: s.line,
                        end_line: s.end_line.max(s.line),
                        symbol: Some(s.display.clone()),
                        kind: Some(s.kind.clone()),
                    }
                })
                .collect();
            // A question about entry points wants the `main` function itself.
            if focus.entry
                && let Some(&si) = idx.symbols_in(r.file).iter().find(|&&si| {
                    corpus.symbols[si].name == "main" && corpus.symbols[si].kind == "function"
                })
                && !cites.iter().any(|c| c.line == corpus.symbols[si].line)
            {
                let s = &corpus.symbols[si];
                cites.insert(
                    0,
                    Cite {
                        line: s.line,
                        end_line: s.end_line.max(s.line),
                        symbol: Some(s.display.clone()),
                        kind: Some(s.kind.clone()),
                    },
                );
            }
            if rank == 0
                && let Some(si) = pick
                && !r.symbols.iter().take(3).any(|&x| x == si)
            {
                let s = &corpus.symbols[si];
                cites.push(Cite {
                    line: s.line,
                    end_line: s.end_line.max(s.line),
                    symbol: Some(s.display.clone()),
                    kind: Some(s.kind.clone()),
                });
            }
            if cites.is_empty()
                && let Some(text) = contents.get(&path)
                && let Some(line) = best_line(text, &query.terms)
            {
                cites.push(Cite {
                    line,
                    end_line: line,
                    symbol: None,
                    kind: None,
                });
            }
            let types = !r.symbols.is_empty()
                && r.symbols
                    .iter()
                    .take(3)
                    .filter(|&&si| {
                        matches!(
                            corpus.symbols[si].kind.as_str(),
                            "interface" | "struct" | "class" | "type"
                        )
                    })
                    .count()
                    * 2
                    > r.symbols.len().min(3);
            let (start, num) = window(&cites);
            let file = ConceptFile {
                path: path.clone(),
                rank,
                cites,
                matched: r.matched.clone(),
                types,
            };
            let args = json!({"file": path, "start_line": start, "num_lines": num});
            calls.push(self.call("read", args, Some(Purpose::Read { file })));
        }
        // Follow the best file's best callable one step through the call graph. "How"
        // follows it down: what it hands off to is part of the answer (the handler's
        // signature check, router and ingest) even when those files do not repeat the
        // question's words. Otherwise follow the most-used match up: who relies on it.
        if let Some(top) = ranked.first()
            && let Some(si) = pick
        {
            let s = &corpus.symbols[si];
            let op = if how { "callees" } else { "callers" };
            let path = corpus.files[top.file].clone();
            let args = json!({"operation": op, "symbol": s.display, "file": path});
            let from = s.display.clone();
            calls.push(self.call(
                "code",
                args,
                Some(Purpose::Expand {
                    op,
                    from,
                    path,
                    index: idx.clone(),
                }),
            ));
        }
        calls
    }

    /// Adds what a concept answer's best symbol leads to: its callers (first-party, in
    /// other files), or its specific callees: first-party code in other files that few
    /// others call (helpers called from everywhere, like an error constructor, say nothing
    /// about this question).
    fn on_expand(&mut self, op: &str, from: &str, path: &str, idx: &LexIndex, result: &ToolResult) {
        let Reply::Hits(hits) = evidence::read_code(result.detail.as_ref()) else {
            return;
        };
        let corpus = idx.corpus();
        let mut added = 0;
        for h in hits.iter().filter(|h| h.section.is_some()) {
            if added >= MAX_EXPANSION || h.path == path || classify::classify(&h.path).secondary() {
                continue;
            }
            let shown = h.name.clone().unwrap_or_default();
            if op == "callers" {
                self.found.push(Entry {
                    path: h.path.clone(),
                    relation: Relation::Caller,
                    name: h.name.clone(),
                    kind: h.kind.clone(),
                    line: h.line,
                    end_line: None,
                    note: format!("{shown} calls {from} at line {}", h.line),
                    source: "code",
                    target: None,
                });
                added += 1;
                continue;
            }
            let callers = corpus
                .symbols
                .iter()
                .position(|s| corpus.files.get(s.file) == Some(&h.path) && s.line == h.line)
                .map(|si| idx.callers_of(si));
            if callers.is_none_or(|c| c > MAX_EXPANSION_CALLERS) {
                continue;
            }
            let site = match h.call_site {
                Some((ref p, l)) if p == path => format!(", called from {path}:{l}"),
                _ => String::new(),
            };
            self.found.push(Entry {
                path: h.path.clone(),
                relation: Relation::Callee,
                name: h.name.clone(),
                kind: h.kind.clone(),
                line: h.line,
                end_line: h.end_line,
                note: format!(
                    "{from} hands off to {} {shown} here{site}",
                    h.kind.as_deref().unwrap_or("symbol")
                ),
                source: "code",
                target: None,
            });
            added += 1;
        }
    }

    /// Keeps the citations a `read` confirmed.
    fn on_read(&mut self, file: ConceptFile, findings: &[Finding]) {
        let covered = |line: u32| {
            findings.iter().any(|f| {
                f.path == file.path
                    && f.line.is_some_and(|a| a <= line)
                    && f.end_line.or(f.line).is_some_and(|b| line <= b)
            })
        };
        let relation = Relation::Concept {
            rank: file.rank,
            types: file.types,
        };
        let terms = file.matched.join(", ");
        let mut any = false;
        for c in &file.cites {
            if !covered(c.line) {
                continue;
            }
            any = true;
            let what = match (&c.symbol, &c.kind) {
                (Some(s), Some(k)) => format!("Defines {k} {s} at line {}", c.line),
                (Some(s), None) => format!("Defines {s} at line {}", c.line),
                _ => format!("Matching text at line {}", c.line),
            };
            self.found.push(Entry {
                path: file.path.clone(),
                relation,
                name: c.symbol.clone(),
                kind: c.kind.clone(),
                line: c.line,
                end_line: (c.end_line > c.line && covered(c.end_line)).then_some(c.end_line),
                note: what,
                source: "read",
                target: Some(terms.clone()),
            });
        }
        if !any && findings.iter().any(|f| f.path == file.path) {
            self.found.push(Entry {
                path: file.path.clone(),
                relation,
                name: None,
                kind: None,
                line: 0,
                end_line: None,
                note: format!("Its path and contents match {terms}"),
                source: "read",
                target: Some(terms),
            });
        }
    }

    /// The arguments of the final `submit`.
    fn submission(&self, query: &Query) -> Value {
        let files = group(&self.found, self.effective_intent(query));
        let relevant: Vec<Value> = files
            .iter()
            .map(|f| {
                json!({
                    "path": f.path,
                    "rationale": f.rationale,
                    "role": f.role.as_str(),
                    "discovery_source": f.source,
                    "key_symbols": f.key_symbols,
                    "locations": f.locations,
                })
            })
            .collect();
        let answer = self.answer_text(query, &files);
        json!({"answer": answer, "relevant_files": relevant})
    }

    /// The intent the answer was found for: a symbol question that fell back to ranking
    /// is answered as a concept question.
    fn effective_intent<'q>(&self, query: &'q Query) -> &'q Intent {
        if self.fallback.is_some() {
            &CONCEPT
        } else {
            &query.intent
        }
    }

    fn answer_text(&self, query: &Query, files: &[Grouped]) -> String {
        let intent = self.effective_intent(query);
        let mut parts: Vec<String> = Vec::new();
        if files.is_empty() {
            if let (Some(n), Some(sym)) = (self.unmentioned, query.intent.symbol()) {
                return format!(
                    "No symbol `{}` was found: the code graph does not know it and no source file mentions it (text search over {n} files); no relevant files.",
                    sym.name
                );
            }
            if !self.absent.is_empty() && self.fallback.is_none() {
                return format!(
                    "No file in the repository mentions {}; no relevant files.",
                    self.absent.join(", ")
                );
            }
            let what = match &self.fallback {
                Some(s) => format!("{s}, and no file matches the question's words"),
                None if query.terms.is_empty() => {
                    "The question has no words to search for".to_string()
                }
                None => format!(
                    "Nothing in the repository matches the question's terms ({})",
                    query.terms.join(", ")
                ),
            };
            return format!("{what}; no relevant files.");
        }
        let cite = |e: &Entry| format!("{}:{}", e.path, e.line);
        let primary: Vec<&Entry> = self.found.iter().filter(|e| e.line > 0).collect();
        let target = query
            .intent
            .symbol()
            .map(|s| s.name.clone())
            .unwrap_or_default();
        match intent {
            Intent::Definition(_) => {
                let defs: Vec<String> = files
                    .iter()
                    .flat_map(|f| f.entries.iter())
                    .filter(|e| e.relation == Relation::Definition && e.line > 0)
                    .map(|e| {
                        format!(
                            "`{}`{} at {}",
                            e.name.as_deref().unwrap_or(&target),
                            e.kind
                                .as_ref()
                                .map(|k| format!(" ({k})"))
                                .unwrap_or_default(),
                            cite(e)
                        )
                    })
                    .collect();
                if defs.len() == 1 {
                    parts.push(format!("{} is the definition.", defs[0]));
                } else {
                    parts.push(format!("{} definitions: {}.", defs.len(), defs.join("; ")));
                }
            }
            Intent::Concept => {
                let tops: Vec<String> = files
                    .iter()
                    .take(4)
                    .filter_map(|f| {
                        let e = f.entries.iter().find(|e| e.line > 0)?;
                        Some(match &e.name {
                            Some(n) => format!("`{n}` at {}", cite(e)),
                            None => cite(e),
                        })
                    })
                    .collect();
                if !tops.is_empty() {
                    parts.push(format!("Most relevant: {}.", tops.join("; ")));
                }
            }
            _ => {
                let rels: Vec<String> = primary
                    .iter()
                    .filter(|e| {
                        (e.name.is_some() || self.text_note.is_some())
                            && if intent.name() == "methods" {
                                e.kind.as_deref() == Some("method")
                            } else {
                                e.relation != Relation::Definition
                            }
                    })
                    .take(8)
                    .map(|e| match e.name.as_deref() {
                        Some(n) => format!("{n} at {}", cite(e)),
                        None => cite(e),
                    })
                    .collect();
                // Only the asked-for symbol's own definitions: the callers' and callees'
                // definitions are relations, listed after the verb.
                let last = |n: &str| n.rsplit('.').next().unwrap_or(n).to_string();
                let wanted = last(&target);
                let defs: Vec<String> = primary
                    .iter()
                    .filter(|e| {
                        e.relation == Relation::Definition
                            && e.name.as_deref().is_some_and(|n| last(n) == wanted)
                    })
                    .map(|e| format!("`{}` at {}", e.name.as_deref().unwrap_or(&target), cite(e)))
                    .collect();
                let verb = match intent.name() {
                    "callers" if self.ops.contains(&"usages") => "Used by",
                    "callers" => "Called by",
                    "callees" => "Calls",
                    "implementations" => "Implemented by",
                    "methods" => "Methods",
                    "trace" if self.no_path => "Both ends",
                    "trace" => "Path",
                    _ => "Related",
                };
                if !defs.is_empty() && intent.name() != "methods" {
                    parts.push(format!("{}.", defs.join("; ")));
                }
                if rels.is_empty() {
                    parts.push(format!("{verb}: none found."));
                } else {
                    let sep = if intent.name() == "trace" && !self.no_path {
                        " -> "
                    } else {
                        "; "
                    };
                    parts.push(format!("{verb}: {}.", rels.join(sep)));
                }
            }
        }
        if let Some(s) = &self.fallback {
            parts.insert(0, format!("{s}; these files match the question's words."));
        }
        if let Some(s) = &self.text_note {
            parts.insert(0, s.clone());
        }
        parts.extend(self.notes.iter().cloned());
        parts.join(" ")
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

/// The `code` operation for a symbol intent.
fn operation(intent: &Intent) -> &'static str {
    match intent {
        Intent::Definition(_) => "find",
        Intent::Callers(_) => "callers",
        Intent::Callees(_) => "callees",
        Intent::Implementations(_) => "implementations",
        Intent::Methods(_) => "methods",
        Intent::Trace { .. } => "trace",
        Intent::Concept => "find",
    }
}

/// How a place in a `code` answer relates to the question's symbol, by the section it
/// came in.
fn section_relation(section: CodeRelation) -> Relation {
    match section {
        CodeRelation::Path => Relation::TraceHop,
        CodeRelation::Callers | CodeRelation::Through | CodeRelation::UsedBy => Relation::Caller,
        CodeRelation::Callees => Relation::Callee,
        CodeRelation::Implementations | CodeRelation::Subclasses => Relation::Implementation,
        CodeRelation::Implements => Relation::Supertype,
        CodeRelation::Methods | CodeRelation::Definitions | CodeRelation::PartialMatches => {
            Relation::Definition
        }
    }
}

fn kind_matches(want: &str, got: &str) -> bool {
    want == got
        || (want == "class" && matches!(got, "struct" | "interface" | "type"))
        || (want == "type" && matches!(got, "struct" | "interface" | "class"))
        || (want == "function" && got == "method")
        || (want == "method" && got == "function")
}

/// Narrows candidates of an ambiguous name: the question's qualifier, then its kind, then
/// real code over tests, vendored and generated code. What is left may still be several.
fn narrow(sym: &SymbolRef, candidates: &[Hit]) -> Vec<Hit> {
    let mut c: Vec<Hit> = candidates.to_vec();
    // Package, module and file words: the candidates that match most of them, if any do.
    if !sym.within.is_empty() {
        let score = |h: &Hit| sym.within.iter().filter(|w| lives_in(h, w)).count();
        let best = c.iter().map(score).max().unwrap_or(0);
        if best > 0 {
            c.retain(|h| score(h) == best);
        }
    }
    if let Some(q) = sym.qualifier() {
        let q = q.to_lowercase();
        let keep: Vec<Hit> = c
            .iter()
            .filter(|h| {
                let name = h.name.as_deref().unwrap_or("").to_lowercase();
                name.starts_with(&format!("{q}.")) || h.path.to_lowercase().contains(&q)
            })
            .cloned()
            .collect();
        if !keep.is_empty() {
            c = keep;
        }
    }
    if let Some(k) = sym.kind {
        // The kind asked for exactly ("the standalone ReadFile function"), else a close
        // one (a "class" that is a struct).
        let exact: Vec<Hit> = c
            .iter()
            .filter(|h| h.kind.as_deref() == Some(k))
            .cloned()
            .collect();
        let keep: Vec<Hit> = if exact.is_empty() {
            c.iter()
                .filter(|h| h.kind.as_deref().is_some_and(|g| kind_matches(k, g)))
                .cloned()
                .collect()
        } else {
            exact
        };
        if !keep.is_empty() {
            c = keep;
        }
    }
    let primary: Vec<Hit> = c
        .iter()
        .filter(|h| !classify::classify(&h.path).secondary())
        .cloned()
        .collect();
    if !primary.is_empty() {
        c = primary;
    }
    c
}

/// Whether a place word of the question (`afero`, `mem`, `validate`, `text`) names where
/// `h` lives: a segment of its package or module path, a directory, or its file's stem
/// or a word of it (`text` in `text_formatter.go`).
fn lives_in(h: &Hit, word: &str) -> bool {
    let word = word.to_lowercase();
    if word.contains('/') || word.contains('.') {
        // A path the question gave: a suffix of the file's path, or a directory of it.
        let path = h.path.to_lowercase();
        let word = word.trim_start_matches("./").trim_end_matches('/');
        return path == word
            || path.ends_with(&format!("/{word}"))
            || path.starts_with(&format!("{word}/"))
            || path.contains(&format!("/{word}/"));
    }
    let owner_path = h
        .qname
        .as_deref()
        .and_then(|q| h.name.as_deref().and_then(|n| q.strip_suffix(n)))
        .unwrap_or("");
    let in_qname = owner_path
        .split(['/', '.'])
        .any(|seg| seg.eq_ignore_ascii_case(&word));
    let path = h.path.to_lowercase();
    let mut segments: Vec<&str> = path.split('/').collect();
    let file = segments.pop().unwrap_or("");
    let stem = file.split('.').next().unwrap_or(file);
    in_qname
        || segments.iter().any(|d| *d == word)
        || stem.trim_start_matches('_') == word
        || stem.split(['_', '-']).any(|w| w == word)
}

/// The definitions worth citing from a `find`: exact names first (a `find` may also list
/// partial matches), narrowed as for an ambiguous name.
fn choose_definitions(sym: &SymbolRef, hits: Vec<Hit>) -> Vec<Hit> {
    let leaf = sym.leaf();
    let whole = |h: &Hit| h.name.as_deref() == Some(sym.name.as_str());
    let exact: Vec<Hit> = hits
        .iter()
        .filter(|h| whole(h) || h.name.as_deref().and_then(|n| n.rsplit('.').next()) == Some(leaf))
        .cloned()
        .collect();
    let pool = if exact.is_empty() { hits } else { exact };
    let mut chosen = narrow(sym, &pool);
    chosen.iter_mut().for_each(|h| h.section = None);
    // The name as written comes first ("Code": the type before the method `Error.Code`);
    // then a method defined in the file named after its type (`LedgerService.
    // post_transaction` in `ledger_service.py`, `Planner.Plan` in `planner.go`), the
    // primary definition, before overrides elsewhere.
    chosen.sort_by_key(|h| {
        let owner = h
            .name
            .as_deref()
            .and_then(|n| n.rsplit_once('.'))
            .map(|(o, _)| text::split_words(o).join("_"));
        let stem = h
            .path
            .rsplit('/')
            .next()
            .and_then(|f| f.split('.').next())
            .unwrap_or("")
            .to_lowercase();
        (!whole(h), owner.is_none_or(|o| o != stem))
    });
    chosen
}

/// A file of the answer, grouped from entries.
#[derive(Debug, Clone)]
struct Grouped {
    path: String,
    role: Role,
    rationale: String,
    source: &'static str,
    key_symbols: Vec<String>,
    locations: Vec<Location>,
    entries: Vec<Entry>,
    order: (u8, u8, usize),
}

/// Groups entries by file, picks each file's role and rationale, and orders files best
/// first: for relation questions the related files (callers, implementations, hops)
/// before the target's definition, real code before tests, vendored and generated code.
fn group(entries: &[Entry], intent: &Intent) -> Vec<Grouped> {
    let mut files: Vec<Grouped> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let pos = match files.iter().position(|f| f.path == e.path) {
            Some(p) => p,
            None => {
                let class = classify::classify(&e.path);
                let rel_rank = match (intent, e.relation) {
                    (Intent::Definition(_) | Intent::Methods(_), Relation::Definition) => 0,
                    (Intent::Definition(_) | Intent::Methods(_), _) => 1,
                    (Intent::Concept, Relation::Concept { rank: 0, .. }) => 0,
                    (Intent::Concept, Relation::Callee | Relation::Caller) => 1,
                    (Intent::Concept, _) => 2,
                    (_, Relation::Definition) => 1,
                    _ => 0,
                };
                files.push(Grouped {
                    path: e.path.clone(),
                    role: classify::role(&e.path, e.relation, e.kind.as_deref()),
                    rationale: String::new(),
                    source: e.source,
                    key_symbols: Vec::new(),
                    locations: Vec::new(),
                    entries: Vec::new(),
                    order: (u8::from(class.secondary()), rel_rank, i),
                });
                files.len() - 1
            }
        };
        files[pos].entries.push(e.clone());
    }
    for f in &mut files {
        let class = classify::classify(&f.path);
        let mut notes: Vec<String> = Vec::new();
        for e in &f.entries {
            if !notes.contains(&e.note) {
                notes.push(e.note.clone());
            }
            if let Some(n) = &e.name
                && !f.key_symbols.contains(n)
            {
                f.key_symbols.push(n.clone());
            }
            if e.line > 0 {
                let loc = Location {
                    line: e.line,
                    end_line: e.end_line.filter(|&x| x > e.line),
                    symbol: e.name.clone(),
                    kind: e.kind.clone(),
                };
                if !f.locations.iter().any(|l| l.line == loc.line) {
                    f.locations.push(loc);
                }
            }
        }
        let mut rationale = notes.join("; ");
        if let Intent::Concept = intent
            && let Some(t) = f.entries.first().and_then(|e| e.target.clone())
            && !t.is_empty()
        {
            rationale.push_str(&format!(" (matches {t})"));
        }
        if class.generated {
            rationale.push_str(" — generated code, do not edit");
        } else if class.vendored {
            rationale.push_str(" — vendored third-party code");
        } else if class.test {
            rationale.push_str(" — test code");
        } else if class.sample {
            rationale.push_str(" — example, fixture or documentation code");
        }
        f.rationale = rationale;
        f.locations.sort_by_key(|l| l.line);
    }
    if let Intent::Callers(_) = intent {
        // The file with the most call sites first (a class calling its own method from
        // four places beats a module calling it once).
        let calls = |f: &Grouped| {
            f.entries
                .iter()
                .filter(|e| e.relation == Relation::Caller)
                .count()
        };
        files.sort_by_key(|f| (f.order.0, std::cmp::Reverse(calls(f)), f.order.1, f.order.2));
    } else {
        files.sort_by_key(|f| f.order);
    }
    files
}

/// The `read` window covering the citations: from the first to the last cited line, at
/// most 300 lines, starting a little before the first so a doc comment shows.
fn window(cites: &[Cite]) -> (u32, u32) {
    let Some(first) = cites.iter().map(|c| c.line).min() else {
        return (1, 60);
    };
    let start = first.saturating_sub(2).max(1);
    let last = cites
        .iter()
        .map(|c| c.end_line.max(c.line))
        .max()
        .unwrap_or(first);
    let num = (last + 1).saturating_sub(start).clamp(1, 300);
    (start, num)
}

/// Reads a shortlisted file for ranking (never a secret file; at most 1 MiB).
fn read_small(root: &std::path::Path, rel: &str) -> Option<String> {
    if explore_tools::secrets::secret_name_reason(rel.rsplit('/').next().unwrap_or(rel)).is_some() {
        return None;
    }
    let abs = root.join(rel);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    if !meta.is_file()
        || meta.len() > (1 << 20)
        || explore_tools::secrets::is_multiply_linked(&meta)
    {
        return None;
    }
    std::fs::read_to_string(abs).ok()
}

/// True when the question spells the word whose stem is `term` with a capital letter
/// (not counting the question's first word): a name, like GraphQL or Kafka.
fn capitalised_in(raw: &str, term: &str) -> bool {
    raw.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .skip(1)
        .any(|w| w.chars().any(|c| c.is_uppercase()) && text::stem(&w.to_lowercase()) == term)
}

/// The line of `text` that matches the most distinct question terms (first on ties).
fn best_line(text: &str, terms: &[String]) -> Option<u32> {
    let mut best = (0usize, 0u32);
    for (i, l) in text.lines().enumerate() {
        let words = text::index_terms(l);
        let n = terms.iter().filter(|t| words.contains(t)).count();
        if n > best.0 {
            best = (n, (i + 1) as u32);
        }
    }
    (best.0 > 0).then_some(best.1)
}

impl Policy for LocalPolicy {
    fn engine(&self) -> &'static str {
        "local"
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
