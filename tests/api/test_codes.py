"""notify/send_email and notify/send_sms: the send types and their target rules, the resend window,
the dev outbox and the burning of a code after too many wrong guesses."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from tests.utils.users import (
    PASSWORD,
    auth,
    end_resend_window,
    error,
    last_code,
    member,
    ok,
    register,
    send_code,
    unique_email,
    unique_mobile,
    wrong_code,
)

SENT = "The verification code has been sent"
LOGIN_FIRST = "Please log in first"
EXISTS = "This account is already registered"
NOT_REGISTERED = "This account is not registered"
ALREADY_BOUND = "This account is already bound"
NOT_OWN = "This code can only be sent to your own e-mail or phone"
CODE_INVALID = "The verification code is wrong or has expired"
AREA_INVALID = "Please choose a valid country or region"
TOO_SOON = re.compile(r"^A code was just sent, please try again in (\d+) seconds$")


def email_code(api: httpx.Client, to: Any, kind: Any, token: str | None = None, **extra: Any) -> httpx.Response:
    return api.post("notify/send_email", json={"to": to, "type": kind, **extra}, headers=auth(token) if token else {})


def sms_code(api: httpx.Client, to: Any, kind: Any, token: str | None = None, **extra: Any) -> httpx.Response:
    body = {"to": to, "type": kind, "area_id": 1, **extra}
    return api.post("notify/send_sms", json=body, headers=auth(token) if token else {})


def outbox(api: httpx.Client, to: str) -> list[dict[str, Any]]:
    return ok(api.get("dev/outbox", params={"to": to}))


def register_form(account: str, code: str) -> dict[str, Any]:
    kind = "email" if "@" in account else "mobile"
    return {
        "type": kind,
        "account": account,
        "password": PASSWORD,
        "re_password": PASSWORD,
        "sms_code": code,
        "area_id": 1,
    }


# --- type 1: register ------------------------------------------------------------------------------


def test_type_1_email_to_a_free_address(api: httpx.Client) -> None:
    to = unique_email("t1")
    response = email_code(api, to, 1)
    assert ok(response) is None and response.json()["msg"] == SENT
    [sent] = outbox(api, to)
    assert (sent["to"], sent["channel"], sent["type"]) == (to, "email", 1)
    assert re.fullmatch(r"[0-9]{6}", sent["code"])
    assert sent["code"] in sent["text"] and "10 minutes" in sent["text"]
    assert isinstance(sent["sent_at"], int) and sent["sent_at"] > 0


def test_type_1_sms_to_a_free_number(api: httpx.Client) -> None:
    to = unique_mobile()
    ok(sms_code(api, to, 1))
    [sent] = outbox(api, to)
    assert (sent["to"], sent["channel"], sent["type"]) == (to, "mobile", 1)


def test_type_1_sms_takes_the_type_as_text_and_needs_an_area(api: httpx.Client) -> None:
    to = unique_mobile()
    # A phone code is bound to the number and its dialling code, so a free number needs its area.
    assert error(api.post("notify/send_sms", json={"to": to, "type": 1}), 400) == AREA_INVALID
    ok(api.post("notify/send_sms", json={"to": to, "type": "1", "area_id": 1}))
    assert outbox(api, to)[0]["type"] == 1


def test_type_2_sms_without_area_goes_to_the_numbers_own_country(api: httpx.Client, settings: Any) -> None:
    user = member(api, unique_mobile(), area_id=3)
    end_resend_window(settings, user.account)
    ok(api.post("notify/send_sms", json={"to": user.account, "type": 2}))
    code = outbox(api, user.account)[0]["code"]
    body = {"type": "mobile", "account": user.account, "new_password": "Other789", "secondary_password": "Other789",
            "auth_code": code, "country_code": "44"}  # fmt: skip
    ok(api.post("user/forget_password", json=body))


def test_type_1_refuses_a_registered_target(api: httpx.Client) -> None:
    email = register(api)
    mobile = register(api, unique_mobile())
    assert error(email_code(api, email, 1), 409) == EXISTS
    assert error(email_code(api, email.upper(), 1), 409) == EXISTS
    assert error(sms_code(api, mobile, 1), 409) == EXISTS


def test_outbox_text_follows_the_lang(api: httpx.Client) -> None:
    to = unique_email("t1fr")
    ok(api.post("notify/send_email", json={"to": to, "type": 1}, headers={"lang": "fr"}))
    [sent] = outbox(api, to)
    assert sent["code"] in sent["text"] and not sent["text"].startswith("Your verification code")


# --- types 2 and 5: forgot password, login ---------------------------------------------------------


@pytest.mark.parametrize("kind", [2, 5])
def test_types_2_and_5_refuse_unknown_targets(api: httpx.Client, kind: int) -> None:
    assert error(email_code(api, unique_email("ghost"), kind), 404) == NOT_REGISTERED
    assert error(sms_code(api, unique_mobile(), kind), 404) == NOT_REGISTERED


@pytest.mark.parametrize("kind", [2, 5])
def test_types_2_and_5_go_to_registered_targets(api: httpx.Client, settings: Any, kind: int) -> None:
    email = register(api)
    mobile = register(api, unique_mobile())
    end_resend_window(settings, email)  # registering just sent codes to both
    end_resend_window(settings, mobile)
    ok(email_code(api, email, kind))
    ok(sms_code(api, mobile, kind))
    assert outbox(api, email)[0]["type"] == kind and outbox(api, mobile)[0]["type"] == kind
    assert outbox(api, mobile)[0]["channel"] == "mobile"


# --- type 3: deal password -------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "garbage", "Bearer garbage"])
def test_type_3_requires_login(api: httpx.Client, token: str | None) -> None:
    email = register(api)
    mobile = register(api, unique_mobile())
    assert error(email_code(api, email, 3, token), 401, 999) == LOGIN_FIRST
    assert error(sms_code(api, mobile, 3, token), 401, 999) == LOGIN_FIRST
    assert all(m["type"] != 3 for m in outbox(api, email) + outbox(api, mobile))


def test_type_3_to_the_users_own_email(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    end_resend_window(settings, user.account)  # registering just sent a code there
    ok(email_code(api, user.account, 3, user.token))
    assert outbox(api, user.account)[0]["type"] == 3


def test_type_3_with_bearer_prefix_and_empty_target_goes_to_the_own_email(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    end_resend_window(settings, user.account)
    ok(email_code(api, "", 3, f"Bearer {user.token}"))
    assert outbox(api, user.account)[0]["type"] == 3


def test_type_3_to_the_users_own_phone(api: httpx.Client, settings: Any) -> None:
    user = member(api, unique_mobile())
    end_resend_window(settings, user.account)
    ok(sms_code(api, user.account, 3, user.token))
    assert outbox(api, user.account)[0]["type"] == 3


@pytest.mark.parametrize("other", ["someone_elses", "unregistered"])
def test_type_3_only_to_the_users_own_target(api: httpx.Client, other: str) -> None:
    user = member(api)
    email = register(api) if other == "someone_elses" else unique_email("free")
    mobile = register(api, unique_mobile()) if other == "someone_elses" else unique_mobile()
    assert error(email_code(api, email, 3, user.token), 403) == NOT_OWN
    assert error(sms_code(api, mobile, 3, user.token), 403) == NOT_OWN
    assert all(m["type"] != 3 for m in outbox(api, email) + outbox(api, mobile))


def test_type_3_by_sms_for_an_email_only_user_needs_a_phone(api: httpx.Client) -> None:
    user = member(api)
    assert error(sms_code(api, "", 3, user.token), 400) == "Please enter your phone number"


# --- type 6: binding -------------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "garbage"])
def test_type_6_requires_login(api: httpx.Client, token: str | None) -> None:
    assert error(email_code(api, unique_email("b"), 6, token), 401, 999) == LOGIN_FIRST
    assert error(sms_code(api, unique_mobile(), 6, token), 401, 999) == LOGIN_FIRST


def test_type_6_to_a_free_target(api: httpx.Client) -> None:
    user = member(api)
    email, mobile = unique_email("bind"), unique_mobile()
    ok(email_code(api, email, 6, user.token))
    ok(sms_code(api, mobile, 6, user.token))
    assert outbox(api, email)[0]["type"] == 6 and outbox(api, mobile)[0]["type"] == 6


def test_type_6_refuses_an_already_registered_target(api: httpx.Client) -> None:
    user = member(api)
    email = register(api)
    mobile = register(api, unique_mobile())
    assert error(email_code(api, email, 6, user.token), 409) == ALREADY_BOUND
    assert error(sms_code(api, mobile, 6, user.token), 409) == ALREADY_BOUND
    assert error(email_code(api, user.account, 6, user.token), 409) == ALREADY_BOUND  # its own e-mail too


# --- form rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [0, 4, 7, 99, -1, "abc", "", None, 1.5, [1], "1.0"])
def test_invalid_type_is_400(api: httpx.Client, kind: Any) -> None:
    assert error(email_code(api, unique_email("bt"), kind), 400) == "Type is invalid"
    assert error(sms_code(api, unique_mobile(), kind), 400) == "Type is invalid"


def test_missing_type_is_400(api: httpx.Client) -> None:
    assert error(api.post("notify/send_email", json={"to": unique_email()}), 400) == "Type is required"


@pytest.mark.parametrize("to", ["", "not-an-email", "a@b", "a@mail.localhost", "a" * 45 + "@example.com"])
def test_send_email_needs_a_valid_email(api: httpx.Client, to: str) -> None:
    message = "Please enter your e-mail" if not to else "Please enter a valid e-mail address"
    assert error(email_code(api, to, 1), 400) == message


@pytest.mark.parametrize("to", ["", "12345", "12ab5678", "+1234567", "x@example.com"])
def test_send_sms_needs_a_valid_number(api: httpx.Client, to: str) -> None:
    message = "Please enter your phone number" if not to else "Please enter a valid phone number"
    assert error(sms_code(api, to, 1), 400) == message


@pytest.mark.parametrize("area_id", [0, 35, 999, 2**31, 10**30])
def test_send_sms_needs_a_known_area(api: httpx.Client, area_id: int) -> None:
    to = unique_mobile(34)
    assert error(sms_code(api, to, 1, area_id=area_id), 400) == AREA_INVALID
    ok(sms_code(api, to, 1, area_id=34))  # the refusal did not take the resend window


# --- the resend window -----------------------------------------------------------------------------


def test_second_send_to_the_same_target_is_429_with_the_seconds_left(api: httpx.Client, settings: Any) -> None:
    to = unique_email("again")
    ok(email_code(api, to, 1))
    match = TOO_SOON.match(error(email_code(api, to, 1), 429))
    assert match, "no seconds in the message"
    assert 1 <= int(match.group(1)) <= settings.code_resend_seconds
    assert int(match.group(1)) >= settings.code_resend_seconds - 10  # just sent: almost the whole window left
    assert len(outbox(api, to)) == 1


def test_resend_window_is_per_target_across_types(api: httpx.Client) -> None:
    user = member(api, unique_mobile())  # registering sent a type-1 code to the number just now
    assert TOO_SOON.match(error(sms_code(api, user.account, 2), 429))
    assert TOO_SOON.match(error(sms_code(api, user.account, 5), 429))
    assert TOO_SOON.match(error(sms_code(api, user.account, 3, user.token), 429))
    ok(sms_code(api, unique_mobile(), 1))  # other targets are not affected
    ok(email_code(api, unique_email("other"), 1))


def test_refused_send_does_not_open_the_window(api: httpx.Client) -> None:
    to = unique_email("refused")
    error(email_code(api, to, 2), 404)  # not registered yet
    error(email_code(api, to, 3), 401, 999)
    ok(email_code(api, to, 1))


def test_window_reopens_after_it_ends(api: httpx.Client, settings: Any) -> None:
    to = unique_email("reopen")
    ok(email_code(api, to, 1))
    error(email_code(api, to, 1), 429)
    end_resend_window(settings, to)
    ok(email_code(api, to, 1))


# --- the dev outbox --------------------------------------------------------------------------------


def test_outbox_is_newest_first_and_only_the_newest_code_works(api: httpx.Client, settings: Any) -> None:
    to = unique_email("newest")
    ok(email_code(api, to, 1))
    first = last_code(api, to, 1)
    end_resend_window(settings, to)
    ok(email_code(api, to, 1))
    sent = outbox(api, to)
    assert len(sent) == 2 and sent[0]["sent_at"] >= sent[1]["sent_at"]
    second = sent[0]["code"]
    assert sent[1]["code"] == first
    if first != second:
        assert error(api.post("user/register", json=register_form(to, first)), 400) == CODE_INVALID
    ok(api.post("user/register", json=register_form(to, second)))


def test_outbox_keeps_types_apart(api: httpx.Client, settings: Any) -> None:
    user = member(api)
    end_resend_window(settings, user.account)  # the register code was just sent
    ok(email_code(api, user.account, 3, user.token))
    sent = outbox(api, user.account)
    assert [m["type"] for m in sent] == [3, 1]
    assert last_code(api, user.account, 3) == sent[0]["code"]
    assert last_code(api, user.account, 1) == sent[1]["code"]


def test_outbox_lookup_ignores_case_and_is_empty_for_strangers(api: httpx.Client) -> None:
    to = unique_email("case")
    ok(email_code(api, to, 1))
    assert outbox(api, to.upper()) == outbox(api, to) != []
    assert outbox(api, unique_email("nobody")) == []
    assert error(api.get("dev/outbox"), 400) == "Recipient is required"


# --- burning a code --------------------------------------------------------------------------------


def test_too_many_wrong_codes_burn_the_code(api: httpx.Client, settings: Any) -> None:
    to = unique_email("burn")
    code = send_code(api, to, 1)
    bad = wrong_code(code)
    for _ in range(settings.code_max_attempts - 1):
        assert error(api.post("user/register", json=register_form(to, bad)), 400) == CODE_INVALID
    assert error(api.post("user/register", json=register_form(to, bad)), 429) == (
        "Too many wrong codes, please request a new one"
    )
    # The right code no longer works: it is gone, not just locked.
    assert error(api.post("user/register", json=register_form(to, code)), 400) == CODE_INVALID
    assert error(api.post("user/register", json=register_form(to, code)), 400) == CODE_INVALID


def test_a_new_code_after_burning_works(api: httpx.Client, settings: Any) -> None:
    to = unique_email("fresh")
    code = send_code(api, to, 1)
    for attempt in range(1, settings.code_max_attempts + 1):
        status = 429 if attempt == settings.code_max_attempts else 400
        error(api.post("user/register", json=register_form(to, wrong_code(code))), status)
    end_resend_window(settings, to)
    fresh = send_code(api, to, 1)
    # The miss counter started again with the new code.
    for _ in range(settings.code_max_attempts - 1):
        assert error(api.post("user/register", json=register_form(to, wrong_code(fresh))), 400) == CODE_INVALID
    ok(api.post("user/register", json=register_form(to, fresh)))


def test_fewer_misses_than_the_limit_keep_the_code(api: httpx.Client, settings: Any) -> None:
    to = unique_mobile()
    code = send_code(api, to, 1)
    for _ in range(settings.code_max_attempts - 1):
        assert error(api.post("user/register", json=register_form(to, wrong_code(code))), 400) == CODE_INVALID
    ok(api.post("user/register", json=register_form(to, code)))


def test_non_ascii_guesses_count_as_misses(api: httpx.Client, settings: Any) -> None:
    to = unique_email("unicode")
    code = send_code(api, to, 1)
    guesses = ["ü12345", "１２３４５６", "\ud800" + code, "😀" * 4, "\x00" * 6, code + "é"]
    for attempt in range(settings.code_max_attempts - 1):
        guess = guesses[attempt % len(guesses)]
        # JSON with ASCII escapes, so the lone surrogate (legal JSON) can be sent.
        raw = json.dumps(register_form(to, guess)).encode()
        response = api.post("user/register", content=raw, headers={"content-type": "application/json"})
        assert error(response, 400) == CODE_INVALID
    assert error(api.post("user/register", json=register_form(to, "ü")), 429) == (
        "Too many wrong codes, please request a new one"
    )
    assert error(api.post("user/register", json=register_form(to, code)), 400) == CODE_INVALID
