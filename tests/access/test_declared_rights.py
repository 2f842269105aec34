"""Each operation's rights, declared on the facade method it calls (decision 0179)."""

from __future__ import annotations

import pytest

from embornal import Memory
from embornal.domain.access.rights import DELETES, READS, STORES, WRITES, Need, need
from embornal.errors import AccessDenied
from embornal.service.later import declared, declares
from embornal.service.memory import declared_rights
from embornal.service.rights import of, table


def test_a_method_is_found_by_the_name_the_catalogue_calls_it() -> None:
    assert declared_rights("forget") == DELETES  # made from its use case
    assert declared_rights("store") == STORES  # written out, with @declares
    assert declared_rights("chronicle.canonize") == WRITES
    assert declared_rights("chronicle.recall") == READS


@pytest.mark.parametrize("call", ["close", "chronicle.close", "no_such_method", "other.forget"])
def test_a_method_that_declares_nothing_is_no_operation(call: str) -> None:
    with pytest.raises(KeyError):
        declared_rights(call)


class _Facade:
    @declares((need("fact_id", "write"),))
    def tag(self) -> None:
        """Declared."""

    def helper(self) -> None:
        """Not an operation."""


def test_declares_marks_the_method_and_changes_nothing_else() -> None:
    assert declared(_Facade.tag) == (Need("fact_id", ("write",)),)
    assert declared(_Facade.helper) is None
    assert _Facade.tag.__name__ == "tag" and _Facade.tag.__doc__ == "Declared."
    assert of(_Facade, "tag") == (Need("fact_id", ("write",)),)


def test_the_table_refuses_an_operation_whose_method_declares_nothing() -> None:
    def lookup(call: str) -> tuple[Need, ...]:
        return of(_Facade, call)

    found = table([("health", None), ("tag", "tag")], lookup)
    assert dict(found) == {"health": (), "tag": (Need("fact_id", ("write",)),)}
    with pytest.raises(RuntimeError, match="without a rights declaration: helper"):
        table([("tag", "tag"), ("helper", "helper")], lookup)


def test_a_refusal_names_the_method_without_its_facade(memory: Memory) -> None:
    fact = memory.store("/notes/a", "A fact.")
    memory.policy_add("p", ["bob", "path:/*", "read", "allow"])
    with pytest.raises(AccessDenied, match=r"^subject bob .*canonize needs write") as refused:
        memory.as_subject("bob", "person").chronicle.canonize(fact.id, scope="s", reason="a probe")
    assert "chronicle." not in str(refused.value)
