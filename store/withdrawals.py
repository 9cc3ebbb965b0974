"""Withdrawal requests: lock the amount and write the request in one transaction; an operator (or the
auto-approval rule) then approves or rejects it (the lock returns to the balance). An approved request
is sent by the Signer (store/chain/sends.py): the lock leaves when its transaction is final
(``complete``), or returns when the chain refuses it for good (``fail``). Each money step is one
ledger batch, idempotent by its ref, and a request is decided at most once. An approval is refused
while an operator has the user's withdrawals frozen, whenever the freeze was set."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

from tortoise.backends.base.client import BaseDBAsyncClient

from store import deposits, ledger
from store.db import transaction
from store.errors import DomainError, ErrorCode
from store.models import AccountType, User, Withdrawal, WithdrawalStatus
from store.money import money

CHANGE = AccountType.CHANGE
LOG_REQUEST, LOG_DONE, LOG_BACK, LOG_FAILED = "draw", "draw_done", "draw_back", "draw_failed"
DAY = timedelta(hours=24)  # the two-operator rule's window: a user's withdrawals requested within it add up


async def request(
    *,
    uid: int,
    currency_id: int,
    protocol_id: int | None,
    address: str,
    memo: str,
    amount: Decimal,
    fee: Decimal,
    ref: str,
    confirmations: int,
) -> int:
    """Lock ``amount`` of the change account and create the request; answers its id.

    Raises INSUFFICIENT_BALANCE, DEPOSIT_UNCONFIRMED while any chain deposit of the user has fewer
    than ``confirmations``, or DEPOSIT_OWED while a deposit reversed by a reorg is owed (both checked
    under the account's row lock, so a deposit credited or reversed before the lock is seen); nothing
    is written then. Idempotent by ``ref``: a replay answers the same id."""
    created: list[int] = []

    async def write(conn: BaseDBAsyncClient) -> None:
        waiting = await deposits.first_unconfirmed(uid, confirmations, conn)
        if waiting is not None:
            raise DomainError(ErrorCode.DEPOSIT_UNCONFIRMED, currency=waiting.currency.code,
                              amount=f"{waiting.amount.normalize():f}", confirmations=confirmations)  # fmt: skip
        owed = await deposits.first_owed(uid, conn)
        if owed is not None:
            raise DomainError(ErrorCode.DEPOSIT_OWED, currency=owed.currency.code, amount=money(owed.amount))
        row = await Withdrawal.create(
            user_id=uid, currency_id=currency_id, currency_protocol_id=protocol_id, address=address, memo=memo,
            amount=amount, fee=fee, ref=ref, using_db=conn,
        )  # fmt: skip
        created.append(row.id)

    extra: dict[str, object] = {"address": address, "fee": str(fee)}
    change = ledger.Change(uid, currency_id, CHANGE, -amount, amount, LOG_REQUEST, f"{ref}:lock", "withdrawal", extra)
    if await ledger.apply([change], also=write):
        return created[-1]
    return (await Withdrawal.get(ref=ref)).id


async def decide(withdrawal_id: int, *, approve: bool, also: ledger.Also | None = None) -> Withdrawal:
    """Approve (the Signer may send it; the amount stays locked until its transaction is final) or
    reject (the lock returns to the balance) a pending request; ``also`` writes with the decision, in
    its transaction (the console's audit row).

    Raises LookupError for an unknown id, DomainError(WITHDRAWAL_NOT_PENDING) for one already decided
    the other way and, for an approval, WITHDRAWAL_USER_FROZEN while the user's withdrawals are frozen
    (read under the user's row lock: a freeze that commits first is seen); deciding the same way twice
    changes nothing. A refused approval leaves the request pending, its amount locked."""
    row = await Withdrawal.get_or_none(id=withdrawal_id)
    if row is None:
        raise LookupError(f"no withdrawal {withdrawal_id}")
    if approve and row.status in SENDING_OR_SENT or not approve and row.status == WithdrawalStatus.REJECTED:
        return row
    uid = row.user_id
    target = WithdrawalStatus.APPROVED if approve else WithdrawalStatus.REJECTED

    async def mark(conn: BaseDBAsyncClient) -> None:
        if approve and await frozen(uid, conn):
            raise DomainError(ErrorCode.WITHDRAWAL_USER_FROZEN)
        # Conditional on PENDING: of an approval and a rejection racing, the second finds nothing and
        # rolls its transaction (and a rejection's ledger batch) back.
        if not await Withdrawal.filter(id=row.id, status=WithdrawalStatus.PENDING).using_db(conn).update(status=target):
            raise DomainError(ErrorCode.WITHDRAWAL_NOT_PENDING)
        if also is not None:
            await also(conn)

    if approve:  # nothing moves yet: the lock is spent when the transaction is final
        async with transaction() as conn:
            await mark(conn)
    else:
        try:
            await ledger.apply([_release(row, LOG_BACK, f"w{row.id}:back", "withdrawal rejected")], also=mark)
        except DomainError as exc:
            # A racing decision committed first and spent the lock: this batch found it already gone.
            await row.refresh_from_db()
            if exc.code == ErrorCode.INSUFFICIENT_BALANCE and row.status != WithdrawalStatus.PENDING:
                raise DomainError(ErrorCode.WITHDRAWAL_NOT_PENDING) from exc
            raise
    await row.refresh_from_db()
    if row.status != target:
        raise DomainError(ErrorCode.WITHDRAWAL_NOT_PENDING)
    return row


SENDING_OR_SENT = (WithdrawalStatus.APPROVED, WithdrawalStatus.COMPLETED, WithdrawalStatus.FAILED)


def _details(row: Withdrawal, **extra: object) -> dict[str, object]:
    """What a decision's journal row says of the request (the records show it)."""
    return {"withdrawal_id": row.id, "address": row.address, "fee": str(row.fee), **extra}


def _release(row: Withdrawal, kind: str, ref: str, memo: str, **extra: object) -> ledger.Change:
    """The lock of ``row`` back to its owner's balance."""
    uid, currency_id = row.user_id, row.currency_id
    return ledger.Change(uid, currency_id, CHANGE, row.amount, -row.amount, kind, ref, memo, _details(row, **extra))


async def complete(row: Withdrawal, *, txid: str, also: ledger.Also | None = None) -> bool:
    """An approved withdrawal's transaction is final: the lock leaves the system (one ledger batch,
    ref ``w<id>:done``, with the txid) and the request is COMPLETED, with ``also`` in the same
    transaction. False (nothing written) when it was not APPROVED any more."""
    uid, currency_id = row.user_id, row.currency_id
    change = ledger.Change(uid, currency_id, CHANGE, ledger.ZERO, -row.amount, LOG_DONE, f"w{row.id}:done",
                           "withdrawal completed", _details(row, txid=txid))  # fmt: skip
    return await _leave_approved(row, WithdrawalStatus.COMPLETED, change, also)


async def fail(row: Withdrawal, *, reason: str, also: ledger.Also | None = None) -> bool:
    """An approved withdrawal the chain refused for good: the lock returns to the balance (ref
    ``w<id>:failed``, with the reason) and the request is FAILED. False when it was not APPROVED."""
    change = _release(row, LOG_FAILED, f"w{row.id}:failed", "withdrawal failed", reason=reason)
    return await _leave_approved(row, WithdrawalStatus.FAILED, change, also)


async def _leave_approved(
    row: Withdrawal, target: WithdrawalStatus, change: ledger.Change, also: ledger.Also | None
) -> bool:
    async def mark(conn: BaseDBAsyncClient) -> None:
        if (
            not await Withdrawal.filter(id=row.id, status=WithdrawalStatus.APPROVED)
            .using_db(conn)
            .update(status=target)
        ):
            raise _NotApproved
        if also is not None:
            await also(conn)

    try:
        return await ledger.apply([change], also=mark)
    except _NotApproved:
        return False


class _NotApproved(Exception):
    """The request left APPROVED before this step's transaction: it rolls back."""


async def frozen(uid: int, conn: BaseDBAsyncClient | None = None) -> bool:
    """Whether an operator froze the user's withdrawals. In a transaction (``conn``) the user's row is
    locked (FOR NO KEY UPDATE: it waits for a freeze being written, not for rows that merely refer to
    the user), so a decision and a freeze are ordered one way or the other."""
    query = User.filter(id=uid)
    if conn is not None:
        query = query.select_for_update(no_key=True).using_db(conn)
    found = await query.values_list("withdraw_frozen", flat=True)
    return bool(found and found[0])


async def day_amounts(row: Withdrawal) -> dict[str, Decimal]:
    """By currency code: what the user asked to withdraw in the 24 h up to ``row``'s request, ``row``
    included and rejected or failed requests left out (their funds came back). The two-operator rule values
    this, so a withdrawal split into parts under the threshold adds up like one."""
    uid = row.user_id
    found = await Withdrawal.filter(
        user_id=uid, id__lte=row.id, created_at__gt=row.created_at - DAY,
        status__in=[WithdrawalStatus.PENDING, WithdrawalStatus.APPROVED, WithdrawalStatus.COMPLETED],
    ).values_list("currency__code", "amount")  # fmt: skip
    sums: defaultdict[str, Decimal] = defaultdict(Decimal)
    for code, amount in found:
        sums[str(code)] += amount
    return dict(sums)
