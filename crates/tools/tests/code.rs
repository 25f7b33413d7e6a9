//! The `code` tool and its graph on the two fixture repositories, with the exact locations
//! of their fact sheets (`evals/fixtures/relay.md`, `evals/fixtures/ledger.md`), and the
//! index cache: warm loads, changed files, corrupt cache files, skipped files.

// Helpers outside #[test] functions unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use explore_tools::code::{CodeTool, EdgeKind, IndexOptions, Kind, Role, SymbolQuery};
use explore_tools::{ErrorKind, RepoRoot, Tool};
use pretty_assertions::assert_eq;
use serde_json::json;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../evals/fixtures")
        .join(name)
}

fn tool_for(dir: &Path) -> CodeTool {
    CodeTool::new(
        RepoRoot::new(dir).unwrap(),
        IndexOptions {
            no_cache: true,
            ..Default::default()
        },
    )
}

fn relay() -> &'static CodeTool {
    static T: OnceLock<CodeTool> = OnceLock::new();
    T.get_or_init(|| tool_for(&fixture("relay")))
}

fn ledger() -> &'static CodeTool {
    static T: OnceLock<CodeTool> = OnceLock::new();
    T.get_or_init(|| tool_for(&fixture("ledger")))
}

/// The text the model sees, whether the call succeeded or not.
fn text(tool: &CodeTool, args: serde_json::Value) -> String {
    match tool.call(&args) {
        Ok(out) => {
            // Every result line with a location is backed by a finding.
            for f in &out.findings {
                let loc = format!("{}:{}", f.path, f.line.unwrap());
                assert!(
                    out.text.contains(&loc)
                        || out.text.contains(&format!("line {}", f.line.unwrap())),
                    "finding {loc} not in text:\n{}",
                    out.text
                );
            }
            out.text
        }
        Err(e) => e.to_string(),
    }
}

// ---- relay (Go) ----

#[test]
fn relay_issue_store_definition() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"find","symbol":"IssueStore","kind":"interface"})
        ),
        "IssueStore (interface) at internal/model/issue.go:155\n  type IssueStore interface\n  // IssueStore persists issues and looks them up by ID or by filter."
    );
    let out = relay()
        .call(&json!({"operation":"find","symbol":"IssueStore","kind":"interface"}))
        .unwrap();
    assert_eq!(out.findings.len(), 1);
    let f = &out.findings[0];
    assert_eq!(
        (
            f.path.as_str(),
            f.line,
            f.end_line,
            f.symbol.as_deref(),
            f.kind.as_deref()
        ),
        (
            "internal/model/issue.go",
            Some(155),
            Some(162),
            Some("IssueStore"),
            Some("interface")
        )
    );
}

#[test]
fn relay_find_ranks_exact_then_case_insensitive() {
    assert_eq!(
        text(relay(), json!({"operation":"find","symbol":"IssueStore"})),
        "Found 2 symbols matching \"IssueStore\":\n  IssueStore (interface) at internal/model/issue.go:155\n  issueStore (struct) at internal/store/issue.go:23\n(2 more contain \"IssueStore\"; symbol=\"*IssueStore*\" lists them)"
    );
}

#[test]
fn relay_implementations_of_issue_store_real_before_test_double() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"implementations","symbol":"IssueStore"})
        ),
        "IssueStore (interface) at internal/model/issue.go:155

Implementations:
  ReadThrough (struct) at internal/store/cache/readthrough.go:17
  issueStore (struct) at internal/store/issue.go:23
  Store (struct) at internal/store/memory/memory.go:17
  fakeIssueStore (type) at internal/brain/planner_test.go:17 [test]"
    );
}

#[test]
fn relay_embedded_interfaces_across_packages() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"implementations","symbol":"IssueReadWriter"})
        ),
        "IssueReadWriter (interface) at internal/model/issue_access.go:25

Implementations:
  ReadThrough (struct) at internal/store/cache/readthrough.go:17
  Store (struct) at internal/store/memory/memory.go:17"
    );
    assert_eq!(
        text(
            relay(),
            json!({"operation":"implementations","symbol":"memory.Store"})
        ),
        "Store (struct) at internal/store/memory/memory.go:17

Implements:
  IssueStore (interface) at internal/model/issue.go:155
  IssueReader (interface) at internal/model/issue_access.go:7
  IssueWriter (interface) at internal/model/issue_access.go:15
  IssueReadWriter (interface) at internal/model/issue_access.go:25"
    );
}

#[test]
fn relay_ambiguous_plan_names_the_disambiguating_argument() {
    assert_eq!(
        text(relay(), json!({"operation":"callers","symbol":"Plan"})),
        "Multiple methods named \"Plan\":
  Planner.Plan (method) at internal/brain/planner.go:101
  TaskPlanner.Plan (method) at internal/task/planner.go:42

Add symbol=\"Planner.Plan\" or file=\"internal/brain\" to specify."
    );
}

#[test]
fn relay_callers_of_each_plan() {
    let brain = text(
        relay(),
        json!({"operation":"callers","symbol":"Planner.Plan"}),
    );
    assert!(
        brain.starts_with("Planner.Plan (method) at internal/brain/planner.go:101\n\nCallers:\n  Orchestrator.Run (method) at internal/brain/orchestrator.go:41\n  TestPlannerPlan (function) at internal/brain/planner_test.go:69 [test]"),
        "{brain}"
    );
    assert!(!brain.contains("runner.go"), "{brain}");
    // Through the local variable `planner := r.Planner`: precise, not a name match.
    let task = text(
        relay(),
        json!({"operation":"callers","symbol":"Plan","file":"internal/task"}),
    );
    assert!(
        task.starts_with("TaskPlanner.Plan (method) at internal/task/planner.go:42\n\nCallers:\n  Runner.Run (method) at internal/task/runner.go:33\n"),
        "{task}"
    );
    assert!(!task.contains("orchestrator.go"), "{task}");
}

#[test]
fn relay_callers_depth_two_and_closure_call_site() {
    let out = text(
        relay(),
        json!({"operation":"callers","symbol":"Orchestrator.Run","depth":2}),
    );
    assert_eq!(
        out,
        "Orchestrator.Run (method) at internal/brain/orchestrator.go:39

Callers (depth 2):
  worker.tick (method) at cmd/worker/main.go:151
    worker.Run (method) at cmd/worker/main.go:119
    TestWorkerReplansFailedIssue (function) at cmd/worker/main_test.go:34 [test]
  Handler.planIssue (method) at internal/httpapi/handler.go:121
    Handler.issueRoutes (method) at internal/httpapi/handler.go:95
  EventIngest.triggerPlanning (method) at internal/service/event_ingest.go:133
    EventIngest.Ingest (method) at internal/service/event_ingest.go:59
  TestOrchestratorRunPostsReport (function) at internal/brain/orchestrator_test.go:24 [test]
  TestOrchestratorRunRecordsPlanFailure (function) at internal/brain/orchestrator_test.go:44 [test]"
    );
}

#[test]
fn relay_trace_handle_webhook_to_plan() {
    assert_eq!(
        text(relay(), json!({"operation":"trace","symbol":"HandleWebhook","to":"Plan"})),
        "Call path from Handler.HandleWebhook to Planner.Plan (4 calls):
  Handler.HandleWebhook (method) at internal/webhook/handler.go:66
  -> EventIngest.Ingest (method) at internal/service/event_ingest.go:40, called at internal/webhook/handler.go:95
  -> EventIngest.triggerPlanning (method) at internal/service/event_ingest.go:129, called at internal/service/event_ingest.go:59
  -> Orchestrator.Run (method) at internal/brain/orchestrator.go:39, called at internal/service/event_ingest.go:133
  -> Planner.Plan (method) at internal/brain/planner.go:101, called at internal/brain/orchestrator.go:41"
    );
}

#[test]
fn relay_callees_resolve_through_fields_and_interfaces() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"callees","symbol":"Planner.Plan"})
        ),
        "Planner.Plan (method) at internal/brain/planner.go:101

Callees:
  buildPlanPrompt (function) at internal/brain/planner.go:135, called at line 116
  parsePlan (function) at internal/brain/planner.go:158, called at line 122
  Client.Complete (method) at internal/llm/client.go:52, called at line 113
  Issue.IsOpen (method) at internal/model/issue.go:85, called at line 102
  IssueStore.List (method) at internal/model/issue.go:161, called at line 105"
    );
}

#[test]
fn relay_methods_and_usages_of_a_type() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"methods","symbol":"model.Issue"})
        ),
        "Issue (struct) at internal/model/issue.go:51

Methods:
  Issue.IsOpen (method) at internal/model/issue.go:85
  Issue.Close (method) at internal/model/issue.go:92
  Issue.AddComment (method) at internal/model/issue.go:102
  Issue.HasLabel (method) at internal/model/issue.go:109"
    );
    assert_eq!(
        text(relay(), json!({"operation":"usages","symbol":"IssueStore"})),
        "IssueStore (interface) at internal/model/issue.go:155

Used by (parameters or results):
  NewOrchestrator (function) at internal/brain/orchestrator.go:29
  NewPlanner (function) at internal/brain/planner.go:90
  NewEventIngest (function) at internal/service/event_ingest.go:31
  NewReadThrough (function) at internal/store/cache/readthrough.go:34
  NewIssueStore (function) at internal/store/issue.go:30"
    );
}

#[test]
fn relay_generated_and_vendored_rank_last() {
    let out = text(relay(), json!({"operation":"methods","symbol":"Issue"}));
    assert!(
        out.starts_with("Issue (struct) at internal/model/issue.go:51\n(also 1 in tests, vendored or generated code, e.g. Issue (struct) at internal/gen/issue.pb.go:60 [generated]; add file=\"internal/gen/issue.pb.go\" for it)\n"),
        "{out}"
    );
    let news = text(
        relay(),
        json!({"operation":"find","symbol":"New","kind":"function"}),
    );
    let last = news.lines().nth(7).unwrap();
    assert_eq!(
        last,
        "  New (function) at vendor/github.com/acme/uuid/uuid.go:30 [vendored]"
    );
    assert_eq!(
        text(relay(), json!({"operation":"callers","symbol":"uuid.New"})),
        "New (function) at vendor/github.com/acme/uuid/uuid.go:30 [vendored]\n\nCallers:\n  EventIngest.Ingest (method) at internal/service/event_ingest.go:42"
    );
}

#[test]
fn relay_glob_find() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"find","symbol":"*Issue*","kind":"interface"})
        ),
        "Found 4 symbols matching \"*Issue*\":
  IssueStore (interface) at internal/model/issue.go:155
  IssueReader (interface) at internal/model/issue_access.go:7
  IssueWriter (interface) at internal/model/issue_access.go:15
  IssueReadWriter (interface) at internal/model/issue_access.go:25"
    );
}

#[test]
fn relay_fifteen_result_cap() {
    let out = relay()
        .call(&json!({"operation":"find","symbol":"*","kind":"method"}))
        .unwrap();
    let lines: Vec<&str> = out.text.lines().collect();
    assert_eq!(lines.len(), 17, "{}", out.text);
    assert_eq!(lines[0], "Found 156 symbols matching \"*\":");
    assert_eq!(
        lines[16],
        "... and 141 more; add file=\"cmd/worker\" to narrow"
    );
    assert_eq!(out.findings.len(), 15);
}

#[test]
fn relay_package_level_consts_vars_and_types() {
    assert_eq!(
        text(relay(), json!({"operation":"find","symbol":"IssueID"})),
        "IssueID (type) at internal/model/issue.go:15\n  type IssueID int64\n  // IssueID uniquely identifies an issue within relay. It is the issue number"
    );
    assert_eq!(
        text(
            relay(),
            json!({"operation":"find","symbol":"IssueStatusOpen"})
        ),
        "IssueStatusOpen (const) at internal/model/issue.go:23\n  const IssueStatusOpen Status = \"open\"\n  // IssueStatusOpen marks an issue that still needs work."
    );
    assert!(
        text(relay(), json!({"operation":"find","symbol":"ErrNotFound"}))
            .starts_with("ErrNotFound (var) at internal/model/issue.go:36\n  var ErrNotFound = errors.New(\"model: issue not found\")")
    );
    assert!(
        text(relay(), json!({"operation":"find","symbol":"replanPolicy"}))
            .starts_with("replanPolicy (var) at cmd/worker/main.go:31")
    );
}

