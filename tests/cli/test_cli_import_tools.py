"""``embornal import memory-as-history|basic-memory|mem0|mcp-memory``: each source into ONE
proposal of import facts, approved later or at once (``--apply``); a bad source is one
line, exit 2, and nothing is written."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Run

from embornal import Memory
from import_fixtures import FIXTURES, make_history_db

IMPORT_CONFIDENCE = 0.70


@dataclass(frozen=True)
class Made:
    """A fact an import made, as ``show`` gives it, and its links by name."""

    id: str
    content: str
    path: str
    kind: str
    state: str
    tags: set[str]
    attributes: dict[str, Any]
    evidence: set[tuple[str, str]]
    notes: dict[str, str]
    label: str | None
    confidence: float | None
    links: set[tuple[str, str]]


def _made(proposal_id: str) -> list[Made]:
    """Every fact the proposal's create items made (read through the memory the console
    script writes)."""
    with Memory.open() as memory:
        ids = [i.fact_id for i in memory.proposal(proposal_id).items if i.type == "create"]
        out = []
        for fact_id in ids:
            assert fact_id is not None
            d = memory.show(fact_id)
            graph = memory.links(fact_id)
            content = {n.fact.id: n.fact.content for n in graph.nodes}
            links = {(s.name, content[s.to_id]) for s in graph.steps if s.from_id == fact_id}
            out.append(
                Made(
                    fact_id,
                    d.fact.content,
                    d.fact.path,
                    d.fact.kind,
                    d.fact.state,
                    {str(t) for t in d.fact.tags},
                    dict(d.fact.attributes),
                    {(e.type.value, e.value) for e in d.evidence},
                    {e.value: e.note or "" for e in d.evidence},
                    d.source.label if d.source else None,
                    d.confidence,
                    links,
                )
            )
        return out


def _by_content(facts: list[Made], start: str) -> Made:
    (found,) = [f for f in facts if f.content.startswith(start)]
    return found


def _proposed_then_approved(cli: Run, fmt: str, source: Path, under: str) -> list[Made]:
    r = cli("--json", "import", fmt, str(source))
    assert r.code == 0, r.err
    made = r.json()
    assert made["status"] == "open" and made["format"] == fmt
    assert cli("memory", "tree", under).code != 0 or under not in cli("memory", "tree").out
    shown = cli("--json", "proposal", "show", made["proposal_id"]).json()
    assert shown["source"] == f"import:{fmt}" and shown["status"] == "open"
    assert cli("proposal", "approve", made["proposal_id"]).code == 0
    facts = _made(made["proposal_id"])
    assert len(facts) == made["facts"]
    for f in facts:
        assert f.label == f"import:{fmt}", f
        assert f.confidence == pytest.approx(IMPORT_CONFIDENCE)
        assert any(t == "uri" and v.startswith(f"import:{fmt}/") for t, v in f.evidence)
        assert f.path == under or f.path.startswith(under + "/")
    return facts


def test_mcp_memory_entities_observations_and_relations(cli: Run) -> None:
    facts = _proposed_then_approved(
        cli, "mcp-memory", FIXTURES / "memory.jsonl", "/imported/mcp-memory"
    )
    john = _by_content(facts, "John_Smith")
    assert john.kind == "person" and john.attributes["full_name"] == "John_Smith"
    assert john.path == "/imported/mcp-memory/person/john_smith"
    assert _by_content(facts, "Speaks fluent Spanish").path == john.path
    assert ("works_at", "Anthropic") in john.links  # in the vocabulary, the kinds allow it
    assert ("relates_to", "Weekly sync") in john.links  # "attends" is not: relates_to
    assert ("subject_of", "Speaks fluent Spanish") in john.links
    assert _by_content(facts, "Anthropic").kind == "organization"
    assert _by_content(facts, "Weekly sync").kind == "fact"


def test_mem0_memories_one_path_per_user(cli: Run) -> None:
    facts = _proposed_then_approved(cli, "mem0", FIXTURES / "mem0.json", "/imported/mem0")
    dev = _by_content(facts, "Dev works at TechCorp")
    assert dev.path == "/imported/mem0/dev"
    assert {"category=professional_details", "meta.type=professional"} <= dev.tags
    origin = "import:mem0/0b9d3c1e-6d3a-4d2b-9f2e-1a2b3c4d5e6f"
    assert ("uri", origin) in dev.evidence
    assert "created_at: 2025-03-01T10:15:00-08:00" in dev.notes[origin]
    assert _by_content(facts, "Arjun prefers").path == "/imported/mem0/arjun"
    assert _by_content(facts, "The release checklist").path == "/imported/mem0/agents/planner"


def test_basic_memory_kinds_observations_and_typed_links(cli: Run) -> None:
    r = cli("import", "basic-memory", str(FIXTURES / "basic-memory"))
    assert r.code == 0 and "skipped orgs/acme-corp.md: relates_to to 'Missing Note'" in r.out
    pid = r.out.split("as proposal ")[1].split()[0]
    assert cli("proposal", "approve", pid).code == 0
    facts = _made(pid)
    alice = _by_content(facts, "Alice Martin")
    assert alice.kind == "person" and alice.path == "/imported/basic-memory/people/alice-martin"
    assert "Leads the design review" in alice.content and "tags=team design" in alice.tags
    role = _by_content(facts, "Design lead for the mobile app")
    assert {"category=role", "tags=design"} <= role.tags
    assert _by_content(facts, "Prefers written feedback").content.endswith("(said in the kickoff)")
    assert ("works_at", "Acme Corp") in alice.links  # a typed link
    assert ("relates_to", "Bob Stone") in alice.links  # "mentors": outside the vocabulary
    bob = _by_content(facts, "Bob Stone")
    assert any(r == "relates_to" and c.startswith("Alice Martin") for r, c in bob.links)
    assert _by_content(facts, "Acme Corp").kind == "organization"
    assert not [f for f in facts if "not an entity" in f.content]  # hidden dirs left out
    assert {f.label for f in facts} == {"import:basic-memory"}


def test_memory_as_history_tiers_pins_audit_and_narratives(cli: Run, tmp_path: Path) -> None:
    db = make_history_db(tmp_path / "memory.db")
    facts = _proposed_then_approved(cli, "memory-as-history", db, "/imported/memory-as-history")
    pid = cli("--json", "proposal", "list").json()[0]["id"]
    tea = _by_content(facts, "The user prefers tea")
    assert {"tier=testimony", "status=consolidated", "pinned=true"} <= tea.tags
    assert ("uri", "import:memory-as-history/memories/a1b2c3d4e5f6") in tea.evidence
    assert {("document", "user"), ("document", "chat 2")} <= tea.evidence
    assert {("observation", "promote: said twice"), ("observation", "pin: identity")} <= (
        tea.evidence
    )
    framed = _by_content(facts, "The team likes short reviews")
    assert framed.path == "/imported/memory-as-history/team-alpha"
    assert {"sensitive=true", "tier=interpretation"} <= framed.tags
    # The forgotten memory and the superseded narrative are imported, then archived.
    forgotten = {f.content for f in facts if f.state == "forgotten"}
    assert forgotten == {"The launch is on Friday.", "A tea drinker."}
    narrative = _by_content(facts, "A tea drinker on a short-review team")
    assert ("derived_from", "The user prefers tea to coffee.") in narrative.links
    assert ("derived_from", "The team likes short reviews.") in narrative.links
    with Memory.open() as memory:  # the superseded (archived) version is linked from it
        items = memory.proposal(pid).items
    old = _by_content(facts, "A tea drinker.").id
    assert [
        (i.fields["relation"], i.applied)
        for i in items
        if i.type == "link" and i.fields["target"] == old
    ] == [("supersedes", True)]


def test_apply_approves_at_once(cli: Run) -> None:
    r = cli(
        "--json",
        "import",
        "mcp-memory",
        str(FIXTURES / "memory.jsonl"),
        "--apply",
        "--under",
        "/people/graph",
    )
    assert r.code == 0, r.err
    made = r.json()
    assert made["status"] == "approved" and made["facts"] == 6 and made["links"] == 5
    shown = cli("--json", "proposal", "show", made["proposal_id"]).json()
    assert shown["decided_by"] == "default" and all(i["applied"] for i in shown["items"])
    assert {f.path for f in _made(made["proposal_id"])} >= {"/people/graph/person/john_smith"}
    text = cli("import", "mem0", str(FIXTURES / "mem0.json"), "--apply")
    assert text.code == 0 and text.out.startswith("imported 3 facts, 0 links from mem0")


def _nothing_written(cli: Run) -> None:
    assert cli("--json", "proposal", "list").json() == []
    assert "/imported" not in cli("memory", "tree").out


@pytest.mark.parametrize(
    ("fmt", "write", "expect"),
    [
        (
            "mcp-memory",
            '{"type":"entity","name":"A","entityType":"person"}\n{"type":"ent',
            "line 2: the line is cut short",
        ),
        (
            "mcp-memory",
            '{"type":"entity","name":"A","entityType":"x"}\n'
            '{"type":"entity","name":"A","entityType":"y"}\n',
            "line 2: entity 'A' is named twice",
        ),
        ("mcp-memory", '{"name":"A"}\n', "line 1: each line is an object"),
        ("mcp-memory", '{"type":"entity","name":"\u0430dmin","entityType":"person"}\n', "line 1"),
        ("mem0", '{"hello": "world"}', "a mem0 export is"),
        (
            "mem0",
            '[{"id": "1", "memory": "a"}, {"id": "1", "memory": "b"}]',
            "memory 2 (id 1): the id is also that of memory 1",
        ),
        ("mem0", '[{"id": "1", "memory": "a"}, {"memory": "b"}]', "memory 2: the memory has no"),
        ("mem0", '{"results": [', "line 1: not valid JSON"),
        (
            "mem0",
            json.dumps([{"id": "big", "memory": "x" * 70_000}]),
            "mem0 memory big: the text is over 65536 bytes",
        ),
        (
            "mcp-memory",
            '{"type":"entity","name":"Ann\\nBee","entityType":"person"}\n',
            "mcp-memory entity Ann\\x0aBee: person.full_name holds a line break",
        ),
        # hostile files (decision 0131): deep nesting, a lone surrogate, a NUL
        (
            "mem0",
            '[{"id": "1", "memory": "a", "metadata": '
            + '{"a": ' * 50_000
            + "1"
            + "}" * 50_001
            + "]",
            "the data is nested too deep",
        ),
        (
            "mem0",
            '[{"id": "1", "memory": "a", "metadata": ' + '{"a": ' * 100 + "1" + "}" * 101 + "]",
            "memory 1: the data is nested too deep",
        ),
        (
            "mem0",
            '[{"id": "1", "memory": "a"}, {"id": "2", "memory": "lone \\ud800"}]',
            "memory 2: a text holds a lone surrogate",
        ),
        ("mem0", '[{"id": "1", "memory": "a\\u0000b"}]', "memory 1: a text holds a NUL"),
        (
            "mcp-memory",
            '{"type":"entity","name":"A","entityType":"x"}\n'
            + "[" * 100_000
            + "]" * 100_000
            + "\n",
            "line 2: the data is nested too deep",
        ),
        (
            "mcp-memory",
            '{"type":"entity","name":"A\\ud800","entityType":"x"}\n',
            "line 1: a text holds a lone surrogate",
        ),
    ],
)
def test_a_bad_file_is_one_line_and_imports_nothing(
    cli: Run, tmp_path: Path, fmt: str, write: str, expect: str
) -> None:
    source = tmp_path / "source"
    source.write_text(write, "utf-8")
    r = cli("import", fmt, str(source))
    assert r.code == 2 and r.out == "", r.err
    assert r.err.startswith("embornal: ") and expect in r.err, r.err
    assert "nothing was imported" in r.err and len(r.err.strip().splitlines()) <= 2
    _nothing_written(cli)


def test_a_database_without_the_tables_or_not_a_database(cli: Run, tmp_path: Path) -> None:
    other = make_history_db(tmp_path / "other.db", tables=False)
    r = cli("--json", "import", "memory-as-history", str(other))
    assert r.code == 2 and r.json()["error"] == "invalid_import"
    assert "has no memories table" in r.json()["message"]
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite at all" * 100)
    r = cli("import", "memory-as-history", str(junk))
    assert r.code == 2 and "nothing was imported" in r.err
    assert cli("import", "memory-as-history", str(tmp_path / "absent.db")).code == 2
    _nothing_written(cli)


def test_a_database_with_two_memories_of_one_id_stops(cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "twice.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE memories (id TEXT, content TEXT, created_at TEXT);"
        "CREATE TABLE audit_log (memory_id TEXT, action TEXT, reason TEXT, at TEXT);"
        "INSERT INTO memories VALUES ('m1', 'Tea.', '2025-01-01'), ('m2', 'Rain.', '2025-01-02'),"
        " ('m1', 'Coffee.', '2025-01-03');"
    )
    db.commit()
    db.close()
    r = cli("--json", "import", "memory-as-history", str(path))
    assert r.code == 2 and r.json()["error"] == "invalid_import"
    assert "memories row 3: the id 'm1' is also that of row 1" in r.json()["message"]
    assert "nothing was imported" in r.json()["message"]
    _nothing_written(cli)


def test_a_basic_memory_project_with_a_bad_file(cli: Run, tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "a.md").write_text("---\ntitle: Same\n---\n- [fact] one\n", "utf-8")
    (root / "b.md").write_text("---\ntitle: Same\n---\n- [fact] two\n", "utf-8")
    r = cli("import", "basic-memory", str(root))
    assert r.code == 2 and r.err.startswith("embornal: b.md: 'same' is also the title")
    (root / "b.md").write_text("---\ntitle: [unclosed\n---\n", "utf-8")
    r = cli("import", "basic-memory", str(root))
    assert r.code == 2 and "b.md" in r.err and "YAML" in r.err
    (root / "b.md").write_bytes(b"\xff\xfe not utf-8")
    assert "b.md: the file is not UTF-8" in cli("import", "basic-memory", str(root)).err
    _nothing_written(cli)


@pytest.mark.parametrize(
    ("front", "expect"),
    [
        ('title: "A\\ud800"', "b.md: a text holds a lone surrogate"),
        ("title: A\nk: " + "[" * 100_000 + "]" * 100_000, "b.md: the data is nested too deep"),
    ],
    ids=["surrogate", "deep"],
)
def test_a_hostile_basic_memory_file_is_exit_2(
    cli: Run, tmp_path: Path, front: str, expect: str
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "a.md").write_text("---\ntitle: Fine\n---\n- [fact] one\n", "utf-8")
    (root / "b.md").write_text(f"---\n{front}\n---\n- [fact] two\n", "utf-8")
    r = cli("import", "basic-memory", str(root))
    assert r.code == 2 and r.err.startswith(f"embornal: {expect}"), r.err
    _nothing_written(cli)


@pytest.mark.parametrize(
    ("ids", "expect"),
    [
        ("[" * 100_000 + "]" * 100_000, "the data is nested too deep"),
        ('["\\ud800"]', "a text holds a lone surrogate"),
    ],
    ids=["deep", "surrogate"],
)
def test_a_hostile_memory_as_history_database_is_exit_2(
    cli: Run, tmp_path: Path, ids: str, expect: str
) -> None:
    import sqlite3

    path = make_history_db(tmp_path / "hostile.db")
    db = sqlite3.connect(path)
    db.execute("UPDATE narratives SET memory_ids = ?", (ids,))
    db.commit()
    db.close()
    r = cli("import", "memory-as-history", str(path))
    assert r.code == 2 and "narrative " in r.err and expect in r.err, r.err
    _nothing_written(cli)


def test_a_lone_surrogate_on_the_command_line_is_exit_2(cli: Run) -> None:
    """Bytes of argv that are not UTF-8 (bash's ``$'\\ud800'``) reach Python as lone
    surrogates; the session label refuses them before anything opens."""
    r = cli("memory", "remember", "a note", "--session", "\udced\udca0\udc80")
    assert r.code == 2 and r.err.startswith("embornal: session holds a lone surrogate"), r.err
    _nothing_written(cli)


def test_a_path_that_breaks_the_rules(cli: Run) -> None:
    r = cli("import", "mem0", str(FIXTURES / "mem0.json"), "--under", "/Bad Path/x")
    assert r.code == 2 and r.err.startswith("embornal: --under '/Bad Path/x'"), r.err
    _nothing_written(cli)


def test_the_json_shape_of_a_result(cli: Run) -> None:
    r = cli("--json", "import", "mcp-memory", str(FIXTURES / "memory.jsonl"))
    data = json.loads(r.out)
    assert set(data) == {
        "format",
        "source",
        "proposal_id",
        "status",
        "facts",
        "links",
        "archived",
        "skipped",
    }
    assert data["skipped"] == ["line 6: knows to 'Nobody', no such entity"]
