"""The one parser of the time a read looks back to (``--at``, ``at=``, ``as_of``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from embornal.domain.as_of import ACCEPTED, parse_as_of
from embornal.errors import InvalidInput, InvalidTime

NOW = datetime(2026, 12, 1, 18, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("2026-11-30", datetime(2026, 11, 30, tzinfo=UTC)),  # a date is its start
        ("2026-11-30T14:00", datetime(2026, 11, 30, 14, tzinfo=UTC)),  # naive: UTC
        ("2026-11-30 14:00:05.25", datetime(2026, 11, 30, 14, 0, 5, 250000, tzinfo=UTC)),
        ("2026-11-30T14:00:00Z", datetime(2026, 11, 30, 14, tzinfo=UTC)),
        ("2026-11-30T14:00:00+01:00", datetime(2026, 11, 30, 13, tzinfo=UTC)),
        ("now", NOW),
        (" Yesterday ", NOW - timedelta(days=1)),
        ("3 days ago", NOW - timedelta(days=3)),
        ("1 hour ago", NOW - timedelta(hours=1)),
        ("90 seconds ago", NOW - timedelta(seconds=90)),
        ("2 weeks  ago", NOW - timedelta(weeks=2)),
        ("5 minutes ago", NOW - timedelta(minutes=5)),
    ],
)
def test_the_accepted_forms(text: str, want: datetime) -> None:
    got = parse_as_of(text, NOW)
    assert got == want and got.tzinfo is UTC


def test_a_datetime_passes_naive_as_utc() -> None:
    assert parse_as_of(datetime(2026, 1, 1), NOW) == datetime(2026, 1, 1, tzinfo=UTC)
    plus_two = datetime(2026, 1, 1, 12, tzinfo=timezone(timedelta(hours=2)))
    assert parse_as_of(plus_two, NOW) == datetime(2026, 1, 1, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "tomorrow",
        "last week",
        "3 days",
        "in 3 days",
        "2026-13-01",
        "2026-11-31",
        "30/11/2026",
        "2026-11-30T25:00",
        "-1 days ago",
        "3 fortnights ago",
        "1e3 days ago",
    ],
)
def test_anything_else_is_one_line_naming_the_forms(text: str) -> None:
    with pytest.raises(InvalidTime) as caught:
        parse_as_of(text, NOW)
    err = caught.value
    assert isinstance(err, InvalidInput) and err.exit_code == 2
    assert ACCEPTED in err.message and "\n" not in err.message


@pytest.mark.parametrize("text", ["2026-12-02", "2026-12-01T18:30:01Z", "2099-01-01"])
def test_a_time_after_now_is_refused(text: str) -> None:
    with pytest.raises(InvalidTime, match="is in the future: time travel looks back"):
        parse_as_of(text, NOW)


def test_now_itself_and_a_non_text_value() -> None:
    assert parse_as_of(NOW, NOW) == NOW
    with pytest.raises(InvalidTime, match="is text, not int"):
        parse_as_of(42, NOW)
