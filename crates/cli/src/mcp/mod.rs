//! The MCP server behind `explore mcp`: explore's answer and its tools for the coding agents
//! users already run (Claude Code, Codex, Cursor, opencode), on the official Rust SDK.
//!
//! Tools: `explore` (one question → the contract's result document, section 3) and the four
//! tools the model uses (`code`, `read`, `tree`, `bash`), offered through the same
//! [`Registry`] with the same descriptions, schemas, limits and refusals, so an agent gets
//! exactly what explore's own model gets. A tool that answers with an error is a result
//! with `isError: true` and the model-facing text (the agent reads it and corrects itself);
//! only a request that cannot be routed (an unknown tool) is a JSON-RPC error.
//!
//! Every call runs off the protocol loop, on tokio's blocking pool: tools are synchronous
//! (the index build, a sandboxed process), and the loop must stay free to read a
//! cancellation or answer the next request. A panic in a call ends that call with an error
//! result, never the server; a cancelled call returns at once, and an exploration stops at
//! its next turn. While a call runs, a client that sent a progress token gets a
//! notification per tool call of an exploration and one a second while waiting (for the
//! code index, built in the background from startup).

mod refresh;
pub mod stdio;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use explore_agent::{Event, EventSink, ExploreResult};
use explore_tools::code::CodeAnswer;
use explore_tools::{Registry, ToolError, ToolName, ToolOutput};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, JsonObject, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use schemars::JsonSchema;
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::cli::AskArgs;
use crate::output::{HumanStyle, render_human};
use crate::settings::{ResolvedEngine, Settings};

/// How often a long call reports that it is still running.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// The `explore` tool's description, written for the calling agent like the other tools'.
const EXPLORE_DESCRIPTION: &str = include_str!("../../../../prompts/mcp/explore.md");

/// What the server tells the client about itself at `initialize`.
const INSTRUCTIONS: &str = "explore answers questions about one code repository. Start with \
`explore` for a question (where is X defined, who calls X, how does X work); use `code` for \
symbol navigation (definitions, callers, callees, implementations, traces), `read` for a file's \
lines, `tree` for the layout and `bash` for read-only searches (rg, grep, find, git log). \
Every tool is read-only and confined to the repository; locations are `path:line` relative \
to its root.";

/// The settings one exploration runs with, shared by every `explore` call.
#[derive(Debug)]
pub struct Exploration {
    /// The effective settings (engine, model, budget, …) resolved at startup.
    pub settings: Settings,
    /// The main command's options given before `mcp` (`--engine`, `--budget`, …).
    pub args: AskArgs,
}

/// The server: one repository's tools, the exploration settings, the tool list.
#[derive(Clone)]
pub struct ExploreServer {
    registry: Registry,
    exploration: Arc<Exploration>,
    tools: Arc<Vec<Tool>>,
    index_ready: Arc<AtomicBool>,
}

