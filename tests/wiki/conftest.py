"""The wiki's fixtures: a small memory, a test client of the wiki alone, and (for the
browser tests) a headless Chromium and a page of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import CHROMIUM, CHROMIUM_ARGS
from starlette.testclient import TestClient
from wiki_helpers import Seeded, make_app, seed

from embornal import FixedClock, Memory

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Dialog, Page


@pytest.fixture
def seeded(memory: Memory, clock: FixedClock) -> Seeded:
    return seed(memory, clock)


@pytest.fixture
def client(memory: Memory, seeded: Seeded) -> Iterator[TestClient]:
    with TestClient(make_app(lambda request: memory)) as test_client:
        yield test_client


@pytest.fixture
def browser() -> Iterator[Browser]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[tuple[Page, list[str], list[str]]]:
    """A page, the dialogs it opened and the console errors it logged."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    dialogs: list[str] = []
    errors: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    def on_console(message: Any) -> None:
        if message.type == "error":
            errors.append(str(message.text))

    tab.on("dialog", on_dialog)
    tab.on("console", on_console)
    try:
        yield tab, dialogs, errors
    finally:
        context.close()
