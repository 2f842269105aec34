"""The REST models made from what is declared elsewhere: the request models from the
catalogue (decision 0162), the answer models from the result records (decision 0192).

An operation's query or body model is built with :func:`pydantic.create_model` from its
REST inputs (those not in the path): each field is the input's wire name, with the type
its kind of input has on the wire, the limits its record declares (``max_length``,
``max_items``, ``not_empty``, ``pattern``, ``low``..``high``, ``choices``) and its
description. The model then validates what the record declares, the OpenAPI document
shows it, and nothing restates the limits by hand.

An evidence is ``TYPE:VALUE`` text or an :class:`EvidenceIn` (decision 0199); tags,
attributes, conditions and a proposal's drafted items have the structured forms of
:data:`_WIRE_FORMS` (decision 0200). A new kind of input with neither a form here nor one
below is refused by :func:`request_model` until it has one.

A result that goes on the wire as its fields in order (``WireCore.by_fields``) is described
by :func:`answer_model`, made from the same dataclass: each field by its name and its
annotated type (a time as :data:`Time`, a tuple as a list, a mapping as an object, a nested
record by its own answer model), each required, since the server always sends every field,
with the descriptions the REST module gives. A record with a wire shape of its own (a fact,
a conflict) keeps its hand-written model, declared its answer with :func:`written`, which a
model made here takes where that record is nested.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from datetime import datetime
from types import UnionType
from typing import (
    Annotated,
    Any,
    Literal,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, create_model

from embornal.domain.spine.justification import MAX_EVIDENCE_NOTE, MAX_EVIDENCE_VALUE
from embornal.interfaces.catalog_types import Input, InputType, Operation
from embornal.interfaces.wire import by_own_shape

__all__ = [
    "DERIVABLE",
    "Out",
    "RequestModel",
    "Time",
    "answer_model",
    "list_answer",
    "request_model",
    "written",
]

Time = Annotated[
    str,
    WithJsonSchema(
        {
            "type": "string",
            "format": "date-time",
            "description": "UTC, ISO-8601 with microseconds, e.g. 2026-11-30T14:00:00.000000Z",
        }
    ),
]
"""A time on the wire: ISO-8601 UTC with microseconds and ``Z``."""


class Out(BaseModel):
    """The base of every answer model: what the server sends, nothing else."""

    model_config = ConfigDict(extra="forbid", frozen=True)


RequestModel = str | None
"""A route table's query or body model: the name of the model :func:`request_model` makes
from the operation's inputs (None: none). No request model is written by hand (decision
0201): a route's inputs are its operation's record."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EvidenceIn(_In):
    """Evidence as an object (the form a note travels in with confirm and contradict)."""

    type: str = Field(
        min_length=1,
        max_length=32,
        description="quote, uri, conversation, document or observation.",
    )
    value: str = Field(min_length=1, max_length=MAX_EVIDENCE_VALUE)
    note: str | None = Field(None, max_length=MAX_EVIDENCE_NOTE)


#: The wire type of each kind of input a model can be made for: text (a path, one of the
#: choices: ``Literal``, an id, a time as ISO-8601 text), a list of texts, a whole
#: number, a number, a flag. A weight is the number or null (null takes it off). In a
#: body each is of its JSON type (strict: ``false`` is not 0, ``"1"`` not 1); in a query,
#: text read.
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
    "id": str,
    "time": str,
    "as_of": str,
    "list": list[str],
}
#: The kinds of input whose REST form is structured: an evidence as ``TYPE:VALUE`` text or
#: an object, tags as ``["k=v", ...]`` or an object, a kind's attributes as an object,
#: conditions as ``field=value`` texts, a proposal's drafted items as objects and its
#: replacements as an object of them by number.
_WIRE_FORMS: dict[InputType, Any] = {
    "evidence": str | EvidenceIn,  # (its text bounded as declared, below)
    "evidence_list": list[str | EvidenceIn],
    "tags": list[Annotated[str, Field(pattern="=")]]
    | dict[str, Annotated[str, Field(min_length=1)]],
    "attributes": dict[str, Any],
    "where": list[str],  # each text bounded as a list's (below)
    "items": list[dict[str, Any]],
    "replacements": dict[str, dict[str, Any]],
}
DERIVABLE: frozenset[str] = frozenset(_TYPES) | frozenset(_WIRE_FORMS)
"""The kinds of input :func:`request_model` builds a field for."""


