"""Proposals and retention over REST: the routes, the status codes, problem+json, and the
token (an assistant's) refused a decision unless the policy lets assistants decide, and an
approval of the version read refused once the proposal was edited since."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from http_helpers import API, assert_problem, bearer
from starlette.testclient import TestClient

from embornal import FixedClock, Memory
from embornal.domain.proposals.policy import ProposalPolicy
from embornal.errors import InvalidInput, ProposalChanged
from embornal.interfaces.cli.remote import RemoteMemory
from embornal.interfaces.http.app import create_app
from live_server import live_server


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
    items = [
        {"type": "archive", "fact_id": old.json()["id"], "reason": "gone"},
        {"type": "create", "path": "/alice/n", "content": "New."},
    ]
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


def test_an_approval_names_the_version_read(deciding: tuple[TestClient, str, Memory]) -> None:
    """alice swaps the item of her proposal after default read it: default's approval of
    the version read is a 409, nothing applied; the version read again is approved."""
    client, token, memory = deciding
    alice, default = bearer(token), bearer(memory.token_add("default").token)
    items = [{"type": "create", "path": "/notes/budget", "content": "The budget is fine."}]
    pid = client.post(f"{API}/proposals", headers=alice, json={"items": items}).json()["id"]
    read = client.get(f"{API}/proposals/{pid}", headers=default).json()
    assert read["version"] == 1 and read["items"][0]["fields"]["content"] == items[0]["content"]
    swap = [{"type": "create", "path": "/notes/budget", "content": "Wire the budget to 666."}]
    edited = client.post(
        f"{API}/proposals/{pid}/edit", headers=alice, json={"drop": ["1"], "add": swap}
    )
    assert edited.status_code == 200 and edited.json()["version"] == 2
    stale = client.post(
        f"{API}/proposals/{pid}/approve", headers=default, json={"version": read["version"]}
    )
    assert_problem(stale, 409, "proposal_changed")
    assert "proposal show" in stale.json()["hint"]
    assert memory.recall("wire budget 666", reinforce=False) == []
    assert memory.proposal(pid).status == "open"
    for bad in (0, "1", True):
        wrong = client.post(
            f"{API}/proposals/{pid}/approve", headers=default, json={"version": bad}
        )
        assert wrong.status_code == 422, bad
    again = client.get(f"{API}/proposals/{pid}", headers=default).json()
    done = client.post(
        f"{API}/proposals/{pid}/approve", headers=default, json={"version": again["version"]}
    )
    assert done.status_code == 200 and done.json()["status"] == "approved"


def test_the_race_over_a_real_server_and_the_remote_client(
    db_path: Path, clock: FixedClock
) -> None:
    """Over a socket: alice edits her proposal between default's read and approval; the
    remote client's approval of the version read is refused (ProposalChanged), not applied."""
    policy = ProposalPolicy(assistants_decide=True)
    with Memory.open(db_path, clock=clock, proposals=policy) as memory:
        tokens = {who: memory.token_add(who).token for who in ("alice", "default")}
        with live_server(create_app(memory, mcp=False, wiki=False)) as url:
            alice, default = (RemoteMemory.connect(url, tokens[w]) for w in ("alice", "default"))
            made = alice.propose([{"type": "create", "path": "/notes/b", "content": "Fine."}])
            read = default.proposal(made.id)
            swap = {"type": "create", "path": "/notes/b", "content": "Wire the budget to 666."}
            alice.edit_proposal(made.id, drop=["1"], add=[swap])
            with pytest.raises(ProposalChanged, match="changed since version 1"):
                default.approve(made.id, version=read.version)
            assert default.proposal(made.id).status == "open"
            assert memory.recall("wire budget 666", reinforce=False) == []
            done = default.approve(made.id, version=default.proposal(made.id).version)
            assert done.status == "approved" and done.version == 3


