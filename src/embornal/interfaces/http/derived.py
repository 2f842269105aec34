"""The REST request models made from the catalogue (decision 0162).

An operation's query or body model is built with :func:`pydantic.create_model` from its
REST inputs (those not in the path): each field is the input's wire name, with the type
its kind of input has on the wire, the limits its record declares (``max_length``,
``low``..``high``, ``choices``) and its description. The model then validates what the
record declares, the OpenAPI document shows it, and nothing restates the limits by hand.

An input of a kind not in :data:`_TYPES` (evidence, tags, a time, attributes...) has a
wire form of its own; an operation that takes one keeps its hand-written model, and
:func:`request_model` refuses to build one for it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from embornal.interfaces.catalog_types import Input, InputType, Operation

__all__ = ["DERIVABLE", "RequestModel", "request_model"]


RequestModel = type[BaseModel] | str | None
"""A route table's query or body model: written by hand, or the name of the model
:func:`request_model` makes from the operation's inputs (None: none)."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: The wire type of each kind of input a model can be made for: text (a path, one of the
#: choices: ``Literal``), a whole number, a number, a flag. A weight is the number or null
#: (null takes it off). In a body each is of its JSON type (strict: ``false`` is not 0,
#: ``"1"`` not 1); in a query, text read.
_TYPES: dict[InputType, Any] = {
    "text": str,
    "path": str,
    "choice": str,
    "reason": str,
    "visibility": str,
    "lifetime": str,
    "kind": str,
    "source": str,
    "int": int,
    "days": int,
    "float": float,
    "confidence": float,
    "weight": float | None,
    "bool": bool,
}
DERIVABLE: frozenset[str] = frozenset(_TYPES)
"""The kinds of input :func:`request_model` builds a field for."""


def _field(item: Input, body: bool) -> tuple[Any, Any]:
    """The annotation and the ``Field`` of ``item``, in a ``body`` or a query."""
    kind: Any = Literal[item.choices] if item.choices else _TYPES[item.type]
    limits: dict[str, Any] = {"description": item.description}
    if item.max_length is not None:
        limits["max_length"] = item.max_length
        if item.required:
            limits["min_length"] = 1  # a required text is not empty
    number = float if kind in (float, float | None) else int
    if item.low is not None:
        limits["ge"] = number(item.low)
    if item.high is not None:
        limits["le"] = number(item.high)
    if body and kind in (int, float, float | None, bool):
        limits["strict"] = True
    if item.required:
        return kind, Field(**limits)
    if item.default is None:
        return kind | None, Field(None, **limits)
    return kind, Field(item.default, **limits)


_MADE: dict[str, type[BaseModel]] = {}


def request_model(op: Operation, name: str) -> type[BaseModel]:
    """The model ``name`` of ``op``'s REST inputs not in its path (the query of a
    ``GET``, else the body). Operations with the same inputs share a model of the same
    name (``ReasonIn``); the same name for other inputs is an error."""
    assert op.http is not None, op.name
    http = op.http
    items = [i for i in op.inputs if i.rest and http.where(i) != "path"]
    odd = [i.name for i in items if i.type not in DERIVABLE]
    if odd:
        raise TypeError(f"{op.name}: no REST model is made for {', '.join(odd)}")
    fields = {item.wire_name: _field(item, http.method == "POST") for item in items}
    model = create_model(name, __base__=_In, __module__=__name__, **fields)  # type: ignore[call-overload]
    made = _MADE.setdefault(name, model)
    if made.model_json_schema() != model.model_json_schema():
        raise TypeError(f"{op.name}: the model {name} is made for other inputs already")
    return made