#[test]
fn relay_qualified_names() {
    let g = relay().graph().unwrap();
    let qn = |q: SymbolQuery| {
        let m = g.find(&q);
        m.first().map(|m| m.symbol.qname.clone()).unwrap()
    };
    assert_eq!(
        qn(SymbolQuery::new("IssueStore").kind(Kind::Interface)),
        "example.com/relay/internal/model.IssueStore"
    );
    assert_eq!(
        qn(SymbolQuery::new("Planner.Plan")),
        "example.com/relay/internal/brain.Planner.Plan"
    );
    assert_eq!(qn(SymbolQuery::new("uuid.New")), "github.com/acme/uuid.New");
    // Contains edges from types to methods, both receiver kinds.
    let issue = g.find(&SymbolQuery::new("model.Issue").kind(Kind::Struct))[0].id;
    let names: Vec<String> = g
        .methods(issue)
        .into_iter()
        .map(|r| r.symbol.name)
        .collect();
    assert_eq!(names, ["IsOpen", "Close", "AddComment", "HasLabel"]);
    assert!(g.edges_of_kind(EdgeKind::Contains).any(|e| e.from == issue));
}

// ---- ledger (Python) ----

#[test]
fn ledger_repository_subclasses_including_indirect() {
    assert_eq!(
        text(
            ledger(),
            json!({"operation":"implementations","symbol":"Repository"})
        ),
        "Repository (class) at src/ledger/storage/base.py:14

Subclasses:
  InMemoryRepository (class) at src/ledger/storage/memory.py:15
  SqlRepository (class) at src/ledger/storage/sql.py:72
  PostgresRepository (class) at src/ledger/storage/postgres.py:16 (via SqlRepository)
  FakeRepository (class) at tests/conftest.py:24 [test]"
    );
}

/// A class is used where another class names it as its base: its usages list the direct
/// subclasses (at their headers), not those through another class.
#[test]
fn ledger_usages_of_a_class_include_its_direct_subclasses() {
    let got = text(
        ledger(),
        json!({"operation":"usages","symbol":"Repository"}),
    );
    let subclasses = got.split("\nSubclasses:\n").nth(1).expect(&got);
    assert_eq!(
        subclasses,
        "  InMemoryRepository (class) at src/ledger/storage/memory.py:15
  SqlRepository (class) at src/ledger/storage/sql.py:72
  FakeRepository (class) at tests/conftest.py:24 [test]"
    );
    assert!(
        got.contains("Used by (parameters or results):\n  LedgerService.__init__"),
        "{got}"
    );
}

#[test]
fn ledger_super_calls() {
    assert_eq!(
        text(
            ledger(),
            json!({"operation":"callees","symbol":"PostgresRepository.save"})
        ),
        "PostgresRepository.save (method) at src/ledger/storage/postgres.py:35

Callees:
  SqlRepository.atomic (method) at src/ledger/storage/sql.py:243, called at line 37
  SqlRepository._write (method) at src/ledger/storage/sql.py:117, called at line 38
  SqlRepository.save (method) at src/ledger/storage/sql.py:143, called at line 39"
    );
    assert_eq!(
        text(
            ledger(),
            json!({"operation":"callees","symbol":"ExcelCsvExporter.export"})
        ),
        "ExcelCsvExporter.export (method) at src/ledger/exporters/excel.py:27\n\nCallees:\n  CsvExporter.export (method) at src/ledger/exporters/csv_exporter.py:27, called at line 29"
    );
}

#[test]
fn ledger_callers_of_post_transaction() {
    assert_eq!(
        text(ledger(), json!({"operation":"callers","symbol":"LedgerService.post_transaction"})),
        "LedgerService.post_transaction (method) at src/ledger/services/ledger_service.py:195

Callers:
  AuditedLedgerService.post_transaction (method) at src/ledger/services/audited.py:64
  LedgerService.deposit (method) at src/ledger/services/ledger_service.py:145
  LedgerService.withdraw (method) at src/ledger/services/ledger_service.py:166
  LedgerService.transfer (method) at src/ledger/services/ledger_service.py:193
  LedgerService.reverse_transaction (method) at src/ledger/services/ledger_service.py:238
  PaymentService.record_payment (method) at src/ledger/services/payments.py:75
  RefundService.process (method) at src/ledger/services/refunds.py:60
  RecordingLedgerService.post_transaction (method) at tests/test_webhooks.py:30 [test]
  test_post_transaction_rejects_unbalanced (function) at tests/test_ledger_service.py:52 [test] [inferred]"
    );
}

#[test]
fn ledger_calls_through_self_attributes_and_factories() {
    // `self.repository.save(account)`: the attribute typed from `__init__`'s annotation.
    let out = text(
        ledger(),
        json!({"operation":"callers","symbol":"Repository.save"}),
    );
    assert!(
        out.contains(
            "  LedgerService._apply_entries (method) at src/ledger/services/ledger_service.py:293\n"
        ),
        "{out}"
    );
    // `get_refund_service().process(refund)`: the factory's `-> RefundService`.
    assert_eq!(
        text(
            ledger(),
            json!({"operation":"callers","symbol":"RefundService.process"})
        ),
        "RefundService.process (method) at src/ledger/services/refunds.py:31\n\nCallers:\n  handle_refund_created (function) at src/ledger/webhooks/handlers.py:64"
    );
    assert_eq!(
        text(
            ledger(),
            json!({"operation":"callers","symbol":"create_repository"})
        ),
        "create_repository (function) at src/ledger/storage/factory.py:11\n\nCallers:\n  configure (function) at src/ledger/services/provider.py:24"
    );
}

#[test]
fn ledger_definitions_methods_and_nested_classes() {
    assert_eq!(
        text(
            ledger(),
            json!({"operation":"find","symbol":"SqlRepository._execute"})
        ),
        "SqlRepository._execute (method) at src/ledger/storage/sql.py:105\n  def _execute(self, statement: str, params: Sequence[Any] = ()) -> Any:\n  # Run one statement, retrying on lock timeouts."
    );
    assert!(
        text(
            ledger(),
            json!({"operation":"find","symbol":"Settings.Config"})
        )
        .starts_with("Settings.Config (class) at src/ledger/config.py:54\n")
    );
    assert_eq!(
        text(ledger(), json!({"operation":"find","symbol":"Handler"})),
        "Found 3 symbols matching \"Handler\":
  Handler (class) at src/ledger/api/routing.py:55
  Handler (class) at src/ledger/tasks/worker.py:28
  Handler (type) at src/ledger/webhooks/registry.py:19
(6 more contain \"Handler\"; symbol=\"*Handler*\" lists them)"
    );
    // The `def flush():` inside a docstring is not a definition.
    assert_eq!(
        text(ledger(), json!({"operation":"find","symbol":"flush"})),
        "No symbol \"flush\" found.\nTry: rg -n \"flush\" for text search (bash tool)."
    );
    let g = ledger().graph().unwrap();
    let save = &g.find(&SymbolQuery::new("Repository.save"))[0].symbol;
    assert_eq!(save.qname, "ledger.storage.base.Repository.save");
    assert_eq!((save.line, save.kind), (27, Kind::Method));
}

#[test]
fn ledger_generated_class_ranks_after_the_real_one() {
    assert_eq!(
        text(
            ledger(),
            json!({"operation":"find","symbol":"Transaction","kind":"class"})
        ),
        "Found 2 symbols matching \"Transaction\":
  Transaction (class) at src/ledger/models/transaction.py:61
  Transaction (class) at src/ledger/proto/ledger_pb2.py:414 [generated]
(6 more contain \"Transaction\"; symbol=\"*Transaction*\" lists them)"
    );
}

// ---- argument errors ----

#[test]
fn invalid_kind_lists_the_kinds() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"find","symbol":"Plan","kind":"func"})
        ),
        "Invalid kind \"func\". Supported kinds: function, method, struct, interface, class, type, const, var."
    );
}

#[test]
fn not_found_suggests_rg() {
    let err = relay()
        .call(&json!({"operation":"callers","symbol":"FooBar"}))
        .unwrap_err();
    assert!(err.kind() == ErrorKind::NotFound);
    assert_eq!(
        err.to_string(),
        "No symbol \"FooBar\" found.\nTry: rg -n \"FooBar\" for text search (bash tool)."
    );
}

#[test]
fn wrong_kind_for_the_operation() {
    assert_eq!(
        text(relay(), json!({"operation":"callers","symbol":"Issue"})),
        "Issue is a struct (internal/model/issue.go:51), but callers works on a function or method. For a type, try operation=\"usages\" or \"methods\" with symbol=\"Issue\"."
    );
}

#[test]
fn argument_errors() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"callers","symbol":"Plan","depth":4})
        ),
        "Invalid arguments for `code`: `depth` must be from 1 to 3, got 4. It accepts `operation`, `symbol`, `kind?`, `file?`, `depth?`, `to?` (? = optional). Example: {\"operation\":\"callers\",\"symbol\":\"Planner.Plan\"}"
    );
    assert!(
        text(
            relay(),
            json!({"operation":"trace","symbol":"HandleWebhook"})
        )
        .starts_with("Invalid arguments for `code`: trace needs `to`")
    );
    assert!(
        text(relay(), json!({"operation":"search","symbol":"Plan"}))
            .starts_with("Invalid arguments for `code`: unknown variant `search`, expected one of `find`, `callers`, `callees`, `implementations`, `methods`, `usages`, `trace`.")
    );
    assert!(
        text(relay(), json!({"operation":"find","name":"Plan"}))
            .starts_with("Invalid arguments for `code`: unknown field `name`")
    );
}

