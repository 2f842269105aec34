"""memory-as-history's chronology over MCP: timeline and history search entries answer
``id`` beside ``memory_id``, a history search its ``memories`` (hits, then their
evidence) beside ``hits``, ``memory_links(include_retired=True)`` the retracted links with
their retirement, through the access filter; and under ``--compat memory-as-history`` the
peer's default expansion, its list of links and its timezone-aware times (docs/mcp.md,
"memory-as-history compatibility")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.client import Client
from tests.mcp.mcp_helpers import call, connect

from embornal import Memory
from embornal.interfaces.mcp.compat_mode import MEMORY_AS_HISTORY
from embornal.interfaces.wire import from_wire, to_wire
from embornal.service.graph.results import LinkGraph

pytestmark = pytest.mark.anyio


async def _ok(client: Client, tool: str, args: dict[str, Any]) -> Any:
    bad, got = await call(client, tool, args)
    assert not bad, got
    return got


async def _notice(client: Client) -> tuple[str, str, str]:
    """Two memories of session ``null``, the later linked ``updates`` to the earlier."""
    at = {"session_id": "null", "session_position": 0, "event_at": "2024-01-01T08:00:00+08:00"}
    earlier = await _ok(client, "remember", {"content": "original date", **at})
    at.update(session_position=1, event_at="2024-02-01T00:00:00Z")
    later = await _ok(client, "remember", {"content": "deadline changed", **at})
    edge = await _ok(
        client,
        "link_memories",
        {
            "from_id": later["id"],
            "to_id": earlier["id"],
            "relation": "updates",
            "reason": "revised notice",
        },
    )
    return earlier["id"], later["id"], edge["id"]


async def test_timeline_and_history_entries_answer_id_and_memories(memory: Memory) -> None:
    async with connect(memory) as client:
        earlier, later, _ = await _notice(client)
        rows = await _ok(client, "timeline", {"session_id": "null"})
        assert [r["id"] for r in rows["memories"]] == [earlier, later]
        assert [r["memory_id"] for r in rows["memories"]] == [earlier, later]
        got = await _ok(client, "search_history", {"query": "deadline"})
        assert [h["id"] for h in got["hits"]] == [later]
        assert [m["id"] for m in got["memories"]] == [later]  # no evidence unless asked
        got = await _ok(client, "search_history", {"query": "deadline", "expand": "both"})
        assert [e["id"] for e in got["hits"][0]["evidence"]] == [earlier]
        assert [m["id"] for m in got["memories"]] == [later, earlier]  # each memory once


async def test_memory_links_include_retired_answers_the_retracted_links(memory: Memory) -> None:
    async with connect(memory) as client:
        earlier, later, edge = await _notice(client)
        await _ok(client, "unlink_memories", {"link_id": edge, "reason": "mistaken association"})
        got = await _ok(client, "memory_links", {"memory_id": later})
        assert got["linked"] == [] and got["links"] == []
        got = await _ok(client, "memory_links", {"memory_id": earlier, "include_retired": True})
        assert got["linked"] == []
        (link,) = got["links"]
        assert (link["id"], link["from_id"], link["to_id"]) == (edge, later, earlier)
        assert (link["relation"], link["reason"]) == ("supersedes", "revised notice")
        assert link["retired_at"] and link["retirement_reason"] == "mistaken association"
        assert link["created_at"] <= link["retired_at"]
        again = {"from_id": later, "to_id": earlier, "relation": "updates", "reason": "right"}
        await _ok(client, "link_memories", again)
        got = await _ok(client, "memory_links", {"memory_id": later})
        assert [(x["reason"], x["retired_at"]) for x in got["links"]] == [("right", None)]
        got = await _ok(client, "memory_links", {"memory_id": later, "include_retired": True})
        assert [(x["reason"], bool(x["retired_at"])) for x in got["links"]] == [
            ("revised notice", True),
            ("right", False),
        ]


async def test_a_retired_link_to_a_memory_the_caller_may_not_read_is_not_shown(
    memory: Memory,
) -> None:
    shared = memory.store("/notes", "Zeppelins float.")
    hidden = memory.store("/notes", "Zeppelin secret.", visibility="private")
    memory.chronicle.link_memories(shared.id, hidden.id, "related", reason="same airship")
    memory.chronicle.unlink_memories(shared.id, hidden.id, "related", reason="not the same")
    own = memory.chronicle.memory_links(shared.id, include_retired=True)
    (retired,) = own.links  # a symmetric link is stored from the smaller id
    assert {retired.source_id, retired.target_id} == {shared.id, hidden.id}
    assert retired.retirement_reason == "not the same"
    async with connect(memory) as client:  # an MCP caller never reads a private fact
        got = await _ok(client, "memory_links", {"memory_id": shared.id, "include_retired": True})
        assert got["links"] == [] and hidden.id not in str(got)


async def test_compat_answers_the_peers_chronology(memory: Memory) -> None:
    async with connect(memory, compat=MEMORY_AS_HISTORY) as client:
        earlier, later, edge = await _notice(client)
        got = await _ok(client, "search_history", {"query": "deadline", "mode": "lexical"})
        assert [m["id"] for m in got["memories"]] == [later, earlier]  # the peer's expand=both
        got = await _ok(client, "search_history", {"query": "deadline", "expand": "none"})
        assert [m["id"] for m in got["memories"]] == [later]
        await _ok(client, "unlink_memories", {"link_id": edge, "reason": "mistaken association"})
        links = await _ok(client, "memory_links", {"memory_id": later, "include_retired": True})
        assert isinstance(links, list) and [x["id"] for x in links] == [edge]
        assert links[0]["retired_at"].endswith("+00:00")
        changed = await _ok(client, "set_history_context", {"memory_id": later, "reason": "x"})
        assert changed["event_at"] is None and changed["session_id"] is None
        for since in ("2024-01-01", "2024-01-01T00:00:00"):
            error = await _ok(client, "search_history", {"query": "deadline", "since": since})
            assert (error["error"], error["code"]) == ("ValueError", "invalid_time"), error
            assert error["hint"]
        zoned = {"query": "deadline", "since": "2024-01-01T00:00:00Z", "expand": "none"}
        assert (await _ok(client, "search_history", zoned))["memories"] == []


async def test_without_compat_a_date_is_its_first_instant(memory: Memory) -> None:
    async with connect(memory) as client:
        _, later, _ = await _notice(client)
        got = await _ok(client, "search_history", {"query": "deadline", "since": "2024-01-15"})
        assert [m["id"] for m in got["memories"]] == [later]


def test_the_links_as_made_cross_the_wire(memory: Memory) -> None:
    a = memory.store("/notes", "Deadline: March.")
    b = memory.store("/notes", "Deadline moved to April.")
    memory.chronicle.link_memories(b.id, a.id, "updates", reason="revised")
    memory.chronicle.unlink_memories(b.id, a.id, "updates", reason="wrong")
    graph = memory.chronicle.memory_links(b.id, include_retired=True)
    assert from_wire(LinkGraph, json.loads(json.dumps(to_wire(graph)))) == graph
    assert graph.links[0].retired_at is not None
