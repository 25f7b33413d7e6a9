//! One conformance suite over the [`GraphStore`] trait: every `code` operation (find,
//! resolve for each role, callers and callees at depths 1 to 3, implementations,
//! implemented-by, methods, dispatch parents, usages, files' symbols, trace) on every
//! symbol of the two fixtures, rendered to a transcript of exact lines.
//!
//! - The embedded store always runs, and its transcript is checked against the fixtures'
//!   fact sheets at known lines.
//! - The ArangoDB store always runs over the in-memory backend (the documents a push
//!   writes, queried with the store's AQL), and must give the identical transcript.
//! - Against a live ArangoDB server when `EXPLORE_ARANGO_URL` is set (see
//!   `docs/arangodb.md`): push, query, compare; otherwise it says loudly that it skipped.
//!
//! Symbol ids are per store, so answers are compared by what they show (qualified name,
//! path, lines, kind, signature, flags), never by id.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use explore_tools::RepoRoot;
use explore_tools::code::arango::memory::MemoryBackend;
use explore_tools::code::arango::{self, ArangoConfig, ArangoStore, ops};
use explore_tools::code::{
    CodeGraph, CodeTool, EdgeKind, GraphStore, IndexOptions, Kind, Match, Related, Resolution,
    Role, Symbol, SymbolId, SymbolQuery, Walk,
};
use pretty_assertions::assert_eq;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../evals/fixtures")
        .join(name)
}

fn build(name: &str) -> std::sync::Arc<CodeGraph> {
    CodeTool::new(
        RepoRoot::new(fixture(name)).unwrap(),
        IndexOptions {
            no_cache: true,
            ..Default::default()
        },
    )
    .graph()
    .unwrap()
}

fn relay() -> &'static CodeGraph {
    static G: OnceLock<std::sync::Arc<CodeGraph>> = OnceLock::new();
    G.get_or_init(|| build("relay"))
}

fn ledger() -> &'static CodeGraph {
    static G: OnceLock<std::sync::Arc<CodeGraph>> = OnceLock::new();
    G.get_or_init(|| build("ledger"))
}

fn show(store: &dyn GraphStore, s: &Symbol) -> String {
    let file = store
        .file(s.file)
        .map(|f| format!("{}/{}/{}", f.path, f.language.as_str(), f.lines))
        .unwrap_or_else(|| "NO FILE".into());
    format!(
        "{} [{}] {} {}:{}-{} {:?} doc={:?} t={} v={} g={} file={}",
        s.qname,
        s.display,
        s.kind,
        s.path,
        s.line,
        s.end_line,
        s.signature,
        s.doc,
        s.is_test as u8,
        s.is_vendored as u8,
        s.is_generated as u8,
        file
    )
}

fn show_matches(store: &dyn GraphStore, ms: &[Match]) -> String {
    ms.iter()
        .map(|m| format!("\n    t{} {}", m.tier, show(store, &m.symbol)))
        .collect()
}

fn show_resolution(store: &dyn GraphStore, r: &Resolution) -> String {
    match r {
        Resolution::One { symbol, skipped } => format!(
            "one {}{}",
            show(store, &symbol.symbol),
            show_matches(store, skipped)
        ),
        Resolution::Ambiguous(ms) => format!("ambiguous{}", show_matches(store, ms)),
        Resolution::WrongKind(ms) => format!("wrong kind{}", show_matches(store, ms)),
        Resolution::NotFound { near } => format!("not found{}", show_matches(store, near)),
    }
}

fn show_walk(store: &dyn GraphStore, w: &Walk) -> String {
    let mut out = format!("total {}", w.total);
    for h in &w.hops {
        out.push_str(&format!(
            "\n    d{} {} at {:?} inferred={}",
            h.depth,
            show(store, &h.symbol),
            h.lines,
            h.inferred
        ));
    }
    out
}

