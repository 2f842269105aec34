"""The graph over MCP (full profile only): link, unlink, links and merge (destructive); errors
name the allowed values and the tool call that fixes them, and write nothing. Every MCP
caller is an assistant (decision 0039)."""

from __future__ import annotations

import json

import pytest
from mcp_helpers import call, connect

from embornal import Memory

pytestmark = pytest.mark.anyio

TOOLS = ("link", "unlink", "links", "merge")


async def test_the_tools_are_in_the_full_profile_only(memory: Memory) -> None:
    async with connect(memory, "core") as core:
        assert not set(TOOLS) & {t.name for t in (await core.list_tools()).tools}
    async with connect(memory) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for name in TOOLS:
            assert f"Example: {name}(" in (tools[name].description or "")
        merge = tools["merge"].annotations
        assert merge is not None and merge.destructive_hint
        links = tools["links"].annotations
        assert links is not None and links.read_only_hint
        relation = tools["link"].input_schema["properties"]["relation"]
        assert "works_at" in json.dumps(relation) and "subject_of" not in json.dumps(relation)
        assert "subject_of" in json.dumps(tools["links"].input_schema["properties"]["relation"])


async def test_link_links_merge(memory: Memory) -> None:
    ada = memory.store("/people/ada", "Ada.", kind="person", attributes={"full_name": "Ada"})
    twin = memory.store("/people/a", "A. L.", kind="person", attributes={"full_name": "A. L."})
    note = memory.store("/notes/n", "Ada's notes.")
    async with connect(memory) as client:
        err, made = await call(client, "link", {"from": note.id, "rel": "about", "to": twin.id})
        assert not err, made
        assert made == {
            "source_id": note.id,
            "relation": "about",
            "target_id": twin.id,
            "link_id": f"{note.id}:about:{twin.id}",
            "id": f"{note.id}:about:{twin.id}",
        }
        err, merged = await call(
            client, "merge", {"survivor": ada.id, "duplicate": twin.id, "reason": "same"}
        )
        assert not err and merged["attributes"]["aliases"] == ["A. L."]
        err, graph = await call(client, "links", {"id": ada.id, "relation": "subject_of"})
        assert not err
        assert [(n["id"], n["via"], n["depth"]) for n in graph["linked"]] == [
            (note.id, "subject_of", 1)
        ]
        err, gone = await call(
            client, "unlink", {"source": note.id, "relation": "about", "target": twin.id}
        )
        assert not err and gone["relation"] == "about"


async def test_errors_name_the_fix_and_write_nothing(memory: Memory) -> None:
    a = memory.store("/a", "A.")
    b = memory.store("/b", "B.")
    async with connect(memory) as client:
        err, data = await call(
            client, "link", {"source": a.id, "relation": "works_at", "target": b.id}
        )
        assert err and data["error"] == "invalid_link"
        assert "may not emit works_at" in data["message"] and "link(" in data["hint"]
        err, data = await call(
            client, "link", {"source": a.id, "relation": "knows", "target": b.id}
        )
        assert err and "about" in json.dumps(data)
        err, data = await call(client, "merge", {"survivor": a.id, "source": a.id, "reason": "x"})
        assert err and data["error"] == "invalid_merge" and "merge(" in data["hint"]
    assert [e.type for e in memory.history(a.id)] == ["FactStored"]
