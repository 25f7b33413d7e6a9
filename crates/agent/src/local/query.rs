//! Understanding the question: what kind of answer is wanted, and about what.
//!
//! People ask the same few things in many words: where something is defined, who calls
//! it, what it calls, what implements it, what methods it has, how one thing reaches
//! another, and open questions about a concept ("how are webhooks handled"). The parser
//! is pure and table-driven so every phrasing it knows is pinned by a unit test.
//!
//! It works in two passes. First it recognises the question's frame ("who calls _",
//! "path from _ to _") and takes the slot text; then it decides whether a slot names a
//! symbol (an identifier: CamelCase, snake_case, `Type.Method`, backticked, or a single
//! word in a slot that can only hold a symbol) or is prose, which makes the question a
//! concept question answered by ranking.

use std::sync::LazyLock;

use regex::Regex;

use super::{request, text};

/// What the question asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    /// Where a symbol is defined.
    Definition(SymbolRef),
    /// Who calls (or uses) a symbol.
    Callers(SymbolRef),
    /// What a symbol calls.
    Callees(SymbolRef),
    /// What implements (or subclasses) a symbol.
    Implementations(SymbolRef),
    /// The methods of a type.
    Methods(SymbolRef),
    /// How one symbol reaches another.
    Trace {
        /// Where the path starts.
        from: SymbolRef,
        /// Where it ends.
        to: SymbolRef,
    },
    /// An open question about a concept, answered by ranking files.
    Concept,
}

impl Intent {
    /// A short name for metadata and logs.
    pub fn name(&self) -> &'static str {
        match self {
            Intent::Definition(_) => "definition",
            Intent::Callers(_) => "callers",
            Intent::Callees(_) => "callees",
            Intent::Implementations(_) => "implementations",
            Intent::Methods(_) => "methods",
            Intent::Trace { .. } => "trace",
            Intent::Concept => "concept",
        }
    }

    /// The main symbol of a symbol question.
    pub fn symbol(&self) -> Option<&SymbolRef> {
        match self {
            Intent::Definition(s)
            | Intent::Callers(s)
            | Intent::Callees(s)
            | Intent::Implementations(s)
            | Intent::Methods(s) => Some(s),
            Intent::Trace { from, .. } => Some(from),
            Intent::Concept => None,
        }
    }
}

/// A symbol as the question names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolRef {
    /// The name, possibly qualified by its owner type (`Planner.Plan`).
    pub name: String,
    /// A kind the question gave ("interface X", "the X class"), in the code tool's words.
    pub kind: Option<&'static str>,
    /// Where the question says it lives: package, module, directory or file words ("the
    /// File struct in afero's mem package" → `afero`, `mem`). They narrow candidates and
    /// never empty them: a word that matches none is dropped.
    pub within: Vec<String>,
    /// A parameter list the question wrote after the name (`(String)` of
    /// `Interpreter.eval(String)`): the `code` tool keeps the overloads it matches.
    pub params: Option<String>,
    /// Read as a name only because a noun after it says what sort of thing it is ("the
    /// truncate filter"): a plain word the repository may not define under that name
    /// (`do_truncate`), so not finding it is no answer; the question is ranked instead.
    pub described: bool,
    /// Rust's `impl Trait for Type` asked of one type ("the FromStr impl for Version",
    /// "where is Display implemented for Error"): the implementor to keep among the
    /// trait's implementations.
    pub implementor: Option<String>,
    /// The name said with the plain word after it, for a type whose name holds both ("the
    /// PClass evolver" → `PClassEvolver`, which the repository may spell `_PClassEvolver`;
    /// "the treemap iterator" → `TreemapIterator`): asked first, and the name alone when no
    /// definition is spelled so.
    pub joined: Option<String>,
    /// Written as a call on a lower-case receiver in a pasted line of code
    /// (`view.posAtCoords(…)`): a method's name, so methods of that name come first and
    /// other definitions of it (the function the method delegates to) after.
    pub method_call: bool,
    /// Words of a negated clause ("not the grouping reducer", "not the one createAction
    /// exports", "(not encoder.go's in the library)"): places the user ruled out. Of
    /// several definitions, those that live in fewer of them are kept; like `within`
    /// they only narrow, never empty.
    pub excluded: Vec<String>,
}

impl SymbolRef {
    /// A reference to `name`; a lower-case qualifier (`llm.Client`, `logrus.Formatter`,
    /// `validate.Email`) names a package or module, so it becomes a `within` word instead
    /// of part of the name.
    fn new(name: impl Into<String>, kind: Option<&'static str>) -> Self {
        let name: String = name.into();
        let (name, within) = match name.rsplit_once('.') {
            Some((q, leaf))
                if q.split('.').all(|seg| {
                    seg.chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
                }) =>
            {
                (leaf.to_string(), q.split('.').map(str::to_string).collect())
            }
            _ => (name, Vec::new()),
        };
        Self {
            name,
            kind,
            within,
            params: None,
            described: false,
            implementor: None,
            joined: None,
            method_call: false,
            excluded: Vec::new(),
        }
    }

    /// The name as the `code` tool is asked for it: with the parameter list, if any.
    pub fn asked(&self) -> String {
        match &self.params {
            Some(p) => format!("{}{p}", self.name),
            None => self.name.clone(),
        }
    }

    /// The same reference with more `within` words.
    fn within(mut self, words: Vec<String>) -> Self {
        for w in words {
            if !self.within.contains(&w) {
                self.within.push(w);
            }
        }
        self
    }

    /// The same reference with the words of a negated clause, but for its own name's
    /// ("Parameter.Star, not Argument.Star": `argument`, not `star`).
    fn excluding(mut self, words: Vec<String>) -> Self {
        let own: Vec<String> = self.name.split('.').map(str::to_lowercase).collect();
        self.excluded = words
            .into_iter()
            .filter(|w| !own.contains(w) && !self.within.contains(w))
            .collect();
        self
    }

    /// The last segment of a qualified name (`Plan` for `Planner.Plan`).
    pub fn leaf(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }

    /// The qualifier of a qualified name (`Planner` for `Planner.Plan`).
    pub fn qualifier(&self) -> Option<&str> {
        self.name.rsplit_once('.').map(|(q, _)| q)
    }

    /// Whether its places start at a standard library's root (`std::error::Error`): what
    /// it names is not defined in the repository ([`is_std_root`]).
    pub(super) fn std_rooted(&self) -> bool {
        self.within.first().is_some_and(|p| is_std_root(p))
    }
}

/// A parsed question.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The question as asked.
    pub raw: String,
    /// What it asks for.
    pub intent: Intent,
    /// The content words, lower-cased and stemmed, for lexical ranking (also filled for
    /// symbol questions: it is the fallback when the symbol is not found).
    pub terms: Vec<String>,
    /// How much each of `terms` counts (see [`text::ACTION_WEIGHT`]).
    pub weights: Vec<f64>,
}

/// Parses a question.
pub fn parse(question: &str) -> Query {
    let raw = question.trim().to_string();
    let cleaned = normalise(&raw);
    let intent = classify(&cleaned);
    let (terms, weights) = text::query_terms_weighted(&raw).into_iter().unzip();
    Query {
        raw,
        intent,
        terms,
        weights,
    }
}

/// Lower-level view of the question: punctuation at the end gone, whitespace collapsed,
/// backticks kept (they mark symbols).
fn normalise(q: &str) -> String {
    let q = q.trim().trim_end_matches(['?', '.', '!', ' ']);
    let mut words: Vec<String> = q.split_whitespace().map(str::to_string).collect();
    // A question word misspelt ("wher is retry defined", "waht calls Plan") is the
    // question word: the frames read it.
    if let Some(first) = words.first_mut()
        && first.chars().all(|c| c.is_ascii_lowercase())
        && let Some(meant) = text::stopword_meant(first)
        && matches!(
            meant.as_str(),
            "where" | "what" | "which" | "show" | "find" | "list"
        )
    {
        *first = meant;
    }
    words.join(" ")
}

/// Frames with one slot, tried in order: (prefix, suffix, intent builder). Matching is
/// case-insensitive on the frame words; the slot keeps its case.
type Build = fn(SymbolRef) -> Intent;

const CALLERS: Build = Intent::Callers;
const CALLEES: Build = Intent::Callees;
const IMPLS: Build = Intent::Implementations;
const METHODS: Build = Intent::Methods;
const DEF: Build = Intent::Definition;
/// "Which classes override X": every definition of X's bare name (the overrides share it);
/// of an owner's method ("which classes override Repository.save"), the methods of that
/// name on the owner's implementers and subclasses, as for "which classes implement
/// Repository.save" (an unrelated `Settings.save` is no override).
const OVERRIDES: Build = |s| {
    if s.qualifier().is_some() {
        return Intent::Implementations(s);
    }
    Intent::Definition(SymbolRef {
        name: s.leaf().to_string(),
        kind: None,
        within: s.within,
        params: None,
        described: s.described,
        implementor: None,
        joined: s.joined,
        method_call: s.method_call,
        excluded: s.excluded,
    })
};

/// "The implementation of X" (singular) is where X's code is, its definition; of an
/// interface said as such ("the implementation of the Store interface"), what implements
/// it. The plural ("implementations of X") always asks for what implements it.
const IMPL_OR_DEF: Build = |s| {
    if s.kind == Some("interface") {
        Intent::Implementations(s)
    } else {
        Intent::Definition(s)
    }
};

/// Each frame is `prefix`, `suffix`; the slot is what lies between.
const FRAMES: &[(&str, &str, Build, bool)] = &[
    // callees first: "what does X call" would otherwise read as a definition question.
    ("what does ", " call", CALLEES, true),
    ("what functions does ", " call", CALLEES, true),
    ("what methods does ", " call", CALLEES, true),
    ("what is called by ", "", CALLEES, true),
    ("what gets called by ", "", CALLEES, true),
    ("callees of ", "", CALLEES, true),
    ("calls made by ", "", CALLEES, true),
    ("what do ", " call", CALLEES, true),
    // "what does matches_impl dispatch to", "what does Parse delegate to": the calls it
    // hands the work on to.
    ("what does ", " dispatch to", CALLEES, true),
    ("what does ", " delegate to", CALLEES, true),
    ("what does ", " forward to", CALLEES, true),
    ("what does ", " hand off to", CALLEES, true),
    ("what does ", " defer to", CALLEES, true),
    ("which functions does ", " call", CALLEES, true),
    ("which methods does ", " call", CALLEES, true),
    ("what functions are called by ", "", CALLEES, true),
    ("which functions are called by ", "", CALLEES, true),
    ("what methods are called by ", "", CALLEES, true),
    ("what is called from ", "", CALLEES, true),
    ("what gets called from ", "", CALLEES, true),
    ("functions called by ", "", CALLEES, true),
    // "show me what X calls", "list everything X calls" once the request is unwrapped.
    ("what ", " calls", CALLEES, true),
    ("everything ", " calls", CALLEES, true),
    // methods
    ("what methods does ", " have", METHODS, true),
    ("which methods does ", " have", METHODS, true),
    ("what methods do ", " have", METHODS, true),
    ("what are the methods of ", "", METHODS, true),
    ("list the methods of ", "", METHODS, true),
    ("list methods of ", "", METHODS, true),
    ("methods of ", "", METHODS, true),
    ("methods on ", "", METHODS, true),
    ("methods in ", "", METHODS, true),
    ("", " methods", METHODS, true),
    // "what can I do with a toml.LocalDate value", "what can LineStart do": its methods.
    ("what can i do with ", " value", METHODS, true),
    ("what can i do with ", " object", METHODS, true),
    ("what can i do with ", " instance", METHODS, true),
    ("what can i do with ", "", METHODS, true),
    ("what can you do with ", "", METHODS, true),
    ("what can we do with ", "", METHODS, true),
    ("what can one do with ", "", METHODS, true),
    ("what can ", " do", METHODS, true),
    // "list what a glom Path object can do", "what methods can I chain on Iter()".
    ("list what ", " can do", METHODS, true),
    ("show what ", " can do", METHODS, true),
    ("what methods can i call on ", "", METHODS, true),
    ("what methods can i chain on ", "", METHODS, true),
    ("what methods can i use on ", "", METHODS, true),
    ("which methods can i call on ", "", METHODS, true),
    ("which methods can i chain on ", "", METHODS, true),
    ("what can i call on ", "", METHODS, true),
    ("what can i chain on ", "", METHODS, true),
    // overrides: every definition of the method's name
    ("which classes override ", "", OVERRIDES, true),
    ("what classes override ", "", OVERRIDES, true),
    ("which methods override ", "", OVERRIDES, true),
    ("which types override ", "", OVERRIDES, true),
    ("overrides of ", "", OVERRIDES, true),
    // what a type implements (the tool answers with its interfaces for a concrete type)
    ("what interfaces does ", " implement", IMPLS, true),
    ("which interfaces does ", " implement", IMPLS, true),
    ("what does ", " implement", IMPLS, true),
    ("what does ", " inherit from", IMPLS, true),
    // implementations
    ("what implements ", "", IMPLS, true),
    ("what types implement ", "", IMPLS, true),
    ("which types implement ", "", IMPLS, true),
    ("what classes implement ", "", IMPLS, true),
    ("which classes implement ", "", IMPLS, true),
    ("who implements ", "", IMPLS, true),
    ("which structs implement ", "", IMPLS, true),
    ("what structs implement ", "", IMPLS, true),
    ("implementations of ", "", IMPLS, true),
    ("implementation of ", "", IMPL_OR_DEF, true),
    ("the implementation of ", "", IMPL_OR_DEF, true),
    ("implementers of ", "", IMPLS, true),
    ("what are the implementations of ", "", IMPLS, true),
    ("what are the subclasses of ", "", IMPLS, true),
    ("subclasses of ", "", IMPLS, true),
    ("what subclasses ", "", IMPLS, true),
    ("what inherits from ", "", IMPLS, true),
    ("what extends ", "", IMPLS, true),
    ("who extends ", "", IMPLS, true),
    ("what overrides ", "", IMPLS, true),
    ("who overrides ", "", IMPLS, true),
    ("classes that inherit from ", "", IMPLS, true),
    ("classes that extend ", "", IMPLS, true),
    ("classes inheriting from ", "", IMPLS, true),
    ("types that implement ", "", IMPLS, true),
    ("structs that implement ", "", IMPLS, true),
    ("which classes inherit from ", "", IMPLS, true),
    ("what classes inherit from ", "", IMPLS, true),
    ("", " implementations", IMPLS, true),
    ("", " implementers", IMPLS, true),
    ("", " implementors", IMPLS, true),
    ("", " impls", IMPLS, true),
    ("impls of ", "", IMPLS, true),
    ("implementors of ", "", IMPLS, true),
    ("", " subclasses", IMPLS, true),
    // callers
    ("who calls ", "", CALLERS, true),
    ("what calls ", "", CALLERS, true),
    ("which functions call ", "", CALLERS, true),
    ("what functions call ", "", CALLERS, true),
    ("which methods call ", "", CALLERS, true),
    ("callers of ", "", CALLERS, true),
    ("call sites of ", "", CALLERS, true),
    ("find callers of ", "", CALLERS, true),
    ("find usages of ", "", CALLERS, true),
    ("usages of ", "", CALLERS, true),
    ("uses of ", "", CALLERS, true),
    ("references to ", "", CALLERS, true),
    ("references of ", "", CALLERS, true),
    ("what references ", "", CALLERS, true),
    ("who references ", "", CALLERS, true),
    ("which code references ", "", CALLERS, true),
    ("how is ", " used", CALLERS, true),
    ("how are ", " used", CALLERS, true),
    ("what uses ", "", CALLERS, true),
    ("which tests cover ", "", CALLERS, true),
    ("what tests cover ", "", CALLERS, true),
    ("which tests call ", "", CALLERS, true),
    ("tests for ", "", CALLERS, true),
    ("is ", " called anywhere", CALLERS, true),
    ("is ", " used anywhere", CALLERS, true),
    ("is ", " called", CALLERS, true),
    ("is ", " used", CALLERS, true),
    ("who uses ", "", CALLERS, true),
    ("where is ", " used", CALLERS, true),
    ("where are ", " used", CALLERS, true),
    ("where is ", " called", CALLERS, true),
    ("where is ", " called from", CALLERS, true),
    ("where does ", " get called", CALLERS, true),
    ("where is ", " referenced", CALLERS, true),
    ("who invokes ", "", CALLERS, true),
    ("what invokes ", "", CALLERS, true),
    ("", " callers", CALLERS, true),
    // definitions
    ("where is ", " defined", DEF, true),
    ("where is ", " declared", DEF, true),
    ("where is ", " implemented", DEF, true),
    ("where are ", " defined", DEF, true),
    ("where's ", " defined", DEF, true),
    ("where do we define ", "", DEF, true),
    ("where can i find ", "", DEF, true),
    ("where do i find ", "", DEF, true),
    ("where would i find ", "", DEF, true),
    ("where is the definition of ", "", DEF, true),
    ("in which file is ", " defined", DEF, true),
    ("in what file is ", " defined", DEF, true),
    ("which file is ", " defined in", DEF, true),
    ("what file is ", " defined in", DEF, true),
    ("what file is ", " in", DEF, true),
    ("declaration of ", "", DEF, true),
    ("signature of ", "", DEF, true),
    ("the signature of ", "", DEF, true),
    ("the parameters of ", "", DEF, true),
    ("the arguments of ", "", DEF, true),
    ("the fields of ", "", DEF, true),
    ("the attributes of ", "", DEF, true),
    ("the declaration of ", "", DEF, true),
    ("the source of ", "", DEF, true),
    ("parameters of ", "", DEF, true),
    ("arguments of ", "", DEF, true),
    ("fields of ", "", DEF, true),
    ("attributes of ", "", DEF, true),
    ("properties of ", "", DEF, true),
    ("what fields does ", " have", DEF, true),
    ("which fields does ", " have", DEF, true),
    ("what attributes does ", " have", DEF, true),
    ("what properties does ", " have", DEF, true),
    ("what parameters does ", " take", DEF, true),
    ("what arguments does ", " take", DEF, true),
    ("source of ", "", DEF, true),
    ("source code of ", "", DEF, true),
    ("source code for ", "", DEF, true),
    ("the code for ", "", DEF, true),
    ("where's the code for ", "", DEF, true),
    ("where is the code for ", "", DEF, true),
    ("code for ", "", DEF, true),
    ("definition of ", "", DEF, true),
    ("show me the definition of ", "", DEF, true),
    ("show me ", "", DEF, false),
    ("go to ", "", DEF, true),
    ("jump to ", "", DEF, true),
    ("find the definition of ", "", DEF, true),
    ("find ", "", DEF, true),
    ("locate ", "", DEF, true),
    ("what is ", "", DEF, false),
    ("what's ", "", DEF, false),
    ("what are ", "", DEF, false),
    ("where is ", "", DEF, false),
    ("where are ", "", DEF, false),
    ("where's ", "", DEF, false),
    ("how does ", " work", DEF, false),
    ("what does ", " do", DEF, true),
    ("what is ", " for", DEF, false),
    ("what is ", " used for", DEF, false),
    ("how do ", " work", DEF, false),
    ("explain ", "", DEF, false),
    ("describe ", "", DEF, false),
];

