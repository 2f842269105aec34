"""benchmarks/store_with_model.py in small: every store timed, the code's origin saved."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import store_with_model
from embornal import Memory


def test_a_small_run_times_each_store(tmp_path: Path) -> None:
    target = tmp_path / "memory.db"
    with Memory.open(target):
        pass
    out = tmp_path / "stores.json"
    argv = ["--target", str(target), "--stores", "5", "--dims", "16", "--out", str(out)]
    assert store_with_model.main(argv) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["target"] == "sqlite" and report["stores"] == 5
    assert report["store_ms"]["n"] == 5 and report["store_ms"]["cpu"]["p50"] > 0
    assert report["embornal_from"].endswith("embornal")
    with Memory.open(target) as memory:  # the stores were written: one untimed, five timed
        assert len(memory.cat("/bench/with-model")) == 6
