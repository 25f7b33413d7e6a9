//! The queries behind the `code` tool's operations, written against [`GraphStore`] so that
//! every store answers them the same way.
//!
//! Names are resolved as the model writes them: `Plan`, `Planner.Plan`, `brain.Planner`,
//! `model.IssueStore`, Go's `(*Planner).Plan`, or a glob (`*Issue*`). Ranking: exact name
//! (case-sensitive), then case-insensitive, then partial; within each, first-party source
//! before tests before vendored and generated code; then by path and line.

use std::collections::{HashMap, HashSet, VecDeque};

use super::goshape;
use super::model::{EdgeKind, Kind, Language, Symbol, SymbolId};
use super::params;
use super::store::{GraphStore, NameMatch};

/// At most this many results are shown; the rest are counted.
pub const MAX_RESULTS: usize = 15;
/// Deepest `callers`/`callees` walk.
pub const MAX_DEPTH: u32 = 3;
/// Longest call path `trace` looks for.
pub const MAX_TRACE: usize = 8;

/// What the model asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SymbolQuery {
    /// The name as written: `Plan`, `Planner.Plan`, `pkg.Name`, `*Issue*`.
    pub symbol: String,
    /// Only symbols of this kind.
    pub kind: Option<Kind>,
    /// Only symbols whose path ends with (or has a directory ending with) this.
    pub file: Option<String>,
}

impl SymbolQuery {
    /// A query for `symbol` with no filters.
    pub fn new(symbol: impl Into<String>) -> Self {
        SymbolQuery {
            symbol: symbol.into(),
            ..Default::default()
        }
    }

    /// The same query restricted to a kind.
    pub fn kind(mut self, kind: Kind) -> Self {
        self.kind = Some(kind);
        self
    }

    /// The same query restricted to a path.
    pub fn file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }
}

/// One symbol that matched, with how well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// Its id.
    pub id: SymbolId,
    /// The symbol.
    pub symbol: Symbol,
    /// 0 exact, 1 exact ignoring case, 2 partial.
    pub tier: u8,
}

/// The name part and the qualifier of a query (`Planner.Plan` → (`Planner`, `Plan`)).
fn split_query(raw: &str) -> (Option<String>, String) {
    let mut s = raw.trim().trim_end_matches("()").to_string();
    // Go method expressions: `(*Planner).Plan`, `brain.(*Planner).Plan`.
    s = s
        .replace("(*", "")
        .replace(").", ".")
        .replace(['(', ')'], "");
    match s.rsplit_once('.') {
        Some((q, n)) if !q.is_empty() && !n.is_empty() => (Some(q.to_string()), n.to_string()),
        _ => (None, s.trim_matches('.').to_string()),
    }
}

fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Whether `path` is selected by a `file` filter: a path suffix, or a directory suffix.
pub fn file_matches(path: &str, filter: &str) -> bool {
    let f = filter.trim().trim_start_matches("./").trim_end_matches('/');
    if f.is_empty() {
        return true;
    }
    path == f
        || path.ends_with(&format!("/{f}"))
        || path.starts_with(&format!("{f}/"))
        || path.contains(&format!("/{f}/"))
        || (f.contains('.') && path.ends_with(f))
}

fn owner_of(s: &Symbol) -> &str {
    s.qname
        .strip_suffix(&s.name)
        .and_then(|o| o.strip_suffix('.'))
        .unwrap_or("")
}

fn qualifier_matches(s: &Symbol, q: &str, ignore_case: bool) -> bool {
    let owner = owner_of(s);
    let (owner, q) = if ignore_case {
        (owner.to_ascii_lowercase(), q.to_ascii_lowercase())
    } else {
        (owner.to_string(), q.to_string())
    };
    owner == q || owner.ends_with(&format!(".{q}")) || owner.ends_with(&format!("/{q}"))
}

/// The case-exact matcher of a glob query, compiled once per query (not per candidate:
/// a `*Client*` over thousands of matches spent most of its time compiling).
fn exact_glob(pattern: &str) -> Option<globset::GlobMatcher> {
    globset::Glob::new(pattern)
        .ok()
        .map(|g| g.compile_matcher())
}

