"""Guessing codes and resetting passwords as an attacker would: parallel guesses, many codes for one
target, many resets; and phone codes bound to the dialling code as well as the number."""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from typing import Any

import httpx

from config.settings import Settings
from store.sessions import PREFIX
from tests.utils.users import (
    PASSWORD,
    end_resend_window,
    error,
    fresh_code,
    login,
    member,
    ok,
    redis_client,
    register,
    send_code,
    unique_email,
    unique_mobile,
    wrong_code,
)

CODE_INVALID = "The verification code is wrong or has expired"
BURNT = "Too many wrong codes, please request a new one"
NEW = "Other789"


def register_form(account: str, code: str, area_id: int = 1) -> dict[str, Any]:
    return {"type": "email" if "@" in account else "mobile", "account": account, "password": PASSWORD,
            "re_password": PASSWORD, "sms_code": code, "area_id": area_id}  # fmt: skip


def forget(api: httpx.Client, account: str, code: str, **extra: Any) -> httpx.Response:
    body = {"type": "email" if "@" in account else "mobile", "account": account, "new_password": NEW,
            "secondary_password": NEW, "auth_code": code, **extra}  # fmt: skip
    return api.post("user/forget_password", json=body)


def compared_misses(settings: Settings, target: str) -> int:
    """How many wrong guesses at ``target`` were compared with a live code (the target's failure count)."""
    with redis_client(settings) as r:
        return int(r.get(f"{PREFIX}code_fail:target:{target}") or 0)


def minutes(seconds: int) -> int:
    return math.ceil(seconds / 60)


# --- #5: parallel guesses ------------------------------------------------------------------------


async def test_forty_parallel_wrong_guesses_and_the_right_code_get_at_most_the_allowed_comparisons(
    api: httpx.Client, settings: Settings
) -> None:
    to = unique_email("storm")
    code = send_code(api, to, 1)
    bad = wrong_code(code)
    async with httpx.AsyncClient(base_url=str(api.base_url), timeout=60) as client:
        guesses = [client.post("user/register", json=register_form(to, bad)) for _ in range(40)]
        guesses.append(client.post("user/register", json=register_form(to, code)))  # sent last
        answers = await asyncio.gather(*guesses)
    outcome = Counter((r.status_code, r.json()["msg"]) for r in answers)
    registered = answers[-1].status_code == 200
    assert outcome[(200, "Registered successfully")] == int(registered)
    misses = compared_misses(settings, to)
    limit = settings.code_max_attempts
    # Only the first `limit` guesses were compared; the one that used the last attempt burnt the code,
    # and everything after it found no code at all. The old read-compare-increment compared all 41.
    if registered:
        assert misses < limit and outcome[(429, BURNT)] == 0
    else:
        assert misses == limit and outcome[(429, BURNT)] == 1
    exists = (409, "This account is already registered")  # a guess that came after the registration
    assert set(outcome) <= {(200, "Registered successfully"), (429, BURNT), (400, CODE_INVALID), exists}
    if not registered:  # the attempts are used up: the right code fails now
        again = await asyncio.to_thread(api.post, "user/register", json=register_form(to, code))
        assert error(again, 400) == CODE_INVALID


async def test_parallel_right_codes_register_once(api: httpx.Client) -> None:
    to = unique_email("twice")
    code = send_code(api, to, 1)
    async with httpx.AsyncClient(base_url=str(api.base_url), timeout=60) as client:
        answers = await asyncio.gather(*[client.post("user/register", json=register_form(to, code)) for _ in range(8)])
    statuses = Counter(r.status_code for r in answers)
    assert statuses[200] == 1 and set(statuses) <= {200, 400, 409}  # 409: it was already registered


# --- #5: wrong codes per target, many codes ------------------------------------------------------


def test_a_target_that_had_too_many_wrong_codes_waits_even_with_a_new_code(
    api: httpx.Client, settings: Settings
) -> None:
    to = unique_email("target")
    misses = 0
    while misses < settings.code_target_max_failures:  # a fresh code every few misses, as an attacker would
        code = fresh_code(api, settings, to, 1)
        for attempt in range(min(settings.code_max_attempts, settings.code_target_max_failures - misses)):
            burns = attempt == settings.code_max_attempts - 1
            error(api.post("user/register", json=register_form(to, wrong_code(code))), 429 if burns else 400)
            misses += 1
    code = fresh_code(api, settings, to, 1)
    wait = minutes(settings.code_fail_window_seconds)
    message = f"Too many wrong verification codes, please try again in {wait} minutes"
    assert error(api.post("user/register", json=register_form(to, code)), 429) == message
    # The right code was not even compared, and still is not: nothing can be learnt meanwhile.
    assert compared_misses(settings, to) == settings.code_target_max_failures
    # Other targets (from the same address) are not affected.
    other = unique_email("bystander")
    ok(api.post("user/register", json=register_form(other, send_code(api, other, 1))))


