"""What memory-as-history 1.3's protocol episodes read over ``embornal mcp --profile
full``: ``audit_log`` and ``narrative_history`` answer a list, ``current_narrative`` null
when a scope has no account, ``provenance`` the peer's independent count, and a replaced
narrative version is reviewed with a conflict (decision 0141; docs/mcp.md,
"memory-as-history compatibility")."""

from __future__ import annotations

import pytest
from tests.mcp.mcp_helpers import call, connect

from embornal import Memory

pytestmark = pytest.mark.anyio


async def test_audit_log_answers_the_list_of_entries(memory: Memory) -> None:
    async with connect(memory) as client:
        _, got = await call(client, "remember", {"content": "Ships in June.", "source": "ann"})
        await call(client, "promote", {"memory_id": got["id"], "reason": "agreed"})
        result = await client.call_tool("audit_log", {"limit": 1000})
        assert result.structured_content is not None
        entries = result.structured_content["result"]
        assert isinstance(entries, list) and entries[0]["action"] == "promote"
        bad, listed = await call(client, "audit_log", {"limit": 1000})
        assert not bad and listed == entries


async def test_narrative_history_answers_the_list_of_versions(memory: Memory) -> None:
    async with connect(memory) as client:
        _, first = await call(client, "narrate", {"content": "One.", "reason": "start"})
        _, second = await call(client, "narrate", {"content": "Two.", "reason": "moved on"})
        bad, history = await call(client, "narrative_history", {})
        assert not bad and [n["content"] for n in history] == ["Two.", "One."]
        assert history[1]["superseded_by"] == second["id"] and history[1]["id"] == first["id"]


async def test_current_narrative_is_null_without_an_account(memory: Memory) -> None:
    async with connect(memory) as client:
        bad, view = await call(client, "current_narrative", {})
        assert not bad and view is None
        _, n = await call(client, "narrate", {"content": "One.", "reason": "start"})
        _, view = await call(client, "current_narrative", {})
        assert view["narrative"]["id"] == n["id"]


@pytest.mark.parametrize(
    ("origin", "labels", "count"),
    [
        ("register:cedar", ["register:cedar", " register:cedar "], 0),
        ("register:cedar", ["register:cedar", "independent:inspection"], 1),
        (None, ["register:first", "register:first"], 0),
        (None, ["register:first", "register:second"], 1),
    ],
)
async def test_provenance_answers_the_independent_corroboration_count(
    memory: Memory, origin: str | None, labels: list[str], count: int
) -> None:
    """memory-as-history counts the independent sources an unknown origin has beyond the
    first: 0 until the gate is met, whatever the origin."""
    async with connect(memory) as client:
        _, got = await call(client, "remember", {"content": "Ships in June.", "source": origin})
        for label in labels:
            await call(client, "corroborate", {"memory_id": got["id"], "source": label})
        bad, prov = await call(client, "provenance", {"memory_id": got["id"]})
        assert not bad and prov["independent_corroboration_count"] == count
        assert prov["corroboration_satisfied"] is (count > 0)


async def test_reviewing_a_replaced_version_is_a_conflict(memory: Memory) -> None:
    """A stale read, not a step the protocol refuses: memory-as-history's clients read it
    as a ``ValueError``, not a ``PermissionError``."""
    async with connect(memory) as client:
        _, first = await call(client, "narrate", {"content": "One.", "reason": "start"})
        await call(client, "narrate", {"content": "Two.", "reason": "moved on"})
        bad, err = await call(
            client, "review_narrative", {"narrative_id": first["id"], "note": "checked"}
        )
        assert bad and err["error"] == "conflict" and "current_narrative(" in err["hint"]
