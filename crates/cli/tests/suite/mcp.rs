//! `explore mcp` driven over its pipes the way an MCP client drives it: JSON-RPC lines on
//! stdin, responses and notifications on stdout. Covers the handshake, the tool list, every
//! tool, each kind of error (a tool error is a result with `isError`, a bad request a
//! JSON-RPC error), the server surviving them, progress and cancellation.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use explore_tools::{Registry, RegistryOptions, RepoRoot};
use serde_json::{Value, json};

use super::common::{Sandbox, relay, tiny_repo};
use super::server::{Server, tool_call};

/// Long enough for a debug build to index a fixture; a hung server fails well before CI does.
const TIMEOUT: Duration = Duration::from_secs(60);

/// A running `explore mcp` and the lines it wrote.
struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
    /// Notifications seen while waiting for responses, in order.
    notifications: Vec<Value>,
    _sandbox: Sandbox,
}

impl Client {
    /// Starts `explore mcp -C repo` with a cache of its own and completes the handshake.
    fn start(repo: &Path) -> (Self, Value) {
        Self::start_with(repo, &[])
    }

    /// [`Client::start`] with more environment variables.
    fn start_with(repo: &Path, env: &[(&str, &str)]) -> (Self, Value) {
        let sandbox = Sandbox::new();
        let mut child = sandbox
            .std_cmd()
            .envs(env.iter().copied())
            .env("EXPLORE_CACHE_DIR", sandbox.home.path().join("cache"))
            .arg("mcp")
            .arg("-C")
            .arg(repo)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                // Every line on stdout must be a JSON-RPC message: nothing else may go there.
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            lines,
            notifications: Vec::new(),
            _sandbox: sandbox,
        };
        let init = client.request(
            1,
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "explore-tests", "version": "0"}
            }),
        );
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (client, init)
    }

    fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    fn send_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and waits for the message answering `id` (a result or an error).
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(id)
    }

    /// Waits for the message answering `id`, keeping notifications.
    fn response(&mut self, id: u64) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self
                .next(deadline)
                .unwrap_or_else(|| panic!("no response to request {id} within {TIMEOUT:?}"));
            if message["id"] == json!(id) {
                return message;
            }
            assert!(
                message.get("id").is_none(),
                "a response to another request: {message}"
            );
            self.notifications.push(message);
        }
    }

    fn next(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(v) => Some(v),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed stdout"),
        }
    }

    /// `tools/call` and its result (panics on a JSON-RPC error).
    fn call(&mut self, id: u64, tool: &str, args: Value) -> Value {
        let response = self.request(id, "tools/call", json!({"name": tool, "arguments": args}));
        assert!(response.get("error").is_none(), "{response}");
        response["result"].clone()
    }

    /// `tools/call` answered by a result (not an error) whose text contains `needle`.
    fn call_ok(&mut self, id: u64, tool: &str, args: Value, needle: &str) -> Value {
        let result = self.call(id, tool, args);
        assert_eq!(result["isError"], false, "{result}");
        assert!(text(&result).contains(needle), "{}", text(&result));
        result
    }

    /// `tools/call` answered by a tool error whose text starts with `prefix`.
    fn call_error(&mut self, id: u64, tool: &str, args: Value, prefix: &str) -> Value {
        let result = self.call(id, tool, args);
        assert_eq!(result["isError"], true, "{result}");
        assert!(text(&result).starts_with(prefix), "{}", text(&result));
        result
    }

    /// The server still answers.
    fn assert_alive(&mut self, id: u64) {
        let pong = self.request(id, "ping", json!({}));
        assert_eq!(pong["result"], json!({}), "{pong}");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The text of a tool result's single text block.
fn text(result: &Value) -> &str {
    assert_eq!(result["content"][0]["type"], "text", "{result}");
    result["content"][0]["text"].as_str().unwrap()
}

#[test]
fn lists_the_tools_the_model_gets_annotated_read_only() {
    let (mut client, init) = Client::start(&relay());
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    assert_eq!(init["result"]["serverInfo"]["name"], "explore");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );

    let list = client.request(2, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["explore", "tree", "read", "bash", "code"]);
    for tool in tools {
        let hints = &tool["annotations"];
        assert_eq!(hints["readOnlyHint"], true, "{tool}");
        assert_eq!(hints["destructiveHint"], false, "{tool}");
        // No model endpoint is configured: the local engine, closed-world everywhere.
        assert_eq!(hints["openWorldHint"], false, "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }

    // The repository tools are offered exactly as the model gets them.
    let registry = Registry::new(RepoRoot::new(relay()).unwrap(), RegistryOptions::default());
    for tool in registry.tools() {
        let listed = tools
            .iter()
            .find(|t| t["name"] == tool.name().as_str())
            .unwrap();
        assert_eq!(listed["description"], tool.description(), "{}", tool.name());
        assert_eq!(listed["inputSchema"], tool.parameters(), "{}", tool.name());
    }

    // The code tool's typed answer, one object per status.
    let code = &tools[4]["outputSchema"];
    assert_eq!(code["type"], "object", "{code}");
    assert_eq!(code["oneOf"].as_array().map(Vec::len), Some(5), "{code}");

    let explore = &tools[0];
    assert_eq!(explore["inputSchema"]["required"], json!(["query"]));
    let props = explore["inputSchema"]["properties"].as_object().unwrap();
    let mut fields: Vec<&str> = props.keys().map(String::as_str).collect();
    fields.sort_unstable();
    assert_eq!(fields, ["angle", "keywords", "query"]);
    // The result document's schema is the output schema.
    let output = &explore["outputSchema"];
    assert_eq!(output["type"], "object", "{output}");
    for field in ["version", "answer", "relevant_files", "_metadata"] {
        assert!(output["properties"][field].is_object(), "{field}: {output}");
    }
}

#[test]
fn a_setting_that_cannot_work_stops_the_server_before_it_speaks() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd()
        .args(["--engine", "llm", "mcp", "-C"])
        .arg(relay())
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "stdout is the protocol's alone");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`--engine llm` needs a model endpoint"),
        "{err}"
    );
}

