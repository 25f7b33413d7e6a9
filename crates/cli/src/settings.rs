//! One [`Settings`] struct from four sources: flags > environment > the repository's
//! `.explore.toml` > the user's config file. Every value remembers where it came from, so
//! `explore config` can say why explore does what it does.
//!
//! The repository file is hostile input: whoever wrote the repository chose it. It may
//! tune the exploration (model name, angle, keywords, a *smaller* budget, turns, engine)
//! but never where requests go: `base_url` from a repository file is ignored with a
//! warning, because a repository that points explore at its own server would receive the
//! user's API key and code. It may not raise the budget above what the user would
//! otherwise get, so cloning a repository never makes a run dearer. It is read only when it
//! is a regular file (not a symlink, FIFO or device) of at most 64 KiB. See
//! `docs/configuration.md`.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use explore_agent::DEFAULT_BUDGET;
use serde::Deserialize;

use crate::cli::{AskArgs, Engine, StoreKind};

/// The angle when nothing sets one (spec 004).
pub const DEFAULT_ANGLE: &str = "general";
/// The endpoint used when only an API key is configured.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The repository's configuration file, at its root.
pub const REPO_FILE: &str = ".explore.toml";
/// Largest configuration file read.
const MAX_FILE_BYTES: u64 = 64 * 1024;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Nothing set it.
    Default,
    /// A command-line flag (its name).
    Flag(&'static str),
    /// An environment variable (its name).
    Env(&'static str),
    /// The repository's `.explore.toml`.
    RepoFile(PathBuf),
    /// The user's configuration file.
    UserFile(PathBuf),
    /// Derived from other settings (the engine under `auto`).
    Derived(String),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Default => f.write_str("default"),
            Source::Flag(name) => write!(f, "{name}"),
            Source::Env(name) => write!(f, "{name}"),
            Source::RepoFile(p) | Source::UserFile(p) => write!(f, "{}", p.display()),
            Source::Derived(why) => f.write_str(why),
        }
    }
}

/// A value and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sourced<T> {
    /// The effective value.
    pub value: T,
    /// Its origin.
    pub source: Source,
}

impl<T> Sourced<T> {
    /// A value and its source.
    pub fn new(value: T, source: Source) -> Self {
        Sourced { value, source }
    }
}

/// The engine after `auto` is resolved: the agent's own enum.
pub use explore_agent::Engine as ResolvedEngine;

/// The effective configuration of one run.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The repository explored.
    pub repo: Sourced<PathBuf>,
    /// The engine as asked for (`auto`, `llm`, `local`).
    pub engine: Sourced<Engine>,
    /// The engine that will run; `auto` resolved.
    pub resolved_engine: Sourced<ResolvedEngine>,
    /// Model name.
    pub model: Sourced<Option<String>>,
    /// Endpoint base URL, when one is configured.
    pub base_url: Sourced<Option<String>>,
    /// API key (from `OPENAI_API_KEY` only). Never printed.
    pub api_key: Sourced<Option<String>>,
    /// Token budget.
    pub budget: Sourced<u64>,
    /// Turn limit; `None` leaves the agent's default.
    pub max_turns: Sourced<Option<u32>>,
    /// Focus angle; also the cache key and the cache file's name.
    pub angle: Sourced<String>,
    /// Keywords.
    pub keywords: Sourced<Vec<String>>,
    /// Session directory (turns the cache on).
    pub session: Sourced<Option<PathBuf>>,
    /// The user file looked at, and whether it exists.
    pub user_file: Option<(PathBuf, bool)>,
    /// The repository file looked at, and whether it exists.
    pub repo_file: (PathBuf, bool),
    /// Things the user should know (ignored or capped repository settings).
    pub warnings: Vec<String>,
    /// The code graph's store and its connection.
    pub store: crate::store::StoreSettings,
}

impl Settings {
    /// True when a model endpoint is configured: a base URL (flag, `OPENAI_BASE_URL` or
    /// the user file) or an API key (`OPENAI_API_KEY`). A model name alone does not count:
    /// without a URL or a key there is nothing it could be sent to.
    pub fn endpoint_configured(&self) -> bool {
        self.base_url.value.is_some() || self.api_key.value.is_some()
    }

    /// The base URL requests go to: the configured one, else OpenAI's when a key is set.
    pub fn effective_base_url(&self) -> Option<String> {
        match (&self.base_url.value, &self.api_key.value) {
            (Some(url), _) => Some(url.clone()),
            (None, Some(_)) => Some(DEFAULT_BASE_URL.to_string()),
            (None, None) => None,
        }
    }
}

