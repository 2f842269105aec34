"""Start-up of the command line: wall time of short ``embornal`` runs beside bare Python.

    python benchmarks/startup.py [--runs 40] [--facts 20]
                                 [--out benchmarks/results/startup.json]
    python benchmarks/startup.py --memory FILE [--word WORD] [--only recall]

Agents call ``embornal`` from hooks, so each call pays the interpreter's start, the
imports and the command. Each command runs ``--runs`` times as a subprocess of the
console script on a small local memory (``--facts`` facts, no config.yaml, no model),
interleaved with ``python -c pass`` (A B C ... A B C ...), so a busy moment of the
machine hits every command alike. Wall time is ``time.perf_counter`` around
``subprocess.run``. The ratio is a command's median over bare Python's median.
CPU time is the child's user + system time (the change of
``resource.getrusage(RUSAGE_CHILDREN)`` over the run): on a shared machine it moves
less than the wall time, since waiting for a core is not counted; the CPU ratio is a
command's median CPU time over bare Python's.

``--memory FILE`` times the commands on a copy of a memory built once (e.g. by
``store_parts.py --build 100000 --memory FILE``) instead of a small new one, and
``--word`` is the word recalled (``scale.py``'s corpus: a medium-frequency word); the
copy takes the writes of the runs (a reinforcing recall, a store). ``--only recall``
times bare Python and ``memory recall`` alone; ``--only short`` adds ``embornal --version``
(the cheapest run of the console script: the parser, no command).

Byte code: the children may write ``__pycache__`` (``PYTHONDONTWRITEBYTECODE`` is
dropped from their environment), as an installed package has it; one warm-up round
is not counted.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine_info, percentile, results_parser, save_results

SECTION = "Command-line start-up"
#: Issue 10: ``memory recall`` at most this median wall time (ms) ...
TARGET_MS = 80.0
#: ... and at most this many times bare ``python -c pass``, measured side by side.
TARGET_RATIO = 6.0


def console_script() -> Path:
    """The ``embornal`` console script of this interpreter's environment."""
    beside = Path(sys.executable).parent / "embornal"
    if beside.exists():
        return beside
    found = shutil.which("embornal")
    if found is None:
        raise SystemExit("the embornal console script is not installed (pip install -e .)")
    return Path(found)


RECALL = "embornal memory recall "  # and the word


def commands(script: Path, word: str = "sqlite", only: str | None = None) -> dict[str, list[str]]:
    """What is timed, by label; ``python -c pass`` is the reference."""
    s = str(script)
    every = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "embornal --version": [s, "--version"],
        "embornal --help": [s, "--help"],
        "embornal memory --help": [s, "memory", "--help"],
        RECALL + word: [s, "memory", "recall", word],
        "embornal memory store": [s, "memory", "store", "/bench/startup", "Start-up is timed."],
        "embornal memory cat": [s, "memory", "cat", "/projects/embornal"],
    }
    if only == "recall":
        return {k: v for k, v in every.items() if k in ("python -c pass", RECALL + word)}
    if only == "short":
        short = ("python -c pass", "embornal --version", RECALL + word)
        return {k: v for k, v in every.items() if k in short}
    return every


def seed(home: Path, facts: int) -> None:
    """A small memory in ``home``: ``facts`` facts over a few paths, one about SQLite."""
    from embornal import Memory

    with Memory.open(home / "memory.db") as mem:
        mem.store("/projects/embornal", "The memory lives in SQLite.")
        for i in range(max(0, facts - 1)):
            mem.store(f"/notes/n{i % 5}", f"Note {i}: the build uses uv, not pip.")


def child_env(home: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env["EMBORNAL_HOME"] = str(home)
    for var in ("PYTHONDONTWRITEBYTECODE", "EMBORNAL_SERVER_URL", "EMBORNAL_TOKEN"):
        env.pop(var, None)
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: Sequence[str], env: Mapping[str, str]) -> tuple[float, float]:
    """``(wall, cpu)`` seconds of one run (cpu: the child's user + system time); a
    failing command stops the benchmark."""
    cpu = _children_cpu()
    t = time.perf_counter()
    proc = subprocess.run(
        argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=False
    )
    elapsed = time.perf_counter() - t
    used = _children_cpu() - cpu
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr[-500:]!r}")
    return elapsed, used


def summary(samples: Sequence[float]) -> dict[str, float | int]:
    ms = [s * 1000 for s in samples]
    return {
        "n": len(ms),
        "median": round(statistics.median(ms), 2),
        "p95": round(percentile(ms, 95), 2),
        "min": round(min(ms), 2),
        "max": round(max(ms), 2),
    }


