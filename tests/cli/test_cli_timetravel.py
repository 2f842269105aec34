"""``--at TIME`` on recall, cat, show, ls, tree and find through the console script: the
memory as it was then; a bad or future time is one line naming the forms, exit 2."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from cli_helpers import Run

from embornal import Memory
from embornal.domain.clock import format_time

FORMS = "an ISO-8601 date or time"


def test_reads_as_they_were_before_a_forget(cli: Run) -> None:
    made = cli("--json", "memory", "store", "/notes/tea", "Tea at four o'clock.")
    assert made.code == 0, made.err
    fact_id = made.json()["id"]
    then = format_time(datetime.now(UTC))
    assert cli("memory", "forget", fact_id, "--reason", "no more tea").code == 0

    assert cli("memory", "recall", "tea").out == "(no facts found)\n"
    past = cli("--json", "memory", "recall", "tea", "--at", then)
    assert past.code == 0, past.err
    assert [h["fact"]["id"] for h in past.json()] == [fact_id]
    cat = cli("--json", "memory", "cat", "/notes/tea", "--at", then)
    assert [v["fact"]["state"] for v in cat.json()] == ["active"]
    assert "/notes" in cli("memory", "ls", "/", "--at", then).out
    assert "/notes" not in cli("memory", "ls", "/").out
    assert "tea" in cli("memory", "tree", "/", "--at", then).out
    shown = cli("memory", "show", fact_id, "--at", then)
    assert shown.code == 0, shown.err
    assert "as of:" in shown.out and "state:         active" in shown.out
    assert cli("--json", "memory", "show", fact_id, "--at", then).json()["as_of"] == then
    found = cli("--json", "memory", "find", "--kind", "fact", "--under", "/notes", "--at", then)
    assert [f["id"] for f in found.json()] == [fact_id]
    with Memory.open() as mem:  # read-only: no recall was recorded
        assert mem.show(fact_id).fact.recall_count == 0


@pytest.mark.parametrize("when", ["soon", "2099-01-01", "30/11/2026"])
@pytest.mark.parametrize("command", [["recall", "x"], ["cat", "/x"], ["ls"], ["show", "01K"]])
def test_a_bad_time_is_one_line_and_exit_2(cli: Run, when: str, command: list[str]) -> None:
    result = cli("memory", *command, "--at", when)
    assert result.code == 2, result.err
    assert result.out == "" and result.err.count("\n") == 1
    assert FORMS in result.err and "yesterday" in result.err


def test_cat_at_a_past_time_is_never_a_recall(cli: Run) -> None:
    cli("memory", "store", "/x", "something")
    earlier = format_time(datetime.now(UTC) - timedelta(seconds=0))
    result = cli("memory", "cat", "/x", "--recall", "--at", earlier)
    assert result.code == 2 and "never a recall" in result.err
