"""The time a read looks back to (``--at TIME``, REST ``at=``, MCP ``at``, Python ``as_of``).

One parser for every interface (decision 0040). Accepted:

* an ISO-8601 date, ``2026-11-30``: the start of that day (00:00 UTC);
* an ISO-8601 date and time, ``2026-11-30T14:00``, ``2026-11-30 14:00:05.25``, with ``Z``
  or an offset (``+01:00``); a time without a zone is UTC, as every stored time is;
* ``now``, ``yesterday`` (one day ago), ``N seconds|minutes|hours|days|weeks ago``
  (``1 hour ago``, ``3 days ago``), counted back from ``now``.

A time after ``now`` is refused: time travel looks back. Pure: ``now`` is passed in.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from embornal.domain.clock import check_time_text
from embornal.errors import InvalidTime

__all__ = ["ACCEPTED", "parse_as_of", "relative"]

ACCEPTED = (
    "an ISO-8601 date or time (2026-11-30, 2026-11-30T14:00, 2026-11-30T14:00:00+01:00; "
    "UTC unless a zone is given) or a relative one (now, yesterday, 3 days ago, 2 hours ago)"
)
_HINT = "A date alone means its start, 00:00 UTC; a time after now is refused."
_AGO = re.compile(r"^(\d{1,6})\s+(second|minute|hour|day|week)s?\s+ago$")
_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}
_ISO = re.compile(
    r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?([Zz]|[+-]\d{2}:?\d{2})?$"
)


def _bad(text: str) -> InvalidTime:
    return InvalidTime(f"{text[:60]!r} is not a time to look back to: give {ACCEPTED}", hint=_HINT)


def _words(text: str) -> str:
    return " ".join(text.strip().lower().split())


def relative(text: str) -> bool:
    """Whether ``text`` names a time counted back from now (``now``, ``yesterday``,
    ``3 days ago``) rather than a date or time of the calendar."""
    words = _words(text)
    return words in ("now", "yesterday") or _AGO.match(words) is not None


def _parse(text: str, now: datetime) -> datetime:
    words = _words(text)
    if words == "now":
        return now
    if words == "yesterday":
        return now - timedelta(days=1)
    ago = _AGO.match(words)
    if ago is not None:
        return now - timedelta(seconds=int(ago.group(1)) * _UNITS[ago.group(2)])
    raw = text.strip()
    if not _ISO.match(raw):
        raise _bad(text)
    if raw.endswith(("Z", "z")):
        raw = raw[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        raise _bad(text) from None
    return moment


def parse_as_of(value: object, now: datetime, *, future: bool = False) -> datetime:
    """The UTC time ``value`` names (text in one of the accepted forms, or a datetime; a
    naive one is UTC), or :class:`InvalidTime` naming the accepted forms. ``future``: a
    time after now is taken too (a claim's valid time, decision 0081)."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        check_time_text(value)
        moment = _parse(value, now)
    else:
        raise InvalidTime(f"a time to look back to is text, not {type(value).__name__}: {ACCEPTED}")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC)
    except (OverflowError, ValueError):
        raise _bad(str(value)) from None
    if moment > now and not future:
        shown = moment.isoformat().replace("+00:00", "Z")
        raise InvalidTime(
            f"{str(value)[:60]!r} ({shown}) is in the future: time travel looks back; "
            f"give {ACCEPTED}",
            hint=_HINT,
        )
    return moment
