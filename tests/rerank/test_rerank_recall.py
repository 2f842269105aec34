"""``recall(..., rerank=True)``: the best ``rerank_top`` fused candidates are reordered by
the reranker, the rest stay below in their order, and ``--explain``'s parts say so."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from embornal import Memory
from embornal.adapters.rerank.base import FakeReranker
from embornal.domain.recall.ranking import FusionSettings, rerank_places
from embornal.errors import InvalidInput, RerankerError

TOP = 4
QUERY = "harbour ferry"


class Backwards:
    """Scores each text by how late it came: the reranker reverses what it is given."""

    identity = "backwards"

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        self.calls.append((query, tuple(texts)))
        return [float(i) for i in range(len(texts))]


def _fill(mem: Memory, n: int = 9) -> None:
    for i in range(n):
        words = " ".join(["harbour"] * (n - i))  # fewer matches further down
        mem.store(f"/port/p{i}", f"fact {i}: {words} ferry timetable")


@pytest.fixture
def backwards() -> Backwards:
    return Backwards()


@pytest.fixture
def mem(tmp_path: Path, backwards: Backwards, clock: Any) -> Any:
    with Memory.open(
        tmp_path / "m.db", clock=clock, reranker=backwards, fusion=FusionSettings(rerank_top=TOP)
    ) as m:
        _fill(m)
        yield m


def test_rerank_places_hands_the_totals_out_again() -> None:
    assert rerank_places([3.0, 2.0, 1.0], [0.1, 0.9, 0.5]) == [(1, 3.0), (2, 2.0), (0, 1.0)]
    assert rerank_places([2.0, 1.0], [0.5, 0.5]) == [(0, 2.0), (1, 1.0)]  # ties: fused order
    assert rerank_places([], []) == []


def test_rerank_reorders_exactly_the_top_n(mem: Memory, backwards: Backwards) -> None:
    plain = mem.recall(QUERY, mode="keyword", limit=8, reinforce=False)
    ranked = mem.recall(QUERY, mode="keyword", limit=8, reinforce=False, rerank=True)
    before = [h.fact.id for h in plain]
    after = [h.fact.id for h in ranked]
    assert after[:TOP] == before[:TOP][::-1]
    assert after[TOP:] == before[TOP:]
    assert [h.score for h in ranked] == [h.score for h in plain]  # the totals, handed out
    assert [h.parts.rerank_before for h in ranked[:TOP]] == [4, 3, 2, 1]
    assert [h.parts.rerank for h in ranked[:TOP]] == [3.0, 2.0, 1.0, 0.0]
    assert all(h.parts.rerank is None and h.parts.rerank_before is None for h in ranked[TOP:])
    assert all(h.parts.rerank is None for h in plain)
    ((query, texts),) = backwards.calls
    assert query == QUERY and list(texts) == [h.fact.content for h in plain[:TOP]]


def test_the_top_n_may_be_more_than_the_limit(mem: Memory, backwards: Backwards) -> None:
    plain = mem.recall(QUERY, mode="keyword", limit=TOP, reinforce=False)
    ranked = mem.recall(QUERY, mode="keyword", limit=2, reinforce=False, rerank=True)
    assert len(backwards.calls[0][1]) == TOP  # the reranker saw the best TOP, not 2
    assert [h.fact.id for h in ranked] == [plain[3].fact.id, plain[2].fact.id]
    assert all(h.parts.matched_terms for h in ranked)


def test_fewer_candidates_than_n_are_all_reranked(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "m.db", reranker=Backwards()) as m:  # rerank_top 30
        _fill(m, 3)
        plain = m.recall(QUERY, mode="keyword", reinforce=False)
        ranked = m.recall(QUERY, mode="keyword", reinforce=False, rerank=True)
    assert [h.fact.id for h in ranked] == [h.fact.id for h in plain][::-1]


def test_no_query_is_not_reranked(mem: Memory, backwards: Backwards) -> None:
    assert mem.recall(None, reinforce=False, rerank=True)
    assert backwards.calls == []


def test_the_cascade_reranks_its_ordinary_recall(mem: Memory, backwards: Backwards) -> None:
    plain = mem.chronicle.recall(QUERY, mode="keyword", limit=6, reinforce=False)
    ranked = mem.chronicle.recall(QUERY, mode="keyword", limit=6, reinforce=False, rerank=True)
    assert [h.fact.id for h in ranked.hits][:TOP] == [h.fact.id for h in plain.hits][:TOP][::-1]
    assert ranked.hits[0].parts.rerank is not None and len(backwards.calls) == 1


def test_rerank_counts_as_a_recall_of_what_it_returns(mem: Memory) -> None:
    (hit,) = mem.recall(QUERY, mode="keyword", limit=1, rerank=True)
    assert mem.show(hit.fact.id).fact.recall_count == 1


def test_no_reranker_is_a_clear_error(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "m.db") as m:
        _fill(m, 2)
        with pytest.raises(InvalidInput) as info:
            m.recall(QUERY, rerank=True)
        assert "embornal model pull --reranker" in (info.value.hint or "")
        with pytest.raises(InvalidInput):
            m.chronicle.recall(QUERY, rerank=True)
        assert m.recall(QUERY)  # without rerank nothing changes


def test_a_loader_runs_once_and_only_when_asked(tmp_path: Path) -> None:
    made: list[FakeReranker] = []

    def load() -> FakeReranker:
        made.append(FakeReranker())
        return made[-1]

    with Memory.open(tmp_path / "m.db", reranker=load) as m:
        _fill(m, 3)
        m.recall(QUERY)
        assert made == []
        m.recall(QUERY, rerank=True)
        m.as_subject("default").recall(QUERY, rerank=True)
        assert len(made) == 1 and len(made[0].calls) == 2


def test_a_failing_reranker_is_a_reranker_error(tmp_path: Path) -> None:
    class Broken:
        identity = "broken"

        def score(self, query: str, texts: Sequence[str]) -> list[float]:
            raise RuntimeError("boom")

    class Short(Broken):
        def score(self, query: str, texts: Sequence[str]) -> list[float]:
            return [1.0]

    for model in (Broken(), Short()):
        with Memory.open(tmp_path / f"{model.__class__.__name__}.db", reranker=model) as m:
            _fill(m, 3)
            with pytest.raises(RerankerError):
                m.recall(QUERY, rerank=True)


def test_the_onnx_model_orders_the_top_n_by_its_scores(
    tmp_path: Path, onnx_reranker: Any, clock: Any
) -> None:
    top5 = FusionSettings(rerank_top=5)
    with Memory.open(tmp_path / "m.db", clock=clock, reranker=onnx_reranker, fusion=top5) as m:
        _fill(m, 8)
        plain = m.recall(QUERY, mode="keyword", limit=8, reinforce=False)
        ranked = m.recall(QUERY, mode="keyword", limit=8, reinforce=False, rerank=True)
    scores = onnx_reranker.score(QUERY, [h.fact.content for h in plain[:5]])
    expected = sorted(range(5), key=lambda i: (-scores[i], i))
    assert [h.fact.id for h in ranked[:5]] == [plain[i].fact.id for i in expected]
    assert [h.fact.id for h in ranked[5:]] == [h.fact.id for h in plain[5:]]
    assert [h.parts.rerank for h in ranked[:5]] == pytest.approx([scores[i] for i in expected])
