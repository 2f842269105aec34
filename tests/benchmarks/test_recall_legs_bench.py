"""benchmarks/recall_legs.py in small: a new memory loaded, both ways timed, the same hits
either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import recall_legs
from embornal import Memory


def test_a_small_run_loads_times_both_ways_with_the_same_hits(tmp_path: Path) -> None:
    target = tmp_path / "new.db"
    out = tmp_path / "legs.json"
    argv = ["--target", str(target), "--load", "400", "--queries", "6", "--rounds", "2"]
    assert recall_legs.main([*argv, "--dims", "16", "--out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["target"] == "sqlite" and report["load"]["bulk_facts_per_s"] > 0
    assert report["queries_with_other_hits"] == 0
    assert [r["round"] for r in report["rounds"]] == [1, 2]
    for way in recall_legs.WAYS:
        assert report["summary"][way]["p50_median_of_rounds"] > 0
        assert all(r[way]["cpu_p50"] > 0 for r in report["rounds"])
    with Memory.open(target) as memory:  # the load's facts are there
        assert len(memory.recall(limit=5, reinforce=False)) == 5
    with pytest.raises(SystemExit, match="exists"):  # --load makes a new memory only
        recall_legs.main([*argv, "--dims", "16", "--out", str(out)])