impl ExploreServer {
    /// A server over `registry`'s repository. Nothing is read until [`Self::start_index`]
    /// or the first call.
    pub fn new(registry: Registry, exploration: Exploration) -> Self {
        let local = exploration.settings.resolved_engine.value == ResolvedEngine::Local;
        let tools = tool_list(&registry, local);
        Self {
            registry,
            exploration: Arc::new(exploration),
            tools: Arc::new(tools),
            index_ready: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Builds (or loads and refreshes) the code index on the blocking pool, so the first
    /// `code` or `explore` call finds it ready instead of paying for it, then keeps it in
    /// step with the files ([`refresh`]). Returns at once; must be called inside the
    /// runtime.
    pub fn start_index(&self) {
        let code = self.registry.code().clone();
        let ready = self.index_ready.clone();
        let build = {
            let code = code.clone();
            tokio::task::spawn_blocking(move || {
                let started = std::time::Instant::now();
                match code.graph() {
                    Ok(_) => {
                        tracing::info!("code index ready in {} ms", started.elapsed().as_millis())
                    }
                    Err(e) => tracing::warn!("the code index could not be built: {e}"),
                }
                ready.store(true, Ordering::Release);
            })
        };
        refresh::watch(code, self.registry.root().path(), build);
    }

    /// What a call waiting on the blocking pool is waiting for, for its heartbeat.
    fn waiting_for(&self, tool: &str) -> String {
        if self.index_ready.load(Ordering::Acquire) {
            format!("running `{tool}`")
        } else {
            "building the code index".to_string()
        }
    }

    /// One of the registry's tools, run on the blocking pool.
    async fn call_registry_tool(
        &self,
        name: String,
        args: serde_json::Value,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let registry = self.registry.clone();
        let tool = name.clone();
        let task = tokio::task::spawn_blocking(move || registry.call(&tool, &args));
        let (_notes, quiet) = mpsc::unbounded_channel();
        match supervise(task, context, quiet, || self.waiting_for(&name)).await {
            Outcome::Done(result) => tool_result(result),
            Outcome::Panicked(why) => panicked(&name, &why),
            Outcome::Cancelled => cancelled(&name),
        }
    }

    /// The `explore` tool: one exploration with the configured engine, on a blocking
    /// thread of its own (the local engine runs its tools inline), stopped at its next
    /// turn when the client cancels.
    async fn call_explore(
        &self,
        args: serde_json::Value,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let args: ExploreArgs =
            match explore_tools::args::parse("explore", &args, &EXPLORE_FIELDS, EXPLORE_EXAMPLE) {
                Ok(a) => a,
                Err(e) => return tool_result(Err(e)),
            };
        let settings = &self.exploration.settings;
        let mut config = crate::commands::run_config(settings, &args.query);
        if let Some(angle) = args.angle {
            if let Err(e) = crate::settings::check_angle(&angle) {
                return tool_result(Err(ToolError::invalid_arguments(format!(
                    "Invalid arguments for `explore`: {e}."
                ))));
            }
            config.angle = angle;
        }
        if let Some(keywords) = args.keywords {
            config.keywords = keywords;
        }
        if config.query.trim().is_empty() {
            return tool_result(Err(ToolError::invalid_arguments(
                "Invalid arguments for `explore`: `query` is empty. Send the question, e.g. \
                 {\"query\":\"where is IssueStore defined\"}.",
            )));
        }

        let (notes, rx) = mpsc::unbounded_channel();
        let sink = ProgressSink(notes);
        let exploration = self.exploration.clone();
        let registry = self.registry.clone();
        let stop = context.ct.clone();
        let runtime = tokio::runtime::Handle::current();
        let task = tokio::task::spawn_blocking(move || {
            runtime.block_on(async {
                tokio::select! {
                    r = crate::commands::explore_with(
                        &exploration.settings, &exploration.args, &registry, &config, &sink,
                    ) => Some(r),
                    () = stop.cancelled() => None,
                }
            })
        });
        match supervise(task, context, rx, || self.waiting_for("explore")).await {
            Outcome::Done(Some(Ok(result))) => explore_result(&result),
            Outcome::Done(Some(Err(e))) => tool_result(Err(ToolError::failed(format!(
                "The exploration could not run: {e:#}"
            )))),
            Outcome::Done(None) | Outcome::Cancelled => cancelled("explore"),
            Outcome::Panicked(why) => panicked("explore", &why),
        }
    }
}

impl ServerHandler for ExploreServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("explore", env!("CARGO_PKG_VERSION"))
                    .with_title("explore: answers about a code repository"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        let args = request
            .arguments
            .map_or(serde_json::Value::Null, serde_json::Value::Object);
        tracing::debug!("tools/call {}", crate::progress::short_call(&name, &args));
        let result = if name == "explore" {
            self.call_explore(args, &context).await
        } else if self.registry.get(&name).is_some() {
            self.call_registry_tool(name, args, &context).await
        } else {
            // As MCP has it for a tool the server does not offer: a protocol error, worded
            // like the registry's own (which lists the tools).
            let mut names = vec!["explore"];
            names.extend(self.registry.names());
            let message = format!(
                "Unknown tool `{}`. The tools are: {}.",
                explore_tools::display::escape_for_display(&name),
                names.join(", ")
            );
            return Err(McpError::invalid_params(message, None));
        };
        Ok(result.into())
    }

    /// rmcp hands over any request it could not parse as a known one: an unknown method,
    /// or a known one whose params are malformed (a `tools/call` without a `name`). The
    /// default answers both with the bare method name; the caller should learn which.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        let method = explore_tools::display::escape_for_display(&request.method);
        Err(match request.method.as_str() {
            "tools/call" => McpError::invalid_params(
                "Malformed `tools/call`: send params {\"name\": <a tool from tools/list>, \
                 \"arguments\": {…}}, e.g. {\"name\":\"tree\",\"arguments\":{\"depth\":1}}.",
                None,
            ),
            _ => McpError::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "Method not found: `{method}`. This server offers tools (tools/list, tools/call)."
                ),
                None,
            ),
        })
    }
}