def _field(item: Input, body: bool) -> tuple[Any, Any]:
    """The annotation and the ``Field`` of ``item``, in a ``body`` or a query."""
    kind: Any = Literal[item.choices] if item.choices else _TYPES.get(item.type)
    if kind is None:
        kind = _WIRE_FORMS[item.type]
    limits: dict[str, Any] = {"description": item.description}
    if item.type in ("evidence", "evidence_list"):  # TYPE:VALUE text, or an object
        text = Annotated[str, Field(min_length=1, max_length=item.max_length)]
        kind = list[text | EvidenceIn] if item.type == "evidence_list" else text | EvidenceIn
    elif item.type in ("list", "where"):
        if item.max_length is not None:  # each text's length
            kind = list[Annotated[str, Field(max_length=item.max_length)]]
    elif item.type not in _WIRE_FORMS and item.max_length is not None:
        limits["max_length"] = item.max_length
        if item.required:
            limits["min_length"] = 1  # a required text is not empty
    if item.max_items is not None:
        limits["max_length"] = item.max_items  # a list's texts or items, an object's entries
    if item.not_empty:
        limits["min_length"] = 1  # nor one declared so, as MCP shows and check_inputs refuses
    if item.text_pattern is not None:
        limits["pattern"] = item.text_pattern
    number = float if kind in (float, float | None) else int
    if item.low is not None:
        limits["ge"] = number(item.low)
    if item.high is not None:
        limits["le"] = number(item.high)
    if body and kind in (int, float, float | None, bool):
        limits["strict"] = True
    if item.required:
        return kind, Field(**limits)
    if item.default is None or item.default == ():  # (an empty list: none given)
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


_ANSWERS: dict[type, type[BaseModel]] = {}
"""The answer model of each result record, made or :func:`written`, by the record."""

_M = TypeVar("_M", bound=BaseModel)

_MAKING: dict[type, str] = {}
"""The records whose model is being made, and its name: a record nested in itself (a tree
node's children) refers to its model by that name."""


def written(kind: type) -> Callable[[type[_M]], type[_M]]:
    """Declare the decorated model, written by hand, the answer of ``kind``, a record with a
    wire shape of its own: a model made here takes it where ``kind`` is nested."""

    def declare(model: type[_M]) -> type[_M]:
        if not by_own_shape(kind):
            raise TypeError(f"{kind.__name__} goes as its fields: make its model")
        if kind in _ANSWERS:
            raise TypeError(f"an answer model is given for {kind.__name__} already")
        _ANSWERS[kind] = model
        return model

    return declare


def answer_model(
    kind: type,
    name: str | None = None,
    /,
    *,
    doc: str | None = None,
    nested: Mapping[type, type[BaseModel]] | None = None,
    **notes: str,
) -> type[BaseModel]:
    """The answer model of the result record ``kind`` (a dataclass that goes on the wire as
    its fields in order): named ``name`` (default: the record's name and ``Out``), described
    by ``doc``, each field required, a field named in ``notes`` with that description.

    A nested record takes the model given for it in ``nested``, else its answer made or
    :func:`written` already, else one made now with no descriptions: make a nested
    record's model first to describe its fields. A record is given one model; a
    note for a field the record does not have is refused.
    """
    if by_own_shape(kind):
        raise TypeError(f"{kind.__name__} has a wire shape of its own: write its model")
    if kind in _ANSWERS:
        raise TypeError(f"an answer model is made for {kind.__name__} already")
    hints = get_type_hints(kind)
    names = [f.name for f in dataclasses.fields(kind)]
    unknown = notes.keys() - set(names)
    if unknown:
        raise TypeError(f"{kind.__name__} has no field {', '.join(sorted(unknown))}")
    given = nested or {}
    name = name or f"{kind.__name__}Out"
    _MAKING[kind] = name
    try:
        fields: dict[str, Any] = {}
        for field in names:
            annotation = _answer_type(hints[field], given)
            note = notes.get(field)
            fields[field] = (annotation, Field(description=note) if note else ...)
    finally:
        del _MAKING[kind]
    model = create_model(name, __base__=Out, __doc__=doc, __module__=__name__, **fields)
    _ANSWERS[kind] = model
    return model


def list_answer(
    name: str,
    key: str,
    item: type[BaseModel],
    *,
    doc: str | None = None,
    note: str | None = None,
) -> type[BaseModel]:
    """The answer model ``name`` of a list sent under the route's ``items`` key ``key``: one
    field, the list of ``item``, described by ``note``."""
    fields: dict[str, Any] = {key: (list[item], Field(description=note) if note else ...)}  # type: ignore[valid-type]
    return create_model(name, __base__=Out, __doc__=doc, __module__=__name__, **fields)


def _answer_type(hint: Any, nested: Mapping[type, type[BaseModel]]) -> Any:
    """How a field annotated ``hint`` is described in an answer (what ``to_wire`` makes of
    it): a time as :data:`Time`, a tuple as a list, a mapping as an object, a record by its
    model; text, numbers, flags, ``Literal`` and null as they are."""
    if hint is datetime:
        return Time
    origin = get_origin(hint)
    args = get_args(hint)
    if origin in (Union, UnionType):
        # Union, not |: a record nested in itself is its model's name, and text has no |
        return Union[tuple(_answer_type(a, nested) for a in args)]  # noqa: UP007
    if origin is tuple:
        return list[_answer_type(args[0], nested)]  # type: ignore[misc]
    if origin in (dict, Mapping):
        return dict[str, Any]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hint in _MAKING:
            return _MAKING[hint]
        model = nested.get(hint) or _ANSWERS.get(hint)
        if model is None and by_own_shape(hint):
            raise TypeError(f"{hint.__name__} has a wire shape of its own: give its model")
        return model if model is not None else answer_model(hint)
    return hint
