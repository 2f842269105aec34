"""The history context and timeline through the console script: memory remember's
--event-at and --session-position, memory timeline, search-history and
set-history-context; bad input is one line, exit 2, and nothing is written."""

from __future__ import annotations

from cli_helpers import Run


def _remember(cli: Run, text: str, *args: str) -> str:
    made = cli("--json", "memory", "remember", text, *args)
    assert made.code == 0, made.err
    return str(made.json()["fact"]["id"])


def test_remember_timeline_search_and_correct(cli: Run) -> None:
    old = _remember(
        cli,
        "Comet deadline: March 4.",
        "--event-at",
        "2025-03-01T09:00:00Z",
        "--session",
        "comet:1",
        "--session-position",
        "0",
    )
    new = _remember(
        cli,
        "Comet deadline changed to April 10.",
        "--event-at",
        "2025-03-10T09:00:00Z",
        "--session",
        "comet:2",
        "--session-position",
        "0",
    )
    cause = _remember(
        cli, "Review found a missing signature.", "--session", "comet:2", "--session-position", "1"
    )
    line = cli("memory", "timeline")
    assert line.code == 0
    rows = line.out.splitlines()
    assert [r.split()[2] for r in rows[:2]] == [old, new]
    assert rows[2].startswith("unknown time [comet:2#1] " + cause)
    listed = cli("--json", "memory", "timeline", "--session", "comet:2", "--order", "desc")
    assert [e["fact"]["id"] for e in listed.json()] == [new, cause]
    found = cli("memory", "search-history", "deadline", "--start", "2025-03-05", "--expand", "1")
    assert found.code == 0, found.err
    assert found.out.splitlines()[0].split()[3] == new
    assert "(session +1)" in found.out and cause in found.out
    fixed = cli(
        "memory",
        "set-history-context",
        cause,
        "--event-at",
        "2025-03-09T15:00:00Z",
        "--session",
        "comet:2",
        "--session-position",
        "1",
        "--reason",
        "minutes",
    )
    assert fixed.code == 0 and "event: 2025-03-09T15:00:00Z [comet:2#1]" in fixed.out
    audit = cli("memory", "audit", "--limit", "1")
    assert "set_history_context" in audit.out and "minutes" in audit.out


def test_bad_context_is_one_line_exit_2_and_writes_nothing(cli: Run) -> None:
    lone = cli("memory", "remember", "x", "--session-position", "1")
    assert lone.code == 2 and "needs a session_id" in lone.err
    bad = cli("memory", "remember", "x", "--event-at", "next week")
    assert bad.code == 2 and "ISO-8601" in bad.err
    order = cli("memory", "timeline", "--order", "sideways")
    assert order.code == 2
    window = cli("memory", "timeline", "--start", "2025-03-02", "--end", "2025-03-01")
    assert window.code == 2 and window.err.count("\n") == 1
    assert cli("memory", "timeline").out.strip() == "no memories on the timeline"
