"""The tree drawn in ``embornal.errors``'s docstring is the module's exception tree.

Each exception class of the module appears once in the drawing, under its base class, and
the drawing names no class the module lacks.
"""

from __future__ import annotations

import inspect
import re

from embornal import errors

BRANCH = re.compile(r"^(?P<lead>(?:│   |    )*)(?:├── |└── )(?P<name>\w+)")


def _drawn() -> dict[str, str | None]:
    """Class name → the name of its parent in the drawing (None for the root)."""
    doc = errors.__doc__ or ""
    lines = doc.split("::", 1)[1].split("\n\n")[1].splitlines()
    root = lines[0].split()[0]
    parents: dict[str, str | None] = {root: None}
    stack = [root]
    for line in lines[1:]:
        found = BRANCH.match(line.strip("\n")[4:])
        assert found, f"not a branch of the tree: {line!r}"
        depth = len(found["lead"]) // 4 + 1
        name = found["name"]
        assert name not in parents, f"{name} is drawn twice"
        del stack[depth:]
        parents[name] = stack[-1]
        stack.append(name)
    return parents


def _classes() -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for name, value in vars(errors).items():
        if inspect.isclass(value) and issubclass(value, errors.EmbornalError):
            base = value.__bases__[0]
            found[name] = None if value is errors.EmbornalError else base.__name__
    return found


def test_the_docstring_tree_draws_every_exception_under_its_base() -> None:
    assert _drawn() == _classes()


def test_every_exception_is_exported() -> None:
    assert set(_classes()) <= set(errors.__all__)
