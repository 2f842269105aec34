"""A module imported on first use, and a facade method that is one call of its use case.

``embornal memory recall`` must start fast; policies, tokens, path tags and the admin
use cases are never on its path, so :class:`embornal.Memory` binds them as ``Later``
and the first call imports them (type checkers see the real modules).

Most of ``Memory``'s methods are one call of a use case with the memory's context:
``confirm = use_case(lambda: spine.confirm)`` makes the method from the use case, its
signature and its docstring the use case's (less the context), the module imported on the
first call (decision 0175). Type checkers read the signature from the function.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, cast, overload

if TYPE_CHECKING:
    from embornal.service.context import ServiceContext

__all__ = ["Later", "UseCase", "use_case"]

P = ParamSpec("P")
R = TypeVar("R")


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


class UseCase(Generic[P, R]):
    """A method that calls the use case ``find()`` returns with its instance's ``_ctx``
    first: on an instance, the use case with the context bound; on the class, this."""

    def __init__(self, find: Callable[[], Callable[Concatenate[ServiceContext, P], R]]) -> None:
        self._find = find
        self._function: Callable[Concatenate[ServiceContext, P], R] | None = None
        self.name = ""

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = name

    def function(self) -> Callable[Concatenate[ServiceContext, P], R]:
        """The use case (its module imported the first time)."""
        found = self._function
        if found is None:
            found = self._function = self._find()
        return found

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> UseCase[P, R]: ...

    @overload
    def __get__(self, obj: object, owner: type[Any]) -> Callable[P, R]: ...

    def __get__(self, obj: object | None, owner: type[Any]) -> UseCase[P, R] | Callable[P, R]:
        if obj is None:
            return self
        return cast("Callable[P, R]", partial(self.function(), obj._ctx))  # type: ignore[attr-defined]

    def __call__(self, instance: Any, /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Called on the class, as a function is: the instance first."""
        return self.function()(instance._ctx, *args, **kwargs)

    @property
    def __doc__(self) -> str | None:  # type: ignore[override]
        return self.function().__doc__

    @property
    def __signature__(self) -> inspect.Signature:
        """The use case's signature, ``self`` in place of the context (as a method's)."""
        signature = inspect.signature(self.function())
        _context, *rest = signature.parameters.values()
        this = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
        return signature.replace(parameters=[this, *rest])

    def __repr__(self) -> str:
        return f"<use case {self.name}>"


def use_case(find: Callable[[], Callable[Concatenate[ServiceContext, P], R]]) -> UseCase[P, R]:
    """The facade method that is one call of the use case ``find()`` returns."""
    return UseCase(find)
