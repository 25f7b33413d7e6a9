//! The ArangoDB graph store: the code graph in a shared database, for a monorepo indexed
//! once and queried by every developer and CI job.
//!
//! [`ArangoStore`] implements [`GraphStore`] with one AQL query per lookup, so every query
//! of [`crate::code::query`] (find, resolve, callers and callees at any depth,
//! implementations, methods, usages, trace) runs unchanged against the server. The walks
//! (depth, trace's breadth-first search) stay in the query layer, over `edges_in` and
//! `edges_out`: that keeps their tie-breaking, and so their answers, identical to the
//! embedded store's, which the conformance suite checks (`tests/store_conformance.rs`).
//! [`push`] writes a built graph incrementally: only files whose documents changed are
//! replaced, in batches.
//!
//! Client: arangors with its blocking reqwest client. The trait is synchronous and the
//! agent calls tools on tokio's blocking threads, where starting or blocking on a second
//! runtime would panic; the blocking client runs its own I/O thread and is safe there.
//!
//! Data model and decisions: `docs/arangodb.md`; documents in [`docs`], queries in
//! [`aql`].

pub mod aql;
pub mod docs;
pub mod memory;
mod push;

use std::collections::HashMap;
use std::sync::Mutex;

use arangors::ClientError;
use arangors::client::reqwest::ReqwestClient;
use arangors::index::{Index, IndexSettings};
use serde_json::Value;

use self::aql::Aql;
use self::docs::{EdgeDoc, FileDoc, MetaDoc, SymbolDoc};
use super::model::{Edge, EdgeKind, FileId, FileInfo, Symbol, SymbolId};
use super::store::{EdgePage, GraphStore, NameMatch};

pub use push::{DEFAULT_BATCH, PushStats, push, push_with};

/// The `code` operations over any [`GraphStore`]. The embedded store offers them as
/// `CodeGraph` methods; a server-backed store is queried through these same functions,
/// which is what makes the two answer alike.
pub mod ops {
    pub use crate::code::query::{
        callees, callers, dispatch_parents, find, implementations, implemented_by, methods,
        resolve, trace, usages,
    };
}

/// Environment variable: the server URL (`http://localhost:8529`).
pub const ENV_URL: &str = "EXPLORE_ARANGO_URL";
/// Environment variable: the user (`root`).
pub const ENV_USER: &str = "EXPLORE_ARANGO_USER";
/// Environment variable: the password.
pub const ENV_PASSWORD: &str = "EXPLORE_ARANGO_PASSWORD";
/// Environment variable: the database (`explore`).
pub const ENV_DB: &str = "EXPLORE_ARANGO_DB";

/// How to reach the server and which graph to use.
///
/// `Debug` is written by hand: the password is shown as `<redacted>`, so the settings can
/// be logged and printed safely.
#[derive(Clone, PartialEq, Eq)]
pub struct ArangoConfig {
    /// Server URL, `http://host:8529`. Credentials do not belong here.
    pub url: String,
    /// User name.
    pub user: String,
    /// Password, if the server needs one.
    pub password: Option<String>,
    /// Database holding the graphs.
    pub database: String,
    /// Which repository's graph: every document carries it, so one database can hold many.
    pub repo: String,
    /// Create the database when it does not exist (needs rights on `_system`).
    pub create_db: bool,
}

impl std::fmt::Debug for ArangoConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArangoConfig")
            .field("url", &self.url)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("database", &self.database)
            .field("repo", &self.repo)
            .field("create_db", &self.create_db)
            .finish()
    }
}

impl ArangoConfig {
    /// Default server URL.
    pub const DEFAULT_URL: &str = "http://localhost:8529";
    /// Default user.
    pub const DEFAULT_USER: &str = "root";
    /// Default database.
    pub const DEFAULT_DB: &str = "explore";

    /// Settings from the environment (`EXPLORE_ARANGO_*`), defaults for what is unset.
    pub fn from_env(repo: impl Into<String>) -> Self {
        Self::from_lookup(repo, |k| std::env::var(k).ok())
    }

