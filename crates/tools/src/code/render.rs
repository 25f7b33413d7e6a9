//! The one place a [`CodeAnswer`] becomes the text the model reads (spec 003's formats).
//!
//! Every result is one line, `Name (kind) at path:line`, at most [`MAX_RESULTS`] of them,
//! then `... and N more` with the argument that narrows. A name that fits several symbols
//! lists them with the exact argument that picks one; a name that fits none suggests the
//! `rg` command to run with the bash tool. Each place a line shows is also a [`Finding`],
//! written here beside the line, so the evidence is exactly what the text shows.

use super::answer::{
    Ambiguous, CodeAnswer, Found, Item, NoPath, NotFound, Origin, PartialGraph, Relation, Section,
    StandardInterface, WrongKind,
};
use super::query::{MAX_RESULTS, MAX_TRACE};
use super::tool::{Operation, dir_of};
use crate::display::{self, Hidden, Layout};
use crate::{ErrorKind, Finding, ToolDetail, ToolError, ToolOutput};

/// Renders an answer: found answers are outputs; ambiguous, wrong-kind, not-found and
/// no-path answers are errors of the matching kind. Both carry the answer as detail.
pub fn output(answer: CodeAnswer) -> Result<ToolOutput, ToolError> {
    let mut out = Lines::default();
    let error = match &answer {
        CodeAnswer::Found(f) => {
            found(&mut out, f);
            None
        }
        CodeAnswer::Ambiguous(a) => {
            ambiguous(&mut out, a);
            Some(ErrorKind::Ambiguous)
        }
        CodeAnswer::WrongKind(w) => {
            wrong_kind(&mut out, w);
            Some(ErrorKind::InvalidArguments)
        }
        CodeAnswer::NotFound(n) => {
            not_found(&mut out, n);
            Some(ErrorKind::NotFound)
        }
        CodeAnswer::NoPath(p) => {
            no_path(&mut out, p);
            Some(ErrorKind::NotFound)
        }
    };
    let text = shown(&out.lines);
    let detail = ToolDetail::Code(Box::new(answer));
    match error {
        None => Ok(ToolOutput {
            text,
            findings: out.findings,
            detail: Some(detail),
        }),
        Some(kind) => Err(ToolError::new(kind, text)
            .with_findings(out.findings)
            .with_detail(detail)),
    }
}

/// The lines as the model reads them. Names, paths, signatures and doc comments come from
/// the repository's files: each line goes through [`display::escape`] as one line (a file
/// name with a newline cannot forge a result line, a bidi override in a doc comment is
/// shown as an escape), with the note when anything was escaped.
fn shown(lines: &[String]) -> String {
    let mut hidden = Hidden::default();
    let mut text: Vec<String> = lines
        .iter()
        .map(|l| display::escape(l, Layout::Line, &mut hidden).into_owned())
        .collect();
    if let Some(note) = hidden.note("in names, paths or signatures from the repository") {
        text.push(note);
    }
    text.join("\n")
}

/// The text and the places it shows, built together.
#[derive(Default)]
struct Lines {
    lines: Vec<String>,
    findings: Vec<Finding>,
}

impl Lines {
    fn push(&mut self, line: impl Into<String>) {
        self.lines.push(line.into());
    }

    /// A definition line, with its finding.
    fn def(&mut self, prefix: &str, item: &Item, suffix: &str) {
        self.push(format!("{prefix}{}{suffix}", def_line(item)));
        self.findings.push(def_finding(item));
    }
}

fn quote(s: &str) -> String {
    crate::display::escape_for_display(s)
}

fn tag(item: &Item) -> &'static str {
    match item.origin {
        Origin::Generated => " [generated]",
        Origin::Vendored => " [vendored]",
        Origin::Test => " [test]",
        Origin::Source => "",
    }
}

fn line_at(item: &Item, line: u32) -> String {
    format!(
        "{} ({}) at {}:{}{}",
        item.name,
        item.kind,
        item.path,
        line,
        tag(item)
    )
}

fn def_line(item: &Item) -> String {
    line_at(item, item.line)
}

fn def_finding(item: &Item) -> Finding {
    Finding {
        path: item.path.clone(),
        line: Some(item.line),
        end_line: Some(item.end_line),
        symbol: Some(item.name.clone()),
        kind: Some(item.kind.as_str().to_string()),
    }
}

/// A call site: `of` is the symbol the finding names (the caller, or the calling function).
fn site_finding(of: &Item, path: &str, line: u32) -> Finding {
    Finding {
        path: path.to_string(),
        line: Some(line),
        end_line: Some(line),
        symbol: Some(of.name.clone()),
        kind: Some(of.kind.as_str().to_string()),
    }
}

