"""The vector side of the store: ``facts.embedding`` (float32) and ``facts_vec``.

``facts.embedding`` holds each fact's vector as float32 bytes; it stays NULL
while a fact waits for one (``facts_pending_embedding_idx`` is that queue).
``facts_vec`` is a sqlite-vec ``vec0`` table of the same vectors quantized to
one bit per dimension: a coarse search whose candidates are re-scored exactly
against the float vectors. Small memories skip it and scan exactly; with numpy,
large ones use the same bits held in process (:mod:`embornal.storage.sqlite.bitindex`),
which follows ``facts.vec_rev``.

A long fact (embedded in pieces, decision 0011) also keeps each piece's vector in
``fact_pieces``; its similarity to a query is the mean of its opening piece's and its
best piece's (:data:`SIMILARITY_SQL`, decision 0012). Like ``facts.embedding`` the
pieces are derived from the model, not from the log: rebuild keeps them, purge and
``reindex --all`` clear them.

The width comes from config (default 384) and is written into ``meta`` the
first time; a different width later stops the memory (no wrong answers): the ``meta``
reads and writes are both backends' (:mod:`embornal.storage.common.meta`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from embornal.domain.recall.chunks import CHUNK_CHARS
from embornal.errors import ConfigError
from embornal.hints import Any
from embornal.storage.common.meta import MODEL_KEY, WIDTH_KEY, check_width, get_meta, set_meta
from embornal.storage.sqlite.connect import Connection, has_vec

__all__ = [
    "EXACT_SCAN_LIMIT",
    "MODEL_KEY",
    "SIMILARITY_SQL",
    "WIDTH_KEY",
    "VectorHit",
    "check_width",
    "clear_vectors",
    "ensure_index",
    "get_meta",
    "has_index",
    "pack",
    "pending_count",
    "pending_facts",
    "reset_width",
    "set_meta",
    "write_pieces",
    "write_vectors",
]

# Up to this many embedded facts, vector search is an exact scan.
EXACT_SCAN_LIMIT = 20_000

VectorHit = tuple[str, float]  # (fact id, cosine similarity)

# A fact's similarity to the query blob (bound twice): for a fact with pieces, the
# mean of its opening piece's cosine and its best piece's; else its vector's cosine.
# ``f`` is the facts row. Kept equal to ``embornal.domain.recall.chunks.piece_similarity``.
SIMILARITY_SQL = (
    "coalesce((SELECT 0.5 * (max(CASE WHEN fp.idx = 0 THEN s END) + max(s)) FROM "
    "(SELECT fp.idx AS idx, 1.0 - vec_distance_cosine(fp.embedding, ?) AS s "
    "FROM fact_pieces fp WHERE fp.fact_id = f.id) fp), "
    "1.0 - vec_distance_cosine(f.embedding, ?))"
)


_ID_CHUNK = 500  # fact ids bound in one IN (...)


def pack(vector: Sequence[float]) -> bytes:
    from array import array  # here, not at the top: a recall with no model packs no vector

    return array("f", vector).tobytes()


def reset_width(conn: Connection, width: int) -> None:
    """Record ``width`` and make ``facts_vec`` again at it (every vector cleared first)."""
    if has_vec(conn) and width % 8:
        raise ConfigError(f"the vector width {width} must be a multiple of 8")
    if has_index(conn):
        conn.execute("DROP TABLE facts_vec")
    set_meta(conn, WIDTH_KEY, str(width))
    ensure_index(conn, width)


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


def write_vectors(
    conn: Connection,
    items: Sequence[tuple[str, bytes]],
    pieces: Mapping[str, Sequence[bytes]] | None = None,
) -> None:
    """Store float32 vectors for fact ids (inside the caller's transaction).

    Each write takes the next ``vec_rev``, which tells in-process indexes
    (:mod:`embornal.storage.sqlite.bitindex`) what to load; a batch is written in a few
    statements (one read of the row ids, one update of the rows, the pieces and the
    ``facts_vec`` entries each in one), with the revisions one-by-one writes would take.
    With ``pieces``, each fact's piece vectors are replaced by ``pieces[fact_id]`` (none
    when it is missing: a short fact); without, piece vectors stay as they are (rebuild).
    """
    index = has_index(conn)
    wanted = list(dict.fromkeys(fact_id for fact_id, _ in items))
    seqs: dict[str, int] = {}
    for start in range(0, len(wanted), _ID_CHUNK):
        chunk = wanted[start : start + _ID_CHUNK]
        marks = ",".join("?" * len(chunk))
        found = conn.execute(f"SELECT id, seq FROM facts WHERE id IN ({marks})", chunk)
        seqs.update((str(r[0]), int(r[1])) for r in found)
    kept = [(fact_id, blob, seqs[fact_id]) for fact_id, blob in items if fact_id in seqs]
    if not kept:
        return
    if pieces is not None:
        ids = [(fact_id,) for fact_id in dict.fromkeys(fact_id for fact_id, _, _ in kept)]
        conn.executemany("DELETE FROM fact_pieces WHERE fact_id = ?", ids)
        conn.executemany(
            "INSERT INTO fact_pieces (fact_id, idx, embedding) VALUES (?, ?, ?)",
            [(f, i, b) for (f,) in ids for i, b in enumerate(pieces.get(f, ()))],
        )
    # Each write takes the next revision, in order, as one statement a write would.
    rev = int(conn.execute("SELECT coalesce(max(vec_rev), 0) FROM facts").fetchone()[0])
    conn.executemany(
        "UPDATE facts SET embedding = ?, vec_rev = ? WHERE seq = ?",
        [(blob, rev + n, seq) for n, (_, blob, seq) in enumerate(kept, start=1)],
    )
    if index:
        last = {seq: blob for _, blob, seq in kept}  # a fact written twice: its last vector
        conn.executemany("DELETE FROM facts_vec WHERE rowid = ?", [(seq,) for seq in last])
        conn.executemany(
            "INSERT INTO facts_vec (rowid, embedding) VALUES (?, vec_quantize_binary(?))",
            list(last.items()),
        )


def write_pieces(conn: Connection, fact_id: str, blobs: Sequence[bytes]) -> None:
    """Replace a fact's piece vectors (a short fact has none: its vector is it)."""
    conn.execute("DELETE FROM fact_pieces WHERE fact_id = ?", (fact_id,))
    conn.executemany(
        "INSERT INTO fact_pieces (fact_id, idx, embedding) VALUES (?, ?, ?)",
        [(fact_id, i, blob) for i, blob in enumerate(blobs)],
    )


