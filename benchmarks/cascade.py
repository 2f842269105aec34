"""The recall cascade at scale (decision 0095): anchors, canon and the
ordinary recall, with the stale interpretations, the narrative and the open conflicts.

    python benchmarks/cascade.py [--sizes 100000] [--calls 200]
                                 [--out benchmarks/results/cascade.json]

Each size is a fresh memory (no embedder) of that many ``scale.py`` facts over 200 paths,
stored in bulk; 12 of them pinned (the soft anchor limit), 8 others canonized in one
scope (the soft canon limit) and one narrative over three more. Then ``calls`` times
each: ``Memory.chronicle.recall`` with no query and with a 1-4 word ``scale.py`` query
(``limit`` 10, each reinforcing its hits as a recall does), ``search`` (the same query,
each candidate read again, nothing reinforced), ``search_archive`` (limit 10), and
``Memory.recall`` of the same queries for comparison (the ranking alone).
"""

from __future__ import annotations

import os
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
from benchmarks.scale import build_corpus, make_content, make_queries

from embornal import FixedClock, Memory, NewFact

SECTION = "Recall cascade: anchors, canon and recall at scale"
TARGET_MS = 15.0
"""The target: the cascade's p50 at 100k memories, 12 anchors, 8 canon entries
and a narrative."""

OPS = (
    "cascade_no_query",
    "cascade_query",
    "search",
    "search_archive",
    "recall_no_query",
    "recall_query",
)
NOTES = [
    "",
    f"The issue's figure is the cascade's p50 at 100k memories with 12 anchors, 8 canon "
    f"entries and a narrative: at most {TARGET_MS:.0f} ms. A cascade is the ordinary recall "
    "plus a read of the pinned index, the active canon, the interpretations due for review "
    "(an index of `memory_protocol`), the open conflicts and the narrative's stream with "
    "its dependencies' streams; `recall_*` is `Memory.recall` alone on the same queries, "
    "so the difference is what the cascade adds. The cascade and `Memory.recall` record "
    "their hits as a recall (one append per call); `search` and `search_archive` do not. "
    "Measured on the 2-core machine shared with other work, so p95 values are upper bounds.",
]


def _timed(calls: list[Callable[[], object]]) -> dict[str, Any]:
    """Wall and CPU time per call (see :func:`benchmarks.common.time_each`)."""
    return time_each(calls, cpu=True)


def run_size(size: int, calls: int, seed: int = 17) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{size}")
    corpus = build_corpus(seed, min(size, 100_000))
    queries = [q.text for q in make_queries(random.Random(f"{seed}:queries"), corpus, calls)]
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
            chosen = rng.sample(ids, 23)
            for fid in chosen[:12]:
                mem.pin(fid, reason="identity")
            for fid in chosen[12:20]:
                mem.chronicle.canonize(fid, "task", reason="in focus")
            mem.chronicle.narrate(
                "The account of the task.",
                reason="measured",
                memory_ids=chosen[20:23],
                scope="task",
            )
            chron = mem.chronicle
            first = chron.recall(limit=10, scope="task")
            assert (len(first.anchors), len(first.canon), len(first.memories)) == (12, 0, 0)
            wide = chron.recall(limit=25, scope="task")
            assert (len(wide.anchors), len(wide.canon), len(wide.memories)) == (12, 8, 5)
            assert wide.narrative is not None
            out: dict[str, Any] = {"facts": size, "anchors": 12, "canon": 8, "narratives": 1}
            out["cascade_no_query"] = _timed([lambda: chron.recall(limit=10, scope="task")] * calls)
            out["cascade_query"] = _timed(
                [lambda q=q: chron.recall(q, limit=10, scope="task") for q in queries]
            )
            out["search"] = _timed(
                [lambda q=q: chron.search(q, limit=10, scope="task") for q in queries]
            )
            out["search_archive"] = _timed(
                [lambda q=q: chron.search_archive(q, limit=10) for q in queries]
            )
            out["recall_no_query"] = _timed([lambda: mem.recall(limit=10)] * calls)
            out["recall_query"] = _timed([lambda q=q: mem.recall(q, limit=10) for q in queries])
            out["load_s"] = round(load_s, 2)
        out["db_mb"] = round(db.stat().st_size / 2**20, 1)
    out["target_p50_ms"] = TARGET_MS
    worst = max(out["cascade_no_query"]["p50"], out["cascade_query"]["p50"])
    worst_cpu = max(out["cascade_no_query"]["cpu"]["p50"], out["cascade_query"]["cpu"]["p50"])
    out["meets_target"] = worst <= TARGET_MS
    out["meets_target_cpu"] = worst_cpu <= TARGET_MS
    out["load_average"] = list(os.getloadavg())
    return out


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "Facts of `scale.py` sentences over 200 paths stored in bulk, no embedder; 12 "
        "pinned, 8 canonized in one scope, one narrative over three more; each call timed "
        "through `Memory` (`limit` 10; the queries are `scale.py`'s 1-4 word mix). "
        f"Measured {m['date']} on {m.get('cpu_model') or 'unknown CPU'}, commit "
        f"`{m.get('git_commit')}`. Reproduce: `python benchmarks/cascade.py`. Raw: "
        "`benchmarks/results/cascade.json`.",
        "",
        "| facts | call | wall p50 / p95 ms | CPU p50 / p95 ms |",
        "|---:|---|---:|---:|",
    ]
    for r in report["sizes"]:
        for op in OPS:
            wall, cpu = r[op], r[op]["cpu"]
            lines.append(
                f"| {r['facts']:,} | `{op}` | {wall['p50']:.2f} / {wall['p95']:.2f} | "
                f"{cpu['p50']:.2f} / {cpu['p95']:.2f} |"
            )
        load = ", ".join(f"{x:.1f}" for x in r.get("load_average", ()))
        lines.append(f"\nLoad average at the end of the {r['facts']:,} run: {load}.")
        verdict = "met" if r["meets_target"] else "**not met**"
        cpu = "met" if r["meets_target_cpu"] else "**not met**"
        lines.append(
            f"Target at {r['facts']:,} (the slower of the two cascades, p50 at most "
            f"{TARGET_MS:.0f} ms): wall {verdict}, CPU {cpu}."
        )
    lines += NOTES
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_by_size(
        argv,
        doc=__doc__,
        name="cascade",
        section=SECTION,
        run_size=run_size,
        markdown=markdown,
        summary=p50_summary(OPS),
    )


if __name__ == "__main__":
    raise SystemExit(main())
