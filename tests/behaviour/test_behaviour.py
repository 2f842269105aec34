"""One behaviour, two sides: a local Memory and the remote client give the same results
and raise the same exception classes (see conftest.py)."""

from __future__ import annotations

import inspect

import pytest

from embornal import Memory
from embornal.errors import (
    AccessDenied,
    Conflict,
    InvalidContent,
    InvalidInput,
    InvalidPath,
    NotFound,
)
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.catalog import by_name
from embornal.interfaces.cli.remote import LocalOnly, RemoteMemory
from embornal.interfaces.cli.remote_derive import public_methods
from embornal.interfaces.wire import to_wire
from embornal.service.history.chronicle import Chronicle


def test_both_sides_offer_the_api(alice: MemoryAPI, memory: Memory, side: str) -> None:
    assert isinstance(alice, Memory if side == "local" else RemoteMemory)
    for name in public_methods(Memory):  # each one, with the local method's signature
        ours = inspect.signature(getattr(alice, name))
        assert ours == inspect.signature(getattr(memory, name)), name
    for name in public_methods(Chronicle):
        ours = inspect.signature(getattr(alice.chronicle, name))
        assert ours == inspect.signature(getattr(memory.chronicle, name)), name


def test_store_then_read_it_back_every_way(alice: MemoryAPI) -> None:
    fact = alice.store("/Projects/Embornal", "The build uses uv.", tags=["status=decided"])
    assert (fact.path, fact.owner, fact.state) == ("/projects/embornal", "alice", "active")
    assert "status=decided" in [str(t) for t in fact.tags]
    alice.store("/projects/embornal/cli", "The CLI starts fast.")

    assert [(e.path, e.fact_count, e.child_count) for e in alice.ls("/projects")] == [
        ("/projects/embornal", 1, 1)
    ]
    root = alice.tree("/projects")
    assert [c.path for c in root.children] == ["/projects/embornal"]
    assert [c.path for c in root.children[0].children] == ["/projects/embornal/cli"]
    (view,) = alice.cat("/projects/embornal")
    assert view.fact == fact and 0 < view.strength <= 1

    hits = alice.recall("uv", under="/projects", reinforce=False)
    assert [h.fact.id for h in hits] == [fact.id]
    assert hits[0].parts.matched_terms == ("uv",)
    assert alice.show(fact.id).fact.recall_count == 0
    alice.recall("uv", under="/projects")
    detail = alice.show(fact.id[:18].lower())
    assert detail.fact.recall_count == 1
    assert ("status=decided", None) in [(str(t), s) for t, s in detail.effective_tags]
    assert alice.history(fact.id)[0].type == "FactStored"


def test_supersede_forget_restore(alice: MemoryAPI) -> None:
    old = alice.store("/p", "Old text.")
    new = alice.supersede(old.id, "New text.", reason="changed")
    assert new.supersedes_id == old.id and new.path == "/p"
    assert alice.show(old.id).fact.state == "superseded"
    assert [h.fact.id for h in alice.recall("text", under="/p", reinforce=False)] == [new.id]
    events = alice.history(new.id)
    assert {e.stream_id for e in events} == {old.id, new.id}

    gone = alice.forget(new.id, reason="wrong")
    assert gone.state == "forgotten"
    assert new.id not in [h.fact.id for h in alice.recall("text", under="/p", reinforce=False)]
    with pytest.raises(Conflict):
        alice.forget(new.id, reason="again")
    back = alice.restore(new.id, reason="right after all")
    assert back.state == "active"
    with pytest.raises(Conflict):
        alice.restore(new.id, reason="again")


def test_purge_is_local_only(alice: MemoryAPI, side: str) -> None:
    fact = alice.store("/p", "Secret.")
    assert by_name("purge").local_only
    if side == "local":
        assert alice.purge(fact.id, reason="erase").fact_id == fact.id
        assert alice.show(fact.id).fact.state == "purged"
    else:
        with pytest.raises(LocalOnly) as caught:
            alice.purge(fact.id, reason="erase")
        assert isinstance(caught.value, InvalidInput)


