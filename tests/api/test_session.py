"""Sessions: the 999 flow of spec §8, bearer tokens, logout, and the fields of user/info."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.utils.users import auth, error, fresh_code, login, member, ok, send_code, unique_mobile

LOGIN_FIRST = "Please log in first"
INFO_FIELDS = {
    "id",
    "email",
    "mobile",
    "country_code",
    "area_id",
    "is_seller",
    "is_set",
    "invite_code",
    "show_code",
    "show_auth",
    "security_level",
    "created_at",
}


def info(api: httpx.Client, token: str) -> dict:
    return ok(api.get("user/info", headers=auth(token)))


def test_info_without_token_is_401_code_999(api: httpx.Client) -> None:
    assert error(api.get("user/info"), 401, 999) == LOGIN_FIRST


@pytest.mark.parametrize(
    "token",
    ["", "garbage", "Bearer garbage", "Bearer", "bearer \t x", "x" * 257, "Token abc", "null", "undefined"],
)
def test_info_with_a_garbage_token_is_999(api: httpx.Client, token: str) -> None:
    assert error(api.get("user/info", headers=auth(token)), 401, 999) == LOGIN_FIRST


def test_token_is_accepted_bare_or_as_bearer(api: httpx.Client) -> None:
    user = member(api)
    for header in (user.token, f"Bearer {user.token}", f"bearer {user.token}", f"BEARER   {user.token}"):
        assert info(api, header)["id"] == user.uid


def test_a_token_only_works_whole(api: httpx.Client) -> None:
    user = member(api)
    for broken in (user.token[:-1], user.token + "x", user.token.upper(), f"Bearer{user.token}"):
        assert error(api.get("user/info", headers=auth(broken)), 401, 999) == LOGIN_FIRST


def test_logout_revokes_the_token(api: httpx.Client) -> None:
    user = member(api)
    response = api.post("user/logout", headers=user.auth)
    assert ok(response) is None and response.json()["msg"] == "Logged out"
    assert error(api.get("user/info", headers=user.auth), 401, 999) == LOGIN_FIRST
    assert error(api.get("user/info", headers=auth(f"Bearer {user.token}")), 401, 999) == LOGIN_FIRST
    assert error(api.post("user/logout", headers=user.auth), 401, 999) == LOGIN_FIRST
    assert error(api.get("user/authorization_code", headers=user.auth), 401, 999) == LOGIN_FIRST


def test_logout_ends_only_its_own_session(api: httpx.Client) -> None:
    user = member(api)
    other = ok(login(api, user.account))["token"]
    ok(api.post("user/logout", headers=auth(f"Bearer {user.token}")))
    assert info(api, other)["id"] == user.uid
    error(api.get("user/info", headers=user.auth), 401, 999)


def test_logout_without_a_token_is_999(api: httpx.Client) -> None:
    assert error(api.post("user/logout"), 401, 999) == LOGIN_FIRST


def test_login_after_logout_gives_a_new_working_token(api: httpx.Client) -> None:
    user = member(api)
    ok(api.post("user/logout", headers=user.auth))
    token = ok(login(api, user.account))["token"]
    assert token != user.token and info(api, token)["id"] == user.uid


# --- user/info -------------------------------------------------------------------------------------


def test_info_of_an_email_account(api: httpx.Client) -> None:
    user = member(api)
    me = info(api, user.token)
    assert set(me) == INFO_FIELDS
    assert (me["id"], me["email"], me["mobile"]) == (user.uid, user.account, "")
    assert (me["is_seller"], me["is_set"], me["show_code"], me["show_auth"]) == (0, 0, 1, 1)
    assert re.fullmatch(r"[A-Z0-9]{8}", me["invite_code"])
    assert me["security_level"] == 50  # 25 + a bound e-mail
    assert re.match(r"^\d{4}-\d{2}-\d{2}T", me["created_at"])


def test_info_of_a_mobile_account(api: httpx.Client) -> None:
    user = member(api, unique_mobile(12), area_id=12)
    me = info(api, user.token)
    assert (me["id"], me["email"], me["mobile"]) == (user.uid, "", user.account)
    assert (me["country_code"], me["area_id"]) == ("852", 12)
    assert (me["is_seller"], me["is_set"], me["security_level"]) == (0, 0, 50)


def test_invite_codes_differ_between_users(api: httpx.Client) -> None:
    codes = {info(api, member(api).token)["invite_code"] for _ in range(3)}
    assert len(codes) == 3


def test_security_level_adds_25_per_phone_email_and_deal_password(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    assert info(api, user.token)["security_level"] == 50

    mobile = unique_mobile()
    bind_code = send_code(api, mobile, 6, token=user.token)
    ok(
        api.post(
            "user/bind_account",
            json={"type": 1, "account": mobile, "sms_code": bind_code, "area_id": 1, "login_password": user.password},
            headers=user.auth,
        )
    )
    me = info(api, user.token)
    assert (me["mobile"], me["security_level"], me["is_set"]) == (mobile, 75, 0)

    pay_code = fresh_code(api, settings, mobile, 3, token=user.token)  # the number just had its binding code
    ok(
        api.post(
            "user/amend_pay_password",
            json={"password": "Deal1234", "auth_code": pay_code, "vtype": "mobile", "login_password": user.password},
            headers=user.auth,
        )
    )
    me = info(api, user.token)
    assert (me["security_level"], me["is_set"]) == (100, 1)
