//! The local engine's text search through the real loop, on small repositories (Rust,
//! JavaScript and Ruby; the first two now parsed by the code graph, which answers what it
//! can, the text search the rest) and on a mixed one (Rust beside a Go fixture):
//! definitions, callers, usages of a constant, implementations, the concept ranking, and
//! the honest wording of answers found by text.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use explore_agent::event::NullSink;
use explore_agent::local::LocalPolicy;
use explore_agent::{ExploreResult, RunConfig, StopReason, explore};
use explore_tools::code::IndexOptions;
use explore_tools::{Registry, RegistryOptions, RepoRoot};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

async fn ask(root: &Path, question: &str) -> ExploreResult {
    let options = RegistryOptions {
        index: IndexOptions {
            no_cache: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let registry = Registry::new(RepoRoot::new(root).unwrap(), options);
    let mut policy = LocalPolicy::new(registry.clone());
    explore(&registry, &mut policy, &RunConfig::new(question), &NullSink)
        .await
        .unwrap()
}

/// `(path, lines cited)` for each file, in the answer's order.
fn files(r: &ExploreResult) -> Vec<(String, Vec<u32>)> {
    r.relevant_files
        .iter()
        .map(|f| (f.path.clone(), f.locations.iter().map(|l| l.line).collect()))
        .collect()
}

fn assert_clean(r: &ExploreResult) {
    let cov = &r.metadata.extra["evidence_coverage"];
    assert_eq!(cov["dropped"], 0, "{cov}");
    assert_eq!(cov["complaints"].as_array().map(Vec::len), Some(0), "{cov}");
}

const FOO_RS: &str = "//! Foo things.\n\n/// A foo.\npub struct Foo {\n    pub size: u32,\n}\n\npub const MAX_FOO: u32 = 8;\n\nimpl Foo {\n    pub fn grow(&mut self) {\n        self.size = (self.size + 1).min(MAX_FOO);\n    }\n}\n\npub trait Shape {\n    fn area(&self) -> u32;\n}\n\nimpl Shape for Foo {\n    fn area(&self) -> u32 {\n        self.size\n    }\n}\n";

const MAIN_RS: &str = "use crate::foo::{Foo, MAX_FOO};\n\nfn main() {\n    let mut f = Foo { size: 1 };\n    f.grow();\n    start(&mut f);\n}\n\nfn start(f: &mut Foo) {\n    // f.grow() here is only a comment\n    if f.size < MAX_FOO {\n        f.grow();\n    }\n}\n";

const SQUARE_RS: &str = "use crate::foo::Shape;\n\npub struct Square(u32);\n\nimpl Shape for Square {\n    fn area(&self) -> u32 {\n        self.0 * self.0\n    }\n}\n";

fn rust_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/foo.rs", FOO_RS);
    write(dir.path(), "src/main.rs", MAIN_RS);
    write(dir.path(), "src/square.rs", SQUARE_RS);
    dir
}

#[tokio::test]
async fn rust_definition_from_the_graph() {
    let dir = rust_repo();
    let r = ask(dir.path(), "where is Foo defined").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    assert_eq!(files(&r), [("src/foo.rs".to_string(), vec![4])]);
    assert_eq!(r.relevant_files[0].locations[0].end_line, Some(6));
    assert!(
        r.answer
            .starts_with("`Foo` (struct) at src/foo.rs:4 is the definition."),
        "{}",
        r.answer
    );
    assert_clean(&r);
}

#[tokio::test]
async fn ruby_definition_by_text_search() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "lib/foo.rb",
        "# A foo.\nclass Foo\n  def grow\n    @size += 1\n  end\nend\n",
    );
    let r = ask(dir.path(), "where is Foo defined").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    assert_eq!(files(&r)[0], ("lib/foo.rb".to_string(), vec![2]));
    assert!(
        r.answer
            .starts_with("Found by text search (no code graph for Ruby)."),
        "{}",
        r.answer
    );
}

#[tokio::test]
async fn rust_qualified_method_definition() {
    let dir = rust_repo();
    let r = ask(dir.path(), "where is Foo::grow defined").await;
    assert_eq!(files(&r), [("src/foo.rs".to_string(), vec![11])]);
    assert_eq!(
        r.relevant_files[0].locations[0].symbol.as_deref(),
        Some("Foo.grow")
    );
}

