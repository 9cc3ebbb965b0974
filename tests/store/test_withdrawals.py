"""Withdrawal requests in the ledger: lock and request together, decided at most once."""

from __future__ import annotations

import asyncio
from decimal import Decimal

from actors.errors import DomainError, ErrorCode
from store import users, withdrawals
from store.ledger import credit
from store.models import Account, AccountLog, AccountType, Currency, Withdrawal, WithdrawalStatus


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
            "amount": Decimal(amount), "fee": Decimal("1"), "ref": ref}  # fmt: skip


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
        assert row.status in (WithdrawalStatus.COMPLETED, WithdrawalStatus.REJECTED)
        decided = await AccountLog.filter(ref__in=[f"w{wid}:done", f"w{wid}:back"]).count()
        assert decided == 1
    balance, lock = await _account(uid)
    completed = await Withdrawal.filter(user_id=uid, status=WithdrawalStatus.COMPLETED).count()
    assert lock == 0 and balance == Decimal(100) - 10 * completed