/// Every symbol matching the query, best first. Partial matches are included only when
/// `partial` is set (for `find`; relationship queries want the symbol named). A parameter
/// list (`Interpreter.eval(String)`) keeps the callables whose parameters match it
/// ([`params`]), when there are any; otherwise it is ignored.
pub fn find(store: &dyn GraphStore, q: &SymbolQuery, partial: bool) -> Vec<Match> {
    let (symbol, list) = params::split(&q.symbol);
    let mut out = find_named(store, symbol, q, partial);
    if let Some(list) = list
        && out
            .iter()
            .any(|m| params::matches(&m.symbol, &list) == Some(true))
    {
        out.retain(|m| params::matches(&m.symbol, &list) == Some(true));
    }
    out
}

fn find_named(store: &dyn GraphStore, symbol: &str, q: &SymbolQuery, partial: bool) -> Vec<Match> {
    let (qualifier, name) = split_query(symbol);
    if name.is_empty() {
        return Vec::new();
    }
    // `&[u8]` (a Rust implementor named by its type) is a name before it is a glob.
    let glob = is_glob(&name)
        && (name.contains(['*', '?'])
            || store.find_names(&NameMatch::Exact(name.clone())).is_empty());
    let exact = if glob { exact_glob(&name) } else { None };
    let mut ids: Vec<SymbolId> = if glob {
        store.find_names(&NameMatch::Glob(name.clone()))
    } else if partial {
        store.find_names(&NameMatch::Contains(name.clone()))
    } else {
        store.find_names(&NameMatch::Exact(name.clone()))
    };
    ids.sort_unstable();
    ids.dedup();
    let mut out = Vec::new();
    for id in ids {
        let Some(s) = store.symbol(id) else { continue };
        if q.kind.is_some_and(|k| k != s.kind) {
            continue;
        }
        if let Some(f) = &q.file
            && !file_matches(&s.path, f)
        {
            continue;
        }
        let (name_exact, name_ci) = if glob {
            (exact.as_ref().is_some_and(|m| m.is_match(&s.name)), true)
        } else {
            (s.name == name, s.name.eq_ignore_ascii_case(&name))
        };
        let (qual_exact, qual_ci) = match &qualifier {
            Some(qq) => (
                qualifier_matches(&s, qq, false),
                qualifier_matches(&s, qq, true),
            ),
            None => (true, true),
        };
        if !qual_ci {
            continue;
        }
        let tier = if name_exact && qual_exact {
            0
        } else if name_ci {
            1
        } else {
            2
        };
        out.push(Match {
            id,
            symbol: s,
            tier,
        });
    }
    out.sort_by(|a, b| {
        (a.tier, a.symbol.rank_class(), &a.symbol.path, a.symbol.line).cmp(&(
            b.tier,
            b.symbol.rank_class(),
            &b.symbol.path,
            b.symbol.line,
        ))
    });
    out
}

/// Which kinds an operation works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Anything.
    Any,
    /// Functions and methods (callers, callees, trace).
    Callable,
    /// Types (methods, usages).
    Type,
    /// Types, interfaces and classes first (implementations).
    Abstract,
    /// Types, and Go's package-level variables and constants, whose reads the graph
    /// records (usages).
    Used,
}

impl Role {
    /// Whether the operation works on this symbol (by its kind; `usages` of a variable
    /// or constant only in Go, the one language whose reads the graph records).
    pub fn accepts(self, s: &Symbol) -> bool {
        let k = s.kind;
        match self {
            Role::Any => true,
            Role::Callable => k.is_callable(),
            Role::Type | Role::Abstract => k.is_type(),
            Role::Used => {
                k.is_type()
                    || (matches!(k, Kind::Var | Kind::Const)
                        && Language::of_path(&s.path).is_some_and(Language::tracks_reads))
            }
        }
    }

    /// Among several candidates, whether this kind wins outright.
    fn prefers(self, k: Kind) -> bool {
        self == Role::Abstract && matches!(k, Kind::Interface | Kind::Class)
    }

    /// How the role is described in messages.
    pub fn describe(self) -> &'static str {
        match self {
            Role::Any => "symbol",
            Role::Callable => "function or method",
            Role::Type | Role::Abstract => "type (struct, interface, class or type)",
            Role::Used => {
                "type (struct, interface, class or type) or Go, Python, TypeScript, JavaScript or Rust variable or constant"
            }
        }
    }
}