#[tokio::test]
async fn rust_callers_by_text_search_skip_comments_and_definitions() {
    let dir = rust_repo();
    let r = ask(dir.path(), "who calls grow").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    // main.rs calls it twice (main, start); the comment on line 10 is not a call; the
    // definition in foo.rs comes after the callers.
    assert_eq!(
        files(&r),
        [
            ("src/main.rs".to_string(), vec![5, 12]),
            ("src/foo.rs".to_string(), vec![11]),
        ]
    );
    assert!(r.answer.contains("main at src/main.rs:5"), "{}", r.answer);
    assert!(r.answer.contains("start at src/main.rs:12"), "{}", r.answer);
    assert_clean(&r);
}

#[tokio::test]
async fn rust_constant_usages() {
    // The users first (main.rs), then the definition's file with its own use (line 12).
    let dir = rust_repo();
    let r = ask(dir.path(), "where is MAX_FOO used").await;
    assert_eq!(
        files(&r),
        [
            ("src/main.rs".to_string(), vec![11]),
            ("src/foo.rs".to_string(), vec![8, 12]),
        ]
    );
    assert!(r.answer.contains("Used by"), "{}", r.answer);
}

#[tokio::test]
async fn rust_trait_implementations() {
    let dir = rust_repo();
    let r = ask(dir.path(), "what implements the Shape trait").await;
    // The files that hold implementations, at their `impl Shape for …` lines, most first;
    // on a tie the trait's own file (trait at 16, impl at 20) before the other
    // (docs/local-engine.md, "Implementations: files ranked by what they hold").
    assert_eq!(
        files(&r),
        [
            ("src/foo.rs".to_string(), vec![16, 20]),
            ("src/square.rs".to_string(), vec![5]),
        ]
    );
    assert!(r.answer.contains("Implemented by"), "{}", r.answer);
}

#[tokio::test]
async fn unknown_name_is_not_found_in_any_language() {
    let dir = rust_repo();
    let r = ask(dir.path(), "where is FrobnicateQuux defined").await;
    assert!(r.relevant_files.is_empty(), "{:?}", files(&r));
    assert!(
        r.answer
            .contains("no source file mentions it; text search over 3 files"),
        "{}",
        r.answer
    );
}

#[tokio::test]
async fn javascript_definitions_and_callers() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "lib/router.js",
        "'use strict';\n\nexport function createRouter(routes) {\n  return new Router(routes);\n}\n\nexport class Router {\n  constructor(routes) {\n    this.routes = routes;\n  }\n}\n",
    );
    write(
        dir.path(),
        "app.js",
        "import { createRouter } from './lib/router.js';\n\nconst router = createRouter([]);\n",
    );
    // JavaScript is in the code graph now: the definition comes from it, not from text.
    let r = ask(dir.path(), "where is the Router class defined").await;
    assert_eq!(files(&r), [("lib/router.js".to_string(), vec![7])]);
    assert_eq!(r.relevant_files[0].discovery_source, "code", "{}", r.answer);
    let r = ask(dir.path(), "who calls createRouter").await;
    assert_eq!(
        files(&r),
        [
            ("app.js".to_string(), vec![3]),
            ("lib/router.js".to_string(), vec![3]),
        ]
    );
}

#[tokio::test]
async fn mixed_repo_prefers_the_product_over_a_go_fixture() {
    let dir = rust_repo();
    // A Go fixture the code graph parses, with a same-named type.
    write(
        dir.path(),
        "evals/fixtures/app/foo.go",
        "package app\n\n// Foo is a fixture type.\ntype Foo struct {\n\tN int\n}\n",
    );
    let r = ask(dir.path(), "where is Foo defined").await;
    assert_eq!(r.relevant_files[0].path, "src/foo.rs");
    assert_eq!(r.relevant_files[0].locations[0].line, 4);
    assert!(
        !r.relevant_files
            .iter()
            .any(|f| f.path.starts_with("evals/fixtures")),
        "{:?}",
        files(&r)
    );
}

#[tokio::test]
async fn concept_question_ranks_rust_files_by_their_docs() {
    let dir = rust_repo();
    write(
        dir.path(),
        "src/secrets.rs",
        "//! Secret files (keys, .env) never reach tool output.\n\n/// True when the file name is a secret.\npub fn is_secret(name: &str) -> bool {\n    name.ends_with(\".pem\")\n}\n",
    );
    let r = ask(dir.path(), "how are secret files hidden").await;
    assert_eq!(r.relevant_files[0].path, "src/secrets.rs");
    assert!(
        r.relevant_files[0].locations.iter().any(|l| l.line == 4),
        "{:?}",
        files(&r)
    );
}

