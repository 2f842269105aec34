"""The history protocol facade on the remote client: ``RemoteMemory.chronicle``, as the
local ``Memory.chronicle`` offers it (decision 0084). It holds the client's call of an
operation, not the client (no mixin).

Its methods are derived from the catalogue (:mod:`.remote_derive`), each on first use: the
operation whose ``call`` is ``chronicle.NAME`` gives the method ``NAME``, with the signature
:class:`~embornal.service.history.chronicle.Chronicle` gives it (decision 0176), sent through the
client's one generic call (``RemoteMemory._op``); a method with no routed operation refuses
as local-only. For mypy the class is ``Chronicle`` itself, so the local facade and this one
are held to one list of signatures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from embornal.interfaces.cli import remote_derive

if TYPE_CHECKING:
    from typing import Self

    from embornal.interfaces.catalog import Operation
    from embornal.service.conflicts.record import ConflictRecord
    from embornal.service.history.chronicle import Chronicle

__all__ = ["RemoteChronicle", "derived_operations"]

Call = Callable[..., Any]
"""``RemoteMemory._op``: the operation's name, then the ``Memory`` arguments."""

_FACADE = "chronicle."


class _Calls:
    """The one call path of the facade, and what the catalogue cannot say by itself."""

    def __init__(self, op: Call) -> None:
        self._op = op

    @classmethod
    def over(cls, op: Call) -> Self:
        """The facade over the client's call ``op``."""
        return cls(op)

    def list_conflicts(
        self, *, resolved: bool | None = None, limit: int | None = None
    ) -> list[ConflictRecord]:
        """Over REST this is the queue's list (``GET /conflicts?status=…``): the local
        operation has no route of its own."""
        status = "all" if resolved is None else "resolved" if resolved else "open"
        return cast("list[ConflictRecord]", self._op("conflicts", status=status, limit=limit))


def derived_operations() -> dict[str, Operation]:
    """The catalogue operation of each derived method, by the method's name: the routed
    operations whose ``call`` goes through the chronicle facade."""
    return remote_derive.derived_operations(_FACADE)


if TYPE_CHECKING:  # the methods are Chronicle's, as derived below

    class RemoteChronicle(_Calls, Chronicle):
        """The chronicle of the memory behind ``embornal serve``."""

else:

    class RemoteChronicle(_Calls, remote_derive.Lazy):
        """The chronicle of the memory behind ``embornal serve``."""

        API = "embornal.service.history.chronicle:Chronicle"
        FACADE = _FACADE
