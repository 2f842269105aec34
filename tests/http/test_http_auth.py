"""Bearer tokens: no, bad, expired or revoked token -> 401 problem+json on every route."""

from __future__ import annotations

import re

import pytest
from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import FixedClock, Memory
from embornal.interfaces.http.api import OPERATIONS, Operation

FAKE_ID = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"
AUTHED = [op for op in OPERATIONS if op.auth]


def _call(client: TestClient, op: Operation, headers: dict[str, str]) -> object:
    path = API + op.path.replace("{id}", FAKE_ID)
    body = None
    if op.body is not None:
        body = (
            {"path": "/notes", "content": "x"}
            if op.operation_id == "storeFact"
            else {"reason": "r"}
        )
    params = {"path": "/notes"} if op.operation_id == "cat" else None
    if op.operation_id == "effectiveTags":
        params = {"fact": FAKE_ID}
    return client.request(op.method, path, headers=headers, json=body, params=params)


@pytest.mark.parametrize("op", AUTHED, ids=lambda op: op.operation_id)
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer emb_nottoken_xyz"},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic YWxpY2U6c2VjcmV0"},
        {"Authorization": "emb_missing_scheme"},
    ],
    ids=["none", "unknown", "empty", "basic", "no-scheme"],
)
def test_every_route_needs_a_valid_token(
    client: TestClient, op: Operation, headers: dict[str, str]
) -> None:
    body = assert_problem(_call(client, op, headers), 401, "unauthenticated")
    assert "token" in body["hint"].lower()


def test_the_token_travels_only_in_the_authorization_header(
    client: TestClient, tokens: dict[str, str]
) -> None:
    token = tokens["alice"]
    assert_problem(client.get(f"{API}/whoami", params={"token": token}), 401)
    cookie = {"Cookie": f"embornal_token={token}"}
    assert_problem(client.get(f"{API}/whoami", headers=cookie), 401)


def test_a_valid_token_is_its_subject(client: TestClient, tokens: dict[str, str]) -> None:
    for who, token in tokens.items():
        r = client.get(f"{API}/whoami", headers=bearer(token))
        assert r.status_code == 200
        assert r.json() == {"subject": who, "actor_kind": "assistant"}
    lower = client.get(f"{API}/whoami", headers={"authorization": f"bearer {tokens['bob']}"})
    assert lower.json()["subject"] == "bob"


def test_an_expired_token_is_refused(client: TestClient, memory: Memory, clock: FixedClock) -> None:
    token = memory.token_add("carol", expires_in_days=1).token
    assert client.get(f"{API}/whoami", headers=bearer(token)).status_code == 200
    clock.advance(days=1, seconds=1)
    body = assert_problem(client.get(f"{API}/whoami", headers=bearer(token)), 401)
    assert "expired" in body["detail"]


def test_a_revoked_token_is_refused_at_once(
    client: TestClient, memory: Memory, tokens: dict[str, str]
) -> None:
    token = tokens["alice"]
    assert client.get(f"{API}/ls", headers=bearer(token)).status_code == 200
    token_id = re.match(r"emb_([0-9a-z]+)_", token)
    assert token_id is not None
    memory.token_revoke(token_id.group(1))
    body = assert_problem(client.get(f"{API}/ls", headers=bearer(token)), 401)
    assert "revoked" in body["detail"]
    # The other subject's token still works.
    assert client.get(f"{API}/ls", headers=bearer(tokens["bob"])).status_code == 200


def test_health_and_the_openapi_document_need_no_token(client: TestClient) -> None:
    health = client.get(f"{API}/health")
    assert health.status_code == 200
    assert health.json()["status"] == "ok"
    assert client.get("/openapi.json").status_code == 200


def test_a_bad_token_says_nothing_about_the_memory(client: TestClient, memory: Memory) -> None:
    memory.store("/secrets/plan", "The launch is on Friday.")
    r = client.get(f"{API}/recall", params={"q": "launch"}, headers=bearer("emb_x_y"))
    assert_problem(r, 401)
    assert "launch" not in r.text.lower()