/// Frames with two slots: `prefix A middle B`.
const TRACE_FRAMES: &[(&str, &str, bool)] = &[
    ("how does ", " reach ", false),
    ("how does ", " get to ", false),
    ("how does ", " lead to ", false),
    ("how does ", " end up calling ", false),
    ("how does ", " end up in ", false),
    ("how does ", " call ", false),
    ("how do we get from ", " to ", true),
    ("how do i get from ", " to ", true),
    ("how to get from ", " to ", true),
    ("path from ", " to ", true),
    ("the path from ", " to ", true),
    ("call path from ", " to ", true),
    ("call chain from ", " to ", true),
    ("call graph from ", " to ", true),
    // The longer "trace …" frames first: "trace " alone would read "calls from main" as
    // the start.
    ("trace the path from ", " to ", true),
    ("trace the call path from ", " to ", true),
    ("trace the call chain from ", " to ", true),
    ("trace the calls from ", " to ", true),
    ("trace calls from ", " to ", true),
    ("trace the call from ", " to ", true),
    ("trace from ", " to ", true),
    ("trace ", " to ", true),
    ("show the call path from ", " to ", true),
    ("show the path from ", " to ", true),
    ("calls from ", " to ", true),
    ("does ", " call ", false),
    ("does ", " reach ", false),
    ("from ", " to ", false),
];

/// The intent of a question, read from its plain form when it is wrapped in a request
/// ("can you list every caller of X", "X's methods": see [`request`]). A question as asked
/// that reads as a relation keeps it; one that reads as a definition takes the plain
/// form's reading unless that is prose ("find every caller of X" is no definition of
/// "caller", "where is the implementation of X" none of `X.implementation`); prose takes
/// whatever the plain form reads as.
fn classify(q: &str) -> Intent {
    let asked = classify_plain(q);
    let Some(plain) = request::unwrap(q) else {
        return asked;
    };
    match (asked, classify_plain(&plain)) {
        (Intent::Concept, unwrapped) => unwrapped,
        (asked @ Intent::Definition(_), unwrapped) => match unwrapped {
            Intent::Concept => asked,
            relation => relation,
        },
        (asked, _) => asked,
    }
}

/// A trait's (or interface's) implementation asked of one type: "impl FromStr for
/// Version", "the FromStr impl for Version", "where is Display implemented for Error",
/// "Version's Display impl", "the Storage implementation of MemoryStore". The trait is
/// the symbol, the type the implementor to keep. Both must read as names; a capital is
/// enough (trait and type names are capitalised).
fn trait_impl_frame(q: &str) -> Option<Intent> {
    let words: Vec<&str> = q
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let low: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let name = |w: &str| {
        clean_ident(w.trim_end_matches("'s"))
            .filter(|n| is_identifier_like(n) || n.starts_with(char::is_uppercase))
    };
    let at = low.iter().position(|w| {
        matches!(
            w.trim_matches('`'),
            "impl" | "impls" | "implementation" | "implementations" | "implemented"
        )
    })?;
    let verb = low[at].trim_matches('`');
    // `impl Trait for Type` as Rust writes it.
    let written = verb == "impl" && low.get(at + 2).is_some_and(|w| w == "for");
    // The trait: after `impl`, else before the word; a possessive before it is the type
    // ("Version's Display impl").
    let (trait_word, possessor) = if written {
        (words.get(at + 1)?, None)
    } else {
        let before = words[..at].last()?;
        let owner = (at >= 2 && words[at - 2].ends_with("'s")).then(|| words[at - 2]);
        (before, owner)
    };
    let trait_name = name(trait_word)?;
    let ty = match possessor {
        Some(p) => name(p)?,
        None => {
            let next = if written { at + 2 } else { at + 1 };
            let prep = low.get(next).map_or("", String::as_str);
            if prep != "for" && !(prep == "of" && verb != "implemented") {
                // "every Iterator impl in the crate", "the Display impls": all of the
                // trait's implementations (one "X implementation" is X's own code).
                let quantified =
                    at >= 2 && matches!(low[at - 2].as_str(), "every" | "each" | "all" | "any");
                let plural = matches!(verb, "impls" | "implementations");
                return (quantified || plural)
                    .then(|| Intent::Implementations(SymbolRef::new(trait_name, None)));
            }
            let ty = words.get(next + 1)?;
            // "the FromStr impl for Version type": the words after the type are prose.
            name(ty)?
        }
    };
    let ty = ty.rsplit(['.', ':']).next().unwrap_or(&ty).to_string();
    if ty == trait_name {
        return None;
    }
    let mut sym = SymbolRef::new(trait_name, None);
    sym.implementor = Some(ty);
    Some(Intent::Implementations(sym))
}

/// "FileOptions.Builder methods (the builder, not FileOptions itself)": a type's name
/// and the plural "methods", nothing else but an article or "all" before it.
fn methods_after_name(q: &str) -> Option<Intent> {
    let head = q.split([',', '(', ';', ':']).next()?.trim();
    let words: Vec<&str> = head.split_whitespace().collect();
    let (last, rest) = words.split_last()?;
    if !last.eq_ignore_ascii_case("methods") {
        return None;
    }
    let rest: Vec<&str> = rest
        .iter()
        .copied()
        .filter(|w| !matches!(w.to_lowercase().as_str(), "the" | "all" | "list"))
        .collect();
    let [name] = rest.as_slice() else {
        return None;
    };
    let ident = clean_ident(name.trim_end_matches("'s"))?;
    let leaf = ident.rsplit(['.', ':']).next().unwrap_or(&ident);
    leaf.starts_with(char::is_uppercase)
        .then(|| Intent::Methods(SymbolRef::new(ident.clone(), None)))
}

fn classify_plain(q: &str) -> Intent {
    if let Some(sym) = code_line(q) {
        return Intent::Definition(sym);
    }
    if let Some(intent) = trait_impl_frame(q) {
        return intent;
    }
    let lower = q.to_lowercase();
    // Lower-casing can change byte lengths for some scripts; frames only match when it
    // did not, so slicing `q` with offsets found in `lower` is safe.
    let same_len = lower.len() == q.len();
    if same_len {
        for (prefix, middle, relaxed) in TRACE_FRAMES {
            if let Some(rest) = lower.strip_prefix(prefix)
                && let Some(pos) = rest.find(middle)
            {
                let a = &q[prefix.len()..prefix.len() + pos];
                let b = &q[prefix.len() + pos + middle.len()..];
                if let (Some(from), Some(to)) = (
                    slot_symbol(a, *relaxed, !prefix.is_empty()),
                    slot_symbol(b, *relaxed, true),
                ) {
                    return Intent::Trace { from, to };
                }
            }
        }
        if let Some(intent) = participle_frame(q) {
            return intent;
        }
        for (prefix, suffix, build, relaxed) in FRAMES {
            // Prose in the slot ("who calls the payment code") makes it a concept
            // question unless a later frame reads it better.
            if let Some(slot) = frame_slot(q, &lower, prefix, suffix)
                && let Some(sym) = slot_symbol(slot, *relaxed, !prefix.is_empty())
            {
                return build(sym);
            }
        }
    }
    // No frame: a relation verb anywhere, followed by a name ("which classes subclass
    // BaseTransport", "fields that inherit from Number").
    if let Some(intent) = cue_intent(q) {
        return intent;
    }
    // "FileOptions.Builder methods", "the Pool methods": a type's name before the plural
    // asks for its methods (an aside after a comma or a parenthesis aside). One "Close
    // method" is a definition.
    if let Some(intent) = methods_after_name(q) {
        return intent;
    }
    // Methods are a type's, so a described type's head noun names it ("methods of the
    // VM's value stack type": `stack`; "the cli's colored JSON encoder": `encoder` in
    // `cli`), as a description only: no type of that name leaves the question to ranking.
    if same_len {
        for (prefix, suffix, build, _) in FRAMES {
            if let Some(slot) = frame_slot(q, &lower, prefix, suffix)
                && let Some(sym) = head_noun(slot)
                && let intent @ Intent::Methods(_) = build(sym)
            {
                return intent;
            }
        }
    }
    // The whole question may be a bare symbol ("IssueStore", "`Plan`",
    // "interface IssueStore", "post_transaction"). After an imperative ("show
    // IssueStore", "find the function that implements caret matching") the rest is read:
    // that word asks, and a kind word after it must not make it the name.
    let asked = match q.split_once(' ') {
        Some((first, rest)) if request::is_imperative(&first.to_lowercase()) => rest,
        _ => q,
    };
    if let Some(sym) = slot_symbol(asked, false, asked.len() < q.len()) {
        return Intent::Definition(sym);
    }
    // "the Error struct with the Type and Message fields", "the Parser class that holds
    // the options": a named kind, then what describes it.
    if let Some(sym) = described_definition(asked) {
        return Intent::Definition(sym);
    }
    Intent::Concept
}

/// The slot of a frame in `q` (`lower` is `q` lower-cased, of the same length): what lies
/// between the frame's prefix and its suffix (or a clause after the suffix).
fn frame_slot<'q>(q: &'q str, lower: &str, prefix: &str, suffix: &str) -> Option<&'q str> {
    let rest = lower.strip_prefix(prefix)?;
    let mid = rest
        .strip_suffix(suffix)
        .or_else(|| before_clause(rest, suffix))?;
    (!mid.trim().is_empty()).then(|| &q[prefix.len()..prefix.len() + mid.len()])
}

