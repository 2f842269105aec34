"""Editing a proposal's items from the wiki: a person changes an item's content, path,
kind or tags, or drops it, before approving (``Memory.edit_proposal``, as
``embornal proposal edit``); a bad form comes back with what was typed; an assistant's
token sees no form and its posts are refused."""

from __future__ import annotations

import re

from review_helpers import SAME_ORIGIN, form_token, local, propose_two, served
from starlette.testclient import TestClient

from embornal import Memory
from embornal.interfaces.http.wiki import TOKEN_COOKIE


def _fields(page: str, action: str, do: str) -> dict[str, str]:
    """The hidden fields of the form on ``page`` that posts to ``action`` with ``do``."""
    for form in re.findall(r"<form\b[^>]*>.*?</form>", page, re.S):
        if f'action="{action}"' in form and f'value="{do}"' in form:
            version = re.search(r'name="version" value="([0-9]+)"', form)
            item = re.search(r'name="item" value="([0-9]+)"', form)
            assert version is not None and item is not None, form
            return {
                "form_token": form_token(form, action),
                "version": version.group(1),
                "item": item.group(1),
                "do": do,
            }
    raise AssertionError(f"no {do} form posts to {action}")


def _edit(c: TestClient, pid: str, number: str, do: str, **typed: str) -> tuple[str, object]:
    page = c.get(f"/proposal/{pid}/item/{number}")
    assert page.status_code == 200, page.text
    action = f"/proposal/{pid}/edit"
    answer = c.post(
        action, data={**_fields(page.text, action, do), **typed}, follow_redirects=False
    )
    return page.text, answer


def test_a_person_changes_an_item_then_approves_what_it_says(memory: Memory) -> None:
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(memory, old.id)
    before = memory.proposal(pid)
    with local(memory) as c:
        page = c.get(f"/proposal/{pid}").text
        assert f'href="/proposal/{pid}/item/1">edit or drop</a>' in page
        assert f'href="/proposal/{pid}/item/2">drop</a>' in page  # an archive: drop only
        form, done = _edit(
            c,
            pid,
            "1",
            "save",
            content="The narwhal has a spiral tusk.",
            path="/notes/whales",
            kind="",
            tags="team=sea, mood=calm",
            reason="more exact",
        )
        assert "The narwhal has a tusk." in form  # the form holds the item as proposed
        assert done.status_code == 303  # type: ignore[attr-defined]
        assert done.headers["location"] == f"/proposal/{pid}?done=edited"  # type: ignore[attr-defined]
        after = c.get(f"/proposal/{pid}?done=edited").text
        assert "Edited:" in after and "spiral tusk" in after
    edited = memory.proposal(pid)
    item = edited.items[0]
    assert (item.number, item.fact_id) == ("1", before.items[0].fact_id)  # same place and id
    assert item.fields["path"] == "/notes/whales" and item.fields["tags"] == [
        "team=sea",
        "mood=calm",
    ]
    assert edited.version == before.version + 1 and len(edited.items) == 2
    memory.approve(pid, items=["1"], version=edited.version)
    (hit,) = memory.recall("spiral tusk")
    assert hit.fact.path == "/notes/whales" and hit.fact.id == item.fact_id
    assert [e for e in memory.history(item.fact_id or "") if e.type == "FactStored"]


def test_a_person_drops_an_item(memory: Memory) -> None:
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(memory, old.id)
    with local(memory) as c:
        page, done = _edit(c, pid, "2", "drop", reason="keep the myth")
        assert "is not changed here" in page  # an archive item: only a drop form
        assert done.status_code == 303  # type: ignore[attr-defined]
    assert [i.number for i in memory.proposal(pid).items] == ["1"]


def test_a_bad_edit_comes_back_with_what_was_typed_and_edits_nothing(memory: Memory) -> None:
    pid = propose_two(memory, memory.store("/notes/animals", "Narwhals are a myth.").id)
    version = memory.proposal(pid).version
    with local(memory) as c:
        _, bad_tag = _edit(
            c, pid, "1", "save", content="Typed with care.", path="/notes", tags="no equals sign"
        )
        assert bad_tag.status_code == 400  # type: ignore[attr-defined]
        text = bad_tag.text  # type: ignore[attr-defined]
        assert 'role="alert"' in text and "key=value" in text
        assert "Typed with care.</textarea>" in text and 'value="no equals sign"' in text
        _, empty = _edit(c, pid, "1", "save", content="  ", path="/notes/x", tags="")
        assert empty.status_code == 400  # type: ignore[attr-defined]
        assert "needs its content" in empty.text  # type: ignore[attr-defined]
        assert 'value="/notes/x"' in empty.text  # type: ignore[attr-defined]
        _, no_path = _edit(c, pid, "1", "save", content="Somewhere.", path="")
        assert no_path.status_code == 400  # type: ignore[attr-defined]
        assert "Somewhere.</textarea>" in no_path.text  # type: ignore[attr-defined]
        page = c.get(f"/proposal/{pid}/item/1").text
        action = f"/proposal/{pid}/edit"
        fields = _fields(page, action, "save")
        memory.edit_proposal(pid, drop=["2"])  # an edit since the page was read
        stale = c.post(action, data={**fields, "content": "Mine, kept.", "path": "/notes"})
        assert stale.status_code == 409 and "changed since you read it" in stale.text
        assert "Mine, kept.</textarea>" in stale.text
        assert c.post(action, data={**fields, "version": "x", "content": "y"}).status_code == 400
    now = memory.proposal(pid)
    assert now.version == version + 1  # only the drop made above
    assert now.items[0].fields["content"] == "The narwhal has a tusk."


def test_an_assistant_sees_no_edit_form_and_its_posts_are_refused(memory: Memory) -> None:
    pid = propose_two(memory, memory.store("/notes/animals", "Narwhals are a myth.").id)
    person = memory.token_add("default", person=True)
    robot = memory.token_add("default")
    action = f"/proposal/{pid}/edit"
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, person.token)
        page = c.get(f"/proposal/{pid}/item/1").text
        fields = {**_fields(page, action, "save"), "content": "By a robot.", "path": "/n"}
        cross = c.post(action, data=fields, headers={"origin": "https://evil.example"})
        assert cross.status_code == 403  # the server's guard, before the page's own
        no_token = c.post(action, data={**fields, "form_token": ""}, headers=SAME_ORIGIN)
        assert no_token.status_code == 403 and "Reload the page" in no_token.text
        c.cookies.set(TOKEN_COOKIE, robot.token)
        shown = c.get(f"/proposal/{pid}").text
        assert "/item/" not in shown and "<form" not in shown.split("</header>", 1)[1]
        item = c.get(f"/proposal/{pid}/item/1")
        assert item.status_code == 403 and "<form" not in item.text.split("</header>", 1)[1]
        refused = c.post(action, data=fields, headers=SAME_ORIGIN)  # its token is not the form's
        assert refused.status_code == 403
    assert memory.proposal(pid).items[0].fields["content"] == "The narwhal has a tusk."