def test_a_persons_token_decides_over_rest_with_its_subjects_rights(
    client: TestClient, memory: Memory
) -> None:
    """Decision 0147: the token's holder is the actor kind; the subject's rights still
    apply (bob, a person, neither reads nor decides alice's proposal)."""
    alice = bearer(memory.token_add("alice", person=True).token)
    robot = bearer(memory.token_add("alice", name="agent").token)
    bob = bearer(memory.token_add("bob", person=True).token)
    me = client.get(f"{API}/whoami", headers=alice).json()
    assert me == {"subject": "alice", "actor_kind": "person"}
    assert client.get(f"{API}/whoami", headers=robot).json()["actor_kind"] == "assistant"
    items = [{"type": "create", "path": "/alice/n", "content": "The okapi note."}]
    made = client.post(f"{API}/proposals", headers=robot, json={"items": items})
    pid = made.json()["id"]
    refused = client.post(f"{API}/proposals/{pid}/approve", headers=robot, json={})
    assert_problem(refused, 403, "access_denied")
    hidden = client.post(f"{API}/proposals/{pid}/approve", headers=bob, json={})
    assert_problem(hidden, 404, "not_found")
    done = client.post(f"{API}/proposals/{pid}/approve", headers=alice, json={"version": 1})
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "approved" and done.json()["decided_by"] == "alice"
    (created,) = memory.proposal(pid).items
    assert created.fact_id is not None
    stored = memory.history(created.fact_id)[0]
    assert (stored.actor, stored.actor_kind) == ("alice", "person")
    second = client.post(f"{API}/proposals", headers=robot, json={"items": items}).json()["id"]
    rejected = client.post(
        f"{API}/proposals/{second}/reject", headers=alice, json={"reason": "once is enough"}
    )
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    wrote = client.post(
        f"{API}/facts", headers=alice, json={"path": "/alice/m", "content": "A person wrote."}
    )
    assert wrote.status_code == 201, wrote.text
    assert memory.history(wrote.json()["id"])[0].actor_kind == "person"


def test_an_item_replaced_in_place_over_rest(client: TestClient, tokens: dict[str, str]) -> None:
    """`replace` keeps the item's number and the id of the fact it makes; a stale `version`
    is 409 `proposal_changed`, an unknown number or a bad item 400: nothing changed."""
    h = bearer(tokens["alice"])
    items = [
        {"type": "create", "path": "/alice/tea", "content": "Likes tea."},
        {"type": "create", "path": "/alice/b", "content": "Second."},
    ]
    made = client.post(f"{API}/proposals", headers=h, json={"items": items}).json()
    url = f"{API}/proposals/{made['id']}/edit"
    green = {"type": "create", "path": "/alice/tea", "content": "Likes green tea."}
    done = client.post(url, headers=h, json={"replace": {"1": green}, "version": 1})
    assert done.status_code == 200, done.text
    after = done.json()
    assert after["version"] == 2 and [i["number"] for i in after["items"]] == ["1", "2"]
    assert after["items"][0]["fact_id"] == made["items"][0]["fact_id"]
    assert after["items"][0]["fields"]["content"] == "Likes green tea."
    stale = client.post(url, headers=h, json={"replace": {"2": green}, "version": 1})
    assert_problem(stale, 409, "proposal_changed")
    unknown = client.post(url, headers=h, json={"replace": {"9": green}})
    assert_problem(unknown, 400, "invalid_input")
    assert "has no item '9' (its items: 1, 2)" in unknown.json()["detail"]
    bad = client.post(url, headers=h, json={"replace": {"1": {"type": "create", "path": "/n"}}})
    assert_problem(bad, 400, "invalid_input")
    for shape in ({"replace": [green]}, {"replace": {"1": green}, "version": 0}):
        assert client.post(url, headers=h, json=shape).status_code == 422, shape
    assert client.get(f"{API}/proposals/{made['id']}", headers=h).json() == after
    body = client.get("/openapi.json").json()["paths"][f"{API}/proposals/{{id}}/edit"]["post"]
    ref = body["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = client.get("/openapi.json").json()["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert {"replace", "version"} <= set(fields["properties"])


def test_an_item_replaced_in_place_by_the_remote_client(db_path: Path, clock: FixedClock) -> None:
    """Over a socket, as `Memory.edit_proposal` does: replaced in place, a stale version
    refused (ProposalChanged), an unknown number refused, nothing changed."""
    with Memory.open(db_path, clock=clock) as memory:
        token = memory.token_add("alice").token
        with live_server(create_app(memory, mcp=False, wiki=False)) as url:
            alice = RemoteMemory.connect(url, token)
            made = alice.propose([{"type": "create", "path": "/alice/tea", "content": "Tea."}])
            green = {"type": "create", "path": "/alice/tea", "content": "Green tea."}
            done = alice.edit_proposal(made.id, replace={"1": green}, version=1)
            (item,) = done.items
            assert (item.number, item.fact_id) == ("1", made.items[0].fact_id)
            assert done.version == 2 and item.fields["content"] == "Green tea."
            with pytest.raises(ProposalChanged, match="changed since version 1"):
                alice.edit_proposal(made.id, replace={"1": green}, version=1)
            with pytest.raises(InvalidInput, match="has no item '9'"):
                alice.edit_proposal(made.id, replace={"9": green})
            assert memory.proposal(made.id) == done
