"""Time: UTC everywhere, ISO-8601 text with microseconds, a clock passed in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache

from embornal.domain.bounds import MAX_TIME_TEXT
from embornal.errors import InvalidTime
from embornal.hints import Protocol

__all__ = ["Clock", "FixedClock", "SystemClock", "check_time_text", "format_time", "parse_time"]


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """The real clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock tests move by hand (a plain class, not a dataclass: ``domain.clock`` is on
    every command's start-up path)."""

    __match_args__ = ("current",)

    def __init__(self, current: datetime | None = None) -> None:
        self.current = datetime(2026, 1, 1, tzinfo=UTC) if current is None else current

    def __repr__(self) -> str:
        return f"FixedClock(current={self.current!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not FixedClock:
            return NotImplemented
        return self.current == other.current

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def now(self) -> datetime:
        return self.current

    def advance(self, *, days: float = 0.0, seconds: float = 0.0) -> None:
        self.current = self.current + timedelta(days=days, seconds=seconds)


def format_time(moment: datetime, *, micro: bool = True) -> str:
    """``2026-11-30T14:00:00.000000Z``: fixed width (years zero-padded to 4 digits, ``0999``),
    so text order is time order. ``micro=False``: whole seconds, ``2026-11-30T14:00:00Z``.

    The one time formatter: the event log, ``--json``, REST, MCP and the CLI's tables."""
    return _format_time(moment, micro)


@lru_cache(maxsize=4_096)  # a store formats its times several times (event, row, history)
def _format_time(moment: datetime, micro: bool) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    m = moment.astimezone(UTC)
    fraction = f".{m.microsecond:06d}" if micro else ""
    return (
        f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:"
        f"{m.second:02d}{fraction}Z"
    )


def check_time_text(text: str) -> None:
    """Refuse the text of a time longer than :data:`MAX_TIME_TEXT` (no time is)."""
    if len(text) > MAX_TIME_TEXT:
        raise InvalidTime(
            f"a time is {len(text):,} characters long; at most {MAX_TIME_TEXT} are allowed",
            hint="Give an ISO-8601 time, e.g. 2026-11-30T14:00:00Z.",
        )


def parse_time(text: str | datetime) -> datetime:
    """Parse ISO-8601 (``Z`` or an offset; a naive time counts as UTC)."""
    if isinstance(text, datetime):
        moment = text
    elif isinstance(text, str):
        check_time_text(text)
        raw = text.strip()
        if raw.endswith(("Z", "z")):
            raw = raw[:-1] + "+00:00"
        try:
            moment = datetime.fromisoformat(raw)
        except ValueError as e:
            raise InvalidTime(f"{text[:60]!r} is not an ISO-8601 time") from e
    else:
        raise InvalidTime(f"a time must be ISO-8601 text, not {type(text).__name__}")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except (OverflowError, ValueError) as e:
        raise InvalidTime(f"{text!s:.60} is outside the range of times the memory keeps") from e
