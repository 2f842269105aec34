""" "Did you mean": a mistyped command or option gets one line naming the closest choice."""

from __future__ import annotations

import pytest
from cli_helpers import Run


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("memory", "stroe", "/a", "b"), "unknown command 'stroe'; did you mean 'store'?"),
        (("memroy", "ls"), "unknown command 'memroy'; did you mean 'memory'?"),
        (("proposal", "aprove", "x"), "unknown command 'aprove'; did you mean 'approve'?"),
        (("import", "chatgtp", "f"), "unknown command 'chatgtp'; did you mean 'chatgpt'?"),
        (("completon", "bash"), "unknown command 'completon'; did you mean 'completion'?"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, tuple) else "",
)
def test_a_mistyped_command_names_the_closest(cli: Run, args: tuple[str, ...], said: str) -> None:
    r = cli(*args)
    assert r.code == 2
    lines = r.err.splitlines()
    assert len(lines) == 1 and said in lines[0], r.err
    assert "choose from" not in r.err and "usage:" not in r.err


def test_a_mistyped_option_names_the_closest_of_its_command(cli: Run) -> None:
    r = cli("memory", "store", "--tgas", "x", "/a", "b")
    assert r.code == 2
    assert r.err.splitlines() == [
        "embornal memory store: error: unknown option '--tgas'; did you mean '--tag'? "
        "(hint: `embornal memory store --help` lists its options)"
    ]
    r = cli("memory", "recall", "--limt=3", "foo", "--jsno")
    assert r.code == 2
    assert "'--limt'; did you mean '--limit'?" in r.err and "did you mean '--json'?" in r.err
    assert len(r.err.splitlines()) == 1
    r = cli("--db", "x.db", "memory", "recall", "--mdoe", "keyword")
    assert "embornal memory recall: error: unknown option '--mdoe'; did you mean '--mode'?" in r.err


def test_a_mistyped_choice_of_a_flag_names_the_closest(cli: Run) -> None:
    r = cli("mcp", "--profile", "ful")
    assert r.code == 2
    assert "invalid choice 'ful'; did you mean 'full'?" in r.err


def test_with_json_the_suggestion_is_the_usage_error(cli: Run) -> None:
    r = cli("--json", "memory", "recal")
    assert r.code == 2
    assert r.json() == {
        "error": "usage",
        "message": "unknown command 'recal'; did you mean 'recall'?",
        "hint": "`embornal memory --help` lists them all",
    }


def test_nothing_close_keeps_one_line_and_names_the_help(cli: Run) -> None:
    r = cli("memory", "zzzzzz")
    assert r.code == 2
    assert r.err.splitlines() == [
        "embornal memory: error: unknown command 'zzzzzz' "
        "(hint: `embornal memory --help` lists them all (57 commands))"
    ]
    r = cli("memory", "store", "--zzzzzz", "/a", "b")  # no near option: argparse's own
    assert r.code == 2 and "unrecognized arguments: --zzzzzz" in r.err
