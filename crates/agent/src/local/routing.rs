//! Whether the local engine's answer is certain enough to be the result when a model is
//! configured (`--engine auto`).
//!
//! A model call costs seconds and thousands of tokens; for "where is IssueStore defined"
//! the code graph gives the exact answer in milliseconds. The rule is deliberately narrow:
//! a symbol question whose name resolved to exactly one definition of the asked kind, or a
//! relation (callers, callees, implementations, methods) read from linked graph edges with
//! nothing guessed, cut short or ambiguous. Everything else — concept questions, pasted
//! reports, traces, text search, any doubt below — goes to the model. The engine notes a
//! [`Doubt`] wherever its answer could be wrong, and [`decide`] is the whole rule.

use serde::Serialize;

/// Why an answer might not be right, noted as the engine works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Doubt {
    /// Not a symbol question: a concept question is ranked, not looked up.
    NotSymbolQuestion,
    /// A long or multi-line question (a pasted report): its symbol words may not be its
    /// point.
    LongQuestion,
    /// A call path: the graph may miss links through registries and interfaces.
    Trace,
    /// The name matched several symbols of equal standing.
    Ambiguous,
    /// A `find` kept more than one definition, or none.
    SeveralDefinitions,
    /// The definition kept is not of the kind the question named.
    KindMismatch,
    /// The graph did not know the name, or answered with an error: text search or
    /// ranking took over.
    NotInGraph,
    /// The operation did not fit the symbol (callers of a type).
    WrongKind,
    /// A call edge was guessed from a method name alone.
    Inferred,
    /// A list was longer than what the tool returned.
    Cut,
    /// Callers reached through an interface or a parent method, which may not dispatch
    /// here.
    Dispatch,
    /// The answer came from a first-query graph of only the files that mention the name.
    PartialGraph,
    /// Nothing was found.
    Nothing,
}

impl Doubt {
    /// The reason in words, for `_metadata.routing` and the human output.
    pub fn describe(self) -> &'static str {
        match self {
            Doubt::NotSymbolQuestion => "not a symbol question",
            Doubt::LongQuestion => "a long question",
            Doubt::Trace => "a call path",
            Doubt::Ambiguous => "an ambiguous name",
            Doubt::SeveralDefinitions => "several definitions",
            Doubt::KindMismatch => "not of the kind asked",
            Doubt::NotInGraph => "not answered by the code graph",
            Doubt::WrongKind => "an operation for another kind of symbol",
            Doubt::Inferred => "a call guessed from its name",
            Doubt::Cut => "a list cut short",
            Doubt::Dispatch => "callers through an interface",
            Doubt::PartialGraph => "a partial first-query graph",
            Doubt::Nothing => "nothing found",
        }
    }
}

/// The routing verdict of one local answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Routing {
    /// The answer is the result: no model call.
    Certain {
        /// What made it certain ("one definition of IssueStore (interface) in the code graph").
        reason: String,
    },
    /// A model should answer.
    Uncertain {
        /// Every doubt noted, in the order noticed.
        doubts: Vec<Doubt>,
    },
}

impl Routing {
    /// True when the local answer stands.
    pub fn is_certain(&self) -> bool {
        matches!(self, Routing::Certain { .. })
    }

    /// The verdict in one line for people (a log, a report); `_metadata.routing` carries
    /// the serialized value instead.
    pub fn describe(&self) -> String {
        match self {
            Routing::Certain { reason } => format!("answered locally: {reason}"),
            Routing::Uncertain { doubts } => format!(
                "sent to the model: {}",
                doubts
                    .iter()
                    .map(|d| d.describe())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// The rule: certain when nothing was doubted and something was found, with the
/// operation and what it found named in the reason.
pub fn decide(doubts: &[Doubt], what: &str, found: usize) -> Routing {
    let mut unique: Vec<Doubt> = Vec::new();
    for &d in doubts {
        if !unique.contains(&d) {
            unique.push(d);
        }
    }
    if found == 0 && !unique.contains(&Doubt::Nothing) {
        unique.push(Doubt::Nothing);
    }
    let doubts = unique;
    if doubts.is_empty() {
        Routing::Certain {
            reason: what.to_string(),
        }
    } else {
        Routing::Uncertain { doubts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_doubt_or_nothing_found_sends_it_to_the_model() {
        assert!(decide(&[], "one definition", 1).is_certain());
        assert_eq!(
            decide(&[], "one definition", 0),
            Routing::Uncertain {
                doubts: vec![Doubt::Nothing]
            }
        );
        let r = decide(
            &[Doubt::Inferred, Doubt::Inferred, Doubt::Cut],
            "callers",
            4,
        );
        assert_eq!(
            r,
            Routing::Uncertain {
                doubts: vec![Doubt::Inferred, Doubt::Cut]
            }
        );
        assert_eq!(
            r.describe(),
            "sent to the model: a call guessed from its name, a list cut short"
        );
    }
}
