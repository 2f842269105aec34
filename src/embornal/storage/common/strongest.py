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
(a test compares them). Called by either store's ``strongest`` (:mod:`.reads`).

With ``under``, SQLite's first read is :func:`recent_in_subtree` (migration
``0029_anchor_index_path``, decision 0116): bounded walks of the anchor index, whose
entries carry the path, kept to the subtree; a subtree too sparse to fill them is read
from its own paths instead. Either way the same rows, in the same order, as the plain
read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime

from embornal.hints import Any
from embornal.storage.common.kind_views import stored_time

__all__ = [
    "ANCHOR_SQL",
    "SHORT_WALK_PER_HIT",
    "WALK_PER_HIT",
    "recent_in_subtree",
    "strongest_rows",
]

Rows = Callable[[str, Sequence[Any]], list[Any]]

#: The anchor of a fact's strength: its last recall, else its creation (as the index has it).
ANCHOR_SQL = "coalesce(f.last_recall_at, f.created_at)"

#: How many anchor index entries the short walk of :func:`recent_in_subtree` reads for each
#: fact asked (enough for a subtree of more than about 1 / 50 of the live facts).
SHORT_WALK_PER_HIT = 50

#: How many the long walk reads for each fact asked, before the subtree's own facts are
#: read instead (a subtree of less than about 1 / 500 of the live facts).
WALK_PER_HIT = 500

#: The subtree's paths (``under`` itself and below), as ``_under_sql`` has them.
_SUBTREE_PATHS = "SELECT id FROM paths WHERE path = ? OR (path > ? AND path < ?)"


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
    recent_of: Callable[[int], list[Any]] | None = None,
) -> list[Any]:
    """The ``limit`` strongest rows at ``now`` of ``select … WHERE where`` (``where``
    holds the live, scope and ``under`` conditions, ``params`` their parameters).
    ``recent_of``: the first read (the ``limit`` latest anchored rows, newest first), when
    the store has a faster one than the plain ``ORDER BY``."""
    if recent_of is not None:
        recent = recent_of(limit)
    else:
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


def recent_in_subtree(
    rows_of: Rows,
    cols: str,
    where: str,
    params: Sequence[Any],
    under: str,
    limit: int,
) -> list[Any]:
    """The ``limit`` live rows (``cols`` over ``facts f`` and ``paths p``) at or below the
    path ``under`` that ``where`` lets through, latest anchored first (then the latest
    stored): the first read of :func:`strongest_rows` on SQLite.

    1. **a short walk**: the first ``limit × SHORT_WALK_PER_HIT`` entries of
       ``facts_live_anchor`` (every live fact, latest anchored first; each entry holds the
       fact's path), each entry's path read by its id and kept if in the subtree. If
       ``limit`` of them pass ``where``, they are the answer: every entry not walked is
       anchored earlier. A subtree of a twelfth of the memory fills it in about
       ``12 × limit`` entries.
    2. **a long walk**: else the first ``limit × WALK_PER_HIT`` entries, kept to the set
       of the subtree's path ids (read once; a cheaper test an entry than a path read).
    3. **the subtree**: else the subtree is sparse (under about 1 / ``WALK_PER_HIT`` of
       the live facts); its facts are read by path (``facts_path``) and ordered."""
    subtree = (under, under + "/", under + "0")
    walk = (
        "WITH walk AS (SELECT seq, path_id, coalesce(last_recall_at, created_at) AS anchor "
        "FROM facts INDEXED BY facts_live_anchor "
        "WHERE deleted_at IS NULL AND superseded_by IS NULL "
        "ORDER BY coalesce(last_recall_at, created_at) DESC, seq DESC LIMIT ?) "
        f"SELECT {cols} FROM walk "
    )
    order = "ORDER BY walk.anchor DESC, walk.seq DESC LIMIT ?"
    walked = rows_of(
        f"{walk}CROSS JOIN paths w ON w.id = walk.path_id "  # the path first, then the row
        "CROSS JOIN facts f ON f.seq = walk.seq JOIN paths p ON p.id = f.path_id "
        f"WHERE (w.path = ? OR (w.path > ? AND w.path < ?)) AND {where} {order}",
        (limit * SHORT_WALK_PER_HIT, *subtree, *params, limit),
    )
    if len(walked) >= limit:
        return walked
    walked = rows_of(
        f"{walk}JOIN facts f ON f.seq = walk.seq JOIN paths p ON p.id = f.path_id "
        f"WHERE walk.path_id IN ({_SUBTREE_PATHS}) AND {where} {order}",
        (limit * WALK_PER_HIT, *subtree, *params, limit),
    )
    if len(walked) >= limit:
        return walked
    return rows_of(  # paths first (CROSS JOIN): the subtree's facts by path, then sorted
        f"SELECT {cols} FROM paths p CROSS JOIN facts f ON f.path_id = p.id "
        f"WHERE p.id IN ({_SUBTREE_PATHS}) AND {where} "
        f"ORDER BY {ANCHOR_SQL} DESC, f.seq DESC LIMIT ?",
        (*subtree, *params, limit),
    )


def _ordered(rows: list[Any], rates: dict[Any, float]) -> list[Any]:
    """By strength (``exp(-rate)``), then the latest stored first (as the full scan orders)."""
    return sorted(rows, key=lambda r: (-math.exp(-rates[r["seq"]]), -int(r["seq"])))
