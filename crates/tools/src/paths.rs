//! What a repository path is, from naming conventions alone: test, vendored, generated,
//! sample, configuration, entry point, API surface.
//!
//! The one place these conventions live. The code index flags symbols with them (a
//! `[test]` or `[vendored]` mark, source ranked before the rest) and the local engine ranks
//! and assigns roles with them; when each kept its own list the two drifted (the index did
//! not know `node_modules/`, `.test.ts` or `.gen.go`, the engine did not know `_pb2.pyi`),
//! so the same file was vendored to one and product code to the other. Each class is one
//! table of directory names and one of file-name patterns below; [`classify`] reads them
//! all, and [`is_test_code`] is the index's narrower reading of the test tables for Go.
//!
//! Matching is on the lower-cased path, directory names against every directory component
//! (never the file name itself), file patterns against the last component. The conventions
//! cost nothing to check, so every file of a large repository can be classified.

/// A file-name convention, matched against the lower-cased last component of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileName {
    /// Exactly this name (`conftest.py`).
    Is(&'static str),
    /// Ends with this (`_test.go`, `.toml`).
    EndsWith(&'static str),
    /// Starts with this (`handler` for `handlers.go`, `handler_admin.py`).
    StartsWith(&'static str),
    /// Starts with the first and ends with the second (`test_` … `.py`).
    Between(&'static str, &'static str),
    /// Contains this anywhere (`_generated`).
    Contains(&'static str),
    /// Its stem (the name before the first dot, a leading underscore aside) is this
    /// (`errors` for `errors.go`, `_errors.py`, `errors.d.ts`).
    Stem(&'static str),
}

impl FileName {
    /// Whether a lower-cased file name follows this convention.
    pub fn matches(self, name: &str) -> bool {
        match self {
            FileName::Is(n) => name == n,
            FileName::EndsWith(s) => name.ends_with(s),
            FileName::StartsWith(p) => name.starts_with(p),
            FileName::Between(p, s) => {
                name.len() >= p.len() + s.len() && name.starts_with(p) && name.ends_with(s)
            }
            FileName::Contains(s) => name.contains(s),
            FileName::Stem(s) => {
                let stem = name.split('.').next().unwrap_or(name);
                stem.trim_start_matches('_') == s
            }
        }
    }
}

/// Directories that hold tests, test data and test helpers. `testutil/` and `testing/`
/// hold fakes that only tests use, so they rank with the tests.
pub const TEST_DIRS: &[&str] = &[
    "tests",
    "test",
    "testdata",
    "__tests__",
    "testutil",
    "testing",
];

/// Test files by name: Go's `_test.go`, pytest's `test_*.py`, `*_test.py` and
/// `conftest.py`, Django's `tests.py`, Jest's and Mocha's `.test.*` and `.spec.*` for
/// every JavaScript and TypeScript extension (a `button.test.jsx` is as much a test as a
/// `button.test.ts`).
pub const TEST_FILES: &[FileName] = &[
    FileName::EndsWith("_test.go"),
    FileName::Between("test_", ".py"),
    FileName::EndsWith("_test.py"),
    FileName::Is("conftest.py"),
    FileName::Is("tests.py"),
    FileName::EndsWith(".test.ts"),
    FileName::EndsWith(".spec.ts"),
    FileName::EndsWith(".test.tsx"),
    FileName::EndsWith(".spec.tsx"),
    FileName::EndsWith(".test.mts"),
    FileName::EndsWith(".spec.mts"),
    FileName::EndsWith(".test.js"),
    FileName::EndsWith(".spec.js"),
    FileName::EndsWith(".test.jsx"),
    FileName::EndsWith(".spec.jsx"),
    FileName::EndsWith(".test.mjs"),
    FileName::EndsWith(".spec.mjs"),
    FileName::EndsWith(".test.cjs"),
    FileName::EndsWith(".spec.cjs"),
];

/// Directories of test doubles: gomock's and mockery's `mocks/`, Jest's `__mocks__/`.
/// Ranked with the tests ([`PathClass::test`]); the code index does not flag them as
/// test code (a Go `mocks` package is compiled like any other).
pub const MOCK_DIRS: &[&str] = &["mocks", "__mocks__"];

/// Test doubles by name: gomock's `mock_*.go`, mockery's and others' `*_mock.go`, a
/// `mocks` module (tokio's `fs/mocks.rs`, `mocks.py`). A singular `mock.py` is left out:
/// in a mocking library (`unittest.mock`) it is the product.
pub const MOCK_FILES: &[FileName] = &[
    FileName::Between("mock_", ".go"),
    FileName::EndsWith("_mock.go"),
    FileName::Stem("mocks"),
];

/// Directories of third-party code kept in the repository: Go's `vendor/`, pip's and
/// Python projects' `_vendor/` and `vendored/`, `third_party/`, npm's `node_modules/`.
pub const VENDORED_DIRS: &[&str] = &[
    "vendor",
    "_vendor",
    "third_party",
    "node_modules",
    "vendored",
];

/// Directories of generated code.
pub const GENERATED_DIRS: &[&str] = &["generated"];

/// Generated files by name: protobuf and gRPC output for Go and Python, `go generate`'s
/// usual `.gen.go`/`_gen.go`, and anything named `_generated`. Files named otherwise are
/// still generated when their first lines say so (see [`is_generated`]).
pub const GENERATED_FILES: &[FileName] = &[
    FileName::EndsWith(".pb.go"),
    FileName::EndsWith("_pb2.py"),
    FileName::EndsWith("_pb2_grpc.py"),
    FileName::EndsWith("_pb2.pyi"),
    FileName::EndsWith(".gen.go"),
    FileName::EndsWith("_gen.go"),
    FileName::Contains("_generated"),
];

/// Directories of sample code beside the product: fixtures, examples, benchmarks,
/// documentation. A question about the product is not answered from its example app
/// because the example matches the words.
pub const SAMPLE_DIRS: &[&str] = &[
    "fixtures",
    "fixture",
    "examples",
    "example",
    "samples",
    "benches",
    "benchmarks",
    "benchmark",
    "bench",
    "docs",
    "doc",
];

/// Directories of configuration.
pub const CONFIG_DIRS: &[&str] = &["config", "configs", "settings"];

/// Configuration files by name: the usual modules and manifests, environment templates,
/// and every file in a configuration format.
pub const CONFIG_FILES: &[FileName] = &[
    FileName::Is("config.go"),
    FileName::Is("config.py"),
    FileName::Is("settings.py"),
    FileName::Is("conf.py"),
    FileName::Is("pyproject.toml"),
    FileName::Is("setup.cfg"),
    FileName::Is("go.mod"),
    FileName::Is("cargo.toml"),
    FileName::Is("makefile"),
    FileName::Is(".env.example"),
    FileName::Is(".env.sample"),
    FileName::Is(".env.template"),
    FileName::EndsWith(".toml"),
    FileName::EndsWith(".yaml"),
    FileName::EndsWith(".yml"),
    FileName::EndsWith(".ini"),
    FileName::EndsWith(".cfg"),
];

/// Catalogues of a package's errors by name: the error types and their messages, which
/// say what went wrong, not where it is detected.
pub const ERROR_FILES: &[FileName] = &[
    FileName::Stem("error"),
    FileName::Stem("errors"),
    FileName::Stem("exception"),
    FileName::Stem("exceptions"),
    FileName::Stem("exc"),
];

/// Directories of programs' entry points (Go's `cmd/`, scripts' `bin/`).
pub const ENTRY_DIRS: &[&str] = &["cmd", "bin"];

/// Entry points by name.
pub const ENTRY_FILES: &[FileName] = &[
    FileName::Is("main.go"),
    FileName::Is("__main__.py"),
    FileName::Is("cli.py"),
    FileName::Is("main.py"),
    FileName::Is("main.rs"),
];

/// Directories at an API surface: HTTP handlers, routes, webhook endpoints, admin pages.
pub const SURFACE_DIRS: &[&str] = &[
    "api", "httpapi", "handlers", "routes", "webhook", "webhooks", "http", "server", "admin",
];

/// API-surface files by name.
pub const SURFACE_FILES: &[FileName] = &[
    FileName::StartsWith("handler"),
    FileName::StartsWith("routes"),
    FileName::StartsWith("routing"),
];

/// What a path's conventions say about the file. The classes are independent: a test in
/// `cmd/` is both `test` and `entry`; what a class means for ranking is the caller's call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PathClass {
    /// A test file or test helper ([`TEST_DIRS`], [`TEST_FILES`]).
    pub test: bool,
    /// Third-party code kept in the repository ([`VENDORED_DIRS`]).
    pub vendored: bool,
    /// Generated code, by its path ([`GENERATED_DIRS`], [`GENERATED_FILES`]); a file's
    /// header can say so too (see [`is_generated`]).
    pub generated: bool,
    /// Sample code beside the product ([`SAMPLE_DIRS`]).
    pub sample: bool,
    /// Configuration ([`CONFIG_DIRS`], [`CONFIG_FILES`]).
    pub config: bool,
    /// A program's entry point ([`ENTRY_DIRS`], [`ENTRY_FILES`]).
    pub entry: bool,
    /// At an API surface ([`SURFACE_DIRS`], [`SURFACE_FILES`]).
    pub surface: bool,
    /// A catalogue of errors ([`ERROR_FILES`]).
    pub errors: bool,
}

impl PathClass {
    /// True for code an answer cites last, after the product's own code: tests, vendored,
    /// generated and sample code.
    pub fn secondary(&self) -> bool {
        self.test || self.vendored || self.generated || self.sample
    }
}

/// A lower-cased path split into its directories and its file name.
struct Parts {
    lower: String,
    /// Byte offset of the file name in `lower`.
    file_at: usize,
}

impl Parts {
    fn of(path: &str) -> Parts {
        let lower = path.to_lowercase();
        let file_at = lower.rfind('/').map_or(0, |i| i + 1);
        Parts { lower, file_at }
    }

    fn file(&self) -> &str {
        &self.lower[self.file_at..]
    }

    /// Whether a directory component is one of `names`.
    /// A leading underscore does not change what a directory is: Go ignores `_examples`
    /// when building, and it holds examples all the same.
    fn in_dir(&self, names: &[&str]) -> bool {
        let dirs = &self.lower[..self.file_at.saturating_sub(1)];
        dirs.split('/')
            .any(|d| names.contains(&d) || names.contains(&d.trim_start_matches('_')))
    }

    /// Whether the file name follows one of `patterns`.
    fn named(&self, patterns: &[FileName]) -> bool {
        patterns.iter().any(|p| p.matches(self.file()))
    }
}

/// Classifies a repo-relative, `/`-separated path by the tables above.
pub fn classify(path: &str) -> PathClass {
    let p = Parts::of(path);
    PathClass {
        test: p.named(TEST_FILES)
            || p.in_dir(TEST_DIRS)
            || p.named(MOCK_FILES)
            || p.in_dir(MOCK_DIRS),
        vendored: p.in_dir(VENDORED_DIRS),
        generated: p.named(GENERATED_FILES) || p.in_dir(GENERATED_DIRS),
        sample: p.in_dir(SAMPLE_DIRS),
        config: p.named(CONFIG_FILES) || p.in_dir(CONFIG_DIRS),
        entry: p.named(ENTRY_FILES) || p.in_dir(ENTRY_DIRS),
        surface: p.named(SURFACE_FILES) || p.in_dir(SURFACE_DIRS),
        errors: p.named(ERROR_FILES),
    }
}

/// Whether the code index flags a file's symbols as test code (`[test]`, listed after
/// source): a test file by name ([`TEST_FILES`]) or, outside Go, any file under a test
/// directory ([`TEST_DIRS`]). A Go file is test code only by its `_test.go` name: the go
/// tool builds every other file of a package into code other packages import, in a `test/`
/// or `testutil/` directory or not (logrus's `hooks/test` is a public package whose
/// `Hook` answers "which types implement Hook"). Ranking still puts such helpers after the
/// product's code: that is [`PathClass::test`], which counts test directories for every
/// language.
pub fn is_test_code(path: &str) -> bool {
    let p = Parts::of(path);
    p.named(TEST_FILES) || (!p.file().ends_with(".go") && p.in_dir(TEST_DIRS))
}

/// The tables the code index's flags come from, as text: part of the index cache's
/// fingerprint, so a cache written under other conventions is rebuilt, not trusted.
pub fn index_tables() -> String {
    format!("{TEST_DIRS:?}{TEST_FILES:?}{VENDORED_DIRS:?}{GENERATED_DIRS:?}{GENERATED_FILES:?}")
}

/// Whether a file is generated, from its path or its first lines: the `Code generated …
/// DO NOT EDIT` line Go's tools write (and others copy), or protoc's banner. The header
/// check catches generated files named like hand-written ones, which only the code index
/// reads; ranking by path alone uses [`PathClass::generated`].
pub fn is_generated(path: &str, src: &[u8]) -> bool {
    classify(path).generated || generated_header(src)
}

/// Whether a file's first ten lines (of its first 2 KiB) carry a generator's banner.
fn generated_header(src: &[u8]) -> bool {
    let head = &src[..src.len().min(2048)];
    let head = String::from_utf8_lossy(head);
    head.lines().take(10).any(|l| {
        let l = l.trim_start();
        (l.starts_with("//") || l.starts_with('#'))
            && ((l.contains("Code generated") && l.contains("DO NOT EDIT"))
                || l.contains("Generated by the protocol buffer compiler"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes a path gets, as the set of their names.
    fn classes(path: &str) -> Vec<&'static str> {
        let c = classify(path);
        [
            (c.test, "test"),
            (c.vendored, "vendored"),
            (c.generated, "generated"),
            (c.sample, "sample"),
            (c.config, "config"),
            (c.entry, "entry"),
            (c.surface, "surface"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
    }

    #[test]
    fn test_paths() {
        for path in [
            "internal/brain/planner_test.go",
            "tests/test_webhooks.py",
            "src/ledger/test_amounts.py",
            "pkg/x/store_test.py",
            "tests/conftest.py",
            "conftest.py",
            "web/src/app.test.ts",
            "web/src/app.spec.ts",
            "web/src/button.test.jsx",
            "lib/parse.spec.js",
            "src/Form.test.tsx",
            "polls/tests.py",
            "internal/testutil/issues.go",
            "pkg/testing/fake.go",
            "pkg/parse/testdata/input.go",
            "web/__tests__/app.js",
            "Tests/Helper.py",
        ] {
            assert_eq!(classes(path), ["test"], "{path}");
        }
        for path in [
            "internal/model/issue.go",
            "src/ledger/test.py",
            "src/ledger/testing.py",
            "contest.py",
            "test_data.json",
            "lib/latest.js",
            "src/inspect.ts",
        ] {
            assert!(!classify(path).test, "{path}");
        }
    }

    #[test]
    fn test_code_for_the_index() {
        for path in [
            "internal/brain/planner_test.go",
            "hooks/test/test_hook_test.go",
            "tests/test_webhooks.py",
            "tests/helpers.py",
            "src/pkg/testing/fakes.py",
            "tests/conftest.py",
            "web/__tests__/app.js",
        ] {
            assert!(is_test_code(path), "{path}");
        }
        // Go files outside `_test.go` are importable code wherever they are, though
        // ranking still treats them as test helpers.
        for path in [
            "hooks/test/test.go",
            "internal/testutil/issues.go",
            "pkg/parse/testdata/input.go",
        ] {
            assert!(!is_test_code(path), "{path}");
            assert!(classify(path).test, "{path}");
        }
        assert!(!is_test_code("internal/model/issue.go"));
    }

    #[test]
    fn vendored_paths() {
        for path in [
            "vendor/github.com/acme/uuid/uuid.go",
            "src/ledger/_vendor/simplejson_lite/encoder.py",
            "third_party/x/y.py",
            "web/node_modules/left-pad/index.js",
            "pkg/vendored/six.py",
        ] {
            assert_eq!(classes(path), ["vendored"], "{path}");
        }
        // A file named like a directory is not inside one.
        assert!(!classify("internal/vendor").vendored);
        assert!(!classify("vendor.go").vendored);
    }

    #[test]
    fn generated_paths() {
        for path in [
            "internal/gen/issue.pb.go",
            "src/ledger/proto/ledger_pb2.py",
            "src/ledger/proto/ledger_pb2_grpc.py",
            "src/ledger/proto/ledger_pb2.pyi",
            "internal/model/zz.gen.go",
            "internal/model/enum_gen.go",
            "internal/model/models_generated.go",
            "internal/generated/client.go",
        ] {
            assert_eq!(classes(path), ["generated"], "{path}");
        }
        assert!(!classify("internal/gen/doc.go").generated);
    }

    #[test]
    fn generated_headers() {
        assert!(is_generated(
            "a/b.go",
            b"// Code generated by stringer; DO NOT EDIT.\n"
        ));
        assert!(is_generated(
            "a/b.py",
            b"#!/usr/bin/env python\n# Generated by the protocol buffer compiler.\n"
        ));
        assert!(is_generated("a/b_pb2.py", b"x = 1\n"));
        // Only a comment counts, and only near the top.
        assert!(!is_generated(
            "a/b.go",
            b"s := \"Code generated DO NOT EDIT\"\n"
        ));
        let late = format!("{}// Code generated by x. DO NOT EDIT.\n", "\n".repeat(10));
        assert!(!is_generated("a/b.go", late.as_bytes()));
        assert!(!is_generated("a/b.go", b"// Code generated by hand.\n"));
    }

    #[test]
    fn sample_config_entry_surface_paths() {
        let cases: &[(&str, &[&str])] = &[
            ("examples/basic/main.go", &["sample", "entry"]),
            ("docs/conf.py", &["sample", "config"]),
            ("benches/code_graph.rs", &["sample"]),
            ("benchmark/bench.py", &["sample"]),
            ("bench/parse_test.go", &["test", "sample"]),
            ("tests/fixtures/repo/a.go", &["test", "sample"]),
            ("internal/config/config.go", &["config"]),
            ("src/ledger/settings.py", &["config"]),
            ("pyproject.toml", &["config"]),
            ("Makefile", &["config"]),
            (".github/workflows/ci.yml", &["config"]),
            (".env.example", &["config"]),
            ("cmd/server/main.go", &["entry", "surface"]),
            ("cmd/worker/main.go", &["entry"]),
            ("src/ledger/__main__.py", &["entry"]),
            ("src/ledger/cli.py", &["entry"]),
            ("bin/run.sh", &["entry"]),
            ("internal/webhook/handler.go", &["surface"]),
            ("src/ledger/api/routing.py", &["surface"]),
            ("internal/httpapi/server.go", &["surface"]),
            ("web/routes.ts", &["surface"]),
            ("cmd/worker/main_test.go", &["test", "entry"]),
            ("internal/model/issue.go", &[]),
        ];
        for (path, want) in cases {
            assert_eq!(classes(path), *want, "{path}");
        }
    }

    #[test]
    fn secondary_is_test_vendored_generated_or_sample() {
        assert!(classify("internal/brain/planner_test.go").secondary());
        assert!(classify("vendor/a/b.go").secondary());
        assert!(classify("internal/gen/issue.pb.go").secondary());
        assert!(classify("examples/app/main.py").secondary());
        assert!(classify("_examples/logging/main.go").secondary());
        assert!(!classify("httpx/_transports/default.py").secondary());
        assert!(!classify("internal/config/config.go").secondary());
        assert!(!classify("cmd/server/main.go").secondary());
        // Test doubles rank with the tests, but are not test code to the index.
        for mock in [
            "src/fs/mocks.rs",
            "internal/store/mocks/store.go",
            "internal/store/mock_store.go",
            "internal/store/store_mock.go",
            "src/__mocks__/api.ts",
        ] {
            assert!(classify(mock).test, "{mock}");
            assert!(!is_test_code(mock), "{mock}");
        }
        assert!(!classify("src/mock/mock.py").test);
        assert!(!classify("mockito/mockito.py").test);
    }
}
