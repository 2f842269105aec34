"""Vectors on PostgreSQL with pgvector: each fact's vector in ``fact_vectors`` under an
HNSW index (cosine), a long fact's pieces in ``fact_pieces``; search takes a wide
candidate set from the index (iterative scan, so the access filter and ``under`` cannot
starve it) and re-scores it exactly, a long fact by the mean of its opening piece's and
best piece's cosine, as SQLite does (decision 0012).

The tables are made by :func:`prepare` once the width is known (the ``vector`` extension
is created then: the database user must be allowed to, or an administrator creates it).
Like SQLite's, the vectors are derived from the model, not from the log.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Any

from embornal.domain.recall.chunks import CHUNK_CHARS
from embornal.storage.common import meta
from embornal.storage.common.meta import MODEL_KEY, WIDTH_KEY
from embornal.storage.postgres.db import Conn, Dialect, execute

__all__ = [
    "MODEL_KEY",
    "as_text",
    "clear",
    "get_meta",
    "has_tables",
    "nearest",
    "pending_sql",
    "pool_size",
    "prepare",
    "search_breadth",
    "set_meta",
    "write",
]

Rows = Callable[[str, Sequence[Any]], list[Any]]

SIMILARITY_SQL = (
    "coalesce((SELECT 0.5 * (max(CASE WHEN fp.idx = 0 THEN s END) + max(s)) FROM "
    "(SELECT fp.idx AS idx, 1.0 - (fp.embedding <=> ?::vector) AS s "
    "FROM fact_pieces fp WHERE fp.fact_id = f.id) fp), "
    "1.0 - (v.embedding <=> ?::vector))"
)


def as_text(blob: bytes) -> str:
    """A contract vector (float32 bytes) as pgvector's text form."""
    values = array("f")
    values.frombytes(blob)
    return "[" + ",".join(repr(x) for x in values) + "]"


def get_meta(conn: Conn, key: str) -> str | None:
    return meta.get_meta(Dialect(conn), key)


def set_meta(conn: Conn, key: str, value: str) -> None:
    meta.set_meta(Dialect(conn), key, value)


def has_tables(conn: Conn) -> bool:
    row = execute(conn, "SELECT to_regclass('fact_vectors') IS NOT NULL").fetchone()
    return row is not None and row[0] is True


def reset_width(conn: Conn, width: int) -> None:
    """Record ``width`` and make the vector tables again at it (cleared first)."""
    conn.execute("DROP TABLE IF EXISTS fact_pieces")
    conn.execute("DROP TABLE IF EXISTS fact_vectors")
    set_meta(conn, WIDTH_KEY, str(width))
    prepare(conn, width)


def prepare(conn: Conn, width: int) -> None:
    """Record the width (or stop on another) and make the tables and the HNSW index."""
    meta.check_width(Dialect(conn), width)
    if has_tables(conn):
        return
    n = int(width)
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    conn.execute(
        f"CREATE TABLE fact_vectors (seq BIGINT PRIMARY KEY REFERENCES facts (seq), "
        f"embedding vector({n}) NOT NULL)"
    )
    conn.execute(
        "CREATE INDEX fact_vectors_hnsw ON fact_vectors USING hnsw (embedding vector_cosine_ops)"
    )
    conn.execute(
        f"CREATE TABLE fact_pieces (fact_id TEXT NOT NULL REFERENCES facts (id), "
        f"idx INTEGER NOT NULL, embedding vector({n}) NOT NULL, PRIMARY KEY (fact_id, idx))"
    )


def write(conn: Conn, items: Sequence[tuple[str, bytes, Sequence[bytes]]]) -> None:
    """Each ``(fact id, vector, pieces)``: the fact's vector set (or replaced) and its
    pieces replaced, for all of them in one read, one delete and two pipelined
    ``executemany`` (a fact without a row is passed over)."""
    ids = [item[0] for item in items]
    if not ids:
        return
    seqs = {
        str(r[0]): int(r[1])
        for r in execute(conn, "SELECT id, seq FROM facts WHERE id = ANY(?)", (ids,)).fetchall()
    }
    known = list({item[0]: item for item in items if item[0] in seqs}.values())  # last wins
    execute(conn, "DELETE FROM fact_pieces WHERE fact_id = ANY(?)", ([i[0] for i in known],))
    with conn.cursor() as cur:
        pieces = [
            (fact_id, i, as_text(blob))
            for fact_id, _, chunks in known
            for i, blob in enumerate(chunks)
        ]
        if pieces:
            cur.executemany(
                "INSERT INTO fact_pieces (fact_id, idx, embedding) VALUES (%s, %s, %s::vector)",
                pieces,
            )
        if known:
            cur.executemany(
                "INSERT INTO fact_vectors (seq, embedding) VALUES (%s, %s::vector) "
                "ON CONFLICT (seq) DO UPDATE SET embedding = excluded.embedding",
                [(seqs[fact_id], as_text(vector)) for fact_id, vector, _ in known],
            )


