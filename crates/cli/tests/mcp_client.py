"""`explore mcp` driven by a real third-party client: the official Python MCP SDK.

Run by .ci/run after the Rust tests (docs/mcp.md):

    python crates/cli/tests/mcp_client.py target/debug/explore evals/fixtures/relay

Starts `explore mcp -C <repo>` over stdio, lists the tools and calls each one, asserting on
the answers: a definition's `path:line`, a `Command blocked:` refusal, a path outside the
repository refused, the contract's result document from `explore`. Exits non-zero on the
first failed assertion, so CI fails with it.
"""

import asyncio
import os
import sys
import tempfile
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

EXPECTED_TOOLS = ["explore", "tree", "read", "bash", "code"]


def text_of(result):
    """The text of a tool result's first content block."""
    assert result.content, f"no content: {result}"
    return result.content[0].text


async def run(explore: str, repo: str) -> None:
    with tempfile.TemporaryDirectory() as cache:
        params = StdioServerParameters(
            command=explore,
            args=["mcp", "-C", repo],
            # The SDK passes the server only a few variables (PATH, HOME, …) plus these:
            # the local engine whatever the machine has configured, a cache of our own.
            env={"EXPLORE_ENGINE": "local", "EXPLORE_CACHE_DIR": cache},
        )
        started = time.monotonic()
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                assert init.server_info.name == "explore", init

                tools = (await session.list_tools()).tools
                print(f"tools/list after {(time.monotonic() - started) * 1000:.0f} ms")
                names = [t.name for t in tools]
                assert names == EXPECTED_TOOLS, names
                for tool in tools:
                    assert tool.annotations.read_only_hint is True, tool
                    assert tool.annotations.open_world_hint is False, tool
                    assert tool.description, tool
                # Typed answers: the SDK validates every successful result against these.
                assert tools[0].output_schema["type"] == "object", tools[0]
                assert tools[4].output_schema["type"] == "object", tools[4]

                # code: a definition's path:line, and the typed answer.
                code = await session.call_tool(
                    "code", {"operation": "find", "symbol": "IssueStore"}
                )
                assert not code.is_error, code
                assert "internal/model/issue.go:155" in text_of(code), text_of(code)
                items = code.structured_content["sections"][0]["items"]
                assert (items[0]["path"], items[0]["line"]) == (
                    "internal/model/issue.go",
                    155,
                ), items[0]
                print("code find IssueStore -> internal/model/issue.go:155")
                # Every operation's answer fits the output schema (the SDK checks each one).
                for args in [
                    {"operation": "implementations", "symbol": "IssueStore"},
                    {"operation": "methods", "symbol": "IssueStore"},
                    {"operation": "usages", "symbol": "IssueStore"},
                    {"operation": "callers", "symbol": "NewIssue", "file": "internal/model/issue.go"},
                    {"operation": "callees", "symbol": "NewIssue", "file": "internal/model/issue.go"},
                ]:
                    answer = await session.call_tool("code", args)
                    assert not answer.is_error, (args, text_of(answer))
                    assert answer.structured_content["status"] == "found", answer
                ambiguous = await session.call_tool(
                    "code", {"operation": "callers", "symbol": "NewIssue"}
                )
                assert ambiguous.is_error, ambiguous
                assert ambiguous.structured_content["status"] == "ambiguous", ambiguous

                # read: lines of a file, and a path outside the repository refused.
                read = await session.call_tool(
                    "read",
                    {"file": "internal/model/issue.go", "start_line": 155, "num_lines": 3},
                )
                assert not read.is_error, read
                assert "type IssueStore interface" in text_of(read), text_of(read)
                outside = await session.call_tool("read", {"file": "../etc/passwd"})
                assert outside.is_error, outside
                assert "refused" in text_of(outside).lower(), text_of(outside)
                print(f"read ../etc/passwd -> {text_of(outside)[:60]}...")

                # tree.
                tree = await session.call_tool("tree", {"depth": 1})
                assert not tree.is_error, tree
                assert "internal/" in text_of(tree), text_of(tree)

                # bash: a search runs; network and writes are blocked.
                found = await session.call_tool(
                    "bash", {"command": "rg -n 'type IssueStore interface' internal"}
                )
                assert not found.is_error, found
                assert "internal/model/issue.go:155:" in text_of(found), text_of(found)
                for command in ["curl https://example.com", "rm -rf internal"]:
                    blocked = await session.call_tool("bash", {"command": command})
                    assert blocked.is_error, blocked
                    assert text_of(blocked).startswith("Command blocked:"), text_of(blocked)
                    print(f"bash {command!r} -> {text_of(blocked)[:60]}...")

                # explore: the contract's result document (validated by the SDK against
                # the tool's output schema), the human summary as text.
                answer = await session.call_tool(
                    "explore", {"query": "where is IssueStore defined"}
                )
                assert not answer.is_error, answer
                doc = answer.structured_content
                assert doc["version"] == 1, doc
                assert doc["relevant_files"][0]["path"] == "internal/model/issue.go", doc
                assert doc["_metadata"]["stop_reason"] == "answered", doc["_metadata"]
                assert doc["_metadata"]["engine"] == "local", doc["_metadata"]
                assert "internal/model/issue.go:155" in text_of(answer), text_of(answer)
                print("explore 'where is IssueStore defined' -> internal/model/issue.go")

                # The server is still there after the errors.
                await session.send_ping()
    print("mcp client: every check passed")


def main() -> int:
    if len(sys.argv) != 3:
        print(f"usage: {sys.argv[0]} EXPLORE_BINARY REPO", file=sys.stderr)
        return 2
    explore = os.path.abspath(sys.argv[1])
    repo = os.path.abspath(sys.argv[2])
    asyncio.run(run(explore, repo))
    return 0


if __name__ == "__main__":
    sys.exit(main())
