"""The history protocol at scale (decisions 0064–0066): its writes and its
queues in a memory of many facts.

    python benchmarks/history.py [--sizes 100000] [--calls 200]
                                 [--out benchmarks/results/history.json]

Each size is a fresh memory (no embedder) of that many ``scale.py`` facts over 200 paths,
stored in bulk, plus ``calls`` memories captured with ``remember`` (each timed). Then each
of ``calls`` times: ``promote``, ``corroborate`` (the second one meets the gate),
``provenance``, ``pin`` (with the anchor count), and the queues: ``due_for_consolidation``
(limit 20), ``due_for_review`` (limit 20) and ``list_forgotten`` (limit 20, with
``calls`` facts forgotten).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import p50_summary, run_by_size, time_each
from benchmarks.scale import build_corpus, make_content

from embornal import FixedClock, Memory, NewFact

SECTION = "History protocol: capture, consolidation and queues at scale"
NOTES = [
    "",
    "The issue sets no figure for these operations (its recall-cascade figure belongs to "
    "item 12, not built here); each stays a few milliseconds at 100k because every write "
    "folds only the fact's own stream and every queue reads an index of `memory_protocol`"
    " or `facts`. A first 100k run (commit `897d989`) gave `pin` 17.90 ms and "
    "`list_forgotten` 20.24 ms p50: the anchor count scanned every live fact and each "
    "forgotten fact's reason was looked up through the index of event types; the count "
    "now reads the pinned index of 0014 and the reason the fact's stream, and 0022 "
    "indexes the forgotten facts. Measured on the 2-core machine shared with other work, "
    "so p95 values are upper bounds. The 9 protocol tools add about 5.4k tokens "
    "(estimated as characters / 4) to the `full` profile's `tools/list`; `core` is "
    "unchanged.",
]

OPS = (
    "remember",
    "promote",
    "corroborate",
    "provenance",
    "pin",
    "due_for_consolidation",
    "due_for_review",
    "list_forgotten",
)


def _timed(calls: list[Callable[[], object]]) -> dict[str, Any]:
    return time_each(calls)


def run_size(size: int, calls: int, seed: int = 17) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{size}")
    corpus = build_corpus(seed, min(size, 100_000))
    clock = FixedClock()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        with Memory.open(db, clock=clock) as mem:
            t = time.perf_counter()
            ids: list[str] = []
            for start in range(0, size, 1000):
                batch = [
                    NewFact(f"/area{i % 200}/t{i % 7}", make_content(rng, corpus))
                    for i in range(start, min(size, start + 1000))
                ]
                ids += [f.id for f in mem.store_many(batch)]
            load_s = time.perf_counter() - t
            for fid in rng.sample(ids, calls):
                mem.forget(fid, reason="measured")
            captured: list[str] = []

            def capture(i: int) -> None:
                tier = "interpretation" if i % 2 else None
                s = mem.remember(make_content(rng, corpus), source=f"src{i}", tier=tier)
                captured.append(s.fact.id)

            out: dict[str, Any] = {"facts": size}
            out["remember"] = _timed([lambda i=i: capture(i) for i in range(calls)])
            clock.advance(days=40)
            out["promote"] = _timed([lambda f=f: mem.promote(f, reason="m") for f in captured])
            out["corroborate"] = _timed(
                [lambda f=f: mem.corroborate(f, "independent") for f in captured]
            )
            out["provenance"] = _timed([lambda f=f: mem.provenance(f) for f in captured])
            out["pin"] = _timed([lambda f=f: mem.pin(f, reason="m") for f in captured])
            for _ in range(calls):  # working material on the queue again
                mem.remember(make_content(rng, corpus))
            out["due_for_consolidation"] = _timed(
                [lambda: mem.due_for_consolidation(limit=20)] * calls
            )
            out["due_for_review"] = _timed([lambda: mem.due_for_review(limit=20)] * calls)
            out["list_forgotten"] = _timed([lambda: mem.list_forgotten(limit=20)] * calls)
            assert len(mem.due_for_review(limit=1000)) == calls // 2
            assert mem.verify() == []
            out["load_s"] = round(load_s, 2)
        out["db_mb"] = round(db.stat().st_size / 2**20, 1)
    return out


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "Facts of `scale.py` sentences over 200 paths stored in bulk, no embedder; then "
        "`--calls` memories captured with `remember` (half interpretations) and each "
        "operation timed through `Memory` per call (the queues with limit 20, over "
        f"`--calls` forgotten facts). Measured {m['date']} on "
        f"{m.get('cpu_model') or 'unknown CPU'}, commit `{m.get('git_commit')}`. Reproduce: "
        "`python benchmarks/history.py`. Raw: `benchmarks/results/history.json`.",
        "",
        "| facts | " + " | ".join(f"{op} p50 / p95 ms" for op in OPS) + " |",
        "|---:|" + "---:|" * len(OPS),
    ]
    for r in report["sizes"]:
        cells = [f"{r[op]['p50']:.2f} / {r[op]['p95']:.2f}" for op in OPS]
        lines.append(f"| {r['facts']:,} | " + " | ".join(cells) + " |")
    lines += NOTES
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_by_size(
        argv,
        doc=__doc__,
        name="history",
        section=SECTION,
        run_size=run_size,
        markdown=markdown,
        summary=p50_summary(OPS),
    )


if __name__ == "__main__":
    raise SystemExit(main())
