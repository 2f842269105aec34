"""Canon, frames and declared conflicts through the console script (decision 0079):
`canon add|remove|end|list|scopes`, `memory frame|frames`, `memory remember --frame`,
`conflict mark`; a refusal is exit 4 with a hint naming the command, bad input exit 2."""

from __future__ import annotations

from cli_helpers import Run


def test_canon_commands(cli: Run) -> None:
    made = cli("--json", "memory", "remember", "We ship on Friday.", "--frame", "pm")
    assert made.code == 0 and made.json()["frame"] == "pm"
    fid = made.json()["fact"]["id"]
    early = cli("canon", "add", fid, "release", "--reason", "the plan")
    assert early.code == 4 and "embornal memory promote" in early.err
    assert cli("canon", "add", fid, "release").code == 2  # --reason is required
    assert cli("memory", "promote", fid, "--reason", "the plan").code == 0
    added = cli("canon", "add", fid, "release", "--reason", "the plan")
    assert added.code == 0 and added.out.startswith(f"release {fid} since ")
    listed = cli("--json", "canon", "list", "--scope", "release").json()
    assert [(e["fact"]["id"], e["scope"], e["eligible_for_recall"]) for e in listed] == [
        (fid, "release", True)
    ]
    assert cli("canon", "scopes").out == "release  1\n"
    kept = cli("memory", "forget", fid, "--reason", "x")
    assert kept.code == 4 and "embornal canon remove" in kept.err
    framed = cli("--json", "memory", "frame", fid, "team-a", "--reason", "moved")
    assert framed.code == 0 and framed.json()["canon"] == ["release"]
    assert cli("memory", "frames").out == "team-a  1\n"
    removed = cli("canon", "remove", fid, "--reason", "not now")
    assert removed.code == 0 and removed.out == f"removed 1 membership of release: {fid}\n"
    assert cli("canon", "remove", fid, "--reason", "again").code == 4
    assert cli("canon", "add", fid, "release", "--reason", "back").code == 0
    ended = cli("canon", "end", "release", "--reason", "shipped")
    assert ended.code == 0 and "removed 1 membership" in ended.out
    assert cli("canon", "end", "release", "--reason", "again").code == 3
    assert cli("canon", "list").out == "the active canon is empty\n"
    assert cli("memory", "forget", fid, "--reason", "done").code == 0


def test_conflict_mark_and_resolve_keeps_both(cli: Run) -> None:
    a = cli("--json", "memory", "remember", "June.", "--frame", "a").json()["fact"]["id"]
    b = cli("--json", "memory", "remember", "July.", "--frame", "b").json()["fact"]["id"]
    marked = cli("--json", "conflict", "mark", a, b, "--reason", "two deadlines")
    assert marked.code == 0, marked.err
    c = marked.json()
    assert (c["conflict_class"], c["opened_reason"]) == ("declared", "two deadlines")
    done = cli("conflict", "resolve", c["id"], "--keep", b, "--reason", "the plan")
    assert done.code == 0, done.err
    assert cli("--json", "memory", "show", a).json()["fact"]["state"] == "active"
    assert cli("conflict", "mark", a, a, "--reason", "x").code == 2
    assert cli("memory", "forget", a, "--reason", "wrong").code == 0
    gone = cli("conflict", "mark", a, b, "--reason", "x")
    assert gone.code == 4 and "embornal memory restore" in gone.err
