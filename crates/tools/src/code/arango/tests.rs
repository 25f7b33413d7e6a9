use std::collections::HashMap;

use pretty_assertions::assert_eq;

use super::memory::MemoryBackend;
use super::*;
use crate::code::{GraphData, Kind, Language};

fn cfg() -> ArangoConfig {
    ArangoConfig {
        url: "http://db.internal:8529".into(),
        user: "ci".into(),
        password: Some("hunter2-secret".into()),
        database: "explore".into(),
        repo: "relay".into(),
        create_db: false,
    }
}

#[test]
fn debug_redacts_the_password() {
    let shown = format!("{:?}", cfg());
    assert!(!shown.contains("hunter2"), "{shown}");
    assert_eq!(
        shown,
        "ArangoConfig { url: \"http://db.internal:8529\", user: \"ci\", password: Some(\"<redacted>\"), database: \"explore\", repo: \"relay\", create_db: false }"
    );
    let none = ArangoConfig {
        password: None,
        ..cfg()
    };
    assert!(format!("{none:?}").contains("password: None"));
    let alt = format!("{:#?}", cfg());
    assert!(!alt.contains("hunter2"));
}

#[test]
fn settings_from_the_environment() {
    let env: HashMap<&str, &str> = HashMap::from([
        (ENV_URL, "https://arango.example:8530"),
        (ENV_USER, "explorer"),
        (ENV_PASSWORD, "pw"),
        (ENV_DB, "graphs"),
    ]);
    let c = ArangoConfig::from_lookup("relay", |k| env.get(k).map(|v| v.to_string()));
    assert_eq!(c.url, "https://arango.example:8530");
    assert_eq!(c.user, "explorer");
    assert_eq!(c.password.as_deref(), Some("pw"));
    assert_eq!(c.database, "graphs");
    assert_eq!(c.repo, "relay");
    let d = ArangoConfig::from_lookup("ledger", |k| (k == ENV_PASSWORD).then(|| " ".to_string()));
    assert_eq!(d.url, "http://localhost:8529");
    assert_eq!(d.user, "root");
    assert_eq!(d.password, None);
    assert_eq!(d.database, "explore");
}

#[test]
fn urls_are_checked_and_credentials_in_them_refused() {
    assert!(cfg().check_url().is_ok());
    let with = |url: &str| ArangoConfig {
        url: url.into(),
        ..cfg()
    };
    assert_eq!(
        with("localhost:8529").check_url().unwrap_err().to_string(),
        "invalid ArangoDB URL localhost:8529: it must start with http:// or https://"
    );
    let e = with("http://root:hunter2@db:8529")
        .check_url()
        .unwrap_err()
        .to_string();
    assert!(!e.contains("hunter2"), "{e}");
    assert_eq!(
        e,
        "invalid ArangoDB URL <hidden: it contains credentials>: put the user and password in EXPLORE_ARANGO_USER and EXPLORE_ARANGO_PASSWORD, not in the URL"
    );
    assert_eq!(
        with("http:///x").check_url().unwrap_err().to_string(),
        "invalid ArangoDB URL http:///x: it has no host"
    );
}

