"""`embornal memory wiki` opens only with the key it prints (decision 0135): another user
of the machine reaches the loopback port but gets nothing, neither a fact nor a decision;
and a page of another site cannot make a search lift a fact's strength."""

from __future__ import annotations

import pytest
from review_helpers import LOCAL, form_token, propose_two
from starlette.testclient import TestClient

from embornal import Memory
from embornal.interfaces.http.app import create_app, create_local_wiki_app

KEY = "k" * 43
OWN = {"sec-fetch-site": "same-origin"}


def _owner(memory: Memory) -> TestClient:
    client = TestClient(create_local_wiki_app(memory, key=KEY), base_url=LOCAL)
    opened = client.get(f"/?key={KEY}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    return client


def test_without_the_key_the_local_wiki_gives_nothing(memory: Memory) -> None:
    secret = memory.store("/diary", "zebra private entry", visibility="private")
    pid = propose_two(memory, secret.id)
    owner = _owner(memory)
    page = owner.get(f"/proposal/{pid}").text
    action = f"/proposal/{pid}/approve"
    token = form_token(page, action)  # even a valid form token does not open the door
    stranger = TestClient(create_local_wiki_app(memory, key=KEY), base_url=LOCAL)
    for url in (
        "/",
        "/wiki/diary",
        f"/fact/{secret.id}",
        "/search?q=zebra",
        "/proposals",
        f"/proposal/{pid}",
        "/review",
        f"/?key={'x' * 43}",
    ):
        got = stranger.get(url, headers=OWN, follow_redirects=False)
        assert got.status_code == 401, url
        assert "zebra" not in got.text and secret.id not in got.text and pid not in got.text
        assert "embornal memory wiki" in got.text  # says where the key is
    stranger.cookies.set("embornal_wiki_key_80", "y" * 43)
    done = stranger.post(
        action,
        data={"form_token": token, "scope": "all"},
        headers={"origin": LOCAL, **OWN},
        follow_redirects=False,
    )
    assert done.status_code == 401
    assert memory.proposal(pid).status == "open"
    assert memory.show(secret.id).fact.recall_count == 0


def test_the_printed_url_sets_the_cookie_and_opens_every_page(memory: Memory) -> None:
    secret = memory.store("/diary", "zebra private entry", visibility="private")
    client = TestClient(create_local_wiki_app(memory, key=KEY), base_url=LOCAL)
    opened = client.get(f"/wiki/diary?key={KEY}&x=1", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/wiki/diary?x=1"
    cookie = opened.headers["set-cookie"]
    assert cookie.startswith(f"embornal_wiki_key_80={KEY};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    page = client.get("/wiki/diary")
    assert page.status_code == 200 and "zebra private entry" in page.text
    assert client.get(f"/fact/{secret.id}").status_code == 200
    # The redirect stays on this site, whatever path the key came with.
    away = TestClient(create_local_wiki_app(memory, key=KEY), base_url=LOCAL)
    sent = away.get(f"{LOCAL}//evil.example/?key={KEY}", follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"] == "/"
    # Without a key the app draws one of its own; the URL to print names it.
    drawn = create_local_wiki_app(memory)
    assert len(drawn.state.wiki_key) >= 43 and drawn.state.wiki_key != KEY


@pytest.mark.parametrize(
    ("headers", "lifted"),
    [
        ({"sec-fetch-site": "same-origin"}, True),
        ({"sec-fetch-site": "none"}, True),
        ({"sec-fetch-site": "cross-site"}, False),
        ({"sec-fetch-site": "same-site"}, False),
        ({}, False),
    ],
)
def test_only_the_persons_own_search_is_a_recall(
    memory: Memory, headers: dict[str, str], lifted: bool
) -> None:
    fact = memory.store("/notes", "The narwhal has a tusk.")
    client = _owner(memory)
    found = client.get("/search", params={"q": "narwhal"}, headers=headers)
    assert found.status_code == 200 and "The narwhal has a tusk." in found.text
    assert memory.show(fact.id).fact.recall_count == (1 if lifted else 0)


def test_a_cross_site_search_under_serve_is_no_recall(memory: Memory) -> None:
    fact = memory.store("/notes", "The narwhal has a tusk.")
    token = memory.token_add("default").token
    with TestClient(create_app(memory, mcp=False), base_url="http://127.0.0.1:1338") as c:
        c.cookies.set("embornal_token", token)
        found = c.get("/search", params={"q": "narwhal"}, headers={"sec-fetch-site": "cross-site"})
        assert found.status_code == 200 and "The narwhal has a tusk." in found.text
        assert memory.show(fact.id).fact.recall_count == 0
        c.get("/search", params={"q": "narwhal"}, headers=OWN)
    assert memory.show(fact.id).fact.recall_count == 1
