"""The REST API under ``/api/v1``: the routed operations of the catalogue
(:mod:`embornal.interfaces.catalog`); the routes and the OpenAPI document are both made
from them.

Each request is served in one trip to a worker thread (Starlette's thread pool):
authenticate the token, validate the query and the body, call the service, and
serialize the answer. The event loop never blocks on the database and there is no
lock here: reads of different requests run at the same time (SQLite WAL readers,
one per thread); writes are serialized by the store.
"""

from __future__ import annotations

import codecs
import json
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import embornal
from embornal.domain import paths as P
from embornal.interfaces import capabilities
from embornal.interfaces.catalog import Operation as CatalogOp
from embornal.interfaces.catalog import routed
from embornal.interfaces.catalog_types import check_inputs, resolve_call
from embornal.interfaces.http.auth import Gate, bearer_token
from embornal.interfaces.http.derived import RequestModel, request_model
from embornal.interfaces.http.problems import RequestInvalid
from embornal.interfaces.http.schemas import (
    CatOut,
    FactDetailOut,
    FactOut,
    FactsOut,
    HealthOut,
    HistoryOut,
    KindsOut,
    LsOut,
    RecallOut,
    TagsOut,
    TreeNodeOut,
    WhoAmIOut,
)
from embornal.interfaces.wire import effective_tag, to_wire
from embornal.service.memory import Memory

__all__ = ["API_PREFIX", "OPERATIONS", "Call", "Operation", "api_routes"]

API_PREFIX = "/api/v1"
ID_DESCRIPTION = "A fact id (26 characters of Crockford base32) or a unique prefix of one."


@dataclass(frozen=True)
class Call:
    """What an operation gets: the subject's memory and the validated input."""

    memory: Memory
    query: Any = None
    body: Any = None
    path: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    operation_id: str
    summary: str
    description: str
    response: type[BaseModel]
    run: Callable[[Call], Any]
    query: type[BaseModel] | None = None
    body: type[BaseModel] | None = None
    status: int = 200
    errors: tuple[int, ...] = ()
    auth: bool = True
    path_params: tuple[str, ...] = ()
    tag: str = "facts"


# -- the operations: the catalogue's routed ones -------------------------------------------
#
# What HTTP adds to a catalogue record: the pydantic models that validate the query or
# the body and describe the answer (OpenAPI), and the envelope the answer comes in.


def _inputs(op: CatalogOp, c: Call) -> dict[str, Any]:
    """The ``Memory`` keyword arguments: each REST input, from the path, query or body."""
    assert op.http is not None
    kwargs: dict[str, Any] = {}
    for item in op.inputs:
        if not item.rest:
            continue
        where = op.http.where(item)
        if where == "path":
            kwargs[item.name] = c.path[item.wire_name]
        else:
            kwargs[item.name] = getattr(c.query if where == "query" else c.body, item.wire_name)
            if kwargs[item.name] is None and not item.required:  # left out: its default
                kwargs[item.name] = item.default
        if item.type == "evidence" and isinstance(kwargs[item.name], BaseModel):
            kwargs[item.name] = _evidence_ref(kwargs[item.name])
        if item.type == "evidence_list":
            kwargs[item.name] = [
                _evidence_ref(ev) if isinstance(ev, BaseModel) else ev
                for ev in kwargs[item.name] or ()
            ]
    check_inputs(op.inputs, kwargs)
    return kwargs


def _evidence_ref(ev: Any) -> Any:
    """The object form of evidence, checked as the text form is."""
    from embornal.domain.spine.justification import EvidenceRef

    return EvidenceRef(ev.type, ev.value, ev.note)


def _whoami(c: Call, result: Any) -> Any:
    return {"subject": c.memory.subject, "actor_kind": c.memory.actor_kind.value}


def _health(c: Call, result: Any) -> Any:
    return {"status": "ok", "version": embornal.__version__}


def _at_path(key: str) -> Callable[[Call, Any], Any]:
    def envelope(c: Call, result: Any) -> Any:
        return {"path": P.normalize_path(c.query.path), key: to_wire(result)}

    return envelope


def _tags(c: Call, detail: Any) -> Any:
    return {
        "fact_id": detail.fact.id,
        "tags": [effective_tag(t, s) for t, s in detail.effective_tags],
    }


