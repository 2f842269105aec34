"""The MCP tools, called in-process through the SDK's client (no subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp.client import Client
from mcp_types import CallToolResult

from embornal import FixedClock, Memory
from embornal.errors import InvalidInput
from embornal.interfaces.catalog import by_name
from embornal.interfaces.mcp.hints import for_model
from embornal.interfaces.mcp.schemas import non_portable
from embornal.interfaces.mcp.server import build_server
from embornal.interfaces.mcp.tools import tags_arg
from embornal.service.history import cascade

pytestmark = pytest.mark.anyio

#: The protocol loop of memory-as-history and embornal's store (decision 0093), in tool order.
CORE = [
    "store",
    "recall",
    "forget",
    "restore",
    "pin",
    "unpin",
    "remember",
    "promote",
    "corroborate",
    "provenance",
    "flag_sensitive",
    "due_for_consolidation",
    "audit_log",
    "narrate",
    "current_narrative",
]
FULL = [
    "store",
    "recall",
    "ls",
    "tree",
    "cat",
    "forget",
    "restore",
    "show",
    "history",
    "supersede",
    "update",
    "find",
    "kinds",
    "confirm",
    "contradict",
    "add_evidence",
    "undo",
    "visibility",
    "pin",
    "unpin",
    "set_weight",
    "set_lifetime",
    "due",
    "link",
    "unlink",
    "links",
    "merge",
    "propose",
    "proposals",
    "proposal",
    "approve",
    "reject",
    "edit_proposal",
    "retention",
    "ingest",
    "conflicts",
    "conflict",
    "scan_conflicts",
    # the history protocol's (decisions 0064-0066)
    "remember",
    "promote",
    "corroborate",
    "provenance",
    "review",
    "flag_sensitive",
    "due_for_consolidation",
    "due_for_review",
    "list_forgotten",
    "audit_log",
    # canon, frames and declared conflicts (decisions 0078-0080)
    "canonize",
    "decanonize",
    "end_scope",
    "list_canon",
    "active_scopes",
    "set_frame",
    "list_frames",
    "mark_conflict",
    "list_conflicts",
    "resolve_conflict",
    # narratives (0085) and the claims ledger (0081; add_evidence with claim_id is one too)
    "narrate",
    "create_claim",
    "current_narrative",
    "review_narrative",
    "adopt_claim",
    "narrative_history",
    "revise_claim",
    "list_narratives",
    "withdraw_claim",
    "retract_evidence",
    "recall_claims",
    "inspect_claim",
    # the history context and timelines (decisions 0088-0090)
    "set_history_context",
    "timeline",
    "search_history",
    "link_memories",
    "unlink_memories",
    "memory_links",
    # the recall cascade's searches (decision 0097)
    "search",
    "search_archive",
    # the facts most like one (decision 0176)
    "similar",
    # where a memory stands in the history protocol
    "memory_status",
]


@asynccontextmanager
async def connect(
    memory: Memory, *, profile: str = "core", mode: str = "legacy"
) -> AsyncIterator[Client]:
    """``legacy``: initialize handshake + JSON-RPC over memory streams, like today's
    clients; ``auto``: the SDK's direct in-process path."""
    async with Client(build_server(memory, profile=profile), mode=mode) as client:
        yield client


def _payload(result: CallToolResult) -> dict[str, Any]:
    assert len(result.content) == 1
    block = result.content[0]
    assert block.type == "text"
    data = json.loads(block.text)
    assert isinstance(data, dict)
    return data


_BARE = {"audit_log", "narrative_history", "current_narrative"}
"""The tools whose answer is a list or null: sent as ``{"result": ...}`` (decision 0141)."""


