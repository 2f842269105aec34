"""Helpers shared by the benchmark scripts: machine facts, latency summaries, RESULTS.md.

Nothing here imports the benchmarked code paths, so importing this module costs nothing
that a measurement could see.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

__all__ = [
    "REPO_ROOT",
    "RESULTS_TITLE",
    "latency_summary",
    "machine_info",
    "p50_summary",
    "parse_sizes",
    "percentile",
    "results_parser",
    "rss_now_mb",
    "save_results",
    "source_fingerprint",
    "time_calls",
    "time_each",
    "update_results_section",
]

REPO_ROOT = Path(__file__).resolve().parents[1]
RESULTS_TITLE = "# embornal benchmark results"


def rss_now_mb() -> float | None:
    """This process's resident memory now, in MB (Linux ``/proc``; None elsewhere)."""
    try:
        fields = Path("/proc/self/statm").read_text().split()
    except OSError:
        return None
    return round(int(fields[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100), linear between the closest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    if len(ordered) == 1:
        return float(ordered[0])
    pos = (len(ordered) - 1) * q / 100.0
    low = math.floor(pos)
    high = math.ceil(pos)
    frac = pos - low
    return float(ordered[low] + (ordered[high] - ordered[low]) * frac)


def latency_summary(samples_ns: Sequence[int]) -> dict[str, float | int]:
    """p50/p95/p99/mean/min/max in milliseconds (3 decimals) of samples in nanoseconds."""
    ms = [s / 1e6 for s in samples_ns]
    if not ms:
        return {"n": 0}
    return {
        "n": len(ms),
        "p50": round(percentile(ms, 50), 3),
        "p95": round(percentile(ms, 95), 3),
        "p99": round(percentile(ms, 99), 3),
        "mean": round(sum(ms) / len(ms), 3),
        "min": round(min(ms), 3),
        "max": round(max(ms), 3),
    }


def time_each(calls: Sequence[Callable[[], object]], *, cpu: bool = False) -> dict[str, Any]:
    """The latency summary of running each call once, in order; with ``cpu``, also the
    process's CPU time per call (``"cpu"``): on a machine shared with other work the wall
    time waits for a core, the CPU time does not."""
    samples, cpu_ns = [], []
    for call in calls:
        c = time.process_time_ns()
        t = time.perf_counter_ns()
        call()
        samples.append(time.perf_counter_ns() - t)
        cpu_ns.append(time.process_time_ns() - c)
    out: dict[str, Any] = dict(latency_summary(samples))
    if cpu:
        out["cpu"] = latency_summary(cpu_ns)
    return out


def p50_summary(ops: Sequence[str]) -> Callable[[dict[str, Any]], str]:
    """A size's one-line summary: each operation's p50 (for :func:`run_by_size`)."""
    return lambda r: ", ".join(f"{op} {r[op]['p50']:.2f} ms" for op in ops)


def time_calls(call: Callable[..., Any], args: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
    """``latency_summary`` of ``call(arg, **kwargs)`` timed once for each of ``args``."""
    return time_each([partial(call, arg, **kwargs) for arg in args])


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None


def _cpu_model() -> str | None:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or None
    match = re.search(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    return match.group(1).strip() if match else (platform.processor() or None)


def source_fingerprint(root: Path = REPO_ROOT / "src") -> str:
    """A short hash of the package sources measured (the tree may differ from the commit)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".sql") and path.is_file():
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def machine_info() -> dict[str, Any]:
    """What the numbers were measured on."""
    import sqlite3

    info: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "cpu_count": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "executable": sys.executable,
        "stdlib_sqlite_version": sqlite3.sqlite_version,
        "git_commit": _git_commit(),
        "source_sha256": source_fingerprint(),
    }
    try:
        import sqlean

        info["sqlite_version"] = str(sqlean.sqlite_version)
    except ImportError:  # pragma: no cover - sqlean is a dependency of embornal
        info["sqlite_version"] = None
    try:
        from importlib.metadata import version

        info["embornal_version"] = version("embornal")
    except Exception:  # pragma: no cover - not installed
        info["embornal_version"] = None
    if hasattr(os, "getloadavg"):
        info["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    return info


def update_results_section(results_md: Path, heading: str, body: str) -> None:
    """Put ``## heading`` + ``body`` into RESULTS.md, replacing only that section.

    The file is created with the common title when missing; other sections stay as they are.
    """
    section = f"## {heading}\n\n{body.strip()}\n"
    exists = results_md.exists()
    text = results_md.read_text(encoding="utf-8") if exists else f"{RESULTS_TITLE}\n"
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if ln.rstrip("\n") == f"## {heading}"), None)
    if start is None:
        new_text = text.rstrip("\n") + "\n\n" + section
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
        )
        before = "".join(lines[:start]).rstrip("\n")
        after = "".join(lines[end:])
        new_text = before + "\n\n" + section + ("\n" + after if after else "")
    results_md.parent.mkdir(parents=True, exist_ok=True)
    results_md.write_text(new_text, encoding="utf-8")


def parse_sizes(ap: argparse.ArgumentParser, text: str) -> list[int]:
    """``--sizes 6000,60000`` as whole numbers of 1 or more (``ap.error`` otherwise)."""
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        ap.error(f"--sizes takes comma-separated whole numbers, e.g. {ap.get_default('sizes')}")
    if not sizes or min(sizes) < 1:
        ap.error("--sizes needs at least one size of 1 or more")
    return sizes


def results_parser(doc: str | None, out_name: str) -> argparse.ArgumentParser:
    """A benchmark's parser with the flags every script shares: ``--out`` (its JSON under
    benchmarks/results/), ``--results-md`` and ``--no-markdown``."""
    ap = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO_ROOT / "benchmarks/results" / out_name)
    ap.add_argument("--results-md", type=Path, default=REPO_ROOT / "benchmarks/RESULTS.md")
    ap.add_argument("--no-markdown", action="store_true")
    return ap


def write_json(path: Path, report: Any) -> None:
    """``report`` as indented JSON at ``path``, its folder made if need be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")


def save_results(args: argparse.Namespace, report: Any, section: str, body: str) -> None:
    """Write ``report`` as JSON to ``args.out``, put ``body`` in its RESULTS.md section
    (unless ``--no-markdown``) and print it."""
    write_json(args.out, report)
    if not args.no_markdown:
        update_results_section(args.results_md, section, body)
    print(body)


def run_by_size(
    argv: Sequence[str] | None,
    *,
    doc: str | None,
    name: str,
    section: str,
    run_size: Callable[[int, int], dict[str, Any]],
    summary: Callable[[dict[str, Any]], str],
    markdown: Callable[[dict[str, Any]], str],
    sizes: str = "100000",
    per_size: tuple[str, int] = ("calls", 200),
    unit: str = "facts",
) -> int:
    """The ``main`` of a benchmark that runs once per ``--sizes`` entry: parse the shared
    flags, ``--sizes`` and one count per size (``--calls`` by default), run each size with
    a progress line on stderr, then save the report and its RESULTS.md ``section``."""
    ap = results_parser(doc, f"{name.replace('-', '_')}.json")
    ap.add_argument("--sizes", default=sizes)
    flag, default = per_size
    ap.add_argument(f"--{flag}", type=int, default=default)
    args = ap.parse_args(argv)
    report: dict[str, Any] = {"machine": machine_info(), "sizes": []}
    for size in parse_sizes(ap, args.sizes):
        print(f"[{name}] {size:,} {unit} ...", file=sys.stderr, flush=True)
        r = run_size(size, getattr(args, flag))
        report["sizes"].append(r)
        print(f"[{name}] {size:,}: {summary(r)}", file=sys.stderr, flush=True)
    save_results(args, report, section, markdown(report))
    return 0
