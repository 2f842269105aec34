"""Keyword search over the FTS5 index: rank on the narrow index, then filter the window.

The ranking reads ``facts_fts`` (bm25) first and joins the full fact rows of the ranked
window only; the access filter runs on that window, which widens (×4) until enough visible
facts are found, the matches run out, or it reaches :data:`MAX_FILTER_WINDOW`, past which
every match is filtered at once. Called by :meth:`SqliteStore.keyword_search`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from embornal.domain import keyword_bound
from embornal.domain.text import fts_query

__all__ = ["MAX_FILTER_WINDOW", "bound_of", "ranked_rows"]

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
    bound: tuple[str | None, int] | None = None,
) -> list[Any]:
    """The fact rows (``fact_cols`` plus ``rank``) matching the FTS5 query ``match``, best
    bm25 first, at most ``candidates``, that the scope ``(sql, params, everything)`` lets
    through. ``live_index``: ``live`` is the live condition of ``facts_live_path`` (False
    for another, e.g. liveness at a past time). ``bound``: ``(light match or None, window
    start)`` of a bounded search (:mod:`embornal.domain.keyword_bound`): ``match`` is
    ranked over the rows above the start, the light match over the rows up to it."""
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
        scored = "SELECT facts_fts.rowid AS seq, bm25(facts_fts) AS rank FROM facts_fts "
        scored += "WHERE facts_fts MATCH ?"
        outer = f"{live} AND ({vis_sql})"
    else:
        scored = (
            "SELECT f.seq AS seq, bm25(facts_fts) AS rank FROM facts_fts "
            f"JOIN facts f {indexed} ON f.seq = facts_fts.rowid "
            f"WHERE facts_fts MATCH ? AND {live} AND {under_sql}"
        )
        outer = f"({vis_sql})"
    if bound is None:
        ranked = f"{scored} ORDER BY rank, seq DESC LIMIT ?"
        head: tuple[Any, ...] = (match, *under_params)
    else:  # decision 0110: the newest rows by every term, the older by the light ones
        light, start = bound
        parts = [f"{scored} AND facts_fts.rowid > ?"]
        head = (match, *under_params, start)
        if light is not None:
            parts.append(f"{scored} AND facts_fts.rowid <= ?")
            head += (light, *under_params, start)
        union = " UNION ALL ".join(parts)
        ranked = f"SELECT seq, rank FROM ({union}) ORDER BY rank, seq DESC LIMIT ?"
    window = candidates if everything else max(candidates * 4, 200)
    while True:
        rows = rows_of(
            f"WITH top AS ({ranked}) "
            f"SELECT {fact_cols}, top.rank AS rank, (SELECT count(*) FROM top) AS window "
            "FROM top JOIN facts f ON f.seq = top.seq JOIN paths p ON p.id = f.path_id "
            f"WHERE {outer} ORDER BY top.rank, f.seq DESC LIMIT ?",
            (*head, window, *vis_params, candidates),
        )
        if rows:
            seen = int(rows[0]["window"])
        else:  # every ranked match was filtered out: were there more to rank?
            seen = int(
                rows_of(
                    f"WITH top AS ({ranked}) SELECT count(*) FROM top",
                    (*head, window),
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
    if bound is not None and len(rows) < candidates:  # the window held too few: exactly
        return ranked_rows(
            rows_of, match, candidates, scope, under=under,
            include_superseded=include_superseded, fact_cols=fact_cols, live=live,
            live_index=live_index,
        )  # fmt: skip
    return rows


def bound_of(
    rows_of: Rows, terms: Sequence[str], known: Mapping[str, int] | None = None
) -> tuple[str | None, int] | None:
    """``ranked_rows``' ``bound`` of a search for ``terms`` (decision 0110), None for an
    exact one: a memory too small to hold a heavy term costs one read of a counter.
    ``known``: the terms' document counts as the caller just read them (``term_df``), when
    it holds every term; else they are read (``facts_fts_vocab`` counts a term's documents
    by reading its every posting)."""
    docs = rows_of("SELECT value FROM counters WHERE name = 'fts_docs'", ())
    if not docs or int(docs[0][0]) <= keyword_bound.HEAVY_DF:
        return None
    if known is not None and all(t in known for t in terms):
        df = {t: known[t] for t in terms}
    else:
        marks = ",".join("?" * len(terms))
        df = {
            str(r[0]): int(r[1])
            for r in rows_of(
                f"SELECT term, doc FROM facts_fts_vocab WHERE term IN ({marks})", list(terms)
            )
        }
    last = int(rows_of("SELECT coalesce(max(seq), 0) FROM facts", ())[0][0])
    bound = keyword_bound.bound_search(terms, df, last)
    if bound is None:
        return None
    return (fts_query(list(bound.light)) if bound.light else None), bound.window_start