def clear(conn: Conn) -> None:
    conn.execute("DELETE FROM fact_pieces")
    conn.execute("DELETE FROM fact_vectors")


_NO_VECTOR = (
    "NOT EXISTS (SELECT 1 FROM fact_vectors v WHERE v.seq = f.seq) "
    "AND f.deleted_at IS NULL AND f.purged_at IS NULL"
)
_NO_PIECES = (
    "EXISTS (SELECT 1 FROM fact_vectors v WHERE v.seq = f.seq) "
    f"AND f.deleted_at IS NULL AND f.purged_at IS NULL AND length(f.content) > {CHUNK_CHARS} "
    "AND NOT EXISTS (SELECT 1 FROM fact_pieces fp WHERE fp.fact_id = f.id)"
)


def pending_sql(tables: bool) -> tuple[str, str]:
    """``(facts waiting, their count)``: every live fact when no vector table exists."""
    if not tables:
        waiting = "f.deleted_at IS NULL AND f.purged_at IS NULL"
        return (
            f"SELECT f.seq, f.id, f.content FROM facts f WHERE {waiting} ORDER BY f.seq LIMIT ?",
            f"SELECT count(*) FROM facts f WHERE {waiting}",
        )
    return (
        f"SELECT f.seq, f.id, f.content FROM facts f WHERE {_NO_VECTOR} UNION ALL "
        f"SELECT f.seq, f.id, f.content FROM facts f WHERE {_NO_PIECES} ORDER BY 1 LIMIT ?",
        f"SELECT (SELECT count(*) FROM facts f WHERE {_NO_VECTOR}) "
        f"+ (SELECT count(*) FROM facts f WHERE {_NO_PIECES})",
    )


#: How many of the HNSW index's nearest a search re-scores, per candidate asked, and at
#: least (decision 0124). The index holds the exact vectors, so its order is already the
#: re-scored one for a fact without pieces; the pool lets a long fact's pieces reorder the
#: nearest. It is also the search's ``hnsw.ef_search`` (its breadth, hence its recall and
#: its cost), unless the database sets a larger one.
POOL_FACTOR = 2
MIN_POOL = 40


def pool_size(candidates: int) -> int:
    """How many of the index's nearest a search for ``candidates`` reads and re-scores."""
    return min(1000, max(candidates * POOL_FACTOR, MIN_POOL))


def search_breadth(conn: Conn, pool: int) -> int:
    """Set the HNSW search of the current transaction: an iterative scan (a filter cannot
    starve it) of a breadth (``hnsw.ef_search``) of ``pool``, or the database's own where
    an administrator set it higher (``ALTER DATABASE … SET hnsw.ef_search = 400``: more
    recall, more time); the breadth set."""
    row = conn.execute(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
        "set_config('hnsw.ef_search', greatest(coalesce(nullif("
        "current_setting('hnsw.ef_search', true), ''), '0')::int, %s)::text, true)",
        (int(min(1000, pool)),),
    ).fetchone()
    return int(row[1]) if row is not None else pool


def nearest(
    conn: Conn,
    query: bytes,
    candidates: int,
    where: tuple[str, tuple[Any, ...]],
    fact_cols: str,
    *,
    pool: int | None = None,
) -> list[Any]:
    """The fact rows (``fact_cols`` plus ``sim``) nearest to ``query``, best first: the
    HNSW index's ``pool`` nearest (:func:`pool_size` by default) that ``where`` lets
    through, re-scored exactly."""
    q = as_text(query)
    wide = pool_size(candidates) if pool is None else pool
    sql = (
        "WITH near AS (SELECT v.seq FROM fact_vectors v JOIN facts f ON f.seq = v.seq "
        f"JOIN paths p ON p.id = f.path_id WHERE {where[0]} "
        "ORDER BY v.embedding <=> ?::vector LIMIT ?) "
        f"SELECT {fact_cols}, {SIMILARITY_SQL} AS sim FROM near "
        "JOIN fact_vectors v ON v.seq = near.seq JOIN facts f ON f.seq = near.seq "
        "JOIN paths p ON p.id = f.path_id ORDER BY sim DESC, f.seq DESC LIMIT ?"
    )
    with conn.transaction():
        search_breadth(conn, wide)
        return list(execute(conn, sql, (*where[1], q, wide, q, q, candidates)).fetchall())
