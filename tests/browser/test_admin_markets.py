"""The console's lever terms and currencies in Chromium (issue 16), against ``exchange up``: a markets
operator opens ETH/USDT's lever terms, raises the fee with a reason, and the trader's next position
pays it at once; then stops offering lever on the pair from the same form, and the next open is
refused while the open position still closes. Both changes are in the audit trail. The currencies
screen lists the currencies with their switches and bounds."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import ROUND_CEILING, Decimal
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_admin import _admin_api, _log_in, _menu, _operator
from tests.utils.spot import ETH_USDT
from tests.utils.up import Instance
from tests.utils.users import Member, error, member, ok

LONG, MARKET = 1, 1


@pytest.fixture
def api(web: Instance) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as client:
        yield client


def _lever_trader(web: Instance, api: httpx.Client) -> Member:
    trader = member(api)
    web.cli("deposit", trader.account, "USDT", "1000")
    body = {"currency_id": 1, "balance": "1000", "from": "change_account", "to": "lever_account"}
    ok(api.post("account/transfer", json=body, headers=trader.auth))
    return trader


def _open(api: httpx.Client, trader: Member) -> httpx.Response:
    body = {"currency_match_id": ETH_USDT, "type": LONG, "status": MARKET, "share": 1, "multiple": 5}
    return api.post("lever/submit", json=body, headers=trader.auth)


def _fee(position: dict[str, Any], rate: str) -> Decimal:
    value = Decimal(position["price"]) * Decimal(position["number"]) * Decimal(rate)
    return value.quantize(Decimal("0.000001"), rounding=ROUND_CEILING)


def test_a_markets_operator_raises_a_lever_fee_and_stops_lever_on_a_pair(
    page: Page, web: Instance, api: httpx.Client, console_errors: ConsoleErrors
) -> None:
    email, one_time, secret = _operator(web, "markets")
    trader = _lever_trader(web, api)
    _log_in(page, email, one_time, secret)
    assert _menu(page) == ["dashboard", "markets", "currencies", "placement"]
    token = page.evaluate("localStorage.getItem('admin_token')")
    console = {"Authorization": token}
    seeded = next(p for p in ok(api.get("admin/pairs", headers=console)) if p["id"] == ETH_USDT)
    opened: list[int] = []
    try:
        page.locator("[data-menu=markets]").click()
        page.wait_for_url("**/admin/markets")
        expect(page.get_by_test_id(f"markets-lever-state-{ETH_USDT}")).to_have_text("Offered")

        # The lever terms form: the fee raised with a reason; the row says every shard took it.
        page.get_by_test_id(f"markets-lever-{ETH_USDT}").click()
        form = page.get_by_test_id(f"markets-form-{ETH_USDT}")
        expect(form).to_contain_text("ETH/USDT: lever terms")
        fee = form.locator("input[name=lever_fee_rate]")
        expect(fee).to_have_value(seeded["lever_fee_rate"])
        fee.fill("0.002")
        form.locator("input[name=reason]").fill("fee review")
        screenshot(page, "admin-markets-lever")
        form.get_by_role("button", name="Save").click()
        expect(page.get_by_test_id(f"markets-saved-{ETH_USDT}")).to_have_text(
            "Saved; every lever shard makes new positions with it"
        )
        position = ok(_open(api, trader))  # the next position, at once
        opened.append(position["id"])
        assert Decimal(position["trade_fee"]) == _fee(position, "0.002") != _fee(position, seeded["lever_fee_rate"])

        # Lever stopped on the pair from the same form: the next open is refused, the open one closes.
        page.get_by_test_id(f"markets-lever-{ETH_USDT}").click()
        page.get_by_test_id(f"markets-switch-{ETH_USDT}").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text("Stop offering lever on ETH/USDT?")
        dialog.locator("textarea").fill("risk review")
        dialog.get_by_role("button", name="Confirm").click()
        expect(page.get_by_test_id(f"markets-lever-state-{ETH_USDT}")).to_have_text("Off")
        assert error(_open(api, trader), 400) == "Leveraged trading is not offered on this pair"
        closed = ok(api.post("lever/close", json={"id": position["id"]}, headers=trader.auth))
        assert closed["status"] == 3

        page.locator("[data-menu=currencies]").click()
        page.wait_for_url("**/admin/currencies")
        expect(page.get_by_test_id("currencies-row-1")).to_contain_text("USDT")
        expect(page.get_by_test_id("currencies-withdrawals-1")).to_have_text("Open")
    finally:
        restore = {"id": ETH_USDT, "open_lever": True, "lever_fee_rate": seeded["lever_fee_rate"], "reason": "teardown"}
        ok(api.post("admin/pairs/lever", json=restore, headers=console))
        for position_id in opened:
            api.post("lever/close", json={"id": position_id}, headers=trader.auth)

    trail = ok(api.get("admin/audit", params={"action": "pair.lever", "operator": email},
                       headers=_admin_api(web, api)))["list"]  # fmt: skip
    changes = [(r["before"], r["after"], r["reason"]) for r in reversed(trail)][:2]  # oldest first
    assert changes == [
        ({"lever_fee_rate": seeded["lever_fee_rate"]}, {"lever_fee_rate": "0.002"}, "fee review"),
        ({"open_lever": True}, {"open_lever": False}, "risk review"),
    ], trail
    assert console_errors == []
