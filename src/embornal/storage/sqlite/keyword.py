"""Keyword search over the FTS5 index: rank on the narrow index, then filter the window.

The ranking reads ``facts_fts`` (bm25) first and joins the full fact rows of the ranked
window only; the access filter runs on that window, which widens (×4) until enough visible
facts are found, the matches run out, or it reaches :data:`MAX_FILTER_WINDOW`, past which
every match is filtered at once. Called by :meth:`SqliteStore.keyword_search`.

:func:`indexed_rows` filters the certified windows of the keyword index
(:mod:`embornal.storage.sqlite.keyword_index`, decision 0165) the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from embornal.domain.recall import keyword_bound
from embornal.domain.recall.text import fts_query
from embornal.hints import Any
from embornal.storage.common.access import Among
from embornal.storage.common.context import LIVE
from embornal.storage.common.kind_views import FACT_COLS

__all__ = ["MAX_FILTER_WINDOW", "bound_of", "indexed_rows", "ranked_rows"]

# How far keyword recall widens its ranked window before filtering every match.
MAX_FILTER_WINDOW = 20_000

Rows = Callable[[str, Sequence[Any]], list[Any]]


def ranked_rows(
    rows_of: Rows,
    match: str,
    candidates: int,
    among: Among,
    *,
    fact_cols: str = FACT_COLS,
    bound: keyword_bound.KeywordBound | None = None,
) -> list[Any]:
    """The fact rows (``fact_cols`` plus ``rank``) matching the FTS5 query ``match``, best
    bm25 first, at most ``candidates``, among the facts ``among`` keeps (when its ``live``
    is the live condition, the ranking reads ``facts_live_path``, the index of the live
    facts). ``bound``: a bounded search
    (:mod:`embornal.domain.recall.keyword_bound`, :func:`bound_of`): the rows holding a light
    term ranked by the whole query over every row id, then, unless enough of them score
    above the ceiling, the newest rows holding heavy terms only."""
    live, vis_sql, vis_params = among.live, among.vis.sql, among.vis.params
    indexed = "INDEXED BY facts_live_path" if live == LIVE else ""
    under_sql, under_params = _under(among.under)
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
    order = "ORDER BY rank, seq DESC LIMIT ?"

    def top(ranked: str, head: tuple[Any, ...]) -> list[Any]:
        window = candidates if among.everything else max(candidates * 4, 200)
        while True:
            rows = rows_of(
                f"WITH top AS ({ranked}) "
                f"SELECT {fact_cols}, top.rank AS rank, top.seq AS ranked_seq, "
                "(SELECT count(*) FROM top) AS window "
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
                f"SELECT {fact_cols}, top.rank AS rank, top.seq AS ranked_seq "
                "FROM top JOIN facts f ON f.seq = top.seq "
                "JOIN paths p ON p.id = f.path_id ORDER BY top.rank, f.seq DESC",
                (match, *under_params, *vis_params, candidates),
            )
        return rows

    if bound is None:
        return top(f"{scored} {order}", (match, *under_params))
    found: list[Any] = []
    if bound.light is not None:  # decision 0122: the rows holding a light term, every one
        both = f"({bound.light}) AND ({fts_query(list(bound.heavy))})"  # their whole bm25
        found = top(
            f"SELECT seq, min(rank) AS rank FROM ({scored} UNION ALL {scored}) "
            f"GROUP BY seq {order}",
            (both, *under_params, bound.light, *under_params),
        )
        if len(found) >= candidates and -float(found[candidates - 1]["rank"]) > bound.ceiling:
            return found  # no row of heavy terms only can score that much: exact
    # Decisions 0110 and 0122: the newest rows holding heavy terms only; where they hold
    # two or more, over the wider window (one statement: FTS5 reads a term's every
    # posting once a statement to weigh it).
    newest_sql = f"{scored} AND facts_fts.rowid > ?"
    head: tuple[Any, ...] = (bound.newest, *under_params, bound.window_start)
    if bound.pairs is not None:
        newest_sql += (
            " AND (facts_fts.rowid > ? OR facts_fts.rowid IN (SELECT rowid FROM facts_fts "
            "WHERE facts_fts MATCH ? AND rowid > ?))"
        )
        head += (bound.narrow_start, bound.pairs, bound.window_start)
    newest = top(f"{newest_sql} {order}", head)
    merged = {int(r["ranked_seq"]): r for r in (*found, *newest)}
    rows = sorted(merged.values(), key=lambda r: (float(r["rank"]), -int(r["ranked_seq"])))
    if len(rows) < candidates:  # the window held too few: exactly
        return ranked_rows(rows_of, match, candidates, among, fact_cols=fact_cols)
    return rows[:candidates]


def _under(under: str | None) -> tuple[str, tuple[Any, ...]]:
    if under is None or under == "/":
        return "1", ()
    # The unary + keeps SQLite from probing the index once per descendant path.
    return (
        "+f.path_id IN (SELECT c.descendant_id FROM path_closure c "
        "JOIN paths a ON a.id = c.ancestor_id WHERE a.path = ?)"
    ), (under,)


def indexed_rows(
    rows_of: Rows,
    ranked: Callable[[int], tuple[list[tuple[int, float]], bool]],
    candidates: int,
    among: Among,
) -> list[Any] | None:
    """``ranked_rows``' answer from the keyword index: ``ranked(depth)`` is its certified
    window of ``depth`` hits ((seq, bm25 score) best first, and whether it holds every
    match); the rows of the window that ``among`` keeps are read in its order, the window
    widening (×4) until ``candidates`` pass or the matches run out. None past
    :data:`MAX_FILTER_WINDOW`: the caller ranks on FTS5, exactly."""
    where, params = among.where(_under(among.under))
    depth = max(candidates * 4, 200)
    while True:
        order, complete = ranked(depth)
        rows = rows_of(
            "WITH top AS (SELECT json_extract(j.value, '$[0]') AS seq, "
            "json_extract(j.value, '$[1]') AS rank, j.key AS place FROM json_each(?) j) "
            f"SELECT {FACT_COLS}, top.rank AS rank, top.seq AS ranked_seq FROM top "
            "CROSS JOIN facts f ON f.seq = top.seq JOIN paths p ON p.id = f.path_id "
            f"WHERE {where} ORDER BY top.place LIMIT ?",
            (json.dumps([[s, -v] for s, v in order]), *params, candidates),
        )
        if len(rows) >= candidates or complete:
            return rows
        if depth >= MAX_FILTER_WINDOW:
            return None
        depth = min(depth * 4, MAX_FILTER_WINDOW)


def bound_of(
    rows_of: Rows, terms: Sequence[str], known: Mapping[str, int] | None = None
) -> keyword_bound.KeywordBound | None:
    """``ranked_rows``' ``bound`` of a search for ``terms`` (decisions 0110, 0122), None for an
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
    # The ceiling weighs the terms over ``last`` documents: FTS5 holds no more rows than
    # that (its row ids are distinct facts' seqs), so no idf is underestimated.
    return keyword_bound.bound_search(terms, df, last)
