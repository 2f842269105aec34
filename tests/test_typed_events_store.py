"""Typed events against a real database: purge redacts by declaration, a memory written by
release 0.1.0 reads back and verifies, and racing writers on one fact stay consistent
(decisions 0025, 0026)."""

from __future__ import annotations

import gzip
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from embornal import FixedClock, Memory
from embornal.domain.events import EVENTS, FactStored
from embornal.domain.facts.aggregate import FactState
from embornal.errors import ConcurrencyError, Conflict
from embornal.service.facts import lifecycle
from embornal.storage.sqlite.connect import connect
from race_helpers import after_first_load

SECRET = "zebra-42"
FIXTURE = Path(__file__).parent / "fixtures" / "memory-0.1.0.db.gz"


def _rows(db: Path, sql: str, *params: Any) -> list[Any]:
    conn = connect(db)
    try:
        return list(conn.execute(sql, params).fetchall())
    finally:
        conn.close()


# -- purge -------------------------------------------------------------------------------


def test_purge_redacts_every_declared_text_field_of_the_fact_stream(
    memory: Memory, db_path: Path
) -> None:
    fact = memory.store("/s", f"the code is {SECRET}", tags={"hint": SECRET}, reason=SECRET)
    memory.forget(fact.id, reason=f"{SECRET} leaked")
    memory.restore(fact.id, reason=f"{SECRET} back")
    memory.purge(fact.id, reason="erase it")
    rows = _rows(
        db_path,
        "SELECT type, schema_version, payload, reason FROM events WHERE stream_id = ? "
        "ORDER BY version",
        fact.id,
    )
    assert [r[0] for r in rows] == ["FactStored", "FactForgotten", "FactRestored", "FactPurged"]
    with_text = {c.TYPE for c in EVENTS.classes() if c.TEXT_FIELDS}
    for etype, version, payload, reason in rows:
        assert SECRET not in payload and SECRET not in (reason or "")
        body = EVENTS.from_stored(etype, version, json.loads(payload))  # still readable
        if etype in with_text:
            assert all(getattr(body, f) in (None, ()) or f == "tags" for f in body.TEXT_FIELDS)
    (stored,) = [e.body for e in memory.show(fact.id).events if e.type == "FactStored"]
    assert isinstance(stored, FactStored) and stored.content is None
    assert [t.key for t in stored.tags] == ["owner"]
    assert memory.verify() == []


# -- a memory written by release 0.1.0 ---------------------------------------------------


