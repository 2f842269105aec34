"""Importance and lifetime over MCP (full profile only): pin, unpin, set_weight,
set_lifetime, due, and store with a lifetime; errors name the allowed values and the
tool call that fixes them, and write nothing."""

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

TOOLS = ("pin", "unpin", "set_weight", "set_lifetime", "due")


@asynccontextmanager
async def connect(memory: Memory, profile: str = "full") -> AsyncIterator[Client]:
    async with Client(build_server(memory, profile=profile), mode="legacy") as client:
        yield client


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result: CallToolResult = await client.call_tool(tool, args)
    block = result.content[0]
    assert block.type == "text"
    return bool(result.is_error), json.loads(block.text)


async def test_the_tools_are_in_the_full_profile_only(memory: Memory) -> None:
    async with connect(memory, "core") as core:
        names = {t.name for t in (await core.list_tools()).tools}
        assert not (set(TOOLS) - {"pin", "unpin"}) & names  # the anchors are core (0093)
        assert {"pin", "unpin"} <= names
        store = next(t for t in (await core.list_tools()).tools if t.name == "store")
        assert "lifetime" not in store.input_schema["properties"]  # core stays as it was
    async with connect(memory) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for name in TOOLS:
            assert f"Example: {name}(" in (tools[name].description or "")
        assert tools["due"].annotations is not None and tools["due"].annotations.read_only_hint
        assert tools["pin"].annotations is not None and tools["pin"].annotations.idempotent_hint
        assert tools["set_weight"].input_schema["required"] == ["id", "weight"]
        assert "lifetime" in tools["store"].input_schema["properties"]


async def test_pin_weight_lifetime_and_due(memory: Memory) -> None:
    fact = memory.store("/projects/x", "X builds with uv.")
    old = memory.store("/projects/old", "Old.", at="2019-01-01T00:00:00Z")
    async with connect(memory) as client:
        err, pinned = await call(client, "pin", {"id": fact.id, "reason": "the user asked"})
        assert not err and pinned["pinned"] is True and pinned["lifetime"] == "standard"
        err, weighted = await call(client, "set_weight", {"id": fact.id, "weight": 0.9})
        assert not err and weighted["user_weight"] == 0.9
        err, off = await call(client, "set_weight", {"id": fact.id, "weight": None})
        assert not err and off.get("user_weight") is None  # nulls are left out
        assert memory.show(fact.id).user_weight is None
        err, life = await call(
            client, "set_lifetime", {"id": fact.id, "lifetime": "until:2999-01-31"}
        )
        assert not err and life["lifetime"] == "until:2999-01-31"
        assert life["expires_at"] == "2999-02-01T00:00:00Z"
        err, unpinned = await call(client, "unpin", {"id": fact.id})
        assert not err and unpinned["pinned"] is False
        err, due = await call(client, "due", {"under": "/projects"})
        assert not err and [d["id"] for d in due["facts"]] == [old.id]
        assert due["facts"][0]["threshold"] == 0.35
        err, stored = await call(
            client, "store", {"path": "/s", "content": "Session note.", "lifetime": "ephemeral"}
        )
        assert not err and memory.show(stored["id"]).lifetime == "ephemeral"


async def test_bad_input_names_the_allowed_values_and_writes_nothing(memory: Memory) -> None:
    fact = memory.store("/projects/x", "X.")
    events = len(memory.history(fact.id))
    async with connect(memory) as client:
        err, data = await call(client, "set_weight", {"id": fact.id, "weight": 2})
        assert err and data["error"] == "invalid_importance" and "set_weight(" in data["hint"]
        err, data = await call(client, "set_lifetime", {"id": fact.id, "lifetime": "forever"})
        assert err and data["error"] == "invalid_lifetime"
        assert "until:YYYY-MM-DD" in data["message"] and "set_lifetime(" in data["hint"]
        err, data = await call(
            client, "set_lifetime", {"id": fact.id, "lifetime": "until:2020-01-01"}
        )
        assert err and "in the past" in data["message"]
        err, data = await call(client, "pin", {"id": "0" * 26})
        assert err and data["error"] == "not_found"
    assert len(memory.history(fact.id)) == events
