"""benchmarks/keyword_engines.py in small: each candidate's figures, FTS5's exact ranking
agreeing with itself, and tantivy's when the optional package is installed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import keyword_engines

FIGURES = {
    "wall_p50_ms",
    "wall_p95_ms",
    "cpu_p50_ms",
    "cpu_p95_ms",
    "share_kept",
    "share_kept_min",
    "share_kept_ties",
    "share_kept_ties_min",
    "missing_top3",
    "own_exhaustive",
    "build_seconds",
    "index_bytes",
}


def _run(tmp_path: Path, engines: str) -> tuple[dict[str, dict[str, float]], str]:
    out, results = tmp_path / "engines.json", tmp_path / "RESULTS.md"
    argv = ["--n", "600", "--queries", "24", "--engines", engines, "--work", str(tmp_path / "w")]
    assert keyword_engines.main([*argv, "--out", str(out), "--results-md", str(results)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["n"] == 600 and report["limit"] == 10
    assert report["python_bm25_max_relative_gap"] < 1e-9  # the agreement's scores are FTS5's
    return report["candidates"], results.read_text(encoding="utf-8")


def test_fts5_exact_agrees_with_itself_and_the_others_are_measured(tmp_path: Path) -> None:
    candidates, text = _run(tmp_path, "fts5_exact,fts5_bounded,sqlite_impact")
    assert set(candidates) == {"fts5_exact", "fts5_bounded", "fts5_bounded_50", "sqlite_impact"}
    for figures in candidates.values():
        assert set(figures) >= FIGURES - {"own_exhaustive"}
        assert figures["cpu_p50_ms"] > 0 and figures["index_bytes"] > 0
    exact = candidates["fts5_exact"]
    assert exact["share_kept"] == exact["share_kept_ties"] == exact["own_exhaustive"] == 1.0
    assert exact["missing_top3"] == 0
    # 600 facts hold no heavy term: the bounded search is the exact one
    assert candidates["fts5_bounded"]["share_kept"] == 1.0
    # the impact-ordered lists stop early only when nothing unread can score more
    assert candidates["sqlite_impact"]["share_kept_ties"] == 1.0
    assert "## Keyword engines at scale (issue 31, decision 0164)" in text
    assert "| fts5_exact |" in text


def test_tantivy_ranks_fts5s_formula_when_boosted_by_its_idf(tmp_path: Path) -> None:
    pytest.importorskip("tantivy")
    candidates, _ = _run(tmp_path, "fts5_exact,tantivy")
    names = {"tantivy", "tantivy_fts5_idf", "tantivy_rescored", "tantivy_fts5_idf_ties_newest"}
    assert set(candidates) >= names
    boosted = candidates["tantivy_fts5_idf"]
    assert set(boosted) >= FIGURES
    assert boosted["index_bytes"] > 0
    assert boosted["share_kept_ties"] == 1.0 and boosted["missing_top3"] == 0
    assert boosted["own_exhaustive"] == 1.0