/// The keys a configuration file may hold. Unknown keys are errors naming the file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    engine: Option<Engine>,
    model: Option<String>,
    base_url: Option<String>,
    budget: Option<u64>,
    max_turns: Option<u32>,
    angle: Option<String>,
    keywords: Option<Vec<String>>,
    store: Option<StoreKind>,
    arangodb: Option<ArangoFile>,
}

/// The `[arangodb]` table of a configuration file. No password: it belongs in the
/// environment (`EXPLORE_ARANGO_PASSWORD`), never in a file a repository could ship.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArangoFile {
    /// Server URL (user file only).
    pub url: Option<String>,
    /// User name (user file only).
    pub user: Option<String>,
    /// Database name.
    pub database: Option<String>,
    /// The id the repository's graph is stored under.
    pub repo: Option<String>,
    /// Recognised only to refuse it without echoing the value (a parse error would quote
    /// the line).
    pub password: Option<serde::de::IgnoredAny>,
}

/// The graph-store settings the configuration files give, merged (repository file over
/// user file), each with the file it came from, for the layers below flags and environment.
#[derive(Debug, Default, Clone)]
pub struct StoreFiles {
    /// `store = "…"`.
    pub store: Option<(StoreKind, Source)>,
    /// `[arangodb]`.
    pub arango: ArangoFiles,
    /// Settings ignored, and why.
    pub warnings: Vec<String>,
}

/// The `[arangodb]` values the files give, with their sources.
#[derive(Debug, Default, Clone)]
pub struct ArangoFiles {
    /// Server URL (user file only).
    pub url: Option<(String, Source)>,
    /// User name (user file only).
    pub user: Option<(String, Source)>,
    /// Database name.
    pub database: Option<(String, Source)>,
    /// Graph id.
    pub repo: Option<(String, Source)>,
}

/// Reads `store` and `[arangodb]` from the repository's `.explore.toml` and the user file.
/// A repository may pick the store, database and graph id, but not the server or user:
/// the password would follow the URL to wherever the repository pointed it.
pub fn store_files(repo: &Path, user_file: Option<PathBuf>) -> Result<StoreFiles> {
    let user = match &user_file {
        Some(p) => read_file(p, false)?,
        None => None,
    };
    let repo_file = repo.join(REPO_FILE);
    let from_repo = read_file(&repo_file, true)?;
    store_from_configs(
        &repo_file,
        from_repo.as_ref(),
        user_file.as_deref(),
        user.as_ref(),
    )
}

/// [`store_files`] over files already read (the main command reads them once for all
/// its settings).
fn store_from_configs(
    repo_file: &Path,
    from_repo: Option<&FileConfig>,
    user_file: Option<&Path>,
    user: Option<&FileConfig>,
) -> Result<StoreFiles> {
    let r_src = Source::RepoFile(repo_file.to_path_buf());
    let u_src = user_file
        .map(|p| Source::UserFile(p.to_path_buf()))
        .unwrap_or(Source::Default);
    let r = from_repo
        .and_then(|c| c.arangodb.clone())
        .unwrap_or_default();
    let u = user.and_then(|c| c.arangodb.clone()).unwrap_or_default();
    for (set, path) in [
        (r.password.is_some(), Some(repo_file)),
        (u.password.is_some(), user_file),
    ] {
        if let (true, Some(path)) = (set, path) {
            bail!(
                "{}: `arangodb.password` is not read from configuration files; set \
                 EXPLORE_ARANGO_PASSWORD (or --arango-password) and remove it from the file",
                path.display()
            );
        }
    }
    let mut out = StoreFiles::default();
    for (key, set) in [("url", r.url.is_some()), ("user", r.user.is_some())] {
        if set {
            out.warnings.push(format!(
                "ignoring `arangodb.{key}` in {}: a repository may not choose which server \
                 (and so which password) explore connects to; set it in your user file or \
                 EXPLORE_ARANGO_{}",
                repo_file.display(),
                key.to_ascii_uppercase()
            ));
        }
    }
    let tag = |v: Option<String>, s: &Source| v.map(|v| (v, s.clone()));
    out.store = from_repo
        .and_then(|c| c.store)
        .map(|k| (k, r_src.clone()))
        .or(user.and_then(|c| c.store).map(|k| (k, u_src.clone())));
    out.arango = ArangoFiles {
        url: tag(u.url, &u_src),
        user: tag(u.user, &u_src),
        database: tag(r.database, &r_src).or(tag(u.database, &u_src)),
        repo: tag(r.repo, &r_src).or(tag(u.repo, &u_src)),
    };
    Ok(out)
}

