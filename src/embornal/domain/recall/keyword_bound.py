"""A bound on what one keyword search reads (decisions 0110 and 0122; no I/O).

BM25 over an OR of terms reads every posting of every term: a query of common words in a
memory of a million facts reads hundreds of thousands of them to rank a few dozen. A term
held by more than :data:`HEAVY_DF` documents is *heavy*; a query with a heavy term is
ranked over

* every document that holds a light term, scored by the whole query (its exact bm25);
  when enough of them score above :attr:`KeywordBound.ceiling` (``idf * (k1 + 1)``
  summed over the heavy terms, more than a document holding heavy terms only can score),
  nothing else can rank among them and the search is exact (MaxScore); else also
* the newest documents that hold heavy terms only, scored by the whole query: with two
  heavy terms or more, those holding two of them or more over a window of row ids sized
  so that the heavy terms hold about :data:`WINDOW_POSTINGS` postings in it, and those
  holding one over a narrower window (:data:`SINGLE_POSTINGS`); with one heavy term, the
  window of :data:`WINDOW_POSTINGS`.

A query without a heavy term (the ordinary case) is ranked exactly, as before; what a
bounded search scores is at most ``HEAVY_DF`` documents for each light term plus about
``WINDOW_POSTINGS`` postings' documents, whatever the size of the memory.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from embornal.domain.recall.text import fts_query
from embornal.domain.records import record

__all__ = [
    "BM25_K1",
    "HEAVY_DF",
    "SINGLE_POSTINGS",
    "WINDOW_POSTINGS",
    "KeywordBound",
    "bound_search",
    "idf",
]

#: A term held by more documents than this is read over a window only.
HEAVY_DF = 10_000
#: About how many postings of the heavy terms the window holds.
WINDOW_POSTINGS = 20_000
#: With two heavy terms or more: about how many the window of documents holding one holds.
SINGLE_POSTINGS = 1_000
#: FTS5's bm25 ``k1``: one term adds less than ``idf * (k1 + 1)`` to a document's score.
BM25_K1 = 1.2


@record
class KeywordBound:
    """How a bounded search reads: ``light`` (FTS5 query of the light terms, or None) over
    every row id; then, unless enough of its documents score above ``ceiling``,
    ``newest`` (the heavy terms, none of the light ones) over the row ids above
    ``narrow_start``, and above ``window_start`` where ``pairs`` (a query of the documents
    holding two heavy terms or more; None with one heavy term) matches too."""

    light: str | None
    heavy: tuple[str, ...]
    newest: str
    narrow_start: int
    pairs: str | None
    window_start: int
    ceiling: float


def idf(docs: int, df: int) -> float:
    """FTS5's bm25 idf of a term ``df`` of ``docs`` documents hold (1e-6 at least)."""
    return max(1e-6, math.log((docs - df + 0.5) / (df + 0.5)))


def _pairs(heavy: Sequence[str]) -> str | None:
    """An FTS5 query of the documents holding two of ``heavy`` or more (for the row ids
    only: it names a term more than once, so its bm25 would count it twice)."""
    if len(heavy) < 2:
        return None
    return " OR ".join(
        f"({fts_query([t])} AND ({fts_query(list(heavy[i + 1 :]))}))"
        for i, t in enumerate(heavy[:-1])
    )


def bound_search(
    terms: Sequence[str],
    df: Mapping[str, int],
    last_row: int,
    *,
    heavy_df: int | None = None,
    window_postings: int | None = None,
    docs: int | None = None,
) -> KeywordBound | None:
    """The bound of a search for ``terms`` (document frequencies ``df``, row ids up to
    ``last_row``); None when no term is heavy: the search is exact. ``docs``: how many
    documents weigh the terms in the ceiling, by default ``last_row`` (no fewer than the
    index holds, so the ceiling is never below the true one)."""
    limit = HEAVY_DF if heavy_df is None else heavy_df
    wide = WINDOW_POSTINGS if window_postings is None else window_postings
    heavy = tuple(t for t in terms if df.get(t, 0) > limit)
    if not heavy:
        return None
    light = tuple(t for t in terms if t not in heavy)
    postings = sum(df[t] for t in heavy)

    def start(budget: int) -> int:
        return max(0, last_row - math.ceil(last_row * budget / postings))

    pairs = _pairs(heavy)
    narrow = start(min(wide, SINGLE_POSTINGS)) if pairs is not None else start(wide)
    newest = fts_query(list(heavy))
    if light:
        newest = f"({newest}) NOT ({fts_query(list(light))})"
    total = last_row if docs is None else docs
    # A hair above the sum, so that rounding never lets a bm25 value equal to it pass.
    ceiling = sum(idf(total, df[t]) * (BM25_K1 + 1.0) for t in heavy) * (1.0 + 1e-9)
    return KeywordBound(
        fts_query(list(light)) if light else None,
        heavy,
        newest,
        narrow,
        pairs,
        start(wide),
        ceiling,
    )