/// The outcome of resolving a name to one symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// One symbol. `skipped` are same-named symbols in tests, vendored or generated code
    /// that lost to it, so the output can say they exist.
    One {
        /// The symbol chosen.
        symbol: Match,
        /// Same-named candidates outside first-party source that were set aside.
        skipped: Vec<Match>,
    },
    /// Several candidates of equal standing.
    Ambiguous(Vec<Match>),
    /// Candidates exist but none of a kind the operation works on.
    WrongKind(Vec<Match>),
    /// Nothing by that name; `near` are partial matches worth suggesting.
    NotFound {
        /// Partial matches.
        near: Vec<Match>,
    },
}

/// Resolves the query to one symbol the operation can work on.
pub fn resolve(store: &dyn GraphStore, q: &SymbolQuery, role: Role) -> Resolution {
    let all = find(store, q, false);
    let best_tier = all.iter().map(|m| m.tier).min();
    let named: Vec<Match> = all
        .into_iter()
        .filter(|m| Some(m.tier) == best_tier)
        .collect();
    if named.is_empty() {
        let near = find(store, q, true).into_iter().take(3).collect();
        return Resolution::NotFound { near };
    }
    let (fit, unfit): (Vec<Match>, Vec<Match>) =
        named.into_iter().partition(|m| role.accepts(&m.symbol));
    if fit.is_empty() {
        return Resolution::WrongKind(unfit);
    }
    if fit.len() == 1 {
        let mut fit = fit;
        let symbol = fit.remove(0);
        return Resolution::One {
            symbol,
            skipped: Vec::new(),
        };
    }
    let preferred = fit.iter().filter(|m| role.prefers(m.symbol.kind)).count();
    let mut fit: Vec<Match> = if preferred > 0 {
        fit.into_iter()
            .filter(|m| role.prefers(m.symbol.kind))
            .collect()
    } else {
        fit
    };
    if fit.len() == 1
        && let Some(symbol) = fit.pop()
    {
        return Resolution::One {
            symbol,
            skipped: Vec::new(),
        };
    }
    let (mut source, mut other): (Vec<Match>, Vec<Match>) =
        fit.into_iter().partition(|m| m.symbol.is_source());
    if source.len() == 1
        && let Some(symbol) = source.pop()
    {
        return Resolution::One {
            symbol,
            skipped: other,
        };
    }
    if source.is_empty()
        && other.len() == 1
        && let Some(symbol) = other.pop()
    {
        return Resolution::One {
            symbol,
            skipped: Vec::new(),
        };
    }
    source.extend(other);
    Resolution::Ambiguous(source)
}

/// One step of a `callers`/`callees` walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// The caller (for callers) or the callee (for callees).
    pub id: SymbolId,
    /// The symbol.
    pub symbol: Symbol,
    /// Every call site linking the pair, ascending: lines in the caller's file for
    /// callers, in the calling function's file for callees.
    pub lines: Vec<u32>,
    /// Distance from the start, 1-based.
    pub depth: u32,
    /// The edge was guessed from the method name alone.
    pub inferred: bool,
    /// For a guessed caller: how many other methods the same guess chose at its call
    /// site (every method of the name, `self.shell.run_cell(…)` → three `run_cell`s);
    /// 0 when the name has one method, or the call was not guessed.
    pub rivals: u32,
}

impl Hop {
    /// The first call site.
    pub fn line(&self) -> u32 {
        self.lines.first().copied().unwrap_or(0)
    }
}

/// A walk along call edges, in tree order (each hop followed by its own hops).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Walk {
    /// The hops, at most [`Walk::LIMIT`].
    pub hops: Vec<Hop>,
    /// How many hops there are in all (each symbol counted once).
    pub total: usize,
}

impl Walk {
    /// Most hops collected.
    pub const LIMIT: usize = 200;
}

/// Who calls `id`, `depth` levels up (1 to [`MAX_DEPTH`]).
pub fn callers(store: &dyn GraphStore, id: SymbolId, depth: u32) -> Walk {
    walk_calls(store, id, depth, true)
}