# --- #5: password resets per account -------------------------------------------------------------


def test_failed_resets_of_an_account_are_limited(api: httpx.Client, settings: Settings) -> None:
    user = member(api)
    for _ in range(settings.reset_max_failures):
        error(forget(api, user.account, "123456"), 400)  # no forgot-password code was even sent
    wait = minutes(settings.reset_window_seconds)
    locked = f"Too many failed password resets, please try again in {wait} minutes"
    code = fresh_code(api, settings, user.account, 2)
    assert error(forget(api, user.account, code), 429) == locked  # even with the right code now
    ok(login(api, user.account))  # the password did not change
    other = member(api)
    ok(forget(api, other.account, fresh_code(api, settings, other.account, 2)))  # others reset as usual


def test_resets_of_unknown_accounts_are_limited_too(api: httpx.Client, settings: Settings) -> None:
    ghost = unique_email("ghost")
    for _ in range(settings.reset_max_failures):
        assert error(forget(api, ghost, "123456"), 404) == "This account is not registered"
    assert error(forget(api, ghost, "123456"), 429).startswith("Too many failed password resets")


# --- #14: a phone code is bound to the dialling code -------------------------------------------


def test_a_code_for_plus_1_does_not_register_plus_44(api: httpx.Client) -> None:
    number = unique_mobile()
    code = send_code(api, number, 1, area_id=1)  # +1 <number>
    assert error(api.post("user/register", json=register_form(number, code, area_id=3)), 400) == CODE_INVALID
    ok(api.post("user/register", json=register_form(number, code, area_id=1)))


def test_a_code_for_plus_1_does_not_bind_plus_44(api: httpx.Client) -> None:
    user = member(api)
    number = unique_mobile()
    code = send_code(api, number, 6, token=user.token, area_id=1)
    body = {"type": 1, "account": number, "sms_code": code, "area_id": 3, "login_password": user.password}
    assert error(api.post("user/bind_account", json=body, headers=user.auth), 400) == CODE_INVALID
    assert ok(api.get("user/info", headers=user.auth))["mobile"] == ""
    ok(api.post("user/bind_account", json={**body, "area_id": 1}, headers=user.auth))


def test_a_code_for_plus_1_does_not_reset_plus_44(api: httpx.Client, settings: Settings) -> None:
    number = unique_mobile()
    register(api, number, area_id=1)  # +1 <number>, the attacker's own phone
    register(api, number, area_id=3)  # +44 <number>, the victim's
    attacker, victim = (ok(login(api, number, country_code=cc))["uid"] for cc in ("1", "44"))
    code = fresh_code(api, settings, number, 2, area_id=1)
    assert error(forget(api, number, code, country_code="44"), 400) == CODE_INVALID
    assert ok(login(api, number, country_code="44"))["uid"] == victim  # the victim's password stands
    ok(forget(api, number, code, country_code="1"))  # the code does reset its own phone's account
    assert ok(login(api, number, NEW, country_code="1"))["uid"] == attacker


def test_send_sms_to_a_number_under_another_country_finds_no_account(api: httpx.Client, settings: Settings) -> None:
    user = member(api, unique_mobile(), area_id=3)
    end_resend_window(settings, user.account)
    sent = api.post("notify/send_sms", json={"to": user.account, "type": 2, "area_id": 1})
    assert error(sent, 404) == "This account is not registered"


def test_a_login_code_for_plus_1_does_not_open_plus_44(
    api: httpx.Client, settings: Settings, sms_login_on: None
) -> None:
    number = unique_mobile()
    register(api, number, area_id=1)
    register(api, number, area_id=3)  # the same password: only the phone stands between
    code = fresh_code(api, settings, number, 5, area_id=1)
    assert error(login(api, number, country_code="44", sms_code=code), 400) == CODE_INVALID
    assert ok(login(api, number, country_code="1", sms_code=code))["token"]
