"""The remote client's methods, derived from the catalogue and ``Memory``'s signatures
(decisions 0084, 0174 and 0176).

A method of the remote client is one call of a catalogue operation: the operation whose
``call`` names the method (``confirm`` for ``Memory.confirm``, ``chronicle.canonize`` for
``Memory.chronicle.canonize``). Its signature is read from the local facade's attribute
(:class:`embornal.Memory`, :class:`~embornal.service.history.chronicle.Chronicle`; a
``use_case(...)`` gives its use case's, decision 0175); a call binds its arguments by it,
defaults included, and sends them through the client's one generic call,
``_op(operation, **arguments)``. Deriving checks that every argument is an input of a routed
operation, so a signature and its operation cannot drift apart unseen. A method whose
operation has no route, or that no operation calls, refuses as local-only.

Cheap at import (the standard library and client mode's configuration). :class:`Lazy`
derives each method the first time an instance asks for it, reading only the catalogue's
core when the method is a core operation's, and the signature of a use case from its
source (its module is not imported), so a client-mode command pays for the one method it
calls.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from embornal.interfaces.cli.remote_config import local_only as refusal

if TYPE_CHECKING:
    from embornal.interfaces.catalog import Operation

__all__ = [
    "Lazy",
    "derived_operations",
    "local_only",
    "method",
    "operation_of",
    "public_methods",
]


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
    """``api.NAME`` as one call of ``op`` through the instance's ``_op``. The signature is
    read from ``api``'s attribute (a ``use_case`` gives its use case's, read from its
    source: :func:`_signature`); for a routed operation every parameter must be one of its
    inputs."""
    signature = _signature(api, name)
    if op.http is not None and not op.local_only:
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

    route = op.http.path if op.http is not None else None
    return _named(call, name, signature, f"The catalogue operation ``{operation}`` (``{route}``).")


def local_only(api: type, name: str) -> Callable[..., Any]:
    """``api.NAME``, which no catalogue operation calls, as a refusal: it runs on the
    machine that holds the memory (:class:`~embornal.interfaces.cli.remote_config.LocalOnly`)."""
    signature = _signature(api, name)

    def call(self: Any, /, *args: Any, **kwargs: Any) -> Any:
        signature.bind(self, *args, **kwargs)  # a wrong call fails as the signature says
        raise refusal(name)

    return _named(call, name, signature, f"``{name}``: local only (no catalogue operation).")


def _signature(api: type, name: str) -> inspect.Signature:
    """``api.NAME``'s signature; a use case's read from its source while its module is not
    imported (:meth:`~embornal.service.later.UseCase.source_signature`)."""
    found = inspect.getattr_static(api, name)
    read = getattr(found, "source_signature", None)
    if read is not None:
        signature: inspect.Signature = read()
        return signature
    return inspect.signature(getattr(api, name))


def _named(
    call: Callable[..., Any], name: str, signature: inspect.Signature, doc: str
) -> Callable[..., Any]:
    call.__name__ = call.__qualname__ = name
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__doc__ = doc
    return call


def public_methods(api: type) -> list[str]:
    """The public methods of ``api`` (no property, class or static method)."""
    return sorted(n for n in dir(api) if _is_method(api, n))


def _is_method(api: type, name: str) -> bool:
    if name.startswith("_"):
        return False
    found = inspect.getattr_static(api, name, None)
    if isinstance(found, property | classmethod | staticmethod):
        return False
    return callable(found)


class Lazy:
    """A class whose missing public methods are those of the class ``API`` names
    (``"module:Name"``, imported on first use: ``Memory`` or ``Chronicle``), each derived
    the first time an instance asks for it, then kept on the class: the call of the
    operation that calls it (through ``_op``), or a ``local_only`` refusal when none does."""

    API: ClassVar[str]
    FACADE: ClassVar[str] = ""

    def __getattr__(self, name: str) -> Any:
        cls = type(self)
        api = _surface(cls.API)
        if not _is_method(api, name):
            raise AttributeError(f"{cls.__name__!r} object has no attribute {name!r}")
        op = operation_of(name, cls.FACADE, routed=False)
        setattr(cls, name, local_only(api, name) if op is None else method(api, name, op))
        return getattr(self, name)


def _surface(ref: str) -> type:
    from importlib import import_module

    module, _, name = ref.partition(":")
    found: type = getattr(import_module(module), name)
    return found