    /// Settings from a variable lookup (the environment, or a test's map).
    pub fn from_lookup(repo: impl Into<String>, get: impl Fn(&str) -> Option<String>) -> Self {
        let get = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        ArangoConfig {
            url: get(ENV_URL).unwrap_or_else(|| Self::DEFAULT_URL.to_string()),
            user: get(ENV_USER).unwrap_or_else(|| Self::DEFAULT_USER.to_string()),
            password: get(ENV_PASSWORD),
            database: get(ENV_DB).unwrap_or_else(|| Self::DEFAULT_DB.to_string()),
            repo: repo.into(),
            create_db: false,
        }
    }

    /// Checks the URL before any request: `http(s)://host[:port]`, no credentials in it
    /// (they would end up in error messages and logs).
    pub fn check_url(&self) -> Result<(), ArangoError> {
        let bad = |why: &str| ArangoError::InvalidUrl {
            url: self.url.clone(),
            why: why.to_string(),
        };
        let rest = self
            .url
            .strip_prefix("http://")
            .or_else(|| self.url.strip_prefix("https://"))
            .ok_or_else(|| bad("it must start with http:// or https://"))?;
        let authority = rest.split('/').next().unwrap_or("");
        if authority.contains('@') {
            // Not echoed: the part before '@' may hold the password.
            return Err(ArangoError::InvalidUrl {
                url: "<hidden: it contains credentials>".into(),
                why: format!(
                    "put the user and password in {ENV_USER} and {ENV_PASSWORD}, not in the URL"
                ),
            });
        }
        if authority.is_empty() {
            return Err(bad("it has no host"));
        }
        Ok(())
    }
}

/// What went wrong talking to ArangoDB, said so that the user can act on it.
#[derive(Debug, thiserror::Error)]
pub enum ArangoError {
    /// The URL is not usable.
    #[error("invalid ArangoDB URL {url}: {why}")]
    InvalidUrl {
        /// The URL as given (hidden when it holds credentials).
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// No answer from the server.
    #[error(
        "cannot reach ArangoDB at {url} ({detail}); start the server (docs/arangodb.md) or set {ENV_URL} / --arango-url to where it runs"
    )]
    Unreachable {
        /// The URL tried.
        url: String,
        /// The client's reason.
        detail: String,
    },
    /// Something answered, but not ArangoDB.
    #[error("{url} answered but is not an ArangoDB server (Server header: {server})")]
    NotArango {
        /// The URL tried.
        url: String,
        /// What the Server header said.
        server: String,
    },
    /// The server refused the user or password.
    #[error(
        "ArangoDB at {url} refused user {user:?}: check {ENV_USER} and {ENV_PASSWORD} (or --arango-user / --arango-password)"
    )]
    BadCredentials {
        /// The URL.
        url: String,
        /// The user name tried.
        user: String,
    },
    /// The database does not exist.
    #[error(
        "database {database:?} does not exist on {url}; run `explore index --store arangodb --create-db` to create it, or set {ENV_DB} / --arango-db"
    )]
    MissingDatabase {
        /// The URL.
        url: String,
        /// The database name.
        database: String,
    },
    /// The database holds no graph for this repository.
    #[error(
        "database {database:?} holds no code graph for repository {repo:?}; run `explore index --store arangodb` in the repository first"
    )]
    NotIndexed {
        /// The database.
        database: String,
        /// The repository id.
        repo: String,
    },
    /// The graph was written by an incompatible build.
    #[error(
        "the code graph of {repo:?} in database {database:?} was written by explore {writer} (format {found}); this build reads format {expected}: run `explore index --store arangodb` to rewrite it"
    )]
    Incompatible {
        /// The database.
        database: String,
        /// The repository id.
        repo: String,
        /// The writer's version.
        writer: String,
        /// `layout.index` format found.
        found: String,
        /// `layout.index` format this build reads.
        expected: String,
    },
    /// The server reported an error.
    #[error("ArangoDB error {num} (HTTP {code}): {message}")]
    Server {
        /// HTTP status.
        code: u16,
        /// ArangoDB error number.
        num: u16,
        /// Its message.
        message: String,
    },
    /// An answer that does not have the expected shape.
    #[error("unexpected answer from ArangoDB: {0}")]
    Protocol(String),
}

