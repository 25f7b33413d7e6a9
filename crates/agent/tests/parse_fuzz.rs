//! Any text a user or a pipeline sends is a question: parsing never panics, and a symbol it
//! reads out of the text is always a (possibly qualified) identifier, whatever the script,
//! punctuation or length around it.

use explore_agent::local::query::{Intent, parse};
use proptest::prelude::*;

/// Words questions are made of, mixed with hostile pieces: unicode that changes length
/// when lower-cased, brackets, backticks, generics, decorators, paths.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("where".to_string()),
        Just("is".to_string()),
        Just("who".to_string()),
        Just("calls".to_string()),
        Just("called".to_string()),
        Just("from".to_string()),
        Just("in".to_string()),
        Just("the".to_string()),
        Just("methods".to_string()),
        Just("implement".to_string()),
        Just("mix".to_string()),
        Just("use".to_string()),
        Just("override".to_string()),
        Just("decorated".to_string()),
        Just("with".to_string()),
        Just("not".to_string()),
        Just("İstanbul".to_string()),
        Just("ẞ".to_string()),
        Just("`Plan`".to_string()),
        Just("@recurse".to_string()),
        Just("Take<T>".to_string()),
        Just("eval(String)".to_string()),
        Just("(*Planner).Plan".to_string()),
        Just("a.b.".to_string()),
        Just("pkg/x.go".to_string()),
        Just("FooMixin".to_string()),
        "[A-Za-z_][A-Za-z0-9_.]{0,12}",
        "\\PC{1,6}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn parsing_never_panics_and_names_are_identifiers(words in prop::collection::vec(word(), 0..14), sep in prop_oneof![Just(" "), Just(", "), Just("\n")]) {
        let q = words.join(sep);
        let parsed = parse(&q);
        let mut names = Vec::new();
        match &parsed.intent {
            Intent::Concept => {}
            Intent::Trace { from, to } => {
                names.push(from.name.clone());
                names.push(to.name.clone());
            }
            other => names.extend(other.symbol().map(|s| s.name.clone())),
        }
        for n in names {
            prop_assert!(!n.is_empty(), "empty name from {q:?}");
            prop_assert!(
                n.split('.').all(|seg| !seg.is_empty() && seg.chars().all(|c| c.is_alphanumeric() || c == '_')),
                "{n:?} from {q:?}"
            );
        }
    }
}

/// Found by the property above: a letter whose lower case is longer or shorter in UTF-8
/// ('ẞ' → 'ß') before a negated clause cut the question at a byte inside a character.
#[test]
fn a_letter_that_lower_cases_to_another_length_before_a_negation() {
    for q in [
        "ẞ not the where",
        "where is ẞ, not the method",
        "İSTANBUL but not the Logger method",
    ] {
        let _ = parse(q);
    }
}
