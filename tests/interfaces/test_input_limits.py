"""Every limit an input of the catalogue declares (``max_length`` in its unit, ``low`` and
``high``, ``choices``) is enforced on every transport before the call, and shown where the
transport describes its inputs (the MCP input schemas, the REST models and OpenAPI).

The walk sends, for each operation and each input with a ``max_length``, a value one over
the limit through each transport the operation has (REST, MCP, the command line): each
refuses it naming the input, and the event log does not grow (issue 27, decision 0140).
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from starlette.testclient import TestClient

from embornal import Memory
from embornal.errors import InvalidContent, InvalidInput
from embornal.interfaces.catalog import EXAMPLE_ID, mcp_tools, routed, whole
from embornal.interfaces.catalog_types import Input, Operation, check_inputs
from embornal.interfaces.mcp.server import build_server
from embornal.storage.connect import connect

LIMITED = [
    pytest.param(op, item, id=f"{op.name}.{item.name}")
    for op in whole()
    for item in op.inputs
    if item.max_length is not None
]


def _events(db: Path) -> int:
    with closing(connect(db)) as conn:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])


def _over(item: Input) -> str:
    """A value of ``item`` one over its ``max_length``, well formed otherwise."""
    assert item.max_length is not None
    if item.type == "path":
        return "/" + "a" * item.max_length
    if item.type in ("evidence", "evidence_list"):
        return "quote:" + "q" * (item.max_length - 5)
    if item.type in ("time", "as_of"):
        return "2026-01-01T00:00:00Z" + " " * (item.max_length - 19)
    return "x" * (item.max_length + 1)


_FILLERS: dict[str, Any] = {
    "path": "/limits/walk",
    "id": EXAMPLE_ID,
    "target": EXAMPLE_ID,
    "reason": "checking the limits",
    "text": "a short text",
    "event": 1,
    "int": 1,
    "weight": 0.5,
    "evidence": "quote:short",
    "evidence_list": ["quote:short"],
    "list": [EXAMPLE_ID],
    "items": [{"type": "create", "path": "/n", "content": "a short text"}],
    "source": "walk",
    "visibility": "shared",
    "lifetime": "standard",
    "kind": "fact",
    "time": "2026-01-01T00:00:00Z",
    "as_of": "2026-01-01T00:00:00Z",
    "days": 1,
    "float": 0.5,
    "confidence": 0.5,
    "attributes": {"status": "active"},
    "tags": ["k=v"],
}


def _filler(item: Input) -> Any:
    if item.choices:
        return item.choices[0]
    if item.low is not None and item.type in ("int", "event", "days"):
        return max(item.low, 1)
    return _FILLERS[item.type]


def _call(op: Operation, item: Input, over: Any, taken: Any) -> dict[str, Any]:
    """The inputs of a call of ``op``: each required one ``taken`` by the transport filled,
    ``item`` over its limit."""
    given = {i.name: _filler(i) for i in op.inputs if i.required and taken(i)}
    given[item.name] = over
    return given


#: The codes of a text too long: a path's and a content's, as the service gives them.
_TOO_LONG = {"invalid_input", "invalid_path", "invalid_content"}


def _names_the_limit(message: str, item: Input) -> bool:
    assert item.max_length is not None
    return item.name in message and f"at most {item.max_length:,}" in message


# -- the check, alone -------------------------------------------------------------------------


@pytest.mark.parametrize(("op", "item"), LIMITED)
def test_one_over_the_limit_is_refused_naming_the_input_its_limit_and_length(
    op: Operation, item: Input
) -> None:
    assert item.max_length is not None
    at = "x" * item.max_length
    check_inputs(op.inputs, {item.name: at})  # at the limit: taken
    with pytest.raises(InvalidInput) as caught:
        check_inputs(op.inputs, {item.name: at + "x"})
    unit = item.length_unit
    expected = f"{item.name} is {item.max_length + 1:,} {unit} long; at most {item.max_length:,}"
    assert caught.value.message.startswith(expected)


def test_a_content_limit_counts_bytes_as_the_service_does() -> None:
    from embornal.domain.facts import MAX_CONTENT_BYTES, check_content

    (store,) = [op for op in whole() if op.name == "store"]
    content = store.input("content")
    assert content.length_unit == "bytes" and content.max_length == MAX_CONTENT_BYTES
    wide = "é" * (MAX_CONTENT_BYTES // 2 + 1)  # under the limit in characters, over in bytes
    with pytest.raises(InvalidContent, match=r"content is 65,538 bytes long; at most 65,536"):
        check_inputs(store.inputs, {"content": wide})
    with pytest.raises(InvalidInput):
        check_content(wide)  # the service counts the same


def test_every_content_limit_is_in_bytes_and_every_other_in_characters() -> None:
    from embornal.domain.bounds import MAX_CONTENT_BYTES

    for op in whole():
        for item in op.inputs:
            if item.max_length is None:
                continue
            wanted = "bytes" if item.max_length == MAX_CONTENT_BYTES else "characters"
            assert item.length_unit == wanted, (op.name, item.name)


@pytest.mark.parametrize(
    ("value", "message"),
    [(0, "limit must be from 1 to 1000, not 0"), (1001, "limit must be from 1 to 1000")],
)
def test_a_number_out_of_its_range_is_refused(value: int, message: str) -> None:
    (cat,) = [op for op in whole() if op.name == "cat"]
    with pytest.raises(InvalidInput, match=message):
        check_inputs(cat.inputs, {"limit": value})
    check_inputs(cat.inputs, {"limit": True})  # not a number: the transport's type says


def test_a_text_not_among_its_choices_is_refused() -> None:
    (cat,) = [op for op in whole() if op.name == "cat"]
    with pytest.raises(InvalidInput, match="order_by must be one of date, signal; not 'size'"):
        check_inputs(cat.inputs, {"order_by": "size"})


@contextlib.asynccontextmanager
async def mcp_client(memory: Memory, profile: str) -> AsyncIterator[Client]:
    """An in-process MCP client of ``memory``'s server."""
    async with Client(build_server(memory, profile=profile), mode="legacy") as client:
        yield client


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await client.call_tool(tool, args)
    block = result.content[0]
    assert block.type == "text"
    answer: dict[str, Any] = json.loads(block.text)
    return bool(result.is_error), answer


