"""ls, tree, cat and recall output formats."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import Run


@pytest.fixture
def facts(stored: Callable[..., str]) -> dict[str, str]:
    return {
        "sqlite": stored("/projects/embornal", "The memory lives in SQLite.", tags=["k=v"]),
        "cli": stored("/projects/embornal/cli", "The CLI uses argparse and SQLite."),
        "deep": stored("/projects/embornal/cli/flags/json", "Every command takes --json."),
        "tea": stored("/people/ada", "Ada drinks tea | no sugar."),
    }


def test_ls_table_plain_and_json(cli: Run, facts: dict[str, str]) -> None:
    r = cli("memory", "ls")
    assert r.code == 0
    assert r.out == (
        "| Path      | Facts | Children |\n"
        "|-----------|------:|---------:|\n"
        "| /people   |     0 |        1 |\n"
        "| /projects |     0 |        1 |\n"
    )
    r = cli("memory", "ls", "--all")
    assert "| /memory   |     8 |        0 |\n" in r.out and "| /people " in r.out
    r = cli("memory", "ls", "/projects/embornal", "--plain")
    assert r.out == "/projects/embornal/cli/*\n"
    assert cli("memory", "ls", "/people", "--plain").out == "/people/ada*\n"
    assert cli("memory", "ls", "/memory", "--plain").out == ""
    entries = cli("memory", "ls", "/projects", "--json").json()
    assert entries == [{"path": "/projects/embornal", "fact_count": 1, "child_count": 1}]
    r = cli("memory", "ls", "/nowhere")
    assert r.code == 3 and "holds nothing" in r.err


def test_the_guide_is_left_out_of_ls_tree_and_recall_unless_all(
    cli: Run, facts: dict[str, str]
) -> None:
    """The facts under /memory teach the memory; they are not the user's (decision 0154)."""
    assert cli("memory", "ls", "--plain").out == "/people/\n/projects/\n"
    assert "/memory" in cli("memory", "ls", "--plain", "--all").out
    assert "memory" not in cli("memory", "tree").out
    assert "── memory*" in cli("memory", "tree", "--all").out
    assert cli("memory", "tree", "/memory").out == "/memory*\n"  # asked for by its path
    hits = cli("--json", "memory", "recall", "uv", "--no-reinforce").json()
    assert hits == []
    hits = cli("--json", "memory", "recall", "uv", "--no-reinforce", "--all").json()
    assert hits and {h["fact"]["path"] for h in hits} == {"/memory"}
    assert len(cli("--json", "memory", "cat", "/memory").json()) == 8
    guide_id = cli("--json", "memory", "cat", "/memory").json()[0]["fact"]["id"]
    shown = cli("--json", "memory", "show", guide_id).json()["fact"]
    assert shown["pinned"] is True and shown["lifetime"] == "permanent"


def test_tree_and_dirs_only(cli: Run, facts: dict[str, str]) -> None:
    r = cli("memory", "tree", "/projects")
    assert r.out == (
        "/projects\n└── embornal*\n    └── cli*\n        └── flags\n            └── json*\n"
    )
    r = cli("memory", "tree", "--dirs-only")
    assert r.out == (
        "/\n├── people\n└── projects\n    └── embornal*\n        └── cli*\n            └── flags\n"
    )
    tree = cli("--json", "memory", "tree", "/people").json()
    assert tree == {
        "path": "/people",
        "name": "people",
        "fact_count": 0,
        "children": [{"path": "/people/ada", "name": "ada", "fact_count": 1, "children": []}],
    }


def test_cat_table_meta_order_and_limit(cli: Run, stored: Callable[..., str]) -> None:
    old = stored("/notes", "First note.", at="2020-01-01T00:00:00Z")
    new = stored("/notes", "Second note.", tags=["topic=x"])
    r = cli("memory", "cat", "/notes")
    lines = r.out.splitlines()
    assert lines[0] == f"| ID{' ' * 24} | Created              | Signal | Fact         |"
    assert lines[2].startswith(f"| {old} | 2020-01-01T00:00:00Z |  0.000 | First note.")
    assert lines[3].startswith(f"| {new} | ") and "|  1.000 | Second note. |" in lines[3]
    r = cli("memory", "cat", "/notes", "--meta", "--order-by", "signal", "--limit", "1")
    assert "| Owner   | Tags    |" in r.out.splitlines()[0]
    assert f"| {new} |" in r.out and "| default | topic=x |" in r.out and old not in r.out
    views = cli("--json", "memory", "cat", "/notes", "--recall").json()
    assert [v["fact"]["id"] for v in views] == [old, new]
    assert views[0]["strength"] < 0.001
    assert cli("--json", "memory", "show", old).json()["fact"]["recall_count"] == 1
    assert cli("memory", "cat", "/notes", "--order-by", "size").code == 2


