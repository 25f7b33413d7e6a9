//! The first query on a repository never indexed: answered from the files that mention
//! the name asked for, not from a full index.
//!
//! Building the whole index of a large repository takes seconds to tens of seconds, most
//! of it parsing files the question never touches, while `rg` finds the name in a fraction
//! of a second. So when there is no cache yet, a query whose answer lives in the files that
//! contain a literal (`find` by name or by a glob with a literal part, `callers`/`callees`
//! at depth 1, `methods`, `usages`) is answered from a partial graph:
//!
//! 1. walk the repository with the index's rules and read every indexable file;
//! 2. keep those that contain the literal, ignoring ASCII case (every symbol a name, a
//!    glob or a partial match can select has the literal in its name, and every call site
//!    of a function is written with its name);
//! 3. for `callers`/`callees`, add the files that define what resolving those calls needs
//!    (receiver and field types, base classes, the callees and their result types), a few
//!    rounds deep;
//! 4. extract those files, link them together with every other file present as an empty
//!    module (so package paths, Python module names and package names come out as in the
//!    full index), and answer with [`tool::run`].
//!
//! `find`, `methods` and `usages` answer exactly as the full index would. A
//! `callers`/`callees` answer adds one line when some of the call sites it looked at could
//! not be resolved from the partial graph, since the full index might resolve them. The
//! partial graph is never written to the cache; [`FirstQuery`] builds the full index in
//! a background thread after the first partial answer, and later calls wait for it.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Mutex;
use std::thread::JoinHandle;

use aho_corasick::AhoCorasick;
use rayon::prelude::*;
use regex::bytes::Regex;

use super::answer::{CodeAnswer, PartialGraph};
use super::extract::{self, CallTarget, FileFacts, RawCall, RawSymbol, Recv, go_import_name};
use super::index::{self, Built, MAX_FILE_BYTES};
use super::link::{self, GraphData, Input};
use super::model::{EdgeKind, Kind, Language, SymbolId};
use super::store::CodeGraph;
use super::tool::{self, CodeArgs, Operation};
use crate::{ToolError, ToolOutput, secrets};

/// Rounds of "add the files that define what the resolution needs" for callers/callees:
/// a receiver's type, then its field's type, then that field's type.
const CLOSURE_ROUNDS: usize = 4;
/// Most files those rounds may add (or as many as mention the literal): beyond that the
/// partial graph would cost about as much as the full index, and the calls left
/// unresolved are announced instead.
const CLOSURE_FILES: usize = 300;

/// What a query needs besides the files that mention its literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// The definitions whose name contains the literal (`find`).
    Definitions,
    /// Those, and the Go methods declared on a type of that name (`methods`).
    Methods,
    /// Every file that mentions the name: its users' signatures (`usages`).
    Mentions,
    /// Also what resolves the calls named like the symbol, and its types' method sets.
    Callers,
    /// Also what resolves the calls made by the symbol.
    Callees,
}

/// The literal a query can be answered from, and what else it needs; `None` when the
/// query needs the whole graph (implementations, trace, depth above 1, globs without a
/// literal of 3 characters or more).
fn plan(a: &CodeArgs) -> Option<(String, Need)> {
    let need = match a.operation {
        Operation::Find => Need::Definitions,
        Operation::Methods if a.depth.is_none() => Need::Methods,
        Operation::Usages if a.depth.is_none() => Need::Mentions,
        Operation::Callers if a.depth.unwrap_or(1) == 1 => Need::Callers,
        Operation::Callees if a.depth.unwrap_or(1) == 1 => Need::Callees,
        _ => return None,
    };
    if a.to.is_some() {
        return None;
    }
    let name = bare_name(&a.symbol);
    let literal = if name.contains(['*', '?', '[']) {
        if need != Need::Definitions {
            return None;
        }
        glob_literal(&name)?
    } else {
        name
    };
    (!literal.is_empty() && literal.is_ascii()).then_some((literal, need))
}