#[test]
fn resolve_api_for_the_local_engine() {
    let g = relay().graph().unwrap();
    match g.resolve(&SymbolQuery::new("Plan"), Role::Callable) {
        explore_tools::code::Resolution::Ambiguous(c) => {
            let locs: Vec<String> = c
                .iter()
                .map(|m| format!("{}:{}", m.symbol.path, m.symbol.line))
                .collect();
            assert_eq!(
                locs,
                [
                    "internal/brain/planner.go:101",
                    "internal/task/planner.go:42"
                ]
            );
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
}

// ---- the index cache ----

struct Repo {
    dir: tempfile::TempDir,
    cache: tempfile::TempDir,
}

impl Repo {
    /// A repository with no files yet, and its own cache.
    fn empty() -> Repo {
        Repo {
            dir: tempfile::tempdir().unwrap(),
            cache: tempfile::tempdir().unwrap(),
        }
    }

    /// Writes (or overwrites) a file, creating its directories.
    fn write(&self, p: &str, s: &str) {
        let path = self.path(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, s).unwrap();
    }

    fn new() -> Repo {
        let repo = Repo::empty();
        let w = |p: &str, s: &str| repo.write(p, s);
        w("go.mod", "module example.com/demo\n\ngo 1.22\n");
        w(
            "store/store.go",
            "package store\n\n// Store keeps things.\ntype Store interface {\n\tGet(id int) string\n}\n",
        );
        w(
            "mem/mem.go",
            "package mem\n\ntype Mem struct{}\n\nfunc (m *Mem) Get(id int) string { return \"\" }\n\nfunc New() *Mem { return &Mem{} }\n",
        );
        w(
            "app/app.go",
            "package app\n\nimport \"example.com/demo/mem\"\n\nfunc Run() string {\n\tm := mem.New()\n\treturn m.Get(1)\n}\n",
        );
        w("tools/util.py", "def helper():\n    return 1\n");
        repo
    }

    fn path(&self, p: &str) -> PathBuf {
        self.dir.path().join(p)
    }

    fn tool(&self) -> CodeTool {
        CodeTool::new(
            RepoRoot::new(self.dir.path()).unwrap(),
            IndexOptions {
                cache_dir: Some(self.cache.path().to_path_buf()),
                ..Default::default()
            },
        )
    }
}

#[test]
fn cache_warm_load_parses_nothing() {
    let repo = Repo::new();
    let cold = repo.tool().index().unwrap();
    assert_eq!(
        (cold.files, cold.parsed, cold.reused, cold.from_cache),
        (4, 4, 0, false)
    );
    let path = cold.cache_path.clone().unwrap();
    assert!(path.starts_with(repo.cache.path()), "{}", path.display());
    assert!(path.exists());

    let warm_tool = repo.tool();
    let warm = warm_tool.index().unwrap();
    assert_eq!(
        (
            warm.files,
            warm.parsed,
            warm.rehashed,
            warm.reused,
            warm.from_cache
        ),
        (4, 0, 0, 4, true)
    );
    assert_eq!(warm.symbols, cold.symbols);
    assert_eq!(warm.edges, cold.edges);
    assert_eq!(
        text(
            &warm_tool,
            json!({"operation":"callers","symbol":"Mem.Get"})
        ),
        "Mem.Get (method) at mem/mem.go:5\n\nCallers:\n  Run (function) at app/app.go:7"
    );
    assert_eq!(
        text(
            &warm_tool,
            json!({"operation":"implementations","symbol":"Store"})
        ),
        "Store (interface) at store/store.go:4\n\nImplementations:\n  Mem (struct) at mem/mem.go:3"
    );
}

#[test]
fn cache_touched_file_is_hashed_and_changed_file_reparsed() {
    let repo = Repo::new();
    repo.tool().index().unwrap();

    // Same content, new mtime: hashed, not parsed, graph unchanged.
    let f = std::fs::File::options()
        .write(true)
        .open(repo.path("mem/mem.go"))
        .unwrap();
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5))
        .unwrap();
    drop(f);
    let touched = repo.tool().index().unwrap();
    assert_eq!(
        (touched.parsed, touched.rehashed, touched.reused),
        (0, 1, 3)
    );

    // New content: that one file is parsed again, and the graph shows the change.
    std::fs::write(
        repo.path("mem/mem.go"),
        "package mem\n\ntype Mem struct{}\n\nfunc (m *Mem) Get(id int) string { return \"\" }\n\nfunc New() *Mem { return &Mem{} }\n\nfunc Extra() {}\n",
    )
    .unwrap();
    let tool = repo.tool();
    let changed = tool.index().unwrap();
    assert_eq!(
        (changed.parsed, changed.reused, changed.from_cache),
        (1, 3, false)
    );
    assert_eq!(
        text(&tool, json!({"operation":"find","symbol":"Extra"})),
        "Extra (function) at mem/mem.go:9\n  func Extra() {}"
    );

    // A deleted file leaves the graph.
    std::fs::remove_file(repo.path("tools/util.py")).unwrap();
    let removed = repo.tool().index().unwrap();
    assert_eq!(
        (removed.files, removed.parsed, removed.from_cache),
        (3, 0, false)
    );
}

#[test]
fn cache_corrupt_or_foreign_file_is_rebuilt() {
    let repo = Repo::new();
    let path = repo.tool().index().unwrap().cache_path.unwrap();
    for garbage in [
        b"not an index at all".to_vec(),
        b"explore code index\n\x00\x00".to_vec(),
        [b"explore code index\n".as_slice(), &999u32.to_le_bytes()].concat(),
        {
            let mut good = std::fs::read(&path).unwrap();
            good.truncate(good.len() / 2);
            good
        },
    ] {
        std::fs::write(&path, &garbage).unwrap();
        let tool = repo.tool();
        let rebuilt = tool.index().unwrap();
        assert_eq!(
            (rebuilt.files, rebuilt.parsed, rebuilt.from_cache),
            (4, 4, false)
        );
        assert_eq!(
            text(&tool, json!({"operation":"find","symbol":"helper"})),
            "helper (function) at tools/util.py:1\n  def helper():"
        );
        // And the rewritten cache is good again.
        assert_eq!(repo.tool().index().unwrap().parsed, 0);
    }
}

#[test]
fn skipped_files_are_counted_by_reason() {
    let repo = Repo::new();
    std::fs::write(repo.path("blob.go"), b"package x\x00\x01\x02").unwrap();
    std::fs::write(repo.path("latin1.py"), b"x = '\xe9t\xe9'\n").unwrap();
    std::fs::write(repo.path("huge.py"), vec![b'#'; 2 * 1024 * 1024 + 1]).unwrap();
    std::fs::write(repo.path("id_rsa_helper.py"), "def leaked():\n    pass\n").unwrap();
    std::fs::write(repo.path(".gitignore"), "ignored/\n").unwrap();
    std::fs::create_dir_all(repo.path("ignored")).unwrap();
    std::fs::write(repo.path("ignored/x.py"), "def hidden_one():\n    pass\n").unwrap();
    std::fs::create_dir_all(repo.path(".venv")).unwrap();
    std::fs::write(repo.path(".venv/y.py"), "def hidden_two():\n    pass\n").unwrap();
    let tool = repo.tool();
    let stats = tool.index().unwrap();
    assert_eq!(stats.files, 4);
    let skipped: Vec<(&str, usize)> = stats
        .skipped
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        skipped,
        [
            ("binary", 1),
            ("secret", 1),
            ("too large", 1),
            ("unparseable", 1)
        ]
    );
    for name in ["leaked", "hidden_one", "hidden_two"] {
        assert_eq!(
            tool.call(&json!({"operation":"find","symbol":name}))
                .map_err(|e| e.kind()),
            Err(ErrorKind::NotFound)
        );
    }
    // Skipped files are remembered: a warm run reads none of them.
    let warm = repo.tool().index().unwrap();
    assert_eq!((warm.parsed, warm.from_cache), (0, true));
    assert_eq!(warm.skipped, stats.skipped);
}

#[test]
fn callers_through_interfaces_and_base_classes() {
    assert_eq!(
        text(
            relay(),
            json!({"operation":"callers","symbol":"issueStore.List"})
        ),
        "issueStore.List (method) at internal/store/issue.go:101

Callers: none direct.
Through IssueStore.List (method at internal/model/issue.go:161), which may dispatch here:
  Planner.Plan (method) at internal/brain/planner.go:105
  ReadThrough.List (method) at internal/store/cache/readthrough.go:61
Through IssueReader.List (method at internal/model/issue_access.go:11), which may dispatch here:
  Handler.listIssues (method) at internal/httpapi/handler.go:69"
    );
    let out = text(
        ledger(),
        json!({"operation":"callers","symbol":"SqlRepository.save"}),
    );
    assert!(
        out.starts_with("SqlRepository.save (method) at src/ledger/storage/sql.py:143\n\nCallers:\n  PostgresRepository.save (method) at src/ledger/storage/postgres.py:39\nThrough Repository.save (method at src/ledger/storage/base.py:27), which may dispatch here:\n  LedgerService.ensure_system_accounts (method) at src/ledger/services/ledger_service.py:63\n"),
        "{out}"
    );
}

#[test]
fn cache_facts_are_read_only_when_something_changed() {
    let repo = Repo::new();
    let idx = repo.tool().index().unwrap().cache_path.unwrap();
    // The facts file is named by its hash: `<stem>.facts-<hash>`, the only one there.
    let stem = idx.file_stem().unwrap().to_string_lossy().into_owned();
    let facts: Vec<PathBuf> = std::fs::read_dir(idx.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{stem}.facts-"))
        })
        .collect();
    assert_eq!(facts.len(), 1, "{facts:?}");
    let facts = &facts[0];
    // Nothing changed: the graph file alone answers, the facts file is not needed.
    std::fs::write(facts, b"garbage").unwrap();
    let warm = repo.tool().index().unwrap();
    assert_eq!((warm.parsed, warm.from_cache), (0, true));
    // A change needs the facts to re-link; bad facts mean a full rebuild, not an error.
    std::fs::write(
        repo.path("tools/util.py"),
        "def helper():\n    return 2\n\n\ndef other():\n    pass\n",
    )
    .unwrap();
    let tool = repo.tool();
    let rebuilt = tool.index().unwrap();
    assert_eq!(
        (rebuilt.files, rebuilt.parsed, rebuilt.from_cache),
        (4, 4, false)
    );
    assert_eq!(
        text(&tool, json!({"operation":"find","symbol":"other"})),
        "other (function) at tools/util.py:5\n  def other():"
    );
    // And the facts written by that rebuild serve the next change.
    std::fs::write(repo.path("tools/util.py"), "def helper():\n    return 3\n").unwrap();
    assert_eq!(repo.tool().index().unwrap().parsed, 1);
}

// ---- ts-mini (TypeScript, TSX and JavaScript) ----

fn ts_mini() -> &'static CodeTool {
    static T: OnceLock<CodeTool> = OnceLock::new();
    T.get_or_init(|| {
        tool_for(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ts-mini"))
    })
}

#[test]
fn ts_find_definitions_of_every_kind() {
    assert_eq!(
        text(ts_mini(), json!({"operation":"find","symbol":"Drawable"})),
        "Drawable (interface) at src/model.ts:8\n  export interface Drawable extends Shape\n  // Shapes that can be drawn."
    );
    assert_eq!(
        text(ts_mini(), json!({"operation":"find","symbol":"clamp"})),
        "clamp (function) at src/util/math.ts:6\n  export const clamp = (x: number, lo: number, hi: number): number =>"
    );
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"find","symbol":"Circle.area"})
        ),
        "Circle.area (method) at src/shapes/circle.ts:12\n  area(): number"
    );
    assert_eq!(
        text(ts_mini(), json!({"operation":"find","symbol":"Color"})),
        "Color (type) at src/model.ts:14\n  export enum Color"
    );
    assert_eq!(
        text(ts_mini(), json!({"operation":"find","symbol":"PI"})),
        "PI (const) at src/shapes/circle.ts:4\n  export const PI = 3.14159;"
    );
    assert_eq!(
        text(ts_mini(), json!({"operation":"find","symbol":"Logger"})),
        "Logger (class) at src/logger.js:4\n  class Logger\n  // Writes tagged lines."
    );
    assert_eq!(
        text(ts_mini(), json!({"operation":"find","symbol":"View"})),
        "View (function) at src/view.tsx:3\n  export function View(props: { canvas: Canvas })"
    );
    // The module path qualifies: `shapes/square.Square`, `circle.Circle`.
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"find","symbol":"shapes/square.Square"})
        ),
        "Square (class) at src/shapes/square.ts:17\n  export class Square extends Polygon"
    );
}

#[test]
fn ts_callers_through_imports_namespaces_and_re_exports() {
    assert_eq!(
        text(ts_mini(), json!({"operation":"callers","symbol":"square"})),
        "square (function) at src/util/math.ts:2\n\nCallers:\n  Circle.area (method) at src/shapes/circle.ts:13\n  Square.area (method) at src/shapes/square.ts:29"
    );
    // `import { Circle } from "./shapes"` through `export { Circle } from "./circle"`,
    // `Square` through `export * from "./square"`, `Polygon.draw` by inheritance.
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"callers","symbol":"Polygon.draw"})
        ),
        "Polygon.draw (method) at src/shapes/square.ts:12\n\nCallers:\n  buildScene (function) at src/app.ts:10\n  Canvas.render (method) at src/model.ts:29 [inferred]\nThrough Drawable.draw (method at src/model.ts:9), which may dispatch here:\n  Canvas.render (method) at src/model.ts:29 [inferred]"
    );
    // A JavaScript default export (`module.exports = Logger`) imported by TypeScript, and a
    // destructured `require`.
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"callers","symbol":"Logger.info"})
        ),
        "Logger.info (method) at src/logger.js:9\n\nCallers:\n  main (function) at src/app.ts:17\n  Logger.warn (method) at src/logger.js:14"
    );
    // A module-level call: the variable it initializes is the caller.
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"callers","symbol":"buildScene"})
        ),
        "buildScene (function) at src/app.ts:6\n\nCallers:\n  main (function) at src/app.ts:15\n  defaultCanvas (const) at src/app.ts:22"
    );
    assert_eq!(
        text(ts_mini(), json!({"operation":"callers","symbol":"format"})),
        "format (function) at src/format.js:1\n\nCallers:\n  Logger.info (method) at src/logger.js:10"
    );
    // CommonJS: `exports.pad = function …` is a definition; `this.info` resolves.
    assert_eq!(
        text(ts_mini(), json!({"operation":"callers","symbol":"pad"})),
        "pad (function) at src/format.js:7\n\nCallers:\n  Logger.warn (method) at src/logger.js:14"
    );
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"callees","symbol":"Logger.warn"})
        ),
        "Logger.warn (method) at src/logger.js:13\n\nCallees:\n  pad (function) at src/format.js:7, called at line 14\n  Logger.info (method) at src/logger.js:9, called at line 14"
    );
}