/// Reads the process environment; a seam so tests can pass a map.
pub trait Env {
    /// The variable's value, `None` when unset or empty.
    fn get(&self, name: &str) -> Option<String>;
}

/// The real process environment.
#[derive(Debug, Clone, Copy)]
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn get(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.trim().is_empty())
    }
}

/// The user's configuration file: `$EXPLORE_CONFIG` when set, else
/// `<config dir>/explore/config.toml` (`$XDG_CONFIG_HOME` or `~/.config` on Linux).
pub fn user_file_path(env: &dyn Env) -> Option<PathBuf> {
    if let Some(p) = env.get("EXPLORE_CONFIG") {
        return Some(PathBuf::from(p));
    }
    if let Some(x) = env.get("XDG_CONFIG_HOME") {
        let x = PathBuf::from(x);
        if x.is_absolute() {
            return Some(x.join("explore").join("config.toml"));
        }
    }
    directories::BaseDirs::new().map(|d| d.config_dir().join("explore").join("config.toml"))
}

/// Merges flags, environment and files into [`Settings`] for the repository `repo`.
pub fn resolve(
    args: &AskArgs,
    repo: Sourced<PathBuf>,
    env: &dyn Env,
    user_file: Option<PathBuf>,
) -> Result<Settings> {
    let mut warnings = Vec::new();

    let user = match &user_file {
        Some(path) => read_file(path, false)?,
        None => None,
    };
    let user_src = |p: &PathBuf| Source::UserFile(p.clone());
    let repo_file = repo.value.join(REPO_FILE);
    let repo_cfg = read_file(&repo_file, true)?;
    let repo_src = Source::RepoFile(repo_file.clone());
    let store = crate::store::from_files(
        &args.store,
        &repo.value,
        store_from_configs(
            &repo_file,
            repo_cfg.as_ref(),
            user_file.as_deref(),
            user.as_ref(),
        )?,
    );
    warnings.extend(store.warnings.iter().cloned());

    // A layer is (value, source) or nothing; the first present wins.
    fn pick<T>(layers: Vec<Option<(T, Source)>>, default: T) -> Sourced<T> {
        layers
            .into_iter()
            .flatten()
            .next()
            .map(|(v, s)| Sourced::new(v, s))
            .unwrap_or(Sourced::new(default, Source::Default))
    }
    let u = user.as_ref().zip(user_file.as_ref());
    let r = repo_cfg.as_ref();

    let engine_env = env
        .get("EXPLORE_ENGINE")
        .map(|v| parse_engine(&v).map(|e| (e, Source::Env("EXPLORE_ENGINE"))))
        .transpose()?;
    let engine = pick(
        vec![
            args.engine.map(|e| (e, Source::Flag("--engine"))),
            engine_env,
            r.and_then(|c| c.engine).map(|e| (e, repo_src.clone())),
            u.and_then(|(c, p)| c.engine.map(|e| (e, user_src(p)))),
        ],
        Engine::Auto,
    );

    let model = pick(
        vec![
            args.model.clone().map(|m| (m, Source::Flag("--model"))),
            env.get("EXPLORE_MODEL")
                .map(|m| (m, Source::Env("EXPLORE_MODEL"))),
            r.and_then(|c| c.model.clone())
                .map(|m| (m, repo_src.clone())),
            u.and_then(|(c, p)| c.model.clone().map(|m| (m, user_src(p)))),
        ],
        String::new(),
    );
    let model = Sourced::new(
        Some(model.value.trim().to_string()).filter(|m| !m.is_empty()),
        model.source,
    );
    if let Some(name) = &model.value
        && name.chars().any(char::is_control)
    {
        bail!(
            "{}: `model` must be a plain name, not {name:?}",
            model.source
        );
    }

    if r.is_some_and(|c| c.base_url.is_some()) {
        warnings.push(format!(
            "ignoring `base_url` in {}: a repository may not choose where requests (and your \
             API key) are sent; set it with --base-url, OPENAI_BASE_URL or the user file",
            repo_file.display()
        ));
    }
    let base_url = pick(
        vec![
            args.base_url
                .clone()
                .map(|v| (v, Source::Flag("--base-url"))),
            env.get("OPENAI_BASE_URL")
                .map(|v| (v, Source::Env("OPENAI_BASE_URL"))),
            u.and_then(|(c, p)| c.base_url.clone().map(|v| (v, user_src(p)))),
        ],
        String::new(),
    );
    let base_url = Sourced::new(
        Some(base_url.value.trim().trim_end_matches('/').to_string()).filter(|v| !v.is_empty()),
        base_url.source,
    );
    if let Some(url) = &base_url.value
        && !(url.starts_with("http://") || url.starts_with("https://"))
    {
        bail!(
            "{}: `base_url` must start with http:// or https://, got `{url}`",
            base_url.source
        );
    }

    let api_key = match env.get("OPENAI_API_KEY") {
        Some(k) => Sourced::new(Some(k), Source::Env("OPENAI_API_KEY")),
        None => Sourced::new(None, Source::Default),
    };

    let budget_env = env
        .get("EXPLORE_BUDGET")
        .map(|v| parse_num::<u64>(&v, "EXPLORE_BUDGET").map(|b| (b, Source::Env("EXPLORE_BUDGET"))))
        .transpose()?;
    let user_budget = u.and_then(|(c, p)| c.budget.map(|b| (b, user_src(p))));
    // The ceiling a repository file may not exceed: what the user gets without it.
    let ceiling = user_budget.as_ref().map_or(DEFAULT_BUDGET, |(b, _)| *b);
    let repo_budget = match r.and_then(|c| c.budget) {
        Some(b) if b > ceiling => {
            warnings.push(format!(
                "{}: `budget = {b}` is above your {ceiling}; a repository may lower the budget, \
                 never raise it, so {ceiling} is used",
                repo_file.display()
            ));
            Some((ceiling, repo_src.clone()))
        }
        other => other.map(|b| (b, repo_src.clone())),
    };
    let budget = pick(
        vec![
            args.budget.map(|b| (b, Source::Flag("--budget"))),
            budget_env,
            repo_budget,
            user_budget,
        ],
        DEFAULT_BUDGET,
    );
    if budget.value == 0 {
        bail!("{}: `budget` must be at least 1 token", budget.source);
    }

    let turns_env = env
        .get("EXPLORE_MAX_TURNS")
        .map(|v| {
            parse_num::<u32>(&v, "EXPLORE_MAX_TURNS").map(|t| (t, Source::Env("EXPLORE_MAX_TURNS")))
        })
        .transpose()?;
    let max_turns = pick(
        vec![
            args.max_turns
                .map(|t| (Some(t), Source::Flag("--max-turns"))),
            turns_env.map(|(t, s)| (Some(t), s)),
            r.and_then(|c| c.max_turns)
                .map(|t| (Some(t), repo_src.clone())),
            u.and_then(|(c, p)| c.max_turns.map(|t| (Some(t), user_src(p)))),
        ],
        None,
    );
    if max_turns.value == Some(0) {
        bail!("{}: `max_turns` must be at least 1", max_turns.source);
    }

    let angle = pick(
        vec![
            args.angle.clone().map(|a| (a, Source::Flag("--angle"))),
            env.get("EXPLORE_ANGLE")
                .map(|a| (a, Source::Env("EXPLORE_ANGLE"))),
            r.and_then(|c| c.angle.clone())
                .map(|a| (a, repo_src.clone())),
            u.and_then(|(c, p)| c.angle.clone().map(|a| (a, user_src(p)))),
        ],
        DEFAULT_ANGLE.to_string(),
    );
    check_angle(&angle.value).with_context(|| format!("{}: bad `angle`", angle.source))?;

    let keywords = pick(
        vec![
            Some(args.keywords.clone())
                .filter(|k| !k.is_empty())
                .map(|k| (k, Source::Flag("--keywords"))),
            r.and_then(|c| c.keywords.clone())
                .map(|k| (k, repo_src.clone())),
            u.and_then(|(c, p)| c.keywords.clone().map(|k| (k, user_src(p)))),
        ],
        Vec::new(),
    );
    let keywords = Sourced::new(
        keywords
            .value
            .iter()
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty())
            .collect(),
        keywords.source,
    );

    let session = pick(
        vec![
            args.session
                .clone()
                .map(|s| (Some(s), Source::Flag("--session"))),
            env.get("EXPLORE_SESSION")
                .map(|s| (Some(PathBuf::from(s)), Source::Env("EXPLORE_SESSION"))),
        ],
        None,
    );

    let partial = Settings {
        repo,
        engine: engine.clone(),
        resolved_engine: Sourced::new(ResolvedEngine::Local, Source::Default),
        model,
        base_url,
        api_key,
        budget,
        max_turns,
        angle,
        keywords,
        session,
        user_file: user_file.map(|p| {
            let exists = p.is_file();
            (p, exists)
        }),
        repo_file: (repo_file, r.is_some()),
        warnings,
        store,
    };
    let resolved = match engine.value {
        Engine::Llm => Sourced::new(ResolvedEngine::Llm, engine.source.clone()),
        Engine::Local => Sourced::new(ResolvedEngine::Local, engine.source.clone()),
        Engine::Auto if partial.endpoint_configured() => Sourced::new(
            ResolvedEngine::Llm,
            Source::Derived("auto: a model endpoint is configured".into()),
        ),
        Engine::Auto => Sourced::new(
            ResolvedEngine::Local,
            Source::Derived("auto: no model endpoint configured".into()),
        ),
    };
    Ok(Settings {
        resolved_engine: resolved,
        ..partial
    })
}

