"""A fact's access log on the wiki (decision 0160): the reinforcing recalls that returned
it, with who recalled it and when, and its changes, newest first; the subject's own
recalls, everyone's for the fact's owner; reading the page records nothing."""

from __future__ import annotations

from starlette.testclient import TestClient
from wiki_helpers import make_app

from embornal import FixedClock, Memory


def _main(html: str) -> str:
    return html[html.index("<main") : html.rindex("</main>")]


def test_the_owner_sees_who_recalled_a_fact_and_its_changes(
    memory: Memory, clock: FixedClock
) -> None:
    fact = memory.store("/team/kite", "The kite flew on Tuesday.", tags=["visibility=public"])
    memory.token_add("bob")
    clock.advance(seconds=5)
    memory.recall("kite tuesday")
    clock.advance(seconds=5)
    memory.as_subject("bob").recall("kite tuesday")
    memory.recall("kite tuesday", reinforce=False)  # not recorded: it lifts nothing
    clock.advance(seconds=5)
    memory.pin(fact.id, reason="it matters")
    with TestClient(make_app(lambda request: memory)) as c:
        assert f'href="/fact/{fact.id}/access"' in c.get(f"/fact/{fact.id}").text
        text = _main(c.get(f"/fact/{fact.id}/access").text)
        again = _main(c.get(f"/fact/{fact.id.lower()}/access").text)  # 308 to the full id
    assert text == again
    assert "2 recalls and 2 changes shown" in text
    rows = text.split('<li class="access ')[1:]
    assert [r.split('"', 1)[0] for r in rows] == ["change", "read", "read", "change"]
    assert "pinned (an anchor)" in rows[0] and "why: it matters" in rows[0]
    assert "recalled by" in rows[1] and "bob" in rows[1]
    assert "default" in rows[2] and "stored" in rows[3]
    assert "not shown" not in text
    # reading the page is no recall
    assert len(memory.chronicle.fact_access(fact.id).entries) == 4


def test_another_subject_sees_its_own_recalls_only(memory: Memory) -> None:
    fact = memory.store("/team/kite", "The kite flew on Tuesday.", tags=["visibility=public"])
    private = memory.store("/vault/kite", "The secret kite.")
    memory.token_add("bob")
    bob = memory.as_subject("bob")
    memory.recall("kite tuesday")
    bob.recall("kite tuesday")
    with TestClient(make_app(lambda request: memory.as_subject("bob"))) as c:
        text = _main(c.get(f"/fact/{fact.id}/access").text)
        hidden = c.get(f"/fact/{private.id}/access")
        bad = c.get("/fact/not-an-id!/access")
    assert "1 recall and 1 change shown" in text
    assert "1 recall by other subjects not shown" in text
    assert hidden.status_code == 404 and "secret" not in hidden.text
    assert bad.status_code == 404
