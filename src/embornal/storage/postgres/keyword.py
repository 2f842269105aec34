"""Keyword search on PostgreSQL: match and rank by BM25 from the postings of
``fact_terms`` and the term statistics, as SQLite's FTS5 ``bm25()`` ranks.

Each fact's derived text (:func:`embornal.domain.recall.text.index_terms`: stems, CJK bigrams)
is stored as its terms (``facts.terms``, lexemes as they are, no further parsing), its
length (``term_count``) and one row per term with its count (``fact_terms``);
``term_stats`` holds each term's document frequency, ``counters`` the number of documents
and their total length. The score is FTS5's: ``idf · tf·(k1+1) / (tf + k1·(1−b+b·dl/avgdl))``
summed over the query's terms, ``idf = ln((N−n+0.5)/(n+0.5))`` (at least 1e-6), k1 = 1.2,
b = 0.75, negated (lower is better); ties go to the latest fact. So both backends order
the same facts the same way (decision 0075).

The ranking reads ``fact_terms`` alone (each posting keeps its document's length, a
covering index, decision 0121); liveness, scope and the caller's filters are checked on
the ranked window only, which widens until enough facts pass or the matches run out (past
``MAX_WINDOW``, every match of the facts' ``tsvector``, a GIN index, is filtered first),
so the result is exact. A term held by more than ``HEAVY_DF`` facts is read over the newest
window only (decision 0110's bound, as on SQLite); if that yields too few, exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from embornal.domain.recall import keyword_bound
from embornal.domain.records import record

__all__ = [
    "K1",
    "LENGTHS",
    "MAX_WINDOW",
    "B",
    "Kept",
    "exact_rows",
    "idf",
    "lengths",
    "ranked_rows",
    "tsquery",
    "writes_lengths",
]

K1 = 1.2
B = 0.75

Rows = Callable[[str, Sequence[Any]], list[Any]]


@record
class Kept:
    """The facts a ranking keeps and what it reads of them: those ``where`` (SQL over
    ``f``, ``p`` and the tables ``join`` adds, and its parameters) lets through, read as
    ``cols`` (plus ``rank``)."""

    where: tuple[str, tuple[Any, ...]]
    cols: str
    join: str = ""


def idf(docs: int, df: int) -> float:
    """FTS5's inverse document frequency of a term in ``df`` of ``docs`` documents."""
    value = math.log((docs - df + 0.5) / (df + 0.5))
    return value if value > 0 else 1e-6


def tsquery(terms: Sequence[str]) -> str:
    """The ``tsquery`` text matching any of ``terms`` as lexemes, each quoted."""
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in terms)


#: The migration that keeps each posting's document length in ``fact_terms``.
LENGTHS = "pg_0009_fact_terms_length"
_LENGTHS: ContextVar[bool] = ContextVar("embornal_pg_term_lengths", default=True)


@contextmanager
def lengths(on: bool) -> Iterator[None]:
    """Within it, postings are written with their document length only when ``on`` (the
    migrations before ``pg_0009`` project the guide's facts without it; ``pg_0009`` fills
    it in and turns it on for the rest, :func:`writes_lengths`)."""
    token = _LENGTHS.set(on)
    try:
        yield
    finally:
        _LENGTHS.reset(token)


def writes_lengths(on: bool | None = None) -> bool:
    """Whether postings are written with their document length; ``on``: set it first."""
    if on is not None:
        _LENGTHS.set(on)
    return _LENGTHS.get()


#: The ranked window past which the filters are applied to every match instead.
MAX_WINDOW = 20_000
#: The first ranked window, when set (else four times the candidates, at least 200).
FIRST_WINDOW: int | None = None


def _score(avgdl: float, idf_weight: float | None = None) -> tuple[str, tuple[Any, ...]]:
    """The BM25 rank of a posting ``t``: summed over the query's terms ``q`` (their
    ``q.idf``), or, given ``idf_weight``, of one term's posting alone (no grouping)."""
    part = "t.tf * ? / (t.tf + ? * (1 - ? + ? * t.dl / ?))"
    params = (K1 + 1, K1, B, B, avgdl)
    if idf_weight is None:
        return f"-sum(q.idf * {part})", params
    return f"-(? * {part})", (idf_weight, *params)


def _query(
    rows_of: Rows, terms: Sequence[str]
) -> tuple[list[str], list[float], float, dict[str, int], int] | None:
    """The terms the memory holds, their idf, the average length, every term's document
    count and the last row, in one read."""
    stats = rows_of(
        "SELECT (SELECT value FROM counters WHERE name = 'fts_docs') AS docs, "
        "(SELECT value FROM counters WHERE name = 'fts_length') AS length, "
        "(SELECT coalesce(max(seq), 0) FROM facts) AS last, "
        "(SELECT jsonb_object_agg(term, df) FROM term_stats WHERE term = ANY(?)) AS df",
        (list(terms),),
    )[0]
    docs, length = int(stats["docs"] or 0), int(stats["length"] or 0)
    if docs == 0:
        return None
    df = {str(t): int(n) for t, n in (stats["df"] or {}).items()}
    known = [t for t in terms if t in df]
    if not known:
        return None
    weights = [idf(docs, df[t]) for t in known]
    return known, weights, (length / docs if length else 1.0), df, int(stats["last"])


