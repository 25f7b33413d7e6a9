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

use super::text;

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
    /// The name, possibly qualified (`Planner.Plan`).
    pub name: String,
    /// A kind the question gave ("interface X", "the X class"), in the code tool's words.
    pub kind: Option<&'static str>,
}

impl SymbolRef {
    fn new(name: impl Into<String>, kind: Option<&'static str>) -> Self {
        Self {
            name: name.into(),
            kind,
        }
    }

    /// The last segment of a qualified name (`Plan` for `Planner.Plan`).
    pub fn leaf(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }

    /// The qualifier of a qualified name (`Planner` for `Planner.Plan`).
    pub fn qualifier(&self) -> Option<&str> {
        self.name.rsplit_once('.').map(|(q, _)| q)
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
    q.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Frames with one slot, tried in order: (prefix, suffix, intent builder). Matching is
/// case-insensitive on the frame words; the slot keeps its case.
type Build = fn(SymbolRef) -> Intent;

const CALLERS: Build = Intent::Callers;
const CALLEES: Build = Intent::Callees;
const IMPLS: Build = Intent::Implementations;
const METHODS: Build = Intent::Methods;
const DEF: Build = Intent::Definition;
/// "Which classes override X": every definition of X's bare name (the overrides share it).
const OVERRIDES: Build = |s| {
    Intent::Definition(SymbolRef {
        name: s.leaf().to_string(),
        kind: None,
    })
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
    // overrides: every definition of the method's name
    ("which classes override ", "", OVERRIDES, true),
    ("what classes override ", "", OVERRIDES, true),
    ("which methods override ", "", OVERRIDES, true),
    ("which types override ", "", OVERRIDES, true),
    ("overrides of ", "", OVERRIDES, true),
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
    ("what uses ", "", CALLERS, true),
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
    ("where is the definition of ", "", DEF, true),
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
    ("trace ", " to ", true),
    ("trace from ", " to ", true),
    ("trace the path from ", " to ", true),
    ("does ", " call ", false),
    ("does ", " reach ", false),
    ("from ", " to ", false),
];

fn classify(q: &str) -> Intent {
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
                if let (Some(from), Some(to)) = (slot_symbol(a, *relaxed), slot_symbol(b, *relaxed))
                {
                    return Intent::Trace { from, to };
                }
            }
        }
        for (prefix, suffix, build, relaxed) in FRAMES {
            if let Some(rest) = lower.strip_prefix(prefix)
                && let Some(mid) = rest.strip_suffix(suffix)
                && !mid.trim().is_empty()
            {
                let slot = &q[prefix.len()..prefix.len() + mid.len()];
                // Prose in the slot ("who calls the payment code") makes it a concept
                // question unless a later frame reads it better.
                if let Some(sym) = slot_symbol(slot, *relaxed) {
                    return build(sym);
                }
            }
        }
    }
    // No frame: the whole question may be a bare symbol ("IssueStore", "`Plan`",
    // "interface IssueStore", "post_transaction").
    if let Some(sym) = slot_symbol(q, false) {
        return Intent::Definition(sym);
    }
    Intent::Concept
}

/// Words that say what kind of symbol the slot names, mapped to the code tool's kinds.
fn kind_word(w: &str) -> Option<&'static str> {
    Some(match w {
        "function" | "func" | "fn" | "functions" => "function",
        "method" | "methods" => "method",
        "struct" | "structs" => "struct",
        "interface" | "interfaces" | "protocol" | "trait" => "interface",
        "class" | "classes" => "class",
        "type" | "types" => "type",
        "const" | "constant" | "constants" => "const",
        "var" | "variable" | "variables" => "var",
        _ => return None,
    })
}

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
    )
}

/// Reads a slot as a symbol reference, or `None` when it is prose. `relaxed` accepts a
/// single plain word ("who calls dispatch"); without it a plain word must look like an
/// identifier.
fn slot_symbol(slot: &str, relaxed: bool) -> Option<SymbolRef> {
    let mut kind = None;
    let mut names: Vec<String> = Vec::new();
    for raw in slot.split_whitespace() {
        let lower = raw.to_lowercase();
        let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
        if !raw.contains('`')
            && let Some(k) = kind_word(bare)
        {
            kind = Some(k);
            continue;
        }
        if !raw.contains('`') && is_filler(bare) {
            continue;
        }
        names.push(raw.to_string());
    }
    // "Planner's Plan method" → Planner.Plan
    if names.len() == 2
        && let Some(owner) = names[0].strip_suffix("'s")
    {
        let owner = clean_ident(owner)?;
        let member = clean_ident(&names[1])?;
        return Some(SymbolRef::new(format!("{owner}.{member}"), kind));
    }
    // "the llm Client interface" → llm.Client (a package, then a type)
    if names.len() == 2
        && kind.is_some()
        && names[0].chars().all(|c| c.is_ascii_lowercase())
        && let Some(member) = clean_ident(&names[1])
        && is_identifier_like(&member)
    {
        return Some(SymbolRef::new(format!("{}.{member}", names[0]), kind));
    }
    if names.len() != 1 {
        return None;
    }
    let token = &names[0];
    let backticked = token.starts_with('`');
    let ident = clean_ident(token)?;
    let looks = backticked || is_identifier_like(&ident);
    if looks || (relaxed && ident.chars().all(|c| c.is_alphanumeric() || c == '_')) {
        // A relaxed slot still refuses stop words ("who calls it").
        if !looks && text::is_stopword(&ident.to_lowercase()) {
            return None;
        }
        return Some(SymbolRef::new(ident, kind));
    }
    // A plain lower-case word with a kind hint is a symbol too ("function dispatch").
    if kind.is_some() && ident.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Some(SymbolRef::new(ident, kind));
    }
    None
}

/// Strips backticks, call parentheses, receiver syntax and trailing punctuation from a
/// token, normalising `Type::method`, `Type#method` and `(*Type).Method` to `Type.method`.
/// `None` when what is left is not a (possibly qualified) identifier.
fn clean_ident(token: &str) -> Option<String> {
    let mut t = token.trim_matches(|c: char| c == '`' || c == '"' || c == '\'' || c == ',');
    t = t.trim_end_matches(['?', '.', '!', ':', ';']);
    if let Some(stripped) = t.strip_suffix("()") {
        t = stripped;
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
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Callees(sym("HandleWebhook")),
                "{q}"
            );
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
    fn overrides_ask_for_every_definition_of_the_bare_name() {
        for q in [
            "which classes override post_transaction",
            "which classes override LedgerService.post_transaction",
            "overrides of post_transaction",
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Definition(sym("post_transaction")),
                "{q}"
            );
        }
    }

    #[test]
    fn package_qualified_types() {
        assert_eq!(
            parse("what implements the llm Client interface").intent,
            Intent::Implementations(kinded("llm.Client", "interface"))
        );
    }

    #[test]
    fn methods() {
        for q in [
            "methods of LedgerService",
            "what methods does LedgerService have",
            "list the methods of LedgerService",
            "LedgerService methods",
        ] {
            assert_eq!(
                parse(q).intent,
                Intent::Methods(sym("LedgerService")),
                "{q}"
            );
        }
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
}