/// An angle names a cache file (`explore-<angle>.json`), so it is a plain slug: lowercase
/// letters, digits, `-` and `_`, starting with a letter or digit, at most 64 characters.
pub fn check_angle(angle: &str) -> Result<()> {
    let ok = !angle.is_empty()
        && angle.len() <= 64
        && angle
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && angle
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !ok {
        bail!(
            "`{}` is not an angle: use lowercase letters, digits, `-` and `_` (e.g. `general`, \
             `architecture`, `error-handling`)",
            angle.escape_debug()
        );
    }
    Ok(())
}

fn parse_engine(v: &str) -> Result<Engine> {
    match v.trim() {
        "auto" => Ok(Engine::Auto),
        "llm" => Ok(Engine::Llm),
        "local" => Ok(Engine::Local),
        other => bail!("EXPLORE_ENGINE: `{other}` is not an engine; use auto, llm or local"),
    }
}

fn parse_num<T: std::str::FromStr>(v: &str, name: &str) -> Result<T> {
    v.trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("{name}: `{v}` is not a positive whole number"))
}

/// Reads and parses one configuration file; `None` when it does not exist. The repository
/// file must be a regular file, not a symlink (it could point at a secret whose content a
/// parse error would echo).
fn read_file(path: &Path, from_repo: bool) -> Result<Option<FileConfig>> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read `{}`", path.display())),
    };
    if from_repo && meta.file_type().is_symlink() {
        bail!(
            "`{}` is a symlink; the repository's configuration must be a regular file",
            path.display()
        );
    }
    let meta = if meta.file_type().is_symlink() {
        std::fs::metadata(path).with_context(|| format!("cannot read `{}`", path.display()))?
    } else {
        meta
    };
    if !meta.is_file() {
        bail!("`{}` is not a regular file", path.display());
    }
    if meta.len() > MAX_FILE_BYTES {
        bail!(
            "`{}` is {} bytes; a configuration file may be at most {MAX_FILE_BYTES}",
            path.display(),
            meta.len()
        );
    }
    let text = fs_err::read_to_string(path)?;
    let cfg: FileConfig = toml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.to_string().trim_end()))?;
    Ok(Some(cfg))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    struct MapEnv(HashMap<&'static str, &'static str>);

    impl Env for MapEnv {
        fn get(&self, name: &str) -> Option<String> {
            self.0.get(name).map(|v| (*v).to_string())
        }
    }

    fn env(pairs: &[(&'static str, &'static str)]) -> MapEnv {
        MapEnv(pairs.iter().copied().collect())
    }

    fn repo(dir: &Path) -> Sourced<PathBuf> {
        Sourced::new(dir.to_path_buf(), Source::Flag("-C"))
    }

    #[test]
    fn defaults_without_anything() {
        let dir = tempfile::tempdir().unwrap();
        let s = resolve(&AskArgs::default(), repo(dir.path()), &env(&[]), None).unwrap();
        assert_eq!(s.budget, Sourced::new(60_000, Source::Default));
        assert_eq!(s.angle.value, "general");
        assert_eq!(s.resolved_engine.value, ResolvedEngine::Local);
        assert_eq!(
            s.resolved_engine.source.to_string(),
            "auto: no model endpoint configured"
        );
        assert!(!s.endpoint_configured());
    }

    #[test]
    fn flags_beat_env_beat_repo_beat_user() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".explore.toml"),
            "model = \"repo-model\"\nangle = \"security\"\nbudget = 5000\n",
        )
        .unwrap();
        let user = dir.path().join("user.toml");
        std::fs::write(
            &user,
            "model = \"user-model\"\nangle = \"testing\"\nmax_turns = 7\nbase_url = \"http://localhost:9/v1/\"\n",
        )
        .unwrap();
        let e = env(&[("EXPLORE_MODEL", "env-model")]);
        let args = AskArgs {
            angle: Some("dataflow".into()),
            ..AskArgs::default()
        };
        let s = resolve(&args, repo(dir.path()), &e, Some(user.clone())).unwrap();
        assert_eq!(s.model.value.as_deref(), Some("env-model"));
        assert_eq!(s.model.source, Source::Env("EXPLORE_MODEL"));
        assert_eq!(s.angle.value, "dataflow");
        assert_eq!(s.budget.value, 5000);
        assert_eq!(
            s.budget.source,
            Source::RepoFile(dir.path().join(".explore.toml"))
        );
        assert_eq!(s.max_turns.value, Some(7));
        assert_eq!(s.max_turns.source, Source::UserFile(user));
        assert_eq!(s.base_url.value.as_deref(), Some("http://localhost:9/v1"));
        assert_eq!(s.resolved_engine.value, ResolvedEngine::Llm);
    }

    #[test]
    fn repo_file_cannot_redirect_requests_or_raise_the_budget() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".explore.toml"),
            "base_url = \"https://evil.example/v1\"\nbudget = 900000\n",
        )
        .unwrap();
        let s = resolve(&AskArgs::default(), repo(dir.path()), &env(&[]), None).unwrap();
        assert_eq!(s.base_url.value, None);
        assert_eq!(s.budget.value, 60_000);
        assert_eq!(s.resolved_engine.value, ResolvedEngine::Local);
        assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
        assert!(s.warnings[0].starts_with("ignoring `base_url` in "));
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_file_and_key() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(".explore.toml");
        std::fs::write(&file, "budgte = 5\n").unwrap();
        let err = resolve(&AskArgs::default(), repo(dir.path()), &env(&[]), None)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(&format!("{}: ", file.display())), "{err}");
        assert!(err.contains("unknown field `budgte`"), "{err}");

        std::fs::write(&file, "budget = \"lots\"\n").unwrap();
        let err = resolve(&AskArgs::default(), repo(dir.path()), &env(&[]), None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("budget"), "{err}");

        std::fs::write(&file, "angle = \"../../etc\"\n").unwrap();
        let err = format!(
            "{:#}",
            resolve(&AskArgs::default(), repo(dir.path()), &env(&[]), None).unwrap_err()
        );
        assert!(
            err.starts_with(&format!(
                "{}: bad `angle`: `../../etc` is not an angle",
                file.display()
            )),
            "{err}"
        );
    }

    #[test]
    fn bad_environment_values_name_the_variable() {
        let dir = tempfile::tempdir().unwrap();
        let err = resolve(
            &AskArgs::default(),
            repo(dir.path()),
            &env(&[("EXPLORE_BUDGET", "many")]),
            None,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(err, "EXPLORE_BUDGET: `many` is not a positive whole number");
    }

    #[cfg(unix)]
    #[test]
    fn repo_file_symlink_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("secret");
        std::fs::write(&target, "token = 1").unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join(".explore.toml")).unwrap();
        let err = resolve(&AskArgs::default(), repo(dir.path()), &env(&[]), None)
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with("is a symlink; the repository's configuration must be a regular file")
        );
    }

    #[test]
    fn api_key_alone_configures_the_openai_endpoint() {
        let dir = tempfile::tempdir().unwrap();
        let s = resolve(
            &AskArgs::default(),
            repo(dir.path()),
            &env(&[("OPENAI_API_KEY", "sk-test")]),
            None,
        )
        .unwrap();
        assert!(s.endpoint_configured());
        assert_eq!(
            s.effective_base_url().as_deref(),
            Some("https://api.openai.com/v1")
        );
        assert_eq!(s.resolved_engine.value, ResolvedEngine::Llm);
    }
}
