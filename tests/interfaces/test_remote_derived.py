"""The remote client is derived from the catalogue (decisions 0174 and 0176): each public
method of ``Memory`` is its operation's one call, with the signature ``Memory`` gives it,
its arguments bound by it; only what the catalogue cannot say is written by hand, and a
method with no routed operation refuses as local-only."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from embornal import Memory
from embornal.interfaces import catalog, catalog_types
from embornal.interfaces.cli import remote_derive
from embornal.interfaces.cli.remote import LocalOnly, RemoteMemory
from import_probe import modules_after

API = remote_derive.public_methods(Memory)
#: Written by hand on the client: the life cycle, and undo (its event id checked as the
#: service would before it is sent).
BY_HAND = {"close", "undo"}
#: The public methods of ``Memory`` the remote client refuses (``local_only``): no
#: catalogue operation calls them, or their operation has no HTTP route. Reviewed: a new
#: method lands here only if it is meant to run on the machine that holds the memory; an
#: operation meant for every transport needs its catalogue record instead.
LOCAL_ONLY = {
    # no catalogue operation: the facade's own plumbing, admin and the wiki's reads
    "as_subject",
    "authenticate",
    "keyword_probe",
    "link_map",
    "list_memories",
    "may_decide_proposals",
    "overview",
    "pending_embeddings",
    "permitted",
    "rebuild",
    "spine_series",
    "store_many",
    "token_of",
    "verify",
    # a local-only operation (its command refuses in client mode too)
    "backup",
    "copy_to",
    "dangling_links",
    "export_events",
    "export_markdown",
    "import_basic_memory",
    "import_events",
    "import_markdown",
    "import_mcp_memory",
    "import_mem0",
    "import_memory_as_history",
    "narrow_token_rules",
    "path_tags",
    "policies",
    "policy_add",
    "policy_check",
    "policy_remove",
    "purge",
    "reindex",
    "tag_path",
    "token_add",
    "token_revoke",
    "tokens",
    "untag_path",
}


class Recording(RemoteMemory):
    """The client with its one call recorded instead of sent."""

    def __init__(self) -> None:
        super().__init__("http://testserver", "token")
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def _op(self, name: str, /, **given: Any) -> Any:
        self.calls.append((name, given))
        return name


@pytest.mark.parametrize("name", API)
def test_every_method_of_the_api_has_its_signature(name: str) -> None:
    getattr(RemoteMemory.connect("http://testserver", "token"), name)  # derived on first use
    ours = inspect.signature(getattr(RemoteMemory, name))
    assert _but_self(ours) == _but_self(inspect.signature(getattr(Memory, name)))


def _but_self(signature: inspect.Signature) -> inspect.Signature:
    """The signature without ``self`` (positional-only on a use case's, decision 0175)."""
    return signature.replace(parameters=list(signature.parameters.values())[1:])


def test_every_method_but_the_few_by_hand_is_derived_from_its_operation() -> None:
    client = RemoteMemory.connect("http://testserver", "token")
    hand = {n for n in API if n in vars(RemoteMemory.__mro__[1])}
    assert hand == BY_HAND
    for name in set(API) - BY_HAND - LOCAL_ONLY:
        op = remote_derive.operation_of(name)
        assert op is not None and op.call == name, f"{name}: no routed operation calls it"
        assert getattr(client, name).__doc__.startswith("The catalogue operation")
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
    assert "embornal.interfaces.proposals.catalog" not in loaded
    assert "embornal.interfaces.spine.catalog" not in loaded
    assert "embornal.service.spine.evidence" not in loaded  # another method's use case: not yet
    assert "embornal.service.proposals.drafts" not in loaded


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


@pytest.mark.parametrize("name", sorted(LOCAL_ONLY))
def test_each_local_only_method_refuses_and_no_other_does(name: str) -> None:
    assert name in API, f"{name} is no public method of Memory"
    assert remote_derive.operation_of(name) is None  # no routed operation calls it
    client = RemoteMemory.connect("http://testserver", "token")
    method = getattr(client, name)
    required = [
        p.name
        for p in inspect.signature(method).parameters.values()
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    with pytest.raises(LocalOnly, match="runs on the machine that holds the memory"):
        method(**dict.fromkeys(required, "x"))


def test_a_method_with_no_operation_still_fails_a_wrong_call_as_its_signature_says() -> None:
    client = RemoteMemory.connect("http://testserver", "token")
    with pytest.raises(TypeError):
        client.rebuild("too", "many")  # type: ignore[call-arg, arg-type]


def test_an_argument_that_is_no_input_of_the_operation_fails_at_derivation() -> None:
    op = catalog.by_name("pin")
    narrowed = catalog_types.replace(op, inputs=tuple(i for i in op.inputs if i.name != "reason"))
    with pytest.raises(TypeError, match="reason"):
        remote_derive.method(Memory, "pin", narrowed)
