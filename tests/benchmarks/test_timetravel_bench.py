"""benchmarks/timetravel.py on a tiny memory: it measures, writes its JSON and its section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import timetravel


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "tt.json"
    code = timetravel.main(
        ["--n", "400", "--queries", "4", "--out", str(out), "--results-md", str(results)]
    )
    assert code == 0
    report = json.loads(out.read_text())
    assert set(report["figures"]) == {"now", "loaded", "midway", "ended"}
    assert report["figures"]["midway"]["recall_keyword_ms"]["n"] == 4
    assert report["info"]["history_rows"]["fact_versions"] >= 400
    text = results.read_text()
    assert "## Time travel (issue 10 Part D)" in text and "kept" in text
