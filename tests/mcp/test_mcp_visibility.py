"""Source and visibility over MCP: every MCP caller is an assistant, so a private fact
never reaches a tool, not even its owner's; the full profile's store takes source,
visibility, confidence and evidence; ``source`` is the label, not an alias of evidence."""

from __future__ import annotations

import pytest
from test_mcp_tools import connect, fail, ok

from embornal import Memory

pytestmark = pytest.mark.anyio


async def test_a_private_fact_never_reaches_any_tool(memory: Memory) -> None:
    hidden = memory.store("/notes", "Zeppelin secret.", visibility="private")
    memory.store("/notes", "Zeppelins float.")
    async with connect(memory, profile="full") as client:
        hits = await ok(client, "recall", {"query": "zeppelin"})
        assert [h["content"] for h in hits["hits"]] == ["Zeppelins float."]
        assert "visibility" not in hits["hits"][0]  # a shared fact does not say so
        cat = await ok(client, "cat", {"path": "/notes"})
        assert [f["id"] for f in cat["facts"]] != [] and hidden.id not in str(cat)
        tree = await ok(client, "ls", {"path": "/"})
        assert {e["path"]: e["facts"] for e in tree["entries"]}["/notes"] == 1
        missing = await fail(client, "show", {"id": hidden.id})
        assert missing["error"] == "not_found"


async def test_full_store_takes_the_spine_and_show_gives_the_source(memory: Memory) -> None:
    async with connect(memory, profile="full") as client:
        fact = await ok(
            client,
            "store",
            {
                "path": "/notes",
                "content": "For bob.",
                "source": "claude-desktop",
                "visibility": "restricted:bob",
                "confidence": 0.9,
                "evidence": "quote:bob asked",
            },
        )
        assert fact["visibility"] == "restricted:bob"
        shown = await ok(client, "show", {"id": fact["id"]})
    assert shown["source"] == {
        "subject": "default",
        "actor_kind": "assistant",
        "label": "claude-desktop",
    }
    detail = memory.show(fact["id"])
    assert detail.confidence == 0.9 and [e.value for e in detail.evidence] == ["bob asked"]


async def test_the_visibility_tool_and_its_errors(memory: Memory) -> None:
    fact = memory.store("/notes", "Was shared.")
    async with connect(memory, profile="full") as client:
        out = await ok(client, "visibility", {"id": fact.id, "visibility": "private"})
        assert out["visibility"] == "private" and out["id"] == fact.id
        gone = await fail(client, "show", {"id": fact.id})
        assert gone["error"] == "not_found"
        kept = memory.store("/notes", "Still shared.")
        bad = await fail(client, "visibility", {"id": kept.id, "visibility": "secret"})
        assert bad["error"] == "invalid_visibility" and "restricted" in bad["message"]
        bad = await fail(client, "store", {"path": "/n", "content": "x", "visibility": "a:b"})
        assert bad["error"] == "invalid_visibility"
    assert memory.show(kept.id).fact.visibility == "shared"


async def test_source_is_the_label_and_evidence_answers_to_its_own_name(memory: Memory) -> None:
    async with connect(memory, profile="full") as client:
        fact = await ok(
            client, "store", {"path": "/n", "content": "x", "source": "quote:not evidence"}
        )
        confirmed = await ok(client, "confirm", {"id": fact["id"], "evidence": "quote:yes"})
    assert confirmed["id"] == fact["id"]
    detail = memory.show(fact["id"])
    assert detail.source is not None and detail.source.label == "quote:not evidence"
    assert [e.value for e in detail.evidence] == ["yes"]


async def test_the_core_store_has_no_spine_arguments(memory: Memory) -> None:
    async with connect(memory) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    props = tools["store"].input_schema["properties"]
    assert not {"visibility", "source", "confidence", "evidence"} & set(props)
