"""A stolen session must not empty an account: binding a contact and setting the deal password need
the login password, and withdrawals wait ``security_cooldown_hours`` after any security change
(contact bound, deal password set or changed, login password changed or reset)."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from config.settings import Settings
from tests.utils.users import (
    Member,
    auth,
    db_user,
    end_security_cooldown,
    error,
    fresh_code,
    login,
    member,
    ok,
    send_code,
    unique_email,
    unique_mobile,
)
from tests.utils.wallets import USDT, fund

TRON = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
DEAL = "Deal1234"
NEW = "NewPass456"
ENTER_LOGIN_PASSWORD = "Please enter your login password"
WRONG_LOGIN_PASSWORD = "The login password is incorrect"
PAUSED = re.compile(
    r"^Withdrawals are paused for (\S+) hours after a security change; they open at (\d{4}-\d\d-\d\d \d\d:\d\d) UTC$"
)


def set_deal_password(api: httpx.Client, settings: Settings, user: Member, **change: Any) -> httpx.Response:
    code = fresh_code(api, settings, user.account, 3, token=user.token)
    body = {"password": DEAL, "auth_code": code, "login_password": user.password, **change}
    return api.post("user/amend_pay_password", json=body, headers=user.auth)


def bind_phone(api: httpx.Client, user: Member, number: str, code: str, **change: Any) -> httpx.Response:
    body = {"type": 1, "account": number, "sms_code": code, "area_id": 1, "login_password": user.password, **change}
    return api.post("user/bind_account", json=body, headers=user.auth)


def draw(api: httpx.Client, user: Member, number: str = "10", pay_password: str = DEAL) -> httpx.Response:
    body = {"currency_id": USDT, "number": number, "address": TRON, "pay_password": pay_password,
            "currency_protocol_id": 2}  # fmt: skip
    return api.post("account/draw", json=body, headers=user.auth)


def assert_paused(response: httpx.Response, settings: Settings, changed: datetime) -> None:
    """Refused with 403 and a message that names the hours and when withdrawals open (to the minute)."""
    match = PAUSED.match(error(response, 403))
    assert match, response.json()["msg"]
    assert float(match.group(1)) == settings.security_cooldown_hours
    opens = datetime.strptime(match.group(2), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    expected = changed + timedelta(hours=settings.security_cooldown_hours)
    assert expected - timedelta(seconds=5) <= opens <= expected + timedelta(minutes=2), (opens, expected)


@pytest.fixture
async def alice(api: httpx.Client, settings: Settings, db: None) -> Member:
    """A member with 1000 USDT and a deal password set long enough ago: she can withdraw."""
    user = member(api)
    await fund(user, "USDT", "1000")
    ok(set_deal_password(api, settings, user))
    end_security_cooldown(settings, user.uid)
    ok(draw(api, user))
    return user


# --- the login password confirms the change ------------------------------------------------------


def test_binding_needs_the_login_password(api: httpx.Client) -> None:
    user = member(api)
    number = unique_mobile()
    code = send_code(api, number, 6, token=user.token)
    assert error(bind_phone(api, user, number, code, login_password=""), 400) == ENTER_LOGIN_PASSWORD
    assert error(bind_phone(api, user, number, code, login_password="Wrong1234"), 400) == WRONG_LOGIN_PASSWORD
    assert ok(api.get("user/info", headers=user.auth))["mobile"] == ""
    ok(bind_phone(api, user, number, code))  # the code was not spent by the refusals
    assert ok(api.get("user/info", headers=user.auth))["mobile"] == number


def test_binding_an_email_needs_the_login_password(api: httpx.Client) -> None:
    user = member(api, unique_mobile())
    email = unique_email("bindpw")
    code = send_code(api, email, 6, token=user.token)
    body = {"type": 2, "account": email, "sms_code": code, "login_password": "Wrong1234"}
    assert error(api.post("user/bind_account", json=body, headers=user.auth), 400) == WRONG_LOGIN_PASSWORD
    ok(api.post("user/bind_account", json={**body, "login_password": user.password}, headers=user.auth))


def test_the_deal_password_needs_the_login_password(api: httpx.Client, settings: Settings) -> None:
    user = member(api)
    assert error(set_deal_password(api, settings, user, login_password=""), 400) == ENTER_LOGIN_PASSWORD
    assert error(set_deal_password(api, settings, user, login_password="Wrong1234"), 400) == WRONG_LOGIN_PASSWORD
    assert ok(api.get("user/info", headers=user.auth))["is_set"] == 0
    ok(set_deal_password(api, settings, user))
    assert ok(api.get("user/info", headers=user.auth))["is_set"] == 1


def test_guessing_the_login_password_there_locks_like_failed_logins(api: httpx.Client, settings: Settings) -> None:
    user = member(api)
    number = unique_mobile()
    code = send_code(api, number, 6, token=user.token)
    for _ in range(settings.login_max_failures):
        error(bind_phone(api, user, number, code, login_password="Wrong1234"), 400)
    wait = math.ceil(settings.login_lock_seconds / 60)
    locked = f"Too many failed attempts, please try again in {wait} minutes"
    assert error(bind_phone(api, user, number, code), 429) == locked  # even the right one, now
    assert error(login(api, user.account), 429) == locked  # the account's logins are locked as well


# --- withdrawals wait after each security change -------------------------------------------------


async def test_a_new_deal_password_pauses_withdrawals(api: httpx.Client, settings: Settings, db: None) -> None:
    user = member(api)
    await fund(user, "USDT", "100")
    ok(set_deal_password(api, settings, user))
    changed = db_user(settings, user.uid)["security_changed_at"]
    assert changed is not None
    assert_paused(draw(api, user), settings, _aware(changed))
    end_security_cooldown(settings, user.uid)  # a day later
    ok(draw(api, user))


def test_changing_the_deal_password_pauses_withdrawals(api: httpx.Client, settings: Settings, alice: Member) -> None:
    ok(set_deal_password(api, settings, alice, password="Deal5678"))
    assert_paused(draw(api, alice, pay_password="Deal5678"), settings, datetime.now(UTC))


def test_binding_a_phone_pauses_withdrawals(api: httpx.Client, settings: Settings, alice: Member) -> None:
    number = unique_mobile()
    ok(bind_phone(api, alice, number, send_code(api, number, 6, token=alice.token)))
    assert_paused(draw(api, alice), settings, datetime.now(UTC))


def test_changing_the_login_password_pauses_withdrawals(api: httpx.Client, settings: Settings, alice: Member) -> None:
    body = {"old_password": alice.password, "new_password": NEW, "secondary_password": NEW}
    ok(api.post("user/amend_password", json=body, headers=alice.auth))
    assert_paused(draw(api, alice), settings, datetime.now(UTC))


def test_resetting_the_login_password_pauses_withdrawals(api: httpx.Client, settings: Settings, alice: Member) -> None:
    code = fresh_code(api, settings, alice.account, 2)
    body = {"type": "email", "account": alice.account, "new_password": NEW, "secondary_password": NEW,
            "auth_code": code}  # fmt: skip
    ok(api.post("user/forget_password", json=body))
    token = ok(login(api, alice.account, NEW))["token"]
    assert_paused(draw(api, Member(alice.account, NEW, token, alice.uid)), settings, datetime.now(UTC))
    assert error(api.get("user/info", headers=auth(alice.token)), 401, 999)  # the old session ended


def _aware(value: Any) -> datetime:
    """A stored timestamp as an aware UTC datetime (PostgreSQL answers aware, SQLite a string)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)
