"""The event log's appends and reads written once for both backends (decision 0149), as 0119 wrote
the past reads: plain SQL with ``?`` placeholders over a connection's ``execute``, SQLite's
own or PostgreSQL's through its dialect (:class:`embornal.storage.postgres.db.Dialect`,
which reads ``json_each(?)`` and ``instr`` its own way). What stays each backend's is how a
row gets its position (:mod:`embornal.storage.sqlite.eventlog`: the next of the log's
AUTOINCREMENT; :mod:`embornal.storage.postgres.eventlog`: the identity's, returned) and
how the events are projected.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime

from embornal.domain.clock import format_time
from embornal.domain.events import EVENTS, Event, EventType, NewEvent
from embornal.errors import ConcurrencyError, InvalidInput
from embornal.hints import Any
from embornal.storage.common.event_rows import event_columns, row_to_event

__all__ = [
    "COLUMNS",
    "Rows",
    "event_rows",
    "expecting",
    "in_runs",
    "next_versions",
    "plain_store",
    "read_all",
    "read_page",
    "read_stream",
    "recall_times",
    "recalls_of",
    "written",
]

#: The columns :func:`~embornal.storage.common.event_rows.row_to_event` reads.
COLUMNS = event_columns()
#: One encoder for every payload (``json.dumps`` with options builds one a call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True)


_STORED = EventType.FACT_STORED


def expecting(events: Sequence[NewEvent], expected_version: int | None) -> Sequence[NewEvent]:
    """The events of one append, each given its own expected version when the caller gives
    the stream's: that one, then one more for each event after it (the log checks each)."""
    if expected_version is None or not events:
        return events
    if len({e.stream_id for e in events}) != 1:
        raise InvalidInput("expected_version applies to the events of one stream")
    return [replace(e, expected_version=expected_version + i) for i, e in enumerate(events)]


def plain_store(ne: NewEvent) -> bool:
    """Whether ``ne`` may be projected in a run: a store that supersedes nothing."""
    return ne.type == _STORED and getattr(ne.body, "supersedes_id", None) is None


def in_runs(
    new_events: Sequence[NewEvent],
    insert: Callable[[Sequence[NewEvent]], list[Event]],
    project_run: Callable[[list[Event]], None],
    apply: Callable[[Event], None],
) -> list[Event]:
    """Each event inserted and projected in log order: a run of plain stores is written
    and projected together (:func:`plain_store`, decisions 0109 and 0111), any other
    event one at a time."""
    out: list[Event] = []
    i = 0
    while i < len(new_events):
        j = i + 1
        if plain_store(new_events[i]):
            while j < len(new_events) and plain_store(new_events[j]):
                j += 1
        written = insert(new_events[i:j])
        if j - i > 1:
            project_run(written)
        else:
            apply(written[0])
        out.extend(written)
        i = j
    return out


def next_versions(conn: Any, new_events: Sequence[NewEvent]) -> dict[str, int]:
    """The next version of every stream the events name: one read for all of them."""
    streams = sorted({ne.stream_id for ne in new_events})
    found = {
        str(r[0]): int(r[1])
        for r in conn.execute(
            "SELECT stream_id, max(version) FROM events WHERE stream_id IN "
            "(SELECT value FROM json_each(?)) GROUP BY stream_id",
            (json.dumps(streams),),
        ).fetchall()
    }
    return {s: found.get(s, 0) + 1 for s in streams}


#: A new event's row (no position) with its version and payload: ``(row, version, payload)``.
Rows = list[tuple[tuple[Any, ...], int, dict[str, Any]]]


