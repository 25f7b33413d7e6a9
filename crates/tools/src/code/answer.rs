//! The `code` tool's answer as a value: what was resolved, and what relates to it.
//!
//! The tool builds a [`CodeAnswer`] and [`render`](super::render) turns it into spec 003's
//! text in one place. Everything else that consumes a `code` result — the local engine,
//! `explore tool code --json`, MCP clients, the loop's metrics — reads this value, so a
//! change of wording can never change what they understand.
//!
//! The value is complete where the text is not: a section holds every item the walk
//! collected (up to [`Walk::LIMIT`](super::Walk::LIMIT)) with its total, and every call
//! line of a caller, while the text shows the first [`MAX_RESULTS`](super::MAX_RESULTS).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::model::{Kind, Symbol};
use super::tool::Operation;
use crate::Finding;

/// What a `code` call answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CodeAnswer {
    /// The name resolved: the target and its related sections.
    Found(Found),
    /// The name fits several symbols of equal standing; the call must say which.
    Ambiguous(Ambiguous),
    /// The name resolved to a symbol the operation does not work on.
    WrongKind(WrongKind),
    /// Nothing by that name.
    NotFound(NotFound),
    /// Both ends of a trace exist but no call path joins them.
    NoPath(NoPath),
}

impl CodeAnswer {
    /// The operation answered.
    pub fn operation(&self) -> Operation {
        match self {
            CodeAnswer::Found(f) => f.operation,
            CodeAnswer::Ambiguous(a) => a.operation,
            CodeAnswer::WrongKind(w) => w.operation,
            CodeAnswer::NotFound(n) => n.operation,
            CodeAnswer::NoPath(_) => Operation::Trace,
        }
    }

    /// Every place the answer holds, shown in the text or not: each item's definition and
    /// each of its call lines. What a consumer of the value may cite as returned by the
    /// tool (the text's own [`Finding`]s are the subset it shows).
    pub fn places(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let mut add = |item: &Item| {
            out.push(Finding {
                path: item.path.clone(),
                line: Some(item.line),
                end_line: Some(item.end_line),
                symbol: Some(item.name.clone()),
                kind: Some(item.kind.as_str().to_string()),
            });
            if let Some(path) = &item.call_path {
                for &line in &item.calls {
                    out.push(Finding {
                        path: path.clone(),
                        line: Some(line),
                        end_line: Some(line),
                        symbol: None,
                        kind: None,
                    });
                }
            }
        };
        match self {
            CodeAnswer::Found(f) => {
                f.target.iter().chain(&f.also).for_each(&mut add);
                for s in &f.sections {
                    s.through.iter().chain(&s.items).for_each(&mut add);
                }
            }
            CodeAnswer::Ambiguous(a) => a.candidates.iter().for_each(add),
            CodeAnswer::WrongKind(w) => add(&w.item),
            CodeAnswer::NotFound(n) => n.near.iter().for_each(add),
            CodeAnswer::NoPath(p) => p.from.iter().chain(&p.to).for_each(add),
        }
        out
    }
}

/// The query as the tool understood it, echoed for messages and consumers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Asked {
    /// The symbol as written.
    pub symbol: String,
    /// The kind filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    /// The file filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// A resolved name and what relates to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Found {
    /// The operation.
    pub operation: Operation,
    /// The query.
    pub asked: Asked,
    /// The symbol the answer is about; `None` for a `find` listing several and for a
    /// trace (whose path is its one section).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Item>,
    /// Same-named symbols in tests, vendored or generated code that lost to the target.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Item>,
    /// The levels followed (callers and callees).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub depth: u32,
    /// The related symbols, by relation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<Section>,
    /// `find`: how many partial matches were left out because exact ones exist.
    #[serde(default, skip_serializing_if = "is_zero_usize")]
    pub more_partial: usize,
    /// Set when the answer came from a graph of only the files that mention the name (the
    /// first query on a repository never indexed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_graph: Option<PartialGraph>,
    /// `implementations` of a standard-library interface the repository does not define
    /// (`sort.Interface`): the definition the types were matched against, by method set.
    /// Then `target` is `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<Box<StandardInterface>>,
}

/// A Go standard-library interface, as the graph's table knows it ([`crate::code`]'s
/// `stdlib` module).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct StandardInterface {
    /// As Go code writes it: `sort.Interface`, `error`.
    pub name: String,
    /// Its package's import path (`sort`, `net/http`); empty for `error`.
    pub package: String,
    /// Its methods, matched by name.
    pub methods: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_usize(n: &usize) -> bool {
    *n == 0
}

/// How a first query's partial graph may fall short of the full index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PartialGraph {
    /// Files searched: those that mention the name.
    pub files: usize,
    /// The name searched for.
    pub literal: String,
    /// Call sites (or calls) that need the full index to resolve.
    pub unresolved: usize,
    /// The walk looked down (callees) rather than up.
    pub down: bool,
}

/// How an item relates to the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// `find`: definitions matching the name exactly (or ignoring case).
    Definitions,
    /// `find`: definitions whose name contains the query (no exact match exists).
    PartialMatches,
    /// Functions and methods that call the target.
    Callers,
    /// Functions and methods the target calls.
    Callees,
    /// Callers of an interface or parent-class method that may dispatch to the target.
    Through,
    /// Types that implement the target interface.
    Implementations,
    /// Classes that inherit from the target class (directly, or via another).
    Subclasses,
    /// What the target type implements or extends.
    Implements,
    /// The target type's methods.
    Methods,
    /// Functions whose parameters or results use the target type; for a Go variable or
    /// constant, the functions, methods and variables that read or assign it (each item's
    /// `calls` are the lines where, in `call_path`).
    UsedBy,
    /// For a type's usages: the functions that call it (a Python class instantiated or
    /// raised, `raise NotAnAttrsClassError(msg)`; a Go conversion), each with the lines.
    Constructions,
    /// For a type's usages: the functions that name it as a value in their bodies (a
    /// `case ContentDeleted:` label, `x instanceof Item`, `isinstance(x, Foo)`, `except
    /// FooError:`), each with the lines (`calls`).
    References,
    /// A trace's call path, start first.
    Path,
}

