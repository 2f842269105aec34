"""A facade method that is one call of its use case, its module imported on first use.

``embornal memory recall`` must start fast; policies, tokens, path tags and the admin
use cases are never on its path, so :class:`embornal.Memory` binds their modules as
:class:`embornal.lazy.Later` and the first call imports them (type checkers see the real
modules).

Most of ``Memory``'s methods are one call of a use case with the memory's context:
``confirm = use_case(lambda: spine.confirm)`` makes the method from the use case, its
signature and its docstring the use case's (less the context), the module imported on the
first call (decision 0175). Type checkers read the signature from the function. The
operation's rights are declared on the same line, ``use_case(lambda: spine.confirm,
WRITES)``, or with :func:`declares` on a method written out (decision 0179).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from sys import modules

from embornal.hints import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    Generic,
    ParamSpec,
    TypeVar,
    cast,
    overload,
)
from embornal.lazy import Later

if TYPE_CHECKING:
    from embornal.domain.access.rights import Need
    from embornal.service.context import ServiceContext

__all__ = ["UseCase", "declared", "declares", "use_case"]

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])


class UseCase(Generic[P, R]):
    """A method that calls the use case ``find()`` returns with its instance's ``_ctx``
    first: on an instance, the use case with the context bound; on the class, this."""

    def __init__(
        self,
        find: Callable[[], Callable[Concatenate[ServiceContext, P], R]],
        rights: tuple[Need, ...] | None = None,
    ) -> None:
        self._find = find
        self._function: Callable[Concatenate[ServiceContext, P], R] | None = None
        self.name = ""
        self.rights = rights
        """What the operation needs on what (None: the method is no operation)."""

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
        return _as_method(inspect.signature(self.function()))

    def source_signature(self) -> inspect.Signature:
        """``__signature__``, read from the use case's source while its module is not
        imported yet (the remote client derives its method from it without loading the
        service, decision 0176); the module is imported when the source cannot say it
        alone (a default that is no literal, a decorator, a name imported from elsewhere)."""
        if self._function is None:
            found = _source_of(self._find)
            read = None if found is None else _parsed(*found)
            if read is not None:
                return _as_method(read)
        return self.__signature__

    def __repr__(self) -> str:
        return f"<use case {self.name}>"


def _as_method(signature: inspect.Signature) -> inspect.Signature:
    _context, *rest = signature.parameters.values()
    this = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
    return signature.replace(parameters=[this, *rest])


def _source_of(find: Callable[[], object]) -> tuple[str, str] | None:
    """``(module, function)`` of a ``lambda: module.function`` whose module is not imported."""
    names: tuple[str, ...] = getattr(getattr(find, "__code__", None), "co_names", ())
    if len(names) == 1:  # ``lambda: backup.backup``: one name for both
        names = names * 2
    if len(names) != 2:
        return None
    holder = getattr(find, "__globals__", {}).get(names[0])
    if not isinstance(holder, Later) or holder._module is not None or holder._name in modules:
        return None  # imported: its signature costs nothing more
    return holder._name, names[1]


def _parsed(module: str, name: str) -> inspect.Signature | None:
    """The signature of ``module.name`` as its source writes it (None: it cannot say)."""
    import ast
    from importlib.util import find_spec

    spec = find_spec(module)
    if spec is None or spec.origin is None:
        return None
    with open(spec.origin, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    node = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if node is None or node.decorator_list:
        return None
    args, kind = node.args, inspect.Parameter
    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + [*args.defaults]
    given: list[tuple[ast.arg, Any, ast.expr | None]] = [
        (a, kind.POSITIONAL_ONLY if a in args.posonlyargs else kind.POSITIONAL_OR_KEYWORD, d)
        for a, d in zip(positional, defaults, strict=True)
    ]
    if args.vararg is not None:
        given.append((args.vararg, kind.VAR_POSITIONAL, None))
    given += [
        (a, kind.KEYWORD_ONLY, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
    ]
    if args.kwarg is not None:
        given.append((args.kwarg, kind.VAR_KEYWORD, None))
    params = []
    for arg, how, default in given:
        try:
            value = kind.empty if default is None else ast.literal_eval(default)
        except ValueError:
            return None  # a name or a call: the module says what it is
        note = kind.empty if arg.annotation is None else ast.unparse(arg.annotation)
        params.append(kind(arg.arg, how, default=value, annotation=note))
    returns = inspect.Signature.empty if node.returns is None else ast.unparse(node.returns)
    return inspect.Signature(params, return_annotation=returns)


def use_case(
    find: Callable[[], Callable[Concatenate[ServiceContext, P], R]],
    rights: tuple[Need, ...] | None = None,
) -> UseCase[P, R]:
    """The facade method that is one call of the use case ``find()`` returns; ``rights``,
    what it needs on what when it is an operation (:mod:`embornal.domain.access.rights`)."""
    return UseCase(find, rights)


def declares(rights: tuple[Need, ...]) -> Callable[[F], F]:
    """Declares the rights of the operation a facade method written out is."""

    def mark(method: F) -> F:
        vars(method)["rights"] = rights
        return method

    return mark


def declared(method: object) -> tuple[Need, ...] | None:
    """The rights ``method`` (a facade class's attribute) declares (None: none)."""
    found = getattr(method, "rights", None)
    return found if isinstance(found, tuple) else None
