"""Relative time in a question ("last weekend", "four weeks ago", "in May", 上周, 三天前,
五月) as intervals of time, read against the moment the question is asked (no I/O).

Recall uses them as a ranking signal on a fact's time (docs/decisions/0106): a fact whose
time falls inside an interval gains the most, one within one interval's width of it less.

Every interval is half-open, ``[start, end)``, in the time zone of ``now`` (UTC for every
stored time). Calendar words keep their calendar meaning: a day is midnight to midnight, a
week starts on Monday, a weekend is Saturday and Sunday, a month and a year are the
calendar's. ``N weeks ago`` is the seven days centred on that moment; ``N days ago``, that
day; ``N months ago`` and ``N years ago``, that calendar month or year. A month named
alone ("in May", 五月) is its latest occurrence that has begun by ``now``.

English matches whole words, case aside; "may" and "march" count as months only after
in / during / of / since / early / mid / late / last / this or before a day or a year.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from embornal.domain.clock import parse_time
from embornal.domain.records import record
from embornal.errors import InvalidInput, InvalidTime

__all__ = ["TimeWindow", "check_asked", "closeness", "describe", "time_windows"]


def check_asked(value: object) -> datetime | None:
    """The moment a question is asked (``recall(now=...)``): an ISO-8601 time or a
    datetime (no zone: UTC), or None for the time of the read."""
    if value is None:
        return None
    if isinstance(value, str | datetime):
        try:
            return parse_time(value)
        except InvalidTime:
            pass
    shown = str(value)[:60] if isinstance(value, str) else type(value).__name__
    raise InvalidInput(
        f"now must be an ISO-8601 time such as 2025-03-01T09:00:00Z (no zone: UTC; a date: "
        f"its first instant), not {shown!r}",
        hint="now is when the question is asked: 'last week' in the query is read against it.",
    )


@record
class TimeWindow:
    """What a phrase of the query names: ``[start, end)``."""

    phrase: str
    start: datetime
    end: datetime

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment < self.end


def closeness(moment: datetime, windows: tuple[TimeWindow, ...]) -> float:
    """1.0 inside any window, falling linearly to 0.0 one window's width outside it; the
    best over the windows (0.0 with none)."""
    best = 0.0
    for w in windows:
        if w.contains(moment):
            return 1.0
        width = (w.end - w.start).total_seconds()
        gap = (w.start - moment if moment < w.start else moment - w.end).total_seconds()
        if width > 0:
            best = max(best, 1.0 - gap / width)
    return best


def describe(windows: tuple[TimeWindow, ...]) -> str | None:
    """``'last weekend' 2026-11-28..2026-11-30`` for each window, or None."""
    if not windows:
        return None

    def day(t: datetime) -> str:
        return t.date().isoformat() if t.time() == datetime.min.time() else t.isoformat()

    return "; ".join(f"{w.phrase!r} {day(w.start)}..{day(w.end)}" for w in windows)


# -- calendar arithmetic -------------------------------------------------------------------


def _midnight(t: datetime) -> datetime:
    return t.replace(hour=0, minute=0, second=0, microsecond=0)


def _day(t: datetime) -> tuple[datetime, datetime]:
    start = _midnight(t)
    return start, start + timedelta(days=1)


def _week_start(t: datetime) -> datetime:
    return _midnight(t) - timedelta(days=t.weekday())


def _month(year: int, month: int, like: datetime) -> tuple[datetime, datetime]:
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    start = _midnight(like).replace(year=year, month=month, day=1)
    nxt = start.replace(year=year + 1, month=1) if month == 12 else start.replace(month=month + 1)
    return start, nxt


def _year(year: int, like: datetime) -> tuple[datetime, datetime]:
    start = _midnight(like).replace(year=year, month=1, day=1)
    return start, start.replace(year=year + 1)


def _latest_month(month: int, now: datetime) -> tuple[datetime, datetime]:
    year = now.year if month <= now.month else now.year - 1
    return _month(year, month, now)


def _latest_weekday(
    weekday: int, now: datetime, *, before_today: bool
) -> tuple[datetime, datetime]:
    back = (now.weekday() - weekday) % 7
    if back == 0 and before_today:
        back = 7
    return _day(now - timedelta(days=back))


def _ago(n: int, unit: str, now: datetime) -> tuple[datetime, datetime]:
    if unit == "day":
        return _day(now - timedelta(days=n))
    if unit == "week":
        centre = now - timedelta(weeks=n)
        return centre - timedelta(days=3.5), centre + timedelta(days=3.5)
    if unit == "month":
        return _month(now.year, now.month - n, now)
    return _year(now.year - n, now)


def _past(n: int, unit: str, now: datetime) -> tuple[datetime, datetime]:
    """The last ``n`` units up to now."""
    if unit in ("day", "week"):
        return now - timedelta(days=n * (7 if unit == "week" else 1)), now
    if unit == "month":
        return _month(now.year, now.month - n, now)[0].replace(day=min(now.day, 28)), now
    return now.replace(year=now.year - n, day=min(now.day, 28)), now


def _last(unit: str, now: datetime) -> tuple[datetime, datetime]:
    if unit == "week":
        this = _week_start(now)
        return this - timedelta(weeks=1), this
    if unit == "weekend":
        this = _week_start(now)
        return this - timedelta(days=2), this
    if unit == "month":
        return _month(now.year, now.month - 1, now)
    return _year(now.year - 1, now)


def _this(unit: str, now: datetime) -> tuple[datetime, datetime]:
    if unit == "week":
        this = _week_start(now)
        return this, this + timedelta(weeks=1)
    if unit == "weekend":
        this = _week_start(now)
        return this + timedelta(days=5), this + timedelta(weeks=1)
    if unit == "month":
        return _month(now.year, now.month, now)
    return _year(now.year, now)


# -- numbers -----------------------------------------------------------------------------

_EN_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 3,
}
_EN_NUMBER = r"(\d{1,3}|a couple of|a couple|couple of|a few|few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"  # noqa: E501
_ZH_DIGITS = {
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_NUMBER = r"(\d{1,3}|[零一二两三四五六七八九十]{1,3})"


def _en_number(text: str) -> int:
    return int(text) if text.isdigit() else _EN_NUMBERS[text]


def _zh_number(text: str) -> int:
    """Arabic digits, or Chinese numerals up to 99 (十 10, 十二 12, 二十 20, 三十五 35)."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + (_ZH_DIGITS.get(ones, 0))
    value = 0
    for ch in text:
        value = value * 10 + _ZH_DIGITS[ch]
    return value


