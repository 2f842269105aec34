"""Source and visibility over REST: store takes them, every answer carries them, a private
fact never reaches a token (every token is an assistant), only the owner changes it, and
bad input is problem+json 400 with nothing written."""

from __future__ import annotations

from typing import Any

from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import Memory


def _store(client: TestClient, token: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"{API}/facts", headers=bearer(token), json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def _events(memory: Memory) -> int:
    return len(list(memory._store.read_all()))


def test_store_takes_the_spine_and_show_carries_it(
    client: TestClient, tokens: dict[str, str]
) -> None:
    fact = _store(
        client,
        tokens["alice"],
        path="/v",
        content="The build uses uv.",
        source="claude-code",
        confidence=0.7,
        visibility="restricted:bob",
        evidence=["quote:we chose uv", {"type": "uri", "value": "https://e.org", "note": "adr"}],
    )
    assert fact["visibility"] == "restricted:bob" and fact["confidence"] == 0.7
    shown = client.get(f"{API}/facts/{fact['id']}", headers=bearer(tokens["alice"])).json()
    assert shown["source"] == {
        "subject": "alice",
        "actor_kind": "assistant",
        "label": "claude-code",
    }
    assert [(e["type"], e["value"], e["note"]) for e in shown["evidence"]] == [
        ("quote", "we chose uv", None),
        ("uri", "https://e.org", "adr"),
    ]


def test_a_private_fact_never_reaches_a_token_not_even_its_owners(
    client: TestClient, tokens: dict[str, str], memory: Memory
) -> None:
    h = bearer(tokens["alice"])
    fact = _store(client, tokens["alice"], path="/v", content="zebra private", visibility="private")
    assert fact["visibility"] == "private"  # the answer to the store itself
    assert_problem(client.get(f"{API}/facts/{fact['id']}", headers=h), 404, "not_found")
    hits = client.get(f"{API}/recall", params={"q": "zebra"}, headers=h).json()["hits"]
    assert hits == []
    assert_problem(client.get(f"{API}/cat", params={"path": "/v"}, headers=h), 404)
    assert memory.as_subject("alice").show(fact["id"]).fact.visibility == "private"  # a person


def test_only_the_owner_changes_visibility(
    client: TestClient, tokens: dict[str, str], memory: Memory
) -> None:
    fact = _store(client, tokens["alice"], path="/v", content="for all", tags=["visibility=public"])
    url = f"{API}/facts/{fact['id']}/visibility"
    before = _events(memory)
    assert_problem(
        client.post(url, headers=bearer(tokens["bob"]), json={"visibility": "private"}), 403
    )
    assert _events(memory) == before
    r = client.post(
        url, headers=bearer(tokens["alice"]), json={"visibility": "restricted:alice", "reason": "x"}
    )
    assert r.status_code == 200, r.text
    assert r.json()["visibility"] == "restricted:alice"
    assert_problem(client.get(f"{API}/facts/{fact['id']}", headers=bearer(tokens["bob"])), 404)


def test_bad_visibility_or_source_is_a_400_and_writes_nothing(
    client: TestClient, tokens: dict[str, str], memory: Memory
) -> None:
    h = bearer(tokens["alice"])
    before = _events(memory)
    for extra in (
        {"visibility": "secret"},
        {"visibility": "restricted:"},
        {"visibility": "restricted:al ice"},
    ):
        r = client.post(f"{API}/facts", headers=h, json={"path": "/v", "content": "x", **extra})
        body = assert_problem(r, 400, "invalid_visibility")
        assert "shared" in body["detail"] or "allow-list" in body["detail"]
    r = client.post(
        f"{API}/facts", headers=h, json={"path": "/v", "content": "x", "source": "a\x07"}
    )
    assert_problem(r, 400)
    r = client.post(f"{API}/facts", headers=h, json={"path": "/v", "content": "x", "confidence": 3})
    assert_problem(r, 422)
    assert _events(memory) == before
    fact = _store(client, tokens["alice"], path="/v", content="kept")
    r = client.post(f"{API}/facts/{fact['id']}/visibility", headers=h, json={"visibility": "no"})
    assert_problem(r, 400, "invalid_visibility")
