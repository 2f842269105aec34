"""Signal strength: how findable a fact still is (docs/model.md, The spine).

    strength  = exp(-elapsed_days / stability_days)
    stability = stability * (1 + 2.75 * (1 - strength))     on each recall

A new fact has a stability of one day. The database keeps created_at,
last_recall_at, recall_count and stability_days; strength is always derived
from them and the clock, never stored.
"""

from __future__ import annotations

import math
from datetime import datetime

from embornal.domain.records import record

__all__ = [
    "GAIN",
    "INITIAL_STABILITY_DAYS",
    "Signals",
    "elapsed_days",
    "reinforce",
    "strength",
]

INITIAL_STABILITY_DAYS = 1.0
GAIN = 2.75
_SECONDS_PER_DAY = 86_400.0


@record
class Signals:
    """The stored inputs of strength."""

    created_at: datetime
    last_recall_at: datetime | None
    recall_count: int
    stability_days: float

    @property
    def anchor(self) -> datetime:
        """The moment the clock of strength starts from."""
        return self.last_recall_at or self.created_at


def elapsed_days(since: datetime, now: datetime) -> float:
    """Days from ``since`` to ``now``; never negative (a fact dated in the future is fresh)."""
    return max(0.0, (now - since).total_seconds() / _SECONDS_PER_DAY)


def strength(signals: Signals, now: datetime) -> float:
    return math.exp(-elapsed_days(signals.anchor, now) / signals.stability_days)


def reinforce(signals: Signals, now: datetime) -> Signals:
    """The signals after a recall at ``now``: the spacing effect, no grade needed."""
    s = strength(signals, now)
    return Signals(
        created_at=signals.created_at,
        last_recall_at=now if now > signals.anchor else signals.anchor,
        recall_count=signals.recall_count + 1,
        stability_days=signals.stability_days * (1.0 + GAIN * (1.0 - s)),
    )
