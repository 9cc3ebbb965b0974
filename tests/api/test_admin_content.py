"""The console's content (issue 16): a content operator edits a notice (the public news API, which the
home page reads, shows it at once, its HTML sanitised) and the site settings; each change is audited."""

from __future__ import annotations

import uuid

import httpx

from config.settings import Settings
from store.models import AuditLog, SiteSetting
from tests.api.test_admin import make_operator, token_of
from tests.utils.sales import get, post
from tests.utils.users import error, member, ok

DIRTY = '<p onclick="steal()">Maintenance <b>tonight</b><script>steal()</script><a href="javascript:x">more</a></p>'


async def test_a_notice_is_added_edited_sanitised_and_public_at_once(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("content")
    auth = token_of(api, op, secret)
    added = ok(post(api, "admin/news/save", json={"category_id": 22, "title": "Maintenance", "content": DIRTY},
                    headers=auth))  # fmt: skip
    assert "script" not in added["content"] and "onclick" not in added["content"]
    assert "javascript" not in added["content"] and "<b>tonight</b>" in added["content"]
    body = {"id": added["id"], "category_id": 22, "title": "Maintenance moved", "content": "<p>Tomorrow</p>"}
    ok(post(api, "admin/news/save", json=body, headers=auth))
    public = ok(get(api, "news/info", params={"id": added["id"]}))
    assert (public["title"], public["content"]) == ("Maintenance moved", "<p>Tomorrow</p>")
    listed = ok(get(api, "news/list", params={"category_id": 22, "limit": 100}))["data"]
    assert added["id"] in {n["id"] for n in listed}
    edit = await AuditLog.get(action="news.edit", target=f"news:{added['id']}")
    assert edit.before["title"] == "Maintenance" and edit.after["title"] == "Maintenance moved"
    assert error(post(api, "admin/news/save", json={**body, "category_id": 999}, headers=auth), 404)
    ok(post(api, "admin/news/delete", json={"id": added["id"]}, headers=auth))
    assert error(get(api, "news/info", params={"id": added["id"]}), 404)


async def test_site_settings_are_checked_saved_and_audited(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("content")
    auth = token_of(api, op, secret)
    before = (await SiteSetting.get(key="tips")).value
    try:
        ok(post(api, "admin/settings/save", json={"key": "tips", "value": "Mind the volatility."}, headers=auth))
        assert ok(get(api, "default/setting", params={"key": "tips"})) == "Mind the volatility."
        for key, value in (("login_use_sms", "yes"), ("usd_cny_rate", "-1"), ("kefu", "http://plain")):
            assert error(post(api, "admin/settings/save", json={"key": key, "value": value}, headers=auth), 400)
        assert error(post(api, "admin/settings/save", json={"key": "secret", "value": "1"}, headers=auth), 404)
        listed = {s["key"]: s["value"] for s in ok(get(api, "admin/settings", headers=auth))}
        assert listed["tips"] == "Mind the volatility." and "micro_open" in listed
        row = await AuditLog.filter(action="setting.edit", target="setting:tips").order_by("-id").first()
        assert row is not None and row.after == {"value": "Mind the volatility."}
    finally:
        await SiteSetting.filter(key="tips").update(value=before)


async def test_the_account_page_switches_and_app_links_are_console_settings(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("content")
    auth = token_of(api, op, secret)
    alice = member(api)
    keys = ("show_code", "show_auth", "app_download_ios", "app_download_android")
    try:
        info = ok(get(api, "user/info", headers=alice.auth))
        assert (info["show_code"], info["show_auth"]) == (1, 1)  # shown until an operator hides them
        ok(post(api, "admin/settings/save", json={"key": "show_code", "value": "0"}, headers=auth))
        info = ok(get(api, "user/info", headers=alice.auth))
        assert (info["show_code"], info["show_auth"]) == (0, 1)
        for bad in ("2", "yes", ""):
            said = error(post(api, "admin/settings/save", json={"key": "show_auth", "value": bad}, headers=auth), 400)
            assert said == "show_auth must be 0 or 1"
        said = error(post(api, "admin/settings/save", json={"key": "show_auth", "value": "x"},
                          headers={**auth, "lang": "gm"}), 400)  # fmt: skip
        assert said != "show_auth must be 0 or 1" and "show_auth" in said  # translated, the setting named

        assert ok(get(api, "default/setting", params={"key": "app_download_ios"})) == ""  # hidden until set
        link = "https://apps.apple.com/app/id1234567890"
        ok(post(api, "admin/settings/save", json={"key": "app_download_ios", "value": f" {link} "}, headers=auth))
        assert ok(get(api, "default/setting", params={"key": "app_download_ios"})) == link
        for bad in ("http://play.google.com", "https://", "javascript:alert(1)", "https://a b.com", "https://[::1"):
            body = {"key": "app_download_android", "value": bad}
            said = error(post(api, "admin/settings/save", json=body, headers=auth), 400)
            assert said == "app_download_android must be a link starting with https://, or empty", bad
        ok(post(api, "admin/settings/save", json={"key": "app_download_ios", "value": ""}, headers=auth))
        assert ok(get(api, "default/setting", params={"key": "app_download_ios"})) == ""
        listed = {s["key"] for s in ok(get(api, "admin/settings", headers=auth))}
        assert set(keys) <= listed
    finally:
        await SiteSetting.filter(key__in=keys).delete()


async def test_every_operator_sees_the_dashboard(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("products")
    board = ok(get(api, "admin/dashboard", headers=token_of(api, op, secret)))
    assert board["users"] >= 1 and any(p["pair"] == "BTC/USDT" for p in board["pairs"])
    assert set(board["queues"]) == {"real_names", "withdrawals", "p2p_appeals", "merchants"}
    assert all(isinstance(v, int) for v in board["queues"].values())
    assert error(get(api, "admin/dashboard"), 401, code=999)


async def test_the_cny_rate_is_a_plain_number_in_a_sane_range(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("content")
    auth = token_of(api, op, secret)
    for value in ("1e999999", "7E0", "0", "-6.8", "1000.01", "NaN", "Infinity", "", "6,8"):
        said = error(post(api, "admin/settings/save", json={"key": "usd_cny_rate", "value": value}, headers=auth), 400)
        assert said == "usd_cny_rate must be a number from 0.01 to 1000", (value, said)
    said = error(post(api, "admin/settings/save", json={"key": "usd_cny_rate", "value": "6.123456789"}, headers=auth),
                 400)  # fmt: skip
    assert said == "usd_cny_rate can have at most 8 decimal places"
    assert (await SiteSetting.get(key="usd_cny_rate")).value == "6.8"  # nothing was stored
    saved = ok(post(api, "admin/settings/save", json={"key": "usd_cny_rate", "value": " 6.80 "}, headers=auth))
    assert saved == {"key": "usd_cny_rate", "value": "6.8"}


async def test_the_two_operator_thresholds_can_be_lowered_never_raised(
    api: httpx.Client, settings: Settings, db: None
) -> None:
    op, secret = await make_operator("content")
    auth = token_of(api, op, secret)
    listed = {s["key"]: s for s in ok(get(api, "admin/settings", headers=auth))}
    assert listed["second_approval_usd"]["value"] == "10000"  # the deployment's, until an operator lowers it
    assert listed["credit_second_approval_usd"]["value"] == "1000"
    assert "at most 10000" in listed["second_approval_usd"]["takes"]
    try:
        for key, ceiling in (("second_approval_usd", "10000"), ("credit_second_approval_usd", "1000")):
            above = post(api, "admin/settings/save", json={"key": key, "value": "1000000"}, headers=auth)
            assert error(above, 400) == f"{key} must be a number from 0 to {ceiling}"
            ok(post(api, "admin/settings/save", json={"key": key, "value": "500"}, headers=auth))
        listed = {s["key"]: s["value"] for s in ok(get(api, "admin/settings", headers=auth))}
        assert (listed["second_approval_usd"], listed["credit_second_approval_usd"]) == ("500", "500")
        finance, s2 = await make_operator("finance")
        fa = token_of(api, finance, s2)
        alice = member(api)
        body = {
            "account": alice.account,
            "currency": "USDT",
            "amount": "600",
            "reason": "wire",
            "ref": f"r-{uuid.uuid4().hex}",
        }
        assert ok(post(api, "admin/deposits/credit", json=body, headers=fa))["status_name"] == "pending"  # 600 > 500
    finally:
        for key in ("second_approval_usd", "credit_second_approval_usd"):
            await SiteSetting.filter(key=key).delete()
