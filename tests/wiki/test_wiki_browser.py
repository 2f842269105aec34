"""The wiki in a real headless Chromium, driven by Playwright, served by uvicorn.

Needs Debian's ``chromium`` at /usr/bin/chromium and the ``playwright`` package
(``.ci/browser.sh`` installs both); never ``playwright install``. Run with
``pytest -m browser``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import quote

import pytest
from browser_helpers import CHROMIUM, SCREENSHOT
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route
from wiki_helpers import XSS_IMG, XSS_SCRIPT, Seeded, make_app

from embornal import Memory
from embornal.errors import Unauthenticated
from embornal.interfaces.http.app import LOOPBACK_HOSTS, create_app, create_local_wiki_app
from embornal.interfaces.http.wiki import TOKEN_COOKIE
from live_server import live_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


KEY = "browser-key-" + "0" * 32

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]


def serve(app: Starlette) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1, a free port, in a background thread."""
    with live_server(app, lifespan="off") as url:
        yield url


@pytest.fixture
def base_url(
    memory: Memory, seeded: Seeded, page: tuple[Page, list[str], list[str]]
) -> Iterator[str]:
    """``embornal memory wiki`` (the whole local app): the page's tab has opened the URL
    it prints, so the tab holds the key's cookie and reads as the default subject."""
    with live_server(create_local_wiki_app(memory, key=KEY), lifespan="off") as url:
        opened = page[0].goto(f"{url}/?key={KEY}")
        assert opened is not None and opened.status == 200 and page[0].url == url + "/"
        yield url


@pytest.fixture
def open_url(memory: Memory, seeded: Seeded) -> Iterator[str]:
    """The wiki's routes alone, with no key and no token: only the pages' own rules."""
    yield from serve(make_app(lambda request: memory))


@pytest.fixture
def token_url(memory: Memory, seeded: Seeded) -> Iterator[str]:
    """The wiki as under ``serve``: the subject comes from the token cookie."""

    def get_memory(request: Request) -> Memory:
        token = request.cookies.get(TOKEN_COOKIE)
        if not token:
            raise Unauthenticated("no token")
        return memory.as_subject(memory.authenticate(token))

    yield from serve(make_app(get_memory))


@pytest.fixture
def served_url(memory: Memory, seeded: Seeded) -> Iterator[str]:
    """The whole ``embornal serve`` app (REST, MCP, wiki, every middleware) under uvicorn."""
    with live_server(create_app(memory, allowed_hosts=LOOPBACK_HOSTS)) as url:
        yield url


def _foreign_site(target: str, token: str) -> Starlette:
    """Another site (``localhost`` is not ``127.0.0.1``): pages whose forms post to the wiki."""
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    def form(action: str) -> str:
        return (
            f'<form method="post" action="{target}{action}">'
            f'<input type="hidden" name="token" value="{token}">'
            f'<button id="{action.strip("/")}" type="submit">go</button></form>'
        )

    async def home(request: Request) -> HTMLResponse:
        return HTMLResponse(f"<!doctype html><title>evil</title>{form('/login')}{form('/logout')}")

    return Starlette(routes=[Route("/", home)])


def test_the_local_wiki_opens_only_with_its_key(
    browser: Browser, memory: Memory, seeded: Seeded
) -> None:
    """Another user of the machine reaches the port, not the memory (decision 0135)."""
    with live_server(create_local_wiki_app(memory, key=KEY), lifespan="off") as url:
        context = browser.new_context()
        try:
            tab = context.new_page()
            refused = tab.goto(url + "/wiki/projects/embornal")
            assert refused is not None and refused.status == 401
            assert "embornal memory wiki" in tab.inner_text("body")
            assert "SQLite" not in tab.content()
            opened = tab.goto(f"{url}/wiki/projects/embornal?key={KEY}")
            assert opened is not None and opened.status == 200
            assert tab.url == url + "/wiki/projects/embornal"  # the key left the address
            assert "The memory lives in one SQLite file." in tab.inner_text("ol.facts")
            (cookie,) = context.cookies(url)
            assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict"
            assert tab.evaluate("document.cookie") == ""  # no script reads the key
        finally:
            context.close()


