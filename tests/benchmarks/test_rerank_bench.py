"""benchmarks/rerank.py's report, and the LoCoMo harness's ``--rerank``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from benchmarks.retrieval.cli import add_common_arguments, config_from_args
from benchmarks.retrieval.systems import EmbornalRanker

from benchmarks import rerank as bench


def _summary(p50: float) -> dict[str, Any]:
    return {"p50": p50, "p95": p50 * 2, "cpu": {"p50": p50 / 2}}


def _report(layers: int = 6) -> dict[str, Any]:
    top = {
        "recall": _summary(5.0),
        "recall_rerank": _summary(60.0),
        "reranker_alone": _summary(50.0),
        "pairs_mean": 30,
        "tokens_per_pair_mean": 52.0,
        "added_p50_ms": 55.0,
        "added_cpu_p50_ms": 27.5,
        "load_avg": {"before": [1.0, 1.0, 1.0], "after": [1.5, 1.0, 1.0]},
    }
    return {
        "machine": {"date": "2026-12-02", "cpu_count": 2, "cpu_model": "x"},
        "export": {"shape": {"num_hidden_layers": layers}},
        "results": {
            "facts": 419,
            "queries": 60,
            "limit": 10,
            "threads": 2,
            "model_load_ms": 900.0,
            "rss_mb": {"before_model": 30.0, "model_loaded": 150.0},
            "tops": {"30": top},
        },
    }


def test_the_report_claims_no_quality(tmp_path: Path) -> None:
    text = bench.markdown(_report(), tmp_path / "rerank.json")
    assert "Quality is not measured here, and no gain is claimed." in text
    row = "| 30 | 30 | 52.0 | 5.0 / 10.0 | 60.0 / 120.0 | 55.0 | 2.5 / 30.0 | 50.0 (25.0) | 0.8 |"
    assert row in text
    assert "quick look" not in text
    assert "with 2 layers instead of 6" in bench.markdown(_report(2), tmp_path / "r.json")


def _parse(argv: list[str]) -> Any:
    parser = argparse.ArgumentParser()
    add_common_arguments(parser)
    return parser, parser.parse_args(argv)


def test_the_harness_takes_a_reranker_directory(tmp_path: Path) -> None:
    parser, args = _parse(["--system", "embornal", "--rerank", str(tmp_path)])
    config = config_from_args(parser, args)
    assert config.rerank == tmp_path and config.as_dict()["rerank"] == str(tmp_path)
    for argv in (["--rerank", str(tmp_path)], ["--system", "embornal", "--rerank", "/nope"]):
        parser, args = _parse(argv)
        with pytest.raises(SystemExit):
            config_from_args(parser, args)


def test_the_ranker_recalls_with_rerank(tmp_path: Path) -> None:
    from benchmarks.retrieval.systems import Doc

    from embornal.adapters.rerank.base import FakeReranker

    fake = FakeReranker()
    with EmbornalRanker("keyword", reranker=fake, workdir=tmp_path) as ranker:
        ranker.index("s", [Doc("d1", "the ferry leaves at noon"), Doc("d2", "ferry ferry")])
        assert set(ranker.rank("s", "ferry noon", 2)) == {"d1", "d2"}
    assert fake.calls and fake.calls[0][0] == "ferry noon"