@pytest.fixture
def old_memory(tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    """``memory-0.1.0.db.gz``: made by commit b16708f (every event type, a purge, a
    supersession, a restore, path tags, policies, tokens; see tests/fixtures/README)."""
    db = tmp_path / "old.db"
    with gzip.open(FIXTURE, "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    with Memory.open(db, clock=clock) as mem:
        yield mem


def test_a_memory_of_release_0_1_0_reads_back_and_verifies(old_memory: Memory) -> None:
    mem = old_memory
    assert mem.verify() == []  # old projections equal a replay by the typed projector
    raw = _rows(Path(mem.db_path), "SELECT type, schema_version, payload FROM events")
    since = {  # the types added after 0.1.0
        "FactAttributesUpdated",
        "FactConfirmed",
        "FactContradicted",
        "FactEvidenceAdded",
        "FactConfidenceReset",
        "FactVisibilityChanged",
        "FactImportanceAdjusted",
        "FactLifetimeChanged",
        "ConflictOpened",
        "ConflictResolved",
        "FactLinked",
        "FactUnlinked",
        "FactMerged",
        "ProposalOpened",
        "ProposalEdited",
        "ProposalApproved",
        "ProposalRejected",
        "MemoryCaptured",  # the history protocol's (decision 0064)
        "MemoryPromoted",
        "MemoryCorroborated",
        "MemoryTierChanged",
        "MemoryReviewed",
        "MemoryFlaggedSensitive",
        "MemoryUnpinNoop",
        "MemoryCanonized",  # canon and frames (decision 0078)
        "MemoryDecanonized",
        "MemoryFramed",
        "MemoryContextSet",  # the history context's (decision 0088)
        "NarrativeVersioned",  # narrative accounts' (decision 0085)
        "NarrativeReviewed",
        "ClaimCreated",  # the claims ledger's (decision 0081)
        "ClaimEvidenceAdded",
        "ClaimEvidenceRetracted",
        "ClaimAdopted",
        "ClaimRevised",
        "ClaimSuperseded",
        "ClaimWithdrawn",
        "MemoryRefused",  # the protocol's records (decision 0142)
        "MemoryReviewOverdue",
        "NarrativeInvalidated",
    }
    guide = {"FactImportanceAdjusted", "FactLifetimeChanged"}  # 0030 pins the guide (0154)
    assert {r[0] for r in raw} == ({c.TYPE for c in EVENTS.classes()} - since) | guide
    for etype, version, payload in raw:
        stored = json.loads(payload)
        body = EVENTS.from_stored(etype, version, stored)
        if "redacted" not in stored:  # the stored format is unchanged: same JSON back
            assert EVENTS.to_payload(body) == stored
        assert SECRET not in payload
    texts = {h.fact.content for h in mem.recall("sqlite tea", reinforce=False, limit=50)}
    assert "The memory lives in one SQLite file." in texts
    assert "Alice prefers tea." in texts
    assert mem.rebuild() == len(raw)
    assert mem.verify() == []
    new = mem.store("/after", "written by the typed build")
    assert mem.show(new.id).fact.content == "written by the typed build"
    assert {t.subject for t in mem.tokens(include_inactive=True)} == {"carol", "dave"}
    assert mem.verify() == []


# -- racing writers ----------------------------------------------------------------------


@pytest.fixture
def two(db_path: Path, clock: FixedClock) -> Iterator[tuple[Memory, Memory]]:
    with Memory.open(db_path, clock=clock) as a, Memory.open(db_path, clock=clock) as b:
        yield a, b


def test_a_forget_between_load_and_append_makes_the_supersede_retry_and_refuse(
    two: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    fact = a.store("/race", "first version")
    loads = after_first_load(a, monkeypatch, lambda: b.forget(fact.id, reason="gone"))
    with pytest.raises(Conflict, match="is forgotten; only an active fact can be superseded"):
        a.supersede(fact.id, "second version")
    assert [s.state for s in loads if s] == ["active", "forgotten", "forgotten"]  # retried
    assert [e.type for e in a.history(fact.id)] == ["FactStored", "FactForgotten"]
    assert a.verify() == [] and b.verify() == []


def test_a_supersede_between_load_and_append_lets_the_forget_apply_after_it(
    two: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    fact = a.store("/race", "first version")
    newer: list[Any] = []
    after_first_load(a, monkeypatch, lambda: newer.append(b.supersede(fact.id, "second")))
    forgotten = a.forget(fact.id, reason="old anyway")  # legal after a supersede
    assert forgotten.state == "forgotten"
    types = [(e.stream_id, e.type) for e in a.history(fact.id)]
    assert types == [
        (fact.id, "FactStored"),
        (newer[0].id, "FactStored"),
        (fact.id, "FactForgotten"),
    ]
    assert a.verify() == []


def test_a_concurrent_forget_is_caught_by_the_expected_version(
    two: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    fact = a.store("/race", "once")
    after_first_load(a, monkeypatch, lambda: b.forget(fact.id, reason="b was first"))
    with pytest.raises(Conflict, match="is already forgotten"):
        a.forget(fact.id, reason="a too")
    assert [e.reason for e in a.history(fact.id)] == [None, "b was first"]
    assert a.verify() == []


def test_a_fact_that_keeps_changing_fails_cleanly_after_the_retries(
    two: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    fact = a.store("/race", "busy")
    real = a._store.fact_state
    flips = []

    def load(fact_id: str) -> FactState | None:
        state = real(fact_id)
        flips.append(state)
        b.forget(fact_id, reason="flip") if b.show(fact_id).fact.state == "active" else b.restore(
            fact_id, reason="flop"
        )
        return state

    monkeypatch.setattr(a._store, "fact_state", load)
    with pytest.raises(ConcurrencyError, match=f"changed {lifecycle.MAX_ATTEMPTS} times"):
        a.purge(fact.id, reason="never gets there")
    assert len(flips) == lifecycle.MAX_ATTEMPTS
    assert a.show(fact.id).fact.state in ("active", "forgotten")  # not purged
    assert a.verify() == []


def test_threads_racing_forget_and_supersede_leave_a_legal_log(
    db_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock) as setup:
        ids = [setup.store("/race", f"fact {i}").id for i in range(20)]
    outcomes: dict[str, list[str]] = {i: [] for i in ids}

    def run(op: str) -> None:
        with Memory.open(db_path, clock=clock) as mem:
            for fid in ids:
                try:
                    if op == "forget":
                        mem.forget(fid, reason="race")
                    else:
                        mem.supersede(fid, f"new {fid}")
                    outcomes[fid].append(op)
                except Conflict:
                    pass

    threads = [threading.Thread(target=run, args=(op,)) for op in ("forget", "supersede")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with Memory.open(db_path, clock=clock) as mem:
        for fid in ids:
            kinds = [e.type for e in mem.history(fid)]
            if outcomes[fid] == ["forget"]:  # the forget won: no successor was written
                assert kinds == ["FactStored", "FactForgotten"]
            else:  # the supersede came first; a forget after it is legal
                assert "supersede" in outcomes[fid]
                assert kinds[:2] == ["FactStored", "FactStored"]
        assert mem.verify() == []
