"""An event as the log's row holds it, read back and written back (a leaf: the event log,
the reads that join events with facts and each backend's restore of a log use it)."""

from __future__ import annotations

import json

from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import EVENTS, Event
from embornal.domain.events.envelope import STORED_FIELDS
from embornal.hints import Any

__all__ = ["event_columns", "event_row", "row_to_event"]


def event_columns(table: str = "events") -> str:
    """The columns :func:`row_to_event` reads, of the events table named ``table`` in the
    query (``events``, or an alias such as ``e``), with whether a purge redacted it."""
    own = ", ".join(f"{table}.{n}" for n in STORED_FIELDS)
    return (
        f"{own}, EXISTS (SELECT 1 FROM event_redactions r "
        f"WHERE r.position = {table}.position) AS redacted"
    )


def _current_payload(event_type: str, version: int, text: str) -> dict[str, Any]:
    """The stored payload at the current version of its type; an unknown type's or a newer
    version's as it is (a newer writer's: ``Event.body`` says it cannot be read)."""
    payload: dict[str, Any] = json.loads(text)
    if not EVENTS.readable(event_type, version):
        return payload
    return EVENTS.upcast(event_type, version, payload)


def row_to_event(row: Any) -> Event:
    return Event(
        position=int(row["position"]),
        stream_id=row["stream_id"],
        version=int(row["version"]),
        type=row["type"],
        payload=_current_payload(row["type"], int(row["schema_version"]), row["payload"]),
        actor=row["actor"],
        actor_kind=row["actor_kind"],
        recorded_at=parse_time(row["recorded_at"]),
        reason=row["reason"],
        schema_version=int(row["schema_version"]),
        redacted=bool(row["redacted"]),
    )


def event_row(e: Event) -> tuple[Any, ...]:
    """The values of a restored event's row, in the order of :func:`event_columns`' own
    columns (its position, version, time and actor as given; the payload as JSON text)."""
    return (
        e.position,
        e.stream_id,
        e.version,
        e.type,
        e.schema_version,
        json.dumps(e.payload, ensure_ascii=False, sort_keys=True),
        e.actor,
        e.actor_kind,
        e.reason,
        format_time(e.recorded_at),
    )
