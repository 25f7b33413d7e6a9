//! The local engine through the real loop, on both fixtures: every question kind, with
//! the exact files and lines the fact sheets (`evals/fixtures/relay.md`, `ledger.md`) give.

use std::path::PathBuf;

use explore_agent::event::NullSink;
use explore_agent::local::LocalPolicy;
use explore_agent::{ExploreResult, Role, RunConfig, StopReason, explore};
use explore_tools::code::IndexOptions;
use explore_tools::{Registry, RegistryOptions, RepoRoot};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../evals/fixtures")
        .join(name)
}

/// Runs one question with the local engine over a fixture, its index kept in memory.
async fn ask(fixture_name: &str, question: &str) -> ExploreResult {
    ask_with_policy(fixture_name, question).await.0
}

/// [`ask`], with the engine that answered (for what it concluded, such as its routing).
async fn ask_with_policy(fixture_name: &str, question: &str) -> (ExploreResult, LocalPolicy) {
    let registry = in_memory_registry(&fixture(fixture_name));
    let mut policy = LocalPolicy::new(registry.clone());
    let result = explore(&registry, &mut policy, &RunConfig::new(question), &NullSink)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (result, policy)
}

/// Runs one question with the local engine over `registry`.
async fn ask_in(registry: &Registry, question: &str) -> ExploreResult {
    let mut policy = LocalPolicy::new(registry.clone());
    explore(registry, &mut policy, &RunConfig::new(question), &NullSink)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Asks each question over `registry` and checks the first file and one line it cites.
async fn first_cites(registry: &Registry, cases: &[(&str, (&str, u32))]) {
    for &(question, want) in cases {
        let r = ask_in(registry, question).await;
        let got = files(&r);
        assert_eq!(
            got.first().map(|f| f.0),
            Some(want.0),
            "{question}: {got:?}"
        );
        assert!(cites(&r, want.0, want.1), "{question}: {got:?}");
    }
}

/// A registry over `root` whose code index stays in memory.
fn in_memory_registry(root: &std::path::Path) -> Registry {
    let options = RegistryOptions {
        index: IndexOptions {
            no_cache: true,
            ..Default::default()
        },
        ..Default::default()
    };
    Registry::new(
        RepoRoot::new(root).unwrap_or_else(|e| panic!("{e}")),
        options,
    )
}

/// `(path, lines cited)` for each file, in the answer's order.
fn files(r: &ExploreResult) -> Vec<(&str, Vec<u32>)> {
    r.relevant_files
        .iter()
        .map(|f| {
            (
                f.path.as_str(),
                f.locations.iter().map(|l| l.line).collect(),
            )
        })
        .collect()
}

fn paths(r: &ExploreResult) -> Vec<&str> {
    r.relevant_files.iter().map(|f| f.path.as_str()).collect()
}

fn role_of(r: &ExploreResult, path: &str) -> Option<Role> {
    r.relevant_files
        .iter()
        .find(|f| f.path == path)
        .map(|f| f.role)
}

fn cites(r: &ExploreResult, path: &str, line: u32) -> bool {
    r.relevant_files
        .iter()
        .any(|f| f.path == path && f.locations.iter().any(|l| l.line == line))
}

/// Writes `text` to `rel` under `root`, creating its directories.
fn write_file(root: &std::path::Path, rel: &str, text: &str) {
    let path = root.join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// What every answered local run has in common: no tokens, local engine, every citation
/// backed by a tool result (the loop dropped or complained about nothing).
fn assert_clean(r: &ExploreResult) {
    assert_eq!(r.metadata.engine, "local");
    assert_eq!(r.metadata.usage.total_tokens, 0);
    assert_eq!(r.metadata.model, None);
    let cov = &r.metadata.extra["evidence_coverage"];
    assert_eq!(cov["dropped"], 0, "{cov}");
    assert_eq!(cov["complaints"].as_array().map(Vec::len), Some(0), "{cov}");
    assert_eq!(r.metadata.relevant_file_count, r.relevant_files.len());
}

// ---------------------------------------------------------------- relay (Go)

#[tokio::test]
async fn relay_definition_of_an_interface() {
    let r = ask("relay", "where is IssueStore defined").await;
    assert_clean(&r);
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    assert_eq!(files(&r), [("internal/model/issue.go", vec![155])]);
    let f = &r.relevant_files[0];
    assert_eq!(f.role, Role::TypeDefinition);
    assert_eq!(f.discovery_source, "code");
    assert_eq!(f.key_symbols, ["IssueStore"]);
    assert_eq!(f.locations[0].end_line, Some(162));
    assert_eq!(f.locations[0].kind.as_deref(), Some("interface"));
    assert_eq!(f.rationale, "Defines interface IssueStore at line 155");
    assert_eq!(
        r.answer,
        "`IssueStore` (interface) at internal/model/issue.go:155 is the definition."
    );
    assert_eq!(r.metadata.tool_calls.get("code"), Some(&1));
}

#[tokio::test]
async fn relay_definition_prefers_the_domain_type_over_generated_code() {
    let r = ask("relay", "where is the Issue type defined").await;
    assert_clean(&r);
    assert_eq!(files(&r), [("internal/model/issue.go", vec![51])]);
    assert!(
        r.answer
            .contains("`Issue` at internal/gen/issue.pb.go:60 is generated code, not the answer"),
        "{}",
        r.answer
    );
}

#[tokio::test]
async fn relay_definition_of_an_ambiguous_name_lists_every_definition() {
    let r = ask("relay", "where is Plan defined").await;
    assert_clean(&r);
    assert_eq!(
        files(&r),
        [
            ("internal/brain/planner.go", vec![48, 101]),
            ("internal/task/planner.go", vec![42]),
        ]
    );
    assert!(r.answer.starts_with("3 definitions: "), "{}", r.answer);
}

#[tokio::test]
async fn relay_implementations_real_code_first_test_double_last() {
    let r = ask("relay", "what implements IssueStore").await;
    assert_clean(&r);
    assert_eq!(
        files(&r),
        [
            ("internal/store/cache/readthrough.go", vec![17]),
            ("internal/store/issue.go", vec![23]),
            ("internal/store/memory/memory.go", vec![17]),
            ("internal/model/issue.go", vec![155]),
            ("internal/brain/planner_test.go", vec![17]),
        ]
    );
    assert_eq!(
        role_of(&r, "internal/store/issue.go"),
        Some(Role::ModifyTarget)
    );
    assert_eq!(
        role_of(&r, "internal/model/issue.go"),
        Some(Role::TypeDefinition)
    );
    assert_eq!(
        role_of(&r, "internal/brain/planner_test.go"),
        Some(Role::TestTarget)
    );
    assert_eq!(
        r.relevant_files[1].rationale,
        "issueStore (struct) implements IssueStore, at line 23"
    );
}

#[tokio::test]
async fn relay_callers_of_an_ambiguous_method_cover_both() {
    let r = ask("relay", "who calls Plan").await;
    assert_clean(&r);
    let p = paths(&r);
    assert_eq!(
        &p[..2],
        ["internal/brain/orchestrator.go", "internal/task/runner.go"]
    );
    assert!(cites(&r, "internal/brain/orchestrator.go", 41));
    assert!(cites(&r, "internal/task/runner.go", 33));
    assert!(cites(&r, "internal/brain/planner.go", 101));
    assert!(cites(&r, "internal/task/planner.go", 42));
    // Tests come after every first-party file.
    let first_test = p.iter().position(|x| x.ends_with("_test.go")).unwrap();
    assert!(
        p[first_test..].iter().all(|x| x.ends_with("_test.go")),
        "{p:?}"
    );
    assert!(
        r.answer.contains("The name `Plan` is ambiguous"),
        "{}",
        r.answer
    );
    // One `code` call that reported the ambiguity, one per candidate.
    assert_eq!(r.metadata.tool_calls.get("code"), Some(&3));
}

#[tokio::test]
async fn relay_callers_of_a_qualified_method() {
    let r = ask("relay", "who calls Orchestrator.Run").await;
    assert_clean(&r);
    assert_eq!(
        &files(&r)[..4],
        [
            ("cmd/worker/main.go", vec![151]),
            ("internal/httpapi/handler.go", vec![121]),
            ("internal/service/event_ingest.go", vec![133]),
            ("internal/brain/orchestrator.go", vec![39]),
        ]
    );
    assert_eq!(
        role_of(&r, "cmd/worker/main.go"),
        Some(Role::IntegrationPoint)
    );
    assert_eq!(
        r.relevant_files[2].rationale,
        "EventIngest.triggerPlanning calls Orchestrator.Run at line 133"
    );
}

#[tokio::test]
async fn relay_usages_of_a_type() {
    // `callers` of a struct is refused by the tool, which suggests `usages`.
    let r = ask("relay", "where is Issue used").await;
    assert_clean(&r);
    assert_eq!(r.metadata.tool_calls.get("code"), Some(&2));
    assert!(cites(&r, "internal/brain/planner.go", 101));
    assert!(cites(&r, "internal/httpapi/handler.go", 130));
    assert!(r.answer.contains("Used by: "), "{}", r.answer);
}

#[tokio::test]
async fn relay_callees_cite_definitions_and_call_sites() {
    let r = ask("relay", "what does HandleWebhook call").await;
    assert_clean(&r);
    // The callees first, then the caller's own file with its call sites.
    let fs = files(&r);
    let own = fs
        .iter()
        .position(|f| f.0 == "internal/webhook/handler.go")
        .unwrap();
    assert_eq!(own, fs.len() - 1);
    assert_eq!(fs[own].1, [66, 69, 74, 77, 85, 95, 112]);
    assert!(cites(&r, "internal/webhook/signature.go", 42));
    assert!(cites(&r, "internal/webhook/router.go", 315));
    assert!(cites(&r, "internal/service/event_ingest.go", 40));
    assert_eq!(
        role_of(&r, "internal/webhook/signature.go"),
        Some(Role::Dependency)
    );
}

#[tokio::test]
async fn relay_methods_of_an_interface() {
    let r = ask("relay", "what methods does IssueStore have").await;
    assert_clean(&r);
    assert_eq!(
        files(&r),
        [("internal/model/issue.go", vec![155, 157, 159, 161])]
    );
    assert_eq!(
        r.answer,
        "Methods: IssueStore.Get at internal/model/issue.go:157; IssueStore.Upsert at internal/model/issue.go:159; IssueStore.List at internal/model/issue.go:161."
    );
}

#[tokio::test]
async fn relay_trace_from_the_webhook_to_the_planner() {
    let r = ask("relay", "how does HandleWebhook reach Plan").await;
    assert_clean(&r);
    assert_eq!(
        files(&r),
        [
            ("internal/webhook/handler.go", vec![66, 95]),
            ("internal/service/event_ingest.go", vec![40, 59, 129, 133]),
            ("internal/brain/orchestrator.go", vec![39, 41]),
            ("internal/brain/planner.go", vec![101]),
        ]
    );
    assert_eq!(
        r.answer,
        "Path: Handler.HandleWebhook at internal/webhook/handler.go:66 -> EventIngest.Ingest at internal/service/event_ingest.go:40 -> EventIngest.triggerPlanning at internal/service/event_ingest.go:129 -> Orchestrator.Run at internal/brain/orchestrator.go:39 -> Planner.Plan at internal/brain/planner.go:101."
    );
}

#[tokio::test]
async fn relay_concept_webhooks() {
    let r = ask("relay", "how are webhooks handled").await;
    assert_clean(&r);
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    assert_eq!(paths(&r)[0], "internal/webhook/handler.go");
    assert!(cites(&r, "internal/webhook/handler.go", 66));
    assert!(cites(&r, "internal/webhook/signature.go", 42));
    assert!(cites(&r, "internal/webhook/router.go", 397));
    assert_eq!(
        role_of(&r, "internal/webhook/handler.go"),
        Some(Role::IntegrationPoint)
    );
    assert!(
        r.answer.starts_with(
            "Most relevant: `Handler.HandleWebhook` at internal/webhook/handler.go:66"
        ),
        "{}",
        r.answer
    );
    // Real code before tests.
    let p = paths(&r);
    let first_test = p.iter().position(|f| f.ends_with("_test.go"));
    assert!(
        first_test.is_none_or(|i| p[i..].iter().all(|f| f.ends_with("_test.go"))),
        "{p:?}"
    );
}

#[tokio::test]
async fn relay_concept_retry() {
    let r = ask("relay", "where is the retry logic").await;
    assert_clean(&r);
    assert_eq!(paths(&r)[0], "internal/retry/retry.go");
    assert!(cites(&r, "internal/retry/retry.go", 119));
    assert!(cites(&r, "internal/retry/retry.go", 76));
    // Who uses it: the callers of `Do`, found through the code graph.
    assert!(cites(&r, "internal/llm/http.go", 74));
    assert!(cites(&r, "cmd/worker/main.go", 150));
}

#[tokio::test]
async fn relay_concept_entry_points() {
    let r = ask("relay", "what are the entry points").await;
    assert_clean(&r);
    assert_eq!(
        &files(&r)[..2],
        [
            ("cmd/server/main.go", vec![25]),
            ("cmd/worker/main.go", vec![39])
        ]
    );
    assert_eq!(
        role_of(&r, "cmd/server/main.go"),
        Some(Role::IntegrationPoint)
    );
}

#[tokio::test]
async fn relay_concept_configuration() {
    let r = ask("relay", "where is the database URL configured").await;
    assert_clean(&r);
    assert_eq!(paths(&r)[0], "internal/config/config.go");
    assert!(cites(&r, "internal/config/config.go", 24));
    assert!(cites(&r, "internal/config/config.go", 56));
    assert_eq!(role_of(&r, "internal/config/config.go"), Some(Role::Config));
}

#[tokio::test]
async fn relay_unknown_symbol_is_not_found() {
    let r = ask("relay", "where is FrobnicateQuux defined").await;
    assert_eq!(r.metadata.stop_reason, StopReason::NotFound);
    assert!(r.relevant_files.is_empty());
    assert!(!r.metadata.partial);
    assert_eq!(
        r.answer,
        "No symbol `FrobnicateQuux` is defined in the repository (no source file mentions it; text search over 59 files); no relevant files."
    );
}

/// A definition question whose name nothing defines ends `not_found` (issue 19), with
/// names close to it as suggestions in the answer, each at the place `code` returned,
/// never as relevant files: a typo, a name that only part of others contain (not "3
/// definitions"), and a name other files mention (a standard-library type) but nothing
/// defines (not the files that share its words).
#[tokio::test]
async fn relay_undefined_names_are_not_found_with_suggestions() {
    let cases = [
        (
            "where is IsueStore defined",
            "No symbol `IsueStore` is defined in the repository (no source file mentions it; text search over 59 files). Did you mean `IssueStore` (interface) at internal/model/issue.go:155 or `issueStore` (struct) at internal/store/issue.go:23?",
        ),
        (
            "where is IssueStor defined",
            "No symbol `IssueStor` is defined in the repository. Did you mean `IssueStore` (interface) at internal/model/issue.go:155, `issueStore` (struct) at internal/store/issue.go:23 or `NewIssueStore` (function) at internal/store/issue.go:30?",
        ),
        (
            "where is ServeMux defined",
            "No symbol `ServeMux` is defined in the repository; no relevant files.",
        ),
    ];
    for (question, answer) in cases {
        let r = ask("relay", question).await;
        assert_eq!(r.metadata.stop_reason, StopReason::NotFound, "{question}");
        assert!(r.relevant_files.is_empty(), "{question}");
        assert_eq!(r.answer, answer);
    }
}

#[tokio::test]
async fn relay_nonsense_concept_is_not_found() {
    let r = ask("relay", "how is the flux capacitor calibrated").await;
    assert_eq!(r.metadata.stop_reason, StopReason::NotFound);
    assert!(r.relevant_files.is_empty());
    assert_eq!(r.metadata.stop_reason.exit_code(), 1);
    assert_eq!(
        r.answer,
        "No file in the repository mentions flux, capacitor; no relevant files."
    );
}

// ------------------------------------------------------------- ledger (Python)

#[tokio::test]
async fn ledger_definition_of_an_abstract_class() {
    let r = ask("ledger", "where is Repository defined").await;
    assert_clean(&r);
    assert_eq!(files(&r), [("src/ledger/storage/base.py", vec![14])]);
    assert_eq!(r.relevant_files[0].role, Role::TypeDefinition);
}

#[tokio::test]
async fn ledger_definition_skips_the_generated_protobuf_class() {
    let r = ask("ledger", "where is the Transaction class defined").await;
    assert_clean(&r);
    assert_eq!(files(&r), [("src/ledger/models/transaction.py", vec![61])]);
    assert!(
        r.answer
            .contains("src/ledger/proto/ledger_pb2.py:414 is generated code")
    );
}

#[tokio::test]
async fn ledger_definition_with_overrides_leaves_the_test_double_out() {
    let r = ask("ledger", "where is post_transaction defined").await;
    assert_clean(&r);
    assert_eq!(
        files(&r),
        [
            ("src/ledger/services/ledger_service.py", vec![195]),
            ("src/ledger/services/audited.py", vec![60]),
        ]
    );
    assert!(r.answer.contains(
        "`RecordingLedgerService.post_transaction` at tests/test_webhooks.py:27 is test code"
    ));
}

#[tokio::test]
async fn ledger_subclasses() {
    let r = ask("ledger", "what subclasses Repository").await;
    assert_clean(&r);
    assert_eq!(
        files(&r),
        [
            ("src/ledger/storage/memory.py", vec![15]),
            ("src/ledger/storage/sql.py", vec![72]),
            ("src/ledger/storage/postgres.py", vec![16]),
            ("src/ledger/storage/base.py", vec![14]),
            ("tests/conftest.py", vec![24]),
        ]
    );
    assert_eq!(role_of(&r, "tests/conftest.py"), Some(Role::TestTarget));
}

#[tokio::test]
async fn ledger_subclasses_of_the_exporter_base() {
    let r = ask("ledger", "what are the subclasses of BaseExporter").await;
    assert_clean(&r);
    assert_eq!(
        files(&r),
        [
            ("src/ledger/exporters/csv_exporter.py", vec![14]),
            ("src/ledger/exporters/json_exporter.py", vec![16]),
            ("src/ledger/exporters/excel.py", vec![14]),
            ("src/ledger/exporters/base.py", vec![14]),
        ]
    );
}

#[tokio::test]
async fn ledger_callers_of_a_qualified_method() {
    let r = ask("ledger", "who calls LedgerService.post_transaction").await;
    assert_clean(&r);
    assert_eq!(
        &files(&r)[..4],
        [
            (
                "src/ledger/services/ledger_service.py",
                vec![145, 166, 193, 195, 238]
            ),
            ("src/ledger/services/audited.py", vec![64]),
            ("src/ledger/services/payments.py", vec![75]),
            ("src/ledger/services/refunds.py", vec![60]),
        ]
    );
    assert!(paths(&r)[4..].iter().all(|p| p.starts_with("tests/")));
}

#[tokio::test]
async fn ledger_methods_of_a_class() {
    let r = ask("ledger", "methods of LedgerService").await;
    assert_clean(&r);
    assert_eq!(paths(&r), ["src/ledger/services/ledger_service.py"]);
    for line in [
        38, 59, 73, 98, 102, 114, 119, 126, 147, 168, 195, 225, 242, 258, 278,
    ] {
        assert!(
            cites(&r, "src/ledger/services/ledger_service.py", line),
            "{line}"
        );
    }
}

#[tokio::test]
async fn ledger_trace_through_a_registry_shows_both_ends() {
    let r = ask("ledger", "how does handle_webhook reach post_transaction").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    // The registry's dispatch is where the call graph stops; the payment service is
    // where it picks up again.
    assert!(cites(&r, "src/ledger/webhooks/registry.py", 52));
    assert!(cites(&r, "src/ledger/webhooks/handler.py", 62));
    assert!(cites(&r, "src/ledger/services/payments.py", 75));
    assert!(
        r.answer
            .contains("The call graph has no path from `handle_webhook` to `post_transaction`"),
        "{}",
        r.answer
    );
}

#[tokio::test]
async fn ledger_concept_webhooks() {
    let r = ask("ledger", "how are webhooks handled").await;
    assert_clean(&r);
    assert_eq!(paths(&r)[0], "src/ledger/webhooks/handler.py");
    assert!(cites(&r, "src/ledger/webhooks/handler.py", 33));
    assert!(cites(&r, "src/ledger/webhooks/handlers.py", 31));
    assert!(cites(&r, "src/ledger/webhooks/signature.py", 48));
    assert!(cites(&r, "src/ledger/webhooks/parser.py", 28));
    assert!(cites(&r, "src/ledger/webhooks/registry.py", 52));
}

#[tokio::test]
async fn ledger_concept_signature() {
    let r = ask("ledger", "how is the webhook signature verified").await;
    assert_clean(&r);
    assert_eq!(paths(&r)[0], "src/ledger/webhooks/signature.py");
    assert!(cites(&r, "src/ledger/webhooks/signature.py", 48));
    assert!(cites(&r, "src/ledger/webhooks/signature.py", 20));
    assert!(cites(&r, "src/ledger/webhooks/signature.py", 26));
}

#[tokio::test]
async fn ledger_concept_retry() {
    let r = ask("ledger", "where is the retry logic").await;
    assert_clean(&r);
    assert_eq!(paths(&r)[0], "src/ledger/utils/retry.py");
    assert!(cites(&r, "src/ledger/utils/retry.py", 59));
    assert!(cites(&r, "src/ledger/utils/retry.py", 43));
    assert!(cites(&r, "src/ledger/utils/retry.py", 34));
    assert!(cites(&r, "src/ledger/config.py", 31));
}

#[tokio::test]
async fn ledger_concept_cli_entry_point() {
    let r = ask("ledger", "where is the CLI entry point").await;
    assert_clean(&r);
    assert_eq!(paths(&r)[0], "src/ledger/cli.py");
    assert!(cites(&r, "src/ledger/cli.py", 159));
}

#[tokio::test]
async fn ledger_concept_amount_validation() {
    let r = ask("ledger", "where are amounts validated").await;
    assert_clean(&r);
    assert!(cites(&r, "src/ledger/currencies.py", 943));
    assert!(cites(&r, "src/ledger/services/ledger_service.py", 242));
}

#[tokio::test]
async fn relay_technology_it_does_not_use_is_not_found() {
    for (q, word) in [
        ("where is the GraphQL schema defined", "GraphQL"),
        ("where does relay consume Kafka messages", "kafka"),
        ("where is the Redis client configured", "redis"),
    ] {
        let r = ask("relay", q).await;
        assert_eq!(r.metadata.stop_reason, StopReason::NotFound, "{q}");
        assert!(r.relevant_files.is_empty(), "{q}");
        assert!(r.answer.contains(word), "{q}: {}", r.answer);
    }
}

#[tokio::test]
async fn ledger_nonsense_is_not_found() {
    for q in [
        "how is the flux capacitor calibrated",
        "where is FrobnicateQuux defined",
    ] {
        let r = ask("ledger", q).await;
        assert_eq!(r.metadata.stop_reason, StopReason::NotFound, "{q}");
        assert!(r.relevant_files.is_empty(), "{q}");
    }
}

/// Runs one question over a fixture whose code index was written to `cache` beforehand,
/// so the engine reads the warm store file instead of loading the graph.
async fn ask_warm(fixture_name: &str, cache: &std::path::Path, question: &str) -> ExploreResult {
    let options = RegistryOptions {
        index: IndexOptions {
            cache_dir: Some(cache.to_path_buf()),
            ..Default::default()
        },
        ..Default::default()
    };
    let root = RepoRoot::new(fixture(fixture_name)).unwrap_or_else(|e| panic!("{e}"));
    let registry = Registry::new(root, options);
    assert!(
        registry.code().warm_store().is_some(),
        "{fixture_name}: no warm store in {}",
        cache.display()
    );
    let mut policy = LocalPolicy::new(registry.clone());
    explore(&registry, &mut policy, &RunConfig::new(question), &NullSink)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The ranking corpus and the text search's graph coverage read from the warm store give
/// the very answers the in-memory graph gives: concept questions, a constant found by text
/// search, a symbol question.
#[tokio::test]
async fn warm_store_answers_like_the_graph() {
    let cache = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (fixture_name, questions) in [
        (
            "relay",
            &[
                "how are webhooks handled",
                "where is the retry logic",
                "where is maxCommentRunes used",
                "who calls Plan",
            ][..],
        ),
        (
            "ledger",
            &[
                "how is the webhook signature verified",
                "where are amounts validated",
            ][..],
        ),
    ] {
        let options = RegistryOptions {
            index: IndexOptions {
                cache_dir: Some(cache.path().to_path_buf()),
                ..Default::default()
            },
            ..Default::default()
        };
        let root = RepoRoot::new(fixture(fixture_name)).unwrap_or_else(|e| panic!("{e}"));
        Registry::new(root, options)
            .code()
            .index()
            .unwrap_or_else(|e| panic!("{e}"));
        for q in questions {
            let cold = ask(fixture_name, q).await;
            let warm = ask_warm(fixture_name, cache.path(), q).await;
            assert!(!cold.relevant_files.is_empty(), "{q}");
            assert_eq!(files(&warm), files(&cold), "{q}");
            assert_eq!(warm.answer, cold.answer, "{q}");
            assert_eq!(warm.metadata.stop_reason, cold.metadata.stop_reason, "{q}");
        }
    }
}

/// `--engine auto` with a model: which answers are certain enough to stand without it.
#[tokio::test]
async fn routing_is_certain_only_for_exact_graph_answers() {
    use explore_agent::local::routing::{Doubt, Routing};
    let verdict = |name: &'static str, q: &'static str| async move {
        ask_with_policy(name, q).await.1.routing()
    };
    for (name, q) in [
        ("relay", "where is IssueStore defined"),
        ("relay", "where is the Code type defined"),
        ("relay", "what implements IssueStore"),
        ("ledger", "what does LedgerService.post_transaction call"),
    ] {
        let r = verdict(name, q).await;
        assert!(r.is_certain(), "{q}: {r:?}");
    }
    for (name, q, doubt) in [
        ("relay", "where is Plan defined", Doubt::SeveralDefinitions),
        (
            "relay",
            "how are webhooks handled",
            Doubt::NotSymbolQuestion,
        ),
        ("relay", "who calls Plan", Doubt::Ambiguous),
        ("relay", "how does HandleWebhook reach Plan", Doubt::Trace),
        (
            "ledger",
            "where is FrobnicateQuux defined",
            Doubt::NotInGraph,
        ),
    ] {
        match verdict(name, q).await {
            Routing::Uncertain { doubts } => assert!(doubts.contains(&doubt), "{q}: {doubts:?}"),
            r => panic!("{q}: {r:?}"),
        }
    }
}

/// Issue 12's two misreadings of the code tool's text, now read from its typed answer:
/// callers listed under "Through Repository.save …" are callers (they were definitions:
/// the header said "method"), and a struct's "Implements:" list is what it implements
/// (it was written up as implementations of it).
#[tokio::test]
async fn callers_through_an_interface_and_what_a_type_implements() {
    let r = ask("ledger", "who calls SqlRepository.save").await;
    assert_clean(&r);
    let service = r
        .relevant_files
        .iter()
        .find(|f| f.path == "src/ledger/services/ledger_service.py")
        .expect("callers through Repository.save are cited");
    assert!(
        service.rationale.contains("calls") && !service.rationale.contains("Defines"),
        "{}",
        service.rationale
    );
    assert!(cites(&r, "src/ledger/services/ledger_service.py", 63));

    let r = ask("relay", "what interfaces does the memory Store implement").await;
    assert_clean(&r);
    let model = r
        .relevant_files
        .iter()
        .find(|f| f.path == "internal/model/issue.go")
        .expect("the interface Store implements is cited");
    assert_eq!(model.role, Role::TypeDefinition);
    assert!(
        model
            .rationale
            .starts_with("Store implements interface IssueStore"),
        "{}",
        model.rationale
    );
    assert!(
        !model
            .rationale
            .contains("IssueStore (interface) implements")
    );
}

/// A fan-out in one turn (four `Upsert` methods narrowed from an ambiguous name, whose
/// callers overlap) is not a doom loop: calls that add nothing beside a sibling that did
/// are not counted as repeats.
#[tokio::test]
async fn a_fan_out_whose_answers_overlap_is_not_a_doom_loop() {
    let r = ask("relay", "who calls Upsert").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered, "{}", r.answer);
    assert!(!r.relevant_files.is_empty());
}

/// The output cap protects a model's context: the local engine reads the outputs' findings,
/// not their text, so its outputs are neither counted nor cut, and a tiny cap answers as
/// the default one does.
#[tokio::test]
async fn a_local_run_does_not_cut_its_outputs() {
    let question = "how are webhooks handled";
    let options = RegistryOptions {
        index: IndexOptions {
            no_cache: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let root = RepoRoot::new(fixture("relay")).unwrap_or_else(|e| panic!("{e}"));
    let registry = Registry::new(root, options);
    let mut config = RunConfig::new(question);
    config.tool_output_tokens = 20;
    let mut policy = LocalPolicy::new(registry.clone());
    let tiny = explore(&registry, &mut policy, &config, &NullSink)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tiny.metadata.extra["cut_outputs"], 0);
    assert!(tiny.metadata.tool_calls.get("read").is_some_and(|&n| n > 0));
    let default = ask("relay", question).await;
    assert_eq!(files(&tiny), files(&default));
    assert_clean(&tiny);
}

/// A kind word outranks letter case: "the blueprint class" is the class `Blueprint`, not
/// the property `Request.blueprint` whose name matches the question's case.
#[tokio::test]
async fn a_kind_word_picks_the_class_over_a_same_cased_property() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("blueprints.py"),
        "class Blueprint:\n    \"\"\"A group of routes.\"\"\"\n\n    def register(self, app):\n        return app\n",
    )
    .unwrap();
    std::fs::write(
        root.join("wrappers.py"),
        "class Request:\n    @property\n    def blueprint(self):\n        return None\n",
    )
    .unwrap();
    let registry = in_memory_registry(&root);
    first_cites(
        &registry,
        &[
            ("where is the blueprint class", ("blueprints.py", 1)),
            ("blueprint class", ("blueprints.py", 1)),
            // Without a kind word the name as cased wins.
            ("where is blueprint defined", ("wrappers.py", 3)),
        ],
    )
    .await;
}

/// "The PClass evolver" is the class `_PClassEvolver` when one is spelled so, and "the
/// treemap iterator" the `Iterator` of the `treemap` package; with no such class, the
/// name said alone ("the Record evolver": `Record`).
#[tokio::test]
async fn a_name_and_the_word_after_it_may_be_one_types_name() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    w(
        "pclass.py",
        "class PClass:\n    def set(self, **kw):\n        return self\n\n    def evolver(self):\n        return _PClassEvolver(self)\n\n\nclass _PClassEvolver:\n    def __init__(self, original):\n        self._original = original\n\n    def persistent(self):\n        return self._original\n",
    );
    w(
        "record.py",
        "class Record:\n    def evolver(self):\n        return self\n\n    def discard(self, key):\n        return self\n",
    );
    w(
        "maps/treemap/iterator.go",
        "package treemap\n\ntype Iterator struct{ index int }\n\nfunc (it *Iterator) Next() bool { return it.index > 0 }\n\nfunc (it *Iterator) Value() int { return it.index }\n",
    );
    w(
        "lists/arraylist/iterator.go",
        "package arraylist\n\ntype Iterator struct{ index int }\n\nfunc (it *Iterator) Next() bool { return it.index > 0 }\n",
    );
    let registry = in_memory_registry(&root);
    first_cites(
        &registry,
        &[
            ("list the methods of the PClass evolver", ("pclass.py", 13)),
            (
                "list the methods on the treemap iterator",
                ("maps/treemap/iterator.go", 7),
            ),
            (
                "what methods does the Record evolver have",
                ("record.py", 5),
            ),
        ],
    )
    .await;
    let r = ask_in(&registry, "list the methods of the PClass evolver").await;
    assert!(!cites(&r, "pclass.py", 2), "{:?}", files(&r));
}

