//! Per-file extraction: from one file's bytes to the facts the graph is linked from.
//!
//! Extraction looks at one file alone, so its result can be cached by content hash and
//! redone in parallel; everything that needs other files (which package an import names,
//! which type a receiver is, which interface a type satisfies) waits for the link step
//! ([`super::link`]). Facts therefore keep references as they are written in the source
//! (`model.IssueStore`, `self.repository.save`), with just enough local context (the
//! declared type of a variable, the class a `self` belongs to) for the linker to resolve
//! them.
//!
//! What counts as a definition or a call site is specified by tags.scm-style queries
//! (`crates/tools/queries/`). Running them costs as much as a third of the parse, so the
//! extractors find the same nodes in one hand walk of the declarations (Go: the top-level
//! declarations; Python: module and class bodies) and of each function body, which also
//! qualifies names and types local variables. The tests check that the walk and the
//! queries find the same definitions.

mod go;
pub use go::default_import_name as go_import_name;
mod heap;
pub use heap::{TreeHeap, set_tree_heap};
mod java;
mod python;
mod rust;
mod ts;
pub(crate) use ts::{COMMONJS_EXPORTS, DEFAULT_EXPORT, SELF_MODULE, STAR};

#[cfg(test)]
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use tree_sitter::{Node, Parser, Tree};
#[cfg(test)]
use tree_sitter::{Query, QueryCursor, StreamingIterator};

use super::model::{Kind, Language};

/// Source of the Go query, compiled once per process.
pub const GO_QUERY: &str = include_str!("../../../queries/go.scm");
/// Source of the Python query, compiled once per process.
pub const PYTHON_QUERY: &str = include_str!("../../../queries/python.scm");
/// Source of the TypeScript (and TSX) query.
pub const TYPESCRIPT_QUERY: &str = include_str!("../../../queries/typescript.scm");
/// Source of the JavaScript query.
pub const JAVASCRIPT_QUERY: &str = include_str!("../../../queries/javascript.scm");

/// Source of the Rust query.
pub const RUST_QUERY: &str = include_str!("../../../queries/rust.scm");
/// Source of the Java query.
pub const JAVA_QUERY: &str = include_str!("../../../queries/java.scm");

/// Every query file, in the order the cache fingerprint hashes them.
pub const QUERIES: [&str; 6] = [
    GO_QUERY,
    PYTHON_QUERY,
    TYPESCRIPT_QUERY,
    JAVASCRIPT_QUERY,
    RUST_QUERY,
    JAVA_QUERY,
];

/// How deep the extractors follow nested expressions, types and declarations (a field
/// chain, generic arguments, inline modules): deeper is never a definition or a receiver
/// worth typing, and recursion on what a file nests must not overflow the stack.
pub(crate) const MAX_NESTING: u32 = 32;

/// A type or value reference as written: `["model", "IssueStore"]`, `["Repository"]`.
pub type Path = Vec<String>;

/// Everything the linker needs from one file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFacts {
    /// Number of lines.
    pub lines: u32,
    /// The parse tree had syntax errors; what could be read was kept.
    pub had_errors: bool,
    /// Generated code (set by the indexer, which knows the path).
    pub generated: bool,
    /// Go: the package clause name. Java: the package declaration. Others: empty.
    pub package: String,
    /// The file's imports.
    pub imports: Vec<Import>,
    /// Its definitions, in source order.
    pub symbols: Vec<RawSymbol>,
    /// Rust `impl` blocks: which type (and trait) their methods belong to.
    pub impls: Vec<ImplBlock>,
}

/// A Rust `impl` block. Its type may be defined in another module of the crate, so the
/// linker, not the extractor, finds the type its methods belong to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplBlock {
    /// The `impl` line.
    pub line: u32,
    /// The inline `mod` blocks around it (empty at file level).
    pub module: Vec<String>,
    /// The type as written, generics and references removed: `["Parser"]`,
    /// `["crate", "ast", "Node"]`.
    pub ty: Path,
    /// The trait of `impl Trait for Type`, as written.
    pub trait_: Option<Path>,
    /// Indices into [`FileFacts::symbols`] of the block's methods.
    pub methods: Vec<u32>,
    /// For a type from outside the repository (`impl Buf for &[u8]`), the index into
    /// [`FileFacts::symbols`] of the symbol the block defines for it (then `ty` is empty):
    /// the implementor its methods belong to.
    pub implementor: Option<u32>,
}

/// One import binding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The name bound in the file. Go: the alias, or empty for the package's own name.
    /// Rust and Java: `*` for a glob import.
    pub local: String,
    /// Python: number of leading dots of a relative import. Java: 1 for a static import.
    /// Others: 0.
    pub level: u32,
    /// Go: the import path. Python: the module as written (without leading dots). Rust:
    /// the `use` path with `.` for `::` (`crate.a.B`, `super.x`). Java: the imported name
    /// (`com.acme.Cart`), or the package of an `import a.b.*`.
    pub module: String,
    /// Python `from M import name`: the imported name.
    pub name: Option<String>,
}

