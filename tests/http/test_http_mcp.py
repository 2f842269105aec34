"""MCP over streamable HTTP at /mcp: the same bearer tokens as REST, each call acting as the
subject of the request that carried it, one subject's session closed to another."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest
from http_helpers import assert_problem
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client

from embornal import Memory
from embornal.interfaces.http.app import create_app
from embornal.interfaces.mcp.tools import CORE_TOOLS
from live_server import live_server

pytestmark = pytest.mark.anyio

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "embornal-tests", "version": "1"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


@pytest.fixture
def server(memory: Memory) -> Iterator[str]:
    with live_server(create_app(memory, wiki=False, allowed_hosts=["127.0.0.1"])) as url:
        yield url


@pytest.fixture
def full_server(memory: Memory) -> Iterator[str]:
    app = create_app(memory, wiki=False, allowed_hosts=["127.0.0.1"], mcp_profile="full")
    with live_server(app) as url:
        yield url


@asynccontextmanager
async def connect(url: str, token: str, mode: str = "legacy") -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode) as client,
    ):
        yield client


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await client.call_tool(tool, args)
    block = result.content[0]
    assert block.type == "text"
    data: dict[str, Any] = json.loads(block.text)
    return bool(result.is_error), data


async def ok(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    failed, data = await call(client, tool, args)
    assert not failed, data
    return data


async def error(client: Client, tool: str, args: dict[str, Any]) -> str:
    failed, data = await call(client, tool, args)
    assert failed, data
    return str(data["error"])


async def test_mcp_needs_a_valid_token(server: str) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        for headers in ({}, {"Authorization": "Bearer emb_bad_token"}):
            r = await http.post(f"{server}/mcp", json=INIT, headers={**MCP_HEADERS, **headers})
            assert_problem(r, 401, "unauthenticated")


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_each_subject_sees_only_its_own_facts(
    full_server: str, memory: Memory, tokens: dict[str, str], mode: str
) -> None:
    server = full_server
    async with connect(server, tokens["alice"], mode) as alice:
        fact = await ok(
            alice, "store", {"path": "/alice/keys", "content": "The vault code is 4711."}
        )
        hits = await ok(alice, "recall", {"query": "vault"})
        assert [h["id"] for h in hits["hits"]] == [fact["id"]]
    stored = memory.show(fact["id"]).fact
    assert stored.owner == "alice"
    async with connect(server, tokens["bob"], mode) as bob:
        assert (await ok(bob, "recall", {"query": "vault"}))["hits"] == []
        assert await error(bob, "cat", {"path": "/alice/keys"}) == "not_found"
        assert await error(bob, "ls", {"path": "/alice"}) == "not_found"
        tree = await ok(bob, "tree", {"path": "/"})
        assert "/alice" not in json.dumps(tree)
        assert await error(bob, "forget", {"id": fact["id"], "reason": "mine now"}) == "not_found"
        assert await error(bob, "restore", {"id": fact["id"], "reason": "x"}) == "not_found"
        own = await ok(bob, "store", {"path": "/alice/keys", "content": "Bob notes a thing."})
    assert memory.show(own["id"]).fact.owner == "bob"
    assert memory.show(fact["id"]).fact.state == "active"


async def test_interleaved_sessions_keep_their_subjects(
    server: str, tokens: dict[str, str]
) -> None:
    """Two sessions open at once, calls interleaved and concurrent: every call acts as the
    subject of its own request (not of the session opened first, nor of the last one)."""
    seen: dict[str, list[str]] = {"alice": [], "bob": []}

    async def work(who: str, client: Client) -> None:
        for i in range(6):
            await ok(client, "store", {"path": f"/{who}/n", "content": f"{who} zqxnote {i}"})
            hits = await ok(client, "recall", {"query": "zqxnote", "limit": 50})
            seen[who].extend(h["content"].split()[0] for h in hits["hits"])

    async with (
        connect(server, tokens["alice"]) as alice,
        connect(server, tokens["bob"]) as bob,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(work, "alice", alice)
        tg.start_soon(work, "bob", bob)
    assert set(seen["alice"]) == {"alice"}
    assert set(seen["bob"]) == {"bob"}


async def _open_session(http: httpx2.AsyncClient, url: str, token: str) -> str:
    r = await http.post(
        f"{url}/mcp", json=INIT, headers={**MCP_HEADERS, "Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 200, r.text
    session: str = r.headers["mcp-session-id"]
    return session


async def test_a_session_belongs_to_the_subject_that_opened_it(
    server: str, tokens: dict[str, str]
) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        session = await _open_session(http, server, tokens["alice"])
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
        base = {**MCP_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
        as_bob = await http.post(
            f"{server}/mcp",
            json=listing,
            headers={**base, "Authorization": f"Bearer {tokens['bob']}"},
        )
        assert as_bob.status_code == 404
        as_alice = await http.post(
            f"{server}/mcp",
            json=listing,
            headers={**base, "Authorization": f"Bearer {tokens['alice']}"},
        )
        assert as_alice.status_code == 200
        assert "store" in as_alice.text


async def test_a_revoked_token_stops_an_open_session(
    server: str, memory: Memory, tokens: dict[str, str]
) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        session = await _open_session(http, server, tokens["alice"])
        token_id = re.match(r"emb_([0-9a-z]+)_", tokens["alice"])
        assert token_id is not None
        memory.token_revoke(token_id.group(1))
        r = await http.post(
            f"{server}/mcp",
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
            headers={
                **MCP_HEADERS,
                "mcp-session-id": session,
                "Authorization": f"Bearer {tokens['alice']}",
            },
        )
        body = assert_problem(r, 401, "unauthenticated")
        assert "revoked" in body["detail"]


async def test_mcp_offers_the_tools_of_embornal_mcp(server: str, tokens: dict[str, str]) -> None:
    async with connect(server, tokens["alice"]) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        capabilities = client.server_capabilities
    assert names == set(CORE_TOOLS)  # the default profile, as `embornal mcp` offers it
    assert capabilities is not None and capabilities.tools is not None
    assert capabilities.prompts is None and capabilities.resources is None


# -- the HTTP edges of /mcp ----------------------------------------------------------------


async def test_a_401_points_at_the_protected_resource_metadata(server: str) -> None:
    """RFC 9728: a client learns that the server wants a bearer token (no OAuth flow) and
    where such tokens come from, and tells a bad token from a missing one."""
    metadata_url = f"{server}/.well-known/oauth-protected-resource/mcp"
    async with httpx2.AsyncClient(timeout=30) as http:
        missing = await http.post(f"{server}/mcp", json=INIT, headers=MCP_HEADERS)
        assert_problem(missing, 401, "unauthenticated")
        challenge = missing.headers["www-authenticate"]
        assert challenge.startswith("Bearer ")
        assert f'resource_metadata="{metadata_url}"' in challenge
        assert "invalid_token" not in challenge
        bad = await http.post(
            f"{server}/mcp",
            json=INIT,
            headers={**MCP_HEADERS, "Authorization": "Bearer emb_bad_token"},
        )
        assert_problem(bad, 401, "unauthenticated")
        assert 'error="invalid_token"' in bad.headers["www-authenticate"]
        assert f'resource_metadata="{metadata_url}"' in bad.headers["www-authenticate"]

        r = await http.get(metadata_url)
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        doc = r.json()
        assert doc["resource"] == f"{server}/mcp"
        assert doc["bearer_methods_supported"] == ["header"]
        assert "authorization_servers" not in doc  # no OAuth: tokens come from the owner
        assert "embornal token add" in doc["description"]
        root = (await http.get(f"{server}/.well-known/oauth-protected-resource")).json()
        assert root["resource"] == server and root["bearer_methods_supported"] == ["header"]


async def test_the_event_stream_refuses_another_sites_origin(
    server: str, tokens: dict[str, str]
) -> None:
    base = {"Authorization": f"Bearer {tokens['alice']}", "Accept": "text/event-stream"}
    async with httpx2.AsyncClient(timeout=30) as http:
        for headers in (
            {"Origin": "https://evil.example"},
            {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
            {"Sec-Fetch-Site": "cross-site"},
        ):
            r = await http.get(f"{server}/mcp", headers={**base, **headers})
            assert_problem(r, 403, "cross_origin")
            r = await http.delete(f"{server}/mcp", headers={**base, **headers})
            assert_problem(r, 403, "cross_origin")


async def test_an_over_large_chunked_mcp_body_is_a_problem(
    memory: Memory, tokens: dict[str, str]
) -> None:
    app = create_app(memory, wiki=False, max_body_bytes=10_000, allowed_hosts=["127.0.0.1"])

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "'
        for _ in range(30):
            yield b"a" * 1000
        yield b'"}}'

    with live_server(app) as url:
        async with httpx2.AsyncClient(timeout=30) as http:
            r = await http.post(
                f"{url}/mcp",
                content=chunks(),
                headers={
                    **MCP_HEADERS,
                    "Content-Type": "application/json",
                    "Authorization": f"Bearer {tokens['alice']}",
                },
            )
    assert "content-length" not in r.request.headers  # it went chunked
    body = assert_problem(r, 413, "body_too_large")
    assert "10,000" in body["detail"]


async def test_a_persons_token_is_still_an_assistant_on_mcp(server: str, memory: Memory) -> None:
    """Decision 0147 leaves decision 0039 here: MCP's caller is a program."""
    token = memory.token_add("alice", person=True).token
    async with connect(server, token) as alice:
        fact = await ok(alice, "store", {"path": "/alice/n", "content": "Stored over MCP."})
    assert memory.history(fact["id"])[0].actor_kind == "assistant"