/// A pasted line of code asks for what it calls: the method for a call on a receiver
/// (before a module function of the same name), the call inside a print.
#[tokio::test]
async fn a_pasted_line_of_code_asks_for_what_it_calls() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    w(
        "helpers.py",
        "def parse(text):\n    return text.split()\n\n\ndef show(x):\n    return str(x)\n",
    );
    w(
        "grammar.py",
        "from helpers import parse\n\n\nclass Grammar:\n    def parse(self, text):\n        return parse(text)\n\n    def rules(self):\n        return []\n",
    );
    let registry = in_memory_registry(&root);
    first_cites(
        &registry,
        &[
            ("tree = p.parse(source)", ("grammar.py", 5)),
            ("print(g.rules())", ("grammar.py", 8)),
            ("words = parse(source)", ("helpers.py", 1)),
        ],
    )
    .await;
    // The function the method delegates to is still listed, after it.
    let r = ask_in(&registry, "tree = p.parse(source)").await;
    assert!(cites(&r, "helpers.py", 1), "{:?}", files(&r));
}

/// A concept question finds the file that does the thing even when no name or path says
/// it (`squashmigrations.py`: one word, its class `Command`): the content index adds the
/// files whose text best matches the question to the shortlist of names; the tests that
/// name it in every function rank below the code they test.
#[tokio::test]
async fn a_concept_answer_finds_a_file_by_what_its_code_says() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("proj");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    w(
        "app/commands/squashmigrations.py",
        "class Command:\n    def handle(self, app_label, start, end):\n        # Squash the migrations between start and end into one.\n        migrations = self.loader.between(app_label, start, end)\n        squashed = Squasher(migrations).run()\n        for migration in migrations:\n            squashed.replaces.append(migration.name)\n        return squashed\n",
    );
    w(
        "app/loader.py",
        "class MigrationLoader:\n    def between(self, label, start, end):\n        return [m for m in self.graph if start <= m.number <= end]\n",
    );
    w("app/__init__.py", "from .loader import MigrationLoader\n");
    w(
        "tests/test_loader.py",
        "def test_loading_squashed():\n    assert load('squashed') == 1\n\ndef test_loading_squashed_complex():\n    assert load('squashed_complex')\n",
    );
    w(
        "tests/test_commands.py",
        "def test_squashed_name():\n    run('squashmigrations', 'app', '0001', '0002')\n",
    );
    let registry = in_memory_registry(&root);
    let r = ask_in(&registry, "where are migrations squashed").await;
    let got = paths(&r);
    assert_eq!(
        got.first().copied(),
        Some("app/commands/squashmigrations.py"),
        "{got:?}"
    );
    // The tests come after the code they test.
    let first_test = got.iter().position(|p| p.starts_with("tests/"));
    assert!(first_test.is_none_or(|i| i > 0), "{got:?}");
}

