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
use crate::settings::{self, ProcessEnv, Source, Sourced, StoreFiles};

/// The resolved store settings of one command.
#[derive(Debug, Clone)]
pub struct StoreSettings {
    /// The store chosen, and by what.
    pub kind: Sourced<StoreKind>,
    /// The ArangoDB connection (meaningful when `kind` is `Arangodb`).
    pub arango: ArangoConfig,
    /// Where the URL, database and graph id came from, for `explore config`.
    pub sources: [Source; 3],
    /// Repository settings ignored, and why.
    pub warnings: Vec<String>,
}

/// Merges flags, environment and configuration files for the repository at `dir`.
pub fn resolve(args: &StoreArgs, dir: &Path) -> Result<StoreSettings> {
    resolve_with(args, dir, settings::user_file_path(&ProcessEnv))
}

/// [`resolve`] with the user file given (tests pass their own, or none).
pub fn resolve_with(
    args: &StoreArgs,
    dir: &Path,
    user_file: Option<std::path::PathBuf>,
) -> Result<StoreSettings> {
    Ok(from_files(
        args,
        dir,
        settings::store_files(dir, user_file)?,
    ))
}

/// Flags and environment (in `args`) over what the configuration files gave.
pub fn from_files(args: &StoreArgs, dir: &Path, files: StoreFiles) -> StoreSettings {
    let a = &args.arango;
    // clap reads flag and variable alike, so the source names both.
    fn pick<T>(
        cli: Option<T>,
        cli_src: &'static str,
        file: Option<(T, Source)>,
    ) -> Option<(T, Source)> {
        cli.map(|v| (v, Source::Flag(cli_src))).or(file)
    }
    let dir_name = dir
        .file_name()
        .map_or_else(|| "repo".to_string(), |n| n.to_string_lossy().into_owned());
    let (repo, repo_src) = pick(a.arango_repo.clone(), "--arango-repo", files.arango.repo)
        .unwrap_or((
            dir_name,
            Source::Derived("the repository directory's name".into()),
        ));
    let mut cfg = ArangoConfig::from_lookup(repo, |_| None);
    let mut url_src = Source::Default;
    if let Some((u, src)) = pick(
        a.arango_url.clone(),
        "--arango-url / EXPLORE_ARANGO_URL",
        files.arango.url,
    ) {
        cfg.url = u;
        url_src = src;
    }
    if let Some((u, _)) = pick(
        a.arango_user.clone(),
        "--arango-user / EXPLORE_ARANGO_USER",
        files.arango.user,
    ) {
        cfg.user = u;
    }
    cfg.password = a.arango_password.clone().filter(|p| !p.is_empty());
    let mut db_src = Source::Default;
    if let Some((d, src)) = pick(
        a.arango_db.clone(),
        "--arango-db / EXPLORE_ARANGO_DB",
        files.arango.database,
    ) {
        cfg.database = d;
        db_src = src;
    }
    cfg.create_db = a.create_db;
    let kind = pick(args.store, "--store / EXPLORE_STORE", files.store)
        .map(|(k, s)| Sourced::new(k, s))
        .unwrap_or(Sourced::new(StoreKind::Embedded, Source::Default));
    StoreSettings {
        kind,
        arango: cfg,
        sources: [url_src, db_src, repo_src],
        warnings: files.warnings,
    }
}

/// Opens the shared store when the settings choose ArangoDB: checks the server, the
/// credentials, the database and that a compatible graph of this repository was pushed,
/// so that a wrong setting fails once, up front, with what to do about it.
pub fn open_shared(args: &StoreArgs, dir: &Path) -> Result<Option<Arc<ArangoStore>>> {
    let s = resolve(args, dir)?;
    for w in &s.warnings {
        tracing::warn!("{w}");
    }
    open(&s)
}

/// [`open_shared`] for settings already resolved (the main command's, whose warnings it
/// prints itself).
pub fn open(s: &StoreSettings) -> Result<Option<Arc<ArangoStore>>> {
    if s.kind.value != StoreKind::Arangodb {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::cli::ArangoArgs;

    #[test]
    fn flags_over_defaults_and_the_password_never_printed() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("relay");
        std::fs::create_dir(&repo).unwrap();
        let args = StoreArgs {
            store: Some(StoreKind::Arangodb),
            arango: ArangoArgs {
                arango_url: Some("http://db:8529".into()),
                arango_password: Some("s3cret".into()),
                ..Default::default()
            },
        };
        let s = resolve_with(&args, &repo, None).unwrap();
        assert_eq!(s.kind.value, StoreKind::Arangodb);
        assert_eq!(s.kind.source.to_string(), "--store / EXPLORE_STORE");
        let cfg = &s.arango;
        assert_eq!(cfg.url, "http://db:8529");
        assert_eq!(cfg.user, "root");
        assert_eq!(cfg.database, "explore");
        assert_eq!(cfg.repo, "relay");
        assert_eq!(cfg.password.as_deref(), Some("s3cret"));
        assert_eq!(
            s.sources[0].to_string(),
            "--arango-url / EXPLORE_ARANGO_URL"
        );
        assert_eq!(s.sources[1].to_string(), "default");
        assert_eq!(s.sources[2].to_string(), "the repository directory's name");
        assert!(!format!("{args:?}").contains("s3cret"));
        assert!(!format!("{s:?}").contains("s3cret"));
        let none = resolve_with(&StoreArgs::default(), &repo, None).unwrap();
        assert_eq!(none.kind.value, StoreKind::Embedded);
        assert_eq!(none.kind.source.to_string(), "default");
    }
}