def test_the_history_of_a_path(alice: MemoryAPI, side: str) -> None:
    alice.store("/h", "One.")
    if side == "local":
        assert len(alice.history("/h")) == 1
    else:
        with pytest.raises(LocalOnly, match="of a path"):
            alice.history("/h")


def test_not_found(alice: MemoryAPI) -> None:
    with pytest.raises(NotFound):
        alice.show("01KCZ8Q3W5R7T9V1X3Z5B7D9F1")
    with pytest.raises(NotFound):
        alice.cat("/nothing/here")
    with pytest.raises(NotFound):
        alice.forget("01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="x")


def test_access_denied_and_hidden(alice: MemoryAPI, bob: MemoryAPI) -> None:
    fact = alice.store("/private/alice", "Mine.")
    with pytest.raises(NotFound):  # a fact bob may not read looks missing
        bob.show(fact.id)
    public = alice.store("/shared", "Everyone reads this.", tags=["visibility=public"])
    assert bob.show(public.id).fact.id == public.id
    with pytest.raises(AccessDenied):
        bob.forget(public.id, reason="not mine")


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda m: m.store("no-slash", "x"), InvalidPath),
        (lambda m: m.store("/p", "   "), InvalidContent),
        (lambda m: m.store("/p", "x", tags=["owner=mallory"]), InvalidInput),
        (lambda m: m.recall("x", limit=0), InvalidInput),
        (lambda m: m.forget("01KCZ8Q3W5R7T9V1X3Z5B7D9F1", reason="  "), InvalidInput),
        (lambda m: m.show("not an id!"), InvalidInput),
    ],
    ids=["path", "content", "owner-tag", "limit", "reason", "id"],
)
def test_invalid_input_is_the_same_error(alice: MemoryAPI, call: object, error: type) -> None:
    with pytest.raises(error):
        call(alice)  # type: ignore[operator]


def test_the_wire_shapes_match_across_sides(open_as: object, memory: Memory) -> None:
    """What the remote side reads back is, on the wire, what the local side returns."""
    local = memory.as_subject("alice")
    fact = local.store("/same", "Same on both sides.", tags=["k=v"])
    remote_or_local = open_as("alice")  # type: ignore[operator]
    assert to_wire(remote_or_local.show(fact.id).fact) == to_wire(local.show(fact.id).fact)
    assert to_wire(remote_or_local.tree("/")) == to_wire(local.tree("/"))


# -- kinds: the same on both sides ----------------------------------------------------------


def test_typed_facts_store_update_find_kinds(alice: MemoryAPI) -> None:
    from embornal.errors import InvalidAttribute, InvalidKind

    fact = alice.store(
        "/projects/x",
        "X is the new build.",
        kind="project",
        attributes={"name": "x", "status": "active"},
    )
    assert (fact.kind, dict(fact.attributes)) == ("project", {"name": "x", "status": "active"})
    assert alice.show(fact.id).fact.attributes == fact.attributes
    assert [f.id for f in alice.find("project", ["status=active"])] == [fact.id]
    assert [f.id for f in alice.find("project", {"status": "active"}, under="/projects")] == [
        fact.id
    ]
    assert alice.find("project", ["status=active"], under="/other") == []

    updated = alice.update(fact.id, {"status": "done", "target_date": "2026-12-01"}, reason="ok")
    assert updated.attributes == {"name": "x", "status": "done", "target_date": "2026-12-01"}
    assert alice.find("project", ["status=active"]) == []
    removed = alice.update(fact.id, {"target_date": None})
    assert "target_date" not in removed.attributes
    assert [e.type for e in alice.history(fact.id)][-2:] == ["FactAttributesUpdated"] * 2

    new = alice.supersede(fact.id, "X was renamed.", attributes={"name": "y", "status": "done"})
    assert new.kind == "project" and new.attributes["name"] == "y"
    assert [f.id for f in alice.find("project", ["name=y"], limit=5)] == [new.id]

    kinds = {k["kind"]: k for k in alice.kinds()}
    assert kinds["project"]["required"] == ["name", "status"]

    with pytest.raises(InvalidKind, match="project"):
        alice.store("/p", "P.", kind="projekt")
    with pytest.raises(InvalidAttribute, match="idea, active, paused"):
        alice.store("/p", "P.", kind="project", attributes={"name": "p", "status": "busy"})
    with pytest.raises(InvalidAttribute, match="status"):
        alice.update(new.id, {"status": "busy"})
    with pytest.raises(InvalidAttribute):
        alice.find("project", ["colour=red"])
    assert alice.ls("/") == [e for e in alice.ls("/") if e.path != "/p"]
    assert alice.find("project", ["name=p"]) == []


