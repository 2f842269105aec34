"""benchmarks/cascade.py on a tiny memory: it measures, writes its JSON and its section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import cascade


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "cascade.json"
    code = cascade.main(
        ["--sizes", "300", "--calls", "3", "--out", str(out), "--results-md", str(results)]
    )
    assert code == 0
    (size,) = json.loads(out.read_text())["sizes"]
    assert (size["facts"], size["anchors"], size["canon"], size["narratives"]) == (300, 12, 8, 1)
    assert all(size[op]["n"] == 3 and size[op]["cpu"]["n"] == 3 for op in cascade.OPS)
    text = results.read_text()
    assert f"## {cascade.SECTION}" in text and "kept" in text
