"""``GET /facts/{id}/similar``: the facts most like a fact over REST, in the OpenAPI
document; a hidden fact is 404, a mode not of its choices a problem+json 422
(the query model names them)."""

from __future__ import annotations

from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient


def test_similar_over_rest(client: TestClient, tokens: dict[str, str]) -> None:
    h = bearer(tokens["alice"])
    ids = [
        client.post(f"{API}/facts", headers=h, json={"path": p, "content": c}).json()["id"]
        for p, c in (("/tea/green", "Green tea."), ("/tea/black", "Black tea."), ("/g", "Roses."))
    ]
    r = client.get(f"{API}/facts/{ids[0]}/similar", headers=h, params={"limit": "5"})
    assert r.status_code == 200, r.text
    assert [hit["fact"]["id"] for hit in r.json()["hits"]] == [ids[1]]
    assert {"score", "strength", "parts"} <= set(r.json()["hits"][0])
    hidden = client.get(f"{API}/facts/{ids[0]}/similar", headers=bearer(tokens["bob"]))
    assert hidden.status_code == 404
    bad = client.get(f"{API}/facts/{ids[0]}/similar", headers=h, params={"mode": "loud"})
    assert "hybrid" in assert_problem(bad, 422)["errors"][0]["message"]
    route = client.get("/openapi.json").json()["paths"][f"{API}/facts/{{id}}/similar"]["get"]
    assert route["operationId"] == "similarFacts"
    assert {p["name"] for p in route["parameters"]} == {"id", "limit", "under", "mode"}