/// A question's word the repository never uses is not its missing topic when the
/// repository uses a close synonym of it ("the lexer" of a code base whose lexer is its
/// `Scanner`), nor when the engine only took a plain word for a symbol name; a word with
/// no synonym in the code still makes the answer `not_found`.
#[tokio::test]
async fn a_word_the_repository_spells_as_a_synonym_is_not_missing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("conf");
    std::fs::create_dir_all(root.join("scanner")).unwrap();
    std::fs::write(
        root.join("scanner/scanner.go"),
        "package scanner\n\n// Scanner turns a configuration file into tokens.\ntype Scanner struct{ src []byte }\n\n// scanHeredoc reads a heredoc up to its EOF anchor.\nfunc (s *Scanner) scanHeredoc() {}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("printer.go"),
        "package conf\n\n// Print writes the heredoc back.\nfunc Print() {}\n",
    )
    .unwrap();
    let registry = in_memory_registry(&root);
    let r = ask_in(&registry, "where does the lexer read a <<EOF heredoc").await;
    assert_ne!(r.metadata.stop_reason, StopReason::NotFound, "{}", r.answer);
    assert_eq!(files(&r).first().map(|f| f.0), Some("scanner/scanner.go"));
    let r = ask_in(&registry, "where does the flux capacitor read a heredoc").await;
    assert_eq!(r.metadata.stop_reason, StopReason::NotFound, "{}", r.answer);
}

