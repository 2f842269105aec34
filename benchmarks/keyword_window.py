"""The window of a heavy keyword search (decision 0110): latency and agreement with the
exact ranking at a given window size, on a database ``scale.py --store`` loaded.

    python benchmarks/keyword_window.py --db STORE/1000000/loaded.db [--windows 20000,8000]

For each of ``scale.py``'s 200 queries (``--queries``), the keyword recall
(``reinforce=False``, limit 10) is timed, wall and process CPU time, with the window set
to each size; each query's top 10 is compared with the exact top 10 (no term heavy: every
posting ranked), the share of the exact top 10 kept and whether the order is the same.
The database is queried on a copy (``--work``); nothing is written to it but the copy's
migrations. Each query's figures are saved too (its class, whether it holds a heavy and a
light term, CPU and wall time, share kept), with the CPU p50 and mean share by kind of
query; ``--label`` names the run (e.g. the code it ran) in the results.

With the ``keyword-index`` extra installed (and ``EMBORNAL_KEYWORD_INDEX`` not ``off``) the
heavy searches rank from the keyword index (decision 0165), whatever the window: its build
on the copy (or its catch-up, when the copy keeps one in ``--work``) is timed first.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import REPO_ROOT, machine_info
from benchmarks.scale import DEFAULT_SEED, StepClock, build_corpus, make_queries


def _top(mem: Any, queries: list[Any]) -> tuple[list[list[str]], list[float], list[float]]:
    tops, wall, cpu = [], [], []
    for q in queries:
        c, t = time.process_time_ns(), time.perf_counter_ns()
        hits = mem.recall(q.text, reinforce=False, mode="keyword")
        wall.append((time.perf_counter_ns() - t) / 1e6)
        cpu.append((time.process_time_ns() - c) / 1e6)
        tops.append([h.fact.id for h in hits])
    return tops, wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True, help="a database scale.py --store loaded")
    ap.add_argument("--size", type=int, default=1_000_000, help="its fact count")
    ap.add_argument("--windows", default="20000,8000", help="e.g. 20000,20000/2000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", default=None, help="where the copy goes (default: a temp dir)")
    ap.add_argument("--label", default="", help="what this run measures (saved with it)")
    ap.add_argument(
        "--out", type=Path, default=REPO_ROOT / "benchmarks/results/keyword_window.json"
    )
    args = ap.parse_args()
    from embornal import Memory
    from embornal.domain.recall import keyword_bound

    src = Path(args.db)
    load = json.loads((src.parent / "load.json").read_text(encoding="utf-8"))
    work = Path(args.work or tempfile.mkdtemp(prefix="keyword-window-"))
    db = work / "memory.db"
    if not db.exists():
        shutil.copyfile(src, db)
    mem = Memory.open(db, clock=StepClock(datetime.fromisoformat(load["clock"])))
    corpus = build_corpus(DEFAULT_SEED, args.size)
    queries = make_queries(random.Random(f"{DEFAULT_SEED}:queries"), corpus, args.queries)
    from embornal.storage.sqlite import keyword_index

    index_build: dict[str, Any] | None = None
    store: Any = mem._store  # the benchmark's own look at the store
    index = store._keyword_index() if hasattr(store, "_keyword_index") else None
    if index is not None:  # built (or caught up) before the first heavy search, timed
        c, t = time.process_time(), time.perf_counter()
        searcher = index.current(store._rows)
        index_build = {
            "seconds": round(time.perf_counter() - t, 2),
            "cpu_seconds": round(time.process_time() - c, 2),
            "docs": searcher.num_docs if searcher is not None else None,
            "bytes": sum(f.stat().st_size for f in index.dir.rglob("*") if f.is_file()),
        }
        print("keyword index", json.dumps(index_build), flush=True)
    for q in queries[:10]:
        mem.recall(q.text, reinforce=False, mode="keyword")
    default_heavy = keyword_bound.HEAVY_DF
    keyword_bound.HEAVY_DF = 10**12
    exact, exact_wall, exact_cpu = _top(mem, queries)
    keyword_bound.HEAVY_DF = default_heavy
    report: dict[str, Any] = {
        "benchmark": "keyword-window",
        "label": args.label,
        "machine": machine_info(),
        "size": args.size,
        "queries": len(queries),
        "heavy_df": default_heavy,
        "keyword_index": keyword_index.available(),
        "keyword_index_build": index_build,
        "exact": {
            "wall_p50_ms": round(statistics.median(exact_wall), 2),
            "cpu_p50_ms": round(statistics.median(exact_cpu), 2),
        },
        "windows": {},
    }
    kinds = [_kind(mem, q) for q in queries]
    for window in args.windows.split(","):  # "20000" or "20000/5000" (SINGLE_POSTINGS)
        wide, _, single = window.partition("/")
        keyword_bound.WINDOW_POSTINGS = int(wide)
        if single and hasattr(keyword_bound, "SINGLE_POSTINGS"):
            keyword_bound.SINGLE_POSTINGS = int(single)
        _top(mem, queries[:10])
        tops, wall, cpu = _top(mem, queries)
        changed = [i for i, (t, e) in enumerate(zip(tops, exact, strict=True)) if t != e]
        kept = [len(set(t) & set(e)) / len(e) for t, e in zip(tops, exact, strict=True) if e]
        heavy = [i for i, k in enumerate(kinds) if k != "light"]
        by: dict[str, Any] = {}
        for name in sorted({q.kind for q in queries} | set(kinds)):
            picked = [
                i
                for i, (q, k) in enumerate(zip(queries, kinds, strict=True))
                if name in (q.kind, k) and exact[i]
            ]
            by[name] = {
                "queries": len(picked),
                "cpu_p50_ms": round(statistics.median(cpu[i] for i in picked), 2),
                "mean_share_kept": round(
                    statistics.fmean(_share(tops[i], exact[i]) for i in picked), 3
                ),
            }
        report["windows"][str(window)] = {
            "wall_p50_ms": round(statistics.median(wall), 2),
            "wall_p95_ms": round(sorted(wall)[int(len(wall) * 0.95)], 2),
            "cpu_p50_ms": round(statistics.median(cpu), 2),
            "cpu_p95_ms": round(sorted(cpu)[int(len(cpu) * 0.95)], 2),
            "cpu_p50_heavy_queries_ms": round(statistics.median(cpu[i] for i in heavy), 2),
            "heavy_queries": len(heavy),
            "queries_whose_top_10_differs": len(changed),
            "queries_missing_an_exact_top_3": sum(
                1 for t, e in zip(tops, exact, strict=True) if not set(e[:3]) <= set(t)
            ),
            "mean_share_of_exact_top_10_kept": round(statistics.fmean(kept), 3),
            "min_share_of_exact_top_10_kept": round(min(kept), 3),
            "loadavg": [round(x, 2) for x in os.getloadavg()],
            "by_kind": by,
            "per_query": [
                {
                    "kind": q.kind,
                    "terms": kinds[i],
                    "cpu_ms": round(cpu[i], 3),
                    "wall_ms": round(wall[i], 3),
                    "share_kept": _share(tops[i], exact[i]),
                }
                for i, q in enumerate(queries)
            ],
        }
        shown = {k: v for k, v in report["windows"][str(window)].items() if k != "per_query"}
        print(window, json.dumps(shown), flush=True)
    mem.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report["exact"]), "wrote", args.out)


def _share(top: list[str], exact: list[str]) -> float:
    return round(len(set(top) & set(exact)) / len(exact), 3) if exact else 1.0


def _kind(mem: Any, query: Any) -> str:
    """ "light" (no heavy term), "heavy+light" or "heavy only", as recall selects terms."""
    from embornal.domain.recall import keyword_bound
    from embornal.domain.recall.ranking import select_terms
    from embornal.domain.recall.text import query_terms

    terms = query_terms(query.text)
    store = mem._store  # the benchmark's own look at the terms' document counts
    df = store.term_df(terms)
    kept = select_terms(terms, df, store.doc_count())
    heavy = [t for t in kept if df.get(t, 0) > keyword_bound.HEAVY_DF]
    if not heavy:
        return "light"
    return "heavy+light" if len(heavy) < len(kept) else "heavy only"


if __name__ == "__main__":
    main()
