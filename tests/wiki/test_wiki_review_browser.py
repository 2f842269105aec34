"""The review pages in a real headless Chromium (no script runs on them): approve a
proposal on the page of ``embornal memory wiki`` and find the fact with the console
script; resolve a conflict; confirm a stale fact; follow the links graph; and under
``embornal serve``, on a phone-sized screen, see that an assistant's pages ask a person,
while a person's token edits and approves a proposal, merges a conflict and reads the
claims ledger as of a past time, a withheld narrative and a fact's access log.
``pytest -m browser``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_helpers import CHROMIUM, SCREENSHOT
from review_helpers import ada_twice, propose_two
from test_wiki_history import tell

from embornal import FixedClock, Memory
from embornal.domain.conflicts.aggregate import stream_of
from embornal.interfaces.http.app import LOOPBACK_HOSTS, create_app, create_local_wiki_app
from live_server import live_server

sys.path.insert(0, str(Path(__file__).parent.parent / "cli"))
from cli_helpers import run_cli

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

Tab = tuple["Page", list[str], list[str]]


@pytest.fixture
def home_memory(clock: FixedClock) -> Iterator[Memory]:
    """The memory of this test's EMBORNAL_HOME: the one the console script opens."""
    with Memory.open(clock=clock) as memory:
        yield memory


@pytest.fixture
def wiki_url(home_memory: Memory, page: Tab) -> Iterator[str]:
    """``embornal memory wiki``: the local app, every middleware, under uvicorn; the tab
    has opened the URL it prints (the key's cookie, decision 0135)."""
    app = create_local_wiki_app(home_memory)
    with live_server(app, lifespan="off") as url:
        opened = page[0].goto(f"{url}/?key={app.state.wiki_key}")
        assert opened is not None and opened.status == 200
        yield url


def test_approve_a_proposal_on_the_page_then_show_it(
    wiki_url: str, page: Tab, home_memory: Memory
) -> None:
    tab, dialogs, errors = page
    old = home_memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(home_memory, old.id)
    assert "narwhal has a tusk" not in run_cli("memory", "recall", "tusk").out

    tab.goto(wiki_url + "/")
    tab.click('header.top a[href="/review"]')
    tab.click('a[href="/proposals"]')
    tab.click(f'a[href="/proposal/{pid}"]')
    tab.wait_for_url(wiki_url + f"/proposal/{pid}")
    assert tab.locator('input[type="checkbox"][name="item"]').count() == 2
    tab.uncheck("#check-2")  # decline the archive
    with tab.expect_response(wiki_url + f"/proposal/{pid}/approve") as answer:
        tab.click('button:has-text("Approve the checked items")')
    assert answer.value.status == 303
    tab.wait_for_url(wiki_url + f"/proposal/{pid}?done=approved")
    assert "Approved" in tab.inner_text("p.notice")
    assert tab.locator("#item-1 .badge.fresh").inner_text() == "applied"
    assert tab.locator("#item-2").inner_text().count("declined") == 1
    shot = SCREENSHOT.with_name(SCREENSHOT.stem + "-proposal.png")
    tab.screenshot(path=str(shot), full_page=True)

    (created,) = [i for i in home_memory.proposal(pid).items if i.type == "create"]
    assert created.fact_id is not None
    shown = run_cli("memory", "show", created.fact_id)
    assert shown.code == 0 and "The narwhal has a tusk." in shown.out, shown.err
    assert "The narwhal has a tusk." in run_cli("memory", "recall", "tusk").out
    assert run_cli("--json", "memory", "show", old.id).json()["fact"]["state"] == "active"
    assert dialogs == [] and errors == []


def test_resolve_a_conflict_on_the_page(wiki_url: str, page: Tab, home_memory: Memory) -> None:
    tab, dialogs, errors = page
    cid, a, b = ada_twice(home_memory)
    tab.goto(wiki_url + "/conflicts")
    tab.click(f'a[href="/conflict/{cid}"]')
    tab.wait_for_url(wiki_url + f"/conflict/{cid}")
    assert tab.locator("section.member").count() == 2
    assert "met at the talk" in tab.inner_text(f"#member-{a}")
    boxes = [tab.locator(f"#member-{m}").bounding_box() for m in (a, b)]
    assert boxes[0] is not None and boxes[1] is not None
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 2  # side by side
    tab.check(f'input[name="choice"][value="keep:{a}"]')
    tab.fill('form.resolve input[name="reason"]', "the same person")
    with tab.expect_response(wiki_url + f"/conflict/{cid}/resolve") as answer:
        tab.click('form.resolve button[type="submit"]')
    assert answer.value.status == 303
    tab.wait_for_url(wiki_url + f"/conflict/{cid}?done=resolved")
    assert "Resolved" in tab.inner_text("p.notice")
    assert run_cli("--json", "memory", "show", b).json()["fact"]["state"] == "forgotten"
    assert home_memory.conflict(cid).resolved_by == "default"
    assert dialogs == [] and errors == []


