"""Strength (docs/model.md, The spine), its rules quoted:
'strength = exp(-elapsed_days / stability_days)', 'A new fact has a stability of one day',
'stability = stability * (1 + 2.75 * (1 - strength))', and 'a fact that the reader recalls
on day 2, day 8, day 30 and day 90 reaches a stability of about 120 days. Two months after
that last recall the fact still holds 60 percent of its strength.'"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from embornal.domain.spine.strength import INITIAL_STABILITY_DAYS, Signals, reinforce, strength

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def new_signals() -> Signals:
    return Signals(T0, None, 0, INITIAL_STABILITY_DAYS)


def test_a_new_fact_has_a_stability_of_one_day_and_full_strength() -> None:
    s = new_signals()
    assert s.stability_days == 1.0
    assert strength(s, T0) == 1.0
    assert strength(s, T0 + timedelta(days=1)) == pytest.approx(math.exp(-1))


def test_recalls_on_days_2_8_30_90_reach_about_120_days() -> None:
    s = new_signals()
    for day in (2, 8, 30, 90):
        s = reinforce(s, T0 + timedelta(days=day))
    assert s.recall_count == 4
    assert s.stability_days == pytest.approx(120, abs=3)
    two_months_later = T0 + timedelta(days=90 + 60)
    assert strength(s, two_months_later) == pytest.approx(0.60, abs=0.02)


def test_a_recall_right_after_the_last_adds_almost_nothing() -> None:
    s = reinforce(new_signals(), T0 + timedelta(days=3))
    again = reinforce(s, T0 + timedelta(days=3, minutes=1))
    assert again.stability_days == pytest.approx(s.stability_days, rel=1e-3)


def test_a_fact_nearly_lost_gains_almost_3_75_times() -> None:
    s = Signals(T0, None, 0, 1.0)
    later = reinforce(s, T0 + timedelta(days=30))
    assert later.stability_days == pytest.approx(3.75, rel=1e-6)


def test_a_fact_dated_in_the_future_is_fresh_not_stronger_than_one() -> None:
    s = Signals(T0 + timedelta(days=5), None, 0, 1.0)
    assert strength(s, T0) == 1.0