#[tokio::test]
async fn go_variable_usages_come_from_the_graph() {
    // The graph records where a Go package-level variable is read: no text search.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "walk.go",
        "package walk\n\nimport \"errors\"\n\n// ErrSkip stops a walk.\nvar ErrSkip = errors.New(\"skip\")\n\nfunc Walk(f func() error) error {\n\tif err := f(); err == ErrSkip {\n\t\treturn nil\n\t}\n\treturn nil\n}\n",
    );
    let r = ask(dir.path(), "where is ErrSkip used").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    assert_eq!(files(&r), [("walk.go".to_string(), vec![6, 9])]);
    assert_eq!(
        r.answer,
        "`ErrSkip` at walk.go:6. Used by: Walk at walk.go:9."
    );
    assert_clean(&r);
}

#[tokio::test]
async fn python_overloads_callers_by_text() {
    // Three same-named definitions in one file (typing overloads): the graph cannot tell
    // them apart by file, so the callers come from the text.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pkg/ctx.py",
        "import typing as t\n\n\n@t.overload\ndef current(silent: t.Literal[False] = False) -> int: ...\n\n\n@t.overload\ndef current(silent: bool = ...) -> t.Optional[int]: ...\n\n\ndef current(silent: bool = False) -> t.Optional[int]:\n    return None\n",
    );
    write(
        dir.path(),
        "pkg/deco.py",
        "from .ctx import current\n\n\ndef pass_ctx(f):\n    def inner(*args):\n        return f(current(), *args)\n\n    return inner\n",
    );
    let r = ask(dir.path(), "who calls current").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    assert_eq!(r.relevant_files[0].path, "pkg/deco.py");
    assert_eq!(
        r.relevant_files[0]
            .locations
            .iter()
            .map(|l| l.line)
            .collect::<Vec<_>>(),
        [6]
    );
    assert!(r.answer.contains("inner at pkg/deco.py:6"), "{}", r.answer);
    assert_clean(&r);
}

#[tokio::test]
async fn a_missing_verb_is_phrasing_a_missing_name_is_not_found() {
    let dir = rust_repo();
    write(
        dir.path(),
        "src/secrets.rs",
        "//! Secret files (pem keys) never reach tool output.\n\n/// True when the file name is a secret pem key.\npub fn is_secret(name: &str) -> bool {\n    name.ends_with(\".pem\")\n}\n",
    );
    // "quickly" is in no file, but four other words are: answered.
    let r = ask(dir.path(), "where are secret pem key names checked quickly").await;
    assert_eq!(r.relevant_files[0].path, "src/secrets.rs");
    // "Kafka" is a name, in no file: not found, whatever else matches.
    let r = ask(dir.path(), "where are Kafka secret pem key names checked").await;
    assert!(r.relevant_files.is_empty(), "{:?}", files(&r));
    assert!(r.answer.contains("kafka"), "{}", r.answer);
}

#[tokio::test]
async fn rust_methods_of_a_type_across_impl_blocks() {
    let dir = rust_repo();
    let r = ask(dir.path(), "what methods does Foo have").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    // `grow` in `impl Foo`, `area` in `impl Shape for Foo`, and the struct itself.
    assert_eq!(files(&r), [("src/foo.rs".to_string(), vec![4, 11, 21])]);
    assert!(
        r.answer
            .contains("Methods: Foo.grow at src/foo.rs:11; Foo.area at src/foo.rs:21"),
        "{}",
        r.answer
    );
    assert_clean(&r);
}

#[tokio::test]
async fn rust_callees_from_the_body() {
    let dir = rust_repo();
    let r = ask(dir.path(), "what does start call").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    // `start` (main.rs:9-14) calls `f.grow()` (line 12), defined at foo.rs:11; the
    // comment's `f.grow()` and the `if` are not calls.
    assert_eq!(
        files(&r),
        [
            ("src/foo.rs".to_string(), vec![11]),
            ("src/main.rs".to_string(), vec![9, 12]),
        ]
    );
    assert!(
        r.answer.contains("Calls: Foo.grow at src/foo.rs:11"),
        "{}",
        r.answer
    );
    assert_clean(&r);
}

