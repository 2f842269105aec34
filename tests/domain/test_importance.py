"""Importance and lifetime on the fact aggregate (decisions 0034, 0035): pin, unpin,
a user weight, a lifetime, decided purely and folded from the stream; the spine's part of
a recall score."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from embornal.domain.events import (
    EVENTS,
    FactForgotten,
    FactImportanceAdjusted,
    FactLifetimeChanged,
)
from embornal.domain.events.protocol import MemoryUnpinNoop
from embornal.domain.facts.aggregate import StoreFact, decide_store, evolve, fold
from embornal.domain.recall.ranking import SPINE_WEIGHTS, spine_lift
from embornal.domain.spine.decay import staleness
from embornal.domain.spine.decisions import (
    PinFact,
    SetLifetime,
    SetWeight,
    decide_pin,
    decide_set_lifetime,
    decide_set_weight,
)
from embornal.domain.spine.justification import LifetimePolicy, check_weight, read_lifetime
from embornal.errors import Conflict, InvalidImportance, InvalidLifetime

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def _state(**store: object):  # type: ignore[no-untyped-def]
    return fold(decide_store(StoreFact("F1", "/a", "a fact", "me", **store), NOW))  # type: ignore[arg-type]


def test_pin_and_unpin_are_one_event_each_with_the_importance_before() -> None:
    state = _state()
    assert not state.pinned and state.user_weight is None
    (pin,) = decide_pin(state, PinFact("F1", True), NOW)
    assert pin == FactImportanceAdjusted("F1", True, None, False, None)
    pinned = evolve(state, pin)
    assert pinned.pinned and pinned.version == 2
    (unpin,) = decide_pin(pinned, PinFact("F1", False), NOW)
    assert unpin == FactImportanceAdjusted("F1", False, None, True, None)
    assert not evolve(pinned, unpin).pinned


def test_a_command_that_changes_nothing_decides_no_event() -> None:
    state = _state()
    # An unpin of an unpinned fact changes nothing but is audited (decision 0065).
    assert decide_pin(state, PinFact("F1", False), NOW) == [MemoryUnpinNoop("F1")]
    pinned = evolve(state, decide_pin(state, PinFact("F1", True), NOW)[0])
    assert decide_pin(pinned, PinFact("F1", True), NOW) == []
    weighted = evolve(pinned, decide_set_weight(pinned, SetWeight("F1", 0.8), NOW)[0])
    assert decide_set_weight(weighted, SetWeight("F1", 0.8), NOW) == []
    assert decide_set_lifetime(state, SetLifetime("F1", "standard"), NOW) == []


def test_a_weight_keeps_the_pin_and_none_takes_the_weight_off() -> None:
    pinned = evolve(_state(), FactImportanceAdjusted("F1", True))
    (event,) = decide_set_weight(pinned, SetWeight("F1", "0.25"), NOW)
    assert event == FactImportanceAdjusted("F1", True, 0.25, True, None)
    weighted = evolve(pinned, event)
    assert weighted.user_weight == 0.25 and weighted.pinned
    (off,) = decide_set_weight(weighted, SetWeight("F1", None), NOW)
    assert off.user_weight is None and off.previous_user_weight == 0.25


@pytest.mark.parametrize("bad", [1.5, -0.1, float("nan"), True, "heavy", [1]])
def test_a_weight_outside_0_to_1_is_one_error_naming_the_range(bad: object) -> None:
    with pytest.raises(InvalidImportance, match=r"0 to 1|0\.\.1"):
        decide_set_weight(_state(), SetWeight("F1", bad), NOW)
    with pytest.raises(InvalidImportance):
        check_weight(bad)


def test_only_an_active_fact_is_pinned_weighted_or_given_a_lifetime() -> None:
    gone = evolve(_state(), FactForgotten("F1"))
    for decide, command in (
        (decide_pin, PinFact("F1", True)),
        (decide_set_weight, SetWeight("F1", 0.3)),
        (decide_set_lifetime, SetLifetime("F1", "permanent")),
    ):
        with pytest.raises(Conflict, match="forgotten; only an active fact"):
            decide(gone, command, NOW)  # type: ignore[operator]


def test_a_lifetime_at_store_and_later_folds_with_the_time_it_was_set() -> None:
    (stored,) = decide_store(StoreFact("F1", "/a", "x", "me", lifetime="until:2026-05-03"), NOW)
    assert stored.lifetime == "until:2026-05-03"
    assert EVENTS.to_payload(stored)["lifetime"] == "until:2026-05-03"
    (plain,) = decide_store(StoreFact("F2", "/a", "x", "me", lifetime="standard"), NOW)
    assert plain.lifetime is None and "lifetime" not in EVENTS.to_payload(plain)
    state = evolve(None, stored, at=NOW)
    assert state.lifetime == read_lifetime("until:2026-05-03") and state.lifetime_since == NOW
    later = NOW + timedelta(days=3)
    (change,) = decide_set_lifetime(state, SetLifetime("F1", "ephemeral"), later)
    assert change == FactLifetimeChanged("F1", "ephemeral", "until:2026-05-03")
    after = evolve(state, change, at=later)
    assert after.lifetime.policy is LifetimePolicy.EPHEMERAL and after.lifetime_since == later
    # Ephemeral again restarts its horizon: an event, though the policy is the same.
    assert decide_set_lifetime(after, SetLifetime("F1", "ephemeral"), later) != []


@pytest.mark.parametrize(
    "bad", ["until:2026-04-30", "forever", "until:tomorrow", "", "until:", "standard:x"]
)
def test_an_unknown_lifetime_or_an_until_in_the_past_is_refused(bad: str) -> None:
    with pytest.raises(InvalidLifetime):
        decide_store(StoreFact("F1", "/a", "x", "me", lifetime=bad), NOW)
    with pytest.raises(InvalidLifetime):
        decide_set_lifetime(_state(), SetLifetime("F1", bad), NOW)


def test_an_until_of_today_is_allowed_it_lives_through_the_day() -> None:
    (stored,) = decide_store(StoreFact("F1", "/a", "x", "me", lifetime="until:2026-05-01"), NOW)
    life = read_lifetime(stored.lifetime)
    assert life.expires_at == datetime(2026, 5, 2, tzinfo=UTC)


def test_the_spine_adds_exactly_nothing_for_the_default_values() -> None:
    """A person's fact (c = 0.95), not stale, not pinned, no weight: today's ranking."""
    assert spine_lift(0.95, False, False, None) == 0.0
    assert spine_lift(None, False, False, None) == 0.0
    assert spine_lift(0.95, False, False, 0.5) == 0.0  # the neutral weight
    for total in (0.0, 0.123456789, 1.5, 2.7182818):
        assert total + spine_lift(0.95, False, False, None) == total


def test_the_spine_lifts_pins_and_weights_and_lowers_doubt_and_staleness() -> None:
    base = spine_lift(0.95, False, False, None)
    assert spine_lift(0.95, False, True, None) == pytest.approx(base + SPINE_WEIGHTS.pinned)
    assert spine_lift(0.95, True, False, None) == pytest.approx(base - SPINE_WEIGHTS.stale)
    assert spine_lift(0.95, False, False, 1.0) > base > spine_lift(0.95, False, False, 0.0)
    assert spine_lift(0.475, False, False, None) < base < spine_lift(0.99, False, False, None)
    # Small beside a keyword match (0..1): every part at its most moves under 0.5.
    assert abs(spine_lift(0.0, True, False, 0.0)) < 0.5 and spine_lift(1.0, False, True, 1.0) < 0.5


def test_staleness_follows_the_kinds_table_and_a_permanent_lifetime_stops_the_clock() -> None:
    since = NOW - timedelta(days=365)
    c_eff, stale = staleness(0.95, "fact", since, NOW)
    assert c_eff == pytest.approx(0.475) and not stale  # one half-life: 0.475 ≥ 0.35
    c_eff, stale = staleness(0.95, "fact", NOW - timedelta(days=730), NOW)
    assert c_eff == pytest.approx(0.2375) and stale
    assert staleness(0.95, "fact", NOW - timedelta(days=730), NOW, permanent=True) == (0.95, False)
    assert staleness(0.95, "project", since - timedelta(days=900), NOW, status="active")[1] is False
    assert staleness(0.95, "event", NOW - timedelta(days=90), NOW)[1] is True
