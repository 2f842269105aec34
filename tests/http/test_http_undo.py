"""``POST /api/v1/events/{position}/undo`` and the history's event ids over REST."""

from __future__ import annotations

from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import Memory


def test_undo_over_rest(client: TestClient, tokens: dict[str, str], memory: Memory) -> None:
    h = bearer(tokens["alice"])
    made = client.post(f"{API}/facts", headers=h, json={"path": "/alice/a", "content": "A."})
    fact_id = made.json()["id"]
    client.post(f"{API}/facts/{fact_id}/confirm", headers=h, json={})
    history = client.get(f"{API}/facts/{fact_id}/history", headers=h).json()["events"]
    confirm = history[-1]
    assert confirm["type"] == "FactConfirmed" and confirm["actor_kind"] == "assistant"
    r = client.post(f"{API}/events/{confirm['position']}/undo", headers=h, json={"reason": "no"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["undone"] == confirm["position"]
    (reset,) = body["events"]
    assert reset["type"] == "FactConfidenceReset" and reset["reason"] == "no"
    assert reset["payload"]["undoes"] == confirm["position"]
    assert reset["payload"]["confidence"] == 0.6 and reset["actor"] == "alice"
    assert client.get(f"{API}/facts/{fact_id}", headers=h).json()["confidence"] == 0.6

    events = len(memory.history(fact_id))
    again = client.post(f"{API}/events/{confirm['position']}/undo", headers=h, json={"reason": "x"})
    assert "undone already" in assert_problem(again, 409, "not_undoable")["detail"]
    hidden = client.post(
        f"{API}/events/{confirm['position']}/undo",
        headers=bearer(tokens["bob"]),
        json={"reason": "x"},
    )
    missing = client.post(f"{API}/events/999999/undo", headers=h, json={"reason": "x"})
    assert assert_problem(hidden, 404, "not_found")["hint"] == assert_problem(missing, 404)["hint"]
    bad = client.post(f"{API}/events/abc/undo", headers=h, json={"reason": "x"})
    assert_problem(bad, 400, "invalid_input")
    assert_problem(client.post(f"{API}/events/1/undo", headers=h, json={}), 422)
    assert len(memory.history(fact_id)) == events


def test_the_openapi_document_names_the_undo_route(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    op = doc["paths"][f"{API.removeprefix('http://testserver')}/events/{{position}}/undo"]["post"]
    (param,) = op["parameters"]
    assert param["name"] == "position" and param["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 10**18 - 1,
    }
    assert op["tags"] == ["events"]
