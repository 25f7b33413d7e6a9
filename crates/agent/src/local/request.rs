//! The question inside a request: "can you list every caller of X" asks "callers of X".
//!
//! People wrap the same few questions in requests ("please", "can you tell me", "I want
//! to know"), imperatives ("list", "show me", "find me"), quantifiers ("every caller",
//! "all the methods") and possessives ("X's methods"). The frames of [`super::query`]
//! read the plain forms; this module rewrites a wrapped question into its plain form
//! once, so every frame benefits instead of each frame growing its own variants.
//!
//! The rewrite only removes words that say how something is asked, never what about:
//! the parser tries the plain form for a relation first and keeps the question as asked
//! otherwise (see `query::classify`), so a rewrite that reads wrongly costs nothing.

/// Word sequences that open a request and carry no content ("can you", "tell me"). Tried
/// again after each removal: "could you please tell me …".
const WRAPPERS: &[&[&str]] = &[
    &["please"],
    &["pls"],
    &["kindly"],
    &["hey"],
    &["ok"],
    &["okay"],
    &["so"],
    &["quick", "question"],
    &["can", "you"],
    &["could", "you"],
    &["would", "you"],
    &["will", "you"],
    &["can", "u"],
    &["do", "you", "know"],
    &["tell", "me"],
    &["show", "me"],
    &["give", "me"],
    &["find", "me"],
    &["get", "me"],
    &["help", "me"],
    &["let", "me", "know"],
    &["let", "me", "see"],
    &["i", "want", "to", "know"],
    &["i", "want", "to", "see"],
    &["i", "wanna", "know"],
    &["i'd", "like", "to", "know"],
    &["i'd", "like", "to", "see"],
    &["i", "would", "like", "to", "know"],
    &["i", "need", "to", "know"],
    &["i", "need"],
    &["i", "wonder"],
];

/// Word sequences that open a search for a name: read as "find" ("I'm looking for Code"
/// asks what "find Code" does).
const SEARCHES: &[&[&str]] = &[
    &["i'm", "looking", "for"],
    &["im", "looking", "for"],
    &["i", "am", "looking", "for"],
    &["looking", "for"],
    &["i'm", "trying", "to", "find"],
    &["i", "am", "trying", "to", "find"],
    &["i", "need", "to", "find"],
    &["search", "for"],
];

/// Word sequences that close a request and carry no content ("… for me", "… thanks").
const CLOSERS: &[&[&str]] = &[
    &["for", "me"],
    &["for", "us"],
    &["please"],
    &["thanks"],
    &["thx"],
    &["thank", "you"],
];

/// Imperative verbs that ask for a list ("list the callers", "show every subclass"):
/// dropped, the rest says what to list.
const IMPERATIVES: &[&str] = &[
    "list",
    "show",
    "find",
    "get",
    "give",
    "print",
    "display",
    "enumerate",
    "identify",
    "locate",
    "name",
    "fetch",
    "return",
];

/// Whether `w` (lower case) is one of the [`IMPERATIVES`] that open a request.
pub fn is_imperative(w: &str) -> bool {
    IMPERATIVES.contains(&w)
}

/// Quantifiers and articles before a relation noun ("every caller", "all the methods").
const QUANTIFIERS: &[&str] = &["all", "every", "each", "any", "the", "of"];

/// Relation nouns, singular and plural; the frames read the plural.
const RELATION_NOUNS: &[(&str, &str)] = &[
    ("caller", "callers"),
    ("callers", "callers"),
    ("callee", "callees"),
    ("callees", "callees"),
    ("method", "methods"),
    ("methods", "methods"),
    // "the implementation of X" is X's definition for a method, its implementations for
    // an interface: the singular is kept for the frame to decide.
    ("implementation", "implementation"),
    ("implementations", "implementations"),
    ("implementer", "implementers"),
    ("implementers", "implementers"),
    ("implementor", "implementers"),
    ("implementors", "implementers"),
    ("impls", "impls"),
    ("subclass", "subclasses"),
    ("subclasses", "subclasses"),
    ("usage", "usages"),
    ("usages", "usages"),
    ("use", "uses"),
    ("uses", "uses"),
    ("reference", "references"),
    ("references", "references"),
];

