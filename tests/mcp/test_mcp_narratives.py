"""Narrative tools over MCP (full profile): memory-as-history's names and arguments, the review
notice in place of stale text, and structured errors whose hint names the fixing call."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.client import Client

from embornal import Memory
from embornal.interfaces.mcp.hints import TOOL_CALL
from embornal.interfaces.mcp.server import build_server

pytestmark = pytest.mark.anyio


async def _call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await client.call_tool(tool, args)
    (block,) = result.content
    assert block.type == "text"
    return bool(result.is_error), json.loads(block.text)


async def test_the_narrative_loop_over_mcp(memory: Memory) -> None:
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        _, got = await _call(client, "remember", {"content": "We ship on Fridays.", "source": "x"})
        mid = got["memory_id"]
        await _call(client, "promote", {"memory_id": mid, "reason": "agreed"})
        bad, n = await _call(
            client,
            "narrate",
            {"content": "Fridays.", "reason": "weekly", "memory_ids": [mid], "scope": "project"},
        )
        assert not bad and n["usable"] and n["version"] == 1
        bad, view = await _call(client, "current_narrative", {"scope": "project"})
        assert not bad and view["narrative"]["content"] == "Fridays."
        await _call(client, "forget", {"memory_id": mid, "reason": "changed"})
        bad, view = await _call(client, "current_narrative", {"scope": "project"})
        assert not bad and "narrative" not in view  # the usable account: none
        notice = view["narrative_review"]
        # inspected, its text is marked unusable (decision 0157); a recall withholds it
        assert view["usable"] is False and view["review_status"] == "stale"
        assert view["content"] == "Fridays." and "not usable" in view["warning"]
        _, recalled = await _call(client, "recall", {})
        assert "Fridays." not in json.dumps(recalled)
        assert notice["source_issues"] == [{"ref": mid, "issue": "forgotten", "live": True}]
        assert f'restore(memory_id="{mid}"' in notice["hint"]
        bad, err = await _call(
            client, "review_narrative", {"narrative_id": n["narrative_id"], "note": "ok"}
        )
        assert bad and err["error"] == "conflict" and "restore(" in err["hint"]
        await _call(client, "restore", {"memory_id": mid, "reason": "back"})
        _, view = await _call(client, "current_narrative", {"scope": "project"})
        assert "narrative" not in view  # restoring does not approve it
        bad, got = await _call(
            client, "review_narrative", {"narrative_id": n["narrative_id"], "note": "compared"}
        )
        assert not bad and got["usable"]
        _, listed = await _call(client, "list_narratives", {})
        assert [x["content"] for x in listed] == ["Fridays."]
        _, history = await _call(client, "narrative_history", {"scope": "project", "limit": 5})
        assert len(history) == 1


async def test_narrative_errors_are_structured_and_self_correcting(memory: Memory) -> None:
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        _, got = await _call(client, "remember", {"content": "Old plan.", "source": "x"})
        mid = got["memory_id"]
        await _call(client, "forget", {"memory_id": mid, "reason": "dropped"})
        bad, err = await _call(
            client, "narrate", {"content": "Plan.", "reason": "r", "memory_ids": [mid]}
        )
        assert bad and set(err) == {"error", "message", "hint"}
        assert err["error"] == "protocol_violation"
        assert "restore(" in err["hint"] and "without it" in err["hint"]
        assert "embornal" not in err["hint"]
        bad, err = await _call(
            client, "narrate", {"content": "Plan.", "reason": "r", "claim_ids": ["C1"]}
        )
        assert bad and err["error"] == "not_found" and "no claim with id" in err["message"]
        assert TOOL_CALL.search(err["hint"])
        bad, err = await _call(
            client, "review_narrative", {"narrative_id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "note": "x"}
        )
        assert bad and err["error"] == "not_found" and "list_narratives()" in err["hint"]
        bad, err = await _call(
            client, "narrate", {"content": "Policy.", "reason": "r", "security_sensitive": True}
        )
        assert bad and "narrate(" in err["hint"]


async def test_a_narrative_on_a_claim_over_mcp_and_the_audit(memory: Memory) -> None:
    """Decisions 0098, 0099 with memory-as-history's argument names: narrate(claim_ids=[...]); a
    withdrawal answers narrative_review; audit_log lists the decisions with reasons."""
    async with Client(build_server(memory, profile="full"), mode="auto") as client:
        _, got = await _call(client, "remember", {"content": "June.", "source": "notice"})
        mid = got["memory_id"]
        _, made = await _call(
            client,
            "create_claim",
            {"content": "June.", "kind": "plan", "reason": "from the notice"},
        )
        cid = made["claim_id"]
        bad, err = await _call(
            client, "narrate", {"content": "x", "reason": "r", "claim_ids": [cid]}
        )
        assert bad and err["error"] == "protocol_violation"
        assert f'adopt_claim(claim_id="{cid}"' in err["hint"]
        await _call(client, "add_evidence", {"claim_id": cid, "memory_id": mid, "reason": "it"})
        await _call(client, "adopt_claim", {"claim_id": cid, "reason": "the plan"})
        bad, n = await _call(
            client,
            "narrate",
            {"content": "June.", "reason": "weekly", "claim_ids": [cid], "scope": "p"},
        )
        assert not bad and n["usable"] and n["claim_ids"] == [cid]
        await _call(client, "withdraw_claim", {"claim_id": cid, "reason": "dropped"})
        _, view = await _call(client, "current_narrative", {"scope": "p"})
        assert "narrative" not in view and view["usable"] is False  # inspected (0157)
        assert view["narrative_review"]["source_issues"] == [
            {"ref": cid, "issue": "claim_withdrawn", "live": True}
        ]
        _, audit = await _call(client, "audit_log", {"limit": 5})
        top = [
            (e["action"], e.get("claim_id"), e.get("narrative_id"), e["reason"]) for e in audit[:3]
        ]
        assert top == [
            ("withdraw_claim", cid, None, "dropped"),
            ("narrate", None, n["narrative_id"], "weekly"),
            ("adopt_claim", cid, None, "the plan"),
        ]
