"""A catch of every exception in ``src/`` says why it is broad, or passes the exception on.

``except Exception`` (or a bare ``except:``) is right at a boundary that must turn any
failure into its answer (the CLI's one line, MCP's ``internal_error``) and around a
library whose errors have no narrower base (tokenizers raises a bare ``Exception``, ONNX
Runtime's errors derive from it): each says so in a ``# broad:`` comment on its line.
``except BaseException`` cleans up and raises again (its last statement is ``raise``).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "embornal"


def _catches() -> list[tuple[Path, ast.ExceptHandler, list[str]]]:
    found = []
    for file in sorted(SRC.rglob("*.py")):
        text = file.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ExceptHandler):
                found.append((file, node, lines))
    return found


def _name(handler: ast.ExceptHandler) -> str | None:
    return handler.type.id if isinstance(handler.type, ast.Name) else None


def test_each_catch_of_every_exception_says_why_it_is_broad() -> None:
    unexplained = [
        f"{file.relative_to(SRC)}:{h.lineno}"
        for file, h, lines in _catches()
        if (h.type is None or _name(h) == "Exception") and "# broad:" not in lines[h.lineno - 1]
    ]
    assert not unexplained, unexplained


def test_each_catch_of_base_exception_raises_again() -> None:
    swallowed = [
        f"{file.relative_to(SRC)}:{h.lineno}"
        for file, h, _ in _catches()
        if _name(h) == "BaseException"
        and not (isinstance(h.body[-1], ast.Raise) and h.body[-1].exc is None)
    ]
    assert not swallowed, swallowed


def test_the_walk_finds_the_catches() -> None:
    assert sum(_name(h) == "Exception" for _, h, _ in _catches()) >= 10
