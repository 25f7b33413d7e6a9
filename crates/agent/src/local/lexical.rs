//! Text search for symbols in any language: definitions, usages and implementations found
//! by the shape of a line, for the files the code graph does not parse.
//!
//! The code graph knows Go and Python. A repository in Rust, TypeScript, Java or Ruby (or
//! the Rust half of a mixed one) still has definitions that look like definitions —
//! `pub struct RepoRoot`, `fn resolve(`, `class Session`, `export function parse`,
//! `const MAX = 3` — and usages that are the name between word boundaries. This module
//! recognises those shapes line by line, so "where is X defined" and "who uses X" get an
//! answer from the text, which the engine then backs with `read` calls and labels as a
//! text search, not a graph result.

use std::path::Path;

use super::classify;
use super::lines::{brace_block_end, ident_prefix, indent_block_end, is_ident};
use super::rank::{Corpus, SymbolInfo};

/// Files larger than this are not searched (minified bundles, data dumps).
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Most lines a definition's cited range spans.
const MAX_SPAN: u32 = 300;

/// Extensions of source files, with the language they name in answers.
const LANGUAGES: &[(&str, &str)] = &[
    ("rs", "Rust"),
    ("go", "Go"),
    ("py", "Python"),
    ("pyi", "Python"),
    ("js", "JavaScript"),
    ("jsx", "JavaScript"),
    ("mjs", "JavaScript"),
    ("cjs", "JavaScript"),
    ("ts", "TypeScript"),
    ("tsx", "TypeScript"),
    ("mts", "TypeScript"),
    ("java", "Java"),
    ("kt", "Kotlin"),
    ("kts", "Kotlin"),
    ("scala", "Scala"),
    ("groovy", "Groovy"),
    ("cs", "C#"),
    ("fs", "F#"),
    ("swift", "Swift"),
    ("m", "Objective-C"),
    ("mm", "Objective-C"),
    ("c", "C"),
    ("h", "C"),
    ("cc", "C++"),
    ("cpp", "C++"),
    ("cxx", "C++"),
    ("hpp", "C++"),
    ("hh", "C++"),
    ("rb", "Ruby"),
    ("php", "PHP"),
    ("lua", "Lua"),
    ("ex", "Elixir"),
    ("exs", "Elixir"),
    ("erl", "Erlang"),
    ("hs", "Haskell"),
    ("ml", "OCaml"),
    ("clj", "Clojure"),
    ("dart", "Dart"),
    ("zig", "Zig"),
    ("nim", "Nim"),
    ("jl", "Julia"),
    ("r", "R"),
    ("pl", "Perl"),
    ("pm", "Perl"),
    ("sh", "shell"),
    ("bash", "shell"),
    ("vue", "Vue"),
    ("svelte", "Svelte"),
    ("sql", "SQL"),
    ("proto", "Protocol Buffers"),
    ("graphql", "GraphQL"),
];

/// The language of a path, by its extension.
pub fn language_of(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    LANGUAGES.iter().find(|(e, _)| *e == ext).map(|(_, l)| *l)
}

/// Every source file of the repository (repo-relative, `/`-separated, sorted): the
/// files of the one repository walk ([`explore_tools::walk::files`], which leaves out
/// ignored, hidden and secret files) in a language of [`LANGUAGES`].
pub fn list_sources(root: &Path) -> Vec<String> {
    explore_tools::walk::files(root)
        .into_iter()
        .map(|f| f.rel)
        .filter(|rel| language_of(rel).is_some())
        .collect()
}

/// Reads a source file for searching: a regular, singly linked file of at most 1 MiB.
pub fn read_source(root: &Path, rel: &str) -> Option<String> {
    let abs = root.join(rel);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    if !meta.is_file()
        || meta.len() > MAX_FILE_BYTES
        || explore_tools::secrets::is_multiply_linked(&meta)
    {
        return None;
    }
    std::fs::read_to_string(abs).ok()
}

/// The files of `files` whose text contains `word` (a plain substring test, done once
/// per question), with their text: the only files definitions, usages and
/// implementations are then looked for in.
pub fn candidates(root: &Path, files: &[String], word: &str) -> Vec<(String, String)> {
    files
        .iter()
        .filter_map(|path| {
            let text = read_source(root, path)?;
            text.contains(word).then(|| (path.clone(), text))
        })
        .collect()
}

/// One place the text search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextHit {
    /// Repo-relative path.
    pub path: String,
    /// Line, 1-based.
    pub line: u32,
    /// Last line of the definition (the line itself for a usage).
    pub end_line: u32,
    /// The symbol: the definition's name (`Type.method` inside a type), the implementing
    /// type, or the function a usage is in.
    pub name: Option<String>,
    /// The kind in the code tool's words (`struct`, `function`, `method`, `class`, …).
    pub kind: Option<&'static str>,
}

/// Words that may stand before a definition keyword.
const MODIFIERS: &[&str] = &[
    "pub",
    "export",
    "default",
    "async",
    "static",
    "public",
    "private",
    "protected",
    "internal",
    "final",
    "abstract",
    "sealed",
    "open",
    "unsafe",
    "extern",
    "inline",
    "virtual",
    "declare",
    "readonly",
    "data",
    "case",
    "partial",
    "native",
    "synchronized",
    "override",
    "local",
];

/// Definition keywords and the kind they introduce.
const KEYWORDS: &[(&str, &str)] = &[
    ("fn", "function"),
    ("func", "function"),
    ("function", "function"),
    ("function*", "function"),
    ("def", "function"),
    ("fun", "function"),
    ("sub", "function"),
    ("struct", "struct"),
    ("enum", "enum"),
    ("union", "struct"),
    ("trait", "trait"),
    ("interface", "interface"),
    ("protocol", "interface"),
    ("class", "class"),
    ("object", "class"),
    ("record", "class"),
    ("module", "module"),
    ("mod", "module"),
    ("namespace", "module"),
    ("type", "type"),
    ("typealias", "type"),
    ("typedef", "type"),
    ("const", "const"),
    ("static", "const"),
    ("let", "variable"),
    ("var", "variable"),
    ("val", "variable"),
    ("macro_rules!", "macro"),
];

/// True for a line that is only a comment.
fn is_comment(trimmed: &str) -> bool {
    (trimmed.starts_with('#') && !trimmed.starts_with("#define"))
        || trimmed.starts_with("//")
        || trimmed.starts_with("/*")
        || trimmed.starts_with('*')
        || trimmed.starts_with("--")
        || trimmed.starts_with(';')
}

