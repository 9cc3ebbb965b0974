"""The earn screens in Chromium (issue 13), against ``exchange up`` with the seeded products: a new
user with USDT in the savings (financial) account locks a lot of lock savings, buys mining and
cancels it (the penalty the confirmation shows is the formula's and the server's), subscribes to the
open token sale and sees the subscription wait for its allocation, and applies for the open listing;
then finds the four movements named in the savings account's records. A visitor sees the products
and is asked to log in; the earn pages render in both themes."""

from __future__ import annotations

import re
from decimal import Decimal

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.utils.up import Instance
from tests.utils.users import Member, auth, member, ok

USDT = 1
FUNDED = Decimal(20_000)
LOCK_ID = 1  # seeded: "USDT 7-day lock", one lot of 100 USDT at 5 % a year
MINING_ID = 1  # seeded: 0.3-0.4 % a day, 5-day cycle, 100 to 100000, penalty 0.4 % a remaining day
SALE_ID = 1  # seeded: ACB at 0.05 USDT, open
LISTING_ID = 1  # seeded: MVBT at 0.025 USDT, in progress


def _financial_usdt(api: httpx.Client, m: Member) -> tuple[Decimal, Decimal]:
    """(balance, lock) of the member's savings account in USDT."""
    for group in ok(api.get("account/list", headers=auth(m.token))):
        if group["account_code"] == "financial_account":
            for account in group["accounts"]:
                if account["currency_id"] == USDT:
                    return Decimal(account["balance"]), Decimal(account["lock_balance"])
    raise AssertionError("no USDT in the financial account")


def _plain(amount: Decimal | str) -> str:
    """A decimal as the screens print an exact figure (no trailing zeros)."""
    text = format(Decimal(amount).normalize(), "f")
    return "0" if text == "-0" else text


@pytest.fixture
def saver(api: httpx.Client, web: Instance, page: Page) -> Member:
    """A new user with 20000 USDT moved into the savings account, logged in on the page."""
    m = member(api)
    web.cli("deposit", m.account, "USDT", str(FUNDED))
    body = {"currency_id": USDT, "balance": str(FUNDED), "from": "change_account", "to": "financial_account"}
    ok(api.post("account/transfer", json=body, headers=auth(m.token)))
    page.goto("/home")
    page.evaluate("token => localStorage.setItem('token', token)", m.token)
    return m


def test_a_visitor_sees_the_products_and_is_asked_to_log_in(page: Page, console_errors: ConsoleErrors) -> None:
    page.goto("/mining")
    expect(page.get_by_test_id("mining-section-exit")).to_be_visible()
    page.get_by_test_id("mining-go-list").click()
    page.wait_for_url("**/mining/list")
    expect(page.get_by_test_id("mining-summary-nums")).to_have_text("0")
    expect(page.get_by_test_id("mining-product")).to_have_count(3)

    page.goto("/deposit")
    card = page.locator(f"[data-testid=lock-product][data-id='{LOCK_ID}']")
    expect(card.get_by_test_id("lock-buy")).to_have_text("Log in to take part")
    expect(page.get_by_test_id("my-locks")).to_have_count(0)  # no current_setting for a visitor
    card.get_by_test_id("lock-buy").click()
    page.wait_for_url("**/login?page=%2Fdeposit")
    assert console_errors == []