#[tokio::test]
async fn typescript_class_methods_without_a_keyword() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "src/client.ts",
        "export class Client {\n  constructor(private base: string) {}\n\n  async fetchAll(url: string): Promise<string[]> {\n    return [];\n  }\n}\n",
    );
    write(
        dir.path(),
        "src/app.ts",
        "import { Client } from './client';\n\nexport async function main(): Promise<void> {\n  const c = new Client('x');\n  await c.fetchAll('/items');\n}\n",
    );
    let r = ask(dir.path(), "where is fetchAll defined").await;
    assert_eq!(files(&r), [("src/client.ts".to_string(), vec![4])]);
    assert_eq!(
        r.relevant_files[0].locations[0].symbol.as_deref(),
        Some("Client.fetchAll")
    );
    assert_eq!(r.relevant_files[0].locations[0].end_line, Some(6));
    let r = ask(dir.path(), "who calls fetchAll").await;
    assert_eq!(r.relevant_files[0].path, "src/app.ts");
    assert!(r.answer.contains("main at src/app.ts:5"), "{}", r.answer);
}

/// A name found only in a `.pyi` stub is Python the graph does not parse: the answer says
/// stubs, not "no code graph for Python" (the `.py` beside it is in the graph).
#[tokio::test]
async fn a_stub_only_definition_says_stubs() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pkg/core.py",
        "def frobnicate(x):\n    return x\n",
    );
    write(
        dir.path(),
        "pkg/core.pyi",
        "def frobnicate(x: int) -> int: ...\n\nclass Options:\n    verbose: bool\n",
    );
    let r = ask(dir.path(), "where is Options defined").await;
    assert_eq!(files(&r)[0], ("pkg/core.pyi".to_string(), vec![3]));
    assert!(
        r.answer
            .starts_with("Found by text search (no code graph for Python stubs (.pyi))."),
        "{}",
        r.answer
    );
}

/// "Which types implement std::error::Error" asks about the standard library's trait: a
/// repository that defines its own `Error` gets the types with `impl … Error for`, however
/// the path is written, and not its namesake's (empty) implementations.
#[tokio::test]
async fn std_trait_implementations_are_not_the_namesakes() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "src/error.rs",
        "use std::error;\nuse std::fmt;\n\n/// The crate's error.\npub struct Error {\n    kind: u8,\n}\n\nimpl fmt::Display for Error {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        write!(f, \"{}\", self.kind)\n    }\n}\n\nimpl error::Error for Error {}\n",
    );
    write(
        dir.path(),
        "src/status.rs",
        "use std::error::Error;\n\npub struct InvalidStatus;\n\nimpl Error for InvalidStatus {}\n",
    );
    write(
        dir.path(),
        "src/map.rs",
        "pub struct MaxSize;\n\nimpl std::error::Error for MaxSize {}\n",
    );
    let r = ask(dir.path(), "which types implement std::error::Error").await;
    let mut got = files(&r);
    got.sort();
    assert_eq!(
        got,
        [
            ("src/error.rs".to_string(), vec![15]),
            ("src/map.rs".to_string(), vec![3]),
            ("src/status.rs".to_string(), vec![5]),
        ],
        "{}",
        r.answer
    );
    // Without the standard library's path the repository's own `Error` is the one asked.
    let r = ask(dir.path(), "where is Error defined").await;
    assert_eq!(
        files(&r),
        [("src/error.rs".to_string(), vec![5])],
        "{}",
        r.answer
    );
}

/// "The Shape impl for Square" / "impl FromStr for Version" ask for one type's
/// implementation of a trait: the repository's own trait through the graph, a standard
/// library trait through the text; either way only that type's `impl` block.
#[tokio::test]
async fn a_trait_impl_for_one_type() {
    let dir = rust_repo();
    let r = ask(dir.path(), "the Shape impl for Square").await;
    // Square's block first; the trait's definition after it, not Foo's block (line 20).
    assert_eq!(
        files(&r),
        [
            ("src/square.rs".to_string(), vec![5]),
            ("src/foo.rs".to_string(), vec![16])
        ],
        "{}",
        r.answer
    );
    write(
        dir.path(),
        "src/parse.rs",
        "use std::str::FromStr;\nuse crate::foo::Foo;\nuse crate::square::Square;\n\nimpl FromStr for Foo {\n    type Err = ();\n    fn from_str(s: &str) -> Result<Self, ()> {\n        Ok(Foo { size: s.len() as u32 })\n    }\n}\n\nimpl FromStr for Square {\n    type Err = ();\n    fn from_str(s: &str) -> Result<Self, ()> {\n        Ok(Square(s.len() as u32))\n    }\n}\n",
    );
    let r = ask(dir.path(), "where is FromStr implemented for Square?").await;
    assert_eq!(
        files(&r),
        [("src/parse.rs".to_string(), vec![12])],
        "{}",
        r.answer
    );
}

