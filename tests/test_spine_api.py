"""The justification spine through the Python API (docs/model.md, The spine; decisions 0032,
0037): confidence at creation, confirm, contradict, evidence; the projection of migration
0013, purge, rebuild and verify; two writers racing on one fact."""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock, Memory
from embornal.domain.spine import confidence as C
from embornal.domain.spine.justification import EvidenceRef, EvidenceType
from embornal.errors import (
    AccessDenied,
    Conflict,
    InvalidConfidence,
    InvalidEvidence,
    InvalidInput,
    NotFound,
)
from embornal.storage.sqlite.connect import connect
from race_helpers import after_first_load

SECRET = "zebra-42"
FIXTURE = Path(__file__).parent / "fixtures" / "memory-0.1.0.db.gz"


def _rows(db: Path | str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = connect(db)
    try:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def _event_count(mem: Memory) -> int:
    return _rows(mem.db_path, "SELECT count(*) FROM events")[0][0]


# -- confidence at creation ----------------------------------------------------------------


def test_a_fact_starts_at_the_prior_of_who_stores_it_or_at_the_confidence_given(
    memory: Memory,
) -> None:
    assert memory.store("/a", "mine").confidence == 0.95
    bot = memory.as_subject("default", "assistant")
    inferred = bot.store("/a", "inferred")
    assert inferred.confidence == 0.60 and bot.show(inferred.id).confidence == 0.60
    given = memory.store("/a", "unsure", confidence=0.4)
    assert memory.show(given.id).fact.confidence == 0.4
    (payload,) = _rows(memory.db_path, "SELECT payload FROM events WHERE stream_id = ?", given.id)
    assert json.loads(payload[0])["confidence"] == 0.4
    (plain,) = _rows(memory.db_path, "SELECT payload FROM events WHERE stream_id = ?", inferred.id)
    assert "confidence" not in json.loads(plain[0])  # the prior is derived, not stored
    assert memory.verify() == []


@pytest.mark.parametrize("bad", [1.5, -0.01, float("inf"), "0.5", True])
def test_a_confidence_outside_0_1_writes_nothing(memory: Memory, bad: object) -> None:
    before = _event_count(memory)
    with pytest.raises(InvalidConfidence):
        memory.store("/a", "x", confidence=bad)  # type: ignore[arg-type]
    assert _event_count(memory) == before


# -- confirm, contradict, evidence ---------------------------------------------------------


def test_confirm_contradict_and_evidence_move_confidence_by_the_maths(
    memory: Memory, clock: FixedClock
) -> None:
    fact = memory.as_subject("default", "assistant").store("/a", "the build uses uv")
    clock.advance(days=2)
    confirmed = memory.confirm(fact.id, evidence="quote:I said so", reason="I know")
    assert confirmed.confidence == C.confirm(0.60, 0.5)
    assert confirmed.last_confirmed_at == clock.now()
    clock.advance(days=1)
    other = memory.store("/a", "the build uses pip")
    disputed = memory.contradict(fact.id, by=other.id[:18], reason="pip now")
    expected = C.contradict(C.confirm(0.60, 0.5), 0.5)
    assert disputed.confidence == expected
    assert disputed.last_confirmed_at == confirmed.last_confirmed_at
    clock.advance(days=1)
    memory.add_evidence(fact.id, "uri:https://example.org/build", note="the docs")
    detail = memory.show(fact.id)
    expected = C.confirm(expected, 0.1)
    assert detail.fact.confidence == detail.confidence == expected
    assert detail.last_confirmed_at == clock.now()
    assert detail.evidence == (
        EvidenceRef(EvidenceType.QUOTE, "I said so"),
        EvidenceRef(EvidenceType.URI, "https://example.org/build", "the docs"),
    )
    assert detail.c_eff == pytest.approx(expected)  # vouched for just now
    assert detail.stale is False
    types = [e.type for e in detail.events]
    assert types == ["FactStored", "FactConfirmed", "FactContradicted", "FactEvidenceAdded"]
    (contra,) = [e for e in detail.events if e.type == "FactContradicted"]
    assert contra.payload["by_id"] == other.id and contra.reason == "pip now"
    rows = _rows(
        memory.db_path,
        "SELECT seq, evidence_type, value, note, actor FROM fact_evidence WHERE fact_id = ?",
        fact.id,
    )
    assert rows == [
        (1, "quote", "I said so", None, "default"),
        (2, "uri", "https://example.org/build", "the docs", "default"),
    ]
    assert memory.verify() == []


def test_c_eff_decays_with_time_and_a_stale_fact_is_flagged(
    memory: Memory, clock: FixedClock
) -> None:
    fact = memory.store("/a", "an old belief", confidence=0.5)
    clock.advance(days=365)
    detail = memory.show(fact.id)
    assert detail.confidence == 0.5 and detail.c_eff == pytest.approx(0.25)
    assert detail.stale is True  # below the fact kind's 0.35
    assert detail.fact.confidence == 0.5  # c_eff is never written back
    memory.confirm(fact.id)
    again = memory.show(fact.id)
    assert again.c_eff == again.confidence == 0.75 and again.stale is False


def test_bad_input_writes_nothing(memory: Memory) -> None:
    fact = memory.store("/a", "x")
    other = memory.store("/a", "y")
    before = _event_count(memory)
    with pytest.raises(InvalidEvidence):
        memory.add_evidence(fact.id, "rumour:heard it")
    with pytest.raises(InvalidEvidence):
        memory.confirm(fact.id, evidence="no type")
    with pytest.raises(InvalidEvidence):
        memory.add_evidence(fact.id, EvidenceRef(EvidenceType.QUOTE, "q"), note="\x00")
    with pytest.raises(InvalidInput, match="reason"):
        memory.contradict(fact.id, reason="")
    with pytest.raises(InvalidInput, match="itself"):
        memory.contradict(fact.id, by=fact.id, reason="self")
    with pytest.raises(NotFound):
        memory.contradict(fact.id, by="01JH5V3Q8Z" + "9" * 16, reason="nobody")
    assert _event_count(memory) == before
    memory.contradict(fact.id, by=other.id, reason="a fact that exists")
    memory.forget(fact.id, reason="gone")
    before = _event_count(memory)
    with pytest.raises(Conflict, match="only an active fact"):
        memory.confirm(fact.id)
    with pytest.raises(Conflict, match="only an active fact"):
        memory.add_evidence(fact.id, "quote:q")
    with pytest.raises(Conflict, match="only an active fact"):
        memory.contradict(fact.id, reason="r")
    assert _event_count(memory) == before


def test_a_superseded_fact_is_not_vouched_for(memory: Memory) -> None:
    old = memory.store("/a", "x")
    memory.supersede(old.id, "x, corrected")
    with pytest.raises(Conflict, match="superseded"):
        memory.confirm(old.id)


def test_vouching_needs_write_on_the_fact(memory: Memory) -> None:
    fact = memory.store("/a", "x")
    memory.policy_add("p", ["bob", "path:/*", "read", "allow"])
    bob = memory.as_subject("bob")
    before = _event_count(memory)
    for act in (
        lambda: bob.confirm(fact.id),
        lambda: bob.contradict(fact.id, reason="no"),
        lambda: bob.add_evidence(fact.id, "quote:q"),
    ):
        with pytest.raises(AccessDenied, match="write"):
            act()
    assert _event_count(memory) == before
    memory.policy_add("p", ["bob", "path:/*", "write", "allow"])  # no delete: that is enough
    assert bob.confirm(fact.id).confidence == C.confirm(0.95, 0.5)
    carol = memory.as_subject("carol")
    with pytest.raises(NotFound):  # a fact carol may not read cannot be named
        carol.confirm(fact.id)


# -- purge, rebuild, verify ----------------------------------------------------------------


def test_purge_empties_the_evidence_and_redacts_the_events(memory: Memory) -> None:
    fact = memory.store("/a", "the code")
    other = memory.store("/a", "another")
    memory.confirm(fact.id, evidence=f"quote:{SECRET}", reason="sure")
    memory.add_evidence(fact.id, f"document:{SECRET}.pdf", note=f"page {SECRET}")
    memory.contradict(fact.id, by=other.id, evidence=f"observation:{SECRET}", reason="hm")
    before = memory.show(fact.id).fact.confidence
    memory.purge(fact.id, reason="erase")
    payloads = _rows(memory.db_path, "SELECT payload FROM events WHERE stream_id = ?", fact.id)
    assert payloads and all(SECRET not in p[0] for p in payloads)
    rows = _rows(memory.db_path, "SELECT evidence_type, value, note FROM fact_evidence")
    assert rows == [("quote", "", None), ("document", "", None)]
    assert memory.show(fact.id).fact.confidence == before  # not text: it stays
    assert memory.verify() == []
    assert memory.rebuild() > 0 and memory.verify() == []
    assert _rows(memory.db_path, "SELECT value, note FROM fact_evidence") == [("", None)] * 2


def test_rebuild_and_verify_keep_the_spine(memory: Memory, clock: FixedClock) -> None:
    fact = memory.store("/a", "x")
    memory.confirm(fact.id, evidence="quote:q")
    clock.advance(seconds=5)
    memory.add_evidence(fact.id, "quote:r", note="n")
    have = _rows(memory.db_path, "SELECT * FROM fact_evidence")
    spine = _rows(memory.db_path, "SELECT confidence, last_confirmed_at FROM facts")
    assert memory.rebuild() > 0 and memory.verify() == []
    assert _rows(memory.db_path, "SELECT * FROM fact_evidence") == have
    assert _rows(memory.db_path, "SELECT confidence, last_confirmed_at FROM facts") == spine
    conn = connect(memory.db_path)  # a projection that drifts is caught
    try:
        conn.execute("UPDATE facts SET confidence = 0.1 WHERE id = ?", (fact.id,))
        conn.execute("UPDATE fact_evidence SET note = 'x'")
        conn.commit()
    finally:
        conn.close()
    problems = memory.verify()
    assert any(p.startswith("facts:") for p in problems)
    assert any(p.startswith("fact_evidence:") for p in problems)


# -- migration 0013 --------------------------------------------------------------------


def test_migration_0013_on_a_blank_memory(memory: Memory) -> None:
    assert "0013_confidence_evidence" in memory.migrations_applied
    cols = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(facts)")]
    assert {"confidence", "last_confirmed_at"} <= set(cols)
    assert cols[cols.index("confidence") :][:2] == ["confidence", "last_confirmed_at"]
    cols = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(fact_evidence)")]
    assert cols == ["fact_id", "seq", "evidence_type", "value", "note", "recorded_at", "actor"]
    guide = _rows(memory.db_path, "SELECT DISTINCT confidence FROM facts")  # the system's
    assert guide == [(0.70,)]
    view = [r[1] for r in _rows(memory.db_path, "PRAGMA table_info(view_project)")]
    assert {"confidence", "last_confirmed_at"} <= set(view)
    assert memory.verify() == []


@pytest.fixture
def old_memory(tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=clock) as mem:
        yield mem


def test_a_memory_of_release_0_1_0_reads_its_facts_at_their_priors(old_memory: Memory) -> None:
    mem = old_memory
    assert "0013_confidence_evidence" in mem.migrations_applied
    assert mem.verify() == []  # the filled-in column equals a replay
    rows = _rows(
        mem.db_path,
        "SELECT f.confidence, e.actor_kind FROM facts f JOIN events e ON e.stream_id = f.id "
        "AND e.version = 1",
    )
    assert rows and all(c == C.prior(kind) for c, kind in rows)
    live = [f for f in mem.recall("sqlite tea", reinforce=False, limit=50)]
    assert live and all(h.fact.confidence is not None for h in live)
    fact = live[0].fact
    assert mem.show(fact.id).confidence == fact.confidence  # the fold agrees
    mem.confirm(fact.id, evidence="quote:still true")
    assert mem.rebuild() > 0 and mem.verify() == []


# -- two writers -------------------------------------------------------------------------


def test_two_writers_confirming_and_contradicting_one_fact_both_land_in_log_order(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (
        Memory.open(db_path, clock=clock) as a,
        Memory.open(db_path, clock=clock, actor_kind="assistant") as b,
    ):
        fact = a.store("/a", "x")
        loads = after_first_load(a, monkeypatch, lambda: b.contradict(fact.id, reason="b disputes"))
        got = a.confirm(fact.id, evidence="quote:a vouches")
        assert len(loads) == 2  # a's first append met b's event and ran again
        history = a.history(fact.id)
        assert [(e.type, e.actor_kind) for e in history] == [
            ("FactStored", "person"),
            ("FactContradicted", "assistant"),
            ("FactConfirmed", "person"),
        ]
        expected = C.confirm(C.contradict(0.95, 0.2), 0.5)
        assert got.confidence == expected == a.show(fact.id).confidence
        assert a.verify() == []


def test_threads_racing_confirms_and_contradictions_keep_the_maths(
    db_path: Path, clock: FixedClock
) -> None:
    import threading

    with (
        Memory.open(db_path, clock=clock) as a,
        Memory.open(db_path, clock=clock, actor_kind="assistant") as b,
    ):
        fact = a.store("/a", "x")
        errors: list[BaseException] = []

        def run(act: Callable[[], object]) -> None:
            for _ in range(5):
                try:
                    act()
                except BaseException as e:  # pragma: no cover - reported below
                    errors.append(e)

        threads = [
            threading.Thread(target=run, args=(lambda: a.confirm(fact.id),)),
            threading.Thread(target=run, args=(lambda: b.contradict(fact.id, reason="no"),)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        landed = [e for e in a.history(fact.id) if e.type != "FactStored"]
        assert len(landed) + sum(isinstance(e, Exception) for e in errors) == 10
        c = 0.95
        for e in landed:
            if e.type == "FactConfirmed":
                c = C.confirm(c, C.confirm_weight(e.actor_kind))
            else:
                c = C.contradict(c, C.contradict_weight(e.actor_kind))
        assert a.show(fact.id).confidence == c == a.show(fact.id).fact.confidence
        assert a.verify() == []
