"""benchmarks/portability.py on a tiny memory: it measures, writes its JSON and its section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import portability


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "p.json"
    code = portability.main(["--sizes", "300", "--out", str(out), "--results-md", str(results)])
    assert code == 0
    (size,) = json.loads(out.read_text())["sizes"]
    assert size["facts"] == 300 and size["same_recall_hits"] is True
    assert size["events"] > 300 and size["markdown_files"] > 0
    text = results.read_text()
    assert f"## {portability.SECTION}" in text and "kept" in text
