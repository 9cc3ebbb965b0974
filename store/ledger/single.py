"""One operation at a time: ``apply`` (its own transaction), ``apply_in`` (the caller's), ``credit``."""

from __future__ import annotations

from decimal import Decimal

from tortoise.backends.base.client import BaseDBAsyncClient

from store.db import retry_busy, transaction
from store.errors import DomainError, ErrorCode
from store.ledger.changes import ZERO, Also, Change, Fee, Key
from store.ledger.journal import is_replay, journaled_facts, log_row, write_logs
from store.models import Account, AccountLog, AccountType, Currency, FeeLedger, PendingSettlement


@retry_busy
async def apply(changes: list[Change], fee: Fee | None = None, also: Also | None = None) -> bool:
    """Apply a batch atomically. Returns False (and changes nothing) if it was applied before.

    ``also`` runs inside the same transaction after the balances and journal rows are written; what
    it writes commits or rolls back with them (it runs again if SQLite makes the whole batch retry).
    A settlement (``fee``) is idempotent by its (trade, side) and deletes that side's
    ``PendingSettlement`` row in its transaction (also when it finds itself settled before).
    Raises INSUFFICIENT_BALANCE if any balance or lock would go below zero, and REF_CONFLICT if a
    ref is journaled with other facts (or only some of the batch's refs are); nothing is written then.
    """
    async with transaction() as conn:
        if not await apply_in(conn, changes, fee):
            return False
        if also is not None:
            await also(conn)
    return True


async def apply_in(conn: BaseDBAsyncClient, changes: list[Change], fee: Fee | None = None) -> bool:
    """``apply`` inside a transaction the caller holds (after the row locks of its own that must come
    before the accounts', so every path takes them in one order). False if applied before; a raise
    must roll the caller's transaction back."""
    accounts: dict[Key, Account] = {}
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
    # Looked up under the row locks: a batch that raced this one and committed first is seen.
    replayed = is_replay(changes, await journaled_facts([c.ref for c in changes], conn))
    if fee is not None:
        await PendingSettlement.filter(trade_id=fee.trade_id, side=fee.side).using_db(conn).delete()
        settled = await FeeLedger.filter(trade_id=fee.trade_id, side=fee.side).using_db(conn).exists()
        if settled != replayed:  # a settled side whose journal differs, or refs another batch used
            raise DomainError(ErrorCode.REF_CONFLICT)
    if replayed:
        return False
    logs = []
    for change in changes:
        account = accounts[change.key]
        account.balance += change.balance
        account.lock_balance += change.lock
        if account.balance < ZERO or account.lock_balance < ZERO:
            raise DomainError(ErrorCode.INSUFFICIENT_BALANCE)
        logs.append(log_row(change, account.balance))
    for account in accounts.values():
        await account.save(using_db=conn, update_fields=["balance", "lock_balance", "updated_at"])
    await write_logs(conn, logs)
    if fee is not None:
        await FeeLedger.create(
            trade_id=fee.trade_id, side=fee.side, currency_id=fee.currency_id, amount=fee.amount, using_db=conn
        )
    return True


def check_max_amount(currency: Currency, amount: Decimal) -> None:
    """Raise ValueError (the operator's commands show it) for more than one movement of
    ``currency`` may carry (``max_amount``)."""
    if amount > currency.max_amount:
        raise ValueError(f"at most {currency.max_amount.normalize():f} {currency.code} can be credited at once")


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