/// Generic call signatures on lines of their own (`<T>(fn: T): T`) make
/// tree-sitter-typescript give up on the file; parsed again with separators, the function
/// after the interface is a definition, and the calls in the function expression it holds
/// in a local are its own.
#[test]
fn ts_call_signatures_without_separators_keep_the_file() {
    assert_eq!(
        text(ts_mini(), json!({"operation":"callers","symbol":"clamp"})),
        "clamp (function) at src/util/math.ts:6\n\nCallers:\n  main (function) at src/app.ts:18\n  createFactory (function) at src/util/factory.ts:14 (+1 more calls)"
    );
}

#[test]
fn ts_callees_with_receivers() {
    assert_eq!(
        text(ts_mini(), json!({"operation":"callees","symbol":"main"})),
        "main (function) at src/app.ts:14\n\nCallees:\n  buildScene (function) at src/app.ts:6, called at line 15\n  Logger (class) at src/logger.js:4, called at line 16\n  Logger.info (method) at src/logger.js:9, called at line 17\n  Canvas (class) at src/model.ts:19, called at line 15\n  Canvas.render (method) at src/model.ts:26, called at line 18\n  clamp (function) at src/util/math.ts:6, called at line 18"
    );
    // `this.radius`, a parameter property; `canvas.add(this)` on a typed parameter.
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"callees","symbol":"Circle.draw"})
        ),
        "Circle.draw (method) at src/shapes/circle.ts:16\n\nCallees:\n  Canvas.add (method) at src/model.ts:22, called at line 17"
    );
}

#[test]
fn ts_implementations_extends_and_implements() {
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"implementations","symbol":"Shape"})
        ),
        "Shape (interface) at src/model.ts:2\n\nImplementations:\n  Drawable (interface) at src/model.ts:8\n  Circle (class) at src/shapes/circle.ts:7 (via Drawable)\n  Polygon (class) at src/shapes/square.ts:4 (via Drawable)\n  Square (class) at src/shapes/square.ts:17 (via Polygon)"
    );
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"implementations","symbol":"Polygon"})
        ),
        "Polygon (class) at src/shapes/square.ts:4\n\nSubclasses:\n  Square (class) at src/shapes/square.ts:17"
    );
}

#[test]
fn ts_methods_usages_and_trace() {
    assert_eq!(
        text(ts_mini(), json!({"operation":"methods","symbol":"Canvas"})),
        "Canvas (class) at src/model.ts:19\n\nMethods:\n  Canvas.add (method) at src/model.ts:22\n  Canvas.render (method) at src/model.ts:26"
    );
    assert_eq!(
        text(ts_mini(), json!({"operation":"usages","symbol":"Canvas"})),
        "Canvas (class) at src/model.ts:19\n\nConstructed by (calls of the type):\n  main (function) at src/app.ts:15\n  defaultCanvas (const) at src/app.ts:22\nUsed by (parameters or results):\n  buildScene (function) at src/app.ts:6\n  Drawable.draw (method) at src/model.ts:9\n  Circle.draw (method) at src/shapes/circle.ts:16\n  Polygon.draw (method) at src/shapes/square.ts:12\n  View (function) at src/view.tsx:3"
    );
    // `item.area()` in `Canvas.render`: a loop variable, so every `area` (inferred).
    assert_eq!(
        text(
            ts_mini(),
            json!({"operation":"trace","symbol":"main","to":"square"})
        ),
        "Call path from main to square (3 calls):
  main (function) at src/app.ts:14
  -> Canvas.render (method) at src/model.ts:26, called at src/app.ts:18
  -> Circle.area (method) at src/shapes/circle.ts:12, called at src/model.ts:30 [inferred]
  -> square (function) at src/util/math.ts:2, called at src/shapes/circle.ts:13"
    );
}

// ---- rs-mini (Rust) ----

fn rs_mini() -> &'static CodeTool {
    static T: OnceLock<CodeTool> = OnceLock::new();
    T.get_or_init(|| {
        tool_for(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rs-mini"))
    })
}

#[test]
fn rs_find_definitions_of_every_kind() {
    for (args, want) in [
        (
            json!({"operation":"find","symbol":"Shape"}),
            "Shape (interface) at src/shape.rs:2\n  pub trait Shape\n  // Anything with an area.",
        ),
        (
            json!({"operation":"find","symbol":"Circle"}),
            "Circle (struct) at src/shapes/circle.rs:9\n  pub struct Circle\n  // A circle by its radius.",
        ),
        // The module path qualifies (`crate.shapes.circle.Circle.new`).
        (
            json!({"operation":"find","symbol":"circle.Circle.new"}),
            "Circle.new (method) at src/shapes/circle.rs:14\n  pub fn new(radius: f64) -> Self",
        ),
        (
            json!({"operation":"find","symbol":"Corner"}),
            "Corner (type) at src/shapes/square.rs:13\n  pub enum Corner",
        ),
        (
            json!({"operation":"find","symbol":"PI"}),
            "PI (const) at src/shapes/circle.rs:5\n  pub const PI: f64 = 3.14159;",
        ),
        (
            json!({"operation":"find","symbol":"LINES"}),
            "LINES (var) at src/log.rs:18\n  pub static mut LINES: usize = 0;",
        ),
        (
            json!({"operation":"find","symbol":"Area","kind":"type"}),
            "Area (type) at src/shape.rs:16\n  pub type Area = f64;",
        ),
    ] {
        assert_eq!(text(rs_mini(), args), want);
    }
}

#[test]
fn rs_methods_from_impl_blocks_in_other_files() {
    // `impl Circle` in canvas.rs, trait impls in circle.rs.
    assert_eq!(
        text(rs_mini(), json!({"operation":"methods","symbol":"Circle"})),
        "Circle (struct) at src/shapes/circle.rs:9\n\nMethods:\n  Circle.scale (method) at src/canvas.rs:30\n  Circle.new (method) at src/shapes/circle.rs:14\n  Circle.area (method) at src/shapes/circle.rs:20\n  Circle.draw (method) at src/shapes/circle.rs:26"
    );
}

#[test]
fn rs_callers_through_use_paths_self_and_re_exports() {
    // `super::square_of` and `use super::square_of`.
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"callers","symbol":"square_of"})
        ),
        "square_of (function) at src/shapes/mod.rs:8\n\nCallers:\n  Circle.area (method) at src/shapes/circle.rs:21\n  Square.area (method) at src/shapes/square.rs:9"
    );
    // `Circle::new` through `pub use shapes::Circle` in lib.rs.
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"callers","symbol":"Circle.new"})
        ),
        "Circle.new (method) at src/shapes/circle.rs:14\n\nCallers:\n  build_scene (function) at src/lib.rs:13"
    );
    // `self.write`, `log.write` on a `&Logger` parameter, and a unit test in the
    // `#[cfg(test)]` module (test code, ranked last; `Logger` through `use super::*`).
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"callers","symbol":"Logger.write"})
        ),
        "Logger.write (method) at src/log.rs:9\n\nCallers:\n  Logger.warn (method) at src/log.rs:14\n  Circle.draw (method) at src/shapes/circle.rs:27\n  tests.writes (function) at src/log.rs:27 [test]"
    );
    // A call inside `assert!(…)`; the `dyn Shape` closure parameter is unknown: inferred.
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"callers","symbol":"Circle.area"})
        ),
        "Circle.area (method) at src/shapes/circle.rs:20\n\nCallers:\n  Circle.scale (method) at src/canvas.rs:32\n  Canvas.total_area (method) at src/canvas.rs:24 [inferred]\nThrough Shape.area (method at src/shape.rs:3), which may dispatch here:\n  Shape.describe (method) at src/shape.rs:7\n  Canvas.total_area (method) at src/canvas.rs:24 [inferred]"
    );
}

#[test]
fn rs_callees_with_receivers() {
    // `canvas::Canvas::new()`, `c.add` on its result, `Circle::new` re-exported.
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"callees","symbol":"build_scene"})
        ),
        "build_scene (function) at src/lib.rs:11\n\nCallees:\n  Canvas.new (method) at src/canvas.rs:11, called at line 12\n  Canvas.add (method) at src/canvas.rs:18, called at line 13\n  Circle.new (method) at src/shapes/circle.rs:14, called at line 13"
    );
    // A field's type (`self.log: Logger`); a trait's default method through the impl.
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"callees","symbol":"Canvas.add"})
        ),
        "Canvas.add (method) at src/canvas.rs:18\n\nCallees:\n  Logger.warn (method) at src/log.rs:13, called at line 19"
    );
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"callees","symbol":"Circle.draw"})
        ),
        "Circle.draw (method) at src/shapes/circle.rs:26\n\nCallees:\n  Logger.write (method) at src/log.rs:9, called at line 27\n  Shape.describe (method) at src/shape.rs:6, called at line 27"
    );
}

#[test]
fn rs_implementations_usages_and_trace() {
    // Each type at its `impl Shape for …` line; the supertrait's at its definition.
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"implementations","symbol":"Shape"})
        ),
        "Shape (interface) at src/shape.rs:2\n\nImplementations:\n  Drawable (interface) at src/shape.rs:12\n  Circle (struct) at src/shapes/circle.rs:19\n  Square (struct) at src/shapes/square.rs:7"
    );
    assert_eq!(
        text(rs_mini(), json!({"operation":"usages","symbol":"Canvas"})),
        "Canvas (struct) at src/canvas.rs:5\n\nUsed by (parameters or results):\n  Canvas.new (method) at src/canvas.rs:11\n  build_scene (function) at src/lib.rs:11"
    );
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"trace","symbol":"build_scene","to":"Logger.write"})
        ),
        "Call path from build_scene to Logger.write (3 calls):\n  build_scene (function) at src/lib.rs:11\n  -> Canvas.add (method) at src/canvas.rs:18, called at src/lib.rs:13\n  -> Logger.warn (method) at src/log.rs:13, called at src/canvas.rs:19\n  -> Logger.write (method) at src/log.rs:9, called at src/log.rs:14"
    );
}

/// `impl Trait for X` with X from outside the repository (a slice, `Box<T>`, a std type
/// imported with `use`): the block is the implementor, a `type` named as written and cited
/// at its `impl` line; its methods are that type's, and their calls have a caller.
#[test]
fn rs_impls_for_types_from_outside_the_crate() {
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"implementations","symbol":"Measure"})
        ),
        "Measure (interface) at src/measure.rs:7\n\nImplementations:\n  &[u8] (type) at src/measure.rs:23\n  Box<T> (type) at src/measure.rs:29\n  VecDeque<u8> (type) at src/measure.rs:35"
    );
    assert_eq!(
        text(rs_mini(), json!({"operation":"methods","symbol":"&[u8]"})),
        "&[u8] (type) at src/measure.rs:23\n\nMethods:\n  &[u8].measure (method) at src/measure.rs:24"
    );
    // The call in the macro's expansion is the macro's (`reported!`, a function), and the
    // macro's invocation is a call of it.
    assert_eq!(
        text(rs_mini(), json!({"operation":"callers","symbol":"report"})),
        "report (function) at src/measure.rs:19\n\nCallers:\n  reported! (function) at src/measure.rs:14\n  &[u8].measure (method) at src/measure.rs:25"
    );
    assert_eq!(
        text(
            rs_mini(),
            json!({"operation":"callers","symbol":"reported!"})
        ),
        "reported! (function) at src/measure.rs:12\n\nCallers:\n  VecDeque<u8>.measure (method) at src/measure.rs:37"
    );
}