/// ArangoDB's error number for "database not found".
const ERR_DATABASE_NOT_FOUND: u16 = 1228;
/// "collection or view not found".
const ERR_COLLECTION_NOT_FOUND: u16 = 1203;
/// "duplicate name" (creating a collection that exists).
const ERR_DUPLICATE_NAME: u16 = 1207;

fn classify(e: ClientError, cfg: &ArangoConfig) -> ArangoError {
    match e {
        ClientError::HttpClient(detail) => ArangoError::Unreachable {
            url: cfg.url.clone(),
            detail: short_detail(&detail),
        },
        ClientError::InvalidServer(server) => ArangoError::NotArango {
            url: cfg.url.clone(),
            server,
        },
        ClientError::Arango(a) if a.code() == 401 => ArangoError::BadCredentials {
            url: cfg.url.clone(),
            user: cfg.user.clone(),
        },
        ClientError::Arango(a) if a.error_num() == ERR_DATABASE_NOT_FOUND => {
            ArangoError::MissingDatabase {
                url: cfg.url.clone(),
                database: cfg.database.clone(),
            }
        }
        ClientError::Arango(a) => ArangoError::Server {
            code: a.code(),
            num: a.error_num(),
            message: a.message().to_string(),
        },
        ClientError::InsufficientPermission {
            permission,
            operation,
        } => ArangoError::Server {
            code: 403,
            num: 0,
            message: format!("insufficient permission ({permission:?}) for {operation}"),
        },
        ClientError::Serde(e) => ArangoError::Protocol(e.to_string()),
    }
}

/// The useful part of reqwest's debug output (`kind: Request, source: ... Connection
/// refused`), on one line.
fn short_detail(detail: &str) -> String {
    let one_line: String = detail.split_whitespace().collect::<Vec<_>>().join(" ");
    for needle in [
        "Connection refused",
        "timed out",
        "dns error",
        "certificate",
    ] {
        if one_line.contains(needle) {
            return needle.to_lowercase();
        }
    }
    one_line.chars().take(200).collect()
}

/// Rows of one query and the count before its `LIMIT`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rows {
    /// The result rows.
    pub rows: Vec<Value>,
    /// `fullCount`, when the query asked for it.
    pub full_count: Option<usize>,
}

/// What the store and the push need from a database: run AQL, create collections and
/// indexes. The server implementation wraps arangors; tests substitute their own.
pub trait Backend: Send + Sync {
    /// Runs one statement and returns all its rows.
    fn run(&self, q: &Aql) -> Result<Rows, ArangoError>;
    /// Creates a document (or edge) collection unless it exists.
    fn ensure_collection(&self, name: &str, edge: bool) -> Result<(), ArangoError>;
    /// Creates a persistent index on `fields` unless it exists.
    fn ensure_index(&self, collection: &str, fields: &[&str]) -> Result<(), ArangoError>;
}

/// A database on an ArangoDB server, through arangors.
pub struct Server {
    db: arangors::Database<ReqwestClient>,
    cfg: ArangoConfig,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("cfg", &self.cfg).finish()
    }
}

impl Server {
    /// Connects and opens the database (creating it when `cfg.create_db` is set).
    pub fn connect(cfg: &ArangoConfig) -> Result<Server, ArangoError> {
        cfg.check_url()?;
        let conn = arangors::Connection::establish_basic_auth(
            &cfg.url,
            &cfg.user,
            cfg.password.as_deref().unwrap_or(""),
        )
        .map_err(|e| classify(e, cfg))?;
        let db = match conn.db(&cfg.database).map_err(|e| classify(e, cfg)) {
            Ok(db) => db,
            Err(ArangoError::MissingDatabase { .. }) if cfg.create_db => {
                tracing::info!("creating ArangoDB database {}", cfg.database);
                conn.create_database(&cfg.database)
                    .map_err(|e| classify(e, cfg))?
            }
            Err(e) => return Err(e),
        };
        Ok(Server {
            db,
            cfg: cfg.clone(),
        })
    }
}

