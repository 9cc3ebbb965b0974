"""Withdrawal requests in the ledger: lock and request together, decided at most once."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import pytest

from store import users, withdrawals
from store.errors import DomainError, ErrorCode
from store.ledger import credit
from store.models import (
    Account,
    AccountLog,
    AccountType,
    ChainDeposit,
    Currency,
    DepositStatus,
    Withdrawal,
    WithdrawalStatus,
)


async def _funded(email: str, amount: str) -> int:
    user = await users.create_user(kind="email", account=email, password_hash="x", area=None, parent=None)
    usdt = await Currency.get(code="USDT")
    await credit(user_id=user.id, currency=usdt, account_type=AccountType.CHANGE, amount=Decimal(amount),
                 log_type="deposit", ref=f"wd-test:{email}")  # fmt: skip
    return user.id


async def _account(uid: int) -> tuple[Decimal, Decimal]:
    row = await Account.get(user_id=uid, currency_id=1, account_type=AccountType.CHANGE)
    return row.balance, row.lock_balance


def _request(uid: int, amount: str, ref: str) -> dict[str, object]:
    return {"uid": uid, "currency_id": 1, "protocol_id": 2, "address": "T" + "a" * 33, "memo": "",
            "amount": Decimal(amount), "fee": Decimal("1"), "ref": ref, "confirmations": 6}  # fmt: skip


async def test_a_request_locks_once_and_a_refused_one_leaves_nothing(db: None) -> None:
    uid = await _funded("wd-once@example.com", "100")
    first = await withdrawals.request(**_request(uid, "60", "wd-once-1"))  # type: ignore[arg-type]
    assert await withdrawals.request(**_request(uid, "60", "wd-once-1")) == first  # type: ignore[arg-type]
    assert await _account(uid) == (Decimal(40), Decimal(60))
    try:
        await withdrawals.request(**_request(uid, "60", "wd-once-2"))  # type: ignore[arg-type]
    except DomainError as exc:
        assert exc.code == ErrorCode.INSUFFICIENT_BALANCE
    else:
        raise AssertionError("a request beyond the balance was accepted")
    assert not await Withdrawal.filter(ref="wd-once-2").exists()  # no request without its lock
    assert await Withdrawal.filter(user_id=uid).count() == 1


async def test_racing_approval_and_rejection_decide_once(db: None) -> None:
    uid = await _funded("wd-race@example.com", "100")
    for n in range(5):
        wid = await withdrawals.request(**_request(uid, "10", f"wd-race-{n}"))  # type: ignore[arg-type]
        outcomes = await asyncio.gather(
            withdrawals.decide(wid, approve=True), withdrawals.decide(wid, approve=False), return_exceptions=True
        )
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(failures) == 1 and isinstance(failures[0], DomainError), outcomes
        assert failures[0].code == ErrorCode.WITHDRAWAL_NOT_PENDING
        row = await Withdrawal.get(id=wid)
        assert row.status in (WithdrawalStatus.APPROVED, WithdrawalStatus.REJECTED)
        returned = await AccountLog.filter(ref=f"w{wid}:back").count()
        assert returned == (1 if row.status == WithdrawalStatus.REJECTED else 0)
        assert await AccountLog.filter(ref=f"w{wid}:done").count() == 0  # approved: locked until the chain
    balance, lock = await _account(uid)
    approved = await Withdrawal.filter(user_id=uid, status=WithdrawalStatus.APPROVED).count()
    assert lock == 10 * approved and balance == Decimal(100) - 10 * 5 + 10 * (5 - approved)


async def test_no_withdrawal_of_any_currency_while_a_deposit_lacks_confirmations(db: None) -> None:
    uid = await _funded("wd-confirm@example.com", "100")
    btc = await Currency.get(code="BTC")
    deposit = await ChainDeposit.create(tx_hash=f"wd-confirm-{uid}", user_id=uid, currency=btc, currency_protocol_id=3,
                                        address="bc1q", amount=Decimal("0.5"), confirmations=1,
                                        status=DepositStatus.CREDITED)  # fmt: skip
    with pytest.raises(DomainError) as refused:  # a USDT withdrawal waits for the BTC deposit
        await withdrawals.request(**_request(uid, "10", "wd-confirm-1"))  # type: ignore[arg-type]
    assert refused.value.code == ErrorCode.DEPOSIT_UNCONFIRMED
    assert refused.value.params == {"currency": "BTC", "amount": "0.5", "confirmations": 6}
    assert await _account(uid) == (Decimal(100), Decimal(0))  # nothing locked, no request
    assert not await Withdrawal.filter(user_id=uid).exists()
    deposit.confirmations = 6
    await deposit.save()
    assert await withdrawals.request(**_request(uid, "10", "wd-confirm-1"))  # type: ignore[arg-type]
    assert await _account(uid) == (Decimal(90), Decimal(10))