/// Nouns for a part of a definition ("the parameters of X", "the signature of X"): the
/// frames read "parameters of X" as X's definition.
fn part_noun(w: &str) -> bool {
    matches!(
        w,
        "parameters"
            | "arguments"
            | "args"
            | "params"
            | "fields"
            | "attributes"
            | "properties"
            | "signature"
            | "declaration"
            | "definition"
            | "source"
    )
}

/// The plural a relation noun is read as, if `w` is one.
fn relation_noun(w: &str) -> Option<&'static str> {
    RELATION_NOUNS
        .iter()
        .find(|(n, _)| *n == w)
        .map(|(_, plural)| *plural)
}

fn lower(w: &str) -> String {
    w.to_lowercase()
        .trim_matches(|c: char| matches!(c, ',' | ':' | '?' | '!'))
        .replace('’', "'")
}

/// Removes the leading word sequence `seq` from `words`, if they start with it.
fn strip_seq<'a>(words: &'a [&'a str], seq: &[&str]) -> Option<&'a [&'a str]> {
    (words.len() > seq.len() && words.iter().zip(seq).all(|(w, s)| lower(w).as_str() == *s))
        .then(|| &words[seq.len()..])
}

/// The plain question inside a request, or `None` when there is nothing to unwrap.
///
/// - wrappers go: "can you tell me who calls X" → "who calls X";
/// - an imperative before what it lists goes: "list the callers of X" → "the callers of
///   X", "show me what X calls" → "what X calls";
/// - quantifiers and articles before a relation noun go, and the noun is read as the
///   frames' plural: "every caller of X" → "callers of X", "all the call sites of X" →
///   "call sites of X";
/// - a possessive relation becomes the frame: "X's methods", "what are X's callers" →
///   "methods of X", "callers of X".
pub fn unwrap(question: &str) -> Option<String> {
    let all: Vec<&str> = question.split_whitespace().collect();
    let mut words: &[&str] = &all;
    // "… for me", "… thanks": dropped from the end.
    while let Some(seq) = CLOSERS.iter().find(|seq| {
        words.len() > seq.len()
            && words[words.len() - seq.len()..]
                .iter()
                .zip(seq.iter())
                .all(|(w, s)| lower(w).trim_end_matches(['.', '!']) == *s)
    }) {
        words = &words[..words.len() - seq.len()];
    }
    let mut search = false;
    loop {
        let before = words.len();
        for seq in WRAPPERS {
            if let Some(rest) = strip_seq(words, seq) {
                words = rest;
            }
        }
        for seq in SEARCHES {
            if let Some(rest) = strip_seq(words, seq) {
                words = rest;
                search = true;
            }
        }
        // "list …", "show …", but not "find X" alone, which the frames read as a name.
        if words.len() > 2 && IMPERATIVES.contains(&lower(words[0]).as_str()) {
            words = &words[1..];
        }
        if words.len() == before {
            break;
        }
    }
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    if search && out.len() <= 4 {
        out.insert(0, "find".to_string());
    }
    // "where is the implementation of X", "where are all the callers of X": the place
    // asked for is the relation's.
    // So do "what are the parameters of X", "what is the signature of X".
    let where_at = match out.iter().map(|w| lower(w)).collect::<Vec<_>>().as_slice() {
        [w, v, ..]
            if matches!(w.as_str(), "where" | "what" | "which")
                && matches!(v.as_str(), "is" | "are") =>
        {
            2
        }
        [w, ..] if matches!(w.as_str(), "where's" | "what's" | "whats") => 1,
        _ => 0,
    };
    if where_at > 0 {
        let rest = &out[where_at..];
        let lead = rest
            .iter()
            .take_while(|w| QUANTIFIERS.contains(&lower(w).as_str()))
            .count();
        if rest
            .get(lead)
            .is_some_and(|w| relation_noun(&lower(w)).is_some() || part_noun(&lower(w)))
            && rest.get(lead + 1).is_some_and(|w| lower(w) == "of")
        {
            out.drain(..where_at);
        }
    }
    // "what are X's methods", "which are X's subclasses": the possessive is the frame.
    if out.len() == 4
        && matches!(lower(&out[0]).as_str(), "what" | "which")
        && matches!(lower(&out[1]).as_str(), "are" | "is")
    {
        out.drain(..2);
    }
    if let [owner, noun] = out.as_slice()
        && let Some(name) = lower(owner)
            .ends_with("'s")
            .then(|| owner.replace('’', "'"))
        && let Some(plural) = relation_noun(&lower(noun))
    {
        let name = name.trim_end_matches("'s").to_string();
        out = vec![plural.to_string(), "of".to_string(), name];
    }
    // "every caller of", "all the call sites of", "the methods on".
    let lead = out
        .iter()
        .take_while(|w| QUANTIFIERS.contains(&lower(w).as_str()))
        .count();
    if lead > 0 && lead < out.len() {
        let noun = lower(&out[lead]);
        let call_site = noun == "call"
            && out
                .get(lead + 1)
                .is_some_and(|w| lower(w).starts_with("site"));
        let counted = out[..lead]
            .iter()
            .any(|w| matches!(lower(w).as_str(), "all" | "every" | "each" | "any"));
        if let Some(plural) = relation_noun(&noun) {
            out.drain(..lead);
            // "every implementation of X" is every one; "the implementation of X" is X's.
            out[0] = if counted && plural == "implementation" {
                "implementations".to_string()
            } else {
                plural.to_string()
            };
        } else if call_site {
            out.drain(..lead);
            out[1] = "sites".to_string();
        }
    } else if lead == 0
        && let Some(first) = out.first()
        && matches!(
            lower(first).as_str(),
            "caller" | "callee" | "usage" | "reference"
        )
        && out.get(1).is_some_and(|w| lower(w) == "of")
    {
        // "caller of X" without a quantifier; not "implementation of X", which for a
        // method is its definition.
        out[0] = format!("{}s", lower(first));
    }
    let plain = out.join(" ");
    (plain != all.join(" ") && !plain.is_empty()).then_some(plain)
}

#[cfg(test)]
mod tests {
    use super::unwrap;

    fn plain(q: &str) -> String {
        unwrap(q).unwrap_or_else(|| q.to_string())
    }

    #[test]
    fn wrappers_and_imperatives_go() {
        assert_eq!(plain("can you tell me who calls Plan"), "who calls Plan");
        assert_eq!(plain("Please, show me who calls Plan"), "who calls Plan");
        assert_eq!(plain("I want to know what calls Plan"), "what calls Plan");
        assert_eq!(plain("show me what Plan calls"), "what Plan calls");
        assert_eq!(
            plain("could you list everything Plan calls"),
            "everything Plan calls"
        );
        assert_eq!(
            plain("find me the implementations of Store"),
            "implementations of Store"
        );
    }

    #[test]
    fn quantifiers_and_singulars_read_as_the_frames_plural() {
        assert_eq!(plain("find every caller of Plan"), "callers of Plan");
        assert_eq!(
            plain("list all the call sites of Plan"),
            "call sites of Plan"
        );
        assert_eq!(
            plain("show every implementation of Store"),
            "implementations of Store"
        );
        assert_eq!(
            plain("show me the implementation of Store"),
            "implementation of Store"
        );
        assert_eq!(
            plain("show all implementations of Store"),
            "implementations of Store"
        );
        assert_eq!(
            plain("give me all the methods of Issue"),
            "methods of Issue"
        );
        assert_eq!(plain("list all methods on Issue"), "methods on Issue");
        assert_eq!(plain("caller of Plan"), "callers of Plan");
        assert_eq!(plain("I'm looking for Code"), "find Code");
        assert_eq!(plain("please find retry for me"), "find retry");
        assert_eq!(plain("who calls Plan? thanks"), "who calls Plan?");
        assert_eq!(
            plain("where is the implementation of HandleWebhook"),
            "implementation of HandleWebhook"
        );
        assert_eq!(
            plain("where are all the callers of Plan"),
            "callers of Plan"
        );
    }

    #[test]
    fn possessive_relations_become_frames() {
        assert_eq!(plain("list Issue's methods"), "methods of Issue");
        assert_eq!(plain("what are Issue's methods"), "methods of Issue");
        assert_eq!(plain("Store's implementations"), "implementations of Store");
        assert_eq!(plain("retry.Do's callers"), "callers of retry.Do");
        assert_eq!(plain("Issue’s methods"), "methods of Issue");
    }

    #[test]
    fn plain_questions_and_names_are_left_alone() {
        assert_eq!(unwrap("who calls Plan"), None);
        assert_eq!(unwrap("find Plan"), None);
        assert_eq!(unwrap("the send method of Client"), None);
        assert_eq!(unwrap("Planner's Plan method"), None);
        assert_eq!(unwrap("how are webhooks handled"), None);
        assert_eq!(unwrap(""), None);
        assert_eq!(unwrap("please"), None);
    }
}
