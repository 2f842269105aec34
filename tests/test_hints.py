"""``embornal.hints`` stands in for :mod:`typing` at run time; no class pays for it.

:mod:`dataclasses` knows a ``ClassVar`` written as text only when it is typing's own
(decision 0191), so a plain ``@dataclass`` that took ``ClassVar`` from ``embornal.hints``
would make its class variable a field. ``value`` and ``record`` leave such annotations out
themselves; this reads every dataclass of the package for one that did not.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import typing

import embornal
from embornal import hints
from embornal.hints import ClassVar


def _package_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(embornal.__path__, "embornal."):
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional driver or model runtime this run lacks
            continue
        names.append(info.name)
    return names


def test_no_dataclass_of_the_package_has_a_class_variable_for_a_field() -> None:
    modules = _package_modules()
    assert len(modules) > 300  # the walk saw the package
    seen, wrong = 0, []
    for name in modules:
        for cls in vars(importlib.import_module(name)).values():
            if not (isinstance(cls, type) and cls.__module__ == name):
                continue
            if not dataclasses.is_dataclass(cls):
                continue
            seen += 1
            wrong += [
                f"{name}.{cls.__qualname__}.{f.name}"
                for f in dataclasses.fields(cls)
                if str(f.type).startswith(("ClassVar", "typing.ClassVar"))
            ]
    assert seen > 100
    assert wrong == []


def test_a_class_variable_from_hints_is_kept_out_of_a_value() -> None:
    from embornal.domain.values import value

    @value
    class Probe:
        """A value with a class variable, as the event bodies have."""

        KIND: ClassVar[str] = "probe"
        name: str

    assert [f.name for f in dataclasses.fields(Probe)] == ["name"]
    assert Probe("x").KIND == "probe"


def test_the_type_checker_sees_typing_own_names() -> None:
    assert set(hints.__all__) - {"TYPE_CHECKING"} <= set(dir(typing))
