"""The second-contract screen in Chromium (issue 12), against ``exchange up`` with the market maker on:
a new user moves USDT into the micro account, is told a stake of 0 is no stake, buys up for 30 s
through the panel and its confirm dialog, watches the row count down, sees it settle in "closed" with
the outcome the public proof gives, and opens the proof to see the browser check the hash chain."""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, Decimal
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.utils.up import Instance
from tests.utils.users import Member, auth, member, ok

USDT = 1
UP = "1"
STAKE = Decimal(25)
RATIO = Decimal(80)  # the seeded 30 s ratio
CLOCK = re.compile(r"^\d+:\d{2}$")
OUTCOMES = {"win": "Win", "loss": "Loss", "tie": "Tie (refunded)", "void": "Void (refunded)"}
OUTCOMES_HK = {"win": "盈利", "loss": "虧損", "tie": "平局（已退還）", "void": "作廢（已退還）"}
SWITCHED_OFF = "Second contracts are not offered here"


def _micro_usdt(api: httpx.Client, m: Member) -> tuple[Decimal, Decimal]:
    """(balance, lock) of the member's micro account in USDT."""
    for group in ok(api.get("account/list", headers=auth(m.token))):
        if group["account_code"] == "micro_account":
            for account in group["accounts"]:
                if account["currency_id"] == USDT:
                    return Decimal(account["balance"]), Decimal(account["lock_balance"])
    raise AssertionError("no USDT in the micro account")


def _cut(amount: Decimal | str) -> str:
    """An amount as the screen shows it: cut to 4 decimals."""
    return str(Decimal(amount).quantize(Decimal("0.0001"), rounding=ROUND_DOWN))


def _plain(amount: str) -> str:
    """A decimal string as the screen prints an exact figure (no trailing zeros)."""
    text = format(Decimal(amount).normalize(), "f")
    return "0" if text == "-0" else text


def _span(proof: dict[str, Any]) -> int:
    """The ticks the contract ran over, entry and exit included."""
    ids = [t["id"] for t in proof["ticks"]]
    verdict = proof["verdict"]
    if verdict["entry_tick_id"] is None:
        return 0
    return ids.index(verdict["exit_tick_id"]) - ids.index(verdict["entry_tick_id"]) + 1