#[test]
fn with_a_model_explore_asks_it_and_is_open_world() {
    // The model finds the symbol with `code`, then submits the place the tool showed.
    let file = json!({
        "path": "internal/model/issue.go", "role": "type_definition", "discovery_source": "code",
        "rationale": "IssueStore, the store interface", "locations": [{"line": 155}]
    });
    let submit = json!({"answer": "At internal/model/issue.go:155.", "relevant_files": [file]});
    let model = Server::start(
        vec![
            tool_call(
                "c1",
                "code",
                &json!({"operation": "find", "symbol": "IssueStore"}),
            ),
            tool_call("c2", "submit", &submit),
        ],
        2,
    );
    let (mut client, _) = Client::start_with(
        &relay(),
        &[
            ("OPENAI_BASE_URL", model.base_url.as_str()),
            ("EXPLORE_MODEL", "test-model"),
        ],
    );
    let list = client.request(2, "tools/list", json!({}));
    let hints: Vec<(&str, bool)> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let open = t["annotations"]["openWorldHint"].as_bool().unwrap();
            (t["name"].as_str().unwrap(), open)
        })
        .collect();
    assert_eq!(
        hints,
        [
            ("explore", true),
            ("tree", false),
            ("read", false),
            ("bash", false),
            ("code", false)
        ]
    );

    let answer = client.call_ok(
        3,
        "explore",
        // A concept question: `auto` sends it to the model (a certain symbol question
        // would be answered locally).
        json!({"query": "how are issues stored"}),
        "internal/model/issue.go:155",
    );
    let meta = &answer["structuredContent"]["_metadata"];
    assert_eq!(meta["engine"], "llm", "{meta}");
    assert_eq!(meta["routing"]["verdict"], "uncertain", "{meta}");
    assert_eq!(meta["model"], "test-model", "{meta}");
    assert_eq!(meta["stop_reason"], "answered", "{meta}");
    assert_eq!(meta["usage"]["total_tokens"], 1840, "{meta}");
    assert_eq!(
        answer["structuredContent"]["relevant_files"][0]["path"],
        "internal/model/issue.go"
    );
    assert_eq!(model.requests.lock().unwrap().len(), 2);
}

