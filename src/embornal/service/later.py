"""A module imported on first use, for the facade's use cases off the start-up path.

``embornal memory recall`` must start fast; policies, tokens, path tags and the admin
use cases are never on its path, so :class:`embornal.Memory` binds them as ``Later``
and the first call imports them (type checkers see the real modules).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["Later"]


class Later:
    """Stands for the module ``name``; the first attribute read imports it."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"Later({self._name!r})"
