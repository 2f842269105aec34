"""benchmarks/long_facts.py on a tiny memory: it measures, writes its JSON and its section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import long_facts


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "long.json"
    code = long_facts.main(
        ["--sizes", "12", "--queries", "3", "--out", str(out), "--results-md", str(results)]
    )
    assert code == 0
    report = json.loads(out.read_text())
    (row,) = report["sizes"]
    assert row["long_facts"] == 12 and row["pieces"] >= 12 * 4
    assert row["search"] == "exact scan"
    assert row["vector_ms"]["n"] == 3 and row["hybrid_ms"]["n"] == 3
    text = results.read_text()
    assert "## Long facts" in text and "## Other" in text and "kept" in text


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(SystemExit):
        long_facts.main(["--sizes", "ten", "--no-markdown"])
    with pytest.raises(SystemExit):
        long_facts.main(["--sizes", "0", "--no-markdown"])
