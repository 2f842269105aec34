"""The remote client is derived from the catalogue (decision 0174): each method of
``MemoryAPI`` is its operation's one call, with the signature ``MemoryAPI`` declares,
its arguments bound by it; only what the catalogue cannot say is written by hand."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from embornal.interfaces import catalog, catalog_types
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.cli import remote_derive
from embornal.interfaces.cli.remote import LocalOnly, RemoteMemory
from import_probe import modules_after

API = sorted(n for n in dir(MemoryAPI) if not n.startswith("_"))
#: Written by hand on the client: the chronicle facade, the life cycle, and undo (its
#: event id checked as the service would before it is sent).
BY_HAND = {"chronicle", "close", "undo"}


class Recording(RemoteMemory):
    """The client with its one call recorded instead of sent."""

    def __init__(self) -> None:
        super().__init__("http://testserver", "token")
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def _op(self, name: str, /, **given: Any) -> Any:
        self.calls.append((name, given))
        return name


@pytest.mark.parametrize("name", sorted(set(API) - {"chronicle"}))
def test_every_method_of_the_api_has_its_signature(name: str) -> None:
    getattr(RemoteMemory.connect("http://testserver", "token"), name)  # derived on first use
    ours = inspect.signature(getattr(RemoteMemory, name))
    assert ours == inspect.signature(getattr(MemoryAPI, name))


def test_every_method_but_the_few_by_hand_is_derived_from_its_operation() -> None:
    client = RemoteMemory.connect("http://testserver", "token")
    hand = {n for n in API if n in vars(RemoteMemory.__mro__[1])}
    assert hand == BY_HAND
    for name in set(API) - BY_HAND:
        op = remote_derive.operation_of(name, routed=False)
        assert op is not None and op.call == name
        assert getattr(client, name).__doc__.startswith("The catalogue operation")
    assert isinstance(client, MemoryAPI)
    assert remote_derive.operation_of("set_visibility", routed=False).name == "visibility"  # type: ignore[union-attr]
    assert remote_derive.operation_of("show").name == "show"  # type: ignore[union-attr]


def test_a_method_no_operation_calls_is_no_attribute() -> None:
    client = RemoteMemory.connect("http://testserver", "token")
    with pytest.raises(AttributeError, match="recal"):
        client.recal("tea")  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        client._private_thing  # type: ignore[attr-defined]  # noqa: B018


def test_a_core_method_is_derived_without_reading_the_rest_of_the_catalogue() -> None:
    loaded = modules_after(
        "from embornal.interfaces.cli.remote import RemoteMemory\n"
        "RemoteMemory.connect('http://testserver', 'token').recall"
    )
    assert "embornal.interfaces.catalog" in loaded  # the probe ran the derivation
    assert "embornal.interfaces.catalog_proposals" not in loaded
    assert "embornal.interfaces.catalog_spine" not in loaded


def test_a_call_sends_its_operation_with_every_argument_bound() -> None:
    client = Recording()
    assert client.set_visibility("01K1", "private") == "visibility"  # type: ignore[comparison-overlap]
    client.recall("tea", limit=3)
    client.link("01K1", "about", "01K2")
    assert client.calls[0] == (
        "visibility",
        {"fact_id": "01K1", "visibility": "private", "reason": None},
    )
    name, given = client.calls[1]
    assert name == "recall" and given["query"] == "tea" and given["limit"] == 3
    assert given["mode"] == "auto" and given["reinforce"] is True  # the defaults, sent
    assert client.calls[2] == (
        "link",
        {"source": "01K1", "relation": "about", "target": "01K2", "reason": None},
    )


def test_a_wrong_call_fails_as_the_signature_says() -> None:
    client = Recording()
    with pytest.raises(TypeError):
        client.forget("01K1")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        client.pin("01K1", colour="red")  # type: ignore[call-arg]
    assert client.calls == []


def test_a_local_only_operation_is_refused_by_the_real_call_path() -> None:
    client = RemoteMemory.connect("http://testserver", "token")
    with pytest.raises(LocalOnly):
        client.purge("01K1", reason="gone")


def test_an_argument_that_is_no_input_of_the_operation_fails_at_derivation() -> None:
    op = catalog.by_name("pin")
    narrowed = catalog_types.replace(op, inputs=tuple(i for i in op.inputs if i.name != "reason"))
    with pytest.raises(TypeError, match="reason"):
        remote_derive.method(MemoryAPI, "pin", narrowed)