/// Strips visibility and other modifiers (`pub(crate) async`, `export default`).
fn strip_modifiers(mut s: &str) -> &str {
    loop {
        let word = ident_prefix(s);
        if word.is_empty() || !MODIFIERS.contains(&word) {
            return s;
        }
        let mut rest = &s[word.len()..];
        if rest.starts_with('(') {
            // `pub(crate)`, `pub(in path)`.
            match rest.find(')') {
                Some(i) => rest = &rest[i + 1..],
                None => return s,
            }
        }
        if let Some(r) = rest.strip_prefix(" \"C\"") {
            rest = r;
        }
        if !rest.starts_with(' ') {
            return s;
        }
        let next = rest.trim_start();
        // `static` is a keyword itself when a name follows directly.
        if word == "static"
            && !KEYWORDS
                .iter()
                .any(|(k, _)| next.starts_with(k) && next[k.len()..].starts_with([' ', '(']))
        {
            return s;
        }
        s = next;
    }
}

/// The name and kind a line defines, by its shape (`pub struct RepoRoot {`, `def x(`,
/// `func (r *T) M(`, `export const X =`, `#define X`), or `None`.
pub fn definition_on(line: &str) -> Option<(String, &'static str)> {
    let trimmed = line.trim_start();
    if let Some(rest) = trimmed.strip_prefix("#define ") {
        let name = ident_prefix(rest.trim_start());
        return (!name.is_empty()).then(|| (name.to_string(), "const"));
    }
    if is_comment(trimmed) {
        return None;
    }
    let indent = line.len() - trimmed.len();
    let s = strip_modifiers(trimmed);
    // `const fn`, `async fn` (Rust), `static func` (Swift).
    let s = s
        .strip_prefix("const fn ")
        .map(|r| ("fn", r))
        .or_else(|| s.strip_prefix("async fn ").map(|r| ("fn", r)));
    let (kw, rest) = match s {
        Some(x) => x,
        None => {
            let t = strip_modifiers(trimmed);
            let kw = KEYWORDS
                .iter()
                .map(|(k, _)| *k)
                .filter(|k| t.starts_with(k) && t[k.len()..].starts_with([' ', '\t']))
                .max_by_key(|k| k.len());
            match kw {
                Some(k) => (k, t[k.len()..].trim_start()),
                None => {
                    return assignment(trimmed, indent).or_else(|| method_shape(t, indent));
                }
            }
        }
    };
    // `static get x() {`, `static parse(s) {`: a static method of a JavaScript, TypeScript
    // or Java class, not a Rust `static` item.
    if kw == "static"
        && let Some(m) = method_shape(rest, indent.max(1))
    {
        return Some(m);
    }
    let kind = KEYWORDS
        .iter()
        .find(|(k, _)| *k == kw)
        .map(|(_, v)| *v)
        .unwrap_or("function");
    // Locals are not definitions worth citing.
    if kind == "variable" && indent > 0 {
        return None;
    }
    let mut rest = rest;
    if kw == "func" && rest.starts_with('(') {
        // A Go method: `func (r *Router) Match(`.
        let close = rest.find(')')?;
        rest = rest[close + 1..].trim_start();
    }
    if matches!(kw, "let" | "var" | "val" | "const" | "static") {
        rest = rest.strip_prefix("mut ").unwrap_or(rest);
    }
    // `class << self`, `enum class X`, `type func`: nothing to name.
    rest = rest.strip_prefix("class ").unwrap_or(rest);
    let name = ident_prefix(rest);
    if name.is_empty() || name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    if matches!(
        name,
        "if" | "for" | "while" | "match" | "in" | "of" | "return"
    ) {
        return None;
    }
    let kind = if kind == "function" && indent > 0 {
        "method"
    } else {
        kind
    };
    Some((name.to_string(), kind))
}

/// Words that open a block with parentheses but define nothing.
const CONTROL: &[&str] = &[
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "return",
    "new",
    "else",
    "do",
    "try",
    "using",
    "lock",
    "foreach",
    "when",
    "match",
    "throw",
    "await",
    "yield",
    "case",
    "elif",
    "with",
    "synchronized",
    "fixed",
    "unless",
    "until",
];

