//! What role a file plays in an answer, and how much a path class counts in ranking.
//!
//! The classes themselves (test, vendored, generated, sample, configuration, entry point,
//! API surface) are path conventions shared with the code index, so they live in
//! [`explore_tools::paths`]; this module is the engine's reading of them: a ranking
//! discount per class and the question's focus, and spec 004's roles.

pub use explore_tools::paths::{PathClass, classify};

use crate::result::Role;

/// What kind of file a concept question is after, from its words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Focus {
    /// It asks about tests: they are not discounted.
    pub tests: bool,
    /// It asks for entry points ("entry point", "main", "where does it start").
    pub entry: bool,
    /// It asks about configuration.
    pub config: bool,
    /// It speaks of errors or exceptions: a catalogue of them is not discounted.
    pub errors: bool,
}

impl Focus {
    /// The focus of a question's stemmed terms.
    pub fn of(terms: &[String]) -> Focus {
        let has = |w: &str| terms.iter().any(|t| t == w);
        Focus {
            tests: has("test") || has("fixtur") || has("mock"),
            entry: has("entri")
                || has("main")
                || has("startup")
                || (has("start") && !has("config")),
            config: has("config")
                || has("configur")
                || has("setting")
                || has("env")
                || has("environ"),
            errors: has("error") || has("exception"),
        }
    }
}

/// How much a path class counts in ranking. A trait because [`PathClass`] is the tools
/// crate's; the discounts are the engine's policy, not a path convention.
pub trait Discount {
    /// The factor a file's lexical score is multiplied by: first-party code counts in
    /// full, tests half (unless the question is about tests), vendored and generated code
    /// a fifth; entry points count triple for a question about entry points, configuration
    /// double for one about configuration.
    fn discount(&self, focus: Focus) -> f64;
}

/// What a catalogue of errors (`error.rs`, `errors.ts`, `exceptions.py`) counts in a
/// question that does not speak of errors: its messages share the words of the check
/// that raises them ("found record with 3 fields, but the previous record has 4 fields:
/// where does the reader raise that"), and the answer is the check.
const ERRORS_DISCOUNT: f64 = 0.5;

impl Discount for PathClass {
    fn discount(&self, focus: Focus) -> f64 {
        let mut d = 1.0;
        if self.test && !focus.tests {
            d *= 0.5;
        }
        if self.vendored || self.generated {
            d *= 0.2;
        }
        if self.sample && !focus.tests {
            d *= 0.4;
        }
        if focus.entry && self.entry && !self.test {
            d *= 3.0;
        }
        if focus.config && self.config && !self.test {
            d *= 2.0;
        }
        if self.errors && !focus.errors {
            d *= ERRORS_DISCOUNT;
        }
        d
    }
}

/// How a file came into the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// It defines the symbol asked about (or the type whose methods were asked for).
    Definition,
    /// It calls or uses the symbol asked about.
    Caller,
    /// The symbol asked about calls into it.
    Callee,
    /// It implements or subclasses the symbol asked about.
    Implementation,
    /// The symbol asked about implements or extends it (an interface it satisfies, a
    /// class it inherits from).
    Supertype,
    /// A hop on a call path.
    TraceHop,
    /// Ranked for a concept question; `rank` is its 0-based place.
    Concept {
        /// Place in the ranking.
        rank: usize,
        /// True when most of its matched symbols are types.
        types: bool,
    },
}

