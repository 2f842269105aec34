"""The wiki and visibility: the pages `embornal serve` shows a token never show a private
fact (a token is an assistant's, even its owner's), with a bearer header or the login
cookie; `embornal memory wiki` (local, the person at the machine) shows it."""

from __future__ import annotations

from review_helpers import local
from starlette.testclient import TestClient

from embornal import Memory
from embornal.interfaces.http.app import create_app


def test_served_pages_never_show_a_private_fact(memory: Memory) -> None:
    token = memory.token_add("alice").token
    alice = memory.as_subject("alice")
    alice.store("/diary", "zebra private entry", visibility="private")
    alice.store("/diary", "zebra shared entry")
    with TestClient(create_app(memory, mcp=False, wiki=True)) as client:
        by_header = client.get("/wiki/diary", headers={"Authorization": f"Bearer {token}"})
        client.cookies.set("embornal_token", token)
        by_cookie = client.get("/wiki/diary")
        search = client.get("/search", params={"q": "zebra"})
    for page in (by_header, by_cookie, search):
        assert page.status_code == 200, page.text
        assert "zebra shared entry" in page.text and "zebra private entry" not in page.text


def test_the_local_wiki_shows_its_owner_a_private_fact(memory: Memory) -> None:
    memory.store("/diary", "zebra private entry", visibility="private")
    with local(memory) as client:
        page = client.get("/wiki/diary")
    assert page.status_code == 200 and "zebra private entry" in page.text
