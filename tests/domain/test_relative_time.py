"""Times a question names, read against the moment it is asked (``now`` passed in)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embornal.domain.recall import relative_time
from embornal.domain.recall.relative_time import (
    TimeWindow,
    check_asked,
    closeness,
    describe,
    time_windows,
)
from embornal.errors import InvalidInput

# A Wednesday afternoon.
NOW = datetime(2026, 12, 2, 15, 30, tzinfo=UTC)


def d(y: int, m: int, day: int, h: int = 0) -> datetime:
    return datetime(y, m, day, h, tzinfo=UTC)


def spans(query: str, now: datetime = NOW) -> list[tuple[datetime, datetime]]:
    return [(w.start, w.end) for w in time_windows(query, now)]


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did I do yesterday?", d(2026, 12, 1), d(2026, 12, 2)),
        ("where was I last night", d(2026, 12, 1), d(2026, 12, 2)),
        ("the day before yesterday", d(2026, 11, 30), d(2026, 12, 1)),
        ("anything today?", d(2026, 12, 2), d(2026, 12, 3)),
        ("this morning's call", d(2026, 12, 2), d(2026, 12, 3)),
        ("three days ago", d(2026, 11, 29), d(2026, 11, 30)),
        ("3 days ago", d(2026, 11, 29), d(2026, 11, 30)),
        ("a day ago", d(2026, 12, 1), d(2026, 12, 2)),
        ("last week", d(2026, 11, 23), d(2026, 11, 30)),
        ("the previous week", d(2026, 11, 23), d(2026, 11, 30)),
        ("this week", d(2026, 11, 30), d(2026, 12, 7)),
        ("what did we cook last weekend", d(2026, 11, 28), d(2026, 11, 30)),
        ("this weekend", d(2026, 12, 5), d(2026, 12, 7)),
        ("last month", d(2026, 11, 1), d(2026, 12, 1)),
        ("this month", d(2026, 12, 1), d(2027, 1, 1)),
        ("last year", d(2025, 1, 1), d(2026, 1, 1)),
        ("this year", d(2026, 1, 1), d(2027, 1, 1)),
        ("two months ago", d(2026, 10, 1), d(2026, 11, 1)),
        ("a year ago", d(2025, 1, 1), d(2026, 1, 1)),
        ("in May", d(2026, 5, 1), d(2026, 6, 1)),
        ("during January", d(2026, 1, 1), d(2026, 2, 1)),
        ("December", d(2026, 12, 1), d(2027, 1, 1)),
        ("last May", d(2026, 5, 1), d(2026, 6, 1)),
        ("in May 2023", d(2023, 5, 1), d(2023, 6, 1)),
        ("on March 3, 2025", d(2025, 3, 3), d(2025, 3, 4)),
        ("the 5th of May", d(2026, 5, 5), d(2026, 5, 6)),
        ("Oct 12", d(2026, 10, 12), d(2026, 10, 13)),
        ("in 2024", d(2024, 1, 1), d(2025, 1, 1)),
        ("last Monday", d(2026, 11, 30), d(2026, 12, 1)),
        ("last Wednesday", d(2026, 11, 25), d(2026, 11, 26)),
        ("on Wednesday", d(2026, 12, 2), d(2026, 12, 3)),
        ("on Tuesday", d(2026, 12, 1), d(2026, 12, 2)),
        # Chinese
        ("我上周去了哪里", d(2026, 11, 23), d(2026, 11, 30)),
        ("上个星期", d(2026, 11, 23), d(2026, 11, 30)),
        ("本周", d(2026, 11, 30), d(2026, 12, 7)),
        ("三天前", d(2026, 11, 29), d(2026, 11, 30)),
        ("3天前", d(2026, 11, 29), d(2026, 11, 30)),
        ("两个月前", d(2026, 10, 1), d(2026, 11, 1)),
        ("五月", d(2026, 5, 1), d(2026, 6, 1)),
        ("5月", d(2026, 5, 1), d(2026, 6, 1)),
        ("十二月三日", d(2026, 12, 3), d(2026, 12, 4)),
        ("2023年5月", d(2023, 5, 1), d(2023, 6, 1)),
        ("昨天", d(2026, 12, 1), d(2026, 12, 2)),
        ("前天", d(2026, 11, 30), d(2026, 12, 1)),
        ("今天", d(2026, 12, 2), d(2026, 12, 3)),
        ("上周末", d(2026, 11, 28), d(2026, 11, 30)),
        ("上周一", d(2026, 11, 23), d(2026, 11, 24)),
        ("上个月", d(2026, 11, 1), d(2026, 12, 1)),
        ("去年", d(2025, 1, 1), d(2026, 1, 1)),
        ("今年", d(2026, 1, 1), d(2027, 1, 1)),
        ("星期天", d(2026, 11, 29), d(2026, 11, 30)),
    ],
)
def test_phrases(query: str, start: datetime, end: datetime) -> None:
    assert spans(query) == [(start, end)]


def test_weeks_ago_is_the_seven_days_around_that_moment() -> None:
    centre = NOW - timedelta(weeks=4)
    assert spans("four weeks ago") == [(centre - timedelta(days=3.5), centre + timedelta(days=3.5))]
    centre = NOW - timedelta(weeks=2)
    assert spans("a couple of weeks ago") == [
        (centre - timedelta(days=3.5), centre + timedelta(days=3.5))
    ]
    assert spans("两周前") == [(centre - timedelta(days=3.5), centre + timedelta(days=3.5))]


def test_the_last_n_days_end_now() -> None:
    assert spans("in the past 3 days") == [(NOW - timedelta(days=3), NOW)]
    assert spans("over the last two weeks") == [(NOW - timedelta(days=14), NOW)]


@pytest.mark.parametrize(
    "query",
    [
        "May I ask what we decided?",
        "the march to the sea",
        "how many days did the trip take",
        "weeks ago",  # no number: not a time
        "a todayish feeling",
        "what is the capital of France",
        "",
        "我们讨论了什么",
    ],
)
def test_no_time_named(query: str) -> None:
    assert time_windows(query, NOW) == ()


def test_several_times_each_read_once() -> None:
    found = time_windows("yesterday or last week, not 上周末", NOW)
    assert [w.phrase for w in found] == ["yesterday", "last week", "上周末"]
    # "the day before yesterday" is one phrase, not also "yesterday"
    assert [w.phrase for w in time_windows("the day before yesterday", NOW)] == [
        "the day before yesterday"
    ]


def test_a_month_named_alone_is_its_latest_that_has_begun() -> None:
    assert spans("in May", d(2026, 5, 20)) == [(d(2026, 5, 1), d(2026, 6, 1))]
    assert spans("in June", d(2026, 5, 20)) == [(d(2025, 6, 1), d(2025, 7, 1))]
    assert spans("六月", d(2026, 5, 20)) == [(d(2025, 6, 1), d(2025, 7, 1))]


def test_week_boundaries_follow_now() -> None:
    monday = d(2026, 11, 30, 0)
    assert spans("last week", monday) == [(d(2026, 11, 23), d(2026, 11, 30))]
    assert spans("last weekend", monday) == [(d(2026, 11, 28), d(2026, 11, 30))]
    sunday = d(2026, 11, 29, 23)
    assert spans("last weekend", sunday) == [(d(2026, 11, 21), d(2026, 11, 23))]
    assert spans("last Sunday", sunday) == [(d(2026, 11, 22), d(2026, 11, 23))]
    january = d(2026, 1, 10)
    assert spans("last month", january) == [(d(2025, 12, 1), d(2026, 1, 1))]
    assert spans("two months ago", january) == [(d(2025, 11, 1), d(2025, 12, 1))]


def test_intervals_are_half_open_and_closeness_falls_off() -> None:
    (w,) = time_windows("yesterday", NOW)
    assert w.contains(d(2026, 12, 1)) and not w.contains(d(2026, 12, 2))
    assert closeness(d(2026, 12, 1, 12), (w,)) == 1.0
    assert closeness(d(2026, 12, 2, 12), (w,)) == pytest.approx(0.5)
    assert closeness(d(2026, 11, 29), (w,)) == 0.0
    assert closeness(d(2026, 11, 1), ()) == 0.0


def test_describe() -> None:
    assert describe(()) is None
    w = TimeWindow("last weekend", d(2026, 11, 28), d(2026, 11, 30))
    assert describe((w,)) == "'last weekend' 2026-11-28..2026-11-30"


def test_now_is_read_not_the_clock() -> None:
    assert spans("yesterday", d(2020, 2, 29, 8)) == [(d(2020, 2, 28), d(2020, 2, 29))]


def test_check_asked() -> None:
    assert check_asked(None) is None
    assert check_asked("2025-03-01T09:00:00Z") == d(2025, 3, 1, 9)
    assert check_asked("2025-03-01") == d(2025, 3, 1)
    assert check_asked(datetime(2025, 3, 1, 9)) == d(2025, 3, 1, 9)
    for bad in ("last week", "", 12):
        with pytest.raises(InvalidInput, match="now must be an ISO-8601 time"):
            check_asked(bad)


@pytest.mark.parametrize("index", range(len(relative_time._PATTERNS)))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_text_a_rule_reads_holds_a_trigger(index: int, data: st.DataObject) -> None:
    """The gate before the rules (a text with no trigger names no time) never hides a
    phrase a rule would read: every text each pattern matches holds a trigger."""
    pattern = relative_time._PATTERNS[index][0]
    text = data.draw(st.from_regex(pattern, fullmatch=True))
    assert relative_time.may_name_a_time(" ".join(text.lower().split()))


def test_a_text_with_no_trigger_reads_no_time() -> None:
    assert not relative_time.may_name_a_time("sqlite")
    assert time_windows("sqlite", NOW) == ()
