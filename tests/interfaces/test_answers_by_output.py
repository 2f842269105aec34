"""MCP and REST answer an operation by its output type (decision 0184).

Each capability folder gives the answer of an output type once (``mcp_out.BY_OUTPUT``,
``rest.BY_OUTPUT``); an operation has an entry of its own (``RESULTS``, ``HTTP``) only
when it answers otherwise. Here: an operation no table names, of a type some operation
returns already, answers as that operation does on both transports; and no entry of an
operation restates its type's answer, so the tables stay as small as they can be.
"""

from __future__ import annotations

import dis
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from embornal import Memory
from embornal.interfaces.catalog import by_name, routed, whole
from embornal.interfaces.catalog_types import Operation, replace
from embornal.interfaces.http import api
from embornal.interfaces.mcp import tools


def _probe() -> Operation:
    """An operation no table names: ``proposal`` again under other names and another
    route, as a new operation returning a ``Proposal`` would be declared."""
    op = by_name("proposal")
    assert op.http is not None
    http = replace(op.http, path="/zz-probe/{id}", operation_id="zzProbeProposal")
    return replace(op, name="zz_probe_proposal", http=http)


def test_a_new_operation_of_a_known_output_is_in_no_table() -> None:
    probe = _probe()
    assert probe.output == "Proposal"
    assert probe.name not in tools._RESULTS
    assert probe.name not in api._HTTP
    assert probe.name not in api._REQUESTS


def test_its_mcp_answer_is_its_output_types(memory: Memory) -> None:
    probe = _probe()
    assert tools._answer(probe) == tools._BY_OUTPUT["Proposal"]
    made = memory.propose([{"type": "create", "path": "/notes/probe", "content": "A note."}])
    model, project = tools._answer(probe)
    shown, project_shown = tools._answer(by_name("proposal"))
    assert model is shown
    out = project(memory.proposal(made.id), {"proposal_id": made.id})
    assert out == project_shown(memory.proposal(made.id), {"proposal_id": made.id})
    assert out.model_dump()["id"] == made.id


def test_its_rest_answer_is_its_output_types(memory: Memory) -> None:
    probe = _probe()
    route = api._operation(probe)
    shown = api._operation(by_name("proposal"))
    assert route.response is shown.response is api._BY_OUTPUT["Proposal"]
    assert (route.method, route.path, route.operation_id) == (
        "GET",
        "/zz-probe/{id}",
        "zzProbeProposal",
    )
    made = memory.propose([{"type": "create", "path": "/notes/probe", "content": "A note."}])
    query = None if route.query is None else route.query.model_validate({})
    answer = route.run(api.Call(memory, query=query, path={"id": made.id}))
    assert answer == shown.run(api.Call(memory, path={"id": made.id}))
    assert answer["id"] == made.id


# -- the tables restate nothing ---------------------------------------------------------------


def _code(f: Callable[..., Any]) -> tuple[tuple[str, Any], ...]:
    """What a projection does, as far as its code shows: two lambdas of the same text
    compare equal here, though they are two objects in two modules (a name imported is
    read as an attribute, one defined in the module as a method: the same here)."""
    return tuple(
        ("LOAD_ATTR" if i.opname == "LOAD_METHOD" else i.opname, i.argval)
        for i in dis.get_instructions(f)
        if i.opname not in ("CACHE", "RESUME")
    )


def _same_mcp(a: tuple[Any, Callable[..., Any]], b: tuple[Any, Callable[..., Any]]) -> bool:
    return a[0] is b[0] and _code(a[1]) == _code(b[1])


def test_no_mcp_entry_restates_its_output_types_answer() -> None:
    restated = [
        name
        for name, entry in tools._RESULTS.items()
        if (default := tools._BY_OUTPUT.get(by_name(name).output)) is not None
        and _same_mcp(entry, default)
    ]
    assert restated == [], "answered by their output: take them out of RESULTS"


def test_operations_of_a_type_with_no_default_do_not_answer_alike_on_mcp() -> None:
    seen: dict[str, list[tuple[str, Any]]] = {}
    alike = []
    for op in whole():
        entry = tools._RESULTS.get(op.name)
        if entry is None or op.output in tools._BY_OUTPUT:
            continue
        others = seen.setdefault(op.output, [])
        alike += [(other, op.name) for other, e in others if _same_mcp(e, entry)]
        others.append((op.name, entry))
    assert alike == [], "one answer for a type: give it in mcp_out.BY_OUTPUT"


_RESULT = object()


def _envelope_key(
    envelope: Callable[[Any, Any], Any], monkeypatch: pytest.MonkeyPatch
) -> str | bool | None:
    """The key an envelope sends its result under (None: the result whole), given a result
    whose wire form is itself; False: it sends something else (it reads the call, or adds
    to the result)."""
    monkeypatch.setitem(envelope.__globals__, "to_wire", lambda r: r)
    call = SimpleNamespace(path={}, query=None, body=None, memory=None)
    try:
        out = envelope(call, _RESULT)
    except (AttributeError, KeyError, TypeError, IndexError):
        return False
    if out is _RESULT:
        return None
    if isinstance(out, dict) and len(out) == 1 and next(iter(out.values())) is _RESULT:
        return str(next(iter(out)))
    return False


def test_no_rest_entry_restates_its_output_types_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    restated = []
    for op in routed():
        entry = api._HTTP.get(op.name)
        default = api._BY_OUTPUT.get(op.output)
        if entry is None or default is None:
            continue
        assert op.http is not None
        answer, _, envelope = entry
        if answer is default and _envelope_key(envelope, monkeypatch) == op.http.items:
            restated.append(op.name)
    assert restated == [], "answered by their output: their request model goes in REQUESTS"


def test_operations_of_a_type_with_no_default_do_not_answer_alike_on_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, list[tuple[str, Any]]] = {}
    alike = []
    for op in routed():
        entry = api._HTTP.get(op.name)
        if entry is None or op.output in api._BY_OUTPUT:
            continue
        answer = (entry[0], _envelope_key(entry[2], monkeypatch))
        if answer[1] is False:
            continue  # its envelope is its own
        others = seen.setdefault(op.output, [])
        alike += [(other, op.name) for other, a in others if a == answer]
        others.append((op.name, answer))
    assert alike == [], "one answer for a type: give it in rest.BY_OUTPUT"


def test_requests_name_only_what_is_not_made_by_default() -> None:
    routes = {op.name: op for op in routed()}
    assert not api._REQUESTS.keys() & api._HTTP.keys()
    assert api._REQUESTS.keys() <= routes.keys()
    by_default = []
    for name, given in api._REQUESTS.items():
        http = routes[name].http
        assert http is not None
        made = http.operation_id[:1].upper() + http.operation_id[1:]
        made += "Query" if http.method == "GET" else "In"
        if given == made:
            by_default.append(name)
    assert by_default == [], "the model made for them has that name already"


def test_every_default_serves_an_operation() -> None:
    outputs = {op.output for op in whole()}
    assert tools._BY_OUTPUT.keys() <= outputs
    assert api._BY_OUTPUT.keys() <= outputs