// ---- go-mini (Go) ----

fn go_mini() -> &'static CodeTool {
    static T: OnceLock<CodeTool> = OnceLock::new();
    T.get_or_init(|| {
        tool_for(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/go-mini"))
    })
}

/// A package-level variable's usages are where it is read or assigned: in functions, and
/// in another variable's initializer (`_globalS = _globalL.Sugar()`), which is that
/// variable's, as its calls are. A local of the same name and a struct key are not reads.
#[test]
fn go_usages_of_variables_and_constants() {
    for (args, want) in [
        (
            json!({"operation":"usages","symbol":"_globalL"}),
            "_globalL (var) at global.go:18\n\nRead or assigned by:\n  _globalS (var) at global.go:19\n  L (function) at global.go:24\n  Replace (function) at global.go:30 (+1 more lines)",
        ),
        (
            json!({"operation":"usages","symbol":"defaultName"}),
            "defaultName (const) at global.go:15\n\nRead or assigned by:\n  _globalL (var) at global.go:18",
        ),
        (
            json!({"operation":"usages","symbol":"level"}),
            "level (var) at global.go:42\n\nRead or assigned by:\n  leveled (function) at global.go:50",
        ),
        (
            json!({"operation":"callers","symbol":"_globalL"}),
            "_globalL is a var (global.go:18), but callers works on a function or method. For a var, try operation=\"usages\" with symbol=\"_globalL\" (where it is read or assigned).",
        ),
    ] {
        assert_eq!(text(go_mini(), args), want);
    }
}

/// `sort.Interface` is not in the repository: its implementations are the types whose
/// methods include Len, Less and Swap, matched against the standard library's definition.
#[test]
fn go_implementations_of_a_standard_library_interface() {
    assert_eq!(
        text(
            go_mini(),
            json!({"operation":"implementations","symbol":"sort.Interface"})
        ),
        "sort.Interface is a Go standard-library interface (package sort), not defined in this repository; matched by method set against its definition: Len, Less, Swap (names, not signatures; methods promoted from embedded types are not seen)\n\nImplementations:\n  byName (type) at sortable.go:6"
    );
    assert_eq!(
        text(
            go_mini(),
            json!({"operation":"implementations","symbol":"io.Reader"})
        ),
        "io.Reader is a Go standard-library interface (package io), not defined in this repository; matched by method set against its definition: Read (names, not signatures; methods promoted from embedded types are not seen)\n\nImplementations: no Go type here has all of Read."
    );
}

// ---- java-mini (Java) ----

fn java_mini() -> &'static CodeTool {
    static T: OnceLock<CodeTool> = OnceLock::new();
    T.get_or_init(|| {
        tool_for(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/java-mini"))
    })
}

const J: &str = "src/main/java/com/acme";

/// The fixture's text with its common path prefix written `J/`.
fn jtext(args: serde_json::Value) -> String {
    text(java_mini(), args).replace(J, "J")
}

#[test]
fn java_find_definitions_of_every_kind() {
    for (args, want) in [
        (
            json!({"operation":"find","symbol":"Circle"}),
            "Circle (class) at J/shapes/Circle.java:8\n  public record Circle(double radius) implements Drawable\n  // A circle by its radius.",
        ),
        (
            json!({"operation":"find","symbol":"Shape"}),
            "Shape (interface) at J/shapes/Shape.java:4\n  public interface Shape\n  // Anything with an area.",
        ),
        // The package qualifies; a nested class by its outer class.
        (
            json!({"operation":"find","symbol":"canvas.Canvas.Builder"}),
            "Canvas.Builder (class) at J/canvas/Canvas.java:28\n  public static class Builder\n  // Builds canvases.",
        ),
        (
            json!({"operation":"find","symbol":"Mode"}),
            "App.Mode (type) at J/App.java:8\n  enum Mode { FAST, SLOW }",
        ),
        // The line after the annotation.
        (
            json!({"operation":"find","symbol":"Polygon.draw"}),
            "Polygon.draw (method) at J/shapes/Polygon.java:9\n  public void draw(Canvas canvas)",
        ),
    ] {
        assert_eq!(jtext(args), want);
    }
}

#[test]
fn java_callers_static_imports_this_and_typed_values() {
    // `MathUtil.square(side)` and a static import.
    assert_eq!(
        jtext(json!({"operation":"callers","symbol":"MathUtil.square"})),
        "MathUtil.square (method) at J/util/MathUtil.java:7\n\nCallers:\n  Circle.area (method) at J/shapes/Circle.java:12\n  Square.area (method) at J/shapes/Square.java:15"
    );
    // An unqualified call is on `this`; a field through `import com.acme.util.*`.
    assert_eq!(
        jtext(json!({"operation":"callers","symbol":"Logger.info"})),
        "Logger.info (method) at J/util/Logger.java:11\n\nCallers:\n  Canvas.add (method) at J/canvas/Canvas.java:15\n  Logger.warn (method) at J/util/Logger.java:16"
    );
    // A for-each variable's declared type.
    assert_eq!(
        jtext(json!({"operation":"callers","symbol":"Shape.area"})),
        "Shape.area (method) at J/shapes/Shape.java:5\n\nCallers:\n  Canvas.render (method) at J/canvas/Canvas.java:21\n  Shape.describe (method) at J/shapes/Shape.java:9"
    );
    assert_eq!(
        jtext(json!({"operation":"callers","symbol":"Canvas.add"})),
        "Canvas.add (method) at J/canvas/Canvas.java:13\n\nCallers:\n  App.main (method) at J/App.java:12 (+1 more calls)\n  Circle.draw (method) at J/shapes/Circle.java:16\n  Polygon.draw (method) at J/shapes/Polygon.java:10"
    );
}

#[test]
fn java_unqualified_call_in_a_nested_class_reaches_the_outer_class() {
    assert_eq!(
        jtext(json!({"operation":"callers","symbol":"Canvas.create"})),
        "Canvas.create (method) at J/canvas/Canvas.java:34\n\nCallers:\n  Canvas.Builder.build (method) at J/canvas/Canvas.java:30"
    );
}

#[test]
fn java_callees_with_constructors_and_nested_classes() {
    assert_eq!(
        jtext(json!({"operation":"callees","symbol":"App.main"})),
        "App.main (method) at J/App.java:10\n\nCallees:\n  Canvas.Builder (class) at J/canvas/Canvas.java:28, called at line 11\n  Canvas.Builder.build (method) at J/canvas/Canvas.java:29, called at line 11\n  Canvas.add (method) at J/canvas/Canvas.java:13, called at line 12 (+1 more calls)\n  Canvas.render (method) at J/canvas/Canvas.java:18, called at line 14\n  Circle (class) at J/shapes/Circle.java:8, called at line 13\n  Square (class) at J/shapes/Square.java:5, called at line 12"
    );
}

#[test]
fn java_implementations_methods_usages_and_trace() {
    assert_eq!(
        jtext(json!({"operation":"implementations","symbol":"Shape"})),
        "Shape (interface) at J/shapes/Shape.java:4\n\nImplementations:\n  Drawable (interface) at J/shapes/Drawable.java:6\n  Circle (class) at J/shapes/Circle.java:8 (via Drawable)\n  Polygon (class) at J/shapes/Polygon.java:5 (via Drawable)\n  Square (class) at J/shapes/Square.java:5 (via Polygon)"
    );
    // The constructor, an override, and what is inherited from the class and the interface.
    assert_eq!(
        jtext(json!({"operation":"methods","symbol":"Square"})),
        "Square (class) at J/shapes/Square.java:5\n\nMethods:\n  Square.Square (method) at J/shapes/Square.java:8\n  Square.area (method) at J/shapes/Square.java:14\n  Polygon.draw (method) at J/shapes/Polygon.java:9 (inherited from Polygon)\n  Shape.describe (method) at J/shapes/Shape.java:8 (inherited from Shape)"
    );
    assert_eq!(
        jtext(json!({"operation":"usages","symbol":"Canvas"})),
        "Canvas (class) at J/canvas/Canvas.java:9\n\nConstructed by (calls of the type):\n  Canvas.create (method) at J/canvas/Canvas.java:35\nUsed by (parameters or results):\n  Canvas.Builder.build (method) at J/canvas/Canvas.java:29\n  Canvas.create (method) at J/canvas/Canvas.java:34\n  Circle.draw (method) at J/shapes/Circle.java:15\n  Drawable.draw (method) at J/shapes/Drawable.java:7\n  Polygon.draw (method) at J/shapes/Polygon.java:9"
    );
    assert_eq!(
        jtext(json!({"operation":"trace","symbol":"main","to":"Logger.write"})),
        "Call path from App.main to Logger.write (3 calls):\n  App.main (method) at J/App.java:10\n  -> Canvas.add (method) at J/canvas/Canvas.java:13, called at J/App.java:12\n  -> Logger.info (method) at J/util/Logger.java:11, called at J/canvas/Canvas.java:15\n  -> Logger.write (method) at J/util/Logger.java:20, called at J/util/Logger.java:12"
    );
}

#[test]
fn a_recursive_call_is_one_of_the_callers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("go.mod"),
        "module example.com/rec\n\ngo 1.22\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("cmd.go"),
        "package rec\n\ntype Command struct{ parent *Command }\n\nfunc (c *Command) Root() *Command {\n\tif c.parent != nil {\n\t\treturn c.parent.Root()\n\t}\n\treturn c\n}\n\nfunc (c *Command) Execute() error {\n\tif c.parent != nil {\n\t\treturn c.Root().Execute()\n\t}\n\treturn nil\n}\n\nfunc Main() { _ = (&Command{}).Execute() }\n",
    )
    .unwrap();
    let tool = tool_for(dir.path());
    let out = text(&tool, json!({"operation": "callers", "symbol": "Execute"}));
    assert!(
        out.contains("Command.Execute (method) at cmd.go:14"),
        "{out}"
    );
    assert!(out.contains("Main (function) at cmd.go:19"), "{out}");
    // Two levels up: the recursion is listed once and not walked again.
    let out = text(
        &tool,
        json!({"operation": "callers", "symbol": "Execute", "depth": 2}),
    );
    assert_eq!(out.matches("Command.Execute (method)").count(), 2, "{out}");
}

/// A struct that embeds a standard-library type (`*sql.DB`, `sync.Mutex`) or interface
/// (`http.ResponseWriter`) has its methods: sqlx's `DB` adds `Queryx` to `*sql.DB`'s
/// `Query` and so implements `Queryer`. A struct with only its own `Queryx` does not, and
/// a local type named like a standard one promotes nothing it does not declare.
#[test]
fn embedded_standard_library_types_promote_their_methods() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("go.mod"),
        "module example.com/db\n\ngo 1.22\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("db.go"),
        "package db\n\nimport (\n\t\"database/sql\"\n\t\"net/http\"\n\t\"sync\"\n)\n\n// Queryer queries.\ntype Queryer interface {\n\tQuery(q string, args ...interface{}) (*sql.Rows, error)\n\tQueryx(q string, args ...interface{}) (*Rows, error)\n}\n\ntype Rows struct{ *sql.Rows }\n\ntype DB struct {\n\t*sql.DB\n\tdriverName string\n}\n\nfunc (db *DB) Queryx(q string, args ...interface{}) (*Rows, error) { return nil, nil }\n\ntype Lonely struct{}\n\nfunc (l *Lonely) Queryx(q string, args ...interface{}) (*Rows, error) { return nil, nil }\n\ntype Locker interface {\n\tLock()\n\tUnlock()\n}\n\ntype Guarded struct {\n\tsync.Mutex\n\tn int\n}\n\ntype Flusher interface {\n\tHeader() http.Header\n\tWrite([]byte) (int, error)\n\tWriteHeader(int)\n\tFlush()\n}\n\ntype flushWriter struct{ http.ResponseWriter }\n\nfunc (w flushWriter) Flush() {}\n",
    )
    .unwrap();
    let tool = tool_for(dir.path());
    let out = text(
        &tool,
        json!({"operation": "implementations", "symbol": "Queryer"}),
    );
    assert!(out.contains("DB (struct) at db.go:17"), "{out}");
    assert!(!out.contains("Lonely"), "{out}");
    let out = text(
        &tool,
        json!({"operation": "implementations", "symbol": "Locker"}),
    );
    assert!(out.contains("Guarded (struct) at db.go:33"), "{out}");
    let out = text(
        &tool,
        json!({"operation": "implementations", "symbol": "Flusher"}),
    );
    assert!(out.contains("flushWriter (struct) at db.go:45"), "{out}");
}

