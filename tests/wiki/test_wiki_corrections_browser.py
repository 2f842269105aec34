"""Corrections from the web in a real headless Chromium against ``embornal serve``
(decision 0158): a person's token logs in on a phone-wide tab, supersedes a fact (an
empty reason first: a visible error, the new text kept) and forgets another; every page
fits 390 px; an assistant's token reads the same fact page without a form.
``pytest -m browser``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_helpers import CHROMIUM, SCREENSHOT

from embornal import Memory
from embornal.interfaces.http.app import LOOPBACK_HOSTS, create_app
from live_server import live_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

PHONE = 390


def _shot(tab: Page, name: str) -> None:
    shot = SCREENSHOT.with_name(f"{SCREENSHOT.stem}-{name}.png")
    shot.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 5_000


def _log_in(tab: Page, url: str, where: str, token: str) -> None:
    tab.context.clear_cookies()
    tab.goto(url + where)
    tab.fill('input[name="token"]', token)
    tab.click('form.login button[type="submit"]')
    tab.wait_for_url(url + where)


def _fits(tab: Page) -> None:
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert isinstance(width, int) and width <= PHONE, (tab.url, width)


def test_a_person_supersedes_and_forgets_an_assistant_reads(
    browser: Browser, memory: Memory
) -> None:
    wrong = memory.store("/notes/animals", "Narwhals are a myth.", tags={"topic": "animals"})
    stale = memory.store("/notes/animals", "Okapis are striped horses.")
    person = memory.token_add("default", person=True).token
    assistant = memory.token_add("default").token
    context = browser.new_context(viewport={"width": PHONE, "height": 844})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(str(m.text)) if m.type == "error" else None)
    try:
        with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
            _log_in(tab, url, f"/fact/{wrong.id}", person)
            _fits(tab)
            _shot(tab, "person-fact-corrections")
            tab.click('summary:has-text("Supersede")')
            box = tab.locator(f'form[action="/fact/{wrong.id}/supersede"]')
            box.locator('textarea[name="content"]').fill("Narwhals are real whales.")
            with tab.expect_response(url + f"/fact/{wrong.id}/supersede") as answer:
                box.locator('button[type="submit"]').click()  # no reason
            assert answer.value.status == 400
            box = tab.locator(f'form[action="/fact/{wrong.id}/supersede"]')
            alert = box.locator('[role="alert"]')
            assert alert.is_visible() and "needs a reason" in alert.inner_text()
            typed = box.locator('textarea[name="content"]').input_value()
            assert typed == "Narwhals are real whales."  # nothing lost
            _fits(tab)
            _shot(tab, "person-supersede-refused")
            box.locator('input[name="reason"]').fill("they are whales")
            with tab.expect_response(url + f"/fact/{wrong.id}/supersede") as answer:
                box.locator('button[type="submit"]').click()
            assert answer.value.status == 303
            tab.wait_for_url("**?done=superseded")
            assert "Superseded" in tab.inner_text('p.notice[role="status"]')
            assert "Narwhals are real whales." in tab.inner_text("p.fact-content")
            _fits(tab)
            _shot(tab, "person-superseded")

            tab.goto(url + f"/fact/{stale.id}")
            tab.click('summary:has-text("Forget")')
            box = tab.locator(f'form[action="/fact/{stale.id}/forget"]')
            box.locator('input[name="reason"]').fill("not true")
            with tab.expect_response(url + f"/fact/{stale.id}/forget") as answer:
                box.locator('button[type="submit"]').click()
            assert answer.value.status == 303
            tab.wait_for_url(url + f"/fact/{stale.id}?done=forgotten")
            assert "Forgotten" in tab.inner_text('p.notice[role="status"]')
            assert tab.locator(f'form[action="/fact/{stale.id}/restore"]').count() == 1
            _fits(tab)
            _shot(tab, "person-forgotten")

            tab.goto(url + "/new?path=/notes/animals")
            assert tab.locator('form[action="/new"]').count() == 1
            _fits(tab)
            _shot(tab, "person-new")

            successor = memory.show(wrong.id).fact.superseded_by
            _log_in(tab, url, f"/fact/{successor}", assistant)
            assert tab.locator("main form").count() == 0
            assert "a person corrects facts here" in tab.inner_text("main")
            _fits(tab)
            _shot(tab, "assistant-fact")
    finally:
        context.close()
    new = memory.show(wrong.id).fact.superseded_by
    assert new is not None
    made = memory.history(new)[-1]
    assert (made.actor, made.actor_kind, made.reason) == ("default", "person", "they are whales")
    gone = memory.history(stale.id)[-1]
    assert (gone.type, gone.actor_kind, gone.reason) == ("FactForgotten", "person", "not true")
    assert len(errors) == 1 and "status of 400" in errors[0]  # the refusal, and only it
