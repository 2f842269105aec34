"""benchmarks/proposals.py on a tiny memory: it measures, writes its JSON and its section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import proposals


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "p.json"
    code = proposals.main(
        ["--sizes", "300", "--items", "20", "--out", str(out), "--results-md", str(results)]
    )
    assert code == 0
    (row,) = json.loads(out.read_text())["sizes"]
    assert row["facts"] == 300 and row["items"] == 20 and row["prune_scored"] >= 300
    assert row["prune_candidates"] > 0
    text = results.read_text()
    assert f"## {proposals.SECTION}" in text and "kept" in text
