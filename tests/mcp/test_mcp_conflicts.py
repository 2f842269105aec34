"""The conflict queue over MCP (full profile only): conflicts, conflict, scan_conflicts;
no tool resolves a conflict, and each open one tells the model to ask the user."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp.client import Client
from mcp_types import CallToolResult

from embornal import Memory
from embornal.interfaces.mcp.server import build_server

pytestmark = pytest.mark.anyio

TOOLS = ("conflicts", "conflict", "scan_conflicts")


@asynccontextmanager
async def connect(memory: Memory, profile: str = "full") -> AsyncIterator[Client]:
    async with Client(build_server(memory, profile=profile), mode="legacy") as client:
        yield client


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result: CallToolResult = await client.call_tool(tool, args)
    block = result.content[0]
    assert block.type == "text"
    return bool(result.is_error), json.loads(block.text)


async def test_the_tools_are_in_the_full_profile_and_none_resolves(memory: Memory) -> None:
    async with connect(memory, "core") as core:
        assert not set(TOOLS) & {t.name for t in (await core.list_tools()).tools}
    async with connect(memory) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(TOOLS) <= set(tools) and "resolve_conflict" not in tools
        listed = tools["conflicts"]
        assert listed.annotations is not None and listed.annotations.read_only_hint
        assert "Do not decide a conflict yourself" in (listed.description or "")


async def test_list_show_and_scan(memory: Memory) -> None:
    memory.store("/people/a", "Ada", kind="person", attributes={"full_name": "Ada Lovelace"})
    memory.store("/people/b", "Ada", kind="person", attributes={"full_name": "A. Lovelace"})
    async with connect(memory) as client:
        err, out = await call(client, "conflicts", {"class": "duplicate"})
        assert not err
        (c,) = out["conflicts"]
        assert c["conflict_class"] == "duplicate" and len(c["facts"]) == 2
        assert c["next_step"].startswith("Ask the user to decide: `embornal conflict resolve")
        err, shown = await call(client, "conflict", {"id": c["id"][:6]})
        assert not err and shown["id"] == c["id"]
        err, scanned = await call(client, "scan_conflicts", {"stale": False})
        assert not err and scanned["conflicts"] == [] and scanned["hint"]
        err, bad = await call(client, "conflict", {"conflict_id": "KFFFFFFFF"})
        assert err and bad["error"] == "not_found" and "conflicts()" in bad["hint"]
        err, bad = await call(client, "conflicts", {"status": "closed"})
        assert err
