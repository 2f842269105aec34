"""Every limit an input of the catalogue declares (``max_length`` in its unit,
``max_items``, ``not_empty``, ``pattern``, ``low`` and ``high``, ``choices``) is enforced
on every transport before the call, and shown where the transport describes its inputs
(the MCP input schemas, the REST models and OpenAPI).

The walk sends, for each operation and each input with a limit (``max_length``,
``max_items``, ``not_empty``, ``pattern``, ``low``, ``high``, ``choices``), a value just
past it through each transport the operation has (the Python ``Memory``, MCP, REST, the
remote client, the command line): each refuses it as an invalid input (``InvalidInput``
or one of its kinds: exit 2, MCP and REST a code of that family, REST 422 where the model
declares the limit) and the event log does not grow (decisions 0140, 0162, 0194, 0197
and 0198). The cases come from the catalogue, so a new operation or a new limit is walked
without a line here.
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

from embornal import Memory, errors
from embornal.errors import InvalidContent, InvalidInput
from embornal.interfaces.catalog import EXAMPLE_ID, mcp_tools, routed, whole
from embornal.interfaces.catalog_types import Input, Operation, check_inputs, resolve_call
from embornal.interfaces.mcp.server import build_server
from embornal.storage.sqlite.connect import connect

LIMITED = [  # the length limits (their messages are checked alone below)
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


# -- the check, alone -------------------------------------------------------------------------


@pytest.mark.parametrize(("op", "item"), LIMITED)
def test_one_over_the_limit_is_refused_naming_the_input_its_limit_and_length(
    op: Operation, item: Input
) -> None:
    assert item.max_length is not None
    at = "/" + "x" * (item.max_length - 1) if item.type == "path" else "x" * item.max_length
    check_inputs(op.inputs, {item.name: at})  # at the limit: taken
    with pytest.raises(InvalidInput) as caught:
        check_inputs(op.inputs, {item.name: at + "x"})
    unit = item.length_unit
    expected = f"{item.name} is {item.max_length + 1:,} {unit} long; at most {item.max_length:,}"
    assert caught.value.message.startswith(expected)


def test_a_content_limit_counts_bytes_as_the_service_does() -> None:
    from embornal.domain.facts.fact import MAX_CONTENT_BYTES, check_content

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
    if item.text_pattern is not None:
        out["pattern"] = item.text_pattern
    if item.max_items is not None:
        out["maxProperties" if item.type == "replacements" else "maxItems"] = item.max_items
    return out


_SHOWN = ("maxLength", "minimum", "maximum", "enum", "pattern", "maxItems", "maxProperties")
_LEAST = ("minLength", "minItems", "minProperties")


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
        keys = (*_SHOWN, *_LEAST)
        for key in keys:
            if key in branch:
                out.setdefault(key, branch[key])
    return out


def _least(shown: dict[str, Any]) -> Any:
    """The ``minLength`` (``minItems``, ``minProperties``) ``shown`` declares, taken out of
    it (a required text's may show one too; a text or list declared ``not_empty`` shows 1)."""
    found = [shown.pop(key) for key in _LEAST if key in shown]
    return found[0] if found else None


#: The kinds whose REST wire form has a pattern of its own that the catalogue does not
#: declare: a tag in a list is ``KEY=VALUE`` text, which the REST form checks as it parses
#: (MCP also takes an object of tags; decision 0200).
_STRICTER_ON_REST = {"tags"}


def test_each_rest_model_declares_the_limits_of_the_catalogue() -> None:
    """Each field of an input has its limits, in a model written by hand or made from the
    catalogue (decision 0162)."""
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
            least = _least(shown)
            if item.type in _STRICTER_ON_REST:
                shown.pop("pattern", None)
            assert least == 1 or not item.not_empty, (op.name, item.name)
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
            least = _least(shown)
            assert least == 1 or not item.not_empty, (op.name, item.name)
            assert shown == _limits(item), (op.name, item.name)
            checked += bool(shown)
    assert checked > (20 if profile == "core" else 100)


# -- the walk: just past each limit through each transport ----------------------------------


def _past(item: Input) -> list[tuple[str, Any]]:
    """``(limit, value)``: a value just past each limit ``item`` declares."""
    out: list[tuple[str, Any]] = []
    if item.max_length is not None:
        out.append(("max_length", _over(item)))
    if item.not_empty:
        out.append(("not_empty", [] if item.type == "items" else ""))
    if item.low is not None:
        out.append(("low", item.low - 1))
    if item.high is not None:
        out.append(("high", item.high + 1))
    if item.choices:
        out.append(("choices", "not-one-of-them"))
    if item.text_pattern is not None:
        out.append(("pattern", "not an id!"))
    if item.max_items is not None and item.type == "replacements":
        one = {"type": "create", "path": "/n", "content": "a short text"}
        out.append(("max_items", {str(n): one for n in range(1, item.max_items + 2)}))
    elif item.max_items is not None:
        out.append(("max_items", [_filler(item)[0]] * (item.max_items + 1)))
    return out


Case = tuple[Operation, Input, str, Any]


def _cases(ops: Any, takes: Any) -> Iterator[Case]:
    """Each input of ``ops`` the transport ``takes``, once per limit it declares."""
    for op in ops:
        for item in op.inputs:
            if takes(item):
                for limit, value in _past(item):
                    yield op, item, limit, value


def _all_cases() -> list[Case]:
    return list(_cases(whole(), lambda i: True))


def test_the_walk_covers_every_kind_of_limit() -> None:
    kinds = {limit for _, _, limit, _ in _all_cases()}
    assert kinds == {"max_length", "max_items", "not_empty", "low", "high", "choices", "pattern"}
    assert len(_all_cases()) > 250


#: The codes of a refused input: ``InvalidInput`` and its kinds (each exits 2).
_REFUSED = {
    cls.code
    for cls in vars(errors).values()
    if isinstance(cls, type) and issubclass(cls, InvalidInput) and cls.exit_code == 2
}


def _named(message: str, item: Input) -> bool:
    """The refusal names the input: its name, its words (``event id``), its wire name or
    one of its command-line flags."""
    from embornal.interfaces.cli.derived import flag_of

    names = {item.name, item.name.replace("_", " "), item.wire_name, *flag_of(item)}
    return any(name and name in message for name in names)


def _names_it(message: str, item: Input, limit: str) -> bool:
    """The refusal names the input and, from the central check, what it broke."""
    if limit == "max_length":
        return item.name in message and f"at most {item.max_length:,}" in message
    return _named(message, item)


_FILE_INPUTS = {"file", "directory", "source", "target"}


#: Where the service's own limit is wider than the one the catalogue declares for the
#: transports: the Python API takes the value (``narrate``'s coverage is content-sized
#: there, a claim's scope a 500-character label, a store's evidence any number of pieces).
_WIDER_IN_PYTHON = {("narrate", "coverage"), ("recall_claims", "scope"), ("store", "evidence")}


def _python_refusal(op: Operation, item: Input, error: Exception) -> bool:
    """What the Python API may answer: ``InvalidInput``; for an id longer than any, that
    nothing has it (``NotFound``); for the name of a file of a local operation, the
    operating system's refusal of it (nothing is opened)."""
    if isinstance(error, InvalidInput):
        return True
    if isinstance(error, errors.NotFound):
        return item.type == "id" or item.name.endswith("_id")
    return isinstance(error, OSError) and op.local_only and item.name in _FILE_INPUTS


def _walk_api(api: Any, ops: Any, fact: str, takes: Any, *, local: bool) -> list[str]:
    """Call each operation of ``ops`` on ``api`` (a ``Memory`` or the remote client), just
    past each limit of each input it ``takes``, the example fact id of every other input
    naming ``fact``; what was not refused as an invalid input."""
    wrong: list[str] = []
    for op, item, limit, value in _cases(ops, takes):
        if local and (op.name, item.name) in _WIDER_IN_PYTHON:
            continue
        given = _call(op, item, value, takes)
        given.update({k: fact for k, v in given.items() if v == EXAMPLE_ID and k != item.name})
        assert op.call is not None
        only = not item.rest and "mcp_call" in op.extra  # (recall's frame: the cascade's)
        try:
            resolve_call(api, op.extra["mcp_call"] if only else op.call)(**given)
        except Exception as e:  # the walk reports whatever it gets
            if not _python_refusal(op, item, e):
                wrong.append(f"{op.name}.{item.name} {limit}: {type(e).__name__} {e}"[:300])
        else:
            wrong.append(f"{op.name}.{item.name} {limit}: taken")
    return wrong


@pytest.fixture
def fact(memory: Memory, alice: dict[str, str]) -> str:
    """A fact of alice's, for the fact ids (a refusal must not be its absence)."""
    return memory.as_subject("alice").store("/private/alice", "a short text").id


def test_the_python_api_refuses_just_past_each_limit(
    memory: Memory, db_path: Path, fact: str
) -> None:
    before = _events(db_path)
    ops = [op for op in whole() if op.call is not None]
    wrong = _walk_api(memory, ops, fact, lambda i: True, local=True)
    assert not wrong, "\n".join(wrong)
    assert _events(db_path) == before


def test_the_remote_client_refuses_just_past_each_limit(
    memory: Memory, db_path: Path, client: TestClient, alice: dict[str, str], fact: str
) -> None:
    from embornal.interfaces.cli.remote import RemoteMemory

    def send(method: str, url: str, headers: Any, body: bytes | None, timeout: float) -> Any:
        r = client.request(method, url, headers=dict(headers), content=body)
        return r.status_code, r.reason_phrase, dict(r.headers), r.content

    token = alice["Authorization"].removeprefix("Bearer ")
    remote = RemoteMemory.connect("http://testserver", token, transport=send)
    before = _events(db_path)
    ops = [op for op in routed() if op.call is not None and not op.local_only]
    wrong = _walk_api(remote, ops, fact, lambda i: i.rest, local=False)
    assert not wrong, "\n".join(wrong)
    assert _events(db_path) == before


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


def test_rest_refuses_just_past_each_limit(
    memory: Memory, db_path: Path, client: TestClient, alice: dict[str, str]
) -> None:
    """400 with an invalid input's code from the central check, or 422 where the model
    declares the limit (its OpenAPI document shows it); either names the field."""
    before = _events(db_path)
    wrong: list[str] = []
    for op, item, limit, value in _cases(routed(), lambda i: i.rest):
        assert op.http is not None
        given = _call(op, item, value, lambda i: i.rest)
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
        named = _named(shown, item)
        code = problem.get("code")
        refused = (r.status_code == 400 and code in _REFUSED) or (
            r.status_code == 422 and code == "validation_error"
        )
        if not refused or not named:
            wrong.append(f"{op.name}.{item.name} {limit}: {r.status_code} {code} {shown[:200]}")
    assert not wrong, "\n".join(wrong)
    assert _events(db_path) == before


@pytest.mark.anyio
async def test_mcp_refuses_just_past_each_limit(memory: Memory, db_path: Path) -> None:
    before = _events(db_path)
    wrong: list[str] = []
    async with mcp_client(memory, "full") as client:
        for op, item, limit, value in _cases(mcp_tools("full"), lambda i: i.mcp):
            given = _call(op, item, value, lambda i: i.mcp)
            args = {i.tool_param: given[i.name] for i in op.inputs if i.name in given}
            failed, out = await call(client, op.name, args)
            message = str(out.get("message", ""))
            if not failed or out.get("error") not in _REFUSED:
                wrong.append(f"{op.name}.{item.name} {limit}: {out}"[:300])
            elif not _names_it(message, item, limit):
                wrong.append(f"{op.name}.{item.name} {limit}: {message}"[:300])
    assert not wrong, "\n".join(wrong)
    assert _events(db_path) == before


def _argv(op: Operation, item: Input, value: Any) -> list[str]:
    from embornal.interfaces.cli.derived import flag_of

    assert op.cli is not None
    given = _call(op, item, value, lambda i: i.cli)
    words = ["--json", *op.cli.split()]
    for i in op.inputs:
        if not i.cli or i.name not in given:
            continue
        value = given[i.name]
        flags = flag_of(i)
        if isinstance(value, list) and i.max_items is not None and flags:
            for one in value:  # a repeatable flag, once a text (an item as JSON)
                words.extend([flags[0], json.dumps(one) if isinstance(one, dict) else str(one)])
            continue
        if isinstance(value, dict) and i.type == "replacements" and flags:
            for number, one in value.items():  # --replace N=JSON, once an item
                words.extend([flags[0], f"{number}={json.dumps(one)}"])
            continue
        value = value[0] if isinstance(value, list) else value
        if isinstance(value, dict):
            value = ",".join(f"{k}={v}" for k, v in value.items())
        words.extend([flags[0], str(value)] if flags else [str(value)])
    return words


def test_the_command_line_refuses_just_past_each_limit(
    embornal_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exit 2 naming the input; run in process (the console script's ``main``), each
    command once per limit of each input it takes as an option or an argument."""
    from embornal.interfaces.cli import main as cli_main

    with Memory.open() as memory:
        db = Path(memory.db_path)
    before = _events(db)
    wrong: list[str] = []
    ops = [op for op in whole() if op.cli is not None]
    for op, item, limit, value in _cases(ops, lambda i: i.cli):
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        code = cli_main.main(_argv(op, item, value))
        err = capsys.readouterr().err
        named = _named(err, item) or "invalid choice" in err  # (argparse's, naming it)
        if code != 2 or not named:
            wrong.append(f"{op.cli} ({item.name} {limit}): exit {code}, {err.strip()[:200]}")
    assert not wrong, "\n".join(wrong)
    assert _events(db) == before
