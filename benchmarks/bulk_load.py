"""``scale.py``'s bulk load alone, at one size: the same seeded facts, the same
``store_many`` batches of 1,000 and the same figures (``bulk``: facts/s wall and per
CPU-second, the first and last tenth), without the queries that follow it there.

    python benchmarks/bulk_load.py [--facts 1000000] [--out FILE]

The memory is loaded in a temporary directory (or ``--dir``) and removed after. Saved to
``--out`` (default ``benchmarks/results/bulk_load.json``) with the load average at the
start and the end.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine_info, write_json
from benchmarks.scale import DEFAULT_SEED, START, StepClock, _load, build_corpus


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--dir", type=Path, help="where the memory is loaded (default: a temp dir)")
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "bulk_load.json"
    )
    args = ap.parse_args(argv)
    n = args.facts
    start_load = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(dir=args.dir) as work:
        corpus = build_corpus(args.seed, n)
        rng = random.Random(f"{args.seed}:facts:{n}")
        out = _load(n, Path(work) / "memory.db", StepClock(START), rng, corpus)
    out["loadavg_start"] = start_load
    out["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    write_json(args.out, {"machine": machine_info(), "load": out})
    print(out["bulk"], out["loadavg_start"], out["loadavg_end"], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
