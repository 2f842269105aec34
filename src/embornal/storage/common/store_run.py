"""A run of fact stores projected together (a bulk store, decision 0109).

:func:`embornal.storage.sqlite.projector.apply` projects one event at a time: a store costs a
path lookup, a ``facts`` insert and a ``fact_tags`` insert, each its own statement. A run
of consecutive ``FactStored`` events that supersede nothing (what ``store_many`` appends)
writes the same rows in a few statements for the whole run: one lookup of every path, one
``executemany`` of the rows of each column set, one of the tags. Each row keeps the row id
that one-by-one inserts would give it (one above the largest, in log order), so the keyword
documents, the history rows and everything a replay writes are the same; the per-fact rest
(allow list, evidence, entity keys, history) runs per event, after the rows, as before.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from embornal.hints import TYPE_CHECKING, Any
from embornal.storage.common import conflicts as conflict_projection
from embornal.storage.common import history
from embornal.storage.common import projector as projector_sql
from embornal.storage.sqlite import projector
from embornal.storage.sqlite.connect import Connection, DriverError

if TYPE_CHECKING:
    from embornal.domain.events import Event, FactStored

__all__ = ["project"]


def project(conn: Connection, events: Sequence[Event]) -> None:
    """Project ``events`` (each a :func:`~embornal.storage.common.eventlog.plain_store`, in
    log order) as ``apply`` would."""
    bodies: list[FactStored] = [e.body for e in events]  # type: ignore[misc]
    path_ids = _path_ids(conn, [b.path for b in bodies])
    base = int(conn.execute("SELECT coalesce(max(seq), 0) FROM facts").fetchone()[0])
    groups: dict[tuple[str, ...], list[list[Any]]] = {}
    for k, (e, b) in enumerate(zip(events, bodies, strict=True)):
        cols, values = projector_sql.fact_row(e, b, path_ids[b.path])
        groups.setdefault(("seq", *cols), []).append([base + 1 + k, *values])
    written = False
    for names, rows in groups.items():
        try:
            conn.executemany(
                f"INSERT INTO facts ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                rows,
            )
        except DriverError as err:  # a migration older than the late columns: one by one
            if written or not any(n in str(err) for n in projector_sql.LATE_COLUMNS):
                raise
            for e in events:
                projector.apply(conn, e)
            return
        written = True
    conn.executemany(
        "INSERT INTO fact_tags (fact_id, key, value) VALUES (?, ?, ?)",
        [(b.fact_id, t.key, t.value) for b in bodies for t in b.tags],
    )
    for k, (e, b) in enumerate(zip(events, bodies, strict=True)):
        projector.fts_insert(conn, base + 1 + k, b.content or "")
        projector_sql.fact_extras(conn, e, b)
        conflict_projection.after(conn, e, b)
        history.after(conn, e, b)


def _path_ids(conn: Connection, paths: list[str]) -> dict[str, int]:
    """The id of each path, created (with its ancestors) in order of first appearance."""
    distinct = list(dict.fromkeys(paths))
    found = {
        str(r[0]): int(r[1])
        for r in conn.execute(
            "SELECT path, id FROM paths WHERE path IN (SELECT value FROM json_each(?))",
            (json.dumps(distinct),),
        )
    }
    for path in distinct:
        if path not in found:
            found[path] = projector_sql.ensure_path(conn, path)
    return found