/// What `id` calls, `depth` levels down (1 to [`MAX_DEPTH`]).
pub fn callees(store: &dyn GraphStore, id: SymbolId, depth: u32) -> Walk {
    walk_calls(store, id, depth, false)
}

fn walk_calls(store: &dyn GraphStore, id: SymbolId, depth: u32, up: bool) -> Walk {
    let depth = depth.clamp(1, MAX_DEPTH);
    let mut walk = Walk::default();
    let mut seen = HashSet::from([id]);
    #[allow(clippy::too_many_arguments)]
    fn go(
        store: &dyn GraphStore,
        root: SymbolId,
        at: SymbolId,
        level: u32,
        max: u32,
        up: bool,
        seen: &mut HashSet<SymbolId>,
        walk: &mut Walk,
    ) {
        let page = if up {
            store.edges_in(at, EdgeKind::Calls, usize::MAX)
        } else {
            store.edges_out(at, EdgeKind::Calls, usize::MAX)
        };
        // Group call sites by the other end, keeping the first site.
        let mut order: Vec<SymbolId> = Vec::new();
        let mut groups: HashMap<SymbolId, (Vec<u32>, bool)> = HashMap::new();
        for e in page.edges {
            let other = if up { e.from } else { e.to };
            let g = groups.entry(other).or_insert_with(|| {
                order.push(other);
                (Vec::new(), e.inferred)
            });
            g.0.push(e.line);
            g.1 &= e.inferred;
        }
        let mut hops: Vec<Hop> = order
            .into_iter()
            .filter_map(|o| {
                let (mut lines, inferred) = groups.remove(&o)?;
                lines.sort_unstable();
                let rivals = if up && inferred {
                    let others: HashSet<SymbolId> = store
                        .edges_out(o, EdgeKind::Calls, usize::MAX)
                        .edges
                        .iter()
                        .filter(|e| e.inferred && e.to != at && lines.contains(&e.line))
                        .map(|e| e.to)
                        .collect();
                    others.len() as u32
                } else {
                    0
                };
                Some(Hop {
                    id: o,
                    symbol: store.symbol(o)?,
                    lines,
                    depth: level,
                    inferred,
                    rivals,
                })
            })
            .collect();
        hops.sort_by(|a, b| {
            (a.inferred, a.symbol.rank_class(), &a.symbol.path, a.line()).cmp(&(
                b.inferred,
                b.symbol.rank_class(),
                &b.symbol.path,
                b.line(),
            ))
        });
        for hop in hops {
            // A recursive call (`c.Root().ExecuteC()` inside `ExecuteC`) is a call site
            // like any other; the symbol is not walked again.
            let recursive = level == 1 && hop.id == root;
            if !recursive && !seen.insert(hop.id) {
                continue;
            }
            walk.total += 1;
            let next = hop.id;
            if walk.hops.len() < Walk::LIMIT {
                walk.hops.push(hop);
            }
            if level < max && !recursive {
                go(store, root, next, level + 1, max, up, seen, walk);
            }
        }
    }
    // Only symbols fewer than `depth` calls away are expanded.
    store.prefetch_calls(&[id], depth - 1, up);
    go(store, id, id, 1, depth, up, &mut seen, &mut walk);
    walk
}

/// A type related to another: an implementation, a method, a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// Its id.
    pub id: SymbolId,
    /// The symbol.
    pub symbol: Symbol,
    /// For indirect subclasses, the class it inherits through.
    pub via: Option<Symbol>,
}

fn related(store: &dyn GraphStore, id: SymbolId, via: Option<Symbol>) -> Option<Related> {
    Some(Related {
        id,
        symbol: store.symbol(id)?,
        via,
    })
}

fn rank_related(v: &mut [Related]) {
    v.sort_by(|a, b| {
        (
            a.symbol.rank_class(),
            a.via.is_some(),
            &a.symbol.path,
            a.symbol.line,
        )
            .cmp(&(
                b.symbol.rank_class(),
                b.via.is_some(),
                &b.symbol.path,
                b.symbol.line,
            ))
    });
}