/// A line of code assigning a call's result: the callee is group 1, the match ends at the
/// call's opening parenthesis (`let pos = view.posAtCoords(`, `tree :=
/// redblacktree.New(`, `double r = relativeOnOther(`).
static ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    super::signals::pattern(
        r"^(?:(?:let|const|var|val|final|auto)\s+)?(?:[A-Za-z_][\w<>\[\],.]*\s+)?[A-Za-z_][\w.\[\]]*\s*(?::=|=)\s*(?:new\s+|await\s+)?([A-Za-z_][\w.]*)\s*\(",
    )
});

/// A statement that starts with a call: the callee is group 1 (`console.log(`).
static CALLED: LazyLock<Regex> =
    LazyLock::new(|| super::signals::pattern(r"^([A-Za-z_][\w.]*)\s*\("));

/// A question that is one line of code calling something (`let pos =
/// view.posAtCoords({…})`, `name = field(type=str)`, `console.log(ajv.errorsText(e))`)
/// asks what that call is: the callee of the assignment's right side or of the statement,
/// or, when that is a print, log or assertion, the first call among its arguments. A call
/// on a lower-case receiver (`view.`, `self.`, a Go package) is a method's, or a
/// package's function: the receiver is a place and a method is preferred, so the
/// `EditorView` method `posAtCoords` comes before the module function it delegates to. The
/// name is `described`: one the repository does not define leaves the question to ranking.
fn code_line(q: &str) -> Option<SymbolRef> {
    let trimmed = q.trim();
    // A prompt or a keyword before the code (`>>> glom(…)`, `return [… f(…) …]`) says
    // the line is code: what follows is read as the statement.
    let line = ["... ", ">>> ", "return ", "await ", "yield ", "throw "]
        .iter()
        .find_map(|p| trimmed.strip_prefix(p))
        .map_or(trimmed, str::trim_start);
    let prefixed = line.len() < trimmed.len();
    // A statement that is a call alone (`humanize_error(data, e)`, a signature
    // `eval(Reader, NameSpace)`) is read as a name with its parameter list elsewhere; here
    // only when it wraps the call it shows (`console.log(ajv.errorsText(e))`), or when
    // it is code beyond doubt: after a prompt or keyword, ended by a semicolon, or with
    // a literal among its arguments (`glom(target, 'a.b.c')`, no parameter list).
    let called = || {
        CALLED.captures(line).filter(|c| {
            let (Some(callee), Some(all)) = (c.get(1), c.get(0)) else {
                return false;
            };
            let args = matching_paren(line, all.end() - 1).map(|close| &line[all.end()..close]);
            is_wrapper_call(callee.as_str())
                || prefixed
                || line.ends_with(';')
                || args.is_some_and(has_literal)
        })
    };
    let Some(c) = ASSIGNED.captures(line).or_else(called) else {
        // `return ['strong', mergeAttributes(…), 0]`: the first call the code makes.
        return prefixed
            .then(|| called_in(line))
            .flatten()
            .and_then(call_symbol);
    };
    let callee = c.get(1)?;
    let open = c.get(0)?.end() - 1;
    let close = matching_paren(line, open)?;
    // Nothing after the call but a semicolon or a comment: code, not a question about it.
    let rest = line[close + 1..].trim_start_matches(';').trim();
    if !(rest.is_empty() || rest.starts_with("//") || rest.starts_with('#')) {
        return None;
    }
    let mut name = callee.as_str();
    if is_wrapper_call(name) {
        let inner = called_in(&line[open + 1..close])?;
        name = inner;
    }
    call_symbol(name)
}

/// Whether a call's arguments hold a literal (a string, a number, an object or a list):
/// a call as written in code, not a parameter list.
fn has_literal(args: &str) -> bool {
    args.contains(['"', '\'', '`', '{', '['])
        || args
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|t| t.starts_with(|c: char| c.is_ascii_digit()))
}

/// The symbol a call in a pasted line names (`view.posAtCoords`, `Foo.bar`, `glom`).
fn call_symbol(name: &str) -> Option<SymbolRef> {
    let segments: Vec<&str> = name.split('.').filter(|s| !s.is_empty()).collect();
    let (leaf, receiver) = match segments.as_slice() {
        [] => return None,
        [leaf] => (*leaf, None),
        [.., r, leaf] => (*leaf, Some(*r)),
    };
    if leaf.len() < 2 || text::is_stopword(&leaf.to_lowercase()) {
        return None;
    }
    let mut sym = match receiver {
        // `Foo.bar(…)`: a static method or class method of Foo.
        Some(r) if r.starts_with(char::is_uppercase) => SymbolRef::new(format!("{r}.{leaf}"), None),
        Some(r) => {
            let mut sym = SymbolRef::new(leaf, None);
            sym.method_call = true;
            if !matches!(r, "self" | "this" | "cls" | "super") {
                sym = sym.within(vec![r.to_lowercase()]);
            }
            sym
        }
        None => SymbolRef::new(leaf, None),
    };
    sym.described = true;
    Some(sym)
}

/// The index of the parenthesis that closes the one at `open`, skipping quoted strings.
fn matching_paren(line: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, ch) in line.char_indices().skip_while(|&(i, _)| i < open) {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(ch),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A call that shows or checks a value rather than computing it: what a pasted line is
/// about is the call inside it.
fn is_wrapper_call(callee: &str) -> bool {
    let first = callee.split('.').next().unwrap_or(callee);
    matches!(
        first,
        "console"
            | "print"
            | "println"
            | "printf"
            | "fmt"
            | "log"
            | "logger"
            | "logging"
            | "assert"
            | "expect"
            | "puts"
            | "pp"
            | "dbg"
            | "System"
    )
}

/// The callee of the first call in `args` (`ajv.errorsText` in `ajv.errorsText(e), x`,
/// `s.Name` in `"%v", s.Name()`): string literals are skipped.
fn called_in(args: &str) -> Option<&str> {
    let mut quote: Option<char> = None;
    let mut start: Option<usize> = None;
    for (i, c) in args.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        let ident = c.is_alphanumeric() || c == '_' || c == '.';
        match (start, c) {
            (Some(s), '(') => return Some(&args[s..i]),
            (Some(_), _) if ident => {}
            (None, c) if c.is_ascii_alphabetic() || c == '_' => start = Some(i),
            (_, '"' | '\'' | '`') => {
                quote = Some(c);
                start = None;
            }
            _ => start = None,
        }
    }
    None
}

/// Words that open a description after a symbol's name and kind.
const DESCRIBERS: &[&str] = &[
    "with",
    "that",
    "which",
    "whose",
    "holding",
    "having",
    "containing",
    "where",
];

/// A definition asked by its name and kind, followed by what describes it ("the Error
/// struct with the Type and Message fields"): the words before the first describer must
/// read as a symbol with its kind word, the kind said, so that prose ("the code with the
/// retry loop") stays a concept question.
fn described_definition(q: &str) -> Option<SymbolRef> {
    let words: Vec<&str> = q.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| DESCRIBERS.contains(&w.to_lowercase().as_str()))?;
    if at == 0 || at + 1 >= words.len() {
        return None;
    }
    let head = words[..at].join(" ");
    let last = words[at - 1].to_lowercase();
    kind_word(&last)?;
    // A project's name before it ("go-flags Error struct with …") is no part of the name.
    let mut sym = slot_symbol(&head, false, false).or_else(|| {
        let (_, rest) = head.split_once(' ')?;
        slot_symbol(rest, false, false)
    })?;
    sym.kind?;
    sym.described = true;
    Some(sym)
}

/// Words that open a clause after a frame's last word: a purpose or condition ("what does
/// bindNamedMapper call to bind a map", "what does X call when the cache is cold") says
/// why the relation is asked, not which symbol.
const CLAUSE_OPENERS: &[&str] = &[
    "to", "when", "if", "while", "so", "during", "before", "after", "once", "until", "unless",
    "whenever", "because",
];

/// The slot of `rest` (a question after its frame's prefix) that ends at the frame's
/// `suffix` followed by a clause ([`CLAUSE_OPENERS`]), if there is one.
fn before_clause<'a>(rest: &'a str, suffix: &str) -> Option<&'a str> {
    if suffix.is_empty() {
        return None;
    }
    rest.match_indices(suffix).find_map(|(at, _)| {
        let after = &rest[at + suffix.len()..];
        // "… can do, its methods": an aside after a comma.
        if after.starts_with(", ") {
            return Some(&rest[..at]);
        }
        let mut next = after.strip_prefix(' ')?.split_whitespace();
        let first = next.next()?;
        // "… dispatch to for each operator": a quantified "for" says over what, too.
        let quantified = first == "for"
            && next
                .next()
                .is_some_and(|w| matches!(w, "each" | "every" | "all" | "any"));
        (CLAUSE_OPENERS.contains(&first) || quantified).then_some(&rest[..at])
    })
}

/// What "where is X <participle>" asks for: where a symbol is used in some way (called,
/// read, raised, replaced …) is where it is referenced; the engine asks for callers, and
/// for a type or a variable follows the tool to its usages.
const USE_PARTICIPLES: &[&str] = &[
    "used",
    "called",
    "invoked",
    "referenced",
    "read",
    "written",
    "assigned",
    "modified",
    "mutated",
    "replaced",
    "set",
    "updated",
    "changed",
    "raised",
    "thrown",
    "caught",
    "rescued",
    "instantiated",
    "constructed",
    "imported",
    "passed",
    "returned",
    "accessed",
    "checked",
    "tested",
    "compared",
    "consulted",
    "inspected",
    "honored",
    "honoured",
    "respected",
    "consumed",
    // events and messages
    "emitted",
    "fired",
    "dispatched",
    "sent",
    "published",
    "triggered",
    "posted",
    "broadcast",
    "logged",
];

/// The kinds of definition a question describing a type asks for, when its head noun is
/// a type word: "the enum saying how much more input a parser wants", "trait that splits
/// the input …", "error type that keeps the whole trail of contexts", "which struct holds
/// the reader's headers". The type word must come within the first three words after an
/// opener ("where is", "find", "which", an article); a question that opens with a
/// question word of its own ("how are types checked") asks about behaviour.
///
/// An enum is a `type` in the code graph's kinds (Rust, Java, TypeScript) or a `class`
/// (Python's `Enum` subclasses); "type" alone is any kind of type.
pub fn asked_type_kinds(raw: &str) -> Option<&'static [&'static str]> {
    const OPENERS: &[&str] = &[
        "where", "where's", "is", "are", "find", "show", "me", "which", "what", "the", "a", "an",
    ];
    let words: Vec<String> = raw
        .split_whitespace()
        .take(8)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .collect();
    if words.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "how" | "why" | "when" | "does" | "do" | "can" | "should" | "who"
        )
    }) {
        return None;
    }
    let head = words.iter().skip_while(|w| OPENERS.contains(&w.as_str()));
    head.take(3).find_map(|w| match w.as_str() {
        "enum" | "enums" | "enumeration" => Some(&["type", "class"][..]),
        "trait" | "traits" | "interface" | "interfaces" | "protocol" => Some(&["interface"][..]),
        "struct" | "structs" => Some(&["struct", "class"][..]),
        "class" | "classes" => Some(&["class", "struct"][..]),
        "type" | "types" => Some(&["struct", "interface", "class", "type"][..]),
        _ => None,
    })
}

/// Whether the question asks for direct relations only ("which classes subclass Cache
/// directly", "the direct implementers of Zone"), not those through another one.
/// "Directly or not", "directly or indirectly", "direct or through another" ask for all.
pub fn asks_direct(raw: &str) -> bool {
    let words: Vec<String> = raw
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "directly" | "direct")
            && words.get(i + 1).is_none_or(|n| n != "or" && n != "and")
    }) && !words
        .iter()
        .any(|w| matches!(w.as_str(), "indirectly" | "indirect" | "transitively"))
}

/// Whether the question asks where something is caught ("which places catch X", "where is
/// X rescued"), not where it is raised or used.
pub fn asks_where_caught(raw: &str) -> bool {
    raw.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .any(|w| {
            matches!(
                w.as_str(),
                "catch"
                    | "catches"
                    | "caught"
                    | "catching"
                    | "rescue"
                    | "rescues"
                    | "rescued"
                    | "swallow"
                    | "swallows"
                    | "swallowed"
                    | "handles"
            )
        })
}

/// "where is X called from in the encoder", "where is the global logger variable _globalL
/// read or replaced", "where is NotRenderableError raised": a question that starts with
/// "where is" and ends with one or more participles of use ("read or replaced"), then
/// perhaps "from" and a place ("in the encoder", "inside package zapcore"), asks for the
/// places that use X; the place words narrow.
fn participle_frame(q: &str) -> Option<Intent> {
    let lower = q.to_lowercase();
    let start = ["where is ", "where are ", "where's ", "where else is "]
        .iter()
        .find(|p| lower.starts_with(**p))?
        .len();
    let mut words: Vec<&str> = q[start..].split_whitespace().collect();
    // What follows a comma or a semicolon after the verb is an aside ("called, the helper
    // not the methods").
    let verb_at =
        |w: &str| USE_PARTICIPLES.contains(&w.trim_end_matches([',', ';']).to_lowercase().as_str());
    if let Some(v) = words.iter().position(|w| verb_at(w))
        && let Some(cut) = words[v..].iter().position(|w| w.ends_with([',', ';']))
    {
        words.truncate(v + cut + 1);
    }
    let low: Vec<String> = words
        .iter()
        .map(|w| w.trim_end_matches([',', ';']).to_lowercase())
        .collect();
    // The first participle after the name, and the place clause after the verbs.
    let first = (1..low.len()).find(|&i| USE_PARTICIPLES.contains(&low[i].as_str()))?;
    let mut i = first;
    while i < low.len()
        && (USE_PARTICIPLES.contains(&low[i].as_str())
            || matches!(
                low[i].as_str(),
                "or" | "and" | "from" | "anywhere" | "elsewhere"
            ))
    {
        i += 1;
    }
    let mut places: Vec<String> = Vec::new();
    // A purpose or a time after the verbs says why, not where ("used to build tags",
    // "called when a flag is parsed").
    let purpose = i < low.len() && (ends_name_clause(&low[i]) || low[i] == "for");
    if i < low.len() && !purpose {
        if !matches!(low[i].as_str(), "in" | "inside" | "within" | "under") || low.len() - i > 5 {
            return None;
        }
        for w in &words[i + 1..] {
            let bare = w
                .trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '/'))
                .to_lowercase();
            if !bare.is_empty() && !is_filler(&bare) && !is_place_word(&bare) {
                places.push(bare);
            }
        }
    }
    let sym = slot_symbol(&words[..first].join(" "), true, true)?;
    Some(Intent::Callers(sym.within(places)))
}

