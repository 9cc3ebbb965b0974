"""user/login: tokens for e-mail and phone accounts, one message for every credential failure, the throttle."""

from __future__ import annotations

import asyncio
import json
import math
from collections import Counter
from typing import Any

import httpx
import pytest

from tests.utils.users import PASSWORD, error, login, ok, register, unique_email, unique_mobile

BAD_CREDENTIALS = "Incorrect account or password"


def post_login(api: httpx.Client, **body: Any) -> httpx.Response:
    return api.post("user/login", json=body)


def throttled_message(settings: Any) -> str:
    return f"Too many failed attempts, please try again in {math.ceil(settings.login_lock_seconds / 60)} minutes"


# --- success ---------------------------------------------------------------------------------------


def test_email_login_returns_a_working_token(api: httpx.Client) -> None:
    email = register(api)
    response = login(api, email)
    data = ok(response)
    assert response.json()["msg"] == "Logged in successfully"
    assert set(data) == {"token", "uid", "account", "is_seller"}
    assert isinstance(data["token"], str) and len(data["token"]) >= 32
    assert (data["account"], data["is_seller"]) == (email, 0)
    me = ok(api.get("user/info", headers={"Authorization": data["token"]}))
    assert (me["id"], me["email"]) == (data["uid"], email)


def test_mobile_login_returns_a_working_token(api: httpx.Client) -> None:
    mobile = register(api, unique_mobile(), area_id=3)
    data = ok(login(api, mobile, country_code="44"))
    assert data["account"] == mobile
    me = ok(api.get("user/info", headers={"Authorization": data["token"]}))
    assert (me["id"], me["mobile"]) == (data["uid"], mobile)


@pytest.mark.parametrize("country_code", ["", "1", "+1", " +1 "])
def test_mobile_login_with_or_without_country_code(api: httpx.Client, country_code: str) -> None:
    mobile = register(api, unique_mobile(), area_id=1)
    assert ok(login(api, mobile, country_code=country_code))["account"] == mobile


def test_mobile_login_with_another_country_code_fails(api: httpx.Client) -> None:
    mobile = register(api, unique_mobile(), area_id=1)
    assert error(login(api, mobile, country_code="44"), 400) == BAD_CREDENTIALS


def test_each_login_issues_a_new_token(api: httpx.Client) -> None:
    email = register(api)
    first, second = ok(login(api, email))["token"], ok(login(api, email))["token"]
    assert first != second
    for token in (first, second):
        ok(api.get("user/info", headers={"Authorization": token}))


def test_login_type_is_inferred_from_the_account(api: httpx.Client) -> None:
    email = register(api)
    mobile = register(api, unique_mobile())
    assert ok(post_login(api, account=email, password=PASSWORD))["account"] == email
    assert ok(post_login(api, account=mobile, password=PASSWORD))["account"] == mobile
    assert ok(post_login(api, account=int(mobile), password=PASSWORD))["account"] == mobile


def test_explicit_login_type_must_fit_the_account(api: httpx.Client) -> None:
    email = register(api)
    mobile = register(api, unique_mobile())
    assert error(post_login(api, account=email, password=PASSWORD, login_type="mobile"), 400) == (
        "Please enter a valid phone number"
    )
    assert error(post_login(api, account=mobile, password=PASSWORD, login_type="email"), 400) == (
        "Please enter a valid e-mail address"
    )
    assert error(post_login(api, account=email, password=PASSWORD, login_type="phone"), 400) == (
        "Login type is invalid"
    )


def test_email_login_ignores_case_and_spaces(api: httpx.Client) -> None:
    email = register(api)
    assert ok(login(api, f"  {email.upper()} "))["account"] == email


# --- failures --------------------------------------------------------------------------------------


def test_wrong_password_is_400_code_0(api: httpx.Client) -> None:
    email = register(api)
    assert error(login(api, email, "Wrong1234"), 400) == BAD_CREDENTIALS
    assert error(login(api, email, PASSWORD.lower()), 400) == BAD_CREDENTIALS  # passwords are case-sensitive
    assert error(login(api, email, PASSWORD + " x"), 400) == BAD_CREDENTIALS


def test_unknown_account_gets_the_same_answer_as_a_wrong_password(api: httpx.Client) -> None:
    email = register(api)
    mobile = register(api, unique_mobile())
    wrong = login(api, email, "Wrong1234")
    for response in (login(api, unique_email("ghost")), login(api, unique_mobile()), login(api, mobile, "Wrong1234")):
        assert error(response, 400) == error(wrong, 400) == BAD_CREDENTIALS


def test_password_with_a_lone_surrogate_is_just_wrong(api: httpx.Client) -> None:
    """Legal JSON, but not encodable text: it cannot match any password."""
    email = register(api)
    raw = json.dumps({"account": email, "password": PASSWORD + "\ud800"}).encode()
    response = api.post("user/login", content=raw, headers={"content-type": "application/json"})
    assert error(response, 400) == BAD_CREDENTIALS
    assert ok(login(api, email))["account"] == email


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Please enter your phone number or e-mail"),
        ({"account": "", "password": PASSWORD}, "Please enter your phone number or e-mail"),
        ({"account": "  ", "password": PASSWORD}, "Please enter your phone number or e-mail"),
        ({"account": "someone@example", "password": PASSWORD}, "Please enter a valid e-mail address"),
        ({"account": "12ab34", "password": PASSWORD}, "Please enter a valid phone number"),
        ({"account": "12345", "password": PASSWORD}, "Please enter a valid phone number"),
        ({"account": "someone@example.com"}, "Please enter the password"),
        ({"account": "someone@example.com", "password": ""}, "Please enter the password"),
        ({"account": "someone@example.com", "password": "p" * 65}, "The password must be 6 to 16 letters or digits"),
        (
            {"account": "1234567", "password": PASSWORD, "country_code": "1234"},
            "The country code must be 1 to 3 digits",
        ),
        ({"account": "1234567", "password": PASSWORD, "country_code": "ab"}, "The country code must be 1 to 3 digits"),
    ],
)
def test_login_form_rules(api: httpx.Client, body: dict[str, Any], message: str) -> None:
    assert error(api.post("user/login", json=body), 400) == message