/// One definition with the references made from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawSymbol {
    /// The bare name.
    pub name: String,
    /// Enclosing type names: Go receiver type or interface; Python enclosing classes.
    pub container: Vec<String>,
    /// What it is.
    pub kind: Kind,
    /// First line, 1-based.
    pub line: u32,
    /// Last line, inclusive.
    pub end_line: u32,
    /// One-line signature.
    pub signature: String,
    /// First line of the doc comment.
    pub doc: Option<String>,
    /// Types: fields (Go struct fields, Python attributes) with what is known of their type.
    /// Module-level variables: one entry, under their own name, with what is known of
    /// their value ([`RawSymbol::value`]).
    pub fields: Vec<(String, Recv)>,
    /// Types: embedded types (Go) or base classes (Python).
    pub bases: Vec<Path>,
    /// Functions: the named types of the results, outermost pointer removed.
    pub results: Vec<Path>,
    /// Functions: every named type mentioned in parameters and results.
    pub uses: Vec<Path>,
    /// Functions: the calls made in the body (closures included).
    pub calls: Vec<RawCall>,
    /// Go functions, methods and package-level variables; Python, TypeScript, JavaScript
    /// and Rust functions and methods (and Python and TypeScript module-level
    /// initializers):
    /// the names their body or initializer reads or assigns that are not local
    /// (`_globalL`, `zapcore.DebugLevel`, `LIMIT`, `config.TIMEOUT`), with their lines, one
    /// per name and line; the linker keeps those that name a package- or module-level
    /// variable or constant. Callees are calls, not reads.
    pub reads: Vec<(u32, Path)>,
    /// Test code by where it is, in a file that is not a test file: Rust's `#[cfg(test)]`
    /// modules.
    pub test: bool,
}

impl RawSymbol {
    /// What a module-level variable holds (`var CommandLine = NewFlagSet(…)`, `app =
    /// Flask(…)`), kept in `fields` under its own name: calls through it resolve as calls
    /// on a value of that type.
    pub fn value(&self) -> Option<&Recv> {
        match self.kind {
            Kind::Var | Kind::Const => self
                .fields
                .first()
                .filter(|(n, _)| *n == self.name)
                .map(|(_, r)| r),
            _ => None,
        }
    }

    fn new(name: String, kind: Kind, node: Node<'_>, src: &str) -> Self {
        RawSymbol {
            name,
            container: Vec::new(),
            kind,
            line: node.start_position().row as u32 + 1,
            end_line: node.end_position().row as u32 + 1,
            signature: first_line(node, src),
            doc: None,
            fields: Vec::new(),
            bases: Vec::new(),
            results: Vec::new(),
            uses: Vec::new(),
            calls: Vec::new(),
            reads: Vec::new(),
            test: false,
        }
    }
}

/// Records the fields that assignments in methods found (`self.x = …`, `this.x = …`,
/// TypeScript parameter properties): on the type `types` names, unless its declaration
/// already says more.
pub(crate) fn apply_fields(
    symbols: &mut [RawSymbol],
    types: &foldhash::HashMap<String, usize>,
    pending: Vec<(String, String, Recv)>,
) {
    for (owner, field, recv) in pending {
        if let Some(&i) = types.get(&owner) {
            let fields = &mut symbols[i].fields;
            match fields.iter_mut().find(|(n, _)| *n == field) {
                Some((_, old)) if matches!(old, Recv::Unknown | Recv::Opaque) => *old = recv,
                Some(_) => {}
                None => fields.push((field, recv)),
            }
        }
    }
}

/// What is known about the value a method is called on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Recv {
    /// Declared or constructed with this type (`p *Planner`, `&T{}`, `x: Repository`).
    Typed(Path),
    /// A value of a type parameter with several trait bounds (Rust `i: I` where
    /// `I: InputTake + Compare<T>`): a method is the one of whichever bound declares it.
    Bounded(Vec<Path>),
    /// The result of a call (`x := NewT()`, `s.issues.Get(id)`, `get_service()`).
    CallResult(Box<CallTarget>),
    /// A field of another value: `r.Planner`, `self.repository`.
    Field(Box<Recv>, Vec<String>),
    /// The method's own receiver: Python `self`/`cls` (Go receivers are `Typed`).
    SelfRef,
    /// Python `super()`.
    Super,
    /// Known, but not a named type (a literal, a slice, a function value).
    Opaque,
    /// Nothing is known: the linker falls back to matching the method name.
    Unknown,
}

/// What a call calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CallTarget {
    /// A name resolved in file scope: `f`, `pkg.F`, `module.f`, `Class.method`.
    Path(Path),
    /// A method on a value: `base.fields….name(...)`.
    Member {
        /// The value the chain starts from.
        base: Recv,
        /// Field or attribute names between the base and the method.
        fields: Vec<String>,
        /// The method name.
        name: String,
    },
}

/// One call site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawCall {
    /// The line of the call.
    pub line: u32,
    /// What it calls.
    pub target: CallTarget,
}