/// A method or function declared without a keyword, by its shape: a type and a name
/// before the parameters and the body's brace on the same line (`public Response
/// handle(Request r) {`, `async fetch(url: string): Promise<T> {`, `handle(req) {`,
/// `int main(int argc, char **argv) {`). Calls with a callback (`describe('x', () => {`,
/// `app.get(...)`) have quotes, dots or `=` in the way.
fn method_shape(t: &str, indent: usize) -> Option<(String, &'static str)> {
    let t = t.trim_end();
    if !t.ends_with('{') || t.starts_with('@') || t.starts_with('}') {
        return None;
    }
    let paren = t.find('(')?;
    let head = t[..paren].trim_end();
    let params = &t[paren..];
    if head.contains(['=', '.', '(', '"', '\'', ',', ';'])
        || !params.contains(')')
        || params.contains(['"', '\'', '`'])
        || params.contains("=>")
        || params.contains("function")
    {
        return None;
    }
    let first = ident_prefix(head);
    if CONTROL.contains(&first) {
        return None;
    }
    let name_start = head
        .char_indices()
        .rev()
        .find(|(_, c)| !is_ident(*c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &head[name_start..];
    if name.is_empty()
        || name.chars().next().is_some_and(|c| c.is_ascii_digit())
        || CONTROL.contains(&name)
        || NOT_CALLS.contains(&name)
    {
        return None;
    }
    Some((
        name.to_string(),
        if indent > 0 { "method" } else { "function" },
    ))
}

/// A module-level assignment that defines a name: `MAX = 3`, `X: int = 3` (Python),
/// `module.exports.x =`, `exports.x =`.
fn assignment(trimmed: &str, indent: usize) -> Option<(String, &'static str)> {
    if indent > 0 {
        return None;
    }
    let s = trimmed
        .strip_prefix("module.exports.")
        .or_else(|| trimmed.strip_prefix("exports."))
        .unwrap_or(trimmed);
    let name = ident_prefix(s);
    if name.is_empty() {
        return None;
    }
    let after = s[name.len()..].trim_start();
    let assigns = (after.starts_with('=') && !after.starts_with("=="))
        || (after.starts_with(':') && !after.starts_with("::") && after.contains(" = "));
    assigns.then(|| (name.to_string(), "variable"))
}

/// The definition on line `i`, also when its body's brace opens alone on the next line
/// (the Allman style of C# and some Java and C: `public void Handle(Request r)` then `{`).
fn definition_at(lines: &[&str], i: usize) -> Option<(String, &'static str)> {
    definition_on(lines[i]).or_else(|| {
        let l = lines[i].trim_end();
        let next = lines.get(i + 1).map(|n| n.trim())?;
        (l.ends_with(')') && next == "{")
            .then(|| definition_on(&format!("{l} {{")))
            .flatten()
    })
}

/// The kind of definition of `name` on this line, if it is one.
fn defines(line: &str, name: &str) -> Option<&'static str> {
    if !line.contains(name) {
        return None;
    }
    definition_on(line).and_then(|(n, k)| (n == name).then_some(k))
}

/// Uses `lines[i]`'s indentation and braces to find the last line of the block it opens.
fn block_end(lines: &[&str], i: usize, lang: Option<&str>) -> usize {
    if matches!(lang, Some("Python" | "Ruby" | "Nim" | "Elixir")) {
        return indent_block_end(lines, i, lang == Some("Ruby"));
    }
    brace_block_end(lines, i, 6, true)
}

/// The type a nested definition belongs to: the nearest line above with less
/// indentation that opens an `impl`, `class`, `struct`, `trait`, `interface` or `object`.
fn owner_of(lines: &[&str], i: usize) -> Option<String> {
    let ind = lines[i].len() - lines[i].trim_start().len();
    if ind == 0 {
        return None;
    }
    for l in lines[..i].iter().rev() {
        let t = l.trim_start();
        // A brace alone on its line opens the block of the line above it.
        if t.is_empty() || is_comment(t) || t.trim_end() == "{" {
            continue;
        }
        if l.len() - t.len() >= ind {
            continue;
        }
        let s = strip_modifiers(t);
        if let Some(rest) = s.strip_prefix("impl") {
            return impl_target(rest).map(|(_, ty)| ty);
        }
        return match definition_on(l) {
            Some((n, "class" | "struct" | "trait" | "interface" | "enum" | "module")) => Some(n),
            _ => None,
        };
    }
    None
}

/// Skips a balanced `<...>` at the start of `s`.
fn skip_generics(s: &str) -> &str {
    let s = s.trim_start();
    if !s.starts_with('<') {
        return s;
    }
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return &s[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// The last path segment of a type (`crate::x::Tool<T>` → `Tool`).
fn type_name(s: &str) -> String {
    let s = s.trim().trim_start_matches('&').trim_start_matches("dyn ");
    let base = s.split('<').next().unwrap_or(s);
    let base = base.rsplit("::").next().unwrap_or(base);
    ident_prefix(base.trim()).to_string()
}

/// For the text after `impl`: (trait, type) of `impl<T> Trait for Type<T>`, or (None,
/// type) of an inherent `impl Type`.
fn impl_target(rest: &str) -> Option<(Option<String>, String)> {
    if !(rest.starts_with(' ') || rest.starts_with('<')) {
        return None;
    }
    let body = skip_generics(rest).trim_start();
    let head = body.split(['{', '\n']).next().unwrap_or(body);
    let head = head.split(" where ").next().unwrap_or(head);
    match head.split_once(" for ") {
        Some((tr, ty)) => {
            let ty = type_name(ty);
            (!ty.is_empty()).then(|| (Some(type_name(tr)), ty))
        }
        None => {
            let ty = type_name(head);
            (!ty.is_empty()).then_some((None, ty))
        }
    }
}

/// The type a line declares as implementing or extending `name`, if it does:
/// `impl Name for Type` (Rust), `class Type(Base, Name):` (Python),
/// `class Type extends Name`, `implements Name` (JavaScript, TypeScript, Java),
/// `class Type : Name` (Kotlin, C#, Swift, C++).
fn implements_on(line: &str, name: &str) -> Option<(String, &'static str)> {
    if !line.contains(name) {
        return None;
    }
    let t = line.trim_start();
    if is_comment(t) {
        return None;
    }
    let s = strip_modifiers(t);
    if let Some(rest) = s.strip_prefix("impl") {
        let (tr, ty) = impl_target(rest)?;
        return (tr.as_deref() == Some(name)).then_some((ty, "impl"));
    }
    let (defined, kind) = definition_on(line)?;
    if !matches!(kind, "class" | "struct" | "interface" | "trait" | "enum") || defined == name {
        return None;
    }
    let after = &s[s.find(defined.as_str())? + defined.len()..];
    let after = skip_generics(after);
    let bases = after
        .trim_start()
        .strip_prefix('(')
        .map(|b| b.split(')').next().unwrap_or(b))
        .or_else(|| after.trim_start().strip_prefix(':'))
        .or_else(|| {
            let i = after
                .find(" extends ")
                .or_else(|| after.find(" implements "))?;
            Some(&after[i..])
        })?;
    let bases = bases.split('{').next().unwrap_or(bases);
    has_word(bases, name).then_some((defined, kind))
}

/// True when `text` contains `name` between identifier boundaries.
pub fn has_word(text: &str, name: &str) -> bool {
    word_positions(text, name).next().is_some()
}

fn word_positions<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(name).filter_map(move |(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        (before.is_none_or(|c| !is_ident(c)) && after.is_none_or(|c| !is_ident(c))).then_some(i)
    })
}

/// True for an import line (`use a::b;`, `import x`, `from x import y`, `#include`).
fn is_import(trimmed: &str) -> bool {
    let s = strip_modifiers(trimmed);
    s.starts_with("use ")
        || s.starts_with("import ")
        || s.starts_with("from ")
        || s.starts_with("#include")
        || s.starts_with("require ")
        || s.starts_with("extern crate ")
        || s.starts_with("mod ") && s.trim_end().ends_with(';')
}

/// The definitions of `name` (a plain or `Type.member` name) in `texts`.
pub fn definitions(texts: &[(String, String)], name: &str) -> Vec<TextHit> {
    let (owner, leaf) = match name.rsplit_once('.') {
        Some((o, l)) => (Some(o.rsplit('.').next().unwrap_or(o)), l),
        None => (None, name),
    };
    let mut out = Vec::new();
    for (path, text) in texts {
        if !text.contains(leaf) {
            continue;
        }
        let lang = language_of(path);
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if !l.contains(leaf) {
                continue;
            }
            let Some(kind) = definition_at(&lines, i).and_then(|(n, k)| (n == leaf).then_some(k))
            else {
                continue;
            };
            let own = owner_of(&lines, i);
            if let Some(o) = owner
                && own.as_deref() != Some(o)
            {
                continue;
            }
            let end = block_end(&lines, i, lang) as u32 + 1;
            let line = i as u32 + 1;
            out.push(TextHit {
                path: path.clone(),
                line,
                end_line: end.min(line + MAX_SPAN - 1),
                name: Some(match &own {
                    Some(o) => format!("{o}.{leaf}"),
                    None => leaf.to_string(),
                }),
                kind: Some(kind),
            });
        }
    }
    out
}

/// The places that use `name` in `texts`, grouped by file in their order: lines
/// where it stands between word boundaries, except its definitions, comments and imports.
/// With `calls`, only call-shaped uses (`name(`, `name!(`, `.name(`), unless a file has
/// none, then every use. `name` is the bare name (`resolve`, not `Settings.resolve`).
/// Which uses of a name a question asks for: any, the reads ("where is the RetryCount
/// field read"), or the writes ("where is it assigned").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Every use.
    Any,
    /// Uses that read the name (not the left side of an assignment).
    Read,
    /// Assignments to the name.
    Write,
}