/// Spec 004's role for a file, from its path class, how it came in, and the kind of its
/// main symbol.
pub fn role(path: &str, relation: Relation, kind: Option<&str>) -> Role {
    let class = classify(path);
    if class.test {
        return Role::TestTarget;
    }
    if class.vendored {
        return Role::Dependency;
    }
    if class.generated || class.sample {
        return Role::ContextOnly;
    }
    let is_type = matches!(
        kind,
        Some("interface" | "struct" | "class" | "type" | "trait" | "protocol")
    );
    match relation {
        Relation::Definition => {
            if is_type {
                Role::TypeDefinition
            } else if class.config && matches!(kind, Some("const" | "var")) {
                Role::Config
            } else {
                Role::ModifyTarget
            }
        }
        Relation::Caller | Relation::TraceHop => {
            if class.entry || class.surface {
                Role::IntegrationPoint
            } else {
                Role::ModifyTarget
            }
        }
        Relation::Callee => Role::Dependency,
        Relation::Implementation => Role::ModifyTarget,
        Relation::Supertype => Role::TypeDefinition,
        Relation::Concept { rank, types } => {
            if class.config {
                Role::Config
            } else if class.entry || class.surface {
                Role::IntegrationPoint
            } else if types {
                Role::TypeDefinition
            } else if rank < 3 {
                Role::ModifyTarget
            } else {
                Role::ContextOnly
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discounts() {
        let none = Focus::default();
        let tests = Focus {
            tests: true,
            ..Focus::default()
        };
        assert_eq!(classify("internal/model/issue.go").discount(none), 1.0);
        assert_eq!(classify("internal/model/issue_test.go").discount(none), 0.5);
        assert_eq!(
            classify("internal/model/issue_test.go").discount(tests),
            1.0
        );
        assert_eq!(classify("internal/gen/issue.pb.go").discount(none), 0.2);
        let entry = Focus::of(&super::super::text::query_terms(
            "what are the entry points",
        ));
        assert!(entry.entry && !entry.config && !entry.tests);
        assert_eq!(classify("cmd/server/main.go").discount(entry), 3.0);
        let config = Focus::of(&super::super::text::query_terms(
            "where is the database URL configured",
        ));
        assert!(config.config && !config.entry);
        assert_eq!(classify("internal/config/config.go").discount(config), 2.0);
        assert!(classify("internal/gen/issue.pb.go").secondary());
        // A catalogue of errors counts half unless the question speaks of errors.
        for p in [
            "src/error.rs",
            "src/utils/errors.ts",
            "pkg/_exceptions.py",
            "errors.d.ts",
        ] {
            assert_eq!(classify(p).discount(none), 0.5, "{p}");
        }
        assert_eq!(classify("src/error_handler.rs").discount(none), 1.0);
        assert_eq!(classify("src/terrors.rs").discount(none), 1.0);
        let errors = Focus::of(&super::super::text::query_terms(
            "how are errors formatted for display",
        ));
        assert!(errors.errors);
        assert_eq!(classify("src/error.rs").discount(errors), 1.0);
    }

    #[test]
    fn roles() {
        use Relation::*;
        assert_eq!(
            role("internal/model/issue.go", Definition, Some("interface")),
            Role::TypeDefinition
        );
        assert_eq!(
            role("internal/brain/planner.go", Definition, Some("method")),
            Role::ModifyTarget
        );
        assert_eq!(
            role("src/ledger/config.py", Definition, Some("const")),
            Role::Config
        );
        assert_eq!(
            role(
                "internal/brain/planner_test.go",
                Implementation,
                Some("type")
            ),
            Role::TestTarget
        );
        assert_eq!(
            role("internal/store/issue.go", Implementation, Some("struct")),
            Role::ModifyTarget
        );
        assert_eq!(
            role("cmd/worker/main.go", Caller, Some("method")),
            Role::IntegrationPoint
        );
        assert_eq!(
            role("internal/brain/orchestrator.go", Caller, Some("method")),
            Role::ModifyTarget
        );
        assert_eq!(
            role("internal/llm/client.go", Callee, Some("method")),
            Role::Dependency
        );
        assert_eq!(
            role("vendor/github.com/acme/uuid/uuid.go", Callee, None),
            Role::Dependency
        );
        assert_eq!(
            role("internal/gen/issue.pb.go", Definition, Some("struct")),
            Role::ContextOnly
        );
        assert_eq!(
            role(
                "internal/retry/retry.go",
                Concept {
                    rank: 0,
                    types: false
                },
                None
            ),
            Role::ModifyTarget
        );
        assert_eq!(
            role(
                "internal/config/config.go",
                Concept {
                    rank: 0,
                    types: true
                },
                None
            ),
            Role::Config
        );
        assert_eq!(
            role(
                "internal/model/issue.go",
                Concept {
                    rank: 1,
                    types: true
                },
                None
            ),
            Role::TypeDefinition
        );
        assert_eq!(
            role(
                "internal/retry/other.go",
                Concept {
                    rank: 5,
                    types: false
                },
                None
            ),
            Role::ContextOnly
        );
    }
}
