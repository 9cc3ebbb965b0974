"""The `exchange` command, run as an operator would, against the session's database."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from config.settings import Settings
from store import users
from store.models import Account, AccountLog, AccountType, AuditLog, Operator
from tests.api.test_admin import PASSWORD, make_operator
from tests.utils.cli import exchange
from tests.utils.keys import MAINNET_XPUBS_ENV, PRODUCTION_SENDERS_ENV
from tests.utils.otp import accepted, current_code


async def test_deposit_credits_through_the_ledger(settings: Settings, db: None) -> None:
    user = await users.create_user(
        kind="email", account="cli-dep@example.com", password_hash="x", area=None, parent=None
    )
    done = exchange(settings, "deposit", "cli-dep@example.com", "usdt", "250.5", "--ref", "cli:1")
    assert done.returncode == 0, done.stderr
    assert "250.5" in done.stdout
    again = exchange(settings, "deposit", "cli-dep@example.com", "USDT", "250.5", "--ref", "cli:1")
    assert again.returncode == 0, again.stderr
    lever = exchange(settings, "deposit", "cli-dep@example.com", "BTC", "0.25", "--account", "lever")
    assert lever.returncode == 0, lever.stderr
    change = await Account.get(user_id=user.id, currency__code="USDT", account_type=AccountType.CHANGE)
    assert change.balance == Decimal("250.5")
    assert (
        await Account.get(user_id=user.id, currency__code="BTC", account_type=AccountType.LEVER)
    ).balance == Decimal("0.25")
    assert await AccountLog.filter(user_id=user.id, log_type="deposit").count() == 2


async def test_deposit_refuses_bad_input_with_a_clear_message(settings: Settings, db: None) -> None:
    user = await users.create_user(
        kind="email", account="cli-bad@example.com", password_hash="x", area=None, parent=None
    )
    for args, expected in [
        (("nobody@example.com", "USDT", "1"), "no user"),
        (("cli-bad@example.com", "NOPE", "1"), "unknown currency"),
        (("cli-bad@example.com", "USDT", "0"), "positive"),
        (("cli-bad@example.com", "USDT", "abc"), "not a number"),
        (("cli-bad@example.com", "USDT", "1", "--account", "savings"), "unknown account type"),
    ]:
        done = exchange(settings, "deposit", *args)
        assert done.returncode != 0, args
        assert expected in done.stdout + done.stderr, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
    assert not await AccountLog.filter(user_id=user.id).exists()


def test_seed_command_is_idempotent(settings: Settings) -> None:
    for _ in range(2):
        done = exchange(settings, "seed")
        assert done.returncode == 0, done.stderr
        assert "pairs 18" in done.stdout


PRODUCTION = {"EXCHANGE_ENV": "production", "EXCHANGE_SECRET_KEY": "s" * 40, "EXCHANGE_WALLET_MIDDLE_SALT": "w" * 40,
              **MAINNET_XPUBS_ENV, **PRODUCTION_SENDERS_ENV}  # fmt: skip


LOGIN_REFUSED = "Incorrect e-mail, password or two-factor code"


def as_operator(settings: Settings, op: Operator, secret: str, *args: str, password: str = PASSWORD) -> Any:
    """``exchange ARGS --operator <login>`` in production, the password and code from the environment.
    A code opens one login (the console's rule): each command that logged in spent its step."""
    env = {**PRODUCTION, "EXCHANGE_OPERATOR_PASSWORD": password, "EXCHANGE_OPERATOR_OTP": current_code(secret)}
    done = exchange(settings, *args, "--operator", op.email, env=env)
    if LOGIN_REFUSED not in done.stderr and "--operator" not in done.stderr:
        accepted(secret)
    return done


def refused(done: Any, message: str) -> None:
    assert done.returncode != 0 and message in done.stdout + done.stderr, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr


async def test_in_production_the_cli_credits_and_decides_as_an_authenticated_operator(
    settings: Settings, db: None
) -> None:
    email = f"cli-prod-{uuid.uuid4().hex[:8]}@example.com"
    user = await users.create_user(kind="email", account=email, password_hash="x", area=None, parent=None)
    first, s1 = await make_operator("finance")
    second, s2 = await make_operator("finance")
    third, s4 = await make_operator("finance")
    support, s3 = await make_operator("support")
    ref = f"wire-{uuid.uuid4().hex}"
    deposit = ("deposit", email, "USDT", "10", "--ref", ref, "--reason", "bank wire 42")

    # Each operator logs in at most twice below: a code's step opens one login, and an authenticator
    # shows the next step's code (accepted for clock drift) before the clock reaches it.
    refused(exchange(settings, *deposit, env=PRODUCTION), "--operator")  # no anonymous credit
    named = {**PRODUCTION, "EXCHANGE_OPERATOR_PASSWORD": PASSWORD, "EXCHANGE_OPERATOR_OTP": "123456"}
    refused(exchange(settings, *deposit, "--operator", "alice", env=named), LOGIN_REFUSED)  # a free-text name
    refused(as_operator(settings, first, s1, *deposit, password="not the password"), LOGIN_REFUSED)
    refused(as_operator(settings, support, s3, *deposit), "Your role does not allow this")
    no_ref = ("deposit", email, "USDT", "10", "--reason", "wire", "--operator", third.email)
    refused(exchange(settings, *no_ref, env=named), "--ref")  # required, asked before any login
    assert not await AccountLog.filter(user_id=user.id).exists()

    done = as_operator(settings, third, s4, *deposit)  # 10 USD: at once
    assert done.returncode == 0 and "credited 10 USDT" in done.stdout, (done.stdout, done.stderr)
    big = as_operator(settings, first, s1, "deposit", email, "USDT", "1000000", "--ref", f"{ref}-2", "--reason", "wire")
    assert big.returncode == 0 and "waiting for a second operator" in big.stdout, (big.stdout, big.stderr)
    change = await Account.get(user_id=user.id, currency__code="USDT", account_type=AccountType.CHANGE)
    assert change.balance == Decimal(10)
    (pending,) = [line.split("\t")[0] for line in exchange(settings, "credits").stdout.splitlines() if email in line]
    refused(as_operator(settings, first, s1, "credit", "approve", pending), "Another finance operator must approve")
    approved = as_operator(settings, second, s2, "credit", "approve", pending)
    assert approved.returncode == 0, (approved.stdout, approved.stderr)
    await change.refresh_from_db()
    assert change.balance == Decimal(1000010)
    trail = await AuditLog.filter(target=f"user:{user.id}").order_by("id")
    assert [(r.action, r.operator, r.operator_id) for r in trail] == [
        ("deposit.manual", third.email, third.id),
        ("deposit.manual_request", first.email, first.id),
        ("deposit.manual_approve", second.email, second.id),
    ]
    # Deciding withdrawals and appeals takes the console's roles too.
    refused(as_operator(settings, support, s3, "withdrawal", "approve", "999999999"), "Your role does not allow this")
    refused(as_operator(settings, third, s4, "p2p", "resolve", "999999999", "buyer"), "Your role does not allow this")


async def test_in_development_a_deposit_is_one_command_whatever_its_size(settings: Settings, db: None) -> None:
    email = f"cli-dev-{uuid.uuid4().hex[:8]}@example.com"
    user = await users.create_user(kind="email", account=email, password_hash="x", area=None, parent=None)
    for env in ("development", "test"):
        done = exchange(settings, "deposit", email, "USDT", "1000000", env={"EXCHANGE_ENV": env})
        assert done.returncode == 0 and "credited 1000000 USDT" in done.stdout, (done.stdout, done.stderr)
    change = await Account.get(user_id=user.id, currency__code="USDT", account_type=AccountType.CHANGE)
    assert change.balance == Decimal(2000000)


async def test_conservation_prints_each_currency_and_fails_on_money_from_nowhere(settings: Settings, db: None) -> None:
    from store.admin.conservation import audit

    user = await users.create_user(
        kind="email", account="cli-cons@example.com", password_hash="x", area=None, parent=None
    )
    assert exchange(settings, "deposit", "cli-cons@example.com", "USDT", "75", "--ref", "cli:cons").returncode == 0

    def usdt_line(out: str) -> str:
        (line,) = [row for row in out.splitlines() if row.startswith("USDT\t")]
        return line

    expected = {line["currency"]: line for line in await audit()}
    done = exchange(settings, "conservation")
    assert done.returncode == (0 if all(line["ok"] for line in expected.values()) else 1), done.stdout + done.stderr
    assert f"held {expected['USDT']['total']}\texpected {expected['USDT']['expected']}" in usdt_line(done.stdout)
    assert "still settling" in done.stdout

    # Money that came from nowhere: 5 USDT on a balance with no journal row behind it.
    account = await Account.get(user_id=user.id, currency__code="USDT", account_type=AccountType.CHANGE)
    await Account.filter(id=account.id).update(balance=account.balance + 5)
    try:
        planted = exchange(settings, "conservation")
        assert planted.returncode == 1
        difference = Decimal(expected["USDT"]["difference"]) + 5
        line = usdt_line(planted.stdout)
        assert "DIFFERENCE" in line and Decimal(line.rsplit(" ", 1)[1]) == difference, line
    finally:
        await Account.filter(id=account.id).update(balance=account.balance)
