"""The history projection: what the memory held at any past time, as intervals of recorded
time (decision 0041).

Every row holds ``[valid_from, valid_to)``: ``valid_from`` is the ``recorded_at`` of the
event that made it (never before the previous row's, so a clock that stepped back leaves no
overlap), ``valid_to`` when the next change was recorded (NULL: still so). Two changes
recorded at one instant leave one row (the later), since no time can tell them apart.

:func:`after` runs in :func:`embornal.storage.sqlite.projector.apply` after each event's own
handler, in the same transaction, and copies what the handler left:

* ``fact_versions``: after any event of a fact's stream (the fact named by its body's
  ``fact_id``, or :data:`FACT_OF`), a row with the fact's state, attributes and the
  :data:`VERSIONED_COLUMNS` of ``facts`` (as JSON); also for the fact it supersedes,
  when that one's columns changed (a successor stored, forgotten, restored or purged);
* ``fact_tag_versions``: the fact's own tags (``fact_tags``), after the same events;
* ``fact_signals``: the strength signals of each fact a ``FactsRecalled`` lifted;
* ``path_tag_versions``: each tagger's tags on a path (``path_tags``), after any event of
  a ``path:`` stream.

A new event that changes a fact needs nothing here if its body has ``fact_id``; a new
column of ``facts`` that time travel should show is added to :data:`VERSIONED_COLUMNS`
(old rows read it as NULL). A purge erases the fact's attributes in every row and its
tags but the owner's, as a replay of the redacted log gives them.

The rows of the history written before migration 0016 are filled in from the log when the
store opens (:func:`embornal.storage.sqlite.history_fill.fill_in`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from embornal.domain.clock import format_time
from embornal.domain.events import EventType, FactsRecalled
from embornal.hints import TYPE_CHECKING, Any
from embornal.storage.sqlite.connect import Connection, DriverError

if TYPE_CHECKING:
    from embornal.domain.events import DomainEvent, Event

__all__ = [
    "FACT_OF",
    "FIELDS_SQL",
    "NO_HISTORY",
    "PENDING_KEY",
    "STATE_SQL",
    "TABLES",
    "VERSIONED_COLUMNS",
    "after",
    "batch",
    "flush",
    "state_of",
]

#: The history tables (projections, rebuilt from the log).
TABLES = ("fact_versions", "fact_signals", "fact_tag_versions", "path_tag_versions")
#: The columns of ``facts`` that change over a fact's life and that time travel shows.
VERSIONED_COLUMNS: tuple[str, ...] = (
    "superseded_by",
    "deleted_at",
    "purged_at",
    "confidence",
    "last_confirmed_at",
    "visibility",
    "pinned",
    "user_weight",
    "lifetime",
    "lifetime_until",
    "expires_at",
)
#: The fact an event of a fact's stream changes, for a body without ``fact_id``.
FACT_OF: dict[type[DomainEvent], Callable[[Any], str | None]] = {}
#: The stored types of the events of a fact's stream that change no column of ``facts``
#: (no history row), by name, so that no event class is imported to say so.
NO_HISTORY: set[str] = set()
#: In ``meta`` while the history of the log before migration 0016 waits to be filled in.
PENDING_KEY = "history_pending"

#: The JSON of a fact row's :data:`VERSIONED_COLUMNS` (the history's ``fields``).
FIELDS_SQL = "json_object(" + ", ".join(f"'{c}', {c}" for c in VERSIONED_COLUMNS) + ")"


def state_of(purged_at: object, deleted_at: object, superseded_by: object) -> str:
    """``active``, ``superseded``, ``forgotten`` or ``purged`` (as ``Fact.state``)."""
    if purged_at is not None:
        return "purged"
    if deleted_at is not None:
        return "forgotten"
    return "superseded" if superseded_by is not None else "active"


#: The facts stored in the current batch whose first rows wait (fact id, time, position).
_FIRST: ContextVar[list[tuple[str, str, int]] | None] = ContextVar(
    "embornal_history_first", default=None
)


@contextmanager
def batch(conn: Connection) -> Iterator[None]:
    """Within it, the first rows of the facts stored (not superseding one) are written
    together by :func:`flush`: at its end, or before an event that is not such a store
    (the caller's rule, :func:`embornal.storage.sqlite.projector.apply`), so that nothing reads a
    fact's history before it is there."""
    first: list[tuple[str, str, int]] = []
    token = _FIRST.set(first)
    try:
        yield
        flush(conn)
    finally:
        _FIRST.reset(token)


def flush(conn: Connection) -> None:
    """Write the waiting first rows: two statements for all of them (and one read of
    which have rows already, when more than one waits)."""
    first = _FIRST.get()
    if not first:
        return
    waiting = list(first)
    first.clear()
    try:
        if len(waiting) == 1:  # a single store: two statements, no JSON
            fact_id, at, position = waiting[0]
            if not _first_rows(conn, fact_id, at, position):
                _version(conn, fact_id, at, position, always=True)
                _fact_tags(conn, fact_id, at)
        else:
            _first_rows_of(conn, waiting)
    except DriverError as e:
        if "no such table" in str(e) and any(t in str(e) for t in TABLES):
            return  # before migration 0016, as in after()
        raise


def after(conn: Connection, event: Event, body: DomainEvent) -> None:
    """Record in the history what ``event`` changed (see the module).

    Before migration 0016 (the guide of 0003 is stored then) there is nothing to record
    yet: every way through reads or writes a history table before it writes any history
    row, so the first statement's "no such table" ends it with nothing written (no probe
    of the schema on each event)."""
    try:
        _after(conn, event, body)
    except DriverError as e:
        message = str(e)
        if "no such table" in message and any(t in message for t in TABLES):
            return
        raise


def _after(conn: Connection, event: Event, body: DomainEvent) -> None:
    at = format_time(event.recorded_at)
    if isinstance(body, FactsRecalled):
        _signals(conn, sorted(set(body.fact_ids)), at)
        return
    if event.stream_id.startswith("path:"):
        path = getattr(body, "path", None)
        if isinstance(path, str):
            _path_tags(conn, path, at)
        return
    if body.TYPE in NO_HISTORY:
        return
    find = FACT_OF.get(type(body))
    fact_id: object = find(body) if find is not None else getattr(body, "fact_id", None)
    if not isinstance(fact_id, str):
        return
    if body.TYPE == EventType.FACT_PURGED:  # by type: the class is imported when used
        conn.execute(
            "UPDATE fact_versions SET attributes = NULL, kind_version = NULL WHERE fact_id = ?",
            (fact_id,),
        )
        conn.execute(
            "DELETE FROM fact_tag_versions WHERE fact_id = ? AND key <> 'owner'", (fact_id,)
        )
    if body.TYPE == EventType.FACT_STORED:
        first = _FIRST.get()
        if first is not None and getattr(body, "supersedes_id", None) is None:
            first.append((fact_id, at, event.position))
            return
    if body.TYPE == EventType.FACT_STORED and _first_rows(conn, fact_id, at, event.position):
        supersedes = getattr(body, "supersedes_id", None)
        if isinstance(supersedes, str):
            _version(conn, supersedes, at, event.position, always=False)
        return
    supersedes = _version(conn, fact_id, at, event.position, always=True)
    if supersedes is not None:
        _version(conn, supersedes, at, event.position, always=False)
    _fact_tags(conn, fact_id, at)


#: A fact row's state, as :func:`state_of` gives it.
STATE_SQL = (
    "CASE WHEN purged_at IS NOT NULL THEN 'purged' WHEN deleted_at IS NOT NULL THEN "
    "'forgotten' WHEN superseded_by IS NOT NULL THEN 'superseded' ELSE 'active' END"
)  # as state_of


def _first_rows(conn: Connection, fact_id: str, at: str, position: int) -> bool:
    """The first version and tag rows of a fact just stored, each in one statement (it has
    no open rows to close); False, writing nothing, when the fact has rows already."""
    cur = conn.execute(
        "INSERT INTO fact_versions (fact_id, valid_from, valid_to, position, state, "
        f"attributes, kind_version, fields) SELECT id, ?, NULL, ?, {STATE_SQL}, attributes, "
        f"kind_version, {FIELDS_SQL} FROM facts WHERE id = ? AND NOT EXISTS "
        "(SELECT 1 FROM fact_versions WHERE fact_id = ?)",
        (at, position, fact_id, fact_id),
    )
    if cur.rowcount != 1:
        return False
    conn.execute(
        "INSERT INTO fact_tag_versions (fact_id, key, valid_from, valid_to, value) "
        "SELECT fact_id, key, ?, NULL, value FROM fact_tags WHERE fact_id = ?",
        (at, fact_id),
    )
    return True


_WAITING = (
    "(SELECT json_extract(value, '$[0]') AS fid, json_extract(value, '$[1]') AS at, "
    "json_extract(value, '$[2]') AS pos FROM json_each(?)) w"
)


def _first_rows_of(conn: Connection, waiting: list[tuple[str, str, int]]) -> None:
    """:func:`_first_rows` of many facts; one that has rows already (none, for a fact
    just stored) gets a version as any other event's."""
    ids = json.dumps([w[0] for w in waiting])
    have = {
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT v.fact_id FROM json_each(?) j JOIN fact_versions v "
            "ON v.fact_id = j.value",
            (ids,),
        )
    }
    fresh = json.dumps([list(w) for w in waiting if w[0] not in have])
    conn.execute(
        "INSERT INTO fact_versions (fact_id, valid_from, valid_to, position, state, "
        f"attributes, kind_version, fields) SELECT f.id, w.at, NULL, w.pos, {STATE_SQL}, "
        f"f.attributes, f.kind_version, {FIELDS_SQL} FROM {_WAITING} JOIN facts f "
        "ON f.id = w.fid",
        (fresh,),
    )
    conn.execute(
        "INSERT INTO fact_tag_versions (fact_id, key, valid_from, valid_to, value) "
        f"SELECT t.fact_id, t.key, w.at, NULL, t.value FROM {_WAITING} JOIN fact_tags t "
        "ON t.fact_id = w.fid",
        (fresh,),
    )
    for fact_id, at, position in waiting:
        if fact_id in have:
            _version(conn, fact_id, at, position, always=True)
            _fact_tags(conn, fact_id, at)


