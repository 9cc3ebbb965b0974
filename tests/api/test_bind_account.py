"""Personal centre: binding a phone or e-mail to an account, and the authorization code (spec
trading-assets-personal §5, §7)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.utils.users import (
    PASSWORD,
    Member,
    auth,
    error,
    fresh_code,
    login,
    member,
    ok,
    register,
    send_code,
    unique_email,
    unique_mobile,
    wrong_code,
)

ALREADY_BOUND = "This account is already bound"
CODE_INVALID = "The verification code is wrong or has expired"
LOGIN_FIRST = "Please log in first"


def me(api: httpx.Client, token: str) -> dict[str, Any]:
    return ok(api.get("user/info", headers=auth(token)))


def bind(api: httpx.Client, user: Member, kind: int, account: str, code: str, **extra: Any) -> httpx.Response:
    body = {"type": kind, "account": account, "sms_code": code, "login_password": user.password, **extra}
    return api.post("user/bind_account", json=body, headers=user.auth)


# --- user/bind_account -----------------------------------------------------------------------------


def test_bind_a_phone_to_an_email_account(api: httpx.Client) -> None:
    user = member(api)
    mobile = unique_mobile()
    code = send_code(api, mobile, 6, token=user.token, area_id=3)
    response = bind(api, user, 1, mobile, code, area_id=3)
    data = ok(response)
    assert response.json()["msg"] == "Bound successfully"
    assert (data["id"], data["email"], data["mobile"], data["country_code"]) == (user.uid, user.account, mobile, "44")
    info = me(api, user.token)
    assert (info["mobile"], info["area_id"], info["security_level"]) == (mobile, 3, 75)
    # The phone now logs in to the same account.
    assert ok(login(api, mobile, country_code="44"))["uid"] == user.uid


def test_bind_an_email_to_a_phone_account(api: httpx.Client) -> None:
    user = member(api, unique_mobile())
    email = unique_email("bindmail")
    code = send_code(api, email, 6, token=user.token)
    data = ok(bind(api, user, 2, email.upper(), code))
    assert (data["email"], data["mobile"]) == (email, user.account)
    assert me(api, user.token)["security_level"] == 75
    assert ok(login(api, email))["uid"] == user.uid


def test_bind_refuses_when_a_phone_is_already_bound(api: httpx.Client) -> None:
    user = member(api)
    first = unique_mobile()
    ok(bind(api, user, 1, first, send_code(api, first, 6, token=user.token), area_id=1))
    second = unique_mobile()
    code = send_code(api, second, 6, token=user.token)
    assert error(bind(api, user, 1, second, code, area_id=1), 409) == ALREADY_BOUND
    assert me(api, user.token)["mobile"] == first


def test_bind_refuses_an_email_to_an_account_that_has_one(api: httpx.Client) -> None:
    user = member(api)
    email = unique_email("second")
    code = send_code(api, email, 6, token=user.token)
    assert error(bind(api, user, 2, email, code), 409) == ALREADY_BOUND
    assert me(api, user.token)["email"] == user.account


def test_bind_refuses_a_target_owned_by_someone_else(api: httpx.Client) -> None:
    user = member(api)
    taken = register(api, unique_mobile(), area_id=1)
    assert error(bind(api, user, 1, taken, "123456", area_id=1), 409) == ALREADY_BOUND
    phone_user = member(api, unique_mobile())
    taken_email = register(api)
    assert error(bind(api, phone_user, 2, taken_email, "123456"), 409) == ALREADY_BOUND


def test_bind_refuses_wrong_and_foreign_codes(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    mobile = unique_mobile()
    code = send_code(api, mobile, 6, token=user.token)
    assert error(bind(api, user, 1, mobile, wrong_code(code), area_id=1), 400) == CODE_INVALID
    # A register code for the same number is not a binding code.
    register_code = fresh_code(api, settings, mobile, 1)
    assert error(bind(api, user, 1, mobile, register_code, area_id=1), 400) == CODE_INVALID
    assert me(api, user.token)["mobile"] == ""


def test_bind_a_phone_needs_a_valid_area(api: httpx.Client) -> None:
    user = member(api)
    mobile = unique_mobile(21)
    code = send_code(api, mobile, 6, token=user.token, area_id=21)
    for area in ({}, {"area_id": None}, {"area_id": 999}, {"area_id": 2**31}, {"area_id": 10**30}):
        assert error(bind(api, user, 1, mobile, code, **area), 400) == "Please choose a valid country or region"
    ok(bind(api, user, 1, mobile, code, area_id=21))
    assert me(api, user.token)["country_code"] == "61"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"type": 3, "account": "123456789", "sms_code": "123456"}, "Type is invalid"),
        ({"type": "phone", "account": "123456789", "sms_code": "123456"}, "Type is invalid"),
        ({"account": "123456789", "sms_code": "123456"}, "Type is required"),
        ({"type": 1, "account": "", "sms_code": "123456"}, "Please enter your phone number"),
        ({"type": 1, "account": "12ab", "sms_code": "123456"}, "Please enter a valid phone number"),
        ({"type": 2, "account": "nope", "sms_code": "123456"}, "Please enter a valid e-mail address"),
        ({"type": "2", "account": "", "sms_code": "123456"}, "Please enter your e-mail"),
        ({"type": 1, "account": "123456789", "sms_code": ""}, "Please enter the verification code"),
        (
            {"type": 1, "account": "123456789", "sms_code": "123456", "login_password": ""},
            "Please enter your login password",
        ),
    ],
)
def test_bind_form_rules(api: httpx.Client, body: dict[str, Any], message: str) -> None:
    user = member(api)
    body = {"area_id": 1, "login_password": PASSWORD, **body}
    assert error(api.post("user/bind_account", json=body, headers=user.auth), 400) == message


def test_bind_needs_login(api: httpx.Client) -> None:
    body = {"type": 1, "account": unique_mobile(), "sms_code": "123456", "area_id": 1}
    assert error(api.post("user/bind_account", json=body), 401, 999) == LOGIN_FIRST


# --- user/authorization_code -----------------------------------------------------------------------


def test_authorization_code_is_stable(api: httpx.Client) -> None:
    user = member(api)
    first = ok(api.get("user/authorization_code", headers=user.auth))
    assert set(first) == {"code"} and len(first["code"]) == 16 and first["code"].isalnum()
    assert ok(api.get("user/authorization_code", headers=user.auth)) == first
    new_session = ok(login(api, user.account))["token"]
    assert ok(api.get("user/authorization_code", headers=auth(new_session))) == first


def test_authorization_codes_differ_between_users(api: httpx.Client) -> None:
    codes = {ok(api.get("user/authorization_code", headers=member(api).auth))["code"] for _ in range(3)}
    assert len(codes) == 3


def test_authorization_code_needs_login(api: httpx.Client) -> None:
    assert error(api.get("user/authorization_code"), 401, 999) == LOGIN_FIRST