def test_confirm_a_stale_fact_and_follow_the_graph(
    wiki_url: str, page: Tab, home_memory: Memory, clock: FixedClock
) -> None:
    tab, dialogs, errors = page
    doubt = home_memory.store("/notes/status", "The build is green.", confidence=0.2)
    other = home_memory.store("/notes/ci", "CI runs on every push.")
    home_memory.link(doubt.id, "relates_to", other.id)
    clock.advance(days=400)
    tab.goto(wiki_url + "/due")
    with tab.expect_response(wiki_url + f"/fact/{doubt.id}/confirm") as answer:
        tab.click(f"#due-{doubt.id} button")
    assert answer.value.status == 303
    tab.wait_for_url(wiki_url + f"/due?confirmed={doubt.id}")
    assert tab.locator(f"#due-{doubt.id}").count() == 0
    assert home_memory.history(doubt.id)[-1].type == "FactConfirmed"

    tab.goto(wiki_url + f"/fact/{doubt.id}")
    graph = tab.locator("svg.graph")
    assert graph.is_visible()
    tab.click(f'svg.graph a[href="/fact/{other.id}"]')
    tab.wait_for_url(wiki_url + f"/fact/{other.id}")
    assert "CI runs on every push." in tab.inner_text("p.fact-content")
    assert dialogs == [] and errors == []


def test_under_serve_an_assistant_is_asked_to_fetch_a_person(page: Tab, memory: Memory) -> None:
    tab, dialogs, errors = page
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(memory, old.id)
    issued = memory.token_add("default")
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        tab.goto(url + f"/proposal/{pid}")
        tab.fill('input[name="token"]', issued.token)
        tab.click('form.login button[type="submit"]')
        tab.wait_for_url(url + f"/proposal/{pid}")
        assert tab.locator("form.decide").count() == 0
        assert "a person decides" in tab.inner_text("main")
    assert memory.proposal(pid).status == "open"
    assert dialogs == [] and errors == []


def _shot(tab: Page, name: str) -> None:
    shot = SCREENSHOT.with_name(f"{SCREENSHOT.stem}-{name}.png")
    shot.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def _log_in(tab: Page, url: str, where: str, token: str) -> None:
    tab.context.clear_cookies()
    tab.goto(url + where)
    tab.fill('input[name="token"]', token)
    tab.click('form.login button[type="submit"]')
    tab.wait_for_url(url + where)


PHONE = 390


def _step(tab: Page, name: str) -> None:
    """A step of the served scenario: the page fits a phone, and leaves its screenshot."""
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE, f"{tab.url} is {width} px wide"
    _shot(tab, name)