def _version(conn: Connection, fact_id: str, at: str, position: int, *, always: bool) -> Any:
    """A new row of the fact's versions (``always``, or when it changed); return the id of
    the fact it supersedes."""
    row = conn.execute(
        f"SELECT attributes, kind_version, {FIELDS_SQL}, purged_at, deleted_at, superseded_by, "
        "supersedes_id FROM facts WHERE id = ?",
        (fact_id,),
    ).fetchone()
    if row is None:
        return None
    state = state_of(row[3], row[4], row[5])
    new = (state, row[0], row[1], row[2])
    last = conn.execute(
        "SELECT valid_from, state, attributes, kind_version, fields FROM fact_versions "
        "WHERE fact_id = ? AND valid_to IS NULL",
        (fact_id,),
    ).fetchone()
    if last is not None and not always and tuple(last[1:]) == new:
        return row[6]
    start = at if last is None else max(at, last[0])
    if last is not None and start == last[0]:  # one instant: the later change stands
        conn.execute(
            "UPDATE fact_versions SET position = ?, state = ?, attributes = ?, "
            "kind_version = ?, fields = ? WHERE fact_id = ? AND valid_from = ?",
            (position, *new, fact_id, start),
        )
        return row[6]
    if last is not None:
        conn.execute(
            "UPDATE fact_versions SET valid_to = ? WHERE fact_id = ? AND valid_from = ?",
            (start, fact_id, last[0]),
        )
    conn.execute(
        "INSERT INTO fact_versions (fact_id, valid_from, valid_to, position, state, "
        "attributes, kind_version, fields) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)",
        (fact_id, start, position, *new),
    )
    return row[6]


