"""The vector side of the store: ``facts.embedding`` (float32) and ``facts_vec``.

``facts.embedding`` holds each fact's vector as float32 bytes; it stays NULL
while a fact waits for one (``facts_pending_embedding_idx`` is that queue).
``facts_vec`` is a sqlite-vec ``vec0`` table of the same vectors quantized to
one bit per dimension: a coarse search whose candidates are re-scored exactly
against the float vectors. Small memories skip it and scan exactly; with numpy,
large ones use the same bits held in process (:mod:`embornal.storage.bitindex`),
which follows ``facts.vec_rev``.

The width comes from config (default 768) and is written into ``meta`` the
first time; a different width later stops the memory (no wrong answers).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from embornal.errors import ConfigError, VectorWidthMismatch
from embornal.storage.connect import Connection, has_vec

__all__ = [
    "EXACT_SCAN_LIMIT",
    "VectorHit",
    "check_width",
    "clear_vectors",
    "ensure_index",
    "get_meta",
    "has_index",
    "pack",
    "pending_count",
    "pending_facts",
    "set_meta",
    "write_vectors",
]

# Up to this many embedded facts, vector search is an exact scan.
EXACT_SCAN_LIMIT = 20_000
WIDTH_KEY = "vector_width"
MODEL_KEY = "embedding_model"

VectorHit = tuple[str, float]  # (fact id, cosine similarity)


def pack(vector: Sequence[float]) -> bytes:
    return array("f", vector).tobytes()


def get_meta(conn: Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def check_width(conn: Connection, width: int) -> None:
    """Write the width into meta the first time; stop on a mismatch later."""
    stored = get_meta(conn, WIDTH_KEY)
    if stored is None:
        set_meta(conn, WIDTH_KEY, str(width))
        return
    if int(stored) != width:
        raise VectorWidthMismatch(
            f"this memory holds {stored}-dimensional vectors, but the configuration asks for "
            f"{width}",
            hint=(
                f"Set embedding.dims: {stored} in config.yaml (or choose a {stored}-d model), "
                "or re-embed every fact for the new model with "
                "`embornal memory reindex --all` after changing dims."
            ),
        )


def ensure_index(conn: Connection, width: int) -> bool:
    """Create ``facts_vec`` for ``width`` if sqlite-vec is loaded; False when it is not."""
    if not has_vec(conn):
        return False
    if width % 8:
        raise ConfigError(f"the vector width {width} must be a multiple of 8")
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS facts_vec USING vec0(embedding bit[{int(width)}])"
    )
    return True


def has_index(conn: Connection) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE name = 'facts_vec' AND type = 'table'"
    ).fetchone()
    return row is not None


def write_vectors(conn: Connection, items: Sequence[tuple[str, bytes]]) -> None:
    """Store float32 vectors for fact ids (inside the caller's transaction).

    Each write takes the next ``vec_rev``, which tells in-process indexes
    (:mod:`embornal.storage.bitindex`) what to load.
    """
    index = has_index(conn)
    for fact_id, blob in items:
        row = conn.execute("SELECT seq FROM facts WHERE id = ?", (fact_id,)).fetchone()
        if row is None:
            continue
        conn.execute(
            "UPDATE facts SET embedding = ?, "
            "vec_rev = coalesce((SELECT max(vec_rev) FROM facts), 0) + 1 WHERE seq = ?",
            (blob, row[0]),
        )
        if index:
            conn.execute("DELETE FROM facts_vec WHERE rowid = ?", (row[0],))
            conn.execute(
                "INSERT INTO facts_vec (rowid, embedding) VALUES (?, vec_quantize_binary(?))",
                (row[0], blob),
            )


def clear_vectors(conn: Connection) -> None:
    conn.execute("UPDATE facts SET embedding = NULL WHERE embedding IS NOT NULL")
    if has_index(conn):
        conn.execute("DELETE FROM facts_vec")


def pending_facts(conn: Connection, limit: int) -> list[Any]:
    """Live facts that wait for a vector, oldest first."""
    return list(
        conn.execute(
            "SELECT seq, id, content FROM facts WHERE embedding IS NULL AND deleted_at IS NULL "
            "AND purged_at IS NULL ORDER BY seq LIMIT ?",
            (limit,),
        ).fetchall()
    )


def pending_count(conn: Connection) -> int:
    row = conn.execute(
        "SELECT count(*) FROM facts WHERE embedding IS NULL AND deleted_at IS NULL "
        "AND purged_at IS NULL"
    ).fetchone()
    return int(row[0])
