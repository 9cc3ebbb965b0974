"""The ledger credits exactly once per reference and journals every change."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import pytest

from actors.errors import DomainError, ErrorCode
from actors.wallet import legs
from store import users
from store.ledger import account_type_of, apply_debits, credit
from store.models import Account, AccountLog, AccountType, Currency


async def _user(email: str) -> int:
    user = await users.create_user(kind="email", account=email, password_hash="x", area=None, parent=None)
    return user.id


async def test_credit_is_idempotent_by_reference(db: None) -> None:
    uid = await _user("ledger-once@example.com")
    usdt = await Currency.get(code="USDT")
    first = await credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal("100.123456789"),
                         log_type="deposit", ref="tx:abc")  # fmt: skip
    again = await credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal("100.123456789"),
                         log_type="deposit", ref="tx:abc")  # fmt: skip
    assert again.id == first.id
    account = await Account.get(user_id=uid, currency=usdt, account_type=AccountType.CHANGE)
    assert account.balance == Decimal("100.123456789")
    assert await AccountLog.filter(user_id=uid).count() == 1


async def test_concurrent_credits_add_up_exactly(db: None) -> None:
    uid = await _user("ledger-many@example.com")
    btc = await Currency.get(code="BTC")
    amounts = [Decimal("0.1"), Decimal("0.2"), Decimal("0.000000000000000001"), Decimal("12345.6789")]
    await asyncio.gather(*(
        credit(user_id=uid, currency=btc, account_type=AccountType.CHANGE, amount=a, log_type="deposit", ref=f"m:{i}")
        for i, a in enumerate(amounts)
    ))  # fmt: skip
    account = await Account.get(user_id=uid, currency=btc, account_type=AccountType.CHANGE)
    assert account.balance == sum(amounts)
    logs = await AccountLog.filter(user_id=uid).order_by("id")
    assert sorted(log.amount for log in logs) == sorted(amounts)
    assert max(log.balance_after for log in logs) == sum(amounts)


async def test_credit_refuses_non_positive_amounts_and_disallowed_accounts(db: None) -> None:
    uid = await _user("ledger-bad@example.com")
    usdt = await Currency.get(code="USDT")
    with pytest.raises(ValueError):
        await credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal(0),
                     log_type="deposit", ref="bad:0")  # fmt: skip
    usdt.account_types = "1"
    with pytest.raises(LookupError):
        await credit(user_id=uid, currency=usdt, account_type=AccountType.LEVER, amount=Decimal(1),
                     log_type="deposit", ref="bad:1")  # fmt: skip
    assert not await AccountLog.filter(user_id=uid).exists()


async def test_group_committed_debits_answer_each_operation_alone(db: None) -> None:
    rich, poor, new = [await _user(f"ledger-group-{n}@example.com") for n in ("rich", "poor", "new")]
    usdt = await Currency.get(code="USDT")
    for uid, amount in ((rich, "100"), (poor, "5")):
        await credit(user_id=uid, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal(amount),
                     log_type="deposit", ref=f"group:{uid}")  # fmt: skip
    ops = [
        legs.freeze(rich, usdt.id, Decimal("30"), "g:1"),
        legs.freeze(poor, usdt.id, Decimal("6"), "g:2"),  # more than the balance
        legs.freeze(rich, usdt.id, Decimal("70"), "g:3"),  # exactly what g:1 left
        legs.freeze(rich, usdt.id, Decimal("0.000001"), "g:4"),  # nothing left
        legs.freeze(new, usdt.id, Decimal("1"), "g:5"),  # no account yet
        legs.freeze(rich, usdt.id, Decimal("30"), "g:1"),  # the same ref again in the batch
        legs.freeze(poor, usdt.id, Decimal("5"), "g:6"),  # g:2's refusal does not block this
    ]
    results = await apply_debits(ops)
    assert [r if isinstance(r, bool) else r.code for r in results] == [
        True, ErrorCode.INSUFFICIENT_BALANCE, True, ErrorCode.INSUFFICIENT_BALANCE,
        ErrorCode.INSUFFICIENT_BALANCE, False, True,
    ]  # fmt: skip
    assert all(isinstance(r, bool | DomainError) for r in results)
    rich_account = await Account.get(user_id=rich, currency=usdt, account_type=AccountType.CHANGE)
    assert (rich_account.balance, rich_account.lock_balance) == (Decimal(0), Decimal(100))
    poor_account = await Account.get(user_id=poor, currency=usdt, account_type=AccountType.CHANGE)
    assert (poor_account.balance, poor_account.lock_balance) == (Decimal(0), Decimal(5))
    journal = await AccountLog.filter(ref__startswith="g:").order_by("id").values_list("ref", "balance_after")
    assert journal == [("g:1", Decimal(70)), ("g:3", Decimal(0)), ("g:6", Decimal(0))]
    assert not await Account.filter(user_id=new).exists()
    # A whole batch run again (a retried call) changes nothing.
    assert await apply_debits(ops[:1]) == [False]
    rich_account = await Account.get(user_id=rich, currency=usdt, account_type=AccountType.CHANGE)
    assert rich_account.lock_balance == Decimal(100)


def test_account_type_codes() -> None:
    assert account_type_of("change") is AccountType.CHANGE
    assert account_type_of("micro_account") is AccountType.MICRO
    with pytest.raises(LookupError):
        account_type_of("savings")
