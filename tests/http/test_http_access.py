"""One subject cannot read, change or delete another's facts through REST, and a fact it
may not read answers exactly as a fact that does not exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import Memory


def _store(client: TestClient, token: str, path: str, content: str, **extra: Any) -> str:
    r = client.post(
        f"{API}/facts", headers=bearer(token), json={"path": path, "content": content, **extra}
    )
    assert r.status_code == 201, r.text
    fact_id: str = r.json()["id"]
    assert r.headers["location"] == f"{API}/facts/{fact_id}"
    return fact_id


@pytest.fixture
def alice_fact(client: TestClient, tokens: dict[str, str]) -> str:
    return _store(client, tokens["alice"], "/alice/diary", "Alice keeps the zebra password here.")


def test_the_owner_reads_its_own_fact_everywhere(
    client: TestClient, tokens: dict[str, str], alice_fact: str
) -> None:
    h = bearer(tokens["alice"])
    fact = client.get(f"{API}/facts/{alice_fact}", headers=h).json()
    assert fact["fact"]["owner"] == "alice"
    assert "owner=alice" in fact["fact"]["tags"]
    assert fact["events"][0]["actor"] == "alice"
    assert fact["events"][0]["actor_kind"] == "assistant"
    hits = client.get(f"{API}/recall", params={"q": "zebra"}, headers=h).json()["hits"]
    assert [hit["fact"]["id"] for hit in hits] == [alice_fact]
    assert client.get(f"{API}/cat", params={"path": "/alice/diary"}, headers=h).status_code == 200
    assert "/alice" in [e["path"] for e in client.get(f"{API}/ls", headers=h).json()["entries"]]


def test_another_subject_cannot_read_it(
    client: TestClient, tokens: dict[str, str], alice_fact: str
) -> None:
    h = bearer(tokens["bob"])
    assert_problem(client.get(f"{API}/facts/{alice_fact}", headers=h), 404, "not_found")
    assert_problem(client.get(f"{API}/facts/{alice_fact[:16]}", headers=h), 404, "not_found")
    assert_problem(client.get(f"{API}/facts/{alice_fact}/history", headers=h), 404)
    assert_problem(client.get(f"{API}/tags", params={"fact": alice_fact}, headers=h), 404)
    assert_problem(client.get(f"{API}/cat", params={"path": "/alice/diary"}, headers=h), 404)
    assert_problem(client.get(f"{API}/ls", params={"path": "/alice"}, headers=h), 404)
    assert_problem(client.get(f"{API}/tree", params={"path": "/alice"}, headers=h), 404)
    assert client.get(f"{API}/recall", params={"q": "zebra"}, headers=h).json() == {"hits": []}
    strongest = client.get(f"{API}/recall", params={"limit": 1000}, headers=h).json()["hits"]
    assert alice_fact not in [hit["fact"]["id"] for hit in strongest]
    paths = [e["path"] for e in client.get(f"{API}/ls", headers=h).json()["entries"]]
    assert "/alice" not in paths
    tree = client.get(f"{API}/tree", headers=h).text
    assert "alice" not in tree


def test_another_subject_cannot_forget_or_restore_it(
    client: TestClient, tokens: dict[str, str], alice_fact: str
) -> None:
    bob, alice = bearer(tokens["bob"]), bearer(tokens["alice"])
    reason = {"reason": "bob wants it gone"}
    assert_problem(client.post(f"{API}/facts/{alice_fact}/forget", headers=bob, json=reason), 404)
    assert client.get(f"{API}/facts/{alice_fact}", headers=alice).json()["fact"]["state"] == (
        "active"
    )
    r = client.post(f"{API}/facts/{alice_fact}/forget", headers=alice, json={"reason": "old"})
    assert r.json()["state"] == "forgotten"
    assert_problem(client.post(f"{API}/facts/{alice_fact}/restore", headers=bob, json=reason), 404)
    assert client.get(f"{API}/facts/{alice_fact}", headers=alice).json()["fact"]["state"] == (
        "forgotten"
    )


def test_a_public_fact_is_readable_but_not_deletable_by_others(
    client: TestClient, tokens: dict[str, str]
) -> None:
    fact_id = _store(
        client, tokens["alice"], "/team/news", "The offsite is in May.", tags=["visibility=public"]
    )
    bob = bearer(tokens["bob"])
    assert client.get(f"{API}/facts/{fact_id}", headers=bob).status_code == 200
    body = assert_problem(
        client.post(f"{API}/facts/{fact_id}/forget", headers=bob, json={"reason": "no"}),
        403,
        "access_denied",
    )
    assert "bob" in body["detail"]
    assert client.get(f"{API}/facts/{fact_id}", headers=bob).json()["fact"]["state"] == "active"


def test_a_write_never_lands_as_another_subject(
    client: TestClient, tokens: dict[str, str], alice_fact: str
) -> None:
    bob = bearer(tokens["bob"])
    # Bob may write on any path, but the fact is his, and Alice's stays hidden from him.
    bobs = _store(client, tokens["bob"], "/alice/diary", "Bob was here.")
    fact = client.get(f"{API}/facts/{bobs}", headers=bob).json()["fact"]
    assert fact["owner"] == "bob"
    cat = client.get(f"{API}/cat", params={"path": "/alice/diary"}, headers=bob).json()
    assert [v["fact"]["id"] for v in cat["facts"]] == [bobs]
    # Claiming another owner is refused, in either tag form.
    for tags in (["owner=alice"], {"owner": "alice"}):
        r = client.post(
            f"{API}/facts", headers=bob, json={"path": "/x", "content": "y", "tags": tags}
        )
        assert_problem(r, 400, "owner_tag_forbidden")


def test_a_denied_path_is_403_for_writes(
    client: TestClient, memory: Memory, tokens: dict[str, str]
) -> None:
    memory.policy_add("p", ["bob", "path:/locked/*", "write", "deny"])
    r = client.post(
        f"{API}/facts", headers=bearer(tokens["bob"]), json={"path": "/locked/a", "content": "x"}
    )
    body = assert_problem(r, 403, "access_denied")
    assert "may not create" in body["detail"]  # a write deny refuses creating (0128)


def test_a_hidden_fact_answers_exactly_as_a_missing_one(
    client: TestClient, tokens: dict[str, str], alice_fact: str
) -> None:
    bob = bearer(tokens["bob"])
    # A missing id that differs from the hidden one only in its last character.
    last = "0" if alice_fact[-1] != "0" else "1"
    missing = alice_fact[:-1] + last
    for template, method, body in [
        ("/facts/{}", "GET", None),
        ("/facts/{}/history", "GET", None),
        ("/facts/{}/forget", "POST", {"reason": "r"}),
        ("/facts/{}/restore", "POST", {"reason": "r"}),
    ]:
        rh = client.request(method, API + template.format(alice_fact), headers=bob, json=body)
        rm = client.request(method, API + template.format(missing), headers=bob, json=body)
        assert rh.status_code == rm.status_code == 404
        assert rh.headers == rm.headers
        h, m = rh.json(), rm.json()
        assert h["detail"].replace(alice_fact, missing) == m["detail"]
        assert {k: v for k, v in h.items() if k != "detail"} == {
            k: v for k, v in m.items() if k != "detail"
        }
    rh = client.get(f"{API}/tags", params={"fact": alice_fact}, headers=bob)
    rm = client.get(f"{API}/tags", params={"fact": missing}, headers=bob)
    assert rh.status_code == rm.status_code == 404
    assert rh.json()["detail"].replace(alice_fact, missing) == rm.json()["detail"]
    # A hidden path answers as a path that was never written.
    for route in ("cat", "ls", "tree"):
        rh = client.get(f"{API}/{route}", params={"path": "/alice/diary"}, headers=bob)
        rm = client.get(f"{API}/{route}", params={"path": "/alice/diarz"}, headers=bob)
        assert rh.status_code == rm.status_code == 404
        assert rh.headers == rm.headers
        assert rh.json()["detail"].replace("diary", "diarz") == rm.json()["detail"]


def test_a_policy_change_applies_to_the_next_request(
    client: TestClient, memory: Memory, tokens: dict[str, str], alice_fact: str
) -> None:
    bob = bearer(tokens["bob"])
    assert_problem(client.get(f"{API}/facts/{alice_fact}", headers=bob), 404)
    memory.policy_add("p", ["bob", "path:/alice/*", "read", "allow"])
    assert client.get(f"{API}/facts/{alice_fact}", headers=bob).status_code == 200
    hits = client.get(f"{API}/recall", params={"q": "zebra"}, headers=bob).json()["hits"]
    assert [h["fact"]["id"] for h in hits] == [alice_fact]
    memory.policy_add("p", ["bob", "path:/alice/diary", "read", "deny"])
    assert_problem(client.get(f"{API}/facts/{alice_fact}", headers=bob), 404)


def test_supersede_and_read_only_recall_over_rest(tmp_path: Path) -> None:
    from embornal.interfaces.http.app import create_app

    with Memory.open(tmp_path / "m.db") as mem:
        token = mem.token_add("alice").token
        client = TestClient(create_app(mem, wiki=False), base_url="http://127.0.0.1")
        auth = {"Authorization": f"Bearer {token}"}
        old = client.post(
            "/api/v1/facts", json={"path": "/a", "content": "tea at five"}, headers=auth
        )
        assert old.status_code == 201
        new = client.post(
            f"/api/v1/facts/{old.json()['id']}/supersede",
            json={"content": "tea at six", "reason": "moved"},
            headers=auth,
        )
        assert new.status_code == 201 and new.json()["supersedes_id"] == old.json()["id"]
        hits = client.get(
            "/api/v1/recall",
            params={"q": "tea", "reinforce": "false", "mode": "keyword"},
            headers=auth,
        ).json()["hits"]
        assert [h["fact"]["content"] for h in hits] == ["tea at six"]
        assert mem.show(new.json()["id"]).fact.recall_count == 0


def test_recall_gives_no_raw_bm25_to_a_subject_that_reads_part_of_the_memory(
    memory: Memory, client: TestClient, tokens: dict[str, str]
) -> None:
    """FTS5's bm25 counts every fact: alice's value would move with default's facts."""
    mine = _store(client, tokens["alice"], "/alice/plans", "the launch date is Friday")
    memory.store("/private", "the launch slipped, launch again")
    params = {"q": "launch", "mode": "keyword", "reinforce": "false"}
    hits = client.get(f"{API}/recall", params=params, headers=bearer(tokens["alice"])).json()
    [hit] = hits["hits"]
    assert hit["fact"]["id"] == mine
    assert hit["parts"]["bm25"] is None and hit["parts"]["keyword"] == 1.0
    owner = bearer(memory.token_add("default").token)  # reads the whole memory
    whole = client.get(f"{API}/recall", params=params, headers=owner).json()["hits"]
    assert whole and all(isinstance(h["parts"]["bm25"], float) for h in whole)


