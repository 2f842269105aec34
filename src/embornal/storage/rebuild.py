"""``embornal admin rebuild``: replay the whole log into fresh projections.

Vectors (``facts.embedding``, ``fact_pieces``) are derived from the model, not from
events: the replay keeps them. Each kept vector is written again with a revision above
every earlier one, so every in-process bit index loads it again; piece vectors are left
as they are (purged facts have none: purge deleted them).
"""

from __future__ import annotations

from embornal.storage import eventlog, projector, vectors
from embornal.storage.connect import Connection

__all__ = ["replay_keeping_vectors"]


def replay_keeping_vectors(conn: Connection) -> int:
    """Inside the caller's write transaction; return the number of events replayed."""
    top = conn.execute("SELECT coalesce(max(vec_rev), 0) FROM facts").fetchone()[0]
    conn.execute("DROP TABLE IF EXISTS temp.saved_vectors")
    conn.execute(
        "CREATE TEMP TABLE saved_vectors AS SELECT id, embedding FROM facts "
        "WHERE embedding IS NOT NULL"
    )
    projector.clear_projections(conn)
    if vectors.has_index(conn):
        conn.execute("DELETE FROM facts_vec")
    count = 0
    for event in eventlog.read_all(conn):
        projector.apply(conn, event)
        count += 1
    saved = conn.execute(
        "SELECT s.id, s.embedding FROM temp.saved_vectors s JOIN facts f ON f.id = s.id "
        "WHERE f.purged_at IS NULL"
    ).fetchall()
    vectors.write_vectors(conn, [(r[0], r[1]) for r in saved])
    conn.execute("UPDATE facts SET vec_rev = vec_rev + ? WHERE vec_rev IS NOT NULL", (top,))
    conn.execute("DROP TABLE temp.saved_vectors")
    return count
