"""The timeline's MCP tools (full profile), in-process: memory-as-history's names and argument
names (``memory_id``, ``session_id``; ``id``, ``session`` tolerated), and structured
errors whose hint names the tool call that fixes them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.client import Client

from embornal import Memory
from embornal.interfaces.mcp.hints import TOOL_CALL
from embornal.interfaces.mcp.server import build_server

pytestmark = pytest.mark.anyio


async def _call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await client.call_tool(tool, args)
    (block,) = result.content
    assert block.type == "text"
    return bool(result.is_error), json.loads(block.text)


async def test_the_seed_contract_over_mcp(memory: Memory) -> None:
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        bad, old = await _call(
            client,
            "remember",
            {
                "content": "Comet deadline: March 4.",
                "event_at": "2025-03-01T09:00:00Z",
                "session_id": "comet:meeting-1",
                "session_position": 0,
            },
        )
        assert not bad and old["event_at"] == "2025-03-01T09:00:00Z"
        assert (old["session_id"], old["session_position"]) == ("comet:meeting-1", 0)
        bad, new = await _call(
            client,
            "remember",
            {
                "content": "Comet deadline changed to April 10.",
                "event_at": "2025-03-10T09:00:00Z",
                "session": "comet:meeting-2",
                "session_position": 0,
            },
        )
        assert not bad
        bad, cause = await _call(
            client,
            "remember",
            {
                "content": "Review found a missing signature.",
                "session_id": "comet:meeting-2",
                "session_position": 1,
            },
        )
        bad, link = await _call(
            client,
            "link_memories",
            {
                "source_id": new["memory_id"],
                "target_id": old["memory_id"],
                "relation": "updates",
                "reason": "revised notice",
            },
        )
        assert not bad and link["relation"] == "supersedes"
        bad, got = await _call(client, "search_history", {"query": "deadline April", "expand": 1})
        assert not bad
        (hit,) = [h for h in got["hits"] if h["memory_id"] == new["memory_id"]]
        assert {e["memory_id"] for e in hit["evidence"]} == {cause["memory_id"]}  # old: a hit
        bad, got = await _call(client, "timeline", {"session_id": "comet:meeting-2"})
        assert not bad
        assert [m["memory_id"] for m in got["memories"]] == [new["memory_id"], cause["memory_id"]]
        bad, got = await _call(
            client,
            "set_history_context",
            {
                "id": cause["memory_id"],
                "event_at": "2025-03-09T15:00:00Z",
                "session_id": "comet:meeting-2",
                "session_position": 1,
                "reason": "date from the minutes",
            },
        )
        assert not bad and got["event_at"] == "2025-03-09T15:00:00Z"
        bad, got = await _call(client, "timeline", {"start": "2025-03-05T00:00:00Z"})
        assert [m["memory_id"] for m in got["memories"]] == [cause["memory_id"], new["memory_id"]]
        bad, got = await _call(client, "memory_links", {"memory_id": new["memory_id"]})
        assert not bad and [(n["id"], n["via"]) for n in got["linked"]] == [
            (old["memory_id"], "supersedes")
        ]
        bad, got = await _call(
            client,
            "unlink_memories",
            {
                "source_id": new["memory_id"],
                "target_id": old["memory_id"],
                "relation": "updates",
                "reason": "wrong",
            },
        )
        assert not bad
        bad, got = await _call(client, "audit_log", {"limit": 1})
        assert got[0]["action"] == "unlink"


async def test_errors_are_structured_and_name_the_fix(memory: Memory) -> None:
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        _, a = await _call(client, "remember", {"content": "a"})
        _, b = await _call(client, "remember", {"content": "b"})
        bad, err = await _call(client, "remember", {"content": "x", "session_position": 2})
        assert bad and set(err) == {"error", "message", "hint"}
        assert "session_id" in err["hint"]
        bad, err = await _call(
            client,
            "link_memories",
            {"source_id": a["memory_id"], "target_id": b["memory_id"], "relation": "causes"},
        )
        assert bad and set(err) == {"error", "message", "hint"} and "related" in err["message"]
        bad, err = await _call(client, "search_history", {"query": "   "})
        assert bad and TOOL_CALL.search(err["hint"]) and "search_history(" in err["hint"]
        bad, err = await _call(client, "timeline", {"start": "last week"})
        assert bad and err["error"] == "invalid_input"


async def test_the_tools_are_in_the_full_profile_with_annotations(memory: Memory) -> None:
    names = {
        "set_history_context",
        "timeline",
        "search_history",
        "link_memories",
        "unlink_memories",
        "memory_links",
    }
    async with Client(build_server(memory, profile="core"), mode="auto") as client:
        core = {t.name for t in (await client.list_tools()).tools}
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert not names & core and names <= set(tools)
    assert tools["timeline"].annotations.read_only_hint is True
    assert tools["search_history"].annotations.read_only_hint is True
    assert tools["link_memories"].annotations.read_only_hint is False
    for name in names:
        assert "Example:" in (tools[name].description or ""), name
