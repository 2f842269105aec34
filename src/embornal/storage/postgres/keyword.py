"""Keyword search on PostgreSQL: match through the facts' ``tsvector`` (a GIN index),
rank by BM25 computed from the term statistics, as SQLite's FTS5 ``bm25()`` ranks.

Each fact's derived text (:func:`embornal.domain.text.index_terms`: stems, CJK bigrams)
is stored as its terms (``facts.terms``, lexemes as they are, no further parsing), its
length (``term_count``) and one row per term with its count (``fact_terms``);
``term_stats`` holds each term's document frequency, ``counters`` the number of documents
and their total length. The score is FTS5's: ``idf · tf·(k1+1) / (tf + k1·(1−b+b·dl/avgdl))``
summed over the query's terms, ``idf = ln((N−n+0.5)/(n+0.5))`` (at least 1e-6), k1 = 1.2,
b = 0.75, negated (lower is better); ties go to the latest fact. So both backends order
the same facts the same way (decision 0075).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["B", "K1", "idf", "ranked_rows", "tsquery"]  # noqa: RUF022 - constants first

K1 = 1.2
B = 0.75

Rows = Callable[[str, Sequence[Any]], list[Any]]


def idf(docs: int, df: int) -> float:
    """FTS5's inverse document frequency of a term in ``df`` of ``docs`` documents."""
    value = math.log((docs - df + 0.5) / (df + 0.5))
    return value if value > 0 else 1e-6


def tsquery(terms: Sequence[str]) -> str:
    """The ``tsquery`` text matching any of ``terms`` as lexemes, each quoted."""
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in terms)


def ranked_rows(
    rows_of: Rows,
    terms: Sequence[str],
    candidates: int,
    where: tuple[str, tuple[Any, ...]],
    fact_cols: str,
    join: str = "",
) -> list[Any]:
    """The fact rows (``fact_cols`` plus ``rank``) matching any of ``terms``, best BM25
    first, at most ``candidates``, among the facts ``where`` (SQL over ``f`` and ``p``,
    and the tables ``join`` adds, with its parameters) lets through."""
    stats = rows_of(
        "SELECT (SELECT value FROM counters WHERE name = 'fts_docs') AS docs, "
        "(SELECT value FROM counters WHERE name = 'fts_length') AS length",
        (),
    )[0]
    docs, length = int(stats["docs"] or 0), int(stats["length"] or 0)
    if docs == 0:
        return []
    df = {
        r[0]: int(r[1])
        for r in rows_of("SELECT term, df FROM term_stats WHERE term = ANY(?)", (list(terms),))
    }
    known = [t for t in terms if t in df]
    if not known:
        return []
    weights = [idf(docs, df[t]) for t in known]
    avgdl = length / docs if length else 1.0
    sql = (
        "WITH q AS (SELECT * FROM unnest(?::text[], ?::float8[]) AS q (term, idf)), "
        "hits AS (SELECT f.seq, f.term_count FROM facts f JOIN paths p ON p.id = f.path_id "
        f"{join} WHERE f.terms @@ ?::tsquery AND {where[0]}), "
        "top AS (SELECT h.seq, "
        "-sum(q.idf * t.tf * ? / (t.tf + ? * (1 - ? + ? * h.term_count / ?))) AS rank "
        "FROM hits h JOIN fact_terms t ON t.seq = h.seq JOIN q ON q.term = t.term "
        "GROUP BY h.seq ORDER BY rank, h.seq DESC LIMIT ?) "
        f"SELECT {fact_cols}, top.rank AS rank FROM top JOIN facts f ON f.seq = top.seq "
        f"JOIN paths p ON p.id = f.path_id {join} ORDER BY top.rank, f.seq DESC"
    )
    params = (
        known,
        weights,
        tsquery(known),
        *where[1],
        K1 + 1,
        K1,
        B,
        B,
        avgdl,
        candidates,
    )
    return rows_of(sql, params)