impl Access {
    /// The access a question's verbs ask for.
    pub fn of(question: &str) -> Self {
        let mut access = Access::Any;
        for w in question.split(|c: char| !c.is_alphanumeric()) {
            match w.to_lowercase().as_str() {
                "read" | "reads" | "accessed" | "checked" | "consulted" | "tested" | "compared"
                | "inspected" => access = Access::Read,
                "written" | "writes" | "assigned" | "modified" | "mutated" | "updated"
                | "changed" | "replaced" | "reassigned" | "overwritten" => {
                    access = Access::Write;
                }
                _ => {}
            }
        }
        access
    }
}

/// Whether `line` assigns to `name` at byte `at` (`x.name = …`, `name += …`; not `==`).
fn assigns(line: &str, at: usize, name: &str) -> bool {
    let rest = line[at + name.len()..].trim_start();
    let op = rest
        .find(|c: char| {
            !matches!(
                c,
                '=' | '+' | '-' | '*' | '/' | '|' | '&' | ':' | '^' | '%' | '<' | '>'
            )
        })
        .map_or(rest, |end| &rest[..end]);
    matches!(
        op,
        "=" | ":=" | "+=" | "-=" | "*=" | "/=" | "|=" | "&=" | "^=" | "%=" | "<<=" | ">>="
    )
}

/// Whether line `i` declares `name` as a member of the type whose body it is in (a Go
/// struct field `RetryCount int`, a Rust or TypeScript field `retry_count: u32`, a Python
/// class attribute `retry_count = 3`): that is its definition, not a use of it.
fn declares_member(lines: &[&str], i: usize, name: &str) -> bool {
    let t = strip_modifiers(lines[i].trim_start());
    let Some(rest) = t.strip_prefix(name) else {
        return false;
    };
    let shaped = match rest.chars().next() {
        Some(':') => !rest.starts_with("::") && !rest.starts_with(":="),
        Some('?') => rest.starts_with("?:"),
        Some(' ' | '\t') => {
            let r = rest.trim_start();
            r.starts_with(['=', ':'])
                || r.starts_with(|c: char| c.is_alphabetic() || matches!(c, '*' | '['))
                    && !r.contains(['(', '='])
        }
        Some('=') => !rest.starts_with("=="),
        _ => false,
    };
    if !shaped {
        return false;
    }
    let ind = lines[i].len() - lines[i].trim_start().len();
    lines[..i]
        .iter()
        .rev()
        .map(|l| (l, l.len() - l.trim_start().len()))
        .find(|(l, at)| !l.trim().is_empty() && *at < ind)
        .and_then(|(l, _)| Some((l, definition_on(l)?)))
        .is_some_and(|(l, (_, k))| {
            // Go declares a struct as a type: `type Client struct {`.
            matches!(k, "class" | "struct" | "interface" | "trait" | "enum")
                || (k == "type" && l.trim_end().ends_with('{'))
        })
}

/// The places in `texts` that use `name`, best first by file (see [`rank_files`]): every
/// line that mentions it, or with `calls` only its calls when a file has some; with
/// `access` only its reads or writes when some use is one.
pub fn usages(texts: &[(String, String)], name: &str, calls: bool, access: Access) -> Vec<TextHit> {
    let all = uses_of(texts, name, calls);
    if access == Access::Any {
        return all.into_iter().map(|(h, _)| h).collect();
    }
    let want_write = access == Access::Write;
    let kept: Vec<TextHit> = all
        .iter()
        .filter(|(_, write)| *write == want_write)
        .map(|(h, _)| h.clone())
        .collect();
    if kept.is_empty() {
        all.into_iter().map(|(h, _)| h).collect()
    } else {
        kept
    }
}

/// The uses of `name` in `texts` inside a value declared at the top of a file: a
/// package-level table (`var defaultBinds = map[int][]string{ DOLLAR: … }`), a
/// module-level registry (`HANDLERS = {…}`), an exported constant object. The code graph
/// records the uses inside functions; these it does not see. A use counts when the
/// nearest line above it at the left margin (not a closing bracket, a comment or a
/// decorator) declares a value ([`declares_value`]), not a function or a class.
pub fn top_level_uses(texts: &[(String, String)], name: &str) -> Vec<TextHit> {
    let hits = usages(texts, name, false, Access::Any);
    let mut out = Vec::new();
    for (path, text) in texts {
        if !hits.iter().any(|h| h.path == *path) {
            continue;
        }
        // Each file is split once, however many uses it holds.
        let lines: Vec<&str> = text.lines().collect();
        out.extend(
            hits.iter()
                .filter(|h| h.path == *path)
                .filter_map(|h| table_use(&lines, h.clone(), name)),
        );
    }
    out
}

/// `h` named for the value it is used in, when its line is inside a top-level value
/// declaration (see [`top_level_uses`]).
fn table_use(lines: &[&str], mut h: TextHit, name: &str) -> Option<TextHit> {
    let at = (h.line as usize).checked_sub(1)?;
    // A line at the margin (the name's own declaration, an assignment, an import) is no
    // use inside a table.
    if !lines.get(at)?.starts_with([' ', '\t']) {
        return None;
    }
    let head = lines[..at].iter().rev().find(|l| {
        let t = l.trim_end();
        !t.is_empty()
            && !l.starts_with([' ', '\t'])
            && !t.starts_with([')', '}', ']', '@', '#'])
            && !is_comment(t)
    })?;
    if !declares_value(head) {
        return None;
    }
    // In a Go group (`const (` … `\tDOLLAR` …) a line that starts with the name declares it.
    let grouped = head.trim_end().ends_with('(');
    let mut words = lines[at].split(|c: char| !(c.is_alphanumeric() || c == '_'));
    if grouped && words.find(|w| !w.is_empty()) == Some(name) {
        return None;
    }
    h.name = definition_on(head).map(|(n, _)| n);
    Some(h)
}

/// Whether a line at the left margin declares a value: `var`, `const`, `let`, `static`
/// (with `export`/`pub` before them), or an assignment to a name (`HANDLERS = {`,
/// `ROUTES: dict[str, X] = {`).
fn declares_value(line: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix("export ").unwrap_or(t);
    let t = t
        .strip_prefix("pub(crate) ")
        .or_else(|| t.strip_prefix("pub "))
        .unwrap_or(t);
    if ["var ", "var(", "const ", "const(", "let ", "static "]
        .iter()
        .any(|k| t.starts_with(k))
    {
        return true;
    }
    let name_end = t
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(t.len());
    if name_end == 0 {
        return false;
    }
    let rest = t[name_end..].trim_start();
    let rest = match rest.strip_prefix(':') {
        Some(annotated) => annotated.split_once('=').map_or("", |(_, v)| v),
        None => rest
            .strip_prefix('=')
            .filter(|r| !r.starts_with('='))
            .unwrap_or(""),
    };
    !rest.trim().is_empty()
}

