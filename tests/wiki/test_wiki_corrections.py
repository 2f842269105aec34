"""Corrections from the web (decision 0158): a person stores, supersedes, forgets and
restores, confirms and contradicts, pins and unpins and sets the lifetime of a fact from
its page, through the memory's own calls; an assistant's token, a reader without the
right and a form without this wiki's token change nothing."""

from __future__ import annotations

import re

import pytest
from review_helpers import form_token, local, served
from starlette.testclient import TestClient

from embornal import Memory
from embornal.errors import NotFound
from embornal.interfaces.http.wiki import TOKEN_COOKIE

CONTENT = "The narwhal is a myth."


def _post(
    c: TestClient, page: str, action: str, **fields: str
) -> tuple[int, str, str]:  # status, location, text
    data = {"form_token": form_token(page, action), **fields}
    here = {"origin": str(c.base_url).rstrip("/"), "sec-fetch-site": "same-origin"}
    got = c.post(action, data=data, headers=here, follow_redirects=False)
    return got.status_code, got.headers.get("location", ""), got.text


def _last(memory: Memory, fact_id: str) -> tuple[str, str, str, str | None]:
    ev = memory.history(fact_id)[-1]
    return ev.type, ev.actor, ev.actor_kind, ev.reason


def _nothing_at(memory: Memory, path: str) -> bool:
    try:
        return memory.cat(path) == []
    except NotFound:
        return True


def _after_header(text: str) -> str:
    return text.split("</header>", 1)[1]


def test_a_person_supersedes_a_fact_and_lands_on_the_correction(memory: Memory) -> None:
    old = memory.store("/notes/animals", CONTENT)
    person = memory.token_add("default", person=True)
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, person.token)
        page = c.get(f"/fact/{old.id}").text
        assert "Correct this fact" in page
        assert f">{CONTENT}</textarea>" in page  # the content to edit, as it is
        status, where, _ = _post(
            c,
            page,
            f"/fact/{old.id}/supersede",
            content="The narwhal is real; its tusk is a tooth.",
            reason="checked an encyclopedia",
        )
        assert status == 303
        new_id = where.removeprefix("/fact/").removesuffix("?done=superseded")
        assert new_id != old.id and re.fullmatch(r"[0-9A-Z]{26}", new_id)
        shown = c.get(where).text
        assert "Superseded:" in shown and "its tusk is a tooth" in shown
        assert f'corrects <a class="id" href="/fact/{old.id}">' in shown
    assert memory.show(old.id).fact.state == "superseded"
    stored = memory.history(new_id)[-1]
    assert (stored.actor, stored.actor_kind, stored.reason) == (
        "default",
        "person",
        "checked an encyclopedia",
    )


def test_forget_and_restore_with_a_reason(memory: Memory) -> None:
    fact = memory.store("/notes/animals", CONTENT)
    with local(memory) as c:
        page = c.get(f"/fact/{fact.id}").text
        assert f'action="/fact/{fact.id}/restore"' not in page
        status, where, _ = _post(c, page, f"/fact/{fact.id}/forget", reason="wrong")
        assert (status, where) == (303, f"/fact/{fact.id}?done=forgotten")
        page = c.get(where).text
        assert "Forgotten:" in page
        # a forgotten fact: only restore is offered
        assert f'action="/fact/{fact.id}/supersede"' not in page
        assert _last(memory, fact.id) == ("FactForgotten", "default", "person", "wrong")
        status, where, _ = _post(c, page, f"/fact/{fact.id}/restore", reason="it was right")
        assert (status, where) == (303, f"/fact/{fact.id}?done=restored")
    assert memory.show(fact.id).fact.state == "active"
    assert _last(memory, fact.id)[0] == "FactRestored"


