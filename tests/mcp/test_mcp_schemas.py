"""The tool list's schemas made lean and portable (decision 0138)."""

from __future__ import annotations

from typing import Any

from embornal.interfaces.mcp.schemas import lean_input, non_portable, portable_output

NULLABLE_TEXT = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "T"}


def test_an_input_schema_loses_titles_and_null_defaults_not_its_types() -> None:
    schema = {
        "title": "noteArguments",
        "type": "object",
        "properties": {
            "title": {"type": "string", "title": "Title"},  # an argument named title stays
            "text": NULLABLE_TEXT,
            "limit": {"type": "integer", "default": 10, "title": "Limit"},
        },
        "required": ["title"],
    }
    assert lean_input(schema) == {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "text": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "limit": {"type": "integer", "default": 10},
        },
        "required": ["title"],
    }


def test_an_output_schema_says_an_optional_field_by_its_one_type() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "title": "ClaimOut",
        "properties": {
            "claim_id": {"type": "string"},
            "statement": {"type": ["string", "null"]},
            "note": NULLABLE_TEXT | {"description": "Why."},
            "narrative": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}], "default": None},
            "tags": {"type": "array", "items": {"type": "string"}, "default": []},
        },
        "required": ["claim_id", "statement"],
        "$defs": {"N": {"type": "object", "properties": {"v": {"type": ["integer", "null"]}}}},
    }
    assert non_portable(schema) == ["/properties/statement", "/$defs/N/properties/v"]
    out = portable_output(schema)
    assert out == {
        "type": "object",
        "properties": {
            "claim_id": {"type": "string"},
            "statement": {"type": "string"},
            "note": {"type": "string", "description": "Why."},
            "narrative": {"$ref": "#/$defs/N"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["claim_id"],  # a null is left out of an answer: absent, not required
        "$defs": {"N": {"type": "object", "properties": {"v": {"type": "integer"}}}},
    }
    assert non_portable(out) == []