/// A call on an untyped parameter (`job._modify()`) is linked by name alone: a callee that
/// is the only method of its name is listed, after the linked ones and said to be a guess;
/// one of several same-named methods is not.
#[tokio::test]
async fn a_callee_guessed_from_a_unique_name_is_listed_last() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pkg/job.py",
        "class Job:\n    def _modify(self, **changes):\n        self.changes = changes\n",
    );
    write(
        dir.path(),
        "pkg/stores.py",
        "class MemoryStore:\n    def add(self, job):\n        pass\n\n\nclass SqlStore:\n    def add(self, job):\n        pass\n",
    );
    write(
        dir.path(),
        "pkg/scheduler.py",
        "class Scheduler:\n    def _lookup(self, alias):\n        return alias\n\n    def real_add(self, job, store):\n        job._modify(next_run=None)\n        self._lookup('default')\n        store.add(job)\n",
    );
    let r = ask(dir.path(), "what does Scheduler.real_add call").await;
    let got = files(&r);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].0, "pkg/scheduler.py", "{got:?}");
    assert!(got[0].1.contains(&2), "{got:?}");
    assert_eq!(got[1], ("pkg/job.py".to_string(), vec![2]), "{got:?}");
    assert!(
        r.relevant_files[1].rationale.contains("guessed"),
        "{}",
        r.relevant_files[1].rationale
    );
}

/// A static getter and setter named like the value they wrap are its definitions, and
/// their own bodies (which read and write the backing variable) are not its uses: the
/// file that uses the setting comes first.
#[tokio::test]
async fn accessor_bodies_are_not_uses_of_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "src/settings.js",
        "let cutoffYear = 60;\n\nexport default class Settings {\n  static get cutoffYear() {\n    return cutoffYear;\n  }\n\n  static set cutoffYear(year) {\n    cutoffYear = year % 100;\n  }\n}\n",
    );
    write(
        dir.path(),
        "src/util.js",
        "import Settings from './settings.js';\n\nexport function untruncateYear(year) {\n  const cutoff = Settings.cutoffYear;\n  return year > cutoff ? 1900 + year : 2000 + year;\n}\n",
    );
    let r = ask(dir.path(), "where is cutoffYear used").await;
    let got = files(&r);
    assert_eq!(
        got.first().map(|f| f.0.as_str()),
        Some("src/util.js"),
        "{got:?}"
    );
    assert!(got[0].1.contains(&4), "{got:?}");
    let settings = got.iter().find(|f| f.0 == "src/settings.js");
    assert!(
        settings.is_none_or(|f| !f.1.contains(&5) && !f.1.contains(&9)),
        "{got:?}"
    );
}

/// A file holding a function and an interface method of one name: the question's
/// "function" chooses the function, and its callers come from the graph, not from a text
/// search for the name.
#[tokio::test]
async fn a_function_beside_a_method_of_its_name() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "go.mod", "module example.com/r\n\ngo 1.22\n");
    write(
        dir.path(),
        "redis.go",
        "package r\n\ntype ConnWithTimeout interface {\n\tReceiveWithTimeout(d int) error\n}\n\nfunc ReceiveWithTimeout(c ConnWithTimeout, d int) error {\n\treturn c.ReceiveWithTimeout(d)\n}\n",
    );
    write(
        dir.path(),
        "pubsub.go",
        "package r\n\ntype PubSub struct{ c ConnWithTimeout }\n\nfunc (p PubSub) Receive() error {\n\treturn ReceiveWithTimeout(p.c, 1)\n}\n",
    );
    let r = ask(
        dir.path(),
        "where is the package-level ReceiveWithTimeout function called",
    )
    .await;
    assert!(
        files(&r).contains(&("pubsub.go".to_string(), vec![6])),
        "{:?} {}",
        files(&r),
        r.answer
    );
    assert!(!r.answer.contains("text search"), "{}", r.answer);
}
