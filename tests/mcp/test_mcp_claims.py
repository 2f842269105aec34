"""The claims ledger's MCP tools (full profile; decisions 0081–0083), in-process, called as
a guide written for memory-as-history calls them: its tool names and argument names (``content``,
``kind``, ``add_evidence(claim_id, memory_id, stance, reason, quote)``, ``revise_claim(
claim_id, replacement_id, reason)``), with embornal's own ``add_evidence(id, evidence)`` of
a fact still working, and structured errors whose hint names the fixing call."""

from __future__ import annotations

import pytest
from tests.mcp.mcp_helpers import call, connect

from embornal import FixedClock, Memory
from embornal.interfaces.mcp.hints import TOOL_CALL

pytestmark = pytest.mark.anyio


async def test_the_seed_guides_calls_work_unchanged(memory: Memory, clock: FixedClock) -> None:
    async with connect(memory) as client:
        said = {"content": "The release is planned for June.", "source": "notice"}
        bad, got = await call(client, "remember", said)
        assert not bad
        mid = got["memory_id"]
        bad, old = await call(
            client,
            "create_claim",
            {
                "content": "The release is planned for June.",
                "kind": "plan",
                "reason": "extracted from the notice",
                "scope": "release",
                "asserted_by": "the team",
            },
        )
        assert not bad and old["status"] == "proposed" and old["claim_type"] == "plan"
        cid = old["claim_id"]
        bad, got = await call(
            client,
            "add_evidence",
            {
                "claim_id": cid,
                "memory_id": mid,
                "stance": "supports",
                "reason": "notice wording",
                "quote": "planned for June",
            },
        )
        assert not bad and got["supporting"] == 1 and got["evidence"][0]["note"] == "notice wording"
        bad, got = await call(client, "adopt_claim", {"claim_id": cid, "reason": "the plan"})
        assert not bad and got["status"] == "adopted" and got["eligible_for_recall"]
        checkpoint = got["history"][-1]["at"]
        clock.advance(seconds=60)
        bad, new = await call(
            client,
            "create_claim",
            {
                "content": "The release is planned for July.",
                "kind": "plan",
                "reason": "the delay notice",
                "scope": "release",
            },
        )
        await call(
            client,
            "add_evidence",
            {
                "claim_id": new["claim_id"],
                "memory_id": mid,
                "stance": "context",
                "reason": "the old plan",
            },
        )
        await call(
            client,
            "add_evidence",
            {
                "claim_id": new["claim_id"],
                "source": "delay notice",
                "stance": "supports",
                "reason": "notice",
            },
        )
        bad, got = await call(
            client,
            "revise_claim",
            {
                "claim_id": cid,
                "replacement_id": new["claim_id"],
                "reason": "the notice moved it",
            },
        )
        assert not bad and got["claim_id"] == new["claim_id"] and got["replaces"] == cid
        bad, now = await call(client, "recall_claims", {"scope": "release"})
        assert [c["claim_id"] for c in now["claims"]] == [new["claim_id"]]
        bad, then = await call(client, "recall_claims", {"scope": "release", "as_of": checkpoint})
        assert not bad and [c["claim_id"] for c in then["claims"]] == [cid]
        bad, got = await call(client, "inspect_claim", {"claim_id": cid})
        assert not bad and got["status"] == "superseded" and got["replaced_by"] == new["claim_id"]
        bad, got = await call(
            client, "create_claim", {"content": "I felt ignored.", "kind": "self_report"}
        )
        assert not bad and got["claim_type"] == "self_report"


async def test_fact_evidence_still_works_and_the_routing_is_explained(memory: Memory) -> None:
    fact = memory.store("/projects/x", "We use uv.")
    async with connect(memory) as client:
        evidence = {"id": fact.id, "evidence": "uri:https://example.org/adr"}
        bad, got = await call(client, "add_evidence", evidence)
        assert not bad and got["id"] == fact.id and "confidence" in got
        bad, err = await call(client, "add_evidence", {"note": "nothing named"})
        assert bad and err["error"] == "invalid_input"
        assert "claim_id" in err["message"] and TOOL_CALL.search(err["hint"])
        tools = {t.name: t for t in (await client.list_tools()).tools}
        props = tools["add_evidence"].input_schema["properties"]
        assert {"id", "evidence", "claim_id", "memory_id", "stance"} <= set(props)
        assert "required" not in tools["add_evidence"].input_schema
        for name in (
            "create_claim",
            "adopt_claim",
            "revise_claim",
            "withdraw_claim",
            "recall_claims",
            "inspect_claim",
            "retract_evidence",
        ):
            tool = tools[name]
            assert tool.description and "Example:" in tool.description
            assert tool.annotations is not None


