"""Proposals and retention over REST: the routes, the status codes, problem+json, and the
token (an assistant's) refused a decision unless the policy lets assistants decide."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import FixedClock, Memory
from embornal.domain.proposal_policy import ProposalPolicy
from embornal.interfaces.http.app import create_app


def test_propose_list_show_over_rest(client: TestClient, tokens: dict[str, str]) -> None:
    h = bearer(tokens["alice"])
    items = [{"type": "create", "path": "/alice/n", "content": "The tapir note."}]
    made = client.post(f"{API}/proposals", headers=h, json={"items": items, "title": "t"})
    assert made.status_code == 201, made.text
    pid = made.json()["id"]
    assert made.headers["Location"] == f"{API}/proposals/{pid}"
    assert made.json()["proposer"] == "alice" and made.json()["status"] == "open"
    listed = client.get(f"{API}/proposals", headers=h, params={"status": "open"})
    assert [p["id"] for p in listed.json()["proposals"]] == [pid]
    assert client.get(f"{API}/proposals/{pid}", headers=h).json()["items"][0]["number"] == "1"
    refused = client.post(f"{API}/proposals/{pid}/approve", headers=h, json={})
    assert_problem(refused, 403, "access_denied")
    hidden = client.get(f"{API}/proposals/{pid}", headers=bearer(tokens["bob"]))
    absent = client.get(f"{API}/proposals/01KCZ8Q3W5R7T9V1X3Z5B7D9F1", headers=h)
    assert_problem(hidden, 404, "not_found")
    assert_problem(absent, 404, "not_found")
    bad = client.post(f"{API}/proposals", headers=h, json={"items": []})
    assert bad.status_code == 422
    assert client.get(f"{API}/proposals", headers=h, params={"status": "x"}).status_code == 422
    scores = client.get(f"{API}/retention", headers=h, params={"lowest": 2})
    assert scores.status_code == 200 and len(scores.json()["facts"]) <= 2
    pruned = client.post(f"{API}/prune", headers=h, json={"threshold": 0.0})
    assert pruned.status_code == 200 and pruned.json()["proposal"] is None
    assert client.post(f"{API}/prune", headers=h, json={"threshold": 2}).status_code == 422


@pytest.fixture
def deciding(db_path: Path, clock: FixedClock) -> Iterator[tuple[TestClient, str, Memory]]:
    memory = Memory.open(db_path, clock=clock, proposals=ProposalPolicy(assistants_decide=True))
    token = memory.token_add("alice").token
    with TestClient(create_app(memory, mcp=False, wiki=False)) as client:
        yield client, token, memory
    memory.close()


def test_a_policy_lets_a_token_decide(deciding: tuple[TestClient, str, Memory]) -> None:
    client, token, memory = deciding
    h = bearer(token)
    old = client.post(f"{API}/facts", headers=h, json={"path": "/alice/o", "content": "Old."})
    items = [{"type": "archive", "fact_id": old.json()["id"], "reason": "gone"},
             {"type": "create", "path": "/alice/n", "content": "New."}]  # fmt: skip
    pid = client.post(f"{API}/proposals", headers=h, json={"items": items}).json()["id"]
    edited = client.post(f"{API}/proposals/{pid}/edit", headers=h, json={"drop": ["2"]})
    assert edited.status_code == 200 and len(edited.json()["items"]) == 1
    done = client.post(f"{API}/proposals/{pid}/approve", headers=h, json={"reason": "ok"})
    assert done.status_code == 200 and done.json()["status"] == "approved"
    assert memory.show(old.json()["id"]).fact.state == "forgotten"
    again = client.post(f"{API}/proposals/{pid}/approve", headers=h, json={})
    assert_problem(again, 409, "conflict")
    other = client.post(f"{API}/proposals", headers=h, json={"items": items[1:]}).json()["id"]
    no_reason = client.post(f"{API}/proposals/{other}/reject", headers=h, json={})
    assert no_reason.status_code == 422
    rejected = client.post(f"{API}/proposals/{other}/reject", headers=h, json={"reason": "no"})
    assert rejected.json()["status"] == "rejected"