fn show_related(store: &dyn GraphStore, rs: &[Related]) -> String {
    rs.iter()
        .map(|r| {
            format!(
                "\n    {} via {}",
                show(store, &r.symbol),
                r.via.as_ref().map_or("-".into(), |v| v.qname.clone())
            )
        })
        .collect()
}

/// The store's id for the symbol `s` of the reference graph.
fn locate(store: &dyn GraphStore, s: &Symbol) -> SymbolId {
    let ids = store.by_qname(&s.qname);
    ids.into_iter()
        .find(|&i| {
            store
                .symbol(i)
                .is_some_and(|o| o.path == s.path && o.line == s.line && o.kind == s.kind)
        })
        .unwrap_or_else(|| panic!("{} at {}:{} not in the store", s.qname, s.path, s.line))
}

type Rel = fn(&dyn GraphStore, SymbolId) -> Vec<Related>;

/// Every operation on every symbol of `reference`, answered by `store`.
fn transcript(reference: &CodeGraph, store: &dyn GraphStore) -> Vec<String> {
    let mut out = Vec::new();
    let symbols = reference.symbols();
    let names: BTreeSet<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
    for name in &names {
        let all = ops::find(store, &SymbolQuery::new(*name), true);
        out.push(format!("find {name}:{}", show_matches(store, &all)));
        for role in [Role::Any, Role::Callable, Role::Type, Role::Abstract] {
            let r = ops::resolve(store, &SymbolQuery::new(*name), role);
            out.push(format!(
                "resolve {name} {role:?}: {}",
                show_resolution(store, &r)
            ));
        }
    }
    for pattern in [
        "*Issue*",
        "Plan?",
        "[Hh]andle*",
        "{get,set}*",
        "*_*",
        "[!a-m]*",
        "*er",
        "x\" RETURN 1 //",
        "[unclosed",
    ] {
        let all = ops::find(store, &SymbolQuery::new(pattern), true);
        out.push(format!("find {pattern}:{}", show_matches(store, &all)));
    }
    for s in symbols {
        let id = locate(store, s);
        let exact = SymbolQuery::new(s.display.clone())
            .kind(s.kind)
            .file(s.path.clone());
        let found = ops::find(store, &exact, false);
        out.push(format!(
            "find {} {} {}:{}",
            s.display,
            s.kind,
            s.path,
            show_matches(store, &found)
        ));
        if s.kind.is_callable() {
            for depth in 1..=3 {
                let w = ops::callers(store, id, depth);
                out.push(format!(
                    "callers {} d{depth}: {}",
                    s.qname,
                    show_walk(store, &w)
                ));
                let w = ops::callees(store, id, depth);
                out.push(format!(
                    "callees {} d{depth}: {}",
                    s.qname,
                    show_walk(store, &w)
                ));
            }
        }
        if s.kind == Kind::Method {
            let r = ops::dispatch_parents(store, id);
            out.push(format!("dispatch {}:{}", s.qname, show_related(store, &r)));
        }
        if s.kind.is_type() {
            for (op, f) in [
                ("implementations", ops::implementations as Rel),
                ("implemented_by", ops::implemented_by),
                ("methods", ops::methods),
                ("usages", ops::usages),
            ] {
                let r = f(store, id);
                out.push(format!("{op} {}:{}", s.qname, show_related(store, &r)));
            }
        }
    }
    let paths: BTreeSet<&str> = symbols.iter().map(|s| s.path.as_str()).collect();
    for p in paths {
        let ids = store.in_file(p);
        let shown: Vec<String> = ids
            .iter()
            .map(|&i| show(store, &store.symbol(i).unwrap()))
            .collect();
        out.push(format!("in_file {p}: {}", shown.join(" | ")));
    }
    // Traces: from each of the first callables to the most called ones.
    let callables: Vec<&Symbol> = symbols.iter().filter(|s| s.kind.is_callable()).collect();
    let mut targets: Vec<(usize, &Symbol)> = callables
        .iter()
        .map(|s| {
            let id = locate(store, s);
            (store.edges_in(id, EdgeKind::Calls, 0).total, *s)
        })
        .collect();
    targets.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.qname.cmp(&b.1.qname)));
    let named: Vec<(&Symbol, &Symbol)> = [(
        "example.com/relay/internal/webhook.Handler.HandleWebhook",
        "example.com/relay/internal/brain.Planner.Plan",
    )]
    .iter()
    .filter_map(|(f, t)| {
        let f = symbols.iter().find(|s| s.qname == *f)?;
        let t = symbols.iter().find(|s| s.qname == *t)?;
        Some((f, t))
    })
    .collect();
    let pairs = callables
        .iter()
        .take(60)
        .flat_map(|f| targets.iter().take(3).map(move |(_, t)| (*f, *t)))
        .chain(named);
    for (from, to) in pairs {
        {
            let path = ops::trace(store, &[locate(store, from)], &[locate(store, to)]);
            let shown = match path {
                None => "none".to_string(),
                Some(steps) => steps
                    .iter()
                    .map(|st| {
                        format!(
                            "{}@{}{}",
                            st.symbol.qname,
                            st.call_line,
                            if st.inferred { "?" } else { "" }
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" -> "),
            };
            out.push(format!("trace {} -> {}: {shown}", from.qname, to.qname));
        }
    }
    out
}

fn line_starting<'a>(t: &'a [String], prefix: &str) -> &'a str {
    t.iter()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no transcript line starts with {prefix:?}"))
}