/// Relation words that ask for a relation wherever they stand in a short question, the
/// name after them ("which types satisfy chi.Router", "list the methods on
/// middleware.Compressor", "which handlers in the middleware package call
/// chi.RouteContext"): the frames above only read questions that start the way they do.
const CUES: &[(&[&str], Build)] = &[
    (
        &[
            "implement",
            "implements",
            "implementing",
            "implementors",
            "implementers",
            "implementations",
            "impl",
            "impls",
            "satisfy",
            "satisfies",
            "subclass",
            "subclasses",
            "subclassing",
            "inherit",
            "inherits",
            "inheriting",
            "extend",
            "extends",
            "extending",
            "derive",
            "derives",
            "derived",
        ],
        IMPLS,
    ),
    (&["mix", "mixes"], IMPLS),
    (
        &[
            "override",
            "overrides",
            "overriding",
            "redefine",
            "redefines",
        ],
        OVERRIDES,
    ),
    (&["methods"], METHODS),
    (
        &[
            "call",
            "calls",
            "calling",
            "check",
            "checks",
            "instantiate",
            "instantiates",
            // "where does the html renderer use safe_entity": what uses a name is where it is used.
            "use",
            "uses",
            // "which patterns are built from LINK_LABEL": what is made of a value uses it.
            "built",
            "composed",
            "construct",
            "constructs",
            "creates",
            "callers",
            "invoke",
            "invokes",
            "decorated",
            "raise",
            "raises",
            "throw",
            "throws",
            "return",
            "returns",
            "catch",
            "catches",
            "rescue",
            "rescues",
        ],
        CALLERS,
    ),
];

/// Words that end the clause holding a cue's name: what follows says why or when ("…
/// call sweetenFields to turn key value pairs into fields"), as after a frame.
fn ends_name_clause(w: &str) -> bool {
    CLAUSE_OPENERS.contains(&w)
}

/// Words between a cue and its name that say nothing about the name ("methods *does the*
/// routing Context *have*", "inherit *directly from* Number").
fn is_cue_glue(w: &str) -> bool {
    matches!(
        w,
        "from" | "of" | "on" | "directly" | "the" | "does" | "do" | "did" | "have" | "has" | "a"
    )
}

/// A question no frame reads, whose relation word is followed by the symbol. The name must
/// read as a name: "where do we call the payment API" stays a concept question.
fn cue_intent(q: &str) -> Option<Intent> {
    let all: Vec<&str> = q.split_whitespace().collect();
    let cue_of = |w: &str| -> Option<Build> {
        let w = w.to_lowercase();
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        CUES.iter()
            .find(|(cues, _)| cues.contains(&w))
            .map(|(_, build)| *build)
    };
    // "which sql classes use the NameAliasMixin": a mixin is used by inheriting it.
    for (i, w) in all.iter().enumerate() {
        if matches!(w.to_lowercase().as_str(), "use" | "uses" | "using")
            && let Some(next) = all[i + 1..]
                .iter()
                .find(|w| !is_cue_glue(&w.to_lowercase()))
            && clean_ident(next).is_some_and(|n| n.ends_with("Mixin") || n.ends_with("Mixins"))
        {
            return slot_symbol(next, false, true).map(IMPLS);
        }
    }
    // "what validators are built on top of Regexp", "strategies built on the sync
    // retry_if_exception class", "classes based on Base": what is built on a class
    // subclasses it (alone, "built" is a use: "patterns built from LINK_LABEL").
    for (i, w) in all.iter().enumerate() {
        if !matches!(
            w.to_lowercase().as_str(),
            "built" | "build" | "builds" | "based"
        ) {
            continue;
        }
        let after = |k: usize| all.get(i + k).map(|w| w.to_lowercase());
        let phrase = match (
            after(1).as_deref(),
            after(2).as_deref(),
            after(3).as_deref(),
        ) {
            (Some("on"), Some("top"), Some("of")) => 3,
            (Some("on" | "upon" | "atop"), _, _) => 1,
            _ => continue,
        };
        if let Some(intent) = cue_slot(&all, i + phrase, IMPLS) {
            return Some(intent);
        }
    }
    // Each cue in turn, the first whose name reads as one wins; a cue whose next word is
    // another cue describes the subject ("which SugaredLogger *methods call* X").
    (0..all.len())
        .filter_map(|i| cue_of(all[i]).map(|b| (i, b)))
        .filter(|&(i, _)| {
            all[i + 1..]
                .iter()
                .find(|w| !is_cue_glue(&w.to_lowercase()))
                .is_none_or(|w| cue_of(w).is_none())
        })
        // "the function that returns defaults", "the method which returns the Client":
        // what a definition returns describes it; "where does echo return X" asks where X
        // is used.
        .filter(|&(i, _)| {
            // So does what it uses ("the package level one that uses CommandLine").
            !(matches!(
                all[i].to_lowercase().as_str(),
                "return" | "returns" | "use" | "uses"
            ) && i > 0
                && matches!(all[i - 1].to_lowercase().as_str(), "that" | "which" | "who"))
        })
        .find_map(|(at, build)| cue_slot(&all, at, build))
}

/// The intent of the cue at `at`, when the words after it name a symbol.
fn cue_slot(all: &[&str], at: usize, build: Build) -> Option<Intent> {
    // The clause that holds the name ends at the first comma, colon or semicolon after
    // the cue: ", including the typed getters", ", directly or not".
    let end = all[at..]
        .iter()
        .position(|w| w.ends_with([',', ';', ':']))
        .map_or(all.len(), |i| at + i + 1);
    let words: Vec<String> = all[..end]
        .iter()
        .map(|w| w.trim_end_matches([',', ';', ':']).to_string())
        .collect();
    // A question, not a report that happens to say "when I subclass Schema".
    if words.len() > 12 {
        return None;
    }
    let rest: Vec<&str> = words[at + 1..]
        .iter()
        .map(String::as_str)
        // "call sites of X": the sites are the calls.
        .skip_while(|w| {
            is_cue_glue(&w.to_lowercase())
                || matches!(
                    *w,
                    "with" | "in" | "by" | "site" | "sites" | "for" | "against"
                )
        })
        .filter(|w| !matches!(w.to_lowercase().as_str(), "have" | "has"))
        .take_while(|w| !ends_name_clause(&w.to_lowercase()))
        .collect();
    // "use the NameAliasMixin" / "mix in JupyterMixin": a mixin is used by inheriting it.
    // One bare word right after the cue, ending the question, is its name even in lower
    // case, as after "who calls" ("which classes subclass rrulebase"); with an article
    // or more words it must read as a name ("where do we call the payment API").
    // After an article the cue is a noun and the word after it a verb ("how does
    // Response.IsSuccess decide a call succeeded"): that word is no name.
    let noun = at > 0 && matches!(words[at - 1].to_lowercase().as_str(), "a" | "an" | "the");
    let bare_last = rest.len() == 1 && words.len() == at + 2 && !noun;
    slot_symbol(&rest.join(" "), bare_last, true)
        .or_else(|| {
            // "the methods on the treemap iterator": methods are a type's, so two plain
            // words name one, the second the type and the first where it lives (or both
            // its name, `TreemapIterator`).
            let asks_methods = matches!(build(SymbolRef::new("", None)), Intent::Methods(_));
            let [place, name] = rest.as_slice() else {
                return None;
            };
            let plain =
                |w: &str| w.chars().all(|c| c.is_ascii_lowercase()) && !text::is_stopword(w);
            (asks_methods && plain(place) && plain(name) && kind_word(name).is_none()).then(|| {
                let mut sym = SymbolRef::new(*name, None).within(vec![place.to_string()]);
                sym.joined = Some(format!("{place}{name}"));
                sym
            })
        })
        .map(build)
}

/// Whether a kind [`kind_word`] gives is a type's (what has methods and is described by
/// its fields): not a function's, a method's, a variable's or a constant's.
fn is_type_kind(kind: &str) -> bool {
    matches!(
        kind,
        "struct" | "class" | "interface" | "trait" | "enum" | "type"
    )
}

/// Words that say what kind of symbol the slot names, mapped to the code tool's kinds.
fn kind_word(w: &str) -> Option<&'static str> {
    KIND_WORDS
        .iter()
        .find(|(word, _)| *word == w)
        .map(|(_, k)| *k)
}

/// Whether a qualifier's first word is the root of a language's standard library
/// (`std::error::Error`, `core::fmt::Display`, `java.io.Closeable`, `typing.Protocol`):
/// what it names is not defined in the repository, whatever shares its last name there.
pub(super) fn is_std_root(word: &str) -> bool {
    matches!(
        word,
        "std" | "core" | "alloc" | "java" | "javax" | "typing" | "collections"
    )
}

/// Whether a stemmed question term is a kind word ("methods" → `method`): it says what
/// sort of definition is asked for, not what it is about.
pub(super) fn is_kind_term(term: &str) -> bool {
    static STEMS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
        KIND_WORDS
            .iter()
            .flat_map(|(w, _)| text::index_terms(w))
            .collect()
    });
    STEMS.iter().any(|k| k == term)
}

/// The words that name a kind of definition, and the kind each names.
pub(super) const KIND_WORDS: &[(&str, &str)] = &[
    ("function", "function"),
    ("func", "function"),
    ("fn", "function"),
    ("functions", "function"),
    // A decorator is applied by calling it: a function, most often.
    ("decorator", "function"),
    ("decorators", "function"),
    ("method", "method"),
    ("methods", "method"),
    ("struct", "struct"),
    ("structs", "struct"),
    ("interface", "interface"),
    ("interfaces", "interface"),
    ("protocol", "interface"),
    ("trait", "interface"),
    ("class", "class"),
    ("classes", "class"),
    ("type", "type"),
    ("types", "type"),
    ("const", "const"),
    ("constant", "const"),
    ("constants", "const"),
    ("var", "var"),
    ("variable", "var"),
    ("variables", "var"),
];

/// Filler words a slot may carry around its symbol.
fn is_filler(w: &str) -> bool {
    matches!(
        w,
        "the"
            | "a"
            | "an"
            | "our"
            | "this"
            | "that"
            | "its"
            | "all"
            | "any"
            | "every"
            | "symbol"
            | "named"
            | "called"
            | "declared"
            | "defined"
            | "definition"
            | "implemented"
            | "located"
            | "for"
            | "me"
            | "of"
            | "what"
            | "which"
            | "who"
            | "where"
            | "is"
            | "are"
            | "list"
            | "show"
            | "static"
            | "public"
            | "private"
            | "exported"
            | "unexported"
            | "abstract"
    )
}

/// Nouns that say what sort of thing a name is without being a kind of the code tool
/// ("the map operator", "the retry helper", "the gzip middleware").
fn is_description_noun(w: &str) -> bool {
    matches!(
        w,
        "operator"
            | "operators"
            | "helper"
            | "helpers"
            | "hook"
            | "hooks"
            | "middleware"
            | "handler"
            | "handlers"
            | "command"
            | "subcommand"
            | "option"
            | "flag"
            | "field"
            | "validator"
            | "widget"
            | "filter"
            | "plugin"
            | "extension"
            | "component"
            | "macro"
            | "endpoint"
            | "route"
            | "callback"
            | "wrapper"
            | "utility"
            | "util"
            | "builtin"
            | "primitive"
            | "setting"
            | "sentinel"
            | "marker"
            | "singleton"
            | "placeholder"
            | "property"
            | "attribute"
    )
}

/// Words that say where a symbol lives rather than what it is ("the mem package").
fn is_place_word(w: &str) -> bool {
    matches!(
        w,
        "package"
            | "packages"
            | "pkg"
            | "module"
            | "modules"
            | "library"
            | "lib"
            | "namespace"
            | "file"
            | "directory"
            | "dir"
            | "folder"
            | "crate"
    )
}

/// A token that names a file or directory: it has a `/`, or ends in a source file's
/// extension (`storage/sql.py`, `memmap.go`).
fn is_path_like(token: &str) -> bool {
    let t = token.trim_matches(|c: char| c == '`' || c == ',' || c == '"');
    let source_ext = [
        ".py", ".go", ".rs", ".ts", ".tsx", ".js", ".java", ".rb", ".c", ".h",
    ]
    .iter()
    .any(|e| t.ends_with(e) && t.len() > e.len());
    (t.contains('/') && !t.starts_with("http")) || source_ext
}

/// Words that ask for a free function rather than a method.
fn is_standalone_word(w: &str) -> bool {
    matches!(
        w,
        "standalone" | "toplevel" | "top-level" | "package-level" | "module-level" | "free"
    )
}

/// The slot with its asides taken out: parenthesised text (`(marshmallow.validate)`,
/// `(not the Logger method)`), a negated clause (`, not the method on Afero`) and a
/// relative clause (`that CopyOnWriteFs and CacheOnReadFs share`). Returns the rest, the
/// dotted or plain words of the asides that name a place, the words of a negated one,
/// and whether an aside rules out methods or a relative clause was taken out.
fn strip_asides(slot: &str) -> Asides {
    let mut rest = String::new();
    let mut places = Vec::new();
    let mut excluded = Vec::new();
    let mut not_method = false;
    let mut depth = 0usize;
    let mut aside = String::new();
    let chars: Vec<char> = slot.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // An aside opens after a space (not `(*Planner).Plan`, not a call `f()`).
        let opens = c == '('
            && (i == 0 || chars[i - 1].is_whitespace())
            && chars.get(i + 1).is_some_and(|n| *n != '*' && *n != ')');
        match c {
            '(' if opens || depth > 0 => {
                depth += 1;
                if depth == 1 {
                    aside.clear();
                    continue;
                }
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    read_aside(&aside, &mut places, &mut excluded, &mut not_method);
                    continue;
                }
            }
            _ => {}
        }
        if depth > 0 {
            aside.push(c);
        } else {
            rest.push(c);
        }
    }
    // A negated clause: ", not the method on Afero", " but not the Logger method". The
    // markers are ASCII: lower-cased as ASCII only, the copy's byte offsets are the
    // question's (`to_lowercase` changes the length of some letters, as 'ẞ' → 'ß').
    let lower = rest.to_ascii_lowercase();
    for marker in [", not ", " but not ", " not the ", " (not "] {
        if let Some(i) = lower.find(marker) {
            read_aside(&rest[i..], &mut places, &mut excluded, &mut not_method);
            rest.truncate(i);
            break;
        }
    }
    // A relative clause after the name says what it does, not which it is.
    let lower = rest.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    if let Some(pos) = words
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, w)| matches!(**w, "that" | "which" | "who" | "whose"))
        .map(|(i, _)| i)
    {
        rest = rest
            .split_whitespace()
            .take(pos)
            .collect::<Vec<_>>()
            .join(" ");
        return Asides {
            rest,
            places,
            excluded,
            not_method,
            clause: true,
        };
    }
    Asides {
        rest,
        places,
        excluded,
        not_method,
        clause: false,
    }
}

