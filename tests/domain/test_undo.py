"""The undo table (decision 0043): each compensation decided over the folded state of the
undone event's stream, pure, no storage."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from embornal.domain.events import (
    ALL_EVENT_CLASSES,
    EVENTS,
    UNDOING_EVENTS,
    ActorKind,
    DomainEvent,
    Event,
    FactAttributesUpdated,
    FactConfidenceReset,
    FactConfirmed,
    FactContradicted,
    FactEvidenceAdded,
    FactForgotten,
    FactPurged,
    FactRestored,
    FactStored,
    PathTagged,
    PathUntagged,
    to_payload,
)
from embornal.domain.facts.aggregate import FactStatus, fold
from embornal.domain.facts.tags import Tag
from embornal.domain.spine import confidence as C
from embornal.domain.undo import (
    NOT_UNDOABLE,
    UNDO,
    check_event_id,
    decide_undo,
    fold_path_tags,
)
from embornal.errors import InvalidInput, NotUndoable

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
FID = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"


class Log:
    """A log in the making: each body gets the next position and its stream's version."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(
        self,
        body: DomainEvent,
        stream: str = FID,
        actor: str = "alice",
        kind: ActorKind = ActorKind.PERSON,
    ) -> Event:
        version = 1 + sum(1 for e in self.events if e.stream_id == stream)
        event = Event(
            position=len(self.events) + 1,
            stream_id=stream,
            version=version,
            type=body.TYPE,
            payload=to_payload(body),
            actor=actor,
            actor_kind=kind.value,
            recorded_at=T0 + timedelta(minutes=len(self.events)),
            known_body=body,
        )
        self.events.append(event)
        return event

    def stream(self, stream: str = FID) -> list[Event]:
        return [e for e in self.events if e.stream_id == stream]

    def undo(self, event: Event, by: str = "alice", **kw: Any) -> list[DomainEvent]:
        return decide_undo(event, self.stream(event.stream_id), by=by, at=T0, **kw)

    def apply(self, event: Event, by: str = "alice") -> list[Event]:
        """Undo ``event`` and append what the undo decided."""
        return [self.add(b, event.stream_id, by) for b in self.undo(event, by)]


def _stored(log: Log, **kw: Any) -> Event:
    return log.add(
        FactStored(FID, "/notes", "The build uses uv.", "alice", T0, (Tag("owner", "alice"),), **kw)
    )


def _project(log: Log, **attributes: Any) -> Event:
    attrs = {"name": "embornal", "status": "active", **attributes}
    return _stored(log, kind="project", attributes=attrs, kind_version=1)


# -- the table -----------------------------------------------------------------------------


def test_every_event_of_a_fact_or_a_path_has_an_undo_or_a_reason_why_not() -> None:
    streams = [c for c in ALL_EVENT_CLASSES if c.TYPE.startswith(("Fact", "Path", "Memory"))]
    streams.remove(EVENTS.class_of("FactsRecalled"))
    assert sorted(c.TYPE for c in streams) == sorted(c.TYPE for c in [*UNDO, *NOT_UNDOABLE])


def test_every_compensation_carries_undoes_and_leaves_it_out_of_old_payloads() -> None:
    for cls in UNDOING_EVENTS:
        assert "undoes" in cls.PLAIN_FIELDS
    assert to_payload(FactForgotten(FID)) == {"fact_id": FID}  # the stored format of 0.1.0
    assert EVENTS.decode("FactForgotten", {"fact_id": FID}) == FactForgotten(FID, undoes=None)
    assert to_payload(FactRestored(FID, undoes=7)) == {"fact_id": FID, "undoes": 7}


# -- store, supersede, forget, restore -----------------------------------------------------


def test_a_store_is_undone_by_forgetting_the_fact() -> None:
    log = Log()
    stored = _stored(log)
    assert log.undo(stored) == [FactForgotten(FID, undoes=stored.position)]


def test_a_supersede_is_undone_by_forgetting_the_successor() -> None:
    """The successor's FactStored is the supersede; a forgotten successor hands the old
    fact back (the projector's rule), so forgetting it is the whole compensation."""
    log = Log()
    _stored(log)
    new = "01KCZ8Q3W5R7T9V1X3Z5B7D9F2"
    successor = log.add(
        FactStored(new, "/notes", "Poetry.", "alice", T0, supersedes_id=FID), stream=new
    )
    assert log.undo(successor) == [FactForgotten(new, undoes=successor.position)]


