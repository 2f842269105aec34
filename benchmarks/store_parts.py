"""Where a single ``store``'s CPU time goes on SQLite: each part timed on a memory of N facts.

    python benchmarks/store_parts.py --memory FILE [--facts 100000] [--stores 400]
                                     [--warmup 50] [--out FILE]
    python benchmarks/store_parts.py --build 100000 --memory FILE   # make FILE first

The memory (``--memory``, e.g. built once with ``--build``) is copied into a temporary
directory, opened with no model, and ``--stores`` single ``Memory.store`` calls of
``scale.py``'s corpus run on it after ``--warmup`` untimed ones. Each store's CPU time
(``time.process_time_ns``: a core's wait on a shared machine is not counted) gives the
p50 and the mean. Then the same stores run again with every part timed: each SQL
statement on the write connection (by what it writes), and the Python steps wrapped where
they are looked up (the command and its event, the payload and its JSON, the projector's
rows, the keyword document's terms, the history rows, the access check). A part's time is
its own, less the parts it calls; what no wrapper covers is "the rest" (the service's
glue, the transaction's context managers, the result). Timing adds a little overhead,
so the breakdown's total is a little above the p50 of the plain run.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks.common`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import latency_summary, machine_info, results_parser, save_results

SECTION = "A single store's CPU, part by part"

#: Statements by what they write or read (the first match of their SQL's opening wins).
SQL_PARTS: tuple[tuple[str, str], ...] = (
    ("COMMIT", "sql: COMMIT (FTS5 flush, WAL pages)"),
    ("BEGIN", "sql: BEGIN IMMEDIATE"),
    ("INSERT INTO events", "sql: the event row"),
    ("SELECT stream_id, max(version)", "sql: next versions and position"),
    ("SELECT max(coalesce", "sql: next versions and position"),
    ("SELECT (SELECT max(version)", "sql: next versions and position"),
    ("INSERT INTO facts_fts", "sql: the FTS row"),
    ("UPDATE counters SET value = value + ? WHERE name = 'fts_docs'", "sql: the FTS row"),
    ("INSERT INTO facts ", "sql: the facts row"),
    ("INSERT INTO fact_tags", "sql: the tag rows"),
    ("INSERT INTO fact_tag_versions", "sql: the tag rows"),
    ("SELECT id FROM paths", "sql: the path"),
    ("INSERT INTO paths", "sql: the path"),
    ("INSERT INTO path_closure", "sql: the path"),
    ("INSERT INTO fact_versions", "sql: the history rows"),
    ("SELECT DISTINCT v.fact_id", "sql: the history rows"),
    ("SELECT value FROM counters WHERE name = 'policy_version'", "sql: the access check"),
)


def sql_part(sql: str) -> str:
    text = " ".join(sql.split())
    for prefix, label in SQL_PARTS:
        if text.startswith(prefix):
            return label
    return "sql: " + text[:60]


class Parts:
    """Exclusive CPU time per part: a stack of running parts, each one's time less its
    children's."""

    def __init__(self) -> None:
        self.cpu: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self._stack: list[list[int]] = []  # [children's ns] per running part

    @contextmanager
    def part(self, label: str) -> Iterator[None]:
        self._stack.append([0])
        start = time.process_time_ns()
        try:
            yield
        finally:
            spent = time.process_time_ns() - start
            children = self._stack.pop()[0]
            self.cpu[label] += spent - children
            self.calls[label] += 1
            if self._stack:
                self._stack[-1][0] += spent

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.part(label):
                return fn(*args, **kwargs)

        return timed


class TimedConnection:
    """The write connection, each statement timed as its part (:data:`SQL_PARTS`)."""

    def __init__(self, conn: Any, parts: Parts) -> None:
        self._conn = conn
        self._parts = parts

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def execute(self, sql: str, *args: Any) -> Any:
        with self._parts.part(sql_part(sql)):
            return self._conn.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        with self._parts.part(sql_part(sql)):
            return self._conn.executemany(sql, *args)


class TimedEncoder:
    def __init__(self, encoder: Any, parts: Parts) -> None:
        self._encoder = encoder
        self._parts = parts

    def encode(self, value: Any) -> str:
        with self._parts.part("python: the payload's JSON"):
            return str(self._encoder.encode(value))


def instrument(mem: Any, parts: Parts) -> None:
    """Wrap the parts of a store where they are looked up (this process only)."""
    from embornal.domain.events import EVENTS
    from embornal.service.context import ServiceContext
    from embornal.service.facts import writes as facts
    from embornal.storage.common import conflicts as conflict_projection
    from embornal.storage.common import eventlog as eventlog_sql
    from embornal.storage.common import history
    from embornal.storage.sqlite import eventlog, projector

    def wrap(owner: Any, name: str, label: str) -> None:
        setattr(owner, name, parts.wrap(label, getattr(owner, name)))

    store = mem._store
    store.conn = TimedConnection(store.conn, parts)
    event = "python: the command and its event"
    for owner, name, label in (
        (facts, "decide_store", event),
        (facts, "new_id", event),
        (ServiceContext, "event", event),
        (facts, "new_fact", "python: the result"),
        (EVENTS, "to_payload", "python: the payload"),
        (eventlog, "_insert", "python: the event row"),
        (projector, "fact_row", "python: the facts row"),
        (projector, "fts_document", "python: the keyword document"),
        (projector, "apply", "python: the projector"),
        (conflict_projection, "after", "python: the projector"),
        (history, "after", "python: the history rows"),
        (history, "flush", "python: the history rows"),
        (mem._ctx.access, "unconditional", "python: the access check"),
    ):
        wrap(owner, name, label)
    eventlog_sql._ENCODER = TimedEncoder(eventlog_sql._ENCODER, parts)  # type: ignore[assignment]


