"""Live USD values in Chromium (issue 10): the trade header's "≈ $" is the quotation's live USD price,
and the convert form shows, estimates and pays the live rate account/list gives (mark less spread)."""

from __future__ import annotations

import re
import time
from decimal import ROUND_DOWN, Decimal

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors
from tests.utils.up import Instance
from tests.utils.users import auth, member, ok

BTC = 2
CENT = Decimal("0.01")


def _number(text: str) -> Decimal:
    found = re.search(r"[\d.]+", text.replace(",", ""))
    assert found, text
    return Decimal(found.group())


def test_the_trade_header_shows_the_last_price_in_usd(page: Page, console_errors: ConsoleErrors) -> None:
    page.goto("/trade")
    expect(page.get_by_test_id("pair-symbol")).to_have_text("BTC/USDT")
    expect(page.get_by_test_id("last-usd")).to_have_text(re.compile(r"≈ \$\d"))
    # BTC/USDT is quoted in USDT (1 USD): its USD price is its last price. The market maker moves the
    # price; both figures come from one quotation, so read them together until they agree.
    deadline = time.monotonic() + 15
    while True:
        last, usd = page.evaluate(
            "() => [document.querySelector('[data-testid=last-price]').textContent,"
            " document.querySelector('[data-testid=last-usd]').textContent]"
        )
        if _number(usd) == _number(last).quantize(CENT, rounding=ROUND_DOWN):
            break
        assert time.monotonic() < deadline, (last, usd)
        time.sleep(0.2)
    assert console_errors == []


def test_convert_shows_estimates_and_pays_the_live_rate(
    page: Page, web: Instance, console_errors: ConsoleErrors
) -> None:
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as api:
        m = member(api)
        web.cli("deposit", m.account, "BTC", "0.5")
        page.goto("/home")
        page.evaluate("token => localStorage.setItem('token', token)", m.token)
        page.goto("/assets/tradeAccount")
        row = page.locator("[data-testid=account-row][data-currency=BTC]")
        expect(row.get_by_test_id("account-balance")).to_have_text("0.5")
        # Opening the form reads account/list again: the rate shown is the one of that answer.
        with page.expect_response(re.compile(r"/api/account/list")) as listed:
            row.get_by_test_id("action-convert").click()
        btc = next(a for g in listed.value.json()["data"] if g["account_code"] == "change_account"
                   for a in g["accounts"] if a["currency_code"] == "BTC")  # fmt: skip
        rate = Decimal(btc["currency"]["convert_rate"])
        assert rate < Decimal(btc["currency"]["usd_price"])  # the spread is against the user
        form = page.get_by_test_id("convert-form")
        expect(form.get_by_test_id("convert-rate")).to_contain_text(f"{rate.normalize():f} USDT")
        form.get_by_test_id("convert-amount").fill("0.1")
        estimate = (Decimal("0.1") * rate).quantize(Decimal("0.000001"), rounding=ROUND_DOWN)
        expect(form.get_by_test_id("convert-estimate")).to_contain_text(f"{estimate.normalize():f}")
        with page.expect_response(re.compile(r"/api/account/convert")) as converted:
            form.get_by_test_id("convert-submit").click()
        paid = converted.value.json()["data"]
        expect(row.get_by_test_id("account-balance")).to_have_text("0.4")
        detail = ok(api.get("account/detail", params={"currency_id": 1}, headers=auth(m.token)))
        assert Decimal(detail["balance"]) == Decimal(paid["usdt"]) > 0
        # the live mark in force, less the spread, whatever the market maker did meanwhile
        assert Decimal(paid["price"]) == Decimal(paid["mark"]) * (1 - Decimal(paid["spread"]))
    assert console_errors == []