/// The name part of a query as the query module reads it: `(*Planner).Plan` → `Plan`,
/// `model.IssueStore` → `IssueStore`, `Interpreter.eval(String)` → `eval`.
fn bare_name(symbol: &str) -> String {
    let s = super::params::split(symbol)
        .0
        .trim_end_matches("()")
        .replace("(*", "")
        .replace(").", ".")
        .replace(['(', ')'], "");
    match s.rsplit_once('.') {
        Some((q, n)) if !q.is_empty() && !n.is_empty() => n.to_string(),
        _ => s.trim_matches('.').to_string(),
    }
}

/// The longest run of plain characters in a glob, outside `[...]` classes, if it has 3
/// characters or more: every name the glob matches contains it.
fn glob_literal(glob: &str) -> Option<String> {
    let mut best = String::new();
    let mut cur = String::new();
    let mut in_class = false;
    for c in glob.chars() {
        match c {
            '[' => in_class = true,
            ']' if in_class => in_class = false,
            _ if in_class => {}
            '*' | '?' | '{' | '}' | ',' | '\\' => {}
            _ => {
                cur.push(c);
                continue;
            }
        }
        if cur.len() > best.len() {
            best = std::mem::take(&mut cur);
        }
        cur.clear();
    }
    if cur.len() > best.len() {
        best = cur;
    }
    (best.len() >= 3).then_some(best)
}

/// One indexable file and its content.
struct Source {
    rel: String,
    language: Language,
    src: Vec<u8>,
}

/// Walks the repository with the index's rules (`.gitignore`, hidden files, secrets, the
/// size limit, binary files) and reads every Go and Python file, in path order; also
/// returns the `go.mod` module paths by directory.
fn read_sources(root: &Path) -> (Vec<Source>, Vec<(String, String)>) {
    use ignore::WalkState;
    let found: Mutex<(Vec<Source>, Vec<String>)> = Mutex::new((Vec::new(), Vec::new()));
    // The walk is the one step that is not parallel by nature; the parallel walker also
    // reads each file on the thread that found it, as rg does.
    crate::walk::walker(root).build_parallel().run(|| {
        let found = &found;
        Box::new(move |entry| {
            if let Ok(entry) = entry
                && let Some(one) = read_entry(root, &entry)
                && let Ok(mut f) = found.lock()
            {
                match one {
                    Ok(source) => f.0.push(source),
                    Err(go_mod) => f.1.push(go_mod),
                }
            }
            WalkState::Continue
        })
    });
    let (mut sources, go_mods) = found.into_inner().unwrap_or_default();
    sources.sort_by(|a, b| a.rel.cmp(&b.rel));
    (sources, index::read_go_modules(root, &go_mods))
}

/// One walked entry: an indexable file read (`Ok`), a `go.mod` path (`Err`), or nothing
/// (another file, a secret, too large, binary, unreadable).
fn read_entry(root: &Path, entry: &ignore::DirEntry) -> Option<Result<Source, String>> {
    if !entry.file_type().is_some_and(|t| t.is_file()) {
        return None;
    }
    let rel = entry.path().strip_prefix(root).ok()?;
    let rel = rel.to_string_lossy().replace('\\', "/");
    if rel == "go.mod" || rel.ends_with("/go.mod") {
        return Some(Err(rel));
    }
    let language = Language::of_path(&rel)?;
    if secrets::is_secret_path(entry.path()) {
        return None;
    }
    let meta = entry.metadata().ok()?;
    if secrets::is_multiply_linked(&meta) || meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let src = std::fs::read(entry.path()).ok()?;
    if memchr::memchr(0, &src[..src.len().min(8192)]).is_some() {
        return None;
    }
    Some(Ok(Source { rel, language, src }))
}

/// Whether the first-query rules (definition lines, the closure) know the language: Go
/// and Python. A question about a name in another language's files takes the full index.
fn prefiltered(language: Language) -> bool {
    matches!(language, Language::Go | Language::Python)
}

/// Indexes of the files whose content matches `ac`.
fn matching(sources: &[Source], ac: &AhoCorasick, skip: &[bool]) -> Vec<usize> {
    sources
        .par_iter()
        .enumerate()
        .filter(|(i, s)| !skip[*i] && ac.is_match(&s.src))
        .map(|(i, _)| i)
        .collect()
}