/// Whether a use of a name on `line` is a handler that catches it: `except X`,
/// `except (A, X)`, `catch (X e)`, `rescue X`, `errors.Is(err, X)`, `errors.As(err, &x)`.
pub fn catches(line: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix("} ").unwrap_or(t);
    ["except ", "except(", "catch ", "catch(", "rescue "]
        .iter()
        .any(|k| t.starts_with(k))
        || line.contains("errors.Is(")
        || line.contains("errors.As(")
}

/// Every use of `name` in `texts` with whether it assigns to it.
fn uses_of(texts: &[(String, String)], name: &str, calls: bool) -> Vec<(TextHit, bool)> {
    let mut out = Vec::new();
    for (path, text) in texts {
        if !text.contains(name) {
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        let mut all = Vec::new();
        let mut called = Vec::new();
        // Inside a Rust `#[cfg(test)]` module the uses are tests.
        let mut test_from = usize::MAX;
        // Inside a multi-line import (`from x import (`, `import {`, `use a::{`) the names
        // are imported, not used.
        let mut importing = false;
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            if t.starts_with("#[cfg(test)]") && test_from == usize::MAX {
                test_from = i;
            }
            let in_import = importing;
            if importing {
                importing = !l.contains([')', '}']);
            } else if is_import(t) {
                importing =
                    (t.contains('(') && !t.contains(')')) || (t.contains('{') && !t.contains('}'));
            }
            if !l.contains(name)
                || in_import
                || is_comment(t)
                || is_import(t)
                || defines(l, name).is_some()
                || declares_member(&lines, i, name)
            {
                continue;
            }
            let mut any = false;
            let mut call = false;
            let mut write = false;
            for p in word_positions(l, name) {
                // A name in quotes (`__all__ = ['NAME']`, a dict key) is text, not a use.
                let quoted = |c: Option<char>| matches!(c, Some('\'' | '"' | '`'));
                if quoted(l[..p].chars().next_back()) && quoted(l[p + name.len()..].chars().next())
                {
                    continue;
                }
                any = true;
                let rest = l[p + name.len()..].trim_start();
                if rest.starts_with('(') || rest.starts_with("!(") || rest.starts_with("::<") {
                    call = true;
                }
                write |= assigns(l, p, name);
            }
            if !any {
                continue;
            }
            let hit = TextHit {
                path: path.clone(),
                line: i as u32 + 1,
                end_line: i as u32 + 1,
                name: enclosing(&lines, i),
                kind: None,
            };
            let in_test = i > test_from;
            if call {
                called.push((in_test, (hit.clone(), write)));
            }
            all.push((in_test, (hit, write)));
        }
        let mut chosen = if calls && !called.is_empty() {
            called
        } else {
            all
        };
        // A file's own test module only counts when nothing else uses the name there.
        if chosen.iter().any(|(t, _)| !t) {
            chosen.retain(|(t, _)| !t);
        }
        out.extend(chosen.into_iter().map(|(_, h)| h));
    }
    out
}

/// The function or type a line is in: the nearest definition above it with less
/// indentation.
fn enclosing(lines: &[&str], i: usize) -> Option<String> {
    let ind = lines[i].len() - lines[i].trim_start().len();
    for (j, l) in lines[..i].iter().enumerate().rev() {
        let t = l.trim_start();
        if t.is_empty() || l.len() - t.len() >= ind {
            continue;
        }
        if let Some((n, k)) = definition_on(l) {
            if k == "variable" {
                continue;
            }
            return Some(match owner_of(lines, j) {
                Some(o) if matches!(k, "method" | "function") => format!("{o}.{n}"),
                _ => n,
            });
        }
        if strip_modifiers(t).starts_with("impl") {
            continue;
        }
    }
    None
}

/// The types that implement or extend `name` in `texts`.
pub fn implementations(texts: &[(String, String)], name: &str) -> Vec<TextHit> {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    let mut out = Vec::new();
    for (path, text) in texts {
        if !text.contains(leaf) {
            continue;
        }
        let lang = language_of(path);
        let lines: Vec<&str> = text.lines().collect();
        // The file may name it by an alias (`use std::error::Error as StdError;`, `from
        // .base import Cache as BaseCache`).
        let mut names = vec![leaf.to_string()];
        names.extend(import_aliases(&lines, leaf));
        for (i, l) in lines.iter().enumerate() {
            // `impl<R: io::Read> Iterator` with its `for Type` on the next line.
            let joined;
            let l = match lines.get(i + 1) {
                Some(next)
                    if l.trim_start().starts_with("impl")
                        && next.trim_start().starts_with("for ") =>
                {
                    joined = format!("{} {}", l.trim_end(), next.trim_start());
                    joined.as_str()
                }
                _ => l,
            };
            if let Some((ty, kind)) = names.iter().find_map(|n| implements_on(l, n)) {
                let line = i as u32 + 1;
                let end = block_end(&lines, i, lang) as u32 + 1;
                out.push(TextHit {
                    path: path.clone(),
                    line,
                    end_line: end.min(line + MAX_SPAN - 1),
                    name: Some(ty),
                    kind: Some(if kind == "impl" { "struct" } else { kind }),
                });
            }
        }
    }
    out
}