// ---- py-mini (Python) ----

fn py_mini() -> &'static CodeTool {
    static T: OnceLock<CodeTool> = OnceLock::new();
    T.get_or_init(|| {
        tool_for(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/py-mini"))
    })
}

/// A name bound once to a class, a function or a bound method is resolved through that
/// binding: `_Segment = Segment` in a function and `_Seg = Segment` at module level make
/// `_Segment.set_shape(…)` a call of `Segment.set_shape`; `render_str =
/// console.render_str` (an annotated parameter) makes `render_str(…)` one of
/// `Console.render_str`. A name bound twice (`shape` in `rebound`) or bound to a
/// parameter (`render` in `shadowed`) is not followed.
#[test]
fn python_calls_through_a_local_or_module_alias() {
    for (args, want) in [
        (
            json!({"operation":"callers","symbol":"Segment.set_shape"}),
            "Segment.set_shape (method) at shapes/segment.py:8\n\nCallers:\n  Console.measure (method) at shapes/console.py:32\n  Table.render (method) at shapes/table.py:12",
        ),
        (
            json!({"operation":"callers","symbol":"Console.render_str"}),
            "Console.render_str (method) at shapes/console.py:19\n\nCallers:\n  Table.render (method) at shapes/table.py:11",
        ),
        (
            json!({"operation":"callees","symbol":"Table.rebound"}),
            "Table.rebound (method) at shapes/table.py:17\n\nCallees: none found. Calls through interfaces, function values or reflection may not be linked; try rg -n \"rebound(\" with the bash tool.",
        ),
        (
            json!({"operation":"callees","symbol":"Table.shadowed"}),
            "Table.shadowed (method) at shapes/table.py:22\n\nCallees: none found. Calls through interfaces, function values or reflection may not be linked; try rg -n \"shadowed(\" with the bash tool.",
        ),
    ] {
        assert_eq!(text(py_mini(), args), want);
    }
}

/// A call through a module-level variable is a call of its type's method: Go's `var
/// CommandLine = NewFlagSet(…)` (a constructor's result) and `var std *FlagSet` (a
/// declared type), Python's `service = Service()`. A value the repository does not
/// define (`logging.getLogger(…)`) links nothing, not a guess by name.
#[test]
fn calls_through_a_module_level_variable() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, s).unwrap();
    };
    w("go.mod", "module example.com/flags\n\ngo 1.22\n");
    w(
        "flag.go",
        "package flags\n\ntype FlagSet struct{}\n\nfunc NewFlagSet() *FlagSet { return &FlagSet{} }\n\nfunc (f *FlagSet) VarPF() {}\n\nvar CommandLine = NewFlagSet()\n\nvar std *FlagSet\n",
    );
    w(
        "bool.go",
        "package flags\n\nfunc BoolVarP() {\n\tCommandLine.VarPF()\n}\n\nfunc Std() {\n\tstd.VarPF()\n}\n",
    );
    w(
        "svc.py",
        "class Service:\n    def start(self):\n        pass\n\nclass Other:\n    def start(self):\n        pass\n\n    def info(self):\n        pass\n",
    );
    w(
        "app.py",
        "import logging\nfrom svc import Service\n\nservice = Service()\nlog = logging.getLogger(__name__)\n\ndef handler():\n    service.start()\n    log.info('x')\n",
    );
    let tool = tool_for(dir.path());
    for (symbol, want) in [
        (
            "FlagSet.VarPF",
            "FlagSet.VarPF (method) at flag.go:7\n\nCallers:\n  BoolVarP (function) at bool.go:4\n  Std (function) at bool.go:8",
        ),
        (
            "Service.start",
            "Service.start (method) at svc.py:2\n\nCallers:\n  handler (function) at app.py:8",
        ),
    ] {
        assert_eq!(
            text(&tool, json!({"operation":"callers","symbol":symbol})),
            want
        );
    }
    for symbol in ["Other.start", "Other.info"] {
        let out = text(&tool, json!({"operation":"callers","symbol":symbol}));
        assert!(out.contains("Callers: none found"), "{out}");
    }
}

/// Module-level values that hold each other (`var A = B.F()`, `var B = A.G()`; hostile or
/// broken code) resolve to nothing, in bounded depth: no stack overflow, no guessed edge.
#[test]
fn module_level_values_that_hold_each_other_resolve_to_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| std::fs::write(dir.path().join(p), s).unwrap();
    w("go.mod", "module x\n\ngo 1.22\n");
    w(
        "a.go",
        "package x\n\nvar A = B.F()\n\nvar B = A.G()\n\nfunc Use() {\n\tA.X()\n}\n",
    );
    w("m.py", "a = b.f()\nb = a.g()\n\ndef use():\n    a.x()\n");
    let tool = tool_for(dir.path());
    for (symbol, at) in [("Use", "a.go:7"), ("use", "m.py:4")] {
        let out = text(&tool, json!({"operation":"callees","symbol":symbol}));
        assert!(
            out.starts_with(&format!(
                "{symbol} (function) at {at}\n\nCallees: none found"
            )),
            "{out}"
        );
    }
}

/// Applying a decorator calls it: `@retry(max_attempts=3)` on a method and `@retry` on a
/// module-level function are calls of `retry` made by the function they decorate, at the
/// decorator's line; `@property` and `@staticmethod` link nothing.
#[test]
fn python_decorators_are_calls_of_the_decorated_definition() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| std::fs::write(dir.path().join(p), s).unwrap();
    w(
        "retry.py",
        "def retry(fn=None, max_attempts=1):\n    return fn\n",
    );
    w(
        "worker.py",
        "from retry import retry\n\n\nclass Worker:\n    @property\n    def name(self):\n        return 'w'\n\n    @staticmethod\n    @retry(max_attempts=3)\n    def process():\n        pass\n\n\n@retry\ndef job():\n    pass\n",
    );
    let tool = tool_for(dir.path());
    assert_eq!(
        text(&tool, json!({"operation":"callers","symbol":"retry"})),
        "retry (function) at retry.py:1\n\nCallers:\n  Worker.process (method) at worker.py:10\n  job (function) at worker.py:15"
    );
    assert_eq!(
        text(&tool, json!({"operation":"callees","symbol":"Worker.name"})),
        "Worker.name (method) at worker.py:6\n\nCallees: none found. Calls through interfaces, function values or reflection may not be linked; try rg -n \"name(\" with the bash tool."
    );
}

/// A `@property` is an attribute of its class: of the type its return annotation names
/// (`options -> "Options"`), else of what its one `return` gives (`size` returns
/// `self._options`, an `Options()`), so calls on it are precise, not name matches.
#[test]
fn python_calls_on_a_property() {
    assert_eq!(
        text(
            py_mini(),
            json!({"operation":"callers","symbol":"Options.update"})
        ),
        "Options.update (method) at shapes/console.py:11\n\nCallers:\n  Table.render (method) at shapes/table.py:13 (+1 more calls)"
    );
    let graph = py_mini().graph().unwrap();
    let update = graph
        .find(&SymbolQuery::new("Options.update"))
        .pop()
        .unwrap()
        .id;
    let calls: Vec<(u32, bool)> = graph
        .edges()
        .iter()
        .filter(|e| e.kind == EdgeKind::Calls && e.to == update)
        .map(|e| (e.line, e.inferred))
        .collect();
    assert_eq!(calls, [(13, false), (14, false)]);
}

// ---- overloads: a parameter list in `symbol` ----

/// `Interp.eval(String)` picks the overload whose parameter types match, by simple type
/// names in order (a header over several lines, with a comment, included); a list no
/// overload matches lists them all.
#[test]
fn java_find_an_overload_by_its_parameter_types() {
    for (args, want) in [
        (
            json!({"operation":"find","symbol":"Interp.eval(String)"}),
            "Interp.eval (method) at J/util/Interp.java:20\n  public Object eval(String statements) throws Exception",
        ),
        (
            json!({"operation":"find","symbol":"eval(java.io.Reader in, String name)"}),
            "Interp.eval (method) at J/util/Interp.java:9\n  public Object eval(Reader in, String name) throws Exception",
        ),
        (
            json!({"operation":"find","symbol":"Interp.eval(String, Map<String, Object>)"}),
            "Interp.eval (method) at J/util/Interp.java:24\n  public Object eval(final String statements, Map<String, Object> scope) throws Exception",
        ),
        (
            json!({"operation":"find","symbol":"join(String, String, String)"}),
            "Interp.join (method) at J/util/Interp.java:28\n  public static String join(String sep, String... parts)",
        ),
        (
            json!({"operation":"find","symbol":"Interp.eval(int)"}),
            "Found 4 symbols matching \"Interp.eval(int)\":\n  Interp.eval (method) at J/util/Interp.java:9\n  Interp.eval (method) at J/util/Interp.java:16\n  Interp.eval (method) at J/util/Interp.java:20\n  Interp.eval (method) at J/util/Interp.java:24",
        ),
        // An empty list is no list.
        (
            json!({"operation":"find","symbol":"Interp.join()"}),
            "Interp.join (method) at J/util/Interp.java:28\n  public static String join(String sep, String... parts)",
        ),
    ] {
        assert_eq!(jtext(args), want);
    }
    // Relationship operations resolve the overload the same way.
    assert_eq!(
        jtext(json!({"operation":"callees","symbol":"Interp.eval(Reader)"})),
        "Interp.eval (method) at J/util/Interp.java:16\n\nCallees:\n  Interp.eval (method) at J/util/Interp.java:9, called at line 17"
    );
}

/// A Python parameter without an annotation matches any type; `cls` and `self` are not
/// parameters.
#[test]
fn python_parameter_lists_match_untyped_parameters() {
    assert_eq!(
        text(
            py_mini(),
            json!({"operation":"find","symbol":"Segment.set_shape(list, int)"})
        ),
        "Segment.set_shape (method) at shapes/segment.py:8\n  def set_shape(cls, lines, width):"
    );
}

/// A type is used where it is called as well as where a signature names it: `usages` of a
/// Python exception lists the functions that raise it (a call of the class), each at the
/// line, before the functions whose annotations name it; a type nothing calls has no such
/// section.
#[test]
fn usages_of_a_class_list_where_it_is_constructed() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| std::fs::write(dir.path().join(p), s).unwrap();
    w(
        "errors.py",
        "class NotAClassError(ValueError):\n    pass\n\n\nclass Unused:\n    pass\n",
    );
    w(
        "fields.py",
        "from errors import NotAClassError, Unused\n\n\ndef fields(cls):\n    if cls is None:\n        raise NotAClassError('no class')\n    return cls\n\n\ndef check(e: NotAClassError) -> Unused:\n    return None\n",
    );
    let tool = tool_for(dir.path());
    assert_eq!(
        text(
            &tool,
            json!({"operation":"usages","symbol":"NotAClassError"})
        ),
        "NotAClassError (class) at errors.py:1\n\nConstructed by (calls of the type):\n  fields (function) at fields.py:6\nUsed by (parameters or results):\n  check (function) at fields.py:10"
    );
    assert_eq!(
        text(&tool, json!({"operation":"usages","symbol":"Unused"})),
        "Unused (class) at errors.py:5\n\nUsed by (parameters or results):\n  check (function) at fields.py:10"
    );
}

