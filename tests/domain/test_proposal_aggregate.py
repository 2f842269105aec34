"""The proposal aggregate, pure: items checked and numbered, one item per fact, the life
cycle open → approved | rejected, and the item-type registry (decision 0055)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from itertools import count

import pytest

from embornal.domain.events import EVENTS, ActorKind, DomainEvent, Event
from embornal.domain.events.proposals import ProposalApproved, ProposalEdited
from embornal.domain.facts.aggregate import FactState, FactStatus
from embornal.domain.proposals.aggregate import (
    ITEM_TYPES,
    MAX_ITEMS,
    Applied,
    ApproveProposal,
    EditProposal,
    ItemType,
    OpenProposal,
    ProposalStatus,
    apply_item,
    decide_approve,
    decide_edit,
    decide_open,
    decide_reject,
    fold,
    register_item_type,
    stream_of,
)
from embornal.domain.proposals.policy import ProposalPolicy
from embornal.errors import Conflict, InvalidInput, ProposalChanged

NOW = datetime(2026, 1, 1, tzinfo=UTC)
A = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"
B = "01KCZ8Q3W5R7T9V1X3Z5B7D9F2"


def ids() -> object:
    n = count(1)
    return lambda: f"01KCZ8Q3W5R7T9V1X3Z5B7D{next(n):03d}"


def envelope(
    body: DomainEvent, version: int, actor: str = "default", reason: str | None = None
) -> Event:
    return Event(
        position=version,
        stream_id=stream_of("P1"),
        version=version,
        type=body.TYPE,
        payload=EVENTS.to_payload(body),
        actor=actor,
        actor_kind=ActorKind.PERSON.value,
        recorded_at=NOW,
        reason=reason,
        schema_version=1,
        known_body=body,
    )


def opened(items: list[dict[str, object]]) -> list[Event]:
    (body,) = decide_open(OpenProposal("P1", items, "t", "test"), ids())  # type: ignore[arg-type]
    return [envelope(body, 1)]


def test_items_are_numbered_from_one_and_a_create_gets_its_id_now() -> None:
    (body,) = decide_open(
        OpenProposal(
            "P1",
            [
                {"type": "create", "path": "/notes", "content": "x"},
                {"type": "archive", "fact_id": A.lower(), "reason": "old"},
            ],
        ),
        ids(),
    )  # type: ignore[arg-type]
    assert body.items is not None and list(body.items) == ["1", "2"]
    assert body.items["1"]["new_id"].startswith("01KCZ8Q3W5R7T9V1X3Z5B7D")
    assert body.items["2"]["fact_id"] == A  # a prefix is upper-cased


@pytest.mark.parametrize(
    ("items", "words"),
    [
        ([], "at least one item"),
        ([{"type": "delete", "fact_id": A}], "create, update, archive, supersede, link, merge"),
        ([{"type": "create", "path": "/n"}], "'content'"),
        ([{"type": "archive"}], "'fact_id'"),
        ([{"type": "archive", "fact_id": A, "colour": "red"}], "'colour'"),
        ([{"type": "update", "fact_id": A, "attributes": "x"}], "must be an object"),
        (
            [
                {"type": "archive", "fact_id": A},
                {"type": "supersede", "fact_id": A, "content": "y"},
            ],
            "one item per fact",
        ),
        (["not an object"], "object"),
    ],
    ids=["none", "type", "content", "target", "unknown-key", "attributes", "twice", "shape"],
)
def test_a_bad_item_refuses_the_proposal(items: list[object], words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        decide_open(OpenProposal("P1", items), ids())  # type: ignore[arg-type]


def test_too_many_items_are_refused() -> None:
    items = [{"type": "create", "path": "/n", "content": "x"}] * (MAX_ITEMS + 1)
    with pytest.raises(InvalidInput, match=f"at most {MAX_ITEMS}"):
        decide_open(OpenProposal("P1", items), ids())


def test_approve_all_or_some_then_nothing_more() -> None:
    events = opened([{"type": "archive", "fact_id": A}, {"type": "archive", "fact_id": B}])
    state = fold(events)
    assert state is not None and state.status is ProposalStatus.OPEN and state.targets() == [A, B]
    (approved,) = decide_approve(state, ApproveProposal("ana", ["2", "2"]))
    assert approved.items == ("2",) and approved.approver == "ana"
    after = fold([*events, envelope(approved, 2)])
    assert after is not None and after.status is ProposalStatus.APPROVED
    assert after.applied == ("2",) and after.decided_by == "ana"
    with pytest.raises(Conflict, match="is approved"):
        decide_approve(after, ApproveProposal("ana"))
    with pytest.raises(Conflict, match="is approved"):
        decide_reject(after)


def test_approving_a_rejected_proposal_is_an_error() -> None:
    events = opened([{"type": "archive", "fact_id": A}])
    state = fold(events)
    assert state is not None
    (rejected,) = decide_reject(state)
    after = fold([*events, envelope(rejected, 2, "bob", "no")])
    assert after is not None and after.status is ProposalStatus.REJECTED
    assert after.decided_by == "bob" and after.reason == "no"
    with pytest.raises(Conflict, match="is rejected; only an open one can be approved"):
        decide_approve(after, ApproveProposal("ana"))


def test_approving_an_item_it_lacks_names_its_items() -> None:
    state = fold(opened([{"type": "archive", "fact_id": A}]))
    assert state is not None
    with pytest.raises(InvalidInput, match=r"no item '7' \(its items: 1\)"):
        decide_approve(state, ApproveProposal("ana", ["7"]))


def test_edit_drops_and_adds_and_counts() -> None:
    events = opened([{"type": "archive", "fact_id": A}, {"type": "archive", "fact_id": B}])
    state = fold(events)
    assert state is not None
    (edited,) = decide_edit(
        state,
        EditProposal(drop=["1"], add=[{"type": "create", "path": "/n", "content": "x"}]),
        ids(),
    )
    assert isinstance(edited, ProposalEdited) and edited.dropped == ("1",)
    assert edited.item_count == 2 and edited.items is not None and list(edited.items) == ["3"]
    after = fold([*events, envelope(edited, 2)])
    assert after is not None and sorted(after.items) == ["2", "3"]
    with pytest.raises(InvalidInput, match="nothing to edit"):
        decide_edit(after, EditProposal(), ids())
    with pytest.raises(InvalidInput, match="one item per fact"):
        decide_edit(after, EditProposal(add=[{"type": "archive", "fact_id": B}]), ids())


def test_edit_replaces_each_item_by_its_own_number_in_any_order() -> None:
    """Items replaced in place keep their numbers, whatever order the numbers are given in
    (two or more: each replacement goes to the number it was given for)."""
    events = opened([{"type": "create", "path": "/n", "content": f"item {i}"} for i in (1, 2, 3)])
    state = fold(events)
    assert state is not None
    replace_ = {
        "3 ": {"type": "create", "path": "/n", "content": "third, again"},
        "1": {"type": "create", "path": "/n", "content": "first, again"},
    }
    (edited,) = decide_edit(state, EditProposal(replace=replace_), ids())
    assert isinstance(edited, ProposalEdited) and edited.items is not None
    assert {n: i["content"] for n, i in edited.items.items()} == {
        "1": "first, again",
        "3": "third, again",
    }


def test_an_item_replaced_whole_keeps_the_id_of_the_fact_it_makes() -> None:
    """A replacement naming no ``new_id`` keeps the replaced item's (of the same type): the
    fact keeps the id the reviewer saw and an item's ``#N`` naming it stays true; one of
    another type, or naming its own id, does not."""
    state = fold(
        opened(
            [
                {"type": "create", "path": "/n", "content": "first"},
                {"type": "create", "path": "/n", "content": "second"},
            ]
        )
    )
    assert state is not None
    made = {n: state.items[n]["new_id"] for n in ("1", "2")}
    fresh = lambda: "01KCZ8Q3W5R7T9V1X3Z5B7D999"  # noqa: E731 (an id no item has)
    again = {"1": {"type": "create", "path": "/m", "content": "first, again"}}
    (edited,) = decide_edit(state, EditProposal(replace=again), fresh)
    assert edited.items is not None and edited.items["1"]["new_id"] == made["1"]
    other = {"2": {"type": "archive", "fact_id": A}}
    (edited,) = decide_edit(state, EditProposal(replace=other), fresh)
    assert edited.items is not None and "new_id" not in edited.items["2"]
    own = {"2": {"type": "create", "path": "/n", "content": "own", "new_id": B}}
    (edited,) = decide_edit(state, EditProposal(replace=own), fresh)
    assert edited.items is not None and edited.items["2"]["new_id"] == B


def test_an_approval_of_a_version_the_proposal_left_is_refused() -> None:
    events = opened([{"type": "archive", "fact_id": A}])
    state = fold(events)
    assert state is not None and state.version == 1
    (edited,) = decide_edit(
        state, EditProposal(drop=["1"], add=[{"type": "archive", "fact_id": B}]), ids()
    )
    after = fold([*events, envelope(edited, 2)])
    assert after is not None and after.version == 2
    with pytest.raises(ProposalChanged, match="changed since version 1"):
        decide_approve(after, ApproveProposal("ana", None, 1))
    (approved,) = decide_approve(after, ApproveProposal("ana", None, 2))
    assert approved.items == ("2",)
    assert decide_approve(after, ApproveProposal("ana"))  # no version named: as it is now


def test_items_apply_as_their_commands() -> None:
    state = FactState(A, 3, "/notes", "fact", "default", ())
    archive = {"type": "archive", "fact_id": A}
    ((stream, forgotten),) = apply_item(archive, [state], "ana", NOW).events
    assert stream == A and forgotten.TYPE == "FactForgotten"
    created = apply_item(
        {"type": "create", "path": "/n", "content": "x", "new_id": B}, [], "ana", NOW
    )
    assert created.events[0][0] == B and created.events[0][1].owner == "ana"
    with pytest.raises(Conflict, match="already forgotten"):
        apply_item(
            {"type": "archive", "fact_id": A},
            [replace(state, status=FactStatus.FORGOTTEN)],
            "ana",
            NOW,
        )


def test_a_new_item_type_joins_by_registering_one_applier() -> None:
    def check(raw: object, make_id: object) -> dict[str, object]:
        return dict(raw)  # type: ignore[call-overload]

    def apply(item: object, state: object, owner: str, now: datetime) -> Applied:
        return Applied(())

    register_item_type(ItemType("noop-test", check, apply))
    try:
        (body,) = decide_open(OpenProposal("P1", [{"type": "noop-test"}]), ids())
        assert body.items is not None and body.items["1"] == {"type": "noop-test"}
        with pytest.raises(TypeError, match="registered twice"):
            register_item_type(ItemType("noop-test", check, apply))
    finally:
        del ITEM_TYPES["noop-test"]


def test_the_policy_names_the_rule_that_approves() -> None:
    policy = ProposalPolicy(("preference",), ("importer",))
    assert policy.auto_rule("importer", ["fact"]) == "policy:source=importer"
    assert policy.auto_rule(None, ["preference", "preference"]) == "policy:kind=preference"
    assert policy.auto_rule(None, ["preference", "fact"]) is None
    assert policy.auto_rule(None, []) is None
    assert ProposalPolicy().auto_rule("prune", ["fact"]) is None  # nothing by default
    assert isinstance(ProposalApproved("P", ("1",), "policy:x"), DomainEvent)