def clear_vectors(conn: Connection) -> None:
    conn.execute("UPDATE facts SET embedding = NULL WHERE embedding IS NOT NULL")
    conn.execute("DELETE FROM fact_pieces")
    if has_index(conn):
        conn.execute("DELETE FROM facts_vec")


# Live facts that wait: for a vector, or (a long fact embedded before its pieces were
# kept, migration 0009) for its pieces' vectors.
_NO_VECTOR = "embedding IS NULL AND deleted_at IS NULL AND purged_at IS NULL"
_NO_PIECES = (
    f"embedding IS NOT NULL AND deleted_at IS NULL AND purged_at IS NULL "
    f"AND length(content) > {CHUNK_CHARS} "
    "AND NOT EXISTS (SELECT 1 FROM fact_pieces fp WHERE fp.fact_id = facts.id)"
)


def pending_facts(conn: Connection, limit: int) -> list[Any]:
    """Live facts that wait for a vector, or for their pieces' vectors; oldest first."""
    return list(
        conn.execute(
            f"SELECT seq, id, content FROM facts WHERE {_NO_VECTOR} "
            f"UNION ALL SELECT seq, id, content FROM facts WHERE {_NO_PIECES} "
            "ORDER BY seq LIMIT ?",
            (limit,),
        ).fetchall()
    )


def pending_count(conn: Connection) -> int:
    row = conn.execute(
        f"SELECT (SELECT count(*) FROM facts WHERE {_NO_VECTOR}) "
        f"+ (SELECT count(*) FROM facts WHERE {_NO_PIECES})"
    ).fetchone()
    return int(row[0])
