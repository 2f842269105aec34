"""Confidence: how sure the memory is that a fact is (still) true (docs/model.md, The spine).

    prior            by who stated it: person 0.95, assistant 0.60, import 0.70, system 0.70
    confirm          c' = c + (1 − c)·w          w by who confirms (person > assistant)
    contradict       c' = c·(1 − w)
    evidence added   a weak confirm (w = 0.1)
    effective        c_eff = c · 2^(−Δt / halflife(kind)),  Δt since last_confirmed_at ?? created_at
    stale            c_eff below the kind's threshold

"Confidence never changes without an event or the passage of time." The stored signals
are the prior (or the confidence given at creation) and the confirm / contradict / evidence
events; :func:`fold_confidence` applies them in log order. ``c_eff`` and staleness are
derived at query time with the clock passed in, never written back. Every constant lives in
one :class:`ConfidenceTable` (:data:`DEFAULT_CONFIDENCE`), so the whole corpus can be
re-scored after a retune without touching history.

Choices made here (decision 0032):

- ``system`` (the memory itself: its guide, reconciliation, maintenance) starts at 0.70,
  the prior of imported or reconciled material: its word is not a person's.
- Confirm and contradict weights: person 0.5, assistant 0.2, system 0.2, import 0.2. A
  person's confirmation closes half the gap to 1; two assistant confirmations of an
  assistant-inferred 0.60 give 0.744.
- Attaching evidence is a confirm of weight 0.1 whoever attaches it, and counts as a
  confirmation for ``last_confirmed_at`` ("a human or corroborating source last vouch[ed]").
- Review threshold 0.5: below it after a contradiction, the pair goes to the conflict queue.
- A ``permanent`` lifetime, and an ``active`` project ("project (active exempt)"), are
  exempt from time: their staleness is judged on ``c`` itself, so only contradictions can
  make them stale. Ephemeral memories expire one day after creation (every kind, tunable).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from types import MappingProxyType

from embornal.domain.events import ActorKind
from embornal.domain.spine.decay import DECAY, DEFAULT_DECAY, KindDecay
from embornal.domain.spine.justification import Lifetime, LifetimePolicy
from embornal.domain.spine.strength import elapsed_days
from embornal.domain.values import value
from embornal.errors import InvalidConfidence, InvalidInput

__all__ = [
    "DEFAULT_CONFIDENCE",
    "ConfidenceStep",
    "ConfidenceTable",
    "KindDecay",
    "StepKind",
    "anchor",
    "check_confidence",
    "confirm",
    "confirm_weight",
    "contradict",
    "contradict_weight",
    "decay_for",
    "effective",
    "expires_at",
    "fold_confidence",
    "is_expired",
    "is_stale",
    "needs_review",
    "prior",
    "step_weight",
]


def check_confidence(value: object, what: str = "confidence") -> float:
    """``value`` as a float in 0..1, or :class:`InvalidConfidence`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidConfidence(f"{what} must be a number from 0 to 1, not {type(value).__name__}")
    number = float(value)
    if not (math.isfinite(number) and 0.0 <= number <= 1.0):
        raise InvalidConfidence(f"{what} {value!r} is outside 0..1")
    return number


_DECAY = DECAY
_YEAR = DEFAULT_DECAY


def _by_actor(
    person: float, assistant: float, system: float, imported: float
) -> Mapping[str, float]:
    return MappingProxyType(
        {
            ActorKind.PERSON.value: person,
            ActorKind.ASSISTANT.value: assistant,
            ActorKind.SYSTEM.value: system,
            ActorKind.IMPORT.value: imported,
        }
    )


@dataclass(frozen=True, eq=False)
class ConfidenceTable:
    """Every tunable constant of confidence, in one place (values: see the module doc)."""

    priors: Mapping[str, float] = field(default_factory=lambda: _by_actor(0.95, 0.60, 0.70, 0.70))
    confirm_weights: Mapping[str, float] = field(
        default_factory=lambda: _by_actor(0.5, 0.2, 0.2, 0.2)
    )
    contradict_weights: Mapping[str, float] = field(
        default_factory=lambda: _by_actor(0.5, 0.2, 0.2, 0.2)
    )
    evidence_weight: float = 0.1
    review_below: float = 0.5
    decay: Mapping[str, KindDecay] = field(default_factory=lambda: _DECAY)
    default_decay: KindDecay = _YEAR  # a kind the table does not name decays like a fact

    def __post_init__(self) -> None:
        for name in ("priors", "confirm_weights", "contradict_weights"):
            table: Mapping[str, float] = getattr(self, name)
            for actor in ActorKind:
                if actor.value not in table:
                    raise ValueError(f"{name} has no value for {actor.value}")
                check_confidence(table[actor.value], f"{name}[{actor.value}]")
        check_confidence(self.evidence_weight, "the evidence weight")
        check_confidence(self.review_below, "the review threshold")


DEFAULT_CONFIDENCE = ConfidenceTable()


def _actor(actor_kind: ActorKind | str) -> str:
    try:
        return ActorKind(actor_kind).value
    except ValueError:
        allowed = ", ".join(a.value for a in ActorKind)
        raise InvalidInput(
            f"actor kind {str(actor_kind)[:40]!r} is not one of: {allowed}"
        ) from None


