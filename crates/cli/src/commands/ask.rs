//! The main command: `explore [OPTIONS] <QUERY>...` answers one question about the
//! repository.
//!
//! Top-down: read the question, merge the settings, pick the printer, answer from the
//! cache when it can, else run the agent loop with the chosen engine, store a complete
//! answer in the cache, print, and exit with the contract's status (0 answered, 1 nothing
//! relevant, 2 error without result, 3 stopped early with the partial result printed).

use std::io::{IsTerminal, Read};

use anyhow::{Context, Result, bail};
use explore_agent::{Event, EventSink, ExploreResult};

use crate::cache::{Cache, Lookup};
use crate::cli::{AskArgs, Format, GlobalArgs};
use crate::output::{self, HumanStyle};
use crate::progress::{Progress, Tee};

/// Longest question read from stdin; anything longer is not a question.
const MAX_QUERY_BYTES: u64 = 64 * 1024;

/// Runs the main command.
pub fn run(global: &GlobalArgs, args: &AskArgs, words: &[String]) -> Result<u8> {
    let query = read_query(words)?;
    let (settings, root) = super::run_settings(global, args)?;
    let format = output_format(args);
    let printer = output::printer(format, HumanStyle::detect(root.path().to_path_buf()));

    let cache = settings.session.value.as_deref().map(Cache::new);
    if cache.is_none() && args.force_refresh {
        tracing::warn!("`--force-refresh` does nothing without `--session DIR`");
    }
    let mut cache_status = None;
    if let Some(cache) = &cache {
        if args.force_refresh {
            cache_status = Some(("refresh", None));
        } else {
            let lookup = cache
                .lookup(&settings.angle.value, &query, root.path())
                .unwrap_or_else(|err| {
                    // Spec 004: a cache that can't be read never stops an exploration.
                    tracing::warn!("cannot use the cache in {}: {err:#}", cache.dir().display());
                    Lookup::Miss
                });
            match lookup {
                Lookup::Hit(result) => {
                    tracing::info!("answered from the cache in {}", cache.dir().display());
                    printer.emit(&Event::Notice {
                        kind: "cache_hit".into(),
                        message: format!(
                            "answered from the cache: {}",
                            cache.result_path(&settings.angle.value).display()
                        ),
                    });
                    printer.finish(&result)?;
                    return Ok(exit_code(&result));
                }
                Lookup::Miss => cache_status = Some(("miss", None)),
                Lookup::Stale(reason) => {
                    tracing::info!("cache entry is stale: {reason}");
                    cache_status = Some(("stale", Some(reason)));
                }
            }
        }
    }

    super::engine::ensure_endpoint(&settings, args)?;

    let progress = Progress::for_stderr(global.quiet);
    let mut sinks: Vec<&dyn EventSink> = vec![printer.as_ref()];
    if let Some(p) = &progress {
        sinks.push(p);
    }
    let tee = Tee(sinks);
    let mut result = super::engine::explore(&settings, args, &root, &query, &tee)?;
    if let Some(p) = &progress {
        p.finish();
    }

    if let Some((status, reason)) = cache_status {
        let meta = &mut result.metadata.extra;
        meta.insert("cache".into(), status.into());
        if let Some(reason) = reason {
            meta.insert("cache_stale".into(), reason.into());
        }
    }
    if let Some(cache) = &cache
        && result.metadata.stop_reason == explore_agent::StopReason::Answered
    {
        match cache.store(
            &settings.angle.value,
            &settings.keywords.value,
            &result,
            root.path(),
        ) {
            Ok(path) => {
                tracing::info!("stored in the cache: {}", path.display());
                result
                    .metadata
                    .extra
                    .insert("cache_file".into(), path.display().to_string().into());
            }
            // Spec 004: a failed cache write still returns the result.
            Err(err) => tracing::warn!("could not store the result in the cache: {err:#}"),
        }
    }
    printer.finish(&result)?;
    Ok(exit_code(&result))
}

/// The contract's exit status for a result.
fn exit_code(result: &ExploreResult) -> u8 {
    u8::try_from(result.metadata.stop_reason.exit_code()).unwrap_or(2)
}

/// `--json`, `--format`, else human on a terminal and json otherwise.
fn output_format(args: &AskArgs) -> Format {
    if args.json {
        return Format::Json;
    }
    args.format.unwrap_or_else(|| {
        if std::io::stdout().is_terminal() {
            Format::Human
        } else {
            Format::Json
        }
    })
}

/// The question: the words joined by spaces; `-`, or no words with a non-terminal stdin,
/// reads it from stdin; tidied as [`explore_agent::run::tidy_question`] says. An empty question is an error (exit 2).
fn read_query(words: &[String]) -> Result<String> {
    let from_stdin = match words {
        [only] if only == "-" => true,
        [] => !std::io::stdin().is_terminal(),
        _ => false,
    };
    let query = if from_stdin {
        let mut buf = String::new();
        std::io::stdin()
            .take(MAX_QUERY_BYTES)
            .read_to_string(&mut buf)
            .context("cannot read the question from stdin")?;
        buf
    } else {
        words.join(" ")
    };
    let query = explore_agent::run::tidy_question(&query);
    if query.is_empty() {
        if from_stdin {
            bail!(
                "the question read from stdin is empty; pipe a question, e.g. `echo \"where is main defined\" | explore -`"
            );
        }
        bail!("no question given; try `explore \"where is main defined\"` or `explore --help`");
    }
    Ok(query)
}
