"""The review pages never tell a subject that a proposal, conflict or fact it may not read
exists: lists leave them out, their pages and their forms answer as for an id never used,
and the links graph stops at them (decisions 0053, 0055, 0059, 0069)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from embornal import Memory

sys.path.insert(0, str(Path(__file__).parent.parent / "wiki"))
from wiki_helpers import make_app

ABSENT_PROPOSAL = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"
ABSENT_CONFLICT = "K000000000000000"


@pytest.fixture
def world(memory: Memory) -> dict[str, str]:
    for who in ("alice", "bob"):
        for action in ("read", "write", "delete"):
            memory.policy_add("p", [who, "path:/*", action])
    alice = memory.as_subject("alice")
    secret = alice.store("/alice/secret", "Alice's secret plan.", visibility="private")
    shared = alice.store("/alice/shared", "Alice's shared note.")
    alice.link(shared.id, "relates_to", secret.id)
    alice.store(
        "/people/a",
        "Ada Lovelace.",
        kind="person",
        attributes={"full_name": "Ada Lovelace"},
        visibility="private",
    )
    alice.store(
        "/people/b", "ada lovelace.", kind="person", attributes={"full_name": "ada lovelace"}
    )
    (conflict,) = alice.conflicts()
    proposal = alice.propose([{"type": "archive", "fact_id": secret.id}], title="hush")
    return {
        "secret": secret.id,
        "shared": shared.id,
        "conflict": conflict.id,
        "proposal": proposal.id,
    }


def _client(memory: Memory, subject: str) -> TestClient:
    return TestClient(make_app(lambda request: memory.as_subject(subject)))


def _body(text: str) -> str:
    return text.split("</header>", 1)[1]


def test_alice_sees_and_may_decide_what_is_hers(memory: Memory, world: dict[str, str]) -> None:
    with _client(memory, "alice") as c:
        assert world["proposal"] in c.get("/proposals").text
        assert world["conflict"] in c.get("/conflicts").text
        assert c.get(f"/proposal/{world['proposal']}").status_code == 200
        assert c.get(f"/conflict/{world['conflict']}").status_code == 200
        assert f"/fact/{world['secret']}" in c.get(f"/fact/{world['shared']}").text


def test_bob_learns_nothing_of_what_he_may_not_read(memory: Memory, world: dict[str, str]) -> None:
    with _client(memory, "bob") as c:
        for listing in ("/proposals?status=all", "/conflicts?status=all", "/due", "/review"):
            page = c.get(listing)
            assert page.status_code == 200
            for hidden in (world["proposal"], world["conflict"], world["secret"]):
                assert hidden not in page.text, (listing, hidden)
        pairs = [
            (f"/proposal/{world['proposal']}", f"/proposal/{ABSENT_PROPOSAL}"),
            (f"/conflict/{world['conflict']}", f"/conflict/{ABSENT_CONFLICT}"),
            (f"/fact/{world['secret']}", f"/fact/{ABSENT_PROPOSAL}"),
        ]
        for hidden, absent in pairs:
            seen, never = c.get(hidden), c.get(absent)
            assert seen.status_code == never.status_code == 404
            shown = re.sub(r"<b>[^<]*</b>", "", _body(seen.text))
            assert shown == re.sub(r"<b>[^<]*</b>", "", _body(never.text))
        posts = [
            (f"/proposal/{world['proposal']}/approve", f"/proposal/{ABSENT_PROPOSAL}/approve"),
            (f"/conflict/{world['conflict']}/resolve", f"/conflict/{ABSENT_CONFLICT}/resolve"),
            (f"/fact/{world['secret']}/confirm", f"/fact/{ABSENT_PROPOSAL}/confirm"),
        ]
        for hidden, absent in posts:
            data = {"scope": "all", "choice": "both", "reason": "x"}
            seen, never = c.post(hidden, data=data), c.post(absent, data=data)
            assert seen.status_code == never.status_code
            one, other = hidden.split("/")[2], absent.split("/")[2]
            assert _body(seen.text).replace(one, "") == _body(never.text).replace(other, "")
        graph = c.get(f"/fact/{world['shared']}").text
        assert world["secret"] not in graph and 'class="graph"' not in graph
    assert memory.as_subject("alice").proposal(world["proposal"]).status == "open"
