"""The conflict queue over MCP (full profile only): conflicts, conflict, scan_conflicts;
no tool resolves a conflict, and each open one tells the model to ask the user."""

from __future__ import annotations

import pytest
from mcp_helpers import call, connect

from embornal import Memory

pytestmark = pytest.mark.anyio

TOOLS = ("conflicts", "conflict", "scan_conflicts")


async def test_the_tools_are_in_the_full_profile_and_resolve_takes_seed_002s_args(
    memory: Memory,
) -> None:
    """Decision 0080: resolve_conflict(conflict_id, reason, adopted_memory_id?) is a tool
    of the full profile (memory-as-history's signature); merging is not."""
    async with connect(memory, "core") as core:
        names = {t.name for t in (await core.list_tools()).tools}
        assert not (set(TOOLS) | {"resolve_conflict"}) & names
    async with connect(memory) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(TOOLS) <= set(tools) and "resolve_conflict" in tools
        listed = tools["conflicts"]
        assert listed.annotations is not None and listed.annotations.read_only_hint
        assert "never silently" in (listed.description or "")
        resolve = tools["resolve_conflict"]
        assert resolve.annotations is not None and resolve.annotations.destructive_hint
        props = resolve.input_schema["properties"]
        assert {"conflict_id", "reason", "adopted_memory_id"} <= set(props)
        assert "merge" not in props


async def test_list_show_and_scan(memory: Memory) -> None:
    memory.store("/people/a", "Ada", kind="person", attributes={"full_name": "Ada Lovelace"})
    memory.store("/people/b", "Ada", kind="person", attributes={"full_name": "A. Lovelace"})
    async with connect(memory) as client:
        err, out = await call(client, "conflicts", {"class": "duplicate"})
        assert not err
        (c,) = out["conflicts"]
        assert c["conflict_class"] == "duplicate" and len(c["facts"]) == 2
        assert c["next_step"].startswith("Settle it with the user: resolve_conflict(")
        err, shown = await call(client, "conflict", {"id": c["id"][:6]})
        assert not err and shown["id"] == c["id"]
        err, scanned = await call(client, "scan_conflicts", {"stale": False})
        assert not err and scanned["conflicts"] == [] and scanned["hint"]
        err, bad = await call(client, "conflict", {"conflict_id": "KFFFFFFFF"})
        assert err and bad["error"] == "not_found" and "conflicts()" in bad["hint"]
        err, bad = await call(client, "conflicts", {"status": "closed"})
        assert err
