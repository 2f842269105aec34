"""``rerank`` over REST (GET /recall and /recall/cascade, in the OpenAPI document) and
through the remote client; a server with no reranker answers 400 with the pull hint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import FixedClock, Memory
from embornal.interfaces.cli.remote import RemoteMemory
from embornal.interfaces.http.app import create_app
from rerank_helpers import harbour_memory

TOP = 3


@pytest.fixture
def ranked(tmp_path: Path, clock: FixedClock) -> Iterator[Memory]:
    with harbour_memory(tmp_path / "r.db", clock, TOP) as mem:
        yield mem


def _ids(hits: list[dict[str, object]]) -> list[object]:
    return [h["fact"]["id"] for h in hits]  # type: ignore[index]


def test_get_recall_with_rerank(ranked: Memory) -> None:
    token = ranked.token_add("default").token
    params = {"q": "harbour", "mode": "keyword", "reinforce": "false"}
    with TestClient(create_app(ranked, mcp=False, wiki=False)) as client:
        plain = client.get(f"{API}/recall", params=params, headers=bearer(token)).json()["hits"]
        got = client.get(
            f"{API}/recall", params={**params, "rerank": "true"}, headers=bearer(token)
        ).json()["hits"]
        cascade = client.get(
            f"{API}/recall/cascade", params={**params, "rerank": "true"}, headers=bearer(token)
        ).json()
        spec = client.get("/openapi.json").json()
    assert _ids(got)[:TOP] == _ids(plain)[:TOP][::-1] and _ids(got)[TOP:] == _ids(plain)[TOP:]
    assert [h["parts"]["rerank_before"] for h in got[:TOP]] == [3, 2, 1]
    assert all(h["parts"]["rerank"] is None for h in plain)
    assert _ids(cascade["hits"])[:TOP] == _ids(plain)[:TOP][::-1]
    for route in ("/recall", "/recall/cascade"):
        names = {p["name"] for p in spec["paths"][API + route]["get"]["parameters"]}
        assert "rerank" in names, route
    parts = spec["components"]["schemas"]["ScorePartsOut"]["properties"]
    assert {"rerank", "rerank_before"} <= set(parts)


def test_a_server_without_a_reranker_says_how_to_get_one(memory: Memory) -> None:
    token = memory.token_add("default").token
    with TestClient(create_app(memory, mcp=False, wiki=False)) as client:
        r = client.get(
            f"{API}/recall", params={"q": "memory", "rerank": "true"}, headers=bearer(token)
        )
    body = assert_problem(r, 400, "invalid_input")
    assert "embornal model pull --reranker" in body["hint"]


def test_the_remote_client_reranks(ranked: Memory) -> None:
    token = ranked.token_add("default").token
    with TestClient(create_app(ranked, mcp=False, wiki=False)) as client:

        def send(method, url, headers, body, timeout):  # type: ignore[no-untyped-def]
            r = client.request(method, url, headers=dict(headers), content=body)
            return r.status_code, r.reason_phrase, dict(r.headers), r.content

        remote = RemoteMemory.connect("http://testserver", token, transport=send)
        local = ranked.recall("harbour", mode="keyword", reinforce=False, rerank=True)
        hits = remote.recall("harbour", mode="keyword", reinforce=False, rerank=True)
        cascade = remote.chronicle.recall("harbour", mode="keyword", reinforce=False, rerank=True)
    assert [h.fact.id for h in hits] == [h.fact.id for h in local]
    assert [h.parts.rerank for h in hits] == [h.parts.rerank for h in local]
    assert [h.parts.rerank_before for h in hits[:TOP]] == [3, 2, 1]
    assert [h.fact.id for h in cascade.hits][:TOP] == [h.fact.id for h in local][:TOP]
