"""A module imported on first use, for the facade's use cases off the start-up path.

``embornal memory recall`` must start fast; policies, tokens, path tags and the admin
use cases are never on its path, so :class:`embornal.Memory` binds them as ``Later``
and the first call imports them (type checkers see the real modules).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = ["Later"]


class Later:
    """Stands for the module ``name``; the first attribute read imports it (and keeps it:
    a store through the facade then pays no look-up in ``sys.modules``)."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"Later({self._name!r})"
