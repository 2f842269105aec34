"""The catalogue: every operation appears in each interface it declares, and in the docs."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from embornal import Memory
from embornal.interfaces.catalog import CATALOG, Http, Operation, mcp_tools, routed
from embornal.interfaces.catalog_types import LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, part
from embornal.interfaces.cli.remote import RemoteMemory
from embornal.interfaces.cli.remote_chronicle import RemoteChronicle
from embornal.interfaces.http.api import OPERATIONS
from embornal.interfaces.mcp.tools import CORE_TOOLS, FULL_TOOLS, Runner, tool_specs
from embornal.service.history.chronicle import Chronicle

DOCS = Path(__file__).parents[2] / "docs"
IDS = [op.name for op in CATALOG]


def method_of(owner: type, call: str) -> Any:
    """The method ``call`` names on the class ``owner``: a dotted call goes through the
    facade the attribute holds (``chronicle.audit_log``: ``Chronicle.audit_log``)."""
    head, _, name = call.rpartition(".")
    if head:
        assert head == "chronicle", call
        owner = Chronicle if owner is Memory else RemoteChronicle
    return getattr(owner, name)


def test_names_are_unique() -> None:
    assert len({op.name for op in CATALOG}) == len(CATALOG)
    ids = [op.http.operation_id for op in routed() if op.http]
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("op", CATALOG, ids=IDS)
def test_the_call_is_a_memory_method_that_takes_the_inputs(op: Operation) -> None:
    if op.call is None:
        return
    method = method_of(Memory, op.call)
    params = inspect.signature(method).parameters
    mcp_call = op.extra.get("mcp_call")  # the MCP tool's call (recall's cascade, 0096)
    if mcp_call is not None:
        theirs = inspect.signature(method_of(Memory, mcp_call)).parameters
        for item in op.inputs:
            if item.mcp and item.name != "as_of":  # a look back takes op.call
                assert item.name in theirs, (op.name, mcp_call, item.name)
        params = {**theirs, **params}
    for item in op.inputs:
        assert item.name in params, (op.name, item.name)
        default = params[item.name].default
        if item.required:
            assert default is inspect.Parameter.empty, (op.name, item.name)
        else:
            assert default == item.default, (op.name, item.name)


@pytest.mark.parametrize("op", CATALOG, ids=IDS)
def test_every_operation_is_where_it_says(op: Operation, memory: Memory) -> None:
    tools = tool_specs(Runner(memory))
    if op.profile != "none":
        assert op.name in tools and op.name in FULL_TOOLS
        assert (op.name in CORE_TOOLS) == (op.profile == "core")
        spec = tools[op.name]
        assert spec.title == op.title and spec.example == op.example
        assert inspect.cleandoc(spec.fn.__doc__ or "") == inspect.cleandoc(op.guide)
        assert spec.annotations.read_only_hint is op.read_only
        params = list(inspect.signature(spec.fn).parameters)
        expected = [i.tool_param for i in op.inputs if i.mcp]
        routes = {o.extra["mcp_tool"]: o for o in CATALOG if "mcp_tool" in o.extra}
        if op.name in routes:  # decision 0082: the routed operation's arguments first
            theirs = [i.tool_param for i in routes[op.name].inputs if i.mcp]
            expected = [*theirs, *(p for p in expected if p not in theirs)]
        assert params == expected
        assert (DOCS / "mcp.md").read_text("utf-8").count(f"| `{op.name}`") == 1
    else:
        assert op.name not in tools
        if "mcp_tool" in op.extra:  # a tool of another operation runs it (decision 0082)
            assert (
                op.extra["mcp_tool"] in tools
                and op.extra["mcp_route"]
                in inspect.signature(tools[op.extra["mcp_tool"]].fn).parameters
            )
    http = {(o.method, o.path): o for o in OPERATIONS}
    if op.http is not None:
        route = http[(op.http.method, op.http.path)]
        assert route.operation_id == op.http.operation_id and route.status == op.http.status
        assert f"`{op.http.method} /api/v1{op.http.path}`" in (DOCS / "http.md").read_text()
        model = route.query or route.body
        wanted = {i.wire_name for i in op.inputs if i.rest} - set(op.http.path_params)
        assert set(model.model_fields if model else ()) == wanted
        if model is not None:
            for i in op.inputs:
                if i.rest and i.wire_name in model.model_fields:
                    field = model.model_fields[i.wire_name]
                    assert field.is_required() == i.required, (op.name, i.name)
    if op.call is not None and not op.local_only and op.name != "tags":
        client = RemoteMemory.connect("http://testserver", "token")  # derives on first use
        head, _, name = op.call.rpartition(".")
        assert callable(getattr(client.chronicle if head else client, name)), op.name
    if op.cli is not None:
        headings = re.findall(r"^## (.+)$", (DOCS / "cli.md").read_text("utf-8"), re.M)
        group, command = op.cli.split()
        assert any(
            h.startswith(group + " ") and command in {w.strip(",") for w in h.split()[1:]}
            for h in headings
        ), op.cli


def test_the_rest_api_is_the_routed_operations() -> None:
    assert [o.operation_id for o in OPERATIONS] == [
        op.http.operation_id for op in routed() if op.http
    ]


def test_profiles_nest() -> None:
    assert set(o.name for o in mcp_tools("core")) < set(o.name for o in mcp_tools("full"))


def test_local_only_operations_are_not_routed_nor_tools() -> None:
    for op in CATALOG:
        if op.local_only:
            assert op.http is None and op.profile == "none", op.name


def test_a_part_gives_each_record_what_it_leaves_empty() -> None:
    """``part``: an operation calls the method of its name and is read-only when its route is
    a GET; a route's summary is the title, its errors those of its kind, its tag the part's.
    What a record says stays."""
    made = part(
        "things",
        Operation("a", "Fact", title="Add", http=Http("POST", "/a", "a", "Adds.")),
        Operation("b", "list[Fact]", title="List", http=Http("GET", "/b", "b", "", items="x")),
        Operation("c", "Fact", title="Show", http=Http("GET", "/c/{id}", "c", "Shows.")),
        Operation(
            "d", "Health", call=None, http=Http("GET", "/d", "d", "", summary="Up", auth=False)
        ),
        Operation(
            "e",
            "Fact",
            title="Mark",
            read_only=False,
            http=Http("GET", "/e", "e", "", errors=(401,), tag="other"),
        ),
        Operation("f", "Fact", read_only=True),
        Operation("g", "Fact"),
    )
    routes = {op.name: op.http for op in made if op.http is not None}
    assert [(h.summary, h.errors, h.tag) for h in routes.values()] == [
        ("Add", WRITE_ERRORS, "things"),
        ("List", LIST_ERRORS, "things"),
        ("Show", READ_ERRORS, "things"),
        ("Up", (), "things"),
        ("Mark", (401,), "other"),
    ]
    assert [op.read_only for op in made] == [False, True, True, True, False, True, False]
    assert [op.call for op in made] == ["a", "b", "c", None, "e", "f", "g"]


def test_a_part_gives_its_own_defaults_to_the_records_that_leave_them() -> None:
    """``part``'s keywords: the facade the calls are on, the profile, the tools numbered in
    order from ``tools_from`` (a record with its own number takes none), the renderer of
    an output type for a command, routes the client probes; a record with neither a route
    nor a tool is local-only. What a record says stays."""
    made = part(
        "things",
        Operation("a", "Fact", cli="thing a", http=Http("POST", "/a", "a", "Adds.")),
        Operation("b", "Fact", profile="core", tool_order=7, cli_show="x:mine", cli="thing b"),
        Operation("c", "Fact", call="other", profile="none", cli="thing c"),
        Operation("d", "list[Fact]", tool_order=0, cli="thing d"),
        Operation("e", "Fact"),
        facade="facade",
        profile="full",
        tools_from=20,
        shows={"Fact": "x:show_fact"},
        probe=True,
    )
    assert [op.call for op in made] == ["facade.a", "facade.b", "other", "facade.d", "facade.e"]
    assert [op.profile for op in made] == ["full", "core", "none", "full", "full"]
    assert [op.tool_order for op in made] == [20, 7, 21, 0, 22]
    assert [op.local_only for op in made] == [False, False, True, False, False]
    assert [op.cli_show for op in made] == ["x:show_fact", "x:mine", "x:show_fact", None, None]
    assert made[0].http is not None and made[0].http.probe
    plain = part("things", Operation("f", "Fact"))
    assert (plain[0].call, plain[0].profile, plain[0].tool_order) == ("f", "none", 0)


def test_every_record_of_the_catalogue_is_made_by_its_part() -> None:
    for op in CATALOG:
        assert isinstance(op.read_only, bool) and op.call != "", op.name
        assert isinstance(op.local_only, bool) and isinstance(op.tool_order, int), op.name
        assert op.profile in ("core", "full", "none"), op.name
        assert op.http is None or (op.http.summary and op.http.tag), op.name