_UNITS = {
    "day": "day",
    "days": "day",
    "week": "week",
    "weeks": "week",
    "month": "month",
    "months": "month",
    "year": "year",
    "years": "year",
}
_ZH_UNITS = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_OF = (
    {m: i for i, m in enumerate(_MONTHS, 1)}
    | {m[:3]: i for i, m in enumerate(_MONTHS, 1) if m not in ("may", "march", "june", "july")}
    | {"sept": 9}
)
_MONTH_NAME = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|aug|sept|sep|oct|nov|dec)"  # noqa: E501
_BEFORE_MONTH = r"(?:in|during|of|since|early|mid|late|last|this|by|until|from|to|through)"


def _month_number(name: str) -> int:
    return _MONTH_OF.get(name, _MONTH_OF.get(name[:3], 0))


# -- the patterns ------------------------------------------------------------------------

Span = tuple[datetime, datetime] | None
Handler = Callable[[re.Match[str], datetime], Span]


def _month_phrase(m: re.Match[str], now: datetime) -> Span:
    before, name, day_a, day_b, year = (
        m.group("before"),
        m.group("name"),
        m.group("day_a"),
        m.group("day_b"),
        m.group("year"),
    )
    day = day_a or day_b
    if name in ("may", "march", "mar") and not (before or day or year):
        return None  # the verbs
    month = _month_number(name)
    if year:
        span = _month(int(year), month, now)
    elif before == "last":
        span = _latest_month(month, now - timedelta(days=1))
        if span[0].month == now.month and span[0].year == now.year:
            span = _month(now.year - 1, month, now)
    else:
        span = _latest_month(month, now)
    if day:
        try:
            start = span[0].replace(day=int(day))
        except ValueError:
            return span
        return start, start + timedelta(days=1)
    return span


def _zh_month(m: re.Match[str], now: datetime) -> Span:
    month = _zh_number(m.group("month"))
    if not 1 <= month <= 12:
        return None
    year = m.group("year")
    span = _month(int(year), month, now) if year else _latest_month(month, now)
    day = m.group("day")
    if day:
        try:
            start = span[0].replace(day=_zh_number(day))
        except ValueError:
            return span
        return start, start + timedelta(days=1)
    return span


def _rule(pattern: str, handler: Handler) -> tuple[str, Handler]:
    return pattern, handler


