"""``export events`` and ``import events``: the whole log out as NDJSON and back into an
empty memory, exactly (decision 0061); a hostile file stops with its line and imports
nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.errors import Conflict, InvalidImport

SECRET = "quokkaplatypus"


def _fill(mem: Memory) -> dict[str, str]:
    a = mem.store("/projects/embornal", "The memory lives in SQLite; see [[/projects/other]].")
    b = mem.store("/projects/other", "Two lines\n---\nof text", tags=["team=core"])
    c = mem.store("/people/ada", "Ada", kind="person", attributes={"full_name": "Ada Lovelace"})
    new = mem.supersede(a.id, "The memory lives in one SQLite file.", reason="more exact")
    mem.confirm(c.id, reason="seen it")
    mem.forget(b.id, reason="stale")
    secret = mem.store("/x", f"the code is {SECRET}", reason=f"told {SECRET}")
    mem.purge(secret.id, reason="erase")
    mem.tag_path("/projects", {"area": "work"})
    mem.policy_add("p", ["alice", "path:/projects/*", "read", "allow"])
    mem.token_add("alice", name="laptop")
    mem.recall("sqlite")
    return {"new": new.id, "forgotten": b.id, "person": c.id, "purged": secret.id}


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture
def exported(memory: Memory, tmp_path: Path) -> Path:
    _fill(memory)
    out = tmp_path / "log.ndjson"
    result = memory.export_events(str(out))
    assert result.complete and result.left_out == 0
    return out


def _empty(tmp_path: Path, clock: FixedClock, name: str = "copy.db") -> Memory:
    return Memory.open(tmp_path / name, clock=clock, seed=False)


def test_the_file_has_a_header_every_event_and_an_end(memory: Memory, exported: Path) -> None:
    lines = _lines(exported)
    assert lines[0] == {"embornal": "events", "format": 1, "subject": "default", "complete": True}
    assert lines[-1] == {"end": len(lines) - 2}
    assert [e["position"] for e in lines[1:-1]] == [e.position for e in memory._store.read_all()]
    assert SECRET not in exported.read_text("utf-8")  # redacted as in the database
    assert any("redaction" in e for e in lines[1:-1])


def test_an_import_restores_the_memory_exactly(
    memory: Memory, exported: Path, tmp_path: Path, clock: FixedClock
) -> None:
    with _empty(tmp_path, clock) as copy:
        result = copy.import_events(str(exported))
        assert result.events == len(_lines(exported)) - 2
        assert copy.verify() == []
        assert [
            (e.position, e.stream_id, e.version, e.type, e.payload, e.actor, e.reason, e.redacted)
            for e in copy._store.read_all()
        ] == [
            (e.position, e.stream_id, e.version, e.type, e.payload, e.actor, e.reason, e.redacted)
            for e in memory._store.read_all()
        ]
        assert [h.fact.id for h in copy.recall("sqlite", reinforce=False)] == [
            h.fact.id for h in memory.recall("sqlite", reinforce=False)
        ]
        assert [h.fact.id for h in copy.recall(None, limit=50, reinforce=False)] == [
            h.fact.id for h in memory.recall(None, limit=50, reinforce=False)
        ]
        assert copy.policies() == memory.policies()
        assert [t.id for t in copy.tokens()] == [t.id for t in memory.tokens()]
        again = tmp_path / "again.ndjson"
        copy.export_events(str(again))
        assert again.read_bytes() == exported.read_bytes()
        new = copy.store("/after", "A fact after the import.")  # the log goes on from there
        assert copy._store.read_stream(new.id)[0].position > result.events


def test_an_import_needs_an_empty_memory(memory: Memory, exported: Path) -> None:
    with pytest.raises(Conflict, match="empty"):
        memory.import_events(str(exported))


def test_a_subject_exports_only_what_it_may_read(
    memory: Memory, tmp_path: Path, clock: FixedClock
) -> None:
    ids = _fill(memory)
    hidden = memory.store("/private/notes", "Not for alice.")
    memory.recall("alice")  # names nothing
    memory.recall("notes lives")  # names a fact alice reads and one she does not
    out = tmp_path / "alice.ndjson"
    result = memory.as_subject("alice").export_events(str(out))
    assert not result.complete and result.left_out > 0
    lines = _lines(out)[1:-1]
    streams = {e["stream_id"] for e in lines}
    assert hidden.id not in streams and ids["person"] not in streams
    assert ids["new"] in streams
    assert not [e for e in lines if e["type"] in ("PolicyAdded", "TokenIssued", "PathTagged")]
    for e in lines:
        if e["type"] == "FactsRecalled":
            assert hidden.id not in e["payload"]["fact_ids"]  # type: ignore[index]
    assert hidden.id not in out.read_text("utf-8")
    with _empty(tmp_path, clock) as copy:  # a partial export imports as what it holds
        copy.import_events(str(out))
        assert copy.verify() == []


# -- hostile files -------------------------------------------------------------------------


def _write(path: Path, lines: Sequence[object]) -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    return path


def _refused(tmp_path: Path, clock: FixedClock, file: Path, line: int | None) -> str:
    with _empty(tmp_path, clock, f"target-{file.name}.db") as copy:
        with pytest.raises(InvalidImport) as caught:
            copy.import_events(str(file))
        assert copy._store.portability.event_count() == 0  # nothing imported
        assert copy.verify() == []
    message = caught.value.message
    if line is not None:
        assert message.startswith(f"line {line}:"), message
    assert "nothing was imported" in message
    return message


def test_a_truncated_file_imports_nothing(
    exported: Path, tmp_path: Path, clock: FixedClock
) -> None:
    text = exported.read_text("utf-8")
    cut = tmp_path / "cut.ndjson"
    cut.write_text("\n".join(text.splitlines()[:-1]) + "\n", "utf-8")  # no end line
    assert "truncated" in _refused(tmp_path, clock, cut, None)
    half = tmp_path / "half.ndjson"
    half.write_text(text[: len(text) // 2], "utf-8")  # ends inside a line
    assert "not valid JSON" in _refused(
        tmp_path, clock, half, len(text[: len(text) // 2].splitlines())
    )


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda e: e.update(type="FactTeleported"), "unknown event type 'FactTeleported'"),
        (lambda e: e.update(schema_version=99), "version 99 is newer"),
        (lambda e: e["payload"].update(path="/Bad Path"), "path"),
        (lambda e: e["payload"].update(path="/a/../b"), "path"),
        (lambda e: e.update(position=1), "duplicate or out of order"),
        (lambda e: e.update(version=5), "jumps to version 5"),
        (lambda e: e.update(actor_kind="robot"), "actor_kind must be one of"),
        (lambda e: e.pop("recorded_at"), "lacks ['recorded_at']"),
        (lambda e: e.update(extra=1), "unknown keys ['extra']"),
        (lambda e: e["payload"].pop("fact_id"), "fact_id"),
        (lambda e: e.update(reason="lone \ud800"), "reason holds a NUL or a lone surrogate"),
        (lambda e: e.update(actor="de\x00fault"), "actor holds a NUL"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_bad_event_names_its_line(
    exported: Path, tmp_path: Path, clock: FixedClock, change: object, words: str
) -> None:
    lines = _lines(exported)
    stored = [i for i, e in enumerate(lines) if e.get("type") == "FactStored"]
    at = stored[-1]  # a fact stored late in the log, so earlier lines are fine
    change(lines[at])  # type: ignore[operator]
    bad = _write(tmp_path / "bad.ndjson", lines)
    assert words in _refused(tmp_path, clock, bad, at + 1)


def test_a_duplicate_fact_id_is_refused(exported: Path, tmp_path: Path, clock: FixedClock) -> None:
    lines = _lines(exported)
    first = next(e for e in lines if e.get("type") == "FactStored")
    twin = dict(first, position=int(lines[-2]["position"]) + 1)  # type: ignore[arg-type]
    lines = [*lines[:-1], twin, {"end": len(lines) - 1}]
    bad = _write(tmp_path / "twin.ndjson", lines)
    assert "duplicate or missing" in _refused(tmp_path, clock, bad, len(lines) - 1)


def test_a_huge_line_is_refused_unread(tmp_path: Path, clock: FixedClock) -> None:
    big = tmp_path / "big.ndjson"
    with open(big, "wb") as out:
        out.write(b'{"embornal": "events", "format": 1, "subject": "x", "complete": true}\n')
        chunk = b"x" * (1 << 20)
        for _ in range(100):  # 100 MB of one line
            out.write(chunk)
    assert "longer than" in _refused(tmp_path, clock, big, 2)


@pytest.mark.parametrize(
    ("first", "words"),
    [
        (b"not json\n", "not valid JSON"),
        (b"[1, 2]\n", "not a JSON object"),
        (b'{"embornal": "markdown"}\n', "header"),
        (b'{"embornal": "events", "format": 2}\n', "format 2"),
        (b"\xff\xfe\n", "UTF-8"),
    ],
)
def test_a_bad_header_is_refused(
    tmp_path: Path, clock: FixedClock, first: bytes, words: str
) -> None:
    bad = tmp_path / "head.ndjson"
    bad.write_bytes(first + b'{"end": 0}\n')
    assert words in _refused(tmp_path, clock, bad, 1)


def test_an_empty_file_and_lines_after_the_end(tmp_path: Path, clock: FixedClock) -> None:
    empty = tmp_path / "empty.ndjson"
    empty.write_bytes(b"")
    assert "empty" in _refused(tmp_path, clock, empty, None)
    after = _write(
        tmp_path / "after.ndjson",
        [{"embornal": "events", "format": 1, "subject": "x", "complete": True}, {"end": 0}, {}],
    )
    assert "follows the end line" in _refused(tmp_path, clock, after, 3)


# -- payloads checked against their event class ----------------------------------------------


@pytest.fixture
def protocol_log(memory: Memory, tmp_path: Path) -> list[dict[str, object]]:
    """The log of a remembered memory and a pinned fact, as lines."""
    memory.remember("the deploy key rotates monthly", session="s1")
    memory.pin(memory.store("/ops", "deploys on Tuesdays").id, reason="keep it")
    out = tmp_path / "protocol.ndjson"
    memory.export_events(str(out))
    return _lines(out)


def _payload_of(lines: list[dict[str, object]], kind: str) -> tuple[int, dict[str, object]]:
    at = max(i for i, e in enumerate(lines) if e.get("type") == kind)
    payload = lines[at]["payload"]
    assert isinstance(payload, dict)
    return at, payload


@pytest.mark.parametrize(
    ("kind", "key", "value", "words"),
    [
        ("FactStored", "content", 18446744073709551616, "'content' must be text"),
        ("FactStored", "owner", True, "'owner' must be text"),
        ("FactStored", "fact_id", [[1]], "'fact_id' must be text"),
        ("FactStored", "content", "a\x00b", "'content' must be text (no NUL"),
        ("FactStored", "content", "\ud800", "'content' must be text"),
        ("FactStored", "tags", [["team", 3]], "'tags' must be a list of [key, value]"),
        ("FactStored", "attributes", {"a": {"b": 1e309}}, "'attributes' must be a JSON object"),
        ("FactImportanceAdjusted", "pinned", "2026-13-45T99:00:00Z", "'pinned' must be true"),
        ("FactImportanceAdjusted", "user_weight", "0.5", "'user_weight' must be a finite"),
        ("MemoryCaptured", "session_position", 2**64, "'session_position' must be a whole"),
        ("MemoryCaptured", "event_at", "2026-13-45T99:00:00Z", "not an ISO-8601 time"),
        ("MemoryCaptured", "smuggled", "x", "unknown keys ['smuggled']"),
    ],
    ids=lambda v: v if isinstance(v, str) and " " not in v else "",
)
def test_a_payload_of_the_wrong_json_type_is_refused(
    protocol_log: list[dict[str, object]],
    tmp_path: Path,
    clock: FixedClock,
    kind: str,
    key: str,
    value: object,
    words: str,
) -> None:
    at, payload = _payload_of(protocol_log, kind)
    payload[key] = value
    bad = tmp_path / "typed.ndjson"
    bad.write_text("".join(json.dumps(x, ensure_ascii=True) + "\n" for x in protocol_log), "utf-8")
    assert words in _refused(tmp_path, clock, bad, at + 1)


def test_a_value_the_projections_refuse_leaves_the_memory_empty(
    protocol_log: list[dict[str, object]], tmp_path: Path, clock: FixedClock
) -> None:
    """A tier out of range passes the payload's types but not the projections: the import
    stops whole, the log stays empty, and the memory then takes a good import."""
    _, payload = _payload_of(protocol_log, "MemoryCaptured")
    payload["tier"] = "bogus"
    bad = _write(tmp_path / "tier.ndjson", protocol_log)
    message = _refused(tmp_path, clock, bad, None)
    assert "MemoryCaptured" in message and "tier" in message
    payload["tier"] = "archive"
    good = _write(tmp_path / "good.ndjson", protocol_log)
    with _empty(tmp_path, clock, f"target-{bad.name}.db") as copy:
        assert copy.import_events(str(good)).events == len(protocol_log) - 2
        assert copy.verify() == []


def test_a_line_nested_too_deep_is_refused(tmp_path: Path, clock: FixedClock) -> None:
    deep = tmp_path / "deep.ndjson"
    deep.write_text(
        '{"embornal": "events", "format": 1, "subject": "x", "complete": true}\n'
        + "[" * 100_000
        + "]" * 100_000
        + "\n",
        "utf-8",
    )
    assert "nested too deep" in _refused(tmp_path, clock, deep, 2)