def _signals(conn: Connection, fact_ids: Sequence[str], at: str) -> None:
    """The signals of the facts just recalled (their ``facts`` row, after the recall's own
    projection) from ``at``, three statements for all of them: an open row that starts at
    ``at`` or later takes them in place (one instant: the later recall stands); an older
    one is closed at ``at``; a fact with no open row then gets one from ``at``. A fact
    with no row (purged meanwhile) is left alone."""
    if not fact_ids:
        return
    ids = ", ".join("?" * len(fact_ids))
    conn.execute(
        "UPDATE fact_signals SET (last_recall_at, recall_count, stability_days) = "
        "(SELECT f.last_recall_at, f.recall_count, f.stability_days FROM facts f "
        "WHERE f.id = fact_signals.fact_id) "
        f"WHERE fact_id IN ({ids}) AND valid_to IS NULL AND valid_from >= ? "
        "AND EXISTS (SELECT 1 FROM facts f WHERE f.id = fact_signals.fact_id)",
        (*fact_ids, at),
    )
    conn.execute(
        f"UPDATE fact_signals SET valid_to = ? WHERE fact_id IN ({ids}) AND valid_to IS NULL "
        "AND valid_from < ? AND EXISTS (SELECT 1 FROM facts f WHERE f.id = fact_signals.fact_id)",
        (at, *fact_ids, at),
    )
    conn.execute(
        "INSERT INTO fact_signals (fact_id, valid_from, valid_to, last_recall_at, recall_count, "
        "stability_days) SELECT f.id, ?, NULL, f.last_recall_at, f.recall_count, "
        f"f.stability_days FROM facts f WHERE f.id IN ({ids}) AND NOT EXISTS "
        "(SELECT 1 FROM fact_signals s WHERE s.fact_id = f.id AND s.valid_to IS NULL)",
        (at, *fact_ids),
    )


