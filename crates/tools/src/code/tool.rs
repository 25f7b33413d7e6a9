//! The `code` tool's arguments, and the [`CodeAnswer`] built for them.
//!
//! This module checks the arguments, resolves the name and collects the related symbols
//! into a value; [`render`](super::render) is the one place that value becomes spec 003's
//! text. Bad arguments are plain errors; everything else — found, ambiguous, wrong kind,
//! not found, no path — is an answer.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::answer::{
    Ambiguous, Asked, CodeAnswer, Found, Item, Narrow, NoPath, NotFound, Relation, Section,
    StandardInterface, WrongKind,
};
use super::model::{Kind, Symbol, SymbolId};
use super::query::{self, MAX_DEPTH, Match, Related, Resolution, Role, SymbolQuery};
use super::stdlib;
use super::store::GraphStore;
use crate::{ToolError, ToolOutput, args};

pub(crate) const FIELDS: [&str; 6] = ["operation", "symbol", "kind?", "file?", "depth?", "to?"];
pub(crate) const EXAMPLE: &str = r#"{"operation":"callers","symbol":"Planner.Plan"}"#;

/// The operations of the `code` tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// Where symbols matching a name or glob are defined.
    Find,
    /// Who calls a function or method.
    Callers,
    /// What a function or method calls.
    Callees,
    /// What implements an interface or subclasses a class (or what a type implements).
    Implementations,
    /// The methods of a type.
    Methods,
    /// Functions whose parameters or results use a type.
    Usages,
    /// A call path from `symbol` to `to`.
    Trace,
}

impl Operation {
    /// Every operation.
    pub const ALL: [Operation; 7] = [
        Operation::Find,
        Operation::Callers,
        Operation::Callees,
        Operation::Implementations,
        Operation::Methods,
        Operation::Usages,
        Operation::Trace,
    ];

    /// The name the model writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Find => "find",
            Operation::Callers => "callers",
            Operation::Callees => "callees",
            Operation::Implementations => "implementations",
            Operation::Methods => "methods",
            Operation::Usages => "usages",
            Operation::Trace => "trace",
        }
    }

    /// The operation named `s`.
    pub fn parse(s: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|o| o.as_str() == s)
    }

    /// The kinds of symbol it works on.
    pub fn role(self) -> Role {
        match self {
            Operation::Callers | Operation::Callees | Operation::Trace => Role::Callable,
            Operation::Implementations => Role::Abstract,
            Operation::Methods => Role::Type,
            Operation::Usages => Role::Used,
            Operation::Find => Role::Any,
        }
    }
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Arguments of `code`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeArgs {
    /// find, callers, callees, implementations, methods, usages or trace.
    pub operation: Operation,
    /// A name (`Plan`), a qualified name (`Planner.Plan`, `model.IssueStore`) or a glob
    /// (`*Issue*`); an overload by its parameter types (`Interpreter.eval(String)`). For
    /// trace, where the path starts.
    pub symbol: String,
    /// Only symbols of this kind: function, method, struct, interface, class, type, const
    /// or var.
    #[serde(default)]
    pub kind: Option<String>,
    /// Only symbols in files whose path ends with this (`planner.go`, `internal/brain`).
    #[serde(default)]
    pub file: Option<String>,
    /// callers/callees: levels to follow (default 1, max 3).
    #[serde(default)]
    #[schemars(range(min = 1, max = 3))]
    pub depth: Option<u32>,
    /// trace: the function or method the path should reach.
    #[serde(default)]
    pub to: Option<String>,
}

/// The model-facing error for a kind outside the contract's eight.
pub fn invalid_kind(kind: &str) -> ToolError {
    ToolError::invalid_arguments(format!(
        "Invalid kind \"{}\". Supported kinds: {}.",
        crate::display::escape_for_display(kind),
        Kind::ALL.map(Kind::as_str).join(", ")
    ))
}

/// Runs one call of the tool against a graph store and renders it: the text the model
/// sees, with the answer as the output's (or the error's) detail.
pub fn run(store: &dyn GraphStore, a: &CodeArgs) -> Result<ToolOutput, ToolError> {
    super::render::output(answer(store, a)?)
}

