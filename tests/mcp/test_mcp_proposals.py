"""The proposal and retention tools of the full profile: an assistant proposes; it
approves or rejects only when the configured policy lets assistants decide."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_mcp_tools import connect, fail, ok

from embornal import FixedClock, Memory
from embornal.domain.proposals.policy import ProposalPolicy

pytestmark = pytest.mark.anyio


async def test_an_assistant_proposes_and_a_person_decides(memory: Memory) -> None:
    old = memory.store("/notes/old", "The build uses make.")
    async with connect(memory) as core:
        assert "propose" not in {t.name for t in (await core.list_tools()).tools}
    async with connect(memory, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert {"propose", "proposals", "proposal", "approve", "reject", "retention"} <= set(tools)
        hints = tools["approve"].annotations
        assert hints is not None and hints.destructive_hint is True
        made = await ok(
            client,
            "propose",
            {
                "items": '[{"type": "create", "path": "/notes/new", "content": "The ibex note."}]',
                "title": "from chat",
            },
        )
        assert made["status"] == "open" and "ask the user" in made["hint"]
        listed = await ok(client, "proposals", {"status": "open"})
        assert [p["id"] for p in listed["proposals"]] == [made["id"]]
        shown = await ok(client, "proposal", {"id": made["id"]})
        assert shown["items"][0]["fields"]["content"] == "The ibex note."
        err = await fail(client, "approve", {"id": made["id"]})
        assert err["error"] == "access_denied" and "a person decides" in err["message"]
        assert "embornal proposal approve" in err["hint"]
        err = await fail(client, "reject", {"id": made["id"], "reason": "no"})
        assert err["error"] == "access_denied"
        err = await fail(client, "propose", {"items": [{"type": "delete", "fact_id": old.id}]})
        assert err["error"] == "invalid_input" and "create, update, archive" in err["message"]
        scores = await ok(client, "retention", {"lowest": 3})
        assert [f["path"] for f in scores["facts"]] == ["/notes/old"]  # never the guide
    assert memory.proposal(made["id"]).status == "open"
    assert memory.approve(made["id"]).status == "approved"


async def test_the_policy_lets_an_assistant_decide(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock, proposals=ProposalPolicy(assistants_decide=True)) as m:
        made = m.propose([{"type": "create", "path": "/notes/a", "content": "An eland note."}])
        async with connect(m, profile="full") as client:
            done = await ok(client, "approve", {"id": made.id, "items": "1"})
            assert done["status"] == "approved" and done["items"][0]["applied"] is True
            err = await fail(client, "approve", {"id": made.id})
            assert err["error"] == "conflict"
        assert m.recall("eland", reinforce=False)


async def test_an_approval_names_the_version_shown(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock, proposals=ProposalPolicy(assistants_decide=True)) as m:
        made = m.propose([{"type": "create", "path": "/notes/a", "content": "An eland note."}])
        async with connect(m, profile="full") as client:
            shown = await ok(client, "proposal", {"id": made.id})
            assert shown["version"] == 1 and "version=1" in shown["hint"]
            swap = {"type": "create", "path": "/notes/a", "content": "A swapped oryx note."}
            m.edit_proposal(made.id, drop=["1"], add=[swap])
            err = await fail(client, "approve", {"id": made.id, "version": shown["version"]})
            assert err["error"] == "proposal_changed"
            assert "changed since version 1" in err["message"]
            assert "proposal(id=" in err["hint"]
            assert m.recall("oryx", reinforce=False) == []
            again = await ok(client, "proposal", {"id": made.id})
            given = {"id": made.id, "expected_version": again["version"]}  # an alias
            done = await ok(client, "approve", given)
            assert done["status"] == "approved"
        assert m.recall("oryx", reinforce=False)


async def test_an_assistant_replaces_an_item_of_its_proposal(memory: Memory) -> None:
    """edit_proposal(replace=...) keeps the item's number and the id of the fact it makes,
    in each shape a model sends; a stale version is proposal_changed, an unknown number or
    a bad item invalid_input, and none of them changes anything."""
    async with connect(memory, profile="full") as client:
        made = await ok(
            client,
            "propose",
            {
                "items": [
                    {"type": "create", "path": "/notes/tea", "content": "Likes tea."},
                    {"type": "create", "path": "/notes/b", "content": "Second."},
                ]
            },
        )
        kept = made["items"][0]["fact_id"]
        green = {"type": "create", "path": "/notes/tea", "content": "Likes green tea."}
        done = await ok(
            client, "edit_proposal", {"id": made["id"], "replace": {"1": green}, "version": 1}
        )
        assert done["version"] == 2 and [i["number"] for i in done["items"]] == ["1", "2"]
        assert done["items"][0]["fact_id"] == kept
        assert done["items"][0]["fields"]["content"] == "Likes green tea."
        for shape in ([{"number": 1, **green}], json.dumps({"1": green})):  # tolerated
            again = await ok(
                client, "edit_proposal", {"proposal_id": made["id"], "replacements": shape}
            )
            assert again["items"][0]["fact_id"] == kept
        version = again["version"]
        stale = await fail(
            client, "edit_proposal", {"id": made["id"], "replace": {"1": green}, "version": 1}
        )
        assert (
            stale["error"] == "proposal_changed" and "changed since version 1" in stale["message"]
        )
        unknown = await fail(client, "edit_proposal", {"id": made["id"], "replace": {"9": green}})
        assert unknown["error"] == "invalid_input"
        assert "has no item '9' (its items: 1, 2)" in unknown["message"]
        bad = await fail(
            client,
            "edit_proposal",
            {"id": made["id"], "replace": {"1": {"type": "create", "path": "/n"}}},
        )
        assert bad["error"] == "invalid_input" and "needs 'content'" in bad["message"]
        for shape in ("not json", [green], 3):
            odd = await fail(client, "edit_proposal", {"id": made["id"], "replace": shape})
            assert odd["error"] == "invalid_input", shape
    assert memory.proposal(made["id"]).version == version
