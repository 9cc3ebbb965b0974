"""The deal-password and binding pages ask for the login password (issue 10, #12), in Chromium
against ``exchange up``."""

from __future__ import annotations

import time
from types import SimpleNamespace

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ConsoleErrors
from tests.utils.up import Instance
from tests.utils.users import Member, auth, end_resend_window, member, ok


def _code(web: Instance, to: str, purpose: int) -> str:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        sent = httpx.get(f"{web.url}/api/dev/outbox", params={"to": to}, timeout=10).json()["data"]
        if sent and sent[0]["type"] == purpose:
            return sent[0]["code"]
        time.sleep(0.3)
    raise AssertionError(f"no code of type {purpose} was sent to {to}")


def _logged_in(page: Page, web: Instance) -> Member:
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as api:
        m = member(api)
    end_resend_window(SimpleNamespace(redis_url=f"unix://{web.data_dir}/redis.sock"), m.account)
    page.goto("/home")
    page.evaluate("token => localStorage.setItem('token', token)", m.token)
    return m


def test_the_deal_password_page_needs_the_login_password(
    page: Page, web: Instance, console_errors: ConsoleErrors
) -> None:
    m = _logged_in(page, web)
    page.goto("/tradePassword")
    form = page.get_by_test_id("trade-password-form")
    expect(page.get_by_test_id("security-note")).to_contain_text("24 hours")
    form.get_by_test_id("pay-password").fill("Deal1234")
    form.get_by_test_id("pay-password-confirm").fill("Deal1234")
    form.get_by_test_id("send-code").click()
    form.get_by_test_id("code").fill(_code(web, m.account, 3))
    form.get_by_test_id("submit").click()
    expect(form.get_by_test_id("form-error")).to_have_text("Please enter your login password")
    form.get_by_test_id("login-password").fill("Wrong1234")
    form.get_by_test_id("submit").click()
    expect(page.get_by_text("The login password is incorrect")).to_be_visible()
    form.get_by_test_id("login-password").fill(m.password)
    form.get_by_test_id("submit").click()
    page.wait_for_url("**/personal/accountSettings")
    with httpx.Client(base_url=f"{web.url}/api/", timeout=30) as api:
        assert ok(api.get("user/info", headers=auth(m.token)))["is_set"] == 1
    assert [e for e in console_errors if "400" not in e] == []  # the refused submit logs its 400


@pytest.mark.parametrize(("route", "lang", "label"), [("/bindPhone", "jp", "ログインパスワード"),
                                                      ("/bindAccount", "gm", "Anmeldepasswort")])  # fmt: skip
def test_the_bind_pages_ask_for_the_login_password_in_each_language(
    page: Page, web: Instance, route: str, lang: str, label: str
) -> None:
    _logged_in(page, web)
    page.evaluate("lang => localStorage.setItem('lang', lang)", lang)
    page.goto(route)
    field = page.get_by_test_id("bind-form").get_by_test_id("login-password")
    expect(field).to_be_visible()
    expect(page.get_by_test_id("bind-form")).to_contain_text(label)