/// Answers one call against a graph store: the embedded [`CodeGraph`](super::CodeGraph),
/// or a shared server-backed store, alike because every lookup goes through the trait.
/// Arguments that do not fit the schema are the only errors.
pub fn answer(store: &dyn GraphStore, a: &CodeArgs) -> Result<CodeAnswer, ToolError> {
    let kind = match a.kind.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(k) => Some(Kind::parse(k).ok_or_else(|| invalid_kind(k))?),
    };
    let symbol = a.symbol.trim();
    if symbol.is_empty() {
        return Err(args::invalid(
            "code",
            "`symbol` is empty; give a name like \"Plan\", \"Planner.Plan\" or a glob like \"*Issue*\"",
            &FIELDS,
            EXAMPLE,
        ));
    }
    let op = a.operation;
    if a.depth.is_some() && !matches!(op, Operation::Callers | Operation::Callees) {
        return Err(args::invalid(
            "code",
            &format!("`depth` applies to callers and callees only, not {op}"),
            &FIELDS,
            EXAMPLE,
        ));
    }
    let depth = a.depth.unwrap_or(1);
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(args::invalid(
            "code",
            &format!("`depth` must be from 1 to {MAX_DEPTH}, got {depth}"),
            &FIELDS,
            EXAMPLE,
        ));
    }
    if a.to.is_some() != (op == Operation::Trace) {
        let problem = if op == Operation::Trace {
            "trace needs `to`, the function or method the path should reach"
        } else {
            "`to` applies to trace only"
        };
        return Err(args::invalid(
            "code",
            problem,
            &FIELDS,
            r#"{"operation":"trace","symbol":"HandleWebhook","to":"Plan"}"#,
        ));
    }
    let q = SymbolQuery {
        symbol: symbol.to_string(),
        kind,
        file: a.file.clone().filter(|f| !f.trim().is_empty()),
    };
    Ok(match op {
        Operation::Find => find(store, &q),
        Operation::Trace => trace(store, &q, a.to.as_deref().unwrap_or("")),
        _ => match query::resolve(store, &q, op.role()) {
            Resolution::One { symbol, skipped } => {
                relation(store, op, &q, &symbol, &skipped, depth)
            }
            Resolution::NotFound { .. } | Resolution::WrongKind(_)
                if op == Operation::Implementations
                    && let Some(std) = stdlib::lookup(&q.symbol) =>
            {
                standard_implementations(store, &q, std)
            }
            other => unresolved(op, &q, other),
        },
    })
}

/// `implementations` of a standard-library interface the repository does not define: the
/// Go types whose methods include its method set.
fn standard_implementations(
    store: &dyn GraphStore,
    q: &SymbolQuery,
    std: &stdlib::StdInterface,
) -> CodeAnswer {
    let list = query::method_set_matches(store, std.methods);
    CodeAnswer::Found(Found {
        operation: Operation::Implementations,
        asked: asked(q),
        target: None,
        also: Vec::new(),
        depth: 0,
        sections: vec![section(Relation::Implementations, related_items(&list))],
        more_partial: 0,
        partial_graph: None,
        standard: Some(Box::new(StandardInterface {
            name: std.written(),
            package: std.package.to_string(),
            methods: std.methods.iter().map(|m| m.to_string()).collect(),
        })),
    })
}

fn asked(q: &SymbolQuery) -> Asked {
    Asked {
        symbol: q.symbol.clone(),
        kind: q.kind,
        file: q.file.clone(),
    }
}

fn items(matches: &[Match]) -> Vec<Item> {
    matches.iter().map(|m| Item::of(&m.symbol)).collect()
}

/// The answer for a name that did not resolve to one symbol.
fn unresolved(op: Operation, q: &SymbolQuery, r: Resolution) -> CodeAnswer {
    match r {
        // `One` is answered by the caller; it never reaches here.
        Resolution::One { .. } | Resolution::NotFound { .. } => {
            let near = match &r {
                Resolution::NotFound { near } => items(near),
                _ => Vec::new(),
            };
            CodeAnswer::NotFound(NotFound {
                operation: op,
                asked: asked(q),
                near,
            })
        }
        Resolution::WrongKind(found) => {
            let s = &found[0].symbol;
            let instead = if op == Operation::Trace {
                Vec::new()
            } else if s.kind.is_type() {
                vec![Operation::Usages, Operation::Methods]
            } else if s.kind.is_callable() {
                vec![Operation::Callers, Operation::Callees]
            } else if Role::Used.accepts(s) {
                vec![Operation::Usages]
            } else {
                Vec::new()
            };
            CodeAnswer::WrongKind(WrongKind {
                operation: op,
                item: Item::of(s),
                instead,
            })
        }
        Resolution::Ambiguous(cands) => CodeAnswer::Ambiguous(Ambiguous {
            operation: op,
            asked: asked(q),
            narrow: narrow(q, &cands),
            candidates: items(&cands),
        }),
    }
}

/// The arguments that pick the first of several candidates.
fn narrow(q: &SymbolQuery, cands: &[Match]) -> Narrow {
    let first = &cands[0].symbol;
    let display_unique = cands[1..].iter().all(|c| c.symbol.display != first.display);
    let symbol = if display_unique && first.display != q.symbol {
        first.display.clone()
    } else {
        short_qualified(first)
    };
    let dir = dir_of(&first.path);
    let file = if cands[1..].iter().all(|o| dir_of(&o.symbol.path) != dir) {
        dir.to_string()
    } else {
        first.path.clone()
    };
    Narrow { symbol, file }
}