/// A Go type assertion gives its variable the asserted type (`list, ok :=
/// node.(*ObjectList)`, `x := v.(Lister)`), so calls on it link to that type's methods
/// instead of being guessed from the method name among every `Filter`.
#[test]
fn go_a_type_assertion_types_its_variable() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| std::fs::write(dir.path().join(p), s).unwrap();
    w("go.mod", "module example.com/conf\n\ngo 1.22\n");
    w(
        "ast.go",
        "package conf\n\ntype Node interface{}\n\ntype ObjectList struct{}\n\nfunc (o *ObjectList) Filter(k string) *ObjectList { return o }\n\ntype Index struct{}\n\nfunc (i *Index) Filter(k string) *Index { return i }\n",
    );
    w(
        "decode.go",
        "package conf\n\nfunc decode(node Node) {\n\tlist, ok := node.(*ObjectList)\n\tif ok {\n\t\tlist.Filter(\"a\")\n\t}\n\tone := node.(*ObjectList)\n\tone.Filter(\"b\")\n}\n",
    );
    let tool = tool_for(dir.path());
    assert_eq!(
        text(
            &tool,
            json!({"operation":"callers","symbol":"ObjectList.Filter"})
        ),
        "ObjectList.Filter (method) at ast.go:7\n\nCallers:\n  decode (function) at decode.go:6 (+1 more calls)"
    );
    assert_eq!(
        text(
            &tool,
            json!({"operation":"callers","symbol":"Index.Filter"})
        ),
        "Index.Filter (method) at ast.go:11\n\nCallers: none found. Calls through interfaces, function values or reflection may not be linked; try rg -n \"Filter(\" with the bash tool."
    );
}

/// Names, paths, signatures and doc comments come from the repository's files: a bidi
/// override in a doc comment, a terminal escape in a signature's default and a file name
/// with a newline (which would forge a result line) are escaped as `read` escapes them,
/// with the same note.
#[test]
fn code_output_escapes_hidden_characters_from_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("go.mod"),
        "module example.com/t\n\ngo 1.22\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("auth.go"),
        "package t\n\n// Check reports whether the user is an admin.\u{202e} } \u{2066}\nfunc Check() bool { return true }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("x\nForged (function) at auth.go:1.go"),
        "package t\n\nfunc Evil() {}\n",
    )
    .unwrap();
    let tool = tool_for(dir.path());
    assert_eq!(
        text(&tool, json!({"operation": "find", "symbol": "Check"})),
        "Check (function) at auth.go:4\n  func Check() bool { return true }\n  // Check reports whether the user is an admin.\\u{202e} } \\u{2066}\n\
         [note: 2 hidden or control characters shown as escapes (in names, paths or signatures from the repository): \\u{202e} (bidi control), \\u{2066} (bidi control); an editor or terminal would display this text differently]"
    );
    let out = tool
        .call(&json!({"operation": "find", "symbol": "Evil"}))
        .unwrap();
    assert_eq!(
        out.text,
        "Evil (function) at x\\nForged (function) at auth.go:1.go:3\n  func Evil() {}"
    );
}

/// The `file` filter names a place in the repository, so a path outside it (absolute,
/// `..`, `~`, a symlink that leads out) is refused with the error `read` gives for it,
/// instead of quietly finding nothing there. A suffix that is not a path from the root
/// (`plan.go` for `internal/brain/plan.go`) still filters.
#[test]
fn code_file_filter_outside_the_repository_is_refused_like_read() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join("internal/brain")).unwrap();
    std::fs::create_dir_all(dir.path().join("outside")).unwrap();
    std::fs::write(repo.join("go.mod"), "module example.com/t\n\ngo 1.22\n").unwrap();
    std::fs::write(
        repo.join("internal/brain/plan.go"),
        "package brain\n\nfunc Plan() {}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("outside/x.go"),
        "package x\n\nfunc Plan() {}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("../outside", repo.join("out")).unwrap();
    let root = RepoRoot::new(&repo).unwrap();
    let tool = tool_for(&repo);
    for file in [
        "/etc/passwd",
        "../outside/x.go",
        "internal/../../outside",
        "~/x.go",
        "out",
        "out/x.go",
        " ../outside/x.go ",
    ] {
        let err = tool
            .call(&json!({"operation": "find", "symbol": "Plan", "file": file}))
            .unwrap_err();
        let want = root.resolve(file.trim()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Refused, "{file}: {err}");
        assert_eq!(err.to_string(), want.to_string(), "{file}");
        assert!(err.to_string().starts_with("Path refused: "), "{err}");
    }
    for file in ["plan.go", "brain", "internal/brain/plan.go", "./internal"] {
        assert_eq!(
            text(
                &tool,
                json!({"operation": "find", "symbol": "Plan", "file": file})
            ),
            "Plan (function) at internal/brain/plan.go:3\n  func Plan() {}",
            "{file}"
        );
    }
}

/// Go interfaces are matched by method names in the graph; a type whose method of that
/// name takes other parameters or returns other results does not implement it, nor do
/// calls through the interface reach that method.
#[test]
fn go_methods_of_another_shape_do_not_implement() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| std::fs::write(dir.path().join(p), s).unwrap();
    w("go.mod", "module example.com/q\n\ngo 1.22\n");
    w(
        "q.go",
        "package q\n\n\
         type Queryer interface {\n\
         \tQuery(query string, args ...any) (int, error)\n\
         \tClose() error\n\
         }\n\n\
         type DB struct{}\n\n\
         func (d *DB) Query(query string, args ...any) (int, error) { return 0, nil }\n\n\
         func (d *DB) Close() error { return nil }\n\n\
         type Named struct{}\n\n\
         func (n *Named) Query(arg any) (int, error) { return 0, nil }\n\n\
         func (n *Named) Close() error { return nil }\n\n\
         type Wide struct{}\n\n\
         func (w *Wide) Query(\n\
         \tquery string,\n\
         \targs ...any,\n\
         ) (int, error) {\n\
         \treturn 0, nil\n\
         }\n\n\
         func (w *Wide) Close() error { return nil }\n\n\
         func Run(q Queryer) { q.Query(\"x\") }\n",
    );
    let tool = tool_for(dir.path());
    assert_eq!(
        text(
            &tool,
            json!({"operation":"implementations","symbol":"Queryer"})
        ),
        "Queryer (interface) at q.go:3\n\nImplementations:\n  DB (struct) at q.go:8\n  Wide (struct) at q.go:20",
        "Named.Query takes one argument; Wide's list is broken over lines, so its shape is unknown and kept"
    );
    let named = text(&tool, json!({"operation":"callers","symbol":"Named.Query"}));
    assert!(!named.contains("Run"), "{named}");
    let db = text(&tool, json!({"operation":"callers","symbol":"DB.Query"}));
    assert!(db.contains("Run (function)"), "{db}");
}

/// An unexported Go method can only be called from its own package: on a receiver of
/// unknown type (a range variable) the package's one method of that name is the one
/// called, not a guess, and a same-named method of another package is no candidate.
#[test]
fn go_unexported_methods_resolve_within_their_package() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, s).unwrap();
    };
    w("go.mod", "module example.com/ini\n\ngo 1.22\n");
    w(
        "ini.go",
        "package ini\n\n\
         type Section struct{}\n\n\
         func (s *Section) mapTo() error { return nil }\n\n\
         func (s *Section) Sections() []*Section { return nil }\n\n\
         func (s *Section) mapAll() {\n\
         \tfor _, sec := range s.Sections() {\n\
         \t\tsec.mapTo()\n\
         \t}\n\
         }\n",
    );
    w(
        "other/other.go",
        "package other\n\n\
         type Thing struct{}\n\n\
         func (t *Thing) mapTo() error { return nil }\n",
    );
    let tool = tool_for(dir.path());
    assert_eq!(
        text(
            &tool,
            json!({"operation":"callers","symbol":"Section.mapTo"})
        ),
        "Section.mapTo (method) at ini.go:5\n\nCallers:\n  Section.mapAll (method) at ini.go:11"
    );
    let other = text(&tool, json!({"operation":"callers","symbol":"Thing.mapTo"}));
    assert!(!other.contains("mapAll"), "{other}");
}

/// A Go repository without `go.mod` (a GOPATH checkout, a distribution's package) knows
/// its packages by directory, while its files import them by full path: the imports
/// still link, before and after a refresh that adds the imported package.
#[test]
fn go_imports_by_full_path_link_without_go_mod() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w(
        "syntax/syntax.go",
        "package syntax\n\nimport (\n\t\"github.com/acme/glob/syntax/lexer\"\n\tj \"encoding/json\"\n)\n\nfunc Parse(s string) int {\n\t_ = j.Valid(nil)\n\treturn lexer.Lex(s)\n}\n",
    );
    w(
        "syntax/lexer/lexer.go",
        "package lexer\n\nfunc Lex(s string) int { return len(s) }\n",
    );
    w(
        "glob.go",
        "package glob\n\nimport \"github.com/acme/glob/syntax\"\n\nfunc Compile(p string) int {\n\treturn syntax.Parse(p) + match.Count()\n}\n",
    );
    // A local package named like a standard library one is not what `encoding/json` is.
    w(
        "json/json.go",
        "package json\n\nfunc Valid(b []byte) bool { return true }\n",
    );
    let tool = || repo.tool();
    assert_eq!(
        text(
            &tool(),
            json!({"operation":"callees","symbol":"syntax.Parse"})
        ),
        "Parse (function) at syntax/syntax.go:8\n\nCallees:\n  Lex (function) at syntax/lexer/lexer.go:3, called at line 10"
    );
    assert_eq!(
        text(&tool(), json!({"operation":"callers","symbol":"Parse"})),
        "Parse (function) at syntax/syntax.go:8\n\nCallers:\n  Compile (function) at glob.go:6"
    );
    // The package `match` arrives after the first index: the refresh links its import.
    w(
        "glob.go",
        "package glob\n\nimport (\n\t\"github.com/acme/glob/match\"\n\t\"github.com/acme/glob/syntax\"\n)\n\nfunc Compile(p string) int {\n\treturn syntax.Parse(p) + match.Count()\n}\n",
    );
    let before = text(&tool(), json!({"operation":"callers","symbol":"Parse"}));
    assert!(
        before.contains("Compile (function) at glob.go:9"),
        "{before}"
    );
    w(
        "match/match.go",
        "package match\n\nfunc Count() int { return 1 }\n",
    );
    assert_eq!(
        text(&tool(), json!({"operation":"callers","symbol":"Count"})),
        "Count (function) at match/match.go:3\n\nCallers:\n  Compile (function) at glob.go:9"
    );
}

/// `usages` of a Python module-level constant: each function, method or class that reads
/// or assigns it, by name, through its module (`config.LIMIT`, `pkg.config.LIMIT`), in a
/// parameter's default or a class attribute; a local of the same name is not it.
#[test]
fn python_module_constant_usages() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w("pkg/__init__.py", "");
    w(
        "pkg/config.py",
        "LIMIT = 10\n\n\ndef bump():\n    global LIMIT\n    LIMIT = LIMIT + 1\n",
    );
    w(
        "pkg/use.py",
        "import pkg\nfrom pkg import config\nfrom pkg.config import LIMIT\n\n\ndef direct(x):\n    return x < LIMIT\n\n\ndef through(x):\n    return x < config.LIMIT\n\n\ndef dotted(x=pkg.config.LIMIT):\n    return x\n\n\nclass Box:\n    size = LIMIT * 2\n\n\ndef shadow():\n    LIMIT = 3\n    return LIMIT\n\n\ndef call_only():\n    return len([LIMIT.bit_length()])\n",
    );
    let tool = repo.tool();
    assert_eq!(
        text(&tool, json!({"operation":"usages","symbol":"LIMIT"})),
        "LIMIT (const) at pkg/config.py:1\n\nRead or assigned by:\n  bump (function) at pkg/config.py:6\n  direct (function) at pkg/use.py:7\n  through (function) at pkg/use.py:11\n  dotted (function) at pkg/use.py:14\n  Box (class) at pkg/use.py:19\n  call_only (function) at pkg/use.py:28"
    );
}