def test_the_store_of_a_forgotten_fact_has_nothing_to_take_back() -> None:
    log = Log()
    stored = _stored(log)
    forget = log.add(FactForgotten(FID))
    with pytest.raises(NotUndoable, match=f"forgotten already \\(event {forget.position}\\)"):
        log.undo(stored)


def test_a_forget_is_undone_by_a_restore_and_a_restore_by_a_forget() -> None:
    log = Log()
    _stored(log)
    forget = log.add(FactForgotten(FID))
    (restore,) = log.apply(forget)
    assert restore.body == FactRestored(FID, undoes=forget.position)
    assert fold(log.stream()).status is FactStatus.ACTIVE  # type: ignore[union-attr]
    plain_restore = Log()
    _stored(plain_restore)
    plain_restore.add(FactForgotten(FID))
    r = plain_restore.add(FactRestored(FID))
    assert plain_restore.undo(r) == [FactForgotten(FID, undoes=r.position)]


def test_a_forget_that_a_later_restore_overrode_is_refused_naming_it() -> None:
    log = Log()
    _stored(log)
    forget = log.add(FactForgotten(FID))
    restore = log.add(FactRestored(FID))
    with pytest.raises(NotUndoable, match=f"event {restore.position} \\(FactRestored\\)") as e:
        log.undo(forget)
    assert f"memory undo {restore.position}" in e.value.hint


def test_an_undo_already_undone_is_refused_and_its_undo_is_a_redo() -> None:
    log = Log()
    _stored(log)
    forget = log.add(FactForgotten(FID))
    (restore,) = log.apply(forget)
    with pytest.raises(NotUndoable, match=f"undone already, by event {restore.position}"):
        log.undo(forget)
    (redo,) = log.apply(restore)
    assert redo.body == FactForgotten(FID, undoes=restore.position)
    assert fold(log.stream()).status is FactStatus.FORGOTTEN  # type: ignore[union-attr]
    # the undo and its undo cancel out: the forget is in force again, and can be undone
    (again,) = log.apply(forget)
    assert again.body == FactRestored(FID, undoes=forget.position)


def test_a_purge_cannot_be_undone_and_nothing_of_a_purged_fact_can() -> None:
    log = Log()
    stored = _stored(log)
    purge = log.add(FactPurged(FID))
    with pytest.raises(NotUndoable, match="a purge cannot be undone"):
        log.undo(purge)
    with pytest.raises(NotUndoable, match=f"was purged \\(event {purge.position}\\)"):
        log.undo(stored)


# -- attributes ----------------------------------------------------------------------------


def test_an_update_is_undone_back_to_the_previous_values() -> None:
    log = Log()
    _project(log, summary="the memory")
    update = log.add(
        FactAttributesUpdated(
            FID, {"status": "done", "summary": None, "target_date": "2026-03-01"}, 1
        )
    )
    before = fold(log.stream()[:1])
    (back,) = log.apply(update)
    assert back.body == FactAttributesUpdated(
        FID,
        {"status": "active", "summary": "the memory", "target_date": None},
        1,
        undoes=update.position,
    )
    after = fold(log.stream())
    assert after is not None and before is not None
    assert after.attributes == before.attributes  # a removed one back, an added one gone


def test_an_update_a_later_one_changed_is_refused_but_another_field_is_not_in_the_way() -> None:
    log = Log()
    _project(log)
    first = log.add(FactAttributesUpdated(FID, {"status": "paused"}, 1))
    other = log.add(FactAttributesUpdated(FID, {"summary": "x"}, 1))
    assert log.undo(first) == [
        FactAttributesUpdated(FID, {"status": "active"}, 1, undoes=first.position)
    ]
    later = log.add(FactAttributesUpdated(FID, {"status": "done"}, 1))
    with pytest.raises(NotUndoable, match=f"event {later.position} .* the attributes status"):
        log.undo(first)
    assert log.undo(other) == [FactAttributesUpdated(FID, {"summary": None}, 1, undoes=3)]