/// What [`strip_asides`] takes out of a slot, and what is left.
struct Asides {
    rest: String,
    places: Vec<String>,
    excluded: Vec<String>,
    not_method: bool,
    clause: bool,
}

/// Reads one aside: a negation (of methods, and of the places it names), or dotted
/// lower-case module paths.
fn read_aside(
    aside: &str,
    places: &mut Vec<String>,
    excluded: &mut Vec<String>,
    not_method: &mut bool,
) {
    let lower = aside.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .filter(|w| !w.is_empty())
        .collect();
    if words.contains(&"not") {
        if words.iter().any(|w| *w == "method" || *w == "methods") {
            *not_method = true;
        }
        // "not the grouping reducer", "not the one createAction exports", "not
        // encoder.go's in the library": the words that may name where the other one
        // lives (a kind word, a stop word or a filler names nothing, and a word written
        // as a call, "not the parse() function", names a function, not a place).
        let words = lower
            .split_whitespace()
            .filter(|t| !t.contains("()"))
            .flat_map(|t| {
                t.split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '/')))
            });
        for w in words {
            let w = w.trim_matches(['.', '/']);
            if w.len() > 1
                && !matches!(w, "not" | "one" | "ones" | "other" | "others")
                && kind_word(w).is_none()
                && !is_filler(w)
                && !text::is_stopword(w)
                && !excluded.iter().any(|e| e == w)
            {
                excluded.push(w.to_string());
            }
        }
        return;
    }
    for w in aside.split_whitespace() {
        let w = w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'));
        // "(in marshmallow.validate)": the preposition is not a place.
        if !w.is_empty()
            && !matches!(
                w,
                "in" | "from" | "inside" | "within" | "under" | "the" | "of"
            )
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
        {
            places.extend(w.split('.').filter(|s| !s.is_empty()).map(str::to_string));
        }
    }
}

/// Reads a slot as a symbol reference, or `None` when it is prose. `relaxed` accepts a
/// single plain word ("who calls dispatch"); without it a plain word must look like an
/// identifier. `mid` says the slot does not start the question, where a capital letter
/// marks a name even on a common word ("where is Code defined", "find Do").
///
/// Around the name a slot may say what the symbol is (a kind word, "standalone", "not the
/// method"), whose member it is ("the send method of Client", "Planner's Plan") and where
/// it lives ("in afero's mem package", "the logrus TextFormatter", "(marshmallow.validate)").
/// Owners become part of the name; places become `within` words, which only narrow.
fn slot_symbol(slot: &str, relaxed: bool, mid: bool) -> Option<SymbolRef> {
    let Asides {
        rest: slot,
        mut places,
        excluded,
        not_method,
        clause,
    } = strip_asides(&join_param_lists(slot));
    // A place said as such ("in package errs", "storage/sql.py", "(marshmallow.validate)")
    // marks the word before it as a name.
    let mut named_place = !places.is_empty();
    // A name with a few words around it, not a paragraph.
    if slot.split_whitespace().count() > 8 {
        return None;
    }
    let mut kind = None;
    let mut standalone = not_method;
    // Words before the first preposition, and after it.
    let mut names: Vec<String> = Vec::new();
    let mut after: Vec<String> = Vec::new();
    let mut prep: Option<&'static str> = None;
    let tokens: Vec<&str> = slot.split_whitespace().collect();
    for (i, raw) in tokens.iter().enumerate() {
        let lower = raw.to_lowercase();
        let bare = lower.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        let backticked = raw.contains('`');
        if is_path_like(raw) {
            // "in storage/sql.py": a file or directory the symbol lives in.
            places.push(
                raw.trim_matches(|c: char| c == '`' || c == ',')
                    .to_lowercase(),
            );
            named_place = true;
            continue;
        }
        // A capital marks a name mid-question even on a filler or kind word ("the
        // subclasses of This", "bsh's Variable class").
        let named_word = mid && raw.starts_with(char::is_uppercase) && raw.len() > 1;
        if !backticked && !named_word {
            if let Some(k) = kind_word(bare) {
                // After the preposition a kind word says what the owner is ("the produce
                // property on the Immer class", "the Close method of the Conn interface").
                if prep.is_none() {
                    kind = Some(k);
                }
                continue;
            }
            // "the package level one": a level, not a place.
            let next_is_level = tokens.get(i + 1).is_some_and(|t| {
                t.to_lowercase()
                    .trim_matches(|c: char| !c.is_alphanumeric())
                    .eq("level")
            });
            if is_standalone_word(bare)
                || (bare == "level" && i > 0)
                || (is_place_word(bare) && next_is_level)
            {
                standalone = true;
                continue;
            }
            if is_place_word(bare) && raw.chars().all(|c| !c.is_uppercase()) {
                named_place = true;
                // "the mem package": the word before names a place.
                let list = if prep.is_some() {
                    &mut after
                } else {
                    &mut names
                };
                if let Some(prev) = list.pop() {
                    places.push(prev.trim_end_matches("'s").to_lowercase());
                }
                continue;
            }
            if prep.is_none() && !names.is_empty() {
                match bare {
                    "of" | "on" | "for" => {
                        prep = Some("of");
                        continue;
                    }
                    "in" | "from" | "inside" | "within" | "under" => {
                        prep = Some("in");
                        continue;
                    }
                    _ => {}
                }
            }
            if is_filler(bare) {
                continue;
            }
        }
        let list = if prep.is_some() {
            &mut after
        } else {
            &mut names
        };
        list.push(raw.to_string());
    }
    if standalone && matches!(kind, None | Some("function")) {
        kind = Some("function");
    }
    // What follows the preposition: a type that owns the member, or places.
    if after.len() > 3 {
        return None;
    }
    // "error type that keeps the whole trail of contexts", "position type that stays put
    // under concurrent edits": a plain word named a type and then described is the
    // user's word for it, not its name (`VerboseError`, `RelativePosition`).
    let type_kind = kind.is_some_and(is_type_kind);
    let mut described = clause && type_kind;
    let mut joined = None;
    // "the map operator", "the retry helper": in a slot that holds a name, a plain word
    // and a noun saying what sort of thing it is name the word.
    if (relaxed || !after.is_empty())
        && names.len() == 2
        && is_description_noun(&names[1].to_lowercase())
        && clean_ident(&names[0])
            .is_some_and(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_'))
    {
        joined = joined_name(&names[0], &names[1]);
        names.truncate(1);
        described = true;
    }
    let mut owner: Option<String> = None;
    // A type is nobody's member in most languages: "the Builder struct for building a
    // Uri", "the Builder class of Request" say where it lives (a nested class's owner is a
    // segment of its qualified name, which places match too): `type_kind` above.
    for w in after {
        let possessive = w.ends_with("'s");
        let w = w.trim_end_matches("'s");
        let Some(mut id) = clean_ident(w) else {
            continue;
        };
        // "the header method of response::Builder", "the Scan method of types.JSONText":
        // lower-case segments before a type name are its module or package, the type is
        // the owner of a member said as one (not "the defintion of zap.NewProduction").
        // A name already qualified has its owner ("what methods does sqlx.Rows add on top
        // of sql.Rows": the words after it are places).
        let member = (kind == Some("method")
            || names
                .iter()
                .any(|n| clean_ident(n).is_some_and(|c| is_identifier_like(&c))))
            && !names.iter().any(|n| n.contains(['.', ':']));
        if member
            && let Some((modules, last)) = id.rsplit_once('.')
            && last.starts_with(char::is_uppercase)
            && modules
                .split('.')
                .all(|m| m.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'))
        {
            places.extend(modules.split('.').map(str::to_lowercase));
            id = last.to_string();
        }
        if type_kind {
            places.push(id.to_lowercase());
            continue;
        }
        // An owner reads as a type name ("of Client", "on Afero", Go's unexported "of
        // countValue"); plain words are places.
        let camel = !id.contains('.')
            && id.chars().skip(1).any(char::is_uppercase)
            && id.contains(char::is_lowercase);
        let ownerish =
            is_identifier_like(&id) && (id.chars().next().is_some_and(char::is_uppercase) || camel);
        if owner.is_none() && ownerish && !possessive && kind != Some("function") {
            owner = Some(id);
        } else {
            places.push(id.to_lowercase());
        }
    }
    // "Planner's Plan method" → Planner.Plan; "afero's Fs" → afero is a place.
    if names.len() == 2
        && let Some(first) = names[0].strip_suffix("'s")
    {
        let first = clean_ident(first)?;
        let member = clean_ident(&names[1])?;
        if first.chars().next().is_some_and(char::is_uppercase) {
            return Some(
                SymbolRef::new(format!("{first}.{member}"), kind)
                    .within(places)
                    .excluding(excluded),
            );
        }
        // "retry's retry": a possessive place marks the word after it as a name; a
        // contraction ("where's", "what's") is no place.
        if !text::is_stopword(&first.to_lowercase()) {
            places.push(first.to_lowercase());
            named_place = true;
        }
        names.remove(0);
    }
    // Several words: one identifier is the name; plain lower-case words before it are
    // places ("the llm Client interface"), after it descriptions ("the Nested field").
    if names.len() > 1 {
        let idents: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                let opens = !mid && tokens.first().is_some_and(|t| t == *n);
                n.contains('`')
                    || written_as_call(n)
                    || clean_ident(n).is_some_and(|c| {
                        is_identifier_like(&c)
                            || (!opens && c.len() > 1 && c.starts_with(char::is_uppercase))
                    })
            })
            .map(|(i, _)| i)
            .collect();
        let [at] = idents.as_slice() else {
            return None;
        };
        // At most one word on either side, and the name must read as a name, not an
        // acronym of the prose ("the database URL configured" is a concept question).
        let subject = clean_ident(&names[*at]).unwrap_or_default();
        let acronym = !subject.contains('_') && !subject.chars().any(char::is_lowercase);
        let after_word = names.get(*at + 1).map(|w| w.to_lowercase());
        // A name that can only be one (dotted, snake_case, inner capitals, backticked)
        // may carry two words of description ("the zap.Error field constructor").
        let strong = names[*at].contains('`')
            || subject.contains(['.', '_'])
            || subject.chars().skip(1).any(char::is_uppercase);
        let described = if strong { 3 } else { 2 };
        if names.len() > 1 + described
            || *at > if strong { 2 } else { 1 }
            || names.len() - *at > described
            // A kind word says an all-capitals word is a name ("the DOLLAR bindvar type",
            // "the MAX constant"), not an acronym of the prose.
            || (acronym && !names[*at].contains('`') && kind.is_none())
            || after_word.is_some_and(|w| w.ends_with("ed") || w.ends_with("ing"))
        {
            return None;
        }
        for (i, n) in names.iter().enumerate() {
            // A hyphenated word after the name describes it ("the Indenter post-lexer",
            // "the Foo built-in"): no identifier has a hyphen.
            let hyphenated =
                n.contains('-') && n.chars().all(|c| c.is_ascii_lowercase() || c == '-');
            if i > *at && hyphenated {
                continue;
            }
            let plain = clean_ident(n.trim_end_matches("'s"))?;
            if !plain
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
            {
                if i != *at {
                    return None;
                }
                continue;
            }
            // One word before the name is a place ("the llm Client"); two are a
            // description ("the global logger variable _globalL").
            if i < *at && *at == 1 {
                places.push(plain);
            }
        }
        if names.len() == *at + 2 {
            joined = joined_name(&names[*at], &names[*at + 1]);
        }
        names = vec![names[*at].clone()];
    }
    if names.len() != 1 {
        return None;
    }
    let token = &names[0];
    // A decorator as written (`@recurse`) is a name, as a backticked word is.
    let backticked = token.starts_with('`') || token.starts_with('@');
    let ident = clean_ident(token)?;
    let opens = !mid && tokens.first().is_some_and(|t| t == token);
    let capital = ident.chars().next().is_some_and(char::is_uppercase) && ident.len() > 1;
    let looks =
        backticked || written_as_call(token) || is_identifier_like(&ident) || (capital && !opens);
    let plain = ident.chars().all(|c| c.is_alphanumeric() || c == '_');
    // A plain lower-case word is a symbol in a relaxed slot ("who calls dispatch"), or
    // with a kind hint ("function dispatch") or an owner ("the send method of Client").
    let hinted = kind.is_some() || owner.is_some() || named_place || described;
    let accepted = looks || (plain && (relaxed || hinted));
    // A relaxed slot still refuses stop words ("who calls it"), unless a kind or owner
    // says it is a name ("the Code type").
    if !accepted || (!looks && !hinted && text::is_stopword(&ident.to_lowercase())) {
        return None;
    }
    let name = match owner {
        Some(o) => format!("{o}.{ident}"),
        None => ident,
    };
    let mut sym = SymbolRef::new(name, kind)
        .within(places)
        .excluding(excluded);
    sym.params = param_list(token);
    sym.described = described && !looks;
    if sym.params.is_none() && !sym.name.contains(['.', ':']) {
        sym.joined = joined;
    }
    Some(sym)
}