#[test]
fn every_tool_answers_on_the_relay_fixture() {
    let (mut client, _) = Client::start(&relay());

    let code = client.call_ok(
        2,
        "code",
        json!({"operation": "find", "symbol": "IssueStore", "kind": "interface"}),
        "internal/model/issue.go:155",
    );
    // The typed answer is the structured content; with a kind the name resolves to one
    // symbol, the target.
    let found = &code["structuredContent"];
    assert_eq!(found["status"], "found", "{found}");
    let item = &found["target"];
    assert_eq!(item["name"], "IssueStore", "{found}");
    assert_eq!(item["path"], "internal/model/issue.go");
    assert_eq!(item["line"], 155);

    let read = client.call_ok(
        3,
        "read",
        json!({"file": "internal/model/issue.go", "start_line": 155, "num_lines": 2}),
        "type IssueStore interface",
    );
    assert!(text(&read).contains("155"), "{}", text(&read));
    assert!(read.get("structuredContent").is_none(), "{read}");

    client.call_ok(4, "tree", json!({"depth": 1}), "internal/");
    client.call_ok(
        5,
        "bash",
        json!({"command": "rg -n 'type IssueStore interface' internal"}),
        "internal/model/issue.go:155:",
    );

    // The text is the human summary, the same as the terminal's; with a progress token,
    // each tool call of the run is reported as it is made.
    let response = client.request(
        6,
        "tools/call",
        json!({
            "name": "explore",
            "arguments": {"query": "where is IssueStore defined"},
            "_meta": {"progressToken": 6}
        }),
    );
    let explore = &response["result"];
    assert_eq!(explore["isError"], false, "{response}");
    assert!(
        text(explore)
            .contains("internal/model/issue.go:155: Defines interface IssueStore (lines 155-162)"),
        "{}",
        text(explore)
    );
    let progress: Vec<&str> = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "notifications/progress" && n["params"]["progressToken"] == 6)
        .map(|n| n["params"]["message"].as_str().unwrap())
        .collect();
    assert!(
        progress
            .first()
            .is_some_and(|m| m.starts_with("turn 1: code ")),
        "{progress:?}"
    );
    let doc = &explore["structuredContent"];
    assert_eq!(doc["version"], 1, "{doc}");
    assert_eq!(doc["query"], "where is IssueStore defined");
    assert_eq!(doc["relevant_files"][0]["path"], "internal/model/issue.go");
    assert_eq!(doc["relevant_files"][0]["locations"][0]["line"], 155);
    assert_eq!(doc["_metadata"]["engine"], "local");
    assert_eq!(doc["_metadata"]["stop_reason"], "answered");

    // angle and keywords reach the run.
    let angled = client.call(
        7,
        "explore",
        json!({"query": "where is IssueStore defined", "angle": "architecture", "keywords": ["store"]}),
    );
    assert_eq!(
        angled["structuredContent"]["angle"], "architecture",
        "{angled}"
    );
}

