//! `explore mcp`: serves explore's answer and tools over the Model Context Protocol on
//! stdio (see `crate::mcp` for the server, docs/mcp.md for clients' configuration).
//!
//! stdout is the protocol: nothing else may be written there (logs go to stderr, and no
//! progress bar is drawn). The settings are the main command's (flags given before `mcp`,
//! the environment, the configuration files), resolved once at startup.

use anyhow::{Context, Result};
use rmcp::ServiceExt;

use crate::cli::{AskArgs, GlobalArgs};
use crate::mcp::{Exploration, ExploreServer};

/// Runs the server until the client closes stdin.
pub fn run(global: &GlobalArgs, args: AskArgs) -> Result<u8> {
    let (settings, root) = super::run_settings(global, &args)?;
    super::engine::ensure_endpoint(&settings, &args)?;
    let registry = super::engine::registry(&settings, &root)?;
    tracing::info!(
        "serving {} over MCP on stdio ({} engine)",
        root.path().display(),
        settings.resolved_engine.value.as_str()
    );
    let server = ExploreServer::new(registry, Exploration { settings, args });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        server.start_index();
        let pipes = crate::mcp::stdio::open();
        let service = server
            .serve((pipes.read, pipes.write))
            .await
            .context("the MCP client did not complete the handshake")?;
        service.waiting().await.context("the MCP session failed")?;
        // The last responses are still on their way to stdout.
        match pipes.stdout.await {
            Ok(written) => written.context("cannot write to stdout")?,
            Err(e) => tracing::error!("the stdout writer failed: {e}"),
        }
        anyhow::Ok(())
    })?;
    // The index build may still be running on the blocking pool: don't wait for it.
    runtime.shutdown_background();
    Ok(0)
}