/// The head noun of a described type ("the VM's value stack type", "the cli's colored
/// JSON encoder"): the last word, a plain lower-case one, after at most three words of
/// description (plain words or acronyms) and possessive places; a type kind word may
/// follow. The name is `described`.
fn head_noun(slot: &str) -> Option<SymbolRef> {
    let Asides {
        rest,
        mut places,
        excluded,
        ..
    } = strip_asides(slot);
    let mut words: Vec<&str> = Vec::new();
    let mut kind = None;
    for raw in rest.split_whitespace() {
        let bare = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-');
        let lower = bare.to_lowercase();
        if is_filler(&lower) {
            continue;
        }
        if let Some(k) = kind_word(&lower) {
            kind = Some(k);
            continue;
        }
        if let Some(place) = bare.strip_suffix("'s") {
            places.push(place.to_lowercase());
            continue;
        }
        words.push(bare);
    }
    let (&last, description) = words.split_last()?;
    let plain = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase());
    let acronym = |w: &str| w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase());
    let type_kind = kind.is_none_or(is_type_kind);
    if !(1..=3).contains(&description.len())
        || !type_kind
        || !plain(last)
        || last.len() < 3
        || text::is_stopword(last)
        || !description.iter().all(|w| {
            plain(w)
                || acronym(w)
                || (w.contains('-') && w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        })
    {
        return None;
    }
    let mut sym = SymbolRef::new(last, kind)
        .within(places)
        .excluding(excluded);
    sym.described = true;
    Some(sym)
}

/// `name` and the plain word after it as one type name (`PClass` `evolver` →
/// `PClassEvolver`, `HTTP` `client` → `HTTPClient`): only a bare identifier that starts
/// with a capital, as a type's does, and a lower-case word of letters that is not a stop
/// word (the `code` tool matches names ignoring case).
fn joined_name(name: &str, word: &str) -> Option<String> {
    // A word written as a call is a function's name already ("the chain() helper").
    if written_as_call(name) {
        return None;
    }
    let name = clean_ident(name.trim_end_matches("'s"))?;
    // A constant's name (`NOTHING`, `DRAFT_STATE`) joins nothing; an acronym may
    // (`HTTP` `client`).
    let constant = !name.contains(char::is_lowercase) && name.len() > 4;
    if !name.trim_start_matches('_').starts_with(char::is_uppercase) || constant {
        return None;
    }
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    let plain = word.len() >= 3
        && word.chars().all(|c| c.is_ascii_lowercase())
        && !text::is_stopword(word)
        && !is_filler(word)
        // Words that say what sort of definition or value it is, as kind words do.
        && !matches!(
            word,
            "one" | "ones" | "dataclass" | "namedtuple" | "decorator" | "constructor"
                | "instance" | "instances" | "object" | "objects" | "value" | "values"
        )
        && kind_word(word).is_none();
    let bare = name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (plain && bare).then(|| {
        let mut chars = word.chars();
        let first = chars.next().map(|c| c.to_ascii_uppercase());
        format!(
            "{name}{}{}",
            first.into_iter().collect::<String>(),
            chars.as_str()
        )
    })
}

/// The parameter list written after a name (`unwrap(Object)` → `(Object)`), not an empty
/// one (a call, `chain()`) nor receiver syntax (`(*T).M`).
fn param_list(token: &str) -> Option<String> {
    let t = token
        .trim_matches(|c: char| c == '`' || c == '"' || c == '\'' || c == ',')
        .trim_end_matches(['?', '.', '!', ':', ';']);
    let open = t.find('(').filter(|&i| i > 0)?;
    let list = &t[open..];
    (list.ends_with(')') && list.len() > 2 && !list[1..].contains('(')).then(|| list.to_string())
}

/// A parameter list written with spaces (`eval(Reader, NameSpace)`) as one token.
fn join_param_lists(slot: &str) -> String {
    let mut out = String::with_capacity(slot.len());
    let mut depth = 0usize;
    let mut prev = ' ';
    for c in slot.chars() {
        match c {
            '(' if depth > 0 || prev.is_alphanumeric() || prev == '_' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            c if c.is_whitespace() && depth > 0 => continue,
            _ => {}
        }
        out.push(c);
        prev = c;
    }
    out
}

