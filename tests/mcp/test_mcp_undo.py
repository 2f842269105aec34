"""The ``undo`` tool of the full profile, and the history's event ids and actor kinds."""

from __future__ import annotations

import pytest
from test_mcp_tools import connect, fail, ok

from embornal import Memory

pytestmark = pytest.mark.anyio


async def test_full_profile_undoes_and_history_says_who_and_what(memory: Memory) -> None:
    fact = memory.store("/projects/x", "X builds with uv.")
    async with connect(memory) as core:
        assert "undo" not in {t.name for t in (await core.list_tools()).tools}
    bot = memory.as_subject("default", "assistant")
    async with connect(bot, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        hints = tools["undo"].annotations
        assert hints is not None and hints.destructive_hint is True
        assert "Example: undo(" in (tools["undo"].description or "")
        assert tools["undo"].input_schema["required"] == ["event_id", "reason"]

        await ok(client, "forget", {"id": fact.id, "reason": "outdated"})
        history = await ok(client, "history", {"id_or_path": fact.id})
        stored, forget = history["events"]
        assert (stored["actor_kind"], forget["actor_kind"]) == ("person", "assistant")
        undone = await ok(client, "undo", {"event_id": forget["position"], "reason": "mistake"})
        assert undone["undone"] == forget["position"]
        (restore,) = undone["events"]
        assert restore["type"] == "FactRestored" and restore["undoes"] == forget["position"]
        assert restore["actor_kind"] == "assistant" and restore["reason"] == "mistake"

        err = await fail(client, "undo", {"event_id": forget["position"], "reason": "again"})
        assert err["error"] == "not_undoable" and "undone already" in err["message"]
        assert "undo(" in err["hint"]
        err = await fail(client, "undo", {"event_id": 999999, "reason": "x"})
        assert err["error"] == "not_found" and "history(" in err["hint"]
    assert memory.show(fact.id).fact.state == "active"