def test_a_public_fact_cannot_be_superseded_by_others(
    client: TestClient, memory: Memory, tokens: dict[str, str]
) -> None:
    fact_id = memory.store("/team/news", "The offsite is in May.", tags=["visibility=public"]).id
    bob = bearer(tokens["bob"])
    assert_problem(
        client.post(f"{API}/facts/{fact_id}/forget", headers=bob, json={"reason": "no"}),
        403,
        "access_denied",
    )
    r = client.post(
        f"{API}/facts/{fact_id}/supersede", headers=bob, json={"content": "It is cancelled."}
    )
    body = assert_problem(r, 403, "access_denied")
    assert "bob may not write" in body["detail"]  # nor delete: the write is asked first
    fact = client.get(f"{API}/facts/{fact_id}", headers=bob).json()["fact"]
    assert fact["state"] == "active" and fact["superseded_by"] is None
    hits = client.get(f"{API}/recall", params={"q": "offsite"}, headers=bob).json()["hits"]
    assert [hit["fact"]["id"] for hit in hits] == [fact_id]


def test_a_hidden_successor_is_not_named(
    client: TestClient, memory: Memory, tokens: dict[str, str]
) -> None:
    old = memory.store("/team/plan", "The launch is in May.", tags=["visibility=public"])
    new = memory.supersede(old.id, "The launch is in June.", tags=["visibility=private"])
    bob = bearer(tokens["bob"])
    fact = client.get(f"{API}/facts/{old.id}", headers=bob).json()["fact"]
    assert fact["superseded_by"] is None and fact["state"] == "superseded"
    history = client.get(f"{API}/facts/{old.id}/history", headers=bob).text
    assert new.id not in history
    admin = bearer(memory.token_add("default", rules=False).token)
    fact = client.get(f"{API}/facts/{old.id}", headers=admin).json()["fact"]
    assert fact["superseded_by"] == new.id
    tree = client.get(f"{API}/cat", params={"path": "/team/plan"}, headers=bob)
    assert tree.status_code == 404  # its only live fact is hidden from bob