/// "Where is X raised" is answered from the graph's calls of the class (the `raise` lines);
/// "which places catch X" from the text's `except` clauses, not from where it is raised.
#[tokio::test]
async fn raised_and_caught_are_different_places() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("pkg");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("errors.py"),
        "class InvalidVersion(ValueError):\n    \"\"\"A version string that cannot be parsed.\"\"\"\n",
    )
    .unwrap();
    std::fs::write(
        root.join("version.py"),
        "from errors import InvalidVersion\n\n\ndef parse(s):\n    if not s:\n        raise InvalidVersion(s)\n    return s\n",
    )
    .unwrap();
    std::fs::write(
        root.join("utils.py"),
        "from errors import InvalidVersion\nfrom version import parse\n\n\ndef canonical(s):\n    try:\n        return parse(s)\n    except InvalidVersion:\n        return s\n",
    )
    .unwrap();
    let registry = in_memory_registry(&root);
    first_cites(
        &registry,
        &[
            ("where is InvalidVersion raised", ("version.py", 6)),
            (
                "where does the package raise InvalidVersion",
                ("version.py", 6),
            ),
            ("which places catch InvalidVersion", ("utils.py", 8)),
        ],
    )
    .await;
}

/// "Where is X tested" lists X's uses in tests first; "who calls X" its uses in the
/// product first.
#[tokio::test]
async fn a_question_about_tests_lists_test_callers_first() {
    let registry = in_memory_registry(&fixture("ledger"));
    let tested = ask_in(&registry, "where is post_transaction tested").await;
    let first = files(&tested).first().map(|f| f.0.to_string());
    assert!(
        first.as_deref().is_some_and(|p| p.starts_with("tests/")),
        "{:?}",
        files(&tested)
    );
    let called = ask_in(&registry, "who calls post_transaction").await;
    let first = files(&called).first().map(|f| f.0.to_string());
    assert!(
        first.as_deref().is_some_and(|p| p.starts_with("src/")),
        "{:?}",
        files(&called)
    );
}

