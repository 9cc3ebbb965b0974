"""Personal centre: forgotten and changed login passwords, and the deal password (spec
trading-assets-personal §5, §7); binding and the authorization code are in test_bind_account.py."""

from __future__ import annotations

import json
import math
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
    send_code,
    unique_email,
    unique_mobile,
    wrong_code,
)

NEW = "NewPass456"
LOGIN_FIRST = "Please log in first"
BAD_CREDENTIALS = "Incorrect account or password"
CODE_INVALID = "The verification code is wrong or has expired"
DIFFER = "The two passwords do not match"
ALREADY_BOUND = "This account is already bound"


def me(api: httpx.Client, token: str) -> dict[str, Any]:
    return ok(api.get("user/info", headers=auth(token)))


def forget(api: httpx.Client, account: str, code: str, password: str = NEW, /, **change: Any) -> httpx.Response:
    body = {
        "type": "email" if "@" in account else "mobile",
        "account": account,
        "new_password": password,
        "secondary_password": password,
        "auth_code": code,
        **change,
    }
    return api.post("user/forget_password", json=body)


def amend(api: httpx.Client, user: Member, old: str, new: str, confirm: str | None = None) -> httpx.Response:
    body = {"old_password": old, "new_password": new, "secondary_password": new if confirm is None else confirm}
    return api.post("user/amend_password", json=body, headers=user.auth)


# --- user/forget_password --------------------------------------------------------------------------


def test_forget_password_by_email(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    second_session = ok(login(api, user.account))["token"]
    code = fresh_code(api, settings, user.account, 2)
    response = forget(api, user.account, code)
    assert ok(response) is None and response.json()["msg"] == "Password reset, please log in"
    assert error(login(api, user.account), 400) == BAD_CREDENTIALS
    assert ok(login(api, user.account, NEW))["uid"] == user.uid
    for token in (user.token, second_session):  # every session of the account ended
        assert error(api.get("user/info", headers=auth(token)), 401, 999) == LOGIN_FIRST


def test_forget_password_by_mobile(api: httpx.Client, settings: Any) -> None:
    user = member(api, unique_mobile(), area_id=3)
    code = fresh_code(api, settings, user.account, 2, area_id=3)  # the code goes to +44 <number>
    ok(forget(api, user.account, code, country_code="44"))
    assert error(login(api, user.account, country_code="44"), 400) == BAD_CREDENTIALS
    assert ok(login(api, user.account, NEW, country_code="44"))["uid"] == user.uid
    error(api.get("user/info", headers=user.auth), 401, 999)


def test_forget_password_code_works_once(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    code = fresh_code(api, settings, user.account, 2)
    ok(forget(api, user.account, code))
    assert error(forget(api, user.account, code, "Other789"), 400) == CODE_INVALID
    assert ok(login(api, user.account, NEW))["uid"] == user.uid


def test_forget_password_refuses_a_wrong_or_foreign_code(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    code = fresh_code(api, settings, user.account, 2)
    assert error(forget(api, user.account, wrong_code(code)), 400) == CODE_INVALID
    # A deal-password code of the same address is not a forgot-password code.
    pay_code = fresh_code(api, settings, user.account, 3, token=user.token)
    if pay_code != code:
        assert error(forget(api, user.account, pay_code), 400) == CODE_INVALID
    # Nor is a code sent to another address.
    assert error(forget(api, user.account, send_code(api, unique_email("fp"), 1)), 400) == CODE_INVALID
    ok(login(api, user.account))  # nothing changed
    ok(forget(api, user.account, code))


def test_forget_password_of_an_unknown_account_is_404(api: httpx.Client) -> None:
    assert error(forget(api, unique_email("nobody"), "123456"), 404) == "This account is not registered"
    assert error(forget(api, unique_mobile(), "123456"), 404) == "This account is not registered"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"account": "not-an-email"}, "Please enter a valid e-mail address"),
        ({"auth_code": ""}, "Please enter the verification code"),
        ({"new_password": "short", "secondary_password": "short"}, "The password must be 6 to 16 letters or digits"),
        (
            {"new_password": "has space1", "secondary_password": "has space1"},
            "The password must be 6 to 16 letters or digits",
        ),
        ({"new_password": "", "secondary_password": ""}, "Please enter the password"),
        ({"secondary_password": "Mismatch99"}, DIFFER),
        ({"secondary_password": ""}, "Please confirm the password"),
        ({"type": "phone"}, "Type is invalid"),
    ],
)
def test_forget_password_form_rules(api: httpx.Client, change: dict[str, Any], message: str) -> None:
    assert error(forget(api, "someone@example.com", "123456", **change), 400) == message


