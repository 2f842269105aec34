"""Time: UTC everywhere, ISO-8601 text with microseconds, a clock passed in."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from embornal.errors import InvalidTime

__all__ = ["Clock", "FixedClock", "SystemClock", "format_time", "parse_time"]


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """The real clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FixedClock:
    """A clock tests move by hand."""

    current: datetime = field(default_factory=lambda: datetime(2026, 1, 1, tzinfo=UTC))

    def now(self) -> datetime:
        return self.current

    def advance(self, *, days: float = 0.0, seconds: float = 0.0) -> None:
        self.current = self.current + timedelta(days=days, seconds=seconds)


def format_time(moment: datetime) -> str:
    """``2026-11-30T14:00:00.000000Z``: fixed width, so text order is time order."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str | datetime) -> datetime:
    """Parse ISO-8601 (``Z`` or an offset; a naive time counts as UTC)."""
    if isinstance(text, datetime):
        moment = text
    else:
        raw = text.strip()
        if raw.endswith(("Z", "z")):
            raw = raw[:-1] + "+00:00"
        try:
            moment = datetime.fromisoformat(raw)
        except ValueError as e:
            raise InvalidTime(f"{text!r} is not an ISO-8601 time") from e
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
