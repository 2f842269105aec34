"""The tool list's JSON schemas as a client gets them: lean and portable (decision 0138).

The SDK writes pydantic's schemas: a ``title`` on every argument and field, a
``default: null`` on every optional one, and an optional field as
``anyOf: [X, {"type": "null"}]`` (or ``type: [X, "null"]``). Every session pays for the
tool list in tokens, and some clients refuse a ``type`` given as a list, so:

* :func:`lean_input` drops the titles and the null defaults of a tool's input schema (an
  absent argument is null; which values an argument takes is unchanged);
* :func:`portable_output` drops the same (and every default) from an output schema and
  writes an optional field as its one type: a result never carries a null (``ok_result``
  leaves nulls out), so a field that may be null is one that may be absent, not
  ``required``.

>>> lean_input({"title": "fArguments", "properties": {"q": {"title": "Q", "default": None,
...     "anyOf": [{"type": "string"}, {"type": "null"}]}}})
{'properties': {'q': {'anyOf': [{'type': 'string'}, {'type': 'null'}]}}}
>>> portable_output({"properties": {"s": {"type": ["string", "null"]}}, "required": ["s"]})
{'properties': {'s': {'type': 'string'}}}
"""

from __future__ import annotations

from typing import Any

__all__ = ["KEPT_NULL", "lean_input", "non_portable", "portable_output"]

_NAMED = ("properties", "$defs", "definitions", "patternProperties")
"""Keywords whose value maps names to schemas (a property may be named ``title``)."""

_NULL = {"type": "null"}


def lean_input(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without titles and null defaults."""
    lean: dict[str, Any] = _walk(schema, portable=False)
    return lean


def portable_output(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without titles, defaults and null types (see the module)."""
    portable: dict[str, Any] = _walk(schema, portable=True)
    return portable


def non_portable(schema: Any, at: str = "") -> list[str]:
    """Where ``schema`` gives a ``type`` as a list (some clients refuse one): JSON
    pointers, empty when it is portable."""
    found: list[str] = []
    if isinstance(schema, dict):
        if isinstance(schema.get("type"), list):
            found.append(at or "/")
        for key, value in schema.items():
            if key in _NAMED and isinstance(value, dict):
                for name, sub in value.items():
                    found += non_portable(sub, f"{at}/{key}/{name}")
            elif key != "enum" and key != "const":
                found += non_portable(value, f"{at}/{key}")
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            found += non_portable(sub, f"{at}/{i}")
    return found


def _walk(schema: Any, *, portable: bool) -> Any:
    if isinstance(schema, list):
        return [_walk(s, portable=portable) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "default" and (value is None or portable):
            continue  # an absent argument is null; a result's field has no default
        if key in _NAMED and isinstance(value, dict):
            out[key] = {name: _property(sub, portable=portable) for name, sub in value.items()}
        elif key in ("enum", "const", "default", "examples"):
            out[key] = value
        else:
            out[key] = _walk(value, portable=portable)
    if not portable:
        return out
    nullable = {name for name, sub in schema.get("properties", {}).items() if _nullable(sub)}
    if nullable and "required" in out:
        required = [name for name in out["required"] if name not in nullable]
        if required:
            out["required"] = required
        else:
            del out["required"]
    return _not_null(out)


KEEP_NULL = "x-keep-null"
"""The mark of a result field answered as ``null`` when unset (``keep_null`` of a result
model): its schema keeps the null option, as ``anyOf`` (no type list)."""


KEPT_NULL: dict[str, Any] = {KEEP_NULL: True}
"""``json_schema_extra`` of a ``keep_null`` field."""


def _property(schema: Any, *, portable: bool) -> Any:
    if not (portable and isinstance(schema, dict) and schema.get(KEEP_NULL)):
        return _walk(schema, portable=portable)
    rest = {k: v for k, v in schema.items() if k != KEEP_NULL}
    node = _walk(rest, portable=True)  # without its null option, then with it as anyOf
    keywords = {k: v for k, v in node.items() if k in ("description",)}
    shape = {k: v for k, v in node.items() if k not in keywords}
    return {**keywords, "anyOf": [shape, _NULL]}


def _nullable(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    return (
        kind == "null"
        or (isinstance(kind, list) and "null" in kind)
        or _NULL in schema.get("anyOf", ())
    )


def _not_null(schema: dict[str, Any]) -> dict[str, Any]:
    """One schema node without its null option: ``type: [X, "null"]`` is ``type: X``, and
    ``anyOf: [X, null]`` is X (with the node's own keywords)."""
    kind = schema.get("type")
    if isinstance(kind, list) and "null" in kind:
        rest = [k for k in kind if k != "null"]
        schema = {**schema, "type": rest[0] if len(rest) == 1 else rest}
    options = schema.get("anyOf")
    if isinstance(options, list) and _NULL in options:
        rest = [o for o in options if o != _NULL]
        schema = {k: v for k, v in schema.items() if k != "anyOf"}
        if len(rest) == 1 and isinstance(rest[0], dict):
            schema = {**rest[0], **schema}
        elif rest:
            schema["anyOf"] = rest
    return schema
