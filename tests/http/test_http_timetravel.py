"""``at=`` on the REST reads: the memory as it was then; a bad time is a 400 problem."""

from __future__ import annotations

from datetime import timedelta

from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import FixedClock, Memory
from embornal.domain.clock import format_time


def test_reads_at_a_past_time(
    client: TestClient, tokens: dict[str, str], memory: Memory, clock: FixedClock
) -> None:
    auth = bearer(tokens["alice"])
    made = client.post(
        f"{API}/facts", json={"path": "/alice/x", "content": "Zebras."}, headers=auth
    ).json()
    then = format_time(clock.now() + timedelta(hours=1))
    clock.advance(days=1)
    assert (
        client.post(
            f"{API}/facts/{made['id']}/forget", json={"reason": "gone"}, headers=auth
        ).status_code
        == 200
    )
    recall = client.get(f"{API}/recall", params={"q": "zebras", "at": then}, headers=auth)
    assert [h["fact"]["id"] for h in recall.json()["hits"]] == [made["id"]]
    assert client.get(f"{API}/recall", params={"q": "zebras"}, headers=auth).json()["hits"] == []
    cat = client.get(f"{API}/cat", params={"path": "/alice/x", "at": "1 day ago"}, headers=auth)
    assert cat.status_code == 200 and cat.json()["facts"][0]["fact"]["state"] == "active"
    ls = client.get(f"{API}/ls", params={"path": "/", "at": then}, headers=auth)
    assert "/alice" in [e["path"] for e in ls.json()["entries"]]
    tree = client.get(f"{API}/tree", params={"at": then}, headers=auth)
    assert "/alice" in [c["path"] for c in tree.json()["children"]]
    show = client.get(f"{API}/facts/{made['id']}", params={"at": then}, headers=auth).json()
    assert show["as_of"] == then and show["fact"]["state"] == "active"
    find = client.get(
        f"{API}/find", params={"kind": "fact", "under": "/alice", "at": then}, headers=auth
    )
    assert [f["id"] for f in find.json()["facts"]] == [made["id"]]


def test_a_bad_time_is_a_400_naming_the_forms(client: TestClient, tokens: dict[str, str]) -> None:
    auth = bearer(tokens["alice"])
    for bad in ("tomorrow", "2099-01-01"):
        answer = client.get(f"{API}/recall", params={"q": "x", "at": bad}, headers=auth)
        body = assert_problem(answer, 400, "invalid_time")
        assert "an ISO-8601 date or time" in body["detail"]


def test_the_document_offers_at_on_the_reads(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for route in ("/recall", "/cat", "/ls", "/tree", "/find", "/facts/{id}"):
        params = doc["paths"][API + route]["get"]["parameters"]
        assert "at" in [p["name"] for p in params], route
