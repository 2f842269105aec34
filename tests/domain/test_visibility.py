"""Visibility and source in the domain: the rule of who sees a fact (``visible_to``, the
read scope's viewer), the decision to change it on the fact aggregate, the fold, a
correction's visibility, and the events' declared text (purge erases evidence values)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from embornal.domain.access.scope import EVERYTHING, Viewer, visible_to
from embornal.domain.events import EVENTS, FactStored, FactVisibilityChanged
from embornal.domain.facts.aggregate import (
    FactStatus,
    PurgeFact,
    StoreFact,
    SupersedeFact,
    decide_purge,
    decide_store,
    decide_supersede,
    fold,
)
from embornal.domain.spine.decisions import ChangeVisibility, decide_change_visibility
from embornal.domain.spine.justification import (
    carried_visibility,
    parse_visibility,
    stored_visibility,
)
from embornal.errors import AccessDenied, Conflict, InvalidInput, InvalidVisibility

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ALICE = Viewer("alice", frozenset({"team"}))


@pytest.mark.parametrize(
    ("visibility", "owner", "viewer", "seen"),
    [
        (None, "bob", ALICE, True),
        ("shared", "bob", ALICE, True),
        ("private", "alice", ALICE, True),
        ("private", "alice", Viewer("alice", assistant=True), False),  # never an assistant
        ("private", "bob", ALICE, False),
        ("restricted:carol", "alice", ALICE, True),  # the owner
        ("restricted:alice,carol", "bob", ALICE, True),
        ("restricted:team", "bob", ALICE, True),  # a role the reader holds
        ("restricted:team", "bob", Viewer("alice", frozenset({"team"}), True), True),
        ("restricted:carol", "bob", ALICE, False),
        ("restricted:carol", "bob", None, True),  # the store's own reads
        ("someday", "alice", ALICE, False),  # unknown: hidden
    ],
)
def test_who_sees_a_fact(
    visibility: str | None, owner: str, viewer: Viewer | None, seen: bool
) -> None:
    assert visible_to(visibility, owner, viewer) is seen


def test_the_scope_admits_by_rules_and_by_visibility() -> None:
    scope = EVERYTHING.seen_by(Viewer("alice"))
    assert not scope.unfiltered and EVERYTHING.unfiltered
    assert scope.admits("/x", {}, owner="bob", visibility=None)
    assert not scope.admits("/x", {}, owner="bob", visibility="private")
    assert scope.admits("/x", {}, owner="alice", visibility="private")


def _stored(**kw: object) -> FactStored:
    (event,) = decide_store(StoreFact("F1", "/x", "text", "alice", **kw), NOW)  # type: ignore[arg-type]
    return event


def test_store_decides_visibility_source_and_evidence() -> None:
    event = _stored(visibility="Restricted: bob , carol ", source=" cli ", evidence=["quote:hi"])
    assert event.visibility == "restricted:bob,carol" and event.source == "cli"
    assert [(e.type.value, e.value) for e in event.evidence] == [("quote", "hi")]
    assert event.evidence_notes is None
    assert _stored(visibility="shared").visibility is None  # shared is stored as none
    state = fold([event])
    assert state is not None and state.visibility == "restricted:bob,carol"
    assert [e.value for e in state.evidence] == ["hi"]
    with pytest.raises(InvalidVisibility):
        _stored(visibility="restricted:")
    with pytest.raises(InvalidInput, match="list"):
        _stored(evidence="quote:hi")


def test_only_the_owner_changes_visibility_and_the_same_is_no_event() -> None:
    state = fold([_stored()])
    assert state is not None
    (event,) = decide_change_visibility(state, ChangeVisibility("F1", "private", "alice"), NOW)
    assert event == FactVisibilityChanged("F1", "private")
    after = fold([_stored(), event])
    assert after is not None and after.visibility == "private"
    assert decide_change_visibility(after, ChangeVisibility("F1", "private", "alice"), NOW) == []
    back = decide_change_visibility(after, ChangeVisibility("F1", "shared", "alice"), NOW)
    assert back == [FactVisibilityChanged("F1", "shared")]
    assert fold([_stored(), event, *back]).visibility is None  # type: ignore[union-attr]
    with pytest.raises(AccessDenied, match="only its owner alice"):
        decide_change_visibility(state, ChangeVisibility("F1", "private", "bob"), NOW)
    purged = fold([_stored(), *decide_purge(state, PurgeFact("F1"), NOW)])
    assert purged is not None and purged.status is FactStatus.PURGED
    with pytest.raises(Conflict, match="purged"):
        decide_change_visibility(purged, ChangeVisibility("F1", "shared", "alice"), NOW)


def test_a_correction_keeps_the_visibility() -> None:
    state = fold([_stored(visibility="restricted:bob")])
    assert state is not None
    (same,) = decide_supersede(state, SupersedeFact("F2", "v2", "alice"), NOW)
    assert same.visibility == "restricted:bob"
    (other,) = decide_supersede(state, SupersedeFact("F2", "v2", "bob"), NOW)
    assert other.visibility == "restricted:alice,bob"
    assert carried_visibility("private", "alice", "bob") == "private"
    assert carried_visibility(None, "alice", "bob") is None
    assert stored_visibility(str(parse_visibility("shared"))) is None


def test_purge_erases_the_evidence_values_of_a_store_but_keeps_its_types() -> None:
    event = _stored(evidence=["quote:zebra said", "uri:https://zebra.example"], source="s-1")
    payload = EVENTS.to_payload(event)
    redacted = EVENTS.redact_payload("FactStored", 1, payload)
    assert redacted is not None and "zebra" not in str(redacted)
    assert redacted["evidence_types"] == ["quote", "uri"]
    assert redacted["source"] is None  # a label the person typed: user text (decision 0134)
    body = EVENTS.decode("FactStored", redacted)
    assert isinstance(body, FactStored) and body.evidence == ()
