"""Where a bulk load's time goes on SQLite: each statement timed, and the load again with
indexes dropped or an FTS5 setting changed, to see what each is worth.

    python benchmarks/bulk_parts.py [--facts 50000] [--variants timed,none,facts_,all]
                                    [--fts automerge=8] [--pragma cache_size=-262144]
                                    [--out FILE]

Each variant loads ``--facts`` facts of ``backends.py``'s corpus (``store_many``, 1,000 a
batch, no model) into a new memory in a temporary directory. ``none`` is the load as it
ships; ``timed`` is the same with every statement on the write connection timed through a
thin wrapper of the connection (its SQL's first 70 characters as the key; the COMMIT
includes FTS5's flush of its pending segment and the pages written to the WAL). ``facts_``
(or any other prefix) drops the secondary indexes whose names start with it before the load;
``all`` drops every secondary index (a diagnostic: recall needs them). ``--fts k=v`` sets an
FTS5 option (``automerge``, ``crisismerge``, ``usermerge``) for one more variant, and
``--pragma k=v`` a SQLite pragma on the write connection for one more. Saved to
``--out`` (default ``benchmarks/results/bulk_parts.json``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine_info, write_json
from benchmarks.http_load import Corpus

BATCH = 1_000


class _Timed:
    """The write connection, each statement's time added up by its SQL's opening."""

    def __init__(self, conn: Any, seconds: Counter[str], calls: Counter[str]) -> None:
        self._conn = conn
        self._seconds = seconds
        self._calls = calls

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def _timed(self, method: str, label: str, sql: str, *args: Any) -> Any:
        key = label + " ".join(sql.split())[:70]
        t0 = time.perf_counter()
        try:
            return getattr(self._conn, method)(sql, *args)
        finally:
            self._seconds[key] += time.perf_counter() - t0
            self._calls[key] += 1

    def execute(self, sql: str, *args: Any) -> Any:
        return self._timed("execute", "", sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        return self._timed("executemany", "MANY ", sql, *args)


def _batches(n: int) -> list[list[Any]]:
    from embornal import NewFact

    corpus = Corpus.make(n)
    pick = corpus.rng.randrange
    return [
        [
            NewFact(
                corpus.paths[pick(len(corpus.paths))], corpus.sentence(), {"visibility": "public"}
            )
            for _ in range(start, min(n, start + BATCH))
        ]
        for start in range(0, n, BATCH)
    ]


def load(n: int, variant: str, *, timed: bool) -> dict[str, Any]:
    from embornal import Memory

    batches = _batches(n)
    seconds: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as work, Memory.open(Path(work) / "m.db") as memory:
        store = memory._ctx.store
        conn = store.conn
        dropped: list[str] = []
        if variant.startswith("fts:"):
            key, value = variant[4:].split("=")
            conn.execute(f"INSERT INTO facts_fts(facts_fts, rank) VALUES('{key}', {int(value)})")
        elif variant.startswith("pragma:"):
            key, value = variant[7:].split("=")
            conn.execute(f"PRAGMA {key} = {value}")
        elif variant not in ("none", "timed"):
            names = [
                str(r[0])
                for r in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                )
            ]
            dropped = [x for x in names if variant == "all" or x.startswith(variant)]
            for name in dropped:
                conn.execute(f"DROP INDEX {name}")
        if timed:
            store.conn = _Timed(conn, seconds, calls)
        cpu, started = time.process_time(), time.perf_counter()
        for batch in batches:
            memory.store_many(batch)
        wall = time.perf_counter() - started
        cpu = time.process_time() - cpu
        store.conn = conn
    out: dict[str, Any] = {
        "variant": variant,
        "facts": n,
        "indexes_dropped": dropped,
        "facts_per_s": round(n / wall),
        "facts_per_cpu_s": round(n / cpu),
        "wall_s": round(wall, 2),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }
    if timed:
        out["sql_s"] = round(sum(seconds.values()), 3)
        out["statements"] = [
            {"sql": key, "s": round(s, 3), "calls": calls[key]}
            for key, s in seconds.most_common(12)
        ]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", type=int, default=50_000)
    ap.add_argument("--variants", default="timed,none,facts_,all")
    ap.add_argument("--fts", action="append", default=[], help="an FTS5 option k=v, a variant")
    ap.add_argument("--pragma", action="append", default=[], help="a pragma k=v, a variant")
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "bulk_parts.json"
    )
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v] + [f"fts:{f}" for f in args.fts]
    variants += [f"pragma:{p}" for p in args.pragma]
    runs = []
    for variant in variants:
        run = load(args.facts, variant, timed=variant == "timed")
        dropped = len(run["indexes_dropped"])
        line = f"{variant}: {run['facts_per_s']:,} facts/s ({dropped} indexes dropped)"
        if "sql_s" in run:
            line += f", SQL {run['sql_s']} s of {run['wall_s']} s"
        print(line, flush=True)
        for st in run.get("statements", []):
            print(f"  {st['s']:8.3f} s {st['calls']:7d}  {st['sql']}")
        runs.append(run)
    write_json(args.out, {"machine": machine_info(), "runs": runs})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
