"""The event log as NDJSON, the memory's lossless portable form (decision 0061).

One JSON object a line: a header, every event in log order, and an end line that counts
them (so a truncated file is told from a whole one)::

    {"embornal": "events", "format": 1, "subject": "default", "complete": true}
    {"position": 1, "stream_id": "01J…", "version": 1, "type": "FactStored",
     "schema_version": 1, "payload": {…}, "actor": "default", "actor_kind": "person",
     "reason": null, "recorded_at": "2026-…Z"}
    {"end": 1}

Each payload is at its type's current version (upcast on the way out); an event a purge
redacted carries ``"redaction": {"purge_position": N, "redacted_at": "…"}`` and its
payload as the database holds it (the text already erased).

:class:`LogReader` checks a file line by line before anything is written: a line too
long, not JSON, not an event, of an unknown type or a future version, with a path that
breaks the rules, out of order or a duplicate is an
:class:`~embornal.errors.InvalidImport` naming the line. Pure: the caller reads the file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from embornal.domain.clock import format_time, parse_time
from embornal.domain.events import EVENTS, ActorKind, Event, EventType
from embornal.domain.events.envelope import STORED_FIELDS
from embornal.domain.facts.tags import check_subject, encodable
from embornal.domain.paths import normalize_path
from embornal.errors import EmbornalError, InvalidImport

__all__ = [
    "FORMAT",
    "MAX_LINE_BYTES",
    "Entry",
    "LogReader",
    "end_line",
    "event_line",
    "header_line",
]

FORMAT = 1
#: The longest line a log file may hold (a fact is at most 64 KiB of text; its attributes
#: and evidence, escaped, stay well below this).
MAX_LINE_BYTES = 4 * 1024 * 1024
_KEYS = frozenset(STORED_FIELDS)
_ACTOR_KINDS = frozenset(k.value for k in ActorKind)
Entry = tuple[Event, tuple[int, str] | None]  # an event read, with its redaction record


def _dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def header_line(subject: str, *, complete: bool) -> str:
    return _dumps(
        {"embornal": "events", "format": FORMAT, "subject": subject, "complete": complete}
    )


def end_line(count: int) -> str:
    return _dumps({"end": count})


def event_line(
    event: Event, redaction: tuple[int, str] | None, payload: Mapping[str, Any] | None = None
) -> str:
    """One event as a line: its payload (or ``payload``, a filtered one) at the current
    version of its type, with its redaction record ``(purge position, when)`` if any."""
    known = EVENTS.readable(event.type, event.schema_version)
    data: dict[str, Any] = {
        "position": event.position,
        "stream_id": event.stream_id,
        "version": event.version,
        "type": event.type,
        "schema_version": EVENTS.class_of(event.type).VERSION if known else event.schema_version,
        "payload": dict(event.payload if payload is None else payload),
        "actor": event.actor,
        "actor_kind": event.actor_kind,
        "reason": event.reason,
        "recorded_at": format_time(event.recorded_at),
    }
    if redaction is not None:
        data["redaction"] = {"purge_position": redaction[0], "redacted_at": redaction[1]}
    return _dumps(data)


def _int(data: Mapping[str, Any], key: str, low: int = 1) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{key} must be a whole number of {low} or more")
    return value


def _text(data: Mapping[str, Any], key: str, *, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key} must be a non-empty string")
    if "\x00" in value or not encodable(value):
        raise ValueError(f"{key} holds a NUL or a lone surrogate, which text cannot hold")
    return value


class LogReader:
    """Reads a log file's lines in order, checking each; :meth:`finish` checks its end.

    :meth:`feed` returns each event with its redaction record ``(purge position, when)``,
    so that the caller writes it at once (in one transaction it rolls back on an error).
    """

    def __init__(self) -> None:
        self.count = 0
        self.subject: str | None = None
        self.complete = False
        self._line = 0
        self._ended: int | None = None
        self._last_position = 0
        self._versions: dict[str, int] = {}

    def _fail(self, message: str) -> InvalidImport:
        return InvalidImport(f"line {self._line}: {message}; nothing was imported")

    def feed(self, raw: bytes) -> Entry | None:
        """The next line of the file (its bytes, with or without the line break)."""
        self._line += 1
        if len(raw) > MAX_LINE_BYTES:
            raise self._fail(f"the line is longer than {MAX_LINE_BYTES} bytes")
        text = raw.rstrip(b"\r\n")
        if self._ended is not None:
            if text.strip():
                raise self._fail("a line follows the end line")
            return None
        try:
            data = json.loads(text.decode("utf-8"))
        except UnicodeDecodeError:
            raise self._fail("the line is not valid UTF-8") from None
        except ValueError as e:
            raise self._fail(f"the line is not valid JSON ({e})") from None
        except RecursionError:
            raise self._fail("the line is nested too deep") from None
        if not isinstance(data, dict):
            raise self._fail("the line is not a JSON object")
        if self._line == 1:
            self._header(data)
        elif set(data) == {"end"}:
            self._end(data)
        else:
            return self._event(data)
        return None

    def _header(self, data: Mapping[str, Any]) -> None:
        if data.get("embornal") != "events":
            raise self._fail("the file does not start with an embornal events header")
        if data.get("format") != FORMAT:
            raise self._fail(
                f"format {data.get('format')!r} is not one this version reads ({FORMAT})"
            )
        subject = data.get("subject")
        self.subject = subject if isinstance(subject, str) else None
        self.complete = data.get("complete") is True

    def _end(self, data: Mapping[str, Any]) -> None:
        count = data["end"]
        if count != self.count:
            raise self._fail(f"the end line counts {count!r} events, the file holds {self.count}")
        self._ended = count

    def _event(self, data: Mapping[str, Any]) -> Entry:
        extra = set(data) - _KEYS - {"redaction"}
        missing = _KEYS - set(data)
        if missing or extra:
            what = f"lacks {sorted(missing)}" if missing else f"has unknown keys {sorted(extra)}"
            raise self._fail(f"the event {what}")
        try:
            event = self._decode(data)
        except ValueError as e:
            raise self._fail(str(e)) from None
        except EmbornalError as e:
            raise self._fail(e.message) from None
        redaction = data.get("redaction")
        mark = None
        if redaction is not None:
            try:
                purge = _int(redaction, "purge_position")
                when = format_time(parse_time(str(_text(redaction, "redacted_at"))))
            except (ValueError, TypeError, AttributeError, EmbornalError):
                raise self._fail("the redaction record is malformed") from None
            if purge <= event.position:
                raise self._fail("a redaction names a purge before its event")
            mark = (purge, when)
        self.count += 1
        return event, mark

    def _decode(self, data: Mapping[str, Any]) -> Event:
        position = _int(data, "position")
        if position <= self._last_position:
            raise ValueError(
                f"position {position} is a duplicate or out of order (after {self._last_position})"
            )
        stream = str(_text(data, "stream_id"))
        version = _int(data, "version")
        expected = self._versions.get(stream, 0) + 1
        if version != expected:
            raise ValueError(
                f"stream {stream} jumps to version {version} (expected {expected}): "
                "a duplicate or missing event"
            )
        kind = str(_text(data, "type"))
        schema = _int(data, "schema_version")
        if not EVENTS.knows(kind):
            raise ValueError(f"unknown event type {kind!r}")
        current = EVENTS.class_of(kind).VERSION
        if schema > current:
            raise ValueError(
                f"{kind} version {schema} is newer than this version reads ({current})"
            )
        payload = data["payload"]
        if not isinstance(payload, dict):
            raise ValueError("payload must be a JSON object")
        payload = EVENTS.upcast(kind, schema, payload) if schema < current else payload
        actor_kind = str(_text(data, "actor_kind"))
        if actor_kind not in _ACTOR_KINDS:
            raise ValueError(f"actor_kind must be one of {', '.join(sorted(_ACTOR_KINDS))}")
        reason = _text(data, "reason", optional=True)
        try:  # a payload that breaks its type (or holds a value of another JSON type) stops here
            body = EVENTS.decode(kind, payload, strict=True)
        except RecursionError:
            raise ValueError("the payload is nested too deep") from None
        event = Event(
            position=position,
            stream_id=stream,
            version=version,
            type=kind,
            payload=payload,
            actor=check_subject(str(_text(data, "actor"))),
            actor_kind=actor_kind,
            recorded_at=parse_time(str(_text(data, "recorded_at"))),
            reason=reason,
            schema_version=current,
            known_body=body,
        )
        _check_body(event, body)
        self._last_position = position
        self._versions[stream] = version
        return event

    def finish(self) -> None:
        """At the end of the file: it must have had its header and its end line."""
        if self._line == 0:
            raise InvalidImport("the file is empty; nothing was imported")
        if self._ended is None:
            raise InvalidImport(
                f"the file ends at line {self._line} without its end line (truncated?); "
                "nothing was imported"
            )


def _check_body(event: Event, body: object) -> None:
    """What decoding does not check: a path in the rules, a fact stored once on its own
    stream."""
    path = getattr(body, "path", None)
    if isinstance(path, str) and normalize_path(path) != path:
        raise ValueError(f"path {path!r} breaks the rules (it would be {normalize_path(path)})")
    if event.type == EventType.FACT_STORED:
        fact_id = getattr(body, "fact_id", None)
        if fact_id != event.stream_id or event.version != 1:
            raise ValueError(f"fact {fact_id} is stored twice, or on another fact's stream")