/// "Implementations of IssueStore.Get": a method's implementations are the methods of that
/// name on the types that implement its owner (the tool answers `implementations` for
/// types only); a concrete type's method has none and says so.
#[tokio::test]
async fn relay_implementations_of_an_interface_method() {
    let r = ask("relay", "implementations of IssueStore.Get").await;
    assert_eq!(r.metadata.stop_reason, StopReason::Answered);
    for (path, line) in [
        ("internal/store/cache/readthrough.go", 44),
        ("internal/store/issue.go", 40),
        ("internal/store/memory/memory.go", 34),
    ] {
        assert!(cites(&r, path, line), "{path}:{line} in {}", r.answer);
    }
    assert!(
        r.answer
            .starts_with("`IssueStore.Get` at internal/model/issue.go:157. Implemented by:"),
        "{}",
        r.answer
    );
    let r = ask("relay", "implementations of Store.Get").await;
    assert!(
        r.answer.starts_with(
            "Nothing implements or extends `Store`, so `Store.Get` has no implementations"
        ),
        "{}",
        r.answer
    );
}

/// Words of a short question that no file uses ("stale", "dropped") are the user's
/// phrasing when two or more of its other words are found: it is answered from those,
/// not given up as `not_found` (a missing name, or missing words beside at most one
/// found, is the question's missing topic).
#[tokio::test]
async fn missing_plain_words_among_found_ones_are_phrasing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("ttlcache");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("expiry.py"),
        "class TimedCache:\n    \"\"\"A time to live cache.\"\"\"\n\n    def expire(self, now):\n        \"\"\"Remove expired items whose time to live has passed.\"\"\"\n        for key in list(self.links):\n            del self.links[key]\n",
    )
    .unwrap();
    std::fs::write(
        root.join("keys.py"),
        "def hashkey(*args):\n    \"\"\"Return a key for the arguments.\"\"\"\n    return args\n",
    )
    .unwrap();
    for name in ["clock", "locks", "config"] {
        std::fs::write(
            root.join(format!("{name}.py")),
            format!("def {name}_default():\n    \"\"\"The {name} in use.\"\"\"\n    return None\n"),
        )
        .unwrap();
    }
    let registry = in_memory_registry(&root);
    let r = ask_in(
        &registry,
        "how do stale entries get dropped from the time to live cache",
    )
    .await;
    assert_ne!(r.metadata.stop_reason, StopReason::NotFound, "{}", r.answer);
    assert_eq!(files(&r).first().map(|f| f.0), Some("expiry.py"));
    // A missing name is still the missing topic, and so are missing words beside only
    // one found.
    let r = ask_in(&registry, "how do items expire from the Memcached cache").await;
    assert_eq!(r.metadata.stop_reason, StopReason::NotFound, "{}", r.answer);
    let r = ask_in(&registry, "how do stale entries get dropped from the cache").await;
    assert_eq!(r.metadata.stop_reason, StopReason::NotFound, "{}", r.answer);
}