def test_find_shows_only_what_the_subject_may_read(alice: MemoryAPI, bob: MemoryAPI) -> None:
    mine = alice.store(
        "/alice/projects/x", "Mine.", kind="project", attributes={"name": "x", "status": "active"}
    )
    assert [f.id for f in alice.find("project", ["status=active"])] == [mine.id]
    assert bob.find("project", ["status=active"]) == []
    with pytest.raises(NotFound):
        bob.update(mine.id, {"status": "done"})


# -- the spine: the same on both sides ------------------------------------------------------


def test_confirm_contradict_add_evidence(alice: MemoryAPI) -> None:
    from embornal.domain.spine.justification import EvidenceRef, EvidenceType
    from embornal.errors import InvalidEvidence

    fact = alice.store("/projects/x", "X builds with uv.")
    other = alice.store("/projects/x", "X builds with Poetry.")
    start = alice.show(fact.id).confidence
    assert start is not None
    up = alice.confirm(fact.id, evidence="quote:Still uv.", reason="checked")
    assert up.confidence is not None and up.confidence > start
    assert up.last_confirmed_at is not None
    down = alice.contradict(
        fact.id, by=other.id[:18], evidence="uri:https://example.org/readme", reason="README"
    )
    assert down.confidence is not None and down.confidence < up.confidence
    assert down.last_confirmed_at == up.last_confirmed_at  # a contradiction does not move it
    ref = EvidenceRef(EvidenceType.DOCUMENT, "ADR 12", "the record")
    more = alice.add_evidence(fact.id, ref)
    assert more.confidence is not None and more.confidence > down.confidence
    alice.confirm(fact.id, evidence=EvidenceRef(EvidenceType.OBSERVATION, "ran it", "ok"))
    alice.add_evidence(fact.id, "conversation:standup", note="Monday")

    detail = alice.show(fact.id)
    assert [(e.type.value, e.value, e.note) for e in detail.evidence] == [
        ("quote", "Still uv.", None),
        ("document", "ADR 12", "the record"),
        ("observation", "ran it", "ok"),
        ("conversation", "standup", "Monday"),
    ]
    assert detail.c_eff is not None and detail.stale is False
    kinds = [e.type for e in alice.history(fact.id)]
    assert kinds[-5:] == [
        "FactConfirmed",
        "FactContradicted",
        "FactEvidenceAdded",
        "FactConfirmed",
        "FactEvidenceAdded",
    ]

    events = len(alice.history(fact.id))
    with pytest.raises(InvalidEvidence, match="quote, uri, conversation, document, observation"):
        alice.add_evidence(fact.id, "rumour:so I heard")
    with pytest.raises(InvalidEvidence):
        alice.confirm(fact.id, evidence="no type here")
    with pytest.raises(InvalidInput):
        alice.contradict(fact.id, reason="")
    assert len(alice.history(fact.id)) == events


def test_vouching_needs_write_and_a_readable_fact(
    alice: MemoryAPI, bob: MemoryAPI, memory: Memory
) -> None:
    mine = alice.store("/alice/diary", "Mine.")
    public = alice.store("/team/news", "The offsite is in May.", tags=["visibility=public"])
    memory.policy_add("p", ["bob", "path:/team/*", "write", "deny"])
    with pytest.raises(NotFound):
        bob.confirm(mine.id)
    with pytest.raises(NotFound):
        bob.add_evidence(mine.id, "quote:so I heard")
    with pytest.raises(AccessDenied):
        bob.contradict(public.id, reason="no")
    with pytest.raises(NotFound):
        alice.contradict(public.id, by=bob.store("/bob/x", "Bob's.").id, reason="hidden by")
    assert alice.show(public.id).evidence == ()
    assert len(alice.history(public.id)) == 1


