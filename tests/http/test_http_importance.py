"""Importance and lifetime over REST: POST /facts/{id}/pin, /unpin, /weight, /lifetime,
GET /due, store with a lifetime; rights (write on the fact; a hidden fact is 404); bad
input is problem+json 400 naming the allowed values, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import FixedClock, Memory


def _store(client: TestClient, token: str, path: str, content: str, **extra: Any) -> str:
    r = client.post(
        f"{API}/facts", headers=bearer(token), json={"path": path, "content": content, **extra}
    )
    assert r.status_code == 201, r.text
    fact_id: str = r.json()["id"]
    return fact_id


def test_pin_weight_lifetime_and_due_over_rest(
    client: TestClient, tokens: dict[str, str], memory: Memory, clock: FixedClock
) -> None:
    h = bearer(tokens["alice"])
    fact_id = _store(
        client, tokens["alice"], "/alice/car", "Parking spot C4.", lifetime="until:2026-01-02"
    )
    assert memory.show(fact_id).lifetime == "until:2026-01-02"
    pin = client.post(f"{API}/facts/{fact_id}/pin", headers=h, json={"reason": "matters"})
    assert pin.status_code == 200, pin.text
    assert pin.json()["pinned"] is True and pin.json()["state"] == "active"
    weight = client.post(f"{API}/facts/{fact_id}/weight", headers=h, json={"weight": 0.75})
    assert weight.json()["user_weight"] == 0.75
    off = client.post(f"{API}/facts/{fact_id}/weight", headers=h, json={"weight": None})
    assert off.status_code == 200 and off.json()["user_weight"] is None
    hits = client.get(f"{API}/recall", headers=h, params={"q": "parking", "reinforce": "false"})
    parts = hits.json()["hits"][0]["parts"]
    assert parts["pinned"] is True and parts["c"] == 0.6  # a token acts as an assistant
    assert parts["spine"] == pytest.approx(0.15 + 0.2 * (0.6 - 0.95))
    assert {"c_eff", "stale", "user_weight"} <= set(parts)
    clock.advance(days=2)  # the lifetime ran out
    hits = client.get(f"{API}/recall", headers=h, params={"q": "parking", "reinforce": "false"})
    assert hits.json()["hits"] == []
    detail = client.get(f"{API}/facts/{fact_id}", headers=h).json()
    assert detail["expired"] is True and "until:2026-01-02" in detail["expired_because"]
    life = client.post(f"{API}/facts/{fact_id}/lifetime", headers=h, json={"lifetime": "permanent"})
    assert life.status_code == 200 and life.json()["lifetime"] == "permanent"
    assert life.json()["expires_at"] is None
    unpin = client.post(f"{API}/facts/{fact_id}/unpin", headers=h, json={})
    assert unpin.json()["pinned"] is False
    old = _store(client, tokens["alice"], "/alice/old", "Old.", at="2019-01-01T00:00:00Z")
    due = client.get(f"{API}/due", headers=h, params={"under": "/alice"})
    assert due.status_code == 200, due.text
    assert [d["fact"]["id"] for d in due.json()["facts"]] == [old]
    assert due.json()["facts"][0]["threshold"] == 0.35


def test_bad_importance_and_lifetime_are_400_and_write_nothing(
    client: TestClient, tokens: dict[str, str], memory: Memory
) -> None:
    h = bearer(tokens["alice"])
    fact_id = _store(client, tokens["alice"], "/alice/x", "X.")
    events = len(memory.history(fact_id))
    bad = client.post(f"{API}/facts/{fact_id}/weight", headers=h, json={"weight": 1.5})
    assert bad.status_code in (400, 422)
    bad = client.post(f"{API}/facts/{fact_id}/lifetime", headers=h, json={"lifetime": "forever"})
    assert "until:YYYY-MM-DD" in assert_problem(bad, 400, "invalid_lifetime")["detail"]
    bad = client.post(
        f"{API}/facts/{fact_id}/lifetime", headers=h, json={"lifetime": "until:2020-01-01"}
    )
    assert "in the past" in assert_problem(bad, 400, "invalid_lifetime")["detail"]
    body = {"path": "/alice/y", "content": "Y.", "lifetime": "until:2020-01-01"}
    bad = client.post(f"{API}/facts", headers=h, json=body)
    assert_problem(bad, 400, "invalid_lifetime")
    assert len(memory.history(fact_id)) == events
    assert [v.fact.id for v in memory.cat("/alice/x")] == [fact_id]
    assert memory.tree("/alice").children[0].path == "/alice/x"


def test_another_subject_needs_write_and_cannot_see_hidden_facts(
    client: TestClient, tokens: dict[str, str], memory: Memory
) -> None:
    alice_fact = _store(client, tokens["alice"], "/alice/secret", "Mine.")
    public = _store(client, tokens["alice"], "/team/news", "May.", tags=["visibility=public"])
    memory.policy_add("p", ["bob", "path:/team/*", "write", "deny"])
    bob = bearer(tokens["bob"])
    for route, body in (
        ("pin", {}),
        ("unpin", {}),
        ("weight", {"weight": 0.2}),
        ("lifetime", {"lifetime": "permanent"}),
    ):
        r = client.post(f"{API}/facts/{public}/{route}", headers=bob, json=body)
        assert "write" in assert_problem(r, 403, "access_denied")["detail"]
        r = client.post(f"{API}/facts/{alice_fact}/{route}", headers=bob, json=body)
        assert_problem(r, 404, "not_found")
    assert len(memory.history(public)) == 1 and len(memory.history(alice_fact)) == 1
