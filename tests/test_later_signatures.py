"""A use case's signature read from its source (decision 0176) is the one its module gives
when imported: the remote client derives its methods from it without loading the service."""

from __future__ import annotations

import inspect

import pytest

from embornal import Memory
from embornal.service import later
from embornal.service.history.chronicle import Chronicle
from embornal.service.later import UseCase

USE_CASES = [
    (owner, name)
    for owner in (Memory, Chronicle)
    for name in sorted(vars(owner))
    if isinstance(vars(owner)[name], UseCase)
]


@pytest.mark.parametrize(("owner", "name"), USE_CASES, ids=[n for _, n in USE_CASES])
def test_the_source_says_what_the_module_says(owner: type, name: str) -> None:
    use_case = vars(owner)[name]
    read = later._parsed(*_where(use_case))
    if read is None:  # the source cannot say it alone: the module is imported instead
        pytest.skip(f"{name}: read from its module")
    assert later._as_method(read) == inspect.signature(use_case)


def test_most_use_cases_are_read_from_their_source() -> None:
    unread = [n for o, n in USE_CASES if later._parsed(*_where(vars(o)[n])) is None]
    assert len(unread) <= len(USE_CASES) // 4, unread


def test_a_source_that_cannot_say_it_is_left_to_the_module() -> None:
    assert later._parsed("embornal.service.spine.evidence", "no_such_function") is None
    assert later._parsed("embornal.no_such_module", "f") is None


def _where(use_case: UseCase[..., object]) -> tuple[str, str]:
    """The use case's module and function, as ``later._source_of`` reads them."""
    names = use_case._find.__code__.co_names
    holder, function = names * 2 if len(names) == 1 else names
    return use_case._find.__globals__[holder]._name, function
