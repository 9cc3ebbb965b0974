"""The leveraged-contract screen in Chromium (issue 11), against ``exchange up`` with the market maker on:
a new user moves USDT into the lever account, opens a long and a short, sets a take-profit and a
stop-loss, watches the rows follow the mark, closes one and closes the rest with one click."""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, Decimal

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.utils.up import Instance
from tests.utils.users import Member, auth, member, ok

USDT = 1
LONG, SHORT = "1", "2"
AMOUNT = re.compile(r"^\d+(\.\d+)? USDT$")


def _lever_usdt(api: httpx.Client, m: Member) -> tuple[Decimal, Decimal]:
    """(balance, lock) of the member's lever account in USDT."""
    for group in ok(api.get("account/list", headers=auth(m.token))):
        if group["account_code"] == "lever_account":
            for account in group["accounts"]:
                if account["currency_id"] == USDT:
                    return Decimal(account["balance"]), Decimal(account["lock_balance"])
    raise AssertionError("no USDT in the lever account")


def _shown(amount: Decimal) -> str:
    """An amount as the screen shows it: cut to 4 decimals."""
    return f"{amount.quantize(Decimal('0.0001'), rounding=ROUND_DOWN)} USDT"


def _open(page: Page, side: str, multiple: str, hands: str) -> None:
    """Open a position at the market price through the order panel and its confirm dialog; the
    confirm dialog shows what the panel previewed."""
    panel = page.get_by_test_id("lever-order-panel")
    panel.get_by_test_id("lever-mode-market").click()
    panel.get_by_test_id(f"lever-side-{side}").click()
    panel.get_by_test_id("lever-multiple").select_option(multiple)
    panel.get_by_test_id(f"lever-hands-{hands}").click()
    expect(panel.get_by_test_id("lever-margin")).to_have_text(AMOUNT)
    panel.get_by_test_id("lever-submit").click()
    dialog = page.get_by_test_id("lever-confirm")
    expect(dialog.get_by_test_id("lever-confirm-side")).to_have_text("Long" if side == "long" else "Short")
    expect(dialog.get_by_test_id("lever-confirm-hands")).to_have_text(hands)
    expect(dialog.get_by_test_id("lever-confirm-multiple")).to_have_text(f"{multiple}×")
    expect(dialog.get_by_test_id("lever-confirm-fee")).to_have_text(AMOUNT)
    expect(dialog.get_by_test_id("lever-confirm-margin")).to_have_text(AMOUNT)
    dialog.get_by_test_id("lever-confirm-ok").click()
    expect(dialog).to_have_count(0)


