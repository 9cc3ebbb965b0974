"""The ledger: balance changes and their journal rows, applied in one transaction.

Every change names a unique ``ref`` (``o42:freeze``, ``t7:1:base``, a chain transaction hash ...);
a batch whose first ref is already journaled was applied before and is skipped, so every operation
is idempotent. Rows are locked (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite serialises writers) in
a fixed order and the new values are computed in ``Decimal``: SQLite keeps NUMERIC as text and would
add in floating point. The wallet actors call these functions; so does the operator's deposit.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal

from tortoise.transactions import in_transaction

from actors.errors import DomainError, ErrorCode
from config.settings import Settings
from store import users
from store.db import retry_busy
from store.models import Account, AccountLog, AccountType, Currency, FeeLedger

LOG_DEPOSIT = "deposit"
ZERO = Decimal(0)


@dataclass(frozen=True)
class Change:
    """One account's change: ``balance`` and ``lock`` deltas (either may be negative)."""

    uid: int
    currency_id: int
    account_type: AccountType
    balance: Decimal
    lock: Decimal
    log_type: str
    ref: str
    memo: str = ""

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.uid, self.currency_id, int(self.account_type))


@dataclass(frozen=True)
class Fee:
    """A fee row written with a settlement; its (trade_id, side) key makes the settlement idempotent."""

    trade_id: int
    side: int
    currency_id: int
    amount: Decimal


def account_type_of(code: str) -> AccountType:
    """``change`` or ``change_account`` -> AccountType.CHANGE; raises LookupError for others."""
    name = code.lower().removesuffix("_account").upper()
    try:
        return AccountType[name]
    except KeyError as exc:
        raise LookupError(f"unknown account type {code!r}") from exc


@retry_busy
async def apply(changes: list[Change], fee: Fee | None = None) -> bool:
    """Apply a batch atomically. Returns False (and changes nothing) if it was applied before.

    Raises INSUFFICIENT_BALANCE if any balance or lock would go below zero; nothing is written then.
    """
    async with in_transaction() as conn:
        if fee is not None:
            if await FeeLedger.filter(trade_id=fee.trade_id, side=fee.side).using_db(conn).exists():
                return False
        elif await AccountLog.filter(ref=changes[0].ref).using_db(conn).exists():
            return False
        accounts: dict[tuple[int, int, int], Account] = {}
        for change in sorted(changes, key=lambda c: c.key):
            if change.key in accounts:
                continue
            uid, currency_id, account_type = change.key
            await Account.get_or_create(
                user_id=uid, currency_id=currency_id, account_type=AccountType(account_type), using_db=conn
            )
            accounts[change.key] = (
                await Account.filter(user_id=uid, currency_id=currency_id, account_type=AccountType(account_type))
                .select_for_update()
                .using_db(conn)
                .get()
            )
        logs = []
        for change in changes:
            account = accounts[change.key]
            account.balance += change.balance
            account.lock_balance += change.lock
            if account.balance < ZERO or account.lock_balance < ZERO:
                raise DomainError(ErrorCode.INSUFFICIENT_BALANCE)
            logs.append(
                AccountLog(
                    user_id=change.uid,
                    currency_id=change.currency_id,
                    account_type=change.account_type,
                    amount=change.balance,
                    lock_amount=change.lock,
                    balance_after=account.balance,
                    log_type=change.log_type,
                    memo=change.memo,
                    ref=change.ref,
                )
            )
        for account in accounts.values():
            await account.save(using_db=conn, update_fields=["balance", "lock_balance", "updated_at"])
        await AccountLog.bulk_create(logs, using_db=conn)
        if fee is not None:
            await FeeLedger.create(
                trade_id=fee.trade_id, side=fee.side, currency_id=fee.currency_id, amount=fee.amount, using_db=conn
            )
    return True


async def credit(
    *,
    user_id: int,
    currency: Currency,
    account_type: AccountType,
    amount: Decimal,
    log_type: str,
    ref: str,
    memo: str = "",
) -> AccountLog:
    """Add ``amount`` to an account (created on first use). Idempotent by ``ref``; durable on return."""
    if amount <= 0:
        raise ValueError("a credit must be positive")
    if str(int(account_type)) not in currency.account_types.split(","):
        raise LookupError(f"{currency.code} cannot be held in the {account_type.code}")
    change = Change(user_id, currency.id, account_type, amount, ZERO, log_type, ref, memo)
    await apply([change])
    return await AccountLog.get(ref=ref)


async def manual_deposit(
    settings: Settings, *, account: str, currency: str, amount: Decimal, account_code: str, ref: str | None
) -> AccountLog:
    """The operator's `exchange deposit`: find the user and currency, then credit through the ledger."""
    from store.db import close_db, init_db

    account_type = account_type_of(account_code)
    await init_db(settings)
    try:
        user = await users.find_by_contact(account.strip())
        if user is None:
            raise LookupError(f"no user with e-mail or phone {account!r}")
        coin = await Currency.get_or_none(code=currency.upper())
        if coin is None:
            raise LookupError(f"unknown currency {currency!r}")
        return await credit(
            user_id=user.id,
            currency=coin,
            account_type=account_type,
            amount=amount,
            log_type=LOG_DEPOSIT,
            ref=ref or f"manual:{uuid.uuid4()}",
            memo="manual deposit",
        )
    finally:
        await close_db()
