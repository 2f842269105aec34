"""Every text an operation of the catalogue takes refuses a NUL and a lone surrogate before
the call, whatever its declared type: no database keeps them (decision 0131)."""

from __future__ import annotations

from typing import Any

import pytest

from embornal.errors import InvalidInput
from embornal.interfaces.catalog import whole
from embornal.interfaces.catalog_inputs import EXAMPLE_ID, FACT_ID_PATTERN
from embornal.interfaces.catalog_types import Input, check_inputs

_NOT_TEXT = {"int", "bool", "float", "weight", "confidence", "event", "days"}


def _shaped(item: Input, text: str) -> Any:
    """``text`` in the shape the call takes for ``item``."""
    if item.type in ("tags", "where", "attributes"):
        return {"key": text}
    if item.type in ("evidence_list", "list"):
        return ["fine", text]
    if item.type == "items":
        return [{"type": "create", "path": "/n", "content": text}]
    return text


TEXT_INPUTS = [
    pytest.param(op, item, id=f"{op.name}.{item.name}")
    for op in whole()
    for item in op.inputs
    if item.type not in _NOT_TEXT
]


def test_the_walk_covers_the_fields_that_once_missed_it() -> None:
    names = {p.id for p in TEXT_INPUTS}
    assert {"remember.session", "corroborate.source", "corroborate.common_origin"} <= names
    assert {"set_history_context.session", "timeline.session"} <= names


@pytest.mark.parametrize(("op", "item"), TEXT_INPUTS)
@pytest.mark.parametrize("bad", ["a\x00b", "lone \ud800 high"], ids=["nul", "surrogate"])
def test_every_text_input_refuses_nul_and_lone_surrogates(op: Any, item: Input, bad: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        check_inputs(op.inputs, {item.name: _shaped(item, bad)})
    assert caught.value.message.startswith(f"{item.name} holds ")
    check_inputs(op.inputs, {item.name: _shaped(item, _fine(item))})


def _fine(item: Input) -> str:
    """A text ``item`` takes: one of its choices, a fact id, a path, or plain text."""
    if item.choices:
        return item.choices[0]
    if item.text_pattern == FACT_ID_PATTERN:
        return EXAMPLE_ID
    return ("/" if item.type == "path" else "") + "plain text, é 上周"