/// The `explore` tool's arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExploreArgs {
    /// The question, e.g. "where is IssueStore defined".
    query: String,
    /// The focus angle: `general` (default), `architecture`, `security`, `error-handling`, …
    #[serde(default)]
    angle: Option<String>,
    /// Words that hint where to look, e.g. ["webhook", "retry"].
    #[serde(default)]
    keywords: Option<Vec<String>>,
}

const EXPLORE_FIELDS: [&str; 3] = ["query", "angle?", "keywords?"];
const EXPLORE_EXAMPLE: &str = r#"{"query":"where is IssueStore defined"}"#;

/// The tools as MCP lists them: `explore`, then the registry's, in the model's order.
/// All are read-only. The repository tools never leave the repository, so they are
/// closed-world; `explore` is too unless it sends the question to a model endpoint.
fn tool_list(registry: &Registry, local: bool) -> Vec<Tool> {
    let annotations = |title: &str, open_world: bool| {
        ToolAnnotations::with_title(title)
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(open_world)
    };
    let explore = Tool::new(
        "explore",
        EXPLORE_DESCRIPTION,
        schema_object(serde_json::to_value(schemars::schema_for!(ExploreArgs))),
    )
    .with_title("Explore the repository")
    .with_raw_output_schema(output_schema(serde_json::to_value(schemars::schema_for!(
        ExploreResult
    ))))
    .annotate(annotations("Explore the repository", !local));
    let mut tools = vec![explore];
    for tool in registry.tools() {
        let title = match tool.name() {
            ToolName::Code => "Code graph: definitions, callers, implementations, traces",
            ToolName::Read => "Read lines of a file",
            ToolName::Tree => "Directory tree",
            ToolName::Bash => "Read-only shell (sandboxed)",
        };
        let mut listed = Tool::new(
            tool.name().as_str(),
            tool.description(),
            schema_object(Ok(tool.parameters())),
        )
        .with_title(title)
        .annotate(annotations(title, false));
        // The one tool with a typed answer: every result it returns carries it.
        if tool.name() == ToolName::Code {
            listed = listed.with_raw_output_schema(output_schema(serde_json::to_value(
                schemars::schema_for!(CodeAnswer),
            )));
        }
        tools.push(listed);
    }
    tools
}

/// A JSON schema as the object MCP wants; schemars always produces one.
fn schema_object(schema: Result<serde_json::Value, serde_json::Error>) -> JsonObject {
    match schema {
        Ok(serde_json::Value::Object(o)) => o,
        _ => JsonObject::from_iter([("type".to_string(), "object".into())]),
    }
}

/// An output schema: MCP wants an object at the root, which a tagged enum's `oneOf` of
/// objects is without saying so.
fn output_schema(schema: Result<serde_json::Value, serde_json::Error>) -> Arc<JsonObject> {
    let mut schema = schema_object(schema);
    schema
        .entry("type")
        .or_insert_with(|| serde_json::Value::from("object"));
    Arc::new(schema)
}

/// How a supervised call ended.
enum Outcome<T> {
    Done(T),
    Panicked(String),
    Cancelled,
}

/// Waits for `task` while reporting progress (each note from the task, and a heartbeat
/// from `waiting` every [`HEARTBEAT`]) to a client that asked for it, and gives up at once
/// when the client cancels the request.
async fn supervise<T>(
    mut task: JoinHandle<T>,
    context: &RequestContext<RoleServer>,
    mut notes: mpsc::UnboundedReceiver<String>,
    waiting: impl Fn() -> String,
) -> Outcome<T> {
    let token = context.meta.get_progress_token();
    let mut step = 0u32;
    let mut heartbeat =
        tokio::time::interval_at(tokio::time::Instant::now() + HEARTBEAT, HEARTBEAT);
    let mut notes_open = true;
    loop {
        // In this order: a cancellation wins; the notes a task sent before it finished
        // all go out before its result (no progress may follow the response).
        let message = tokio::select! {
            biased;
            () = context.ct.cancelled() => {
                task.abort();
                return Outcome::Cancelled;
            }
            note = notes.recv(), if notes_open => match note {
                Some(note) => note,
                None => {
                    notes_open = false;
                    continue;
                }
            },
            joined = &mut task => return outcome(joined),
            _ = heartbeat.tick() => waiting(),
        };
        if let Some(token) = &token {
            step += 1;
            let param = ProgressNotificationParam::new(token.clone(), f64::from(step))
                .with_message(message);
            if let Err(e) = context.peer.notify_progress(param).await {
                tracing::debug!("could not send a progress notification: {e}");
            }
        }
    }
}