def test_a_new_user_trades_leveraged_contracts(page: Page, web: Instance, console_errors: ConsoleErrors) -> None:
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as api:
        m = member(api)
        web.cli("deposit", m.account, "USDT", "10000")
        page.goto("/home")
        page.evaluate("token => localStorage.setItem('token', token)", m.token)

        # The screen lists the open-lever pairs only and opens the first; the lever account is empty.
        page.goto("/lever")
        expect(page.get_by_test_id("pair-symbol")).to_have_text("BTC/USDT")
        pairs = page.get_by_test_id("pair-list")
        expect(pairs.locator('[data-testid=pair-item][data-symbol="ETH/USDT"]')).to_have_count(1)
        expect(pairs.locator('[data-testid=pair-item][data-symbol="XRP/USDT"]')).to_have_count(0)
        expect(page.get_by_test_id("kline-chart").locator("canvas").first).to_be_visible()
        expect(page.get_by_test_id("chart-period-4hour")).to_be_visible()  # the lever resolutions (spec §9)
        expect(page.get_by_test_id("lever-available")).to_have_text("0.0000 USDT")

        # The panel's transfer link opens the transfer page towards the lever account.
        page.get_by_test_id("lever-transfer").click()
        page.wait_for_url("**/assets/transfer?**")
        form = page.get_by_test_id("transfer-form")
        expect(form.get_by_test_id("transfer-from")).to_have_value("change_account")
        expect(form.get_by_test_id("transfer-to")).to_have_value("lever_account")
        form.get_by_test_id("transfer-amount").fill("1000")
        form.get_by_test_id("transfer-submit").click()
        expect(form.get_by_test_id("transfer-available")).to_contain_text("9000")
        assert _lever_usdt(api, m) == (Decimal(1000), Decimal(0))

        # The lever account page shows the margin in use and leads to the screen.
        page.goto("/assets/leverAccount")
        expect(page.get_by_test_id("account-table")).to_contain_text("Margin in use")
        page.get_by_test_id("lever-link").click()
        page.wait_for_url("**/lever")
        panel = page.get_by_test_id("lever-order-panel")
        expect(panel.get_by_test_id("lever-available")).to_have_text("1000.0000 USDT")
        expect(panel.get_by_test_id("lever-multiple")).to_have_value("200")  # spec §9 defaults
        expect(panel.get_by_test_id("lever-hands")).to_have_value("1")

        # The spec's prompts, in its order: price, multiple, hands.
        panel.get_by_test_id("lever-mode-fixed").click()
        panel.get_by_test_id("lever-multiple").select_option("")
        panel.get_by_test_id("lever-hands").fill("")
        panel.get_by_test_id("lever-submit").click()
        error = panel.get_by_test_id("lever-error")
        expect(error).to_have_text("Please enter the entrusted price")
        panel.get_by_test_id("lever-price").fill("30000.123456")
        expect(panel.get_by_test_id("lever-price")).to_have_value("30000.1234")  # 4 decimals
        panel.get_by_test_id("lever-submit").click()
        expect(error).to_have_text("Please choose a multiple")
        panel.get_by_test_id("lever-multiple").select_option("5")
        panel.get_by_test_id("lever-submit").click()
        expect(error).to_have_text("Please enter the number of hands")

        # A long at 10× and a short at 20×, at the market price.
        _open(page, "long", "10", "1")
        rows = page.get_by_test_id("lever-table-current").get_by_test_id("position-row")
        expect(rows).to_have_count(1)
        _open(page, "short", "20", "2")
        expect(rows).to_have_count(2)
        long_row = rows.and_(page.locator(f'[data-side="{LONG}"]'))
        short_row = rows.and_(page.locator(f'[data-side="{SHORT}"]'))
        expect(long_row.get_by_test_id("position-multiple")).to_have_text("10×")
        expect(short_row.get_by_test_id("position-hands")).to_have_text("2")
        balance, lock = _lever_usdt(api, m)
        assert lock > 0 and balance + lock < 1000  # margins held, fees paid
        expect(panel.get_by_test_id("lever-available")).to_have_text(_shown(balance))
        expect(page.get_by_test_id("lever-hazard")).to_have_text(re.compile(r"^\d+\.\d{2}%$"))
        expect(page.get_by_test_id("lever-profits")).to_have_text(re.compile(r"^-?\d+\.\d{4}$"))
        screenshot(page, "lever-dark")
        page.get_by_test_id("theme-switch").click()
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        page.wait_for_timeout(500)  # the chart redraws with the light palette
        screenshot(page, "lever-light")

        # The rows follow the mark (MARK pushes), without a reload.
        current = long_row.get_by_test_id("position-current-price")
        before = current.inner_text()
        expect(current).not_to_have_text(before, timeout=60_000)

        # Take-profit and stop-loss: a wrong side is refused with the server's message, then saved.
        long_row.get_by_test_id("position-stop").click()
        stop = page.get_by_test_id("lever-stop-dialog")
        mark = Decimal(stop.get_by_test_id("stop-mark").inner_text())
        stop.get_by_test_id("stop-tp").fill(str(int(mark * Decimal("0.8"))))
        stop.get_by_test_id("stop-save").click()
        expect(stop.get_by_test_id("stop-error")).not_to_be_empty()
        take_profit, stop_loss = int(mark * Decimal("1.3")), int(mark * Decimal("0.7"))
        stop.get_by_test_id("stop-tp").fill(str(take_profit))
        stop.get_by_test_id("stop-sl").fill(str(stop_loss))
        stop.get_by_test_id("stop-save").click()
        expect(stop).to_have_count(0)
        expect(long_row.get_by_test_id("position-tp")).to_have_text(f"{take_profit}.0000")
        expect(long_row.get_by_test_id("position-sl")).to_have_text(f"{stop_loss}.0000")

        # An entrustment below the mark waits in its tab and is cancelled there.
        panel.get_by_test_id("lever-mode-fixed").click()
        panel.get_by_test_id("lever-side-long").click()
        panel.get_by_test_id("lever-price").fill(str(int(mark * Decimal("0.9"))))
        panel.get_by_test_id("lever-hands").fill("1")
        panel.get_by_test_id("lever-submit").click()
        expect(page.get_by_test_id("lever-confirm-price")).to_have_text(f"{int(mark * Decimal('0.9'))} USDT")
        page.get_by_test_id("lever-confirm-ok").click()
        page.get_by_test_id("lever-tab-entrusted").click()
        entrusted = page.get_by_test_id("lever-table-entrusted").get_by_test_id("position-row")
        expect(entrusted).to_have_count(1)
        entrusted.get_by_test_id("position-cancel").click()
        expect(entrusted).to_have_count(0)

        # Close the short; it leaves the open lists for the closed one.
        page.get_by_test_id("lever-tab-current").click()
        expect(rows).to_have_count(2)
        short_row.get_by_test_id("position-close").click()
        expect(rows).to_have_count(1)
        page.get_by_test_id("lever-tab-closed").click()
        closed = page.get_by_test_id("lever-table-closed").get_by_test_id("position-row")
        expect(closed).to_have_count(1)
        expect(closed.get_by_test_id("position-reason")).to_have_text("Closed manually")

        # One more long, then one click closes every position of the pair.
        page.get_by_test_id("lever-tab-current").click()
        _open(page, "long", "5", "2")
        expect(rows).to_have_count(2)
        page.get_by_test_id("lever-close-all").click()
        close_all = page.get_by_test_id("lever-close-all-dialog")
        close_all.get_by_test_id("close-all-all").check()
        close_all.get_by_test_id("close-all-pair").check()
        close_all.get_by_test_id("close-all-ok").click()
        expect(close_all).to_have_count(0)
        expect(rows).to_have_count(0)
        expect(page.get_by_test_id("positions-empty")).to_be_visible()
        page.get_by_test_id("lever-tab-closed").click()
        expect(closed).to_have_count(3)
        expect(closed.get_by_test_id("position-reason").filter(has_text="Closed together")).to_have_count(2)

        # Nothing is held any more; the panel shows what the account has.
        balance, lock = _lever_usdt(api, m)
        assert lock == 0
        expect(panel.get_by_test_id("lever-available")).to_have_text(_shown(balance))
    assert [e for e in console_errors if "400" not in e] == []  # the refused take-profit logs its 400
