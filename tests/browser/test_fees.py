"""The fee page (/fees, issue 30) as a visitor meets it, in Chromium against ``exchange up``: reached
from the footer, it lists each pair's spot and lever fees and each currency's withdrawal fee and bounds
as the public API answers them (an operator may have changed them: the figures are read, not assumed),
and the spec's example, 30 and 40 USDT of fee on 10,000 USDT at 0.3 % and 0.4 %. Dark theme first, then
the light one, then Traditional Chinese; the seeded "Fees" notice links to it."""

from __future__ import annotations

from decimal import Decimal

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.utils.users import ok

BTC_USDT = 1
EMPTY = "--"


def _percent(rate: str) -> str:
    """A fraction as the page shows it in percent, every digit kept: "0.002" → "0.2%"."""
    return f"{Decimal(rate) * 100:f}".rstrip("0").rstrip(".") + "%" if Decimal(rate) else "0%"


def test_a_visitor_reads_the_fee_schedule_and_the_example(
    page: Page, api: httpx.Client, console_errors: ConsoleErrors
) -> None:
    pair = next(m for g in ok(api.get("market/currency_matches")) for m in g["matches"] if m["id"] == BTC_USDT)
    usdt = next(c for c in ok(api.get("block_chain/currency_protocols")) if c["code"] == "USDT")

    page.goto("/home")
    # The footer's products column; its About column may list a notice called "Fees" (seeded, id 61).
    page.locator("footer").get_by_role("link", name="Fee schedule").click()
    page.wait_for_url("**/fees")
    expect(page.get_by_role("heading", level=1)).to_have_text("Fee schedule")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")

    row = page.get_by_test_id(f"fees-pair-{BTC_USDT}")
    expect(row).to_contain_text("BTC/USDT")
    spot = pair["open_change"] == 1
    expect(row.get_by_test_id("fees-maker")).to_have_text(_percent(pair["maker_fee"]) if spot else EMPTY)
    expect(row.get_by_test_id("fees-taker")).to_have_text(_percent(pair["taker_fee"]) if spot else EMPTY)
    lever = _percent(pair["lever_fee_rate"]) if pair["open_lever"] == 1 else EMPTY
    expect(row.get_by_test_id("fees-lever")).to_have_text(lever)

    withdrawals = page.get_by_test_id("fees-currency-USDT")
    if usdt["open_draw"] == 1:
        expect(withdrawals.get_by_test_id("fees-draw-rate")).to_have_text(_percent(usdt["draw_rate"]))
        expect(withdrawals.get_by_test_id("fees-draw-min")).to_have_text(usdt["draw_min"])
        expect(withdrawals.get_by_test_id("fees-draw-max")).to_have_text(usdt["draw_max"])
    else:
        expect(withdrawals).to_contain_text("Withdrawals closed")

    example = page.get_by_test_id("fees-example")
    expect(example).to_contain_text("The fee on 10,000.00 USDT at two illustrative rates")
    expect(example.get_by_test_id("fees-example-0.3")).to_contain_text("0.3%")
    expect(example.get_by_test_id("fees-example-0.4")).to_contain_text("0.4%")
    expect(example.get_by_test_id("fees-example-fee")).to_have_text(["30.00 USDT", "40.00 USDT"])
    example.scroll_into_view_if_needed()
    screenshot(page, "fees-dark")

    section = page.get_by_test_id("fees-trading")
    assert section.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(22, 26, 30)"
    page.get_by_test_id("theme-switch").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert section.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
    screenshot(page, "fees-light")

    page.get_by_test_id("language-select").select_option("hk")
    expect(page.get_by_role("heading", level=1)).to_have_text("費率表")
    expect(example.get_by_test_id("fees-example-fee")).to_have_text(["30.00 USDT", "40.00 USDT"])
    expect(page.locator("footer").get_by_role("link", name="費率表")).to_be_visible()

    # The seeded "Fees" notice points to the page.
    page.goto("/notice?category_id=25&id=61")
    page.locator("main").get_by_role("link", name="fee schedule").click()
    page.wait_for_url("**/fees")
    expect(page.get_by_test_id("fees-example-fee")).to_have_text(["30.00 USDT", "40.00 USDT"])
    assert console_errors == []
