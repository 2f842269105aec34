"""``now`` on the MCP recall tool: in the full profile; a bad one names the fixing call."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_mcp_tools import connect, fail, ok

from embornal import Memory, NewFact

pytestmark = pytest.mark.anyio
ASKED = "2026-12-02T15:00:00Z"


async def test_recall_reads_the_time_named_against_now(memory: Memory) -> None:
    near, far = memory.store_many(
        [
            NewFact(
                path="/chat/s1",
                content="We went hiking in the hills.",
                at=datetime(2026, 11, 28, 10, tzinfo=UTC),
            ),
            NewFact(
                path="/chat/s2",
                content="We went hiking in the hills too.",
                at=datetime(2026, 10, 3, 10, tzinfo=UTC),
            ),
        ]
    )
    async with connect(memory, profile="core") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "now" not in tools["recall"].input_schema["properties"]
    async with connect(memory, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "now" in tools["recall"].input_schema["properties"]
        plain = await ok(client, "recall", {"query": "hiking hills", "mode": "keyword"})
        assert {h["id"] for h in plain["hits"]} == {far.id, near.id}
        asked = await ok(
            client,
            "recall",
            {"query": "hiking hills last weekend", "mode": "keyword", "now": ASKED},
        )
        assert [h["id"] for h in asked["hits"]] == [near.id, far.id]
        bad = await fail(client, "recall", {"query": "hiking", "now": "last week"})
        assert bad["error"] == "invalid_input"
        assert 'now="2025-03-01T09:00:00Z"' in bad["hint"] and "recall(" in bad["hint"]