# -- undo: the same on both sides (decisions 0043, 0044) -------------------------------------


def test_undo_each_change_and_redo(alice: MemoryAPI) -> None:
    fact = alice.store(
        "/projects/x", "X.", kind="project", attributes={"name": "x", "status": "idea"}
    )
    update = alice.update(fact.id, {"status": "active", "summary": "the x"})
    assert update.attributes["status"] == "active"
    confirmed = alice.confirm(fact.id)
    forgotten = alice.forget(fact.id, reason="oops")
    assert forgotten.state == "forgotten"
    events = alice.history(fact.id)
    stored, updated, confirm, forget = (e.position for e in events)
    kinds = {e.actor_kind for e in events}  # the remote side's token is an assistant's
    assert kinds in ({"person"}, {"assistant"}) and events[0].actor == "alice"

    (restore,) = alice.undo(forget, reason="forgotten by mistake")
    assert restore.type == "FactRestored" and restore.payload["undoes"] == forget
    assert restore.reason == "forgotten by mistake" and restore.actor == "alice"
    (reset,) = alice.undo(f"#{confirm}", reason="not confirmed after all")
    assert reset.type == "FactConfidenceReset"
    (back,) = alice.undo(updated, reason="not yet")
    assert back.payload["changes"] == {"status": "idea", "summary": None}
    detail = alice.show(fact.id)
    assert detail.fact.state == "active" and detail.fact.attributes == {
        "name": "x",
        "status": "idea",
    }
    assert detail.confidence == fact.confidence and detail.last_confirmed_at is None

    (redo,) = alice.undo(reset.position, reason="it was confirmed")
    assert alice.show(fact.id).confidence == confirmed.confidence
    (gone,) = alice.undo(stored, reason="stored by mistake")
    assert gone.type == "FactForgotten" and alice.show(fact.id).fact.state == "forgotten"
    history = alice.history(fact.id)
    assert [e.payload.get("undoes") for e in history[4:]] == [
        forget,
        confirm,
        updated,
        reset.position,
        stored,
    ]
    assert redo.payload["undoes"] == reset.position


def test_undo_refusals_are_the_same_error(alice: MemoryAPI, bob: MemoryAPI) -> None:
    fact = alice.store("/alice/notes", "Mine.")
    forget = alice.forget(fact.id, reason="x")
    (forget_event,) = [e for e in alice.history(fact.id) if e.type == "FactForgotten"]
    alice.restore(fact.id, reason="y")
    with pytest.raises(Conflict, match="changed whether"):  # a later restore overrode it
        alice.undo(forget_event.position, reason="z")
    with pytest.raises(NotFound):  # bob may not read the fact: as a missing event
        bob.undo(forget_event.position, reason="z")
    with pytest.raises(NotFound):
        alice.undo(10**9, reason="z")
    with pytest.raises(InvalidInput):
        alice.undo("abc", reason="z")
    with pytest.raises(InvalidInput):
        alice.undo(forget_event.position, reason=" ")
    assert forget.state == "forgotten" and len(alice.history(fact.id)) == 3


def test_undo_takes_the_rights_of_the_compensation(
    alice: MemoryAPI, bob: MemoryAPI, memory: Memory
) -> None:
    public = alice.store("/team/news", "The offsite is in May.", tags=["visibility=public"])
    (stored,) = alice.history(public.id)
    with pytest.raises(AccessDenied):  # forgetting needs delete: bob may only read it
        bob.undo(stored.position, reason="not mine")
    assert len(alice.history(public.id)) == 1


# -- source and visibility: the same on both sides (but who is an assistant) ---------------


def test_store_with_source_evidence_confidence_visibility(alice: MemoryAPI) -> None:
    fact = alice.store(
        "/spine/v",
        "Stored with its spine.",
        source="agent-7",
        evidence=["quote:she said so", "uri:https://example.org/x"],
        confidence=0.8,
        visibility="restricted:bob",
    )
    assert fact.visibility == "restricted:bob" and fact.confidence == 0.8
    detail = alice.show(fact.id)
    assert detail.source is not None and detail.source.subject == "alice"
    assert detail.source.label == "agent-7"
    assert [e.value for e in detail.evidence] == ["she said so", "https://example.org/x"]
    assert detail.last_confirmed_at is None


