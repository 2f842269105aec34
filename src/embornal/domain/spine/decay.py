"""Time decay of confidence (docs/model.md, The spine): each kind's half-life, staleness threshold
and ephemeral horizon, and ``c_eff`` with staleness for a fact as the projection holds it.

Light on purpose: recall ranks with staleness, and its start-up path imports neither the
spine values nor the confidence maths (:mod:`embornal.domain.spine.confidence` builds on this
table and re-exports it).

    c_eff = c · 2^(−Δt / halflife(kind)),  Δt in days since last_confirmed_at ?? created_at
    stale = c_eff below the kind's threshold; a permanent lifetime or an exempt status (an
            active project) stops the clock: then c itself is compared
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from embornal.domain.records import record
from embornal.domain.spine.strength import elapsed_days

__all__ = ["DECAY", "DEFAULT_DECAY", "KindDecay", "decay_of", "effective_confidence", "staleness"]


@record
class KindDecay:
    """One row of the decay table (docs/model.md, The spine): half-life, staleness threshold
    on ``c_eff``, the ephemeral horizon, and the ``status`` values exempt from time (an
    active project)."""

    halflife_days: float
    stale_below: float
    ephemeral_days: float = 1.0
    exempt_statuses: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not (self.halflife_days > 0 and self.ephemeral_days > 0):
            raise ValueError("half-life and ephemeral horizon must be positive")
        if not 0.0 <= self.stale_below <= 1.0:
            raise ValueError(f"a staleness threshold {self.stale_below!r} is outside 0..1")


_LONG = KindDecay(730.0, 0.30)
_YEAR = KindDecay(365.0, 0.35)
_HALF = KindDecay(180.0, 0.40)

DECAY: Mapping[str, KindDecay] = MappingProxyType(
    {
        "person": _LONG,
        "organization": _LONG,
        "location": _LONG,
        "preference": _YEAR,
        "skill": _YEAR,
        "fact": _YEAR,
        "goal": _HALF,
        "project": KindDecay(180.0, 0.40, exempt_statuses=frozenset({"active"})),
        "asset": _HALF,
        "relationship": _HALF,
        "contact": _HALF,
        "event": KindDecay(30.0, 0.50),
    }
)
DEFAULT_DECAY = _YEAR  # a kind the table does not name decays like a fact


def decay_of(kind: str, table: Mapping[str, KindDecay] = DECAY) -> KindDecay:
    return table.get(kind, DEFAULT_DECAY)


def effective_confidence(c: float, row: KindDecay, since: datetime, now: datetime) -> float:
    """c · 2^(−days / halflife), days from ``since`` to ``now`` (a future ``since``: now)."""
    return c * math.pow(2.0, -elapsed_days(since, now) / row.halflife_days)


def staleness(
    c: float,
    kind: str,
    since: datetime,
    now: datetime,
    *,
    status: object = None,
    permanent: bool = False,
    table: Mapping[str, KindDecay] = DECAY,
) -> tuple[float, bool]:
    """``(c_eff, stale)`` of a fact at ``now``; ``c_eff`` is ``c`` when time is stopped
    (a permanent lifetime, an exempt status)."""
    row = decay_of(kind, table)
    timeless = permanent or (isinstance(status, str) and status in row.exempt_statuses)
    value = c if timeless else effective_confidence(c, row, since, now)
    return value, value < row.stale_below