#[test]
fn tool_errors_are_results_bad_requests_are_protocol_errors_and_the_server_goes_on() {
    let (mut client, _) = Client::start(&relay());

    // Refusals and bad arguments: the model-facing text, flagged as an error.
    client.call_error(
        2,
        "bash",
        json!({"command": "curl https://example.com"}),
        "Command blocked:",
    );
    client.call_error(
        3,
        "bash",
        json!({"command": "rm -rf internal"}),
        "Command blocked:",
    );
    client.call_error(4, "read", json!({"file": "../etc/passwd"}), "Path refused:");
    client.call_error(
        5,
        "read",
        json!({"file": ".env"}),
        "Refused: `.env` is on the secrets list",
    );
    client.call_error(
        6,
        "tree",
        json!({"depth": "deep"}),
        "Invalid arguments for `tree`",
    );
    let kind = client.call(
        7,
        "code",
        json!({"operation": "find", "symbol": "IssueStore", "kind": "trait"}),
    );
    assert_eq!(kind["isError"], true, "{kind}");
    assert!(text(&kind).contains("interface"), "{}", text(&kind));
    client.call_error(
        8,
        "explore",
        json!({"question": "where"}),
        "Invalid arguments for `explore`",
    );
    client.call_error(
        9,
        "explore",
        json!({"query": "x", "angle": "Not An Angle"}),
        "Invalid arguments for `explore`",
    );

    // A symbol that is not there is an error that still carries the typed answer.
    let missing = client.call(
        10,
        "code",
        json!({"operation": "find", "symbol": "NoSuchThing"}),
    );
    assert_eq!(missing["isError"], true, "{missing}");
    assert_eq!(
        missing["structuredContent"]["status"], "not_found",
        "{missing}"
    );
    assert!(text(&missing).contains("NoSuchThing"), "{}", text(&missing));

    // An unknown tool is a JSON-RPC error naming the tools.
    let unknown = client.request(11, "tools/call", json!({"name": "grep", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let message = unknown["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("`grep`") && message.contains("explore, tree, read, bash, code"),
        "{message}"
    );

    // Malformed requests: a JSON-RPC error, no result.
    let no_name = client.request(12, "tools/call", json!({"arguments": {}}));
    assert_eq!(no_name["error"]["code"], -32602, "{no_name}");
    assert!(
        no_name["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Malformed `tools/call`"),
        "{no_name}"
    );
    assert!(no_name.get("result").is_none(), "{no_name}");
    let no_method = client.request(13, "tools/nothing", json!({}));
    assert_eq!(no_method["error"]["code"], -32601, "{no_method}");
    assert!(
        no_method["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Method not found: `tools/nothing`"),
        "{no_method}"
    );
    // Not JSON at all: JSON-RPC's parse error, with a null id (there is none to read).
    client.send_line("this is not json");
    let parse_error = client
        .next(Instant::now() + TIMEOUT)
        .expect("no answer to a line that is not JSON");
    assert_eq!(parse_error["id"], Value::Null, "{parse_error}");
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error}");
    client.assert_alive(14);

    // After all that, the tools still work.
    let tree = client.call(15, "tree", json!({}));
    assert_eq!(tree["isError"], false, "{tree}");
    assert!(text(&tree).contains("internal/"));
}

/// A repository big enough that a debug build indexes it for several seconds.
fn big_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    // 40 packages: even an unloaded machine takes seconds to index them in a debug build.
    for d in 0..40 {
        let pkg = dir.path().join(format!("pkg{d}"));
        std::fs::create_dir_all(&pkg).unwrap();
        for f in 0..50 {
            let mut src = format!("package pkg{d}\n\n");
            for i in 0..40 {
                let next = (i + 1) % 40;
                src.push_str(&format!(
                    "// P{d}F{f}x{i} calls the next one.\nfunc P{d}F{f}x{i}(x int) int {{\n\treturn P{d}F{f}x{next}(x) + 1\n}}\n\n"
                ));
            }
            std::fs::write(pkg.join(format!("f{f}.go")), src).unwrap();
        }
    }
    dir
}

#[test]
fn long_calls_report_progress_and_can_be_cancelled() {
    let repo = big_repo();
    let started = Instant::now();
    let (mut client, _) = Client::start(repo.path());
    // The tool list does not wait for the index, which takes seconds here.
    let list = client.request(2, "tools/list", json!({}));
    let startup = started.elapsed();
    assert_eq!(list["result"]["tools"].as_array().map(Vec::len), Some(5));
    assert!(
        startup < Duration::from_secs(1),
        "first tools/list after {startup:?}"
    );

    // The index is being built in the background: both calls wait for it and say so.
    // Both need the whole graph (a depth-2 walk, a trace), which no first-query partial
    // graph answers, so they cannot finish early whatever the machine's speed.
    for (id, tool, args) in [
        (
            3,
            "code",
            json!({"operation": "callers", "symbol": "P3F0x7", "depth": 2}),
        ),
        (
            4,
            "explore",
            json!({"query": "how does P3F0x7 reach P3F0x9"}),
        ),
    ] {
        client.send(&json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args, "_meta": {"progressToken": tool}}
        }));
    }
    let deadline = Instant::now() + TIMEOUT;
    let mut waiting = vec!["code", "explore"];
    while !waiting.is_empty() {
        let message = client
            .next(deadline)
            .expect("no progress notification while the index was built");
        assert!(
            message.get("id").is_none(),
            "a call ended before it could be cancelled (the repository indexed too fast): {message}"
        );
        let params = &message["params"];
        if message["method"] == "notifications/progress"
            && let Some(token) = params["progressToken"].as_str()
        {
            // An exploration reports its first tool call, then waits like the call itself.
            let expected = match token {
                "code" => "building the code index",
                _ => "turn 1: code trace P3F0x7",
            };
            if params["message"]
                .as_str()
                .is_some_and(|m| m.starts_with(expected))
            {
                waiting.retain(|t| *t != token);
            }
        }
    }

    for id in [3, 4] {
        client.send(&json!({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": id, "reason": "the user pressed Esc"}
        }));
    }
    // The server goes on at once, and never answers the cancelled requests.
    client.assert_alive(5);
    client.call_ok(6, "tree", json!({"depth": 1}), "pkg0/");
    let quiet_until = Instant::now() + Duration::from_millis(500);
    while let Some(message) = client.next(quiet_until) {
        assert!(
            message["id"] != json!(3) && message["id"] != json!(4),
            "a cancelled request was answered: {message}"
        );
    }

    // The index finishes in the background and the next call uses it.
    client.call_ok(
        7,
        "code",
        json!({"operation": "callers", "symbol": "P3F0x7"}),
        "P3F0x6",
    );
}

#[test]
fn the_code_index_follows_edits_to_the_repository() {
    let repo = tiny_repo();
    let (mut client, _) = Client::start(repo.path());
    let find = json!({"operation": "find", "symbol": "Added"});
    let before = client.call(2, "code", find.clone());
    assert_eq!(before["isError"], true, "{before}");
    assert_eq!(
        before["structuredContent"]["status"], "not_found",
        "{before}"
    );

    std::fs::write(
        repo.path().join("store/added.go"),
        "package store\n\n// Added came after the server started.\nfunc Added() int { return 1 }\n",
    )
    .unwrap();
    // The watcher refreshes once the files are quiet; calls meanwhile see the old graph.
    let deadline = Instant::now() + TIMEOUT;
    for id in 3.. {
        let after = client.call(id, "code", find.clone());
        if after["isError"] == false {
            assert!(
                text(&after).contains("store/added.go:4"),
                "{}",
                text(&after)
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the index never saw the new file: {after}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
