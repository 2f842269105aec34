"""The history protocol's pages in a real headless Chromium on a phone-sized screen.

Needs Debian's ``chromium`` at /usr/bin/chromium and the ``playwright`` package
(``.ci/browser.sh``); run with ``pytest -m browser``. Under the whole ``serve`` app, a
token logs in; the header then links the pages, and each of them (and a fact's page)
fits 390 px without a horizontal scroll. Each page leaves a screenshot beside the other
browser tests' ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from browser_helpers import CHROMIUM, SCREENSHOT
from test_wiki_history import SECRET, Story, tell
from wiki_helpers import Seeded

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
def phone(browser: Browser) -> Iterator[tuple[Page, list[str]]]:
    """A tab 390 px wide, and the console errors it logged."""
    context = browser.new_context(viewport={"width": PHONE, "height": 844})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(str(m.text)) if m.type == "error" else None)
    try:
        yield tab, errors
    finally:
        context.close()


def test_the_history_pages_fit_a_phone_under_serve(
    phone: tuple[Page, list[str]], memory: Memory, clock: FixedClock, seeded: Seeded
) -> None:
    tab, errors = phone
    story: Story = tell(memory, clock)
    issued = memory.token_add("default")
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        tab.goto(url + "/login")
        assert tab.locator('header a[href="/audit"]').count() == 0  # not before login
        tab.fill('input[name="token"]', issued.token)
        tab.click('form.login button[type="submit"]')
        tab.wait_for_url(url + "/")
        for name in ("Narratives", "Timeline", "Audit"):
            assert tab.locator(f"header nav a:text-is('{name}')").count() == 1
        pages = {
            "narratives": "/narratives",
            "narrative": "/narratives?scope=hopes",
            "timeline": "/timeline",
            "audit": "/audit?action=pin",
            "protocol-fact": f"/fact/{story.kite}",
        }
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        for name, path in pages.items():
            answer = tab.goto(url + path)
            assert answer is not None and answer.status == 200, path
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE, f"{path} is {width} px wide"
            shot = SCREENSHOT.with_name(f"{SCREENSHOT.stem}-history-{name}{SCREENSHOT.suffix}")
            tab.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 5_000
        tab.goto(url + "/audit")
        tab.click("ol.audit a:has-text('pinned (an anchor)')")
        tab.wait_for_url(url + "/audit?action=pin")
        assert "the flight matters" in tab.inner_text("main")
        tab.goto(url + "/narratives")
        assert "a memory it rests on was forgotten" in tab.inner_text("main")
        tab.goto(url + f"/fact/{story.kite}")
        assert "pinned (an anchor)" in tab.inner_text("table.history")
        assert SECRET in tab.content()  # default reads the hidden fact's link: it is there
    assert errors == []