/// Why a file could not be extracted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExtractError {
    /// Not UTF-8 text.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// tree-sitter gave up.
    #[error("the parser failed")]
    ParseFailed,
    /// The query did not compile (a bug, caught by the query tests).
    #[error("query error: {0}")]
    Query(String),
}

/// A compiled query with the indices of the captures: the specification the extractors'
/// walks are tested against.
#[cfg(test)]
pub(crate) struct Compiled {
    /// The definition patterns only: reference patterns disabled.
    pub query: Query,
    /// The deepest node a definition pattern may start at.
    pub max_start_depth: u32,
    pub name: u32,
    /// Capture index → the definition kind it marks, or `None` for references.
    pub def_kinds: Vec<Option<Kind>>,
    pub call: Option<u32>,
}

/// Python definitions sit at most this deep (module > decorated class > block >
/// decorated nested class > block > decorated method); deeper matches are local ones.
pub const PYTHON_MAX_START_DEPTH: u32 = 9;

#[cfg(test)]
fn compile(
    language: &tree_sitter::Language,
    src: &str,
    max_start_depth: u32,
) -> Result<Compiled, String> {
    let mut query = Query::new(language, src).map_err(|e| e.to_string())?;
    // Call sites are collected by the body walk (see the query files); running the
    // reference patterns over every node would cost as much as parsing.
    for i in 0..query.pattern_count() {
        let start = query.start_byte_for_pattern(i);
        let end = if i + 1 < query.pattern_count() {
            query.start_byte_for_pattern(i + 1)
        } else {
            src.len()
        };
        if src
            .get(start..end)
            .is_some_and(|p| p.contains("@reference."))
        {
            query.disable_pattern(i);
        }
    }
    let mut name = None;
    let mut call = None;
    let mut def_kinds = Vec::new();
    for (i, cap) in query.capture_names().iter().enumerate() {
        let kind = cap.strip_prefix("definition.").and_then(Kind::parse);
        if *cap == "name" {
            name = Some(i as u32);
        }
        if *cap == "reference.call" {
            call = Some(i as u32);
        }
        if cap.starts_with("definition.") && kind.is_none() {
            return Err(format!("unknown definition kind in capture @{cap}"));
        }
        def_kinds.push(kind);
    }
    let name = name.ok_or("the query has no @name capture")?;
    Ok(Compiled {
        query,
        max_start_depth,
        name,
        def_kinds,
        call,
    })
}

pub(crate) fn go_language() -> tree_sitter::Language {
    tree_sitter_go::LANGUAGE.into()
}

pub(crate) fn python_language() -> tree_sitter::Language {
    tree_sitter_python::LANGUAGE.into()
}

/// The grammar of a language.
pub(crate) fn grammar(language: Language) -> tree_sitter::Language {
    match language {
        Language::Go => go_language(),
        Language::Python => python_language(),
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        Language::Java => tree_sitter_java::LANGUAGE.into(),
    }
}

/// The compiled query for a language (compiled once, shared by every thread).
#[cfg(test)]
pub(crate) fn query(language: Language) -> Result<&'static Compiled, ExtractError> {
    static GO: OnceLock<Result<Compiled, String>> = OnceLock::new();
    static PY: OnceLock<Result<Compiled, String>> = OnceLock::new();
    static TS: OnceLock<Result<Compiled, String>> = OnceLock::new();
    static TSX: OnceLock<Result<Compiled, String>> = OnceLock::new();
    static JS: OnceLock<Result<Compiled, String>> = OnceLock::new();
    static RS: OnceLock<Result<Compiled, String>> = OnceLock::new();
    static JAVA: OnceLock<Result<Compiled, String>> = OnceLock::new();
    let q = match language {
        Language::Go => GO.get_or_init(|| compile(&go_language(), GO_QUERY, 0)),
        Language::Python => {
            PY.get_or_init(|| compile(&python_language(), PYTHON_QUERY, PYTHON_MAX_START_DEPTH))
        }
        Language::TypeScript => TS.get_or_init(|| compile(&grammar(language), TYPESCRIPT_QUERY, 0)),
        Language::Tsx => TSX.get_or_init(|| compile(&grammar(language), TYPESCRIPT_QUERY, 0)),
        Language::JavaScript => JS.get_or_init(|| compile(&grammar(language), JAVASCRIPT_QUERY, 0)),
        Language::Rust => RS.get_or_init(|| compile(&grammar(language), RUST_QUERY, u32::MAX)),
        Language::Java => JAVA.get_or_init(|| compile(&grammar(language), JAVA_QUERY, u32::MAX)),
    };
    q.as_ref().map_err(|e| ExtractError::Query(e.clone()))
}

thread_local! {
    static PARSERS: std::cell::RefCell<[Option<Parser>; Language::ALL.len()]> =
        const { std::cell::RefCell::new([const { None }; Language::ALL.len()]) };
}

/// Parses `src` without extracting anything: the floor the benchmark compares with.
pub fn parse_only(language: Language, src: &[u8]) -> Result<Tree, ExtractError> {
    with_parser(language, |parser| {
        parser.parse(src, None).ok_or(ExtractError::ParseFailed)
    })
}

