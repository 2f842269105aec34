"""benchmarks/embed_throughput.py (with embed_texts.py and embed_report.py): its texts, its
measuring function and its report shape.

Behaviour only, with the FakeEmbedder (no model): no figure is asserted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import embed_report, embed_texts
from benchmarks import embed_throughput as et
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.domain.recall.chunks import CHUNK_CHARS, chunk_text

TINY = embed_texts.make_texts(seed=7, count=12, long_count=3, queries=5)


def test_texts_are_seeded_and_shaped() -> None:
    again = embed_texts.make_texts(seed=7, count=12, long_count=3, queries=5)
    assert again == TINY
    assert set(TINY.sets) == set(embed_texts.TEXT_SETS)
    assert len(TINY.sets["agent"]) == len(TINY.sets["synthetic"]) == 12
    assert len(TINY.sets["long"]) == 3 and len(TINY.queries) == 5
    assert all(40 <= len(t) <= 220 for t in TINY.sets["agent"])
    for text in TINY.sets["long"]:
        assert embed_texts.LONG_MIN_CHARS <= len(text) <= embed_texts.LONG_MAX_CHARS <= CHUNK_CHARS
        assert chunk_text(text) == [text]  # one piece: one model call per long fact
    assert embed_texts.make_texts(seed=8, count=12, long_count=3, queries=5) != TINY


def test_measure_provider_reports_every_set_and_latency() -> None:
    result = et.measure_provider(FakeEmbedder(384), TINY, rounds=2, call_size=5, singles=4)
    assert result["identity"] == "fake:384" and result["dims"] == 384
    assert set(result["documents"]) == set(embed_texts.TEXT_SETS)
    for name, entry in result["documents"].items():
        assert entry["count"] == len(TINY.sets[name])
        assert len(entry["rounds_facts_per_s"]) == 2
        assert entry["facts_per_s"] > 0
        assert entry["best_facts_per_s"] >= entry["facts_per_s"]
        assert {"facts_per_cpu_s", "cpu_per_wall"} <= set(entry)
    assert result["single_document_ms"]["n"] == 4
    assert result["query_ms"]["n"] == 5
    assert {"p50", "p95"} <= set(result["query_ms"])


def test_measure_provider_skips_an_empty_set() -> None:
    texts = embed_texts.Texts(sets={"agent": ["one fact"], "long": []}, queries=[])
    result = et.measure_provider(FakeEmbedder(8), texts, rounds=1)
    assert result["documents"]["long"] == {"count": 0}
    assert result["query_ms"] == {"n": 0}


class _Counting(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__(16)
        self.calls: list[int] = []

    def embed_documents(self, texts: Any) -> list[list[float]]:
        self.calls.append(len(texts))
        return super().embed_documents(texts)


def test_documents_go_to_the_provider_call_size_at_a_time() -> None:
    provider = _Counting()
    texts = embed_texts.Texts(sets={"agent": [f"fact {i}" for i in range(10)]}, queries=[])
    et.measure_provider(provider, texts, rounds=1, call_size=4, singles=0, warmup=3)
    assert provider.calls == [3, 4, 4, 2]  # warm-up, then the timed calls


def test_worker_reports_an_unavailable_provider(tmp_path: Path) -> None:
    spec = {
        "threads": 1,
        "rounds": 1,
        "call_size": 10,
        "singles": 1,
        "texts": TINY.to_json(),
        "onnx_dir": None,
        "onnx_dir_error": "no export here",
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    et.run_worker("onnx", tmp_path / "spec.json", tmp_path / "out.json")
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["provider"] == "onnx"
    assert "no export here" in out["error"]
    assert out["peak_rss_mb"] > 0


def test_end_to_end_with_the_fake_provider(tmp_path: Path) -> None:
    results_md = tmp_path / "RESULTS.md"
    results_md.write_text("# embornal benchmark results\n\n## Other\n\nkept\n")
    out = tmp_path / "embed.json"
    code = et.main(
        [
            "--providers",
            "fake",
            "--count",
            "8",
            "--long-count",
            "2",
            "--queries",
            "3",
            "--singles",
            "2",
            "--rounds",
            "1",
            "--threads",
            "1",
            "--no-probe",
            "--out",
            str(out),
            "--results-md",
            str(results_md),
        ]
    )
    assert code == 0
    report = json.loads(out.read_text())
    assert report["benchmark"] == "embed-throughput"
    assert report["config"]["threads"] == 1
    assert report["config"]["cpu_count"] == report["machine"]["cpu_count"]
    fake = report["providers"]["fake"]
    assert "error" not in fake and "sample_vectors" not in fake
    assert set(fake["documents"]) == set(embed_texts.TEXT_SETS)
    assert fake["peak_rss_mb"] > 0 and fake["query_ms"]["n"] == 3
    assert report["target"]["provider"] == "onnx" and report["target"]["met"] is None
    text = results_md.read_text()
    assert "## Other\n\nkept" in text
    assert f"## {et.SECTION}" in text and "FakeEmbedder" in text
    assert "multilingual models were not measured" in text and "not downloadable" in text


def _report(onnx_facts_per_s: float | None) -> dict[str, Any]:
    providers: dict[str, Any] = {}
    if onnx_facts_per_s is not None:
        entry = {"facts_per_s": onnx_facts_per_s, "facts_per_cpu_s": 1.0, "cpu_per_wall": 1.0}
        providers["onnx"] = {
            "documents": {"agent": entry, "synthetic": entry, "long": entry},
            "single_document_ms": {"p50": 1.0},
            "query_ms": {"p50": 1.0, "p95": 2.0},
            "load_s": 0.5,
            "peak_rss_mb": 300.0,
        }
    providers["sentence-transformers"] = {"error": "RuntimeError: no torch"}
    report: dict[str, Any] = {
        "machine": {"date": "d", "python": "3.11", "cpu_count": 2},
        "config": {
            "cpu_count": 2,
            "threads": 2,
            "count": 10,
            "long_count": 1,
            "rounds": 1,
            "call_size": 10,
            "provider_batch_size": 32,
            "providers": ["onnx", "sentence-transformers"],
            "texts": {},
        },
        "providers": providers,
    }
    report["target"] = et.judge(report)
    return report


def test_target_line_says_whether_it_is_met(tmp_path: Path) -> None:
    met = embed_report.markdown(_report(250.0), tmp_path / "x.json")
    missed = embed_report.markdown(_report(150.0), tmp_path / "x.json")
    assert "**met**" in met and "**not met**" not in met
    assert "**not met**" in missed
    assert "not measured: RuntimeError: no torch" in missed
    assert _report(None)["target"]["met"] is None
    busy = _report(150.0)
    busy["core_probe_start"] = {"processes": 2, "effective_cores": 1.0}
    assert "could give at most" in embed_report.markdown(busy, tmp_path / "x.json")
    assert "could give at most" not in missed  # no probe: no estimate


def test_core_probe_shape() -> None:
    probe = et.core_probe(2, loops=10_000)
    assert probe["processes"] == 2 and len(probe["parallel_s"]) == 2
    assert probe["effective_cores"] > 0


def test_prepare_onnx_reuses_a_given_export(tmp_path: Path) -> None:
    assert et.prepare_onnx(["fake"], None, tmp_path, None)["onnx_dir"] is None
    out = et.prepare_onnx(["onnx"], str(tmp_path), tmp_path / "work", None)
    assert out["onnx_dir"] == str(tmp_path.resolve()) and out["exported"] is False
    missing = et.prepare_onnx(["onnx"], None, tmp_path / "work", None)
    assert missing["onnx_dir"] is None and "not installed" in missing["onnx_dir_error"]
    shape = et.prepare_onnx(["default-shape"], None, tmp_path / "work", None)
    assert shape["shape_dir"] is None and "not installed" in shape["shape_dir_error"]


def test_a_model_of_a_given_shape_is_exported_and_embeds(tmp_path: Path) -> None:
    """The default model's cost is measured on its architecture with random weights."""
    pytest.importorskip("torch")
    pytest.importorskip("onnxruntime")
    from benchmarks.onnx_export import DEFAULT_MODEL_SHAPE, export_shape_onnx

    from embornal.adapters.embeddings.onnx import OnnxEmbedder

    tiny = dict(
        DEFAULT_MODEL_SHAPE,
        vocab_size=31000,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
    )
    directory = export_shape_onnx(tiny, et._minilm_dir(), tmp_path / "shape", seed=1)
    model = OnnxEmbedder(directory, name="shape", threads=1)
    assert model.dims == 32
    vectors = model.embed_documents(["a short fact", "another, somewhat longer fact here"])
    assert len(vectors) == 2 and all(len(v) == 32 for v in vectors)
    assert vectors[0] != vectors[1]
    assert sum(x * x for x in vectors[0]) == pytest.approx(1.0, abs=1e-4)


