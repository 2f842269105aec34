"""A bulk store (``store_many``) leaves a memory of each backend as one-by-one stores do.

A run of stores is appended and projected together (decisions 0109 and 0111); these tests
hold that to one store a transaction, on the same backend: the same log (positions,
versions, payloads), the same facts, the same keyword, hybrid and time-travel answers (ties
broken by row id, so the row ids follow the same order), and a clean ``verify`` (which
compares every projection with a one-event-at-a-time replay of the log).
"""

from __future__ import annotations

import random
import re
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from contract_helpers import Events, write

from embornal import FixedClock, Memory
from embornal.errors import ConcurrencyError
from embornal.service.results import NewFact
from embornal.storage.contract.store import FactVector, Store, pack_vector
from embornal.storage.factory import open_store

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
_ID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")


def _items() -> list[NewFact]:
    """Facts of every shape a store may take, on new and shared paths."""
    out = [
        NewFact("/projects/alpha", "Alpha uses sqlite for its log."),
        NewFact("/projects/alpha/deep/er", "Deeper note about the alpha storage."),
        NewFact("/projects/alpha", "Second note on alpha.", tags=["source=import", "lang=en"]),
        NewFact(
            "/people/ada", "Ada Lovelace.", kind="person", attributes={"full_name": "Ada Lovelace"}
        ),
        NewFact("/p", "Project one.", kind="project", attributes={"name": "a", "status": "idea"}),
        NewFact("/t", "word private", visibility="private"),
        NewFact("/t/sub", "word for bob and carol", visibility="restricted:carol,bob"),
        NewFact("/parking", "parking spot C4", lifetime="until:2026-04-03"),
        NewFact("/a", "always true", at="2016-01-01T00:00:00Z", lifetime="permanent"),
        NewFact("/e", "with evidence", evidence=["quote:I said so", "observation:seen"]),
        NewFact("/c", "sure of it", confidence=0.95, source="import"),
        NewFact("/Projects/Alpha/", "Folded path, tags by mapping.", tags={"team": "core"}),
        NewFact("/cjk", "记忆系统 stores café notes\twith a tab\nand a line"),
    ]
    out += [NewFact(f"/bulk/n{i % 7}", f"bulk fact {i} about topic {i % 5}") for i in range(30)]
    return out


def _open(target: str | Path) -> Memory:
    return Memory.open(target, clock=FixedClock(START))


def _answers(target: str | Path) -> dict[str, Any]:
    """The log, the facts and the answers of a memory, each fact id replaced by its order
    of first appearance in the log (ids hold random bits)."""
    store = open_store(target, FixedClock(START))
    try:
        log = list(store.read_all())
        names = {sid: f"F{i}" for i, sid in enumerate(dict.fromkeys(e.stream_id for e in log))}
        facts = list(store.portability.every_fact())
    finally:
        store.close()

    def plain(value: object) -> object:
        if isinstance(value, str):
            return _ID.sub(lambda m: names.get(m.group(0), m.group(0)), value)
        if isinstance(value, dict):
            return {plain(k): plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value

    out: dict[str, Any] = {
        "events": [
            plain([e.position, e.stream_id, e.version, e.type, e.payload, e.actor, e.reason])
            for e in log
        ],
        "facts": sorted((plain(asdict(f)) for f in facts), key=repr),
    }
    with _open(target) as mem:
        assert mem.verify() == []
        for q in ("alpha", "bulk fact topic", "word", "记忆", "evidence"):
            hits = mem.recall(q, reinforce=False, limit=50)  # every match (ties: by random id)
            out[q] = sorted(plain([h.fact.id, round(h.strength, 9)]) for h in hits)
        out["as of"] = sorted(
            plain(h.fact.id) for h in mem.recall("bulk", reinforce=False, as_of=START, limit=50)
        )
    return out


def test_a_bulk_store_equals_one_by_one_stores(
    twin_targets: tuple[str | Path, str | Path],
) -> None:
    bulk_target, single_target = twin_targets
    items = _items()
    with _open(bulk_target) as bulk:
        stored = bulk.store_many(items)
        stored += bulk.store_many(items[:3])  # a second run, on paths that exist
    with _open(single_target) as single:
        one_by_one = [single.store_many([item])[0] for item in [*items, *items[:3]]]
    assert [(f.path, f.content, f.tags, f.kind, f.attributes) for f in stored] == [
        (f.path, f.content, f.tags, f.kind, f.attributes) for f in one_by_one
    ]
    a, b = _answers(bulk_target), _answers(single_target)
    assert a.keys() == b.keys()
    for name in a:
        assert a[name] == b[name], name
    assert a["bulk fact topic"]  # the comparison compared something


def test_a_stale_expected_version_in_a_run_refuses_all_of_it(store: Store, events: Events) -> None:
    (taken,) = write(store, events.stored("/x", "taken"))
    count = store.portability.event_count()
    stale = replace(events.stored("/x", "again", fact_id=taken), expected_version=0)
    run = [events.stored("/x", "first"), stale, events.stored("/x", "last")]
    with pytest.raises(ConcurrencyError), store.transaction() as tx:
        store.append(tx, run)
    assert store.portability.event_count() == count
    assert [f.id for f in store.facts_at("/x")] == [taken]
    assert store.verify() == []


def test_vectors_written_together_are_searched_as_vectors_written_one_by_one(
    twin_targets: tuple[str | Path, str | Path], events: Events
) -> None:
    stored = [events.stored("/public/v", f"fact {i}") for i in range(12)]
    first = [FactVector(e.stream_id, pack_vector(_vector(i))) for i, e in enumerate(stored)]
    again = [  # a fact's vector replaced, pieces given, the same fact twice (the last holds)
        FactVector(stored[0].stream_id, pack_vector(_vector(40))),
        FactVector(stored[1].stream_id, pack_vector(_vector(41)), (pack_vector(_vector(3)),) * 2),
        FactVector(stored[2].stream_id, pack_vector(_vector(42))),
        FactVector(stored[2].stream_id, pack_vector(_vector(5))),
    ]
    found = []
    for target, together in zip(twin_targets, (True, False), strict=True):
        store = open_store(target, FixedClock(START))
        try:
            if not store.prepare_vectors(8):
                pytest.skip("this backend has no vector support installed")
            with store.transaction() as tx:
                store.append(tx, stored)
            for batch in (first, again):
                for part in [batch] if together else [[v] for v in batch]:
                    with store.transaction() as tx:
                        store.write_vectors(tx, part, model="m:8")
            found.append(
                [
                    [(f.id, round(s, 6)) for f, s in store.vector_search(pack_vector(q), 12)]
                    for q in (_vector(0), _vector(3), _vector(5), _vector(40))
                ]
            )
        finally:
            store.close()
    assert found[0] == found[1]
    assert [len(hits) for hits in found[0]] == [12] * 4


def _vector(i: int) -> list[float]:
    rng = random.Random(i)
    return [rng.uniform(-1, 1) for _ in range(8)]
