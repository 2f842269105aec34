"""Kinds through the console script: store and supersede with --kind and --attr, update,
find and kinds, in text and in JSON; bad input is one line naming the allowed values,
exit 2, and nothing is written."""

from __future__ import annotations

from cli_helpers import Result, Run

PROJECT = ("--kind", "project", "--attr", "name=embornal", "--attr", "status=active")


def _one_line(r: Result) -> str:
    lines = r.err.splitlines()
    assert r.code == 2 and len(lines) == 1 and lines[0].startswith("embornal: "), r.err
    return lines[0]


def test_store_update_find_in_text_and_json(cli: Run) -> None:
    made = cli("--json", "memory", "store", "/projects/embornal", "The memory.", *PROJECT)
    assert made.code == 0, made.err
    fact = made.json()
    assert fact["kind"] == "project"
    assert fact["attributes"] == {"name": "embornal", "status": "active"}
    cli(
        "memory",
        "store",
        "/projects/old",
        "Old.",
        "--kind",
        "project",
        "--attr",
        "name=old",
        "--attr",
        "status=done",
    )

    found = cli("memory", "find", "--kind", "project", "--where", "status=active")
    assert found.code == 0, found.err
    header, _, row = found.out.splitlines()
    assert [c.strip() for c in header.split("|")[1:-1]] == [
        "ID",
        "Path",
        "name",
        "status",
        "Created",
    ]
    assert [c.strip() for c in row.split("|")[1:4]] == [
        fact["id"],
        "/projects/embornal",
        "embornal",
    ]
    under = cli(
        "--json", "memory", "find", "--kind", "Project", "--under", "/projects", "--limit", "1"
    )
    assert [f["id"] for f in under.json()] == [fact["id"]]
    none = cli("memory", "find", "--kind", "project", "--where", "status=paused")
    assert none.code == 0 and none.out == "(no live project facts match)\n"

    up = cli(
        "memory",
        "update",
        fact["id"][:14],
        "--attr",
        "status=done",
        "--attr",
        "target_date=2026-12-01",
        "--reason",
        "shipped",
    )
    assert up.code == 0, up.err
    assert up.out == f"{fact['id']} /projects/embornal updated\n"
    removed = cli("--json", "memory", "update", fact["id"], "--attr", "target_date=")
    assert removed.json()["attributes"] == {"name": "embornal", "status": "done"}
    history = cli("memory", "history", fact["id"]).out
    assert "FactAttributesUpdated" in history and "shipped" in history

    new = cli(
        "--json",
        "memory",
        "supersede",
        fact["id"],
        "Renamed.",
        "--attr",
        "name=emb",
        "--attr",
        "status=done",
    )
    assert new.code == 0, new.err
    assert new.json()["kind"] == "project" and new.json()["attributes"]["name"] == "emb"
    kept = cli("--json", "memory", "supersede", new.json()["id"], "Again.").json()
    assert kept["attributes"] == new.json()["attributes"]
    retyped = cli(
        "--json",
        "memory",
        "supersede",
        kept["id"],
        "A goal now.",
        "--kind",
        "goal",
        "--attr",
        "statement=Ship it",
        "--attr",
        "status=active",
    )
    assert retyped.json()["kind"] == "goal"


def test_kinds_prints_every_schema(cli: Run) -> None:
    r = cli("memory", "kinds")
    assert r.code == 0, r.err
    blocks = r.out.strip().split("\n\n")
    assert len(blocks) == 12 and blocks[0].startswith("fact (v1): ")
    (project,) = [b for b in blocks if b.startswith("project (v1): ")]
    lines = project.splitlines()
    assert lines[1].split() == ["name", "text", "required"]
    assert lines[2].split(None, 3) == [
        "status",
        "vocabulary",
        "required",
        "idea, active, paused, done, abandoned",
    ]
    location = cli("memory", "kinds", "LOCATION").out
    assert "-90..90" in location and "rule: latitude and longitude come together" in location
    data = cli("--json", "memory", "kinds").json()
    assert [k["kind"] for k in data][:3] == ["fact", "preference", "person"]
    assert cli("--json", "memory", "kinds", "project").json() == [
        k for k in data if k["kind"] == "project"
    ]
    assert "relationship" in _one_line(cli("memory", "kinds", "nope"))


def test_bad_input_is_one_line_naming_the_allowed_values_and_writes_nothing(cli: Run) -> None:
    ok = cli("--json", "memory", "store", "/projects/embornal", "The memory.", *PROJECT).json()
    before = cli("--json", "memory", "history", ok["id"]).json()

    line = _one_line(cli("memory", "store", "/p/x", "X.", "--kind", "projekt"))
    assert "unknown kind 'projekt'" in line and "project, skill" in line
    line = _one_line(cli("memory", "store", "/p/x", "X.", "--kind", "project", "--attr", "name=x"))
    assert "project.status is required" in line
    line = _one_line(
        cli(
            "memory",
            "store",
            "/p/x",
            "X.",
            "--kind",
            "project",
            "--attr",
            "name=x",
            "--attr",
            "status=busy",
        )
    )
    assert "idea, active, paused, done, abandoned" in line
    line = _one_line(cli("memory", "store", "/p/x", "X.", "--attr", "colour=red"))
    assert "statement" in line
    line = _one_line(cli("memory", "store", "/p/x", "X.", "--kind", "project", "--attr", "name"))
    assert "FIELD=VALUE" in line
    line = _one_line(cli("memory", "update", ok["id"], "--attr", "status=busy"))
    assert "idea, active, paused, done, abandoned" in line
    line = _one_line(cli("memory", "update", ok["id"], "--attr", "name="))
    assert "required" in line
    assert "--attr" in _one_line(cli("memory", "update", ok["id"]))
    line = _one_line(cli("memory", "find", "--kind", "project", "--where", "colour=red"))
    assert "name, status" in line
    line = _one_line(
        cli("memory", "supersede", ok["id"], "Y.", "--attr", "name=y", "--attr", "status=busy")
    )
    assert "idea, active" in line
    js = cli("--json", "memory", "store", "/p/x", "X.", "--kind", "projekt")
    assert js.code == 2 and '"invalid_kind"' in js.out + js.err

    assert cli("--json", "memory", "history", ok["id"]).json() == before
    assert cli("memory", "ls", "/").out.count("/p") == 1  # /projects only: /p/x never written
    assert cli("memory", "cat", "/p/x").code == 3


def test_find_cells_keep_the_table_whole(cli: Run) -> None:
    """Attribute text never holds a control character (the kinds refuse them); a ``|``
    is escaped like every other table cell, so the row keeps its columns."""
    bad = cli(
        "memory",
        "store",
        "/projects/e",
        "E.",
        "--kind",
        "project",
        "--attr",
        "name=evil\x1b[31m",
        "--attr",
        "status=active",
    )
    assert "control character" in _one_line(bad)
    made = cli(
        "memory",
        "store",
        "/projects/e",
        "E.",
        "--kind",
        "project",
        "--attr",
        "name=a|b",
        "--attr",
        "status=active",
    )
    assert made.code == 0, made.err
    (row,) = cli("memory", "find", "--kind", "project").out.splitlines()[2:]
    assert "a\\|b" in row and row.count(" | ") == 4