impl Relation {
    /// The section header of the text (`Callers`, `Used by (parameters or results)`).
    pub fn title(self) -> &'static str {
        match self {
            Relation::Definitions | Relation::PartialMatches => "Found",
            Relation::Callers => "Callers",
            Relation::Callees => "Callees",
            Relation::Through => "Through",
            Relation::Implementations => "Implementations",
            Relation::Subclasses => "Subclasses",
            Relation::Implements => "Implements",
            Relation::Methods => "Methods",
            Relation::UsedBy => "Used by (parameters or results)",
            Relation::Constructions => "Constructed by (calls of the type)",
            Relation::References => "Referenced by (named as a value)",
            Relation::Path => "Call path",
        }
    }
}

/// Related symbols of one relation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Section {
    /// How the items relate to the target.
    pub relation: Relation,
    /// For [`Relation::Through`]: the interface or parent method the calls go through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<Item>,
    /// The items, best first (callers and callees in walk order).
    pub items: Vec<Item>,
    /// How many there are in all (`items` may hold fewer).
    pub total: usize,
}

/// Where a symbol comes from, by its path: real code ranks before the rest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// First-party source.
    #[default]
    Source,
    /// Tests and test helpers.
    Test,
    /// Third-party code kept in the repository.
    Vendored,
    /// Generated code.
    Generated,
}

impl Origin {
    /// The origin of a symbol, from its flags.
    pub fn of(s: &Symbol) -> Origin {
        if s.is_generated {
            Origin::Generated
        } else if s.is_vendored {
            Origin::Vendored
        } else if s.is_test {
            Origin::Test
        } else {
            Origin::Source
        }
    }

    fn is_source(&self) -> bool {
        *self == Origin::Source
    }
}

/// One symbol in an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Item {
    /// The name as shown (`Planner.Plan`).
    pub name: String,
    /// The fully qualified name (`example.com/relay/internal/brain.Planner.Plan`).
    pub qname: String,
    /// Its kind.
    pub kind: Kind,
    /// Repo-relative path of the definition.
    pub path: String,
    /// First line of the definition.
    pub line: u32,
    /// Last line of the definition.
    pub end_line: u32,
    /// Where its path says it comes from.
    #[serde(default, skip_serializing_if = "Origin::is_source")]
    pub origin: Origin,
    /// The signature (`find` of one symbol).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The doc comment's first line (`find` of one symbol).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Callers, callees and trace steps: every line of a call, in `call_path`, ascending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<u32>,
    /// The file the `calls` lines are in: the caller's file for callers, the calling
    /// function's file for callees and trace steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_path: Option<String>,
    /// Callers and callees: levels from the target, 1-based.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub depth: u32,
    /// The call edge was guessed from the method name alone, not linked through a type.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inferred: bool,
    /// A guessed caller: how many other methods of the name the guess also chose at
    /// that call site (0: the name has one method, or the call is linked).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rivals: u32,
    /// Indirect subclasses: the class it inherits through; inherited methods: the class
    /// that declares them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

impl Item {
    /// The item for a symbol, with no call information.
    pub fn of(s: &Symbol) -> Item {
        Item {
            name: s.display.clone(),
            qname: s.qname.clone(),
            kind: s.kind,
            path: s.path.clone(),
            line: s.line,
            end_line: s.end_line,
            origin: Origin::of(s),
            signature: None,
            doc: None,
            calls: Vec::new(),
            call_path: None,
            depth: 0,
            inferred: false,
            rivals: 0,
            via: None,
        }
    }

    /// The item with its signature and doc line, as `find` shows one symbol.
    pub fn described(s: &Symbol) -> Item {
        Item {
            signature: Some(s.signature.clone()).filter(|x| !x.is_empty()),
            doc: s.doc.clone(),
            ..Item::of(s)
        }
    }

    /// The first call line, when the item is a call.
    pub fn first_call(&self) -> Option<u32> {
        self.calls.first().copied()
    }
}

/// A name that fits several symbols.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ambiguous {
    /// The operation.
    pub operation: Operation,
    /// The query.
    pub asked: Asked,
    /// The candidates, first-party source first.
    pub candidates: Vec<Item>,
    /// The arguments that pick the first candidate.
    pub narrow: Narrow,
}

/// Arguments that narrow a query to one symbol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Narrow {
    /// A more qualified `symbol`.
    pub symbol: String,
    /// A `file` filter.
    pub file: String,
}

/// A name that resolved to a symbol of the wrong kind for the operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WrongKind {
    /// The operation asked.
    pub operation: Operation,
    /// The symbol it resolved to.
    pub item: Item,
    /// Operations that do work on it, best first.
    pub instead: Vec<Operation>,
}

/// Nothing by that name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NotFound {
    /// The operation.
    pub operation: Operation,
    /// The query.
    pub asked: Asked,
    /// Partial matches worth suggesting.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub near: Vec<Item>,
}

/// A trace whose ends exist but are not joined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NoPath {
    /// The start as resolved (one item, or several same-named ones).
    pub from: Vec<Item>,
    /// The target as resolved.
    pub to: Vec<Item>,
    /// The start and target as written.
    pub asked_from: String,
    /// The target as written.
    pub asked_to: String,
}