/// `chain()`, `db.open()`: a word written as a call is a name, as a backticked one is.
fn written_as_call(token: &str) -> bool {
    token
        .trim_end_matches(['?', '.', '!', ',', ':', ';'])
        .strip_suffix("()")
        .is_some_and(|name| {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
}

/// Strips backticks, call parentheses, receiver syntax and trailing punctuation from a
/// token, normalising `Type::method`, `Type#method` and `(*Type).Method` to `Type.method`.
/// `None` when what is left is not a (possibly qualified) identifier.
fn clean_ident(token: &str) -> Option<String> {
    let mut t = token.trim_matches(|c: char| c == '`' || c == '"' || c == '\'' || c == ',');
    t = t.trim_end_matches(['?', '.', '!', ':', ';']);
    // A decorator as written (`@recurse`).
    t = t.strip_prefix('@').unwrap_or(t);
    if let Some(stripped) = t.strip_suffix("()") {
        t = stripped;
    }
    // A parameter list (`unwrap(Object)`, `eval(String)`) or type arguments (`Take<T>`)
    // say which overload or instance; the name is before them. Not `(*T).M`.
    let owned;
    if !t.starts_with('(') {
        let cut = t
            .find(['(', '<'])
            .filter(|&i| i > 0 && t.ends_with([')', '>']));
        if let Some(i) = cut {
            let (head, tail) = t.split_at(i);
            // `Type<T>.method`: the type arguments of an owner are dropped too.
            owned = match tail.find(">.") {
                Some(j) if tail.starts_with('<') => format!("{head}{}", &tail[j + 1..]),
                _ => head.to_string(),
            };
            t = &owned;
        }
    }
    let t = t
        .replace("::", ".")
        .replace('#', ".")
        .replace("(*", "")
        .replace([')', '('], "")
        .replace('*', "");
    let t = t.trim_matches('.');
    if t.is_empty() {
        return None;
    }
    let ok = t.split('.').all(|seg| {
        !seg.is_empty()
            && seg.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !seg.chars().next().is_some_and(|c| c.is_ascii_digit())
    });
    ok.then(|| t.to_string())
}

/// True for tokens that can only be identifiers: CamelCase or camelCase (an upper-case
/// letter after the first character), snake_case, SCREAMING_CASE, qualified `A.B`, or a
/// capitalised word (in a question, capitals mark names).
pub fn is_identifier_like(t: &str) -> bool {
    if t.contains('.') {
        return true;
    }
    if t.contains('_') && t.chars().any(|c| c.is_alphabetic()) {
        return true;
    }
    let mut chars = t.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if chars.clone().any(|c| c.is_uppercase()) && t.chars().any(|c| c.is_lowercase()) {
        return true;
    }
    first.is_uppercase() && t.len() > 1 && !text::is_stopword(&t.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(name: &str) -> SymbolRef {
        SymbolRef::new(name, None)
    }

    fn kinded(name: &str, kind: &'static str) -> SymbolRef {
        SymbolRef::new(name, Some(kind))
    }

    #[test]
    fn definitions() {
        for q in [
            "where is IssueStore defined",
            "Where is IssueStore defined?",
            "where is `IssueStore` defined",
            "find IssueStore",
            "IssueStore",
            "`IssueStore`",
            "definition of IssueStore",
            "what is IssueStore",
            "where's IssueStore defined",
            "where is the IssueStore",
            "show me the definition of IssueStore",
            "locate IssueStore",
            "where is IssueStore declared",
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Definition(sym("IssueStore")),
                "{q}"
            );
        }
        assert_eq!(
            parse("where is the IssueStore interface defined").intent,
            Intent::Definition(kinded("IssueStore", "interface"))
        );
        assert_eq!(
            parse("interface IssueStore").intent,
            Intent::Definition(kinded("IssueStore", "interface"))
        );
        assert_eq!(
            parse("where is the Transaction class defined").intent,
            Intent::Definition(kinded("Transaction", "class"))
        );
        assert_eq!(
            parse("where is function post_transaction defined").intent,
            Intent::Definition(kinded("post_transaction", "function"))
        );
        assert_eq!(
            parse("post_transaction").intent,
            Intent::Definition(sym("post_transaction"))
        );
        assert_eq!(
            parse("where is Planner.Plan defined").intent,
            Intent::Definition(sym("Planner.Plan"))
        );
        assert_eq!(
            parse("where is (*Planner).Plan defined").intent,
            Intent::Definition(sym("Planner.Plan"))
        );
        assert_eq!(
            parse("where is LedgerService::post_transaction()").intent,
            Intent::Definition(sym("LedgerService.post_transaction"))
        );
        assert_eq!(
            parse("where is verify_signature()").intent,
            Intent::Definition(sym("verify_signature"))
        );
        assert_eq!(
            parse("where is MAX_TRANSACTION_AMOUNT defined").intent,
            Intent::Definition(sym("MAX_TRANSACTION_AMOUNT"))
        );
        assert_eq!(
            parse("where is dispatch defined").intent,
            Intent::Definition(sym("dispatch"))
        );
        assert_eq!(
            parse("where is the Planner's Plan method").intent,
            Intent::Definition(kinded("Planner.Plan", "method"))
        );
    }

    #[test]
    fn callers() {
        for q in [
            "who calls Plan",
            "Who calls Plan?",
            "what calls Plan",
            "callers of Plan",
            "where is Plan used",
            "where is Plan called",
            "what uses Plan",
            "usages of `Plan`",
            "find callers of Plan",
            "references to Plan",
            "Plan callers",
        ] {
            assert_eq!(parse(q).intent, Intent::Callers(sym("Plan")), "{q}");
        }
        assert_eq!(
            parse("who calls Orchestrator.Run").intent,
            Intent::Callers(sym("Orchestrator.Run"))
        );
        assert_eq!(
            parse("who calls dispatch").intent,
            Intent::Callers(sym("dispatch"))
        );
        assert_eq!(
            parse("who calls the post_transaction method").intent,
            Intent::Callers(kinded("post_transaction", "method"))
        );
    }

    #[test]
    fn callees() {
        for q in [
            "what does HandleWebhook call",
            "what functions does HandleWebhook call",
            "callees of HandleWebhook",
            "what is called by HandleWebhook",
            "what does HandleWebhook call to verify the signature",
            "what does HandleWebhook call when the body is empty",
            "what does HandleWebhook call once the body is read",
            "what does HandleWebhook dispatch to",
            "what does HandleWebhook delegate to for each event",
            "what does HandleWebhook hand off to",
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Callees(sym("HandleWebhook")),
                "{q}"
            );
        }
        // "to" after a name that is no frame's end stays in the slot.
        assert_eq!(
            parse("what does Uri::from_shared call to parse the bytes").intent,
            Intent::Callees(sym("Uri.from_shared"))
        );
    }

    #[test]
    fn a_hyphenated_word_after_a_name_describes_it() {
        assert_eq!(
            parse("methods of the Indenter post-lexer").intent,
            Intent::Methods(sym("Indenter"))
        );
        assert_eq!(
            parse("who calls the Lexer built-in").intent,
            Intent::Callers(sym("Lexer"))
        );
    }

    /// Methods are a type's: a described type's head noun names it, as a description.
    #[test]
    fn the_head_noun_of_a_described_type_is_its_name() {
        let described = |mut s: SymbolRef| {
            s.described = true;
            s
        };
        assert_eq!(
            parse("methods of the VM's value stack type, not scopeStack").intent,
            Intent::Methods(described(unlike(
                placed("stack", Some("type"), &["vm"]),
                &["scopestack"]
            )))
        );
        assert_eq!(
            parse("list the methods of the cli's colored JSON encoder (not encoder.go's in the library)")
                .intent,
            Intent::Methods(described(unlike(
                placed("encoder", None, &["cli"]),
                &["encoder.go", "library"]
            )))
        );
        // Not for other relations ("who calls the payment code" is prose), nor for a
        // long description or a function.
        assert_eq!(parse("who calls the payment code").intent, Intent::Concept);
        assert_eq!(
            parse("methods of the big old slow value stack").intent,
            Intent::Concept
        );
        assert_eq!(
            parse("methods of the value stack function").intent,
            Intent::Concept
        );
    }

    #[test]
    fn what_can_i_do_with_a_type_asks_for_its_methods() {
        for (q, name) in [
            (
                "what can I do with a toml.LocalDate value",
                "toml.LocalDate",
            ),
            ("what can you do with a Source", "Source"),
            ("what can LineStart do", "LineStart"),
            ("what methods can I chain on Iter()", "Iter"),
            ("what methods can I call on Iter", "Iter"),
            ("list what a Path object can do, its methods", "Path"),
        ] {
            assert_eq!(parse(q).intent, Intent::Methods(sym(name)), "{q}");
        }
    }

    #[test]
    fn a_type_word_heads_a_described_type_question() {
        for (q, kinds) in [
            (
                "the enum saying how much more input a streaming parser wants",
                &["type", "class"][..],
            ),
            (
                "trait that splits the input at the first failing character",
                &["interface"][..],
            ),
            (
                "where is the struct that keeps a reader's headers",
                &["struct", "class"][..],
            ),
            (
                "error type that keeps the whole trail of contexts",
                &["struct", "interface", "class", "type"][..],
            ),
        ] {
            assert_eq!(asked_type_kinds(q), Some(kinds), "{q}");
        }
        for q in [
            "how are types checked",
            "where does the parser read the input type",
            "who calls the Type constructor",
        ] {
            assert_eq!(asked_type_kinds(q), None, "{q}");
        }
    }

    #[test]
    fn a_plain_word_named_a_type_then_described_is_a_description() {
        for (q, name) in [
            (
                "error type that keeps the whole trail of contexts and chars",
                "error",
            ),
            (
                "position type that stays at the same place under concurrent edits",
                "position",
            ),
        ] {
            let Intent::Definition(s) = parse(q).intent else {
                panic!("{q}: {:?}", parse(q).intent)
            };
            assert_eq!(s.name, name, "{q}");
            assert!(s.described, "{q}");
        }
        // A name written as one, or with no clause after it, is a name.
        for q in [
            "the ParseError type that has the line and column of a syntax error",
            "the parser struct in toml",
            "config struct of the hcl printer",
        ] {
            let Intent::Definition(s) = parse(q).intent else {
                panic!("{q}: {:?}", parse(q).intent)
            };
            assert!(!s.described, "{q}: {s:?}");
        }
    }

    #[test]
    fn a_plain_word_described_by_a_noun_is_a_name_not_found_is_ranked() {
        for (q, name) in [
            ("where is the map operator defined", "map"),
            ("find the retry helper", "retry"),
            ("where is the truncate filter defined", "truncate"),
        ] {
            let Intent::Definition(s) = parse(q).intent else {
                panic!("{q}: {:?}", parse(q).intent)
            };
            assert_eq!(s.name, name, "{q}");
            assert!(s.described, "{q}");
        }
        // A name that reads as one on its own is not merely described.
        let Intent::Definition(s) = parse("where is the switchMap operator defined").intent else {
            panic!()
        };
        assert_eq!(s.name, "switchMap");
        assert!(!s.described);
        // The singular "implementation" of a name is its definition.
        assert_eq!(
            parse("where is the implementation of HandleWebhook").intent,
            Intent::Definition(sym("HandleWebhook"))
        );
    }

    #[test]
    fn uses_fields_and_signatures_said_other_ways() {
        for q in [
            "is post_transaction called anywhere",
            "is post_transaction used",
            "which tests cover post_transaction",
            "tests for post_transaction",
            "who creates a post_transaction",
            "where do we construct post_transaction",
        ] {
            let Intent::Callers(s) = parse(q).intent else {
                panic!("{q}: {:?}", parse(q).intent)
            };
            assert_eq!(s.name, "post_transaction", "{q}");
        }
        for q in [
            "what fields does Transaction have",
            "attributes of Transaction",
            "signature of Transaction",
            "what are the parameters of Transaction",
            "what arguments does Transaction take",
        ] {
            let Intent::Definition(s) = parse(q).intent else {
                panic!("{q}: {:?}", parse(q).intent)
            };
            assert_eq!(s.name, "Transaction", "{q}");
        }
    }

    #[test]
    fn implementations() {
        for q in [
            "what implements IssueStore",
            "implementations of IssueStore",
            "which types implement the IssueStore interface",
            "who implements IssueStore",
            "IssueStore implementations",
            "IssueStore impls",
            "impls of IssueStore",
            "IssueStore implementors",
            "which structs impl IssueStore",
            "classes derived from IssueStore",
            "what stores are built on top of IssueStore",
            "which stores are built on the IssueStore interface",
            "types based on IssueStore",
            "list every implementation of IssueStore",
            "the implementation of the IssueStore interface",
        ] {
            let got = parse(q).intent;
            let Intent::Implementations(s) = got else {
                panic!("{q}: {got:?}")
            };
            assert_eq!(s.name, "IssueStore", "{q}");
        }
        for q in [
            "subclasses of Repository",
            "what subclasses Repository",
            "classes that inherit from Repository",
            "what inherits from Repository",
            "what are the subclasses of Repository",
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Implementations(sym("Repository")),
                "{q}"
            );
        }
    }

    #[test]
    fn relation_words_anywhere_in_a_short_question() {
        assert_eq!(
            parse("which types satisfy chi.Router").intent,
            Intent::Implementations(sym("chi.Router"))
        );
        assert_eq!(
            parse("which handlers in the middleware package call chi.RouteContext").intent,
            Intent::Callers(sym("chi.RouteContext"))
        );
        assert_eq!(
            parse("what methods does the routing Context have in chi").intent,
            Intent::Methods(placed("Context", None, &["chi", "routing"]))
        );
        assert_eq!(
            parse("list the methods on middleware.Compressor").intent,
            Intent::Methods(sym("middleware.Compressor"))
        );
        assert_eq!(
            parse("what calls the unexported chain() helper").intent,
            Intent::Callers(sym("chain"))
        );
        // The clause ends at a comma or a parenthesis.
        assert_eq!(
            parse("list all the methods of cli.Context, including the typed getters like Bool and String").intent,
            Intent::Methods(sym("cli.Context"))
        );
        assert_eq!(
            parse("all the exceptions that derive from TemplateError, directly or not").intent,
            Intent::Implementations(sym("TemplateError"))
        );
        assert_eq!(
            parse("which classes subclass Validator (in marshmallow.validate)").intent,
            Intent::Implementations(placed("Validator", None, &["marshmallow", "validate"]))
        );
        // Prose after the relation word is not a name.
        for q in [
            "where do we call the payment API",
            "how do handlers call into the store",
            "what happens when requests inherit the timeout",
        ] {
            assert_eq!(parse(q).intent, Intent::Concept, "{q}");
        }
    }

    #[test]
    fn round_three_shapes() {
        // "where is X <participles> (from) (in place)": where it is used.
        assert_eq!(
            parse("where is writeQuoted called from in the encoder").intent,
            Intent::Callers(placed("writeQuoted", None, &["encoder"]))
        );
        assert_eq!(
            parse("where is the global logger variable _globalL read or replaced").intent,
            Intent::Callers(placed("_globalL", Some("var"), &[]))
        );
        assert_eq!(
            parse("where is NotRenderableError raised").intent,
            Intent::Callers(sym("NotRenderableError"))
        );
        // A cue followed by another describes the subject; a purpose clause ends the name.
        assert_eq!(
            parse(
                "which SugaredLogger methods call sweetenFields to turn key value pairs into fields"
            )
            .intent,
            Intent::Callers(sym("sweetenFields"))
        );
        assert_eq!(
            parse("which grouping functions are decorated with @recurse").intent,
            Intent::Callers(sym("recurse"))
        );
        assert_eq!(
            parse("where does sqlparse raise SQLParseError").intent,
            Intent::Callers(sym("SQLParseError"))
        );
        // Mixins are used by inheriting them.
        assert_eq!(
            parse("whihc renderables mix in JupyterMixin").intent,
            Intent::Implementations(sym("JupyterMixin"))
        );
        assert_eq!(
            parse("which sql classes use the NameAliasMixin").intent,
            Intent::Implementations(sym("NameAliasMixin"))
        );
        assert_eq!(
            parse("which highlighter classes override highlight()").intent,
            Intent::Definition(sym("highlight"))
        );
        // Two words of description after a name that can only be one.
        assert_eq!(
            parse("the zap.Error field constructor, not the Error method on Logger").intent,
            Intent::Definition(unlike(
                placed("Error", Some("function"), &["zap"]),
                &["logger"]
            ))
        );
        // A capital marks a name even on a filler or kind word.
        assert_eq!(
            parse("what are the subclasses of This").intent,
            Intent::Implementations(sym("This"))
        );
        assert_eq!(
            parse("what methods does bsh's Variable class have").intent,
            Intent::Methods(placed("Variable", Some("class"), &["bsh"]))
        );
        // Parameter lists and type arguments are not part of the name.
        let with = |mut s: SymbolRef, p: &str| {
            s.params = Some(p.to_string());
            s
        };
        assert_eq!(
            parse("the static Primitive.unwrap(Object) method").intent,
            Intent::Definition(with(kinded("Primitive.unwrap", "method"), "(Object)"))
        );
        assert_eq!(
            parse("where is Interpreter.eval(String) defined").intent,
            Intent::Definition(with(sym("Interpreter.eval"), "(String)"))
        );
        assert_eq!(
            parse("find eval(Reader, NameSpace, String)").intent,
            Intent::Definition(with(sym("eval"), "(Reader,NameSpace,String)"))
        );
        assert_eq!(
            parse("what calls the unexported chain() helper").intent,
            Intent::Callers(sym("chain"))
        );
        assert_eq!(
            parse("list the methods on Take<T>").intent,
            Intent::Methods(sym("Take"))
        );
    }

    #[test]
    fn overrides_ask_for_every_definition_of_the_bare_name() {
        for q in [
            "which classes override post_transaction",
            "overrides of post_transaction",
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Definition(sym("post_transaction")),
                "{q}"
            );
        }
        // An owner's method: its implementers' and subclasses' methods of that name.
        assert_eq!(
            parse("which classes override LedgerService.post_transaction").intent,
            Intent::Implementations(sym("LedgerService.post_transaction"))
        );
        let got = parse("which output filters override _process from OutputFilter").intent;
        assert!(
            matches!(&got, Intent::Implementations(s) if s.leaf() == "_process" && s.qualifier() == Some("OutputFilter")),
            "{got:?}"
        );
    }

    #[test]
    fn a_named_kind_then_its_description_is_a_definition() {
        for q in [
            "the Error struct with the Type and Message fields",
            "go-flags Error struct with the Type and Message fields",
            "Error struct that holds the message",
        ] {
            let got = parse(q).intent;
            assert!(
                matches!(&got, Intent::Definition(s) if s.name == "Error" && s.kind == Some("struct")),
                "{q}: {got:?}"
            );
        }
        // Prose before the describer, or no kind word, stays a concept question.
        for q in [
            "the code with the retry loop",
            "the function with the retry loop",
            "the retry loop with backoff",
        ] {
            assert_eq!(parse(q).intent, Intent::Concept, "{q}");
        }
    }

    #[test]
    fn package_qualified_types() {
        assert_eq!(
            parse("what implements the llm Client interface").intent,
            Intent::Implementations(placed("Client", Some("interface"), &["llm"]))
        );
    }

    #[test]
    fn methods() {
        for q in [
            "methods of LedgerService",
            "what methods does LedgerService have",
            "list the methods of LedgerService",
            "LedgerService methods",
            "list the methods on LedgerService",
            "which methods does LedgerService have?",
            "show all methods of the LedgerService",
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Methods(sym("LedgerService")),
                "{q}"
            );
        }
        // Methods are a type's: two plain words are a place and a type, or one name.
        for q in [
            "list the methods on the treemap iterator",
            "what methods does the treemap iterator have",
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Methods(SymbolRef {
                    joined: Some("treemapiterator".into()),
                    ..placed("iterator", None, &["treemap"])
                }),
                "{q}"
            );
        }
        // A capitalised name and the word after it may be one type's name.
        assert_eq!(
            parse("list the methods of the PClass evolver").intent,
            Intent::Methods(SymbolRef {
                joined: Some("PClassEvolver".into()),
                ..sym("PClass")
            })
        );
        // Other questions keep two plain words as prose.
        assert_eq!(
            parse("who calls the treemap iterator").intent,
            Intent::Concept
        );
    }

    #[test]
    fn traces() {
        let want = Intent::Trace {
            from: sym("HandleWebhook"),
            to: sym("Plan"),
        };
        for q in [
            "how does HandleWebhook reach Plan",
            "path from HandleWebhook to Plan",
            "trace HandleWebhook to Plan",
            "trace calls from HandleWebhook to Plan",
            "trace the calls from HandleWebhook to Plan",
            "trace the path from HandleWebhook to Plan",
            "show the call path from HandleWebhook to Plan",
            "how does HandleWebhook get to Plan?",
            "call chain from HandleWebhook to Plan",
            "does HandleWebhook call Plan",
            "from HandleWebhook to Plan",
        ] {
            assert_eq!(parse(q).intent, want, "{q}");
        }
        assert_eq!(
            parse("how does handle_webhook reach post_transaction").intent,
            Intent::Trace {
                from: sym("handle_webhook"),
                to: sym("post_transaction")
            }
        );
        assert_eq!(
            parse("path from HandleWebhook to Planner.Plan").intent,
            Intent::Trace {
                from: sym("HandleWebhook"),
                to: sym("Planner.Plan")
            }
        );
    }

    #[test]
    fn what_a_symbol_does_is_its_definition() {
        for (q, name) in [
            (
                "what does full_dispatch_request do",
                "full_dispatch_request",
            ),
            ("what does dispatch do", "dispatch"),
            ("what does Router.ServeHTTP do?", "Router.ServeHTTP"),
            ("what is RepoRoot for", "RepoRoot"),
            ("what is DEFAULT_MAX_TURNS used for", "DEFAULT_MAX_TURNS"),
        ] {
            assert_eq!(parse(q).intent, Intent::Definition(sym(name)), "{q}");
        }
        assert_eq!(
            parse("what does the retry logic do").intent,
            Intent::Concept
        );
    }

    #[test]
    fn concepts() {
        for q in [
            "how are webhooks handled",
            "where is retry logic",
            "where is the retry logic",
            "how does authentication work",
            "how is the webhook signature verified",
            "where are settings loaded from the environment",
            "how is the flux capacitor calibrated",
            "what happens when planning fails",
            "where is the database URL configured",
            "how are API routes registered",
            "who calls the payment code",
        ] {
            assert_eq!(parse(q).intent, Intent::Concept, "{q}");
        }
    }

    #[test]
    fn concept_terms_are_stemmed_content_words() {
        assert_eq!(
            parse("how are webhooks handled").terms,
            ["webhook", "handl"]
        );
        assert_eq!(parse("where is the retry logic").terms, ["retri"]);
        assert_eq!(
            parse("How is the webhook signature verified?").terms,
            ["webhook", "signatur", "verifi"]
        );
    }

    #[test]
    fn identifier_likeness() {
        for t in [
            "IssueStore",
            "handleWebhook",
            "post_transaction",
            "A.B",
            "Plan",
        ] {
            assert!(is_identifier_like(t), "{t}");
        }
        for t in ["webhooks", "how", "The", "a", ""] {
            assert!(!is_identifier_like(t), "{t}");
        }
    }

    #[test]
    fn symbol_accessors() {
        let s = sym("Planner.Plan");
        assert_eq!(s.leaf(), "Plan");
        assert_eq!(s.qualifier(), Some("Planner"));
        assert_eq!(sym("Plan").qualifier(), None);
    }

    /// `s` with the words of a negated clause.
    fn unlike(mut s: SymbolRef, words: &[&str]) -> SymbolRef {
        s.excluded = words.iter().map(|w| w.to_string()).collect();
        s
    }

    fn placed(name: &str, kind: Option<&'static str>, within: &[&str]) -> SymbolRef {
        SymbolRef {
            name: name.to_string(),
            kind,
            within: within.iter().map(|w| w.to_string()).collect(),
            params: None,
            described: false,
            implementor: None,
            joined: None,
            method_call: false,
            excluded: Vec::new(),
        }
    }

    /// The words around a name: whose member it is, where it lives, what it is. Owners
    /// join the name; places narrow; descriptions and asides are dropped.
    #[test]
    fn owners_places_and_asides() {
        let cases: &[(&str, Intent)] = &[
            (
                "the send method of Client",
                Intent::Definition(placed("Client.send", Some("method"), &[])),
            ),
            (
                "the header method of response::Builder, not the request builder's",
                Intent::Definition(unlike(
                    placed("Builder.header", Some("method"), &["response"]),
                    &["request"],
                )),
            ),
            (
                "the Scan method of types.JSONText, not the NullJSONText one",
                Intent::Definition(unlike(
                    placed("JSONText.Scan", Some("method"), &["types"]),
                    &["nulljsontext"],
                )),
            ),
            (
                "the Builder struct for building a Uri, not the request or response Builder",
                Intent::Definition(unlike(
                    placed("Builder", Some("struct"), &["building", "uri"]),
                    &["request", "response"],
                )),
            ),
            (
                "what methods does sqlx.Rows add on top of sql.Rows",
                Intent::Methods(placed("Rows", None, &["sqlx", "top", "sql.rows"])),
            ),
            (
                "the Builder class of Request",
                Intent::Definition(placed("Builder", Some("class"), &["request"])),
            ),
            (
                "who calls the Exit method of Logger",
                Intent::Callers(placed("Logger.Exit", Some("method"), &[])),
            ),
            (
                "the File struct in afero's mem package",
                Intent::Definition(placed("File", Some("struct"), &["mem", "afero"])),
            ),
            (
                "the TextFormatter struct in logrus",
                Intent::Definition(placed("TextFormatter", Some("struct"), &["logrus"])),
            ),
            (
                "which types implement the afero Fs interface",
                Intent::Implementations(placed("Fs", Some("interface"), &["afero"])),
            ),
            (
                "what implements logrus.Formatter",
                Intent::Implementations(placed("Formatter", None, &["logrus"])),
            ),
            (
                "where's the Email validator class (marshmallow.validate)",
                Intent::Definition(SymbolRef {
                    joined: Some("EmailValidator".into()),
                    ..placed("Email", Some("class"), &["marshmallow", "validate"])
                }),
            ),
            (
                "the standalone ReadFile function, not the method on Afero",
                Intent::Definition(unlike(
                    placed("ReadFile", Some("function"), &[]),
                    &["afero"],
                )),
            ),
            (
                "the standalone SetBufferPool function (not the Logger method)",
                Intent::Definition(unlike(
                    placed("SetBufferPool", Some("function"), &[]),
                    &["logger"],
                )),
            ),
            (
                "the package level copyToLayer function that CopyOnWriteFs and CacheOnReadFs share",
                Intent::Definition(placed("copyToLayer", Some("function"), &[])),
            ),
            (
                "the Set method of countValue",
                Intent::Definition(placed("countValue.Set", Some("method"), &[])),
            ),
            (
                "StringToStringVarP, the package level one that uses CommandLine, not the FlagSet method",
                Intent::Definition(unlike(
                    placed("StringToStringVarP", Some("function"), &[]),
                    &["flagset"],
                )),
            ),
            (
                "what methods does the Nested field have",
                Intent::Methods(SymbolRef {
                    joined: Some("NestedField".into()),
                    ..placed("Nested", None, &[])
                }),
            ),
            (
                "what calls appendValue in the text formatter",
                Intent::Callers(placed("appendValue", None, &["text", "formatter"])),
            ),
            (
                "where is the Code type defined",
                Intent::Definition(placed("Code", Some("type"), &[])),
            ),
            (
                "where is the Config dataclass in storage/sql.py defined",
                Intent::Definition(placed("Config", None, &["storage/sql.py"])),
            ),
            (
                "where is (*Planner).Plan defined",
                Intent::Definition(placed("Planner.Plan", None, &[])),
            ),
        ];
        for (q, want) in cases {
            assert_eq!(&parse(q).intent, want, "{q}");
        }
        // A misspelt question word is the question word.
        assert_eq!(
            parse("wher is retry defined").intent,
            Intent::Definition(placed("retry", None, &[]))
        );
        assert_eq!(
            parse("retry's retry").intent,
            Intent::Definition(placed("retry", None, &["retry"]))
        );
        // What uses a name asks where it is used; what a definition uses describes it.
        let q = "where does the html renderer use safe_entity";
        assert!(
            matches!(parse(q).intent, Intent::Callers(ref s) if s.name == "safe_entity"),
            "{q}: {:?}",
            parse(q).intent
        );
        let q = "StringToStringVarP, the package level one that uses CommandLine, not the FlagSet";
        assert!(
            matches!(parse(q).intent, Intent::Definition(ref s) if s.name == "StringToStringVarP"),
            "{q}: {:?}",
            parse(q).intent
        );
        // What is built from a value uses it.
        let q = "which patterns are built from LINK_LABEL";
        assert!(
            matches!(parse(q).intent, Intent::Callers(ref s) if s.name == "LINK_LABEL"),
            "{q}: {:?}",
            parse(q).intent
        );
        // Only what is built or based on a name subclasses it; "on top of" alone is not.
        let q = "what methods does sqlx.Rows add on top of sql.Rows";
        assert!(
            matches!(parse(q).intent, Intent::Methods(ref s) if s.name == "Rows"),
            "{q}: {:?}",
            parse(q).intent
        );
        // A kind word makes an all-capitals word a name, not an acronym of the prose.
        let q = "where is the DOLLAR bindvar type used";
        assert!(
            matches!(parse(q).intent, Intent::Callers(ref s) if s.name == "DOLLAR"),
            "{q}: {:?}",
            parse(q).intent
        );
        // A qualified name is no owner type: not `zap.NewProduction.defintion`.
        let q = "where's the defintion of zap.NewProduction";
        assert!(
            !format!("{:?}", parse(q).intent).contains("defintion"),
            "{q}"
        );
    }

    /// A relation verb anywhere reads the name after it; prose stays prose.
    #[test]
    fn relation_verbs_without_a_frame() {
        for (q, name) in [
            ("which classes subclass BaseTransport", "BaseTransport"),
            ("what auth classes inherit from Auth", "Auth"),
            ("fields that inherit from Number", "Number"),
            ("which classes subclass rrulebase", "rrulebase"),
        ] {
            let Intent::Implementations(s) = parse(q).intent else {
                panic!("{q}")
            };
            assert_eq!(s.name, name, "{q}");
        }
        for (q, name) in [
            ("which places catch InvalidVersion", "InvalidVersion"),
            ("where is ParseError caught", "ParseError"),
            (
                "where does echo return ErrStatusRequestEntityTooLarge",
                "ErrStatusRequestEntityTooLarge",
            ),
            ("which functions return ErrNotFound", "ErrNotFound"),
            (
                "where is _version_nodot used to build tags",
                "_version_nodot",
            ),
        ] {
            let Intent::Callers(s) = parse(q).intent else {
                panic!("{q}")
            };
            assert_eq!(s.name, name, "{q}");
        }
        for q in [
            "what does the handler return when the body is too large",
            "the function that returns defaults",
            "the method which returns the default client",
            "where is the idempotency of postings handled",
            "where is the database URL configured",
            "Incorrect plural for seconds in Russian (locale: ru_RU) when I subclass Locale and extend it with many more words",
        ] {
            assert_eq!(parse(q).intent, Intent::Concept, "{q}");
        }
    }

    /// A type's name before the plural "methods" asks for its methods.
    #[test]
    fn a_name_then_methods() {
        for (q, name) in [
            (
                "FileOptions.Builder methods (the builder, not FileOptions itself)",
                "FileOptions.Builder",
            ),
            ("the Pool methods", "Pool"),
        ] {
            assert_eq!(parse(q).intent, Intent::Methods(sym(name)), "{q}");
        }
        assert!(!matches!(
            parse("the Close method").intent,
            Intent::Methods(_)
        ));
        assert_eq!(methods_after_name("retry methods"), None);
        assert_eq!(methods_after_name("where are the Pool methods"), None);
    }

    /// An aside after a comma does not hide the participle before it.
    #[test]
    fn a_participle_before_an_aside() {
        let q = "where is the package-level ReceiveWithTimeout(c, timeout) function called, the helper not the methods";
        let Intent::Callers(s) = parse(q).intent else {
            panic!("{q}: {:?}", parse(q).intent)
        };
        assert_eq!(
            (s.name.as_str(), s.kind),
            ("ReceiveWithTimeout", Some("function"))
        );
    }

    /// After an article a relation word is a noun, and the word after it a verb.
    #[test]
    fn a_relation_noun_is_followed_by_no_name() {
        let q = "how does Response.IsSuccess decide a call succeeded";
        assert!(
            !format!("{:?}", parse(q).intent).contains("succeeded"),
            "{q}: {:?}",
            parse(q).intent
        );
        for (q, name) in [
            ("what does the handler do when a use fails", None),
            ("which classes subclass rrulebase", Some("rrulebase")),
            ("who calls dispatch", Some("dispatch")),
        ] {
            let got = match parse(q).intent {
                Intent::Implementations(s) | Intent::Callers(s) => Some(s.name),
                _ => None,
            };
            assert_eq!(got.as_deref(), name, "{q}");
        }
    }

    /// Rust's `impl Trait for Type` asked of one type: the trait's implementations, kept
    /// to that type.
    #[test]
    fn a_trait_impl_for_a_type() {
        for q in [
            "impl FromStr for Version",
            "the FromStr impl for Version, i.e. the actual version parser",
            "where is `Display` implemented for `Version`?",
            "Version's FromStr impl",
            "the FromStr implementation of Version",
        ] {
            let Intent::Implementations(s) = parse(q).intent else {
                panic!("{q}: {:?}", parse(q).intent)
            };
            let trait_ = if q.contains("Display") {
                "Display"
            } else {
                "FromStr"
            };
            assert_eq!(
                (s.name.as_str(), s.implementor.as_deref()),
                (trait_, Some("Version")),
                "{q}"
            );
        }
        for q in [
            "every Iterator impl in the crate",
            "the Display impls",
            "all Store implementations",
        ] {
            let Intent::Implementations(s) = parse(q).intent else {
                panic!("{q}: {:?}", parse(q).intent)
            };
            assert_eq!(s.implementor, None, "{q}");
        }
        for q in [
            "where is the implementation of Plan",
            "the Store implementation for postgres",
            "how is Plan implemented",
            "the Plan implementation",
        ] {
            let implementor = match parse(q).intent {
                Intent::Implementations(s) | Intent::Definition(s) => s.implementor,
                _ => None,
            };
            assert_eq!(implementor, None, "{q}");
        }
    }

    /// A kind word after the preposition says what the owner is, not what is asked for.
    #[test]
    fn the_owners_kind_word_is_the_owners() {
        for (q, name, kind) in [
            (
                "the produce property on the Immer class, not the exported produce const",
                "Immer.produce",
                None,
            ),
            (
                "the Close method of the Conn interface",
                "Conn.Close",
                Some("method"),
            ),
        ] {
            let Intent::Definition(s) = parse(q).intent else {
                panic!("{q}: {:?}", parse(q).intent)
            };
            assert_eq!((s.name.as_str(), s.kind), (name, kind), "{q}");
        }
    }

    #[test]
    fn an_imperative_is_no_name() {
        for q in [
            "find the function that implements caret matching",
            "find the function",
            "locate the function that throws the minified error",
        ] {
            assert_eq!(parse(q).intent, Intent::Concept, "{q}");
        }
        assert_eq!(parse("find Do").intent, Intent::Definition(sym("Do")));
        assert_eq!(
            parse("show IssueStore").intent,
            Intent::Definition(sym("IssueStore"))
        );
        assert_eq!(
            parse("show the IssueStore struct").intent,
            Intent::Definition(kinded("IssueStore", "struct"))
        );
    }

    #[test]
    fn description_nouns_around_a_used_name() {
        for (q, name, joined) in [
            ("where is the NOTHING sentinel checked", "NOTHING", None),
            ("where is the _missing marker used", "_missing", None),
            (
                "where is the DRAFT_STATE property read",
                "DRAFT_STATE",
                None,
            ),
            (
                "where is the PClass evolver used",
                "PClass",
                Some("PClassEvolver"),
            ),
        ] {
            let want = SymbolRef {
                joined: joined.map(str::to_string),
                ..sym(name)
            };
            assert_eq!(parse(q).intent, Intent::Callers(want), "{q}");
        }
    }

    /// A pasted line of code asks what it calls: the assignment's callee, a statement's,
    /// or the call inside a print or log.
    #[test]
    fn a_line_of_code_asks_for_what_it_calls() {
        let described = |mut s: SymbolRef| {
            s.described = true;
            s
        };
        let method = |mut s: SymbolRef| {
            s.method_call = true;
            s
        };
        let cases: &[(&str, SymbolRef)] = &[
            (
                "let pos = view.posAtCoords({left: event.clientX, top: event.clientY})",
                described(method(placed("posAtCoords", None, &["view"]))),
            ),
            (
                "    name = field(type=str, mandatory=True)",
                described(sym("field")),
            ),
            (
                "console.log(ajv.errorsText(validate.errors))",
                described(method(placed("errorsText", None, &["ajv"]))),
            ),
            (
                "log.Printf(\"%v (%d)\", s.Name(), n)",
                described(method(placed("Name", None, &["s"]))),
            ),
            (
                "tree := redblacktree.NewWithIntComparator() // empty (keys are of type int)",
                described(method(placed(
                    "NewWithIntComparator",
                    None,
                    &["redblacktree"],
                ))),
            ),
            (
                "double r = relativeOnOther(mR);",
                described(sym("relativeOnOther")),
            ),
            // After a prompt or a keyword, the statement; a literal argument makes a call
            // code rather than a parameter list; a semicolon ends a statement.
            (">>> glom(target, 'a.b.c')", described(sym("glom"))),
            ("glom(target, 'a.b.c')", described(sym("glom"))),
            (
                "return ['strong', mergeAttributes(this.options.HTMLAttributes, HTMLAttributes), 0]",
                described(sym("mergeAttributes")),
            ),
            (
                "packages.add(new MapsPackage());",
                described(method(placed("add", None, &["packages"]))),
            ),
            (
                "x = Schema.from_dict({'a': fields.Int()})",
                described(sym("Schema.from_dict")),
            ),
            (
                "result = self.compile(schema)",
                described(method(placed("compile", None, &[]))),
            ),
        ];
        for (q, want) in cases {
            assert_eq!(parse(q).intent, Intent::Definition(want.clone()), "{q}");
        }
        // Code followed by a question is read as a question.
        for q in [
            "Required('port', default=8080): how does the default get filled in when the key is missing",
            "base.join(\"../img/a.png\"): how is a relative reference resolved against the base url",
        ] {
            assert_eq!(parse(q).intent, Intent::Concept, "{q}");
        }
    }

    #[test]
    fn direct_relations_only() {
        assert!(asks_direct("which classes subclass Cache directly"));
        assert!(asks_direct("the direct implementers of Zone"));
        assert!(!asks_direct(
            "all the exceptions that derive from TemplateError, directly or not"
        ));
        assert!(!asks_direct(
            "which progress columns subclass ProgressColumn, directly or indirectly"
        ));
        assert!(!asks_direct(
            "which classes implement Console, directly or through another interface"
        ));
        assert!(!asks_direct("what extends _TimedCache"));
    }
}