def measure(
    runs: int,
    facts: int,
    memory: Path | None = None,
    word: str = "sqlite",
    only: str | None = None,
) -> dict[str, Any]:
    script = console_script()
    cmds = commands(script, word, only)
    with tempfile.TemporaryDirectory(prefix="embornal-startup-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        if memory is None:
            seed(home, facts)
        else:
            shutil.copyfile(memory, home / "memory.db")
        env = child_env(home)
        for argv in cmds.values():  # warm-up: byte code written, files in the page cache
            run_once(argv, env)
        samples: dict[str, list[float]] = {label: [] for label in cmds}
        cpu: dict[str, list[float]] = {label: [] for label in cmds}
        for _ in range(runs):
            for label, argv in cmds.items():
                wall, used = run_once(argv, env)
                samples[label].append(wall)
                cpu[label].append(used)
    bare = statistics.median(samples["python -c pass"]) * 1000
    bare_cpu = statistics.median(cpu["python -c pass"]) * 1000
    rows = []
    for label, values in samples.items():
        row: dict[str, Any] = {"command": label, **summary(values)}
        row["ratio"] = round(row["median"] / bare, 2)
        row["cpu_median"] = round(statistics.median(cpu[label]) * 1000, 2)
        row["cpu_ratio"] = round(row["cpu_median"] / bare_cpu, 2) if bare_cpu > 0 else None
        rows.append(row)
    recall = next(r for r in rows if r["command"].startswith(RECALL))
    return {
        "machine": machine_info(),
        "console_script": str(script),
        "runs": runs,
        "facts": facts,
        "memory": None if memory is None else str(memory),
        "word": word,
        "target": {"median_ms": TARGET_MS, "ratio": TARGET_RATIO},
        "met": {
            "median_ms": recall["median"] <= TARGET_MS,
            "ratio": recall["ratio"] <= TARGET_RATIO,
        },
        "commands": rows,
    }


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        f"Wall time of one run of each command as a subprocess of the console script, "
        f"{report['runs']} runs each, interleaved with bare `python -c pass`, on a memory of "
        f"{report['facts']:,} facts with no config.yaml and no model (WORD: "
        f"`{report.get('word', 'sqlite')}`). Measured {m['date']} on "
        f"{m.get('cpu_model') or 'unknown CPU'} ({m.get('cpu_count')} CPUs, load "
        f"{m.get('loadavg')}), Python {m['python']}, commit `{m.get('git_commit')}`. Reproduce: "
        "`python benchmarks/startup.py`. Raw: `benchmarks/results/startup.json`.",
        "",
        "| command | median ms | p95 ms | min ms | max ms | × bare python "
        "| CPU median ms | CPU × bare python |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report["commands"]:
        cpu_ratio = "–" if r.get("cpu_ratio") is None else f"{r['cpu_ratio']:.1f}"
        lines.append(
            f"| `{r['command']}` | {r['median']:.1f} | {r['p95']:.1f} | {r['min']:.1f} "
            f"| {r['max']:.1f} | {r['ratio']:.1f} | {r['cpu_median']:.1f} | {cpu_ratio} |"
        )
    recall = next(r for r in report["commands"] if r["command"].startswith(RECALL))
    met = report["met"]
    lines += [
        "",
        f"Target (issue 10): `memory recall` at most {TARGET_MS:.0f} ms median "
        f"({recall['median']:.1f} ms: **{'met' if met['median_ms'] else 'not met'}**) and at "
        f"most {TARGET_RATIO:.0f}× bare Python side by side ({recall['ratio']:.1f}×: "
        f"**{'met' if met['ratio'] else 'not met'}**). CPU time of the child, which waiting "
        f"for a core does not inflate: {recall['cpu_median']:.1f} ms, "
        f"{'–' if recall.get('cpu_ratio') is None else format(recall['cpu_ratio'], '.1f')}× "
        "bare Python's.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = results_parser(__doc__, "startup.json")
    ap.add_argument("--runs", type=int, default=40, help="timed runs of each command")
    ap.add_argument("--facts", type=int, default=20, help="facts in the memory")
    ap.add_argument("--memory", type=Path, help="a memory built once (its facts: --facts)")
    ap.add_argument("--word", default="sqlite", help="the word `memory recall` looks for")
    ap.add_argument("--only", choices=["recall", "short"], help="time bare Python and these alone")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.facts < 1:
        ap.error("--runs and --facts must be 1 or more")
    if args.memory is not None and not args.memory.exists():
        ap.error(f"no memory at {args.memory}")
    print(f"[startup] {args.runs} runs of each command ...", file=sys.stderr, flush=True)
    report = measure(args.runs, args.facts, args.memory, args.word, args.only)
    save_results(args, report, SECTION, markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
