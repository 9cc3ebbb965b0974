"""The operator console in Chromium (issue 16), against ``exchange up``: a new operator made by
``exchange operator add`` logs in with the one-time password and a TOTP code, sets their own
password, approves a real-name review and a withdrawal (a large one waits for a second operator),
resolves a P2P appeal, edits a notice that the public notice page then shows, and reads each action
in the audit trail (filtered, and exported as CSV). A support operator sees no finance menu and gets
the role message on a finance address. A content operator sets the App Store link that the home page
then shows, and clears it again, and hides a member's invite and authorization codes; support finds a phone code's message, sent and its code masked, on the
SMS page. The console is used in the dark theme, then the light one, and in Traditional Chinese once.
(Markets and finance screens: test_admin_markets.py; products:
test_admin_products.py.)"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
import time
import uuid

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_p2p import PNG
from tests.utils.console import log_in, menu, new_operator
from tests.utils.up import Instance
from tests.utils.users import Member, member, ok, unique_mobile

EVERY_SCREEN = [
    "dashboard",
    "realNames",
    "withdrawals",
    "deposits",
    "conservation",
    "chain",
    "appeals",
    "users",
    "sms",
    "content",
    "audit",
]
IMAGE = "data:image/png;base64," + base64.b64encode(PNG).decode()

# Run inside the instance's environment (its own SQLite): the DB-side set-up the API cannot do in a
# test's time (a withdrawal needs a deal password set a day ago; an appeal needs two traders and a
# merchant), through the same helpers as tests/api/test_admin_queues.py; the ad is saved by the store
# as `shop/ad/save` would.
SETUP = r"""
import asyncio, json, sys, uuid
from decimal import Decimal

import httpx


async def main(kind: str, args: dict) -> object:
    from config.settings import get_settings
    from store import withdrawals
    from store.db import close_db, init_db
    from tests.utils.users import Member, ok

    await init_db(get_settings())
    try:
        if kind == "withdrawal":
            from tests.utils.wallets import USDT
            return await withdrawals.request(uid=args["uid"], currency_id=USDT, protocol_id=2, address="T" + "a" * 33,
                                             memo="", amount=Decimal(args["amount"]), fee=Decimal(1),
                                             ref=f"console-{uuid.uuid4().hex}", confirmations=6)
        from store.p2p import ads
        from store.times import now_ms
        from tests.utils.p2p import act, ad_body, open_order, trader
        with httpx.Client(base_url=args["url"] + "/api/", timeout=30) as api:
            merchant = await trader(api, legal={"USDT": "500"}, merchant=True)
            buyer = await trader(api)
            body = {k: v for k, v in ad_body(total="300").items()}
            fields = {k: Decimal(body[k]) for k in ("price", "min_fiat", "max_fiat", "total")}
            ad = await ads.save(merchant.uid, None, ads.AdInput(side=body["side"], currency_id=body["currency_id"],
                                fiat=body["fiat"], methods=tuple(body["methods"]), window_min=body["window_min"],
                                remarks=body["remarks"], **fields), now_ms())
            order = ok(open_order(api, buyer, ad.id, "100"))
            ok(act(api, buyer, "paid", order["id"]))
            ok(act(api, merchant, "appeal", order["id"], reason="no money arrived on my account"))
            ok(act(api, buyer, "reply", order["id"], reason="I paid by bank transfer at noon"))  # the other side
            return order["id"]
    finally:
        await close_db()


