"""``embornal proposal list|show|approve|reject|edit``, ``memory retention`` and ``prune``
on the real console script: exit codes, one-line errors, nothing half-written."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from cli_helpers import Run

from embornal import Memory


def _proposal(items: list[dict[str, object]]) -> str:
    with Memory.open() as memory:
        return memory.propose(items, title="review me").id


def test_review_a_proposal_on_the_command_line(cli: Run, stored: Callable[..., str]) -> None:
    old = stored("/notes/old", "An outdated note.")
    pid = _proposal(
        [
            {"type": "create", "path": "/notes/new", "content": "The narwhal note."},
            {"type": "archive", "fact_id": old, "reason": "outdated"},
        ]
    )
    listed = cli("proposal", "list")
    assert listed.code == 0 and pid in listed.out and "review me" in listed.out
    shown = cli("proposal", "show", pid[:12])
    assert shown.code == 0 and "narwhal" in shown.out and "archive" in shown.out
    assert "narwhal" not in cli("memory", "recall", "narwhal").out
    done = cli("proposal", "approve", pid, "--item", "1")
    assert done.code == 0 and "approved" in done.out and "declined" in done.out
    assert "narwhal" in cli("memory", "recall", "narwhal").out
    again = cli("proposal", "approve", pid)
    assert again.code == 4 and "only an open one can be approved" in again.err
    assert again.err.count("\n") == 1 and "Traceback" not in again.err
    data = cli("--json", "proposal", "show", pid).json()
    assert data["status"] == "approved" and [i["applied"] for i in data["items"]] == [True, False]


def test_bad_input_is_one_line_and_exit_2(cli: Run, stored: Callable[..., str]) -> None:
    old = stored("/notes/a", "A note.")
    pid = _proposal([{"type": "archive", "fact_id": old}])
    bad = cli("proposal", "approve", pid, "--item", "9")
    assert bad.code == 2 and "has no item '9' (its items: 1)" in bad.err
    assert cli("proposal", "reject", pid).code == 2  # --reason is required
    assert cli("proposal", "list", "--status", "pending").code == 2
    assert cli("proposal", "edit", pid, "--add", "not json").code == 2
    assert cli("memory", "prune", "--threshold", "3").code == 2
    missing = cli("proposal", "show", "01KCZ8Q3W5R7T9V1X3Z5B7D9F1")
    assert missing.code == 3 and "no proposal with id" in missing.err
    rejected = cli("proposal", "reject", pid, "--reason", "keep it")
    assert rejected.code == 0 and "rejected" in rejected.out
    assert cli("proposal", "approve", pid).code == 4


def test_edit_then_approve(cli: Run, stored: Callable[..., str]) -> None:
    a = stored("/notes/a", "A note.")
    b = stored("/notes/b", "B note.")
    pid = _proposal([{"type": "archive", "fact_id": a}])
    item = json.dumps({"type": "archive", "fact_id": b})
    edited = cli("proposal", "edit", pid, "--drop", "1", "--add", item)
    assert edited.code == 0, edited.err
    assert cli("proposal", "approve", pid).code == 0
    with Memory.open() as memory:
        assert memory.show(a).fact.state == "active"
        assert memory.show(b).fact.state == "forgotten"


def test_retention_and_prune(cli: Run, stored: Callable[..., str]) -> None:
    stored("/notes/ancient", "An ancient note.", at="2019-01-01T00:00:00Z")
    scores = cli("memory", "retention", "--lowest", "3", "--explain")
    assert scores.code == 0 and "Recency" in scores.out and "Links" in scores.out
    pruned = cli("prune", "--threshold", "0.99", "--limit", "2")
    assert pruned.code == 0 and "proposal" in pruned.out and "embornal proposal show" in pruned.out
    data = cli("--json", "memory", "prune", "--threshold", "0").json()
    assert data["proposal"] is None and data["candidates"] == 0


def test_the_config_lets_a_source_approve(cli: Run, stored: Callable[..., str]) -> None:
    config = Path(cli("--json", "config", "path").json()["config_file"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("proposals:\n  auto_approve_sources: [prune]\n", "utf-8")
    stored("/notes/ancient", "An ancient note.", at="2019-01-01T00:00:00Z")
    data = cli("--json", "prune", "--threshold", "0.99").json()
    assert data["proposal"]["status"] == "approved"
    assert data["proposal"]["decided_by"] == "policy:source=prune"
    config.write_text("proposals:\n  auto_approve_kinds: preference\n", "utf-8")
    bad = cli("proposal", "list")
    assert bad.code == 6 and "auto_approve_kinds" in bad.err


def test_approve_the_version_shown(cli: Run, stored: Callable[..., str]) -> None:
    """`proposal show` prints the version; `approve --version N` refuses (exit 4) once an
    edit moved the proposal on, and nothing of the edit is applied."""
    pid = _proposal([{"type": "create", "path": "/notes/budget", "content": "Budget ok."}])
    shown = cli("proposal", "show", pid)
    assert "version 1" in shown.out and f"approve {pid} --version 1" in shown.out
    assert cli("--json", "proposal", "show", pid).json()["version"] == 1
    swap = json.dumps({"type": "create", "path": "/notes/budget", "content": "Wire it to 666."})
    assert cli("proposal", "edit", pid, "--drop", "1", "--add", swap).code == 0
    stale = cli("proposal", "approve", pid, "--version", "1")
    assert stale.code == 4 and "changed since version 1" in stale.err
    assert "proposal show" in stale.err and "Traceback" not in stale.err
    assert "666" not in cli("memory", "recall", "wire 666").out
    assert cli("proposal", "approve", pid, "--version", "0").code == 2
    assert cli("proposal", "approve", pid, "--version", "2").code == 0
    assert "666" in cli("memory", "recall", "wire 666").out


def test_replace_an_item_in_place(cli: Run) -> None:
    """`--replace N=JSON` puts an item in N's place: its number and the id of the fact it
    makes kept; a stale `--version` (exit 4), an unknown number or a bad item (exit 2)
    change nothing."""
    pid = _proposal(
        [
            {"type": "create", "path": "/notes/tea", "content": "Likes tea."},
            {"type": "create", "path": "/notes/b", "content": "Second."},
        ]
    )
    before = cli("--json", "proposal", "show", pid).json()
    green = json.dumps({"type": "create", "path": "/notes/tea", "content": "Likes green tea."})
    done = cli("proposal", "edit", pid, "--replace", f"1={green}", "--version", "1")
    assert done.code == 0, done.err
    assert "version 2" in done.out and "green tea" in done.out
    after = cli("--json", "proposal", "show", pid).json()
    assert [i["number"] for i in after["items"]] == ["1", "2"]
    assert after["items"][0]["fact_id"] == before["items"][0]["fact_id"]
    assert after["items"][0]["fields"]["content"] == "Likes green tea."
    oolong = json.dumps({"type": "create", "path": "/notes/tea", "content": "Oolong."})
    stale = cli("proposal", "edit", pid, "--replace", f"1={oolong}", "--version", "1")
    assert stale.code == 4 and "changed since version 1" in stale.err
    assert stale.err.count("\n") == 1
    unknown = cli("proposal", "edit", pid, "--replace", f"9={oolong}")
    assert unknown.code == 2 and "has no item '9' (its items: 1, 2)" in unknown.err
    bad = cli("proposal", "edit", pid, "--replace", '1={"type": "create", "path": "/n"}')
    assert bad.code == 2 and "needs 'content'" in bad.err
    for word in ("1", "=" + oolong, "1=not json"):
        assert cli("proposal", "edit", pid, "--replace", word).code == 2, word
    twice = cli("proposal", "edit", pid, "--replace", f"1={oolong}", "--replace", f"1={green}")
    assert twice.code == 2 and "replaced twice" in twice.err
    assert cli("--json", "proposal", "show", pid).json() == after  # nothing changed
