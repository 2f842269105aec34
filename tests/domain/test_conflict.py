"""The conflict aggregate (decision 0059): opened once, resolved once, by a decision."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from embornal.domain.conflicts.aggregate import (
    ConflictClass,
    OpenConflict,
    Outcome,
    ResolveConflict,
    conflict_id,
    decide_open,
    decide_resolve,
    fold,
)
from embornal.domain.events import Event, EventType, to_payload
from embornal.domain.events.conflicts import ConflictOpened, ConflictResolved
from embornal.errors import Conflict, InvalidInput

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _event(
    body: ConflictOpened | ConflictResolved, version: int, reason: str | None = None
) -> Event:
    return Event(
        version,
        "conflict:x",
        version,
        body.TYPE,
        to_payload(body),
        "ada",
        "person",
        NOW,
        reason,
        known_body=body,
    )


def _opened(cls: ConflictClass = ConflictClass.DUPLICATE, members=("A", "B")):  # type: ignore[no-untyped-def]
    (body,) = decide_open(None, OpenConflict(cls, members, ("names: same name",), 0.95, "store"))
    assert isinstance(body, ConflictOpened)
    state = fold([_event(body, 1)])
    assert state is not None
    return body, state


def test_the_id_names_the_class_the_members_and_the_trigger() -> None:
    cid = conflict_id("duplicate", ["B", "A"])
    assert cid == conflict_id("duplicate", ["A", "B", "A"]) and cid.startswith("K")
    assert len(cid) == 16 and cid != conflict_id("contradiction", ["A", "B"])
    assert conflict_id("contradiction", ["A"], "41") != conflict_id("contradiction", ["A"], "42")
    assert EventType.CONFLICT_OPENED == ConflictOpened.TYPE


def test_open_needs_its_members_and_opens_once() -> None:
    body, state = _opened()
    assert body.conflict_id == conflict_id("duplicate", ["A", "B"])
    assert state.is_open and state.members == ("A", "B") and state.opened_by == "ada"
    assert (
        decide_open(state, OpenConflict(ConflictClass.DUPLICATE, ("A", "B"), (), 1, "scan")) == []
    )
    with pytest.raises(InvalidInput, match="needs 2 facts"):
        decide_open(None, OpenConflict(ConflictClass.DUPLICATE, ("A", "A"), (), 1, "scan"))
    (one,) = decide_open(None, OpenConflict(ConflictClass.STALE, ("A",), (), 2.0, "scan"))
    assert isinstance(one, ConflictOpened) and one.score == 1.0  # clamped


def test_keep_forgets_only_the_active_others_and_both_lets_all_stand() -> None:
    _, state = _opened(members=("A", "B", "C"))
    keep = ResolveConflict(state.conflict_id, Outcome.KEEP, "A", frozenset({"A", "B"}))
    (body,) = decide_resolve(state, keep)
    assert isinstance(body, ConflictResolved) and body.archived == ("B",)
    (both,) = decide_resolve(state, ResolveConflict(state.conflict_id, Outcome.BOTH, None))
    assert isinstance(both, ConflictResolved) and both.kept_id is None
    done = fold(
        [
            _event(
                decide_open(
                    None, OpenConflict(ConflictClass.DUPLICATE, ("A", "B", "C"), ("x",), 1, "store")
                )[0],
                1,
            ),
            _event(body, 2, "same person"),
        ]
    )  # type: ignore[arg-type]
    assert done is not None and not done.is_open
    assert (done.kept_id, done.reason, done.resolved_by) == ("A", "same person", "ada")
    with pytest.raises(Conflict, match="already resolved: keep"):
        decide_resolve(done, keep)


def test_keep_names_a_member_and_a_stale_conflict_is_kept() -> None:
    _, state = _opened()
    with pytest.raises(InvalidInput, match="one of the conflict's facts: A, B"):
        decide_resolve(state, ResolveConflict(state.conflict_id, Outcome.KEEP, "Z"))
    _, stale = _opened(ConflictClass.STALE, ("A",))
    with pytest.raises(InvalidInput, match="--keep ID"):
        decide_resolve(stale, ResolveConflict(stale.conflict_id, Outcome.BOTH, None))