pub(crate) fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(d, _)| d)
}

/// `brain.Planner.Plan`: the display name qualified by the last element of its package.
fn short_qualified(s: &Symbol) -> String {
    let prefix = s
        .qname
        .strip_suffix(&s.display)
        .and_then(|p| p.strip_suffix('.'))
        .unwrap_or("");
    let last = prefix.rsplit(['/', '.']).next().unwrap_or("");
    if last.is_empty() {
        s.display.clone()
    } else {
        format!("{last}.{}", s.display)
    }
}

fn find(store: &dyn GraphStore, q: &SymbolQuery) -> CodeAnswer {
    let all = query::find(store, q, true);
    if all.is_empty() {
        return CodeAnswer::NotFound(NotFound {
            operation: Operation::Find,
            asked: asked(q),
            near: Vec::new(),
        });
    }
    let (named, partial): (Vec<&Match>, Vec<&Match>) = all.iter().partition(|m| m.tier < 2);
    let mut found = Found {
        operation: Operation::Find,
        asked: asked(q),
        target: None,
        also: Vec::new(),
        depth: 0,
        sections: Vec::new(),
        more_partial: 0,
        partial_graph: None,
        standard: None,
    };
    let (shown, relation) = if named.is_empty() {
        (partial, Relation::PartialMatches)
    } else {
        found.more_partial = partial.len();
        (named, Relation::Definitions)
    };
    if shown.len() == 1 && found.more_partial == 0 {
        found.target = Some(Item::described(&shown[0].symbol));
    } else {
        // Definitions carry their signatures in the typed answer (the engine orders them by
        // visibility; the text lists names and places only).
        let item = |s: &Symbol| match relation {
            Relation::Definitions => Item {
                signature: Some(s.signature.clone()).filter(|x| !x.is_empty()),
                ..Item::of(s)
            },
            _ => Item::of(s),
        };
        found.sections.push(Section {
            relation,
            through: None,
            total: shown.len(),
            items: shown.iter().map(|m| item(&m.symbol)).collect(),
        });
    }
    CodeAnswer::Found(found)
}

fn related_items(list: &[Related]) -> Vec<Item> {
    list.iter()
        .map(|r| Item {
            via: r.via.as_ref().map(|v| v.display.clone()),
            ..Item::of(&r.symbol)
        })
        .collect()
}

fn section(relation: Relation, items: Vec<Item>) -> Section {
    Section {
        relation,
        through: None,
        total: items.len(),
        items,
    }
}