/// A finished task as an [`Outcome`]: its value, or the panic that ended it.
fn outcome<T>(joined: Result<T, tokio::task::JoinError>) -> Outcome<T> {
    match joined {
        Ok(value) => Outcome::Done(value),
        Err(e) if e.is_panic() => Outcome::Panicked(panic_text(e.into_panic())),
        Err(_) => Outcome::Cancelled,
    }
}

/// Forwards an exploration's tool calls as progress notes.
struct ProgressSink(mpsc::UnboundedSender<String>);

impl EventSink for ProgressSink {
    fn emit(&self, event: &Event) {
        if let Event::ToolCall { turn, tool, args } = event {
            let _ = self.0.send(format!(
                "turn {turn}: {}",
                crate::progress::short_call(tool, args)
            ));
        }
    }
}

/// A tool's answer as MCP has it: the model-facing text, the typed answer (the `code`
/// tool's) as structured content, and `isError` when the tool answered with an error.
fn tool_result(result: Result<ToolOutput, ToolError>) -> CallToolResult {
    let (mut out, detail) = match &result {
        Ok(o) => (
            CallToolResult::success(vec![ContentBlock::text(o.text.clone())]),
            o.detail.as_ref(),
        ),
        Err(e) => (
            CallToolResult::error(vec![ContentBlock::text(e.message().to_string())]),
            e.detail(),
        ),
    };
    out.structured_content = detail.and_then(|d| serde_json::to_value(d).ok());
    out
}

/// An exploration's result: the human summary as text, the document as structured content.
fn explore_result(result: &ExploreResult) -> CallToolResult {
    let text = render_human(result, &HumanStyle::default());
    let mut out = CallToolResult::success(vec![ContentBlock::text(text)]);
    match serde_json::to_value(result) {
        Ok(doc) => out.structured_content = Some(doc),
        Err(e) => {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "The result could not be serialized: {e}"
            ))]);
        }
    }
    out
}

fn panicked(tool: &str, why: &str) -> CallToolResult {
    tracing::error!("`{tool}` panicked: {why}");
    CallToolResult::error(vec![ContentBlock::text(format!(
        "`{tool}` failed with an internal error ({why}). This is a bug in explore; the server \
         is still running, so other calls (or this one with other arguments) can go on."
    ))])
}

fn cancelled(tool: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!("`{tool}` was cancelled."))])
}

/// The text of a panic payload.
fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use explore_tools::code::CodeAnswer;
    use explore_tools::{ErrorKind, ToolDetail};

    use super::*;

    fn text(result: &CallToolResult) -> String {
        serde_json::to_value(&result.content).unwrap()[0]["text"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[tokio::test]
    async fn a_panicking_call_is_an_error_result_with_the_panic_message() {
        let task = tokio::task::spawn_blocking(|| -> u32 { panic!("index exploded") });
        let Outcome::Panicked(why) = outcome(task.await) else {
            panic!("a panic must be reported as one");
        };
        assert_eq!(why, "index exploded");
        let result = panicked("code", &why);
        assert_eq!(result.is_error, Some(true));
        assert!(
            text(&result).starts_with("`code` failed with an internal error (index exploded)"),
            "{}",
            text(&result)
        );

        let formatted = tokio::task::spawn_blocking(|| -> u32 { panic!("line {}", 7) });
        let Outcome::Panicked(why) = outcome(formatted.await) else {
            panic!("a panic must be reported as one");
        };
        assert_eq!(why, "line 7");

        let fine = tokio::task::spawn_blocking(|| 42u32);
        assert!(matches!(outcome(fine.await), Outcome::Done(42)));
    }

    #[test]
    fn tool_errors_keep_their_text_and_typed_answer() {
        let detail: CodeAnswer = serde_json::from_value(serde_json::json!({
            "status": "not_found",
            "operation": "find",
            "asked": {"symbol": "Nope"},
            "near": []
        }))
        .expect("a not-found answer");
        let err = ToolError::new(ErrorKind::NotFound, "No symbol `Nope`.")
            .with_detail(ToolDetail::Code(Box::new(detail)));
        let result = tool_result(Err(err));
        assert_eq!(result.is_error, Some(true));
        assert_eq!(text(&result), "No symbol `Nope`.");
        let structured = result.structured_content.expect("the typed answer");
        assert_eq!(structured["status"], "not_found");
        assert_eq!(structured["asked"]["symbol"], "Nope");

        let plain = tool_result(Ok(ToolOutput::text("1  package main")));
        assert_eq!(plain.is_error, Some(false));
        assert_eq!(text(&plain), "1  package main");
        assert!(plain.structured_content.is_none());
    }
}