#[test]
fn embedded_store_answers_the_fact_sheets() {
    let t = transcript(relay(), relay());
    let callers = line_starting(
        &t,
        "callers example.com/relay/internal/brain.Planner.Plan d1: ",
    );
    assert!(
        callers.starts_with(
            "callers example.com/relay/internal/brain.Planner.Plan d1: total 5\n    d1 example.com/relay/internal/brain.Orchestrator.Run [Orchestrator.Run] method internal/brain/orchestrator.go:39-"
        ),
        "{callers}"
    );
    assert!(callers.contains(" at [41] inferred=false"), "{callers}");
    let trace = line_starting(
        &t,
        "trace example.com/relay/internal/webhook.Handler.HandleWebhook -> example.com/relay/internal/brain.Planner.Plan: ",
    );
    assert_eq!(
        trace,
        "trace example.com/relay/internal/webhook.Handler.HandleWebhook -> example.com/relay/internal/brain.Planner.Plan: \
         example.com/relay/internal/webhook.Handler.HandleWebhook@0 -> \
         example.com/relay/internal/service.EventIngest.Ingest@95 -> \
         example.com/relay/internal/service.EventIngest.triggerPlanning@59 -> \
         example.com/relay/internal/brain.Orchestrator.Run@133 -> \
         example.com/relay/internal/brain.Planner.Plan@41"
    );
    let implementations = line_starting(
        &t,
        "implementations example.com/relay/internal/model.IssueStore:",
    );
    assert!(
        implementations.contains("example.com/relay/internal/store.IssueStore")
            || implementations.contains("internal/store/issue.go"),
        "{implementations}"
    );
    let t = transcript(ledger(), ledger());
    let implementations = line_starting(&t, "implementations ledger.storage.base.Repository:");
    assert!(
        implementations.contains(
            "ledger.storage.sql.SqlRepository [SqlRepository] class src/ledger/storage/sql.py:72-"
        ),
        "{implementations}"
    );
    assert!(
        implementations.contains("ledger.storage.postgres.PostgresRepository [PostgresRepository] class src/ledger/storage/postgres.py:16-"),
        "{implementations}"
    );
    assert!(
        implementations.contains("via ledger.storage.sql.SqlRepository"),
        "{implementations}"
    );
}

