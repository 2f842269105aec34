"""The write of a reinforcing recall: read-only against reinforcing keyword recall, in CPU time.

    python benchmarks/recall_write.py --memory FILE [--facts 100000] [--queries 200]
                                      [--out FILE]

A recall reinforces its hits by default: it appends one ``facts_recalled`` event, whose
projection raises each hit's strength and writes its signals' history, in one write
transaction. The memory (``--memory``, built once, e.g. by ``store_parts.py --build``) is
copied into a temporary directory and opened with no model; ``scale.py``'s queries of a
memory of ``--facts`` facts run in pairs, each once read-only and once reinforcing (each
first in turn), so both see the same memory. Each call's CPU time
(``time.process_time_ns``; on a shared machine a core's wait is not counted) gives p50 and
mean, and the write alone (the service's ``record_recall``, timed inside the reinforcing
call) its own; statements are counted on the write connection.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import latency_summary, machine_info, results_parser, save_results

SECTION = "Reinforcing recall: the write's share"
WARMUP = 20


class CountedConnection:
    """The write connection, its statements counted."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.statements = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def execute(self, sql: str, *args: Any) -> Any:
        self.statements += 1
        return self._conn.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        self.statements += 1
        return self._conn.executemany(sql, *args)


def measure(src: Path, facts: int, n_queries: int, seed: int) -> dict[str, Any]:
    from benchmarks.scale import build_corpus, make_queries

    from embornal import Memory
    from embornal.service.recall import use_case as recall_service

    corpus = build_corpus(seed, facts)
    queries = make_queries(random.Random(f"{seed}:queries"), corpus, n_queries + WARMUP)
    write_ns: list[int] = []
    statements: list[int] = []
    original = recall_service.record_recall
    with tempfile.TemporaryDirectory(prefix="embornal-recall-write-") as tmp:
        db = Path(tmp) / "memory.db"
        shutil.copyfile(src, db)
        mem = Memory.open(db)
        store: Any = mem._store  # the SQLite store: its write connection
        counted = CountedConnection(store.conn)
        store.conn = counted

        def timed_write(ctx: Any, hits: Any) -> None:
            before = counted.statements
            c = time.process_time_ns()
            original(ctx, hits)
            write_ns.append(time.process_time_ns() - c)
            statements.append(counted.statements - before)

        recall_service.record_recall = timed_write  # type: ignore[assignment]
        read_only: list[int] = []
        reinforcing: list[int] = []
        hits: list[int] = []
        try:
            for q in queries[:WARMUP]:
                mem.recall(q.text, reinforce=False, mode="keyword")
            write_ns.clear()
            statements.clear()
            for i, q in enumerate(queries[WARMUP:]):
                for reinforce in (False, True) if i % 2 else (True, False):  # each first in turn
                    c = time.process_time_ns()
                    found = mem.recall(q.text, reinforce=reinforce, mode="keyword")
                    (reinforcing if reinforce else read_only).append(time.process_time_ns() - c)
                hits.append(len(found))
        finally:
            recall_service.record_recall = original
            mem.close()
    with_hits = [s for s, h in zip(statements, hits, strict=False) if h]
    return {
        "machine": machine_info(),
        "facts": facts,
        "queries": n_queries,
        "mean_hits": round(sum(hits) / len(hits), 2),
        "read_only_cpu_ms": latency_summary(read_only),
        "reinforcing_cpu_ms": latency_summary(reinforcing),
        "write_cpu_ms": latency_summary(write_ns),
        "statements_per_write": round(sum(with_hits) / len(with_hits), 1) if with_hits else 0,
    }


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    ro, rf, w = report["read_only_cpu_ms"], report["reinforcing_cpu_ms"], report["write_cpu_ms"]
    return "\n".join(
        [
            f"CPU time (`time.process_time`, not wall: the machine is shared) of keyword "
            f"recall on a memory of {report['facts']:,} facts with no model, "
            f"{report['queries']} queries of `scale.py` (mean {report['mean_hits']} hits), "
            "each once read-only and once reinforcing. Measured "
            f"{m['date']} on {m.get('cpu_model') or 'unknown CPU'} ({m.get('cpu_count')} CPUs, "
            f"load {m.get('loadavg')}), commit `{m.get('git_commit')}`. Reproduce: "
            "`python benchmarks/recall_write.py --memory FILE`.",
            "",
            "| CPU ms | p50 | mean | p95 |",
            "|---|---:|---:|---:|",
            f"| read-only recall | {ro['p50']:.3f} | {ro['mean']:.3f} | {ro['p95']:.3f} |",
            f"| reinforcing recall | {rf['p50']:.3f} | {rf['mean']:.3f} | {rf['p95']:.3f} |",
            f"| its write alone | {w['p50']:.3f} | {w['mean']:.3f} | {w['p95']:.3f} |",
            "",
            f"Statements on the write connection per write: {report['statements_per_write']}.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    from benchmarks.scale import DEFAULT_SEED

    ap = results_parser(__doc__, "recall_write.json")
    ap.add_argument("--memory", type=Path, required=True, help="a memory built once")
    ap.add_argument("--facts", type=int, default=100_000, help="facts in --memory (corpus)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = ap.parse_args(argv)
    if not args.memory.exists():
        ap.error(f"no memory at {args.memory} (store_parts.py --build N --memory FILE)")
    report = measure(args.memory, args.facts, args.queries, args.seed)
    save_results(args, report, SECTION, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