def test_restricted_and_private_facts_reach_whom_they_name(
    alice: MemoryAPI, bob: MemoryAPI, side: str
) -> None:
    public = ["visibility=public"]  # the rules let everyone read it; visibility narrows
    to_bob = alice.store("/v", "For bob.", tags=public, visibility="restricted:bob")
    to_carol = alice.store("/v", "For carol.", tags=public, visibility="restricted:carol")
    secret = alice.store("/v", "For alice alone.", tags=public, visibility="private")
    assert secret.visibility == "private"
    seen_by_bob = {v.fact.id for v in bob.cat("/v")}
    assert to_bob.id in seen_by_bob and not {to_carol.id, secret.id} & seen_by_bob
    with pytest.raises(NotFound):
        bob.show(secret.id)
    mine = {h.fact.id for h in alice.recall(None, limit=100, reinforce=False)}
    assert {to_bob.id, to_carol.id} <= mine
    # Every token is an assistant: a private fact never comes back over REST, even to its
    # owner; on this machine its owner (a person) reads it.
    assert (secret.id in mine) is (side == "local")


def test_set_visibility_by_the_owner_only(alice: MemoryAPI, bob: MemoryAPI) -> None:
    fact = alice.store("/v2", "Shared for now.", tags=["visibility=public"])
    assert fact.id in {v.fact.id for v in bob.cat("/v2")}
    with pytest.raises(AccessDenied):
        bob.set_visibility(fact.id, "private")
    got = alice.set_visibility(fact.id, "restricted:alice", reason="keep it")
    assert got.visibility == "restricted:alice"
    with pytest.raises(NotFound):
        bob.cat("/v2")
    assert [e.type for e in alice.history(fact.id)][-1] == "FactVisibilityChanged"


@pytest.mark.parametrize("bad", ["secret", "restricted:", "restricted:a b"])
def test_bad_visibility_is_the_same_error(alice: MemoryAPI, bad: str) -> None:
    from embornal.errors import InvalidVisibility

    with pytest.raises(InvalidVisibility):
        alice.store("/v3", "never", visibility=bad)
    fact = alice.store("/v3", "kept")
    with pytest.raises(InvalidVisibility):
        alice.set_visibility(fact.id, bad)


def test_pin_weight_lifetime_and_due(alice: MemoryAPI, bob: MemoryAPI) -> None:
    from embornal.errors import InvalidImportance, InvalidLifetime, NotFound

    fact = alice.store("/alice/car", "Parking spot C4.", lifetime="until:2999-06-30")
    assert fact.lifetime == "until:2999-06-30" and fact.expires_at is not None
    assert alice.pin(fact.id, reason="matters").pinned
    assert alice.pin(fact.id).pinned  # again: nothing changes
    assert alice.set_weight(fact.id, 0.8).user_weight == 0.8
    assert alice.set_weight(fact.id, None).user_weight is None
    life = alice.set_lifetime(fact.id, "permanent", reason="for good")
    assert life.lifetime == "permanent" and life.expires_at is None
    assert not alice.unpin(fact.id).pinned
    detail = alice.show(fact.id)
    assert (detail.pinned, detail.user_weight, detail.lifetime, detail.expired) == (
        False,
        None,
        "permanent",
        False,
    )
    kinds = [e.type for e in alice.history(fact.id)]
    assert kinds.count("FactImportanceAdjusted") == 4 and "FactLifetimeChanged" in kinds
    with pytest.raises(InvalidImportance):
        alice.set_weight(fact.id, 1.5)
    with pytest.raises(InvalidLifetime):
        alice.set_lifetime(fact.id, "until:2020-01-01")
    with pytest.raises(InvalidLifetime):
        alice.store("/alice/car", "Spot D1.", lifetime="sometimes")
    with pytest.raises(NotFound):
        bob.pin(fact.id)
    old = alice.store("/alice/old", "An old note.", at="2019-01-01T00:00:00Z")
    due = alice.due(under="/alice")
    assert [d.fact.id for d in due] == [old.id]
    assert due[0].c_eff < due[0].threshold and bob.due(under="/alice") == []