/// Runs `f` with this thread's parser for `language`, made on first use.
fn with_parser<T>(
    language: Language,
    f: impl FnOnce(&mut Parser) -> Result<T, ExtractError>,
) -> Result<T, ExtractError> {
    PARSERS.with(|cell| {
        let mut slots = cell.borrow_mut();
        let i = Language::ALL
            .iter()
            .position(|l| *l == language)
            .unwrap_or(0);
        let slot = &mut slots[i];
        if slot.is_none() {
            *slot = Some(new_parser(language)?);
        }
        f(slot.as_mut().ok_or(ExtractError::ParseFailed)?)
    })
}

/// A parser for `language`.
fn new_parser(language: Language) -> Result<Parser, ExtractError> {
    let mut p = Parser::new();
    p.set_language(&grammar(language))
        .map_err(|_| ExtractError::ParseFailed)?;
    Ok(p)
}

/// Extracts the facts of one file.
pub fn extract(language: Language, src: &[u8]) -> Result<FileFacts, ExtractError> {
    let Ok(text) = std::str::from_utf8(src) else {
        return Err(ExtractError::NotUtf8);
    };
    // The tree freed with its batch's heap, not node by node (see `heap`).
    if let Some(facts) = heap::in_batch(language, src.len(), |parser| {
        extract_parsed(language, text, parser)
    }) {
        return facts;
    }
    with_parser(language, |parser| {
        extract_parsed(language, text, parser).map(|(facts, _)| facts)
    })
}

/// The facts of the UTF-8 text `text`, parsed with `parser` (set to `language`), and its
/// tree.
fn extract_parsed(
    language: Language,
    text: &str,
    parser: &mut Parser,
) -> Result<(FileFacts, Tree), ExtractError> {
    let src = text.as_bytes();
    let (tree, patched) = parse_with(parser, language, text)?;
    let text = patched.as_deref().unwrap_or(text);
    let mut facts = match language {
        Language::Go => go::extract(&tree, text),
        Language::Python => python::extract(&tree, text),
        Language::TypeScript | Language::Tsx | Language::JavaScript => ts::extract(&tree, text),
        Language::Rust => rust::extract(&tree, text, Some(parser)),
        Language::Java => java::extract(&tree, text),
    };
    facts.lines = count_lines(src);
    facts.had_errors = tree.root_node().has_error();
    Ok((facts, tree))
}

/// Parses `src` for extraction: as it is, or, for a TypeScript file whose parse had
/// errors, with the `;`s [`ts::separate_call_signatures`] adds when that parse has fewer
/// (then the text it parsed is returned too, the one its nodes' bytes index).
#[cfg(test)]
pub(crate) fn parse(language: Language, src: &str) -> Result<(Tree, Option<String>), ExtractError> {
    with_parser(language, |parser| parse_with(parser, language, src))
}

/// [`parse`] with `parser` (set to `language`).
fn parse_with(
    parser: &mut Parser,
    language: Language,
    src: &str,
) -> Result<(Tree, Option<String>), ExtractError> {
    let mut parse = |text: &str| parser.parse(text, None).ok_or(ExtractError::ParseFailed);
    let tree = parse(src)?;
    if language == Language::TypeScript
        && tree.root_node().has_error()
        && let Some(p) = ts::separate_call_signatures(src)
    {
        let again = parse(&p)?;
        if error_bytes(&again) < error_bytes(&tree) {
            return Ok((again, Some(p)));
        }
    }
    Ok((tree, None))
}

/// How much of a file the parser could not read: the bytes of its outermost `ERROR`
/// nodes, plus one per `MISSING` node. Only subtrees that contain an error are entered.
fn error_bytes(tree: &Tree) -> usize {
    let mut total = 0;
    walk_pruned(tree.root_node(), &mut |n| {
        if n.is_error() {
            total += n.byte_range().len().max(1);
            false
        } else if n.is_missing() {
            total += 1;
            false
        } else {
            n.has_error()
        }
    });
    total
}

/// Number of lines in `src` (a last line without a newline counts).
pub fn count_lines(src: &[u8]) -> u32 {
    let n = memchr::memchr_iter(b'\n', src).count();
    let extra = usize::from(!src.is_empty() && !src.ends_with(b"\n"));
    (n + extra) as u32
}

/// One query match, flattened: the definition or call node, its kind, and its name.
#[cfg(test)]
pub(crate) struct Hit<'t> {
    pub node: Node<'t>,
    pub name: String,
    /// `Some(kind)` for a definition, `None` for a call.
    pub def: Option<Kind>,
}