/// A regex that finds the lines that may define one of `names` (a Go `type`/`func`/method
/// or interface method, a grouped declaration, a Python `class`/`def`, a module-level
/// assignment, a re-export) and, for `receivers`, the Go methods declared on them.
fn definitions_regex(names: &HashSet<String>, receivers: &HashSet<String>) -> Option<Regex> {
    let alt = |set: &HashSet<String>| {
        let mut v: Vec<String> = set.iter().map(|n| regex::escape(n)).collect();
        v.sort();
        v.join("|")
    };
    let mut parts = Vec::new();
    if !names.is_empty() {
        let n = alt(names);
        parts.push(format!(
            r"^[ \t]*(?:(?:type|class|(?:async[ \t]+)?def|func(?:[ \t]*\([^)\n]*\))?)[ \t]+)?(?:{n})\b"
        ));
        parts.push(format!(
            r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t][^\n]*\b(?:{n})\b"
        ));
    }
    if !receivers.is_empty() {
        parts.push(format!(r"^func[ \t]*\([^)\n]*\b(?:{})\b", alt(receivers)));
    }
    if parts.is_empty() {
        return None;
    }
    Regex::new(&format!("(?m){}", parts.join("|"))).ok()
}

/// Case-insensitive regexes for the lines that may define a name containing `literal`,
/// for Go and for Python. Go: after indentation and an optional keyword (`type`, `func`
/// with or without a receiver, `var`, `const`), the first identifiers of the line (grouped
/// declarations, interface methods, `a, b = ...`); with `receivers`, also methods whose
/// receiver mentions it. Python: `class` and `def` at any depth, and a module-level
/// assignment (the only other definitions the extractor keeps).
fn definition_lines(literal: &str, receivers: bool) -> Option<[Regex; 2]> {
    let lit = regex::escape(literal);
    let mut go = format!(
        r"(?im)^[ \t]*(?:(?:type|var|const|func(?:[ \t]*\([^)\n]*\))?)[ \t]+)?(?:\w+[ \t]*,[ \t]*)*\w*{lit}"
    );
    if receivers {
        go.push_str(&format!(r"|^func[ \t]*\([^)\n]*{lit}"));
    }
    let python = format!(r"(?im)^[ \t]*(?:class|(?:async[ \t]+)?def)[ \t]+\w*{lit}|^\w*{lit}");
    Some([Regex::new(&go).ok()?, Regex::new(&python).ok()?])
}

/// Go package names by the package clause, for the files linked as empty modules.
fn go_package_clause(src: &[u8]) -> String {
    let mut at = 0;
    while let Some(i) = memchr::memmem::find(&src[at..], b"package") {
        let start = at + i;
        let line_start = start == 0 || src[start - 1] == b'\n';
        let rest = &src[start + 7..];
        if line_start && rest.first().is_some_and(|c| *c == b' ' || *c == b'\t') {
            let name: Vec<u8> = rest
                .iter()
                .skip_while(|c| **c == b' ' || **c == b'\t')
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .copied()
                .collect();
            return String::from_utf8(name).unwrap_or_default();
        }
        at = start + 7;
    }
    String::new()
}

/// The names a call needs defined to be resolved: the path's qualifiers, the receiver's
/// type, the function whose result it is; field names go to `fields`.
fn target_needs(
    t: &CallTarget,
    owner: &RawSymbol,
    names: &mut HashSet<String>,
    fields: &mut HashSet<String>,
) {
    match t {
        CallTarget::Path(p) => names.extend(p.iter().take(p.len().saturating_sub(1)).cloned()),
        CallTarget::Member {
            base,
            fields: fs,
            name: _,
        } => {
            recv_needs(base, owner, names, fields, 0);
            fields.extend(fs.iter().cloned());
        }
    }
}

