"""``embornal ingest FILE|-`` on the real console script."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import Run

CHAT = "User: Remember that Ana lives in Porto.\nUser: I prefer tea.\nAssistant: Noted.\n"


def test_ingest_a_file_then_approve_it(cli: Run, tmp_path: Path) -> None:
    chat = tmp_path / "monday.txt"
    chat.write_text(CHAT, "utf-8")
    made = cli("--json", "ingest", str(chat))
    assert made.code == 0, made.err
    data = made.json()
    assert data["status"] == "open" and data["source"] == "ingest:rules"
    assert [i["fields"]["content"] for i in data["items"]] == [
        "Ana lives in Porto",
        "I prefer tea",
    ]
    assert "Porto" not in cli("memory", "recall", "Porto").out
    assert cli("proposal", "approve", data["id"]).code == 0
    assert "Ana lives in Porto" in cli("memory", "recall", "Porto").out


def test_ingest_reads_standard_input_and_prints_the_proposal(cli: Run) -> None:
    shown = cli("ingest", "-", stdin=CHAT)
    assert shown.code == 0, shown.err
    assert "ingest stdin (rules: 2 memories)" in shown.out and "I prefer tea" in shown.out
    placed = cli("--json", "ingest", "--path", "/chats/today", stdin=CHAT).json()
    assert {i["fields"]["path"] for i in placed["items"]} == {"/chats/today"}
    assert cli("memory", "ingest", stdin=CHAT).code == 0  # the same command under memory


def test_bad_input_is_one_line_and_proposes_nothing(cli: Run, tmp_path: Path) -> None:
    missing = cli("ingest", str(tmp_path / "nope.txt"))
    assert missing.code == 2 and "cannot read" in missing.err and missing.err.count("\n") == 1
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    bad = cli("ingest", str(tmp_path / "latin1.txt"))
    assert bad.code == 2 and "not valid UTF-8" in bad.err
    nothing = cli("ingest", "-", stdin="User: hello?\n")
    assert nothing.code == 3 and "found nothing to remember" in nothing.err
    wrong = cli("ingest", "-", "--extractor", "magic", stdin=CHAT)
    assert wrong.code == 2 and "rules" in wrong.err
    assert cli("--json", "proposal", "list").json() == []