#[test]
fn unreachable_server_names_the_url() {
    // Port 9 on localhost: nothing listens; the connection is refused at once.
    let c = ArangoConfig {
        url: "http://127.0.0.1:9".into(),
        ..cfg()
    };
    let e = ArangoStore::open(&c).unwrap_err();
    assert!(matches!(e, ArangoError::Unreachable { .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.starts_with("cannot reach ArangoDB at http://127.0.0.1:9 ("),
        "{text}"
    );
    assert!(text.ends_with(
        "start the server (docs/arangodb.md) or set EXPLORE_ARANGO_URL / --arango-url to where it runs"
    ));
    assert!(!text.contains("hunter2"));
}

#[test]
fn actionable_messages() {
    let c = cfg();
    let e = ArangoError::BadCredentials {
        url: c.url.clone(),
        user: c.user.clone(),
    };
    assert_eq!(
        e.to_string(),
        "ArangoDB at http://db.internal:8529 refused user \"ci\": check EXPLORE_ARANGO_USER and EXPLORE_ARANGO_PASSWORD (or --arango-user / --arango-password)"
    );
    let e = ArangoError::MissingDatabase {
        url: c.url.clone(),
        database: "explore".into(),
    };
    assert_eq!(
        e.to_string(),
        "database \"explore\" does not exist on http://db.internal:8529; run `explore index --store arangodb --create-db` to create it, or set EXPLORE_ARANGO_DB / --arango-db"
    );
    assert_eq!(
        short_detail(
            "reqwest::Error { kind: Request, source: hyper_util::client::legacy::Error(Connect, ConnectError(\"tcp connect error\", Os { code: 111, kind: ConnectionRefused, message: \"Connection refused\" })) }"
        ),
        "connection refused"
    );
}

fn sym(name: &str, qname: &str, kind: Kind, file: u32, path: &str, line: u32) -> Symbol {
    Symbol {
        name: name.into(),
        display: name.into(),
        qname: qname.into(),
        kind,
        file,
        path: path.into(),
        line,
        end_line: line + 2,
        signature: format!("func {name}()"),
        doc: None,
        is_test: false,
        is_vendored: false,
        is_generated: false,
    }
}

fn file(path: &str) -> FileInfo {
    FileInfo {
        path: path.into(),
        language: Language::Go,
        lines: 30,
        is_test: false,
        is_vendored: false,
        is_generated: false,
    }
}

fn graph() -> GraphData {
    GraphData {
        files: vec![file("a.go"), file("b.go"), file("c.go")],
        symbols: vec![
            sym("Run", "m.Run", Kind::Function, 0, "a.go", 3),
            sym("Plan", "m.Plan", Kind::Function, 1, "b.go", 5),
            sym("plan", "m.plan", Kind::Function, 2, "c.go", 7),
        ],
        edges: vec![
            Edge {
                from: 0,
                to: 1,
                kind: EdgeKind::Calls,
                line: 4,
                inferred: false,
            },
            Edge {
                from: 0,
                to: 2,
                kind: EdgeKind::Calls,
                line: 4,
                inferred: true,
            },
        ],
    }
}

#[test]
fn open_needs_a_pushed_compatible_graph() {
    let e =
        ArangoStore::with_backend(Box::new(MemoryBackend::new()), "relay", "explore").unwrap_err();
    assert_eq!(
        e.to_string(),
        "database \"explore\" holds no code graph for repository \"relay\"; run `explore index --store arangodb` in the repository first"
    );
    let b = MemoryBackend::new();
    let mut old = docs::MetaDoc::current("relay");
    old.format = 0;
    old.writer = "0.0.1".into();
    b.run(&aql::insert(
        docs::META,
        vec![serde_json::to_value(&old).unwrap()],
    ))
    .unwrap();
    let e = ArangoStore::with_backend(Box::new(b), "relay", "explore").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "the code graph of \"relay\" in database \"explore\" was written by explore 0.0.1 (format 0.{v}); this build reads format 1.{v}: run `explore index --store arangodb` to rewrite it",
            v = crate::code::FORMAT_VERSION
        )
    );
}

#[test]
fn push_is_idempotent_and_incremental() {
    let b = MemoryBackend::new();
    let g = graph();
    let first = push_with(&b, "relay", &g, 2).unwrap();
    assert_eq!(
        (first.files, first.changed, first.unchanged, first.removed),
        (3, 3, 0, 0)
    );
    assert_eq!((first.symbols, first.edges), (3, 2));
    assert_eq!(b.count(docs::SYMBOLS), 3);
    assert_eq!(b.count("calls"), 2);
    assert_eq!(b.count(docs::FILES), 3);
    // Batches of 2: symbols 2+1, calls 2, files 2+1, meta 1.
    assert_eq!(first.batches, 6);

    b.clear_writes();
    let again = push_with(&b, "relay", &g, 2).unwrap();
    assert_eq!(
        (again.changed, again.unchanged, again.symbols, again.edges),
        (0, 3, 0, 0)
    );
    assert_eq!(b.writes(), vec![(docs::META.to_string(), 1)]);

    // Change c.go's symbol: c.go changes, and a.go, whose call names it by key.
    let mut g2 = g.clone();
    g2.symbols[2].line = 9;
    b.clear_writes();
    let third = push_with(&b, "relay", &g2, 100).unwrap();
    assert_eq!((third.changed, third.unchanged), (2, 1));
    assert_eq!((third.symbols, third.edges), (2, 2));
    assert_eq!(b.count(docs::SYMBOLS), 3);
    assert_eq!(b.count("calls"), 2);

    // Drop b.go (and the call to it): removed, its symbol gone.
    let mut g3 = g2.clone();
    g3.files.remove(1);
    g3.symbols.remove(1);
    g3.symbols[1].file = 1;
    g3.edges.remove(0);
    g3.edges[0].to = 1;
    let fourth = push_with(&b, "relay", &g3, 100).unwrap();
    assert_eq!(
        (fourth.removed, fourth.changed, fourth.unchanged),
        (1, 1, 1)
    );
    assert_eq!(b.count(docs::SYMBOLS), 2);
    assert_eq!(b.count("calls"), 1);
    assert_eq!(b.count(docs::FILES), 2);

    // Another repository in the same database is left alone.
    push_with(&b, "ledger", &g, 100).unwrap();
    assert_eq!(b.count(docs::SYMBOLS), 5);
    let again = push_with(&b, "relay", &g3, 100).unwrap();
    assert_eq!(again.changed, 0);
}

