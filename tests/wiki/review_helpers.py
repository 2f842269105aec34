"""What the review page tests share: the local and the served app, forms and their tokens."""

from __future__ import annotations

import re
from html import unescape

from starlette.testclient import TestClient

from embornal import Memory
from embornal.interfaces.http.app import LOOPBACK_HOSTS, create_app, create_local_wiki_app

LOCAL = "http://127.0.0.1"
SERVED = "http://127.0.0.1:1338"
LOCAL_KEY = "test-key-" + "0" * 34
SAME_ORIGIN = {"origin": SERVED, "sec-fetch-site": "same-origin"}


def local(memory: Memory) -> TestClient:
    """``embornal memory wiki``: the default subject, a person, opened with its key."""
    client = TestClient(create_local_wiki_app(memory, key=LOCAL_KEY), base_url=LOCAL)
    assert client.get(f"/?key={LOCAL_KEY}", follow_redirects=False).status_code == 303
    return client


def served(memory: Memory) -> TestClient:
    """``embornal serve``: the token's subject, an assistant (decision 0039)."""
    app = create_app(memory, mcp=False, allowed_hosts=LOOPBACK_HOSTS)
    return TestClient(app, base_url=SERVED)


def form_token(page: str, action: str) -> str:
    """The hidden form token of the form (or forms) posting to ``action``."""
    for form in re.findall(r"<form\b[^>]*>.*?</form>", page, re.S):
        if f'action="{action}"' in form:
            found = re.search(r'name="form_token" value="([^"]+)"', form)
            assert found is not None, form
            return unescape(found.group(1))
    raise AssertionError(f"no form posts to {action}")


def approve_form(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the approve form posting to ``action``: its form token and
    the version of the proposal the page showed."""
    for form in re.findall(r"<form\b[^>]*>.*?</form>", page, re.S):
        if f'action="{action}"' in form:
            found = re.search(r'name="version" value="([0-9]+)"', form)
            assert found is not None, form
            return {"form_token": form_token(page, action), "version": found.group(1)}
    raise AssertionError(f"no form posts to {action}")


def propose_two(memory: Memory, keep_id: str) -> str:
    """A proposal of a created fact (item 1) and the archive of ``keep_id`` (item 2)."""
    return memory.propose(
        [
            {"type": "create", "path": "/notes/animals", "content": "The narwhal has a tusk."},
            {"type": "archive", "fact_id": keep_id, "reason": "outdated"},
        ],
        title="from a conversation",
    ).id


def ada_twice(memory: Memory) -> tuple[str, str, str]:
    """Two person facts of one name (a duplicate found at store): (conflict, first, second)."""
    a = memory.store(
        "/people/ada",
        "Ada Lovelace wrote the first program.",
        kind="person",
        attributes={"full_name": "Ada Lovelace"},
        evidence=["conversation:met at the talk"],
    )
    b = memory.store(
        "/people/ada2",
        "Ada Lovelace, mathematician.",
        kind="person",
        attributes={"full_name": "ada lovelace"},
    )
    (conflict,) = memory.conflicts()
    return conflict.id, a.id, b.id
