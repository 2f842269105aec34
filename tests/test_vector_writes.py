"""A batch of vectors is written as one-by-one writes would write it: the same embeddings,
revisions (``vec_rev``, in the batch's order), piece vectors and ``facts_vec`` entries,
with a fact written twice and an id no fact has in the batch (the piece rows, which
nothing orders by, may take other row ids when a fact is written twice)."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path
from typing import Any

from embornal import FixedClock, Memory
from embornal.storage.sqlite import vectors
from embornal.storage.sqlite.connect import Connection, connect


def _blob(n: int) -> bytes:
    return vectors.pack([float(n), 1.0, 0.5, -1.0, 0.25, 2.0, -0.5, float(-n)])


def _memory(path: Path, clock: FixedClock) -> list[str]:
    with Memory.open(path, clock=clock) as mem:
        return [mem.store(f"/v/{n % 3}", f"fact number {n}").id for n in range(12)]


def _state(conn: Connection) -> dict[str, Any]:
    rows = conn.execute("SELECT id, embedding, vec_rev FROM facts ORDER BY seq").fetchall()
    pieces = conn.execute("SELECT fact_id, idx, embedding FROM fact_pieces")
    state = {"facts": [tuple(r) for r in rows], "pieces": sorted(tuple(r) for r in pieces)}
    if vectors.has_index(conn):
        found = conn.execute("SELECT rowid, embedding FROM facts_vec ORDER BY rowid")
        state["facts_vec"] = [tuple(r) for r in found]
    return state


def _write(conn: Connection, items: list[tuple[str, bytes]], pieces: Any) -> None:
    if vectors.has_vec(conn):
        vectors.ensure_index(conn, 8)
    conn.execute("BEGIN IMMEDIATE")
    vectors.write_vectors(conn, items, pieces)
    conn.execute("COMMIT")


def test_a_batch_writes_what_one_by_one_writes_write(tmp_path: Path, clock: FixedClock) -> None:
    ids = _memory(tmp_path / "one.db", clock)
    ids_batch = _memory(tmp_path / "batch.db", clock)
    assert len(ids) == len(ids_batch)

    def items_of(fact_ids: list[str]) -> list[tuple[str, bytes]]:
        chosen = [fact_ids[n] for n in (4, 1, 7, 1, 10)] + ["01NOSUCHFACT0000000000000"]
        return [(fid, _blob(n)) for n, fid in enumerate(chosen)]

    def pieces_of(fact_ids: list[str]) -> dict[str, tuple[bytes, ...]]:
        return {fact_ids[7]: (_blob(70), _blob(71)), fact_ids[1]: (_blob(10),)}

    with closing(connect(tmp_path / "one.db")) as conn:
        for item in items_of(ids):  # the first write of a batch, then one at a time
            _write(conn, [item], pieces_of(ids))
        _write(conn, [(ids[2], _blob(99))], None)  # a rebuild's write keeps the pieces
        one = _state(conn)
    with closing(connect(tmp_path / "batch.db")) as conn:
        _write(conn, items_of(ids_batch), pieces_of(ids_batch))
        _write(conn, [(ids_batch[2], _blob(99))], None)
        batch = _state(conn)
    # The same facts in the same rows (seq order); only their ids differ.
    rename = {b[0]: o[0] for b, o in zip(batch["facts"], one["facts"], strict=True)}
    batch["facts"] = [(rename[r[0]], *r[1:]) for r in batch["facts"]]
    batch["pieces"] = sorted((rename[r[0]], *r[1:]) for r in batch["pieces"])
    assert batch == one
    revs = {r[0]: r[2] for r in one["facts"] if r[2] is not None}
    assert revs[ids[4]] < revs[ids[7]] < revs[ids[1]] < revs[ids[10]] < revs[ids[2]]
    assert {r[0]: r[1] for r in one["facts"]}[ids[1]] == _blob(3)  # written twice: the last
