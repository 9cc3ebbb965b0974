"""The `exchange` command, run as an operator would, against the session's database."""

from __future__ import annotations

from decimal import Decimal

from config.settings import Settings
from store import users
from store.models import Account, AccountLog, AccountType
from tests.utils.cli import exchange


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
