"""``embornal mcp --compat memory-as-history`` (decision 0155), a real server over stdio:
the peer's tool lists, an unknown profile falling back to core, its times, its refusals,
``unpin``'s answer, a wordless query; and ``embornal mcp`` without it, unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult, TextContent

import embornal
from embornal.errors import InvalidInput
from embornal.interfaces.mcp.compat_mode import MEMORY_AS_HISTORY, compat_mode
from embornal.interfaces.mcp.tools import FULL_TOOLS

pytestmark = pytest.mark.anyio

SRC = str(Path(embornal.__file__).parents[1])  # this source tree, for the server process
COMPAT = ["--compat", "memory-as-history"]
PEER_CORE = {
    "remember",
    "recall",
    "search",
    "promote",
    "pin",
    "unpin",
    "corroborate",
    "provenance",
    "flag_sensitive",
    "forget",
    "restore",
    "narrate",
    "current_narrative",
    "due_for_consolidation",
    "audit_log",
}


def _params(tmp_path: Path, *args: str, **env: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "embornal.interfaces.cli.main", "mcp", *args, "--db", str(tmp_path / "m.db")],
        env={"EMBORNAL_HOME": str(tmp_path / "home"), "PYTHONPATH": SRC, **env},
    )


@asynccontextmanager
async def _server(params: StdioServerParameters, log: Path) -> AsyncIterator[Client]:
    with log.open("w") as errlog, anyio.fail_after(90):
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            yield client


async def _call(client: Client, tool: str, args: dict[str, Any]) -> Any:
    """The answer's JSON, as the peer's clients read it; an ``isError`` answer fails."""
    result = await client.call_tool(tool, args)
    block = result.content[0]
    assert block.type == "text"
    assert not result.is_error, block.text
    return json.loads(block.text)


async def _names(client: Client) -> set[str]:
    return {t.name for t in (await client.list_tools()).tools}


async def test_compat_core_is_the_peers_core_and_answers_as_the_peer(tmp_path: Path) -> None:
    params = _params(tmp_path, EMBORNAL_MCP_COMPAT="memory-as-history")
    async with _server(params, tmp_path / "server.log") as client:
        assert await _names(client) == PEER_CORE  # search, where embornal's core has store
        memory = await _call(client, "remember", {"content": "Core loop fact"})
        assert memory["created_at"].endswith("+00:00")
        args = {"memory_id": memory["id"], "reason": "durable"}
        await _call(client, "promote", args)
        await _call(client, "pin", args)
        assert await _call(client, "unpin", args) == {"memory_id": memory["id"], "unpinned": True}
        missing = await _call(client, "provenance", {"memory_id": "missing"})
        assert (missing["error"], missing["code"]) == ("KeyError", "not_found")


async def test_compat_full_is_the_peers_46_tools_with_its_times(tmp_path: Path) -> None:
    params = _params(tmp_path, *COMPAT, "--profile", "full")
    async with _server(params, tmp_path / "server.log") as client:
        names = await _names(client)
        assert names == set(MEMORY_AS_HISTORY.profiles["full"]) and len(names) == 46
        assert not {"store", "cat", "show"} & names
        dated = {"content": "Deadline set", "event_at": "2024-01-01T08:00:00+08:00"}
        memory = await _call(client, "remember", dated)
        assert memory["event_at"] == "2024-01-01T00:00:00+00:00"
        relative = await _call(client, "recall_claims", {"as_of": "yesterday"})
        assert (relative["error"], relative["code"]) == ("ValueError", "invalid_time")
        assert relative["hint"]
        absolute = await _call(client, "recall_claims", {"as_of": "2020-01-01T00:00:00Z"})
        assert absolute["claims"] == []
        literal = await _call(client, "remember", {"content": "[]", "frame": "[]"})
        recalled = await _call(client, "recall", {"query": "[]", "frame": "[]"})
        assert [m["id"] for m in recalled["memories"]] == [literal["id"]]


async def test_an_unknown_profile_falls_back_to_core_with_a_warning(tmp_path: Path) -> None:
    params = _params(tmp_path, *COMPAT, EMBORNAL_MCP_TOOLS="everything")
    log = tmp_path / "server.log"
    async with _server(params, log) as client:
        assert await _names(client) == PEER_CORE
    warning = log.read_text(encoding="utf-8")
    assert "unknown MCP profile 'everything'" in warning and "Falling back to 'core'" in warning


async def test_without_compat_the_server_is_embornals(tmp_path: Path) -> None:
    params = _params(tmp_path, "--refusals", "result", EMBORNAL_MCP_TOOLS="full")
    async with _server(params, tmp_path / "server.log") as client:
        assert await _names(client) == set(FULL_TOOLS) and len(FULL_TOOLS) == 80
        dated = {"content": "Deadline set", "event_at": "2024-01-01T08:00:00+08:00"}
        memory = await _call(client, "remember", dated)
        assert memory["event_at"] == "2024-01-01T00:00:00Z"
        assert "claims" in await _call(client, "recall_claims", {"as_of": "yesterday"})
        args = {"memory_id": memory["id"], "reason": "durable"}
        await _call(client, "promote", args)
        await _call(client, "pin", args)
        unpinned = await _call(client, "unpin", args)
        assert unpinned["unpinned"] is True and unpinned["id"] == memory["id"]
        missing = await _call(client, "provenance", {"memory_id": "missing"})
        assert (missing["error"], missing["code"]) == ("ValueError", "invalid_input")
        await _call(client, "remember", {"content": "[]"})
        assert (await _call(client, "recall", {"query": "[]"}))["memories"] == []


def test_without_compat_an_unknown_profile_stops_the_server(tmp_path: Path) -> None:
    params = _params(tmp_path, EMBORNAL_MCP_TOOLS="everything")
    done = subprocess.run(
        [params.command, *params.args],
        env=params.env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode != 0
    assert "EMBORNAL_MCP_TOOLS must be one of core, full" in done.stderr


def test_an_unknown_compat_mode_is_refused() -> None:
    with pytest.raises(InvalidInput, match="compatibility mode 'mem0'"):
        compat_mode("mem0")


def test_only_time_fields_are_rewritten_with_plus_zero() -> None:
    text = '{"content":"2024-01-01T00:00:00Z","created_at":"2024-01-01T00:00:00Z"}'
    data = json.loads(text)
    answer = MEMORY_AS_HISTORY.answer(
        "remember",
        CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data),
    )
    want = {"content": "2024-01-01T00:00:00Z", "created_at": "2024-01-01T00:00:00+00:00"}
    assert answer.structured_content == want
    assert isinstance(answer.content[0], TextContent)
    assert json.loads(answer.content[0].text) == want