/// Of several definitions of one name, the public one comes first, a test double's last:
/// a crate that wraps its items in `cfg_*!` macros (tokio) defines its `pub struct
/// JoinHandle` inside one, beside `pub(crate)` stand-ins and a mock.
#[tokio::test]
async fn the_public_definition_of_a_name_comes_first_even_inside_a_macro() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("rt");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    w(
        "src/blocking.rs",
        "pub(crate) type JoinHandle<T> = Inner<T>;\n\npub(crate) struct Inner<T> { t: T }\n",
    );
    w(
        "src/fs/mocks.rs",
        "pub(super) struct JoinHandle<T> {\n    rx: T,\n}\n",
    );
    w(
        "src/runtime/task/join.rs",
        "macro_rules! cfg_rt { ($($item:item)*) => { $($item)* } }\n\ncfg_rt! {\n    /// An owned permission to join on a task.\n    pub struct JoinHandle<T> {\n        raw: T,\n    }\n\n    impl<T> JoinHandle<T> {\n        pub fn abort(&self) {}\n    }\n}\n",
    );
    w(
        "src/task/join_set.rs",
        "use crate::runtime::task::join::JoinHandle;\n\npub fn abort_all(h: &JoinHandle<u8>) {\n    h.abort();\n}\n",
    );
    let registry = in_memory_registry(&root);
    first_cites(
        &registry,
        &[
            (
                "where is JoinHandle defined",
                ("src/runtime/task/join.rs", 5),
            ),
            ("who calls JoinHandle.abort", ("src/task/join_set.rs", 4)),
        ],
    )
    .await;
    let r = ask_in(&registry, "where is JoinHandle defined").await;
    let order = paths(&r);
    let mock = order.iter().position(|p| *p == "src/fs/mocks.rs");
    assert!(
        mock.is_none_or(|m| m + 1 == order.len()),
        "the mock comes last if at all: {order:?}"
    );
}