#[test]
fn push_replaces_a_graph_of_another_format() {
    let b = MemoryBackend::new();
    push_with(&b, "relay", &graph(), 100).unwrap();
    let mut old = docs::MetaDoc::current("relay");
    old.format = 0;
    b.run(&aql::insert(
        docs::META,
        vec![serde_json::to_value(&old).unwrap()],
    ))
    .unwrap();
    let s = push_with(&b, "relay", &graph(), 100).unwrap();
    assert!(s.rebuilt);
    assert_eq!((s.changed, s.unchanged), (3, 0));
    assert!(ArangoStore::with_backend(Box::new(b), "relay", "explore").is_ok());
}

#[test]
fn store_answers_from_documents() {
    let b = MemoryBackend::new();
    push_with(&b, "relay", &graph(), 100).unwrap();
    let store = ArangoStore::with_backend(Box::new(b), "relay", "explore").unwrap();
    let ids = store.find_names(&NameMatch::Exact("PLAN".into()));
    let names: Vec<(String, String)> = ids
        .iter()
        .map(|&i| {
            let s = store.symbol(i).unwrap();
            (s.qname, s.path)
        })
        .collect();
    assert_eq!(
        names,
        vec![
            ("m.Plan".to_string(), "b.go".to_string()),
            ("m.plan".to_string(), "c.go".to_string())
        ]
    );
    let run = store.by_qname("m.Run");
    assert_eq!(run.len(), 1);
    let page = store.edges_out(run[0], EdgeKind::Calls, 1);
    assert_eq!(page.total, 2);
    assert_eq!(page.edges.len(), 1);
    assert_eq!(page.edges[0].to, ids[0]);
    assert_eq!(page.edges[0].line, 4);
    let back = store.edges_in(ids[1], EdgeKind::Calls, 10);
    assert_eq!(back.total, 1);
    assert_eq!(back.edges[0].from, run[0]);
    assert!(back.edges[0].inferred);
    let f = store.file(store.symbol(run[0]).unwrap().file).unwrap();
    assert_eq!(f, file("a.go"));
    assert_eq!(store.in_file("c.go"), vec![ids[1]]);
    assert_eq!(
        store.find_names(&NameMatch::Glob("[pq]lan".into())),
        ids.clone()
    );
    assert_eq!(
        store.find_names(&NameMatch::Glob("[pq".into())),
        Vec::<SymbolId>::new()
    );
    assert_eq!(store.find_names(&NameMatch::Contains("LA".into())), ids);
    // A hostile name is a value: it matches nothing and breaks nothing.
    assert_eq!(
        store.find_names(&NameMatch::Exact("x\" RETURN 1 //".into())),
        Vec::<SymbolId>::new()
    );
    assert_eq!(store.last_error(), None);
}

struct Broken;

impl Backend for Broken {
    fn run(&self, q: &Aql) -> Result<Rows, ArangoError> {
        if q.query == aql::meta("").query {
            let meta = docs::MetaDoc::current("relay");
            return Ok(Rows {
                rows: vec![serde_json::to_value(meta).unwrap()],
                full_count: None,
            });
        }
        Err(ArangoError::Unreachable {
            url: "http://db:8529".into(),
            detail: "connection refused".into(),
        })
    }
    fn ensure_collection(&self, _: &str, _: bool) -> Result<(), ArangoError> {
        Ok(())
    }
    fn ensure_index(&self, _: &str, _: &[&str]) -> Result<(), ArangoError> {
        Ok(())
    }
}

#[test]
fn failures_mid_session_answer_empty_and_are_kept() {
    let store = ArangoStore::with_backend(Box::new(Broken), "relay", "explore").unwrap();
    assert_eq!(store.by_qname("m.Run"), Vec::<SymbolId>::new());
    let e = store.last_error().unwrap();
    assert!(e.ends_with("cannot reach ArangoDB at http://db:8529 (connection refused); start the server (docs/arangodb.md) or set EXPLORE_ARANGO_URL / --arango-url to where it runs"), "{e}");
    assert_eq!(store.edges_out(0, EdgeKind::Calls, 5), EdgePage::default());
}

#[test]
fn the_code_tool_turns_a_failed_shared_lookup_into_an_error() {
    use crate::Tool;
    use crate::code::{CodeTool, IndexOptions};
    let store = ArangoStore::with_backend(Box::new(Broken), "relay", "explore").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tool = CodeTool::new(
        crate::RepoRoot::new(dir.path()).unwrap(),
        IndexOptions {
            no_cache: true,
            shared: Some(std::sync::Arc::new(store)),
            ..Default::default()
        },
    );
    let e = tool
        .call(&serde_json::json!({"operation": "find", "symbol": "Run"}))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the shared ArangoDB graph did not answer"),
        "{e}"
    );
    assert!(e.contains("cannot reach ArangoDB at http://db:8529"), "{e}");
    assert!(e.contains("without --store arangodb"), "{e}");
}
