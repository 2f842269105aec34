"""benchmarks/mcp_tools_size.py: it lists each profile's tools and writes its section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import mcp_tools_size
from embornal.interfaces.mcp.tools import CORE_TOOLS


def test_each_profile_is_measured_and_the_core_one_is_smaller(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "mcp.json"
    assert mcp_tools_size.main(["--out", str(out), "--results-md", str(results)]) == 0
    rows = {r["profile"]: r for r in json.loads(out.read_text())["profiles"]}
    core, full = rows["core"], rows["full"]
    assert core["names"] == list(CORE_TOOLS) and "remember" in core["names"]
    assert set(core["names"]) < set(full["names"])
    assert 0 < core["bytes"] < full["bytes"]
    assert core["tokens_estimate"] == round(core["chars"] / 4)
    text = results.read_text()
    assert "## MCP tool lists per profile" in text and "kept" in text
