"""Confidence (docs/model.md, The spine; decision 0032), each rule quoted.

"Priors by source (constants live in one config module, tunable): user-stated ≈ 0.95,
assistant-inferred ≈ 0.60, imported/reconciled ≈ 0.70."
"MemoryConfirmed … c' = c + (1−c)·w, where w is the confirmer's weight (user > assistant)."
"Attaching corroborating evidence is a weak confirm."
"MemoryContradicted … decays confidence multiplicatively — c' = c·(1−w)".
"c_eff = c · 2^(−Δt / halflife). Derived at query time / in the projection — never written
back to the log." "c_eff below the kind's staleness threshold ⇒ stale".
"person, organization, location 730 d 0.30; preference, skill, fact 365 d 0.35; goal,
project (active exempt), asset, relationship, contact 180 d 0.40; event (episodic) 30 d 0.50".
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta
from functools import reduce

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embornal.domain.events import ActorKind
from embornal.domain.kinds import Kind
from embornal.domain.spine.confidence import (
    DEFAULT_CONFIDENCE,
    ConfidenceStep,
    ConfidenceTable,
    KindDecay,
    StepKind,
    anchor,
    check_confidence,
    confirm,
    confirm_weight,
    contradict,
    contradict_weight,
    decay_for,
    effective,
    expires_at,
    fold_confidence,
    is_expired,
    is_stale,
    needs_review,
    prior,
    step_weight,
)
from embornal.domain.spine.justification import Lifetime, LifetimePolicy
from embornal.errors import InvalidConfidence, InvalidInput

T0 = datetime(2026, 1, 1, tzinfo=UTC)
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
actors = st.sampled_from(list(ActorKind))


def test_priors_by_source() -> None:
    assert prior(ActorKind.PERSON) == 0.95
    assert prior(ActorKind.ASSISTANT) == 0.60
    assert prior(ActorKind.IMPORT) == 0.70
    assert prior("system") == 0.70
    with pytest.raises(InvalidInput, match="person, assistant, system, import"):
        prior("robot")


def test_a_person_weighs_more_than_an_assistant() -> None:
    """ "w is the confirmer's weight (user > assistant)" """
    assert confirm_weight(ActorKind.PERSON) > confirm_weight(ActorKind.ASSISTANT)
    assert contradict_weight(ActorKind.PERSON) > contradict_weight(ActorKind.ASSISTANT)
    evidence = step_weight(ConfidenceStep(StepKind.EVIDENCE, ActorKind.PERSON))
    assert 0 < evidence < min(DEFAULT_CONFIDENCE.confirm_weights.values()), "a weak confirm"


def test_confirm_and_contradict_are_the_seeds_formulas() -> None:
    """c' = c + (1−c)·w and c' = c·(1−w)"""
    assert confirm(0.6, 0.5) == pytest.approx(0.6 + 0.4 * 0.5)
    assert contradict(0.95, 0.5) == pytest.approx(0.475)
    assert confirm(confirm(0.6, 0.2), 0.2) == pytest.approx(0.744)


@given(unit, unit)
def test_confirm_never_decreases_and_stays_at_most_one(c: float, w: float) -> None:
    after = confirm(c, w)
    assert c <= after <= 1.0
    assert after == pytest.approx(c + (1 - c) * w)


@given(unit, unit)
def test_contradict_never_increases_and_stays_at_least_zero(c: float, w: float) -> None:
    after = contradict(c, w)
    assert 0.0 <= after <= c
    assert after == pytest.approx(c * (1 - w))


@pytest.mark.parametrize("bad", [-0.01, 1.01, float("nan"), float("inf"), "0.5", True, None])
def test_confidence_outside_0_to_1_is_refused(bad: object) -> None:
    with pytest.raises(InvalidConfidence):
        check_confidence(bad)
    with pytest.raises(InvalidConfidence):
        confirm(bad, 0.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidConfidence):
        contradict(0.5, bad)  # type: ignore[arg-type]


# -- time ------------------------------------------------------------------------------------

TABLE = [
    (Kind.PERSON, 730, 0.30),
    (Kind.ORGANIZATION, 730, 0.30),
    (Kind.LOCATION, 730, 0.30),
    (Kind.PREFERENCE, 365, 0.35),
    (Kind.SKILL, 365, 0.35),
    (Kind.FACT, 365, 0.35),
    (Kind.GOAL, 180, 0.40),
    (Kind.PROJECT, 180, 0.40),
    (Kind.ASSET, 180, 0.40),
    (Kind.RELATIONSHIP, 180, 0.40),
    (Kind.CONTACT, 180, 0.40),
    (Kind.EVENT, 30, 0.50),
]


@pytest.mark.parametrize(("kind", "halflife", "threshold"), TABLE)
def test_the_half_life_and_staleness_table(kind: Kind, halflife: int, threshold: float) -> None:
    row = decay_for(kind)
    assert (row.halflife_days, row.stale_below) == (halflife, threshold)


def test_every_kind_is_in_the_table_and_an_unknown_one_decays_like_a_fact() -> None:
    assert set(DEFAULT_CONFIDENCE.decay) == {k.value for k in Kind}
    assert decay_for("note") == decay_for(Kind.FACT)


@given(unit, st.sampled_from([k for k, _, _ in TABLE]))
def test_c_eff_halves_at_one_half_life(c: float, kind: Kind) -> None:
    """c_eff = c · 2^(−Δt / halflife)"""
    h = decay_for(kind).halflife_days
    assert effective(c, kind, T0, T0) == c
    assert effective(c, kind, T0, T0 + timedelta(days=h)) == pytest.approx(c / 2)
    assert effective(c, kind, T0, T0 + timedelta(days=2 * h)) == pytest.approx(c / 4)


@given(unit, st.floats(min_value=0, max_value=5_000), st.floats(min_value=0, max_value=5_000))
def test_c_eff_only_falls_with_time(c: float, d1: float, d2: float) -> None:
    early, late = sorted((d1, d2))
    a = effective(c, "fact", T0, T0 + timedelta(days=early))
    b = effective(c, "fact", T0, T0 + timedelta(days=late))
    assert 0 <= b <= a <= c


def test_decay_counts_from_the_last_confirmation_else_creation() -> None:
    """ "time since last_confirmed_at ?? created_at" """
    confirmed = T0 + timedelta(days=100)
    assert anchor(None, T0) == T0
    assert anchor(confirmed, T0) == confirmed
    assert effective(0.8, "event", T0 + timedelta(days=5), T0) == 0.8, "future counts as now"


def test_staleness_is_c_eff_below_the_kinds_threshold() -> None:
    # A person-stated fact (0.95) falls below 0.35 after log2(0.95/0.35) half-lives of 365 d.
    days = 365 * math.log2(0.95 / 0.35)
    assert not is_stale(0.95, "fact", T0, T0 + timedelta(days=days - 1))
    assert is_stale(0.95, "fact", T0, T0 + timedelta(days=days + 1))
    # An event decays fastest: 0.60 is stale a little after 8 days (0.6·2^(−8/30) ≈ 0.50).
    assert not is_stale(0.60, "event", T0, T0 + timedelta(days=7))
    assert is_stale(0.60, "event", T0, T0 + timedelta(days=9))


def test_an_active_project_is_exempt_from_the_clock() -> None:
    """ "project (active exempt)" """
    years_later = T0 + timedelta(days=3 * 365)
    assert is_stale(0.9, "project", T0, years_later, status="paused")
    assert not is_stale(0.9, "project", T0, years_later, status="active")
    # The exemption stops the clock, not the evidence: a much-contradicted project is stale.
    assert is_stale(0.3, "project", T0, T0, status="active")
    # "active" exempts a project only.
    assert is_stale(0.9, "goal", T0, years_later, status="active")


def test_a_permanent_lifetime_is_exempt_from_the_clock() -> None:
    """ "permanent (never auto-archived: pins, identity-level facts)" """
    decades = T0 + timedelta(days=30 * 365)
    permanent = Lifetime(LifetimePolicy.PERMANENT)
    assert not is_stale(0.95, "person", T0, decades, lifetime=permanent)
    assert is_stale(0.95, "person", T0, decades, lifetime=Lifetime(LifetimePolicy.STANDARD))
    assert is_stale(0.2, "person", T0, T0, lifetime=permanent)


def test_lifetimes_expire_at_their_date_or_the_ephemeral_horizon() -> None:
    until = Lifetime(LifetimePolicy.UNTIL, date(2026, 1, 3))
    assert expires_at(until, "fact", T0) == datetime(2026, 1, 4, tzinfo=UTC)
    assert not is_expired(until, "fact", T0, datetime(2026, 1, 3, 23, 59, tzinfo=UTC))
    assert is_expired(until, "fact", T0, datetime(2026, 1, 4, tzinfo=UTC))
    ephemeral = Lifetime(LifetimePolicy.EPHEMERAL)
    assert expires_at(ephemeral, "event", T0) == T0 + timedelta(days=1)
    for policy in (LifetimePolicy.PERMANENT, LifetimePolicy.STANDARD):
        assert expires_at(Lifetime(policy), "fact", T0) is None
        assert not is_expired(Lifetime(policy), "fact", T0, T0 + timedelta(days=10**5))


def test_the_review_threshold() -> None:
    """ "Below the review threshold ⇒ the pair enters the conflict queue" """
    person_contradicts_user_stated = contradict(prior("person"), contradict_weight("person"))
    assert needs_review(person_contradicts_user_stated)
    assert not needs_review(contradict(prior("person"), contradict_weight("assistant")))


def test_the_table_is_tunable_and_checked() -> None:
    table = ConfidenceTable(
        evidence_weight=0.05,
        decay={**DEFAULT_CONFIDENCE.decay, "event": KindDecay(7.0, 0.5)},
    )
    assert effective(1.0, "event", T0, T0 + timedelta(days=7), table) == pytest.approx(0.5)
    assert step_weight(ConfidenceStep(StepKind.EVIDENCE, ActorKind.ASSISTANT), table) == 0.05
    with pytest.raises(InvalidConfidence):
        ConfidenceTable(review_below=1.5)
    with pytest.raises(ValueError, match="no value for import"):
        ConfidenceTable(priors={"person": 0.9, "assistant": 0.5, "system": 0.5})
    with pytest.raises(ValueError, match="must be positive"):
        KindDecay(0.0, 0.3)


# -- folding ---------------------------------------------------------------------------------

steps = st.lists(
    st.builds(
        ConfidenceStep,
        st.sampled_from(list(StepKind)),
        actors,
        st.one_of(st.none(), unit),
    ),
    max_size=12,
)


def _apply(c: float, step: ConfidenceStep) -> float:
    w = step_weight(step)
    return contradict(c, w) if step.kind is StepKind.CONTRADICT else confirm(c, w)


@given(unit, steps)
def test_folding_applies_the_steps_in_log_order(start: float, log: list[ConfidenceStep]) -> None:
    """Two processes racing confirms must give "the maths applied in log order"."""
    assert fold_confidence(start, log) == reduce(_apply, log, start)
    assert 0.0 <= fold_confidence(start, log) <= 1.0


@given(unit, unit, unit)
def test_order_matters_exactly_as_the_maths_says(c: float, w1: float, w2: float) -> None:
    """confirm(w1) then contradict(w2) ends lower by exactly w1·w2 than the reverse order:
    (c + (1−c)·w1)·(1−w2)  −  (c·(1−w2) + (1 − c·(1−w2))·w1)  =  −w1·w2."""
    up = ConfidenceStep(StepKind.CONFIRM, ActorKind.PERSON, w1)
    down = ConfidenceStep(StepKind.CONTRADICT, ActorKind.PERSON, w2)
    confirm_first = fold_confidence(c, [up, down])
    contradict_first = fold_confidence(c, [down, up])
    assert confirm_first - contradict_first == pytest.approx(-w1 * w2, abs=1e-12)


@given(unit, st.lists(unit, max_size=6))
def test_confirms_alone_commute(c: float, weights: list[float]) -> None:
    """Racing confirms: 1 − (1−c)·Π(1−w) whatever the order."""
    log = [ConfidenceStep(StepKind.CONFIRM, ActorKind.ASSISTANT, w) for w in weights]
    expected = 1 - (1 - c) * math.prod(1 - w for w in weights)
    assert fold_confidence(c, log) == pytest.approx(expected, abs=1e-12)
    assert fold_confidence(c, log[::-1]) == pytest.approx(expected, abs=1e-12)


def test_fold_uses_the_table_weights_so_a_retune_rescores_history() -> None:
    log = [
        ConfidenceStep(StepKind.CONFIRM, ActorKind.PERSON),
        ConfidenceStep(StepKind.EVIDENCE, ActorKind.ASSISTANT),
        ConfidenceStep(StepKind.CONTRADICT, ActorKind.ASSISTANT),
    ]
    c = fold_confidence(prior("assistant"), log)
    assert c == pytest.approx(contradict(confirm(confirm(0.60, 0.5), 0.1), 0.2))
    softer = ConfidenceTable(confirm_weights={a.value: 0.1 for a in ActorKind})
    assert fold_confidence(0.60, log, softer) < c
    with pytest.raises(InvalidConfidence):
        fold_confidence(1.2, log)