fn recv_needs(
    r: &Recv,
    owner: &RawSymbol,
    names: &mut HashSet<String>,
    fields: &mut HashSet<String>,
    depth: u32,
) {
    if depth > 6 {
        return;
    }
    match r {
        Recv::Typed(p) => names.extend(p.last().cloned()),
        Recv::Bounded(ps) => names.extend(ps.iter().filter_map(|p| p.last().cloned())),
        Recv::CallResult(t) => {
            match t.as_ref() {
                CallTarget::Path(p) => names.extend(p.iter().cloned()),
                CallTarget::Member { name, .. } => {
                    names.insert(name.clone());
                }
            }
            target_needs(t, owner, names, fields);
        }
        Recv::Field(b, fs) => {
            recv_needs(b, owner, names, fields, depth + 1);
            fields.extend(fs.iter().cloned());
        }
        Recv::SelfRef | Recv::Super => names.extend(owner.container.iter().cloned()),
        Recv::Opaque | Recv::Unknown => {}
    }
}

fn call_name(t: &CallTarget) -> &str {
    match t {
        CallTarget::Path(p) => p.last().map_or("", String::as_str),
        CallTarget::Member { name, .. } => name,
    }
}

/// The partial graph and what it was built from.
struct Partial {
    graph: CodeGraph,
    /// Files that mention the literal.
    mentioned: usize,
    /// Call sites looked at that the partial graph could not resolve precisely.
    unresolved: usize,
    /// Some definitions the resolution wanted were not added (too deep, too many files).
    truncated: bool,
}

