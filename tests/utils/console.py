"""The operator console as a new operator meets it (browser tests, issue 16): ``exchange operator add``
on the instance, the login screen with a TOTP code and the set-password step, the menu, and a console
token through the API."""

from __future__ import annotations

import re
import uuid

import httpx
from playwright.sync_api import Page, expect

from tests.utils.otp import accepted, current_code
from tests.utils.up import Instance
from tests.utils.users import ok

NEW_PASSWORD = "Console-pass-2026"


def new_operator(web: Instance, *roles: str) -> tuple[str, str, str]:
    """``exchange operator add``: (e-mail, one-time password, TOTP secret) as it prints them."""
    email = f"op-{uuid.uuid4().hex[:8]}@back.office"
    out = web.cli("operator", "add", email, *[a for r in roles for a in ("--role", r)])
    password = re.search(r"one-time password: (\S+)", out)
    uri = re.search(r"(otpauth://\S+)", out)
    assert password and uri, out
    secret = re.search(r"secret=([A-Z2-7]+)", uri.group(1))
    assert secret, out
    return email, password.group(1), secret.group(1)


def log_in(page: Page, email: str, password: str, secret: str) -> None:
    """Through the login screen and the set-password step, to the dashboard."""
    page.goto("/admin")
    page.wait_for_url("**/admin/login")
    page.locator("input[name=email]").fill(email)
    page.locator("input[name=password]").fill(password)
    page.locator("input[name=otp]").fill(current_code(secret))
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/admin/password")
    accepted(secret)
    expect(page.get_by_role("heading", name="Set your own password")).to_be_visible()
    page.locator("input[name=new_password]").fill(NEW_PASSWORD)
    page.locator("input[name=repeat_password]").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set password").click()
    page.wait_for_url(re.compile(r"/admin$"))
    expect(page.get_by_test_id("dash-users")).to_be_visible()


def menu(page: Page) -> list[str]:
    return [m for m in page.locator("[data-menu]").evaluate_all("els => els.map(e => e.dataset.menu)")]


def admin_token(web: Instance, api: httpx.Client) -> dict[str, str]:
    """An admin operator's console token, through the API: the one-time password, then their own."""
    email, one_time, secret = new_operator(web, "admin")
    first = ok(api.post("admin/login", json={"email": email, "password": one_time, "otp": current_code(secret)}))
    accepted(secret)
    body = {"old_password": one_time, "new_password": NEW_PASSWORD}
    return {
        "Authorization": ok(api.post("admin/password", json=body, headers={"Authorization": first["token"]}))["token"]
    }