/// The names an import gives `name` in a file (`use std::error::Error as StdError;`,
/// `use std::{error::Error as StdError, fmt};`, `from .base import Cache as BaseCache`,
/// `import { Shape as Base } from "./shape"`).
fn import_aliases(lines: &[&str], name: &str) -> Vec<String> {
    let pattern = format!("{name} as ");
    let mut out: Vec<String> = Vec::new();
    for l in lines {
        let t = l.trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        if !(t.starts_with("use ") || t.starts_with("from ") || t.starts_with("import ")) {
            continue;
        }
        for (i, _) in t.match_indices(&pattern) {
            // The name itself, not the end of a longer one (`MyError as E`).
            if t[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let alias: String = t[i + pattern.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !alias.is_empty() && alias != name && !out.contains(&alias) {
                out.push(alias);
            }
        }
    }
    out
}

/// Words that are followed by `(` but are not calls.
const NOT_CALLS: &[&str] = &[
    "if",
    "for",
    "while",
    "match",
    "return",
    "switch",
    "catch",
    "fn",
    "func",
    "function",
    "def",
    "Some",
    "Ok",
    "Err",
    "None",
    "Box",
    "Vec",
    "Arc",
    "Rc",
    "self",
    "Self",
    "super",
    "new",
    "print",
    "println",
    "format",
    "vec",
    "assert",
    "assert_eq",
    "panic",
    "len",
    "str",
    "int",
    "list",
    "dict",
    "set",
    "isinstance",
    "range",
    "sizeof",
    "typeof",
    "and",
    "or",
    "not",
    "in",
];

/// The names called in lines `from..=to` (1-based) of `text`, with the line of their
/// first call and whether it is a method call on a value (`x.name(`), in order:
/// `name(`, `.name(`, `name!(`, `Type::name(`.
pub fn calls_in(text: &str, from: u32, to: u32) -> Vec<(String, u32, bool)> {
    let mut out: Vec<(String, u32, bool)> = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let n = i as u32 + 1;
        if n <= from || n > to {
            // The definition's own line is its signature, not a call.
            continue;
        }
        let t = l.trim_start();
        if is_comment(t) {
            continue;
        }
        let chars: Vec<(usize, char)> = l.char_indices().collect();
        let mut k = 0;
        while k < chars.len() {
            let (start, c) = chars[k];
            if !(c.is_alphabetic() || c == '_') || (k > 0 && is_ident(chars[k - 1].1)) {
                k += 1;
                continue;
            }
            let name = ident_prefix(&l[start..]);
            let after = l[start + name.len()..].trim_start();
            let after = after.strip_prefix('!').unwrap_or(after);
            if after.starts_with('(')
                && !NOT_CALLS.contains(&name)
                && !out.iter().any(|(x, _, _)| x == name)
            {
                let method = l[..start].ends_with('.');
                out.push((name.to_string(), n, method));
            }
            k += name.chars().count().max(1);
        }
    }
    out
}

/// The methods of the type `name` in `texts`: definitions nested in its `impl`, `class`,
/// `trait` or `interface` blocks.
pub fn methods(texts: &[(String, String)], name: &str) -> Vec<TextHit> {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    let prefix = format!("{leaf}.");
    let mut out = Vec::new();
    for (path, text) in texts {
        for s in symbols(text, path, 0) {
            if s.display.starts_with(&prefix) && matches!(s.kind.as_str(), "method" | "function") {
                out.push(TextHit {
                    path: path.clone(),
                    line: s.line,
                    end_line: s.end_line,
                    name: Some(s.display),
                    kind: Some("method"),
                });
            }
        }
    }
    out
}

/// Adds to `corpus` every source file of `files` it does not have (the languages the
/// code graph does not parse), with the symbols [`symbols`] finds in it.
pub fn extend_corpus(corpus: &mut Corpus, root: &Path, files: &[String]) {
    let known: std::collections::HashSet<&str> = corpus.files.iter().map(String::as_str).collect();
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !known.contains(f.as_str()))
        .collect();
    for path in missing {
        let file = corpus.files.len();
        corpus.files.push(path.clone());
        if let Some(text) = read_source(root, path) {
            corpus.symbols.extend(symbols(&text, path, file));
        }
    }
}

/// Orders hits' files: real code before tests, examples, vendored and generated code,
/// then the files with more hits, then by path; hits keep their order within a file.
pub fn rank_files(hits: Vec<TextHit>) -> Vec<(String, Vec<TextHit>)> {
    let mut files: Vec<(String, Vec<TextHit>)> = Vec::new();
    for h in hits {
        match files.iter_mut().find(|(p, _)| *p == h.path) {
            Some((_, v)) => v.push(h),
            None => files.push((h.path.clone(), vec![h])),
        }
    }
    files.sort_by(|a, b| {
        let ca = classify::classify(&a.0).secondary();
        let cb = classify::classify(&b.0).secondary();
        ca.cmp(&cb)
            .then(b.1.len().cmp(&a.1.len()))
            .then(a.0.cmp(&b.0))
    });
    files
}

/// The doc comment right above line `i`: `///`, `//`, `#`, ` * ` lines, markers removed.
fn doc_above(lines: &[&str], i: usize) -> String {
    let mut doc = Vec::new();
    let mut j = i;
    while j > 0 {
        let t = lines[j - 1].trim();
        let text = ["///", "//!", "//", "#", "/**", "*/", "*", "--"]
            .iter()
            .find_map(|m| t.strip_prefix(m));
        match text {
            Some(x) if !t.starts_with("#[") && !t.starts_with("#!") => {
                doc.push(x.trim().to_string());
                j -= 1;
            }
            _ if t.starts_with("#[") || t.starts_with('@') => j -= 1,
            _ => break,
        }
    }
    doc.reverse();
    doc.retain(|l| !l.is_empty());
    doc.truncate(6);
    doc.join(" ")
}

/// The module doc at the top of a file (`//!` lines, a leading `/** */` or `#` block).
fn module_doc(lines: &[&str]) -> String {
    let mut doc = Vec::new();
    for l in lines.iter().take(40) {
        let t = l.trim();
        if let Some(x) = t.strip_prefix("//!") {
            doc.push(x.trim());
        } else if t.is_empty() && doc.is_empty() {
            continue;
        } else if !doc.is_empty() || !t.starts_with("#!") {
            break;
        }
    }
    doc.retain(|l| !l.is_empty());
    doc.truncate(8);
    doc.join(" ")
}