def test_a_new_user_locks_savings(page: Page, api: httpx.Client, saver: Member, console_errors: ConsoleErrors) -> None:
    page.goto("/deposit")
    card = page.locator(f"[data-testid=lock-product][data-id='{LOCK_ID}']")
    expect(card.get_by_test_id("lock-lot")).to_have_text("100 USDT")
    expect(card.get_by_test_id("lock-days")).to_have_text("7 days")
    expect(card.get_by_test_id("lock-rate")).to_have_text("5.00%")
    expect(page.get_by_test_id("my-locks").get_by_test_id("earn-empty")).to_be_visible()

    # The buy waits for the prompt; cancelling it locks nothing.
    card.get_by_test_id("lock-buy").click()
    dialog = page.get_by_test_id("lock-confirm")
    expect(dialog.get_by_test_id("lock-confirm-amount")).to_have_text("100 USDT")
    dialog.get_by_test_id("lock-confirm-cancel").click()
    expect(dialog).to_have_count(0)
    assert _financial_usdt(api, saver) == (FUNDED, Decimal(0))

    card.get_by_test_id("lock-buy").click()
    dialog.get_by_test_id("lock-confirm-ok").click()
    expect(page.locator(".toast-success")).to_be_visible()
    row = page.get_by_test_id("lock-row")
    expect(row).to_have_count(1)
    (lock,) = ok(api.get("storage_currency/current_setting", headers=auth(saver.token)))
    expect(row.get_by_test_id("lock-row-amount")).to_have_text("100 USDT")
    expect(row.get_by_test_id("lock-row-start")).to_have_text(lock["start"])
    expect(row.get_by_test_id("lock-row-maturity")).to_have_text(lock["maturity"])
    expect(row.get_by_test_id("lock-row-expected")).to_have_text(_plain(lock["expected"]))
    expect(row).to_have_attribute("data-status", "0")
    assert _financial_usdt(api, saver) == (FUNDED - 100, Decimal(100))
    assert console_errors == []