def test_recall_table_plain_and_no_hit(cli: Run, facts: dict[str, str]) -> None:
    r = cli("memory", "recall", "sqlite", "--no-reinforce")
    lines = r.out.splitlines()
    assert lines[0].startswith("| Path                   | Signal | Fact")
    assert len(lines) == 4
    r = cli("memory", "recall", "ada", "drinks", "--plain")  # words are joined
    assert r.out == "/people/ada\tAda drinks tea | no sugar.\n"
    r = cli("memory", "recall", "tea")  # a | inside a fact is escaped in the table
    assert "Ada drinks tea \\| no sugar." in r.out
    assert cli("memory", "recall", "zebra", "--plain").out == ""
    assert cli("memory", "recall", "zebra").out == "(no facts found)\n"
    r = cli("memory", "recall", "sqlite", "--under", "/projects/embornal/cli", "--plain")
    assert r.out == "/projects/embornal/cli\tThe CLI uses argparse and SQLite.\n"
    r = cli("memory", "recall", "--plain", "--limit", "2")  # no query: strongest facts
    assert len(r.out.splitlines()) == 2
    r = cli("memory", "recall", "sqlite", "--plain", "--meta")
    assert r.code == 2 and "--plain" in r.err


def test_recall_meta_scores_and_explain(cli: Run, facts: dict[str, str]) -> None:
    r = cli("memory", "recall", "argparse", "--meta", "--scores", "--explain", "--no-reinforce")
    assert r.code == 0
    header = r.out.splitlines()[0]
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "ID",
        "Path",
        "Signal",
        "Score",
        "Owner",
        "Tags",
        "Fact",
    ]
    row = [c.strip() for c in r.out.splitlines()[2].strip("|").split("|")]
    assert row[:6] == [facts["cli"], "/projects/embornal/cli", "1.000", "1.500", "default", "-"]
    explain = r.out.split("explain:\n", 1)[1]
    assert explain.startswith(f"1. {facts['cli']} /projects/embornal/cli\n")
    for part in ("total     1.500 = keyword 1.000 + 0.5 × strength 1.000", "method    keyword"):
        assert part in explain
    assert "bm25      -" in explain and "matched   argpars" in explain
    r = cli("memory", "recall", "sqlite", "--meta", "--no-reinforce")
    assert "| k=v  |" in r.out  # the fact's own tags, without the owner


def test_recall_limit_comes_from_config(
    cli: Run, facts: dict[str, str], embornal_home: Path
) -> None:
    embornal_home.mkdir(parents=True, exist_ok=True)
    (embornal_home / "config.yaml").write_text("recall:\n  limit: 2\n", encoding="utf-8")
    assert len(cli("memory", "recall", "--json").json()) == 2
    assert len(cli("memory", "recall", "--json", "--limit", "3").json()) == 3
    (embornal_home / "config.yaml").write_text("recall:\n  limt: 2\n", encoding="utf-8")
    r = cli("memory", "recall", "x")
    assert r.code == 6 and "recall.limt" in r.err


def test_a_long_fact_shows_its_opening_in_tables_and_whole_elsewhere(cli: Run) -> None:
    words = " ".join(f"word{i}" for i in range(400))
    long = f"heronry notes: {words}"
    stored = cli("memory", "store", "/notes/long", long, "--json")
    fact_id = json.loads(stored.out)["id"]
    table = cli("memory", "recall", "heronry", "--no-reinforce").out
    found = re.search(
        r"(heronry notes: [^|]*?) … \(\+([\d,]+) characters: embornal memory show (\w+)\)", table
    )
    assert found is not None, table
    shown, more, named = found.group(1), int(found.group(2).replace(",", "")), found.group(3)
    assert named == fact_id and len(shown) <= 300 and len(shown) + more == len(long)
    assert "word399" not in table and "word399" not in cli("memory", "cat", "/notes/long").out
    assert "word399" in cli("memory", "cat", "/notes/long", "--json").out
    plain = cli("memory", "recall", "heronry", "--plain", "--no-reinforce").out
    assert plain.rstrip().endswith("word399")
    assert "word399" in cli("memory", "show", fact_id).out