def prior(actor_kind: ActorKind | str, table: ConfidenceTable = DEFAULT_CONFIDENCE) -> float:
    """The confidence of a new memory stated by ``actor_kind`` (when none is given)."""
    known = table.priors.get(actor_kind)  # a valid kind (or its text): no enum call
    return known if known is not None else table.priors[_actor(actor_kind)]


def confirm_weight(
    actor_kind: ActorKind | str, table: ConfidenceTable = DEFAULT_CONFIDENCE
) -> float:
    return table.confirm_weights[_actor(actor_kind)]


def contradict_weight(
    actor_kind: ActorKind | str, table: ConfidenceTable = DEFAULT_CONFIDENCE
) -> float:
    return table.contradict_weights[_actor(actor_kind)]


def confirm(c: float, w: float) -> float:
    """c' = c + (1 − c)·w: toward 1, never past it."""
    c, w = check_confidence(c), check_confidence(w, "a weight")
    return min(1.0, max(c, c + (1.0 - c) * w))


def contradict(c: float, w: float) -> float:
    """c' = c·(1 − w): toward 0, never below it."""
    c, w = check_confidence(c), check_confidence(w, "a weight")
    return max(0.0, min(c, c * (1.0 - w)))


def needs_review(c: float, table: ConfidenceTable = DEFAULT_CONFIDENCE) -> bool:
    """Below the review threshold a contradicted pair enters the conflict queue (decision 0060)."""
    return check_confidence(c) < table.review_below


def decay_for(kind: str, table: ConfidenceTable = DEFAULT_CONFIDENCE) -> KindDecay:
    return table.decay.get(kind, table.default_decay)


def anchor(last_confirmed_at: datetime | None, created_at: datetime) -> datetime:
    """The moment decay counts from: last_confirmed_at ?? created_at."""
    return last_confirmed_at if last_confirmed_at is not None else created_at


def effective(
    c: float,
    kind: str,
    since: datetime,
    now: datetime,
    table: ConfidenceTable = DEFAULT_CONFIDENCE,
) -> float:
    """c_eff = c · 2^(−Δt / halflife(kind)), Δt in days from ``since`` (see :func:`anchor`)
    to ``now``; a ``since`` in the future counts as now."""
    days = elapsed_days(since, now)
    return check_confidence(c) * math.pow(2.0, -days / decay_for(kind, table).halflife_days)


def is_stale(
    c: float,
    kind: str,
    since: datetime,
    now: datetime,
    *,
    status: str | None = None,
    lifetime: Lifetime | None = None,
    table: ConfidenceTable = DEFAULT_CONFIDENCE,
) -> bool:
    """c_eff below the kind's staleness threshold. A permanent lifetime or an exempt
    ``status`` (an active project) stops the clock: then ``c`` itself is compared."""
    row = decay_for(kind, table)
    timeless = (lifetime is not None and lifetime.policy is LifetimePolicy.PERMANENT) or (
        status is not None and status in row.exempt_statuses
    )
    value = check_confidence(c) if timeless else effective(c, kind, since, now, table)
    return value < row.stale_below


def expires_at(
    lifetime: Lifetime,
    kind: str,
    created_at: datetime,
    table: ConfidenceTable = DEFAULT_CONFIDENCE,
) -> datetime | None:
    """When the lifetime asks for the memory to be archived: the day after ``until``, or the
    kind's ephemeral horizon after creation; ``None`` for permanent and standard."""
    if lifetime.policy is LifetimePolicy.UNTIL:
        return lifetime.expires_at
    if lifetime.policy is LifetimePolicy.EPHEMERAL:
        return created_at + timedelta(days=decay_for(kind, table).ephemeral_days)
    return None


def is_expired(
    lifetime: Lifetime,
    kind: str,
    created_at: datetime,
    now: datetime,
    table: ConfidenceTable = DEFAULT_CONFIDENCE,
) -> bool:
    end = expires_at(lifetime, kind, created_at, table)
    return end is not None and now >= end


class StepKind(StrEnum):
    CONFIRM = "confirm"
    CONTRADICT = "contradict"
    EVIDENCE = "evidence"


@value
class ConfidenceStep:
    """One confidence event as the fold sees it: what happened and who did it. ``weight``
    overrides the table (``None``: the table's weight, so a retune re-scores history)."""

    kind: StepKind
    actor_kind: ActorKind
    weight: float | None = None


def step_weight(step: ConfidenceStep, table: ConfidenceTable = DEFAULT_CONFIDENCE) -> float:
    if step.weight is not None:
        return check_confidence(step.weight, "a weight")
    if step.kind is StepKind.EVIDENCE:
        return table.evidence_weight
    if step.kind is StepKind.CONFIRM:
        return confirm_weight(step.actor_kind, table)
    return contradict_weight(step.actor_kind, table)


def fold_confidence(
    start: float,
    steps: Iterable[ConfidenceStep],
    table: ConfidenceTable = DEFAULT_CONFIDENCE,
) -> float:
    """The confidence after ``steps`` in log order, from ``start`` (the prior, or the
    confidence given at creation). Two racing confirms give the maths applied in log order."""
    c = check_confidence(start)
    for step in steps:
        w = step_weight(step, table)
        c = contradict(c, w) if step.kind is StepKind.CONTRADICT else confirm(c, w)
    return c
