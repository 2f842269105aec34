"""The in-process bit index of vector recall: its neighbours, its agreement with the exact
scan, and how it follows the database (other connections, forget/supersede/purge, access
rules, rebuild, migration 0008). Real SQLite files; ``EXACT_SCAN_LIMIT`` is set to 0 so
small memories take the index path."""

from __future__ import annotations

import hashlib
import random
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import closing
from pathlib import Path

import pytest

from embornal import FixedClock, Memory, NewFact
from embornal.adapters.embeddings.base import l2_normalize
from embornal.storage.sqlite import bitindex, migrations, vectors
from embornal.storage.sqlite.connect import connect
from embornal.storage.sqlite.migrations import MIGRATIONS, applied

np = pytest.importorskip("numpy")
if not bitindex.available():
    pytest.skip("numpy >= 2.0 is needed for the bit index", allow_module_level=True)

DIMS = 128
WORDS = [f"w{i}" for i in range(200)]


class DenseEmbedder:
    """Each word a fixed dense random direction, a text the normalized sum of its words:
    the sign bits of such vectors separate texts well, as a real model's do."""

    def __init__(self, dims: int = DIMS) -> None:
        self._dims = dims

    @property
    def identity(self) -> str:
        return f"dense:{self._dims}"

    @property
    def dims(self) -> int:
        return self._dims

    def _word(self, word: str) -> object:
        seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big")
        return np.random.default_rng(seed).standard_normal(self._dims)

    def _embed(self, text: str) -> list[float]:
        words = re.findall(r"\w+", text.casefold()) or [text]
        total = sum((self._word(w) for w in words), np.zeros(self._dims))
        return l2_normalize([float(x) for x in total])

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


@pytest.fixture
def index_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every memory, however small, searches through the bit index."""
    monkeypatch.setattr(vectors, "EXACT_SCAN_LIMIT", 0)


@pytest.fixture
def dmem(db_path: Path, clock: FixedClock, index_path: None) -> Iterator[Memory]:
    with Memory.open(db_path, clock=clock, embedder=DenseEmbedder()) as mem:
        mem.reindex()  # the guide facts were written before the model
        yield mem


def _corpus(count: int, seed: int = 3) -> list[NewFact]:
    rng = random.Random(seed)
    return [NewFact(f"/c/{i % 7}", " ".join(rng.sample(WORDS, 4))) for i in range(count)]


def _indexed(mem: Memory) -> int:
    """How many codes the memory's in-process index holds (0: never loaded)."""
    index, _ = mem._store._bits._state
    return 0 if index is None else len(index)


def _ids(mem: Memory, query: str, limit: int = 10) -> list[str]:
    return [h.fact.id for h in mem.recall(query, mode="vector", limit=limit, reinforce=False)]


# -- the index itself --------------------------------------------------------------------


def _random_index(n: int, dims: int, seed: int) -> tuple[bitindex.BitIndex, object]:
    rng = np.random.default_rng(seed)
    floats = rng.standard_normal((n, dims)).astype(np.float32)
    seqs = rng.permutation(np.arange(10, 10 + 3 * n, 3, dtype=np.int64))
    index = bitindex.BitIndex.empty(dims).merged(seqs, bitindex.quantize(floats))
    return index, dict(zip(seqs.tolist(), floats, strict=True))


def _hamming(a: object, b: object) -> int:
    return int(np.count_nonzero((np.asarray(a) > 0) != (np.asarray(b) > 0)))


@pytest.mark.parametrize(("n", "dims"), [(1500, 384), (700, 72), (300, 768)])
def test_nearest_codes_equal_a_brute_force_hamming_scan(n: int, dims: int) -> None:
    index, floats = _random_index(n, dims, seed=n)
    assert len(index) == n and list(index.seqs) == sorted(floats)
    rng = np.random.default_rng(1)
    for _ in range(5):
        query = rng.standard_normal(dims).astype(np.float32)
        distance = {seq: _hamming(v, query) for seq, v in floats.items()}
        ranked = sorted(distance.values())
        for k in (1, 7, 100, n - 1, n, n + 5):
            got = index.search(query.tobytes(), k)
            assert len(got) == len(set(got)) == min(k, n)
            # The same distances as the k nearest (which of several ties: any).
            assert sorted(distance[s] for s in got) == ranked[:k]