def test_a_new_user_trades_second_contracts(page: Page, web: Instance, console_errors: ConsoleErrors) -> None:
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as api:
        m = member(api)
        web.cli("deposit", m.account, "USDT", "10000")
        page.goto("/home")
        page.evaluate("token => localStorage.setItem('token', token)", m.token)

        # The screen lists the USDT pairs with second contracts as tabs and opens the first; the
        # micro account is empty.
        page.goto("/second")
        expect(page.get_by_test_id("pair-symbol")).to_have_text("BTC/USDT")
        pairs = page.get_by_test_id("second-pairs")
        expect(pairs.get_by_test_id("second-pair-ETH")).to_be_visible()
        expect(pairs.get_by_test_id("second-pair-BTC")).to_have_attribute("aria-selected", "true")
        expect(page.get_by_test_id("kline-chart").locator("canvas").first).to_be_visible()
        expect(page.get_by_test_id("chart-period-4hour")).to_be_visible()  # the contract resolutions (spec §9)
        panel = page.get_by_test_id("second-order-panel")
        expect(panel.get_by_test_id("second-currency-USDT")).to_have_attribute("aria-selected", "true")
        expect(panel.get_by_test_id("second-available")).to_have_text("0.0000 USDT")
        expect(panel.get_by_test_id("second-seconds-30")).to_contain_text("80%")
        expect(panel.get_by_test_id("second-mark")).to_have_text(re.compile(r"^\d+\.\d+$"))

        # The panel's transfer link opens the transfer page towards the micro account.
        panel.get_by_test_id("second-transfer").click()
        page.wait_for_url("**/assets/transfer?**")
        form = page.get_by_test_id("transfer-form")
        expect(form.get_by_test_id("transfer-from")).to_have_value("change_account")
        expect(form.get_by_test_id("transfer-to")).to_have_value("micro_account")
        form.get_by_test_id("transfer-amount").fill("1000")
        form.get_by_test_id("transfer-submit").click()
        expect(form.get_by_test_id("transfer-available")).to_contain_text("9000")
        assert _micro_usdt(api, m) == (Decimal(1000), Decimal(0))

        # The micro account page shows it, with its records, and leads to the screen.
        page.goto("/assets/secondAccount")
        account = page.get_by_test_id("account-page")
        expect(account).to_have_attribute("data-account", "micro_account")
        row = account.locator('[data-testid=account-row][data-currency="USDT"]')
        expect(row.get_by_test_id("account-balance")).to_have_text("1000")
        expect(account.get_by_test_id("account-table")).to_contain_text("Stakes in play")
        account.get_by_test_id("records-link").click()
        page.wait_for_url("**/assets/dealRecords?types=micro_account")
        expect(page.get_by_test_id("records-table").get_by_test_id("record-row").first).to_be_visible()
        page.goto("/assets/secondAccount")
        page.get_by_test_id("second-link").click()
        page.wait_for_url("**/second")
        expect(panel.get_by_test_id("second-available")).to_have_text("1000.0000 USDT")

        # A stake must be above 0 (spec §5: the trade page's p_num); nothing is sent.
        panel.get_by_test_id("second-stake").fill("0")
        panel.get_by_test_id("second-up").click()
        expect(panel.get_by_test_id("second-error")).to_have_text("Please enter a quantity")
        expect(page.get_by_test_id("second-confirm")).to_have_count(0)

        # A preset stake is sent as lx 2; the product switched off answers with its message, shown
        # in the dialog (the screen's side only: the refusal itself is tests/api/test_micro.py's).
        panel.get_by_test_id("second-preset-10").click()
        expect(panel.get_by_test_id("second-stake")).to_have_value("10")
        expect(panel.get_by_test_id("second-error")).to_be_empty()
        page.route(
            "**/api/microtrade/submit",
            lambda route: route.fulfill(status=403, json={"code": 0, "msg": SWITCHED_OFF, "data": None}),
        )
        panel.get_by_test_id("second-down").click()
        dialog = page.get_by_test_id("second-confirm")
        with page.expect_request("**/api/microtrade/submit") as sent:
            dialog.get_by_test_id("second-confirm-ok").click()
        assert sent.value.post_data_json["lx"] == 2 and sent.value.post_data_json["type"] == 2
        expect(dialog.get_by_test_id("second-confirm-error")).to_have_text(SWITCHED_OFF)
        dialog.get_by_test_id("second-confirm-cancel").click()
        expect(dialog).to_have_count(0)
        page.unroute("**/api/microtrade/submit")

        # Up for 30 s with a typed stake (lx 1): the dialog shows what will be sent and the payout of a win.
        panel.get_by_test_id("second-stake").fill(str(STAKE))
        panel.get_by_test_id("second-seconds-30").click()
        payout = STAKE + STAKE * RATIO / 100
        expect(panel.get_by_test_id("second-payout")).to_have_text(f"{_plain(str(payout))} USDT")
        panel.get_by_test_id("second-up").click()
        expect(dialog.get_by_test_id("second-confirm-pair")).to_have_text("BTC/USDT")
        expect(dialog.get_by_test_id("second-confirm-direction")).to_have_text("Up")
        expect(dialog.get_by_test_id("second-confirm-stake")).to_have_text("25 USDT")
        expect(dialog.get_by_test_id("second-confirm-duration")).to_have_text("30 s")
        expect(dialog.get_by_test_id("second-confirm-percent")).to_have_text("80%")
        expect(dialog.get_by_test_id("second-confirm-payout")).to_have_text("45 USDT")
        with page.expect_request("**/api/microtrade/submit") as sent:
            dialog.get_by_test_id("second-confirm-ok").click()
        assert sent.value.post_data_json == {"match_id": 1, "currency_id": USDT, "type": 1, "lx": 1, "seconds": 30,
                                             "number": "25"}  # fmt: skip
        expect(dialog).to_have_count(0)

        # The row counts down in "in progress"; the stake is held.
        open_rows = page.get_by_test_id("second-table-open").get_by_test_id("micro-row")
        expect(open_rows).to_have_count(1)
        order_id = int(open_rows.first.get_attribute("data-order-id") or 0)
        assert open_rows.first.get_attribute("data-type") == UP
        remaining = open_rows.first.get_by_test_id("micro-remaining")
        expect(remaining).to_have_text(CLOCK)
        before = remaining.inner_text()
        expect(remaining).not_to_have_text(before, timeout=5_000)
        expect(remaining).to_have_text(CLOCK)
        expect(panel.get_by_test_id("second-available")).to_have_text("975.0000 USDT")
        assert _micro_usdt(api, m) == (Decimal(975), STAKE)
        screenshot(page, "second-dark")
        page.get_by_test_id("theme-switch").click()
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        page.wait_for_timeout(500)  # the chart redraws with the light palette
        screenshot(page, "second-light")

        # Past the end, MICRO_CLOSED moves it out of "in progress" and into "closed".
        expect(open_rows).to_have_count(0, timeout=90_000)
        expect(page.get_by_test_id("second-history-empty")).to_be_visible()
        page.get_by_test_id("second-tab-closed").click()
        closed = page.get_by_test_id("second-table-closed").get_by_test_id("micro-row")
        expect(closed).to_have_count(1)
        row = closed.first
        assert row.get_attribute("data-order-id") == str(order_id)

        # The outcome is the one the public proof gives on the ticks, and the money follows it.
        proof = ok(api.get("microtrade/proof", params={"id": order_id}))
        verdict = proof["verdict"]
        assert proof["chained"] is True
        expect(row).to_have_attribute("data-outcome", verdict["outcome"])
        expect(row.get_by_test_id("micro-outcome")).to_have_text(OUTCOMES[verdict["outcome"]])
        if verdict["open_price"] is not None:
            expect(row.get_by_test_id("micro-open-price")).to_have_text(_plain(verdict["open_price"]))
            expect(row.get_by_test_id("micro-end-price")).to_have_text(_plain(verdict["end_price"]))
        expect(row.get_by_test_id("micro-profit")).to_have_text(_cut(verdict["fact_profits"]))
        balance, lock = _micro_usdt(api, m)
        assert (balance, lock) == (Decimal(975) + Decimal(verdict["payout"]), Decimal(0))
        expect(panel.get_by_test_id("second-available")).to_have_text(f"{_cut(balance)} USDT")

        # The proof dialog: the browser recomputed the chain and reached the same verdict.
        row.get_by_test_id("micro-proof").click()
        shown = page.get_by_test_id("second-proof")
        verdict_line = shown.get_by_test_id("proof-verdict")
        expect(verdict_line).to_have_attribute("data-verified", "true")
        expect(verdict_line).to_have_attribute("data-outcome", verdict["outcome"])
        expect(shown.get_by_test_id("proof-chain")).to_have_attribute("data-state", "ok")
        expect(shown.get_by_test_id("proof-chain")).to_contain_text("Checked in this browser")
        expect(shown.get_by_test_id("proof-tick-count")).to_have_text(f"{_span(proof)} ticks from entry to exit")
        if verdict["entry_tick_id"] is not None:
            expect(shown.get_by_test_id("proof-entry")).to_contain_text(f"#{verdict['entry_tick_id']} ")
            expect(shown.get_by_test_id("proof-exit")).to_contain_text(f"#{verdict['exit_tick_id']} ")
            expect(shown.get_by_test_id("proof-entry-first")).to_have_attribute("data-state", "ok")
        expect(shown.get_by_test_id("proof-outcome")).to_have_attribute("data-state", "ok")
        expect(shown.get_by_test_id("proof-payout")).to_have_attribute("data-state", "ok")
        expect(shown.get_by_test_id("proof-tick")).to_have_count(len(proof["ticks"]) + (1 if proof["anchor"] else 0))
        screenshot(page, "second-proof")
        shown.get_by_test_id("proof-close").click()
        expect(shown).to_have_count(0)

        # The screen speaks the chosen language, the trade page's p_num included.
        page.get_by_test_id("language-select").select_option("hk")
        expect(panel.get_by_test_id("second-up")).to_have_text("買漲")
        expect(page.get_by_test_id("second-tab-closed")).to_have_text("已平倉")
        expect(row.get_by_test_id("micro-outcome")).to_have_text(OUTCOMES_HK[verdict["outcome"]])
        panel.get_by_test_id("second-stake").fill("0")
        panel.get_by_test_id("second-down").click()
        expect(panel.get_by_test_id("second-error")).to_have_text("請輸入數量")
    # The refused order of the switched-off check logs its 403.
    assert [e for e in console_errors if "403" not in e] == []


def test_a_visitor_on_second_is_sent_to_log_in_first(page: Page) -> None:
    page.goto("/second")
    page.wait_for_url(re.compile(r"/login\?.*page=%2Fsecond"))
    expect(page.get_by_test_id("login-banner")).to_have_text("Please log in first to trade.")