_HTTP: dict[str, tuple[type[BaseModel], RequestModel, Callable[[Call, Any], Any]]]
_HTTP = capabilities.merged(
    "rest",
    "HTTP",  # each capability folder's (decision 0177), after the core's
    {
        # name: (answer model, query or body model, or the name of the one made, envelope)
        "health": (HealthOut, None, _health),
        "whoami": (WhoAmIOut, None, _whoami),
        "ls": (LsOut, "LsQuery", _at_path("entries")),
        "cat": (CatOut, "CatQuery", _at_path("facts")),
        "tags": (TagsOut, "TagsQuery", _tags),
        "history": (HistoryOut, None, lambda c, r: {"target": c.path["id"], "events": to_wire(r)}),
        "find": (FactsOut, "FindQuery", lambda c, r: {"kind": c.query.kind, "facts": to_wire(r)}),
        "kinds": (KindsOut, None, lambda c, r: {"kinds": to_wire(r)}),
    },
)


_BY_OUTPUT: dict[str, type[BaseModel]] = capabilities.merged(
    "rest",
    "BY_OUTPUT",  # each capability folder's (decision 0184), after the core's
    {
        "Fact": FactOut,
        "list[RecallHit]": RecallOut,
        "TreeNode": TreeNodeOut,
        "FactDetail": FactDetailOut,
    },
)
"""The answer model of an operation with no entry in ``_HTTP``, by its output (a list is
sent under the route's ``items``): a new operation whose result is of one of these types
needs no line in any table."""

_REQUESTS: dict[str, RequestModel] = capabilities.merged(
    "rest",
    "REQUESTS",  # each capability folder's (decision 0184), after the core's
    {
        # name: query or body model, or the name of the one made (None: none)
        "store": "StoreIn",
        "forget": "ReasonIn",
        "supersede": "SupersedeIn",
        "restore": "ReasonIn",
        "update": "UpdateIn",
        "show": "ShowQuery",
    },
)
"""The request model of an operation with no entry in ``_HTTP``, when it is not the one
made from its record and named after its operation id."""

_TWICE = _HTTP.keys() & _REQUESTS.keys()
if _TWICE:  # an entry of _HTTP gives its request model itself
    raise ValueError(f"{sorted(_TWICE)} have a request model in HTTP and in REQUESTS")


def _derived(op: CatalogOp) -> tuple[type[BaseModel], RequestModel, Callable[[Call, Any], Any]]:
    """An operation's entry made from its record: the answer model by its output, the
    request model its ``REQUESTS`` line gives or the one made from its inputs
    (``<OperationId>Query`` or ``<OperationId>In``), the envelope its route's ``items``."""
    http = op.http
    assert http is not None
    name = http.operation_id[:1].upper() + http.operation_id[1:]
    name += "Query" if http.method == "GET" else "In"
    given = _REQUESTS.get(op.name, name)
    items = http.items
    if items is None:
        return _BY_OUTPUT[op.output], given, lambda c, r: to_wire(r)
    return _BY_OUTPUT[op.output], given, lambda c, r: {items: to_wire(r)}


def _runner(op: CatalogOp, envelope: Callable[[Call, Any], Any]) -> Callable[[Call], Any]:
    def run(c: Call) -> Any:
        result = None if op.call is None else resolve_call(c.memory, op.call)(**_inputs(op, c))
        return envelope(c, result)

    return run


def _operation(op: CatalogOp) -> Operation:
    http = op.http
    assert http is not None
    response, given, envelope = _HTTP.get(op.name) or _derived(op)
    model = None if given is None else request_model(op, given)
    return Operation(
        http.method,
        http.path,
        http.operation_id,
        http.summary,
        http.description,
        response,
        _runner(op, envelope),
        query=model if http.method == "GET" else None,
        body=model if http.method == "POST" else None,
        status=http.status,
        errors=http.errors,
        auth=http.auth,
        path_params=http.path_params,
        tag=http.tag,
    )


OPERATIONS: tuple[Operation, ...] = tuple(_operation(op) for op in routed())


# -- serving ---------------------------------------------------------------------------------


def _is_list(annotation: Any) -> bool:
    """Whether a query field takes a list (``list[...]``, or one that may be null)."""
    if typing.get_origin(annotation) is list:
        return True
    return any(typing.get_origin(arg) is list for arg in typing.get_args(annotation))