def test_the_default_models_cost_is_reported_from_its_shape(tmp_path: Path) -> None:
    report = _report(250.0)
    unmeasured = embed_report.markdown(report, tmp_path / "x.json")
    assert "The multilingual models were not measured" in unmeasured
    for name, rate in (
        ("default-shape", 41.0),
        ("default-shape-int8", 210.0),
        ("e5-small-shape-int8", 320.0),
    ):
        report["providers"][name] = dict(report["providers"]["onnx"])
        report["providers"][name]["documents"] = {"agent": {"facts_per_s": rate}}
    text = embed_report.markdown(report, tmp_path / "x.json")
    assert "multilingual-e5-base (the default before): fp32 41 facts/s (not met), int8 210" in text
    assert (
        "multilingual-e5-small (the default model, decision 0118): int8 320 facts/s (met)" in text
    )
    assert "paraphrase-multilingual" not in text.split("Target:")[1]


def test_the_multilingual_shapes_have_providers_and_spec_keys(tmp_path: Path) -> None:
    from benchmarks import onnx_export

    for name, (constant, _, label) in et.SHAPES.items():
        assert {name, f"{name}-int8"} <= set(embed_report.PROVIDERS)
        assert getattr(onnx_export, constant)["num_hidden_layers"] == 12
        assert label.endswith("-shape")
    assert onnx_export.E5_SMALL_SHAPE["hidden_size"] == 384
    assert et.ONNX_DIRS["e5-small-shape-int8"] == "e5_small_int8_dir"
    missing = et.prepare_onnx(["e5-small-shape-int8"], None, tmp_path / "work", None)
    assert missing["e5_small_dir"] is None and "not installed" in missing["e5_small_dir_error"]


def test_a_bert_shape_is_exported_quantized_and_embeds(tmp_path: Path) -> None:
    """multilingual-e5-small's architecture (a BERT), small, fp32 then int8."""
    pytest.importorskip("torch")
    pytest.importorskip("onnxruntime")
    from benchmarks.onnx_export import E5_SMALL_SHAPE, export_shape_onnx

    from embornal.adapters.embeddings.onnx import OnnxEmbedder
    from embornal.adapters.embeddings.quantize import quantize_int8

    tiny = dict(
        E5_SMALL_SHAPE,
        vocab_size=31000,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
    )
    directory = export_shape_onnx(tiny, et._minilm_dir(), tmp_path / "shape", seed=1)
    quantize_int8(directory / "model.onnx")
    model = OnnxEmbedder(directory, name="shape", threads=1)
    assert model.int8 and model.identity == "shape+int8:32"
    vectors = model.embed_documents(["a short fact", "another, somewhat longer fact here"])
    assert len(vectors) == 2 and all(len(v) == 32 for v in vectors)
