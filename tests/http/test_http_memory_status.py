"""``GET /facts/{id}/status``: where a memory stands in the history protocol over REST, in the
OpenAPI document; it records nothing, a hidden or missing memory is 404 problem+json."""

from __future__ import annotations

from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient


def test_memory_status_over_rest(client: TestClient, tokens: dict[str, str]) -> None:
    h = bearer(tokens["alice"])
    made = client.post(
        f"{API}/memories", headers=h, json={"content": "Ada leads.", "source": "ada"}
    )
    assert made.status_code in (200, 201), made.text
    fid = made.json()["fact"]["id"]
    history = client.get(f"{API}/facts/{fid}/history", headers=h).json()
    r = client.get(f"{API}/facts/{fid[:16]}/status", headers=h)
    assert r.status_code == 200, r.text
    got = r.json()
    assert (got["fact"]["id"], got["stage"], got["tier"], got["sensitive"]) == (
        fid,
        "working",
        "archive",
        False,
    )
    assert client.get(f"{API}/facts/{fid}/history", headers=h).json() == history
    assert_problem(client.get(f"{API}/facts/{fid}/status", headers=bearer(tokens["bob"])), 404)
    assert_problem(client.get(f"{API}/facts/01ZZZZZZZZZZZZZZZZZZZZZZZZ/status", headers=h), 404)
    route = client.get("/openapi.json").json()["paths"][f"{API}/facts/{{id}}/status"]["get"]
    assert route["operationId"] == "memoryStatus"
    assert {p["name"] for p in route["parameters"]} == {"id"}