# --- the throttle ----------------------------------------------------------------------------------


def test_throttle_refuses_even_the_right_password_after_the_limit(api: httpx.Client, settings: Any) -> None:
    email = register(api)
    for _ in range(settings.login_max_failures):
        assert error(login(api, email, "Wrong1234"), 400) == BAD_CREDENTIALS
    assert error(login(api, email), 429) == throttled_message(settings)
    assert error(login(api, email, "Wrong1234"), 429) == throttled_message(settings)
    assert error(login(api, email.upper()), 429) == throttled_message(settings)


def test_throttle_is_per_account(api: httpx.Client, settings: Any) -> None:
    locked, other = register(api), register(api)
    for _ in range(settings.login_max_failures):
        error(login(api, locked, "Wrong1234"), 400)
    error(login(api, locked), 429)
    assert ok(login(api, other))["account"] == other


def test_throttle_counts_a_mobile_account(api: httpx.Client, settings: Any) -> None:
    mobile = register(api, unique_mobile(), area_id=1)
    for _ in range(settings.login_max_failures):
        error(login(api, mobile, "Wrong1234", country_code="1"), 400)
    assert error(login(api, mobile, country_code="1"), 429) == throttled_message(settings)
    assert error(login(api, mobile), 429) == throttled_message(settings)  # the same phone without the prefix


def test_throttle_cannot_be_dodged_by_varying_the_country_code(api: httpx.Client, settings: Any) -> None:
    email = register(api)
    codes = ["", "1", "44", "+1", "7", "86", "999", "01", "0"]
    for i in range(settings.login_max_failures):
        error(login(api, email, "Wrong1234", country_code=codes[i % len(codes)]), 400)
    for code in codes:
        assert error(login(api, email, country_code=code), 429) == throttled_message(settings)


def test_throttle_cannot_be_dodged_by_dropping_the_country_code_of_a_phone(api: httpx.Client, settings: Any) -> None:
    mobile = register(api, unique_mobile(), area_id=1)
    for i in range(settings.login_max_failures):
        error(login(api, mobile, "Wrong1234", country_code=("1", "", "+1")[i % 3]), 400)
    for code in ("1", "", "+1"):
        assert error(login(api, mobile, country_code=code), 429) == throttled_message(settings)


def test_throttle_also_covers_unknown_accounts(api: httpx.Client, settings: Any) -> None:
    ghost = unique_email("ghost")
    for _ in range(settings.login_max_failures):
        assert error(login(api, ghost), 400) == BAD_CREDENTIALS
    assert error(login(api, ghost), 429) == throttled_message(settings)


def test_successful_login_resets_the_counter_before_the_limit(api: httpx.Client, settings: Any) -> None:
    email = register(api)
    for _round in range(3):
        for _ in range(settings.login_max_failures - 1):
            assert error(login(api, email, "Wrong1234"), 400) == BAD_CREDENTIALS
        assert ok(login(api, email))["account"] == email
    # The counter really was reset: a full run of failures is needed again to lock the account.
    for _ in range(settings.login_max_failures):
        error(login(api, email, "Wrong1234"), 400)
    error(login(api, email), 429)


def test_form_errors_do_not_count_as_failures(api: httpx.Client, settings: Any) -> None:
    email = register(api)
    for _ in range(settings.login_max_failures + 2):
        assert error(post_login(api, account=email, password=""), 400) == "Please enter the password"
    assert ok(login(api, email))["account"] == email


async def test_forty_parallel_wrong_passwords_get_at_most_the_limit_evaluated(api: httpx.Client, settings: Any) -> None:
    """The attempt is taken before the slow password check: parallel guesses cannot all pass a check
    that only counts failures once they are known (the old check-verify-count evaluated all 40)."""
    email = register(api)
    async with httpx.AsyncClient(base_url=str(api.base_url), timeout=60) as client:
        body = {"account": email, "password": "Wrong1234", "login_type": "email"}
        answers = await asyncio.gather(*[client.post("user/login", json=body) for _ in range(40)])
    outcome = Counter((r.status_code, r.json()["msg"]) for r in answers)
    assert set(outcome) <= {(400, BAD_CREDENTIALS), (429, throttled_message(settings))}, outcome
    assert outcome[(400, BAD_CREDENTIALS)] == settings.login_max_failures, outcome
    assert error(await asyncio.to_thread(login, api, email), 429) == throttled_message(settings)


async def test_parallel_right_passwords_all_log_in_and_leave_no_count(api: httpx.Client, settings: Any) -> None:
    """A success gives its attempt back: logins of the owner never lock the owner out."""
    email = register(api)
    count = settings.login_max_failures * 3
    async with httpx.AsyncClient(base_url=str(api.base_url), timeout=60) as client:
        body = {"account": email, "password": PASSWORD, "login_type": "email"}
        answers = await asyncio.gather(*[client.post("user/login", json=body) for _ in range(count)])
    statuses = Counter(r.status_code for r in answers)
    # each waited for an attempt; at most the limit at once, so some may be told to wait, none refused
    assert set(statuses) <= {200, 429} and statuses[200] >= settings.login_max_failures, statuses
    for _ in range(settings.login_max_failures - 1):
        error(await asyncio.to_thread(login, api, email, "Wrong1234"), 400)
    assert ok(await asyncio.to_thread(login, api, email))["account"] == email
