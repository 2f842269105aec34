"""The MCP ``recall`` tool answers the recall cascade with its ``hits`` as before;
``search`` and ``search_archive`` in the full profile (decisions 0095-0097)."""

from __future__ import annotations

import pytest
from tests.mcp.test_mcp_tools import connect, fail, ok

from embornal import FixedClock, Memory

pytestmark = pytest.mark.anyio


async def test_recall_answers_anchors_first_and_keeps_its_hits(
    memory: Memory, clock: FixedClock
) -> None:
    async with connect(memory) as client:  # the core profile
        me = (await ok(client, "store", {"path": "/me", "content": "I am Ada's assistant."}))["id"]
        await ok(client, "pin", {"id": me, "reason": "identity"})
        for i in range(8):
            clock.advance(seconds=30)
            await ok(client, "remember", {"content": f"Trivial note {i} on the kettle."})
        clock.advance(seconds=30)
        found = await ok(client, "recall", {"limit": 3})
        assert [a["id"] for a in found["anchors"]] == [me]
        assert len(found["memories"]) == 2 and me not in [m["id"] for m in found["memories"]]
        assert len(found["hits"]) == 3  # the ranking, as the tool always answered it
        assert found["canon"] == [] and found["conflicts"] == []
        assert found["narrative"] is None and found["narrative_review"] is None  # listed, null
        framed = await ok(client, "recall", {"query": "kettle", "frame": "nowhere"})
        assert framed["anchors"] == [] and framed["hits"] == [] and framed["hint"]


async def test_search_and_search_archive_in_the_full_profile(
    memory: Memory, clock: FixedClock
) -> None:
    async with connect(memory, profile="full") as client:
        pinned = []
        for i in range(3):
            fid = (await ok(client, "store", {"path": "/r", "content": f"Deploy rule {i}."}))["id"]
            await ok(client, "pin", {"id": fid, "reason": "standing rule"})
            pinned.append(fid)
        log = (await ok(client, "store", {"path": "/l", "content": "The deploy log."}))["id"]
        found = await ok(client, "search", {"query": "deploy", "limit": 3})
        assert [a["id"] for a in found["anchors"]] == pinned and found["memories"] == []
        archive = await ok(client, "search_archive", {"query": "deploy", "limit": 3})
        assert [h["id"] for h in archive["hits"]] == [log]
        missing = await fail(client, "search", {"query": " "})
        assert missing["error"] == "invalid_input" and "recall()" in missing["hint"]
        past = await fail(client, "recall", {"query": "deploy", "at": "1 day ago", "frame": "x"})
        assert past["error"] == "invalid_input" and "frame" in past["message"]
        clock.advance(seconds=60)
        back = await ok(client, "recall", {"query": "deploy", "at": "2026-01-01T12:00:30Z"})
        assert "anchors" not in back and len(back["hits"]) == 4


async def test_a_forgotten_member_takes_its_conflict_out_of_recall(memory: Memory) -> None:
    """mark_conflict(a, b) then forget(b): recall() does not bring b's text back through
    the conflicts section; list_conflicts still shows the conflict when asked."""
    async with connect(memory, profile="full") as client:
        a = (await ok(client, "remember", {"content": "The launch is in June."}))["id"]
        b = (await ok(client, "remember", {"content": "The launch is in July, says Bob."}))["id"]
        await ok(client, "mark_conflict", {"a": a, "b": b, "reason": "two dates"})
        assert len((await ok(client, "recall", {}))["conflicts"]) == 1
        await ok(client, "forget", {"id": b, "reason": "Bob was wrong"})
        found = await ok(client, "recall", {})
        assert found["conflicts"] == [] and "July" not in str(found)
        assert "July" not in str(await ok(client, "search", {"query": "launch"}))
        listed = await ok(client, "list_conflicts", {"resolved": False})
        assert "July" in str(listed)  # looked at on purpose, it is still there


async def test_similar_in_the_full_profile(memory: Memory) -> None:
    async with connect(memory, profile="full") as client:
        green = (await ok(client, "store", {"path": "/tea/green", "content": "Green tea."}))["id"]
        black = (await ok(client, "store", {"path": "/tea/black", "content": "Black tea."}))["id"]
        await ok(client, "store", {"path": "/garden", "content": "Roses bloom in June."})
        found = await ok(client, "similar", {"id": green, "limit": 5})
        assert [h["id"] for h in found["hits"]] == [black]
        assert found["hits"][0]["path"] == "/tea/black" and found["hits"][0]["score"] > 0
        bad = await fail(client, "similar", {"id": green, "mode": "loud"})
        assert bad["error"] == "invalid_input"
    async with connect(memory) as client:  # not in the core profile
        assert "similar" not in [t.name for t in (await client.list_tools()).tools]
