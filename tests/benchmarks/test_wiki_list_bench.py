"""benchmarks/wiki_list.py on a tiny memory: it times each page, writes its JSON and its
section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import wiki_list


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "wiki_list.json"
    code = wiki_list.main(
        ["--sizes", "300", "--calls", "2", "--out", str(out), "--results-md", str(results)]
    )
    assert code == 0
    (size,) = json.loads(out.read_text())["sizes"]
    assert (size["facts"], size["links"]) == (300, 600)
    assert all(size[f"{name}_ms"]["n"] == 2 for name in wiki_list.PAGES)
    text = results.read_text()
    assert f"## {wiki_list.SECTION}" in text and "kept" in text