@pytest.mark.parametrize("wiki", ["base_url", "open_url"])
def test_a_cross_site_image_does_not_recall(
    wiki: str,
    request: pytest.FixtureRequest,
    page: tuple[Page, list[str], list[str]],
    memory: Memory,
    seeded: Seeded,
) -> None:
    """Another site's ``<img src=".../search?q=...">`` lifts no strength: the local wiki
    answers it 401 (the SameSite=Strict cookie stays home), and even pages with no key
    search without reinforcing when the browser says ``Sec-Fetch-Site: cross-site``."""
    target: str = request.getfixturevalue(wiki)
    tab = page[0]

    async def home(_: Request) -> HTMLResponse:
        return HTMLResponse(
            f'<!doctype html><title>evil</title><img src="{target}/search?q=readers">'
        )

    with live_server(Starlette(routes=[Route("/", home)]), lifespan="off") as evil:
        foreign = evil.replace("127.0.0.1", "localhost")
        sent: list[str] = []
        tab.on("request", lambda r: sent.append(r.url) if "/search?" in r.url else None)
        tab.goto(foreign + "/")  # "load" waits for the image
        tab.wait_for_load_state("networkidle")
        # The browser sent it (and then blocked the HTML answer for an image: ORB).
        assert sent == [f"{target}/search?q=readers"]
    assert memory.show(seeded.wal.id).fact.recall_count == 0
    tab.goto(target + "/search?q=readers")  # the person's own search: Sec-Fetch-Site none
    assert memory.show(seeded.wal.id).fact.recall_count == 1


def test_browse_tree_page_link_and_search(
    base_url: str,
    page: tuple[Page, list[str], list[str]],
    memory: Memory,
    seeded: Seeded,
) -> None:
    tab, dialogs, errors = page
    response = tab.goto(base_url + "/")
    assert response is not None and response.status == 200
    assert tab.title() == "Memory · embornal"
    # The inline stylesheet passed the CSP: the header is styled.
    header_bg = tab.eval_on_selector("header.top", "e => getComputedStyle(e).backgroundColor")
    assert header_bg == "rgb(255, 255, 255)"

    tab.click('ul.tree a[title="/projects/embornal"]')
    tab.wait_for_url(base_url + "/wiki/projects/embornal")
    assert tab.inner_text("h1") == "/projects/embornal"
    assert tab.locator("ol.facts > li").count() == 2
    assert "Storage details live at" in tab.locator("ol.facts > li").first.inner_text()

    tab.click('a.link[href="/wiki/projects/embornal/storage"]')
    tab.wait_for_url(base_url + "/wiki/projects/embornal/storage")
    assert tab.inner_text("h1") == "/projects/embornal/storage"
    assert tab.locator("nav.crumbs a").all_inner_texts() == ["/", "projects", "embornal"]
    assert tab.locator("aside a").all_inner_texts() == ["wal"]
    assert memory.show(seeded.wal.id).fact.recall_count == 0  # browsing is not recalling

    tab.fill('input[name="q"]', "readers")
    tab.press('input[name="q"]', "Enter")
    tab.wait_for_url(base_url + "/search?q=readers")
    assert tab.locator("ol.facts > li").count() == 1
    assert "readers never block" in tab.inner_text("ol.facts")
    assert memory.show(seeded.wal.id).fact.recall_count == 1  # searching is
    assert dialogs == []
    assert errors == []


