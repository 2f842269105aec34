"""Every wiki page on a phone, in light and dark, in a real headless Chromium.

Needs Debian's ``chromium`` at /usr/bin/chromium and the ``playwright`` package
(``.ci/browser.sh``); run with ``pytest -m browser``. Under the whole ``serve`` app a
person's token logs in, then each page (the tree, a search, a fact with long content,
path, tags and links, the review pages, /due, /claims, /login) fits 390 px without a
horizontal scroll; the same pages in a dark colour scheme have a dark background and
light text; before login the header offers only the login form. Each page leaves a
screenshot (``-layout-*``, ``-dark-*``) beside the other browser tests' ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

import pytest
from browser_helpers import CHROMIUM, SCREENSHOT
from review_helpers import ada_twice, propose_two
from test_wiki_history import tell

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
LONG_PATH = "/projects/" + "/".join(f"a-rather-long-segment-{i}" for i in range(5))
LONG_WORD = "supercalifragilistic" * 6


def _phone(browser: Browser, scheme: Literal["light", "dark"]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": PHONE, "height": 844}, color_scheme=scheme)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def light(browser: Browser) -> Iterator[Page]:
    """A tab 390 px wide in the light colour scheme."""
    yield from _phone(browser, "light")


@pytest.fixture
def dark(browser: Browser) -> Iterator[Page]:
    """A tab 390 px wide in the dark colour scheme."""
    yield from _phone(browser, "dark")


def _pages(memory: Memory, clock: FixedClock) -> dict[str, str]:
    """A memory with something on every page; the pages to visit, by name."""
    tell(memory, clock)
    long = memory.store(
        LONG_PATH,
        "A fact with a very long word " + LONG_WORD + " and a URL "
        "https://example.org/" + "x" * 90 + " in it. " + "Plain words follow. " * 30,
        tags={f"topic{i}": f"{LONG_WORD[:40]}-{i}" for i in range(4)},
        kind="project",
        attributes={"name": LONG_WORD, "status": "active"},
    )
    other = memory.store(
        "/people/ada", "Ada leads the project.", kind="person", attributes={"full_name": "Ada"}
    )
    memory.link(long.id, "involves", other.id)
    doubt = memory.store("/notes/status", "The build is green.", confidence=0.2)
    pid = propose_two(memory, doubt.id)
    cid, _, _ = ada_twice(memory)
    clock.advance(days=400)
    return {
        "tree": "/",
        "search": "/search?q=project",
        "fact": f"/fact/{long.id}",
        "graph": f"/fact/{other.id}",
        "path": "/wiki" + LONG_PATH,
        "review": "/review",
        "proposals": "/proposals",
        "proposal": f"/proposal/{pid}",
        "conflicts": "/conflicts",
        "conflict": f"/conflict/{cid}",
        "due": "/due",
        "claims": "/claims",
    }


def _log_in(tab: Page, url: str, token: str) -> None:
    tab.goto(url + "/login")
    tab.fill('input[name="token"]', token)
    tab.click('form.login button[type="submit"]')
    tab.wait_for_url(url + "/")


def _shot(tab: Page, name: str) -> None:
    shot = SCREENSHOT.with_name(f"{SCREENSHOT.stem}-{name}{SCREENSHOT.suffix}")
    shot.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 5_000


def _width(tab: Page, url: str, path: str) -> int:
    """The page's scroll width, once loaded."""
    answer = tab.goto(url + path)
    assert answer is not None and answer.status == 200, path
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert isinstance(width, int)
    return width


def _rgb(css: str) -> tuple[int, int, int]:
    found = re.match(r"rgba?\((\d+), (\d+), (\d+)", css)
    assert found is not None, css
    r, g, b = (int(x) for x in found.groups())
    return r, g, b


def _luminance(css: str) -> float:
    """The relative luminance of a computed colour (WCAG 2)."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(css))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_before_login_the_header_offers_only_the_login_form(
    light: Page, memory: Memory, clock: FixedClock
) -> None:
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        assert _width(light, url, "/login") <= PHONE
        header = light.locator("header.top")
        assert header.locator('a[href="/review"]').count() == 0
        assert header.locator("form.search").count() == 0
        assert light.locator("form.login").count() == 1
        _shot(light, "layout-login")
        _log_in(light, url, memory.token_add("default", person=True).token)
        assert header.locator('a[href="/review"]').count() == 1
        assert header.locator("form.search").count() == 1


def test_every_page_fits_a_phone_under_serve(
    light: Page, memory: Memory, clock: FixedClock
) -> None:
    pages = _pages(memory, clock)
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        _log_in(light, url, memory.token_add("default", person=True).token)
        wide = {}
        for name, path in pages.items():
            width = _width(light, url, path)
            _shot(light, f"layout-{name}")
            if width > PHONE:
                wide[path] = width
        assert wide == {}
        light.goto(url + pages["graph"])
        graph = light.locator("svg.graph").bounding_box()
        assert graph is not None and graph["height"] < 200  # two nodes, no empty box


def test_the_pages_follow_a_dark_colour_scheme(
    dark: Page, memory: Memory, clock: FixedClock
) -> None:
    pages = _pages(memory, clock)
    read = """() => {
        const colour = (el) => getComputedStyle(el).color;
        const back = (el) => getComputedStyle(el).backgroundColor;
        const card = document.querySelector('ol.facts > li, section.member, table, aside');
        const node = document.querySelector('svg.graph circle, svg.chart polyline');
        return {
            body: back(document.body), text: colour(document.body),
            link: colour(document.querySelector('main a')),
            card: card ? back(card) : null,
            node: node ? getComputedStyle(node).fill + '|' + getComputedStyle(node).stroke
                       : null,
        };
    }"""
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        _log_in(dark, url, memory.token_add("default", person=True).token)
        for name in ("tree", "fact", "graph", "proposal", "conflict"):
            assert _width(dark, url, pages[name]) <= PHONE
            seen = dark.evaluate(read)
            assert _luminance(seen["body"]) < 0.05, (name, seen)
            assert _contrast(seen["text"], seen["body"]) >= 7, (name, seen)
            assert _contrast(seen["link"], seen["body"]) >= 4.5, (name, seen)
            if seen["card"] is not None:
                assert _luminance(seen["card"]) < 0.1, (name, seen)
            _shot(dark, f"dark-{name}")
