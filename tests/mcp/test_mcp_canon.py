"""Canon, frames and declared conflicts over MCP (full profile), in-process:
memory-as-history's tool names and argument names, and structured self-correcting errors
whose hint names the tool call that fixes them (decisions 0078-0080)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.client import Client

from embornal import Memory
from embornal.interfaces.mcp.server import build_server

pytestmark = pytest.mark.anyio

SEED_TOOLS = {
    "canonize",
    "decanonize",
    "end_scope",
    "list_canon",
    "active_scopes",
    "set_frame",
    "list_frames",
    "mark_conflict",
    "resolve_conflict",
    "list_conflicts",
}


async def _call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await client.call_tool(tool, args)
    (block,) = result.content
    assert block.type == "text"
    return bool(result.is_error), json.loads(block.text)


async def test_the_tools_are_in_the_full_profile_only(memory: Memory) -> None:
    async with Client(build_server(memory, profile="core"), mode="auto") as core:
        assert not SEED_TOOLS & {t.name for t in (await core.list_tools()).tools}
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) >= SEED_TOOLS
        for name in SEED_TOOLS:
            assert tools[name].annotations is not None
        assert "frame" in tools["remember"].input_schema["properties"]


async def test_canon_over_mcp_with_self_correcting_errors(memory: Memory) -> None:
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        _, got = await _call(client, "remember", {"content": "Ship 2.0 Friday.", "frame": "pm"})
        mid = got["memory_id"]
        assert got["frame"] == "pm"
        bad, err = await _call(
            client, "canonize", {"memory_id": mid, "scope": "release", "reason": "plan"}
        )
        assert bad and err["error"] == "protocol_violation"
        assert err["hint"].startswith("This memory is still working-tier. Call promote(")
        assert "embornal" not in err["hint"]  # no CLI command for the model
        await _call(client, "promote", {"memory_id": mid, "reason": "the plan"})
        bad, entry = await _call(
            client, "canonize", {"memory_id": mid, "scope": "release", "reason": "plan"}
        )
        assert not bad and entry["scope"] == "release" and entry["eligible_for_recall"]
        bad, err = await _call(client, "forget", {"memory_id": mid, "reason": "done"})
        assert bad and "decanonize(memory_id, reason)" in err["hint"]
        _, listed = await _call(client, "list_canon", {"scope": "release"})
        assert [e["memory_id"] for e in listed["entries"]] == [mid]
        _, scopes = await _call(client, "active_scopes", {})
        assert scopes["scopes"] == [{"scope": "release", "entries": 1}]
        _, framed = await _call(
            client, "set_frame", {"memory_id": mid, "frame": "team-a", "reason": "moved"}
        )
        assert framed["frame"] == "team-a" and framed["canon"] == ["release"]
        _, frames = await _call(client, "list_frames", {})
        assert frames["frames"] == [{"frame": "team-a", "memories": 1}]
        _, ended = await _call(client, "end_scope", {"scope": "release", "reason": "shipped"})
        assert ended["decommissioned"] == 1 and ended["memory_ids"] == [mid]
        bad, err = await _call(client, "decanonize", {"memory_id": mid, "reason": "again"})
        assert bad and "list_canon()" in err["hint"]
        bad, _ = await _call(client, "forget", {"memory_id": mid, "reason": "done"})
        assert not bad


async def test_seed_002s_conflict_calls_over_mcp(memory: Memory) -> None:
    a = memory.remember("The deadline is June.", frame="team-a").fact.id
    b = memory.remember("The deadline is July.", frame="team-b").fact.id
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        bad, c = await _call(client, "mark_conflict", {"a": a, "b": b, "reason": "two dates"})
        assert not bad and c["conflict_class"] == "declared" and c["reason"] == "two dates"
        assert c["next_step"].startswith("Settle it with the user: resolve_conflict(")
        _, listed = await _call(client, "list_conflicts", {"resolved": False})
        assert [x["id"] for x in listed["conflicts"]] == [c["id"]]
        bad, done = await _call(
            client,
            "resolve_conflict",
            {"conflict_id": c["id"], "reason": "the plan says July", "adopted_memory_id": b},
        )
        assert not bad and done["status"] == "resolved"
        assert done["resolution"].startswith(f"keep {b}")
        assert all(f["id"] in (a, b) for f in done["facts"])
        assert memory.show(a).fact.state == "active"  # neither version is deleted
        bad, err = await _call(client, "resolve_conflict", {"conflict_id": c["id"], "reason": "x"})
        assert bad and err["error"] == "conflict"
        # a second declaration, settled without an adopted id: both stand
        _, c2 = await _call(client, "mark_conflict", {"a": a, "b": b, "reason": "again"})
        _, both = await _call(
            client, "resolve_conflict", {"conflict_id": c2["id"], "reason": "defer"}
        )
        assert both["resolution"].startswith("both")
        _, everything = await _call(client, "list_conflicts", {})
        assert len(everything["conflicts"]) == 2
        memory.forget(a, reason="wrong")
        bad, err = await _call(client, "mark_conflict", {"a": a, "b": b, "reason": "x"})
        assert bad and err["error"] == "protocol_violation"
        assert "restore(memory_id, reason)" in err["hint"]
