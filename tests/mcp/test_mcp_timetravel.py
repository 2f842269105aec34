"""``at`` on the MCP read tools: in the full profile only (the core list stays as it is)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from test_mcp_tools import connect, fail, ok

from embornal import FixedClock, Memory
from embornal.domain.clock import format_time

pytestmark = pytest.mark.anyio
READS = ("recall", "ls", "tree", "cat", "show", "find")


async def test_full_read_tools_take_at_and_core_ones_do_not(memory: Memory) -> None:
    async with connect(memory, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for name in READS:
            assert "at" in tools[name].input_schema["properties"], name
    async with connect(memory, profile="core") as client:
        for tool in (await client.list_tools()).tools:
            assert "at" not in tool.input_schema["properties"], tool.name


async def test_recall_and_cat_as_they_were(memory: Memory, clock: FixedClock) -> None:
    fact = memory.store("/notes", "Otters hold hands.")
    then = format_time(clock.now() + timedelta(hours=1))
    clock.advance(days=1)
    memory.forget(fact.id, reason="wrong")
    async with connect(memory, profile="full") as client:
        hits = await ok(client, "recall", {"query": "otters", "at": then})
        assert [h["id"] for h in hits["hits"]] == [fact.id]
        cat = await ok(client, "cat", {"path": "/notes", "at": then})
        assert [f["id"] for f in cat["facts"]] == [fact.id]
        assert (await ok(client, "recall", {"query": "otters"}))["hits"] == []
        bad = await fail(client, "recall", {"query": "otters", "at": "next week"})
        assert bad["error"] == "invalid_time" and 'at="' in bad["hint"]
    assert memory.show(fact.id).fact.recall_count == 0