def ranked_rows(rows_of: Rows, terms: Sequence[str], candidates: int, kept: Kept) -> list[Any]:
    """The fact rows (``kept.cols`` plus ``rank``) matching any of ``terms``, best BM25
    first, at most ``candidates``, among the facts ``kept`` keeps."""
    query = _query(rows_of, terms)
    if query is None:
        return []
    known, weights, avgdl, df, last = query
    start = 0
    heavy: list[str] = []
    if any(df[t] > keyword_bound.HEAVY_DF for t in known):
        bound = keyword_bound.bound_search(known, df, last)
        if bound is not None:
            heavy, start = list(bound.heavy), bound.window_start
    rows = _windowed(rows_of, known, weights, avgdl, candidates, kept, (heavy, start))
    if heavy and len(rows) < candidates:  # the bounded window held too few: exactly
        rows = _windowed(rows_of, known, weights, avgdl, candidates, kept, ([], 0))
    return rows


def _ranked(
    known: list[str], weights: list[float], lows: list[int], avgdl: float
) -> tuple[str, tuple[Any, ...]]:
    """The CTE ``top`` of the best documents by BM25 (its ``LIMIT ?`` the window) and its
    parameters. One term's postings are scored one by one, with no grouping (the same
    values: a sum of one), which halves the cost of a window of a common word."""
    if len(known) == 1:
        single, single_params = _score(avgdl, weights[0])
        return (
            f"WITH top AS (SELECT t.seq, {single} AS rank FROM fact_terms t "
            "WHERE t.term = ? AND t.seq > ? ORDER BY rank, t.seq DESC LIMIT ?) ",
            (*single_params, known[0], lows[0]),
        )
    score, score_params = _score(avgdl)
    return (
        "WITH q AS (SELECT * FROM unnest(?::text[], ?::float8[], ?::bigint[]) "
        "AS q (term, idf, lo)), "
        f"top AS (SELECT t.seq, {score} AS rank FROM q JOIN fact_terms t "
        "ON t.term = q.term AND t.seq > q.lo GROUP BY t.seq ORDER BY rank, t.seq DESC LIMIT ?) ",
        (known, weights, lows, *score_params),
    )


def _windowed(
    rows_of: Rows,
    known: list[str],
    weights: list[float],
    avgdl: float,
    candidates: int,
    kept: Kept,
    bound: tuple[list[str], int],
) -> list[Any]:
    heavy, start = bound
    lows = [start if t in heavy else 0 for t in known]
    ranked, head = _ranked(known, weights, lows, avgdl)
    window = FIRST_WINDOW if FIRST_WINDOW is not None else max(candidates * 4, 200)
    while True:
        rows = rows_of(
            f"{ranked}SELECT {kept.cols}, top.rank AS rank, "
            "(SELECT count(*) FROM top) AS ranked_window FROM top JOIN facts f ON f.seq = top.seq "
            f"JOIN paths p ON p.id = f.path_id {kept.join} WHERE {kept.where[0]} "
            "ORDER BY top.rank, f.seq DESC LIMIT ?",
            (*head, window, *kept.where[1], candidates),
        )
        if rows:
            seen = int(rows[0]["ranked_window"])
        else:  # every ranked match was filtered out: were there more to rank?
            seen = int(rows_of(f"{ranked}SELECT count(*) FROM top", (*head, window))[0][0])
        if len(rows) >= candidates or seen < window:
            return rows
        if window >= MAX_WINDOW:
            break
        window = min(window * 4, MAX_WINDOW)
    # a narrow filter over very many matches: filter every match, then rank
    return exact_rows(rows_of, known, candidates, kept, bound)


def exact_rows(
    rows_of: Rows,
    terms: Sequence[str],
    candidates: int,
    kept: Kept,
    bound: tuple[list[str], int] = ([], 0),
) -> list[Any]:
    """``ranked_rows`` with the filters applied to every match before ranking (no
    window; ``bound``: the heavy terms read above the given row only)."""
    query = _query(rows_of, terms)
    if query is None:
        return []
    known, weights, avgdl, _, _ = query
    heavy, start = bound
    lows = [start if t in heavy else 0 for t in known]
    score, score_params = _score(avgdl)
    sql = (
        "WITH q AS (SELECT * FROM unnest(?::text[], ?::float8[], ?::bigint[]) "
        "AS q (term, idf, lo)), "
        "hits AS (SELECT f.seq FROM facts f JOIN paths p ON p.id = f.path_id "
        f"{kept.join} WHERE f.terms @@ ?::tsquery AND {kept.where[0]}), "
        f"top AS (SELECT h.seq, {score} AS rank "
        "FROM hits h JOIN fact_terms t ON t.seq = h.seq JOIN q ON q.term = t.term "
        "AND t.seq > q.lo GROUP BY h.seq ORDER BY rank, h.seq DESC LIMIT ?) "
        f"SELECT {kept.cols}, top.rank AS rank FROM top JOIN facts f ON f.seq = top.seq "
        f"JOIN paths p ON p.id = f.path_id {kept.join} ORDER BY top.rank, f.seq DESC"
    )
    params = (known, weights, lows, tsquery(known), *kept.where[1], *score_params, candidates)
    return rows_of(sql, params)
