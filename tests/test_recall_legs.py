"""Hybrid recall's keyword and vector parts side by side (decision 0125)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.errors import NotFound
from embornal.service.recall.legs import side_by_side


class _Where(FakeEmbedder):
    """The fake embedder, noting which thread embeds each query."""

    def __init__(self, dims: int) -> None:
        super().__init__(dims)
        self.threads: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.threads.append(threading.current_thread().name)
        return super().embed_query(text)


def test_side_by_side_runs_the_second_part_on_a_worker() -> None:
    here, aside = side_by_side(
        lambda: threading.current_thread().name,
        lambda: threading.current_thread().name,
        parallel=True,
    )
    assert here == threading.current_thread().name
    assert aside.startswith("embornal-recall")
    assert side_by_side(lambda: 1, lambda: threading.current_thread().name, parallel=False) == (
        1,
        threading.current_thread().name,
    )


def test_the_parts_overlap_in_time() -> None:
    """Each part waits for the other to have started: one after the other, this would
    never end (the wait times out and the test fails)."""
    started = [threading.Event(), threading.Event()]

    def part(mine: int) -> bool:
        started[mine].set()
        return started[1 - mine].wait(timeout=10)

    assert side_by_side(lambda: part(0), lambda: part(1), parallel=True) == (True, True)


def test_an_error_of_the_first_part_waits_for_the_second() -> None:
    finished = threading.Event()

    def slow() -> None:
        time.sleep(0.2)
        finished.set()

    def fails() -> None:
        raise NotFound("no such fact")

    with pytest.raises(NotFound):
        side_by_side(fails, slow, parallel=True)
    assert finished.is_set()  # the worker's reads ended before the error reached the caller


def test_an_error_of_the_second_part_is_raised() -> None:
    def fails() -> int:
        raise NotFound("no such fact")

    with pytest.raises(NotFound, match="no such fact"):
        side_by_side(lambda: 1, fails, parallel=True)


def test_hybrid_recall_embeds_on_a_worker_with_the_same_hits(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = _Where(64)
    mem = Memory.open(db_path, clock=clock, embedder=embedder)
    try:
        for i in range(30):
            mem.store(f"/notes/n{i % 5}", f"the heron {i} waits by the river number {i * 7}")
        side = mem.recall("heron river", limit=10, mode="hybrid", reinforce=False)
        assert embedder.threads[-1].startswith("embornal-recall")
        store = mem._ctx.store
        monkeypatch.setattr(store, "reads_aside", lambda: False)
        turn = mem.recall("heron river", limit=10, mode="hybrid", reinforce=False)
        assert embedder.threads[-1] == threading.current_thread().name
    finally:
        mem.close()
    assert [h.fact.id for h in side] == [h.fact.id for h in turn]
    assert [h.score for h in side] == [h.score for h in turn]
    assert len(side) == 10
