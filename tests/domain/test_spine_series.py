"""The series of a fact's confidence, c_eff and strength over time: the domain's maths,
applied in log order, in time order, within 0..1."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from embornal.domain.events import (
    ActorKind,
    DomainEvent,
    Event,
    FactConfirmed,
    FactContradicted,
    FactEvidenceAdded,
    FactStored,
)
from embornal.domain.facts.aggregate import fold
from embornal.domain.facts.tags import Tag
from embornal.domain.spine import confidence as C
from embornal.domain.spine.series import RECALL, SeriesPoint, SpineSeries, spine_series
from embornal.domain.spine.strength import INITIAL_STABILITY_DAYS, Signals, reinforce, strength

T0 = datetime(2026, 1, 1, tzinfo=UTC)
FID = "01KC" + "0" * 22


def _event(
    version: int,
    body: DomainEvent,
    at: datetime,
    kind: ActorKind = ActorKind.PERSON,
    reason: str | None = None,
) -> Event:
    return Event(
        position=version,
        stream_id=FID,
        version=version,
        type=body.TYPE,
        payload={},
        actor="alice",
        actor_kind=kind.value,
        recorded_at=at,
        reason=reason,
        known_body=body,
    )


def _stored(kind: str = "fact", confidence: float | None = None, at: datetime = T0) -> Event:
    body = FactStored(
        fact_id=FID,
        path="/p",
        content="x",
        owner="alice",
        created_at=at,
        tags=(Tag("owner", "alice"),),
        kind=kind,
        confidence=confidence,
    )
    return _event(1, body, T0)


def _stream() -> list[Event]:
    return [
        _stored(confidence=0.6),
        _event(2, FactConfirmed(FID), T0 + timedelta(days=10), reason="seen it"),
        _event(3, FactContradicted(FID), T0 + timedelta(days=20), ActorKind.ASSISTANT),
        _event(4, FactEvidenceAdded(FID, "quote", "said so"), T0 + timedelta(days=30)),
    ]


def _in_time_order(points: tuple[SeriesPoint, ...]) -> bool:
    return all(a.at <= b.at for a, b in itertools.pairwise(points))


def _all_series(s: SpineSeries) -> list[tuple[SeriesPoint, ...]]:
    return [s.confidence, s.effective, s.strength]


def test_confidence_steps_at_each_event_by_the_maths_in_log_order() -> None:
    events = _stream()
    s = spine_series(events, [], T0 + timedelta(days=40))
    after = [p.value for p in s.confidence[2::2]]  # the value after each event
    c1 = C.confirm(0.6, C.confirm_weight("person"))
    c2 = C.contradict(c1, C.contradict_weight("assistant"))
    c3 = C.confirm(c2, DEFAULT_EVIDENCE_WEIGHT)
    assert after == pytest.approx([c1, c2, c3])
    assert s.confidence[0] == SeriesPoint(T0, 0.6)
    state = fold(events)
    assert state is not None
    assert s.confidence[-1].value == pytest.approx(state.confidence)
    assert s.confidence[-1].at == T0 + timedelta(days=40)
    # each event: the value before it, then after it, at its time
    assert s.confidence[1].at == s.confidence[2].at == T0 + timedelta(days=10)
    assert s.confidence[1].value == 0.6


DEFAULT_EVIDENCE_WEIGHT = C.DEFAULT_CONFIDENCE.evidence_weight


def test_the_prior_of_the_actor_kind_when_none_was_given() -> None:
    stored = _stored()
    assistant = Event(
        position=1,
        stream_id=FID,
        version=1,
        type=stored.type,
        payload={},
        actor="bot",
        actor_kind="assistant",
        recorded_at=T0,
        known_body=stored.body,
    )
    s = spine_series([assistant], [], T0 + timedelta(days=1))
    assert s.confidence[0].value == C.prior("assistant")


def test_c_eff_decays_from_the_last_confirmation_and_ends_as_show_says() -> None:
    events = _stream()
    now = T0 + timedelta(days=400)
    s = spine_series(events, [], now)
    state = fold(events)
    assert state is not None
    since = C.anchor(state.last_confirmed_at, T0)
    expected = C.effective(state.confidence, "fact", since, now)
    assert s.effective[-1] == SeriesPoint(now, pytest.approx(expected))
    assert s.effective[0].value == pytest.approx(0.6)
    assert s.stale_below == C.decay_for("fact").stale_below
    # a confirmation resets the decay: c_eff right after it is c itself
    at = T0 + timedelta(days=10)
    after = [p for p in s.effective if p.at == at][-1]
    assert after.value == pytest.approx(C.confirm(0.6, C.confirm_weight("person")))


def test_strength_is_sampled_at_each_recall_and_at_now() -> None:
    recalls = [T0 + timedelta(days=1), T0 + timedelta(days=3), T0 + timedelta(days=3)]
    now = T0 + timedelta(days=9)
    s = spine_series([_stored()], recalls, now, samples=0)
    signals = Signals(T0, None, 0, INITIAL_STABILITY_DAYS)
    expected = [1.0]
    for at in recalls:
        expected.append(strength(signals, at))
        signals = reinforce(signals, at)
        expected.append(strength(signals, at))
    expected.append(strength(signals, now))
    assert [p.value for p in s.strength] == pytest.approx(expected)
    assert s.strength[-1].at == now
    assert s.recalls == 3
    assert [m.type for m in s.marks] == ["recall"] * 3


def test_every_series_runs_forward_within_0_and_1() -> None:
    events = _stream()
    recalls = [T0 + timedelta(days=d) for d in (2, 15, 15, 33)]
    s = spine_series(events, recalls, T0 + timedelta(days=800))
    for points in _all_series(s):
        assert _in_time_order(points)
        assert all(0.0 <= p.value <= 1.0 for p in points)
        assert points[0].at == s.start and points[-1].at == s.end
    assert _in_time_order(tuple(SeriesPoint(m.at, m.value) for m in s.marks))
    assert [m.type for m in s.marks if m.type != "recall"] == [
        FactConfirmed.TYPE,
        FactContradicted.TYPE,
        FactEvidenceAdded.TYPE,
    ]
    confirmed = next(m for m in s.marks if m.type == FactConfirmed.TYPE)
    who = (confirmed.actor, confirmed.actor_kind, confirmed.reason)
    assert who == ("alice", "person", "seen it")


def test_a_fact_dated_before_its_events_keeps_time_running_forward() -> None:
    """Stored with an earlier date (an import), vouched for before that date in log time:
    the event is placed at creation, never before it."""
    old = T0 - timedelta(days=100)
    events = [_stored(at=old), _event(2, FactConfirmed(FID), T0)]
    early = [_stored(at=T0 + timedelta(days=5)), _event(2, FactConfirmed(FID), T0)]
    for stream in (events, early):
        s = spine_series(stream, [T0 - timedelta(days=200)], T0 + timedelta(days=10))
        for points in _all_series(s):
            assert _in_time_order(points)
            assert points[0].at == s.start


def test_a_fact_read_at_its_creation_has_one_moment() -> None:
    s = spine_series([_stored()], [], T0)
    assert s.start == s.end == T0
    assert s.confidence[0].value == s.confidence[-1].value
    assert s.strength[-1].value == 1.0


def test_a_series_starts_from_the_stored_event() -> None:
    with pytest.raises(ValueError):
        spine_series([], [], T0)
    with pytest.raises(ValueError):
        spine_series([_event(2, FactConfirmed(FID), T0)], [], T0)


def test_each_mark_carries_the_three_values_after_it() -> None:
    events = _stream()
    same_time = T0 + timedelta(days=10)  # a recall at the confirm's moment
    s = spine_series(events, [same_time], T0 + timedelta(days=40))
    confirm, recall = s.marks[0], s.marks[1]
    assert (confirm.type, recall.type) == (FactConfirmed.TYPE, RECALL)
    assert confirm.at == recall.at == same_time
    assert recall.confidence == confirm.confidence  # a recall moves no confidence
    assert recall.strength == recall.value == 1.0
    assert confirm.strength < 1.0 and confirm.value == confirm.confidence
    assert confirm.effective == pytest.approx(confirm.confidence)  # just confirmed
