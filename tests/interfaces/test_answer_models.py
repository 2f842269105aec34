"""The REST answer models made from result records (decision 0192)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest

from embornal.domain.facts.fact import Fact
from embornal.interfaces.http.derived import _ANSWERS, Out, answer_model, list_answer, written
from embornal.interfaces.http.schemas import FactOut


@dataclass(frozen=True)
class _Leaf:
    name: str
    weight: float | None


@dataclass(frozen=True)
class _Node:
    path: str
    at: datetime
    seen: datetime | None
    labels: tuple[str, ...]
    extra: dict[str, Any]
    leaf: _Leaf
    children: tuple[_Node, ...]
    parent: _Node | None
    note: str | None = None


@dataclass(frozen=True)
class _Holder:
    fact: Fact
    count: int = 0


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        k: {n: v for n, v in p.items() if n != "title"} for k, p in schema["properties"].items()
    }


def test_a_model_is_made_field_for_field_in_order() -> None:
    leaf = answer_model(_Leaf, name="What the leaf is called.")
    node = answer_model(_Node, "TreeOut", doc="A tree.", path="Where it is.")
    document = node.model_json_schema()
    assert document["$ref"] == "#/$defs/TreeOut"  # it refers to itself: its children
    schema = document["$defs"]["TreeOut"]
    assert schema["title"] == "TreeOut"
    assert schema["description"] == "A tree."
    assert list(schema["properties"]) == [
        "path",
        "at",
        "seen",
        "labels",
        "extra",
        "leaf",
        "children",
        "parent",
        "note",
    ]
    # the server sends every field, so each is required, defaults included
    assert schema["required"] == list(schema["properties"])
    props = _props(schema)
    assert props["path"] == {"type": "string", "description": "Where it is."}
    assert props["at"]["format"] == "date-time"
    assert props["seen"]["anyOf"][0]["format"] == "date-time"
    assert props["seen"]["anyOf"][1] == {"type": "null"}
    assert props["labels"] == {"type": "array", "items": {"type": "string"}}
    assert props["extra"] == {"type": "object", "additionalProperties": True}
    assert props["leaf"] == {"$ref": "#/$defs/_LeafOut"}
    assert props["children"] == {"type": "array", "items": {"$ref": "#/$defs/TreeOut"}}
    assert props["parent"] == {"anyOf": [{"$ref": "#/$defs/TreeOut"}, {"type": "null"}]}
    leaf_props = _props(leaf.model_json_schema())
    assert leaf_props["name"]["description"] == "What the leaf is called."
    assert schema["additionalProperties"] is False


def test_a_made_model_validates_what_the_wire_sends_and_nothing_else() -> None:
    model = answer_model(_Holder, nested={Fact: FactOut})
    with pytest.raises(ValueError, match="count"):
        model.model_validate({"fact": None})
    with pytest.raises(ValueError, match="stray"):
        model.model_validate({"fact": None, "count": 1, "stray": 2})


def test_a_list_answer_holds_its_items_under_the_key() -> None:
    @dataclass(frozen=True)
    class Item:
        n: int

    item = answer_model(Item)
    listed = list_answer("ItemsOut", "items", item, doc="All of them.", note="Oldest first.")
    schema = listed.model_json_schema()
    assert schema["description"] == "All of them."
    assert schema["required"] == ["items"]
    assert schema["properties"]["items"]["description"] == "Oldest first."
    assert schema["properties"]["items"]["items"] == {"$ref": "#/$defs/ItemOut"}


def test_a_note_for_a_field_the_record_lacks_is_refused() -> None:
    @dataclass(frozen=True)
    class Small:
        a: int

    with pytest.raises(TypeError, match="Small has no field b"):
        answer_model(Small, b="A field that is not there.")


def test_a_record_is_given_one_model() -> None:
    @dataclass(frozen=True)
    class Once:
        a: int

    answer_model(Once)
    with pytest.raises(TypeError, match="made for Once already"):
        answer_model(Once)


def test_a_record_with_a_shape_of_its_own_keeps_its_written_model() -> None:
    with pytest.raises(TypeError, match="Fact has a wire shape of its own"):
        answer_model(Fact)

    @dataclass(frozen=True)
    class Holds:
        fact: Fact

    schema = answer_model(Holds).model_json_schema()
    assert schema["properties"]["fact"] == {"$ref": "#/$defs/FactOut"}  # written(Fact)


def test_a_nested_record_with_a_shape_of_its_own_and_no_written_model_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(_ANSWERS, Fact)

    @dataclass(frozen=True)
    class Holds:
        fact: Fact

    with pytest.raises(TypeError, match="Fact has a wire shape of its own: give its model"):
        answer_model(Holds)


def test_a_written_model_is_declared_once_and_only_for_a_record_with_its_own_shape() -> None:
    class Other(Out):
        id: str

    with pytest.raises(TypeError, match="an answer model is given for Fact already"):
        written(Fact)(Other)

    @dataclass(frozen=True)
    class Plain:
        a: int

    with pytest.raises(TypeError, match="Plain goes as its fields: make its model"):
        written(Plain)(Other)


def test_every_result_with_a_shape_of_its_own_has_a_written_answer_model() -> None:
    import embornal.interfaces.http.api  # noqa: F401 (every capability's models declared)
    from embornal.interfaces.wire import WIRE_TYPES, by_own_shape

    own = [kind for kind in WIRE_TYPES if by_own_shape(kind)]
    assert own and all(kind in _ANSWERS for kind in own)


#: The results that go on the wire as their fields whose REST model is still written by
#: hand, and why (decision 0192).
_WRITTEN = {
    "FactView": "nested in the hand-written envelope of cat",
    "PathEntry": "nested in the hand-written envelope of ls",
    "Event": "nested in the hand-written envelopes of history, undo and show",
    "ProposalSummary": "its status is an enum in the document, text in the record",
}


def test_every_result_sent_as_its_fields_has_a_made_answer_model() -> None:
    import embornal.interfaces.http.api  # noqa: F401 (every capability's models made)
    from embornal.interfaces.wire import WIRE_TYPES, by_own_shape

    by_fields = {kind.__name__: kind for kind in WIRE_TYPES if not by_own_shape(kind)}
    written = {name for name, kind in by_fields.items() if kind not in _ANSWERS}
    assert written == set(_WRITTEN)