# -- confidence ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        FactConfirmed(FID),
        FactContradicted(FID),
        FactEvidenceAdded(FID, "quote", "still uv"),
    ],
    ids=["confirm", "contradict", "evidence"],
)
def test_a_vouching_event_is_undone_by_resetting_the_confidence_before_it(
    body: DomainEvent,
) -> None:
    log = Log()
    _stored(log)
    log.add(FactConfirmed(FID), kind=ActorKind.ASSISTANT)
    before = fold(log.stream())
    assert before is not None
    vouch = log.add(body)
    changed = fold(log.stream())
    assert changed is not None and changed.confidence != before.confidence
    (reset,) = log.apply(vouch)
    assert reset.body == FactConfidenceReset(
        FID, before.confidence, before.last_confirmed_at, undoes=vouch.position
    )
    after = fold(log.stream())
    assert after is not None
    assert (after.confidence, after.last_confirmed_at) == (
        before.confidence,
        before.last_confirmed_at,
    )
    assert after.evidence == changed.evidence  # evidence is append-only: it stays


def test_a_confirm_a_later_one_changed_is_refused_and_a_reset_undone_is_a_redo() -> None:
    log = Log()
    _stored(log)
    confirm = log.add(FactConfirmed(FID))
    confirmed = fold(log.stream())
    later = log.add(FactContradicted(FID))
    with pytest.raises(NotUndoable, match=f"event {later.position} \\(FactContradicted\\)"):
        log.undo(confirm)
    undo_later = log.apply(later)
    (reset,) = log.apply(confirm)  # the contradiction and its undo cancel out
    assert fold(log.stream()).confidence == C.prior(ActorKind.PERSON)  # type: ignore[union-attr]
    log.apply(reset)  # redo
    redone = fold(log.stream())
    assert redone is not None and confirmed is not None
    assert redone.confidence == confirmed.confidence
    assert redone.last_confirmed_at == confirmed.last_confirmed_at
    assert undo_later


# -- path tags -----------------------------------------------------------------------------

PATH = "path:/work"


def test_a_path_tag_is_undone_by_the_previous_value_or_an_untag() -> None:
    log = Log()
    log.add(PathTagged("/work", (Tag("team", "core"),)), PATH)
    both = log.add(PathTagged("/work", (Tag("team", "infra"), Tag("client", "acme"))), PATH)
    assert log.undo(both) == [
        PathTagged("/work", (Tag("team", "core"),), undoes=both.position),
        PathUntagged("/work", ("client",), undoes=both.position),
    ]
    log.apply(both)
    state = fold_path_tags(log.stream(PATH))
    assert state is not None and dict(state.of("alice")) == {"team": "core"}


def test_an_untag_is_undone_by_tagging_the_values_again() -> None:
    log = Log()
    log.add(PathTagged("/work", (Tag("team", "core"),)), PATH)
    untag = log.add(PathUntagged("/work", ("team", "never-set")), PATH)
    assert log.undo(untag) == [PathTagged("/work", (Tag("team", "core"),), undoes=untag.position)]
    nothing = log.add(PathUntagged("/work", ("never-set",)), PATH)
    with pytest.raises(NotUndoable, match="took off no tag"):
        log.undo(nothing)


def test_path_tags_are_undone_only_by_their_tagger_and_not_past_a_later_tag() -> None:
    log = Log()
    tag = log.add(PathTagged("/work", (Tag("team", "core"),)), PATH)
    with pytest.raises(NotUndoable, match="these are alice's"):
        log.undo(tag, by="bob")
    log.add(PathTagged("/work", (Tag("team", "x"),)), PATH, actor="bob")  # bob's own tags
    assert log.undo(tag) == [PathUntagged("/work", ("team",), undoes=tag.position)]
    later = log.add(PathTagged("/work", (Tag("team", "infra"),)), PATH)
    with pytest.raises(NotUndoable, match=f"event {later.position}"):
        log.undo(tag)


# -- event ids -----------------------------------------------------------------------------


@pytest.mark.parametrize("given, want", [(12, 12), ("12", 12), ("#12", 12), (" 7 ", 7)])
def test_an_event_id_is_a_log_position(given: object, want: int) -> None:
    assert check_event_id(given) == want


@pytest.mark.parametrize(
    "given", [0, -1, "abc", "", "#", "1.5", True, None, "１２", "9" * 40, 10**18, 2**70]
)
def test_an_event_id_that_is_not_a_position_is_bad_input(given: object) -> None:
    with pytest.raises(InvalidInput, match="whole number from 1"):
        check_event_id(given)