def event_rows(new_events: Sequence[NewEvent], next_version: dict[str, int]) -> Rows:
    """The rows of ``new_events``, each at its stream's next version (checked against its
    expected version first; ``next_version`` moves on): ``stream_id, version, type,
    schema_version, payload, actor, actor_kind, reason, recorded_at``."""
    out: Rows = []
    for ne in new_events:
        version = next_version[ne.stream_id]
        if ne.expected_version is not None and ne.expected_version != version - 1:
            raise ConcurrencyError(
                f"stream {ne.stream_id} is at version {version - 1}, expected {ne.expected_version}"
            )
        next_version[ne.stream_id] = version + 1
        payload = EVENTS.to_payload(ne.body)
        row = (
            ne.stream_id,
            version,
            ne.type,
            ne.schema_version,
            _ENCODER.encode(payload),
            ne.actor,
            ne.actor_kind.value,
            ne.reason,
            format_time(ne.recorded_at),
        )
        out.append((row, version, payload))
    return out


def written(new_events: Sequence[NewEvent], rows: Rows, positions: Sequence[int]) -> list[Event]:
    """The events of ``new_events`` as written in ``rows`` at ``positions``."""
    return [
        Event(
            position=position,
            stream_id=ne.stream_id,
            version=version,
            type=ne.type,
            payload=payload,
            actor=ne.actor,
            actor_kind=ne.actor_kind.value,
            recorded_at=ne.recorded_at,
            reason=ne.reason,
            schema_version=ne.schema_version,
            known_body=ne.body,
        )
        for ne, (_, version, payload), position in zip(new_events, rows, positions, strict=True)
    ]


def read_stream(conn: Any, stream_id: str) -> list[Event]:
    found = conn.execute(
        f"SELECT {COLUMNS} FROM events WHERE stream_id = ? ORDER BY version", (stream_id,)
    ).fetchall()
    return [row_to_event(r) for r in found]


def recall_times(conn: Any, fact_id: str) -> list[datetime]:
    """When each recall that returned ``fact_id`` happened, in log order: the
    ``facts_recalled`` events after the fact's first event (through the index on type and
    position) whose payload names it, each checked on its decoded body."""
    from embornal.domain.events import EventType, FactsRecalled

    found = conn.execute(
        f"SELECT {COLUMNS} FROM events WHERE type = ? AND position > "
        "(SELECT min(position) FROM events WHERE stream_id = ?) "
        "AND instr(payload, ?) > 0 ORDER BY position",
        (EventType.FACTS_RECALLED, fact_id, fact_id),
    ).fetchall()
    out: list[datetime] = []
    for r in found:
        body = row_to_event(r).body
        if isinstance(body, FactsRecalled) and fact_id in body.fact_ids:
            out.append(body.at)
    return out


def recalls_of(conn: Any, fact_id: str, *, limit: int) -> list[Event]:
    """The newest ``limit`` ``facts_recalled`` events whose recall returned ``fact_id``,
    newest first (who recalled it, as what, when: the fact's access log, decision 0160),
    found as :func:`recall_times` finds them."""
    from embornal.domain.events import EventType, FactsRecalled

    found = conn.execute(
        f"SELECT {COLUMNS} FROM events WHERE type = ? AND position > "
        "(SELECT min(position) FROM events WHERE stream_id = ?) "
        "AND instr(payload, ?) > 0 ORDER BY position DESC LIMIT ?",
        (EventType.FACTS_RECALLED, fact_id, fact_id, limit),
    ).fetchall()
    events = [row_to_event(r) for r in found]
    return [
        ev for ev in events if isinstance(ev.body, FactsRecalled) and fact_id in ev.body.fact_ids
    ]


def read_page(conn: Any, *, after: int, until: int | None, limit: int) -> list[Event]:
    """The first ``limit`` events above position ``after`` (up to ``until``), in log order."""
    bound = "" if until is None else f" AND position <= {int(until)}"
    found = conn.execute(
        f"SELECT {COLUMNS} FROM events WHERE position > ?{bound} ORDER BY position LIMIT ?",
        (after, limit),
    ).fetchall()
    return [row_to_event(r) for r in found]


def read_all(
    conn: Any, *, after: int = 0, until: int | None = None, batch: int = 1000
) -> Iterator[Event]:
    """Every event in log order (positions above ``after``, up to ``until``), in batches."""
    last = after
    while True:
        page = read_page(conn, after=last, until=until, limit=batch)
        if not page:
            return
        yield from page
        last = page[-1].position