/// The definitions of one source file for the concept ranking, in any language: each
/// definition-shaped line with its range, owner and doc comment, plus the file's module
/// doc (`//!`) as a `module` symbol on line 1.
pub fn symbols(text: &str, path: &str, file: usize) -> Vec<SymbolInfo> {
    let lang = language_of(path);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mdoc = module_doc(&lines);
    if !mdoc.is_empty() {
        let stem = path
            .rsplit('/')
            .next()
            .and_then(|f| f.split('.').next())
            .unwrap_or(path);
        out.push(SymbolInfo {
            name: stem.to_string(),
            display: stem.to_string(),
            kind: "module".into(),
            file,
            line: 1,
            end_line: 1,
            doc: mdoc,
        });
    }
    for (i, l) in lines.iter().enumerate() {
        let Some((name, kind)) = definition_at(&lines, i) else {
            continue;
        };
        if kind == "module" && l.trim_end().ends_with(';') {
            continue;
        }
        let owner = owner_of(&lines, i);
        let line = i as u32 + 1;
        let end = (block_end(&lines, i, lang) as u32 + 1).min(line + MAX_SPAN - 1);
        out.push(SymbolInfo {
            display: match &owner {
                Some(o) => format!("{o}.{name}"),
                None => name.clone(),
            },
            name,
            kind: kind.into(),
            file,
            line,
            end_line: end,
            doc: doc_above(&lines, i),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_shapes_in_many_languages() {
        let cases: &[(&str, Option<(&str, &str)>)] = &[
            ("pub struct RepoRoot {", Some(("RepoRoot", "struct"))),
            ("pub(crate) fn resolve(", Some(("resolve", "function"))),
            ("    pub async fn run(&self) {", Some(("run", "method"))),
            ("pub const fn new() -> Self {", Some(("new", "function"))),
            ("pub trait Policy: Send {", Some(("Policy", "trait"))),
            (
                "pub const DEFAULT_MAX_TURNS: u32 = 12;",
                Some(("DEFAULT_MAX_TURNS", "const")),
            ),
            (
                "static COUNT: AtomicU32 = AtomicU32::new(0);",
                Some(("COUNT", "const")),
            ),
            (
                "export default function parse(x) {",
                Some(("parse", "function")),
            ),
            (
                "export const handler = async (req) => {",
                Some(("handler", "const")),
            ),
            ("export interface Options {", Some(("Options", "interface"))),
            (
                "class Session(SessionRedirectMixin):",
                Some(("Session", "class")),
            ),
            ("    def send(self, request):", Some(("send", "method"))),
            (
                "func (r *Router) Match(req *http.Request) bool {",
                Some(("Match", "function")),
            ),
            ("type Handler interface {", Some(("Handler", "type"))),
            (
                "public final class Foo extends Bar {",
                Some(("Foo", "class")),
            ),
            ("#define MAX_LEN 10", Some(("MAX_LEN", "const"))),
            ("MAX_RETRIES = 3", Some(("MAX_RETRIES", "variable"))),
            ("macro_rules! bail {", Some(("bail", "macro"))),
            (
                "    public ResponseEntity<User> getUser(@PathVariable Long id) {",
                Some(("getUser", "method")),
            ),
            (
                "  async fetchAll(url: string): Promise<Item[]> {",
                Some(("fetchAll", "method")),
            ),
            ("  handle(req, res) {", Some(("handle", "method"))),
            (
                "int main(int argc, char **argv) {",
                Some(("main", "function")),
            ),
            (
                "void Server::start(int port) {",
                Some(("start", "function")),
            ),
            ("describe('router', () => {", None),
            ("    register(Route {", None),
            ("app.get('/x', (req, res) => {", None),
            ("    } else if (x > 3) {", None),
            ("    for (const x of xs) {", None),
            ("    synchronized (lock) {", None),
            ("    let x = 3;", None),
            ("// fn not_this() {}", None),
            ("    return resolve(x);", None),
            ("if x == 3 {", None),
        ];
        for (line, want) in cases {
            let got = definition_on(line);
            let want = want.map(|(n, k)| (n.to_string(), k));
            assert_eq!(got, want, "{line}");
        }
    }

    #[test]
    fn implementations_across_languages() {
        assert_eq!(
            implements_on("impl Tool for ReadTool {", "Tool"),
            Some(("ReadTool".into(), "impl"))
        );
        assert_eq!(
            implements_on(
                "impl<S: Store> crate::Tool for Cached<S> where S: Send {",
                "Tool"
            ),
            Some(("Cached".into(), "impl"))
        );
        assert_eq!(implements_on("impl Tool {", "Tool"), None);
        assert_eq!(
            implements_on("class HTTPAdapter(BaseAdapter):", "BaseAdapter"),
            Some(("HTTPAdapter".into(), "class"))
        );
        assert_eq!(
            implements_on(
                "export class Cache extends Base implements Store {",
                "Store"
            ),
            Some(("Cache".into(), "class"))
        );
        assert_eq!(
            implements_on("class Repo : Store, Closeable {", "Store"),
            Some(("Repo".into(), "class"))
        );
        assert_eq!(implements_on("class Store:", "Store"), None);
    }

    /// An impl under an alias the file imports, and one whose `for Type` is on the next
    /// line, are implementations too.
    #[test]
    fn implementations_under_an_alias_or_over_two_lines() {
        let texts = vec![
            (
                "src/error.rs".to_string(),
                "use std::error::Error as StdError;\nuse std::fmt;\n\npub struct Error;\n\nimpl StdError for Error {}\n\npub struct MyError;\n\nimpl StdError for MyError {}\n".to_string(),
            ),
            (
                "src/reader.rs".to_string(),
                "impl<R: io::Read, D: DeserializeOwned> Iterator\n    for DeserializeRecordsIntoIter<R, D>\n{\n    type Item = u8;\n}\n".to_string(),
            ),
        ];
        let found = |name: &str| -> Vec<(String, u32, Option<String>)> {
            implementations(&texts, name)
                .into_iter()
                .map(|h| (h.path, h.line, h.name))
                .collect()
        };
        assert_eq!(
            found("Error"),
            [
                ("src/error.rs".to_string(), 6, Some("Error".to_string())),
                ("src/error.rs".to_string(), 10, Some("MyError".to_string())),
            ]
        );
        assert_eq!(
            found("Iterator"),
            [(
                "src/reader.rs".to_string(),
                1,
                Some("DeserializeRecordsIntoIter".to_string())
            )]
        );
        let lines = [
            "use std::{error::Error as StdError, fmt};",
            "from .base import MyError as E",
        ];
        assert_eq!(import_aliases(&lines, "Error"), ["StdError"]);
    }

    #[test]
    fn usages_skip_definitions_comments_imports_and_test_modules() {
        let dir = tempfile::tempdir().unwrap();
        let src = "use crate::util::helper;\n\n/// Calls helper.\npub fn helper(x: u32) -> u32 {\n    x\n}\n\npub fn run() -> u32 {\n    // helper(1) in a comment\n    helper(2) + helper_two()\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        super::helper(3);\n    }\n}\n";
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), src).unwrap();
        let files = list_sources(dir.path());
        assert_eq!(files, ["src/lib.rs"]);
        let texts = candidates(dir.path(), &files, "helper");
        let hits = usages(&texts, "helper", true, Access::Any);
        let got: Vec<(u32, Option<String>)> =
            hits.iter().map(|h| (h.line, h.name.clone())).collect();
        assert_eq!(got, [(10, Some("run".to_string()))]);
        let defs = definitions(&texts, "helper");
        assert_eq!(
            defs.iter()
                .map(|d| (d.line, d.end_line))
                .collect::<Vec<_>>(),
            [(4, 6)]
        );
    }

    #[test]
    fn a_field_declaration_is_no_use_and_reads_are_told_from_writes() {
        let src = "package resty\n\ntype Client struct {\n\tRetryCount int `json:\"retry\"`\n\tHostURL    string\n}\n\nfunc (c *Client) SetRetryCount(n int) *Client {\n\tc.RetryCount = n\n\treturn c\n}\n\nfunc (r *Request) Execute() {\n\tif r.client.RetryCount == 0 {\n\t\treturn\n\t}\n\tBackoff(Retries(r.client.RetryCount))\n}\n";
        let texts = vec![("client.go".to_string(), src.to_string())];
        let lines = |access| -> Vec<u32> {
            usages(&texts, "RetryCount", false, access)
                .iter()
                .map(|h| h.line)
                .collect()
        };
        assert_eq!(lines(Access::Any), [9, 14, 17]);
        assert_eq!(lines(Access::Read), [14, 17]);
        assert_eq!(lines(Access::Write), [9]);
        assert_eq!(
            Access::of("where is the client's RetryCount field read"),
            Access::Read
        );
        assert_eq!(Access::of("where is RetryCount assigned"), Access::Write);
        assert_eq!(Access::of("who uses RetryCount"), Access::Any);
        // A Python class attribute is declared in the class body, used in its methods.
        let py = "class Client:\n    retry_count = 3\n    timeout: float = 1.0\n\n    def run(self):\n        return self.retry_count\n";
        let texts = vec![("client.py".to_string(), py.to_string())];
        let got: Vec<u32> = usages(&texts, "retry_count", false, Access::Any)
            .iter()
            .map(|h| h.line)
            .collect();
        assert_eq!(got, [6]);
    }

    #[test]
    fn static_accessors_and_methods_are_definitions() {
        for (l, want) in [
            (
                "  static get twoDigitCutoffYear() {",
                Some(("twoDigitCutoffYear", "method")),
            ),
            (
                "  static set twoDigitCutoffYear(year) {",
                Some(("twoDigitCutoffYear", "method")),
            ),
            (
                "  static fromISO(text, opts = {}) {",
                Some(("fromISO", "method")),
            ),
            (
                "static COUNTER: AtomicUsize = AtomicUsize::new(0);",
                Some(("COUNTER", "const")),
            ),
        ] {
            let got = definition_on(l);
            assert_eq!(got.as_ref().map(|(n, k)| (n.as_str(), *k)), want, "{l}");
        }
    }

    #[test]
    fn uses_in_top_level_tables() {
        let go = "package sqlx\n\nconst (\n\tUNKNOWN = iota\n\tDOLLAR\n)\n\nvar defaultBinds = map[int][]string{\n\tDOLLAR: []string{\"postgres\"},\n}\n\nfunc Rebind(t int) {\n\tif t == DOLLAR {\n\t}\n}\n";
        let py = "HANDLERS: dict[str, int] = {\n    'a': DOLLAR,\n}\n\n\nclass X:\n    def f(self):\n        return DOLLAR\n";
        let texts = vec![
            ("bind.go".to_string(), go.to_string()),
            ("reg.py".to_string(), py.to_string()),
        ];
        let got: Vec<(String, u32, Option<String>)> = top_level_uses(&texts, "DOLLAR")
            .into_iter()
            .map(|h| (h.path, h.line, h.name))
            .collect();
        assert_eq!(
            got,
            [
                ("bind.go".to_string(), 9, Some("defaultBinds".to_string())),
                ("reg.py".to_string(), 2, Some("HANDLERS".to_string())),
            ]
        );
    }

    #[test]
    fn imported_and_quoted_names_are_no_uses() {
        let py = "from .events import (\n    JobEvent, EVENT_JOB_MISSED,\n    EVENT_JOB_ERROR)\n__all__ = ['EVENT_JOB_MISSED']\n\ndef run(job):\n    emit(EVENT_JOB_MISSED, job)\n";
        let texts = vec![("executors/base.py".to_string(), py.to_string())];
        let got: Vec<u32> = usages(&texts, "EVENT_JOB_MISSED", false, Access::Any)
            .iter()
            .map(|h| h.line)
            .collect();
        assert_eq!(got, [7]);
        let ts = "import {\n  skipToken,\n  noop,\n} from './utils'\n\nif (fn === skipToken) {}\n";
        let texts = vec![("src/a.ts".to_string(), ts.to_string())];
        let got: Vec<u32> = usages(&texts, "skipToken", false, Access::Any)
            .iter()
            .map(|h| h.line)
            .collect();
        assert_eq!(got, [6]);
    }

    #[test]
    fn handlers_catch_and_other_uses_do_not() {
        for l in [
            "        except DropEvent:",
            "    except (KeyError, DropEvent) as e:",
            "} catch (DropEvent e) {",
            "  rescue DropEvent => e",
            "\tif errors.Is(err, ErrDrop) {",
        ] {
            assert!(catches(l), "{l}");
        }
        for l in [
            "        raise DropEvent",
            "    return DropEvent()",
            "class DropEvent(Exception):",
        ] {
            assert!(!catches(l), "{l}");
        }
    }

    #[test]
    fn symbols_with_docs_owners_and_module_doc() {
        let src = "//! Secret files stay out of tool output.\n\nuse std::path::Path;\n\n/// Why a name is secret.\npub fn reason(name: &str) -> bool {\n    name.is_empty()\n}\n\nimpl Guard {\n    // Checks one path.\n    #[must_use]\n    fn check(&self) {}\n}\n";
        let syms = symbols(src, "src/secrets.rs", 4);
        let got: Vec<(String, String, u32, u32, String)> = syms
            .iter()
            .map(|s| {
                (
                    s.display.clone(),
                    s.kind.clone(),
                    s.line,
                    s.end_line,
                    s.doc.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "secrets".into(),
                    "module".into(),
                    1,
                    1,
                    "Secret files stay out of tool output.".into()
                ),
                (
                    "reason".into(),
                    "function".into(),
                    6,
                    8,
                    "Why a name is secret.".into()
                ),
                (
                    "Guard.check".into(),
                    "method".into(),
                    13,
                    13,
                    "Checks one path.".into()
                ),
            ]
        );
        assert!(syms.iter().all(|s| s.file == 4));
    }

    #[test]
    fn allman_braces() {
        let src = "class Server\n{\n    public void Handle(Request r)\n    {\n        Log(r);\n    }\n}\n";
        let texts = vec![("Server.cs".to_string(), src.to_string())];
        let d = definitions(&texts, "Handle");
        assert_eq!(
            d.iter()
                .map(|h| (h.line, h.end_line, h.name.clone().unwrap()))
                .collect::<Vec<_>>(),
            [(3, 6, "Server.Handle".to_string())]
        );
    }

    #[test]
    fn calls_in_a_body() {
        let src = "fn run(x: u32) -> u32 {\n    // skip(1)\n    let y = helper(x);\n    if y > 0 { Some(y) } else { None };\n    self.store.save(y);\n    log!(\"x\");\n    helper(y)\n}\n";
        assert_eq!(
            calls_in(src, 1, 8),
            [
                ("helper".to_string(), 3, false),
                ("save".to_string(), 5, true),
                ("log".to_string(), 6, false)
            ]
        );
    }

    #[test]
    fn methods_are_named_after_their_impl() {
        let dir = tempfile::tempdir().unwrap();
        let src = "pub struct Planner;\n\nimpl Planner {\n    pub fn plan(&self) -> u32 {\n        1\n    }\n}\n\nimpl Other {\n    fn plan(&self) {}\n}\n";
        std::fs::write(dir.path().join("plan.rs"), src).unwrap();
        let files = list_sources(dir.path());
        let texts = candidates(dir.path(), &files, "plan");
        let defs = definitions(&texts, "Planner.plan");
        assert_eq!(
            defs.iter()
                .map(|d| (d.line, d.end_line, d.name.clone().unwrap()))
                .collect::<Vec<_>>(),
            [(4, 6, "Planner.plan".to_string())]
        );
        assert_eq!(definitions(&texts, "plan").len(), 2);
    }
}
