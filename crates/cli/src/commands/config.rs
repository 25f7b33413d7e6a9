//! `explore config`: the effective settings and where each came from. The API key is
//! never printed, only whether it is set and by which variable.

use crate::output::outln;
use anyhow::Result;

use crate::cli::{ConfigArgs, Engine, StoreKind};
use crate::settings::{ResolvedEngine, Settings, Source};

/// One printed row: key, value, source; `typed` is the value for `--json` when it is not
/// a plain string (numbers, lists, unset as `null`), so scripts need not parse text.
struct Row {
    key: &'static str,
    value: String,
    source: String,
    typed: Option<serde_json::Value>,
}

/// Runs `explore config`.
pub fn run(settings: &Settings, args: &ConfigArgs) -> Result<u8> {
    let rows = rows(settings);
    if args.json {
        let mut values = serde_json::Map::new();
        for r in &rows {
            values.insert(
                r.key.to_string(),
                serde_json::json!({
                    "value": r.typed.clone().unwrap_or_else(|| r.value.clone().into()),
                    "source": r.source,
                }),
            );
        }
        let doc = serde_json::json!({
            "settings": values,
            "files": {
                "user": settings.user_file.as_ref().map(|(p, exists)| {
                    serde_json::json!({"path": p.display().to_string(), "exists": exists})
                }),
                "repo": {
                    "path": settings.repo_file.0.display().to_string(),
                    "exists": settings.repo_file.1,
                },
            },
            "warnings": settings.warnings,
        });
        outln!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(0);
    }
    let width = rows
        .iter()
        .map(|r| r.value.chars().count())
        .max()
        .unwrap_or(0);
    for r in &rows {
        outln!("{:<10} {:<width$}  ({})", r.key, r.value, r.source);
    }
    outln!();
    match &settings.user_file {
        Some((p, true)) => outln!("user file  {}", p.display()),
        Some((p, false)) => outln!("user file  {} (not found)", p.display()),
        None => outln!("user file  none (no home directory)"),
    }
    let (repo_file, exists) = &settings.repo_file;
    if *exists {
        outln!("repo file  {}", repo_file.display());
    } else {
        outln!("repo file  {} (not found)", repo_file.display());
    }
    for w in &settings.warnings {
        eprintln!("warning: {w}");
    }
    Ok(0)
}

fn rows(s: &Settings) -> Vec<Row> {
    let src = |source: &Source| source.to_string();
    let engine = match (s.engine.value, s.resolved_engine.value) {
        (Engine::Auto, ResolvedEngine::Llm) => {
            "auto (llm; certain symbol answers stay local)".to_string()
        }
        (Engine::Auto, ResolvedEngine::Local) => "auto (local)".to_string(),
        (_, e) => e.as_str().to_string(),
    };
    let engine_source = match s.engine.value {
        Engine::Auto => src(&s.resolved_engine.source),
        _ => src(&s.engine.source),
    };
    let base_url = match (&s.base_url.value, s.effective_base_url()) {
        (Some(url), _) => (url.clone(), src(&s.base_url.source)),
        (None, Some(url)) => (url, "default, because OPENAI_API_KEY is set".to_string()),
        (None, None) => ("-".to_string(), "not configured".to_string()),
    };
    let mut rows = vec![
        Row {
            key: "repo",
            value: s.repo.value.display().to_string(),
            source: src(&s.repo.source),
            typed: None,
        },
        Row {
            key: "engine",
            value: engine,
            source: engine_source,
            typed: None,
        },
        Row {
            key: "model",
            value: s
                .model
                .value
                .clone()
                .unwrap_or_else(|| explore_agent::llm::DEFAULT_MODEL.into()),
            source: src(&s.model.source),
            typed: None,
        },
        Row {
            key: "base_url",
            typed: (base_url.0 == "-").then_some(serde_json::Value::Null),
            value: base_url.0,
            source: base_url.1,
        },
        Row {
            key: "api_key",
            value: if s.api_key.value.is_some() {
                "set".into()
            } else {
                "not set".into()
            },
            source: match s.api_key.value {
                Some(_) => src(&s.api_key.source),
                None => "OPENAI_API_KEY is unset".into(),
            },
            typed: None,
        },
        Row {
            key: "budget",
            value: s.budget.value.to_string(),
            source: src(&s.budget.source),
            typed: Some(s.budget.value.into()),
        },
        Row {
            key: "max_turns",
            value: s
                .max_turns
                .value
                .unwrap_or(explore_agent::run::DEFAULT_MAX_TURNS)
                .to_string(),
            source: src(&s.max_turns.source),
            typed: Some(
                s.max_turns
                    .value
                    .unwrap_or(explore_agent::run::DEFAULT_MAX_TURNS)
                    .into(),
            ),
        },
        Row {
            key: "angle",
            value: s.angle.value.clone(),
            source: src(&s.angle.source),
            typed: None,
        },
        Row {
            key: "keywords",
            value: if s.keywords.value.is_empty() {
                "-".into()
            } else {
                s.keywords.value.join(",")
            },
            source: src(&s.keywords.source),
            typed: Some(s.keywords.value.clone().into()),
        },
        Row {
            key: "session",
            value: s
                .session
                .value
                .as_ref()
                .map_or_else(|| "- (cache off)".into(), |p| p.display().to_string()),
            source: src(&s.session.source),
            typed: Some(
                s.session
                    .value
                    .as_ref()
                    .map_or(serde_json::Value::Null, |p| p.display().to_string().into()),
            ),
        },
        Row {
            key: "store",
            value: match s.store.kind.value {
                StoreKind::Embedded => "embedded".into(),
                StoreKind::Arangodb => "arangodb".into(),
            },
            source: src(&s.store.kind.source),
            typed: None,
        },
    ];
    if s.store.kind.value == StoreKind::Arangodb {
        let a = &s.store.arango;
        let [url, db, graph] = &s.store.sources;
        for (key, value, source) in [
            ("arango_url", &a.url, url),
            ("arango_db", &a.database, db),
            ("arango_graph", &a.repo, graph),
        ] {
            rows.push(Row {
                key,
                value: value.clone(),
                source: src(source),
                typed: None,
            });
        }
    }
    rows
}