fn compare(name: &str, reference: &CodeGraph, other: &dyn GraphStore) {
    let want = transcript(reference, reference);
    let got = transcript(reference, other);
    assert_eq!(want.len(), got.len(), "{name}: transcript lengths differ");
    for (w, g) in want.iter().zip(&got) {
        assert_eq!(w, g, "{name}: answers differ");
    }
}

#[test]
fn arango_documents_answer_like_the_embedded_store() {
    for (name, g) in [("relay", relay()), ("ledger", ledger())] {
        let backend = MemoryBackend::new();
        let stats = arango::push_with(&backend, name, g.data(), 250).unwrap();
        assert_eq!(stats.files, g.files().len());
        assert_eq!(stats.symbols, g.symbols().len());
        assert_eq!(stats.edges, g.edges().len());
        // Re-indexing the same graph writes nothing but the meta document.
        let again = arango::push_with(&backend, name, g.data(), 250).unwrap();
        assert_eq!((again.changed, again.symbols, again.edges), (0, 0, 0));
        let store = ArangoStore::with_backend(Box::new(backend), name, "memory").unwrap();
        compare(name, g, &store);
        assert_eq!(store.last_error(), None);
    }
}

#[test]
fn live_arangodb_answers_like_the_embedded_store() {
    let Some(url) = std::env::var("EXPLORE_ARANGO_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!(
            "SKIPPED live ArangoDB conformance: EXPLORE_ARANGO_URL is not set. To run it, start \
             a server and run:\n  EXPLORE_ARANGO_URL=http://localhost:8529 \
             EXPLORE_ARANGO_PASSWORD=... cargo test -p explore-tools --test store_conformance \
             -- --nocapture\n(see docs/arangodb.md)"
        );
        return;
    };
    for (name, g) in [("relay", relay()), ("ledger", ledger())] {
        let mut cfg = ArangoConfig::from_env(format!("conformance-{name}"));
        if std::env::var("EXPLORE_ARANGO_DB").is_err() {
            cfg.database = "explore_conformance".into();
        }
        cfg.create_db = true;
        eprintln!(
            "live ArangoDB conformance: {name} on {url}, database {}",
            cfg.database
        );
        let first = arango::push(&cfg, g.data()).unwrap();
        eprintln!("  push: {first:?}");
        let again = arango::push(&cfg, g.data()).unwrap();
        assert_eq!((again.changed, again.symbols, again.edges), (0, 0, 0));
        let store = ArangoStore::open(&cfg).unwrap();
        compare(name, g, &store);
        assert_eq!(store.last_error(), None);
    }
}

/// The `code` tool itself, pointed at a shared store (what `--store arangodb` does), prints
/// exactly what it prints from the local index: same operations, same text.
#[test]
fn the_code_tool_answers_from_a_shared_store_as_from_the_local_index() {
    use explore_tools::Tool;
    use serde_json::json;
    let calls = [
        json!({"operation": "find", "symbol": "IssueStore"}),
        json!({"operation": "find", "symbol": "*Issue*"}),
        json!({"operation": "callers", "symbol": "Plan", "depth": 2}),
        json!({"operation": "callees", "symbol": "Planner.Plan"}),
        json!({"operation": "implementations", "symbol": "IssueStore"}),
        json!({"operation": "methods", "symbol": "IssueStore"}),
        json!({"operation": "usages", "symbol": "Issue"}),
        json!({"operation": "trace", "symbol": "main", "to": "Plan"}),
        json!({"operation": "find", "symbol": "NoSuchThingAnywhere"}),
    ];
    let g = relay();
    let backend = MemoryBackend::new();
    arango::push_with(&backend, "relay", g.data(), 250).unwrap();
    let store = ArangoStore::with_backend(Box::new(backend), "relay", "memory").unwrap();
    let local = CodeTool::new(
        RepoRoot::new(fixture("relay")).unwrap(),
        IndexOptions {
            no_cache: true,
            ..Default::default()
        },
    );
    let shared = CodeTool::new(
        RepoRoot::new(fixture("relay")).unwrap(),
        IndexOptions {
            no_cache: true,
            shared: Some(std::sync::Arc::new(store)),
            ..Default::default()
        },
    );
    for call in &calls {
        let want = local.call(call).map(|o| o.text).map_err(|e| e.to_string());
        let got = shared.call(call).map(|o| o.text).map_err(|e| e.to_string());
        assert_eq!(want, got, "{call}");
    }
    // The shared path never built the local index.
    assert!(shared.stats().is_none());
    let found = shared.call(&calls[0]).unwrap().text;
    assert!(found.contains("internal/model/issue.go:155"), "{found}");
}

