"""Moving a PostgreSQL memory whole: a log written back into an empty database, and the
backup — a new SQLite memory file holding the same log, redaction records and vectors,
read from one snapshot while writers go on (no ``pg_dump``: the copy opens anywhere,
and ``admin restore`` or an import brings it back)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from typing import Any, Protocol, TypeVar

import psycopg

from embornal.domain.clock import Clock
from embornal.domain.events import Event
from embornal.storage.common.part import PartStore
from embornal.storage.common.portability import PortabilityReads, restore_entries
from embornal.storage.contract.store import FactVector, Redaction
from embornal.storage.postgres import eventlog, projector
from embornal.storage.postgres.admin import replay
from embornal.storage.postgres.db import Conn, pg_sql, rows

__all__ = ["PgPortability", "PgSnapshot", "restore_log", "snapshot", "write_backup"]

_PAGE = 1000
T = TypeVar("T")


def restore_log(tx: Conn, entries: Iterable[tuple[Event, Redaction | None]]) -> int:
    """Into the empty log of ``tx`` (else Conflict): each event at its own position,
    version, time and actor, payload as given, with its redaction record; then every
    projection from it, in the same transaction (an event the projections refuse: an
    InvalidImport, and nothing is written). Return how many."""
    from embornal.storage.sqlite.portability import refusing

    held = bool(rows(tx, "SELECT 1 FROM events LIMIT 1"))
    count = restore_entries(held, entries, partial(_insert, tx), _PAGE)
    tx.execute(
        "SELECT setval(pg_get_serial_sequence('events', 'position'), "
        "coalesce((SELECT max(position) FROM events), 0) + 1, false)"
    )
    replay(tx, apply=refusing(projector.apply, (psycopg.IntegrityError, psycopg.DataError)))
    return count


def _insert(tx: Conn, batch: list[tuple[Any, ...]], marks: list[tuple[int, int, str]]) -> None:
    with tx.cursor() as cur:
        if batch:
            cur.executemany(
                pg_sql(
                    "INSERT INTO events (position, stream_id, version, type, schema_version, "
                    "payload, actor, actor_kind, reason, recorded_at) OVERRIDING SYSTEM VALUE "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                batch,
            )
        if marks:
            cur.executemany(
                pg_sql(
                    "INSERT INTO event_redactions (position, purge_position, redacted_at) "
                    "VALUES (?, ?, ?)"
                ),
                marks,
            )


class PgSnapshot:
    """The log, its redaction records and the vectors, as one ``REPEATABLE READ, READ
    ONLY`` transaction sees them (the backup's read, and a copy's: decision 0102)."""

    def __init__(self, conn: Conn) -> None:
        self._conn = conn
        self.events = int(rows(conn, "SELECT count(*) FROM events")[0][0])

    def log(self) -> Iterator[tuple[Event, Redaction | None]]:
        marks = {
            int(r[0]): Redaction(int(r[1]), str(r[2]))
            for r in rows(
                self._conn, "SELECT position, purge_position, redacted_at FROM event_redactions"
            )
        }
        last = 0
        while page := eventlog.read_page(self._conn, after=last, until=None, limit=_PAGE):
            for event in page:
                yield event, marks.get(event.position)
            last = page[-1].position

    def vector_model(self) -> tuple[int, str] | None:
        from embornal.storage.common.meta import WIDTH_KEY
        from embornal.storage.postgres import vectors

        if not vectors.has_tables(self._conn):
            return None
        width = vectors.get_meta(self._conn, WIDTH_KEY)
        model = vectors.get_meta(self._conn, vectors.MODEL_KEY)
        return None if width is None or model is None else (int(width), model)

    def vectors(self, page: int = 500) -> Iterator[list[FactVector]]:
        if self.vector_model() is None:
            return
        last = ""
        while found := rows(
            self._conn,
            "SELECT f.id, v.embedding::text FROM fact_vectors v JOIN facts f ON f.seq = v.seq "
            "WHERE f.id > ? ORDER BY f.id LIMIT ?",
            (last, page),
        ):
            ids = [str(r[0]) for r in found]
            pieces: dict[str, list[bytes]] = {}
            for r in rows(
                self._conn,
                "SELECT fact_id, embedding::text FROM fact_pieces WHERE fact_id = ANY(?) "
                "ORDER BY fact_id, idx",
                (ids,),
            ):
                pieces.setdefault(str(r[0]), []).append(_blob(r[1]))
            yield [
                FactVector(i, _blob(r[1]), tuple(pieces.get(i, ())))
                for i, r in zip(ids, found, strict=True)
            ]
            last = ids[-1]


def _blob(text: str) -> bytes:
    """pgvector's text form as the contract's float32 bytes."""
    from array import array

    return array("f", [float(x) for x in text.strip("[]").split(",")]).tobytes()


@contextmanager
def snapshot(conn: Conn) -> Iterator[PgSnapshot]:
    """One ``REPEATABLE READ, READ ONLY`` transaction on ``conn``, rolled back at the end."""
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield PgSnapshot(conn)


def write_backup(conn: Conn, target: str, clock: Clock) -> None:
    """Write the memory of ``conn`` into the new SQLite file ``target``, from one snapshot
    (written beside it, then renamed: a failed copy leaves nothing at ``target``)."""
    from embornal.storage.sqlite.connect import make_private
    from embornal.storage.sqlite.portability import backup_part, backup_target, remove_file
    from embornal.storage.sqlite.store import SqliteStore

    dest = backup_target(target)
    part = backup_part(dest)
    try:
        with snapshot(conn) as snap:
            copy = SqliteStore.open(part, clock, seed=False)
            try:
                copy.portability.restore_log(snap.log())
                carried = snap.vector_model()
                if carried is not None:
                    copy.prepare_vectors(carried[0])  # False without sqlite-vec: kept anyway
                    for items in snap.vectors():
                        with copy.transaction("copying vectors") as tx:
                            copy.write_vectors(tx, items, model=carried[1])
            finally:
                copy.close()
        os.replace(part, dest)
    finally:
        remove_file(part)  # a failed copy leaves nothing; after the rename, nothing is left
    make_private(dest)


class _Store(PartStore, Protocol):
    """What the part reads through: the PostgreSQL store's pool and clock too."""

    clock: Clock
    _pool: Any

    def transaction(self, doing: str = "writing") -> AbstractContextManager[Conn]: ...

    def _read(self, read: Callable[[Conn], T], doing: str = "reading") -> T: ...


class PgPortability(PortabilityReads):
    """The portability reads and writes of a PostgreSQL store (``store.portability``)."""

    _store: _Store

    def restore_log(self, entries: Iterable[tuple[Event, Redaction | None]]) -> int:
        """Into an empty log in one transaction: events, then projections (.portability)."""
        with self._store.transaction("importing events") as tx:
            return restore_log(tx, entries)

    @contextmanager
    def snapshot(self) -> Iterator[PgSnapshot]:
        """One ``REPEATABLE READ, READ ONLY`` read of the whole memory (decision 0102)."""
        with self._store._pool.connection() as conn, snapshot(conn) as snap:
            yield snap

    def backup(self, target: str) -> None:
        """A new SQLite memory file of this log, redactions and vectors (decision 0073)."""
        self._store._read(
            lambda conn: write_backup(conn, target, self._store.clock), "writing a backup"
        )