def test_under_serve_a_person_reviews_and_an_assistant_reads_on_a_phone(
    page: Tab, memory: Memory, clock: FixedClock
) -> None:
    """Issue 29's scenario, in a 390 px wide Chromium against `embornal serve` (decision
    0148): a person's token logs in, edits a proposal's item (a bad tag first: the error,
    the text kept), approves the proposal, resolves a conflict by merging (an empty reason
    first: a visible error), reads the claims ledger at an earlier ``as_of``, sees why a
    narrative is withheld, and opens a fact's access log; an assistant's token reads the
    same pages without any form. Every page fits 390 px and leaves a screenshot."""
    tab, dialogs, errors = page
    tab.set_viewport_size({"width": PHONE, "height": 844})
    old = memory.store("/notes/animals", "Narwhals are a myth.")
    pid = propose_two(memory, old.id)
    cid, a, b = ada_twice(memory)
    story = tell(memory, clock)
    before = clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    clock.advance(days=1)
    later = memory.chronicle.create_claim("The kite will fly in spring.", "plan", reason="r")
    person = memory.token_add("default", person=True).token
    assistant = memory.token_add("default").token
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        _log_in(tab, url, f"/proposal/{pid}", person)
        assert tab.locator('input[type="checkbox"][name="item"]').count() == 2
        _step(tab, "person-proposal-open")
        tab.click(f'a[href="/proposal/{pid}/item/1"]')
        tab.wait_for_url(url + f"/proposal/{pid}/item/1")
        tab.fill('form.edit-item textarea[name="content"]', "The narwhal has a spiral tusk.")
        tab.fill('form.edit-item input[name="tags"]', "no equals sign")
        with tab.expect_response(url + f"/proposal/{pid}/edit") as answer:
            tab.click('button:has-text("Save the item")')
        assert answer.value.status == 400
        alert = tab.locator('form.edit-item [role="alert"]')
        assert alert.is_visible() and "key=value" in alert.inner_text()
        typed = tab.input_value('form.edit-item textarea[name="content"]')
        assert typed == "The narwhal has a spiral tusk."  # nothing typed is lost
        _step(tab, "person-item-refused")
        tab.fill('form.edit-item input[name="tags"]', "topic=whales")
        with tab.expect_response(url + f"/proposal/{pid}/edit") as answer:
            tab.click('button:has-text("Save the item")')
        assert answer.value.status == 303
        tab.wait_for_url(url + f"/proposal/{pid}?done=edited")
        assert "Edited" in tab.inner_text("p.notice")
        assert "spiral tusk" in tab.inner_text("#item-1")
        _step(tab, "person-proposal-edited")
        with tab.expect_response(url + f"/proposal/{pid}/approve") as answer:
            tab.click('button:has-text("Approve all")')
        assert answer.value.status == 303
        tab.wait_for_url(url + f"/proposal/{pid}?done=approved")
        assert "Approved" in tab.inner_text("p.notice")
        _step(tab, "person-proposal")

        tab.goto(url + f"/conflict/{cid}")
        merge = tab.locator(f'input[name="choice"][value="merge:{a}"]')
        label = tab.locator("label.choice", has=merge).inner_text()
        assert "merge the others into" in label and "Ada Lovelace wrote the first" in label
        merge.check()
        with tab.expect_response(url + f"/conflict/{cid}/resolve") as answer:
            tab.click('form.resolve button[type="submit"]')  # no reason
        assert answer.value.status == 400
        alert = tab.locator('form.resolve [role="alert"]')
        assert alert.is_visible() and "needs a reason" in alert.inner_text()
        _step(tab, "person-conflict-refused")
        assert tab.is_checked(f'input[name="choice"][value="merge:{a}"]')  # kept as chosen
        tab.fill('form.resolve input[name="reason"]', "one person, twice")
        with tab.expect_response(url + f"/conflict/{cid}/resolve") as answer:
            tab.click('form.resolve button[type="submit"]')
        assert answer.value.status == 303
        tab.wait_for_url(url + f"/conflict/{cid}?done=resolved")
        assert "Resolved" in tab.inner_text("p.notice")
        _step(tab, "person-conflict")

        tab.goto(url + "/claims?status=all")
        assert "The kite will fly in spring." in tab.inner_text("main")
        tab.fill('input[name="as_of"]', before)
        tab.click('form.search button:has-text("Read")')
        tab.wait_for_url(url + "/claims?*as_of=*")
        ledger = tab.inner_text("main")
        assert "As recorded at" in ledger and "The kite flies." in ledger
        assert "The kite will fly in spring." not in ledger  # recorded later
        _step(tab, "person-claims-as-of")
        tab.goto(url + "/narratives?scope=hopes")
        assert "a memory it rests on was forgotten" in tab.inner_text("main")
        _step(tab, "person-narrative-withheld")
        tab.fill('header input[name="q"]', "kite flew Tuesday")  # a search is a recall
        tab.press('header input[name="q"]', "Enter")
        tab.wait_for_url(url + "/search?*")
        tab.click(f'main a[href="/fact/{story.kite}"]')
        tab.wait_for_url(url + f"/fact/{story.kite}")
        tab.click(f'a[href="/fact/{story.kite}/access"]')
        tab.wait_for_url(url + f"/fact/{story.kite}/access")
        log = tab.inner_text("main")
        assert "1 recall and" in log and "pinned (an anchor)" in log
        assert "recalled" in tab.inner_text("li.access.read")
        _step(tab, "person-access-log")

        other = memory.store("/notes/animals", "Okapis live in the Congo.")
        second = propose_two(memory, other.id)
        _log_in(tab, url, f"/proposal/{second}", assistant)
        assert "a person decides" in tab.inner_text("main")
        assert tab.locator(f'a[href="/proposal/{second}/item/1"]').count() == 0
        assert tab.locator("main form").count() == 0
        _step(tab, "assistant-proposal")
        refused = tab.goto(url + f"/proposal/{second}/item/1")
        assert refused is not None and refused.status == 403
        assert tab.locator("main form").count() == 0
        for name, where in (
            ("conflict", f"/conflict/{cid}"),
            ("claims-as-of", f"/claims?status=all&as_of={before}"),
            ("narrative-withheld", "/narratives?scope=hopes"),
            ("fact", f"/fact/{story.kite}"),
            ("access-log", f"/fact/{story.kite}/access"),
        ):
            shown = tab.goto(url + where)
            assert shown is not None and shown.status == 200, where
            assert tab.locator("main form[method=post]").count() == 0, where
            _step(tab, f"assistant-{name}")
    record = memory.conflict(cid)
    assert (record.outcome, record.reason) == ("merge", "one person, twice")
    assert memory.show(b).fact.state == "forgotten"
    approved = memory.proposal(pid)
    assert approved.decided_by == "default" and approved.items[0].applied is True
    assert [h.fact.id for h in memory.recall("spiral tusk")] == [approved.items[0].fact_id]
    assert memory.proposal(second).status == "open" and later.id
    (*_, decided) = memory._store.read_stream(stream_of(cid))
    assert decided.actor_kind == "person"
    assert dialogs == []
    assert len(errors) == 3 and all("status of 4" in e for e in errors)  # the refusals