/// Builds the partial graph for `literal`, or `None` when the literal is in so many files
/// that a full index costs little more.
fn build(root: &Path, literal: &str, need: Need) -> Option<Partial> {
    let started = std::time::Instant::now();
    let (sources, go_modules) = read_sources(root);
    let ac = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build([literal])
        .ok()?;
    let none = vec![false; sources.len()];
    let hits = matching(&sources, &ac, &none);
    if hits.len() * 2 > sources.len() && sources.len() > 200 {
        return None;
    }
    // The definition and closure rules below are Go's and Python's: a question whose name
    // appears in a file of another language takes the full index, except `find`, which
    // needs no closure: it parses every such file that mentions the name (a Django tree's
    // admin JavaScript saying "queryset" no longer costs a full index). A file that does
    // not mention it cannot change the answer (names resolve within a language family,
    // and its module name comes from its path), so it enters the link step as an empty
    // module.
    if need != Need::Definitions && hits.iter().any(|&i| !prefiltered(sources[i].language)) {
        return None;
    }
    let mentioned = hits.len();
    let scanned = started.elapsed().as_secs_f64();
    // `find` and `methods` only need the files where the name is defined: the lines that
    // can declare it (a definition keyword, or the name first on the line, as in grouped
    // declarations, interface methods and module-level assignments), and Go receivers.
    let hits = match need {
        Need::Definitions | Need::Methods => {
            let [go, python] = definition_lines(literal, need == Need::Methods)?;
            hits.into_par_iter()
                .filter(|&i| {
                    let s = &sources[i];
                    match s.language {
                        Language::Go => go.is_match(&s.src),
                        Language::Python => python.is_match(&s.src),
                        // Only `find` gets here with another language: parse it whole.
                        _ => need == Need::Definitions,
                    }
                })
                .collect()
        }
        _ => hits,
    };
    let mut facts: Vec<Option<FileFacts>> = vec![None; sources.len()];
    let mut chosen = vec![false; sources.len()];
    extract_into(&sources, &hits, &mut facts, &mut chosen);

    let lower = literal.to_ascii_lowercase();
    let named = |s: &RawSymbol| s.name.eq_ignore_ascii_case(&lower);
    let internal = RepoModules::new(&sources, &go_modules);
    let mut asked: HashSet<String> = HashSet::new();
    let mut truncated = false;
    if matches!(need, Need::Callers | Need::Callees) {
        let mut names: HashSet<String> = HashSet::new();
        let mut receivers: HashSet<String> = HashSet::new();
        let mut fields: HashSet<String> = HashSet::new();
        for (i, f) in facts.iter().enumerate() {
            let Some(f) = f else { continue };
            // A call on an import from outside the repository needs nothing.
            let inside = |c: &&RawCall| !internal.external_root(sources[i].language, f, &c.target);
            for s in &f.symbols {
                match need {
                    Need::Callers => {
                        for c in s
                            .calls
                            .iter()
                            .filter(|c| call_name(&c.target).eq_ignore_ascii_case(&lower))
                            .filter(inside)
                        {
                            target_needs(&c.target, s, &mut names, &mut fields);
                        }
                        if named(s) {
                            // Dispatch through interfaces and base classes: the method's
                            // type, its method set and its bases.
                            names.extend(s.container.iter().cloned());
                            receivers.extend(s.container.iter().cloned());
                        }
                    }
                    Need::Callees if named(s) => {
                        for c in s.calls.iter().filter(inside) {
                            names.insert(call_name(&c.target).to_string());
                            target_needs(&c.target, s, &mut names, &mut fields);
                        }
                    }
                    _ => {}
                }
                // An interface with the method: its embedded interfaces complete its set.
                if need == Need::Callers
                    && s.kind.is_type()
                    && f.symbols
                        .iter()
                        .any(|m| named(m) && m.container.contains(&s.name))
                {
                    names.extend(s.bases.iter().filter_map(|b| b.last().cloned()));
                }
            }
        }
        let mut asked_recv: HashSet<String> = HashSet::new();
        let mut added = 0;
        for _ in 0..CLOSURE_ROUNDS {
            names.retain(|n| !n.is_empty() && !asked.contains(n));
            receivers.retain(|n| !asked_recv.contains(n));
            if names.is_empty() && receivers.is_empty() {
                break;
            }
            let Some(re) = definitions_regex(&names, &receivers) else {
                break;
            };
            let new: Vec<usize> = sources
                .par_iter()
                .enumerate()
                .filter(|(i, s)| !chosen[*i] && prefiltered(s.language) && re.is_match(&s.src))
                .map(|(i, _)| i)
                .collect();
            added += new.len();
            if added > CLOSURE_FILES.max(mentioned) {
                // Common names (`New`, `Get`): the calls that need them stay unresolved
                // and the answer says so.
                break;
            }
            extract_into(&sources, &new, &mut facts, &mut chosen);
            asked.extend(names.drain());
            asked_recv.extend(receivers.drain());
            // What the definitions just found need in turn: field types, bases, results.
            for f in facts.iter().flatten() {
                for s in &f.symbols {
                    if !asked.contains(&s.name) {
                        continue;
                    }
                    for b in &s.bases {
                        names.extend(b.last().cloned());
                        if need == Need::Callers && asked_recv.contains(&s.name) {
                            receivers.extend(b.last().cloned());
                        }
                    }
                    for r in &s.results {
                        names.extend(r.last().cloned());
                    }
                    for (fname, r) in &s.fields {
                        if fields.contains(fname) {
                            let mut more = HashSet::new();
                            recv_needs(r, s, &mut names, &mut more, 0);
                            fields.extend(more);
                        }
                    }
                }
            }
        }
        // Definitions still wanted when the rounds or the file budget ran out: the method
        // sets and types behind "Through" lines and calls may be incomplete.
        names.retain(|n| !n.is_empty() && !asked.contains(n));
        receivers.retain(|n| !asked_recv.contains(n));
        truncated = !names.is_empty() || !receivers.is_empty();
    }

    let modules: Vec<FileFacts> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if chosen[i] || s.language != Language::Go {
                FileFacts::default()
            } else {
                FileFacts {
                    package: go_package_clause(&s.src),
                    ..Default::default()
                }
            }
        })
        .collect();
    let inputs: Vec<Input<'_>> = sources
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let f = if chosen[i] {
                facts[i].as_ref()?
            } else {
                &modules[i]
            };
            Some(Input {
                path: &s.rel,
                language: s.language,
                facts: f,
            })
        })
        .collect();
    let extracted = started.elapsed().as_secs_f64();
    let data = link::link(&inputs, &go_modules);
    let unresolved = match need {
        Need::Definitions | Need::Methods | Need::Mentions => 0,
        // With every definition the closure wanted in the graph, the calls resolve as in
        // the full index; otherwise count the ones that may not.
        _ if !truncated => 0,
        _ => unresolved_sites(&inputs, &data, &lower, need, &internal, &asked),
    };
    let graph = CodeGraph::new(data);
    tracing::debug!(
        scanned,
        extracted,
        linked = started.elapsed().as_secs_f64(),
        parsed = chosen.iter().filter(|c| **c).count(),
        "first query: partial graph built"
    );
    Some(Partial {
        graph,
        mentioned,
        unresolved,
        truncated,
    })
}

