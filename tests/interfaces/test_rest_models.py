"""The REST request models made from the catalogue (decision 0162): their fields are the
operation's REST inputs with what the records declare, and they validate as the models
written by hand did."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from embornal.interfaces.catalog import by_name, routed
from embornal.interfaces.catalog_types import replace
from embornal.interfaces.http import derived
from embornal.interfaces.http.api import OPERATIONS
from embornal.interfaces.http.derived import request_model

MADE = {
    op.operation_id: model
    for op in OPERATIONS
    for model in (op.query, op.body)
    if model is not None and model.__module__ == derived.__name__
}


def _model(operation_id: str) -> type[BaseModel]:
    return MADE[operation_id]


def test_the_simple_bodies_are_made_from_the_catalogue() -> None:
    made = {"setLifetime", "setWeight", "pinFact", "forgetFact", "prune", "recallClaims"}
    assert made <= set(MADE), sorted(MADE)
    assert _model("forgetFact") is _model("restoreFact")  # one ReasonIn


def test_a_made_model_has_each_rest_input_not_in_the_path() -> None:
    for op in routed():
        assert op.http is not None
        model = MADE.get(op.http.operation_id)
        if model is None:
            continue
        wanted = {i.wire_name for i in op.inputs if i.rest and op.http.where(i) != "path"}
        assert set(model.model_fields) == wanted, op.name
        required = {i.wire_name for i in op.inputs if i.required and i.wire_name in wanted}
        assert {n for n, f in model.model_fields.items() if f.is_required()} == required


@pytest.mark.parametrize(
    ("body", "ok"),
    [
        ({"lifetime": "permanent"}, True),
        ({"lifetime": "until:2027-01-31", "reason": "the trip"}, True),
        ({"lifetime": ""}, False),  # required text is not empty
        ({"lifetime": "x" * 41}, False),
        ({"lifetime": "permanent", "extra": 1}, False),  # no other field
        ({}, False),
    ],
)
def test_set_lifetime_validates_as_before(body: dict[str, Any], ok: bool) -> None:
    model = _model("setLifetime")
    if ok:
        model.model_validate(body)
    else:
        with pytest.raises(ValidationError):
            model.model_validate(body)


@pytest.mark.parametrize(
    ("weight", "ok"), [(0.9, True), (None, True), (1, True), (False, False), (1.5, False)]
)
def test_a_weight_is_a_number_or_null_never_a_boolean(weight: object, ok: bool) -> None:
    model = _model("setWeight")
    if ok:
        model.model_validate({"weight": weight})
    else:
        with pytest.raises(ValidationError):
            model.model_validate({"weight": weight})


def test_an_input_of_a_kind_without_a_wire_form_is_refused() -> None:
    """Every kind the catalogue has today has a REST form (decision 0200); a new one is
    refused until it is given one, rather than sent as text."""
    store = by_name("store")
    odd = replace(store.inputs[1], type="novel")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="no REST model is made for content"):
        request_model(replace(store, inputs=(store.inputs[0], odd)), "StoreMade")


def test_one_name_is_one_model() -> None:
    with pytest.raises(TypeError, match="made for other inputs already"):
        request_model(by_name("set_lifetime"), "ReasonIn")


def test_every_request_model_is_made_from_the_catalogue() -> None:
    """No route's query or body model is written by hand (decision 0201): each is the one
    :func:`request_model` makes from its operation's inputs."""
    models = [m for o in OPERATIONS for m in (o.query, o.body) if m is not None]
    hand = [m.__name__ for m in models if m.__module__ != derived.__name__]
    assert hand == []
    assert len(models) >= 76
