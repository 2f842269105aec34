"""Long facts keep a vector per piece and are scored by their opening and best piece
(decisions 0011 and 0012): storage, the similarity recall reports, purge, rebuild,
``reindex --all``, both search paths, and migration 0009 from an older memory."""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

import pytest

from embornal import FixedClock, Memory, NewFact
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.domain.recall.chunks import CHUNK_CHARS, chunk_text, piece_similarity
from embornal.storage.sqlite import migrations, vectors
from embornal.storage.sqlite.connect import connect
from embornal.storage.sqlite.migrations import MIGRATIONS, applied

DIMS = 384
# 25 lines of 39 characters of distinct words: one piece of 999 characters.
OPENING = "\n".join(" ".join(f"w{n:02d}{k}" for k in range(8)) for n in range(25))
ENDING = "zebra migration: the zebra migration season on the plains"
LONG = f"{OPENING}\n{ENDING}"


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def _pieces(db_path: Path, fact_id: str) -> list[list[float]]:
    with closing(connect(db_path)) as conn:
        rows = conn.execute(
            "SELECT embedding FROM fact_pieces WHERE fact_id = ? ORDER BY idx", (fact_id,)
        ).fetchall()
    return [list(array("f", r[0])) for r in rows]


@pytest.fixture
def mem(smem: Memory) -> Memory:
    return smem


def test_piece_similarity_is_the_mean_of_opening_and_best() -> None:
    assert piece_similarity([0.2, 0.8, 0.5]) == pytest.approx(0.5)
    assert piece_similarity([0.9, 0.1]) == pytest.approx(0.9)
    assert piece_similarity([0.4]) == pytest.approx(0.4)
    with pytest.raises(ValueError):
        piece_similarity([])


def test_a_long_fact_keeps_a_vector_per_piece_and_a_short_one_none(
    mem: Memory, db_path: Path
) -> None:
    long = mem.store("/docs", LONG)
    short = mem.store("/docs", "a short note on river tides")
    model = FakeEmbedder(DIMS)
    want = model.embed_documents(chunk_text(LONG, CHUNK_CHARS))
    got = _pieces(db_path, long.id)
    assert len(got) == len(want) == 2
    for a, b in zip(got, want, strict=True):
        assert a == pytest.approx(b, abs=1e-6)
    assert _pieces(db_path, short.id) == []


@pytest.mark.parametrize("scan", ["exact", "index"])
def test_recall_scores_a_long_fact_by_its_opening_and_best_piece(
    mem: Memory, monkeypatch: pytest.MonkeyPatch, scan: str
) -> None:
    if scan == "index":  # every memory searches through the bit index
        monkeypatch.setattr(vectors, "EXACT_SCAN_LIMIT", 0)
    long = mem.store("/docs", LONG)
    mem.store("/docs", "a short note on river tides")
    model = FakeEmbedder(DIMS)
    query = model.embed_query("zebra migration")
    sims = [_cos(query, v) for v in model.embed_documents(chunk_text(LONG, CHUNK_CHARS))]
    hits = mem.recall("zebra migration", mode="vector", reinforce=False, under="/docs")
    assert hits[0].fact.id == long.id
    assert hits[0].parts.vector == pytest.approx(piece_similarity(sims), abs=1e-5)
    # The best piece alone lifts it well above what the opening gives.
    assert hits[0].parts.vector > sims[0] + 0.2


def test_purge_drops_the_pieces_and_rebuild_keeps_them(mem: Memory, db_path: Path) -> None:
    keep = mem.store("/docs", LONG)
    gone = mem.store("/docs", LONG.replace("zebra", "okapi"))
    mem.purge(gone.id, reason="private")
    assert _pieces(db_path, gone.id) == []
    before = _pieces(db_path, keep.id)
    mem.rebuild()
    assert _pieces(db_path, keep.id) == before and before
    assert _pieces(db_path, gone.id) == []
    assert mem.verify() == []
    hits = mem.recall("zebra migration", mode="vector", reinforce=False, under="/docs")
    assert [h.fact.id for h in hits] == [keep.id]


def test_supersede_with_a_short_fact_leaves_no_pieces_behind(mem: Memory, db_path: Path) -> None:
    old = mem.store("/docs", LONG)
    new = mem.supersede(old.id, "the zebra migration is over for this year")
    assert _pieces(db_path, new.id) == []
    assert len(_pieces(db_path, old.id)) == 2  # the old fact stays as it was
    hits = mem.recall("zebra migration", mode="vector", reinforce=False, under="/docs")
    assert hits[0].fact.id == new.id