#: Each rule's pattern (compiled on the first query that may name a time: a command that
#: reads no such query never pays for it) and what it means.
_PATTERNS: tuple[tuple[str, Handler], ...] = (
    # English
    _rule(r"\bthe day before yesterday\b", lambda m, now: _day(now - timedelta(days=2))),
    _rule(r"\b(?:yesterday|last night)\b", lambda m, now: _day(now - timedelta(days=1))),
    _rule(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", lambda m, now: _day(now)),
    _rule(
        rf"\b{_EN_NUMBER} (days?|weeks?|months?|years?) ago\b",
        lambda m, now: _ago(_en_number(m.group(1)), _UNITS[m.group(2)], now),
    ),
    _rule(
        rf"\b(?:in |over |during )?the (?:last|past) {_EN_NUMBER} (days?|weeks?|months?|years?)\b",
        lambda m, now: _past(_en_number(m.group(1)), _UNITS[m.group(2)], now),
    ),
    _rule(
        r"\b(?:last|past|previous) (week|weekend|month|year)\b",
        lambda m, now: _last(m.group(1), now),
    ),
    _rule(r"\bthis (week|weekend|month|year)\b", lambda m, now: _this(m.group(1), now)),
    _rule(
        rf"\b(?:(last|this past|past|on) )?({'|'.join(_WEEKDAYS)})\b",
        lambda m, now: _latest_weekday(
            _WEEKDAYS.index(m.group(2)), now, before_today=m.group(1) not in (None, "on")
        ),
    ),
    _rule(
        rf"\b(?:(?P<before>{_BEFORE_MONTH}) )?(?:the )?(?:(?P<day_b>\d{{1,2}})(?:st|nd|rd|th)?"
        rf" (?:of )?)?(?P<name>{_MONTH_NAME})\.?(?: (?P<day_a>\d{{1,2}})(?:st|nd|rd|th)?\b)?"
        rf",?(?: (?P<year>(?:19|20)\d\d))?\b",
        _month_phrase,
    ),
    _rule(r"\b(?:in|during) ((?:19|20)\d\d)\b", lambda m, now: _year(int(m.group(1)), now)),
    # Chinese
    _rule(r"大前天", lambda m, now: _day(now - timedelta(days=3))),
    _rule(r"前天", lambda m, now: _day(now - timedelta(days=2))),
    _rule(r"昨天|昨日|昨晚", lambda m, now: _day(now - timedelta(days=1))),
    _rule(r"今天|今日|今晚|今早", lambda m, now: _day(now)),
    _rule(
        rf"{_ZH_NUMBER}个?(天|日|周|星期|礼拜|月|年)(?:以)?前",
        lambda m, now: _ago(_zh_number(m.group(1)), _ZH_UNITS[m.group(2)], now),
    ),
    _rule(
        r"(?:上|上个)(?:周|星期|礼拜)([一二三四五六日天])",
        lambda m, now: _day(_last("week", now)[0] + timedelta(days=_ZH_WEEKDAYS[m.group(1)])),
    ),
    _rule(r"上个?周末", lambda m, now: _last("weekend", now)),
    _rule(r"(?:这个|本)周末", lambda m, now: _this("weekend", now)),
    _rule(r"上个?(?:周|星期|礼拜)", lambda m, now: _last("week", now)),
    _rule(r"(?:本周|这周|这个星期|这星期|这礼拜)", lambda m, now: _this("week", now)),
    _rule(r"上个?月", lambda m, now: _last("month", now)),
    _rule(r"(?:本月|这个月)", lambda m, now: _this("month", now)),
    _rule(r"前年", lambda m, now: _year(now.year - 2, now)),
    _rule(r"去年", lambda m, now: _last("year", now)),
    _rule(r"今年", lambda m, now: _this("year", now)),
    _rule(
        r"(?:(?P<year>(?:19|20)\d\d)年)?(?P<month>\d{1,2}|十[一二]?|[一二三四五六七八九])月"
        r"(?:(?P<day>\d{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])[日号])?",
        _zh_month,
    ),
    _rule(
        r"(?:周|星期|礼拜)([一二三四五六日天])",
        lambda m, now: _latest_weekday(_ZH_WEEKDAYS[m.group(1)], now, before_today=False),
    ),
)


#: Every rule needs one of these in the (lower-cased) text: a text with none names no
#: time, and no pattern is tried (a test holds each rule to them).
TRIGGERS = (
    *"0123456789",
    *("day", "week", "month", "year", "ago", "last", "past", "previous", "this ", "night"),
    *("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
    *"天日周星期礼拜月年前昨今去本这上",
)
_compiled: list[tuple[re.Pattern[str], Handler]] = []


def _rules() -> list[tuple[re.Pattern[str], Handler]]:
    if not _compiled:
        _compiled.extend((re.compile(p), h) for p, h in _PATTERNS)
    return _compiled


def may_name_a_time(text: str) -> bool:
    """Whether the lower-cased ``text`` holds any rule's trigger."""
    return any(t in text for t in TRIGGERS)


def time_windows(query: str, now: datetime) -> tuple[TimeWindow, ...]:
    """Every relative or calendar time ``query`` names, read against ``now``, in the order
    the rules try them (each part of the text is read once, by the first rule that takes
    it). Pure: ``now`` is passed in."""
    text = " ".join(query.lower().split())
    found: list[TimeWindow] = []
    if not may_name_a_time(text):
        return ()
    for pattern, handler in _rules():

        def take(m: re.Match[str], handler: Handler = handler) -> str:
            span = handler(m, now)
            if span is None or span[0] >= span[1]:
                return m.group(0)
            found.append(TimeWindow(m.group(0).strip(), span[0], span[1]))
            return " " * len(m.group(0))

        text = pattern.sub(take, text)
    return tuple(found)
