"""The remote client's methods, derived from the catalogue and the API's signatures
(decisions 0084 and 0174).

A method of the remote client is one call of a catalogue operation: the operation whose
``call`` names the method (``confirm`` for ``Memory.confirm``, ``chronicle.canonize`` for
``Memory.chronicle.canonize``) and that has an HTTP route. Its signature is the one the
Protocol (:class:`~embornal.interfaces.api.MemoryAPI`,
:class:`~embornal.interfaces.api_chronicle.ChronicleAPI`) declares; a call binds its
arguments by it, defaults included, and sends them through the client's one generic call,
``_op(operation, **arguments)``. Deriving checks that every argument is an input of the
operation, so a signature and its operation cannot drift apart unseen.

Stdlib-only at import. :func:`derive` derives a class's methods when it is made (the
chronicle facade, imported on first use); :class:`Lazy` derives each method the first time
an instance asks for it, reading only the catalogue's core when the method is a core
operation's, so a client-mode command pays for the one method it calls.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from embornal.interfaces.catalog import Operation

__all__ = ["Lazy", "derive", "derived_operations", "method", "operation_of"]

C = TypeVar("C", bound=type)


def derived_operations(facade: str = "", *, routed: bool = True) -> dict[str, Operation]:
    """The catalogue operation of each derived method, by the method's name: the
    operations whose ``call`` is ``facade + NAME`` (``facade`` ``""``: the memory's own
    methods, ``"chronicle."``: its chronicle's), only those with an HTTP route if
    ``routed`` (else a local-only one too: its call says it is local-only). Where two
    operations call one method, the one named as the method is its call (``show``, not
    ``tags``)."""
    from embornal.interfaces.catalog import whole

    return _by_method(whole(), facade, routed)


def operation_of(name: str, facade: str = "", *, routed: bool = True) -> Operation | None:
    """The operation of the derived method ``name`` (None: it has none), chosen as
    :func:`derived_operations` chooses: the catalogue's core is read first, its other
    parts only when the core has none."""
    from embornal.interfaces.catalog import CORE_OPERATIONS

    found = _by_method(CORE_OPERATIONS, facade, routed).get(name)
    return found if found is not None else derived_operations(facade, routed=routed).get(name)


def _by_method(ops: Iterable[Operation], facade: str, routed: bool) -> dict[str, Operation]:
    found: dict[str, Operation] = {}
    for op in ops:
        call = op.call
        if (
            call is None
            or not call.startswith(facade)
            or (routed and (op.http is None or op.local_only))
        ):
            continue
        name = call.removeprefix(facade)
        if "." in name or (name in found and found[name].name == name):
            continue
        found[name] = op
    return found


def method(api: type, name: str, op: Operation) -> Callable[..., Any]:
    """``api.NAME`` as one call of ``op`` through the instance's ``_op``."""
    signature = inspect.signature(getattr(api, name))
    inputs = {item.name for item in op.inputs}
    unknown = [p for p in signature.parameters if p != "self" and p not in inputs]
    if unknown:
        raise TypeError(f"{name}: {unknown} are no inputs of {op.name!r}")
    operation = op.name

    def call(self: Any, /, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        given = dict(bound.arguments)
        del given["self"]
        return self._op(operation, **given)

    call.__name__ = call.__qualname__ = name
    call.__signature__ = signature  # type: ignore[attr-defined]
    route = op.http.path if op.http is not None else None
    call.__doc__ = f"The catalogue operation ``{operation}`` (``{route}``)."
    return call


def derive(api: type, facade: str = "", *, routed: bool = True) -> Callable[[C], C]:
    """A class decorator: each method of ``api`` that has an operation (a routed one if
    ``routed``) and that the class does not define itself becomes that operation's call."""

    def decorate(cls: C) -> C:
        wanted = {n for n in dir(api) if not n.startswith("_")}
        for name, op in derived_operations(facade, routed=routed).items():
            if name in wanted and not _defines(cls, name):
                setattr(cls, name, method(api, name, op))
        return cls

    return decorate


def _defines(cls: type, name: str) -> bool:
    return any(name in klass.__dict__ for klass in cls.__mro__ if klass is not object)


class Lazy:
    """A class whose missing public methods are those of the Protocol ``API`` names
    (``"module:Name"``, imported on first use), each derived from its operation (through
    ``_op``) the first time an instance asks for it, then kept on the class."""

    API: ClassVar[str]
    FACADE: ClassVar[str] = ""
    ROUTED: ClassVar[bool] = True

    def __getattr__(self, name: str) -> Any:
        cls = type(self)
        api = _protocol(cls.API)
        if name.startswith("_") or not callable(getattr(api, name, None)):
            raise AttributeError(f"{cls.__name__!r} object has no attribute {name!r}")
        op = operation_of(name, cls.FACADE, routed=cls.ROUTED)
        if op is None:
            raise AttributeError(f"{cls.__name__!r} object has no attribute {name!r}")
        setattr(cls, name, method(api, name, op))
        return getattr(self, name)


def _protocol(ref: str) -> type:
    from importlib import import_module

    module, _, name = ref.partition(":")
    found: type = getattr(import_module(module), name)
    return found
