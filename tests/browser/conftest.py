"""Browser tests: Debian's Chromium, driven by Playwright, against ``exchange up`` as ``make run`` starts it.

One instance (its own SQLite, embedded Redis and Ray; market maker on, so books and candles move)
serves the built frontend to every browser test. The instance, Playwright and the browser live for
this package only: Playwright's sync API keeps an asyncio loop running in the main thread while it
is open, which the async tests of later packages cannot share. Screenshots are saved under
``var/artifacts/screenshots`` for people to look at; the assertions never depend on them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, expect, sync_playwright

from config.settings import ROOT, get_settings
from tests.utils.up import Instance, start

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "var" / "artifacts" / "screenshots"
BROWSER_PAIRS = [1, 2, 3]  # BTC/USDT, ETH/USDT, LTC/USDT
ACTION_TIMEOUT_MS = 15_000
# An assertion waits as long as an action does (Playwright's default for expect is 5 s): on a loaded
# two-core CI machine a save and the list it reloads took longer than 5 s (the console's new notice,
# seen twice), while a user waits as long for either. What is asserted is unchanged.
expect.set_options(timeout=ACTION_TIMEOUT_MS)


@pytest.fixture(scope="package")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    dist = get_settings().frontend_dist  # what the instance serves (EXCHANGE_FRONTEND_DIST may point elsewhere)
    assert (dist / "index.html").exists(), f"build the frontend into {dist} first (make test does)"
    # With the dev chains (an EVM node and litecoind mining every 2 s): deposits and withdrawals are real.
    instance = start(tmp_path_factory.mktemp("web"), pair_ids=BROWSER_PAIRS, market_maker=True, timeout_s=300,
                     dev_chains=True)  # fmt: skip
    try:
        yield instance
    finally:
        code, left = instance.stop()
        assert (code, left) == (0, []), instance.log_tail()


@pytest.fixture
def api(web: Instance) -> Iterator[httpx.Client]:
    """The instance's API (the session stack's ``api`` of tests/conftest.py is another exchange)."""
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as client:
        yield client


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install -y chromium"
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    )
    try:
        yield browser
    finally:
        browser.close()


class ConsoleErrors(list[str]):
    """Console errors and uncaught page errors seen by one page."""


@pytest.fixture
def console_errors() -> ConsoleErrors:
    return ConsoleErrors()


@pytest.fixture
def page(browser: Browser, web: Instance, console_errors: ConsoleErrors) -> Iterator[Page]:
    """A fresh context (no stored token, language or theme) with the instance as base URL."""
    context = browser.new_context(base_url=web.url, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            console_errors.append(f"{message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: console_errors.append(f"uncaught: {error}"))
    try:
        yield page
    finally:
        context.close()


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path