# -- what each transport shows ------------------------------------------------------------------


def _limits(item: Input) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if item.max_length is not None:
        out["maxLength"] = item.max_length
    if item.low is not None:
        out["minimum"] = item.low
    if item.high is not None:
        out["maximum"] = item.high
    if item.choices:
        out["enum"] = list(item.choices)
    return out


def _shown(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The limits a property's schema shows (of its text, number or list-of-text branch)."""
    if "$ref" in schema:
        return _shown(defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    out: dict[str, Any] = {}
    for branch in schema.get("anyOf", [schema]):
        if "$ref" in branch or "anyOf" in branch:
            out = {**_shown(branch, defs), **out}
            continue
        if branch.get("type") == "array":
            out = {**_shown(branch.get("items", {}), defs), **out}
        for key in ("maxLength", "minimum", "maximum", "enum"):
            if key in branch:
                out.setdefault(key, branch[key])
    return out


def test_each_rest_model_declares_the_limits_of_the_catalogue() -> None:
    """The REST models are written by hand: each field of an input has its limits."""
    from embornal.interfaces.http.api import OPERATIONS

    models = {o.operation_id: o for o in OPERATIONS}
    checked = 0
    for op in routed():
        assert op.http is not None
        api = models[op.http.operation_id]
        for item in op.inputs:
            where = op.http.where(item)
            if not item.rest or where == "path":
                continue  # (a path parameter: checked by check_inputs, an id's pattern)
            model = api.query if where == "query" else api.body
            assert model is not None, (op.name, item.name)
            schema = model.model_json_schema(by_alias=True)
            prop = schema["properties"][item.wire_name]
            shown = _shown(prop, schema.get("$defs", {}))
            assert shown == _limits(item), (op.name, item.name)
            checked += bool(shown)
    assert checked > 100


@pytest.mark.anyio
@pytest.mark.parametrize("profile", ["core", "full"])
async def test_each_mcp_input_schema_shows_the_limits_of_the_catalogue(
    memory: Memory, profile: str
) -> None:
    by_name = {op.name: op for op in mcp_tools(profile)}
    async with mcp_client(memory, profile) as client:
        tools = (await client.list_tools()).tools
    checked = 0
    for tool in tools:
        op = by_name[tool.name]
        props = tool.input_schema["properties"]
        for item in op.inputs:
            if item.tool_param not in props or item.type == "where":
                continue  # (not of this profile; conditions as a list or an object)
            shown = _shown(props[item.tool_param], tool.input_schema.get("$defs", {}))
            assert shown == _limits(item), (op.name, item.name)
            checked += bool(shown)
    assert checked > (20 if profile == "core" else 100)


# -- the walk: one over the limit through each transport ---------------------------------------


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def alice(memory: Memory) -> dict[str, str]:
    return {"Authorization": f"Bearer {memory.token_add('alice').token}"}


@pytest.fixture
def client(memory: Memory) -> Iterator[TestClient]:
    from embornal.interfaces.http.app import create_app

    with TestClient(create_app(memory, mcp=False, wiki=False)) as c:
        yield c


def test_rest_refuses_one_over_each_limit(
    memory: Memory, db_path: Path, client: TestClient, alice: dict[str, str]
) -> None:
    """400 ``invalid_input`` from the central check, or 422 where the model declares the
    limit (its OpenAPI document shows it); either names the field."""
    before = _events(db_path)
    wrong: list[str] = []
    for op in routed():
        assert op.http is not None
        for item in op.inputs:
            if item.max_length is None or not item.rest:
                continue
            given = _call(op, item, _over(item), lambda i: i.rest)
            path, query, body = op.http.path, {}, {}
            for i in op.inputs:
                if i.name not in given:
                    continue
                value = given[i.name]
                if i.type in ("evidence_list", "list") and isinstance(value, str):
                    value = [value]
                where = op.http.where(i)
                if where == "path":
                    path = path.replace("{" + i.wire_name + "}", str(value))
                elif where == "query":
                    query[i.wire_name] = value
                else:
                    body[i.wire_name] = value
            url = f"/api/v1{path}"
            if op.http.method == "GET":
                r = client.get(url, params=query, headers=alice)
            else:
                r = client.post(url, json=body, headers=alice)
            problem = r.json() if r.status_code >= 400 else {}
            shown = str(problem.get("detail", "")) + str(problem.get("errors", ""))
            named = item.wire_name in shown or item.name in shown
            if r.status_code not in (400, 422) or not named:
                wrong.append(f"{op.name}.{item.name}: {r.status_code} {shown[:200]}")
    assert not wrong, "\n".join(wrong)
    assert _events(db_path) == before


@pytest.mark.anyio
async def test_mcp_refuses_one_over_each_limit(memory: Memory, db_path: Path) -> None:
    before = _events(db_path)
    wrong: list[str] = []
    async with mcp_client(memory, "full") as client:
        for op in mcp_tools("full"):
            for item in op.inputs:
                if item.max_length is None or not item.mcp:
                    continue
                given = _call(op, item, _over(item), lambda i: i.mcp)
                args = {i.tool_param: given[i.name] for i in op.inputs if i.name in given}
                failed, out = await call(client, op.name, args)
                message = str(out.get("message", ""))
                if not failed or out.get("error") not in _TOO_LONG:
                    wrong.append(f"{op.name}.{item.name}: {out}"[:300])
                elif not _names_the_limit(message, item):
                    wrong.append(f"{op.name}.{item.name}: {message}"[:300])
    assert not wrong, "\n".join(wrong)
    assert _events(db_path) == before


def _argv(op: Operation, item: Input) -> list[str]:
    from embornal.interfaces.cli.derived import flag_of

    assert op.cli is not None
    given = _call(op, item, _over(item), lambda i: i.cli)
    words = ["--json", *op.cli.split()]
    for i in op.inputs:
        if not i.cli or i.name not in given:
            continue
        value = given[i.name]
        value = value[0] if isinstance(value, list) else value
        if isinstance(value, dict):
            value = ",".join(f"{k}={v}" for k, v in value.items())
        flags = flag_of(i)
        words.extend([flags[0], str(value)] if flags else [str(value)])
    return words


def test_the_command_line_refuses_one_over_each_limit(
    embornal_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exit 2 with the central check's message; run in process (the console script's
    ``main``), each command once per limited input."""
    from embornal.interfaces.cli import main as cli_main

    with Memory.open() as memory:
        db = Path(memory.db_path)
    before = _events(db)
    wrong: list[str] = []
    for op in whole():
        if op.cli is None:
            continue
        for item in op.inputs:
            if item.max_length is None or not item.cli:
                continue
            argv = _argv(op, item)
            monkeypatch.setattr("sys.stdin", io.StringIO(""))
            code = cli_main.main(argv)
            err = capsys.readouterr().err
            if code != 2 or not _names_the_limit(err, item):
                wrong.append(f"{op.cli} ({item.name}): exit {code}, {err.strip()[:200]}")
    assert not wrong, "\n".join(wrong)
    assert _events(db) == before