impl Backend for Server {
    fn run(&self, q: &Aql) -> Result<Rows, ArangoError> {
        let bind: HashMap<&str, Value> = q.bind.iter().map(|(k, v)| (*k, v.clone())).collect();
        let query = arangors::AqlQuery::builder()
            .query(q.query)
            .bind_vars(bind)
            .batch_size(1000)
            .options(
                arangors::aql::AqlOptions::builder()
                    .full_count(q.full_count)
                    .build(),
            )
            .build();
        let mut cursor = self
            .db
            .aql_query_batch::<Value>(query)
            .map_err(|e| classify(e, &self.cfg))?;
        let full_count = cursor
            .extra
            .as_ref()
            .and_then(|x| x.stats.as_ref())
            .and_then(|s| s.full_count);
        let mut rows = std::mem::take(&mut cursor.result);
        while cursor.more {
            let Some(id) = cursor.id.clone() else {
                return Err(ArangoError::Protocol(
                    "a cursor with more rows but no id".into(),
                ));
            };
            cursor = self
                .db
                .aql_next_batch::<Value>(&id)
                .map_err(|e| classify(e, &self.cfg))?;
            rows.append(&mut cursor.result);
        }
        Ok(Rows { rows, full_count })
    }

    fn ensure_collection(&self, name: &str, edge: bool) -> Result<(), ArangoError> {
        let made = if edge {
            self.db.create_edge_collection(name)
        } else {
            self.db.create_collection(name)
        };
        match made {
            Ok(_) => Ok(()),
            Err(ClientError::Arango(a)) if a.error_num() == ERR_DUPLICATE_NAME => Ok(()),
            Err(e) => Err(classify(e, &self.cfg)),
        }
    }

    fn ensure_index(&self, collection: &str, fields: &[&str]) -> Result<(), ArangoError> {
        let index = Index::builder()
            .name(format!("explore_{}", fields.join("_")))
            .fields(fields.iter().map(|f| f.to_string()).collect())
            .settings(IndexSettings::Persistent {
                unique: false,
                sparse: false,
                deduplicate: false,
            })
            .build();
        // Creating an index that exists returns the existing one.
        self.db
            .create_index(collection, &index)
            .map(|_| ())
            .map_err(|e| classify(e, &self.cfg))
    }
}

/// Symbols and files seen so far, and the session-local ids handed out for them.
///
/// [`SymbolId`]s index this table, not the database: the trait's ids are plain numbers
/// and stable within one store, which is all the query layer needs.
#[derive(Debug, Default)]
struct Cache {
    keys: Vec<String>,
    ids: HashMap<String, SymbolId>,
    symbols: Vec<Option<Symbol>>,
    file_keys: Vec<String>,
    file_ids: HashMap<String, FileId>,
    files: HashMap<FileId, FileInfo>,
    /// Complete call-edge lists fetched ahead by a traversal: (symbol, outgoing) → edges
    /// in the order the per-symbol query returns them.
    calls: HashMap<(SymbolId, bool), Vec<Edge>>,
}

impl Cache {
    fn file_id(&mut self, key: String) -> FileId {
        if let Some(&id) = self.file_ids.get(&key) {
            return id;
        }
        let id = self.file_keys.len() as FileId;
        self.file_keys.push(key.clone());
        self.file_ids.insert(key, id);
        id
    }

    fn intern(&mut self, repo: &str, doc: &SymbolDoc) -> Result<SymbolId, docs::DocError> {
        let file = self.file_id(docs::file_key(repo, &doc.path));
        let symbol = doc.to_symbol(file)?;
        let id = match self.ids.get(&doc.key) {
            Some(&id) => id,
            None => {
                let id = self.keys.len() as SymbolId;
                self.keys.push(doc.key.clone());
                self.ids.insert(doc.key.clone(), id);
                self.symbols.push(None);
                id
            }
        };
        if let Some(slot) = self.symbols.get_mut(id as usize) {
            *slot = Some(symbol);
        }
        Ok(id)
    }
}

