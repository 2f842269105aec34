"""The history protocol facade on the remote client: ``RemoteMemory.chronicle``, as the
local ``Memory.chronicle`` offers it (decision 0084). It holds the client's call of an
operation, not the client (no mixin).

Its methods are derived from the catalogue: each operation whose ``call`` is
``chronicle.NAME`` and that has an HTTP route gives the method ``NAME``, with the signature
:class:`~embornal.interfaces.api_chronicle.ChronicleAPI` declares for it; a call binds its
arguments by that signature and sends them through the client's one generic call
(``RemoteMemory._op``: the request built from the operation's route and inputs, the answer
read back by the operation's wire shape). Deriving checks that every argument is an input
of the operation. For mypy the class is the Protocol itself, so the local ``Chronicle`` and
this facade are held to one list of signatures.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from embornal.interfaces.api_chronicle import ChronicleAPI

if TYPE_CHECKING:
    from typing import Self

    from embornal.interfaces.catalog import Operation
    from embornal.service.conflict_record import ConflictRecord

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
    from embornal.interfaces.catalog import whole

    return {
        op.call.removeprefix(_FACADE): op
        for op in whole()
        if op.call is not None
        and op.call.startswith(_FACADE)
        and op.http is not None
        and not op.local_only
    }


def _method(name: str, op: Operation) -> Callable[..., Any]:
    """``ChronicleAPI.NAME`` as one call of ``op``."""
    signature = inspect.signature(getattr(ChronicleAPI, name))
    inputs = {item.name for item in op.inputs}
    unknown = [p for p in signature.parameters if p != "self" and p not in inputs]
    if unknown:
        raise TypeError(f"chronicle.{name}: {unknown} are no inputs of {op.name!r}")
    operation = op.name

    def call(self: _Calls, /, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        given = dict(bound.arguments)
        del given["self"]
        return self._op(operation, **given)

    call.__name__ = call.__qualname__ = name
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__doc__ = f"The catalogue operation ``{operation}`` (``{op.http and op.http.path}``)."
    return call


def _derive(cls: type[_Calls]) -> type[_Calls]:
    for name, op in derived_operations().items():
        if name not in cls.__dict__ and name not in _Calls.__dict__:
            setattr(cls, name, _method(name, op))
    return cls


if TYPE_CHECKING:  # the methods are ChronicleAPI's, as derived below

    class RemoteChronicle(_Calls, ChronicleAPI):
        """The chronicle of the memory behind ``embornal serve``."""

else:

    @_derive
    class RemoteChronicle(_Calls):
        """The chronicle of the memory behind ``embornal serve``."""
