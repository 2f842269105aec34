"""Source and visibility through the console script: memory store --visibility --source
--evidence --confidence, memory visibility ID V, show printing them, an assistant
(EMBORNAL_ACTOR_KIND=assistant) never seeing a private fact, and bad input: one line
naming the allowed values, exit 2, nothing written."""

from __future__ import annotations

import os

import pytest
from cli_helpers import Run, run_cli

from embornal import Memory

ALLOWED = "shared, private, restricted:<subject>,<subject>"


def _events() -> int:
    with Memory.open() as memory:
        return len(list(memory._store.read_all()))


def _as_assistant(*args: str) -> object:
    env = {**os.environ, "EMBORNAL_ACTOR_KIND": "assistant"}
    return run_cli(*args, env=env)


def test_store_with_the_spine_and_show_it(cli: Run) -> None:
    made = cli(
        "--json",
        "memory",
        "store",
        "/me",
        "My badge PIN is 4411.",
        "--visibility",
        "private",
        "--source",
        "cli-session-7",
        "--evidence",
        "quote:I set it",
        "--evidence",
        "uri:https://example.org/badge",
        "--confidence",
        "0.9",
    )
    assert made.code == 0, made.err
    fact = made.json()
    assert fact["visibility"] == "private" and fact["confidence"] == 0.9
    shown = cli("memory", "show", fact["id"])
    assert shown.code == 0, shown.err
    assert "visibility:    private" in shown.out
    assert "source:        default (person) via cli-session-7" in shown.out
    assert "quote:I set it" in shown.out and "uri:https://example.org/badge" in shown.out
    detail = cli("--json", "memory", "show", fact["id"]).json()
    assert detail["source"] == {
        "subject": "default",
        "actor_kind": "person",
        "label": "cli-session-7",
    }
    assert detail["fact"]["visibility"] == "private"


def test_an_assistant_never_sees_a_private_fact(cli: Run) -> None:
    secret = cli("--json", "memory", "store", "/me", "zebra secret", "--visibility", "private")
    fact_id = secret.json()["id"]
    cli("memory", "store", "/me", "zebra shared")
    mine = cli("--json", "memory", "recall", "zebra", "--no-reinforce").json()
    assert {h["fact"]["content"] for h in mine} == {"zebra secret", "zebra shared"}
    theirs = _as_assistant("--json", "memory", "recall", "zebra", "--no-reinforce")
    assert theirs.code == 0, theirs.err  # type: ignore[attr-defined]
    assert [h["fact"]["content"] for h in theirs.json()] == ["zebra shared"]  # type: ignore[attr-defined]
    shown = _as_assistant("memory", "show", fact_id)
    assert shown.code == 3 and "no fact with id" in shown.err  # type: ignore[attr-defined]
    listed = _as_assistant("--json", "memory", "ls", "/")
    counts = {e["path"]: e["fact_count"] for e in listed.json()}  # type: ignore[attr-defined]
    assert counts["/me"] == 1


def test_memory_visibility_changes_it_and_the_history_shows_it(cli: Run) -> None:
    fact_id = cli("--json", "memory", "store", "/t", "Shared for now.").json()["id"]
    changed = cli("memory", "visibility", fact_id, "restricted:alice,bob", "--reason", "team")
    assert changed.code == 0, changed.err
    assert changed.out == f"{fact_id} /t restricted:alice,bob\n"
    history = cli("memory", "history", fact_id)
    assert "FactVisibilityChanged" in history.out and "team" in history.out
    as_json = cli("--json", "memory", "visibility", fact_id, "shared").json()
    assert as_json["visibility"] == "shared"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--visibility", "secret"), f"visibility 'secret' is not one of: {ALLOWED}"),
        (("--visibility", "restricted:"), "restricted visibility needs an allow-list"),
        (("--visibility", "restricted:al ice"), "in the allow-list"),
        (("--source", "a\x07b"), "the source label holds a control character"),
        (("--source", "x" * 129), "source is 129 characters long; at most 128 are allowed"),
        (("--confidence", "high"), "--confidence must be a number from 0 to 1"),
        (("--confidence", "1.2"), "must be a number from 0 to 1"),
        (("--evidence", "rumour:so"), "evidence type 'rumour' is not one of"),
    ],
)
def test_bad_store_input_is_exit_2_and_writes_nothing(
    cli: Run, args: tuple[str, ...], message: str
) -> None:
    cli("memory", "ls")  # the memory exists
    before = _events()
    bad = cli("memory", "store", "/t", "never stored", *args)
    assert bad.code == 2 and bad.out == ""
    assert len(bad.err.strip().splitlines()) == 1 and message in bad.err, bad.err
    assert _events() == before


def test_bad_visibility_on_change_is_exit_2_and_writes_nothing(cli: Run) -> None:
    fact_id = cli("--json", "memory", "store", "/t", "kept").json()["id"]
    before = _events()
    for bad in ("hidden", "restricted:", "restricted:a=b"):
        out = cli("memory", "visibility", fact_id, bad)
        assert out.code == 2 and len(out.err.strip().splitlines()) == 1, out.err
    assert _events() == before


def test_only_the_owner_changes_it(cli: Run) -> None:
    fact_id = cli("--json", "memory", "store", "/t", "of default").json()["id"]
    with Memory.open() as memory:
        for action in ("read", "write", "delete"):
            memory.policy_add("p", ["alice", "path:/*", action, "allow"])
    denied = cli("--as-subject", "alice", "memory", "visibility", fact_id, "private")
    assert denied.code == 5 and "only its owner default" in denied.err  # access denied
