"""``/list`` and ``/graph`` on a phone (390 px), in a real headless Chromium, under the
whole ``serve`` app with a person's token: the list's filters are filled and sent from the
keyboard (labelled controls, no script), the pager goes on, the graph is narrowed by link
type and a node leads to its fact's page; nothing scrolls sideways. Each step leaves a
screenshot (``-list-*``, ``-graph-*``) beside the other browser tests' ones.

Run with ``pytest -m browser`` (Debian's ``chromium``, the ``playwright`` package)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from browser_helpers import CHROMIUM, SCREENSHOT

from embornal import FixedClock, Memory
from embornal.interfaces.http.app import LOOPBACK_HOSTS, create_app
from live_server import live_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

PHONE = 390


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": PHONE, "height": 844})
    try:
        yield context.new_page()
    finally:
        context.close()


def _shot(tab: Page, name: str) -> None:
    shot = SCREENSHOT.with_name(f"{SCREENSHOT.stem}-{name}{SCREENSHOT.suffix}")
    shot.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 5_000


def _fits(tab: Page) -> None:
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert isinstance(width, int) and width <= PHONE, width


def _fill(memory: Memory, clock: FixedClock) -> str:
    """Sixty facts over three projects, typed links from a hub; the hub's id."""
    hub = memory.store("/projects/alpha", "Alpha is the hub of the other projects.")
    for n in range(60):
        clock.advance(seconds=600)
        fact = memory.store(
            f"/projects/{['alpha', 'beta', 'gamma'][n % 3]}",
            f"Note {n} on the project, a few words long.",
            tags={"topic": "red" if n % 2 else "blue"},
        )
        if n % 4 == 0:
            memory.link(fact.id, "about" if n % 8 == 0 else "relates_to", hub.id)
    return hub.id


def _log_in(tab: Page, url: str, token: str) -> None:
    tab.goto(url + "/login")
    tab.fill('input[name="token"]', token)
    tab.click('form.login button[type="submit"]')
    tab.wait_for_url(url + "/")


def test_the_list_is_filtered_from_the_keyboard_on_a_phone(
    phone: Page, memory: Memory, clock: FixedClock
) -> None:
    _fill(memory, clock)
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        _log_in(phone, url, memory.token_add("default", person=True).token)
        phone.click('header.top a[href="/list"]')
        phone.wait_for_url(url + "/list")
        _fits(phone)
        _shot(phone, "list-all")
        phone.get_by_label("Path", exact=True).fill("/projects/beta")
        phone.keyboard.press("Tab")  # the next control: Kind
        assert phone.evaluate("document.activeElement.name") == "kind"
        phone.get_by_label("Tag", exact=True).fill("topic=red")
        phone.get_by_label("Sort").select_option("oldest")
        phone.get_by_label("Per page").select_option("20")
        phone.get_by_label("Tag", exact=True).press("Enter")  # sends the form, no script
        phone.wait_for_url("**/list?**")
        assert "under=%2Fprojects%2Fbeta" in phone.url and "tag=topic%3Dred" in phone.url
        assert phone.locator("ol.facts > li").count() == 10
        assert "10 facts match" in phone.inner_text("main")
        _fits(phone)
        _shot(phone, "list-filtered")
        phone.goto(url + "/list?size=20")
        phone.click('a[rel="next"]')
        phone.wait_for_url("**page=2**")
        assert "page 2 of 4" in phone.inner_text("main")
        _fits(phone)
        _shot(phone, "list-page-2")


def test_the_graph_is_narrowed_and_leads_to_a_fact_on_a_phone(
    phone: Page, memory: Memory, clock: FixedClock
) -> None:
    hub = _fill(memory, clock)
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        _log_in(phone, url, memory.token_add("default", person=True).token)
        phone.click('header.top a[href="/graph"]')
        phone.wait_for_url(url + "/graph")
        assert phone.locator("svg.map a.node").count() == 16
        box = phone.locator("svg.map").bounding_box()
        assert box is not None and box["width"] <= PHONE
        _fits(phone)
        _shot(phone, "graph-all")
        phone.get_by_label("Link type").select_option("about")
        phone.click('form.filters button[type="submit"]')
        phone.wait_for_url("**relation=about**")
        assert phone.locator("svg.map a.node").count() == 9
        assert "Not drawn: 0 facts and 0 links." in phone.inner_text("main")
        _fits(phone)
        _shot(phone, "graph-about")
        phone.locator(f'svg.map a[href="/fact/{hub}"]').click()
        phone.wait_for_url(f"**/fact/{hub}")
        _fits(phone)