print(json.dumps(asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))))
"""


def _setup(web: Instance, kind: str, **args: object) -> int:
    done = subprocess.run([sys.executable, "-c", SETUP, kind, json.dumps(args)], env=web.env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return int(json.loads(done.stdout.strip().splitlines()[-1]))


def _under_review(api: httpx.Client) -> Member:
    """A user whose real name (three images) waits for support."""
    m = member(api)

    def upload() -> str:
        answer = api.post("common/image_upload", files={"file": ("i.png", PNG, "image/png")}, headers=m.auth)
        return str(ok(answer)["url"])

    pics = {key: upload() for key in ("front_pic", "reverse_pic", "hand_pic")}
    ok(
        api.post(
            "user_real/real_name", json={"name": "Chan Tai Man", "card_id": f"ID{m.uid:08d}", **pics}, headers=m.auth
        )
    )
    return m


def test_a_new_operator_works_the_queues_and_reads_the_trail(
    page: Page, web: Instance, api: httpx.Client, console_errors: ConsoleErrors
) -> None:
    email, one_time, secret = new_operator(web, "support", "finance", "risk", "content", "admin")
    applicant = _under_review(api)
    payer = member(api)
    web.cli("deposit", payer.account, "USDT", "20200")
    small = _setup(web, "withdrawal", uid=payer.uid, amount="100")
    large = _setup(web, "withdrawal", uid=payer.uid, amount="20000")
    appeal = _setup(web, "appeal", url=web.url)

    log_in(page, email, one_time, secret)
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert menu(page) == EVERY_SCREEN
    assert page.locator("header").count() == 0  # the console's own shell, not the user header
    screenshot(page, "admin-dashboard-dark")

    # Real names: the three images side by side, approved.
    page.get_by_test_id("queue-realNames").locator("xpath=..").get_by_role("link").click()
    page.wait_for_url("**/admin/real-names")
    review = page.get_by_test_id(f"realname-{applicant.uid}")
    expect(review.locator("img")).to_have_count(3)
    expect(review.get_by_role("button", name="Reject")).to_be_disabled()  # a reason first
    screenshot(page, "admin-real-names-dark")
    review.get_by_role("button", name="Approve").click()
    expect(review).to_have_count(0)

    # Withdrawals: the small one settles, the large one waits for a second operator.
    page.locator("[data-menu=withdrawals]").click()
    big = page.get_by_test_id(f"withdrawal-{large}")
    expect(big.get_by_text("Needs two approvals")).to_be_visible()
    expect(big).to_contain_text("$20000")
    expect(page.get_by_test_id(f"withdrawal-{small}").get_by_text("Needs two approvals")).to_have_count(0)
    page.get_by_test_id(f"withdrawal-{small}").get_by_role("button", name="Approve").click()
    expect(page.get_by_test_id(f"withdrawal-{small}")).to_have_count(0)
    big.get_by_role("button", name="Approve").click()
    expect(big.get_by_text("Waiting for a second operator")).to_be_visible()
    expect(big).to_contain_text(f"First approval: {email}")
    screenshot(page, "admin-withdrawals-dark")

    # The conservation audit: one row per currency, each green or red with its difference.
    page.locator("[data-menu=conservation]").click()
    expect(page.get_by_test_id("conservation-USDT")).to_have_class(re.compile(r"adm-row-(ok|bad)"))

    # The P2P appeal, resolved to the seller after the confirmation.
    page.locator("[data-menu=appeals]").click()
    card = page.get_by_test_id(f"appeal-{appeal}")
    expect(card).to_contain_text("no money arrived on my account")
    expect(card).to_contain_text("Appeal by the Seller")
    expect(card.get_by_test_id(f"appeal-reply-{appeal}")).to_contain_text("I paid by bank transfer at noon")
    expect(card.get_by_test_id(f"appeal-reply-{appeal}")).to_contain_text("Answer from the Buyer")
    card.get_by_role("button", name="Return to seller").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(f"Return order #{appeal}'s coins to the seller?")
    dialog.locator("textarea").fill("the buyer showed no payment")
    dialog.get_by_role("button", name="Confirm").click()
    expect(card).to_have_count(0)

    # Content, in the light theme: a notice added, then edited; its preview is sanitised.
    page.get_by_test_id("admin-theme").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.locator("[data-menu=content]").click()
    page.get_by_role("button", name="New notice").click()
    editor = page.locator("form.adm-editor")
    title = f"Maintenance {uuid.uuid4().hex[:6]}"
    page.locator("input[name=title]").fill(title)
    page.locator("textarea[name=content]").fill(
        f'<p><b>Bold</b> news</p><img src="{IMAGE}" onerror="alert(1)"><script>alert(2)</script>'
    )
    preview = page.get_by_test_id("notice-preview")
    expect(preview.locator("b")).to_have_text("Bold")
    expect(preview.locator("script")).to_have_count(0)
    assert preview.locator("img").get_attribute("onerror") is None
    editor.get_by_role("button", name="Save").click()
    row = page.locator("[data-testid^=notice-]", has_text=title)
    expect(row).to_have_count(1)
    notice_id = int((row.get_attribute("data-testid") or "").rsplit("-", 1)[1])
    row.get_by_role("button", name="Edit").click()
    edited = f"{title} (extended)"
    page.locator("input[name=title]").fill(edited)
    category = page.locator("select[name=category_id]").input_value()
    screenshot(page, "admin-notice-editor-light")
    editor.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id(f"notice-{notice_id}")).to_contain_text(edited)
    background = page.locator(".adm-side").evaluate("e => getComputedStyle(e).backgroundColor")
    assert background == "rgb(255, 255, 255)", background

    # The audit trail shows each action, filters by prefix and exports CSV.
    page.locator("[data-menu=audit]").click()
    for action in ("real_name.approve", "withdrawal.approve", "withdrawal.approve_first", "p2p.resolve",
                   "news.add", "news.edit", "operator.password", "operator.login"):  # fmt: skip
        expect(page.locator(f"tr[data-action='{action}']").first).to_be_visible()
    expect(page.locator("tr[data-action='p2p.resolve']").first).to_contain_text("the buyer showed no payment")
    page.locator("input[name=action]").fill("withdrawal.")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("tr[data-action='p2p.resolve']")).to_have_count(0)
    expect(page.locator("tr[data-action^='withdrawal.']")).to_have_count(2)
    with page.expect_download() as download:
        page.get_by_role("button", name="Export CSV").click()
    csv = open(download.value.path(), encoding="utf-8").read()
    assert f"withdrawal:{small}" in csv and f"withdrawal:{large}" in csv and "p2p.resolve" not in csv, csv
    screenshot(page, "admin-audit-light")

    # Traditional Chinese.
    page.get_by_test_id("admin-lang").click()
    expect(page.locator("[data-menu=audit]")).to_have_text("操作日誌")
    page.get_by_test_id("admin-lang").click()

    # The public notice page shows the edit.
    page.goto(f"/notice?category_id={category}&id={notice_id}")
    expect(page.get_by_text(edited).first).to_be_visible()
    assert console_errors == []


def test_support_sees_no_finance_menu_and_gets_the_role_message(
    page: Page, web: Instance, console_errors: ConsoleErrors
) -> None:
    email, one_time, secret = new_operator(web, "support")
    log_in(page, email, one_time, secret)
    assert menu(page) == ["dashboard", "realNames", "users", "sms"]
    page.goto("/admin/withdrawals")
    expect(page.get_by_role("alert")).to_have_text("Your role does not allow this page.")
    page.goto("/admin/audit")
    expect(page.get_by_role("alert")).to_have_text("Your role does not allow this page.")
    screenshot(page, "admin-support-role-dark")
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/admin/login")
    assert page.evaluate("localStorage.getItem('admin_token')") is None
    assert console_errors == []


def _save_setting(page: Page, key: str, value: str) -> int:
    """Types a site setting on the console's content screen and saves it: the save's HTTP status."""
    field = page.locator(f"input[name=setting-{key}]")
    field.fill(value)
    with page.expect_response(lambda r: r.url.endswith("/settings/save")) as saved:
        field.locator("xpath=ancestor::tr").get_by_role("button", name="Save").click()
    return saved.value.status


def test_a_content_operator_sets_the_app_store_link_that_the_home_page_shows(
    page: Page, web: Instance, console_errors: ConsoleErrors
) -> None:
    link = f"https://apps.apple.com/app/exchange/id{uuid.uuid4().int % 10**10}"
    email, one_time, secret = new_operator(web, "content")
    log_in(page, email, one_time, secret)
    page.locator("[data-menu=content]").click()
    page.wait_for_url("**/admin/content")
    assert _save_setting(page, "app_download_ios", "http://apps.apple.com/app/exchange") == 400  # not https
    expect(page.get_by_role("alert")).to_have_text("app_download_ios must be a link starting with https://, or empty")
    assert _save_setting(page, "app_download_ios", link) == 200
    expect(page.get_by_text("Saved", exact=True)).to_be_visible()
    try:
        page.goto("/home")
        expect(page.locator("a.store-link", has_text="App Store")).to_have_attribute("href", link)
        screenshot(page, "home-app-store-link-dark")
    finally:  # the instance's other tests see the seeded (empty) link
        page.goto("/admin/content")
        assert _save_setting(page, "app_download_ios", "") == 200
    page.goto("/home")
    expect(page.get_by_test_id("top-tickers")).to_be_visible()
    expect(page.locator(".download-links a.store-link").first).to_be_visible()  # the web app's own link stays
    expect(page.locator("a.store-link", has_text="App Store")).to_have_count(0)
    # the refused link's 400 is Chromium's "Failed to load resource" line, expected here
    assert [e for e in console_errors if "status of 400" not in e] == []


def test_a_content_operator_hides_the_invite_and_authorization_codes(
    page: Page, web: Instance, api: httpx.Client, console_errors: ConsoleErrors
) -> None:
    trader = member(api)
    email, one_time, secret = new_operator(web, "content")
    log_in(page, email, one_time, secret)
    page.evaluate("token => localStorage.setItem('token', token)", trader.token)  # the member's app, same browser
    page.goto("/personal/accountSettings")
    expect(page.get_by_test_id("invite-code")).to_be_visible()  # 1 while unset, as user/info always said
    expect(page.get_by_test_id("authorization-code")).to_be_visible()
    try:
        page.goto("/admin/content")
        assert _save_setting(page, "show_code", "2") == 400
        expect(page.get_by_role("alert")).to_have_text("show_code must be 0 or 1")
        for key in ("show_code", "show_auth"):
            assert _save_setting(page, key, "0") == 200
        page.goto("/personal/accountSettings")
        expect(page.get_by_test_id("row-invite")).to_have_count(0)
        expect(page.get_by_test_id("authorization-code")).to_have_count(0)
        expect(page.get_by_test_id("copy-invite")).to_have_count(0)
    finally:  # the instance's other tests see both codes
        page.goto("/admin/content")
        for key in ("show_code", "show_auth"):
            assert _save_setting(page, key, "1") == 200
    page.goto("/personal/accountSettings")
    expect(page.get_by_test_id("invite-code")).to_be_visible()
    # the refused switch's 400 is Chromium's "Failed to load resource" line, expected here
    assert [e for e in console_errors if "status of 400" not in e] == []


def test_support_finds_a_phone_code_sent_on_the_sms_page(
    page: Page, web: Instance, api: httpx.Client, console_errors: ConsoleErrors
) -> None:
    mobile = unique_mobile(34)  # China: +86
    ok(api.post("notify/send_sms", json={"to": mobile, "type": 1, "area_id": 34}))
    code = ok(api.get("dev/outbox", params={"to": mobile}))[0]["code"]
    email, one_time, secret = new_operator(web, "support")
    log_in(page, email, one_time, secret)
    page.locator("[data-menu=sms]").click()
    page.wait_for_url("**/admin/sms")
    page.locator("input[name=to]").fill(f"86{mobile}")
    row = page.locator("[data-testid^=sms-message-]")
    # Queued on the request, then handed to the provider (the log one on a development instance) off it.
    deadline = time.monotonic() + 30
    while True:
        page.get_by_role("button", name="Show").click()
        expect(row).to_have_count(1)
        expect(row).to_contain_text(f"+86{mobile}")
        state = row.get_attribute("data-state")
        assert state in ("queued", "sending", "sent"), state
        if state == "sent" or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    expect(row).to_have_attribute("data-state", "sent")
    expect(row).to_contain_text("Sent")
    expect(row.locator("td").nth(4)).to_contain_text("log")  # the provider that took it
    assert code not in row.inner_text()  # the code masked
    page.locator("select[name=state]").select_option("failed")
    page.get_by_role("button", name="Show").click()
    expect(row).to_have_count(0)
    page.locator("select[name=state]").select_option("sent")
    page.get_by_role("button", name="Show").click()
    expect(row).to_have_count(1)
    screenshot(page, "admin-sms-dark")
    assert console_errors == []
