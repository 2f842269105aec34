"""The timeline at scale (decisions 0088–0090): a session's timeline and a
windowed history search in a memory of many memories with a history context.

    python benchmarks/timeline.py [--sizes 100000] [--calls 200]
                                  [--out benchmarks/results/timeline.json]

Each size is a fresh memory (no embedder) of that many ``scale.py`` sentences stored in
bulk, each then given a history context in bulk (``MemoryContextSet`` events appended
1,000 to a transaction, as ``set_history_context`` appends them one at a time): sessions
of 100 memories at positions 0..99, one minute apart, a session starting every 12 hours
(100,000 memories span about 1.4 years). Then ``calls`` times each, through
``Memory.chronicle``:

* ``timeline(session=S, limit=100)``: one whole session, S drawn at random;
* ``timeline(start, end=start+7d, limit=50)``: a week's window;
* ``timeline(limit=50)``: no filter (the earliest events);
* ``search_history(QUERY, start, end=start+30d, limit=10)``: a month's window, QUERY one
  of the corpus's medium-frequency words;
* the same with ``expand=2`` (linked memories and session neighbours per hit).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import p50_summary, run_by_size, time_each
from benchmarks.scale import build_corpus, make_content

from embornal import FixedClock, Memory, NewFact
from embornal.domain.events.protocol import MemoryContextSet

SECTION = "Timeline (history context)"
OPS = ("session_timeline", "window_timeline", "timeline", "search_history", "search_expand")
SESSION_SIZE = 100
START = datetime(2025, 1, 1, tzinfo=UTC)
NOTES = [
    "",
    "Every read goes through an index of migration 0027: a session's rows "
    "(`memory_protocol_session`), an event-time range (`memory_protocol_event`), or the "
    "keyword match filtered by the window; none scans the memories.",
]


def _timed(calls: list[Callable[[], object]]) -> dict[str, Any]:
    return time_each(calls)


def _when(i: int) -> datetime:
    session, position = divmod(i, SESSION_SIZE)
    return START + timedelta(hours=12 * session, minutes=position)


def _dated(mem: Memory, ids: list[str], first: int) -> None:
    """Give the memories ``ids`` (the ``first``-th on) their context in one transaction."""
    ctx = mem._ctx  # a bulk load: the events set_history_context appends, 1,000 at once
    events = [
        ctx.event(
            fid,
            MemoryContextSet(
                fid, _when(first + k), f"s{(first + k) // 100}", (first + k) % SESSION_SIZE
            ),
            "bulk load",
            1,
        )
        for k, fid in enumerate(ids)
    ]
    with ctx.store.transaction("dating memories") as tx:
        ctx.store.append(tx, events)


def run_size(size: int, calls: int, seed: int = 17) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{size}")
    corpus = build_corpus(seed, min(size, 100_000))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        with Memory.open(db, clock=FixedClock()) as mem:
            t = time.perf_counter()
            for start in range(0, size, 1000):
                batch = [
                    NewFact(f"/area{i % 200}/t{i % 7}", make_content(rng, corpus))
                    for i in range(start, min(size, start + 1000))
                ]
                _dated(mem, [f.id for f in mem.store_many(batch)], start)
            load_s = time.perf_counter() - t
            sessions = size // SESSION_SIZE
            words = [w for w in corpus.words[200:400] if w.isalpha()]
            span = _when(size - 1) - START
            c = mem.chronicle

            def moment() -> datetime:
                return START + timedelta(seconds=rng.uniform(0, span.total_seconds()))

            picks = [rng.randrange(sessions) for _ in range(calls)]
            weeks = [moment() for _ in range(calls)]
            months = [(moment(), rng.choice(words)) for _ in range(calls)]
            week, month = timedelta(days=7), timedelta(days=30)
            out: dict[str, Any] = {"facts": size}
            out["session_timeline"] = _timed(
                [lambda s=s: c.timeline(session=f"s{s}", limit=100) for s in picks]
            )
            out["window_timeline"] = _timed(
                [lambda t=t: c.timeline(start=t, end=t + week, limit=50) for t in weeks]
            )
            out["timeline"] = _timed([lambda: c.timeline(limit=50)] * calls)
            out["search_history"] = _timed(
                [
                    lambda t=t, w=w: c.search_history(w, start=t, end=t + month, limit=10)
                    for t, w in months
                ]
            )
            out["search_expand"] = _timed(
                [
                    lambda t=t, w=w: c.search_history(w, start=t, end=t + month, limit=10, expand=2)
                    for t, w in months
                ]
            )
            assert len(c.timeline(session="s0", limit=100)) == min(size, SESSION_SIZE)
            out["load_s"] = round(load_s, 2)
        out["db_mb"] = round(db.stat().st_size / 2**20, 1)
    return out


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "Memories of `scale.py` sentences stored in bulk, no embedder, each with a history "
        "context (sessions of 100, one every 12 hours); each read timed through "
        f"`Memory.chronicle` per call. Measured {m['date']} on "
        f"{m.get('cpu_model') or 'unknown CPU'}, commit `{m.get('git_commit')}`. Reproduce: "
        "`python benchmarks/timeline.py`. Raw: `benchmarks/results/timeline.json`.",
        "",
        "| memories | " + " | ".join(f"{op} p50 / p95 ms" for op in OPS) + " |",
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
        name="timeline",
        section=SECTION,
        run_size=run_size,
        markdown=markdown,
        summary=p50_summary(OPS),
    )


if __name__ == "__main__":
    raise SystemExit(main())
