"""benchmarks/mcp_tools_size.py: it lists each profile's tools and writes its section."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import mcp_tools_size
from embornal.interfaces.mcp.tools import CORE_TOOLS, FULL_TOOLS


def test_each_profile_is_measured_and_within_its_budget(tmp_path: Path) -> None:
    """The core list within 3.5k tokens (decision 0093), the full one within 25k (0138),
    as the benchmark counts them; no schema gives a ``type`` as a list (``--strict``)."""
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "mcp.json"
    args = ["--out", str(out), "--results-md", str(results), "--strict"]
    assert mcp_tools_size.main(args) == 0
    rows = {r["profile"]: r for r in json.loads(out.read_text())["profiles"]}
    core, full, schemas = rows["core"], rows["full"], rows["full+schemas"]
    assert core["names"] == list(CORE_TOOLS) and len(core["names"]) <= 15
    assert core["tokens_estimate"] <= 3500  # the protocol loop (decision 0093)
    assert full["names"] == list(FULL_TOOLS) and full["tokens_estimate"] <= 25_000
    assert set(core["names"]) < set(full["names"])
    assert 0 < core["bytes"] < full["bytes"] < schemas["bytes"]
    assert core["output_schemas"] == full["output_schemas"] == 0
    assert schemas["output_schemas"] == schemas["tools"] == full["tools"]
    assert all(r["portability_warnings"] == [] for r in rows.values())
    assert core["tokens_estimate"] == round(core["chars"] / 4)
    text = results.read_text()
    assert "## MCP tool lists per profile" in text and "kept" in text