@pytest.mark.parametrize("country_code", ["1234", "abc", "x" * 50, "\x00", "1+", "1-2", "４４"])
def test_forget_password_refuses_a_malformed_country_code(api: httpx.Client, country_code: str) -> None:
    body = {"country_code": country_code}
    assert error(forget(api, unique_mobile(), "123456", **body), 400) == "The country code must be 1 to 3 digits"


def test_forget_password_lifts_the_login_lock(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    for _ in range(settings.login_max_failures):
        error(login(api, user.account, "Wrong1234"), 400)
    minutes = math.ceil(settings.login_lock_seconds / 60)
    assert error(login(api, user.account), 429) == f"Too many failed attempts, please try again in {minutes} minutes"
    ok(forget(api, user.account, fresh_code(api, settings, user.account, 2)))
    assert ok(login(api, user.account, NEW))["uid"] == user.uid


def test_forget_password_lifts_the_lock_of_a_phone_login_with_any_prefix(api: httpx.Client, settings: Any) -> None:
    user = member(api, unique_mobile(), area_id=1)
    for _ in range(settings.login_max_failures):
        error(login(api, user.account, "Wrong1234", country_code="1"), 400)
    error(login(api, user.account, country_code="1"), 429)
    ok(forget(api, user.account, fresh_code(api, settings, user.account, 2)))  # no prefix given here
    assert ok(login(api, user.account, NEW, country_code="1"))["uid"] == user.uid


# --- user/amend_password ---------------------------------------------------------------------------


def test_amend_password(api: httpx.Client) -> None:
    user = member(api)
    other_session = ok(login(api, user.account))["token"]
    response = amend(api, user, PASSWORD, NEW)
    assert ok(response) is None and response.json()["msg"] == "Password changed, please log in again"
    assert me(api, user.token)["id"] == user.uid  # the current session is kept
    assert error(api.get("user/info", headers=auth(other_session)), 401, 999) == LOGIN_FIRST
    assert error(login(api, user.account), 400) == BAD_CREDENTIALS
    assert ok(login(api, user.account, NEW))["uid"] == user.uid


def test_amend_password_keeps_the_current_session_given_as_bearer(api: httpx.Client) -> None:
    user = member(api)
    bearer = Member(user.account, user.password, f"Bearer {user.token}", user.uid)
    ok(amend(api, bearer, PASSWORD, NEW))
    assert me(api, user.token)["id"] == user.uid


def test_amend_password_refuses_a_wrong_old_password(api: httpx.Client) -> None:
    user = member(api)
    assert error(amend(api, user, "Wrong1234", NEW), 400) == "The old password is incorrect"
    assert error(amend(api, user, PASSWORD.lower(), NEW), 400) == "The old password is incorrect"
    ok(login(api, user.account))  # unchanged


def test_wrong_old_passwords_count_as_failed_logins(api: httpx.Client, settings: Any) -> None:
    """A stolen session cannot guess the login password through amend_password: the account's lock."""
    user = member(api)
    for _ in range(settings.login_max_failures):
        assert error(amend(api, user, "Wrong1234", NEW), 400) == "The old password is incorrect"
    assert error(amend(api, user, PASSWORD, NEW), 429)
    assert error(login(api, user.account), 429)


def test_amend_password_refuses_an_old_password_that_cannot_be_encoded(api: httpx.Client) -> None:
    user = member(api)
    raw = json.dumps({"old_password": "\udfff", "new_password": NEW, "secondary_password": NEW}).encode()
    response = api.post("user/amend_password", content=raw, headers={"content-type": "application/json", **user.auth})
    assert error(response, 400) == "The old password is incorrect"


def test_amend_password_refuses_the_same_password(api: httpx.Client) -> None:
    user = member(api)
    assert error(amend(api, user, PASSWORD, PASSWORD), 400) == "The new password must differ from the old one"


def test_amend_password_refuses_a_confirmation_mismatch(api: httpx.Client) -> None:
    user = member(api)
    assert error(amend(api, user, PASSWORD, NEW, NEW + "x"), 400) == DIFFER
    assert error(amend(api, user, PASSWORD, NEW, ""), 400) == "Please confirm the password"
    ok(login(api, user.account))  # unchanged


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("", NEW, "Please enter the old password"),
        (PASSWORD, "", "Please enter the password"),
        (PASSWORD, "abc12", "The password must be 6 to 16 letters or digits"),
        (PASSWORD, "a" * 17, "The password must be 6 to 16 letters or digits"),
        (PASSWORD, "new_pass1", "The password must be 6 to 16 letters or digits"),
    ],
)
def test_amend_password_form_rules(api: httpx.Client, old: str, new: str, message: str) -> None:
    user = member(api)
    assert error(amend(api, user, old, new), 400) == message


