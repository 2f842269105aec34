"""The facts written next to each other: a fact's neighbours on its path.

A fact's neighbours at distance ``d`` are the live facts ``d`` places before and
after it on the same path, in time order (``created_at``, then write order). Recall
uses them as context (see ``embornal.domain.ranking.neighbour_boost``). The
``facts_path`` index (``path_id, created_at`` and the row id) makes each look-up
one index seek.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache

from embornal.storage.connect import Connection

__all__ = ["neighbours"]

_LIVE_G = "g.deleted_at IS NULL AND g.superseded_by IS NULL"


@cache
def _sql(reach: int) -> str:
    columns = []
    for offset in range(reach):
        columns.append(
            "(SELECT g.id FROM facts g WHERE g.path_id = f.path_id AND "
            f"(g.created_at, g.seq) < (f.created_at, f.seq) AND {_LIVE_G} "
            f"ORDER BY g.created_at DESC, g.seq DESC LIMIT 1 OFFSET {offset})"
        )
        columns.append(
            "(SELECT g.id FROM facts g WHERE g.path_id = f.path_id AND "
            f"(g.created_at, g.seq) > (f.created_at, f.seq) AND {_LIVE_G} "
            f"ORDER BY g.created_at, g.seq LIMIT 1 OFFSET {offset})"
        )
    return (
        f"SELECT f.id, {', '.join(columns)} FROM facts f "
        "WHERE f.id IN (SELECT value FROM json_each(?))"
    )


def neighbours(
    conn: Connection, fact_ids: Sequence[str], reach: int = 1
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """For each of ``fact_ids``, one entry a distance 1..``reach``: the ids of the live
    facts that far before and after it (none, one or two)."""
    if not fact_ids or reach < 1:
        return {}
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for row in conn.execute(_sql(reach), (json.dumps(list(fact_ids)),)):
        found = [None if n is None else str(n) for n in row[1:]]
        out[str(row[0])] = tuple(
            tuple(n for n in found[2 * d : 2 * d + 2] if n is not None) for d in range(reach)
        )
    return out
