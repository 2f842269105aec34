"""The strongest live facts at a time, from two index range reads instead of a full scan.

A fact's strength at ``now`` is ``exp(-d / S)``: ``d`` the days since its anchor (its last
recall, else its creation; 0 for an anchor after ``now``) and ``S`` its stability. The order
changes with ``now`` (a fact of large ``S`` overtakes a fresher one of small ``S``), so no
single stored key gives it, but two bounds do (migration ``0023_strongest_indexes``):

1. **the most recent**: the ``limit`` live facts of latest anchor (index on the anchor),
   and among them the ``limit``-th strongest, of rate ``r = d / S`` (smaller: stronger);
2. **the stable enough**: a fact outside the first read has an anchor no later than the
   oldest in it, so ``d >= D`` (``D``: that oldest one's days); it can be stronger than the
   ``limit``-th only if ``d / S < r``, so only if ``S > D / r`` (index on stability). In a
   memory of facts never recalled (one stability) that read finds none.

Both reads go through the same scope and ``under`` filters; the union, ordered by
strength, then the newest first among equals, is exactly the full scan's first ``limit``
(a test compares them). Called by :meth:`SqliteStore.strongest`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from embornal.storage.kind_views import stored_time

__all__ = ["ANCHOR_SQL", "strongest_rows"]

Rows = Callable[[str, Sequence[Any]], list[Any]]

#: The anchor of a fact's strength: its last recall, else its creation (as the index has it).
ANCHOR_SQL = "coalesce(f.last_recall_at, f.created_at)"


def _days(row: Any, now: datetime) -> float:
    """Days since the row's anchor (0 for an anchor after ``now``)."""
    anchor = stored_time(row["last_recall_at"] or row["created_at"])
    return max(0.0, (now - anchor).total_seconds() / 86_400.0)


def strongest_rows(
    rows_of: Rows,
    select: str,
    where: str,
    params: Sequence[Any],
    now: datetime,
    limit: int,
) -> list[Any]:
    """The ``limit`` strongest rows at ``now`` of ``select … WHERE where`` (``where``
    holds the live, scope and ``under`` conditions, ``params`` their parameters)."""
    recent = rows_of(
        f"{select} WHERE {where} ORDER BY {ANCHOR_SQL} DESC, f.seq DESC LIMIT ?",
        (*params, limit),
    )
    rates = {r["seq"]: _days(r, now) / float(r["stability_days"]) for r in recent}
    if len(recent) < limit:  # every fact there is
        return _ordered(recent, rates)[:limit]
    worst_kept = sorted(rates.values())[limit - 1]
    oldest_days = _days(recent[-1], now)
    if worst_kept <= 0.0 or oldest_days <= 0.0:
        return _ordered(recent, rates)[:limit]  # nothing older can be stronger
    # Strictly more stable than needed: one exactly as stable is at best as strong as the
    # last kept, and a tie goes to the newer, which the first read has (within 1e-9).
    need = oldest_days / worst_kept
    stable = rows_of(
        f"{select} WHERE {where} AND f.stability_days > ? ORDER BY f.stability_days DESC",
        (*params, need * (1.0 + 1e-9)),
    )
    more = [r for r in stable if r["seq"] not in rates]
    for r in more:
        rates[r["seq"]] = _days(r, now) / float(r["stability_days"])
    return _ordered([*recent, *more], rates)[:limit]


def _ordered(rows: list[Any], rates: dict[Any, float]) -> list[Any]:
    """By strength (``exp(-rate)``), then the latest stored first (as the full scan orders)."""
    return sorted(rows, key=lambda r: (-math.exp(-rates[r["seq"]]), -int(r["seq"])))