/// What implements an interface, or subclasses a class (indirect subclasses included,
/// with the class they inherit through); real code before tests, vendored, generated.
pub fn implementations(store: &dyn GraphStore, id: SymbolId) -> Vec<Related> {
    let mut out = Vec::new();
    let mut seen = HashSet::from([id]);
    let mut queue = VecDeque::from([(id, None::<Symbol>)]);
    while let Some((at, _)) = queue.pop_front() {
        let via = if at == id { None } else { store.symbol(at) };
        for e in store.edges_in(at, EdgeKind::Implements, usize::MAX).edges {
            if !go_shapes_agree(store, e.from, at) {
                continue;
            }
            if seen.insert(e.from)
                && let Some(mut r) = related(store, e.from, via.clone())
            {
                // A Rust type implements a trait in its `impl Trait for Type` block, which
                // is where the trait's methods are: cite that line (the edge's, set only
                // when the block is in the type's file).
                if e.line != r.symbol.line
                    && store
                        .file(r.symbol.file)
                        .is_some_and(|f| f.language == Language::Rust)
                {
                    r.symbol.line = e.line;
                    r.symbol.end_line = e.line;
                }
                // Go interfaces are satisfied directly; class hierarchies and interfaces
                // that extend interfaces (TypeScript) go deeper.
                if matches!(r.symbol.kind, Kind::Class | Kind::Interface) {
                    queue.push_back((e.from, None));
                }
                out.push(r);
            }
        }
    }
    rank_related(&mut out);
    out
}

/// The interfaces a type satisfies, or the classes a class extends (directly).
pub fn implemented_by(store: &dyn GraphStore, id: SymbolId) -> Vec<Related> {
    let mut out: Vec<Related> = store
        .edges_out(id, EdgeKind::Implements, usize::MAX)
        .edges
        .into_iter()
        .filter(|e| go_shapes_agree(store, id, e.to))
        .filter_map(|e| related(store, e.to, None))
        .collect();
    rank_related(&mut out);
    out
}

/// Whether Go type `t` may implement interface `i` once the shapes of their methods are
/// compared ([`goshape`]): the link matched them by method names, and a method of the
/// interface's name with another parameter or result count (`NamedStmt.Query(arg)` for
/// `Queryer.Query(query, args...)`) is not that method. Methods promoted from embedded
/// types, and shapes a signature line does not hold, are not compared. True for every
/// other language's pairs: there the code names what it implements.
fn go_shapes_agree(store: &dyn GraphStore, t: SymbolId, i: SymbolId) -> bool {
    let Some(iface) = store.symbol(i) else {
        return true;
    };
    if iface.kind != Kind::Interface
        || store
            .file(iface.file)
            .is_none_or(|f| f.language != Language::Go)
    {
        return true;
    }
    let mine = own_methods(store, t);
    own_methods(store, i).iter().all(|m| {
        let Some(theirs) = mine.iter().find(|x| x.symbol.name == m.symbol.name) else {
            return true;
        };
        match (
            goshape::of_signature(&m.symbol.signature),
            goshape::of_signature(&theirs.symbol.signature),
        ) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
    })
}

/// The methods of a type, in source order (Go: both receiver kinds, any file); for a
/// class, then the methods it inherits and does not override, nearest base first, each
/// with the class it comes from as `via`.
pub fn methods(store: &dyn GraphStore, id: SymbolId) -> Vec<Related> {
    let mut out = own_methods(store, id);
    if store.symbol(id).is_none_or(|s| s.kind != Kind::Class) {
        return out;
    }
    let mut names: HashSet<String> = out.iter().map(|r| r.symbol.name.clone()).collect();
    let mut seen = HashSet::from([id]);
    let mut queue = VecDeque::from([id]);
    while let Some(at) = queue.pop_front() {
        for e in store.edges_out(at, EdgeKind::Implements, usize::MAX).edges {
            if !seen.insert(e.to) {
                continue;
            }
            queue.push_back(e.to);
            let Some(base) = store.symbol(e.to) else {
                continue;
            };
            for mut r in own_methods(store, e.to) {
                if names.insert(r.symbol.name.clone()) {
                    r.via = Some(base.clone());
                    out.push(r);
                }
            }
        }
    }
    out
}

