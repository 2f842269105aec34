"""``memory undo`` and the history's event ids through the console script: what was
undone, by what; a purge, an unknown event and bad input are one line, the right exit
code, and nothing written."""

from __future__ import annotations

from cli_helpers import Run


def _history(cli: Run, target: str) -> list[dict[str, object]]:
    shown = cli("--json", "memory", "history", target)
    assert shown.code == 0, shown.err
    events: list[dict[str, object]] = shown.json()
    return events


def test_undo_then_the_history_says_what_undid_what(cli: Run) -> None:
    fact_id = cli("--json", "memory", "store", "/notes", "The build uses uv.").json()["id"]
    assert cli("memory", "forget", fact_id, "--reason", "oops").code == 0
    forget = _history(cli, fact_id)[-1]
    assert forget["type"] == "FactForgotten" and forget["actor_kind"] == "person"
    done = cli("memory", "undo", f"#{forget['position']}", "--reason", "forgotten by mistake")
    assert done.code == 0, done.err
    restore = _history(cli, fact_id)[-1]
    assert (
        done.out
        == f"undid #{forget['position']}: #{restore['position']} FactRestored on {fact_id}\n"
    )
    assert restore["payload"] == {"fact_id": fact_id, "undoes": forget["position"]}
    assert restore["reason"] == "forgotten by mistake"
    table = cli("memory", "history", fact_id).out
    assert "| #   |" in table.splitlines()[0] and "| Undo" in table.splitlines()[0]
    assert f"undone by #{restore['position']}" in table and f"undoes #{forget['position']}" in table
    again = cli("memory", "undo", str(forget["position"]), "--reason", "again")
    assert again.code == 4 and again.out == ""
    assert again.err.startswith(f"embornal: event {forget['position']} was undone already")
    assert len(again.err.splitlines()) == 1


def test_purge_unknown_and_bad_input_write_nothing(cli: Run) -> None:
    fact_id = cli("--json", "memory", "store", "/notes", "Secret.").json()["id"]
    assert cli("memory", "purge", fact_id, "--reason", "gone", "--yes").code == 0
    events = _history(cli, fact_id)
    purge = events[-1]["position"]
    for args, code, start in (
        ((str(purge),), 4, f"embornal: event {purge}: a purge cannot be undone"),
        (("999999",), 3, "embornal: no event 999999 in a history you can read"),
        (("abc",), 2, "embornal: an event id is a whole number from 1"),
        ((str(purge), "--reason", " "), 2, "embornal: a reason is required"),
    ):
        r = cli("memory", "undo", *args, *(() if "--reason" in args else ("--reason", "x")))
        assert (r.code, r.out) == (code, ""), (args, r.err)
        assert r.err.startswith(start) and len(r.err.splitlines()) == 1, r.err
    assert _history(cli, fact_id) == events
    js = cli("--json", "memory", "undo", str(purge), "--reason", "x")
    assert js.code == 4 and js.json()["error"] == "not_undoable"