def test_reindex_all_embeds_the_pieces_again(mem: Memory, db_path: Path) -> None:
    fact = mem.store("/docs", LONG)
    with closing(connect(db_path)) as conn:
        conn.execute("DELETE FROM fact_pieces")
        conn.commit()
    result = mem.reindex(everything=True)
    assert result.remaining == 0
    assert len(_pieces(db_path, fact.id)) == 2


def test_migration_0009_on_a_memory_with_long_facts(db_path: Path, clock: FixedClock) -> None:
    """A memory embedded before pieces were kept: its long fact scores by its one vector
    until a plain ``reindex`` gives it pieces (nothing else is embedded again)."""
    model = FakeEmbedder(DIMS)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:8])
        with Memory.open(db_path, clock=clock, vector_width=DIMS) as old:
            long = old.store("/docs", LONG)
            old.store("/docs", "a short note on river tides")
    with closing(connect(db_path)) as conn:
        assert applied(conn)[-1] == "0008_vector_revision"
        conn.execute("BEGIN IMMEDIATE")
        vectors.set_meta(conn, vectors.MODEL_KEY, model.identity)
        rows = conn.execute("SELECT id, content FROM facts").fetchall()
        vectors.write_vectors(
            conn, [(r[0], vectors.pack(model.embed_documents([r[1]])[0])) for r in rows]
        )
        conn.execute("COMMIT")
    with Memory.open(db_path, clock=clock, embedder=model) as mem:
        assert mem.migrations_applied == [m.name for m in MIGRATIONS[8:]]  # 0009 on
        assert _pieces(db_path, long.id) == []
        assert mem.pending_embeddings() == 1  # the long fact waits for its pieces
        query = "w000 w001 w002 zebra migration"
        whole = _cos(model.embed_query(query), model.embed_documents([LONG])[0])
        hits = mem.recall(query, mode="vector", reinforce=False, under="/docs")
        assert hits[0].fact.id == long.id
        assert hits[0].parts.vector == pytest.approx(whole, abs=1e-5)
        result = mem.reindex()  # a plain reindex: only what waits
        assert (result.embedded, result.remaining) == (1, 0)
        assert len(_pieces(db_path, long.id)) == 2
        q = model.embed_query(query)
        sims = [_cos(q, v) for v in model.embed_documents(chunk_text(LONG, CHUNK_CHARS))]
        hits = mem.recall(query, mode="vector", reinforce=False, under="/docs")
        assert hits[0].fact.id == long.id
        assert hits[0].parts.vector == pytest.approx(piece_similarity(sims), abs=1e-5)


def test_the_exact_scan_of_a_memory_wider_than_its_window_matches_brute_force(
    mem: Memory,
) -> None:
    """The exact scan takes the nearest 400 (at least) by each fact's one vector, then
    re-scores them by pieces: past 400 facts the order still is the true one."""
    words = [f"w{i}" for i in range(60)]
    contents = [" ".join(words[(i * 7 + k) % 60] for k in range(6)) for i in range(450)]
    contents.append(LONG)
    mem.store_many([NewFact(f"/wide/f{i}", text) for i, text in enumerate(contents)])
    model = FakeEmbedder(DIMS)
    query = "w3 w10 zebra migration"
    q = model.embed_query(query)

    def truth(text: str) -> float:
        return piece_similarity([_cos(q, v) for v in model.embed_documents(chunk_text(text))])

    want = sorted((truth(text) for text in contents), reverse=True)[:10]
    hits = mem.recall(query, mode="vector", reinforce=False, under="/wide", limit=10)
    assert hits[0].fact.content == LONG  # the best piece wins
    assert [h.parts.vector for h in hits] == pytest.approx(want, abs=1e-5)
    for h in hits:
        assert h.parts.vector == pytest.approx(truth(h.fact.content), abs=1e-5)


def test_a_long_fact_of_one_non_blank_piece_keeps_it_and_does_not_wait(
    mem: Memory, db_path: Path
) -> None:
    fact = mem.store("/docs", "zebra" + " " * 1500)  # the blank rest is no piece
    assert len(_pieces(db_path, fact.id)) == 1
    assert mem.pending_embeddings() == 0
    hits = mem.recall("zebra", mode="vector", reinforce=False, under="/docs")
    assert hits[0].fact.id == fact.id
