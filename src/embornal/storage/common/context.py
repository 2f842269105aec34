"""The facts written next to each other: a fact's neighbours on its path.

A fact's neighbours at distance ``d`` are the live facts ``d`` places before and
after it on the same path, in time order (``created_at``, then write order), counted
over the facts the caller may read: a fact the caller cannot see takes no place, so
it neither is a neighbour nor pushes one further away. Recall uses them as context
(see ``embornal.domain.recall.ranking.neighbour_boost``). The ``facts_path`` index
(``path_id, created_at`` and the row id) makes each look-up one index seek.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache

from embornal.hints import Any
from embornal.storage.sqlite.connect import Connection

__all__ = ["LIVE", "NOT_EXPIRED", "neighbours_of", "use_clock"]

#: The SQL a live read adds: the fact's lifetime has not run out at the store's clock
#: (``embornal_now()``, see :func:`use_clock`). Most facts never expire (NULL), so the
#: clock is asked only for the few that do.
NOT_EXPIRED = "(f.expires_at IS NULL OR f.expires_at > embornal_now())"


def use_clock(conn: Connection, now: Callable[[], str]) -> None:
    """Give ``conn`` the SQL function ``embornal_now()``: the store's clock as fixed-width
    ISO-8601 UTC text (the format of every stored time, so text order is time order)."""
    conn.create_function("embornal_now", 0, now)


#: The SQL of a live fact ``f`` (not forgotten, superseded or expired): the reads of the
#: present keep only these.
LIVE = f"f.deleted_at IS NULL AND f.superseded_by IS NULL AND {NOT_EXPIRED}"


# The neighbour is the alias ``f`` (the access filter's alias); ``cand`` is the candidate.
@cache
def _sql(reach: int, visible: str, live: str = LIVE) -> str:
    where = live if visible == "1" else f"{live} AND ({visible})"
    columns = []
    for offset in range(reach):
        columns.append(
            "(SELECT f.id FROM facts f WHERE f.path_id = cand.path_id AND "
            f"(f.created_at, f.seq) < (cand.created_at, cand.seq) AND {where} "
            f"ORDER BY f.created_at DESC, f.seq DESC LIMIT 1 OFFSET {offset})"
        )
        columns.append(
            "(SELECT f.id FROM facts f WHERE f.path_id = cand.path_id AND "
            f"(f.created_at, f.seq) > (cand.created_at, cand.seq) AND {where} "
            f"ORDER BY f.created_at, f.seq LIMIT 1 OFFSET {offset})"
        )
    return (
        f"SELECT cand.id, {', '.join(columns)} FROM facts cand "
        "WHERE cand.id IN (SELECT value FROM json_each(?))"
    )


def neighbours_of(
    rows_of: Callable[[str, Sequence[Any]], Sequence[Any]],
    fact_ids: Sequence[str],
    reach: int = 1,
    visible: str = "1",
    params: tuple[Any, ...] = (),
    live: str = LIVE,
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """For each of ``fact_ids``, one entry a distance 1..``reach``: the ids of the live
    facts that far before and after it (none, one or two), counting only the facts that
    the access filter ``visible`` (over alias ``f``, with ``params``) lets through; ``live``
    is what makes a fact live (over ``f``, no parameters: e.g. live at a past time). Read
    through ``rows_of``, a row reader of ``?``-placeholder SQL (a store's, so the query runs
    on either backend: PostgreSQL's dialect reads the ids' ``json_each``)."""
    if not fact_ids or reach < 1:
        return {}
    visible = "1" if visible == "TRUE" else visible
    bound = () if visible == "1" else params * (2 * reach)
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for row in rows_of(_sql(reach, visible, live), (*bound, json.dumps(list(fact_ids)))):
        found = [None if n is None else str(n) for n in row[1:]]
        out[str(row[0])] = tuple(
            tuple(n for n in found[2 * d : 2 * d + 2] if n is not None) for d in range(reach)
        )
    return out
