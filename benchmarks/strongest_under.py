"""Recall with no query under a path, by the size of the subtree (decision 0116), on a
database ``scale.py --store`` loaded.

    python benchmarks/strongest_under.py --db STORE/1000000/loaded.db [--size 1000000]

Times ``Memory.recall(None, under=P, reinforce=False)`` (limit 10), wall and process CPU
time, for ``scale.py``'s 200 queries' topics (``/topic``, about a twelfth of the memory
each) and for chosen subtrees: the smallest holding 1, 100, 1,000 and 10,000 facts, the
largest topic and the root. The database is queried on a copy (``--work``).
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
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import REPO_ROOT, machine_info
from benchmarks.scale import DEFAULT_SEED, StepClock, build_corpus, make_queries

REPEATS = 30


def _summary(samples: list[tuple[float, float, int]]) -> dict[str, Any]:
    wall = sorted(s[0] for s in samples)
    cpu = sorted(s[1] for s in samples)
    return {
        "n": len(samples),
        "wall_p50_ms": round(statistics.median(wall), 3),
        "wall_p95_ms": round(wall[int(len(wall) * 0.95)], 3),
        "cpu_p50_ms": round(statistics.median(cpu), 3),
        "cpu_p95_ms": round(cpu[int(len(cpu) * 0.95)], 3),
        "mean_hits": round(statistics.fmean(s[2] for s in samples), 2),
    }


def _subtree_sizes(db: Path) -> Counter[str]:
    import sqlean

    conn = sqlean.connect(f"file:{db}?mode=ro", uri=True)
    try:
        counts = conn.execute(
            "SELECT p.path, count(*) FROM facts f JOIN paths p ON p.id = f.path_id "
            "WHERE f.deleted_at IS NULL AND f.superseded_by IS NULL GROUP BY p.path"
        ).fetchall()
    finally:
        conn.close()
    sizes: Counter[str] = Counter()
    for path, k in counts:
        parts = path.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            sizes["/" + "/".join(parts[:i])] += int(k)
    return sizes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True, help="a database scale.py --store loaded")
    ap.add_argument("--size", type=int, default=1_000_000, help="its fact count")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", default=None, help="where the copy goes (default: a temp dir)")
    ap.add_argument(
        "--out", type=Path, default=REPO_ROOT / "benchmarks/results/strongest_under.json"
    )
    args = ap.parse_args()
    from embornal import Memory

    src = Path(args.db)
    load = json.loads((src.parent / "load.json").read_text(encoding="utf-8"))
    work = Path(args.work or tempfile.mkdtemp(prefix="strongest-under-"))
    db = work / "memory.db"
    if not db.exists():
        shutil.copyfile(src, db)
    c0, t0 = time.process_time(), time.perf_counter()
    mem = Memory.open(db, clock=StepClock(datetime.fromisoformat(load["clock"])))
    opened = {
        "migrations": mem.migrations_applied,
        "wall_s": round(time.perf_counter() - t0, 2),
        "cpu_s": round(time.process_time() - c0, 2),
    }

    def timed(under: str) -> tuple[float, float, int]:
        c, t = time.process_time_ns(), time.perf_counter_ns()
        hits = mem.recall(None, under=under, reinforce=False)
        return (time.perf_counter_ns() - t) / 1e6, (time.process_time_ns() - c) / 1e6, len(hits)

    corpus = build_corpus(DEFAULT_SEED, args.size)
    queries = make_queries(random.Random(f"{DEFAULT_SEED}:queries"), corpus, args.queries)
    for q in queries[:5]:
        timed(q.under)
    report: dict[str, Any] = {
        "benchmark": "strongest-under",
        "machine": machine_info(),
        "size": args.size,
        "open": opened,
        "topics": _summary([timed(q.under) for q in queries]),
        "subtrees": {},
    }
    sizes = sorted(_subtree_sizes(db).items(), key=lambda x: x[1])
    picks = {
        f"smallest of at least {k:,} facts": next(p for p, n in sizes if n >= k)
        for k in (1, 100, 1_000, 10_000)
    }
    picks |= {"largest topic": sizes[-1][0], "root": "/"}
    held = dict(sizes)
    for label, path in picks.items():
        row = {"path": path, "facts": held.get(path, args.size)}
        row |= _summary([timed(path) for _ in range(REPEATS)])
        report["subtrees"][label] = row
        print(label, row, flush=True)
    report["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    mem.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print("topics", report["topics"], "wrote", args.out)


if __name__ == "__main__":
    main()
