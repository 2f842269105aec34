"""Single stores with a model on a loaded memory: each store embeds its fact and looks for
near-duplicates by meaning in its transaction (decision 0126).

    python benchmarks/store_with_model.py --target FILE_OR_URL [--stores 100] [--dims 128]

``--target`` is a memory loaded by ``benchmarks/backends.py`` or by ``recall_legs.py
--load N`` (a SQLite file or a PostgreSQL URL), ``--vectors`` and ``--dims`` those of its
load.
One untimed store first (it loads the bit index, as a process's first store does); then
``--stores`` stores on one path, each timed, wall and process CPU. To time another checkout
of the code against this one, run the script with ``PYTHONPATH=OTHER/src``: it records the
``embornal`` it imported. Saved to ``--out`` (default
``benchmarks/results/store_with_model.json``).
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.backends import VECTORS, QueryCache
from benchmarks.common import machine_info, time_each, write_json


def measure(target: str, stores: int, dims: int, vectors: str) -> dict[str, Any]:
    import embornal
    from embornal import Memory

    embedder = QueryCache(dims, vectors)
    with Memory.open(target, embedder=embedder, vector_width=dims) as memory:
        memory.store("/bench/with-model", "the first store of the process, untimed")
        timed = time_each(
            [
                partial(memory.store, "/bench/with-model", f"a single store, number {i}")
                for i in range(stores)
            ],
            cpu=True,
        )
    return {
        "target": "postgresql" if target.startswith("postgresql") else "sqlite",
        "embornal_from": str(Path(embornal.__file__).resolve().parent),
        "stores": stores,
        "store_ms": timed,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", required=True)
    ap.add_argument("--stores", type=int, default=100)
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument("--vectors", choices=VECTORS, default="words")
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "store_with_model.json"
    )
    args = ap.parse_args(argv)
    report = {
        "machine": machine_info(),
        **measure(args.target, args.stores, args.dims, args.vectors),
    }
    s = report["store_ms"]
    print(
        f"single store with a model: p50 {s['p50']} ms, p95 {s['p95']} ms, "
        f"CPU p50 {s['cpu']['p50']} ms ({report['embornal_from']})"
    )
    write_json(args.out, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
