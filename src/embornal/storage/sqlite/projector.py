"""Projections: how each event changes the tables that answer queries.

``apply`` runs inside the transaction that appends the event, so the log and
the projections never disagree; ``embornal admin rebuild`` runs the same code
over the whole log. The core's projections are written once for both backends
(:mod:`embornal.storage.common.projector`, as decision 0119 wrote the past reads); here are
SQLite's own: a store's row and keyword document, a purge's indexes, and the areas'
handlers, an area's module imported the first time one of its events is applied
(:func:`embornal.storage.common.projector.area` names it, decision 0181).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import import_module

from embornal.domain.events import EVENTS, EventType
from embornal.domain.recall.text import fts_document
from embornal.hints import TYPE_CHECKING, Any
from embornal.storage.common import conflicts as conflict_projection
from embornal.storage.common import history
from embornal.storage.common.projector import (
    HANDLERS,
    LATE_COLUMNS,
    area,
    ensure_path,
    fact_rest,
    fact_row,
    purge_rest,
    recalled,
)
from embornal.storage.sqlite.connect import Connection, DriverError
from embornal.storage.sqlite.projector_areas import projection_tables

if TYPE_CHECKING:  # the handlers name their bodies; dispatch is by stored type
    from embornal.domain.events import Event, FactPurged, FactsRecalled, FactStored

__all__ = ["PROJECTION_TABLES", "apply", "batch", "clear_projections", "fts_insert", "handler"]


if TYPE_CHECKING:  # tables rebuilt from the log, children first (projector_areas)
    PROJECTION_TABLES: tuple[str, ...]
else:

    def __getattr__(name: str) -> Any:  # PROJECTION_TABLES: read by a rebuild, not a write
        if name != "PROJECTION_TABLES":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        tables = globals()["PROJECTION_TABLES"] = projection_tables()
        return tables


#: The keyword documents of the stores of one append, written after its stores (see
#: :func:`batch`); None outside a batch: each document is written at once.
_DOCS: ContextVar[list[tuple[int, str]] | None] = ContextVar("embornal_fts_docs", default=None)


@contextmanager
def batch(conn: Connection) -> Iterator[None]:
    """Apply the events of one append: the keyword documents of its stores are written
    together, after the last store (or before the first other event, which may read or
    delete them). FTS5 writes its pending terms out as a segment whenever a statement
    opens a statement journal (an INSERT with triggers, an INSERT … SELECT), so writing
    each document between the other statements of its store made one segment, and merge
    work, per fact."""
    docs: list[tuple[int, str]] = []
    token = _DOCS.set(docs)
    try:
        with history.batch(conn):  # the first history rows of its stores, likewise
            yield
        _write_docs(conn, docs)
    finally:
        _DOCS.reset(token)


def _write_docs(conn: Connection, docs: list[tuple[int, str]]) -> None:
    if not docs:
        return
    conn.executemany("INSERT INTO facts_fts (rowid, body) VALUES (?, ?)", docs)
    conn.execute("UPDATE counters SET value = value + ? WHERE name = 'fts_docs'", (len(docs),))
    docs.clear()


def fts_insert(conn: Connection, seq: int, content: str) -> None:
    """The keyword document of fact row ``seq``: now, or with its batch's (see :func:`batch`)."""
    docs = _DOCS.get()
    if docs is None:
        _write_docs(conn, [(seq, fts_document(content))])
    else:
        docs.append((seq, fts_document(content)))


def _fact_stored(conn: Connection, e: Event, b: FactStored) -> None:
    cols, values = fact_row(e, b, ensure_path(conn, b.path))
    while True:
        try:
            cur = conn.execute(
                f"INSERT INTO facts ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                values,
            )
            break
        except DriverError as err:
            missing = [i for i, n in enumerate(cols) if n in LATE_COLUMNS and n in str(err)]
            if not missing:
                raise
            del cols[missing[0] :], values[missing[0] :]  # that migration and later: not yet
    fts_insert(conn, int(cur.lastrowid), b.content or "")
    fact_rest(conn, e, b)


def _fact_purged(conn: Connection, e: Event, b: FactPurged) -> None:
    row = conn.execute("SELECT seq FROM facts WHERE id = ?", (b.fact_id,)).fetchone()
    if row is None:
        return
    conn.execute("DELETE FROM facts_fts WHERE rowid = ?", (row[0],))
    conn.execute("UPDATE counters SET value = value - 1 WHERE name = 'fts_docs'")
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'facts_vec'").fetchone():
        conn.execute("DELETE FROM facts_vec WHERE rowid = ?", (row[0],))
    conn.execute("DELETE FROM fact_pieces WHERE fact_id = ?", (b.fact_id,))
    purge_rest(conn, e, b.fact_id, also="embedding = NULL, ")


def _facts_recalled(conn: Connection, e: Event, b: FactsRecalled) -> None:
    recalled(conn, b)


#: The projection of each stored type (the classes themselves are not imported here): the
#: core's from the start, an area's added the first time one of its events is applied.
_HANDLERS: dict[str, Callable[[Connection, Event, Any], None]] = {
    **HANDLERS,
    EventType.FACT_STORED: _fact_stored,
    EventType.FACT_PURGED: _fact_purged,
    EventType.FACTS_RECALLED: _facts_recalled,
}


def handler(event_type: str) -> Callable[[Connection, Event, Any], None]:
    """The projection of ``event_type``, its area's module imported on first need."""
    found = _HANDLERS.get(event_type)
    if found is None:
        module = import_module(f"embornal.storage.common.{area(event_type)}")
        _HANDLERS.update(module.HANDLERS)
        found = _HANDLERS[event_type]
    return found


def apply(conn: Connection, event: Event) -> None:
    """Apply one event to the projections (unknown types are ignored: newer writers)."""
    if not EVENTS.knows(event.type):
        return
    body = event.body
    docs = _DOCS.get()
    if docs is not None and (
        event.type != EventType.FACT_STORED or getattr(body, "supersedes_id", None)
    ):  # what this event does may read or change what waits
        _write_docs(conn, docs)
        history.flush(conn)
    handler(event.type)(conn, event, body)
    conflict_projection.after(conn, event, body)  # entity keys (decision 0059)
    history.after(conn, event, body)  # the intervals of what it changed (decision 0041)


def clear_projections(conn: Connection) -> None:
    """Empty every projection (keeping the root path) before a replay."""
    conn.execute("DELETE FROM facts_fts")
    conn.execute("UPDATE counters SET value = 0 WHERE name IN ('fts_docs', 'policy_version')")
    for table in projection_tables():
        conn.execute(f"DELETE FROM {table}")
    conn.execute(
        "INSERT INTO paths (id, parent_id, name, path, depth) VALUES (1, NULL, '', '/', 0)"
    )
    conn.execute(
        "INSERT INTO path_closure (ancestor_id, descendant_id, ancestor_depth) VALUES (1, 1, 0)"
    )
