"""The P2P market in Chromium (issue 14), against ``exchange up``: two browsers, a merchant and a buyer.

The merchant (real name approved, deal password set, an alipay collection method in their name, USDT
in the legal account) applies in the store page and is approved by the operator's CLI, then posts a
sell ad in the browser. The buyer takes it from the market by fiat, sees the seller's details and
the window's countdown, and marks it paid with a proof image; the merchant's pages follow live (the
order appears in "orders on my ads", the order page turns to "paid") and they release with the deal
password; the buyer's page turns to completed by itself and the coins are in their legal account.
The merchant works in the dark theme, the buyer in the light one."""

from __future__ import annotations

import re
import struct
import zlib
from decimal import Decimal
from types import SimpleNamespace

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.utils.up import Instance
from tests.utils.users import Member, auth, end_resend_window, member, ok, send_code

USDT = 1
DEAL = "Deal12345"
PRICE = Decimal("7.2")  # below the demo merchants' 7.22: the ad is the first a buyer sees
STOCK = Decimal(300)


def _png() -> bytes:
    """A valid 1 x 1 PNG (the pages show uploaded images)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00\xff\x80\x00"))
        + chunk(b"IEND", b"")
    )


PNG = _png()


def _upload(api: httpx.Client, m: Member) -> str:
    answer = api.post("common/image_upload", files={"file": ("i.png", PNG, "image/png")}, headers=m.auth)
    return str(ok(answer)["url"])


def _verified(api: httpx.Client, web: Instance, name: str) -> Member:
    """A new user whose real name ``name`` the operator approved."""
    m = member(api)
    pics = {key: _upload(api, m) for key in ("front_pic", "reverse_pic", "hand_pic")}
    ok(api.post("user_real/real_name", json={"name": name, "card_id": f"ID{m.uid:08d}", **pics}, headers=m.auth))
    web.cli("real-name", "approve", str(m.uid))
    return m


def _legal_usdt(api: httpx.Client, m: Member) -> tuple[Decimal, Decimal]:
    """(balance, lock) of the user's legal (P2P) account in USDT."""
    for group in ok(api.get("account/list", headers=auth(m.token))):
        if group["account_code"] == "legal_account":
            for account in group["accounts"]:
                if account["currency_id"] == USDT:
                    return Decimal(account["balance"]), Decimal(account["lock_balance"])
    return Decimal(0), Decimal(0)


@pytest.fixture
def merchant(api: httpx.Client, web: Instance) -> Member:
    """Real name approved, deal password ``DEAL``, alipay in their name, 500 USDT in the legal account;
    not yet a merchant."""
    m = _verified(api, web, "Lin Wei")
    end_resend_window(SimpleNamespace(redis_url=f"unix://{web.data_dir}/redis.sock"), m.account)
    code = send_code(api, m.account, 3, token=m.token)
    ok(api.post("user/amend_pay_password", headers=m.auth,
                json={"password": DEAL, "re_password": DEAL, "auth_code": code, "login_password": m.password}))  # fmt: skip
    raw = {"real_name": "Lin Wei", "account": "linwei@example.com", "qrcode": _upload(api, m)}
    ok(api.post("pay_method/save", json={"type": "alipay", "raw_data": raw}, headers=m.auth))
    web.cli("deposit", m.account, "USDT", "500")
    body = {"currency_id": USDT, "balance": "500", "from": "change_account", "to": "legal_account"}
    ok(api.post("account/transfer", json=body, headers=m.auth))
    return m