def _diff(
    conn: Connection,
    table: str,
    owner: tuple[str, tuple[Any, ...]],
    now: dict[tuple[Any, ...], Any],
    at: str,
) -> None:
    """Close the open rows of ``table`` (for the ``owner`` condition and its values) that
    ``now`` no longer holds, and open the ones it holds anew; ``now`` maps each row's key
    columns (after the owner's) to its value."""
    where, params = owner
    keys = "tagger, key" if table == "path_tag_versions" else "key"
    width = len(keys.split(","))
    open_rows = {
        tuple(r[:width]): (r[width], r[width + 1])
        for r in conn.execute(
            f"SELECT {keys}, value, valid_from FROM {table} WHERE {where} AND valid_to IS NULL",
            params,
        )
    }
    match = " AND ".join(f"{k.strip()} = ?" for k in keys.split(","))
    for key, (value, since) in open_rows.items():
        if now.get(key) == value:
            continue
        end = max(at, since)
        if end == since:  # opened at this very instant: it never held
            conn.execute(
                f"DELETE FROM {table} WHERE {where} AND {match} AND valid_from = ?",
                (*params, *key, since),
            )
        else:
            conn.execute(
                f"UPDATE {table} SET valid_to = ? WHERE {where} AND {match} AND valid_from = ?",
                (end, *params, *key, since),
            )
    cols = where.replace(" = ?", "").replace(" AND ", ", ")
    for key, value in now.items():
        held = open_rows.get(key)
        if held is not None and held[0] == value:
            continue
        start = at if held is None else max(at, held[1])
        conn.execute(
            f"INSERT INTO {table} ({cols}, {keys}, valid_from, valid_to, value) "
            f"VALUES ({', '.join('?' * (len(params) + width))}, ?, NULL, ?)",
            (*params, *key, start, value),
        )


def _fact_tags(conn: Connection, fact_id: str, at: str) -> None:
    now = {
        (r[0],): r[1]
        for r in conn.execute("SELECT key, value FROM fact_tags WHERE fact_id = ?", (fact_id,))
    }
    _diff(conn, "fact_tag_versions", ("fact_id = ?", (fact_id,)), now, at)


def _path_tags(conn: Connection, path: str, at: str) -> None:
    found = conn.execute("SELECT id FROM paths WHERE path = ?", (path,)).fetchone()
    if found is None:
        return
    path_id = int(found[0])
    now = {
        (r[0], r[1]): r[2]
        for r in conn.execute(
            "SELECT tagger, key, value FROM path_tags WHERE path_id = ?", (path_id,)
        )
    }
    _diff(conn, "path_tag_versions", ("path_id = ?", (path_id,)), now, at)