/// Extracts the files `idx` (in parallel) into `facts`, marking them chosen; a file that
/// does not parse stays out, as in the index.
fn extract_into(
    sources: &[Source],
    idx: &[usize],
    facts: &mut [Option<FileFacts>],
    chosen: &mut [bool],
) {
    let done: Vec<(usize, Option<FileFacts>)> = idx
        .par_iter()
        .map(|&i| {
            let s = &sources[i];
            let f = extract::extract(s.language, &s.src).ok().map(|mut f| {
                f.generated = crate::paths::is_generated(&s.rel, &s.src);
                f
            });
            (i, f)
        })
        .collect();
    for (i, f) in done {
        chosen[i] = true;
        facts[i] = f;
    }
}

/// When the closure was cut short: the call sites the answer depends on (calls named like
/// the literal for callers, the symbol's own calls for callees) that have no precise edge
/// in the partial graph and do not start from something outside the repository; the full
/// index might link them.
fn unresolved_sites(
    inputs: &[Input<'_>],
    data: &GraphData,
    lower: &str,
    need: Need,
    internal: &RepoModules,
    complete: &HashSet<String>,
) -> usize {
    let mut precise: HashSet<(SymbolId, u32)> = HashSet::new();
    for e in &data.edges {
        if e.kind == EdgeKind::Calls && !e.inferred {
            precise.insert((e.from, e.line));
        }
    }
    let mut id: SymbolId = 0;
    let mut count = 0;
    for input in inputs {
        for s in &input.facts.symbols {
            let relevant: Vec<_> = match need {
                Need::Callers => s
                    .calls
                    .iter()
                    .filter(|c| call_name(&c.target).eq_ignore_ascii_case(lower))
                    .collect(),
                Need::Callees if s.name.eq_ignore_ascii_case(lower) => s.calls.iter().collect(),
                _ => Vec::new(),
            };
            for c in relevant {
                if !precise.contains(&(id, c.line))
                    && !(settled(&c.target)
                        && (need == Need::Callers || complete.contains(call_name(&c.target))))
                    && !internal.external_root(input.language, input.facts, &c.target)
                {
                    count += 1;
                }
            }
            id += 1;
        }
    }
    count
}

/// Whether a call resolves the same in any graph that has every method of its name (true
/// for callers, whose name is the literal; for callees, when its definitions were looked
/// up): a
/// method on a value of which nothing is known (linked by name, marked inferred, from the
/// methods named like it, which all mention the name) or on a literal (never linked).
fn settled(t: &CallTarget) -> bool {
    matches!(
        t,
        CallTarget::Member {
            base: Recv::Unknown | Recv::Opaque,
            fields,
            ..
        } if fields.is_empty()
    )
}

/// Which import paths name code inside the repository, to tell a call on `fmt` or
/// `http.Handler` (outside, never linked) from one the partial graph may have missed.
struct RepoModules {
    go_packages: HashSet<String>,
    python_tops: HashSet<String>,
}

impl RepoModules {
    fn new(sources: &[Source], go_modules: &[(String, String)]) -> Self {
        let mut go_packages = HashSet::new();
        let mut python_tops = HashSet::new();
        for s in sources {
            let dir = s.rel.rsplit_once('/').map_or("", |(d, _)| d);
            match s.language {
                Language::Go => {
                    go_packages.insert(dir.to_string());
                    if let Some(i) = dir.rfind("vendor/") {
                        go_packages.insert(dir[i + 7..].to_string());
                    }
                    for (mdir, module) in go_modules {
                        if mdir.is_empty() {
                            go_packages.insert(if dir.is_empty() {
                                module.clone()
                            } else {
                                format!("{module}/{dir}")
                            });
                        } else if let Some(rest) = dir.strip_prefix(mdir.as_str()) {
                            go_packages.insert(format!("{module}{rest}"));
                        }
                    }
                }
                Language::Python => {
                    for part in s.rel.split('/') {
                        python_tops.insert(part.strip_suffix(".py").unwrap_or(part).to_string());
                    }
                }
                _ => {}
            }
        }
        RepoModules {
            go_packages,
            python_tops,
        }
    }

    /// Whether the call starts from an import that is not repository code, so no index
    /// links it.
    fn external_root(&self, language: Language, facts: &FileFacts, t: &CallTarget) -> bool {
        let head = match t {
            CallTarget::Path(p) if p.len() > 1 => &p[0],
            CallTarget::Member {
                base: Recv::Typed(p),
                ..
            } if p.len() > 1 => &p[0],
            _ => return false,
        };
        facts.imports.iter().any(|imp| match language {
            Language::Go => {
                let local = if imp.local.is_empty() {
                    go_import_name(&imp.module)
                } else {
                    imp.local.as_str()
                };
                local == head
                    && !link::go_path_candidates(&imp.module).any(|m| self.go_packages.contains(m))
            }
            Language::Python => {
                imp.local == *head
                    && imp.level == 0
                    && !self
                        .python_tops
                        .contains(imp.module.split('.').next().unwrap_or(""))
            }
            _ => false,
        })
    }
}

/// Answers `a` from the files that mention its literal, or `None` when the query needs
/// the whole graph (or the literal is everywhere). The answer is what [`tool::answer`]
/// gives on the full index, marked as partial for `callers`/`callees` when some call
/// sites could not be resolved without it.
pub fn partial_answer(root: &Path, a: &CodeArgs) -> Option<Result<CodeAnswer, ToolError>> {
    let (literal, need) = plan(a)?;
    let started = std::time::Instant::now();
    let partial = build(root, &literal, need)?;
    let mut out = tool::answer(&partial.graph, a);
    // A class's methods include what it inherits, declared in files that need not mention
    // its name: only the full index has them.
    if let Ok(CodeAnswer::Found(found)) = &out
        && found.operation == Operation::Methods
        && found.target.as_ref().is_some_and(|t| t.kind == Kind::Class)
    {
        return None;
    }
    tracing::debug!(
        files = partial.graph.files().len(),
        mentioned = partial.mentioned,
        unresolved = partial.unresolved,
        seconds = started.elapsed().as_secs_f64(),
        "first query answered from a partial graph"
    );
    if (partial.unresolved > 0 || partial.truncated)
        && let Ok(CodeAnswer::Found(found)) = out.as_mut()
    {
        found.partial_graph = Some(PartialGraph {
            files: partial.mentioned,
            literal: literal.clone(),
            unresolved: partial.unresolved,
            down: need == Need::Callees,
        });
    }
    Some(out)
}

/// The first-query state of a [`CodeTool`](super::CodeTool): whether a partial answer was
/// given, and the full build it started in the background.
#[derive(Default)]
pub struct FirstQuery {
    background: Mutex<Option<JoinHandle<Built>>>,
    started: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for FirstQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FirstQuery")
            .field("started", &self.started)
            .finish_non_exhaustive()
    }
}