/// The code graph of one repository in an ArangoDB database.
///
/// Lookups that fail on the server (it went away mid-session) answer empty, as the trait
/// has no error channel; the failure is logged and kept in [`ArangoStore::last_error`].
pub struct ArangoStore {
    backend: Box<dyn Backend>,
    repo: String,
    cache: Mutex<Cache>,
    last_error: Mutex<Option<String>>,
}

impl std::fmt::Debug for ArangoStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArangoStore")
            .field("repo", &self.repo)
            .finish_non_exhaustive()
    }
}

impl ArangoStore {
    /// Connects to the server and opens the graph of `cfg.repo`, checking that one was
    /// pushed and by a compatible build.
    pub fn open(cfg: &ArangoConfig) -> Result<Self, ArangoError> {
        let server = Server::connect(cfg)?;
        Self::with_backend(Box::new(server), &cfg.repo, &cfg.database)
    }

    /// The graph of `repo` behind any backend; `database` names it in messages.
    pub fn with_backend(
        backend: Box<dyn Backend>,
        repo: &str,
        database: &str,
    ) -> Result<Self, ArangoError> {
        let not_indexed = || ArangoError::NotIndexed {
            database: database.to_string(),
            repo: repo.to_string(),
        };
        let rows = match backend.run(&aql::meta(&docs::meta_key(repo))) {
            Ok(r) => r.rows,
            Err(ArangoError::Server { num, .. }) if num == ERR_COLLECTION_NOT_FOUND => {
                return Err(not_indexed());
            }
            Err(e) => return Err(e),
        };
        let Some(row) = rows.into_iter().next() else {
            return Err(not_indexed());
        };
        let meta: MetaDoc =
            serde_json::from_value(row).map_err(|e| ArangoError::Protocol(e.to_string()))?;
        if !meta.compatible() {
            let current = MetaDoc::current(repo);
            return Err(ArangoError::Incompatible {
                database: database.to_string(),
                repo: repo.to_string(),
                writer: meta.writer,
                found: format!("{}.{}", meta.format, meta.index_format),
                expected: format!("{}.{}", current.format, current.index_format),
            });
        }
        Ok(ArangoStore {
            backend,
            repo: repo.to_string(),
            cache: Mutex::new(Cache::default()),
            last_error: Mutex::new(None),
        })
    }

    /// The repository id this store reads.
    pub fn repo(&self) -> &str {
        &self.repo
    }

    /// The last server failure a lookup swallowed, if any.
    pub fn last_error(&self) -> Option<String> {
        self.last_error.lock().ok().and_then(|e| e.clone())
    }

    /// The last server failure a lookup swallowed, cleared: the `code` tool calls it after
    /// each answer so that an answer built from failed lookups becomes an error, not a
    /// silently short list.
    pub fn take_error(&self) -> Option<String> {
        self.last_error.lock().ok().and_then(|mut e| e.take())
    }

    fn fail(&self, what: &str, e: impl std::fmt::Display) {
        let msg = format!("{what}: {e}");
        tracing::warn!("ArangoDB lookup failed: {msg}");
        if let Ok(mut slot) = self.last_error.lock() {
            *slot = Some(msg);
        }
    }

    fn rows(&self, q: &Aql) -> Option<Rows> {
        match self.backend.run(q) {
            Ok(r) => {
                if let Some(n) = r.full_count
                    && n > r.rows.len()
                    && q.bind.get("limit") == Some(&Value::from(aql::MAX_ROWS as u64))
                {
                    tracing::warn!(
                        "ArangoDB query matched {n} rows; only the first {} are used",
                        r.rows.len()
                    );
                }
                Some(r)
            }
            Err(e) => {
                self.fail(q.query, e);
                None
            }
        }
    }