/// Runs the query and returns definitions and calls in source order.
#[cfg(test)]
pub(crate) fn run_query<'t>(q: &Compiled, tree: &'t Tree, src: &str) -> Vec<Hit<'t>> {
    let mut cursor = QueryCursor::new();
    cursor.set_max_start_depth(Some(q.max_start_depth));
    let mut matches = cursor.matches(&q.query, tree.root_node(), src.as_bytes());
    let mut hits = Vec::new();
    while let Some(m) = matches.next() {
        let mut name = None;
        let mut target = None;
        for cap in m.captures {
            if cap.index == q.name {
                name = Some(text(cap.node, src).to_string());
            } else if let Some(kind) = q.def_kinds.get(cap.index as usize).copied().flatten() {
                target = Some((cap.node, Some(kind)));
            } else if Some(cap.index) == q.call {
                target = Some((cap.node, None));
            }
        }
        if let (Some(name), Some((node, def))) = (name, target) {
            hits.push(Hit { node, name, def });
        }
    }
    hits
}

/// The first line of the comment right above `node` (ending on the line before it, or
/// on its line), `/** … */` and `//` markers removed: a JSDoc summary, a Rust `///` line.
pub(crate) fn doc_comment_above(node: Node<'_>, src: &str) -> Option<String> {
    let mut prev = node.prev_sibling()?;
    if !prev.kind().contains("comment") || prev.end_position().row + 1 < node.start_position().row {
        return None;
    }
    // The first comment of an unbroken run of line comments.
    while let Some(p) = prev.prev_sibling() {
        if p.kind().contains("comment")
            && p.end_position().row + 1 == prev.start_position().row
            && text(p, src).starts_with("//")
            && text(prev, src).starts_with("//")
        {
            prev = p;
        } else {
            break;
        }
    }
    let line = text(prev, src)
        .lines()
        .map(|l| {
            l.trim()
                .trim_start_matches("/**")
                .trim_start_matches("/*")
                .trim_start_matches("///")
                .trim_start_matches("//!")
                .trim_start_matches("//")
                .trim_end_matches("*/")
                .trim_start_matches('*')
                .trim()
        })
        .find(|l| !l.is_empty())?;
    Some(shorten(line, 160))
}

/// The text of a node: a slice of the source, which [`extract`] checked is UTF-8 once for
/// the whole file (empty if the node's range were not on character boundaries).
pub(crate) fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// 1-based line of a node.
pub(crate) fn line_of(node: Node<'_>) -> u32 {
    node.start_position().row as u32 + 1
}

/// The first line of a node's text, trimmed and cut to a readable length.
pub(crate) fn first_line(node: Node<'_>, src: &str) -> String {
    let t = text(node, src);
    let line = t.lines().next().unwrap_or("").trim();
    let line = line.strip_suffix('{').unwrap_or(line).trim_end();
    shorten(line, 160)
}

/// A declaration's one-line signature, from `start`: its first line, trimmed, without a
/// trailing `{`; or, when its header (`start..header_end`, up to its body) spans several
/// lines (a Java or Rust parameter list one per line), the header on one line, comments
/// dropped and whitespace collapsed, so the signature holds every parameter.
pub(crate) fn signature_from(src: &str, start: usize, header_end: usize) -> String {
    let head = src
        .get(start..header_end.max(start))
        .unwrap_or("")
        .trim_end();
    if !head.contains('\n') {
        let line = src
            .get(start..)
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or("")
            .trim();
        let line = line.strip_suffix('{').unwrap_or(line).trim_end();
        return shorten(line, 160);
    }
    // Comments out, outside string literals.
    let mut plain = String::with_capacity(head.len());
    let mut chars = head.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            plain.push(c);
            if c == '\\' {
                plain.extend(chars.next());
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_str = true;
                plain.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                plain.push(' ');
            }
            ('/', Some('*')) => {
                chars.next();
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
                plain.push(' ');
            }
            _ => plain.push(c),
        }
    }
    let one = plain.split_whitespace().collect::<Vec<_>>().join(" ");
    let one = one
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" ,", ",")
        .replace(",)", ")");
    let one = one.trim_end_matches(['{', ';']).trim_end();
    shorten(one, 160)
}

/// Cuts `s` to at most `max` characters, marking the cut with `…`.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// Every named child of a node: by index when there are few (see [`walk_pruned`]).
pub(crate) fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let count = node.named_child_count();
    if count <= WIDE {
        (0..count).filter_map(|i| node.named_child(i)).collect()
    } else {
        let mut cursor = node.walk();
        node.named_children(&mut cursor).collect()
    }
}

/// Visits the named nodes under `node` (depth first, `node` included); `f` returns whether
/// to descend into the node it was given.
///
/// The children of a node are taken by index (`Node::child`), not with a `TreeCursor`:
/// a cursor's `goto_next_sibling` cost about 540 instructions a call on the benchmark
/// corpus (it rebuilds the parent's child iterator with its visibility and alias lookups,
/// and fails through hidden parents at the end of each list), `Node::child` about 330 on
/// average, though it rescans the children before the one asked for. Most nodes have a
/// few children; a node with more than [`WIDE`] (a long block or literal) has them read
/// with one cursor pass instead, since indexing is quadratic in their number. The walks
/// were the largest cost of extraction after parsing; this took 6% off a cold build's
/// instructions.
pub(crate) fn walk_pruned<'t>(node: Node<'t>, f: &mut impl FnMut(Node<'t>) -> bool) {
    // Nodes still to visit, the next one last.
    let mut stack = vec![node];
    let mut wide = Vec::new();
    while let Some(n) = stack.pop() {
        if n.is_named() && !f(n) {
            continue;
        }
        push_children(n, &mut stack, &mut wide);
    }
}

