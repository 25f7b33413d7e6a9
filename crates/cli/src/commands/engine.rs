//! Builds the policy the settings chose (a model behind an endpoint, or the local engine)
//! and runs the agent loop: once on a small runtime of its own for the main command, or on
//! the caller's runtime with a registry the caller keeps (`explore mcp`, whose code index
//! outlives one question).

use anyhow::{Context, Result, bail};
use explore_agent::local::LocalPolicy;
use explore_agent::{EventSink, ExploreResult, LlmConfig, LlmPolicy, Policy, RunConfig};
use explore_tools::{Registry, RegistryOptions, RepoRoot};

use crate::cli::{AskArgs, Engine};
use crate::settings::{ResolvedEngine, Settings};
use explore_agent::local::routing::Routing;

/// Runs one exploration with the engine the settings chose. `Err` is a run with no result
/// (exit 2): a setting is wrong.
pub fn explore(
    settings: &Settings,
    args: &AskArgs,
    root: &RepoRoot,
    query: &str,
    sink: &dyn EventSink,
) -> Result<ExploreResult> {
    let registry = registry(settings, root)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let config = run_config(settings, query);
    let result = runtime.block_on(explore_with(settings, args, &registry, &config, sink))?;
    crate::background::finish_index(registry.code(), registry.root().path());
    Ok(result)
}

/// The tools for `root`, reading the code graph from the store the settings chose.
pub fn registry(settings: &Settings, root: &RepoRoot) -> Result<Registry> {
    let mut options = RegistryOptions::default();
    options.index.shared = crate::store::open(&settings.store)?;
    Ok(Registry::new(root.clone(), options))
}

/// The run's limits and focus from the settings.
pub fn run_config(settings: &Settings, query: &str) -> RunConfig {
    let mut config = RunConfig::new(query);
    config.angle = settings.angle.value.clone();
    config.keywords = settings.keywords.value.clone();
    config.budget = settings.budget.value;
    if let Some(turns) = settings.max_turns.value {
        config.max_turns = turns;
    }
    config
}

/// `--engine llm` (or `auto` resolved to it) is only usable with somewhere to send the
/// requests, or a transcript to answer them from.
pub fn ensure_endpoint(settings: &Settings, args: &AskArgs) -> Result<()> {
    if settings.resolved_engine.value == ResolvedEngine::Llm
        && !settings.endpoint_configured()
        && args.replay.is_none()
    {
        bail!(
            "`--engine llm` needs a model endpoint: set `--base-url` (or `OPENAI_BASE_URL`) for \
             a local server, or `OPENAI_API_KEY` for OpenAI"
        );
    }
    Ok(())
}

/// Runs one exploration on the caller's runtime with the caller's tools.
pub async fn explore_with(
    settings: &Settings,
    args: &AskArgs,
    registry: &Registry,
    config: &RunConfig,
    sink: &dyn EventSink,
) -> Result<ExploreResult> {
    match settings.resolved_engine.value {
        ResolvedEngine::Llm => {
            // `auto` with a model: a certain local answer is the result, at no token cost.
            let routing = if settings.engine.value == Engine::Auto {
                let mut local = LocalPolicy::new(registry.clone());
                let result = run(registry, &mut local, config, sink).await?;
                let routing = local.routing();
                if routing.is_certain() {
                    return Ok(with_routing(result, &routing));
                }
                Some(routing)
            } else {
                None
            };
            let base_url = settings.effective_base_url().unwrap_or_default();
            let model = settings
                .model
                .value
                .clone()
                .unwrap_or_else(|| explore_agent::llm::DEFAULT_MODEL.to_string());
            let mut llm = LlmConfig::new(base_url, model);
            llm.api_key = settings.api_key.value.clone();
            llm.record = args.record.clone();
            llm.replay = args.replay.clone();
            let mut policy = LlmPolicy::new(llm)?;
            let mut config = config.clone();
            config.orient = true;
            let result = run(registry, &mut policy, &config, sink).await?;
            Ok(match routing {
                Some(r) => with_routing(result, &r),
                None => result,
            })
        }
        ResolvedEngine::Local => {
            let mut policy = LocalPolicy::new(registry.clone());
            run(registry, &mut policy, config, sink).await
        }
    }
}

/// The result with `_metadata.routing`: the verdict, and why (its reason when the local
/// answer stood, its doubts when the model was asked).
fn with_routing(mut result: ExploreResult, routing: &Routing) -> ExploreResult {
    if let Ok(value) = serde_json::to_value(routing) {
        result.metadata.extra.insert("routing".into(), value);
    }
    result
}

async fn run<P: Policy>(
    registry: &Registry,
    policy: &mut P,
    config: &RunConfig,
    sink: &dyn EventSink,
) -> Result<ExploreResult> {
    Ok(explore_agent::explore(registry, policy, config, sink).await?)
}