    fn intern_rows(&self, rows: Vec<Value>) -> Vec<SymbolId> {
        let Ok(mut cache) = self.cache.lock() else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            match serde_json::from_value::<SymbolDoc>(row) {
                Ok(doc) => match cache.intern(&self.repo, &doc) {
                    Ok(id) => out.push(id),
                    Err(e) => self.fail("symbol document", e),
                },
                Err(e) => self.fail("symbol document", e),
            }
        }
        out
    }

    fn symbols(&self, q: &Aql) -> Vec<SymbolId> {
        self.rows(q)
            .map(|r| self.intern_rows(r.rows))
            .unwrap_or_default()
    }

    fn key_of(&self, id: SymbolId) -> Option<String> {
        self.cache.lock().ok()?.keys.get(id as usize).cloned()
    }

    fn edges(&self, id: SymbolId, kind: EdgeKind, limit: usize, out: bool) -> EdgePage {
        if kind == EdgeKind::Calls
            && let Some(page) = self.cache.lock().ok().and_then(|c| {
                c.calls.get(&(id, out)).map(|all| EdgePage {
                    edges: all.iter().take(limit).copied().collect(),
                    total: all.len(),
                })
            })
        {
            return page;
        }
        let Some(key) = self.key_of(id) else {
            return EdgePage::default();
        };
        let node = docs::symbol_id(&key);
        let q = if out {
            aql::edges_out(kind, &node, limit)
        } else {
            aql::edges_in(kind, &node, limit)
        };
        let Some(rows) = self.rows(&q) else {
            return EdgePage::default();
        };
        let mut page = EdgePage {
            edges: Vec::with_capacity(rows.rows.len()),
            total: rows.full_count.unwrap_or(rows.rows.len()),
        };
        #[derive(serde::Deserialize)]
        struct Row {
            edge: EdgeDoc,
            other: SymbolDoc,
        }
        let Ok(mut cache) = self.cache.lock() else {
            return EdgePage::default();
        };
        for row in rows.rows {
            let row: Row = match serde_json::from_value(row) {
                Ok(r) => r,
                Err(e) => {
                    self.fail("edge row", e);
                    continue;
                }
            };
            let other = match cache.intern(&self.repo, &row.other) {
                Ok(o) => o,
                Err(e) => {
                    self.fail("edge row", e);
                    continue;
                }
            };
            let (from, to) = if out { (id, other) } else { (other, id) };
            page.edges.push(Edge {
                from,
                to,
                kind,
                line: row.edge.line,
                inferred: row.edge.inferred,
            });
        }
        page
    }
}

impl GraphStore for ArangoStore {
    fn symbol(&self, id: SymbolId) -> Option<Symbol> {
        let key = {
            let cache = self.cache.lock().ok()?;
            if let Some(Some(s)) = cache.symbols.get(id as usize) {
                return Some(s.clone());
            }
            cache.keys.get(id as usize)?.clone()
        };
        self.symbols(&aql::symbol_by_key(&key));
        let cache = self.cache.lock().ok()?;
        cache.symbols.get(id as usize).cloned().flatten()
    }

    fn file(&self, id: FileId) -> Option<FileInfo> {
        let key = {
            let cache = self.cache.lock().ok()?;
            if let Some(f) = cache.files.get(&id) {
                return Some(f.clone());
            }
            cache.file_keys.get(id as usize)?.clone()
        };
        let row = self
            .rows(&aql::file_by_key(&key))?
            .rows
            .into_iter()
            .next()?;
        let info = match serde_json::from_value::<FileDoc>(row).map(|d| d.to_info()) {
            Ok(Ok(info)) => info,
            Ok(Err(e)) => {
                self.fail("file document", e);
                return None;
            }
            Err(e) => {
                self.fail("file document", e);
                return None;
            }
        };
        self.cache.lock().ok()?.files.insert(id, info.clone());
        Some(info)
    }

    fn find_names(&self, pattern: &NameMatch) -> Vec<SymbolId> {
        let q = match pattern {
            NameMatch::Exact(n) => aql::names_exact(&self.repo, &n.to_ascii_lowercase()),
            NameMatch::Contains(p) => aql::names_containing(&self.repo, &p.to_ascii_lowercase()),
            NameMatch::Glob(g) => match aql::glob_to_regex(&g.to_ascii_lowercase()) {
                Some(re) => aql::names_matching(&self.repo, &re),
                None => return Vec::new(),
            },
        };
        self.symbols(&q)
    }

    fn by_qname(&self, qname: &str) -> Vec<SymbolId> {
        self.symbols(&aql::by_qname(&self.repo, qname))
    }

