//! Which graph store the `code` tool reads and `explore index` writes: the local index, or
//! a shared ArangoDB (issue 8, `docs/arangodb.md`).
//!
//! Settings come from flags, then the environment (clap reads both), then the
//! configuration files (`store = "arangodb"` and an `[arangodb]` table), then defaults.
//! The repository's own file may choose the store, database and graph id but never the
//! server or the user: the password would go wherever the repository pointed it.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Result, anyhow};
use explore_tools::code::arango::{ArangoConfig, ArangoStore};

use crate::cli::{StoreArgs, StoreKind};
use crate::settings::{self, ProcessEnv};

/// The resolved store settings of one command.
#[derive(Debug, Clone)]
pub struct StoreSettings {
    /// The store chosen.
    pub kind: StoreKind,
    /// The ArangoDB connection (meaningful when `kind` is `Arangodb`).
    pub arango: ArangoConfig,
}

/// Merges flags, environment and configuration files for the repository at `dir`. Ignored
/// repository settings are logged as warnings.
pub fn resolve(args: &StoreArgs, dir: &Path) -> Result<StoreSettings> {
    let files = settings::store_files(dir, settings::user_file_path(&ProcessEnv))?;
    for w in &files.warnings {
        tracing::warn!("{w}");
    }
    let a = &args.arango;
    let repo = a
        .arango_repo
        .clone()
        .or(files.arango.repo)
        .unwrap_or_else(|| {
            dir.file_name()
                .map_or_else(|| "repo".to_string(), |n| n.to_string_lossy().into_owned())
        });
    let mut cfg = ArangoConfig::from_lookup(repo, |_| None);
    if let Some(u) = a.arango_url.clone().or(files.arango.url) {
        cfg.url = u;
    }
    if let Some(u) = a.arango_user.clone().or(files.arango.user) {
        cfg.user = u;
    }
    cfg.password = a.arango_password.clone().filter(|p| !p.is_empty());
    if let Some(d) = a.arango_db.clone().or(files.arango.database) {
        cfg.database = d;
    }
    cfg.create_db = a.create_db;
    Ok(StoreSettings {
        kind: args.store.or(files.store).unwrap_or(StoreKind::Embedded),
        arango: cfg,
    })
}

/// Opens the shared store when the settings choose ArangoDB: checks the server, the
/// credentials, the database and that a compatible graph of this repository was pushed,
/// so that a wrong setting fails once, up front, with what to do about it.
pub fn open_shared(args: &StoreArgs, dir: &Path) -> Result<Option<Arc<ArangoStore>>> {
    let s = resolve(args, dir)?;
    if s.kind != StoreKind::Arangodb {
        return Ok(None);
    }
    let store = ArangoStore::open(&s.arango).map_err(|e| anyhow!("{e}"))?;
    tracing::info!(
        "code graph: ArangoDB {} database {} graph {}",
        s.arango.url,
        s.arango.database,
        s.arango.repo
    );
    Ok(Some(Arc::new(store)))
}
