"""memory-as-history 1.3 clients over ``embornal mcp --profile full``: the fields they
read are answered beside embornal's own (both names where one was renamed), and the keys
the results document are present when null (docs/mcp.md, "memory-as-history
compatibility")."""

from __future__ import annotations

import pytest
from tests.mcp.mcp_helpers import call, connect

from embornal import Memory

pytestmark = pytest.mark.anyio


async def test_a_narrative_answers_its_id_sensitivity_and_successor(memory: Memory) -> None:
    async with connect(memory) as client:
        _, first = await call(client, "narrate", {"content": "One.", "reason": "start"})
        assert first["id"] == first["narrative_id"]
        assert first["security_sensitive"] is False and first["superseded_by"] is None
        _, second = await call(client, "narrate", {"content": "Two.", "reason": "moved on"})
        bad, history = await call(client, "narrative_history", {})
        assert not bad
        by_id = {n["id"]: n for n in history["narratives"]}
        assert by_id[first["id"]]["superseded_by"] == second["id"]
        assert by_id[second["id"]]["superseded_by"] is None
        _, recalled = await call(client, "recall", {})
        assert recalled["narrative"]["id"] == second["id"]


async def test_recall_without_a_narrative_answers_narrative_null(memory: Memory) -> None:
    async with connect(memory) as client:
        bad, got = await call(client, "recall", {"query": "anything"})
        assert not bad and "narrative" in got and got["narrative"] is None
        assert "narrative_review" in got and got["narrative_review"] is None


async def test_a_claim_answers_id_content_kind_and_security_sensitive(memory: Memory) -> None:
    async with connect(memory) as client:
        bad, claim = await call(
            client, "create_claim", {"content": "Ships in June.", "kind": "plan", "reason": "x"}
        )
        assert not bad and claim["id"] == claim["claim_id"]
        assert claim["content"] == claim["statement"] == "Ships in June."
        assert claim["kind"] == claim["claim_type"] == "plan"
        assert claim["security_sensitive"] is claim["sensitive"] is False
        _, found = await call(client, "recall_claims", {"include_inactive": True})
        assert [c["id"] for c in found["claims"]] == [claim["id"]]


async def test_a_memory_answers_status_tier_source_and_security_sensitive(
    memory: Memory,
) -> None:
    async with connect(memory) as client:
        _, got = await call(client, "remember", {"content": "Deploys on Fridays.", "source": "ann"})
        assert got["status"] == got["stage"] == "working" and got["tier"] == "archive"
        assert got["source"] == "ann" and got["security_sensitive"] is False
        _, got = await call(client, "promote", {"memory_id": got["id"], "reason": "agreed"})
        assert got["status"] == "consolidated" and got["source"] == "ann"


async def test_unpin_answers_unpinned_true(memory: Memory) -> None:
    async with connect(memory) as client:
        _, got = await call(client, "remember", {"content": "Name: Ana."})
        mid = got["memory_id"]
        await call(client, "promote", {"memory_id": mid, "reason": "who she is"})
        await call(client, "pin", {"memory_id": mid, "reason": "identity"})
        bad, got = await call(client, "unpin", {"memory_id": mid, "reason": "no longer"})
        assert not bad and got["unpinned"] is True and got["memory_id"] == mid
        assert got["pinned"] is False