def test_confirm_contradict_pin_unpin_and_lifetime(memory: Memory) -> None:
    fact = memory.store("/notes/animals", CONTENT)
    base = f"/fact/{fact.id}"
    with local(memory) as c:
        page = c.get(base).text
        status, where, _ = _post(c, page, base + "/confirm", back="fact", reason="seen it")
        assert (status, where) == (303, base + "?done=confirmed")
        assert _last(memory, fact.id)[:2] == ("FactConfirmed", "default")
        page = c.get(where).text
        assert "Confirmed:" in page
        status, where, _ = _post(c, page, base + "/contradict", reason="a source disagrees")
        assert (status, where) == (303, base + "?done=contradicted")
        assert _last(memory, fact.id)[0] == "FactContradicted"
        page = c.get(where).text
        assert f'action="{base}/unpin"' not in page
        status, where, _ = _post(c, page, base + "/pin")
        assert (status, where) == (303, base + "?done=pinned")
        assert memory.show(fact.id).pinned
        page = c.get(where).text
        assert f'action="{base}/pin"' not in page  # pinned: the form unpins
        status, where, _ = _post(c, page, base + "/unpin", reason="not so important")
        assert (status, where) == (303, base + "?done=unpinned")
        assert not memory.show(fact.id).pinned
        page = c.get(where).text
        status, where, _ = _post(
            c, page, base + "/lifetime", lifetime="until", until="2099-01-01", reason="a season"
        )
        assert (status, where) == (303, base + "?done=lifetime")
        assert memory.show(fact.id).lifetime == "until:2099-01-01"
        page = c.get(where).text
        assert '<option value="until" selected>' in page and 'value="2099-01-01"' in page
        status, where, _ = _post(c, page, base + "/lifetime", lifetime="permanent")
        assert status == 303 and memory.show(fact.id).lifetime == "permanent"
    kinds = {ev.actor_kind for ev in memory.history(fact.id)[1:]}
    assert kinds == {"person"}


@pytest.mark.parametrize(
    ("verb", "fields", "said"),
    [
        ("supersede", {"content": "", "reason": "typo"}, "content"),
        ("supersede", {"content": "Kept text, typed again.", "reason": " "}, "needs a reason"),
        ("forget", {"reason": ""}, "needs a reason"),
        ("contradict", {"reason": "", "by": ""}, "needs a reason"),
        ("lifetime", {"lifetime": "until", "until": ""}, "until"),
    ],
)
def test_bad_input_shows_the_error_and_keeps_what_was_typed(
    memory: Memory, verb: str, fields: dict[str, str], said: str
) -> None:
    fact = memory.store("/notes/animals", CONTENT)
    before = len(memory.history(fact.id))
    with local(memory) as c:
        page = c.get(f"/fact/{fact.id}").text
        action = f"/fact/{fact.id}/{verb}"
        status, _, text = _post(c, page, action, **fields)
    assert status == 400
    (alert,) = re.findall(r'<p class="notice refused" role="alert">([^<]*)</p>', text)
    assert said in alert
    assert form_token(text, action)  # the form is there again, open, to send once more
    assert re.search(
        rf'<details class="correct" open><summary>[^<]*</summary><form[^>]*'
        rf'action="{action}"',
        text,
    )
    if verb == "supersede" and fields["content"]:
        assert ">Kept text, typed again.</textarea>" in text
    assert len(memory.history(fact.id)) == before  # nothing written
    assert memory.show(fact.id).fact.state == "active"


def test_store_a_new_fact_from_its_page(memory: Memory) -> None:
    with local(memory) as c:
        page = c.get("/new?path=/notes/animals").text
        assert 'name="path" maxlength="4000" value="/notes/animals"' in page
        typed = {
            "path": "/notes/animals",
            "content": "Narwhals live in the Arctic.",
            "kind": "fact",
            "tags": "topic=animals, lang=en",
            "source": "a documentary",
            "attributes": "",
        }
        missing = _post(c, page, "/new", **{**typed, "content": "  "})
        assert missing[0] == 400 and 'role="alert"' in missing[2]
        assert 'value="topic=animals, lang=en"' in missing[2]  # what was typed is kept
        assert 'value="a documentary"' in missing[2]
        bad_kind = _post(c, page, "/new", **{**typed, "kind": "person"})
        assert bad_kind[0] == 400 and "full_name" in bad_kind[2]
        assert '<option value="person" selected>' in bad_kind[2]
        status, where, _ = _post(c, page, "/new", **typed)
        assert status == 303 and where.endswith("?done=stored")
        fact_id = where.removeprefix("/fact/").removesuffix("?done=stored")
        assert "Stored:" in c.get(where).text
        person = _post(
            c,
            page,
            "/new",
            **{**typed, "kind": "person", "attributes": "full_name=Ada Lovelace\n"},
        )
        assert person[0] == 303
    detail = memory.show(fact_id)
    assert detail.fact.content == "Narwhals live in the Arctic."
    assert {str(t) for t in detail.fact.tags} >= {"topic=animals", "lang=en"}
    assert detail.source is not None and detail.source.label == "a documentary"
    first = memory.history(fact_id)[0]
    assert (first.type, first.actor, first.actor_kind) == ("FactStored", "default", "person")
    (ada,) = [f for f in memory.cat("/notes/animals") if f.fact.kind == "person"]
    assert ada.fact.attributes["full_name"] == "Ada Lovelace"