fn relation(
    store: &dyn GraphStore,
    op: Operation,
    q: &SymbolQuery,
    m: &Match,
    skipped: &[Match],
    depth: u32,
) -> CodeAnswer {
    let s = &m.symbol;
    let mut sections = Vec::new();
    match op {
        Operation::Callers | Operation::Callees => {
            let up = op == Operation::Callers;
            let walk = if up {
                query::callers(store, m.id, depth)
            } else {
                query::callees(store, m.id, depth)
            };
            // Callees' call lines are in the calling function's file: the parent in the walk.
            let mut parents: Vec<String> = vec![s.path.clone()];
            let items = walk
                .hops
                .iter()
                .map(|hop| {
                    parents.truncate(hop.depth as usize);
                    let call_path = if up {
                        hop.symbol.path.clone()
                    } else {
                        parents.last().cloned().unwrap_or_else(|| s.path.clone())
                    };
                    parents.push(hop.symbol.path.clone());
                    Item {
                        calls: hop.lines.clone(),
                        call_path: Some(call_path),
                        depth: hop.depth,
                        inferred: hop.inferred,
                        rivals: hop.rivals,
                        ..Item::of(&hop.symbol)
                    }
                })
                .collect();
            sections.push(Section {
                relation: if up {
                    Relation::Callers
                } else {
                    Relation::Callees
                },
                through: None,
                items,
                total: walk.total,
            });
            if up {
                for parent in query::dispatch_parents(store, m.id).iter().take(3) {
                    let walk = query::callers(store, parent.id, 1);
                    if walk.hops.is_empty() {
                        continue;
                    }
                    let items = caller_items(&walk);
                    sections.push(Section {
                        relation: Relation::Through,
                        through: Some(Item::of(&parent.symbol)),
                        items,
                        total: walk.total,
                    });
                }
            }
        }
        Operation::Implementations => {
            let (relation, list) = match s.kind {
                Kind::Interface => (
                    Relation::Implementations,
                    query::implementations(store, m.id),
                ),
                Kind::Class => (Relation::Subclasses, query::implementations(store, m.id)),
                _ => (Relation::Implements, query::implemented_by(store, m.id)),
            };
            sections.push(section(relation, related_items(&list)));
        }
        Operation::Methods => {
            sections.push(section(
                Relation::Methods,
                related_items(&query::methods(store, m.id)),
            ));
        }
        Operation::Usages if !s.kind.is_type() => {
            // A module-level variable or constant: each reader cited where it reads or assigns.
            let items = query::readers(store, m.id)
                .into_iter()
                .map(|(r, lines)| Item {
                    call_path: Some(r.symbol.path.clone()),
                    calls: lines,
                    ..Item::of(&r.symbol)
                })
                .collect();
            sections.push(section(Relation::UsedBy, items));
        }
        Operation::Usages => {
            // A type is used where it is called (constructed, raised, converted to) as
            // well as where a signature names it; the calls first, each at its lines.
            let walk = query::callers(store, m.id, 1);
            if !walk.hops.is_empty() {
                let items = caller_items(&walk);
                sections.push(Section {
                    relation: Relation::Constructions,
                    through: None,
                    items,
                    total: walk.total,
                });
            }
            sections.push(section(
                Relation::UsedBy,
                related_items(&query::usages(store, m.id)),
            ));
            let references: Vec<Item> = query::type_references(store, m.id)
                .into_iter()
                .map(|(r, lines)| Item {
                    call_path: Some(r.symbol.path.clone()),
                    calls: lines,
                    ..Item::of(&r.symbol)
                })
                .collect();
            if !references.is_empty() {
                sections.push(section(Relation::References, references));
            }
            // A class is also used where another class names it as its base
            // (`class _UnboundTTLCache(TTLCache)`): its direct subclasses, at their
            // headers. The indirect ones name another class.
            if s.kind == Kind::Class {
                let direct: Vec<query::Related> = query::implementations(store, m.id)
                    .into_iter()
                    .filter(|r| r.via.is_none())
                    .collect();
                if !direct.is_empty() {
                    sections.push(section(Relation::Subclasses, related_items(&direct)));
                }
            }
        }
        Operation::Find | Operation::Trace => {}
    }
    CodeAnswer::Found(Found {
        operation: op,
        asked: asked(q),
        target: Some(Item::of(s)),
        also: items(skipped),
        depth: if matches!(op, Operation::Callers | Operation::Callees) {
            depth
        } else {
            0
        },
        sections,
        more_partial: 0,
        partial_graph: None,
        standard: None,
    })
}

/// The callers of a walk, each cited at its call lines in its own file.
fn caller_items(walk: &query::Walk) -> Vec<Item> {
    walk.hops
        .iter()
        .map(|hop| Item {
            calls: hop.lines.clone(),
            call_path: Some(hop.symbol.path.clone()),
            depth: hop.depth,
            inferred: hop.inferred,
            ..Item::of(&hop.symbol)
        })
        .collect()
}

fn trace(store: &dyn GraphStore, q: &SymbolQuery, to: &str) -> CodeAnswer {
    let ends = |q: &SymbolQuery| -> Result<Vec<Match>, Box<CodeAnswer>> {
        match query::resolve(store, q, Role::Callable) {
            Resolution::One { symbol, .. } => Ok(vec![symbol]),
            Resolution::Ambiguous(c) => Ok(c),
            other => Err(Box::new(unresolved(Operation::Trace, q, other))),
        }
    };
    let from = match ends(q) {
        Ok(v) => v,
        Err(answer) => return *answer,
    };
    // The target is resolved without the start's filters.
    let tq = SymbolQuery::new(to.trim());
    let targets = match ends(&tq) {
        Ok(v) => v,
        Err(answer) => return *answer,
    };
    let ids = |m: &[Match]| m.iter().map(|m| m.id).collect::<Vec<SymbolId>>();
    let Some(steps) = query::trace(store, &ids(&from), &ids(&targets)) else {
        return CodeAnswer::NoPath(NoPath {
            from: items(&from),
            to: items(&targets),
            asked_from: q.symbol.clone(),
            asked_to: to.trim().to_string(),
        });
    };
    let mut prev_path: Option<String> = None;
    let items = steps
        .iter()
        .map(|st| {
            let item = Item {
                calls: prev_path
                    .as_ref()
                    .map(|_| vec![st.call_line])
                    .unwrap_or_default(),
                call_path: prev_path.clone(),
                inferred: st.inferred,
                ..Item::of(&st.symbol)
            };
            prev_path = Some(st.symbol.path.clone());
            item
        })
        .collect();
    CodeAnswer::Found(Found {
        operation: Operation::Trace,
        asked: asked(q),
        target: None,
        also: Vec::new(),
        depth: 0,
        sections: vec![section(Relation::Path, items)],
        more_partial: 0,
        partial_graph: None,
        standard: None,
    })
}
