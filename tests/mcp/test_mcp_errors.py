"""Every MCP error names the tool call that fixes it; the protocol edges answer cleanly."""

from __future__ import annotations

import json
import logging
import re
from typing import Any, get_args

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from embornal import Memory
from embornal.interfaces.mcp.server import build_server
from embornal.interfaces.mcp.tools import Mode
from embornal.service.recall import MODES

pytestmark = pytest.mark.anyio

UNKNOWN_ID = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"
FLAG = re.compile(r"(?<![\w-])--[a-z]")


def assert_hint_names_a_call(data: dict[str, Any], where: str) -> None:
    assert set(data) == {"error", "message", "hint"}, where
    assert data["error"] and data["message"], where
    hint = data["hint"]
    assert hint and re.search(r"\w+\(", hint), f"{where}: {data}"
    assert not FLAG.search(hint), f"{where}: a CLI flag in {hint!r}"
    assert "embornal " not in hint, f"{where}: a CLI command in {hint!r}"


async def call_error(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    assert result.is_error, (tool, args, result)
    block = result.content[0]
    assert block.type == "text"
    data: dict[str, Any] = json.loads(block.text)
    return data


def bad_calls(fid: str, forgotten: str, prefix: str) -> list[tuple[str, dict[str, Any]]]:
    long_reason = "x" * 5000
    return [
        ("store", {}),
        ("store", {"content": "No path."}),
        ("store", {"path": "/bad path", "content": "x"}),
        ("store", {"path": "/", "content": "At the root."}),
        ("store", {"path": 7, "content": "x"}),
        ("store", {"path": "/a", "content": "   "}),
        ("store", {"path": "/a", "content": "x" * 100_000}),
        ("store", {"path": "/a", "content": "x", "tags": ["nokey"]}),
        ("store", {"path": "/a", "content": "x", "tags": {"owner": "eve"}}),
        ("store", {"path": "/a", "content": "x", "tags": "[1, 2]"}),
        ("recall", {"limit": 0}),
        ("recall", {"limit": 1001}),
        ("recall", {"limit": True}),
        ("recall", {"limit": "many"}),
        ("recall", {"query": "alpha", "mode": "psychic"}),
        ("recall", {"query": "alpha", "mode": "vector"}),
        ("recall", {"query": "alpha", "mode": "hybrid"}),
        ("recall", {"query": ["not", "text"]}),
        ("recall", {"under": "/bad path"}),
        ("ls", {"path": "/nowhere"}),
        ("ls", {"path": "bad path"}),
        ("tree", {"path": "/nowhere"}),
        ("cat", {}),
        ("cat", {"path": "/nowhere"}),
        ("forget", {"id": fid}),
        ("forget", {"id": fid, "reason": "  "}),
        ("forget", {"id": fid, "reason": long_reason}),
        ("forget", {"id": UNKNOWN_ID, "reason": "x"}),
        ("forget", {"id": "not-an-id!", "reason": "x"}),
        ("forget", {"id": "", "reason": "x"}),
        ("forget", {"id": prefix, "reason": "x"}),
        ("forget", {"id": forgotten, "reason": "again"}),
        ("restore", {"id": fid, "reason": "it is active"}),
        ("restore", {"id": forgotten}),
        ("restore", {"id": UNKNOWN_ID, "reason": "x"}),
        ("show", {}),
        ("show", {"id": UNKNOWN_ID}),
        ("history", {"id_or_path": "/nowhere"}),
        ("history", {"id_or_path": UNKNOWN_ID}),
        ("supersede", {"id": fid}),
        ("supersede", {"id": forgotten, "content": "New."}),
        ("supersede", {"id": fid, "content": "New.", "reason": long_reason}),
        *wrong_shapes(fid),
        ("nosuchtool", {"x": 1}),
    ]


def wrong_shapes(fid: str) -> list[tuple[str, dict[str, Any]]]:
    """Arguments the tool converts before the call (they once answered internal_error)."""
    return [
        ("store", {"path": "/a", "content": "x", "attributes": "x"}),
        ("supersede", {"id": fid, "content": "New.", "reason": "r", "attributes": "x"}),
        ("update", {"id": fid, "attributes": "x", "reason": "r"}),
        ("propose", {"items": "x"}),
        ("propose", {"items": "7"}),
        ("remember", {"content": "c", "session": "s\x00"}),
        ("remember", {"content": "c", "session": "lone \ud800"}),
        ("corroborate", {"id": fid, "source": "a\x00b"}),
        ("corroborate", {"id": fid, "source": "ok", "common_origin": "\x00"}),
    ]


async def test_arguments_of_the_wrong_shape_are_invalid_input(memory: Memory) -> None:
    fact = memory.store("/a", "Alpha one.")
    before = memory._store.portability.event_count()
    async with Client(build_server(memory, profile="full")) as client:
        for tool, args in wrong_shapes(fact.id):
            data = await call_error(client, tool, args)
            assert data["error"].startswith("invalid_"), (tool, args, data)
            assert "server log" not in data["hint"], (tool, data)
            assert_hint_names_a_call(data, f"{tool}({args})")
    assert memory._store.portability.event_count() == before


async def test_every_error_names_the_call_that_fixes_it(memory: Memory) -> None:
    first = memory.store("/a", "Alpha one.")
    memory.store("/a", "Alpha two.")
    gone = memory.store("/a", "Alpha gone.")
    memory.forget(gone.id, reason="test")
    shared = first.id[:1]  # a prefix that every id of this memory shares: ambiguous
    seen: set[str] = set()
    async with Client(build_server(memory, profile="full")) as client:
        for tool, args in bad_calls(first.id, gone.id, shared):
            data = await call_error(client, tool, args)
            assert_hint_names_a_call(data, f"{tool}({args})"[:120])
            seen.add(data["error"])
    stranger = memory.as_subject("stranger", "assistant")
    async with Client(build_server(stranger, profile="full")) as client:
        for tool, args in [
            ("store", {"path": "/notes", "content": "Let me in."}),
            ("forget", {"id": first.id, "reason": "x"}),
            ("cat", {"path": "/a"}),
        ]:
            data = await call_error(client, tool, args)
            assert_hint_names_a_call(data, f"stranger {tool}")
            seen.add(data["error"])
    assert {
        "invalid_input",
        "invalid_path",
        "invalid_content",
        "invalid_tag",
        "owner_tag_forbidden",
        "not_found",
        "ambiguous_id",
        "conflict",
        "access_denied",
        "unknown_tool",
    } <= seen


async def test_recall_by_meaning_without_a_model_says_use_keyword(memory: Memory) -> None:
    async with Client(build_server(memory)) as client:
        data = await call_error(client, "recall", {"query": "alpha", "mode": "vector"})
    assert data["hint"].endswith('call recall(query="...", mode="keyword").')
    assert "pip" not in data["hint"]


async def test_limit_and_mode_are_in_the_schema(memory: Memory) -> None:
    literal = get_args(get_args(Mode)[0])[0]
    assert get_args(literal) == MODES  # the schema's enum is the service's list
    async with Client(build_server(memory, profile="full")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        props = tools["recall"].input_schema["properties"]
        (limit,) = [s for s in props["limit"]["anyOf"] if s.get("type") == "integer"]
        assert (limit["minimum"], limit["maximum"]) == (1, 1000)
        (mode,) = [s for s in props["mode"]["anyOf"] if "enum" in s]
        assert tuple(mode["enum"]) == MODES
        for tool in tools.values():
            description = tool.description or ""
            assert "\n    " not in description and description == description.strip()
            assert description.splitlines()[-1].startswith(("Example:", "reason=", "tags="))
        # true is not 1
        data = await call_error(client, "recall", {"limit": True})
        assert data["error"] == "invalid_input" and "limit" in data["message"]
        ok = await client.call_tool("recall", {"limit": 1000})
        assert not ok.is_error


async def test_no_prompts_or_resources_are_advertised_or_served(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with Client(build_server(memory)) as client:
        capabilities = client.server_capabilities
        assert capabilities is not None
        assert capabilities.tools is not None
        assert capabilities.prompts is None and capabilities.resources is None
        with pytest.raises(MCPError) as prompt:
            await client.get_prompt("nothing")
        assert prompt.value.error.code == -32601
        with pytest.raises(MCPError) as resource:
            await client.read_resource("embornal:///a")
        assert resource.value.error.code == -32601
    assert "Traceback" not in caplog.text
