"""benchmarks/recall_legs.py in small: both ways timed, the same hits either way."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.backends import QueryCache
from benchmarks.http_load import Corpus

from benchmarks import recall_legs
from embornal import Memory


def test_a_small_run_times_both_ways_with_the_same_hits(tmp_path: Path) -> None:
    target = tmp_path / "memory.db"
    corpus = Corpus.make(300)
    embedder = QueryCache(16)
    with Memory.open(target, embedder=embedder, vector_width=16) as memory:
        for i in range(300):
            memory.store(corpus.paths[i % len(corpus.paths)], corpus.sentence())
    out = tmp_path / "legs.json"
    argv = ["--target", str(target), "--queries", "6", "--rounds", "2", "--dims", "16"]
    assert recall_legs.main([*argv, "--out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["target"] == "sqlite"
    assert report["queries_with_other_hits"] == 0
    assert [r["round"] for r in report["rounds"]] == [1, 2]
    for way in recall_legs.WAYS:
        assert report["summary"][way]["p50_median_of_rounds"] > 0
        assert all(r[way]["cpu_p50"] > 0 for r in report["rounds"])
