"""Vector search over ``facts.embedding``: an exact scan, or a coarse set re-scored.

Small memories are scanned exactly by each fact's one vector. Large ones ask the
in-process bit index (or, without numpy, ``facts_vec``) for a wide candidate set of
1-bit codes, and widen it when the access filter or ``under`` leave too few. Either way
the wide set is then re-scored exactly, long facts by their pieces. Called by
:meth:`SqliteStore.vector_search`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from embornal.storage.sqlite import bitindex, vectors

__all__ = ["nearest_rows"]

Rows = Callable[[str, Sequence[Any]], list[Any]]


def nearest_rows(
    rows_of: Rows,
    query: bytes,
    candidates: int,
    where: tuple[str, tuple[Any, ...]],
    *,
    fact_cols: str,
    total: int,
    bits: bitindex.CoarseIndex | None,
    has_index: Callable[[], bool],
) -> list[Any]:
    """The fact rows (``fact_cols`` plus ``sim``) nearest to ``query``, best first, at
    most ``candidates``, among the facts ``where`` (SQL over ``f`` and ``p``, with its
    parameters) keeps; ``total`` is how many facts the memory holds."""
    where_sql, where_params = where
    base = (
        f"SELECT {fact_cols}, {vectors.SIMILARITY_SQL} AS sim "
        f"FROM facts f JOIN paths p ON p.id = f.path_id WHERE {where_sql}"
    )
    params: tuple[Any, ...] = (query, query, *where_params)
    wide = max(candidates * 8, 400)
    # The exact scan: the ``wide`` nearest by their one vector, re-scored by pieces.
    exact = (
        "WITH near AS (SELECT f.seq AS seq FROM facts f JOIN paths p ON p.id = f.path_id "
        f"WHERE {where_sql} ORDER BY vec_distance_cosine(f.embedding, ?) LIMIT ?) "
        f"{base} AND f.seq IN (SELECT seq FROM near) ORDER BY sim DESC, f.seq DESC LIMIT ?"
    )
    exact_params = (*where_params, query, wide, *params, candidates)
    large = total > vectors.EXACT_SCAN_LIMIT
    if not large or (bits is None and not has_index()):
        return rows_of(exact, exact_params)
    coarse = wide
    while True:
        if bits is not None:
            seqs = bits.search(query, min(coarse, 4096))
        else:
            seqs = [
                r[0]
                for r in rows_of(
                    "SELECT rowid FROM facts_vec WHERE embedding MATCH "
                    "vec_quantize_binary(?) AND k = ?",
                    (query, min(coarse, 4096)),
                )
            ]
        rows = rows_of(
            f"{base} AND f.seq IN (SELECT value FROM json_each(?)) "
            "ORDER BY sim DESC, f.seq DESC LIMIT ?",
            (*params, json.dumps(seqs), candidates),
        )
        if len(rows) >= candidates:
            return rows
        if coarse >= 4096:  # a narrow filter: scan what it lets through, exactly
            return rows_of(exact, exact_params)
        coarse *= 4