def copy_memory(src: Path, directory: Path) -> Path:
    db = directory / "memory.db"
    shutil.copyfile(src, db)
    return db


def build(n: int, db: Path, seed: int) -> None:
    """A memory of ``n`` facts of ``scale.py``'s corpus at ``db`` (``store_many``, 1,000
    a batch), checkpointed so that it can be copied alone."""
    from benchmarks.scale import START, StepClock, _checkpoint, _load, build_corpus

    db.parent.mkdir(parents=True, exist_ok=True)
    corpus = build_corpus(seed, n)
    _load(n, db, StepClock(START), random.Random(f"{seed}:facts:{n}"), corpus)
    _checkpoint(db)


def measure(src: Path, facts: int, stores: int, warmup: int, seed: int) -> dict[str, Any]:
    from benchmarks.scale import build_corpus, make_fact_args

    from embornal import Memory

    corpus = build_corpus(seed, facts)
    rng = random.Random(f"{seed}:single-stores")
    calls = [make_fact_args(rng, corpus) for _ in range(warmup + 2 * stores)]
    with tempfile.TemporaryDirectory(prefix="embornal-store-parts-") as tmp:
        mem = Memory.open(copy_memory(src, Path(tmp)))
        try:
            for path, content, tags in calls[:warmup]:
                mem.store(path, content, tags=tags)
            plain: list[int] = []
            for path, content, tags in calls[warmup : warmup + stores]:
                c = time.process_time_ns()
                mem.store(path, content, tags=tags)
                plain.append(time.process_time_ns() - c)
            parts = Parts()
            instrument(mem, parts)
            timed: list[int] = []
            for path, content, tags in calls[warmup + stores :]:
                with parts.part("the rest"):
                    c = time.process_time_ns()
                    mem.store(path, content, tags=tags)
                    timed.append(time.process_time_ns() - c)
        finally:
            mem.close()
    commits = parts.cpu["sql: COMMIT (FTS5 flush, WAL pages)"]
    rows: list[dict[str, Any]] = [
        {"part": label, "us_per_store": round(ns / stores / 1e3, 1), "calls": parts.calls[label]}
        for label, ns in parts.cpu.most_common()
    ]
    return {
        "machine": machine_info(),
        "facts": facts,
        "stores": stores,
        "warmup": warmup,
        "cpu_ms": latency_summary(plain),
        "timed_cpu_ms": latency_summary(timed),
        "commit_us_mean": round(commits / stores / 1e3, 1),
        "parts": rows,
        "sql_us_per_store": round(
            sum(r["us_per_store"] for r in rows if r["part"].startswith("sql")), 1
        ),
        "python_us_per_store": round(
            sum(r["us_per_store"] for r in rows if not r["part"].startswith("sql")), 1
        ),
    }


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    cpu = report["cpu_ms"]
    lines = [
        f"CPU time (`time.process_time`, not wall: the machine is shared) of one "
        f"`Memory.store` on a memory of {report['facts']:,} facts with no model, "
        f"{report['stores']} stores after {report['warmup']} untimed ones: **p50 "
        f"{cpu['p50']:.3f} ms**, mean {cpu['mean']:.3f} ms, p95 {cpu['p95']:.3f} ms. "
        f"Measured {m['date']} on {m.get('cpu_model') or 'unknown CPU'} "
        f"({m.get('cpu_count')} CPUs, load {m.get('loadavg')}), commit `{m.get('git_commit')}`. "
        "Reproduce: `python benchmarks/store_parts.py --memory FILE` "
        "(`--build 100000 --memory FILE` makes FILE once).",
        "",
        "Each part's own CPU time per store, mean over the timed run (its total "
        f"{report['timed_cpu_ms']['mean']:.3f} ms a store, the timing's overhead included):",
        "",
        "| part | µs per store | calls |",
        "|---|---:|---:|",
    ]
    for r in report["parts"]:
        lines.append(f"| {r['part']} | {r['us_per_store']:.1f} | {r['calls']} |")
    lines.append(
        f"| **SQL / Python** | {report['sql_us_per_store']:.0f} / "
        f"{report['python_us_per_store']:.0f} | |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.scale import DEFAULT_SEED

    ap = results_parser(__doc__, "store_parts.json")
    ap.add_argument("--memory", type=Path, required=True, help="a memory built once")
    ap.add_argument("--build", type=int, help="build a memory of this many facts at --memory")
    ap.add_argument("--facts", type=int, default=100_000, help="facts in --memory (corpus)")
    ap.add_argument("--stores", type=int, default=400)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = ap.parse_args(argv)
    if args.build:
        if args.memory.exists():
            ap.error(f"{args.memory} exists: remove it or leave out --build")
        print(f"[store_parts] building {args.build:,} facts ...", file=sys.stderr, flush=True)
        build(args.build, args.memory, args.seed)
        return 0
    if not args.memory.exists():
        ap.error(f"no memory at {args.memory} (make one with --build N)")
    report = measure(args.memory, args.facts, args.stores, args.warmup, args.seed)
    save_results(args, report, SECTION, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
