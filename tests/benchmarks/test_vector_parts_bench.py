"""benchmarks/vector_parts.py and bit_recall_dense.py in small: the scan the A/B compares
against finds what the index finds, the exact top is the cosine order, a tiny run of the
dense proxy writes its JSON."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from benchmarks import bit_recall_dense, vector_parts
from embornal.storage.sqlite import bitindex

np = pytest.importorskip("numpy")
if not bitindex.available():
    pytest.skip("numpy >= 2.0 is needed for the bit index", allow_module_level=True)


def test_the_scan_before_0123_returns_the_same_seqs() -> None:
    rng = np.random.default_rng(2)
    floats = rng.standard_normal((5000, 128)).astype(np.float32)
    floats[rng.random(floats.shape) < 0.9] = 0.0  # many ties
    index = bitindex.BitIndex.empty(128).merged(
        np.arange(3, 5003, dtype=np.int64), bitindex.quantize(floats)
    )
    for _ in range(3):
        query = rng.standard_normal(128).astype(np.float32).tobytes()
        for k in (1, 50, 400, 4999):
            assert vector_parts._scan_before_0123(index, query, k) == index.search(query, k)


def test_the_exact_top_is_the_cosine_order() -> None:
    rng = np.random.default_rng(4)
    vecs = rng.standard_normal((120, 16)).astype(np.float32)
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE facts (seq INTEGER PRIMARY KEY, embedding BLOB)")
    conn.executemany(
        "INSERT INTO facts VALUES (?, ?)", [(i + 1, v.tobytes()) for i, v in enumerate(vecs)]
    )
    queries = rng.standard_normal((3, 16)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    got = vector_parts._exact_top(conn, queries, 5)
    cos = queries @ (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).T
    assert got == [list(np.argsort(-row, kind="stable")[:5] + 1) for row in cos]


def test_a_tiny_dense_run_writes_its_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "dense.json"
    argv = ["bit_recall_dense.py", "--size", "3000", "--sizes", "50,400", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    bit_recall_dense.main()
    figures = json.loads(out.read_text())
    assert figures["size"] == 3000
    assert 0.0 <= figures["50"]["top50_share_mean"] <= figures["400"]["top50_share_mean"] <= 1.0