/// A type's own methods (not inherited ones), in source order.
fn own_methods(store: &dyn GraphStore, t: SymbolId) -> Vec<Related> {
    let mut v: Vec<Related> = store
        .edges_out(t, EdgeKind::Contains, usize::MAX)
        .edges
        .into_iter()
        .filter_map(|e| related(store, e.to, None))
        .filter(|r| r.symbol.kind.is_callable())
        .collect();
    v.sort_by(|a, b| (&a.symbol.path, a.symbol.line).cmp(&(&b.symbol.path, b.symbol.line)));
    v
}

/// The methods a method stands in for when called through an abstraction: the
/// same-named method of each interface its type satisfies (Go) or of each ancestor class
/// (Python). Callers of those may reach this method at run time.
pub fn dispatch_parents(store: &dyn GraphStore, id: SymbolId) -> Vec<Related> {
    let Some(me) = store.symbol(id) else {
        return Vec::new();
    };
    let Some(owner) = store
        .edges_in(id, EdgeKind::Contains, 1)
        .edges
        .first()
        .map(|e| e.from)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut seen = HashSet::from([owner]);
    let mut queue = VecDeque::from([owner]);
    while let Some(t) = queue.pop_front() {
        for e in store.edges_out(t, EdgeKind::Implements, usize::MAX).edges {
            if !go_shapes_agree(store, t, e.to) || !seen.insert(e.to) {
                continue;
            }
            queue.push_back(e.to);
            for m in store.edges_out(e.to, EdgeKind::Contains, usize::MAX).edges {
                if let Some(r) = related(store, m.to, None)
                    && r.symbol.name == me.name
                {
                    out.push(r);
                }
            }
        }
    }
    rank_related(&mut out);
    out
}

/// Go types (structs and named types) whose methods include every one of `methods`, by
/// name: the implementations of an interface the repository does not define
/// ([`super::stdlib`]). Methods promoted from embedded types are not seen (the store
/// keeps no embedding edges).
pub fn method_set_matches(store: &dyn GraphStore, methods: &[&str]) -> Vec<Related> {
    let mut owners: Option<HashSet<SymbolId>> = None;
    for &m in methods {
        let mut have = HashSet::new();
        for id in store.find_names(&NameMatch::Exact(m.to_string())) {
            let Some(s) = store.symbol(id) else { continue };
            if s.kind != Kind::Method
                || s.name != m
                || Language::of_path(&s.path) != Some(Language::Go)
            {
                continue;
            }
            for e in store.edges_in(id, EdgeKind::Contains, usize::MAX).edges {
                have.insert(e.from);
            }
        }
        let next: HashSet<SymbolId> = match owners {
            None => have,
            Some(o) => o.intersection(&have).copied().collect(),
        };
        let done = next.is_empty();
        owners = Some(next);
        if done {
            break;
        }
    }
    let mut out: Vec<Related> = owners
        .unwrap_or_default()
        .into_iter()
        .filter_map(|t| related(store, t, None))
        .filter(|r| matches!(r.symbol.kind, Kind::Struct | Kind::Type))
        .collect();
    rank_related(&mut out);
    out
}

/// What reads or assigns a module-level variable or constant (Go, Python, TypeScript,
/// JavaScript, Rust), each with the lines where, ascending.
pub fn readers(store: &dyn GraphStore, id: SymbolId) -> Vec<(Related, Vec<u32>)> {
    let mut lines: HashMap<SymbolId, Vec<u32>> = HashMap::new();
    for e in store.edges_in(id, EdgeKind::Uses, usize::MAX).edges {
        lines.entry(e.from).or_default().push(e.line);
    }
    let mut out: Vec<(Related, Vec<u32>)> = lines
        .into_iter()
        .filter_map(|(from, mut ls)| {
            ls.sort_unstable();
            ls.dedup();
            Some((related(store, from, None)?, ls))
        })
        .collect();
    out.sort_by(|(a, al), (b, bl)| {
        (a.symbol.rank_class(), &a.symbol.path, al.first()).cmp(&(
            b.symbol.rank_class(),
            &b.symbol.path,
            bl.first(),
        ))
    });
    out
}

