"""The ledger: balance changes and their journal rows, applied in one transaction.

Every change names a unique ``ref`` (``o42:freeze``, ``t7:1:base``, a chain transaction hash ...).
A batch whose refs are all journaled with the same facts (account, currency, amounts) was applied
before and is skipped, so every operation is idempotent; a ref journaled with other facts is a
different operation under a used name and is refused (REF_CONFLICT), never taken for a replay.
Rows that record pending work (an order's hold, a trade side to settle) are written and deleted in
the transaction of the balance change that makes or ends that work.

Rows are locked (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite serialises writers) in a fixed order,
the journal is read under those locks, and the new values are computed in ``Decimal``: SQLite keeps
NUMERIC as text and would add in floating point. The wallet actors call these functions; so does
the operator's deposit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from functools import reduce
from operator import or_

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import Q
from tortoise.models import Model

from store.bulk import (
    Conflict,
    guarded_update_part,
    insert_part,
    insert_rows,
    insert_rows_parts,
    insert_values,
    select_in,
    update_rows,
    write_at_once,
)
from store.db import retry_busy, transaction
from store.errors import DomainError, ErrorCode
from store.models import Account, AccountLog, AccountType, Currency, FeeLedger, PendingSettlement

LOG_DEPOSIT = "deposit"
ZERO = Decimal(0)
# Every kind of journal row (``account_logs.log_type``) any code writes. ``Change`` refuses another,
# so the list is complete: the records page names each kind in every language
# (serve/api/routes/records.py, tests/unit/test_record_names.py). Each product keeps its own
# constants (store.lever.LOG_TYPES, store.earn.LOG_TYPES, store.micro, store.p2p, store.withdrawals …).
LOG_KINDS = frozenset({
    LOG_DEPOSIT, "deposit_reversal", "bot_funding", "demo_funding",
    "freeze", "release", "trade_pay", "trade_get", "transfer", "convert",
    "draw", "draw_done", "draw_back", "draw_failed",
    "lever_open", "lever_entrust", "lever_fill", "lever_close", "lever_cancel", "lever_liquidation", "lever_overnight",
    "micro_stake", "micro_settle",
    "lock_savings", "mining", "shoufa", "listing",
    "p2p_ad", "p2p_escrow", "p2p_release", "p2p_refund",
})  # fmt: skip


Key = tuple[int, int, int]  # an account: (user id, currency id, account type)
Facts = tuple[int, int, int, Decimal, Decimal]  # a journal row's (user, currency, type, amount, lock amount)
FACT_FIELDS = ("ref", "user_id", "currency_id", "account_type", "amount", "lock_amount")  # a ref and its facts


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
    extra: dict[str, object] | None = None

    def __post_init__(self) -> None:
        if self.log_type not in LOG_KINDS:  # a new kind joins LOG_KINDS and the records' names first
            raise ValueError(f"unknown journal kind {self.log_type!r}: add it to store.ledger.LOG_KINDS")

    @property
    def key(self) -> Key:
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


# Rows that must be written in the transaction of a balance change (a withdrawal request with its lock).
Also = Callable[[BaseDBAsyncClient], Awaitable[None]]


@dataclass(frozen=True)
class Op:
    """One operation of a group commit (``apply_debits``): its changes, and what is written with
    them if it applies: ``rows`` to create (an order freeze's ``OrderHold``, created in bulk with
    the batch's others) and ``also`` to run in the transaction (like ``apply``'s)."""

    changes: list[Change]
    rows: tuple[Model, ...] = ()
    also: Also | None = None
    # (limit, refusal): the operation is refused with ``refusal`` if it would leave any account it
    # touches with a lock above ``limit`` (a user's open stakes capped, checked under the row lock).
    lock_cap: tuple[Decimal, DomainError] | None = None


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
    replayed = _replayed(changes, await _journaled([c.ref for c in changes], conn))
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
        logs.append(_log(change, account.balance))
    for account in accounts.values():
        await account.save(using_db=conn, update_fields=["balance", "lock_balance", "updated_at"])
    await _write_logs(conn, logs)
    if fee is not None:
        await FeeLedger.create(
            trade_id=fee.trade_id, side=fee.side, currency_id=fee.currency_id, amount=fee.amount, using_db=conn
        )
    return True


async def apply_debits(
    ops: list[Op], then: Callable[[BaseDBAsyncClient, list[bool | DomainError]], Awaitable[None]] | None = None
) -> list[bool | DomainError]:
    """Apply many independent operations on existing accounts in one transaction (group commit).

    Each operation is all-or-nothing and answers like ``apply``: True (its ``rows`` and ``also`` are
    written with it), False if it was applied before (or earlier in ``ops``) with the same facts, or the
    DomainError that refused it: INSUFFICIENT_BALANCE (also for an account that does not exist yet:
    nothing can be debited from it), REF_CONFLICT, or its ``lock_cap`` refusal. One operation's
    refusal does not affect the others. Rows are locked in key order, as ``apply`` locks them. ``then`` runs last in the
    transaction with the results (what the applied operations write together, in bulk). Durable when
    it returns.

    On PostgreSQL a group with no ``also`` and no ``then`` (an order's freezes) takes two round
    trips instead of seven: it reads its accounts and journal rows in one statement without locking
    them, decides,
    and writes every balance, journal row and ``rows`` in one statement that updates each account
    only if it still holds what was read (``bulk.write_at_once``); if one changed meanwhile nothing
    is written and the group is decided again, under locks after ``OPTIMISTIC_TRIES``.
    """
    conn = connections.get("default")
    if conn.capabilities.dialect == "postgres" and then is None and all(op.also is None for op in ops):
        for _ in range(OPTIMISTIC_TRIES):
            try:
                return await _apply_debits_at_once(conn, ops)
            except Conflict:
                continue
    return await _apply_debits_locked(ops, then)


OPTIMISTIC_TRIES = 3


def _matching(ops: list[Op]) -> Q:
    """The accounts ``ops`` touch, as one filter."""
    users: defaultdict[tuple[int, int], list[int]] = defaultdict(list)  # (currency, type) -> users
    for uid, currency_id, account_type in sorted({c.key for op in ops for c in op.changes}):
        users[(currency_id, account_type)].append(uid)
    return reduce(
        or_, (Q(currency_id=c, account_type=AccountType(t), user_id__in=uids) for (c, t), uids in users.items())
    )


@dataclass
class _Decided:
    """What a group of operations writes: each one's result, the accounts they changed, the journal
    rows, the rows to create and what to run in the transaction."""

    results: list[bool | DomainError]
    touched: dict[Key, Account]
    logs: list[tuple[object, ...]]
    rows: list[Model]
    alsos: list[Also]


def _decide(ops: list[Op], accounts: dict[Key, Account], journaled: dict[str, Facts]) -> _Decided:
    """Apply ``ops`` in order to ``accounts`` (in memory), each all-or-nothing."""
    decided = _Decided([False] * len(ops), {}, [], [], [])
    for index, op in enumerate(ops):
        try:
            if _replayed(op.changes, journaled):
                continue
        except DomainError as exc:
            decided.results[index] = exc
            continue
        tried = _try(op.changes, accounts)
        if tried is None:
            decided.results[index] = DomainError(ErrorCode.INSUFFICIENT_BALANCE)
            continue
        after, balances = tried
        if op.lock_cap is not None and any(lock > op.lock_cap[0] for _, lock in after.values()):
            decided.results[index] = op.lock_cap[1]
            continue
        for key, (balance, lock) in after.items():
            accounts[key].balance, accounts[key].lock_balance = balance, lock
            decided.touched[key] = accounts[key]
        journaled.update((change.ref, _facts(change)) for change in op.changes)
        decided.logs.extend(_log(change, balance) for change, balance in zip(op.changes, balances, strict=True))
        decided.rows.extend(op.rows)
        if op.also is not None:
            decided.alsos.append(op.also)
        decided.results[index] = True
    return decided


async def _apply_debits_at_once(conn: BaseDBAsyncClient, ops: list[Op]) -> list[bool | DomainError]:
    """``apply_debits`` without a transaction (PostgreSQL): read, decide, then one guarded statement.
    Raises Conflict (nothing written) if an account changed after it was read."""
    accounts, journaled = await _read_at_once(conn, ops)
    was = {key: (a.balance, a.lock_balance) for key, a in accounts.items()}
    decided = _decide(ops, accounts, journaled)
    if decided.touched:
        keys = sorted(decided.touched)
        update = guarded_update_part([decided.touched[k] for k in keys], BALANCE_FIELDS, [was[k] for k in keys])
        now = datetime.now(UTC)
        parts = [insert_part(AccountLog, LOG_FIELDS, [(*log, now) for log in decided.logs]),
                 *insert_rows_parts(decided.rows)]  # fmt: skip
        await write_at_once(conn, [p for p in parts if p is not None], guarded=(update, len(keys)))
    return decided.results


BALANCE_FIELDS = ("balance", "lock_balance", "updated_at")

# The accounts of the keys given (user, currency, type arrays) and the journal rows of the refs given,
# in one statement (one round trip): kind 0 an account (its id, balance, lock), kind 1 a journal row
# (its ref, amount, lock amount). Numbers travel as text, so they come back exact.
_READ_SQL = (
    'SELECT 0, a."id", a."user_id", a."currency_id", a."account_type", a."balance"::text, '
    'a."lock_balance"::text, NULL FROM "accounts" a JOIN unnest($1::int[], $2::int[], $3::smallint[]) '
    'AS k(u, c, t) ON a."user_id" = k.u AND a."currency_id" = k.c AND a."account_type" = k.t '
    'UNION ALL SELECT 1, 0, l."user_id", l."currency_id", l."account_type", l."amount"::text, '
    'l."lock_amount"::text, l."ref" FROM "account_logs" l WHERE l."ref" IN (SELECT unnest($4::text[]))'
)


async def _read_at_once(conn: BaseDBAsyncClient, ops: list[Op]) -> tuple[dict[Key, Account], dict[str, Facts]]:
    """The accounts ``ops`` touch that exist (unsaved instances carrying their id) and the facts of
    their refs already journaled, read in one statement. Without locks: the guarded write checks them."""
    keys = sorted({c.key for op in ops for c in op.changes})
    refs = [c.ref for op in ops for c in op.changes]
    arrays = [[k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys], refs]
    _, records = await conn.execute_query(_READ_SQL, arrays)
    accounts: dict[Key, Account] = {}
    journaled: dict[str, Facts] = {}
    for kind, pk, uid, currency_id, account_type, amount, lock, ref in (tuple(r) for r in records):
        if kind == 0:
            accounts[(uid, currency_id, account_type)] = Account(
                id=pk, user_id=uid, currency_id=currency_id, account_type=AccountType(account_type),
                balance=Decimal(amount), lock_balance=Decimal(lock),
            )  # fmt: skip
        else:
            journaled[ref] = (uid, currency_id, account_type, Decimal(amount), Decimal(lock))
    return accounts, journaled


@retry_busy
async def _apply_debits_locked(
    ops: list[Op], then: Callable[[BaseDBAsyncClient, list[bool | DomainError]], Awaitable[None]] | None
) -> list[bool | DomainError]:
    """``apply_debits`` in a transaction that locks its accounts first (in key order)."""
    async with transaction() as conn:
        locked = (
            await Account.filter(_matching(ops))
            .order_by("user_id", "currency_id", "account_type")
            .select_for_update()
            .using_db(conn)
        )
        accounts = {(a.user_id, a.currency_id, int(a.account_type)): a for a in locked}
        journaled = await _journaled([c.ref for op in ops for c in op.changes], conn)  # under the locks
        decided = _decide(ops, accounts, journaled)
        touched = decided.touched
        await update_rows(conn, [touched[key] for key in sorted(touched)], BALANCE_FIELDS)
        await _write_logs(conn, decided.logs)
        await insert_rows(conn, decided.rows)
        for also in decided.alsos:
            await also(conn)
        if then is not None:
            await then(conn, decided.results)
    return decided.results


async def _journaled(refs: list[str], conn: BaseDBAsyncClient) -> dict[str, Facts]:
    """The facts of the journal rows of these refs that exist, by ref."""
    found = await select_in(conn, AccountLog, FACT_FIELDS, "ref", refs)
    return {ref: (uid, currency_id, int(kind), amount, lock) for ref, uid, currency_id, kind, amount, lock in found}


def _facts(change: Change) -> Facts:
    return (change.uid, change.currency_id, int(change.account_type), change.balance, change.lock)


def _replayed(changes: list[Change], journaled: dict[str, Facts]) -> bool:
    """True if every change is journaled under its ref with the same facts (the batch was applied
    before), False if none is. Raises REF_CONFLICT otherwise: a ref already names another change."""
    found = [journaled.get(c.ref) for c in changes]
    if not any(found):
        return False
    if all(facts == _facts(c) for c, facts in zip(changes, found, strict=True)):
        return True
    raise DomainError(ErrorCode.REF_CONFLICT)


def _try(
    op: list[Change], accounts: dict[Key, Account]
) -> tuple[dict[Key, tuple[Decimal, Decimal]], list[Decimal]] | None:
    """Each touched account's (balance, lock) after ``op`` and the balance after each change, or
    None if ``op`` cannot apply (a missing account, or a balance or lock that would go negative)."""
    after: dict[Key, tuple[Decimal, Decimal]] = {}
    balances = []
    for change in op:
        account = accounts.get(change.key)
        if account is None:
            return None
        balance, lock = after.get(change.key, (account.balance, account.lock_balance))
        balance, lock = balance + change.balance, lock + change.lock
        if balance < ZERO or lock < ZERO:
            return None
        after[change.key] = (balance, lock)
        balances.append(balance)
    return after, balances


LOG_FIELDS = ("user_id", "currency_id", "account_type", "amount", "lock_amount", "balance_after", "log_type", "memo",
              "ref", "extra", "created_at")  # fmt: skip


def _log(change: Change, balance_after: Decimal) -> tuple[object, ...]:
    """A journal row's values (``LOG_FIELDS`` but its time, which ``_write_logs`` stamps)."""
    return (change.uid, change.currency_id, change.account_type, change.balance, change.lock, balance_after,
            change.log_type, change.memo, change.ref, change.extra)  # fmt: skip


async def _write_logs(conn: BaseDBAsyncClient, logs: list[tuple[object, ...]]) -> None:
    now = datetime.now(UTC)
    await insert_values(conn, AccountLog, LOG_FIELDS, [(*log, now) for log in logs])


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
