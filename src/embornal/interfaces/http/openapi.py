"""The OpenAPI 3.1 document of the REST API, made from the table of operations.

Schemas come from the same pydantic models that validate the requests and build
the responses, so the document cannot drift from what the server does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

import embornal
from embornal.interfaces.http.api import API_PREFIX, ID_DESCRIPTION, Operation
from embornal.interfaces.http.problems import PROBLEM_MEDIA_TYPE
from embornal.interfaces.http.schemas import ID_PATTERN, Problem

__all__ = ["openapi_document"]

REF = "#/components/schemas/{model}"

_STATUS_TEXT = {
    400: "The input is invalid (a bad path, tag, id, time or argument), or the body is not JSON.",
    401: "No token, or a bad, expired or revoked one.",
    403: "The subject may not do this here (the access rules).",
    404: "No such fact or path — or one the subject may not read: the two look the same.",
    409: "The state of the fact forbids the change (already forgotten, not forgotten, purged).",
    413: "The request body is over the server's limit.",
    422: "The request does not have the documented shape (missing or wrong parameters).",
    503: "The database is busy or failed; retry.",
}


def _problem_responses() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for status, text in _STATUS_TEXT.items():
        response: dict[str, Any] = {
            "description": text,
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": REF.format(model="Problem")}}},
        }
        if status == 401:
            response["headers"] = {
                "WWW-Authenticate": {
                    "description": 'Always `Bearer realm="embornal"`.',
                    "schema": {"type": "string"},
                }
            }
        out[f"Problem{status}"] = response
    return out


def _query_parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    schema = model.model_json_schema()
    required = set(schema.get("required", []))
    params = []
    for name, prop in schema["properties"].items():
        prop = dict(prop)
        description = prop.pop("description", None)
        prop.pop("title", None)
        branches = prop.pop("anyOf", None)
        if branches is not None:  # X | None: a query parameter is absent, never null
            (kept,) = [b for b in branches if b.get("type") != "null"]
            prop = {**kept, **prop}
        if prop.get("default", 0) is None:
            del prop["default"]
        param: dict[str, Any] = {
            "name": name,
            "in": "query",
            "required": name in required,
            "schema": prop,
        }
        if description:
            param["description"] = description
        params.append(param)
    return params


def _path_param(name: str) -> dict[str, Any]:
    """A fact ``id`` (a ULID or a unique prefix), or an event's log ``position``."""
    if name == "position":
        about = "The event's id: its log position (the `position` of a history event)."
        schema: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": 10**18 - 1}
    else:
        about, schema = ID_DESCRIPTION, {"type": "string", "pattern": ID_PATTERN}
    return {"name": name, "in": "path", "required": True, "description": about, "schema": schema}


def _operation(op: Operation) -> dict[str, Any]:
    body: dict[str, Any] = {
        "operationId": op.operation_id,
        "summary": op.summary,
        "description": op.description,
        "tags": [op.tag],
    }
    params = [_path_param(name) for name in op.path_params]
    if op.query is not None:
        params.extend(_query_parameters(op.query))
    if params:
        body["parameters"] = params
    if op.body is not None:
        body["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": REF.format(model=op.body.__name__)}}
            },
        }
    ok: dict[str, Any] = {
        "description": "Created" if op.status == 201 else "OK",
        "content": {
            "application/json": {"schema": {"$ref": REF.format(model=op.response.__name__)}}
        },
    }
    if op.status == 201:
        ok["headers"] = {
            "Location": {
                "description": "The URL of the new fact.",
                "schema": {"type": "string"},
            }
        }
    responses: dict[str, Any] = {str(op.status): ok}
    for status in op.errors:
        responses[str(status)] = {"$ref": f"#/components/responses/Problem{status}"}
    body["responses"] = responses
    if not op.auth:
        body["security"] = []
    return body


def openapi_document(operations: Sequence[Operation]) -> dict[str, Any]:
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [(Problem, "serialization")]
    for op in operations:
        models.append((op.response, "serialization"))
        if op.body is not None:
            models.append((op.body, "validation"))
    unique = list(dict.fromkeys(models))
    _, top = models_json_schema(unique, ref_template=REF)
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        paths.setdefault(API_PREFIX + op.path, {})[op.method.lower()] = _operation(op)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "embornal",
            "version": embornal.__version__,
            "summary": "A local-first, auditable memory for AI agents.",
            "description": (
                "Small facts on topic paths, keyword recall, strength, history and access "
                "rules. Every route but /health needs `Authorization: Bearer <token>` (see "
                "`embornal token add`); what a token's subject may read, write and delete is "
                "set by the access rules. Errors are `application/problem+json`."
            ),
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "paths": paths,
        "components": {
            "schemas": top.get("$defs", {}),
            "responses": _problem_responses(),
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A token from `embornal token add SUBJECT`.",
                }
            },
        },
        "security": [{"bearer": []}],
        "tags": [
            {"name": "facts", "description": "Store, find, show and forget facts."},
            {"name": "paths", "description": "Browse the tree of topic paths."},
            {"name": "events", "description": "The event log: undo one event."},
            {"name": "server", "description": "The server and the caller."},
        ],
    }