def test_find_over_rest_gives_only_the_facts_the_subject_may_read(
    client: TestClient, tokens: dict[str, str]
) -> None:
    attrs = {"name": "zebra", "status": "active"}
    fact_id = _store(
        client, tokens["alice"], "/alice/projects/z", "Zebra.", kind="project", attributes=attrs
    )
    query = [("kind", "project"), ("where", "status=active"), ("where", "name=zebra")]
    mine = client.get(f"{API}/find", params=query, headers=bearer(tokens["alice"]))
    assert mine.status_code == 200, mine.text
    assert [f["id"] for f in mine.json()["facts"]] == [fact_id]
    assert mine.json()["facts"][0]["attributes"] == attrs
    theirs = client.get(f"{API}/find", params=query, headers=bearer(tokens["bob"]))
    assert theirs.status_code == 200 and theirs.json() == {"kind": "project", "facts": []}
    upd = client.post(
        f"{API}/facts/{fact_id}/update",
        headers=bearer(tokens["bob"]),
        json={"attributes": {"status": "done"}},
    )
    assert_problem(upd, 404, "not_found")


def test_kinds_update_and_bad_input_over_rest(
    client: TestClient, tokens: dict[str, str], memory: Memory
) -> None:
    h = bearer(tokens["alice"])
    kinds = client.get(f"{API}/kinds", headers=h).json()["kinds"]
    assert {k["kind"] for k in kinds} >= {"fact", "project", "person"}
    fact_id = _store(
        client,
        tokens["alice"],
        "/alice/p",
        "P.",
        kind="project",
        attributes={"name": "p", "status": "idea"},
    )
    r = client.post(
        f"{API}/facts/{fact_id}/update", headers=h, json={"attributes": {"status": "active"}}
    )
    assert r.status_code == 200 and r.json()["attributes"]["status"] == "active"
    events = len(memory.history(fact_id))
    bad = client.post(
        f"{API}/facts", headers=h, json={"path": "/alice/q", "content": "Q.", "kind": "projekt"}
    )
    assert "project" in assert_problem(bad, 400, "invalid_kind")["detail"]
    bad = client.post(
        f"{API}/facts",
        headers=h,
        json={"path": "/alice/q", "content": "Q.", "kind": "project", "attributes": {"name": "q"}},
    )
    assert "status" in assert_problem(bad, 400, "invalid_attribute")["detail"]
    bad = client.post(
        f"{API}/facts/{fact_id}/update", headers=h, json={"attributes": {"status": "busy"}}
    )
    assert "paused" in assert_problem(bad, 400, "invalid_attribute")["detail"]
    bad = client.get(f"{API}/find", params={"kind": "nope"}, headers=h)
    assert_problem(bad, 400, "invalid_kind")
    assert len(memory.history(fact_id)) == events
    assert memory.ls("/alice") == [e for e in memory.ls("/alice") if e.path != "/alice/q"]


