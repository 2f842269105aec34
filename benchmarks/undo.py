"""Undo at scale: the undo of one event (decisions 0043, 0044) in a memory of many facts.

    python benchmarks/undo.py [--sizes 100000] [--calls 200]
                              [--out benchmarks/results/undo.json]

Each size is a fresh memory (no embedder) of that many ``scale.py`` facts over 200 paths,
10 % of them projects. Then, for each call, one fact is changed (not timed) and the undo of
that change is timed through ``Memory``: a forget (undone by a restore), a confirm (by a
confidence reset) and an attribute update (by an update back). Each undo finds the event by
its log position, folds the fact's stream, decides, and appends in its own transaction.
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

from benchmarks.common import (
    latency_summary,
    run_by_size,
)
from benchmarks.scale import build_corpus, make_content

from embornal import FixedClock, Memory, NewFact

SECTION = "Undo: one event undone at scale"


def _item(i: int, rng: random.Random, text: str) -> NewFact:
    if i % 10 == 0:
        attrs = {"name": f"project {i}", "status": "active"}
        return NewFact(f"/projects/p{i % 200}", text, kind="project", attributes=attrs)
    return NewFact(f"/area{i % 200}/t{i % 7}", text)


def _last(mem: Memory) -> int:
    row = mem._store.conn.execute("SELECT max(position) FROM events").fetchone()  # type: ignore[attr-defined]
    return int(row[0])


def _timed_undos(mem: Memory, ids: list[str], change: Callable[[str], object]) -> dict[str, Any]:
    samples = []
    for fact_id in ids:
        change(fact_id)
        position = _last(mem)
        t = time.perf_counter_ns()
        mem.undo(position, reason="measured")
        samples.append(time.perf_counter_ns() - t)
    return latency_summary(samples)


def run_size(size: int, calls: int, seed: int = 13) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{size}")
    corpus = build_corpus(seed, min(size, 100_000))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        with Memory.open(db, clock=FixedClock()) as mem:
            t = time.perf_counter()
            ids: list[str] = []
            for start in range(0, size, 1000):
                batch = [
                    _item(i, rng, make_content(rng, corpus))
                    for i in range(start, min(size, start + 1000))
                ]
                ids += [f.id for f in mem.store_many(batch)]
            load_s = time.perf_counter() - t
            plain = [i for n, i in enumerate(ids) if n % 10 != 0]
            projects = [i for n, i in enumerate(ids) if n % 10 == 0]
            picks = rng.sample(plain, 2 * calls)
            forget = _timed_undos(mem, picks[:calls], lambda f: mem.forget(f, reason="measured"))
            confirm = _timed_undos(mem, picks[calls:], mem.confirm)
            update = _timed_undos(
                mem, rng.sample(projects, calls), lambda f: mem.update(f, {"status": "done"})
            )
            assert mem.verify() == []
            out = {
                "facts": size,
                "load_s": round(load_s, 2),
                "undo_forget_ms": forget,
                "undo_confirm_ms": confirm,
                "undo_update_ms": update,
            }
        out["db_mb"] = round(db.stat().st_size / 2**20, 1)
    return out


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "Facts of `scale.py` sentences over 200 paths, 10 % projects; no embedder. Each call "
        "changes one fact (not timed), then times `Memory.undo` of that change. Measured "
        f"{m['date']} on {m.get('cpu_model') or 'unknown CPU'}, commit `{m.get('git_commit')}`"
        ". Reproduce: `python benchmarks/undo.py`. Raw: `benchmarks/results/undo.json`.",
        "",
        "| facts | undo forget (restore) p50 / p95 ms | undo confirm (reset) p50 / p95 ms "
        "| undo update (update back) p50 / p95 ms |",
        "|---:|---:|---:|---:|",
    ]
    for r in report["sizes"]:
        f, c, u = r["undo_forget_ms"], r["undo_confirm_ms"], r["undo_update_ms"]
        lines.append(
            f"| {r['facts']:,} | {f['p50']:.2f} / {f['p95']:.2f} | {c['p50']:.2f} / "
            f"{c['p95']:.2f} | {u['p50']:.2f} / {u['p95']:.2f} |"
        )
    lines += [
        "",
        "An undo reads one event by its position (the primary key), the fact's stream and "
        "its projection row; its cost does not grow with the size of the memory, only with "
        "the length of the fact's own stream.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_by_size(
        argv,
        doc=__doc__,
        name="undo",
        section=SECTION,
        run_size=run_size,
        markdown=markdown,
        summary=lambda r: (
            f"forget {r['undo_forget_ms']['p50']:.2f} ms, confirm "
            f"{r['undo_confirm_ms']['p50']:.2f} ms, update {r['undo_update_ms']['p50']:.2f} ms"
        ),
    )


if __name__ == "__main__":
    raise SystemExit(main())
