"""Source and visibility through the Python API (decisions 0037, 0038):
``store(visibility=, source=, evidence=, confidence=)``, ``set_visibility``, who sees a
private or restricted fact on every read path, an assistant never seeing a private one,
bad input, purge, rebuild and verify, and migration 0015 from blank and from 0.1.0."""

from __future__ import annotations

import contextlib
import gzip
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock, Memory
from embornal.domain.events import ActorKind
from embornal.errors import AccessDenied, Conflict, InvalidInput, InvalidVisibility, NotFound
from embornal.storage.sqlite.connect import connect

FIXTURE = Path(__file__).parent / "fixtures" / "memory-0.1.0.db.gz"


def _rows(db: Path | str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = connect(db)
    try:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def _events(mem: Memory) -> int:
    return int(_rows(mem.db_path, "SELECT count(*) FROM events")[0][0])


@pytest.fixture
def team(memory: Memory) -> Memory:
    """default (everything), alice and bob reading and writing everywhere, bob in ``ops``."""
    for who in ("alice", "bob", "carol"):
        for action in ("read", "write", "delete"):
            memory.policy_add("p", [who, "path:/*", action, "allow"])
    memory.policy_add("g", ["bob", "ops"])
    return memory


def _seen(mem: Memory) -> set[str]:
    """Every fact id the memory shows ``mem``'s subject, by each read path."""
    out = {h.fact.id for h in mem.recall("word", limit=1000, reinforce=False)}
    out |= {h.fact.id for h in mem.recall(None, limit=1000, reinforce=False)}
    for path in ("/t", "/t/sub"):
        with contextlib.suppress(NotFound):
            out |= {v.fact.id for v in mem.cat(path)}
    out |= {f.id for f in mem.find("fact")}
    return out


# -- store: visibility, source, evidence, confidence ---------------------------------------


def test_store_records_source_evidence_and_confidence_without_a_confirmation(
    memory: Memory,
) -> None:
    fact = memory.store(
        "/t",
        "The build uses uv.",
        source="claude-desktop",
        evidence=["quote:we picked uv", "uri:https://example.org/adr/3"],
        confidence=0.8,
    )
    assert fact.visibility == "shared" and fact.confidence == 0.8
    detail = memory.show(fact.id)
    assert detail.source is not None
    assert (detail.source.subject, detail.source.actor_kind) == ("default", ActorKind.PERSON)
    assert detail.source.label == "claude-desktop"
    assert [(e.type.value, e.value) for e in detail.evidence] == [
        ("quote", "we picked uv"),
        ("uri", "https://example.org/adr/3"),
    ]
    assert detail.confidence == 0.8 and detail.last_confirmed_at is None  # not a confirm
    assert memory.verify() == []


def test_a_plain_store_writes_the_payload_it_wrote_before(memory: Memory) -> None:
    fact = memory.store("/t", "plain")
    (payload,) = _rows(memory.db_path, "SELECT payload FROM events WHERE stream_id = ?", fact.id)
    assert not {"visibility", "source", "evidence_types"} & set(json.loads(payload[0]))
    detail = memory.show(fact.id)
    assert detail.source is not None and detail.source.label is None
    assert detail.fact.visibility == "shared"


def test_an_assistants_source_names_its_actor_kind(memory: Memory) -> None:
    agent = memory.as_subject("default", "assistant")
    fact = agent.store("/t", "from an agent", source="s-42")
    src = memory.show(fact.id).source
    assert src is not None and src.actor_kind is ActorKind.ASSISTANT and src.label == "s-42"


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"visibility": "secret"}, "shared, private, restricted"),
        ({"visibility": "restricted:"}, "needs an allow-list"),
        ({"visibility": "restricted:al ice"}, "allow-list"),
        ({"visibility": "private:bob"}, "not one of"),
        ({"source": "a\nb"}, "control character"),
        ({"source": "x" * 129}, "over 128"),
        ({"source": "   "}, "empty"),
        ({"evidence": ["rumour:so I heard"]}, "quote, uri"),
        ({"evidence": "quote:one string"}, "list"),
        ({"confidence": 1.5}, "0..1"),
    ],
)
def test_bad_spine_input_writes_nothing(memory: Memory, kwargs: dict[str, Any], error: str) -> None:
    before = _events(memory)
    with pytest.raises(InvalidInput, match=error):
        memory.store("/t", "never stored", **kwargs)
    assert _events(memory) == before


# -- who sees what ---------------------------------------------------------------------------