/// A node with more children than this has them read with a cursor (see [`walk_pruned`]).
const WIDE: usize = 16;

/// Pushes `n`'s children on `stack`, last child first, so that they are popped in order.
fn push_children<'t>(n: Node<'t>, stack: &mut Vec<Node<'t>>, wide: &mut Vec<Node<'t>>) {
    let count = n.child_count();
    if count <= WIDE {
        stack.extend((0..count).rev().filter_map(|i| n.child(i)));
    } else {
        let mut cursor = n.walk();
        wide.clear();
        wide.extend(n.children(&mut cursor));
        stack.extend(wide.drain(..).rev());
    }
}

/// The id of a named node kind, compared with [`Node::kind_id`] in the walks instead of
/// the kind's name (which costs a `strlen` and a UTF-8 check per node). 0 if the grammar
/// has no such kind, which the extractors' tests rule out.
pub(crate) fn kind_id(language: &tree_sitter::Language, kind: &str) -> u16 {
    language.id_for_node_kind(kind, true)
}

/// Visits every named node under `node` (depth first, `node` included), as
/// [`walk_pruned`] does.
pub(crate) fn walk<'t>(node: Node<'t>, f: &mut impl FnMut(Node<'t>)) {
    walk_pruned(node, &mut |n| {
        f(n);
        true
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_compile_with_the_expected_captures() {
        for lang in Language::ALL {
            let q = query(lang).unwrap();
            assert!(q.call.is_some(), "{lang:?} has @reference.call");
            // Java has no functions outside classes.
            assert!(lang == Language::Java || q.def_kinds.contains(&Some(Kind::Function)));
        }
        for lang in [Language::Rust, Language::Java] {
            let q = query(lang).unwrap();
            for k in [Kind::Method, Kind::Interface, Kind::Type] {
                assert!(q.def_kinds.contains(&Some(k)), "{lang:?} marks {k}");
            }
        }
        let go = query(Language::Go).unwrap();
        for k in [
            Kind::Method,
            Kind::Struct,
            Kind::Interface,
            Kind::Type,
            Kind::Const,
            Kind::Var,
        ] {
            assert!(go.def_kinds.contains(&Some(k)), "go query marks {k}");
        }
        let py = query(Language::Python).unwrap();
        assert!(py.def_kinds.contains(&Some(Kind::Class)));
        assert!(py.def_kinds.contains(&Some(Kind::Var)));
    }

    #[test]
    fn reference_patterns_compile_and_are_left_to_the_body_walk() {
        for src in [GO_QUERY, PYTHON_QUERY] {
            assert_eq!(src.matches(") @reference.call").count(), 2);
        }
        // The Go tree: calls are found, definitions inside function bodies are not.
        let facts = extract(
            Language::Go,
            b"package p\n\nfunc F() {\n\ttype local struct{}\n\tG()\n}\n\nfunc G() {}\n",
        )
        .unwrap();
        let names: Vec<&str> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["F", "G"]);
        assert_eq!(facts.symbols[0].calls.len(), 1);
        assert_eq!(facts.symbols[0].calls[0].line, 5);
    }

    #[test]
    fn unknown_definition_kind_is_rejected() {
        let err = compile(
            &go_language(),
            "(function_declaration name: (identifier) @name) @definition.func",
            0,
        )
        .err()
        .unwrap();
        assert_eq!(err, "unknown definition kind in capture @definition.func");
    }

    #[test]
    fn line_count() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"a\nb\n"), 2);
        assert_eq!(count_lines(b"a\nb"), 2);
    }

    #[test]
    fn non_utf8_is_refused() {
        assert_eq!(
            extract(Language::Go, b"package a\xff\xfe").unwrap_err(),
            ExtractError::NotUtf8
        );
    }

    /// The definitions the query file describes, as (line, name), sorted, the way the
    /// walks must find them: one per node and name (Go's generic `type` pattern matches
    /// structs and interfaces again); Python, those with no function around them.
    fn query_definitions(language: Language, src: &str) -> Vec<(u32, String)> {
        let (tree, patched) = parse(language, src).unwrap();
        let src = patched.as_deref().unwrap_or(src);
        let mut out: Vec<(usize, u32, String)> = Vec::new();
        for hit in run_query(query(language).unwrap(), &tree, src) {
            if hit.def.is_none() {
                continue;
            }
            let mut p = hit.node.parent();
            let mut local = false;
            while let Some(n) = p {
                local |= match language {
                    Language::Rust => n.kind() == "function_item",
                    // Java: definitions are those of type bodies, nested or not.
                    Language::Java => !matches!(
                        n.kind(),
                        "program"
                            | "class_declaration"
                            | "class_body"
                            | "record_declaration"
                            | "interface_declaration"
                            | "interface_body"
                            | "enum_declaration"
                            | "enum_body"
                            | "enum_body_declarations"
                            | "annotation_type_declaration"
                            | "annotation_type_body"
                    ),
                    _ => n.kind() == "function_definition",
                };
                p = n.parent();
            }
            if local {
                continue;
            }
            // Java: the line after the annotations, as for Python's decorators.
            let line = match language {
                Language::Java => java::start(hit.node, src).0,
                _ => line_of(hit.node),
            };
            let def = (hit.node.id(), line, hit.name);
            if !out.contains(&def) {
                out.push(def);
            }
        }
        let mut defs: Vec<_> = out.into_iter().map(|(_, l, n)| (l, n)).collect();
        defs.sort();
        defs
    }

    fn sorted(mut v: Vec<(u32, String)>) -> Vec<(u32, String)> {
        v.sort();
        v
    }

    /// The definitions the walk finds, as the query files name them: a Rust macro without
    /// its `!`, and without the symbols of `impl` blocks for types from outside the
    /// repository (no query pattern can tell those types apart).
    fn walked_definitions(language: Language, src: &str) -> Vec<(u32, String)> {
        let facts = extract(language, src.as_bytes()).unwrap();
        let implementors: Vec<u32> = facts.impls.iter().filter_map(|b| b.implementor).collect();
        facts
            .symbols
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !implementors.contains(&(*i as u32)))
            .map(|(_, s)| (s.line, s.name.trim_end_matches('!').to_string()))
            .collect()
    }

    fn sources(dir: &std::path::Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                sources(&p, ext, out);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }

    #[test]
    fn the_walks_find_the_definitions_the_queries_describe() {
        let fixtures =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../evals/fixtures");
        let mut checked = [0usize; 2];
        for (i, (language, dir, ext)) in [
            (Language::Go, "relay", "go"),
            (Language::Python, "ledger", "py"),
        ]
        .into_iter()
        .enumerate()
        {
            let mut files = Vec::new();
            sources(&fixtures.join(dir), ext, &mut files);
            for f in files {
                let src = std::fs::read_to_string(&f).unwrap();
                let want = query_definitions(language, &src);
                let got = sorted(walked_definitions(language, &src));
                assert_eq!(got, want, "{}", f.display());
                checked[i] += want.len();
            }
        }
        assert!(checked[0] > 100 && checked[1] > 100, "{checked:?}");

        let go = "package p\n\nconst a, b = 1, 2\n\n// V doc\nvar (\n\tV int\n\tw, x = 1, 2\n)\n\n\
                  type (\n\t// I doc\n\tI interface {\n\t\tM() error\n\t}\n\tS struct{ f int }\n)\n\n\
                  func F() { type local struct{}; var y = 1; _ = y }\n";
        assert_eq!(
            walked_definitions(Language::Go, go),
            [
                (3, "a"),
                (3, "b"),
                (7, "V"),
                (8, "w"),
                (8, "x"),
                (13, "I"),
                (14, "M"),
                (16, "S"),
                (19, "F")
            ]
            .map(|(l, n)| (l, n.to_string()))
        );
        // The query matches only `a` in `const a, b = 1, 2` (a quirk of tree-sitter's
        // matching of repeated fields, not the query file's intent; in `var (…)` it finds
        // both): every name is a definition.
        let mut from_query = query_definitions(Language::Go, go);
        from_query.insert(1, (3, "b".to_string()));
        assert_eq!(sorted(walked_definitions(Language::Go, go)), from_query);
        let facts = extract(Language::Go, go.as_bytes()).unwrap();
        let docs: Vec<_> = facts.symbols.iter().map(|s| s.doc.as_deref()).collect();
        assert_eq!(
            docs,
            [
                None,
                None,
                Some("V doc"),
                Some("V doc"),
                Some("V doc"),
                Some("I doc"),
                None,
                None,
                None
            ]
        );

        let py = "import a\nX = 1\nclass C:\n    class D:\n        def m(self):\n            import b\n\
                  \n            def local(): pass\n    if True:\n        def n(self): pass\n\
                  def f():\n    class L:\n        def g(self): pass\n";
        assert_eq!(
            walked_definitions(Language::Python, py),
            [(2, "X"), (3, "C"), (4, "D"), (5, "m"), (10, "n"), (11, "f")]
                .map(|(l, n)| (l, n.to_string()))
        );
        assert_eq!(
            sorted(walked_definitions(Language::Python, py)),
            query_definitions(Language::Python, py)
        );
        let facts = extract(Language::Python, py.as_bytes()).unwrap();
        let imports: Vec<_> = facts.imports.iter().map(|i| i.module.as_str()).collect();
        assert_eq!(imports, ["a", "b"]);
        assert_eq!(facts.symbols[3].container, ["C", "D"]);
    }

    /// The TypeScript, TSX and JavaScript walk against the query files on the `ts-mini`
    /// fixture (every pattern is rooted at `program`: no local definitions to drop).
    #[test]
    fn the_ts_walk_finds_the_definitions_the_queries_describe() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ts-mini");
        let mut files = Vec::new();
        for ext in ["ts", "tsx", "js"] {
            sources(&dir, ext, &mut files);
        }
        let mut checked = 0;
        for f in &files {
            let language = Language::of_path(&f.to_string_lossy()).unwrap();
            let src = std::fs::read_to_string(f).unwrap();
            let want = query_definitions(language, &src);
            let got = sorted(walked_definitions(language, &src));
            assert_eq!(got, want, "{}", f.display());
            checked += want.len();
        }
        assert!(checked >= 30, "{checked}");
        // The walk's kinds: arrow functions are functions, enums and aliases types,
        // interface members methods, `let` a var.
        let src = "export const f = () => 1;\nlet n = 2;\nenum E { A }\ntype T = string;\n\
                   interface I { m(): void; cb: (x: number) => void; p: string }\n\
                   function g(a: string): void;\nfunction g(a: any) {}\n";
        let facts = extract(Language::TypeScript, src.as_bytes()).unwrap();
        let kinds: Vec<_> = facts
            .symbols
            .iter()
            .map(|s| (s.name.as_str(), s.kind, s.line))
            .collect();
        assert_eq!(
            kinds,
            [
                ("f", Kind::Function, 1),
                ("n", Kind::Var, 2),
                ("E", Kind::Type, 3),
                ("T", Kind::Type, 4),
                ("I", Kind::Interface, 5),
                ("m", Kind::Method, 5),
                ("cb", Kind::Method, 5),
                ("g", Kind::Function, 7),
            ]
        );
        assert_eq!(facts.symbols[5].container, ["I"]);
    }

    /// The Rust and Java walks against the query files on the `rs-mini` and `java-mini`
    /// fixtures and on the odd cases (inline modules, local items, nested and anonymous
    /// classes).
    #[test]
    fn the_rust_and_java_walks_find_the_definitions_the_queries_describe() {
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        for (language, dir, ext, at_least) in [
            (Language::Rust, "rs-mini", "rs", 25),
            (Language::Java, "java-mini", "java", 25),
        ] {
            let mut files = Vec::new();
            sources(&base.join(dir), ext, &mut files);
            let mut checked = 0;
            for f in &files {
                let src = std::fs::read_to_string(f).unwrap();
                let want = query_definitions(language, &src);
                let got = sorted(walked_definitions(language, &src));
                assert_eq!(got, want, "{}", f.display());
                checked += want.len();
            }
            assert!(checked >= at_least, "{language:?}: {checked}");
        }
        let rs = "mod a { pub fn f() { struct Local; fn g() {} } const C: u8 = 1;\n\
                  impl S { fn m() {} } }\nstruct S;\ntrait T { fn t(); fn d() {} }\n\
                  fn h() { impl S { fn hidden() {} } }\nunion U { a: u8 }\ntype A = u8;\n";
        assert_eq!(
            sorted(walked_definitions(Language::Rust, rs)),
            query_definitions(Language::Rust, rs)
        );
        assert_eq!(query_definitions(Language::Rust, rs).len(), 10);
        let java = "class A { void m() { class Local { void x() {} } Runnable r = new Runnable() {\n\
                    public void run() {} }; }\n interface I { int f(); }\n enum E { X { void y() {} };\n\
                    void z() {} }\n record R(int a) { R { } }\n @interface Ann { int v(); } A() {} }\n";
        assert_eq!(
            sorted(walked_definitions(Language::Java, java)),
            query_definitions(Language::Java, java)
        );
        assert_eq!(query_definitions(Language::Java, java).len(), 9);
    }

    #[test]
    fn walk_kinds_exist_in_the_grammars() {
        for (lang, kinds) in [
            (
                go_language(),
                &[
                    "call_expression",
                    "qualified_type",
                    "comment",
                    "var_spec",
                    "identifier",
                    "selector_expression",
                    "keyed_element",
                ][..],
            ),
            (
                python_language(),
                &["call", "assignment", "import_from_statement", "module"][..],
            ),
        ] {
            for k in kinds {
                assert_ne!(kind_id(&lang, k), 0, "{k}");
            }
        }
        assert_eq!(kind_id(&go_language(), "no_such_kind"), 0);
    }

    #[test]
    fn a_header_over_several_lines_is_one_signature_line() {
        let src = "public Object eval( \n\t\tReader in, // the text\n\t\tString name\n\t\t\t/*, int depth */ )\n\t\tthrows EvalError\n\t{\n\t\treturn null;\n\t}\n";
        let body = src.find('{').unwrap();
        assert_eq!(
            signature_from(src, 0, body),
            "public Object eval(Reader in, String name) throws EvalError"
        );
        // A header on one line is the first line, as before (a one-line body included).
        let one = "fn area(&self) -> f64 { self.w * self.h }\n";
        assert_eq!(
            signature_from(one, 0, one.find('{').unwrap()),
            "fn area(&self) -> f64 { self.w * self.h }"
        );
        let abstract_ = "void draw(\n    Canvas c);\n";
        assert_eq!(
            signature_from(abstract_, 0, abstract_.trim_end().len()),
            "void draw(Canvas c)"
        );
    }
}