impl FirstQuery {
    /// Answers from a partial graph when nothing is built or cached yet and the query
    /// allows it; then starts the full build in the background (its result is taken by
    /// [`FirstQuery::wait`]). `cache` is the cache file, `None` without a cache.
    pub(crate) fn try_answer(
        &self,
        root: &Path,
        cache: Option<&Path>,
        built: bool,
        a: &CodeArgs,
    ) -> Option<Result<ToolOutput, ToolError>> {
        use std::sync::atomic::Ordering;
        if built || self.started.load(Ordering::SeqCst) || cache.is_some_and(Path::exists) {
            return None;
        }
        let out = partial_answer(root, a)?.and_then(super::render::output);
        if !self.started.swap(true, Ordering::SeqCst) {
            let root = root.to_path_buf();
            let cache = cache.map(Path::to_path_buf);
            let handle = std::thread::Builder::new()
                .name("explore-index".into())
                .spawn(move || index::refresh(&root, cache.as_deref()))
                .ok();
            if let Ok(mut g) = self.background.lock() {
                *g = handle;
            }
        }
        Some(out)
    }

    /// True when a partial answer was given and the full build it started is still
    /// running (a finished one has written the cache already).
    pub(crate) fn pending(&self) -> bool {
        self.background
            .lock()
            .is_ok_and(|b| b.as_ref().is_some_and(|h| !h.is_finished()))
    }