def test_amend_password_needs_login(api: httpx.Client) -> None:
    body = {"old_password": PASSWORD, "new_password": NEW, "secondary_password": NEW}
    assert error(api.post("user/amend_password", json=body), 401, 999) == LOGIN_FIRST
    assert error(api.post("user/amend_password", json=body, headers=auth("garbage")), 401, 999) == LOGIN_FIRST


# --- user/amend_pay_password -----------------------------------------------------------------------


def pay(api: httpx.Client, user: Member, code: str, password: str = "Deal1234", **extra: Any) -> httpx.Response:
    body = {"password": password, "auth_code": code, "login_password": user.password, **extra}
    return api.post("user/amend_pay_password", json=body, headers=user.auth)


def test_deal_password_with_an_email_code(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    before = me(api, user.token)
    assert (before["is_set"], before["security_level"]) == (0, 50)
    code = fresh_code(api, settings, user.account, 3, token=user.token)
    response = pay(api, user, code, re_password="Deal1234")
    assert ok(response) is None and response.json()["msg"] == "Deal password set"
    after = me(api, user.token)
    assert (after["is_set"], after["security_level"]) == (1, 75)


def test_deal_password_with_a_phone_code(api: httpx.Client, settings: Any) -> None:
    user = member(api, unique_mobile())
    code = fresh_code(api, settings, user.account, 3, token=user.token)
    ok(pay(api, user, code, vtype="mobile"))
    assert (me(api, user.token)["is_set"], me(api, user.token)["security_level"]) == (1, 75)


def test_deal_password_can_be_changed_with_a_new_code(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    ok(pay(api, user, fresh_code(api, settings, user.account, 3, token=user.token)))
    ok(pay(api, user, fresh_code(api, settings, user.account, 3, token=user.token), "Deal5678"))
    assert (me(api, user.token)["is_set"], me(api, user.token)["security_level"]) == (1, 75)


def test_deal_password_refuses_wrong_used_and_foreign_codes(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    code = fresh_code(api, settings, user.account, 3, token=user.token)
    assert error(pay(api, user, wrong_code(code)), 400) == CODE_INVALID
    assert me(api, user.token)["is_set"] == 0
    ok(pay(api, user, code))
    assert error(pay(api, user, code), 400) == CODE_INVALID  # used up
    # A type-2 (forgot password) code is not a deal-password code.
    other = member(api)
    forgot = fresh_code(api, settings, other.account, 2)
    assert error(pay(api, other, forgot), 400) == CODE_INVALID
    # Another user's deal-password code does not work on this account.
    third = member(api)
    third_code = fresh_code(api, settings, third.account, 3, token=third.token)
    assert error(pay(api, other, third_code), 400) == CODE_INVALID
    assert me(api, other.token)["is_set"] == 0


def test_deal_password_by_phone_needs_a_bound_phone(api: httpx.Client) -> None:
    user = member(api)
    assert error(pay(api, user, "123456", vtype="mobile"), 400) == "Bind an e-mail or phone number first"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"password": ""}, "Please enter the password"),
        ({"password": "12345"}, "The password must be 6 to 16 letters or digits"),
        ({"re_password": "Other1234"}, DIFFER),
        ({"auth_code": ""}, "Please enter the verification code"),
        ({"vtype": "phone"}, "Verification method is invalid"),
        ({"login_password": ""}, "Please enter your login password"),
        ({"login_password": "x" * 65}, "The password must be 6 to 16 letters or digits"),
        ({"login_password": ["Secret123"]}, "Login password is invalid"),
    ],
)
def test_deal_password_form_rules(api: httpx.Client, change: dict[str, Any], message: str) -> None:
    user = member(api)
    body = {"password": "Deal1234", "auth_code": "123456", "login_password": PASSWORD, **change}
    assert error(api.post("user/amend_pay_password", json=body, headers=user.auth), 400) == message


def test_deal_password_needs_login(api: httpx.Client) -> None:
    body = {"password": "Deal1234", "auth_code": "123456"}
    assert error(api.post("user/amend_pay_password", json=body), 401, 999) == LOGIN_FIRST