def test_hostile_content_renders_inert(
    base_url: str, page: tuple[Page, list[str], list[str]], seeded: Seeded
) -> None:
    tab, dialogs, errors = page
    response = tab.goto(base_url + "/wiki/notes/xss")
    assert response is not None and response.status == 200
    tab.wait_for_load_state("load")
    assert tab.evaluate("window.__xss") is None  # undefined: nothing ran
    assert tab.locator("ol.facts script").count() == 0
    assert tab.locator("ol.facts img").count() == 0
    content = tab.inner_text("ol.facts p.content")
    assert XSS_SCRIPT in content and XSS_IMG in content
    assert "[[javascript:alert(1)]]" in content
    assert tab.locator("ol.facts p.content a").count() == 0  # no link came out of it
    assert "note=<i>tag</i>" in tab.locator("ol.facts .tag").all_inner_texts()

    # The same content found by a search stays inert too.
    tab.goto(base_url + "/search?q=hostile")
    assert tab.evaluate("window.__xss") is None
    assert XSS_SCRIPT in tab.inner_text("ol.facts")
    assert dialogs == []
    assert errors == []


def test_login_and_logout_in_the_browser(
    token_url: str, page: tuple[Page, list[str], list[str]], memory: Memory
) -> None:
    tab, dialogs, errors = page
    issued = memory.token_add("alice")
    memory.as_subject("alice").store("/alice/notes", "Alice keeps her notes here.")

    tab.goto(token_url + "/wiki/alice/notes")
    tab.wait_for_url(token_url + "/login?next=%2Fwiki%2Falice%2Fnotes")
    tab.fill('input[name="token"]', issued.token)
    tab.click('form.login button[type="submit"]')  # Sec-Fetch-Site: same-origin
    tab.wait_for_url(token_url + "/wiki/alice/notes")
    assert "Alice keeps her notes here." in tab.inner_text("ol.facts")
    assert "reading as alice" in tab.inner_text("header.top")

    (cookie,) = [c for c in tab.context.cookies() if c["name"] == TOKEN_COOKIE]
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict"
    assert tab.evaluate("document.cookie") == ""  # no script can read the token

    tab.click('header.top button:has-text("Log out")')
    tab.wait_for_url(token_url + "/login")
    assert [c for c in tab.context.cookies() if c["name"] == TOKEN_COOKIE] == []
    tab.goto(token_url + "/")
    tab.wait_for_url(token_url + "/login")
    assert dialogs == [] and errors == []


def test_login_page_and_logout_under_serve(
    served_url: str, page: tuple[Page, list[str], list[str]], memory: Memory
) -> None:
    """The real browser's headers against the real middleware stack (the Host/Origin guard)."""
    tab, dialogs, errors = page
    issued = memory.token_add("alice")
    memory.as_subject("alice").store("/alice/notes", "Alice keeps her notes here.")

    tab.goto(served_url + "/wiki/alice/notes")
    tab.wait_for_url(served_url + "/login?next=%2Fwiki%2Falice%2Fnotes")
    tab.fill('input[name="token"]', issued.token)
    with tab.expect_response(served_url + "/login") as posted:
        tab.click('form.login button[type="submit"]')
    assert posted.value.status == 303
    tab.wait_for_url(served_url + "/wiki/alice/notes")
    assert "Alice keeps her notes here." in tab.inner_text("ol.facts")
    assert "reading as alice" in tab.inner_text("header.top")

    # A plain link to /logout (GET) does not log out: it shows the button.
    tab.goto(served_url + "/logout")
    assert [c["name"] for c in tab.context.cookies()] == [TOKEN_COOKIE]
    tab.goto(served_url + "/")
    assert "reading as alice" in tab.inner_text("header.top")

    with tab.expect_response(served_url + "/logout") as out:
        tab.click('header.top button:has-text("Log out")')
    assert out.value.status == 303
    tab.wait_for_url(served_url + "/login")
    assert [c for c in tab.context.cookies() if c["name"] == TOKEN_COOKIE] == []
    tab.goto(served_url + "/wiki/alice/notes")
    tab.wait_for_url(served_url + "/login?next=%2Fwiki%2Falice%2Fnotes")
    assert dialogs == [] and errors == []


