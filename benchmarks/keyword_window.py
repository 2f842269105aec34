"""The window of a heavy keyword search (decision 0110): latency and agreement with the
exact ranking at a given window size, on a database ``scale.py --store`` loaded.

    python benchmarks/keyword_window.py --db STORE/1000000/loaded.db [--windows 20000,8000]

For each of ``scale.py``'s 200 queries (``--queries``), the keyword recall
(``reinforce=False``, limit 10) is timed, wall and process CPU time, with the window set
to each size; each query's top 10 is compared with the exact top 10 (no term heavy: every
posting ranked), the share of the exact top 10 kept and whether the order is the same.
The database is queried on a copy (``--work``); nothing is written to it but the copy's
migrations.
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
    ap.add_argument("--windows", default="20000,8000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", default=None, help="where the copy goes (default: a temp dir)")
    ap.add_argument(
        "--out", type=Path, default=REPO_ROOT / "benchmarks/results/keyword_window.json"
    )
    args = ap.parse_args()
    from embornal import Memory
    from embornal.domain import keyword_bound

    src = Path(args.db)
    load = json.loads((src.parent / "load.json").read_text(encoding="utf-8"))
    work = Path(args.work or tempfile.mkdtemp(prefix="keyword-window-"))
    db = work / "memory.db"
    if not db.exists():
        shutil.copyfile(src, db)
    mem = Memory.open(db, clock=StepClock(datetime.fromisoformat(load["clock"])))
    corpus = build_corpus(DEFAULT_SEED, args.size)
    queries = make_queries(random.Random(f"{DEFAULT_SEED}:queries"), corpus, args.queries)
    for q in queries[:10]:
        mem.recall(q.text, reinforce=False, mode="keyword")
    default_heavy = keyword_bound.HEAVY_DF
    keyword_bound.HEAVY_DF = 10**12
    exact, exact_wall, exact_cpu = _top(mem, queries)
    keyword_bound.HEAVY_DF = default_heavy
    report: dict[str, Any] = {
        "benchmark": "keyword-window",
        "machine": machine_info(),
        "size": args.size,
        "queries": len(queries),
        "heavy_df": default_heavy,
        "exact": {
            "wall_p50_ms": round(statistics.median(exact_wall), 2),
            "cpu_p50_ms": round(statistics.median(exact_cpu), 2),
        },
        "windows": {},
    }
    for window in [int(w) for w in args.windows.split(",")]:
        keyword_bound.WINDOW_POSTINGS = window
        _top(mem, queries[:10])
        tops, wall, cpu = _top(mem, queries)
        changed = [i for i, (t, e) in enumerate(zip(tops, exact, strict=True)) if t != e]
        kept = [len(set(t) & set(e)) / len(e) for t, e in zip(tops, exact, strict=True) if e]
        heavy = [i for i, q in enumerate(queries) if _is_heavy(mem, q.text)]
        report["windows"][str(window)] = {
            "wall_p50_ms": round(statistics.median(wall), 2),
            "wall_p95_ms": round(sorted(wall)[int(len(wall) * 0.95)], 2),
            "cpu_p50_ms": round(statistics.median(cpu), 2),
            "cpu_p95_ms": round(sorted(cpu)[int(len(cpu) * 0.95)], 2),
            "cpu_p50_heavy_queries_ms": round(statistics.median(cpu[i] for i in heavy), 2),
            "heavy_queries": len(heavy),
            "queries_whose_top_10_differs": len(changed),
            "mean_share_of_exact_top_10_kept": round(statistics.fmean(kept), 3),
            "min_share_of_exact_top_10_kept": round(min(kept), 3),
            "loadavg": [round(x, 2) for x in os.getloadavg()],
        }
        print(window, report["windows"][str(window)], flush=True)
    mem.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report["exact"]), "wrote", args.out)


def _is_heavy(mem: Any, text: str) -> bool:
    from embornal.domain import keyword_bound
    from embornal.domain.text import query_terms

    terms = query_terms(text)
    store = mem._store  # the benchmark's own look at the terms' document counts
    df = store.term_df(terms)
    return any(df.get(t, 0) > keyword_bound.HEAVY_DF for t in terms)


if __name__ == "__main__":
    main()
