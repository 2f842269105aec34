"""The history protocol facade on the remote client: ``RemoteMemory.chronicle``, each
method one catalogue operation, as the local ``Memory.chronicle`` offers it (decision
0084). It holds the client's call of an operation, not the client (no mixin)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from embornal.service.chronicle_results import AuditEntry

__all__ = ["RemoteChronicle"]

Call = Callable[..., Any]
"""``RemoteMemory._op``: the operation's name, then the ``Memory`` arguments."""


class RemoteChronicle:
    """The chronicle of the memory behind ``embornal serve``."""

    def __init__(self, op: Call) -> None:
        self._op = op

    def audit_log(self, *, limit: int | None = None) -> list[AuditEntry]:
        return cast("list[AuditEntry]", self._op("audit_log", limit=limit))
