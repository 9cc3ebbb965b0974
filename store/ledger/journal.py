"""The journal's side of the ledger: which refs are journaled already (a replay, or a conflict), what a
group of operations does to accounts read into memory (``decide``, in ``Decimal``), and the journal
rows written for it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from store.bulk import insert_values, select_in
from store.errors import DomainError, ErrorCode
from store.ledger.changes import FACT_FIELDS, ZERO, Also, Change, Facts, Key, Op
from store.models import Account, AccountLog


async def journaled_facts(refs: list[str], conn: BaseDBAsyncClient) -> dict[str, Facts]:
    """The facts of the journal rows of these refs that exist, by ref."""
    found = await select_in(conn, AccountLog, FACT_FIELDS, "ref", refs)
    return {ref: (uid, currency_id, int(kind), amount, lock) for ref, uid, currency_id, kind, amount, lock in found}


def facts_of(change: Change) -> Facts:
    return (change.uid, change.currency_id, int(change.account_type), change.balance, change.lock)


def is_replay(changes: list[Change], journaled: dict[str, Facts]) -> bool:
    """True if every change is journaled under its ref with the same facts (the batch was applied
    before), False if none is. Raises REF_CONFLICT otherwise: a ref already names another change."""
    found = [journaled.get(c.ref) for c in changes]
    if not any(found):
        return False
    if all(facts == facts_of(c) for c, facts in zip(changes, found, strict=True)):
        return True
    raise DomainError(ErrorCode.REF_CONFLICT)


def try_changes(
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


@dataclass
class Decided:
    """What a group of operations writes: each one's result, the accounts they changed, the journal
    rows, the rows to create and what to run in the transaction."""

    results: list[bool | DomainError]
    touched: dict[Key, Account]
    logs: list[tuple[object, ...]]
    rows: list[Model]
    alsos: list[Also]


def decide(ops: list[Op], accounts: dict[Key, Account], journaled: dict[str, Facts]) -> Decided:
    """Apply ``ops`` in order to ``accounts`` (in memory), each all-or-nothing."""
    decided = Decided([False] * len(ops), {}, [], [], [])
    for index, op in enumerate(ops):
        try:
            if is_replay(op.changes, journaled):
                continue
        except DomainError as exc:
            decided.results[index] = exc
            continue
        tried = try_changes(op.changes, accounts)
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
        journaled.update((change.ref, facts_of(change)) for change in op.changes)
        decided.logs.extend(log_row(change, balance) for change, balance in zip(op.changes, balances, strict=True))
        decided.rows.extend(op.rows)
        if op.also is not None:
            decided.alsos.append(op.also)
        decided.results[index] = True
    return decided


LOG_FIELDS = ("user_id", "currency_id", "account_type", "amount", "lock_amount", "balance_after", "log_type", "memo",
              "ref", "extra", "created_at")  # fmt: skip


def log_row(change: Change, balance_after: Decimal) -> tuple[object, ...]:
    """A journal row's values (``LOG_FIELDS`` but its time, which ``write_logs`` stamps)."""
    return (change.uid, change.currency_id, change.account_type, change.balance, change.lock, balance_after,
            change.log_type, change.memo, change.ref, change.extra)  # fmt: skip


async def write_logs(conn: BaseDBAsyncClient, logs: list[tuple[object, ...]]) -> None:
    now = datetime.now(UTC)
    await insert_values(conn, AccountLog, LOG_FIELDS, [(*log, now) for log in logs])
