"""Purge: the irreversible erase of a fact's content from every table, index and file.

After ``purge`` a unique marker word of the content is in no byte of memory.db (nor of its
WAL), in no event payload, in no index; recall cannot find it; ``show`` says ``purged``;
the history keeps the events (with the purge's reason) but not the content; the tags other
than owner are gone; a purge needs a reason and cannot be undone.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.domain.events import REDACTED_REASON
from embornal.errors import Conflict, InvalidInput, NotFound
from embornal.storage.sqlite.connect import Connection, DriverError, connect

MARKER = "zyzzogeton"  # a word no other fact holds
TAG_MARKER = "quixotrope"


def _file_bytes(db: Path) -> dict[str, bytes]:
    out = {}
    for suffix in ("", "-wal", "-journal"):
        f = Path(str(db) + suffix)
        if f.exists():
            out[f.name] = f.read_bytes()
    return out


def _holds(db: Path, word: str) -> list[str]:
    """The files of the database that hold ``word`` in any common encoding."""
    needles = {word.encode("utf-8"), word.encode("utf-16-le"), word.upper().encode("utf-8")}
    return [name for name, data in _file_bytes(db).items() if any(n in data for n in needles)]


def _fill(mem: Memory, n: int = 40) -> None:
    for i in range(n):
        mem.store(f"/filler/f{i % 5}", f"filler fact number {i} about ordinary things")


@pytest.fixture
def secret(memory: Memory, clock: FixedClock) -> Iterator[str]:
    """A fact holding the markers, recalled a few times, among other facts."""
    _fill(memory)
    fact = memory.store(
        "/people/bob",
        f"Bob's door code is {MARKER} and he repeats {MARKER} often",
        tags=[f"note={TAG_MARKER}", "visibility=public"],
        reason="told by bob",
    )
    for _ in range(3):
        clock.advance(days=1)
        assert memory.recall(MARKER)[0].fact.id == fact.id
    _fill(memory, 10)
    yield fact.id


def test_the_marker_is_in_the_file_before_the_purge(
    memory: Memory, db_path: Path, secret: str
) -> None:
    """The byte check below can fail: before a purge the marker is on disk."""
    memory.close()
    assert _holds(db_path, MARKER)
    assert _holds(db_path, TAG_MARKER)


def test_purged_content_leaves_every_byte_of_the_database(
    memory: Memory, db_path: Path, secret: str
) -> None:
    result = memory.purge(secret, reason="bob asked to be forgotten")
    assert result.fact_id == secret
    assert result.redacted_events >= 1
    memory.close()
    assert _holds(db_path, MARKER) == []
    assert _holds(db_path, TAG_MARKER) == []
    with Memory.open(db_path) as again:
        assert again.verify() == []


def test_purge_of_a_fact_written_long_ago_leaves_no_bytes(db_path: Path, clock: FixedClock) -> None:
    """The content was checkpointed into the main file and its pages reused before the purge."""
    with Memory.open(db_path, clock=clock) as mem:
        fact = mem.store("/old", f"an old secret {MARKER}", tags=[f"note={TAG_MARKER}"])
    with Memory.open(db_path, clock=clock) as mem:
        _fill(mem, 200)
        mem.purge(fact.id, reason="old secret")
        _fill(mem, 20)
    assert _holds(db_path, MARKER) == []
    assert _holds(db_path, TAG_MARKER) == []


def test_purged_content_leaves_every_table(memory: Memory, db_path: Path, secret: str) -> None:
    memory.purge(secret, reason="privacy")
    with closing(connect(db_path)) as conn:
        for (table,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
            "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'"
        ).fetchall():
            for row in conn.execute(f'SELECT * FROM "{table}"').fetchall():
                text = json.dumps([str(v) for v in tuple(row)])
                assert MARKER not in text, table
                assert TAG_MARKER not in text, table
        _assert_not_indexed(conn)


def _assert_not_indexed(conn: Connection) -> None:
    terms = {r[0] for r in conn.execute("SELECT term FROM facts_fts_vocab").fetchall()}
    assert not any(MARKER in t or TAG_MARKER in t for t in terms)
    assert (
        conn.execute(
            "SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?", (f'"{MARKER}"',)
        ).fetchone()[0]
        == 0
    )


def test_event_payloads_no_longer_hold_the_content(
    memory: Memory, db_path: Path, secret: str
) -> None:
    memory.purge(secret, reason="privacy")
    with closing(connect(db_path)) as conn:
        payloads = [r[0] for r in conn.execute("SELECT payload FROM events")]
        reasons = [r[0] for r in conn.execute("SELECT reason FROM events")]
    assert not any(MARKER in p or TAG_MARKER in p for p in payloads)
    assert "told by bob" not in reasons  # a reason may hold the secret too
    assert "privacy" in reasons  # the purge's own reason is the audit trail
    stored = [e for e in memory.show(secret).events if e.type == "FactStored"]
    assert len(stored) == 1 and stored[0].redacted
    assert not stored[0].payload.get("content")
    assert [t for t in stored[0].payload["tags"] if t[0] != "owner"] == []


REASON_MARKER = "vorpalwhisk"  # typed by a person into reasons


def test_the_reasons_of_the_facts_own_events_are_redacted(
    memory: Memory, db_path: Path, clock: FixedClock
) -> None:
    _fill(memory)
    old = memory.store("/people/carol", "carol's number is on file", reason="first note")
    fact = memory.supersede(
        old.id, f"carol's number is {MARKER}", reason=f"carol said {REASON_MARKER} 123-45-6789"
    )
    memory.forget(fact.id, reason=f"contains carol's SSN {REASON_MARKER}")
    memory.restore(fact.id, reason=f"restored, still {REASON_MARKER}")
    other = memory.store("/people/dave", "dave keeps bees", reason=f"not carol: {REASON_MARKER}")
    clock.advance(days=1)
    memory.purge(fact.id, reason="carol asked to be erased")
    *earlier, purge = memory.history(fact.id)
    own = [e for e in earlier if e.stream_id == fact.id]
    assert [e.type for e in own] == ["FactStored", "FactForgotten", "FactRestored"]
    assert all(e.reason == REDACTED_REASON and e.redacted for e in own)
    assert purge.type == "FactPurged" and purge.reason == "carol asked to be erased"
    # Other streams keep their reasons: the superseded fact's and an unrelated fact's.
    assert memory.history(old.id)[0].reason == "first note"
    assert memory.history(other.id)[0].reason == f"not carol: {REASON_MARKER}"
    assert memory.verify() == []
    memory.rebuild()
    assert memory.verify() == []
    assert [e.reason for e in memory.history(fact.id) if e.stream_id == fact.id][:3] == [
        REDACTED_REASON
    ] * 3
    memory.purge(other.id, reason="and dave's note")
    memory.close()
    assert _holds(db_path, REASON_MARKER) == []
    assert _holds(db_path, MARKER) == []


def test_only_a_redacted_event_may_lose_its_reason(memory: Memory, db_path: Path) -> None:
    fact = memory.store("/x", "a plain fact", reason="kept")
    purged = memory.store("/y", "a private fact", reason="private")
    memory.purge(purged.id, reason="erase")
    with closing(connect(db_path)) as conn:
        for stream, value in ((fact.id, REDACTED_REASON), (purged.id, "rewritten")):
            with pytest.raises(DriverError, match="append-only"):
                conn.execute(
                    "UPDATE events SET reason = ? WHERE stream_id = ? AND version = 1",
                    (value, stream),
                )


def test_recall_cannot_find_purged_content(memory: Memory, secret: str) -> None:
    memory.purge(secret, reason="privacy")
    for query in (MARKER, TAG_MARKER, f"door code {MARKER}", "door code"):
        for mode_hits in (memory.recall(query, reinforce=False), memory.recall(query)):
            assert secret not in {h.fact.id for h in mode_hits}
    assert secret not in {h.fact.id for h in memory.recall(None, limit=1000, reinforce=False)}
    try:
        views = memory.cat("/people/bob")
    except NotFound:
        views = []
    assert secret not in {v.fact.id for v in views}


def test_show_reports_purged_and_history_keeps_the_events(
    memory: Memory, secret: str, clock: FixedClock
) -> None:
    clock.advance(days=1)
    memory.purge(secret, reason="bob asked to be forgotten")
    detail = memory.show(secret)
    assert detail.fact.state == "purged"
    assert detail.fact.content == ""
    assert detail.fact.purged_at == clock.now()
    assert detail.links == ()
    history = memory.history(secret)
    types = [e.type for e in history]
    assert types[0] == "FactStored"
    assert types[-1] == "FactPurged"
    assert history[-1].reason == "bob asked to be forgotten"
    assert history[-1].actor == "default"
    assert history[-1].recorded_at == clock.now()
    assert all(MARKER not in json.dumps(e.payload) for e in history)


def test_the_tags_other_than_owner_are_gone(memory: Memory, secret: str) -> None:
    memory.purge(secret, reason="privacy")
    fact = memory.show(secret).fact
    assert [(t.key, t.value) for t in fact.tags] == [("owner", "default")]
    assert fact.owner == "default"


@pytest.mark.parametrize("reason", [None, "", "   "])
def test_purge_requires_a_reason(
    memory: Memory, db_path: Path, secret: str, reason: str | None
) -> None:
    with pytest.raises(InvalidInput):
        memory.purge(secret, reason=reason)  # type: ignore[arg-type]
    assert memory.show(secret).fact.content.count(MARKER) == 2
    memory.close()
    assert _holds(db_path, MARKER)


def test_a_purge_cannot_be_undone_or_repeated(memory: Memory, secret: str) -> None:
    memory.purge(secret, reason="privacy")
    with pytest.raises(Conflict):
        memory.restore(secret, reason="undo")
    with pytest.raises(Conflict):
        memory.purge(secret, reason="again")
    with pytest.raises(Conflict):
        memory.forget(secret, reason="and forget")
    with pytest.raises(Conflict):
        memory.supersede(secret, "a correction of nothing")
    assert memory.show(secret).fact.state == "purged"


def test_a_forgotten_fact_can_be_purged(memory: Memory, db_path: Path, secret: str) -> None:
    memory.forget(secret, reason="first hide it")
    memory.purge(secret, reason="then erase it")
    assert memory.show(secret).fact.state == "purged"
    memory.close()
    assert _holds(db_path, MARKER) == []


def test_purge_survives_rebuild(memory: Memory, db_path: Path, secret: str) -> None:
    memory.purge(secret, reason="privacy")
    memory.rebuild()
    assert memory.verify() == []
    assert memory.show(secret).fact.state == "purged"
    assert memory.recall(MARKER, reinforce=False) == []
    with closing(connect(db_path)) as conn:
        _assert_not_indexed(conn)
    memory.close()
    assert _holds(db_path, MARKER) == []


def test_purging_a_superseded_fact_keeps_its_correction(memory: Memory, secret: str) -> None:
    """Purge erases one fact; the chain it belonged to stays consistent."""
    newer = memory.supersede(secret, "Bob changed his door code", tags=[])
    memory.purge(secret, reason="the old code must go")
    assert memory.show(newer.id).fact.state == "active"
    assert memory.show(newer.id).fact.content == "Bob changed his door code"
    assert memory.verify() == []


def test_purging_one_fact_leaves_the_others_whole(memory: Memory, secret: str) -> None:
    def fillers() -> dict[str, str]:
        hits = memory.recall("filler", limit=100, reinforce=False)
        return {h.fact.id: h.fact.content for h in hits}

    before = fillers()
    assert len(before) == 50
    memory.purge(secret, reason="privacy")
    assert fillers() == before


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_crash_right_after_the_purge_commit_leaves_no_bytes(
    db_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock) as mem:
        _fill(mem, 30)
        fact = mem.store("/secret", f"the code is {MARKER}", tags=[f"note={TAG_MARKER}"])
    workers = Path(__file__).parent / "helpers" / "workers.py"
    result = subprocess.run(
        [sys.executable, str(workers), "purge-crash", str(db_path), fact.id],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert result.stdout == "committed\n"
    with Memory.open(db_path, clock=clock) as mem:  # recovery, then a clean close
        assert mem.show(fact.id).fact.state == "purged"
        assert mem.verify() == []
    assert _holds(db_path, MARKER) == []
    assert _holds(db_path, TAG_MARKER) == []
