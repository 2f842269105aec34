"""Keyword search over the FTS5 index: rank on the narrow index, then filter the window.

The ranking reads ``facts_fts`` (bm25) first and joins the full fact rows of the ranked
window only; the access filter runs on that window, which widens (×4) until enough visible
facts are found, the matches run out, or it reaches :data:`MAX_FILTER_WINDOW`, past which
every match is filtered at once. Called by :meth:`SqliteStore.keyword_search`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["MAX_FILTER_WINDOW", "ranked_rows"]

# How far keyword recall widens its ranked window before filtering every match.
MAX_FILTER_WINDOW = 20_000

Rows = Callable[[str, Sequence[Any]], list[Any]]


def ranked_rows(
    rows_of: Rows,
    match: str,
    candidates: int,
    scope: tuple[str, tuple[Any, ...], bool],
    *,
    under: str | None,
    include_superseded: bool,
    fact_cols: str,
    live: str,
    live_index: bool = True,
) -> list[Any]:
    """The fact rows (``fact_cols`` plus ``rank``) matching the FTS5 query ``match``, best
    bm25 first, at most ``candidates``, that the scope ``(sql, params, everything)`` lets
    through. ``live_index``: ``live`` is the live condition of ``facts_live_path`` (False
    for another, e.g. liveness at a past time)."""
    vis_sql, vis_params, everything = scope
    if include_superseded:
        live, indexed = "f.deleted_at IS NULL", ""
    else:
        indexed = "INDEXED BY facts_live_path" if live_index else ""
    under_sql, under_params = "1", tuple[Any, ...]()
    if under is not None and under != "/":
        # The unary + keeps SQLite from probing the index once per descendant path.
        under_sql = (
            "+f.path_id IN (SELECT c.descendant_id FROM path_closure c "
            "JOIN paths a ON a.id = c.ancestor_id WHERE a.path = ?)"
        )
        under_params = (under,)
    # Rank on the narrow index first; read the full rows of the winners only. The
    # access filter runs on the ranked candidates, not on every match: the candidate
    # window widens until enough visible facts are found or the matches run out.
    # Without ``under``, the ranking reads the keyword index alone and the liveness
    # check joins the ranked window only (hidden facts are few; the window widens).
    if under_sql == "1":
        ranked = (
            "SELECT facts_fts.rowid AS seq, bm25(facts_fts) AS rank FROM facts_fts "
            "WHERE facts_fts MATCH ? ORDER BY rank, facts_fts.rowid DESC LIMIT ?"
        )
        outer = f"{live} AND ({vis_sql})"
    else:
        ranked = (
            "SELECT f.seq AS seq, bm25(facts_fts) AS rank FROM facts_fts "
            f"JOIN facts f {indexed} ON f.seq = facts_fts.rowid "
            f"WHERE facts_fts MATCH ? AND {live} AND {under_sql} "
            "ORDER BY rank, f.seq DESC LIMIT ?"
        )
        outer = f"({vis_sql})"
    window = candidates if everything else max(candidates * 4, 200)
    while True:
        rows = rows_of(
            f"WITH top AS ({ranked}) "
            f"SELECT {fact_cols}, top.rank AS rank, (SELECT count(*) FROM top) AS window "
            "FROM top JOIN facts f ON f.seq = top.seq JOIN paths p ON p.id = f.path_id "
            f"WHERE {outer} ORDER BY top.rank, f.seq DESC LIMIT ?",
            (match, *under_params, window, *vis_params, candidates),
        )
        if rows:
            seen = int(rows[0]["window"])
        else:  # every ranked match was filtered out: were there more to rank?
            seen = int(
                rows_of(
                    f"WITH top AS ({ranked}) SELECT count(*) FROM top",
                    (match, *under_params, window),
                )[0][0]
            )
        exhausted = seen < window
        if len(rows) >= candidates or exhausted or window >= MAX_FILTER_WINDOW:
            break
        window *= 4
    if len(rows) < candidates and not exhausted and window >= MAX_FILTER_WINDOW:
        rows = rows_of(  # a narrow filter over very many matches: filter them all
            "WITH top AS (SELECT f.seq AS seq, bm25(facts_fts) AS rank FROM facts_fts "
            f"JOIN facts f {indexed} ON f.seq = facts_fts.rowid "
            f"WHERE facts_fts MATCH ? AND {live} AND {under_sql} AND ({vis_sql}) "
            "ORDER BY rank, f.seq DESC LIMIT ?) "
            f"SELECT {fact_cols}, top.rank AS rank FROM top JOIN facts f ON f.seq = top.seq "
            "JOIN paths p ON p.id = f.path_id ORDER BY top.rank, f.seq DESC",
            (match, *under_params, *vis_params, candidates),
        )
    return rows
