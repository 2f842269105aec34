"""Recall by meaning through the service API, with the deterministic fake embedder."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from embornal import FixedClock, Memory
from embornal.adapters.embeddings.base import FailingEmbedder, FakeEmbedder
from embornal.domain.recall.ranking import FusionSettings
from embornal.errors import ConfigError, InvalidInput, VectorWidthMismatch

DIMS = 384


def test_store_embeds_at_write_time(smem: Memory) -> None:
    smem.store("/pets", "the cat sleeps on the warm mat")
    assert smem.pending_embeddings() == 0


@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid", "auto"])
def test_every_mode_finds_the_fact(smem: Memory, mode: str) -> None:
    fact = smem.store("/pets", "the cat sleeps on the warm mat")
    smem.store("/cars", "engines need oil changes")
    hits = smem.recall("cat sleeps", mode=mode, reinforce=False)
    assert hits and hits[0].fact.id == fact.id


@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid"])
def test_cjk_and_accented_queries_in_every_mode(smem: Memory, mode: str) -> None:
    cjk = smem.store("/notes", "数据库 记忆 系统")
    accented = smem.store("/notes", "le café est fermé")
    assert smem.recall("记忆", mode=mode, reinforce=False)[0].fact.id == cjk.id
    assert smem.recall("café", mode=mode, reinforce=False)[0].fact.id == accented.id


def test_explain_shows_every_component_in_hybrid(smem: Memory) -> None:
    smem.store("/pets", "the cat sleeps on the warm mat")
    hit = smem.recall("cat", mode="hybrid", reinforce=False)[0]
    parts = hit.parts.as_dict()
    keys = ("keyword", "bm25", "keyword_rank", "vector", "vector_scaled", "vector_rank")
    for key in (*keys, "strength", "total"):
        assert parts[key] is not None, key
    assert hit.parts.method == "hybrid-linear+strength"


def test_rrf_fusion_is_selectable(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(
        db_path, clock=clock, embedder=FakeEmbedder(DIMS), fusion=FusionSettings(method="rrf")
    ) as mem:
        mem.store("/pets", "the cat sleeps")
        hit = mem.recall("cat", mode="hybrid", reinforce=False)[0]
        assert hit.parts.method == "hybrid-rrf+strength"
        assert hit.parts.keyword_rank == 1 and hit.parts.vector_rank == 1


def test_linear_fusion_is_selectable(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(
        db_path,
        clock=clock,
        embedder=FakeEmbedder(DIMS),
        fusion=FusionSettings(method="linear", vector_weight=1.0, vector_scale="cosine"),
    ) as mem:
        mem.store("/pets", "the cat sleeps")
        hit = mem.recall("cat", mode="hybrid", reinforce=False)[0]
        assert hit.parts.method == "hybrid-linear+strength"
        assert hit.score == pytest.approx(
            (hit.parts.keyword or 0) + (hit.parts.vector or 0) + 0.5 * hit.strength
        )


def test_a_failing_model_leaves_facts_pending_and_reindex_drains_them(
    db_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock, embedder=FailingEmbedder(DIMS)) as mem:
        fact = mem.store("/x", "stored without a vector")
        assert mem.show(fact.id).fact.content == "stored without a vector"
        assert mem.pending_embeddings() >= 1
        # auto falls back to keyword when the model cannot embed the query
        assert mem.recall("vector", reinforce=False)[0].fact.id == fact.id
    with Memory.open(db_path, clock=clock, embedder=FakeEmbedder(DIMS, name="fail")) as mem:
        before = mem.pending_embeddings()
        progress: list[tuple[int, int]] = []
        result = mem.reindex(limit=2, progress=lambda done, total: progress.append((done, total)))
        assert result.embedded == 2 and progress[-1] == (2, 2)
        assert mem.pending_embeddings() == before - 2
        mem.reindex()
        assert mem.pending_embeddings() == 0
        assert mem.recall("vector", mode="vector", reinforce=False)[0].fact.id == fact.id


def test_a_width_mismatch_stops_recall_by_meaning_until_reindex_all(
    db_path: Path, clock: FixedClock
) -> None:
    with Memory.open(db_path, clock=clock, embedder=FakeEmbedder(DIMS, name="narrow")) as mem:
        fact = mem.store("/x", "alpha beta gamma")
    # a model of another width: the memory opens, keyword recall works, meaning stops
    with Memory.open(db_path, clock=clock, embedder=FakeEmbedder(768, name="wide")) as mem:
        assert [h.fact.id for h in mem.recall("alpha", reinforce=False)] == [fact.id]
        with pytest.raises(VectorWidthMismatch) as info:
            mem.recall("alpha", mode="vector", reinforce=False)
        assert "reindex --all" in info.value.hint
        with pytest.raises(VectorWidthMismatch):
            mem.reindex()
        result = mem.reindex(everything=True)
        assert result.embedded >= 1 and result.remaining == 0
        hits = mem.recall("alpha", mode="vector", reinforce=False)
        assert [h.fact.id for h in hits] == [fact.id]
    # the memory is 768-d now: the old width is the mismatch
    with Memory.open(db_path, clock=clock, embedder=FakeEmbedder(768, name="wide")) as mem:
        assert mem.recall("alpha", mode="vector", reinforce=False)[0].fact.id == fact.id
    narrow = FakeEmbedder(DIMS, name="narrow")
    with (
        Memory.open(db_path, clock=clock, embedder=narrow) as mem,
        pytest.raises(VectorWidthMismatch),
    ):
        mem.recall("alpha", mode="vector", reinforce=False)


def test_a_changed_model_asks_for_reindex_all(db_path: Path, clock: FixedClock) -> None:
    with Memory.open(db_path, clock=clock, embedder=FakeEmbedder(DIMS, name="one")) as mem:
        mem.store("/x", "alpha beta")
    with Memory.open(db_path, clock=clock, embedder=FakeEmbedder(DIMS, name="two")) as mem:
        with pytest.raises(ConfigError, match="one:384") as info:
            mem.recall("alpha", mode="vector")
        assert "reindex --all" in info.value.hint
        with pytest.raises(ConfigError):
            mem.reindex()
        mem.reindex(everything=True)
        assert mem.recall("alpha", mode="vector", reinforce=False)[0].fact.content == "alpha beta"


def test_vector_mode_without_a_model_is_a_clear_error(memory: Memory) -> None:
    with pytest.raises(InvalidInput, match="embedding model"):
        memory.recall("x", mode="vector")
    with pytest.raises(InvalidInput):
        memory.recall("x", mode="telepathy")


def test_rebuild_keeps_vectors_and_purge_drops_them(smem: Memory) -> None:
    fact = smem.store("/pets", "the cat sleeps")
    smem.rebuild()
    assert smem.pending_embeddings() == 0
    assert smem.verify() == []
    smem.purge(fact.id, reason="private")
    assert smem.recall("cat", mode="vector", reinforce=False) == [] or all(
        h.fact.id != fact.id for h in smem.recall("cat", mode="vector", reinforce=False)
    )


def test_access_filter_applies_to_vector_recall(smem: Memory) -> None:
    secret = smem.as_subject("alice")
    smem.policy_add("p", ["alice", "path:/*", "write", "allow"])
    smem.policy_add("p", ["alice", "tag:owner=alice", "read", "allow"])
    mine = secret.store("/a", "alice likes green tea")
    smem.store("/a", "default likes green tea")
    found = {h.fact.id for h in secret.recall("green tea", mode="vector", reinforce=False)}
    assert found == {mine.id}


class _ReadsTheOpening(FakeEmbedder):
    """A fake model that, like a real one, reads only the first 1,000 characters."""

    def __init__(self, dims: int) -> None:
        super().__init__(dims)
        self.seen: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.seen.extend(texts)
        return super().embed_documents([t[:1000] for t in texts])


def test_a_long_fact_is_embedded_in_pieces_and_found_by_its_end(
    db_path: Path, clock: FixedClock
) -> None:
    model = _ReadsTheOpening(DIMS)
    # 25 lines of 39 characters of distinct words: exactly one piece of 999 characters.
    filler = "\n".join(" ".join(f"w{n:02d}{k}" for k in range(8)) for n in range(25))
    with Memory.open(db_path, clock=clock, embedder=model) as mem:
        mem.reindex()
        model.seen.clear()
        long = mem.store("/docs", filler + "\nzebra migration: the zebra migration season")
        mem.store("/docs", "a short note on river tides")
        assert len(model.seen) > 2 and all(len(piece) <= 1000 for piece in model.seen[:-1])
        hits = mem.recall("zebra migration", mode="vector", reinforce=False, under="/docs")
        # Read whole, the model would see only the opening lines and miss the zebras.
        assert [h.fact.id for h in hits] == [long.id]


def test_default_hybrid_total_adds_up_from_its_parts(smem: Memory) -> None:
    """linear, minmax: keyword + rescaled cosine (+ neighbours) + 0.5 × strength
    (+ the spine: the guide's facts are the system's, at its lower prior)."""
    smem.store("/pets", "the cat sleeps on the warm mat")
    smem.store("/pets/other", "a cat and a dog share the garden")
    smem.store("/food", "warm bread in the morning")
    hits = smem.recall("warm cat", mode="hybrid", reinforce=False, limit=5)
    assert len(hits) >= 2
    scaled = [h.parts.vector_scaled for h in hits if h.parts.vector_scaled is not None]
    assert max(scaled) == pytest.approx(1.0)
    for h in hits:
        p = h.parts
        want = (
            (p.keyword or 0.0)
            + FusionSettings().vector_weight * (p.vector_scaled or 0.0)
            + (p.neighbour or 0.0)
            + 0.5 * p.strength
            + p.spine
        )
        assert h.score == pytest.approx(want)


class _Cosines(FakeEmbedder):
    """A fake model whose query is one axis and each text lies at a set cosine to it."""

    def __init__(self, cosines: dict[str, float]) -> None:
        super().__init__(DIMS, name="cosines")
        self.cosines = cosines

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._at(n + 1, self.cosines.get(t, 0.0)) for n, t in enumerate(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self._at(0, 1.0)

    def _at(self, axis: int, cosine: float) -> list[float]:
        vector = [0.0] * DIMS
        vector[0] = cosine
        vector[1 + axis % (DIMS - 1)] = (1.0 - cosine * cosine) ** 0.5
        return vector


def test_the_last_keyword_match_keeps_what_it_matched_in_hybrid(
    db_path: Path, clock: FixedClock
) -> None:
    """A model whose cosines lie in a narrow band (e5: unrelated texts at 0.8 and more)
    gives every fact a vector score near the best's; the keyword list's last match must not
    score 0 beside them (decision 0172), or facts that only the vector list holds take its
    place."""
    texts = {
        "melanie bought a necklace for her mother": 0.86,
        "the shop was busy, so she bought it later": 0.83,
        "what a lovely evening by the lake": 0.87,
        "the painting class starts on monday": 0.87,
        "a long walk with the dogs at dawn": 0.60,
    }
    model = _Cosines(texts)
    with Memory.open(db_path, clock=clock, embedder=model) as mem:
        for n, text in enumerate(texts):
            mem.store(f"/t/{n}", text)

    def order(settings: FusionSettings) -> list[str]:
        with Memory.open(db_path, clock=clock, embedder=model, fusion=settings) as mem:
            hits = mem.recall("bought necklace", mode="hybrid", reinforce=False, under="/t")
            return [h.fact.content for h in hits]

    later = "the shop was busy, so she bought it later"
    assert order(FusionSettings())[:2] == [*texts][:2]
    # Rescaled over the candidates, the second match scores 0 for its words and falls below
    # both facts that only the vector list holds.
    assert order(FusionSettings(keyword_scale="minmax")).index(later) == 3
