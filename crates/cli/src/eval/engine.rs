//! How a case is answered in the binary: the agent crate's loop, with the local engine or
//! a model (live, recorded with `--record-dir`, or replayed from `--replay-dir`).
//!
//! Each case gets its own tool registry bound to its repository, its own policy and its
//! own `RunConfig`, exactly as one `explore` invocation would, so an eval measures what
//! users get. The only thing shared is the local engine's lexical index per repository (a
//! warm cache: it is derived from the files alone, never from a previous answer).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use explore_agent::event::NullSink;
use explore_agent::local::LocalPolicy;
use explore_agent::local::rank::LexIndex;
use explore_agent::{ExploreResult, LlmConfig, LlmPolicy, RunConfig, RunError, explore};
use explore_tools::{Registry, RegistryOptions, RepoRoot};

use super::run::CaseRunner;
use super::suite::{Case, Engine};

type SharedIndex = Arc<Mutex<Option<Arc<LexIndex>>>>;

/// Endpoint settings for LLM cases, read from the environment like the main command
/// (`OPENAI_BASE_URL`, `EXPLORE_MODEL`, `OPENAI_API_KEY`).
#[derive(Debug, Clone, Default)]
pub struct LlmSettings {
    /// `OPENAI_BASE_URL`.
    pub base_url: Option<String>,
    /// `EXPLORE_MODEL`.
    pub model: Option<String>,
    /// `OPENAI_API_KEY`.
    pub api_key: Option<String>,
}

impl LlmSettings {
    /// Reads the environment; empty values count as unset.
    pub fn from_env() -> Self {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        Self {
            base_url: var("OPENAI_BASE_URL"),
            model: var("EXPLORE_MODEL"),
            api_key: var("OPENAI_API_KEY"),
        }
    }

    /// True when a live endpoint is configured (a base URL or a key).
    pub fn configured(&self) -> bool {
        self.base_url.is_some() || self.api_key.is_some()
    }
}

/// Runs cases through the agent.
#[derive(Debug, Default)]
pub struct AgentRunner {
    /// `--engine local|llm`, overriding each case's.
    pub engine_override: Option<Engine>,
    /// `--engine auto`: each case runs locally first and goes to the model only when the
    /// local answer is not certain (issue 18's routing, as the main command does it).
    pub auto: bool,
    /// `--replay-dir`.
    pub replay_dir: Option<PathBuf>,
    /// `--record-dir`.
    pub record_dir: Option<PathBuf>,
    /// Endpoint settings for live LLM cases.
    pub llm: LlmSettings,
    indexes: Mutex<HashMap<PathBuf, SharedIndex>>,
}

impl AgentRunner {
    /// A runner with these settings.
    pub fn new(
        engine_override: Option<Engine>,
        replay_dir: Option<PathBuf>,
        record_dir: Option<PathBuf>,
        llm: LlmSettings,
    ) -> Self {
        Self {
            engine_override,
            auto: false,
            replay_dir,
            record_dir,
            llm,
            indexes: Mutex::new(HashMap::new()),
        }
    }

    /// The engine a case runs with.
    pub fn engine_for(&self, case: &Case) -> Engine {
        self.engine_override
            .or(case.engine)
            .unwrap_or(Engine::Local)
    }

    /// The transcript a case replays from or records to.
    pub fn transcript(dir: &Path, case: &Case) -> PathBuf {
        dir.join(format!("{}.jsonl", case.id))
    }

    fn shared_index(&self, repo: &Path) -> SharedIndex {
        match self.indexes.lock() {
            Ok(mut map) => map.entry(repo.to_path_buf()).or_default().clone(),
            Err(_) => SharedIndex::default(),
        }
    }

    /// The model settings of one LLM case: replay from `--replay-dir`, else a live
    /// endpoint (recording to `--record-dir` when given).
    fn llm_config(&self, case: &Case) -> Result<LlmConfig, String> {
        let base_url = self
            .llm
            .base_url
            .clone()
            .unwrap_or_else(|| explore_agent::llm::DEFAULT_BASE_URL.to_string());
        let model = self
            .llm
            .model
            .clone()
            .unwrap_or_else(|| explore_agent::llm::DEFAULT_MODEL.to_string());
        let mut cfg = LlmConfig::new(base_url, model);
        if let Some(dir) = &self.replay_dir {
            let path = Self::transcript(dir, case);
            if !path.is_file() {
                return Err(format!(
                    "no transcript `{}`; record one with `explore eval --engine llm --record-dir {}` against a real endpoint",
                    path.display(),
                    dir.display()
                ));
            }
            cfg.replay = Some(path);
            return Ok(cfg);
        }
        if !self.llm.configured() {
            return Err(
                "no model endpoint: set OPENAI_BASE_URL and/or OPENAI_API_KEY (and EXPLORE_MODEL), or pass --replay-dir"
                    .to_string(),
            );
        }
        cfg.api_key = self.llm.api_key.clone();
        cfg.record = self
            .record_dir
            .as_deref()
            .map(|dir| Self::transcript(dir, case));
        Ok(cfg)
    }
}

impl CaseRunner for AgentRunner {
    fn run(&self, case: &Case) -> Result<ExploreResult, String> {
        let root = RepoRoot::new(&case.repo)
            .map_err(|e| format!("repository `{}`: {e}", case.repo.display()))?;
        let registry = Registry::new(root, RegistryOptions::default());
        let mut config = RunConfig::new(case.query.clone());
        config.budget = case.budget;
        if let Some(turns) = case.max_turns {
            config.max_turns = turns;
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the async runtime: {e}"))?;
        let engine = if self.auto {
            Engine::Local
        } else {
            self.engine_for(case)
        };
        let result = match engine {
            Engine::Local => {
                let mut policy = LocalPolicy::new(registry.clone())
                    .with_shared_index(self.shared_index(&case.repo));
                rt.block_on(explore(&registry, &mut policy, &config, &NullSink))
                    .map(|mut r| {
                        // Would `--engine auto` with a model keep this answer? (Issue 18's
                        // gate, measured on every case.)
                        if let Ok(v) = serde_json::to_value(policy.routing()) {
                            r.metadata.extra.insert("routing".into(), v);
                        }
                        r
                    })
                    .and_then(|r| {
                        if !self.auto || policy.routing().is_certain() {
                            return Ok(r);
                        }
                        // Uncertain: the model answers, as `--engine llm` would.
                        let routing = r.metadata.extra.get("routing").cloned();
                        let cfg = self.llm_config(case).map_err(RunError::Config)?;
                        let mut llm =
                            LlmPolicy::new(cfg).map_err(|e| RunError::Config(e.to_string()))?;
                        let mut config = config.clone();
                        config.orient = true;
                        let mut r =
                            rt.block_on(explore(&registry, &mut llm, &config, &NullSink))?;
                        if let Some(v) = routing {
                            r.metadata.extra.insert("routing".into(), v);
                        }
                        Ok(r)
                    })
            }
            Engine::Llm => {
                let cfg = self.llm_config(case)?;
                let mut policy = LlmPolicy::new(cfg).map_err(|e| e.to_string())?;
                config.orient = true;
                rt.block_on(explore(&registry, &mut policy, &config, &NullSink))
            }
        };
        result.map_err(|e| e.to_string())
    }
}
