"""Moving a PostgreSQL memory whole: a log written back into an empty database, and the
backup — a new SQLite memory file holding the same log, redaction records and vectors,
read from one snapshot while writers go on (no ``pg_dump``: the copy opens anywhere,
and ``admin restore`` or an import brings it back)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from embornal.domain.clock import Clock
from embornal.domain.events import Event
from embornal.errors import Conflict, InvalidInput
from embornal.storage.contract import FactVector, Redaction
from embornal.storage.postgres import eventlog
from embornal.storage.postgres.admin import replay
from embornal.storage.postgres.db import Conn, pg_sql, rows

__all__ = ["restore_log", "write_backup"]

_PAGE = 1000


def restore_log(tx: Conn, entries: Iterable[tuple[Event, Redaction | None]]) -> int:
    """Into the empty log of ``tx`` (else Conflict): each event at its own position,
    version, time and actor, payload as given, with its redaction record; then every
    projection from it, in the same transaction. Return how many."""
    from embornal.storage.portability import _row

    if rows(tx, "SELECT 1 FROM events LIMIT 1"):
        raise Conflict(
            "the memory already holds events: a log is restored only into an empty one",
            hint="Import into a new memory: `embornal --db NEW.db import events FILE`.",
        )
    count = 0
    batch: list[tuple[Any, ...]] = []
    marks: list[tuple[int, int, str]] = []
    for event, mark in entries:
        batch.append(_row(event))
        if mark is not None:
            marks.append((event.position, mark.purge_position, mark.redacted_at))
        count += 1
        if len(batch) >= _PAGE:
            _insert(tx, batch, marks)
    _insert(tx, batch, marks)
    tx.execute(
        "SELECT setval(pg_get_serial_sequence('events', 'position'), "
        "coalesce((SELECT max(position) FROM events), 0) + 1, false)"
    )
    replay(tx)
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
    batch.clear()
    marks.clear()


def _log(conn: Conn) -> Iterator[tuple[Event, Redaction | None]]:
    marks = {
        int(r[0]): Redaction(int(r[1]), str(r[2]))
        for r in rows(conn, "SELECT position, purge_position, redacted_at FROM event_redactions")
    }
    last = 0
    while page := eventlog.read_page(conn, after=last, until=None, limit=_PAGE):
        for event in page:
            yield event, marks.get(event.position)
        last = page[-1].position


def _vectors(conn: Conn) -> tuple[int, str, list[FactVector]] | None:
    """``(width, model, vectors)`` of the snapshot, None when it holds none."""
    from array import array

    from embornal.storage.postgres import vectors
    from embornal.storage.vectors import WIDTH_KEY

    if not vectors.has_tables(conn):
        return None
    width, model = (
        vectors.get_meta(conn, WIDTH_KEY),
        vectors.get_meta(conn, vectors.MODEL_KEY),
    )
    if width is None or model is None:
        return None

    def blob(text: str) -> bytes:
        return array("f", [float(x) for x in text.strip("[]").split(",")]).tobytes()

    pieces: dict[str, list[bytes]] = {}
    for r in rows(conn, "SELECT fact_id, embedding::text FROM fact_pieces ORDER BY fact_id, idx"):
        pieces.setdefault(r[0], []).append(blob(r[1]))
    found = rows(
        conn,
        "SELECT f.id, v.embedding::text FROM fact_vectors v JOIN facts f ON f.seq = v.seq",
    )
    items = [FactVector(r[0], blob(r[1]), tuple(pieces.get(r[0], ()))) for r in found]
    return int(width), model, items


def write_backup(conn: Conn, target: str, clock: Clock) -> None:
    """Write the memory of ``conn`` into the new SQLite file ``target``, from one snapshot
    (written beside it, then renamed: a failed copy leaves nothing at ``target``)."""
    from embornal.storage.connect import make_private
    from embornal.storage.sqlite import SqliteStore

    dest = Path(target)
    if dest.exists():
        raise InvalidInput(
            f"{target} already exists: a backup is written to a new file",
            hint="Name a file that does not exist yet, or remove the old one first.",
        )
    part = dest.with_name(dest.name + ".part")
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        copy = SqliteStore.open(part, clock, seed=False)
        try:
            copy.restore_log(_log(conn))
            carried = _vectors(conn)
            if carried is not None:
                copy.prepare_vectors(carried[0])  # False without sqlite-vec: kept all the same
                with copy.transaction("copying vectors") as tx:
                    copy.write_vectors(tx, carried[2], model=carried[1])
        finally:
            copy.close()
    os.replace(part, dest)
    make_private(dest)