def _context(
    browser: Browser, web: Instance, m: Member, theme: str, errors: ConsoleErrors
) -> tuple[BrowserContext, Page]:
    """A browser of its own, logged in as ``m``, in ``theme``."""
    context = browser.new_context(base_url=web.url, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"{theme}: {message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"{theme}: uncaught: {error}"))
    page.goto("/home")
    page.evaluate("([token, theme]) => { localStorage.setItem('token', token); localStorage.setItem('theme', theme); }",
                  [m.token, theme])  # fmt: skip
    return context, page


def test_a_visitor_sees_the_market_and_is_asked_to_log_in(page: Page, console_errors: ConsoleErrors) -> None:
    page.goto("/legalIndex/legal")
    ads = page.get_by_test_id("p2p-ad")
    expect(ads.first).to_be_visible()  # the demo merchants' ads
    expect(page.get_by_test_id("p2p-currency-USDT")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("p2p-nav-orders")).to_have_count(0)
    action = ads.first.get_by_test_id("p2p-ad-action")
    expect(action).to_have_text("Log in to trade")
    action.click()
    page.wait_for_url("**/login?page=%2FlegalIndex%2Flegal")
    assert console_errors == []


def test_a_whole_trade_between_a_merchant_and_a_buyer(
    browser: Browser, web: Instance, api: httpx.Client, merchant: Member, console_errors: ConsoleErrors
) -> None:
    buyer = _verified(api, web, "Zhang San")
    seller_ctx, seller = _context(browser, web, merchant, "dark", console_errors)
    buyer_ctx, shopper = _context(browser, web, buyer, "light", console_errors)
    try:
        # The merchant applies in the store page: the levels show what is done, then the operator approves.
        seller.goto("/myshop/myshoporders")
        apply = seller.get_by_test_id("p2p-merchant-apply")
        expect(apply.get_by_test_id("p2p-merchant-status")).to_have_text("Not applied")
        expect(apply.get_by_test_id("p2p-level-real_name")).to_have_attribute("data-done", "true")
        expect(apply.get_by_test_id("p2p-level-advanced")).to_have_attribute("data-done", "false")
        screenshot(seller, "p2p-apply-dark")
        nickname = f"Lin{merchant.uid}"
        apply.get_by_test_id("p2p-apply-nickname").fill(nickname)
        apply.get_by_test_id("p2p-apply-submit").click()
        expect(seller.get_by_test_id("p2p-merchant-pending")).to_contain_text(nickname)
        web.cli("merchant", "approve", merchant.account)
        seller.reload()
        expect(seller.get_by_test_id("p2p-shop-nickname")).to_have_text(nickname)
        expect(seller.get_by_test_id("p2p-empty")).to_be_visible()  # no ads yet

        # A sell ad of 300 USDT at 7.2 CNY, 100-2000 CNY an order, paid by alipay (the one saved method).
        seller.get_by_test_id("p2p-post-ad").click()
        form = seller.get_by_test_id("p2p-ad-form")
        expect(form.get_by_test_id("p2p-ad-form-method-wxpay")).to_have_count(0)  # not saved: not offered
        form.get_by_test_id("p2p-ad-form-price").fill(str(PRICE))
        form.get_by_test_id("p2p-ad-form-min").fill("100")
        form.get_by_test_id("p2p-ad-form-max").fill("2000")
        form.get_by_test_id("p2p-ad-form-total").fill(str(STOCK))
        expect(form.get_by_test_id("p2p-ad-form-worth")).to_contain_text("2160.00 CNY")
        form.get_by_test_id("p2p-ad-form-ok").click()
        expect(form.get_by_test_id("form-error")).to_have_text("Choose 1 to 3 payment methods.")
        form.get_by_test_id("p2p-ad-form-method-alipay").check()
        form.get_by_test_id("p2p-ad-form-remarks").fill("Pay from your own account, please.")
        screenshot(seller, "p2p-ad-form-dark")
        form.get_by_test_id("p2p-ad-form-ok").click()
        expect(form).to_have_count(0)
        row = seller.get_by_test_id("p2p-my-ad")
        expect(row).to_have_count(1)
        expect(row).to_have_attribute("data-status", "1")
        expect(row.get_by_test_id("p2p-my-ad-stock")).to_have_text("300")
        ad_id = int(row.get_attribute("data-id") or 0)
        assert _legal_usdt(api, merchant) == (Decimal(200), STOCK)  # the ad's total is locked
        screenshot(seller, "p2p-shop-dark")

        # The merchant waits on "orders on my ads"; it shows the new order by itself.
        seller.get_by_test_id("p2p-nav-shop-orders").click()
        seller.wait_for_url("**/myshop/shoporders")
        expect(seller.get_by_test_id("p2p-empty")).to_be_visible()

        # The buyer takes the ad by fiat: 720 CNY buys 100 USDT at 7.2.
        shopper.goto("/legalIndex/legal")
        expect(shopper.locator("html")).to_have_attribute("data-theme", "light")
        ad = shopper.locator(f"[data-testid=p2p-ad][data-id='{ad_id}']")
        expect(ad.get_by_test_id("p2p-ad-merchant")).to_have_text(nickname)
        expect(ad.get_by_test_id("p2p-ad-price")).to_have_text("7.20")
        expect(ad.get_by_test_id("p2p-ad-limits")).to_have_text("100.00 – 2000.00 CNY")
        expect(ad.get_by_test_id("p2p-ad-stock")).to_have_text("300 USDT")
        expect(ad.get_by_test_id("p2p-ad-methods")).to_have_text("Alipay")
        background = shopper.locator(".panel").first.evaluate("e => getComputedStyle(e).backgroundColor")
        assert background == "rgb(255, 255, 255)", background
        screenshot(shopper, "p2p-market-light")
        ad.get_by_test_id("p2p-ad-action").click()
        dialog = shopper.get_by_test_id("p2p-order-dialog")
        dialog.get_by_test_id("p2p-order-fiat").fill("99")
        expect(dialog.get_by_test_id("p2p-order-total")).to_have_text("99.00 CNY")
        dialog.get_by_test_id("p2p-order-dialog-ok").click()
        expect(dialog.get_by_test_id("form-error")).to_have_text("The minimum per order is 100.00 CNY.")
        dialog.get_by_test_id("p2p-order-fiat").fill("720")
        expect(dialog.get_by_test_id("p2p-order-coin")).to_have_value(re.compile(r"^100(\.0+)?$"))
        expect(dialog.get_by_test_id("p2p-order-amount")).to_have_text("100 USDT")
        expect(dialog.get_by_test_id("p2p-order-total")).to_have_text("720.00 CNY")
        expect(dialog.get_by_test_id("p2p-order-method-alipay")).to_be_checked()
        screenshot(shopper, "p2p-order-dialog-light")
        dialog.get_by_test_id("p2p-order-dialog-ok").click()
        shopper.wait_for_url(re.compile(r"/legalIndex/orderdetail\?id=\d+$"))
        order_id = int(shopper.url.rsplit("=", 1)[1])

        order = shopper.get_by_test_id("p2p-order")
        expect(order).to_have_attribute("data-state", "1")
        expect(order.get_by_test_id("p2p-order-state")).to_have_text("Unpaid")
        expect(order.get_by_test_id("p2p-countdown")).to_have_text(re.compile(r"^1[45]:\d\d$"))
        expect(order.get_by_test_id("p2p-order-amount")).to_have_text("100 USDT")
        expect(order.get_by_test_id("p2p-order-total")).to_have_text("720.00 CNY")
        expect(order.get_by_test_id("p2p-order-number")).to_contain_text(str(order_id))
        pay = order.get_by_test_id("p2p-pay-details")
        expect(pay.get_by_test_id("p2p-pay-name")).to_have_text("Lin Wei")
        expect(pay.get_by_test_id("p2p-pay-account")).to_have_text("linwei@example.com")
        expect(pay.get_by_test_id("p2p-pay-qrcode")).to_be_visible()
        expect(order.get_by_test_id("p2p-counterparty-name")).to_have_text("L*** Wei")
        expect(order.get_by_test_id("p2p-action-release")).to_have_count(0)
        screenshot(shopper, "p2p-order-unpaid-light")

        # The merchant's list shows the order without a reload; they open it.
        shop_row = seller.locator(f"[data-testid=p2p-order-row][data-id='{order_id}']")
        expect(shop_row.get_by_test_id("p2p-order-row-state")).to_have_text("Unpaid")
        shop_row.get_by_test_id("p2p-order-link").click()
        seller.wait_for_url(f"**/myshop/shoporderdetail?id={order_id}")
        mine = seller.get_by_test_id("p2p-order")
        expect(mine).to_have_attribute("data-role", "seller")
        expect(mine.get_by_test_id("p2p-counterparty-name")).to_have_text("Z*** San")
        expect(mine.get_by_test_id("p2p-actions")).to_have_count(0)  # nothing to do until paid
        expect(seller.get_by_test_id("p2p-back")).to_have_attribute("href", "/myshop/shoporders")

        # The buyer pays with a proof image; the merchant's page turns to "paid" by itself.
        order.get_by_test_id("p2p-action-paid").click()
        paid = shopper.get_by_test_id("p2p-paid-dialog")
        paid.get_by_test_id("p2p-proof-upload-file").set_input_files(
            files=[{"name": "proof.png", "mimeType": "image/png", "buffer": PNG}]
        )
        expect(paid.locator(".p2p-thumb img")).to_have_count(1)
        paid.get_by_test_id("p2p-paid-dialog-ok").click()
        expect(order).to_have_attribute("data-state", "2")
        expect(order.get_by_test_id("p2p-countdown")).to_have_count(0)
        expect(mine).to_have_attribute("data-state", "2")
        expect(mine.get_by_test_id("p2p-proof")).to_be_visible()
        screenshot(seller, "p2p-order-paid-dark")

        # The merchant releases with the deal password (asked for first); the buyer sees it completed.
        mine.get_by_test_id("p2p-action-release").click()
        release = seller.get_by_test_id("p2p-release-dialog")
        release.get_by_test_id("p2p-release-dialog-ok").click()
        expect(release.get_by_test_id("form-error")).to_have_text("Enter your deal password.")
        release.get_by_test_id("p2p-pay-password").fill(DEAL)
        release.get_by_test_id("p2p-release-dialog-ok").click()
        expect(mine).to_have_attribute("data-state", "3")
        expect(mine.get_by_test_id("p2p-order-state")).to_have_text("Completed")
        screenshot(seller, "p2p-order-completed-dark")
        expect(order).to_have_attribute("data-state", "3")
        expect(order.get_by_test_id("p2p-banner-text")).to_have_text("Completed: the coins are in your P2P account.")
        expect(order.get_by_test_id("p2p-event")).to_have_count(3)  # opened, paid, completed
        assert _legal_usdt(api, buyer) == (Decimal(100), Decimal(0))
        assert _legal_usdt(api, merchant) == (Decimal(200), STOCK - 100)

        # The buyer's orders list it as completed; the merchant's ad has 200 left.
        shopper.get_by_test_id("p2p-nav-orders").click()
        done = shopper.locator(f"[data-testid=p2p-order-row][data-id='{order_id}']")
        expect(done.get_by_test_id("p2p-order-row-state")).to_have_text("Completed")
        shopper.get_by_test_id("p2p-state-3").click()
        expect(shopper.get_by_test_id("p2p-order-row")).to_have_count(1)
        seller.get_by_test_id("p2p-nav-shop").click()
        expect(seller.get_by_test_id("p2p-my-ad").get_by_test_id("p2p-my-ad-stock")).to_have_text("200")
        background = seller.locator(".panel").first.evaluate("e => getComputedStyle(e).backgroundColor")
        assert background == "rgb(22, 26, 30)", background
    finally:
        seller_ctx.close()
        buyer_ctx.close()
    assert console_errors == []