/// `usages` of a TypeScript module-level constant: through a named import, a `{ name }`
/// shorthand, a member chain and a module-level initializer; a destructured local or a
/// nested function's parameter of the same name is not it.
#[test]
fn typescript_module_constant_usages() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w(
        "src/ops.ts",
        "export const operators = { ADD: \"+\", SUB: \"-\" }\n\nexport function add(a: number): string {\n  return `${a}${operators.ADD}`\n}\n",
    );
    w(
        "src/use.ts",
        "import { operators } from \"./ops\"\nimport * as ops from \"./ops\"\n\nconst table = operators\n\nexport function pack(): object {\n  return { operators }\n}\n\nexport function viaNamespace(): string {\n  return ops.operators.SUB\n}\n\nexport function shadows(): string {\n  const { operators } = { operators: \"x\" }\n  return [1].map((operators) => operators).join() + operators\n}\n",
    );
    let tool = repo.tool();
    assert_eq!(
        text(&tool, json!({"operation":"usages","symbol":"operators"})),
        "operators (const) at src/ops.ts:1\n\nRead or assigned by:\n  add (function) at src/ops.ts:4\n  table (const) at src/use.ts:4\n  pack (function) at src/use.ts:7\n  viaNamespace (function) at src/use.ts:11"
    );
}

/// `usages` of a Rust `const`: by name through a `use` or in another const's initializer,
/// by path (`parser::LIMIT`, another crate's `explore_a::parser::LIMIT`), inside a
/// macro's arguments; a local in a function that never imports it is not it.
#[test]
fn rust_const_usages() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w("crates/a/src/lib.rs", "pub mod parser;\npub mod run;\n");
    w(
        "crates/a/src/parser.rs",
        "pub const LIMIT: usize = 3;\npub const DOUBLE: usize = LIMIT * 2;\n",
    );
    w(
        "crates/a/src/run.rs",
        "use crate::parser::LIMIT;\n\npub fn under(n: usize) -> bool {\n    n < LIMIT\n}\n\npub fn checked(n: usize) {\n    assert!(n < crate::parser::LIMIT, \"too many\");\n}\n",
    );
    w(
        "crates/b/src/main.rs",
        "fn main() {\n    let v = vec![explore_a::parser::LIMIT];\n    let LIMIT_LOCAL = v.len();\n    println!(\"{LIMIT_LOCAL}\");\n}\n\nfn other() -> usize {\n    let limit = 2;\n    limit\n}\n",
    );
    let tool = repo.tool();
    assert_eq!(
        text(&tool, json!({"operation":"usages","symbol":"LIMIT"})),
        "LIMIT (const) at crates/a/src/parser.rs:1\n\nRead or assigned by:\n  DOUBLE (const) at crates/a/src/parser.rs:2\n  under (function) at crates/a/src/run.rs:4\n  checked (function) at crates/a/src/run.rs:8\n  main (function) at crates/b/src/main.rs:2"
    );
}

/// A whole `require('m')` is the module's `module.exports`: its default export when it
/// assigns one (a class `extends` it, a call calls it), the module itself when it only
/// adds `exports.f` members (which `m.f()` then names).
#[test]
fn a_whole_require_is_what_module_exports_holds() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w(
        "lib/base-cmd.js",
        "class BaseCommand {\n  exec () {}\n}\n\nmodule.exports = BaseCommand\n",
    );
    w(
        "lib/commands/install.js",
        "const BaseCommand = require('../base-cmd.js')\nconst util = require('../util')\n\nclass Install extends BaseCommand {\n  exec () {\n    return util.quote('x')\n  }\n}\n\nmodule.exports = Install\n",
    );
    w(
        "lib/commands/ci.js",
        "const Install = require('./install')\n\nclass CI extends Install {}\n\nmodule.exports = CI\n",
    );
    w(
        "lib/util.js",
        "exports.quote = function (s) {\n  return s\n}\n",
    );
    let tool = repo.tool();
    let subs = text(
        &tool,
        json!({"operation": "implementations", "symbol": "BaseCommand"}),
    );
    assert!(
        subs.contains("Install (class) at lib/commands/install.js:4"),
        "{subs}"
    );
    assert!(
        subs.contains("CI (class) at lib/commands/ci.js:3"),
        "{subs}"
    );
    let callers = text(&tool, json!({"operation": "callers", "symbol": "quote"}));
    assert!(
        callers.contains("Install.exec (method) at lib/commands/install.js:6"),
        "{callers}"
    );
}

/// A CommonJS mixin (`module.exports = cls => class Reifier extends cls { … }`) is a
/// class of the module like any other: its methods are found.
#[test]
fn a_commonjs_mixin_class_is_the_modules_class() {
    let repo = Repo::empty();
    repo.write(
        "lib/reify.js",
        "const fs = require('fs')\n\nmodule.exports = cls => class Reifier extends cls {\n  async reify (options) {\n    return this.diff(options)\n  }\n\n  diff (o) {\n    return o\n  }\n}\n",
    );
    let tool = repo.tool();
    let found = text(
        &tool,
        json!({"operation": "find", "symbol": "Reifier.reify"}),
    );
    assert!(
        found.contains("Reifier.reify (method) at lib/reify.js:4"),
        "{found}"
    );
    let callers = text(
        &tool,
        json!({"operation": "callers", "symbol": "Reifier.diff"}),
    );
    assert!(
        callers.contains("Reifier.reify (method) at lib/reify.js:5"),
        "{callers}"
    );
}

/// A value of a type parameter with several bounds calls the method of the bound that
/// declares it (`i.compare_no_case(t)` with `I: InputTake + Compare<T>` is
/// `Compare.compare_no_case`), in a function body and in a closure's typed parameter;
/// the other bound's same-named method is not called.
#[test]
fn rust_a_value_with_several_bounds_calls_the_bound_that_has_the_method() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w("src/lib.rs", "pub mod traits;\npub mod bytes;\n");
    w(
        "src/traits.rs",
        "pub trait InputTake {\n    fn take(&self, n: usize) -> Self;\n}\n\npub trait Compare<T> {\n    fn compare_no_case(&self, t: T) -> bool;\n}\n\npub trait Other {\n    fn compare_no_case(&self) -> bool;\n}\n",
    );
    w(
        "src/bytes.rs",
        "use crate::traits::{Compare, InputTake};\n\npub fn tag<I: InputTake + Compare<u8>>(i: I) -> bool {\n    i.compare_no_case(1)\n}\n\npub fn tag_no_case<T, I>(t: T) -> impl Fn(I) -> bool\nwhere\n    I: InputTake + Compare<T>,\n    T: Clone,\n{\n    move |i: I| (i).compare_no_case(t.clone())\n}\n",
    );
    let tool = repo.tool();
    assert_eq!(
        text(
            &tool,
            json!({"operation":"callers","symbol":"Compare.compare_no_case"})
        ),
        "Compare.compare_no_case (method) at src/traits.rs:6\n\nCallers:\n  tag (function) at src/bytes.rs:4\n  tag_no_case (function) at src/bytes.rs:12"
    );
    assert!(
        text(
            &tool,
            json!({"operation":"callers","symbol":"Other.compare_no_case"})
        )
        .contains("none found")
    );
}

/// A type named as a value in a body (a `case` label, `instanceof`, `isinstance`, an
/// `except` clause) is a usage of it, cited at the line where; a signature that names it
/// stays a use "by parameters or results", and neither is the other.
#[test]
fn a_type_named_as_a_value_is_referenced_where_it_is_named() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w(
        "src/content.js",
        "export class ContentDeleted {\n  constructor (len) {\n    this.len = len\n  }\n}\n",
    );
    w(
        "src/updates.js",
        "import { ContentDeleted } from './content.js'\n\nexport const obfuscate = (content) => {\n  switch (content.constructor) {\n    case ContentDeleted:\n      return null\n  }\n  return content instanceof ContentDeleted\n}\n",
    );
    w("pkg/__init__.py", "");
    w("pkg/errors.py", "class ParseError(Exception):\n    pass\n");
    w(
        "pkg/run.py",
        "from pkg.errors import ParseError\n\n\ndef check(err: ParseError) -> bool:\n    return True\n\n\ndef run(x):\n    try:\n        return x()\n    except ParseError:\n        return isinstance(x, ParseError)\n",
    );
    let tool = repo.tool();
    let js = text(
        &tool,
        json!({"operation":"usages","symbol":"ContentDeleted"}),
    );
    assert!(
        js.contains("Referenced by (named as a value):\n  obfuscate (const) at src/updates.js:5 (+1 more lines)")
            || js.contains("Referenced by (named as a value):\n  obfuscate (function) at src/updates.js:5 (+1 more lines)"),
        "{js}"
    );
    let py = text(&tool, json!({"operation":"usages","symbol":"ParseError"}));
    assert!(
        py.contains("Used by (parameters or results):\n  check (function) at pkg/run.py:4"),
        "{py}"
    );
    assert!(
        py.contains(
            "Referenced by (named as a value):\n  run (function) at pkg/run.py:11 (+1 more lines)"
        ),
        "{py}"
    );
    assert!(
        !py.contains("Referenced by (named as a value):\n  check"),
        "{py}"
    );
}

#[test]
fn python_star_imports_bring_in_a_modules_public_names() {
    let repo = Repo::empty();
    let w = |p: &str, s: &str| repo.write(p, s);
    w(
        "yaml/representer.py",
        "class BaseRepresenter:\n    pass\n\n\nclass Representer(BaseRepresenter):\n    def represent(self, data):\n        return data\n\n\ndef _private():\n    pass\n",
    );
    w(
        "yaml/loader.py",
        "class FullLoader:\n    @classmethod\n    def add_resolver(cls, tag):\n        return tag\n",
    );
    w(
        "yaml/dumper.py",
        "from .representer import *\n\n\nclass Dumper(Representer):\n    def dump(self, data):\n        return self.represent(data)\n",
    );
    w(
        "yaml/__init__.py",
        "from .loader import *\nfrom .dumper import *\n\n\ndef full_load(stream):\n    return FullLoader()\n\n\ndef add_resolver(tag):\n    loader.FullLoader.add_resolver(tag)\n\n\ndef dumper_of():\n    return Dumper()\n\n\ndef representer_of():\n    return Representer()\n",
    );
    let tool = repo.tool();
    // A base class named through a star import.
    let impls = text(
        &tool,
        json!({"operation":"implementations","symbol":"Representer"}),
    );
    assert!(
        impls.contains("Dumper (class) at yaml/dumper.py:4"),
        "{impls}"
    );
    // A method call through the inherited base.
    let callers = text(
        &tool,
        json!({"operation":"callers","symbol":"Representer.represent"}),
    );
    assert!(callers.contains("Dumper.dump"), "{callers}");
    // In a package's `__init__`: a name a star import brings in, a submodule's name, and
    // a name the star-imported module star-imports itself.
    let uses = text(&tool, json!({"operation":"usages","symbol":"FullLoader"}));
    assert!(
        uses.contains("full_load (function) at yaml/__init__.py:6"),
        "{uses}"
    );
    assert!(
        uses.contains("add_resolver (function) at yaml/__init__.py:10"),
        "{uses}"
    );
    let dumper = text(&tool, json!({"operation":"usages","symbol":"Dumper"}));
    assert!(
        dumper.contains("dumper_of (function) at yaml/__init__.py:14"),
        "{dumper}"
    );
    let rep = text(&tool, json!({"operation":"usages","symbol":"Representer"}));
    assert!(
        rep.contains("representer_of (function) at yaml/__init__.py:18"),
        "{rep}"
    );
}
