//! What a path is (test, vendored, generated, configuration, entry point, API surface) and
//! what role a file plays in an answer.
//!
//! The classes come from path conventions alone, so they cost nothing to compute for every
//! file of a large repository. They drive two things: ranking (real code first; tests,
//! vendored and generated code discounted) and spec 004's roles.

use crate::result::Role;

/// What a path's conventions say about the file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PathClass {
    /// A test file or test helper (`_test.go`, `test_*.py`, `tests/`, `conftest.py`).
    pub test: bool,
    /// Third-party code kept in the repository (`vendor/`, `_vendor/`, `third_party/`).
    pub vendored: bool,
    /// Generated code (`.pb.go`, `_pb2.py`, `_pb2_grpc.py`, `.gen.go`, `_generated`).
    pub generated: bool,
    /// Sample code beside the product: fixtures, examples, benchmarks, documentation
    /// (`fixtures/`, `examples/`, `benches/`, `docs/`). A question about the product is not
    /// answered from its example app because the example matches the words.
    pub sample: bool,
    /// Configuration (`config/`, `config.go`, `settings.py`, `*.toml`, `*.yaml`, …).
    pub config: bool,
    /// A program's entry point (`main.go`, `cmd/`, `__main__.py`, `cli.py`).
    pub entry: bool,
    /// At an API surface: HTTP handlers, routes, webhook endpoints.
    pub surface: bool,
}

/// What kind of file a concept question is after, from its words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Focus {
    /// It asks about tests: they are not discounted.
    pub tests: bool,
    /// It asks for entry points ("entry point", "main", "where does it start").
    pub entry: bool,
    /// It asks about configuration.
    pub config: bool,
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
        }
    }
}

impl PathClass {
    /// The factor a file's lexical score is multiplied by: first-party code counts in
    /// full, tests half (unless the question is about tests), vendored and generated code
    /// a fifth; entry points count triple for a question about entry points, configuration
    /// double for one about configuration.
    pub fn discount(&self, focus: Focus) -> f64 {
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
        d
    }

    /// True for code that answers should cite last: tests, vendored, generated.
    pub fn secondary(&self) -> bool {
        self.test || self.vendored || self.generated || self.sample
    }
}

/// Classifies a repo-relative path.
pub fn classify(path: &str) -> PathClass {
    let lower = path.to_lowercase();
    let segments: Vec<&str> = lower.split('/').collect();
    let file = segments.last().copied().unwrap_or("");
    let dirs = &segments[..segments.len().saturating_sub(1)];
    let in_dir = |names: &[&str]| dirs.iter().any(|d| names.contains(d));
    let test = file.ends_with("_test.go")
        || (file.starts_with("test_") && file.ends_with(".py"))
        || file.ends_with("_test.py")
        || file == "conftest.py"
        || file.ends_with(".test.ts")
        || file.ends_with(".spec.ts")
        || in_dir(&[
            "tests",
            "test",
            "testdata",
            "__tests__",
            "testutil",
            "testing",
        ]);
    let vendored = in_dir(&[
        "vendor",
        "_vendor",
        "third_party",
        "node_modules",
        "vendored",
    ]);
    let generated = file.ends_with(".pb.go")
        || file.ends_with("_pb2.py")
        || file.ends_with("_pb2_grpc.py")
        || file.ends_with(".gen.go")
        || file.ends_with("_gen.go")
        || file.contains("_generated")
        || in_dir(&["generated"]);
    let config = in_dir(&["config", "configs", "settings"])
        || matches!(
            file,
            "config.go"
                | "config.py"
                | "settings.py"
                | "conf.py"
                | "pyproject.toml"
                | "setup.cfg"
                | "go.mod"
                | "cargo.toml"
                | "makefile"
                | ".env.example"
                | ".env.sample"
                | ".env.template"
        )
        || [".toml", ".yaml", ".yml", ".ini", ".cfg"]
            .iter()
            .any(|e| file.ends_with(e));
    let entry = matches!(
        file,
        "main.go" | "__main__.py" | "cli.py" | "main.py" | "main.rs"
    ) || in_dir(&["cmd", "bin"]);
    let surface = in_dir(&[
        "api", "httpapi", "handlers", "routes", "webhook", "webhooks", "http", "server", "admin",
    ]) || file.starts_with("handler")
        || file.starts_with("routes")
        || file.starts_with("routing");
    let sample = in_dir(&[
        "fixtures",
        "fixture",
        "examples",
        "example",
        "samples",
        "benches",
        "benchmarks",
        "docs",
    ]);
    PathClass {
        test,
        vendored,
        generated,
        sample,
        config,
        entry,
        surface,
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
    fn classes_of_fixture_paths() {
        let t = classify("internal/brain/planner_test.go");
        assert!(t.test && !t.vendored && !t.generated);
        assert!(classify("tests/conftest.py").test);
        assert!(classify("tests/test_webhooks.py").test);
        assert!(classify("internal/testutil/issues.go").test);
        assert!(classify("vendor/github.com/acme/uuid/uuid.go").vendored);
        assert!(classify("src/ledger/_vendor/simplejson_lite/encoder.py").vendored);
        assert!(classify("internal/gen/issue.pb.go").generated);
        assert!(classify("src/ledger/proto/ledger_pb2.py").generated);
        assert!(classify("src/ledger/proto/ledger_pb2_grpc.py").generated);
        assert!(classify("internal/config/config.go").config);
        assert!(classify("src/ledger/config.py").config);
        assert!(classify("pyproject.toml").config);
        assert!(classify("cmd/server/main.go").entry);
        assert!(classify("src/ledger/cli.py").entry);
        assert!(classify("internal/webhook/handler.go").surface);
        assert!(classify("src/ledger/api/routing.py").surface);
        assert_eq!(classify("internal/model/issue.go"), PathClass::default());
    }

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
