//! The `code` tool's arguments and its model-facing text (spec 003's formats).
//!
//! Every result is one line, `Name (kind) at path:line`, at most [`MAX_RESULTS`] of them,
//! then `... and N more` with the argument that narrows. A name that fits several symbols
//! lists them with the exact argument that picks one; a name that fits none suggests the
//! `rg` command to run with the bash tool. Each line shown is also a [`Finding`].

use schemars::JsonSchema;
use serde::Deserialize;

use super::model::{Kind, Symbol, SymbolId};
use super::query::{
    self, Hop, MAX_DEPTH, MAX_RESULTS, MAX_TRACE, Match, Related, Resolution, Role, SymbolQuery,
};
use super::store::GraphStore;
use crate::{Finding, ToolError, ToolOutput, args};

pub(crate) const FIELDS: [&str; 6] = ["operation", "symbol", "kind?", "file?", "depth?", "to?"];
pub(crate) const EXAMPLE: &str = r#"{"operation":"callers","symbol":"Planner.Plan"}"#;

/// The operations of the `code` tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
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
    fn as_str(self) -> &'static str {
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
}

/// Arguments of `code`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeArgs {
    /// find, callers, callees, implementations, methods, usages or trace.
    pub operation: Operation,
    /// A name (`Plan`), a qualified name (`Planner.Plan`, `model.IssueStore`) or a glob
    /// (`*Issue*`). For trace, where the path starts.
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
    ToolError::InvalidArguments(format!(
        "Invalid kind \"{}\". Supported kinds: {}.",
        crate::root::escape_for_display(kind),
        Kind::ALL.map(Kind::as_str).join(", ")
    ))
}

fn tag(s: &Symbol) -> &'static str {
    if s.is_generated {
        " [generated]"
    } else if s.is_vendored {
        " [vendored]"
    } else if s.is_test {
        " [test]"
    } else {
        ""
    }
}

fn line_at(s: &Symbol, line: u32) -> String {
    format!(
        "{} ({}) at {}:{}{}",
        s.display,
        s.kind,
        s.path,
        line,
        tag(s)
    )
}

fn def_line(s: &Symbol) -> String {
    line_at(s, s.line)
}

fn def_finding(s: &Symbol) -> Finding {
    Finding {
        path: s.path.clone(),
        line: Some(s.line),
        end_line: Some(s.end_line),
        symbol: Some(s.display.clone()),
        kind: Some(s.kind.as_str().to_string()),
    }
}

fn site_finding(s: &Symbol, path: &str, line: u32) -> Finding {
    Finding {
        path: path.to_string(),
        line: Some(line),
        end_line: Some(line),
        symbol: Some(s.display.clone()),
        kind: Some(s.kind.as_str().to_string()),
    }
}

fn quote(s: &str) -> String {
    crate::root::escape_for_display(s)
}

