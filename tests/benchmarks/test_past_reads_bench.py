"""benchmarks/past_reads.py on a tiny memory: it measures, writes its JSON and its section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import past_reads


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "past.json"
    argv = ["--n", "300", "--queries", "3", "--backends", "sqlite", "--out", str(out)]
    assert past_reads.main([*argv, "--results-md", str(results)]) == 0
    figures = json.loads(out.read_text())["backends"]["sqlite"]["figures"]
    assert set(figures) == {
        "recall_keyword_now_ms",
        "recall_keyword_at_ms",
        "recall_strongest_at_ms",
        "find_limit10_at_ms",
    }
    assert figures["recall_strongest_at_ms"]["cpu"]["n"] == 3
    text = results.read_text()
    assert "## Past reads on both backends (decision 0119)" in text and "kept" in text