/// The argument that narrows a list to its first entry's neighbourhood.
fn narrowing(first: &Item, kind_given: bool, others: &[Item]) -> String {
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

fn found(out: &mut Lines, f: &Found) {
    match f.operation {
        Operation::Find => find(out, f),
        Operation::Trace => trace(out, f),
        _ => relation(out, f),
    }
    if let Some(p) = &f.partial_graph {
        out.push(partial_note(p));
    }
}

fn find(out: &mut Lines, f: &Found) {
    if let Some(item) = &f.target {
        out.def("", item, "");
        if let Some(sig) = &item.signature {
            out.push(format!("  {sig}"));
        }
        if let Some(doc) = &item.doc {
            let mark = if item.path.ends_with(".py") {
                "#"
            } else {
                "//"
            };
            out.push(format!("  {mark} {doc}"));
        }
        return;
    }
    let Some(section) = f.sections.first() else {
        return;
    };
    let what = if section.relation == Relation::PartialMatches {
        "containing"
    } else {
        "matching"
    };
    out.push(format!(
        "Found {} symbol{} {what} \"{}\":",
        section.total,
        if section.total == 1 { "" } else { "s" },
        quote(&f.asked.symbol)
    ));
    for item in section.items.iter().take(MAX_RESULTS) {
        out.def("  ", item, "");
    }
    if section.total > MAX_RESULTS
        && let Some(first) = section.items.first()
    {
        let rest = section.items.get(MAX_RESULTS..).unwrap_or_default();
        let hint = narrowing(first, f.asked.kind.is_some(), rest);
        out.push(format!(
            "... and {} more; add {hint} to narrow",
            section.total - MAX_RESULTS
        ));
    }
    if f.more_partial > 0 {
        let bare = bare_name(&f.asked.symbol);
        out.push(format!(
            "({} more contain \"{}\"; symbol=\"*{}*\" lists them)",
            f.more_partial,
            quote(bare),
            quote(bare)
        ));
    }
}

fn bare_name(symbol: &str) -> &str {
    let symbol = super::params::split(symbol).0;
    symbol.rsplit('.').next().unwrap_or(symbol)
}

fn relation(out: &mut Lines, f: &Found) {
    if let (None, Some(std)) = (&f.target, &f.standard) {
        standard(out, f, std);
        return;
    }
    let Some(target) = &f.target else {
        return;
    };
    out.def("", target, "");
    if let Some(first) = f.also.first() {
        out.push(format!(
            "(also {} in tests, vendored or generated code, e.g. {}; add file=\"{}\" for it)",
            f.also.len(),
            def_line(first),
            first.path
        ));
    }
    out.push("");
    let through: Vec<&Section> = f
        .sections
        .iter()
        .filter(|s| s.relation == Relation::Through)
        .collect();
    for s in f
        .sections
        .iter()
        .filter(|s| s.relation != Relation::Through)
    {
        match s.relation {
            Relation::Callers | Relation::Callees | Relation::Constructions => {
                calls(out, f, target, s, !through.is_empty());
                through_sections(out, s.items.len(), &through);
            }
            _ => related(out, s, target),
        }
    }
}

fn calls(out: &mut Lines, f: &Found, target: &Item, s: &Section, has_through: bool) {
    let up = matches!(s.relation, Relation::Callers | Relation::Constructions);
    let title = s.relation.title();
    if s.items.is_empty() && has_through {
        out.push(format!("{title}: none direct."));
        return;
    }
    if s.items.is_empty() {
        out.push(format!(
            "{title}: none found. Calls through interfaces, function values or reflection may not be linked; try rg -n \"{}(\" with the bash tool.",
            quote(bare_name(&target.name))
        ));
        return;
    }
    out.push(if f.depth > 1 {
        format!("{title} (depth {}):", f.depth)
    } else {
        format!("{title}:")
    });
    let mut parents: Vec<&Item> = vec![target];
    for item in s.items.iter().take(MAX_RESULTS) {
        parents.truncate(item.depth as usize);
        let parent = parents.last().copied().unwrap_or(target);
        hop(out, item, up, parent);
        parents.push(item);
    }
    if s.total > MAX_RESULTS {
        let hint = if f.depth > 1 {
            "; lower depth to narrow"
        } else {
            ""
        };
        out.push(format!("... and {} more{hint}", s.total - MAX_RESULTS));
    }
}

/// Callers that reach the method through an interface or a base class: at most a few
/// lines, within the overall cap.
fn through_sections(out: &mut Lines, shown: usize, through: &[&Section]) {
    let mut budget = MAX_RESULTS.saturating_sub(shown.min(MAX_RESULTS)).max(3);
    for s in through {
        let Some(parent) = &s.through else { continue };
        if budget == 0 {
            continue;
        }
        out.push(format!(
            "Through {} ({} at {}:{}), which may dispatch here:",
            parent.name, parent.kind, parent.path, parent.line
        ));
        out.findings.push(def_finding(parent));
        let n = s.items.len().min(budget).min(5);
        for item in &s.items[..n] {
            hop(out, item, true, parent);
        }
        if s.total > n {
            out.push(format!(
                "  ... and {} more; operation=\"callers\" symbol=\"{}\" lists them",
                s.total - n,
                parent.name
            ));
        }
        budget -= n;
    }
}

/// One caller or callee line. `parent` is the symbol it relates to in the walk (the
/// calling function, for a callee).
fn hop(out: &mut Lines, item: &Item, up: bool, parent: &Item) {
    let indent = "  ".repeat(item.depth as usize);
    let line = item.first_call().unwrap_or(item.line);
    let more = if item.calls.len() > 1 {
        format!(" (+{} more calls)", item.calls.len() - 1)
    } else {
        String::new()
    };
    let inferred = if item.inferred { " [inferred]" } else { "" };
    if up {
        out.findings.push(site_finding(item, &item.path, line));
        out.push(format!("{indent}{}{more}{inferred}", line_at(item, line)));
    } else {
        out.findings.push(def_finding(item));
        out.findings.push(site_finding(parent, &parent.path, line));
        out.push(format!(
            "{indent}{}, called at line {line}{more}{inferred}",
            def_line(item)
        ));
    }
}

fn related(out: &mut Lines, s: &Section, of: &Item) {
    if s.relation == Relation::UsedBy && of.kind.is_value() {
        readers(out, s, of);
        return;
    }
    if s.relation == Relation::References {
        references(out, s);
        return;
    }
    let title = s.relation.title();
    if s.items.is_empty() {
        out.push(format!("{title}: none found for {}.", of.name));
        return;
    }
    out.push(format!("{title}:"));
    for item in s.items.iter().take(MAX_RESULTS) {
        let via = match (&item.via, s.relation) {
            (Some(v), Relation::Methods) => format!(" (inherited from {v})"),
            (Some(v), _) => format!(" (via {v})"),
            (None, _) => String::new(),
        };
        out.def("  ", item, &via);
    }
    if s.total > MAX_RESULTS {
        out.push(format!("... and {} more", s.total - MAX_RESULTS));
    }
}

/// `implementations` of a standard-library interface: what it was matched against, then
/// the types.
fn standard(out: &mut Lines, f: &Found, std: &StandardInterface) {
    let package = if std.package.is_empty() {
        "predeclared".to_string()
    } else {
        format!("package {}", std.package)
    };
    out.push(format!(
        "{} is a Go standard-library interface ({package}), not defined in this repository; matched by method set against its definition: {} (names, not signatures; methods promoted from embedded types are not seen)",
        std.name,
        std.methods.join(", ")
    ));
    out.push("");
    let Some(s) = f.sections.first() else {
        return;
    };
    if s.items.is_empty() {
        out.push(format!(
            "Implementations: no Go type here has all of {}.",
            std.methods.join(", ")
        ));
        return;
    }
    out.push("Implementations:".to_string());
    for item in s.items.iter().take(MAX_RESULTS) {
        out.def("  ", item, "");
    }
    if s.total > MAX_RESULTS {
        out.push(format!("... and {} more", s.total - MAX_RESULTS));
    }
}

/// The usages of a module-level variable or constant: each reader where it reads or assigns it.
fn readers(out: &mut Lines, s: &Section, of: &Item) {
    if s.items.is_empty() {
        out.push(format!(
            "Read or assigned by: none found for {}. Reads through other packages' dot imports or reflection are not linked; try rg -nw \"{}\" with the bash tool.",
            of.name,
            quote(bare_name(&of.name))
        ));
        return;
    }
    out.push("Read or assigned by:".to_string());
    sites(out, s);
}

/// Each item of a section at its first line (`calls`), with how many more lines it has.
fn sites(out: &mut Lines, s: &Section) {
    for item in s.items.iter().take(MAX_RESULTS) {
        let line = item.first_call().unwrap_or(item.line);
        let more = match item.calls.len() {
            0 | 1 => String::new(),
            n => format!(" (+{} more lines)", n - 1),
        };
        out.findings.push(site_finding(item, &item.path, line));
        out.push(format!("  {}{more}", line_at(item, line)));
    }
    if s.total > MAX_RESULTS {
        out.push(format!("... and {} more", s.total - MAX_RESULTS));
    }
}

/// A type's references as a value, each at its first line (as a reader is).
fn references(out: &mut Lines, s: &Section) {
    out.push(format!("{}:", s.relation.title()));
    sites(out, s);
}

fn trace(out: &mut Lines, f: &Found) {
    let Some(path) = f.sections.first() else {
        return;
    };
    let (Some(first), Some(last)) = (path.items.first(), path.items.last()) else {
        return;
    };
    let calls = path.items.len() - 1;
    out.push(format!(
        "Call path from {} to {} ({calls} call{}):",
        first.name,
        last.name,
        if calls == 1 { "" } else { "s" }
    ));
    let mut prev: Option<&Item> = None;
    for item in &path.items {
        out.findings.push(def_finding(item));
        match prev {
            None => out.push(format!("  {}", def_line(item))),
            Some(p) => {
                let line = item.first_call().unwrap_or(0);
                out.findings.push(site_finding(p, &p.path, line));
                out.push(format!(
                    "  -> {}, called at {}:{line}{}",
                    def_line(item),
                    p.path,
                    if item.inferred { " [inferred]" } else { "" }
                ));
            }
        }
        prev = Some(item);
    }
}

fn ambiguous(out: &mut Lines, a: &Ambiguous) {
    let cands = &a.candidates;
    let same_kind = cands.iter().all(|c| c.kind == cands[0].kind);
    let noun = if same_kind {
        format!("{}s", cands[0].kind)
    } else {
        "symbols".to_string()
    };
    out.push(format!(
        "Multiple {noun} named \"{}\":",
        quote(bare_name(&a.asked.symbol))
    ));
    for c in cands.iter().take(MAX_RESULTS) {
        out.def("  ", c, "");
    }
    if cands.len() > MAX_RESULTS {
        out.push(format!("  ... and {} more", cands.len() - MAX_RESULTS));
    }
    out.push("");
    out.push(format!(
        "Add symbol=\"{}\" or file=\"{}\" to specify.",
        quote(&a.narrow.symbol),
        quote(&a.narrow.file)
    ));
}

fn wrong_kind(out: &mut Lines, w: &WrongKind) {
    let s = &w.item;
    if w.operation == Operation::Trace {
        out.push(format!(
            "{} is a {}, but trace follows calls between functions and methods.",
            quote(&s.name),
            s.kind
        ));
        return;
    }
    let suggestion = match w.instead.as_slice() {
        [a, b] => format!(
            " For a {}, try operation=\"{a}\" or \"{b}\" with symbol=\"{}\".",
            if s.kind.is_type() {
                "type"
            } else {
                "function or method"
            },
            quote(&s.name)
        ),
        [a] => format!(
            " For a {}, try operation=\"{a}\" with symbol=\"{}\" (where it is read or assigned).",
            s.kind,
            quote(&s.name)
        ),
        _ => String::new(),
    };
    out.push(format!(
        "{} is a {} ({}:{}), but {} works on a {}.{suggestion}",
        quote(&s.name),
        s.kind,
        s.path,
        s.line,
        w.operation,
        w.operation.role().describe()
    ));
}

fn not_found(out: &mut Lines, n: &NotFound) {
    let q = &n.asked;
    let filters = match (&q.kind, &q.file) {
        (None, None) => String::new(),
        (Some(k), None) => format!(" of kind {k}"),
        (None, Some(f)) => format!(" in \"{}\"", quote(f)),
        (Some(k), Some(f)) => format!(" of kind {k} in \"{}\"", quote(f)),
    };
    out.push(format!(
        "No symbol \"{}\" found{filters}.",
        quote(&q.symbol)
    ));
    if !n.near.is_empty() {
        out.push("Similar:");
        for m in &n.near {
            out.def("  ", m, "");
        }
    }
    let bare = bare_name(&q.symbol).replace(['*', '?'], "");
    out.push(format!(
        "Try: rg -n \"{}\" for text search (bash tool).",
        quote(&bare)
    ));
}

fn no_path(out: &mut Lines, p: &NoPath) {
    let name = |items: &[Item], written: &str| match items {
        [one] => one.name.clone(),
        _ => written.to_string(),
    };
    out.push(format!(
        "No call path from {} to {} within {MAX_TRACE} calls. Calls through interfaces, function values, decorators or registries are not linked; try operation=\"callers\" on \"{}\" and follow it up.",
        quote(&name(&p.from, &p.asked_from)),
        quote(&name(&p.to, &p.asked_to)),
        quote(&p.asked_to)
    ));
}

/// The one line a partial `callers`/`callees` answer adds when it may differ from the
/// full index's.
fn partial_note(p: &PartialGraph) -> String {
    let (what, verb) = match (p.down, p.unresolved) {
        (_, 0) => ("more links".to_string(), "may need"),
        (true, 1) => ("1 of its calls".to_string(), "needs"),
        (true, n) => (format!("{n} of its calls"), "need"),
        (false, 1) => ("1 call site of that name".to_string(), "needs"),
        (false, n) => (format!("{n} call sites of that name"), "need"),
    };
    format!(
        "(first query: searched the {} files that mention {}; {what} {verb} the full index, being built now; ask again for a complete answer)",
        p.files, p.literal
    )
}