async def ok(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    data = _payload(result)
    assert not result.is_error, data
    assert result.structured_content == ({"result": data} if tool in _BARE else data)
    return data


async def fail(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    data = _payload(result)
    assert result.is_error, data
    assert result.structured_content is None
    assert set(data) == {"error", "message", "hint"}
    assert data["message"] and isinstance(data["hint"], str)
    assert "Traceback" not in data["message"]
    return data


# -- the whole flow ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_store_recall_ls_tree_cat_forget_restore(
    memory: Memory, clock: FixedClock, mode: str
) -> None:
    async with connect(memory, profile="full", mode=mode) as client:
        stored = await ok(
            client,
            "store",
            {
                "path": "/Projects/Embornal",
                "content": "The build uses uv.",
                "tags": ["status=decided"],
            },
        )
        assert stored["path"] == "/projects/embornal"
        assert stored["content"] == "The build uses uv."
        assert stored["tags"] == ["status=decided"]
        assert stored["created_at"] == "2026-01-01T12:00:00Z"
        fid = stored["id"]
        clock.advance(seconds=1)
        await ok(client, "store", {"path": "/projects/embornal", "content": "Tests use pytest."})

        found = await ok(client, "recall", {"query": "build", "limit": 3})
        assert found["hits"][0]["id"] == fid
        top = found["hits"][0]
        assert top["score"] > 0 and 0 < top["strength"] <= 1
        assert "hint" not in found
        # A recall over MCP is a real recall: it reinforces the fact.
        assert memory.show(fid).fact.recall_count == 1

        listing = await ok(client, "ls", {})
        assert {"path": "/projects", "facts": 0, "children": 1} in listing["entries"]
        assert [e["path"] for e in (await ok(client, "ls", {"path": "/projects"}))["entries"]] == [
            "/projects/embornal"
        ]

        tree = await ok(client, "tree", {"path": "/"})
        assert tree["path"] == "/"
        assert {"path": "/projects/embornal", "facts": 2} in tree["nodes"]
        assert [n["path"] for n in tree["nodes"]].index("/projects") < [
            n["path"] for n in tree["nodes"]
        ].index("/projects/embornal")

        cat = await ok(client, "cat", {"path": "/projects/embornal"})
        assert [f["content"] for f in cat["facts"]] == ["The build uses uv.", "Tests use pytest."]
        assert memory.show(fid).fact.recall_count == 1  # cat is not a recall

        forgotten = await ok(client, "forget", {"id": fid, "reason": "We moved to Poetry."})
        assert forgotten == {
            "id": fid,
            "path": "/projects/embornal",
            "content": "The build uses uv.",
            "state": "forgotten",
        }
        assert fid not in [
            h["id"] for h in (await ok(client, "recall", {"query": "build"}))["hits"]
        ]

        restored = await ok(client, "restore", {"id": fid, "reason": "Poetry was reverted."})
        assert restored["state"] == "active"
        assert fid in [h["id"] for h in (await ok(client, "recall", {"query": "build"}))["hits"]]

    events = memory.history(fid)
    assert [e.type for e in events] == ["FactStored", "FactForgotten", "FactRestored"]
    assert events[1].reason == "We moved to Poetry."


async def test_recall_with_nothing_found_says_what_to_try(memory: Memory) -> None:
    async with connect(memory) as client:
        found = await ok(client, "recall", {"query": "zebra"})
    assert found["hits"] == []
    assert "Nothing matched" in found["hint"]


async def test_recall_without_query_returns_strongest_under_a_path(memory: Memory) -> None:
    memory.store("/people/alice", "Alice prefers tabs.")
    memory.store("/projects/x", "X ships on Fridays.")
    async with connect(memory) as client:
        found = await ok(client, "recall", {"under": "/people"})
    assert [h["content"] for h in found["hits"]] == ["Alice prefers tabs."]


# -- tools/list ---------------------------------------------------------------------------


async def test_the_core_profile_is_the_protocol_loop_briefly_described(memory: Memory) -> None:
    """Decision 0093: the core tools are memory-as-history's loop and store, each described in a
    sentence or two with one example, with no output schema; within 3.5k tokens."""
    async with connect(memory, profile="core") as client:
        listed = (await client.list_tools()).tools
    tools = {t.name: t for t in listed}
    assert list(tools) == CORE
    for op in (by_name(n) for n in CORE):
        tool = tools[op.name]
        assert op.brief and tool.description == op.brief and "Example:" in op.brief
        assert tool.annotations is not None and tool.annotations.open_world_hint is False
        assert tool.output_schema is None
    text = json.dumps(
        {"tools": [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed]},
        separators=(",", ":"),
        ensure_ascii=False,
    )
    assert len(tools) <= 15 and len(text) / 4 <= 3500  # chars / 4: the benchmark's estimate


async def test_tools_list_full_has_annotated_tools_without_output_schemas(
    memory: Memory,
) -> None:
    """Decision 0138: no output schema unless asked for (the guide says what a tool
    returns); the schemas carry no titles and no null defaults."""
    async with connect(memory, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert list(tools) == FULL
    for tool in tools.values():
        assert tool.description and "Example:" in tool.description
        assert len(tool.description) < 900
        assert tool.annotations is not None
        assert tool.annotations.open_world_hint is False
        assert tool.output_schema is None
        assert tool.title and tool.annotations.title is None  # said once, not twice
        assert "title" not in tool.input_schema
        for prop in tool.input_schema["properties"].values():
            assert "title" not in prop and prop.get("default", "absent") is not None
    for name in ("recall", "ls", "tree", "cat"):
        assert tools[name].annotations.read_only_hint is True  # type: ignore[union-attr]
    store, forget, restore = (tools[n].annotations for n in ("store", "forget", "restore"))
    assert store is not None and store.read_only_hint is False
    assert store.destructive_hint is False
    assert forget is not None and forget.read_only_hint is False
    assert forget.destructive_hint is True and forget.idempotent_hint is False
    assert restore is not None and restore.destructive_hint is False
    assert tools["ls"].input_schema["properties"]["path"]["default"] == "/"


async def test_output_schemas_on_request_are_portable_and_hold(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EMBORNAL_MCP_OUTPUT_SCHEMAS=1: every tool declares its answer's schema, with no
    ``type`` given as a list (the claim tools' had 63), and the answers match it (the
    SDK's client checks each structured answer against the tool's schema)."""
    monkeypatch.setenv("EMBORNAL_MCP_OUTPUT_SCHEMAS", "1")
    fact = memory.store("/projects/x", "The release is in June.")
    async with connect(memory, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for tool in tools.values():
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"
            assert non_portable(tool.output_schema) == [], tool.name
            assert non_portable(tool.input_schema) == [], tool.name
        assert tools["inspect_claim"].output_schema is not None
        claim = tools["inspect_claim"].output_schema["properties"]["statement"]
        assert claim == {"type": "string"}
        made = await ok(client, "create_claim", {"statement": "June.", "claim_type": "plan"})
        cid = made["claim_id"]
        await ok(client, "add_evidence", {"claim_id": cid, "memory_id": fact.id})
        await ok(client, "adopt_claim", {"claim_id": cid, "reason": "the notice says so"})
        await ok(client, "inspect_claim", {"claim_id": cid})
        await ok(client, "recall_claims", {"query": "June"})
        await ok(client, "add_evidence", {"id": fact.id, "evidence": "uri:https://e.org/a"})
        kept = await ok(client, "remember", {"content": "Ship in June.", "source": "x"})
        mid = kept["memory_id"]
        await ok(client, "promote", {"memory_id": mid, "reason": "agreed"})
        narrative = {"content": "June.", "reason": "plan", "memory_ids": [mid], "scope": "p"}
        await ok(client, "narrate", narrative)
        await ok(client, "current_narrative", {"scope": "p"})
        await ok(client, "forget", {"memory_id": mid, "reason": "changed"})
        await ok(client, "current_narrative", {"scope": "p"})  # a narrative_review
        await ok(client, "recall", {"query": "June"})
        await ok(client, "recall", {})
        await ok(client, "show", {"id": fact.id})
    monkeypatch.setenv("EMBORNAL_MCP_OUTPUT_SCHEMAS", "0")
    async with connect(memory, profile="full") as client:
        assert all(t.output_schema is None for t in (await client.list_tools()).tools)


async def test_the_core_schemas_show_the_canonical_names_only(memory: Memory) -> None:
    """The schema shows the canonical names only; aliases stay out of the model's way."""
    async with connect(memory, profile="core") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    store_in = tools["store"].input_schema
    assert set(store_in["properties"]) == {"path", "content", "tags"}
    assert store_in["required"] == ["path", "content"]
    recall_args = {"query", "limit", "under", "mode", "frame"}
    assert set(tools["recall"].input_schema["properties"]) == recall_args
    assert tools["recall"].input_schema.get("required", []) == []
    assert set(tools["forget"].input_schema["properties"]) == {"id", "reason"}
    assert tools["forget"].input_schema["required"] == ["id", "reason"]


async def test_server_introduces_itself(memory: Memory) -> None:
    async with connect(memory) as client:
        assert client.server_info is not None and client.server_info.name == "embornal"
        assert client.instructions and "recall" in client.instructions.lower()


async def test_full_profile_adds_show_history_supersede(memory: Memory) -> None:
    async with connect(memory, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert list(tools) == FULL
        assert tools["show"].annotations is not None
        assert tools["show"].annotations.read_only_hint is True
        assert tools["history"].annotations is not None
        assert tools["history"].annotations.read_only_hint is True

        old = await ok(client, "store", {"path": "/projects/x", "content": "X uses uv."})
        new = await ok(
            client,
            "supersede",
            {"id": old["id"], "content": "X uses Poetry.", "reason": "migrated"},
        )
        assert new["supersedes_id"] == old["id"]
        assert new["path"] == "/projects/x"

        shown = await ok(client, "show", {"id": old["id"]})
        assert shown["state"] == "superseded"
        assert shown["superseded_by"] == new["id"]
        assert shown["owner"] == "default"
        assert shown["events"][0]["type"] == "FactStored"

        history = await ok(client, "history", {"id_or_path": old["id"]})
        assert [e["stream"] for e in history["events"]] == [old["id"], new["id"]]
        assert history["events"][1]["reason"] == "migrated"
        by_path = await ok(client, "history", {"path": "/projects/x"})
        assert len(by_path["events"]) == 2


async def test_core_profile_does_not_serve_full_tools(memory: Memory) -> None:
    async with connect(memory) as client:
        err = await fail(client, "supersede", {"id": "x", "content": "y"})
    assert err["error"] == "unknown_tool"
    assert "store" in err["hint"]


def test_unknown_profile_is_refused(memory: Memory) -> None:
    with pytest.raises(InvalidInput, match="profile"):
        build_server(memory, profile="everything")


# -- errors -------------------------------------------------------------------------------


async def test_error_shapes(memory: Memory) -> None:
    async with connect(memory, profile="full") as client:
        fid = (await ok(client, "store", {"path": "/a", "content": "Alpha."}))["id"]

        bad_path = await fail(client, "store", {"path": "/bad path", "content": "x"})
        assert bad_path["error"] == "invalid_path"
        assert "/projects/embornal" in bad_path["hint"]

        no_reason = await fail(client, "forget", {"id": fid})
        assert no_reason["error"] == "invalid_input"
        assert "reason" in no_reason["message"]
        assert "forget(" in no_reason["hint"]
        blank_reason = await fail(client, "forget", {"id": fid, "reason": "  "})
        assert blank_reason["error"] == "invalid_input"

        unknown = await fail(client, "forget", {"id": "01KCZ8Q3W5R7T9V1X3Z5B7D9F1", "reason": "x"})
        assert unknown["error"] == "not_found"

        owner = await fail(
            client, "store", {"path": "/a", "content": "Mine.", "tags": {"owner": "eve"}}
        )
        assert owner["error"] == "owner_tag_forbidden"

        missing = await fail(client, "store", {"content": "No path."})
        assert missing == {
            "error": "invalid_input",
            "message": "store: missing required argument 'path'",
            "hint": missing["hint"],
        }
        wrong_type = await fail(client, "recall", {"limit": "many"})
        assert wrong_type["error"] == "invalid_input"
        assert "limit" in wrong_type["message"]
        too_many = await fail(client, "recall", {"limit": 0})
        assert too_many["error"] == "invalid_input"
        bad_tag = await fail(client, "store", {"path": "/a", "content": "x", "tags": ["nokey"]})
        assert bad_tag["error"] == "invalid_tag"
        empty = await fail(client, "store", {"path": "/a", "content": "   "})
        assert empty["error"] == "invalid_content"
        nothing_there = await fail(client, "cat", {"path": "/nowhere"})
        assert nothing_there["error"] == "not_found"
        # Hints name the tool to call, not the CLI command a person would type.
        assert nothing_there["hint"] == 'See tree(path="/").'
        ambiguous_mode = await fail(client, "recall", {"query": "alpha", "mode": "psychic"})
        assert ambiguous_mode["error"] == "invalid_input"

        await ok(client, "forget", {"id": fid, "reason": "done"})
        twice = await fail(client, "forget", {"id": fid, "reason": "done"})
        assert twice["error"] == "conflict"

    # The refused owner tag wrote nothing: /a only ever held the one fact.
    assert {e.stream_id for e in memory.history("/a")} == {fid}


async def test_recall_takes_a_mode(memory: Memory) -> None:
    async with connect(memory) as client:
        await ok(client, "store", {"path": "/a", "content": "Alpha beta."})
        hits = (await ok(client, "recall", {"query": "alpha", "mode": "keyword"}))["hits"]
        assert [h["content"] for h in hits] == ["Alpha beta."]
        no_model = await fail(client, "recall", {"query": "alpha", "search_mode": "vector"})
        assert no_model["error"] == "invalid_input"
        assert no_model["hint"].endswith('call recall(query="...", mode="keyword").')


def test_hints_for_a_model() -> None:
    assert for_model("Find ids with `embornal memory recall` or `embornal memory cat PATH`.") == (
        'Find ids with recall(query="...") or cat(path="...").'
    )
    assert for_model("Use `embornal memory restore` to bring it back.") == (
        'Use restore(id="...", reason="...") to bring it back.'
    )
    # A person's command is not passed on; the error's own fix is named instead.
    person = for_model("Ask the owner for a policy (`embornal policy add`).", code="access_denied")
    assert person.startswith("No tool does that: ask the user. ")
    assert person.endswith('ls(path="/") shows where this subject may read and write.')
    # A flag becomes the argument it stands for; a call is always named.
    flag = for_model("Say why, e.g. --reason 'outdated'.", example='forget(id="x", reason="y")')
    assert flag == 'Say why, e.g. reason="outdated". Call it like forget(id="x", reason="y").'
    assert for_model("", example='ls(path="/")') == 'Call it like ls(path="/").'
    assert for_model("Nothing matched.") == "Nothing matched."


async def test_access_denied_is_an_error_result(memory: Memory) -> None:
    stranger = memory.as_subject("stranger", "assistant")
    async with connect(stranger) as client:
        err = await fail(client, "store", {"path": "/notes", "content": "Let me in."})
        assert err["error"] == "access_denied"
        assert "ask the user" in err["hint"]
        # Reads are filtered, not refused: the stranger sees nothing at all.
        assert (await ok(client, "recall", {}))["hits"] == []


async def test_supersede_takes_the_right_that_forget_takes(memory: Memory) -> None:
    public = memory.store("/team/news", "The offsite is in May.", tags=["visibility=public"])
    memory.token_add("bob")
    bob = memory.as_subject("bob", "assistant")
    async with connect(bob, profile="full") as client:
        seen = await ok(client, "show", {"id": public.id})
        assert seen["id"] == public.id
        err = await fail(client, "forget", {"id": public.id, "reason": "no"})
        assert err["error"] == "access_denied"
        err = await fail(client, "supersede", {"id": public.id, "content": "It is cancelled."})
        assert err["error"] == "access_denied"
        assert "may not write" in err["message"] and "ask the user" in err["hint"]
        hits = (await ok(client, "recall", {"query": "offsite"}))["hits"]
        assert [h["id"] for h in hits] == [public.id]
    assert memory.show(public.id).fact.state == "active"


async def test_unexpected_exception_is_internal_error_without_traceback(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    agent = memory.as_subject("default", "assistant")  # what the server runs calls on
    monkeypatch.setattr(agent, "recall", boom)
    monkeypatch.setattr(cascade, "cascade", boom)  # the recall tool's call (decision 0096)
    async with connect(agent, profile="full") as client:
        err = await fail(client, "recall", {"query": "x"})
        assert (await ok(client, "ls", {"all": True}))["entries"]  # the server keeps serving
    assert err["error"] == "internal_error"
    assert "secret internals" not in json.dumps(err)
    assert "RuntimeError" in err["message"]


# -- aliases ------------------------------------------------------------------------------


@pytest.mark.parametrize("content_key", ["content", "text", "fact", "memory"])
@pytest.mark.parametrize("path_key", ["path", "topic"])
async def test_store_aliases(memory: Memory, content_key: str, path_key: str) -> None:
    async with connect(memory) as client:
        fact = await ok(client, "store", {path_key: "/notes", content_key: "Aliases work."})
    assert fact["path"] == "/notes" and fact["content"] == "Aliases work."


@pytest.mark.parametrize("query_key", ["query", "q", "search", "text"])
async def test_recall_aliases(memory: Memory, query_key: str) -> None:
    memory.store("/notes", "Zeppelins float.")
    memory.store("/other", "Zeppelins are slow.")
    async with connect(memory) as client:
        found = await ok(client, "recall", {query_key: "zeppelins", "top_k": 5, "path": "/notes"})
    assert [h["content"] for h in found["hits"]] == ["Zeppelins float."]


@pytest.mark.parametrize("id_key", ["id", "fact_id", "memory_id"])
async def test_id_aliases(memory: Memory, id_key: str) -> None:
    fact = memory.store("/notes", "Temporary.")
    async with connect(memory) as client:
        out = await ok(client, "forget", {id_key: fact.id, "reason": "test"})
        assert out["state"] == "forgotten"
        out = await ok(client, "restore", {id_key: fact.id[:18], "reason": "test"})
        assert out["state"] == "active"


@pytest.mark.parametrize(
    ("key", "tags", "expected"),
    [
        ("tags", ["a=1", "b=two"], ["a=1", "b=two"]),
        ("tags", {"a": "1", "b": "two"}, ["a=1", "b=two"]),
        ("tags", {"a": 1, "b": True}, ["a=1", "b=true"]),
        ("tags", "a=1, b=two", ["a=1", "b=two"]),
        ("tags", '["a=1", "b=two"]', ["a=1", "b=two"]),
        ("tag", ["a=1"], ["a=1"]),
        ("tag", '{"b": "two"}', ["b=two"]),
        ("tags", [], []),
    ],
)
async def test_tag_shapes(memory: Memory, key: str, tags: object, expected: list[str]) -> None:
    async with connect(memory) as client:
        fact = await ok(client, "store", {"path": "/notes", "content": "Tagged.", key: tags})
    assert fact["tags"] == expected


def test_tags_arg_rejects_nonsense() -> None:
    from embornal.errors import InvalidTag

    assert tags_arg(None) is None
    with pytest.raises(InvalidTag):
        tags_arg("[1, 2]")
    with pytest.raises(InvalidTag):
        tags_arg("{not json")


# -- start-up cost ----------------------------------------------------------------------


def test_importing_the_package_does_not_import_the_sdk() -> None:
    code = (
        "import sys, embornal.interfaces.mcp as m; "
        "assert m.PROFILES == ('core', 'full'); print('mcp' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "False"


# -- kinds: store typed facts, update, find, kinds (full profile) ---------------------------


async def test_full_profile_stores_updates_and_finds_typed_facts(memory: Memory) -> None:
    async with connect(memory, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for name in ("find", "kinds"):
            hints = tools[name].annotations
            assert hints is not None and hints.read_only_hint is True
        hints = tools["update"].annotations
        assert hints is not None and hints.read_only_hint is False
        assert hints.destructive_hint is False and hints.idempotent_hint is False
        assert {"kind", "attributes"} <= set(tools["store"].input_schema["properties"])
        assert "kinds()" in (tools["find"].description or "")

        schemas = await ok(client, "kinds", {})
        project = next(k for k in schemas["kinds"] if k["kind"] == "project")
        status = next(f for f in project["fields"] if f["name"] == "status")
        assert status["required"] is True and "active" in status["values"]

        stored = await ok(
            client,
            "store",
            {
                "path": "/projects/x",
                "content": "X is the new build.",
                "kind": "project",
                "attributes": {"name": "x", "status": "active"},
            },
        )
        assert stored["kind"] == "project"
        assert stored["attributes"] == {"name": "x", "status": "active"}
        plain = await ok(client, "store", {"path": "/projects/x", "content": "Plain."})
        assert "kind" not in plain and "attributes" not in plain

        found = await ok(client, "find", {"kind": "project", "where": ["status=active"]})
        assert [f["id"] for f in found["facts"]] == [stored["id"]]
        found = await ok(client, "find", {"kind": "project", "where": {"status": "done"}})
        assert found["facts"] == [] and "hint" in found

        updated = await ok(
            client,
            "update",
            {"id": stored["id"], "attributes": '{"status": "done"}', "reason": "shipped"},
        )
        assert updated["attributes"]["status"] == "done"
        found = await ok(client, "find", {"kind": "project", "where": "status=done"})
        assert [f["id"] for f in found["facts"]] == [stored["id"]]


async def test_bad_kinds_and_attributes_name_the_allowed_values_and_kinds(
    memory: Memory,
) -> None:
    async with connect(memory, profile="full") as client:
        before = len(memory.find("project"))
        bad = await fail(
            client,
            "store",
            {"path": "/p", "content": "P.", "kind": "projekt", "attributes": {"name": "p"}},
        )
        assert bad["error"] == "invalid_kind" and "project" in bad["message"]
        assert "kinds()" in bad["hint"]
        bad = await fail(
            client,
            "store",
            {
                "path": "/p",
                "content": "P.",
                "kind": "project",
                "attributes": {"name": "p", "status": "busy"},
            },
        )
        assert bad["error"] == "invalid_attribute" and "paused" in bad["message"]
        assert "kinds()" in bad["hint"]
        bad = await fail(client, "find", {"kind": "project", "where": ["colour=red"]})
        assert bad["error"] == "invalid_attribute" and "status" in bad["message"]
        assert len(memory.find("project")) == before == 0


async def test_core_store_keeps_its_small_schema(memory: Memory) -> None:
    async with connect(memory, profile="core") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools["store"].input_schema["properties"]) == {"path", "content", "tags"}
        assert not {"find", "kinds", "update"} & set(tools)


async def test_full_profile_confirms_contradicts_and_adds_evidence(memory: Memory) -> None:
    fact = memory.store("/projects/x", "X builds with uv.")
    async with connect(memory) as core:
        names = {t.name for t in (await core.list_tools()).tools}
        assert not {"confirm", "contradict", "add_evidence"} & names
    async with connect(memory, profile="full") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for name in ("confirm", "contradict", "add_evidence"):
            hints = tools[name].annotations
            assert hints is not None and hints.read_only_hint is False
            assert hints.destructive_hint is False
            assert f"Example: {name}(" in (tools[name].description or "")
        assert tools["contradict"].input_schema["required"] == ["id", "reason"]

        before = memory.show(fact.id).confidence
        assert before is not None
        up = await ok(client, "confirm", {"id": fact.id, "evidence": "quote:Still uv."})
        assert up["confidence"] > before and up["last_confirmed_at"] is not None
        down = await ok(client, "contradict", {"id": fact.id, "reason": "The README says Poetry."})
        assert down["confidence"] < up["confidence"]
        more = await ok(
            client,
            "add_evidence",
            {"id": fact.id, "evidence": "uri:https://example.org/adr", "note": "the ADR"},
        )
        assert more["confidence"] > down["confidence"]

        err = await fail(client, "add_evidence", {"id": fact.id, "evidence": "rumour:x"})
        assert err["error"] == "invalid_evidence" and "quote" in err["message"]
        assert "add_evidence(" in err["hint"]
        err = await fail(client, "contradict", {"id": fact.id})
        assert "reason" in json.dumps(err)
    detail = memory.show(fact.id)
    assert [(e.type.value, e.value, e.note) for e in detail.evidence] == [
        ("quote", "Still uv.", None),
        ("uri", "https://example.org/adr", "the ADR"),
    ]


async def test_vouching_takes_write_on_the_fact(memory: Memory) -> None:
    """Decision 0033: write on the fact, which must be readable (hidden: not found)."""
    public = memory.store("/team/news", "The offsite is in May.", tags=["visibility=public"])
    private = memory.store("/me/diary", "The zebra password.")
    memory.token_add("bob")
    memory.policy_add("p", ["bob", "path:/team/*", "write", "deny"])
    bob = memory.as_subject("bob", "assistant")
    calls: tuple[tuple[str, dict[str, str]], ...] = (
        ("confirm", {}),
        ("contradict", {"reason": "no"}),
        ("add_evidence", {"evidence": "quote:so I heard"}),
    )
    async with connect(bob, profile="full") as client:
        for tool, args in calls:
            err = await fail(client, tool, {"id": public.id, **args})
            assert err["error"] == "access_denied", err
            assert "(" in err["hint"]
            err = await fail(client, tool, {"id": private.id, **args})
            assert err["error"] == "not_found", err
    for fact in (public, private):
        assert len(memory.history(fact.id)) == 1