/// Functions and methods whose parameters or results name the type: its `Uses` edges at
/// the user's own line (a read in a body is at the line it reads, [`type_references`]).
pub fn usages(store: &dyn GraphStore, id: SymbolId) -> Vec<Related> {
    let mut out: Vec<Related> = store
        .edges_in(id, EdgeKind::Uses, usize::MAX)
        .edges
        .into_iter()
        .filter_map(|e| related(store, e.from, None).filter(|r| r.symbol.line == e.line))
        .collect();
    rank_related(&mut out);
    out
}

/// The functions that name the type as a value in their bodies (a `case` label, an
/// `instanceof`, `isinstance`, an `except` clause), each with the lines where, ascending:
/// the `Uses` edges at another line than the user's own.
pub fn type_references(store: &dyn GraphStore, id: SymbolId) -> Vec<(Related, Vec<u32>)> {
    readers(store, id)
        .into_iter()
        .filter_map(|(r, lines)| {
            let lines: Vec<u32> = lines.into_iter().filter(|&l| l != r.symbol.line).collect();
            (!lines.is_empty()).then_some((r, lines))
        })
        .collect()
}

/// One hop of a trace: the function reached and the call site in the previous one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceStep {
    /// The function or method reached.
    pub id: SymbolId,
    /// The symbol.
    pub symbol: Symbol,
    /// The line of the call in the previous step's file (0 for the first step).
    pub call_line: u32,
    /// The call edge was guessed from the method name.
    pub inferred: bool,
}

/// The shortest call path from any of `from` to any of `to` (at most [`MAX_TRACE`] calls),
/// preferring precise edges: inferred ones are used only when no precise path exists.
pub fn trace(store: &dyn GraphStore, from: &[SymbolId], to: &[SymbolId]) -> Option<Vec<TraceStep>> {
    store.prefetch_calls(from, MAX_TRACE as u32 - 1, false);
    bfs(store, from, to, false).or_else(|| bfs(store, from, to, true))
}

fn bfs(
    store: &dyn GraphStore,
    from: &[SymbolId],
    to: &[SymbolId],
    allow_inferred: bool,
) -> Option<Vec<TraceStep>> {
    let targets: HashSet<SymbolId> = to.iter().copied().collect();
    let mut prev: HashMap<SymbolId, (SymbolId, u32, bool)> = HashMap::new();
    let mut depth: HashMap<SymbolId, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    for &f in from {
        depth.insert(f, 0);
        queue.push_back(f);
    }
    let mut found = None;
    while let Some(at) = queue.pop_front() {
        if targets.contains(&at) {
            found = Some(at);
            break;
        }
        let d = depth[&at];
        if d >= MAX_TRACE {
            continue;
        }
        for e in store.edges_out(at, EdgeKind::Calls, usize::MAX).edges {
            if e.inferred && !allow_inferred {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(v) = depth.entry(e.to) {
                v.insert(d + 1);
                prev.insert(e.to, (at, e.line, e.inferred));
                queue.push_back(e.to);
            }
        }
    }
    let mut at = found?;
    let mut steps = Vec::new();
    loop {
        let (call_line, inferred, back) = match prev.get(&at) {
            Some(&(p, line, inf)) => (line, inf, Some(p)),
            None => (0, false, None),
        };
        steps.push(TraceStep {
            id: at,
            symbol: store.symbol(at)?,
            call_line,
            inferred,
        });
        match back {
            Some(p) => at = p,
            None => break,
        }
    }
    steps.reverse();
    Some(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_forms() {
        assert_eq!(split_query("Plan"), (None, "Plan".to_string()));
        assert_eq!(
            split_query("Planner.Plan"),
            (Some("Planner".to_string()), "Plan".to_string())
        );
        assert_eq!(
            split_query("(*Planner).Plan"),
            (Some("Planner".to_string()), "Plan".to_string())
        );
        assert_eq!(
            split_query("brain.(*Planner).Plan()"),
            (Some("brain.Planner".to_string()), "Plan".to_string())
        );
    }

    #[test]
    fn file_filter_forms() {
        let p = "internal/brain/planner.go";
        for f in [
            "internal/brain/planner.go",
            "planner.go",
            "internal/brain",
            "brain",
            "brain/",
        ] {
            assert!(file_matches(p, f), "{f}");
        }
        for f in ["rain", "task", "lanner.go/x"] {
            assert!(!file_matches(p, f), "{f}");
        }
    }
}