def test_a_private_fact_reaches_its_owner_alone_and_never_an_assistant(team: Memory) -> None:
    alice = team.as_subject("alice")
    secret = alice.store("/t", "word private alice", visibility="private")
    shared = alice.store("/t", "word shared alice")
    assert secret.visibility == "private"
    assert {secret.id, shared.id} <= _seen(alice)
    for reader in (
        team,  # the default subject reads everything the rules allow: not this
        team.as_subject("bob"),
        team.as_subject("alice", "assistant"),  # the owner, as an assistant
        team.as_subject("default", "assistant"),
    ):
        seen = _seen(reader)
        assert shared.id in seen and secret.id not in seen
        for read in (reader.show, reader.history):
            with pytest.raises(NotFound):
                read(secret.id)
        assert reader.tree("/").children[-1].fact_count == 1  # /t counts the shared fact


def test_counts_leave_out_what_the_reader_may_not_see(team: Memory) -> None:
    alice = team.as_subject("alice")
    alice.store("/t/sub", "word a", visibility="private")
    alice.store("/t/sub", "word b")
    (entry,) = [e for e in team.ls("/t")]
    assert entry.fact_count == 1
    (mine,) = [e for e in alice.ls("/t")]
    assert mine.fact_count == 2


def test_a_restricted_fact_reaches_its_owner_and_the_names_it_lists(team: Memory) -> None:
    alice = team.as_subject("alice")
    to_bob = alice.store("/t", "word for bob", visibility="restricted:bob")
    to_ops = alice.store("/t", "word for ops", visibility="restricted:ops")
    assert to_bob.visibility == "restricted:bob"
    bob, carol = team.as_subject("bob"), team.as_subject("carol")
    assert {to_bob.id, to_ops.id} <= _seen(bob)  # bob, and bob holds the role ops
    assert {to_bob.id, to_ops.id} <= _seen(team.as_subject("bob", "assistant"))
    assert {to_bob.id, to_ops.id} <= _seen(alice)
    assert not {to_bob.id, to_ops.id} & _seen(carol)
    assert not {to_bob.id, to_ops.id} & _seen(team)


def test_visibility_only_narrows_what_the_rules_allow(memory: Memory) -> None:
    memory.policy_add("p", ["alice", "path:/*", "write", "allow"])
    fact = memory.store("/t", "word for alice", visibility="restricted:alice")
    assert fact.id not in _seen(memory.as_subject("alice"))  # listed, but no read rule


def test_recall_context_counts_over_visible_facts_only(team: Memory) -> None:
    alice = team.as_subject("alice")
    first = alice.store("/t", "alpha word")
    hidden = alice.store("/t", "beta hidden", visibility="private")
    third = alice.store("/t", "gamma other")
    near = team._store.neighbours([first.id], 1, team._ctx.scope())
    assert near[first.id] == ((third.id,),)
    assert hidden.id not in {i for t in near.values() for d in t for i in d}


# -- changing it -------------------------------------------------------------------------


def test_the_owner_changes_visibility_and_the_history_keeps_it(team: Memory) -> None:
    alice = team.as_subject("alice")
    fact = alice.store("/t", "word later private")
    got = alice.set_visibility(fact.id, "private", reason="mine")
    assert got.visibility == "private" and fact.id not in _seen(team)
    events = alice.history(fact.id)
    assert [e.type for e in events] == ["FactStored", "FactVisibilityChanged"]
    assert events[-1].payload == {"fact_id": fact.id, "visibility": "private"}
    assert events[-1].reason == "mine"
    assert alice.set_visibility(fact.id, "private").visibility == "private"  # no new event
    assert len(alice.history(fact.id)) == 2
    assert alice.set_visibility(fact.id, "shared").visibility == "shared"
    assert fact.id in _seen(team)
    assert team.rebuild() > 0 and team.verify() == []


def test_only_the_owner_changes_visibility(team: Memory) -> None:
    fact = team.as_subject("alice").store("/t", "word of alice")
    before = _events(team)
    for other in (team, team.as_subject("bob")):
        with pytest.raises(AccessDenied, match="only its owner alice"):
            other.set_visibility(fact.id, "private")
    assert _events(team) == before


def test_changing_visibility_needs_write_and_delete_on_the_fact(memory: Memory) -> None:
    memory.policy_add("p", ["alice", "path:/*", "write", "allow"])
    memory.policy_add("p", ["alice", "path:/*", "read", "allow"])
    fact = memory.as_subject("alice").store("/t", "word")
    with pytest.raises(AccessDenied, match="may not delete"):
        memory.as_subject("alice").set_visibility(fact.id, "private")