fn dir_of(path: &str) -> &str {
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

/// The argument that narrows a list to its first entry's neighbourhood.
fn narrowing(first: &Symbol, kind_given: bool, others: &[&Symbol]) -> String {
    let dir = dir_of(&first.path);
    let file_unique = others.iter().all(|o| dir_of(&o.path) != dir);
    if !kind_given && others.iter().any(|o| o.kind != first.kind) {
        format!("kind=\"{}\"", first.kind)
    } else if file_unique {
        format!("file=\"{dir}\"")
    } else {
        format!("file=\"{}\"", first.path)
    }
}

/// Runs one call of the tool against a graph store: the embedded [`CodeGraph`](super::CodeGraph), or a
/// shared server-backed store, answer alike because every lookup goes through the trait.
pub fn run(store: &dyn GraphStore, a: &CodeArgs) -> Result<ToolOutput, ToolError> {
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
            &format!(
                "`depth` applies to callers and callees only, not {}",
                op.as_str()
            ),
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
    match op {
        Operation::Find => find(store, &q),
        Operation::Trace => trace(store, &q, a.to.as_deref().unwrap_or("")),
        _ => {
            let role = match op {
                Operation::Callers | Operation::Callees => Role::Callable,
                Operation::Implementations => Role::Abstract,
                Operation::Methods | Operation::Usages => Role::Type,
                _ => Role::Any,
            };
            let (m, skipped) = match resolved(store, &q, role, op)? {
                Ok(x) => x,
                Err(out) => return Ok(out),
            };
            relation(store, op, &m, &skipped, depth)
        }
    }
}

fn not_found(q: &SymbolQuery, near: &[Match]) -> ToolError {
    let mut text = String::new();
    let filters = match (&q.kind, &q.file) {
        (None, None) => String::new(),
        (Some(k), None) => format!(" of kind {k}"),
        (None, Some(f)) => format!(" in \"{}\"", quote(f)),
        (Some(k), Some(f)) => format!(" of kind {k} in \"{}\"", quote(f)),
    };
    text.push_str(&format!(
        "No symbol \"{}\" found{filters}.",
        quote(&q.symbol)
    ));
    if !near.is_empty() {
        text.push_str("\nSimilar:");
        for m in near {
            text.push_str(&format!("\n  {}", def_line(&m.symbol)));
        }
    }
    let bare = q
        .symbol
        .rsplit('.')
        .next()
        .unwrap_or(&q.symbol)
        .replace(['*', '?'], "");
    text.push_str(&format!(
        "\nTry: rg -n \"{}\" for text search (bash tool).",
        quote(&bare)
    ));
    ToolError::NotFound(text)
}

fn find(store: &dyn GraphStore, q: &SymbolQuery) -> Result<ToolOutput, ToolError> {
    let all = query::find(store, q, true);
    if all.is_empty() {
        return Err(not_found(q, &[]));
    }
    let (named, partial): (Vec<&Match>, Vec<&Match>) = all.iter().partition(|m| m.tier < 2);
    let (shown, extra_partial) = if named.is_empty() {
        (partial, 0)
    } else {
        let n = partial.len();
        (named, n)
    };
    let mut findings = Vec::new();
    let mut lines = Vec::new();
    if shown.len() == 1 && extra_partial == 0 {
        let s = &shown[0].symbol;
        lines.push(def_line(s));
        if !s.signature.is_empty() {
            lines.push(format!("  {}", s.signature));
        }
        if let Some(doc) = &s.doc {
            let mark = if s.path.ends_with(".py") { "#" } else { "//" };
            lines.push(format!("  {mark} {doc}"));
        }
        findings.push(def_finding(s));
        return Ok(ToolOutput {
            text: lines.join("\n"),
            findings,
        });
    }
    let what = if shown.iter().all(|m| m.tier == 2) {
        "containing"
    } else {
        "matching"
    };
    lines.push(format!(
        "Found {} symbol{} {what} \"{}\":",
        shown.len(),
        if shown.len() == 1 { "" } else { "s" },
        quote(&q.symbol)
    ));
    for m in shown.iter().take(MAX_RESULTS) {
        lines.push(format!("  {}", def_line(&m.symbol)));
        findings.push(def_finding(&m.symbol));
    }
    if shown.len() > MAX_RESULTS {
        let rest: Vec<&Symbol> = shown[MAX_RESULTS..].iter().map(|m| &m.symbol).collect();
        let hint = narrowing(&shown[0].symbol, q.kind.is_some(), &rest);
        lines.push(format!(
            "... and {} more; add {hint} to narrow",
            shown.len() - MAX_RESULTS
        ));
    }
    if extra_partial > 0 {
        let bare = q.symbol.rsplit('.').next().unwrap_or(&q.symbol);
        lines.push(format!(
            "({extra_partial} more contain \"{}\"; symbol=\"*{}*\" lists them)",
            quote(bare),
            quote(bare)
        ));
    }
    Ok(ToolOutput {
        text: lines.join("\n"),
        findings,
    })
}

type Resolved = (Match, Vec<Match>);

/// Resolves the symbol of a relationship query; `Ok(Err(output))` is an ambiguity list.
fn resolved(
    store: &dyn GraphStore,
    q: &SymbolQuery,
    role: Role,
    op: Operation,
) -> Result<Result<Resolved, ToolOutput>, ToolError> {
    match query::resolve(store, q, role) {
        Resolution::One { symbol, skipped } => Ok(Ok((symbol, skipped))),
        Resolution::NotFound { near } => Err(not_found(q, &near)),
        Resolution::WrongKind(found) => {
            let s = &found[0].symbol;
            let suggestion = match role {
                Role::Callable if s.kind.is_type() => {
                    format!(
                        " For a type, try operation=\"usages\" or \"methods\" with symbol=\"{}\".",
                        quote(&s.display)
                    )
                }
                Role::Type | Role::Abstract if s.kind.is_callable() => format!(
                    " For a function or method, try operation=\"callers\" or \"callees\" with symbol=\"{}\".",
                    quote(&s.display)
                ),
                _ => String::new(),
            };
            Err(ToolError::InvalidArguments(format!(
                "{} is a {} ({}:{}), but {} works on a {}.{suggestion}",
                quote(&s.display),
                s.kind,
                s.path,
                s.line,
                op.as_str(),
                role.describe()
            )))
        }
        Resolution::Ambiguous(cands) => Ok(Err(ambiguous(q, &cands))),
    }
}

fn ambiguous(q: &SymbolQuery, cands: &[Match]) -> ToolOutput {
    let same_kind = cands.iter().all(|c| c.symbol.kind == cands[0].symbol.kind);
    let noun = if same_kind {
        format!("{}s", cands[0].symbol.kind)
    } else {
        "symbols".to_string()
    };
    let bare = q.symbol.rsplit('.').next().unwrap_or(&q.symbol);
    let mut lines = vec![format!("Multiple {noun} named \"{}\":", quote(bare))];
    let mut findings = Vec::new();
    for c in cands.iter().take(MAX_RESULTS) {
        lines.push(format!("  {}", def_line(&c.symbol)));
        findings.push(def_finding(&c.symbol));
    }
    if cands.len() > MAX_RESULTS {
        lines.push(format!("  ... and {} more", cands.len() - MAX_RESULTS));
    }
    let first = &cands[0].symbol;
    let display_unique = cands[1..].iter().all(|c| c.symbol.display != first.display);
    let sym = if display_unique && first.display != q.symbol {
        first.display.clone()
    } else {
        short_qualified(first)
    };
    let others: Vec<&Symbol> = cands[1..].iter().map(|c| &c.symbol).collect();
    let dir = dir_of(&first.path);
    let file = if others.iter().all(|o| dir_of(&o.path) != dir) {
        dir.to_string()
    } else {
        first.path.clone()
    };
    lines.push(String::new());
    lines.push(format!(
        "Add symbol=\"{}\" or file=\"{}\" to specify.",
        quote(&sym),
        quote(&file)
    ));
    ToolOutput {
        text: lines.join("\n"),
        findings,
    }
}

fn skipped_note(skipped: &[Match]) -> Option<String> {
    let first = skipped.first()?;
    Some(format!(
        "(also {} in tests, vendored or generated code, e.g. {}; add file=\"{}\" for it)",
        skipped.len(),
        def_line(&first.symbol),
        first.symbol.path
    ))
}

fn relation(
    store: &dyn GraphStore,
    op: Operation,
    m: &Match,
    skipped: &[Match],
    depth: u32,
) -> Result<ToolOutput, ToolError> {
    let s = &m.symbol;
    let mut lines = vec![def_line(s)];
    if let Some(note) = skipped_note(skipped) {
        lines.push(note);
    }
    lines.push(String::new());
    let mut findings = vec![def_finding(s)];
    match op {
        Operation::Callers | Operation::Callees => {
            let up = op == Operation::Callers;
            let walk = if up {
                query::callers(store, m.id, depth)
            } else {
                query::callees(store, m.id, depth)
            };
            let title = if up { "Callers" } else { "Callees" };
            let mut through = Vec::new();
            if up {
                through_parents(store, m.id, walk.hops.len(), &mut through, &mut findings);
            }
            if walk.hops.is_empty() && !through.is_empty() {
                lines.push(format!("{title}: none direct."));
            } else if walk.hops.is_empty() {
                lines.push(format!(
                    "{title}: none found. Calls through interfaces, function values or reflection may not be linked; try rg -n \"{}(\" with the bash tool.",
                    quote(&s.name)
                ));
            } else {
                lines.push(if depth > 1 {
                    format!("{title} (depth {depth}):")
                } else {
                    format!("{title}:")
                });
                let mut parents: Vec<Symbol> = vec![s.clone()];
                for hop in walk.hops.iter().take(MAX_RESULTS) {
                    parents.truncate(hop.depth as usize);
                    let parent = parents.last().cloned().unwrap_or_else(|| s.clone());
                    lines.push(hop_line(hop, up, &parent, &mut findings));
                    parents.push(hop.symbol.clone());
                }
                if walk.total > MAX_RESULTS {
                    let hint = if depth > 1 {
                        "; lower depth to narrow"
                    } else {
                        ""
                    };
                    lines.push(format!("... and {} more{hint}", walk.total - MAX_RESULTS));
                }
            }
            lines.extend(through);
        }
        Operation::Implementations => {
            let (title, list) = if matches!(s.kind, Kind::Interface | Kind::Class) {
                let list = query::implementations(store, m.id);
                let t = if s.kind == Kind::Class {
                    "Subclasses"
                } else {
                    "Implementations"
                };
                (t, list)
            } else {
                ("Implements", query::implemented_by(store, m.id))
            };
            related_list(&mut lines, &mut findings, title, &list, s);
        }
        Operation::Methods => {
            let list = query::methods(store, m.id);
            related_list(&mut lines, &mut findings, "Methods", &list, s);
        }
        Operation::Usages => {
            let list = query::usages(store, m.id);
            related_list(
                &mut lines,
                &mut findings,
                "Used by (parameters or results)",
                &list,
                s,
            );
        }
        Operation::Find | Operation::Trace => {}
    }
    Ok(ToolOutput {
        text: lines.join("\n"),
        findings,
    })
}

/// Callers that reach the method through an interface or a base class: at most a few
/// lines, within the overall cap.
fn through_parents(
    store: &dyn GraphStore,
    id: SymbolId,
    shown: usize,
    lines: &mut Vec<String>,
    findings: &mut Vec<Finding>,
) {
    let mut budget = MAX_RESULTS.saturating_sub(shown.min(MAX_RESULTS)).max(3);
    for parent in query::dispatch_parents(store, id).iter().take(3) {
        let walk = query::callers(store, parent.id, 1);
        if walk.hops.is_empty() || budget == 0 {
            continue;
        }
        lines.push(format!(
            "Through {} ({} at {}:{}), which may dispatch here:",
            parent.symbol.display, parent.symbol.kind, parent.symbol.path, parent.symbol.line
        ));
        findings.push(def_finding(&parent.symbol));
        let n = walk.hops.len().min(budget).min(5);
        for hop in &walk.hops[..n] {
            lines.push(hop_line(hop, true, &parent.symbol, findings));
        }
        if walk.total > n {
            lines.push(format!(
                "  ... and {} more; operation=\"callers\" symbol=\"{}\" lists them",
                walk.total - n,
                parent.symbol.display
            ));
        }
        budget -= n;
    }
}

fn hop_line(hop: &Hop, up: bool, parent: &Symbol, findings: &mut Vec<Finding>) -> String {
    let indent = "  ".repeat(hop.depth as usize);
    let more = if hop.calls > 1 {
        format!(" (+{} more calls)", hop.calls - 1)
    } else {
        String::new()
    };
    let inferred = if hop.inferred { " [inferred]" } else { "" };
    if up {
        findings.push(site_finding(&hop.symbol, &hop.symbol.path, hop.line));
        format!("{indent}{}{more}{inferred}", line_at(&hop.symbol, hop.line))
    } else {
        findings.push(def_finding(&hop.symbol));
        findings.push(site_finding(parent, &parent.path, hop.line));
        format!(
            "{indent}{}, called at line {}{more}{inferred}",
            def_line(&hop.symbol),
            hop.line
        )
    }
}

fn related_list(
    lines: &mut Vec<String>,
    findings: &mut Vec<Finding>,
    title: &str,
    list: &[Related],
    of: &Symbol,
) {
    if list.is_empty() {
        lines.push(format!("{title}: none found for {}.", of.display));
        return;
    }
    lines.push(format!("{title}:"));
    for r in list.iter().take(MAX_RESULTS) {
        let via = r
            .via
            .as_ref()
            .map(|v| format!(" (via {})", v.display))
            .unwrap_or_default();
        lines.push(format!("  {}{via}", def_line(&r.symbol)));
        findings.push(def_finding(&r.symbol));
    }
    if list.len() > MAX_RESULTS {
        lines.push(format!("... and {} more", list.len() - MAX_RESULTS));
    }
}

fn trace(store: &dyn GraphStore, q: &SymbolQuery, to: &str) -> Result<ToolOutput, ToolError> {
    let ends = |q: &SymbolQuery| -> Result<Result<Vec<SymbolId>, ToolOutput>, ToolError> {
        match query::resolve(store, q, Role::Callable) {
            Resolution::One { symbol, .. } => Ok(Ok(vec![symbol.id])),
            Resolution::Ambiguous(c) => Ok(Ok(c.iter().map(|m| m.id).collect())),
            Resolution::NotFound { near } => Err(not_found(q, &near)),
            Resolution::WrongKind(found) => Err(ToolError::InvalidArguments(format!(
                "{} is a {}, but trace follows calls between functions and methods.",
                quote(&found[0].symbol.display),
                found[0].symbol.kind
            ))),
        }
    };
    let from = match ends(q)? {
        Ok(v) => v,
        Err(out) => return Ok(out),
    };
    // The target is resolved without the start's filters.
    let tq = SymbolQuery::new(to.trim());
    let targets = match ends(&tq)? {
        Ok(v) => v,
        Err(out) => return Ok(out),
    };
    let Some(steps) = query::trace(store, &from, &targets) else {
        let name = |ids: &[SymbolId], written: &str| match ids {
            [one] => store
                .symbol(*one)
                .map_or_else(|| written.to_string(), |s| s.display),
            _ => written.to_string(),
        };
        return Err(ToolError::NotFound(format!(
            "No call path from {} to {} within {MAX_TRACE} calls. Calls through interfaces, function values, decorators or registries are not linked; try operation=\"callers\" on \"{}\" and follow it up.",
            quote(&name(&from, &q.symbol)),
            quote(&name(&targets, to.trim())),
            quote(to.trim())
        )));
    };
    let first = &steps[0].symbol;
    let last = &steps[steps.len() - 1].symbol;
    let mut lines = vec![format!(
        "Call path from {} to {} ({} call{}):",
        first.display,
        last.display,
        steps.len() - 1,
        if steps.len() == 2 { "" } else { "s" }
    )];
    let mut findings = Vec::new();
    let mut prev: Option<&Symbol> = None;
    for st in &steps {
        findings.push(def_finding(&st.symbol));
        match prev {
            None => lines.push(format!("  {}", def_line(&st.symbol))),
            Some(p) => {
                findings.push(site_finding(p, &p.path, st.call_line));
                lines.push(format!(
                    "  -> {}, called at {}:{}{}",
                    def_line(&st.symbol),
                    p.path,
                    st.call_line,
                    if st.inferred { " [inferred]" } else { "" }
                ));
            }
        }
        prev = Some(&st.symbol);
    }
    Ok(ToolOutput {
        text: lines.join("\n"),
        findings,
    })
}