def test_confirm_contradict_and_evidence_over_rest(
    client: TestClient, tokens: dict[str, str], memory: Memory
) -> None:
    h = bearer(tokens["alice"])
    fact_id = _store(client, tokens["alice"], "/alice/build", "The build uses uv.")
    before = client.get(f"{API}/facts/{fact_id}", headers=h).json()["confidence"]
    up = client.post(
        f"{API}/facts/{fact_id}/confirm", headers=h, json={"evidence": "quote:Still uv."}
    )
    assert up.status_code == 200, up.text
    assert up.json()["confidence"] > before and up.json()["last_confirmed_at"]
    down = client.post(
        f"{API}/facts/{fact_id}/contradict",
        headers=h,
        json={"reason": "The README says Poetry.", "evidence": "uri:https://example.org/r"},
    )
    assert down.status_code == 200 and down.json()["confidence"] < up.json()["confidence"]
    more = client.post(
        f"{API}/facts/{fact_id}/evidence",
        headers=h,
        json={"evidence": {"type": "document", "value": "ADR 12", "note": "the record"}},
    )
    assert more.status_code == 200, more.text
    detail = client.get(f"{API}/facts/{fact_id}", headers=h).json()
    assert detail["evidence"] == [
        {"type": "quote", "value": "Still uv.", "note": None},
        {"type": "document", "value": "ADR 12", "note": "the record"},
    ]
    events = len(memory.history(fact_id))
    bad = client.post(f"{API}/facts/{fact_id}/evidence", headers=h, json={"evidence": "rumour:x"})
    assert "observation" in assert_problem(bad, 400, "invalid_evidence")["detail"]
    bad = client.post(f"{API}/facts/{fact_id}/contradict", headers=h, json={})
    assert_problem(bad, 422)
    assert len(memory.history(fact_id)) == events


def test_another_subject_may_not_vouch_without_write(
    client: TestClient, tokens: dict[str, str], memory: Memory, alice_fact: str
) -> None:
    """Decision 0033: write on the fact; one the subject may not read is not found."""
    public = _store(
        client, tokens["alice"], "/team/news", "The offsite is in May.", tags=["visibility=public"]
    )
    memory.policy_add("p", ["bob", "path:/team/*", "write", "deny"])
    bob = bearer(tokens["bob"])
    for route, body in (
        ("confirm", {}),
        ("contradict", {"reason": "no"}),
        ("evidence", {"evidence": "quote:so I heard"}),
    ):
        r = client.post(f"{API}/facts/{public}/{route}", headers=bob, json=body)
        assert "write" in assert_problem(r, 403, "access_denied")["detail"]
        r = client.post(f"{API}/facts/{alice_fact}/{route}", headers=bob, json=body)
        assert_problem(r, 404, "not_found")
    assert len(memory.history(public)) == 1 and len(memory.history(alice_fact)) == 1