    fn in_file(&self, path: &str) -> Vec<SymbolId> {
        self.symbols(&aql::in_file(&self.repo, path))
    }

    fn edges_out(&self, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage {
        self.edges(id, kind, limit, true)
    }

    fn edges_in(&self, id: SymbolId, kind: EdgeKind, limit: usize) -> EdgePage {
        self.edges(id, kind, limit, false)
    }

    fn prefetch_calls(&self, from: &[SymbolId], hops: u32, up: bool) {
        self.prefetch(from, hops, up);
    }
}

impl ArangoStore {
    /// Runs [`aql::calls_within`] and fills the call-edge cache for every symbol the
    /// traversal reached. A result cut by the row limit caches nothing (the walk then asks
    /// per symbol, as without a prefetch), so a cached list is always complete.
    fn prefetch(&self, from: &[SymbolId], hops: u32, up: bool) {
        let out = !up;
        let starts: Vec<SymbolId> = match self.cache.lock() {
            Ok(c) => from
                .iter()
                .copied()
                .filter(|id| !c.calls.contains_key(&(*id, out)))
                .collect(),
            Err(_) => return,
        };
        let nodes: Vec<String> = starts
            .iter()
            .filter_map(|&id| self.key_of(id).map(|k| docs::symbol_id(&k)))
            .collect();
        if nodes.is_empty() {
            return;
        }
        let Some(rows) = self.rows(&aql::calls_within(&nodes, hops, up)) else {
            return;
        };
        if rows.full_count.is_some_and(|n| n > rows.rows.len()) {
            tracing::debug!(
                "call traversal cut at {} rows; walking per symbol",
                rows.rows.len()
            );
            return;
        }
        #[derive(serde::Deserialize)]
        struct Row {
            node: String,
            edge: EdgeDoc,
            other: SymbolDoc,
        }
        let Ok(mut cache) = self.cache.lock() else {
            return;
        };
        let mut parsed = Vec::with_capacity(rows.rows.len());
        for row in rows.rows {
            match serde_json::from_value::<Row>(row) {
                Ok(r) => parsed.push(r),
                Err(e) => {
                    self.fail("traversal row", e);
                    return;
                }
            }
        }
        // Every reached symbol but the starts is some row's other end: intern those first,
        // since rows come ordered by node id, not by when the walk meets them.
        let mut others = Vec::with_capacity(parsed.len());
        for row in &parsed {
            match cache.intern(&self.repo, &row.other) {
                Ok(o) => others.push(o),
                Err(e) => {
                    self.fail("traversal row", e);
                    return;
                }
            }
        }
        let mut lists: HashMap<SymbolId, Vec<Edge>> = HashMap::new();
        for (row, other) in parsed.iter().zip(others) {
            let Some(&at) = row
                .node
                .strip_prefix("symbols/")
                .and_then(|k| cache.ids.get(k))
            else {
                // Reached, yet neither a start nor anyone's other end (a dangling edge
                // the traversal followed): cache nothing rather than a partial list.
                tracing::debug!("call traversal reached {} unexpectedly", row.node);
                return;
            };
            let (f, t) = if out { (at, other) } else { (other, at) };
            lists.entry(at).or_default().push(Edge {
                from: f,
                to: t,
                kind: EdgeKind::Calls,
                line: row.edge.line,
                inferred: row.edge.inferred,
            });
        }
        // Which symbols the server reached: walk the rows again from the starts. Each one
        // gets its (possibly empty) list; anything else stays uncached.
        let mut seen: std::collections::HashSet<SymbolId> = starts.iter().copied().collect();
        let mut level = starts;
        for _ in 0..=hops {
            let mut next = Vec::new();
            for &v in &level {
                let list = lists.get(&v).cloned().unwrap_or_default();
                for e in &list {
                    let o = if out { e.to } else { e.from };
                    if seen.insert(o) {
                        next.push(o);
                    }
                }
                cache.calls.entry((v, out)).or_insert(list);
            }
            level = next;
        }
    }
}

#[cfg(test)]
mod tests;
