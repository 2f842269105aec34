"""One consistent read of a SQLite memory for a copy (decision 0102): a read transaction
on a connection of its own, so a writer goes on and what it writes is not in the copy
(WAL: the reader keeps its snapshot until it ends)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from embornal.domain.events import Event
from embornal.storage.contract.store import FactVector, Redaction
from embornal.storage.sqlite import eventlog, vectors
from embornal.storage.sqlite.connect import Connection, connect

__all__ = ["SqliteSnapshot", "sqlite_snapshot"]


class SqliteSnapshot:
    """The log, its redaction records and the vectors, as one read transaction sees them."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self.events = int(conn.execute("SELECT count(*) FROM events").fetchone()[0])

    def log(self) -> Iterator[tuple[Event, Redaction | None]]:
        marks = {
            int(r[0]): Redaction(int(r[1]), str(r[2]))
            for r in self._conn.execute(
                "SELECT position, purge_position, redacted_at FROM event_redactions"
            ).fetchall()
        }
        for event in eventlog.read_all(self._conn):
            yield event, marks.get(event.position)

    def vector_model(self) -> tuple[int, str] | None:
        width = vectors.get_meta(self._conn, vectors.WIDTH_KEY)
        model = vectors.get_meta(self._conn, vectors.MODEL_KEY)
        if width is None or model is None:
            return None
        return int(width), model

    def vectors(self, page: int = 500) -> Iterator[list[FactVector]]:
        last = ""
        while True:
            found = self._conn.execute(
                "SELECT id, embedding FROM facts WHERE embedding IS NOT NULL AND id > ? "
                "ORDER BY id LIMIT ?",
                (last, page),
            ).fetchall()
            if not found:
                return
            ids = [str(r[0]) for r in found]
            pieces: dict[str, list[bytes]] = {}
            marks = ",".join("?" * len(ids))
            for r in self._conn.execute(
                f"SELECT fact_id, embedding FROM fact_pieces WHERE fact_id IN ({marks}) "
                "ORDER BY fact_id, idx",
                ids,
            ).fetchall():
                pieces.setdefault(str(r[0]), []).append(bytes(r[1]))
            yield [
                FactVector(i, bytes(r[1]), tuple(pieces.get(i, ())))
                for i, r in zip(ids, found, strict=True)
            ]
            last = ids[-1]


@contextmanager
def sqlite_snapshot(path: str, shared: Connection | None) -> Iterator[SqliteSnapshot]:
    """A read transaction on a new read-only connection to ``path`` (``shared``: the one
    connection of an in-memory database, which the caller holds the lock of)."""
    conn = shared if shared is not None else connect(path, readonly=True)
    try:
        conn.execute("BEGIN")
        try:
            yield SqliteSnapshot(conn)
        finally:
            conn.execute("ROLLBACK")
    finally:
        if shared is None:
            conn.close()
