"""benchmarks/startup.py in two runs: it times every command, writes its JSON and section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import startup


def test_a_tiny_run_writes_json_and_its_results_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "startup.json"
    code = startup.main(
        ["--runs", "2", "--facts", "3", "--out", str(out), "--results-md", str(results)]
    )
    assert code == 0
    report = json.loads(out.read_text())
    rows = {r["command"]: r for r in report["commands"]}
    assert list(rows) == list(startup.commands(startup.console_script()))
    assert all(r["n"] == 2 and r["min"] <= r["median"] <= r["max"] for r in rows.values())
    assert rows["python -c pass"]["ratio"] == 1.0
    assert all(r["cpu_median"] > 0 for r in rows.values())
    assert rows["python -c pass"]["cpu_ratio"] == 1.0
    assert set(report["met"]) == {"median_ms", "ratio"}
    text = results.read_text()
    assert "## Command-line start-up" in text and "## Other" in text and "kept" in text
    assert "`embornal memory recall sqlite`" in text


def test_bad_counts_are_refused() -> None:
    with pytest.raises(SystemExit):
        startup.main(["--runs", "0", "--no-markdown"])


def test_only_short_times_bare_python_the_version_and_a_recall() -> None:
    cmds = startup.commands(startup.console_script(), "heron", only="short")
    assert list(cmds) == ["python -c pass", "embornal --version", "embornal memory recall heron"]
