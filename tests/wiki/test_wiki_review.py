"""The review pages over HTTP: proposals, conflicts, due for review, the links graph; the
form token, the cross-site guard, and who decides on which page (decision 0069)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from review_helpers import (
    SAME_ORIGIN,
    ada_twice,
    approve_form,
    form_token,
    local,
    propose_two,
    served,
)

from embornal import FixedClock, Memory
from embornal.domain.conflicts.aggregate import stream_of
from embornal.domain.proposals.policy import ProposalPolicy
from embornal.errors import NotFound
from embornal.interfaces.http.wiki import TOKEN_COOKIE

SVG = "{http://www.w3.org/2000/svg}"


def _recalls(memory: Memory, words: str) -> list[str]:
    return [h.fact.content for h in memory.recall(words)]


# -------------------------------------------------------------------------- proposals


def test_approve_the_checked_items_of_a_proposal(memory: Memory) -> None:
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(memory, old.id)
    with local(memory) as c:
        listed = c.get("/proposals")
        assert listed.status_code == 200 and f'href="/proposal/{pid}"' in listed.text
        assert "from a conversation" in listed.text
        page = c.get(f"/proposal/{pid}")
        assert page.status_code == 200
        assert page.text.count('type="checkbox" form="approve" name="item"') == 2
        assert "Narwhals are a myth." in page.text  # the archived fact as it is now
        assert _recalls(memory, "tusk") == []  # a draft is not recallable
        action = f"/proposal/{pid}/approve"
        done = c.post(
            action,
            data={**approve_form(page.text, action), "item": ["1"], "scope": "chosen"},
            follow_redirects=False,
        )
        assert done.status_code == 303 and done.headers["location"].endswith("?done=approved")
        after = c.get(done.headers["location"])
        assert "Approved" in after.text and "declined" in after.text
        assert 'type="checkbox"' not in after.text  # decided: no form any more
    assert _recalls(memory, "tusk") == ["The narwhal has a tusk."]
    assert memory.show(old.id).fact.state == "active"  # item 2 was declined
    shown = memory.proposal(pid)
    assert shown.status == "approved" and shown.decided_by == "default"
    assert [i.applied for i in shown.items] == [True, False]
    made = memory.recall("tusk")[0].fact.id
    with local(memory) as c:  # the applied item links to the fact it made
        assert f'made <a class="id" href="/fact/{made}">' in c.get(f"/proposal/{pid}").text


def test_an_applied_item_names_no_fact_its_reader_may_not_read(memory: Memory) -> None:
    pid = propose_two(memory, memory.store("/notes/animals", "Narwhals are a myth.").id)
    memory.approve(pid, items=["1"])
    made = memory.recall("tusk")[0].fact.id
    memory.set_visibility(made, "private", reason="mine")
    memory.policy_add("p", ["bob", "path:/*", "read", "allow"])
    bob = memory.token_add("bob", person=True)
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, bob.token)
        page = c.get(f"/proposal/{pid}")
    assert page.status_code == 200 and "The narwhal has a tusk." in page.text
    assert made not in page.text  # the item is shown, the private fact it made is not


def test_approve_all_reject_and_bad_forms(memory: Memory) -> None:
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    first = propose_two(memory, old.id)
    second = propose_two(memory, old.id)
    with local(memory) as c:
        page = c.get(f"/proposal/{first}").text
        approve, reject = f"/proposal/{first}/approve", f"/proposal/{first}/reject"
        none_checked = c.post(approve, data={"form_token": form_token(page, approve)})
        assert none_checked.status_code == 400 and "no item is checked" in none_checked.text
        no_reason = c.post(reject, data={"form_token": form_token(page, reject), "reason": " "})
        assert no_reason.status_code == 400
        assert memory.proposal(first).status == "open"  # nothing was written
        fields = approve_form(page, approve)
        done = c.post(approve, data={**fields, "scope": "all"})
        assert done.status_code == 200 and memory.show(old.id).fact.state == "forgotten"
        again = c.post(approve, data={**fields, "scope": "all"})
        assert again.status_code == 409 and "only an open one" in again.text

        page = c.get(f"/proposal/{second}").text
        reject = f"/proposal/{second}/reject"
        out = c.post(
            reject,
            data={"form_token": form_token(page, reject), "reason": "not now"},
            follow_redirects=False,
        )
        assert out.status_code == 303 and out.headers["location"].endswith("?done=rejected")
    rejected = memory.proposal(second)
    assert rejected.status == "rejected" and rejected.reason == "not now"


@pytest.mark.parametrize("scope", ["all", "chosen"])
def test_an_approval_applies_the_version_its_page_showed(memory: Memory, scope: str) -> None:
    memory.token_add("alice")
    alice = memory.as_subject("alice")
    pid = alice.propose([{"type": "create", "path": "/notes/budget", "content": "Budget ok."}]).id
    with local(memory) as c:
        page = c.get(f"/proposal/{pid}").text
        action = f"/proposal/{pid}/approve"
        fields = approve_form(page, action)
        assert fields["version"] == "1"
        swap = {"type": "create", "path": "/notes/budget", "content": "Wire the budget to 666."}
        alice.edit_proposal(pid, drop=["1"], add=[swap])  # its item 2
        chosen = {"scope": scope, "item": ["1", "2"]}
        stale = c.post(action, data={**fields, **chosen})
        assert stale.status_code == 409 and "Changed since you read it" in stale.text
        assert f'href="/proposal/{pid}"' in stale.text.split("</header>", 1)[1]
        unnamed = c.post(action, data={"form_token": fields["form_token"], **chosen})
        assert unnamed.status_code == 400 and "which version" in unnamed.text
        assert memory.recall("wire budget 666", reinforce=False) == []
        assert memory.proposal(pid).status == "open"
        page = c.get(f"/proposal/{pid}").text
        assert "Wire the budget to 666." in page
        done = c.post(action, data={**approve_form(page, action), "scope": "all"})
        assert done.status_code == 200
    assert memory.proposal(pid).status == "approved"


def test_a_form_needs_its_token_and_this_site(memory: Memory) -> None:
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(memory, old.id)
    other = propose_two(memory, old.id)
    with local(memory) as c:
        page = c.get(f"/proposal/{pid}").text
        action = f"/proposal/{pid}/approve"
        token = form_token(page, action)
        missing = c.post(action, data={"scope": "all"})
        assert missing.status_code == 403 and "Reload the page" in missing.text
        forged = c.post(action, data={"scope": "all", "form_token": "0" * 64})
        assert forged.status_code == 403
        elsewhere = c.post(f"/proposal/{other}/approve", data={"scope": "all", "form_token": token})
        assert elsewhere.status_code == 403  # a token is for one form's action
        foreign = c.post(
            action,
            data={"scope": "all", "form_token": token},
            headers={"origin": "https://evil.example", "sec-fetch-site": "cross-site"},
        )
        assert foreign.status_code == 403
    assert memory.proposal(pid).status == memory.proposal(other).status == "open"


def test_served_pages_read_as_an_assistant_who_asks_a_person(memory: Memory) -> None:
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(memory, old.id)
    issued = memory.token_add("default")
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, issued.token)
        page = c.get(f"/proposal/{pid}")
        assert page.status_code == 200
        assert "<form" not in page.text.split("</header>", 1)[1]  # no decision form
        assert "a person decides" in page.text and f"embornal proposal approve {pid}" in page.text
        # Posted anyway (the form is the local wiki's): the memory refuses it.
        local_page = local(memory).get(f"/proposal/{pid}").text
        action = f"/proposal/{pid}/approve"
        tried = c.post(
            action,
            data={"scope": "all", "form_token": form_token(local_page, action)},
            headers=SAME_ORIGIN,
        )
        assert tried.status_code == 403
    assert memory.proposal(pid).status == "open"


def test_served_pages_decide_when_assistants_may(db_path: object, clock: FixedClock) -> None:
    policy = ProposalPolicy(assistants_decide=True)
    with Memory.open(db_path, clock=clock, proposals=policy) as memory:  # type: ignore[arg-type]
        old = memory.store("/notes/animals", "Narwhals are a myth.")
        pid = propose_two(memory, old.id)
        issued = memory.token_add("default")
        with served(memory) as c:
            c.cookies.set(TOKEN_COOKIE, issued.token)
            page = c.get(f"/proposal/{pid}").text
            action = f"/proposal/{pid}/approve"
            done = c.post(
                action,
                data={**approve_form(page, action), "item": "1"},
                headers=SAME_ORIGIN,
                follow_redirects=False,
            )
            assert done.status_code == 303
        (created,) = [i for i in memory.proposal(pid).items if i.type == "create"]
        assert created.fact_id is not None
        stored = memory.history(created.fact_id)[0]
        assert stored.actor == "default" and stored.actor_kind == "assistant"


# -------------------------------------------------------------------------- conflicts


def test_a_conflict_side_by_side_and_resolved_by_keeping_one(memory: Memory) -> None:
    cid, a, b = ada_twice(memory)
    with local(memory) as c:
        listed = c.get("/conflicts").text
        assert f'href="/conflict/{cid}"' in listed
        page = c.get(f"/conflict/{cid}").text
        sections = re.findall(r'<section class="member" id="member-(\w+)"', page)
        assert sections == [a, b] or sections == [b, a]
        assert "met at the talk" in page and "confidence" in page and "c_eff" in page
        action = f"/conflict/{cid}/resolve"
        no_reason = c.post(
            action,
            data={"form_token": form_token(page, action), "choice": f"keep:{a}", "reason": ""},
        )
        assert no_reason.status_code == 400
        done = c.post(
            action,
            data={
                "form_token": form_token(page, action),
                "choice": f"keep:{a}",
                "reason": "the same person",
            },
            follow_redirects=False,
        )
        assert done.status_code == 303
        after = c.get(done.headers["location"]).text
        assert "Resolved" in after and 'name="choice"' not in after
        again = c.post(
            action,
            data={"form_token": form_token(page, action), "choice": "both", "reason": "twice"},
        )
        assert again.status_code == 409
    assert memory.show(b).fact.state == "forgotten" and memory.show(a).fact.state == "active"
    assert memory.conflict(cid).reason == "the same person"


def test_keep_both(memory: Memory) -> None:
    cid, a, b = ada_twice(memory)
    with local(memory) as c:
        page = c.get(f"/conflict/{cid}").text
        action = f"/conflict/{cid}/resolve"
        done = c.post(
            action,
            data={"form_token": form_token(page, action), "choice": "both", "reason": "two people"},
        )
        assert done.status_code == 200
    assert memory.conflict(cid).outcome == "both"
    assert {memory.show(a).fact.state, memory.show(b).fact.state} == {"active"}


# ------------------------------------------------------------------------ due, review


def test_due_for_review_and_confirm(memory: Memory, clock: FixedClock) -> None:
    stale = memory.store("/notes/status", "The build is green.", confidence=0.2)
    clock.advance(days=400)
    assert stale.id in [d.fact.id for d in memory.due(limit=100)]
    with local(memory) as c:
        page = c.get("/due").text
        assert f'id="due-{stale.id}"' in page
        action = f"/fact/{stale.id}/confirm"
        done = c.post(
            action,
            data={"form_token": form_token(page, action), "reason": "checked"},
            follow_redirects=False,
        )
        assert done.status_code == 303 and done.headers["location"] == f"/due?confirmed={stale.id}"
        after = c.get(done.headers["location"]).text
        assert "Confirmed" in after and f'id="due-{stale.id}"' not in after
        review = c.get("/review").text
        assert "Due for review" in review and 'href="/proposals"' in review
    assert stale.id not in [d.fact.id for d in memory.due(limit=100)]
    assert memory.history(stale.id)[-1].reason == "checked"


# -------------------------------------------------------------------------- the graph


def _graph(page: str) -> ET.Element:
    (found,) = re.findall(r'<svg\b[^>]*class="graph".*?</svg>', page, re.S)
    return ET.fromstring(found)


def test_the_fact_page_draws_its_links_as_a_graph(memory: Memory) -> None:
    kite = memory.store(
        "/projects/kite",
        "Kite <ships> in March.",
        kind="project",
        attributes={"name": "Kite", "status": "active"},
    )
    ada = memory.store(
        "/people/ada", "Ada leads Kite.", kind="person", attributes={"full_name": "Ada"}
    )
    acme = memory.store(
        "/orgs/acme", "Acme builds kites.", kind="organization", attributes={"name": "Acme"}
    )
    memory.link(kite.id, "involves", ada.id)
    memory.link(ada.id, "works_at", acme.id)
    with local(memory) as c:
        page = c.get(f"/fact/{kite.id}").text
        lonely = c.get(f"/fact/{acme.id}").text
    svg = _graph(page)
    hrefs = {a.attrib["href"] for a in svg.iter(f"{SVG}a")}
    assert hrefs == {f"/fact/{ada.id}", f"/fact/{acme.id}"}  # depth 2 reached Acme
    labels = [t.text for t in svg.iter(f"{SVG}text")]
    assert "involves" in labels and "works_at" in labels and "Kite <ships> in March." in labels
    assert 'class="graph"' in lonely  # Acme sees Ada, then Kite, two links away
    assert "style=" not in page


def test_a_graph_of_two_facts_is_sized_to_its_content(memory: Memory) -> None:
    kite = memory.store("/projects/kite", "Kite ships in March.")
    note = memory.store("/notes/kite", "The kite is red.")
    memory.link(kite.id, "relates_to", note.id)
    with local(memory) as c:
        svg = _graph(c.get(f"/fact/{kite.id}").text)
    width, height = float(svg.attrib["width"]), float(svg.attrib["height"])
    assert width <= 200 and height <= 200, svg.attrib  # not a 640 x 440 empty box
    left, top, box_w, box_h = (float(v) for v in svg.attrib["viewBox"].split())
    for circle in svg.iter(f"{SVG}circle"):
        assert left < float(circle.attrib["cx"]) < left + box_w
        assert top < float(circle.attrib["cy"]) < top + box_h


def test_search_and_review_are_in_the_header_only_after_login_under_serve(
    memory: Memory,
) -> None:
    token = memory.token_add("default", person=True).token
    with served(memory) as c:
        before = c.get("/login").text
        c.cookies.set(TOKEN_COOKIE, token)
        after = c.get("/login").text
    assert 'class="search"' not in before and 'href="/review"' not in before
    assert 'class="search"' in after and 'href="/review"' in after
    with local(memory) as c:  # no login there: the header is whole, even on a 404
        missing = c.get("/fact/01KCZ8Q3W5R7T9V1X3Z5B7D9F1")
    assert missing.status_code == 404
    assert 'class="search"' in missing.text and 'href="/review"' in missing.text


def test_a_fact_without_links_has_no_graph(memory: Memory) -> None:
    alone = memory.store("/notes/alone", "Nothing links here.")
    with local(memory) as c:
        page = c.get(f"/fact/{alone.id}").text
    assert 'class="graph"' not in page and "No typed link" in page


def test_unknown_ids_are_404(memory: Memory) -> None:
    with local(memory) as c:
        for url in (
            "/proposal/01KCZ8Q3W5R7T9V1X3Z5B7D9F1",
            "/conflict/K000000000000000",
            "/proposal/bad!id",
            "/conflict/--",
        ):
            assert c.get(url).status_code == 404, url
    with pytest.raises(NotFound):
        memory.proposal("01KCZ8Q3W5R7T9V1X3Z5B7D9F1")


def test_under_serve_a_persons_token_merges_and_an_assistants_reads(memory: Memory) -> None:
    """Decision 0148: a person's token decides on the served pages, with its subject's
    rights; an assistant's token reads the same pages without a form."""
    cid, a, b = ada_twice(memory)
    person = memory.token_add("default", person=True)
    robot = memory.token_add("default")
    bob = memory.token_add("bob", person=True)
    action = f"/conflict/{cid}/resolve"
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, robot.token)
        read = c.get(f"/conflict/{cid}").text
        assert "<form" not in read.split("</header>", 1)[1]
        assert "a person decides here" in read and "token add SUBJECT --person" in read
        c.cookies.set(TOKEN_COOKIE, bob.token)
        assert c.get(f"/conflict/{cid}").status_code == 404  # bob's rights: not his facts
        c.cookies.set(TOKEN_COOKIE, person.token)
        page = c.get(f"/conflict/{cid}").text
        # each choice says which fact by its text, the merge choice as on the command line
        assert "<b>keep</b> “Ada Lovelace wrote the first program.”" in page
        assert f'value="merge:{a}"' in page and "<b>merge</b> the others into" in page
        token = form_token(page, action)
        empty = c.post(
            action, data={"form_token": token, "choice": f"merge:{a}"}, headers=SAME_ORIGIN
        )
        assert empty.status_code == 400
        assert 'role="alert"' in empty.text and "a resolution needs a reason" in empty.text
        assert form_token(empty.text, action)  # the form is there again, to send once more
        no_choice = c.post(
            action, data={"form_token": token, "reason": "same"}, headers=SAME_ORIGIN
        )
        assert no_choice.status_code == 400 and "choose the fact" in no_choice.text
        assert memory.conflict(cid).status == "open"
        c.cookies.set(TOKEN_COOKIE, robot.token)
        sent = {"form_token": token, "choice": f"merge:{a}", "reason": "one person"}
        assert c.post(action, data=sent, headers=SAME_ORIGIN).status_code == 403
        assert memory.conflict(cid).status == "open"
        c.cookies.set(TOKEN_COOKIE, person.token)
        done = c.post(action, data=sent, headers=SAME_ORIGIN, follow_redirects=False)
        assert done.status_code == 303
    record = memory.conflict(cid)
    assert record.outcome == "merge" and record.resolved_by == "default"
    assert memory.show(a).fact.state == "active" and memory.show(b).fact.state == "forgotten"
    (*_, decided) = memory._store.read_stream(stream_of(cid))
    assert decided.actor_kind == "person"


def test_under_serve_a_persons_token_approves_a_proposal(memory: Memory) -> None:
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(memory, old.id)
    issued = memory.token_add("default", person=True)
    with served(memory) as c:
        c.cookies.set(TOKEN_COOKIE, issued.token)
        page = c.get(f"/proposal/{pid}").text
        assert "a person decides" not in page
        action = f"/proposal/{pid}/approve"
        done = c.post(
            action,
            data={**approve_form(page, action), "item": "1", "reason": "seen it"},
            headers=SAME_ORIGIN,
            follow_redirects=False,
        )
        assert done.status_code == 303
    decided = memory.proposal(pid)
    assert decided.status == "approved" and decided.decided_by == "default"
    (created,) = [i for i in decided.items if i.type == "create"]
    assert created.fact_id is not None
    assert memory.history(created.fact_id)[0].actor_kind == "person"
