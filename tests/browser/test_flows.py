"""What a person does in the web app, in Chromium, against ``exchange up`` with the market maker on."""

from __future__ import annotations

import re
import time

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.utils.up import Instance
from tests.utils.users import PASSWORD, unique_email


def _outbox_code(web: Instance, to: str) -> str:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        sent = httpx.get(f"{web.url}/api/dev/outbox", params={"to": to}, timeout=10).json()["data"]
        if sent:
            return sent[0]["code"]
        time.sleep(0.3)
    raise AssertionError(f"no code was sent to {to}")


def test_a_visitor_sees_the_home_page_move(page: Page, console_errors: ConsoleErrors) -> None:
    page.goto("/home")
    tickers = page.get_by_test_id("top-tickers").get_by_test_id("ticker")
    expect(tickers).to_have_count(6)
    expect(page.get_by_test_id("home-market-table").get_by_test_id("market-row")).to_have_count(14)
    before = page.get_by_test_id("home-market-table").inner_text()
    # The market maker trades on BTC, ETH and LTC; the table follows over DAY_MARKET without a reload.
    expect(page.get_by_test_id("home-market-table")).not_to_have_text(before, timeout=90_000)
    screenshot(page, "home-dark")
    page.get_by_test_id("theme-switch").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    screenshot(page, "home-light")
    assert console_errors == []


def test_register_log_in_place_a_limit_buy_and_cancel_it(
    page: Page, web: Instance, console_errors: ConsoleErrors
) -> None:
    email = unique_email("web")
    page.goto("/register")
    form = page.get_by_test_id("register-form")
    form.get_by_test_id("account").fill(email)
    form.get_by_test_id("send-code").click()
    expect(form.get_by_test_id("send-code")).to_be_disabled()  # the 60 s countdown runs
    form.get_by_test_id("code").fill(_outbox_code(web, email))
    form.get_by_test_id("password").fill(PASSWORD)
    form.get_by_test_id("re-password").fill(PASSWORD)
    form.get_by_test_id("privacy").check()
    form.get_by_test_id("submit").click()
    page.wait_for_url("**/login**")

    web.cli("deposit", email, "USDT", "10000")
    login = page.get_by_test_id("login-form")
    login.get_by_test_id("account").fill(email)
    login.get_by_test_id("password").fill(PASSWORD)
    login.get_by_test_id("password").press("Enter")
    page.wait_for_url("**/home")
    expect(page.get_by_test_id("account-menu")).to_contain_text(email)

    page.goto("/trade")
    expect(page.get_by_test_id("pair-symbol")).to_have_text("BTC/USDT")
    expect(page.get_by_test_id("order-book")).to_be_visible()
    expect(page.get_by_test_id("buy-available")).to_contain_text("10000")
    buy = page.get_by_test_id("buy-form")
    # far below the maker's bids (it rests), inside the pair's band of mark / 5 and up
    buy.get_by_test_id("buy-price").fill("20000")
    buy.get_by_test_id("buy-amount").fill("0.025")
    buy.get_by_test_id("buy-submit").click()

    panel = page.get_by_test_id("order-panel")
    row = panel.get_by_test_id("order-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("20000")
    expect(row).to_contain_text("0.025")
    expect(page.get_by_test_id("buy-available")).to_contain_text("9500")  # 500 USDT now frozen
    screenshot(page, "trade-light" if page.locator("html").get_attribute("data-theme") == "light" else "trade-dark")

    row.get_by_test_id("order-cancel").click()
    expect(panel.get_by_test_id("order-row")).to_have_count(0)
    expect(panel.get_by_test_id("orders-empty")).to_be_visible()
    expect(page.get_by_test_id("buy-available")).to_contain_text("10000")
    assert console_errors == []


def test_the_trade_page_is_live_in_both_themes(page: Page, console_errors: ConsoleErrors) -> None:
    page.goto("/trade")
    expect(page.get_by_test_id("kline-chart").locator("canvas").first).to_be_visible()
    book = page.get_by_test_id("order-book")
    expect(book).to_be_visible()
    before = book.inner_text()
    expect(book).not_to_have_text(before, timeout=60_000)  # the maker requotes: depth pushes arrive
    expect(page.get_by_test_id("recent-trades").get_by_test_id("trade-row").first).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("buy-login")).to_be_visible()  # a visitor gets log-in links, not buttons
    screenshot(page, "trade-dark")
    page.get_by_test_id("theme-switch").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.wait_for_timeout(500)  # the chart redraws with the light palette
    screenshot(page, "trade-light")
    assert console_errors == []


def test_a_visitor_on_lever_is_sent_to_log_in_first(page: Page) -> None:
    page.goto("/lever")
    page.wait_for_url(re.compile(r"/login\?.*page=%2Flever"))
    expect(page.get_by_test_id("login-banner")).to_have_text("Please log in first to trade.")


def test_switching_language_changes_the_texts_and_is_remembered(page: Page) -> None:
    page.goto("/home")
    nav = page.locator("header nav").first
    expect(nav).to_contain_text("Trade")
    english = nav.text_content() or ""
    page.get_by_test_id("language-select").select_option("fr")
    expect(nav).not_to_have_text(english)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    french = nav.text_content() or ""
    page.reload()
    expect(nav).to_have_text(french)
    page.get_by_test_id("language-select").select_option("jp")
    expect(nav).not_to_have_text(french)
    expect(page.locator("html")).to_have_attribute("lang", "ja")


def test_switching_theme_changes_the_colours_and_is_remembered(page: Page) -> None:
    page.goto("/home")
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "dark")  # dark by default
    body_colour = "() => getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(body_colour)
    page.get_by_test_id("theme-switch").click()
    expect(html).to_have_attribute("data-theme", "light")
    light = page.evaluate(body_colour)
    assert light != dark, (light, dark)
    page.reload()
    expect(html).to_have_attribute("data-theme", "light")
    assert page.evaluate(body_colour) == light