def _query(op: Operation, params: Sequence[tuple[str, str]]) -> Any:
    if op.query is None:
        return None
    seen: dict[str, Any] = {}
    for key, value in params:
        field = op.query.model_fields.get(key)
        if field is not None and _is_list(field.annotation):
            seen.setdefault(key, []).append(value)  # a repeatable parameter (where=…)
            continue
        if key in seen:
            raise RequestInvalid(
                f"the request is invalid: query.{key} is given more than once",
                hint="Give each parameter once.",
            )
        seen[key] = value
    try:
        return op.query.model_validate(seen)
    except ValidationError as e:
        raise RequestInvalid.from_validation("query", e) from e


_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _utf8(raw: bytes) -> str:
    """The body as text: UTF-8 only (a UTF-8 byte order mark is dropped).

    ``json.loads`` of bytes would guess UTF-16 or UTF-32 from the first bytes; the API
    documents UTF-8, so those, with a byte order mark or without, are refused (400).
    """
    found = next((name for bom, name in _WIDE_BOMS if raw.startswith(bom)), None)
    if found is None and b"\x00" in raw[:4]:  # JSON text starts with ASCII: a NUL is wide
        found = "UTF-16 or UTF-32"
    if found is None:
        try:
            return raw.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            found = "not UTF-8"
    what = found if found == "not UTF-8" else f"{found}, not UTF-8"
    raise RequestInvalid(
        f"the body must be JSON encoded as UTF-8; it is {what}",
        status=400,
        code="invalid_json",
        hint="Send a JSON object encoded as UTF-8.",
    )


def _body(op: Operation, raw: bytes) -> Any:
    if op.body is None:
        return None
    if not raw.strip():
        raise RequestInvalid(
            "the request needs a JSON body",
            hint="Send a JSON object, with Content-Type: application/json.",
        )
    text = _utf8(raw)
    try:
        data = json.loads(text)
        # A lone UTF-16 surrogate ("\ud800") decodes but is not text; refuse it here.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError, UnicodeError) as e:
        raise RequestInvalid(
            "the body is not valid JSON text",
            status=400,
            code="invalid_json",
            hint="Send a JSON object encoded as UTF-8.",
        ) from e
    try:
        return op.body.model_validate(data)
    except ValidationError as e:
        raise RequestInvalid.from_validation("body", e) from e


def _serve(
    op: Operation,
    gate: Gate,
    authorization: str | None,
    params: list[tuple[str, str]],
    path: dict[str, str],
    raw: bytes,
) -> tuple[bytes, str | None]:
    """Everything a request needs from the database, in one worker-thread trip.

    Returns the JSON body and, for a created fact, its id.
    """
    memory = gate.for_token(bearer_token(authorization)) if op.auth else gate.memory
    call = Call(memory, _query(op, params), _body(op, raw), path)
    out = op.run(call)
    created = str(out["id"]) if op.status == 201 else None
    text = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8"), created


def _endpoint(op: Operation, gate: Gate) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        raw = await request.body() if op.body is not None else b""
        body, created = await run_in_threadpool(
            _serve,
            op,
            gate,
            request.headers.get("authorization"),
            request.query_params.multi_items(),
            dict(request.path_params),
            raw,
        )
        headers = {"Cache-Control": "no-store"}
        if created is not None:
            headers["Location"] = f"{API_PREFIX}{op.path}/{created}"
        return Response(body, status_code=op.status, media_type="application/json", headers=headers)

    endpoint.__name__ = op.operation_id
    return endpoint


def api_routes(gate: Gate) -> list[Route]:
    """One route per path; a path of two operations (``GET`` and ``POST /proposals``)
    dispatches on the method, so that a 405 names every method the path has."""
    by_path: dict[str, list[Operation]] = {}
    for op in OPERATIONS:
        by_path.setdefault(op.path, []).append(op)
    routes = []
    for path, ops in by_path.items():
        endpoints = {op.method: _endpoint(op, gate) for op in ops}
        endpoint = endpoints[ops[0].method] if len(ops) == 1 else _by_method(endpoints)
        name = "_".join(op.operation_id for op in ops)
        routes.append(Route(API_PREFIX + path, endpoint, methods=list(endpoints), name=name))
    return routes


def _by_method(endpoints: Mapping[str, Callable[[Request], Any]]) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method  # Starlette adds HEAD
        response: Response = await endpoints[method](request)
        return response

    return endpoint
