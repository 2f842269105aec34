"""benchmarks/store_parts.py and recall_write.py in small: a memory built once, then a single
store's parts and a reinforcing recall's write timed on copies of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import recall_write, store_parts


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("built") / "memory.db"
    assert store_parts.main(["--build", "1500", "--memory", str(db), "--no-markdown"]) == 0
    return db


def test_a_store_is_timed_part_by_part(built: Path, tmp_path: Path) -> None:
    out, results = tmp_path / "parts.json", tmp_path / "RESULTS.md"
    argv = ["--memory", str(built), "--facts", "1500", "--stores", "20", "--warmup", "5"]
    assert store_parts.main([*argv, "--out", str(out), "--results-md", str(results)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    parts = {r["part"]: r for r in report["parts"]}
    for part in ("sql: COMMIT (FTS5 flush, WAL pages)", "sql: the event row", "sql: the FTS row"):
        assert parts[part]["calls"] >= 20
    assert "python: the keyword document" in parts and "the rest" in parts
    assert report["cpu_ms"]["n"] == 20 and report["cpu_ms"]["p50"] > 0
    assert "## A single store's CPU, part by part" in results.read_text(encoding="utf-8")


def test_the_built_memory_is_not_built_over(built: Path) -> None:
    with pytest.raises(SystemExit):
        store_parts.main(["--build", "10", "--memory", str(built), "--no-markdown"])


def test_read_only_and_reinforcing_recall_side_by_side(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "write.json"
    argv = ["--memory", str(built), "--facts", "1500", "--queries", "20", "--no-markdown"]
    assert recall_write.main([*argv, "--out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["read_only_cpu_ms"]["n"] == report["reinforcing_cpu_ms"]["n"] == 20
    assert report["write_cpu_ms"]["n"] >= 1 and report["statements_per_write"] > 0
