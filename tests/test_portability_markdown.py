"""``export markdown`` and ``import markdown``: one file a path, stable bytes for git, and an
edited export read back as supersede, forget and store with the reason "import"
(decision 0062)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from embornal import FixedClock, Memory
from embornal.domain.portable_markdown import parse_file, render_file
from embornal.errors import InvalidImport, InvalidInput


@pytest.fixture
def facts(memory: Memory) -> dict[str, str]:
    a = memory.store("/projects/embornal", "The memory lives in SQLite; see [[/projects/other]].")
    b = memory.store("/projects/other", "Two lines\n---\nof text", tags=["team=core"])
    c = memory.store("/people/ada", "Ada", kind="person", attributes={"full_name": "Ada Lovelace"})
    gone = memory.store("/projects/other", "An old idea.")
    memory.forget(gone.id, reason="dropped")
    secret = memory.store("/projects/other", "A purged secret.")
    memory.purge(secret.id, reason="erase")
    return {"a": a.id, "b": b.id, "c": c.id, "gone": gone.id, "secret": secret.id}


def _export(mem: Memory, root: Path, **kw: bool) -> str:
    mem.export_markdown(str(root), **kw)
    return "\n".join(
        f"{p.relative_to(root)}\n{p.read_text('utf-8')}" for p in sorted(root.rglob("*.md"))
    )


def test_one_file_a_path_with_front_matter(
    memory: Memory, facts: dict[str, str], tmp_path: Path
) -> None:
    root = tmp_path / "md"
    result = memory.export_markdown(str(root))
    assert (root / "_embornal.yaml").is_file()
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md")) == [
        "memory.md", "people/ada.md", "projects/embornal.md", "projects/other.md",
    ]  # fmt: skip
    other = (root / "projects/other.md").read_text("utf-8")
    assert other.startswith("# /projects/other\n")
    assert "\\---" in other and "team=core" in other
    assert facts["gone"] not in other and "old idea" not in other  # forgotten: left out
    assert facts["secret"] not in other
    assert "[[/projects/other]]" in (root / "projects/embornal.md").read_text("utf-8")
    ada = (root / "people/ada.md").read_text("utf-8")
    front = yaml.safe_load(ada.split("---\n")[1])
    assert front["kind"] == "person" and front["attributes"] == {"full_name": "Ada Lovelace"}
    assert front["id"] == facts["c"] and "confidence" in front
    assert (result.facts, result.files) == (3 + 8, 4)  # and the guide's 8 facts


def test_two_exports_are_the_same_bytes(
    memory: Memory, facts: dict[str, str], tmp_path: Path
) -> None:
    first = _export(memory, tmp_path / "one")
    assert _export(memory, tmp_path / "two") == first
    assert _export(memory, tmp_path / "one") == first  # into its own earlier export
    memory.store("/projects/embornal", "One more fact.")
    after = _export(memory, tmp_path / "one")
    assert after.startswith(first.split("projects/embornal.md")[0])  # other files unchanged


def test_all_adds_forgotten_and_superseded_never_purged(
    memory: Memory, facts: dict[str, str], tmp_path: Path
) -> None:
    memory.supersede(facts["a"], "Corrected.")
    text = _export(memory, tmp_path / "all", everything=True)
    assert facts["gone"] in text and "state: forgotten" in text
    assert facts["a"] in text and "state: superseded" in text
    assert facts["secret"] not in text


def test_a_path_that_no_longer_holds_facts_loses_its_file(
    memory: Memory, facts: dict[str, str], tmp_path: Path
) -> None:
    root = tmp_path / "md"
    memory.export_markdown(str(root))
    (root / ".git").mkdir()
    (root / ".git" / "keep.md").write_text("not ours", "utf-8")
    memory.forget(facts["c"], reason="gone")
    result = memory.export_markdown(str(root))
    assert result.removed == 1 and not (root / "people").exists()
    assert (root / ".git" / "keep.md").exists()


def test_an_edited_export_reads_back(memory: Memory, facts: dict[str, str], tmp_path: Path) -> None:
    root = tmp_path / "md"
    memory.export_markdown(str(root))
    f = root / "projects/embornal.md"
    f.write_text(f.read_text("utf-8").replace("lives in SQLite", "lives in one file"), "utf-8")
    (root / "people/ada.md").unlink()
    with open(root / "projects/other.md", "a", encoding="utf-8") as out:
        out.write("\n---\nkind: fact\n---\nA fact written by hand.\n")
    plan = memory.import_markdown(str(root), dry_run=True)
    assert (plan.stored, plan.superseded, plan.forgotten) == (1, (facts["a"],), (facts["c"],))
    assert memory.show(facts["a"]).fact.state == "active"  # a dry run changes nothing
    done = memory.import_markdown(str(root))
    assert (done.stored, done.superseded, done.forgotten) == (1, (facts["a"],), (facts["c"],))
    assert memory.show(facts["a"]).fact.state == "superseded"
    assert memory.show(facts["c"]).fact.state == "forgotten"
    assert [v.fact.content for v in memory.cat("/projects/embornal")] == [
        "The memory lives in one file; see [[/projects/other]]."
    ]
    assert "A fact written by hand." in [v.fact.content for v in memory.cat("/projects/other")]
    reasons = {e.reason for e in memory.history(facts["a"])} | {
        e.reason for e in memory.history(facts["c"])
    }
    assert "import" in reasons
    again = memory.import_markdown(str(root))  # the files were written again: nothing to do
    assert (again.stored, again.superseded, again.forgotten) == (0, (), ())
    assert memory.verify() == []


def test_an_export_into_another_memory(
    memory: Memory, facts: dict[str, str], tmp_path: Path, clock: FixedClock
) -> None:
    root = tmp_path / "md"
    memory.export_markdown(str(root))
    with Memory.open(tmp_path / "other.db", clock=clock) as other:
        result = other.import_markdown(str(root), dry_run=True)
        # the guide is there already: the same words on the same path, under other ids
        assert (result.stored, result.forgotten, result.unchanged) == (3, (), 8)
        other.import_markdown(str(root))
        assert {v.fact.content for v in other.cat("/projects/other")} == {"Two lines\n---\nof text"}
        assert other.verify() == []


def test_content_round_trips_through_the_format(memory: Memory) -> None:
    tricky = "line\n---\n\\---\n\\\\---\n--- not a fence\n  ---"
    fact = memory.store("/t", tricky)
    (block,) = parse_file("t.md", render_file("/t", [fact]))
    assert block.content == tricky and block.id == fact.id


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("Bad Name.md", "---\nkind: fact\n---\nx\n", "Bad Name.md"),
        (
            "ok.md",
            "---\nkind: [unclosed\n---\nx\n",
            "ok.md, line 1: the front matter is not valid YAML",
        ),
        ("ok.md", "---\nkind: fact\nx\n", "not closed"),
        ("ok.md", "---\nkind: spaceship\n---\nx\n", "ok.md, line 1"),
        ("ok.md", "---\nkind: person\nattributes: {shoe: 3}\n---\nx\n", "ok.md, line 1"),
        ("ok.md", "---\n- a list\n---\nx\n", "not a mapping"),
        ("ok.md", "---\nkind: fact\n---\n\n", "no content"),
        ("ok.md", "---\nid: 01ABC\n---\nx\n---\nid: 01abc\n---\ny\n", "twice"),
    ],
)
def test_a_bad_directory_changes_nothing(
    memory: Memory, tmp_path: Path, name: str, text: str, words: str
) -> None:
    root = tmp_path / "md"
    memory.export_markdown(str(root))
    before = memory.export_events(str(tmp_path / "before.ndjson")).events
    (root / name).write_text(text, "utf-8")
    with pytest.raises(InvalidImport) as caught:
        memory.import_markdown(str(root))
    assert words in caught.value.message and "nothing was imported" in caught.value.message
    assert memory.export_events(str(tmp_path / "after.ndjson")).events == before


def test_a_directory_that_is_not_an_export(memory: Memory, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.md").write_text("---\nkind: fact\n---\nx\n", "utf-8")
    with pytest.raises(InvalidImport, match=r"_embornal\.yaml"):
        memory.import_markdown(str(plain))
    with pytest.raises(InvalidInput, match="not an export"):
        memory.export_markdown(str(plain))  # nor is it written over