/// Who calls a method lists the calls on receivers the graph cannot type beside the linked
/// ones, marked as guessed, when the guess had no rival or the receiver names the type:
/// in Python most call sites are such (`self.shell.run_cell(…)`).
#[tokio::test]
async fn callers_on_untyped_receivers_are_kept_beside_linked_ones_and_marked_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("shellpkg");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    w(
        "shellpkg/shell.py",
        "class Shell:\n    def run_cell(self, cell):\n        return cell\n\n    def run_file(self, path):\n        return self.run_cell(path)\n",
    );
    w(
        "shellpkg/magics.py",
        "class Magics:\n    def __init__(self, shell):\n        self.shell = shell\n\n    def rerun(self, text):\n        self.shell.run_cell(text)\n",
    );
    w(
        "shellpkg/demo.py",
        "class Demo:\n    def run_cell(self, block):\n        return block\n\n    def __call__(self):\n        return self.run_cell('x')\n",
    );
    w(
        "shellpkg/runner.py",
        "def run_all(runner, cells):\n    for c in cells:\n        runner.run_cell(c)\n",
    );
    let registry = in_memory_registry(&root);
    let r = ask_in(&registry, "who calls Shell.run_cell").await;
    assert!(cites(&r, "shellpkg/shell.py", 6), "{:?}", files(&r));
    // Two classes define run_cell: the guess is kept where the receiver names the type.
    assert!(cites(&r, "shellpkg/magics.py", 6), "{:?}", files(&r));
    assert!(!cites(&r, "shellpkg/runner.py", 3), "{:?}", files(&r));
    let d = ask_in(&registry, "who calls Demo.run_cell").await;
    assert!(cites(&d, "shellpkg/demo.py", 6), "{:?}", files(&d));
    assert!(!cites(&d, "shellpkg/magics.py", 6), "{:?}", files(&d));
    let magics = r
        .relevant_files
        .iter()
        .find(|f| f.path == "shellpkg/magics.py")
        .map(|f| f.rationale.clone())
        .unwrap_or_default();
    assert!(magics.contains("guessed"), "{magics}");
}

