"""Playwright fixtures for the playground's browser tests: Debian's Chromium (never a downloaded build), one
browser per session, a fresh page per test that fails the test on any console error or uncaught exception.

The server itself comes from ``live_server`` in tests/conftest.py (uvicorn serving the API and frontend/dist).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Error, Page, Playwright, sync_playwright

from tests.browser.helpers import ARTIFACTS

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "frontend" / "dist" / "index.html"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    """Debian's Chromium; the browser tests fail (never skip) when it is missing."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("chromium is not installed (apt-get install chromium); the browser tests need it", pytrace=False)
    return path


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not DIST.exists():
        pytest.fail("frontend/dist is not built: run `make frontend` (or `cd frontend && npm ci && npm run build`)")
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


class PageProblems:
    """Console errors and uncaught page errors seen during one test."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.items.append(f"console.error: {msg.text} @ {msg.location.get('url', '')}")

    def page_error(self, err: Error) -> None:
        self.items.append(f"uncaught: {err.message}")


@pytest.fixture
def problems() -> PageProblems:
    return PageProblems()


@pytest.fixture
def page(browser: Browser, problems: PageProblems, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A 1280×900 page; the test fails if the page logs a console error or throws."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("console", problems.console)
    page.on("pageerror", problems.page_error)
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-end.png"), full_page=True)
    finally:
        context.close()
    assert not problems.items, "the page reported errors:\n" + "\n".join(problems.items)