def test_cross_site_forms_are_refused_under_serve(
    served_url: str, page: tuple[Page, list[str], list[str]], memory: Memory
) -> None:
    """Login CSRF: another site's form (a real Origin) or a data: page (Origin: null,
    Sec-Fetch-Site: cross-site) posting a token to /login sets no cookie."""
    tab, _, _ = page
    issued = memory.token_add("mallory")
    port = served_url.rsplit(":", 1)[1]
    with live_server(_foreign_site(served_url, issued.token), lifespan="off") as evil:
        foreign = evil.replace("127.0.0.1", "localhost")
        for button in ("login", "logout"):
            tab.goto(foreign + "/")
            with tab.expect_response(f"{served_url}/{button}") as answer:
                tab.click(f"#{button}")
            assert answer.value.status == 403, button
            assert tab.context.cookies(served_url) == []
    markup = (
        f'<form method="post" action="http://127.0.0.1:{port}/login">'
        f'<input type="hidden" name="token" value="{issued.token}">'
        '<button id="login" type="submit">go</button></form>'
    )
    tab.goto("data:text/html," + quote(markup))
    with tab.expect_response(f"{served_url}/login") as answer:
        tab.click("#login")
    assert answer.value.status == 403
    assert tab.context.cookies(served_url) == []


def test_screenshot_of_a_path_page(
    base_url: str, page: tuple[Page, list[str], list[str]], memory: Memory
) -> None:
    tab, _, errors = page
    memory.store(
        "/projects/embornal",
        "The wiki renders [[/projects/embornal/storage]] as a link and escapes <b>HTML</b>.",
        tags=["visibility=public"],
    )
    tab.goto(base_url + "/wiki/projects/embornal")
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOT), full_page=True)
    assert SCREENSHOT.stat().st_size > 10_000
    assert errors == []


def test_a_fact_page_under_serve_draws_its_chart(
    served_url: str, page: tuple[Page, list[str], list[str]], memory: Memory
) -> None:
    """Log in under the whole ``serve`` app, open a fact's page from its path page: the
    inline SVG is there, visible and styled by the page's stylesheet (the CSP let it
    through), the hostile reason stayed text, and no script ran."""
    tab, dialogs, errors = page
    issued = memory.token_add("alice")
    alice = memory.as_subject("alice")
    fact = alice.store(
        "/alice/projects",
        "Kite ships in March.",
        kind="project",
        attributes={"name": "Kite", "status": "active"},
    )
    alice.confirm(fact.id, evidence="uri:https://example.org/kite", reason="seen")
    alice.recall("Kite")
    alice.contradict(fact.id, reason=f"doubt {XSS_SCRIPT} {XSS_IMG}")

    tab.goto(served_url + "/wiki/alice/projects")
    tab.wait_for_url(served_url + "/login?next=%2Fwiki%2Falice%2Fprojects")
    tab.fill('input[name="token"]', issued.token)
    tab.click('form.login button[type="submit"]')
    tab.wait_for_url(served_url + "/wiki/alice/projects")
    assert tab.inner_text("ol.facts .kind") == "PROJECT"  # the label, upper-cased by CSS
    tab.click(f'ol.facts a.id[href="/fact/{fact.id}"]')
    tab.wait_for_url(served_url + f"/fact/{fact.id}")

    chart = tab.locator("svg.chart")
    assert chart.count() == 1 and chart.is_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100
    assert tab.locator("svg.chart polyline").count() == 3
    stroke = tab.eval_on_selector("svg.chart .line-strength", "e => getComputedStyle(e).stroke")
    assert stroke == "rgb(47, 133, 90)"  # the stylesheet reached the SVG
    assert tab.evaluate("window.__xss") is None
    assert tab.locator("main script, main img").count() == 0
    assert XSS_SCRIPT in tab.inner_text("table.history")
    link = tab.locator('a.external[href="https://example.org/kite"]')
    assert link.get_attribute("rel") == "noopener noreferrer"
    tab.click("details summary")
    assert tab.locator("table.values tbody tr").count() >= 4
    shot = SCREENSHOT.with_name(SCREENSHOT.stem + "-fact.png")
    tab.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert dialogs == [] and errors == []
