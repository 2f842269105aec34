"""Portability at scale: the event log out and back in, and the Markdown export
(decisions 0061, 0062).

    python benchmarks/portability.py [--sizes 100000] [--calls 1]
                                     [--out benchmarks/results/portability.json]

Each size is a fresh memory (no embedder) of that many ``scale.py`` facts over 200 paths,
10 % of them projects, with a confirm on every 20th fact and a forget on every 50th. Timed
through ``Memory``: ``export_events`` of the whole log, ``import_events`` of that file into
a new memory (every line checked, each event written at its position in one transaction,
then the projections rebuilt), the two together (the round trip), and ``export_markdown``
into an empty directory and again into its own output (nothing changed: no file written).
The copy is then verified and its keyword recall compared with the original's.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import run_by_size
from benchmarks.scale import build_corpus, make_content

from embornal import FixedClock, Memory, NewFact

SECTION = "Portability: export and import of the event log, Markdown export (issue 13)"
TARGETS = {"round_trip_s": 60.0, "markdown_s": 30.0}


def _item(i: int, rng: random.Random, text: str) -> NewFact:
    if i % 10 == 0:
        attrs = {"name": f"project {i}", "status": "active"}
        return NewFact(f"/projects/p{i % 200}", text, kind="project", attributes=attrs)
    return NewFact(f"/area{i % 200}/t{i % 7}", text)


def _timed(call: Any) -> tuple[float, Any]:
    t = time.perf_counter()
    result = call()
    return round(time.perf_counter() - t, 2), result


def run_size(size: int, _calls: int, seed: int = 17) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{size}")
    corpus = build_corpus(seed, min(size, 100_000))
    clock = FixedClock()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with Memory.open(root / "m.db", clock=clock) as mem:
            ids: list[str] = []
            for start in range(0, size, 1000):
                batch = [
                    _item(i, rng, make_content(rng, corpus))
                    for i in range(start, min(size, start + 1000))
                ]
                ids += [f.id for f in mem.store_many(batch)]
            for n, fact_id in enumerate(ids):
                if n % 20 == 0:
                    mem.confirm(fact_id)
                elif n % 50 == 1:
                    mem.forget(fact_id, reason="measured")
            log = root / "log.ndjson"
            export_s, exported = _timed(lambda: mem.export_events(str(log)))
            with Memory.open(root / "copy.db", clock=clock, seed=False) as copy:
                import_s, imported = _timed(lambda: copy.import_events(str(log)))
                verify_s, problems = _timed(copy.verify)
                assert problems == [] and imported.events == exported.events
                words = ["project", "ordinary", "memory", "store", "paths"]
                same = all(
                    [h.fact.id for h in copy.recall(w, reinforce=False)]
                    == [h.fact.id for h in mem.recall(w, reinforce=False)]
                    for w in words
                )
            md_s, md = _timed(lambda: mem.export_markdown(str(root / "md")))
            md_again_s, _ = _timed(lambda: mem.export_markdown(str(root / "md")))
        return {
            "facts": size,
            "events": exported.events,
            "log_mb": round(log.stat().st_size / 2**20, 1),
            "export_events_s": export_s,
            "import_events_s": import_s,
            "round_trip_s": round(export_s + import_s, 2),
            "verify_copy_s": verify_s,
            "same_recall_hits": same,
            "markdown_s": md_s,
            "markdown_unchanged_s": md_again_s,
            "markdown_files": md.files,
        }


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "Facts of `scale.py` sentences over 200 paths, 10 % projects, every 20th confirmed "
        "and every 50th forgotten; no embedder. Timed through `Memory`. Measured "
        f"{m['date']} on {m.get('cpu_model') or 'unknown CPU'}, commit `{m.get('git_commit')}`"
        ". Reproduce: `python benchmarks/portability.py`. Raw: "
        "`benchmarks/results/portability.json`.",
        "",
        "| facts | events | log MB | export events s | import events s | round trip s "
        "(target ≤ 60) | markdown export s (target ≤ 30) | again, unchanged s | same recall |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for r in report["sizes"]:
        lines.append(
            f"| {r['facts']:,} | {r['events']:,} | {r['log_mb']} | {r['export_events_s']} | "
            f"{r['import_events_s']} | {r['round_trip_s']} | {r['markdown_s']} | "
            f"{r['markdown_unchanged_s']} | {'yes' if r['same_recall_hits'] else 'NO'} |"
        )
    missed = [
        f"{k} {r[k]} s at {r['facts']:,} (target {v:g} s)"
        for r in report["sizes"]
        for k, v in TARGETS.items()
        if r[k] > v
    ]
    lines += [
        "",
        "Import checks every line (JSON, type, version, payload, path, order) and writes each "
        "event at its position, in one transaction, then rebuilds the projections from the "
        "log (decision 0061); `admin verify` of the copy passes and keyword recall returns "
        "the same hits. The markdown export again into its own output reads every file to "
        "compare and writes none. "
        + ("Targets missed: " + "; ".join(missed) + "." if missed else "Both targets met."),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_by_size(
        argv,
        doc=__doc__,
        name="portability",
        section=SECTION,
        run_size=run_size,
        markdown=markdown,
        per_size=("calls", 1),
        summary=lambda r: f"round trip {r['round_trip_s']} s, markdown {r['markdown_s']} s",
    )


if __name__ == "__main__":
    raise SystemExit(main())
