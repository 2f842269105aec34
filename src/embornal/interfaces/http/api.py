"""The REST API under ``/api/v1``: one table of operations, the routes and the
OpenAPI document are both made from it.

Each request is served in one trip to a worker thread (Starlette's thread pool):
authenticate the token, validate the query and the body, call the service, and
serialize the answer. The event loop never blocks on the database and there is no
lock here: reads of different requests run at the same time (SQLite WAL readers,
one per thread); writes are serialized by the store.
"""

from __future__ import annotations

import codecs
import json
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
from embornal.interfaces.http.auth import Gate, bearer_token
from embornal.interfaces.http.problems import RequestInvalid
from embornal.interfaces.http.schemas import (
    CatOut,
    CatQuery,
    FactDetailOut,
    FactOut,
    HealthOut,
    HistoryOut,
    LsOut,
    LsQuery,
    ReasonIn,
    RecallOut,
    RecallQuery,
    StoreIn,
    SupersedeIn,
    TagsOut,
    TagsQuery,
    TreeNodeOut,
    TreeQuery,
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


# -- the operations --------------------------------------------------------------------------


def _whoami(c: Call) -> Any:
    return {"subject": c.memory.subject, "actor_kind": c.memory.actor_kind.value}


def _store(c: Call) -> Any:
    b: StoreIn = c.body
    return to_wire(c.memory.store(b.path, b.content, tags=b.tags, at=b.at, reason=b.reason))


def _supersede(c: Call) -> Any:
    b: SupersedeIn = c.body
    fact = c.memory.supersede(c.path["id"], b.content, tags=b.tags, reason=b.reason, at=b.at)
    return to_wire(fact)


def _ls(c: Call) -> Any:
    q: LsQuery = c.query
    entries = c.memory.ls(q.path)
    return {"path": P.normalize_path(q.path), "entries": to_wire(entries)}


def _tree(c: Call) -> Any:
    q: TreeQuery = c.query
    return to_wire(c.memory.tree(q.path, dirs_only=q.dirs_only))


def _cat(c: Call) -> Any:
    q: CatQuery = c.query
    views = c.memory.cat(q.path, limit=q.limit, order_by=q.order_by, recall=q.recall)
    return {"path": P.normalize_path(q.path), "facts": to_wire(views)}


def _recall(c: Call) -> Any:
    q: RecallQuery = c.query
    hits = c.memory.recall(q.q, limit=q.limit, under=q.under, mode=q.mode, reinforce=q.reinforce)
    return {"hits": to_wire(hits)}


def _tags(c: Call) -> Any:
    q: TagsQuery = c.query
    detail = c.memory.show(q.fact)
    return {
        "fact_id": detail.fact.id,
        "tags": [effective_tag(t, s) for t, s in detail.effective_tags],
    }


def _show(c: Call) -> Any:
    return to_wire(c.memory.show(c.path["id"]))


def _history(c: Call) -> Any:
    target = c.path["id"]
    events = c.memory.history(target)
    return {"target": target, "events": to_wire(events)}


def _forget(c: Call) -> Any:
    b: ReasonIn = c.body
    return to_wire(c.memory.forget(c.path["id"], reason=b.reason))


def _restore(c: Call) -> Any:
    b: ReasonIn = c.body
    return to_wire(c.memory.restore(c.path["id"], reason=b.reason))


def _health(c: Call) -> Any:
    return {"status": "ok", "version": embornal.__version__}


_READ = (400, 401, 404, 422, 503)

OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "GET", "/health", "health", "Is the server up",
        "Answers without a token; for probes.",
        HealthOut, _health, auth=False, errors=(), tag="server",
    ),
    Operation(
        "GET", "/whoami", "whoami", "Who the token stands for",
        "The subject of the bearer token and the actor kind its writes are recorded with.",
        WhoAmIOut, _whoami, errors=(401, 503), tag="server",
    ),
    Operation(
        "POST", "/facts", "storeFact", "Store a fact",
        "Store one small fact on a topic path. The memory writes the owner (the token's "
        "subject) itself: a body that carries an owner tag is refused (400).",
        FactOut, _store, body=StoreIn, status=201, errors=(400, 401, 403, 413, 422, 503),
    ),
    Operation(
        "GET", "/ls", "ls", "List one level of the tree",
        "The paths one level below `path` that hold or lead to facts the subject may read.",
        LsOut, _ls, query=LsQuery, errors=_READ, tag="paths",
    ),
    Operation(
        "GET", "/tree", "tree", "The tree below a path",
        "Every visible path below `path`, with each path's own fact count.",
        TreeNodeOut, _tree, query=TreeQuery, errors=_READ, tag="paths",
    ),
    Operation(
        "GET", "/cat", "cat", "Read the facts of one path",
        "The live facts of one path, oldest first (`date`) or strongest first (`signal`). "
        "Not a recall unless `recall=true`.",
        CatOut, _cat, query=CatQuery, errors=_READ, tag="paths",
    ),
    Operation(
        "GET", "/recall", "recall", "Find facts by keyword and meaning",
        "Keyword (BM25 rescaled), vector or hybrid search, + 0.5 x strength; with no `q`, the "
        "strongest facts. Each hit counts as a recall and lifts the fact's strength unless "
        "`reinforce=false`.",
        RecallOut, _recall, query=RecallQuery, errors=(400, 401, 422, 503),
    ),
    Operation(
        "GET", "/tags", "effectiveTags", "The tags that decide access to a fact",
        "The effective tags of a fact, each with the path it is inherited from "
        "(null: the fact's own tag).",
        TagsOut, _tags, query=TagsQuery, errors=_READ,
    ),
    Operation(
        "GET", "/facts/{id}", "showFact", "Show one fact whole",
        "State, strength, effective tags with their sources, links and events. A fact the "
        "subject may not read answers exactly as a missing one: 404.",
        FactDetailOut, _show, path_params=("id",), errors=_READ,
    ),
    Operation(
        "GET", "/facts/{id}/history", "factHistory", "The history of a fact",
        "The events of the fact and of the facts that supersede it or that it supersedes, "
        "oldest first.",
        HistoryOut, _history, path_params=("id",), errors=_READ,
    ),
    Operation(
        "POST", "/facts/{id}/forget", "forgetFact", "Forget a fact",
        "Take the fact out of recall, keeping it and the reason in the history; restorable.",
        FactOut, _forget, body=ReasonIn, path_params=("id",),
        errors=(400, 401, 403, 404, 409, 413, 422, 503),
    ),
    Operation(
        "POST", "/facts/{id}/supersede", "supersedeFact", "Correct a fact",
        "Store a new fact on the same path that points at the old one; the old fact leaves "
        "default recall and stays in the history.",
        FactOut, _supersede, body=SupersedeIn, path_params=("id",), status=201,
        errors=(400, 401, 403, 404, 409, 413, 422, 503),
    ),
    Operation(
        "POST", "/facts/{id}/restore", "restoreFact", "Restore a forgotten fact",
        "Bring a forgotten fact back into recall.",
        FactOut, _restore, body=ReasonIn, path_params=("id",),
        errors=(400, 401, 403, 404, 409, 413, 422, 503),
    ),
)  # fmt: skip


# -- serving ---------------------------------------------------------------------------------


def _query(op: Operation, params: Sequence[tuple[str, str]]) -> Any:
    if op.query is None:
        return None
    seen: dict[str, str] = {}
    for key, value in params:
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
            headers["Location"] = f"{API_PREFIX}/facts/{created}"
        return Response(body, status_code=op.status, media_type="application/json", headers=headers)

    endpoint.__name__ = op.operation_id
    return endpoint


def api_routes(gate: Gate) -> list[Route]:
    return [
        Route(API_PREFIX + op.path, _endpoint(op, gate), methods=[op.method], name=op.operation_id)
        for op in OPERATIONS
    ]