def test_an_assistant_sees_no_form_and_its_post_changes_nothing(memory: Memory) -> None:
    fact = memory.store("/notes/animals", CONTENT)
    robot = memory.token_add("default")
    person = memory.token_add("default", person=True)
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, person.token)
        persons_page = c.get(f"/fact/{fact.id}").text
        persons_new = c.get("/new").text
        c.cookies.set(TOKEN_COOKIE, robot.token)
        page = c.get(f"/fact/{fact.id}")
        assert page.status_code == 200 and CONTENT in page.text
        assert "<form" not in _after_header(page.text)
        assert "a person corrects facts here" in page.text
        assert "<form" not in _after_header(c.get("/new").text)
        for verb, fields in [
            ("forget", {"reason": "robot"}),
            ("supersede", {"content": "Robot text.", "reason": "robot"}),
            ("pin", {}),
        ]:
            status, _, _ = _post(c, persons_page, f"/fact/{fact.id}/{verb}", **fields)
            assert status == 403
        stored = _post(c, persons_new, "/new", path="/notes/robot", content="Robot text.")
        assert stored[0] == 403
    assert [ev.type for ev in memory.history(fact.id)] == ["FactStored"]
    assert _nothing_at(memory, "/notes/robot")


def test_a_reader_without_the_right_sees_no_form_and_is_refused(memory: Memory) -> None:
    fact = memory.store("/notes/animals", CONTENT)
    memory.policy_add("p", ["bob", "path:/*", "read", "allow"])
    bob = memory.token_add("bob", person=True)
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, bob.token)
        page = c.get(f"/fact/{fact.id}")
        assert page.status_code == 200 and CONTENT in page.text
        assert "Correct this fact" not in page.text  # a person, but only a reader
        assert "<form" not in _after_header(page.text)
    assert [ev.type for ev in memory.history(fact.id)] == ["FactStored"]


def test_rights_lost_since_the_page_was_read_refuse_the_form(memory: Memory) -> None:
    """The form token is bob's own; the rights table refuses him (403), nothing written."""
    fact = memory.store("/notes/animals", CONTENT)
    rules = [["bob", "path:/*", action, "allow"] for action in ("read", "write", "delete")]
    for rule in rules:
        memory.policy_add("p", rule)
    bob = memory.token_add("bob", person=True)
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, bob.token)
        page = c.get(f"/fact/{fact.id}").text
        assert f'action="/fact/{fact.id}/forget"' in page  # bob may, for now
        new = c.get("/new").text
        for held in memory.policies():  # bob keeps only his right to read
            if held.ptype == "p" and held.values[0] == "bob" and held.values[2] != "read":
                memory.policy_remove("p", held.values)
        assert "may not store" in c.get("/new").text  # a reader now: no form
        assert "Correct this fact" not in c.get(f"/fact/{fact.id}").text
        for verb, fields in [("forget", {"reason": "bob's"}), ("pin", {})]:
            status, _, text = _post(c, page, f"/fact/{fact.id}/{verb}", **fields)
            assert status == 403 and "may not" in text
        status, _, _ = _post(c, new, "/new", path="/notes/bob", content="Bob was here.")
        assert status == 403
    assert [ev.type for ev in memory.history(fact.id)] == ["FactStored"]
    assert _nothing_at(memory, "/notes/bob")


def test_a_post_without_or_with_a_bad_form_token_changes_nothing(memory: Memory) -> None:
    fact = memory.store("/notes/animals", CONTENT)
    action = f"/fact/{fact.id}/forget"
    with local(memory) as c:
        none = c.post(action, data={"reason": "gone"})
        assert none.status_code == 403 and "Form expired" in none.text
        bad = c.post(action, data={"reason": "gone", "form_token": "0" * 64})
        assert bad.status_code == 403
        page = c.get(f"/fact/{fact.id}").text
        other = form_token(page, f"/fact/{fact.id}/pin")  # a token for another action
        assert c.post(action, data={"reason": "gone", "form_token": other}).status_code == 403
        cross = c.post(
            action,
            data={"reason": "gone", "form_token": form_token(page, action)},
            headers={"origin": "https://evil.example", "sec-fetch-site": "cross-site"},
        )
        assert cross.status_code == 403
        stored = c.post("/new", data={"path": "/notes/x", "content": "X."})
        assert stored.status_code == 403
    assert [ev.type for ev in memory.history(fact.id)] == ["FactStored"]
    assert _nothing_at(memory, "/notes/x")


def test_an_unknown_verb_or_fact_is_not_found(memory: Memory) -> None:
    fact = memory.store("/notes/animals", CONTENT)
    with local(memory) as c:
        page = c.get(f"/fact/{fact.id}").text
        token = form_token(page, f"/fact/{fact.id}/forget")
        assert c.post(f"/fact/{fact.id}/purge", data={"form_token": token}).status_code == 404
    assert memory.show(fact.id).fact.state == "active"