def test_bad_visibility_on_change_writes_nothing(memory: Memory) -> None:
    fact = memory.store("/t", "word")
    before = _events(memory)
    for bad in ("hidden", "restricted:", "restricted:a b", "", "restricted:,,"):
        with pytest.raises(InvalidVisibility):
            memory.set_visibility(fact.id, bad)
    assert _events(memory) == before


def test_an_assistant_making_its_fact_private_gets_it_back_once(memory: Memory) -> None:
    agent = memory.as_subject("default", "assistant")
    fact = agent.store("/t", "word to hide")
    got = agent.set_visibility(fact.id, "private")
    assert got.id == fact.id and got.visibility == "private"
    with pytest.raises(NotFound):
        agent.show(fact.id)
    assert memory.show(fact.id).fact.visibility == "private"  # its owner, as a person


def test_a_purged_fact_keeps_no_evidence_and_takes_no_visibility(memory: Memory) -> None:
    fact = memory.store("/t", "word zebra", evidence=["quote:zebra said"], visibility="private")
    memory.purge(fact.id, reason="gone")
    (row,) = _rows(memory.db_path, "SELECT value FROM fact_evidence WHERE fact_id = ?", fact.id)
    assert row == ("",)
    payloads = _rows(memory.db_path, "SELECT payload FROM events WHERE stream_id = ?", fact.id)
    assert "zebra" not in json.dumps(payloads)
    with pytest.raises(Conflict, match="purged"):
        memory.set_visibility(fact.id, "shared")
    assert memory.rebuild() > 0 and memory.verify() == []


# -- corrections -----------------------------------------------------------------------------


def test_a_correction_keeps_the_visibility_of_the_fact_it_corrects(team: Memory) -> None:
    alice = team.as_subject("alice")
    secret = alice.store("/t", "word v1", visibility="private")
    fixed = alice.supersede(secret.id, "word v2")
    assert fixed.visibility == "private" and fixed.id not in _seen(team)
    to_bob = alice.store("/t", "word for bob", visibility="restricted:bob")
    by_bob = team.as_subject("bob").supersede(to_bob.id, "word for bob, corrected")
    assert by_bob.visibility == "restricted:alice,bob"  # alice still sees the correction
    assert by_bob.id in _seen(alice) and by_bob.id not in _seen(team.as_subject("carol"))


# -- migration 0015 --------------------------------------------------------------------------


def test_migration_0015_on_a_blank_memory(memory: Memory) -> None:
    assert "0015_visibility" in memory.migrations_applied
    cols = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(facts)")]
    assert "visibility" in cols
    allow = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(fact_visibility_allow)")]
    assert allow == ["fact_id", "subject"]
    view = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(view_project)")]
    assert "visibility" in view
    assert _rows(memory.db_path, "SELECT DISTINCT visibility FROM facts") == [(None,)]


@pytest.fixture
def old_memory(tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=clock) as mem:
        yield mem


def test_a_memory_of_release_0_1_0_is_all_shared_and_takes_visibility(old_memory: Memory) -> None:
    mem = old_memory
    assert "0015_visibility" in mem.migrations_applied
    assert mem.verify() == []
    live = mem.recall(None, limit=1000, reinforce=False)
    assert live and all(h.fact.visibility == "shared" for h in live)
    mine = next(h.fact for h in live if h.fact.owner == "default" and h.fact.path != "/memory")
    mem.set_visibility(mine.id, "restricted:alice")
    assert mem.rebuild() > 0 and mem.verify() == []
    assert _rows(mem.db_path, "SELECT subject FROM fact_visibility_allow") == [("alice",)]


@pytest.mark.parametrize("mode", ["vector", "hybrid", "keyword"])
def test_recall_by_meaning_obeys_visibility_too(smem: Memory, mode: str) -> None:
    secret = smem.store("/t", "the quiet harbour lighthouse", visibility="private")
    shared = smem.store("/t", "the quiet harbour ferry")
    smem.reindex()
    agent = smem.as_subject("default", "assistant")
    mine = {h.fact.id for h in smem.recall("quiet harbour", mode=mode, reinforce=False)}
    theirs = {h.fact.id for h in agent.recall("quiet harbour", mode=mode, reinforce=False)}
    assert {secret.id, shared.id} <= mine
    assert shared.id in theirs and secret.id not in theirs
