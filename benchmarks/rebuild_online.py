"""``admin rebuild`` while another process writes: rebuild time and the longest write wait.

    python benchmarks/rebuild_online.py [--sizes 6000,60000]
                                        [--out benchmarks/results/rebuild_online.json]

Each size is a fresh memory of that many facts (sentences of ``benchmarks/scale.py`` text on
its paths, embedded with embornal's deterministic ``FakeEmbedder``, 384-d, so the vectors,
``facts_vec`` and their revisions are carried through), plus a recall every 100 facts. A
child process runs ``Memory.rebuild()``; meanwhile this process stores one fact after
another (each its own write transaction, as ``embornal memory store`` does) until the child
is done, and times each store. ``verify`` is timed afterwards, and must find no difference.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    machine_info,
    parse_sizes,
    percentile,
    results_parser,
    save_results,
)
from benchmarks.scale import build_corpus, make_content

from embornal import FixedClock, Memory, NewFact
from embornal.adapters.embeddings.base import FakeEmbedder

SECTION = "Rebuild while writing"
DIMS = 384
_CHILD = """
import sys, time
from embornal import Memory
with Memory.open(sys.argv[1]) as mem:
    sys.stdout.write("start\\n"); sys.stdout.flush()
    t = time.perf_counter()
    n = mem.rebuild()
    sys.stdout.write(f"{n} {time.perf_counter() - t}\\n")
"""


def build(db: Path, size: int, seed: int = 7) -> int:
    """A memory of ``size`` facts; the number of events in its log."""
    rng = random.Random(seed)
    corpus = build_corpus(seed, size)
    clock = FixedClock()
    with Memory.open(db, clock=clock, embedder=FakeEmbedder(DIMS)) as mem:
        for start in range(0, size, 500):
            items = [
                NewFact(rng.choice(corpus.paths), make_content(rng, corpus))
                for _ in range(min(500, size - start))
            ]
            mem.store_many(items)
            for _ in range(5):
                mem.recall(make_content(rng, corpus).split()[0])
            clock.advance(days=1)
        return int(mem._store.conn.execute("SELECT count(*) FROM events").fetchone()[0])


def run_size(size: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="embornal-rebuild-") as tmp:
        db = Path(tmp) / "memory.db"
        t = time.perf_counter()
        events = build(db, size)
        load_s = time.perf_counter() - t
        waits: list[float] = []
        failures = 0
        with Memory.open(db, embedder=FakeEmbedder(DIMS)) as mem:
            child = subprocess.Popen(
                [sys.executable, "-c", _CHILD, str(db)],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert child.stdout is not None
            assert child.stdout.readline() == "start\n"
            i = 0
            while child.poll() is None:
                t = time.perf_counter()
                try:
                    mem.store("/bench/during", f"written during the rebuild number {i}")
                except Exception:  # counted: a failed store is the finding
                    failures += 1
                waits.append(time.perf_counter() - t)
                i += 1
            replayed, rebuild_s = child.stdout.read().split()
            t = time.perf_counter()
            problems = mem.verify()
            verify_s = time.perf_counter() - t
            present = mem.history("/bench/during")  # one FactStored event per store
            stored = sum(e.type == "FactStored" for e in present)
        return {
            "facts": size,
            "events": events,
            "events_replayed": int(replayed),
            "load_s": round(load_s, 2),
            "rebuild_s": round(float(rebuild_s), 2),
            "writes_during": len(waits),
            "writes_failed": failures,
            "writes_present_after": stored,
            "write_wait_ms": {
                "p50": round(percentile(waits, 50) * 1000, 1),
                "p99": round(percentile(waits, 99) * 1000, 1),
                "max": round(max(waits) * 1000, 1),
            },
            "verify_s": round(verify_s, 2),
            "verify_ok": problems == [],
        }


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "`Memory.rebuild()` in a child process while this one stores facts one by one until "
        f"it is done; FakeEmbedder {DIMS}-d vectors. Measured {m['date']} on "
        f"{m.get('cpu_model') or 'unknown CPU'}, commit `{m.get('git_commit')}`. Reproduce: "
        "`python benchmarks/rebuild_online.py`. Raw: `benchmarks/results/rebuild_online.json`.",
        "",
        "| facts | events | rebuild s | writes during | failed | write wait p50 / p99 / max ms "
        "| verify s |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report["sizes"]:
        w = r["write_wait_ms"]
        lines.append(
            f"| {r['facts']:,} | {r['events']:,} | {r['rebuild_s']:.2f} | {r['writes_during']:,} "
            f"| {r['writes_failed']} | {w['p50']:.1f} / {w['p99']:.1f} / {w['max']:.1f} "
            f"| {r['verify_s']:.2f} |"
        )
    lines += [
        "",
        "The rebuild replays the log into temp tables, copies them into work tables in short "
        "transactions and swaps them in with one short one (decision 0014): the longest wait "
        "is a store that queued behind the swap. Before, the whole replay was one write "
        "transaction: at 6,096 events a concurrent store failed after the 10 s busy timeout.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "rebuild_online.json")
    ap.add_argument("--sizes", default="6000,60000")
    args = ap.parse_args(argv)
    sizes = parse_sizes(ap, args.sizes)
    report: dict[str, Any] = {"machine": machine_info(), "sizes": []}
    for size in sizes:
        print(f"[rebuild] {size:,} facts ...", file=sys.stderr, flush=True)
        r = run_size(size)
        report["sizes"].append(r)
        print(f"[rebuild] {json.dumps(r)}", file=sys.stderr, flush=True)
    save_results(args, report, SECTION, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
