"""benchmarks/bulk_parts.py and bulk_load.py in small: the statements timed, indexes
dropped, an FTS5 option, a pragma; scale.py's load alone."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import bulk_load, bulk_parts


def test_a_small_run_times_statements_and_variants(tmp_path: Path) -> None:
    out = tmp_path / "parts.json"
    argv = ["--facts", "1500", "--variants", "timed,facts_", "--fts", "automerge=8"]
    assert bulk_parts.main([*argv, "--out", str(out)]) == 0
    timed, dropped, fts = json.loads(out.read_text(encoding="utf-8"))["runs"]
    assert timed["variant"] == "timed" and timed["indexes_dropped"] == []
    sql = [st["sql"] for st in timed["statements"]]
    assert "COMMIT" in sql and any(s.startswith("MANY INSERT INTO facts ") for s in sql)
    assert 0 < timed["sql_s"] < timed["wall_s"]
    assert dropped["indexes_dropped"] and all(
        n.startswith("facts_") for n in dropped["indexes_dropped"]
    )
    assert "statements" not in dropped
    assert fts["variant"] == "fts:automerge=8" and fts["facts_per_s"] > 0


def test_a_pragma_is_a_variant(tmp_path: Path) -> None:
    out = tmp_path / "parts.json"
    argv = ["--facts", "1000", "--variants", "", "--pragma", "cache_size=-1024"]
    assert bulk_parts.main([*argv, "--out", str(out)]) == 0
    (run,) = json.loads(out.read_text(encoding="utf-8"))["runs"]
    assert run["variant"] == "pragma:cache_size=-1024" and run["facts_per_cpu_s"] > 0


def test_the_scale_load_alone(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    assert bulk_load.main(["--facts", "2000", "--dir", str(tmp_path), "--out", str(out)]) == 0
    load = json.loads(out.read_text(encoding="utf-8"))["load"]
    assert load["bulk"]["facts"] == 2000 and load["bulk"]["facts_per_cpu_s"] > 0
    assert len(load["loadavg_start"]) == 3
