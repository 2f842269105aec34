"""Projections on PostgreSQL: how each event changes the tables that answer queries.

``apply`` runs in the transaction that appends the event, as on SQLite. The core's
projections are written once for both backends (:mod:`embornal.storage.common.projector`, as
decision 0119 wrote the past reads) and run here through the dialect, as are the areas'
written in plain SQL; here are this backend's own: a store's row and its keyword terms, the
indexes a purge empties, the recalled rows locked in id order. An
event type whose projection is not ported yet stops the write
(:class:`~embornal.errors.StorageError`) rather than leave a projection silently behind its
log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from embornal.domain.events import EVENTS, EventType
from embornal.domain.recall.text import index_terms
from embornal.errors import StorageError
from embornal.storage.common import conflicts as conflict_projection
from embornal.storage.common import projector as projector_sql
from embornal.storage.postgres import history as pg_history
from embornal.storage.postgres import keyword
from embornal.storage.postgres.db import Conn, Dialect, execute

if TYPE_CHECKING:
    from embornal.domain.events import Event

__all__ = ["FACT_COLUMNS", "PORTED", "apply", "fact_values", "many"]


def _x(conn: Conn, sql: str, params: Any = ()) -> Any:
    return execute(conn, sql, params)


def many(conn: Conn, sql: str, seq: list[tuple[Any, ...]]) -> None:
    """``sql`` run once for each row of ``seq`` (none: nothing sent), pipelined."""
    Dialect(conn).executemany(sql, seq)


# -- the keyword index -------------------------------------------------------------------


def _index_terms(conn: Conn, seq: int, content: str) -> None:
    """The fact's terms into its tsvector, ``fact_terms`` and the BM25 statistics."""
    terms = index_terms(content)
    counts = Counter(terms)
    _x(
        conn,
        "UPDATE facts SET terms = array_to_tsvector(?::text[]), term_count = ? WHERE seq = ?",
        (sorted(counts), len(terms), seq),
    )
    if keyword.writes_lengths():
        many(
            conn,
            "INSERT INTO fact_terms (seq, term, tf, dl) VALUES (?, ?, ?, ?)",
            [(seq, t, n, len(terms)) for t, n in counts.items()],
        )
    else:  # a migration before pg_0009 (the guide's facts): it fills the lengths in
        many(
            conn,
            "INSERT INTO fact_terms (seq, term, tf) VALUES (?, ?, ?)",
            [(seq, t, n) for t, n in counts.items()],
        )
    many(
        conn,
        "INSERT INTO term_stats (term, df) VALUES (?, 1) "
        "ON CONFLICT (term) DO UPDATE SET df = term_stats.df + 1",
        [(t,) for t in sorted(counts)],
    )
    _x(
        conn,
        "UPDATE counters SET value = value + CASE name WHEN 'fts_docs' THEN 1 ELSE ? END "
        "WHERE name IN ('fts_docs', 'fts_length')",
        (len(terms),),
    )


def _unindex_terms(conn: Conn, seq: int) -> None:
    """Take a (purged) fact's terms out of the index and its statistics."""
    found = _x(conn, "SELECT term FROM fact_terms WHERE seq = ?", (seq,)).fetchall()
    length = _x(conn, "SELECT term_count FROM facts WHERE seq = ?", (seq,)).fetchone()
    _x(conn, "DELETE FROM fact_terms WHERE seq = ?", (seq,))
    terms = [r[0] for r in found]
    if terms:
        _x(conn, "UPDATE term_stats SET df = df - 1 WHERE term = ANY(?)", (terms,))
        _x(conn, "DELETE FROM term_stats WHERE df <= 0 AND term = ANY(?)", (terms,))
    _x(
        conn,
        "UPDATE counters SET value = value - CASE name WHEN 'fts_docs' THEN 1 ELSE ? END "
        "WHERE name IN ('fts_docs', 'fts_length')",
        (int(length[0]) if length else 0,),
    )
    _x(conn, "UPDATE facts SET terms = NULL, term_count = 0 WHERE seq = ?", (seq,))


