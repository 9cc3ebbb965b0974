"""The back office's foundation (issue 16): operators made by `exchange operator add` log in with
password + TOTP, must set their own password first, hold sessions apart from users', reach only the
routes of their roles, and every operator action (console or command) is in the audit trail."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections import Counter

import httpx
import pyotp
import pytest

from config.settings import Settings
from serve.security import hash_password
from store.admin import operators
from store.models import AuditLog, Operator
from store.times import now_ms
from tests.utils.cli import exchange, exchange_ok
from tests.utils.otp import accepted, current_code
from tests.utils.p2p import apply_merchant, trader
from tests.utils.sales import get, post
from tests.utils.users import error, member, ok

PASSWORD = "Operator-pass-1"


async def make_operator(*roles: str, temporary: bool = False) -> tuple[Operator, str]:
    """An operator with ``roles``, password ``PASSWORD`` (one-time when ``temporary``); and its secret."""
    secret = operators.new_secret()
    row = await Operator.create(email=f"op-{uuid.uuid4().hex[:8]}@back.office", password_hash=await hash_password(PASSWORD),
                                totp_secret=secret, roles=list(roles), password_is_temporary=temporary,
                                created_ms=now_ms())  # fmt: skip
    return row, secret


def log_in(api: httpx.Client, email: str, secret: str, password: str = PASSWORD) -> httpx.Response:
    answer = post(api, "admin/login", json={"email": email, "password": password, "otp": current_code(secret)})
    if answer.status_code == 200:
        accepted(secret)
    return answer


def token_of(api: httpx.Client, op: Operator, secret: str) -> dict[str, str]:
    return {"Authorization": ok(log_in(api, op.email, secret))["token"]}


async def two_finance(api: httpx.Client) -> tuple[Operator, Operator, dict[str, str], dict[str, str]]:
    """Two finance operators, logged in: (first, second, first's headers, second's headers)."""
    (first, s1), (second, s2) = await make_operator("finance"), await make_operator("finance")
    return first, second, token_of(api, first, s1), token_of(api, second, s2)


async def test_password_and_a_current_code_open_a_session(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("admin")
    data = ok(log_in(api, op.email, secret))
    assert data["roles"] == ["admin"] and data["must_change_password"] is False and data["token"].startswith("op_")
    assert ok(get(api, "admin/me", headers={"Authorization": data["token"]}))["email"] == op.email
    message = "Incorrect e-mail, password or two-factor code"  # the same whatever was wrong
    assert (
        error(post(api, "admin/login", json={"email": op.email, "password": PASSWORD, "otp": "000000"}), 400) == message
    )
    assert error(log_in(api, op.email, secret, "wrong password"), 400) == message
    assert error(log_in(api, "nobody@back.office", secret), 400) == message
    assert error(post(api, "admin/login", json={"email": op.email, "password": PASSWORD, "otp": "12ab56"}), 400)
    ok(post(api, "admin/logout", headers={"Authorization": data["token"]}))
    assert error(get(api, "admin/me", headers={"Authorization": data["token"]}), 401, code=999)


async def test_logins_are_throttled_like_users(api: httpx.Client, settings: Settings, db: None) -> None:
    op, secret = await make_operator("support")
    for _ in range(settings.login_max_failures):
        error(log_in(api, op.email, secret, "wrong password"), 400)
    assert error(log_in(api, op.email, secret), 429)  # even the right password waits


async def test_thirty_parallel_wrong_passwords_get_at_most_the_limit_evaluated(
    api: httpx.Client, settings: Settings, db: None
) -> None:
    """The attempt is taken before the password is checked: parallel guesses are not all evaluated."""
    op, secret = await make_operator("support")
    body = {"email": op.email, "password": "wrong password", "otp": pyotp.TOTP(secret).now()}
    async with httpx.AsyncClient(base_url=str(api.base_url), timeout=60) as client:
        answers = await asyncio.gather(*[client.post("admin/login", json=body) for _ in range(30)])
    statuses = Counter(r.status_code for r in answers)
    assert set(statuses) <= {400, 429} and statuses[400] == settings.login_max_failures, statuses
    assert error(log_in(api, op.email, secret), 429)  # even the right password waits


async def test_a_code_opens_one_login_only(api: httpx.Client, db: None) -> None:
    """A code seen over a shoulder (or in a proxy's log) cannot open a second session in its window,
    even with the right password; an earlier step than one already used is refused as well."""
    op, secret = await make_operator("support")
    totp = pyotp.TOTP(secret)
    code = totp.now()
    body = {"email": op.email, "password": PASSWORD, "otp": code}
    ok(post(api, "admin/login", json=body))
    assert error(post(api, "admin/login", json=body), 400) == "Incorrect e-mail, password or two-factor code"
    ahead = {**body, "otp": totp.at(time.time() + 30)}  # the next step: accepted for clock drift, once
    ok(post(api, "admin/login", json=ahead))
    for again in (body, ahead):
        assert error(post(api, "admin/login", json=again), 400)
    other, other_secret = await make_operator("support")  # steps are remembered per operator
    ok(post(api, "admin/login", json={"email": other.email, "password": PASSWORD,
                                      "otp": pyotp.TOTP(other_secret).now()}))  # fmt: skip


async def test_the_password_change_is_throttled_like_a_login(api: httpx.Client, settings: Settings, db: None) -> None:
    """A stolen console session cannot guess the operator's password through admin/password."""
    op, secret = await make_operator("support")
    auth = token_of(api, op, secret)
    wrong = {"old_password": "not the password", "new_password": "a-longer-pass-2"}
    for _ in range(settings.login_max_failures):
        assert error(post(api, "admin/password", json=wrong, headers=auth), 400)
    right = {"old_password": PASSWORD, "new_password": "a-longer-pass-2"}
    assert error(post(api, "admin/password", json=right, headers=auth), 429)
    assert error(log_in(api, op.email, secret), 429)  # the same lock as the operator's logins


async def test_a_one_time_password_must_be_replaced_first(api: httpx.Client, db: None) -> None:
    op, secret = await make_operator("admin", temporary=True)
    auth = token_of(api, op, secret)
    assert ok(get(api, "admin/me", headers=auth))["must_change_password"] is True
    uri = ok(get(api, "admin/enrolment", headers=auth))["uri"]  # the QR code's content, until the password is set
    assert uri.startswith("otpauth://totp/") and f"secret={secret}" in uri
    assert error(get(api, "admin/audit", headers=auth), 403) == "Set your own password first"
    weak = {"old_password": PASSWORD, "new_password": "short"}
    assert error(post(api, "admin/password", json=weak, headers=auth), 400)
    fresh = ok(post(api, "admin/password", json={"old_password": PASSWORD, "new_password": "a-longer-pass-2"},
                        headers=auth))  # fmt: skip
    assert error(get(api, "admin/me", headers=auth), 401, code=999)  # the other sessions ended
    assert error(get(api, "admin/enrolment", headers={"Authorization": fresh["token"]}), 403)  # never again
    assert ok(get(api, "admin/audit", headers={"Authorization": fresh["token"]}))["total"] >= 1


async def test_roles_gate_routes_and_users_are_not_operators(api: httpx.Client, db: None) -> None:
    support, s1 = await make_operator("support")
    admin, s2 = await make_operator("admin", "support")
    assert error(get(api, "admin/audit", headers=token_of(api, support, s1)), 403) == "Your role does not allow this"
    assert ok(get(api, "admin/audit", headers=token_of(api, admin, s2)))["list"]
    user = member(api)
    assert error(get(api, "admin/me", headers=user.auth), 401, code=999)  # a user's token opens nothing here
    assert error(get(api, "user/info", headers=token_of(api, admin, s2)), 401, code=999)  # nor the reverse
    disabled, s3 = await make_operator("admin")
    auth = token_of(api, disabled, s3)
    await Operator.filter(id=disabled.id).update(active=False)
    assert error(get(api, "admin/me", headers=auth), 401, code=999)


async def test_commands_and_logins_are_in_the_trail(api: httpx.Client, settings: Settings, db: None) -> None:
    out = exchange_ok(settings, "operator", "add", f"new-{uuid.uuid4().hex[:6]}@back.office", "--role", "risk",
                      "--role", "admin", "--operator", "alice")  # fmt: skip
    email = re.search(r"operator (\S+) \(risk, admin\)", out).group(1)  # type: ignore[union-attr]
    one_time = re.search(r"one-time password: (\S+)", out).group(1)  # type: ignore[union-attr]
    secret = re.search(r"secret=([A-Z2-7]+)", out).group(1)  # type: ignore[union-attr]
    assert "otpauth://totp/" in out
    first = ok(log_in(api, email, secret, one_time))
    assert first["must_change_password"] is True
    body = {"old_password": one_time, "new_password": "my-own-password-3"}
    auth = {
        "Authorization": ok(post(api, "admin/password", json=body, headers={"Authorization": first["token"]}))["token"]
    }
    assert exchange(settings, "operator", "add", email, "--role", "admin").returncode == 1  # exists already
    assert exchange(settings, "operator", "add", "x@back.office", "--role", "boss").returncode != 0

    candidate = await trader(api)
    ok(apply_merchant(api, candidate, f"n{candidate.uid}"))
    exchange_ok(settings, "merchant", "approve", candidate.account, "--operator", "bob")
    found = ok(get(api, "admin/audit", params={"action": "merchant."}, headers=auth))["list"]
    assert found[0]["operator"] == "bob" and found[0]["target"] == f"user:{candidate.uid}"
    assert found[0]["after"]["status"] == "approved" and found[0]["address"].startswith("cli@")
    mine = ok(get(api, "admin/audit", params={"operator": email}, headers=auth))["list"]
    assert {r["action"] for r in mine} >= {"operator.login", "operator.password"}
    added = await AuditLog.filter(action="operator.add", operator="alice").order_by("-id").first()
    assert added is not None and added.after == {"email": email, "roles": ["risk", "admin"]}
    csv = get(api, "admin/audit", params={"format": "csv", "action": "merchant."}, headers=auth)
    assert csv.headers["content-type"].startswith("text/csv") and "merchant.approve" in csv.text
    assert csv.text.splitlines()[0] == "id,at,operator,role,action,target,before,after,reason,address"


@pytest.mark.parametrize("bad", [{"email": "x", "password": "", "otp": ""}, {"email": 5}, {}])
def test_bad_login_input_is_a_clear_refusal(api: httpx.Client, db: None, bad: dict[str, object]) -> None:
    answer = post(api, "admin/login", json=bad)
    assert answer.status_code in (400, 429) and answer.json()["code"] == 0
