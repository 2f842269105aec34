"""The remote chronicle is derived from the catalogue: each method is its operation's one
call, with the signature ``Chronicle`` gives it, its arguments bound by it (decision 0176)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from embornal.interfaces import catalog, catalog_types
from embornal.interfaces.cli import remote_derive
from embornal.interfaces.cli.remote import LocalOnly
from embornal.interfaces.cli.remote_chronicle import RemoteChronicle, derived_operations
from embornal.service.history.chronicle import Chronicle

API = remote_derive.public_methods(Chronicle)
#: The chronicle's methods the remote client refuses: no catalogue operation calls them
#: (one fact's page in the wiki, decision 0160). Reviewed, as test_remote_derived's list.
LOCAL_ONLY = {"fact_access", "fact_protocol"}


class Recorder:
    """An ``op`` that records each call and answers its name."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, name: str, /, **given: Any) -> str:
        self.calls.append((name, given))
        return name


@pytest.mark.parametrize("name", API)
def test_every_method_of_the_api_has_its_signature(name: str) -> None:
    getattr(RemoteChronicle.over(Recorder()), name)  # derived on first use
    ours = inspect.signature(getattr(RemoteChronicle, name))
    assert ours == inspect.signature(getattr(Chronicle, name))


def test_each_routed_chronicle_operation_gives_one_method() -> None:
    derived = derived_operations()
    # list_conflicts has no route: the queue's list, written by hand
    assert set(derived) == set(API) - {"list_conflicts"} - LOCAL_ONLY
    for name, op in derived.items():
        assert op.call == f"chronicle.{name}" and op.http is not None


@pytest.mark.parametrize("name", sorted(LOCAL_ONLY))
def test_each_local_only_method_refuses(name: str) -> None:
    assert remote_derive.operation_of(name, "chronicle.") is None
    with pytest.raises(LocalOnly):
        getattr(RemoteChronicle.over(Recorder()), name)("01K1")


def test_a_call_sends_its_operation_with_every_argument_bound() -> None:
    op = Recorder()
    chronicle = RemoteChronicle.over(op)
    assert chronicle.canonize("01K1", "work", reason="settled") == "canonize"  # type: ignore[comparison-overlap]
    assert chronicle.claim("01K2") == "inspect_claim"  # type: ignore[comparison-overlap]
    chronicle.adopt_claim("01K3", "agreed")
    chronicle.recall("tea", limit=3)
    chronicle.list_conflicts(resolved=False, limit=5)
    assert op.calls[:3] == [
        ("canonize", {"fact_id": "01K1", "scope": "work", "reason": "settled"}),
        ("inspect_claim", {"claim_id": "01K2", "as_of": None}),
        ("adopt_claim", {"claim_id": "01K3", "reason": "agreed"}),
    ]
    name, given = op.calls[3]
    assert name == "recall_cascade" and given["query"] == "tea" and given["limit"] == 3
    assert given["mode"] == "auto" and given["reinforce"] is True  # the defaults, sent
    assert op.calls[4] == ("conflicts", {"status": "open", "limit": 5})


def test_a_wrong_call_fails_as_the_signature_says() -> None:
    chronicle = RemoteChronicle.over(Recorder())
    with pytest.raises(TypeError):
        chronicle.canonize("01K1", "work")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        chronicle.end_scope("work", reason="x", colour="red")  # type: ignore[call-arg]


def test_an_argument_that_is_no_input_of_the_operation_fails_at_derivation() -> None:
    op = catalog.by_name("end_scope")
    narrowed = catalog_types.replace(op, inputs=tuple(i for i in op.inputs if i.name != "reason"))
    with pytest.raises(TypeError, match="reason"):
        remote_derive.method(Chronicle, "end_scope", narrowed)