def test_codes_are_sqlite_vecs_binary_quantization(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    floats = rng.standard_normal((20, 384)).astype(np.float32)
    floats[0, :10] = 0.0  # zero is not > 0
    ours = bitindex.quantize(floats)
    with closing(connect(tmp_path / "q.db")) as conn:
        for row, code in zip(floats, ours, strict=True):
            theirs = conn.execute("SELECT vec_quantize_binary(?)", (row.tobytes(),)).fetchone()[0]
            assert code.tobytes() == bytes(theirs)


def test_merging_replaces_codes_and_keeps_seqs_sorted() -> None:
    index, floats = _random_index(50, 128, seed=2)
    far = np.full(128, -1.0, np.float32)
    near = np.full(128, 1.0, np.float32)
    # One new seq before all others, one in the middle, and one existing seq changed.
    changed = sorted(floats)[25]
    seqs = np.array([1, 41, changed], np.int64)
    index2 = index.merged(seqs, bitindex.quantize(np.stack([far, near, near])))
    assert list(index2.seqs) == sorted({*floats, 1, 41})
    assert index2.codes.flags.f_contiguous
    assert sorted(index2.search(near.tobytes(), 2)) == sorted([41, changed])
    assert index2.search(far.tobytes(), 1) == [1]
    # The earlier index is unchanged (a search may still be using it).
    assert len(index) == 50 and 41 not in index.search(near.tobytes(), 50)


# -- the index path against the exact scan ----------------------------------------------


def test_the_index_path_finds_what_the_exact_scan_finds(
    dmem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    dmem.store_many(_corpus(900))  # more than the 400 codes the index hands on first
    rng = random.Random(11)
    queries = [" ".join(rng.sample(WORDS, 2)) for _ in range(25)]
    through_index = [_ids(dmem, q) for q in queries]
    assert _indexed(dmem) > 900
    monkeypatch.setattr(bitindex, "_AVAILABLE", False)  # numpy missing: facts_vec instead
    through_vec0 = [_ids(dmem, q) for q in queries]
    monkeypatch.setattr(vectors, "EXACT_SCAN_LIMIT", 10**9)
    exact = [_ids(dmem, q) for q in queries]
    for want, got, vec0 in zip(exact, through_index, through_vec0, strict=True):
        assert want, "every query shares words with some facts"
        assert set(want[:3]) <= set(got) and set(want[:3]) <= set(vec0)
    assert sum(want == got for want, got in zip(exact, through_index, strict=True)) >= 20


# -- following the database --------------------------------------------------------------


def test_a_fact_stored_through_another_connection_is_found(
    db_path: Path, clock: FixedClock, index_path: None
) -> None:
    with Memory.open(db_path, clock=clock, embedder=DenseEmbedder()) as first:
        first.store_many(_corpus(60))
        assert _ids(first, "w1 w2")
        loaded = _indexed(first)
        with Memory.open(db_path, clock=clock, embedder=DenseEmbedder()) as second:
            new = second.store("/other", "zebra quokka narwhal")
            old = second.store("/other", "okapi tapir gecko")
            fixed = second.supersede(old.id, "okapi tapir iguana")
        assert _ids(first, "zebra quokka narwhal", 1) == [new.id]
        assert _ids(first, "okapi tapir gecko", 1) == [fixed.id]
        assert _indexed(first) == loaded + 3


def test_searching_threads_and_a_writer_share_one_index(
    dmem: Memory, db_path: Path, clock: FixedClock
) -> None:
    dmem.store_many(_corpus(200))
    errors: list[BaseException] = []
    done = threading.Event()

    def search() -> None:
        try:
            while not done.is_set():
                dmem.recall("w3 w4", mode="vector", reinforce=False)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=search) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        with Memory.open(db_path, clock=clock, embedder=DenseEmbedder()) as writer:
            stored = [writer.store("/t", f"thread fact number{i} w{i}") for i in range(15)]
    finally:
        done.set()
        for t in threads:
            t.join()
    assert errors == []
    for fact in stored:
        assert _ids(dmem, fact.content, 1) == [fact.id]


def test_forgotten_superseded_and_purged_facts_stay_out(dmem: Memory) -> None:
    dmem.store_many(_corpus(100))
    gone = dmem.store("/x", "alpha bravo charlie")
    old = dmem.store("/x", "delta echo foxtrot")
    purged = dmem.store("/x", "golf hotel india")
    for fact in (gone, old, purged):
        assert _ids(dmem, fact.content, 1) == [fact.id]
    dmem.forget(gone.id, reason="wrong")
    new = dmem.supersede(old.id, "delta echo juliet")
    dmem.purge(purged.id, reason="private")
    assert gone.id not in _ids(dmem, gone.content, 50)
    assert old.id not in _ids(dmem, old.content, 50)
    assert _ids(dmem, old.content, 1) == [new.id]
    assert purged.id not in _ids(dmem, purged.content, 50)
    dmem.restore(gone.id, reason="right after all")
    assert _ids(dmem, gone.content, 1) == [gone.id]


def test_the_access_filter_applies_and_the_candidate_set_widens(dmem: Memory) -> None:
    alice = dmem.as_subject("alice")
    dmem.policy_add("p", ["alice", "path:/*", "write", "allow"])
    dmem.policy_add("p", ["alice", "tag:owner=alice", "read", "allow"])
    # 700 facts nearer to the query than alice's one, none of them hers: the first 400
    # codes hold nothing she may read.
    dmem.store_many([NewFact("/d", f"kilo lima mike {w}") for w in WORDS * 3 + WORDS[:100]])
    hers = alice.store("/a", "kilo november")
    assert _ids(alice, "kilo lima mike") == [hers.id]
    assert hers.id not in _ids(dmem, "kilo lima mike", 50)
    assert _ids(dmem.as_subject("bob"), "kilo lima mike") == []


def test_vectors_are_found_after_a_rebuild(db_path: Path, dmem: Memory, clock: FixedClock) -> None:
    facts = dmem.store_many(_corpus(80))
    purged = dmem.store("/x", "golf hotel india")
    dmem.purge(purged.id, reason="private")
    assert _ids(dmem, facts[0].content, 1) == [facts[0].id]  # the index is loaded
    with closing(connect(db_path)) as conn:
        before = conn.execute("SELECT max(vec_rev) FROM facts").fetchone()[0]
    dmem.rebuild()
    assert dmem.verify() == [] and dmem.pending_embeddings() == 0
    with closing(connect(db_path)) as conn:
        high, unrevised = conn.execute(
            "SELECT max(vec_rev), "
            "count(*) FILTER (WHERE embedding IS NOT NULL AND vec_rev IS NULL) FROM facts"
        ).fetchone()
    # Each fact kept its seq and its vector: its revision too, never one lower.
    assert high >= before and unrevised == 0
    for fact in facts[::10]:
        assert _ids(dmem, fact.content, 1) == [fact.id]
    assert purged.id not in _ids(dmem, purged.content, 50)
    with Memory.open(db_path, clock=clock, embedder=DenseEmbedder()) as fresh:
        assert _ids(fresh, facts[1].content, 1) == [facts[1].id]


def test_a_fact_whose_seq_a_rebuild_changes_is_found_again(db_path: Path, dmem: Memory) -> None:
    """A damaged file numbered a fact out of log order: the rebuild gives it its seq back,
    and its vector a revision above every earlier one, so a loaded index follows."""
    facts = dmem.store_many(_corpus(80))
    moved = facts[5]
    assert _ids(dmem, moved.content, 1) == [moved.id]  # the index is loaded
    with closing(connect(db_path)) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        before = conn.execute("SELECT max(vec_rev) FROM facts").fetchone()[0]
        conn.execute("UPDATE facts SET seq = seq + 100000 WHERE id = ?", (moved.id,))
    dmem.rebuild()
    assert dmem.verify() == []
    with closing(connect(db_path)) as conn:
        seq, rev = conn.execute(
            "SELECT seq, vec_rev FROM facts WHERE id = ?", (moved.id,)
        ).fetchone()
        (in_vec,) = conn.execute(
            "SELECT count(*) FROM facts_vec WHERE rowid = ?", (seq,)
        ).fetchone()
    assert seq < 100000 and rev > before and in_vec == 1
    assert _ids(dmem, moved.content, 1) == [moved.id]


# -- migration 0008 -----------------------------------------------------------------------


def _at_0007(db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A memory written by a build without 0008, with vectors; the ids of its facts."""
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:7])
        with Memory.open(db_path, clock=clock, vector_width=DIMS) as old:
            ids = [f.id for f in old.store_many(_corpus(40))]
    embedder = DenseEmbedder()
    with closing(connect(db_path)) as conn:
        assert applied(conn)[-1] == "0007_log_guards"
        conn.execute("BEGIN IMMEDIATE")
        vectors.set_meta(conn, vectors.MODEL_KEY, embedder.identity)
        for row in conn.execute("SELECT seq, id, content FROM facts").fetchall():
            blob = vectors.pack(embedder.embed_query(row[2]))
            conn.execute("UPDATE facts SET embedding = ? WHERE seq = ?", (blob, row[0]))
            conn.execute(
                "INSERT INTO facts_vec (rowid, embedding) VALUES (?, vec_quantize_binary(?))",
                (row[0], blob),
            )
        conn.execute("COMMIT")
    return ids


def test_migration_0008_numbers_the_vectors_of_an_old_memory(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch, index_path: None
) -> None:
    ids = _at_0007(db_path, clock, monkeypatch)
    with Memory.open(db_path, clock=clock, embedder=DenseEmbedder()) as mem:
        assert mem.migrations_applied == [m.name for m in MIGRATIONS[7:]]  # 0008 on
        assert mem.pending_embeddings() == 0
        for fact_id in ids[::8]:
            assert _ids(mem, mem.show(fact_id).fact.content, 1) == [fact_id]
        new = mem.store("/new", "papa quebec romeo")
        assert _ids(mem, "papa quebec romeo", 1) == [new.id]
        assert mem.verify() == []
    with closing(connect(db_path)) as conn:
        renumbered = conn.execute(
            "SELECT count(*) FROM facts WHERE embedding IS NOT NULL AND vec_rev IS NOT seq "
            "AND id <> ?",
            (new.id,),
        ).fetchone()[0]
        assert renumbered == 0  # the old vectors count as written in seq order
        rev, top = conn.execute(
            "SELECT vec_rev, (SELECT max(seq) FROM facts WHERE id <> ?) FROM facts WHERE id = ?",
            (new.id, new.id),
        ).fetchone()
        assert rev == top + 1
        plan = " ".join(
            str(r[3]) for r in conn.execute("EXPLAIN QUERY PLAN SELECT max(vec_rev) FROM facts")
        )
        assert "facts_vec_rev" in plan


def test_migration_0008_on_a_blank_memory_at_0007(
    db_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch, index_path: None
) -> None:
    with monkeypatch.context() as m, closing(connect(db_path)) as conn:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:7])
        migrations.migrate(conn, clock)
    with Memory.open(db_path, clock=clock, embedder=DenseEmbedder()) as mem:
        assert mem.migrations_applied == [m.name for m in MIGRATIONS[7:]]  # 0008 on
        mem.reindex()
        fact = mem.store("/new", "sierra tango uniform")
        assert _ids(mem, "sierra tango uniform", 1) == [fact.id]
    with closing(connect(db_path)) as conn:
        revs = [r[0] for r in conn.execute("SELECT vec_rev FROM facts ORDER BY vec_rev")]
        assert revs == list(range(1, len(revs) + 1))


@pytest.mark.parametrize("sparse", [False, True])
def test_the_chunked_scan_and_the_sampled_bound_keep_the_first_of_tied_codes(
    monkeypatch: pytest.MonkeyPatch, sparse: bool
) -> None:
    """Many chunks and a small sample (a bound guessed low, then raised): the same
    positions as counting every distance, ties taken first in seq order."""
    monkeypatch.setattr(bitindex, "SCAN_CHUNK", 64)
    monkeypatch.setattr(bitindex, "SAMPLE", 16)
    rng = np.random.default_rng(5)
    n, dims = 3000, 192
    floats = rng.standard_normal((n, dims)).astype(np.float32)
    if sparse:  # few positive coordinates: a handful of distances, each shared by many
        floats[rng.random((n, dims)) < 0.97] = 0.0
    index = bitindex.BitIndex(
        dims, np.arange(1, n + 1, dtype=np.int64), np.asfortranarray(bitindex.quantize(floats))
    )
    for _ in range(4):
        query = rng.standard_normal(dims).astype(np.float32)
        distance = np.array([_hamming(v, query) for v in floats])
        order = np.argsort(distance, kind="stable")  # ties: the lower seq first
        for k in (1, 9, 400, n - 1):
            assert sorted(index.search(query.tobytes(), k)) == sorted((order[:k] + 1).tolist())


# -- inside a write transaction: a store's near-duplicates by meaning ---------------------


def test_a_store_finds_its_near_duplicate_through_the_index(dmem: Memory) -> None:
    """The search a store makes inside its transaction reads the bit index (the committed
    codes) instead of scanning every vector."""
    dmem.store_many(_corpus(300))  # a batch of over 100: no search for near-duplicates
    assert _indexed(dmem) == 0  # nothing has read the index yet
    first = dmem.store("/notes/a", "w1 w2 w3 w4 w5 w6")
    assert _indexed(dmem) >= 300  # the store's own search loaded it (without ``first``)
    again = dmem.store("/notes/b", "w1 w2 w3 w4 w5 w6")
    (c,) = dmem.conflicts()
    assert [m.id for m in c.members] == [first.id, again.id]
    assert c.findings == ("near-duplicate text (meaning)",)


def test_near_duplicates_within_one_batch_are_found(dmem: Memory) -> None:
    """The facts of the transaction itself are not in the index (not committed yet);
    they are candidates all the same."""
    dmem.store_many(_corpus(300))
    dmem.recall("w1", mode="vector", reinforce=False)  # the index loaded before the batch
    loaded = _indexed(dmem)
    first, again = dmem.store_many(
        [NewFact("/notes/a", "w7 w8 w9 w10 w11 w12"), NewFact("/notes/b", "w7 w8 w9 w10 w11 w12")]
    )
    (c,) = dmem.conflicts()
    assert {m.id for m in c.members} == {first.id, again.id}
    assert _indexed(dmem) == loaded  # nothing of the transaction entered it


def test_what_a_transaction_writes_enters_the_index_only_once_committed(
    db_path: Path, clock: FixedClock, index_path: None
) -> None:
    with Memory.open(db_path, clock=clock, embedder=DenseEmbedder()) as mem:
        mem.store_many(_corpus(50))
        store = mem._store
        with pytest.raises(RuntimeError, match="rolled back"), store.transaction() as tx:
            (seq,) = tx.execute("SELECT seq FROM facts WHERE embedding IS NOT NULL").fetchone()
            tx.execute("UPDATE facts SET vec_rev = vec_rev + 1000 WHERE seq = ?", (seq,))
            coarse = store._bit_index(DIMS)  # a store's search, inside its transaction
            assert isinstance(coarse, bitindex.OwnWrites)
            assert coarse.own == [seq]  # the transaction's own write: a candidate
            assert seq in {int(s) for s in coarse.index.seqs.tolist()}  # its old code
            top = int(tx.execute("SELECT max(vec_rev) FROM facts").fetchone()[0])
            raise RuntimeError("rolled back")
        index, rev = store._bits._state
        assert index is not None and rev < top  # the rolled-back revision never entered
        assert store._bit_index(DIMS) is not None
        assert store._bits._state[1] == rev  # and the committed state still matches it