def test_a_new_user_buys_mining_and_cancels_it(
    page: Page, api: httpx.Client, saver: Member, console_errors: ConsoleErrors
) -> None:
    page.goto("/mining/list")
    page.locator(f"[data-testid=mining-product][data-id='{MINING_ID}']").click()
    page.wait_for_url(f"**/mining/info?id={MINING_ID}")
    expect(page.get_by_test_id("mining-info-cycle")).to_have_text("5 days")
    expect(page.get_by_test_id("mining-info-range")).to_have_text("100 – 100000")
    expect(page.get_by_test_id("mining-info-daily")).to_have_text("0.3-0.4%")
    form = page.get_by_test_id("mining-form")
    expect(form.get_by_test_id("mining-balance-usdt")).to_have_text(_plain(FUNDED))
    expect(form.get_by_test_id("mining-balance-acb")).to_have_text("0")

    # The spec's messages with the number, before anything is sent.
    amount = form.get_by_test_id("mining-amount")
    amount.fill("50")
    form.get_by_test_id("mining-submit").click()
    expect(form.get_by_test_id("mining-problem")).to_have_text("Minimum amount 100")
    amount.fill("100001")
    form.get_by_test_id("mining-submit").click()
    expect(form.get_by_test_id("mining-problem")).to_have_text("Maximum amount 100000")
    form.get_by_test_id("mining-amount-all").click()
    expect(amount).to_have_value(_plain(FUNDED))
    form.get_by_test_id("mining-asset").select_option("2")  # ACB: nothing to fill in
    form.get_by_test_id("mining-amount-all").click()
    expect(amount).to_have_value("0")
    form.get_by_test_id("mining-asset").select_option("1")

    amount.fill("1000")
    form.get_by_test_id("mining-submit").click()
    expect(page.locator(".toast-success")).to_be_visible()
    expect(form.get_by_test_id("mining-balance-usdt")).to_have_text(_plain(FUNDED - 1000))
    assert _financial_usdt(api, saver) == (FUNDED - 1000, Decimal(1000))

    # The order, in progress; cancelling it shows ratio x remaining days x amount: 0.4 % x 5 x 1000 = 20.
    page.goto("/mining/list")
    expect(page.get_by_test_id("mining-summary-nums")).to_have_text("1")
    expect(page.get_by_test_id("mining-summary-total")).to_have_text("1000.00")
    page.get_by_test_id("mining-go-orders").click()
    page.wait_for_url("**/mining/order")
    card = page.get_by_test_id("mining-order")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("mining-order-amount")).to_have_text("1000 USDT")
    expect(card.get_by_test_id("mining-order-days")).to_have_text("0 / 5")
    expect(card.get_by_test_id("mining-order-start")).to_have_text(re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$"))
    expect(page.get_by_test_id("pagination")).to_have_count(0)  # one order: no pager
    card.get_by_test_id("mining-cancel").click()
    dialog = page.get_by_test_id("mining-cancel-confirm")
    expect(dialog.get_by_test_id("mining-cancel-confirm-remaining")).to_have_text("5 days")
    expect(dialog.get_by_test_id("mining-cancel-confirm-penalty")).to_have_text("20 USDT")
    expect(dialog.get_by_test_id("mining-cancel-confirm-returned")).to_have_text("980 USDT")
    dialog.get_by_test_id("mining-cancel-confirm-ok").click()
    expect(page.locator(".toast-success")).to_be_visible()
    expect(page.get_by_test_id("mining-order")).to_have_count(0)
    expect(page.get_by_test_id("earn-empty")).to_be_visible()

    page.get_by_test_id("mining-tab-1").click()
    ended = page.get_by_test_id("mining-order")
    expect(ended).to_have_count(1)
    expect(ended).to_have_attribute("data-status", "2")
    expect(ended.get_by_test_id("mining-order-penalty")).to_have_text("20 USDT")
    assert _financial_usdt(api, saver) == (FUNDED - 20, Decimal(0))
    assert console_errors == []


def test_a_new_user_subscribes_to_a_token_sale(
    page: Page, api: httpx.Client, saver: Member, console_errors: ConsoleErrors
) -> None:
    page.goto("/shoufa")
    cards = page.get_by_test_id("sale-card")
    expect(cards.first).to_be_visible()
    assert cards.count() == len(ok(api.get("shoufa/index", params={"type": 99})))
    expect(cards.first.get_by_test_id("sale-progress").locator("canvas")).to_be_visible()
    page.get_by_test_id("shoufa-tab-1").click()
    expect(page.get_by_test_id("shoufa-tab-1")).to_have_attribute("aria-selected", "true")
    completed = ok(api.get("shoufa/index", params={"type": 1}))
    expect(cards).to_have_count(len(completed))
    page.get_by_test_id("shoufa-tab-0").click()
    page.locator(f"[data-testid=sale-card][data-id='{SALE_ID}']").click()
    page.wait_for_url(f"**/shoufa/info?id={SALE_ID}")

    sale = ok(api.get("shoufa/info", params={"id": SALE_ID}))
    expect(page.get_by_test_id("sale-price")).to_have_text(f"{_plain(sale['rengou'])} USDT")
    expect(page.get_by_test_id("sale-currency")).to_have_text("ACB")
    expect(page.get_by_test_id("sale-accepted")).to_have_text("USDT")
    expect(page.get_by_test_id("sale-participate")).to_have_attribute("href", "/trade")
    expect(page.get_by_test_id("sale-progress")).to_contain_text("%")
    form = page.get_by_test_id("sale-form")
    expect(form.get_by_test_id("sale-balance")).to_have_text(f"Available: {_plain(FUNDED)} USDT")

    form.get_by_test_id("sale-amount").fill("0")
    form.get_by_test_id("sale-submit").click()
    expect(form.get_by_test_id("sale-problem")).to_have_text("Wrong purchase quantity")
    form.get_by_test_id("sale-amount").fill("2000")
    cost = Decimal(2000) * Decimal(sale["rengou"])
    expect(form.get_by_test_id("sale-cost")).to_have_text(f"Cost: {_plain(cost)} USDT")
    form.get_by_test_id("sale-submit").click()
    expect(page.locator(".toast-success")).to_be_visible()

    mine = page.get_by_test_id("sale-mine")
    expect(mine.get_by_test_id("sale-mine-nums")).to_have_text("2000 ACB")
    expect(mine.get_by_test_id("sale-mine-locked")).to_have_text(f"{_plain(cost)} USDT")
    expect(mine.get_by_test_id("sale-mine-status")).to_have_text("Awaiting allocation")
    after = ok(api.get("shoufa/info", params={"id": SALE_ID}))
    expect(page.get_by_test_id("sale-quantity")).to_have_text(f"{_plain(after['shuliang'])} ACB")
    expect(form.get_by_test_id("sale-balance")).to_have_text(f"Available: {_plain(FUNDED - cost)} USDT")
    assert _financial_usdt(api, saver) == (FUNDED - cost, cost)
    assert console_errors == []


def test_a_new_user_applies_for_a_listing(
    page: Page, api: httpx.Client, saver: Member, console_errors: ConsoleErrors
) -> None:
    page.goto("/listing")
    expect(page.get_by_test_id("listing-count")).to_have_text("0")
    card = page.locator(f"[data-testid=listing-card][data-id='{LISTING_ID}']")
    expect(card.get_by_test_id("listing-lock")).to_have_text("7-day lock")
    expect(card.get_by_test_id("listing-currency")).to_have_text("MVBT")
    expect(card.get_by_test_id("listing-progress").locator("canvas")).to_be_visible()
    card.click()
    page.wait_for_url(f"**/listing/info?id={LISTING_ID}")

    form = page.get_by_test_id("listing-form")
    expect(form.get_by_test_id("listing-balance")).to_have_text(_plain(FUNDED))
    form.get_by_test_id("listing-amount").fill("0")
    form.get_by_test_id("listing-submit").click()
    expect(form.get_by_test_id("listing-problem")).to_have_text("No funds: enter an amount above 0")
    form.get_by_test_id("listing-amount-all").click()
    expect(form.get_by_test_id("listing-amount")).to_have_value(_plain(FUNDED))
    form.get_by_test_id("listing-amount").fill("500")
    form.get_by_test_id("listing-submit").click()
    expect(page.locator(".toast-success")).to_be_visible()
    expect(form.get_by_test_id("listing-balance")).to_have_text(_plain(FUNDED - 500))
    assert _financial_usdt(api, saver) == (FUNDED - 500, Decimal(500))

    page.goto("/listing")
    expect(page.get_by_test_id("listing-count")).to_have_text("1")
    page.get_by_test_id("listing-go-orders").click()
    page.wait_for_url("**/listing/order")
    row = page.get_by_test_id("listing-record")
    expect(row).to_have_count(1)
    expect(row.get_by_test_id("record-currency")).to_have_text("MVBT")
    expect(row.get_by_test_id("record-applied")).to_have_text("500 USDT")
    expect(row.get_by_test_id("application-status")).to_have_text("Under review")
    expect(page.get_by_test_id("pagination")).to_have_count(0)

    # The savings account's records name the movement (the server's name, or the screen's own for
    # a bare log type), never the raw log type.
    page.goto("/assets/dealRecords?types=financial_account")
    names = page.get_by_test_id("records-table").get_by_test_id("record-name")
    expect(names.first).to_have_text(re.compile(r"^Listing"))
    assert console_errors == []


def test_the_earn_screens_in_both_themes(page: Page, saver: Member, console_errors: ConsoleErrors) -> None:
    html = page.locator("html")
    for theme in ("dark", "light"):
        page.evaluate("theme => localStorage.setItem('theme', theme)", theme)
        page.goto("/shoufa")
        expect(html).to_have_attribute("data-theme", theme)
        ring = page.get_by_test_id("sale-progress").first
        expect(ring).to_have_attribute("data-theme-ring", theme)
        expect(ring.locator("canvas")).to_be_visible()
        screenshot(page, f"shoufa-{theme}")
        background = page.get_by_test_id("sale-card").first.evaluate("e => getComputedStyle(e).backgroundColor")
        assert background == ("rgb(22, 26, 30)" if theme == "dark" else "rgb(255, 255, 255)"), background
        page.goto("/mining/list")
        expect(page.get_by_test_id("mining-product").first).to_be_visible()
        screenshot(page, f"mining-list-{theme}")
    assert console_errors == []
