"""``rerank`` on the MCP recall tool: an argument of the full profile (the core tool list
keeps its size); the core tool ignores it; a memory without a reranker names the pull."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_mcp_tools import connect, fail, ok

from embornal import FixedClock, Memory
from rerank_helpers import harbour_memory

pytestmark = pytest.mark.anyio
TOP = 3


@pytest.fixture
def ranked(tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    with harbour_memory(tmp_path / "r.db", clock, TOP) as mem:
        yield mem


async def test_recall_reranks_in_the_full_profile(ranked: Memory) -> None:
    args = {"query": "harbour", "mode": "keyword", "limit": 6}
    async with connect(ranked, profile="core") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "rerank" not in tools["recall"].input_schema["properties"]
    async with connect(ranked, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "rerank" in tools["recall"].input_schema["properties"]
        plain = await ok(client, "recall", args)
        got = await ok(client, "recall", {**args, "rerank": True})
        said = await ok(client, "recall", {**args, "reranker": "true"})  # an alias, a string
    ids = [h["id"] for h in plain["hits"]]
    assert [h["id"] for h in got["hits"]][:TOP] == ids[:TOP][::-1]
    assert [h["id"] for h in got["hits"]][TOP:] == ids[TOP:]
    assert [h["id"] for h in said["hits"]] == [h["id"] for h in got["hits"]]


async def test_without_a_reranker_the_error_names_the_pull(memory: Memory) -> None:
    async with connect(memory, profile="full") as client:
        bad = await fail(client, "recall", {"query": "memory", "rerank": True})
    assert bad["error"] == "invalid_input" and "embornal model pull --reranker" in bad["hint"]
    assert "without rerank" in bad["hint"]


async def test_the_core_tool_ignores_rerank_without_an_error(ranked: Memory) -> None:
    args = {"query": "harbour", "mode": "keyword", "limit": 6}
    async with connect(ranked, profile="core") as client:
        plain = await ok(client, "recall", args)
        got = await ok(client, "recall", {**args, "rerank": True})
    assert [h["id"] for h in got["hits"]] == [h["id"] for h in plain["hits"]]  # ignored