/// A type asked for by description ("error type that keeps …", "the enum saying …") is
/// cited at the type whose doc and fields say it, not at the functions of its file, nor
/// at the type whose name is the question's plain word in another case (`Error`).
#[tokio::test]
async fn a_described_type_is_cited_at_its_definition() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    w("Cargo.toml", "[package]\nname = \"app\"\n");
    w(
        "src/error.rs",
        "/// The default error type: the input and the kind of error.
pub struct Error<I> {
    pub input: I,
    pub code: ErrorKind,
}

pub enum ErrorKind {
    Tag,
    Char,
}

/// Makes an error from the input and a kind.
pub fn make_error<I>(input: I, code: ErrorKind) -> Error<I> {
    Error { input, code }
}

/// Adds a context to an error and keeps the previous ones.
pub fn add_context<I>(input: I, ctx: &'static str, other: VerboseError<I>) -> VerboseError<I> {
    other
}

/// Accumulates errors and their contexts while backtracking, so that a readable
/// message can show the whole trail.
pub struct VerboseError<I> {
    /// The trail: each input with its context or char.
    pub errors: Vec<(I, VerboseErrorKind)>,
}

pub enum VerboseErrorKind {
    Context(&'static str),
    Char(char),
}
",
    );
    w(
        "src/internal.rs",
        "/// Contains information on needed data if a parser returned `Incomplete`.
pub enum Needed {
    /// Needs more data, but we do not know how much.
    Unknown,
    /// Contains the number of needed bytes.
    Size(usize),
}

/// Runs a streaming parser and asks for more input when it wants it.
pub fn complete<I>(input: I) -> Result<I, Needed> {
    Ok(input)
}

/// How much input a parser consumed.
pub fn consumed(input: &str) -> usize {
    input.len()
}
",
    );
    w(
        "src/lib.rs",
        "pub mod error;\npub mod internal;\n/// Parses input streaming.\npub fn parse(input: &str) -> usize {\n    input.len()\n}\n",
    );
    let registry = in_memory_registry(&root);
    first_cites(
        &registry,
        &[
            (
                "error type that keeps the whole trail of contexts and chars for a readable message",
                ("src/error.rs", 24),
            ),
            (
                "the enum saying how much more input a streaming parser wants",
                ("src/internal.rs", 2),
            ),
        ],
    )
    .await;
    let r = ask_in(
        &registry,
        "error type that keeps the whole trail of contexts and chars for a readable message",
    )
    .await;
    // The answer names it first (the locations are in line order).
    let first = r.answer.find("`VerboseError` at src/error.rs:24");
    let other = r.answer.find("`Error` at");
    assert!(
        first.is_some() && other.is_none_or(|o| o > first.unwrap_or(0)),
        "{}",
        r.answer
    );
}

/// A pasted statement whose call the repository does not define (`packages.add(…)`, a
/// list's method) is read as a description: the answer ranks its words and cites the class
/// it constructs; the message says no symbol has that name, and not "in that case" when
/// only a longer name holds the word.
#[tokio::test]
async fn a_pasted_call_the_repository_does_not_define_is_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    w(
        "src/maps/MapsPackage.java",
        "package maps;\n\npublic class MapsPackage {\n    public MapsPackage() {}\n\n    public int createViewManagers() {\n        return 1;\n    }\n}\n",
    );
    w(
        "src/maps/MapCircle.java",
        "package maps;\n\npublic class MapCircle {\n    public void addToMap(Object map) {\n        map.hashCode();\n    }\n}\n",
    );
    let registry = in_memory_registry(&root);
    let r = ask_in(&registry, "packages.add(new MapsPackage());").await;
    assert_eq!(
        r.relevant_files.first().map(|f| f.path.as_str()),
        Some("src/maps/MapsPackage.java"),
        "{}",
        r.answer
    );
    assert!(!r.answer.contains("in that case"), "{}", r.answer);
    // A literal argument makes a bare call code: the function it calls.
    w(
        "src/glom.py",
        "def glom(target, spec):\n    return target\n\n\ndef other(x):\n    return glom(x, 'a')\n",
    );
    let registry = in_memory_registry(&root);
    let r = ask_in(&registry, ">>> glom(target, 'a.b.c')").await;
    assert!(r.answer.contains("src/glom.py:1"), "{}", r.answer);
}

/// Methods of a described type: the head noun names the type, places narrow it; a head
/// noun no file mentions leaves the description's words to rank instead of giving up.
#[tokio::test]
async fn methods_of_a_described_type_follow_its_head_noun() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    w("go.mod", "module example.com/app\n\ngo 1.21\n");
    w(
        "encoder.go",
        "package app\n\ntype encoder struct{ w []byte }\n\nfunc (e *encoder) encode(v any) {}\n\nfunc (e *encoder) flush() {}\n",
    );
    w(
        "cli/encoder.go",
        "package cli\n\n// A colored JSON encoder.\ntype encoder struct{ indent int }\n\nfunc (e *encoder) encodeColored(v any) {}\n\nfunc (e *encoder) writeIndent() {}\n",
    );
    let registry = in_memory_registry(&root);
    let r = ask_in(
        &registry,
        "list the methods of the cli's colored JSON encoder",
    )
    .await;
    assert_eq!(
        r.relevant_files.first().map(|f| f.path.as_str()),
        Some("cli/encoder.go"),
        "{}",
        r.answer
    );
    assert!(r.answer.contains("encoder.writeIndent"), "{}", r.answer);
    let r = ask_in(&registry, "methods of the colored JSON printer").await;
    assert_eq!(
        r.relevant_files.first().map(|f| f.path.as_str()),
        Some("cli/encoder.go"),
        "{}",
        r.answer
    );
}

/// A report written in Python (a prompt, a traceback) ranks the Python code before a
/// JavaScript port that shares its words.
#[tokio::test]
async fn a_python_report_ranks_python_before_a_port_in_another_language() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    let w = |p: &str, s: &str| write_file(&root, p, s);
    let body = |def: &str| {
        format!(
            "{def} flatten_namedtuple(obj, unpicklable):\n    # a namedtuple is flattened into a list of its fields when not unpicklable\n    fields = namedtuple_fields(obj)\n    return flatten_list(fields, unpicklable)\n"
        )
    };
    w(
        "jsonport/pickler.js",
        &body("function").replace(":\n", " {\n"),
    );
    w(
        "jsonport/namedtuple.js",
        &body("function").replace(":\n", " {\n"),
    );
    w("pkg/pickler.py", &body("def"));
    w(
        "pkg/util.py",
        "def is_list(obj):\n    return isinstance(obj, list)\n",
    );
    let registry = in_memory_registry(&root);
    let report = "Namedtuple encoding returns nulls\n\nEncoding a list of namedtuple objects with unpicklable=False gives nulls for every namedtuple.\n\n>>> from collections import namedtuple\n>>> import pkg\n>>> T = namedtuple('T', 'name url')\n>>> pkg.encode([T('a', 'b')], unpicklable=False)\n'[null]'\n\nThe namedtuple fields should be flattened into a list, as before.\n";
    let r = ask_in(&registry, report).await;
    assert_eq!(
        r.relevant_files.first().map(|f| f.path.as_str()),
        Some("pkg/pickler.py"),
        "{}",
        r.answer
    );
}
