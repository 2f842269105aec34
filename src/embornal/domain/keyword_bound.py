"""A bound on what one keyword search reads (decision 0110; no I/O).

BM25 over an OR of terms reads every posting of every term: a query of common words in a
memory of a million facts reads hundreds of thousands of them to rank a few dozen. A term
held by more than :data:`HEAVY_DF` documents is *heavy*; a query with a heavy term is
ranked over

* the newest documents, a window of row ids sized so that the heavy terms hold about
  :data:`WINDOW_POSTINGS` postings in it, scored by the whole query (exact bm25 there), and
* every document older than the window that holds a light term, scored by its light terms
  (their exact part of the bm25; the heavy terms' part, at most ``idf * (k1 + 1)`` each and
  small because their idf is, is left out).

A query without a heavy term (the ordinary case) is ranked exactly, as before; what a
bounded search reads is at most ``HEAVY_DF`` postings for each light term plus about
``WINDOW_POSTINGS``, whatever the size of the memory.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from embornal.domain.records import record

__all__ = ["HEAVY_DF", "WINDOW_POSTINGS", "KeywordBound", "bound_search"]

#: A term held by more documents than this is read over a window only.
HEAVY_DF = 10_000
#: About how many postings of the heavy terms the window holds.
WINDOW_POSTINGS = 20_000


@record
class KeywordBound:
    """How a bounded search reads: every term over the row ids above ``window_start``,
    the ``light`` terms (possibly none) over the row ids up to it."""

    light: tuple[str, ...]
    heavy: tuple[str, ...]
    window_start: int


def bound_search(
    terms: Sequence[str],
    df: Mapping[str, int],
    last_row: int,
    *,
    heavy_df: int | None = None,
    window_postings: int | None = None,
) -> KeywordBound | None:
    """The bound of a search for ``terms`` (document frequencies ``df``, row ids up to
    ``last_row``); None when no term is heavy: the search is exact."""
    limit = HEAVY_DF if heavy_df is None else heavy_df
    budget = WINDOW_POSTINGS if window_postings is None else window_postings
    heavy = tuple(t for t in terms if df.get(t, 0) > limit)
    if not heavy:
        return None
    light = tuple(t for t in terms if t not in heavy)
    heavy_postings = sum(df[t] for t in heavy)
    rows = math.ceil(last_row * budget / heavy_postings)
    return KeywordBound(light, heavy, max(0, last_row - rows))
