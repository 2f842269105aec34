"""``embornal export``, ``import`` and ``admin backup|restore`` on the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from cli_helpers import Run


def test_export_then_import_events(cli: Run, stored: Callable[..., str], tmp_path: Path) -> None:
    fact = stored("/projects/x", "The build uses uv.")
    log = tmp_path / "log.ndjson"
    r = cli("export", "events", str(log))
    assert r.code == 0 and r.out.startswith("wrote ") and str(log) in r.out
    data = cli("--json", "export", "events", str(log)).json()
    assert data["complete"] is True and data["events"] == len(log.read_text().splitlines()) - 2
    new = tmp_path / "new.db"
    r = cli("--db", str(new), "--json", "import", "events", str(log))
    assert r.code == 0, r.err
    assert r.json()["events"] == data["events"] and r.json()["facts"] >= 1
    assert cli("--db", str(new), "admin", "verify").code == 0
    assert fact in cli("--db", str(new), "memory", "cat", "/projects/x").out
    again = cli("--db", str(new), "import", "events", str(log))
    assert again.code == 4 and "empty" in again.err


def test_a_bad_log_is_exit_2_naming_the_line(cli: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.ndjson"
    bad.write_text(
        '{"embornal": "events", "format": 1, "subject": "x", "complete": true}\n{"end": \n',
        "utf-8",
    )
    new = tmp_path / "new.db"
    r = cli("--db", str(new), "import", "events", str(bad))
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("embornal: line 2: the line is not valid JSON")
    j = cli("--db", str(new), "--json", "import", "events", str(bad)).json()
    assert j["error"] == "invalid_import" and "nothing was imported" in j["message"]


def test_an_event_the_memory_refuses_is_exit_2_and_leaves_no_file(cli: Run, tmp_path: Path) -> None:
    assert cli("memory", "remember", "the deploy key rotates monthly", "--session", "s1").code == 0
    log = tmp_path / "log.ndjson"
    assert cli("export", "events", str(log)).code == 0
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    captured = next(e for e in lines if e.get("type") == "MemoryCaptured")
    captured["payload"]["tier"] = "bogus"
    log.write_text("".join(json.dumps(e) + "\n" for e in lines), "utf-8")
    new = tmp_path / "new.db"
    r = cli("--db", str(new), "import", "events", str(log))
    assert r.code == 2, r.err
    assert f"position {captured['position']} (MemoryCaptured)" in r.err
    assert "nothing was imported" in r.err
    assert not new.exists()  # the memory stays as it was: none
    captured["payload"]["tier"] = "archive"
    log.write_text("".join(json.dumps(e) + "\n" for e in lines), "utf-8")
    assert cli("--db", str(new), "import", "events", str(log)).code == 0
    assert cli("--db", str(new), "admin", "verify").code == 0
    assert cli("--db", str(new), "memory", "remember", "and writes go on").code == 0
    assert cli("--db", str(new), "import", "events", str(tmp_path / "nope")).code == 2


def test_export_and_import_markdown(cli: Run, stored: Callable[..., str], tmp_path: Path) -> None:
    fact = stored("/projects/x", "The build uses uv.")
    root = tmp_path / "md"
    r = cli("export", "markdown", str(root))
    assert r.code == 0 and "files to" in r.out
    page = root / "projects" / "x.md"
    page.write_text(page.read_text("utf-8").replace("uses uv", "uses uv and make"), "utf-8")
    plan = cli("import", "markdown", str(root), "--dry-run")
    assert plan.code == 0 and "would supersede 1" in plan.out and fact in plan.out
    done = cli("--json", "import", "markdown", str(root)).json()
    assert done["superseded"] == [fact] and done["dry_run"] is False
    assert "uses uv and make" in cli("memory", "cat", "/projects/x").out
    (root / "Bad Path.md").write_text("---\nkind: fact\n---\nx\n", "utf-8")
    r = cli("import", "markdown", str(root))
    assert r.code == 2 and "Bad Path.md" in r.err and "nothing was imported" in r.err


def test_backup_and_restore(cli: Run, stored: Callable[..., str], tmp_path: Path) -> None:
    fact = stored("/projects/x", "The build uses uv.")
    copy = tmp_path / "copy.db"
    r = cli("admin", "backup", str(copy))
    assert r.code == 0 and r.out.startswith("backed up ")
    assert cli("admin", "backup", str(copy)).code == 2  # never over a file
    target = tmp_path / "restored.db"
    r = cli("--db", str(target), "--json", "admin", "restore", str(copy))
    assert r.code == 0 and r.json()["events"] > 0
    assert fact in cli("--db", str(target), "memory", "cat", "/projects/x").out
    assert cli("--db", str(target), "admin", "restore", str(copy)).code == 4
    assert cli("--db", str(target), "admin", "restore", str(copy), "--replace").code == 0
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"junk" * 1000)
    assert cli("--db", str(target), "admin", "restore", str(junk)).code == 7
    assert json.loads(cli("--db", str(target), "--json", "admin", "verify").out)["ok"] is True
