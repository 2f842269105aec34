"""``export markdown`` and ``import markdown``: one file a path, stable bytes for git, and an
edited export read back as supersede, forget and store with the reason "import"
(decision 0062)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.domain.portability.markdown import parse_file, render_file
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
        "memory.md",
        "people/ada.md",
        "projects/embornal.md",
        "projects/other.md",
    ]
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


def test_tag_values_yaml_would_read_otherwise_round_trip(memory: Memory) -> None:
    odd = ["a\u2028b", "a\x85b", "a\x7fb", "a\ufeffb"]
    fact = memory.store("/t", "x", tags=[f"k{i}={v}" for i, v in enumerate(odd)])
    (block,) = parse_file("t.md", render_file("/t", [fact]))
    assert sorted(block.tags) == sorted(f"k{i}={v}" for i, v in enumerate(odd))


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


def test_content_cannot_be_read_back_as_structure(memory: Memory, tmp_path: Path) -> None:
    """A note whose carriage returns fake a front matter block naming a forgotten fact: an
    unmodified export read back changes nothing (issue 26, defect 8)."""
    gone = memory.store("/t", "A forgotten fact.")
    memory.forget(gone.id, reason="dropped")
    text = f"harmless note\r---\rid: {gone.id}\rkind: fact\r---\rINJECTED"
    note = memory.store("/t", text)
    root = tmp_path / "md"
    memory.export_markdown(str(root))
    done = memory.import_markdown(str(root))
    assert (done.stored, done.superseded, done.forgotten, done.restored) == (0, (), (), ())
    assert memory.show(gone.id).fact.state == "forgotten"
    assert memory.show(note.id).fact.state == "active"
    assert [v.fact.content for v in memory.cat("/t")] == [text]
    assert b"\r" not in (root / "t.md").read_bytes()  # what an editor shows is what is read


def test_content_with_windows_line_ends_reads_back(memory: Memory, tmp_path: Path) -> None:
    crlf = memory.store("/t", "first\r\n---\r\nsecond\r\n")
    root = tmp_path / "md"
    memory.export_markdown(str(root))
    done = memory.import_markdown(str(root))
    assert (done.stored, done.superseded, done.forgotten) == (0, (), ())
    assert [v.fact.id for v in memory.cat("/t")] == [crlf.id]


def test_an_export_of_format_1_still_reads_back(memory: Memory, tmp_path: Path) -> None:
    """Format 1 wrote every content in the body, a carriage return as it is: read back as
    written, and a file saved with Windows line ends as if it had none."""
    root = tmp_path / "md"
    root.mkdir()
    (root / "_embornal.yaml").write_text(
        "embornal: markdown\nformat: 1\nsubject: default\nall: false\n", "utf-8"
    )
    (root / "t.md").write_bytes(
        b"# /t\n\n---\nkind: fact\n---\none\r---\rtwo\n\\---\n\n---\nkind: fact\n---\nthree\n"
    )
    with Memory.open(tmp_path / "new.db", clock=FixedClock()) as other:
        assert other.import_markdown(str(root)).stored == 2
        assert sorted(v.fact.content for v in other.cat("/t")) == ["one\r---\rtwo\n---", "three"]
    (root / "t.md").write_bytes(b"# /t\r\n\r\n---\r\nkind: fact\r\n---\r\nfour\r\n")
    with Memory.open(tmp_path / "crlf.db", clock=FixedClock()) as other:  # saved on Windows
        other.import_markdown(str(root))
        assert [v.fact.content for v in other.cat("/t")] == ["four"]


def test_a_block_with_content_twice_is_refused(memory: Memory, tmp_path: Path) -> None:
    root = tmp_path / "md"
    memory.export_markdown(str(root))
    (root / "t.md").write_text('# /t\n\n---\ncontent: "a\\rb"\n---\nand a body\n', "utf-8")
    with pytest.raises(InvalidImport, match="both in the front matter and below it"):
        memory.import_markdown(str(root))


_PIECES = st.sampled_from(
    [
        "\r",
        "\n",
        "\r\n",
        "---",
        "\\---",
        "\n---\n",
        "\r---\r",
        "id: 01ABC",
        "kind: fact",
        "content: x",
        "\u2028",
        "\u2029",
        "\x85",
        "\x0b",
        "\x0c",
        "\x1e",
        "\x7f",
        "\x1b[2K",
        "\ufeff",
        "\t",
        " ",
        "#",
        '"',
        "\\",
        "é",
        "记忆",
        "\U0001f600",
        "a",
    ]
)
_CONTENT = (
    st.lists(
        st.one_of(
            _PIECES, st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"))
        ),
        min_size=1,
        max_size=8,
    )
    .map("".join)
    .filter(lambda c: bool(c.strip()))
)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(contents=st.lists(_CONTENT, min_size=1, max_size=4, unique=True))
def test_any_content_round_trips_into_a_fresh_memory(contents: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "md"
        with Memory.open(Path(tmp) / "a.db", clock=FixedClock()) as mem:
            for content in contents:
                mem.store("/p", content)
            mem.export_markdown(str(root))
        with Memory.open(Path(tmp) / "b.db", clock=FixedClock()) as fresh:
            assert fresh.import_markdown(str(root)).stored == len(contents)
            assert sorted(v.fact.content for v in fresh.cat("/p")) == sorted(contents)
