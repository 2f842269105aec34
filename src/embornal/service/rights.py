"""The rights of each operation, as its facade method declares them (decision 0179).

An operation of the catalogue calls one method of :class:`~embornal.service.memory.Memory`
or :class:`~embornal.service.history.chronicle.Chronicle`; that method declares what the
operation needs on what, beside the use case it calls
(:func:`embornal.service.later.use_case`, :func:`embornal.service.later.declares`). The
facade hands its declarations to the context it opens, whose checks
(:meth:`~embornal.service.context.ServiceContext.target` and its siblings) read them by the
method's name, as the catalogue's ``call`` names it: ``"forget"``,
``"chronicle.canonize"``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from embornal.service.later import declared

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from embornal.domain.access.rights import Need

__all__ = ["of", "table"]


def of(facade: type, name: str) -> tuple[Need, ...]:
    """What ``facade``'s method ``name`` declares (KeyError: it is no operation)."""
    found = declared(vars(facade).get(name))
    if found is None:
        raise KeyError(f"the method {name!r} of {facade.__name__} declares no rights")
    return found


def table(
    operations: Iterable[tuple[str, str | None]], rights: Callable[[str], tuple[Need, ...]]
) -> Mapping[str, tuple[Need, ...]]:
    """Each ``(name, call)``'s rights as ``rights(call)`` finds them, by name in the order
    given; an operation that calls no method (``health``) asks only for a known subject.
    RuntimeError names the operations whose method declares nothing."""
    found: dict[str, tuple[Need, ...]] = {}
    missing = []
    for name, call in operations:
        try:
            found[name] = () if call is None else rights(call)
        except KeyError:
            missing.append(name)
    if missing:
        raise RuntimeError(f"operations without a rights declaration: {', '.join(missing)}")
    return MappingProxyType(found)