# -- facts ---------------------------------------------------------------------------------


#: The columns of a new ``facts`` row, in :func:`fact_values`' order.
FACT_COLUMNS = (
    "id, path_id, content, kind, owner, created_at, recorded_at, stability_days, "
    "supersedes_id, attributes, kind_version, visibility, lifetime, lifetime_until, "
    "expires_at, confidence, tag_text"
)
_FACT_NAMES = tuple(FACT_COLUMNS.split(", "))
#: The value of a column a store leaves out (:func:`~embornal.storage.common.projector.fact_row`
#: names only the columns it sets): none but the lifetime's, ``standard``.
_UNSET = {"lifetime": "standard"}


def fact_values(e: Event, b: Any, path_id: int) -> tuple[Any, ...]:
    """The :data:`FACT_COLUMNS` values of the row that the store ``b`` creates (one store,
    or a run of them: :mod:`.store_run`)."""
    cols, values = projector_sql.fact_row(e, b, path_id)
    given = dict(zip(cols, values, strict=True))
    return tuple(given.get(name, _UNSET.get(name)) for name in _FACT_NAMES)


def _fact_stored(conn: Conn, e: Event, b: Any) -> None:
    path_id = projector_sql.ensure_path(Dialect(conn), b.path)
    seq = int(
        _x(
            conn,
            f"INSERT INTO facts ({FACT_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq",
            fact_values(e, b, path_id),
        ).fetchone()[0]
    )
    _index_terms(conn, seq, b.content or "")
    projector_sql.fact_rest(Dialect(conn), e, b)


def _fact_purged(conn: Conn, e: Event, b: Any) -> None:
    fid = b.fact_id
    row = _x(conn, "SELECT seq FROM facts WHERE id = ?", (fid,)).fetchone()
    if row is None:
        return
    _unindex_terms(conn, int(row[0]))
    if _x(conn, "SELECT to_regclass('fact_vectors') IS NOT NULL").fetchone()[0]:
        _x(conn, "DELETE FROM fact_vectors WHERE seq = ?", (row[0],))
        _x(conn, "DELETE FROM fact_pieces WHERE fact_id = ?", (fid,))
    projector_sql.purge_rest(Dialect(conn), e, fid)


def _facts_recalled(conn: Conn, e: Event, b: Any) -> None:
    projector_sql.recalled(Dialect(conn), b, lock=" ORDER BY id FOR UPDATE")


def _through_dialect(handler: projector_sql.Handler) -> Callable[[Conn, Event, Any], None]:
    """A handler written in plain SQL, run on this backend's connection."""
    return lambda conn, e, b: handler(Dialect(conn), e, b)


# The core's handlers and every area's (found by its events' module, decision 0181) are
# written once for both backends: their plain SQL runs here through the dialect.
_HANDLERS: dict[str, Callable[[Conn, Event, Any], None]] = {
    **{name: _through_dialect(handler) for name, handler in projector_sql.HANDLERS.items()},
    EventType.FACT_STORED: _fact_stored,
    EventType.FACT_PURGED: _fact_purged,
    EventType.FACTS_RECALLED: _facts_recalled,
    **{
        name: _through_dialect(handler)
        for area in projector_sql.areas()
        for name, handler in import_module(f"embornal.storage.common.{area}").HANDLERS.items()
    },
}
#: The event types this backend projects.
PORTED = frozenset(_HANDLERS)


def apply(conn: Conn, event: Event) -> None:
    """Apply one event to the projections (unknown types are ignored: newer writers)."""
    if not EVENTS.knows(event.type):
        return
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise StorageError(
            f"postgresql: the projection of {event.type} is not ported yet",
            hint="Keep this memory on SQLite (a file path in storage.url) for now.",
        )
    body = event.body
    handler(conn, event, body)
    conflict_projection.after(Dialect(conn), event, body)  # entity keys (decision 0059)
    pg_history.project(conn, event, body)  # the intervals of what it changed (decision 0041)
