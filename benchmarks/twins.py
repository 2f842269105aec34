"""Twins: runs of identical code between two modules, and those between the two backends.

    python benchmarks/twins.py [--min-lines 6] [--list] [PATH ...]

Reads every ``*.py`` file under each PATH (default ``src/embornal/storage``), normalised
as pylint's ``duplicate-code`` check does by default: each line stripped; blank lines,
comments, docstrings, imports and function signatures left out. A *pair* is a maximal run
of at least ``--min-lines`` consecutive normalised lines found in two different files
(each place the same run appears in a third file is one more pair). The report gives every
pair, the pairs with one file under a ``postgres`` folder and the other outside it (the
backends' twins), and the identical lines those pairs hold. ``--list`` prints each pair:
the two files, the first line of each, the run's length.

It is a plain, dependency-free count, so the figure can be repeated on any commit: e.g.
``git worktree add /tmp/old <commit>`` and point it at ``/tmp/old/src/embornal/storage``.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
import tokenize
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Pair", "normalised", "pairs"]


@dataclass(frozen=True)
class Pair:
    """One run of identical lines in two files: where it starts in each, how long it is."""

    first: Path
    first_line: int
    second: Path
    second_line: int
    length: int


def _docstring_lines(source: str) -> set[int]:
    """The line numbers of every module, class and function docstring."""
    out: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                end = body[0].end_lineno or body[0].lineno
                out.update(range(body[0].lineno, end + 1))
    return out


def _import_and_signature_lines(source: str) -> set[int]:
    """The lines of every import, and of every function's signature (``def`` to its body)."""
    out: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.update(range(node.lineno, node.body[0].lineno))
    return out


def normalised(source: str) -> list[tuple[int, str]]:
    """``(line number, text)`` of each line that counts: stripped, comments removed, blank
    lines, docstrings, imports and signatures left out."""
    skip = _docstring_lines(source) | _import_and_signature_lines(source)
    comments: dict[int, int] = {}  # line -> column where its comment starts
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.start[1]
    out = []
    for number, line in enumerate(source.splitlines(), start=1):
        if number in skip:
            continue
        if number in comments:
            line = line[: comments[number]]
        text = line.strip()
        if text:
            out.append((number, text))
    return out


def pairs(files: list[Path], min_lines: int = 6) -> list[Pair]:
    """Every maximal run of at least ``min_lines`` normalised lines shared by two files."""
    lines = {f: normalised(f.read_text("utf-8")) for f in files}
    windows: dict[tuple[str, ...], list[tuple[Path, int]]] = defaultdict(list)
    for f, rows in lines.items():
        texts = [t for _, t in rows]
        for i in range(len(texts) - min_lines + 1):
            windows[tuple(texts[i : i + min_lines])].append((f, i))
    starts: set[tuple[Path, int, Path, int]] = set()
    for places in windows.values():
        for x, (fa, ia) in enumerate(places):
            for fb, ib in places[x + 1 :]:
                if fa != fb:
                    a, b = sorted([(fa, ia), (fb, ib)])
                    starts.add((a[0], a[1], b[0], b[1]))
    found = []
    for fa, ia, fb, ib in sorted(starts):
        if (fa, ia - 1, fb, ib - 1) in starts:
            continue  # inside a run that starts earlier
        ta, tb = lines[fa], lines[fb]
        n = 0
        while ia + n < len(ta) and ib + n < len(tb) and ta[ia + n][1] == tb[ib + n][1]:
            n += 1
        found.append(Pair(fa, ta[ia][0], fb, tb[ib][0], n))
    return found


def _between_backends(pair: Pair) -> bool:
    return ("postgres" in pair.first.parts) != ("postgres" in pair.second.parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[Path("src/embornal/storage")])
    parser.add_argument("--min-lines", type=int, default=6)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args(argv)
    files = sorted({f for p in args.paths for f in ([p] if p.is_file() else p.rglob("*.py"))})
    found = pairs(files, args.min_lines)
    twins = [p for p in found if _between_backends(p)]
    if args.list:
        for p in found:
            mark = "backends" if _between_backends(p) else ""
            print(f"{p.first}:{p.first_line}  {p.second}:{p.second_line}  {p.length}  {mark}")
    print(f"files: {len(files)}, min lines: {args.min_lines}")
    print(f"pairs: {len(found)} ({sum(p.length for p in found)} lines)")
    print(f"pairs between the backends: {len(twins)} ({sum(p.length for p in twins)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
