"""Recall over long facts: vector and hybrid latency when facts are embedded in pieces.

    python benchmarks/long_facts.py [--sizes 500,2000,10000] [--queries 60]
                                    [--out benchmarks/results/long_facts.json]

Each size is a fresh memory of that many long facts (40 sentences of ``benchmarks/scale.py``
text, about 4,000-5,000 characters, so 5-6 pieces of at most 1,000 characters each) beside
as many short facts, embedded with embornal's deterministic ``FakeEmbedder`` (384-d; the
vector index and the pieces have the real shape, without a model in the loop). Recall
latency excludes the query embedding. Long facts are scored by their opening and best piece
(decision 0012): the exact scan takes the nearest 400 or more by each fact's one vector and
scores only those by their pieces.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    run_by_size,
    time_calls,
)
from benchmarks.scale import build_corpus, make_content, make_queries

from embornal import FixedClock, Memory, NewFact
from embornal.adapters.embeddings.base import FakeEmbedder
from embornal.storage.sqlite import vectors

SECTION = "Long facts"
SENTENCES = 40  # per long fact


def run_size(size: int, queries: int, seed: int = 7) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{size}")
    corpus = build_corpus(seed, max(size, 10_000))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        with Memory.open(db, clock=FixedClock(), embedder=FakeEmbedder(384)) as mem:
            mem.reindex()
            t = time.perf_counter()
            for start in range(0, size, 200):
                batch = []
                for i in range(start, min(size, start + 200)):
                    text = "\n".join(make_content(rng, corpus) for _ in range(SENTENCES))
                    batch.append(NewFact(f"/docs/d{i % 50}", text))
                    batch.append(NewFact(f"/notes/n{i % 50}", make_content(rng, corpus)))
                mem.store_many(batch)
            load_s = time.perf_counter() - t
            conn = mem._store.conn
            pieces = conn.execute("SELECT count(*) FROM fact_pieces").fetchone()[0]
            facts = mem._store.doc_count()
            texts = [q.text for q in make_queries(rng, corpus, queries)]
            for q in texts[:5]:
                mem.recall(q, mode="hybrid", reinforce=False)
            out = {
                "long_facts": size,
                "short_facts": size,
                "pieces": pieces,
                "facts": facts,
                "search": "bit index" if facts > vectors.EXACT_SCAN_LIMIT else "exact scan",
                "load_s": round(load_s, 2),
                "long_facts_per_s": round(size / load_s, 1),
                "vector_ms": time_calls(mem.recall, texts, mode="vector", reinforce=False),
                "hybrid_ms": time_calls(mem.recall, texts, mode="hybrid", reinforce=False),
            }
        out["db_mb"] = round(db.stat().st_size / 2**20, 1)
    return out


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        f"Long facts of about 4,500 characters (5-6 pieces each) beside as many short ones, "
        f"FakeEmbedder 384-d, query embedding excluded. Measured {m['date']} on "
        f"{m.get('cpu_model') or 'unknown CPU'}, commit `{m.get('git_commit')}`. Reproduce: "
        "`python benchmarks/long_facts.py`. Raw: `benchmarks/results/long_facts.json`.",
        "",
        "| long facts | facts | pieces | candidates from | vector p50 / p95 ms "
        "| hybrid p50 / p95 ms | load, long facts/s |",
        "|---:|---:|---:|---|---:|---:|---:|",
    ]
    for r in report["sizes"]:
        v, h = r["vector_ms"], r["hybrid_ms"]
        lines.append(
            f"| {r['long_facts']:,} | {r['facts']:,} | {r['pieces']:,} | {r['search']} "
            f"| {v['p50']:.1f} / {v['p95']:.1f} "
            f"| {h['p50']:.1f} / {h['p95']:.1f} | {r['long_facts_per_s']:,.0f} |"
        )
    lines += [
        "",
        "Up to 20,000 facts the candidates are the nearest 400 or more by an exact scan of each "
        "fact's one vector, which reads every fact row (a long fact's vector sits after its "
        "text); above, they come from the in-process bit index. Either way only they are "
        "scored by their pieces. The load rate counts the FakeEmbedder's work only: with a "
        "real model, embedding the pieces dominates (see Embedding throughput, long facts).",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_by_size(
        argv,
        doc=__doc__,
        name="long-facts",
        section=SECTION,
        run_size=run_size,
        markdown=markdown,
        sizes="500,2000,10000",
        per_size=("queries", 60),
        unit="long facts",
        summary=lambda r: (
            f"{r['pieces']:,} pieces, vector p50 {r['vector_ms']['p50']:.1f} ms, "
            f"hybrid p50 {r['hybrid_ms']['p50']:.1f} ms"
        ),
    )


if __name__ == "__main__":
    raise SystemExit(main())