    /// The full index started after a partial answer, once it is done (waiting for it);
    /// `None` when none was started or it was already taken.
    pub(crate) fn wait(&self) -> Option<Built> {
        let handle = self.background.lock().ok()?.take()?;
        handle.join().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_of_names_and_globs() {
        assert_eq!(bare_name("(*Planner).Plan"), "Plan");
        assert_eq!(bare_name("brain.(*Planner).Plan"), "Plan");
        assert_eq!(bare_name("model.IssueStore"), "IssueStore");
        assert_eq!(bare_name("Plan()"), "Plan");
        assert_eq!(bare_name("Interpreter.eval(String, int)"), "eval");
        assert_eq!(glob_literal("*Issue*").as_deref(), Some("Issue"));
        assert_eq!(glob_literal("[Nn]ew*Client").as_deref(), Some("Client"));
        assert_eq!(glob_literal("*Do*"), None);
        assert_eq!(glob_literal("*"), None);
    }

    #[test]
    fn package_clause() {
        assert_eq!(
            go_package_clause(b"// Package x does\n// package y\npackage store\n"),
            "store"
        );
        assert_eq!(go_package_clause(b"package\tmain // x\n"), "main");
        assert_eq!(go_package_clause(b"x := 1\n"), "");
    }

    #[test]
    fn lines_that_may_define_a_name() {
        let [go, py] = super::definition_lines("queryset", false).unwrap();
        for yes in [
            "class QuerySet(AltersData):",
            "    def _chain_queryset(self):",
            "    async def queryset(self):",
            "EmptyQuerySet = 1",
            "QUERYSET_MAX: int = 3",
        ] {
            assert!(py.is_match(yes.as_bytes()), "{yes}");
        }
        for yes in [
            "type querySetter interface {",
            "\tQuerySetOf[T] = x",
            "\tQuerySet(ctx context.Context) error",
            "func (q *Q) QuerySet() {}",
            "const QuerySetMax = 3",
            "var a, QuerySetB = 1, 2",
        ] {
            assert!(go.is_match(yes.as_bytes()), "{yes}");
        }
        for no in [
            "    qs = QuerySet()",
            "    queryset = self.get_queryset()",
            "from django.db.models import QuerySet",
            "return self.queryset",
        ] {
            assert!(!py.is_match(no.as_bytes()), "{no}");
        }
        for no in ["func (q *QuerySet) All() {}", "\treturn querySet"] {
            assert!(!go.is_match(no.as_bytes()), "{no}");
        }
        let [go, _] = super::definition_lines("queryset", true).unwrap();
        assert!(go.is_match(b"func (q *QuerySet) All() {}"));
    }

    #[test]
    fn definition_lines() {
        let names: HashSet<String> = ["IssueStore".to_string()].into_iter().collect();
        let recv: HashSet<String> = ["Planner".to_string()].into_iter().collect();
        let re = definitions_regex(&names, &recv).unwrap();
        for yes in [
            "type IssueStore interface {",
            "\tIssueStore interface {",
            "class IssueStore(Base):",
            "    def IssueStore(self):",
            "func IssueStore() {}",
            "func (p *Planner) Plan() {}",
            "from .base import Repository, IssueStore",
        ] {
            assert!(re.is_match(yes.as_bytes()), "{yes}");
        }
        for no in [
            "x := IssueStore{}",
            "var s model.IssueStore",
            "func (p *Plans) Plan()",
        ] {
            assert!(!re.is_match(no.as_bytes()), "{no}");
        }
    }
}