/// Counts the statements a store sends, and can pretend the call traversal was cut.
struct Counting {
    inner: MemoryBackend,
    cut_traversals: bool,
    sent: std::sync::Arc<std::sync::Mutex<Vec<(&'static str, String)>>>,
}

impl arango::Backend for Counting {
    fn run(&self, q: &arango::aql::Aql) -> Result<arango::Rows, arango::ArangoError> {
        let coll = q.bind.get("@edges").and_then(|v| v.as_str()).unwrap_or("");
        self.sent.lock().unwrap().push((q.query, coll.to_string()));
        let mut rows = self.inner.run(q)?;
        if self.cut_traversals && q.query.contains("INBOUND s @@edges") {
            rows.full_count = Some(rows.rows.len() + 1);
        }
        Ok(rows)
    }
    fn ensure_collection(&self, name: &str, edge: bool) -> Result<(), arango::ArangoError> {
        self.inner.ensure_collection(name, edge)
    }
    fn ensure_index(&self, coll: &str, fields: &[&str]) -> Result<(), arango::ArangoError> {
        self.inner.ensure_index(coll, fields)
    }
}

/// A depth-3 callers walk is one traversal on the server, not a query per caller; and when
/// the traversal is cut by the row limit the store walks per symbol and answers the same.
#[test]
fn a_deep_callers_walk_is_one_traversal_and_a_cut_one_falls_back() {
    use explore_tools::Tool;
    let g = relay();
    let call = serde_json::json!({"operation": "callers", "symbol": "IssueStore.Get", "depth": 3});
    let local = CodeTool::new(
        RepoRoot::new(fixture("relay")).unwrap(),
        IndexOptions {
            no_cache: true,
            ..Default::default()
        },
    );
    let want = local.call(&call).unwrap().text;
    assert!(want.lines().count() > 4, "{want}");
    for cut in [false, true] {
        let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let backend = Counting {
            inner: MemoryBackend::new(),
            cut_traversals: cut,
            sent: sent.clone(),
        };
        arango::push_with(&backend.inner, "relay", g.data(), 250).unwrap();
        let store = ArangoStore::with_backend(Box::new(backend), "relay", "memory").unwrap();
        let tool = CodeTool::new(
            RepoRoot::new(fixture("relay")).unwrap(),
            IndexOptions {
                no_cache: true,
                shared: Some(std::sync::Arc::new(store)),
                ..Default::default()
            },
        );
        sent.lock().unwrap().clear();
        let got = tool.call(&call).unwrap().text;
        assert_eq!(want, got, "cut={cut}");
        let sent = sent.lock().unwrap().clone();
        let traversals = sent
            .iter()
            .filter(|(q, _)| q.contains("INBOUND s @@edges"))
            .count();
        let per_symbol = sent
            .iter()
            .filter(|(q, c)| {
                q.starts_with("FOR e IN @@edges FILTER e._to == @node") && c == "calls"
            })
            .count();
        assert_eq!(traversals, 1, "cut={cut}: {sent:?}");
        if cut {
            assert!(per_symbol > 3, "a cut traversal falls back: {per_symbol}");
        } else {
            assert_eq!(
                per_symbol, 0,
                "every caller's edges came with the traversal"
            );
        }
    }
}