async def test_errors_are_structured_and_name_the_fixing_call(memory: Memory) -> None:
    async with connect(memory) as client:
        _, made = await call(client, "create_claim", {"statement": "June.", "claim_type": "plan"})
        cid = made["claim_id"]
        bad, err = await call(client, "adopt_claim", {"claim_id": cid, "reason": "now"})
        assert bad and err["error"] == "protocol_violation" and "add_evidence(" in err["hint"]
        assert "embornal" not in err["hint"]
        await call(client, "withdraw_claim", {"claim_id": cid, "reason": "dropped"})
        bad, err = await call(client, "adopt_claim", {"claim_id": cid, "reason": "again"})
        assert bad and err["error"] == "protocol_violation"
        assert "create_claim(" in err["hint"] and "revise_claim(" in err["hint"]
        assert set(err) == {"error", "message", "hint"}
        bad, err = await call(client, "create_claim", {"statement": "x", "claim_type": "fact"})
        assert bad and err["error"] == "invalid_input" and "self_report" in err["message"]
        bad, err = await call(client, "inspect_claim", {"claim_id": "C01ZZZZZZZZZZZZZZZZZZZZZZZZ"})
        assert bad and err["error"] == "not_found" and "recall_claims(" in err["hint"]
        bad, err = await call(client, "recall_claims", {"as_of": "whenever"})
        assert bad and err["error"] == "invalid_time"


async def test_add_evidence_answers_the_association_it_recorded(memory: Memory) -> None:
    """memory-as-history's ``add_evidence`` answers the evidence record: its ``id`` is what
    ``retract_evidence`` takes, with the ``quote`` and ``locator`` given; the claim's id
    stays in ``claim_id`` and the claim's fields beside it."""
    async with connect(memory) as client:
        _, kept = await call(client, "remember", {"content": "null"})
        _, made = await call(client, "create_claim", {"content": "null", "kind": "self_report"})
        cid = made["claim_id"]
        said = {
            "claim_id": cid,
            "memory_id": kept["memory_id"],
            "stance": "supports",
            "reason": "exact words",
            "quote": "null",
            "locator": "null",
        }
        bad, got = await call(client, "add_evidence", said)
        assert not bad, got
        assert got["id"] == got["evidence_id"] == f"{cid}-1" and got["claim_id"] == cid
        assert got["quote"] == got["locator"] == "null" and got["reason"] == "exact words"
        assert got["stance"] == "supports" and got["active"] is True
        assert got["supporting"] == 1 and got["evidence"][0]["locator"] == "null"
        _, again = await call(client, "add_evidence", said)  # a repeat: the same one stands
        assert again["id"] == f"{cid}-1" and len(again["evidence"]) == 1
        _, other = await call(
            client, "add_evidence", {"claim_id": cid, "source": "chat", "stance": "context"}
        )
        assert other["id"] == f"{cid}-2" and other["source"] == "chat"
        bad, gone = await call(
            client, "retract_evidence", {"evidence_id": got["id"], "reason": "misread"}
        )
        assert not bad, gone
        assert gone["id"] == f"{cid}-1" and gone["active"] is False and gone["retracted_at"]


async def test_a_claim_whose_support_was_retracted_is_not_recalled(memory: Memory) -> None:
    """Retracting the evidence an adopted claim rests on takes it out of recall_claims
    (it asks for review); inspect_claim and status="all" still show it."""
    async with connect(memory) as client:
        _, kept = await call(client, "remember", {"content": "Outage report"})
        _, made = await call(client, "create_claim", {"content": "Outage.", "kind": "observation"})
        cid = made["id"]
        cite = {"claim_id": cid, "memory_id": kept["id"], "stance": "supports", "reason": "r"}
        _, ev = await call(client, "add_evidence", cite)
        await call(client, "adopt_claim", {"claim_id": cid, "reason": "adopt"})
        _, now = await call(client, "recall_claims", {})
        assert [c["id"] for c in now["claims"]] == [cid]
        why = {"evidence_id": ev["id"], "reason": "citation requires review"}
        bad, got = await call(client, "retract_evidence", why)
        assert not bad, got
        _, now = await call(client, "recall_claims", {})
        assert now["claims"] == []
        _, shown = await call(client, "inspect_claim", {"claim_id": cid})
        assert shown["status"] == "adopted" and shown["review_required"]
        assert not shown["eligible_for_recall"]
        _, every = await call(client, "recall_claims", {"status": "all"})
        assert [c["id"] for c in every["claims"]] == [cid]


async def test_inspect_claim_answers_replacement_id(memory: Memory) -> None:
    """memory-as-history reads a superseded claim's successor as ``replacement_id``
    (embornal's ``replaced_by``), null while there is none."""
    async with connect(memory) as client:
        ids = []
        for text in ("June.", "July."):
            _, made = await call(client, "create_claim", {"content": text, "kind": "plan"})
            cite = {"claim_id": made["id"], "source": "notice", "reason": "notice"}
            await call(client, "add_evidence", cite)
            ids.append(made["id"])
        old, new = ids
        await call(client, "adopt_claim", {"claim_id": old, "reason": "the plan"})
        _, got = await call(client, "inspect_claim", {"claim_id": old})
        assert "replacement_id" in got and got["replacement_id"] is None
        await call(
            client, "revise_claim", {"claim_id": old, "replacement_id": new, "reason": "delay"}
        )
        _, got = await call(client, "inspect_claim", {"claim_id": old})
        assert got["replacement_id"] == got["replaced_by"] == new
