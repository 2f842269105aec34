"""benchmarks/dedup.py on a tiny set: it measures, writes its JSON and its section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import dedup


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "dedup.json"
    args = ["--entities", "120", "--size", "300", "--calls", "4", "--scan"]
    code = dedup.main([*args, "--out", str(out), "--results-md", str(results)])
    assert code == 0
    report = json.loads(out.read_text())
    (q,) = report["quality"]
    assert q["true_pairs"] > 0 and 0 < q["precision"] <= 1 and q["recall"] > 0.8
    assert report["cost"]["candidates_ms"]["n"] == 4 and report["cost"]["scan"] is not None
    text = results.read_text()
    assert f"## {dedup.SECTION}" in text and "kept" in text
