"""Group commit: ``apply_debits`` applies many independent operations (a wallet shard's freezes,
releases, stakes) in one write, each all-or-nothing; on PostgreSQL without locks when it can."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from decimal import Decimal
from functools import reduce
from operator import or_
from typing import Any

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import Q
from tortoise.models import Model

from store.bulk import (
    Conflict,
    delete_part,
    delete_rows,
    guarded_update_part,
    insert_missing,
    insert_part,
    insert_rows,
    insert_rows_parts,
    update_rows,
    write_at_once,
)
from store.db import retry_busy, transaction
from store.errors import DomainError
from store.ledger.changes import Facts, Key, Op
from store.ledger.journal import LOG_FIELDS, decide, journaled_facts, write_logs
from store.models import Account, AccountLog, AccountType


async def apply_debits(
    ops: list[Op], then: Callable[[BaseDBAsyncClient, list[bool | DomainError]], Awaitable[None]] | None = None
) -> list[bool | DomainError]:
    """Apply many independent operations in one transaction (group commit), on existing accounts or
    on ones an operation opens (``Op.opens``: created first, when missing, in one statement).

    Each operation is all-or-nothing and answers like ``apply``: True (its ``rows`` and ``also`` are
    written with it), False if it was applied before (or earlier in ``ops``) with the same facts, or the
    DomainError that refused it: INSUFFICIENT_BALANCE (also for an account that does not exist yet:
    nothing can be debited from it), REF_CONFLICT, or its ``lock_cap`` refusal. One operation's
    refusal does not affect the others. Rows are locked in key order, as ``apply`` locks them. The rows
    an operation ends (``Op.deletes``) are deleted when it applies or was applied before. ``then`` runs
    last in the transaction with the results (what the applied operations write together, in bulk).
    Durable when it returns.

    On PostgreSQL a group with no ``also`` and no ``then`` (a wallet shard's freezes, releases and
    settlements) takes two round trips instead of seven: it reads its accounts and journal rows in one
    statement without locking them, decides, and writes every balance, journal row, ``rows`` and
    ``deletes`` in one statement that updates each account only if it still holds what was read
    (``bulk.write_at_once``); if one changed meanwhile nothing is written and the group is decided
    again, under locks after ``OPTIMISTIC_TRIES``.
    """
    conn = connections.get("default")
    await _open_accounts(conn, ops)
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


async def _apply_debits_at_once(conn: BaseDBAsyncClient, ops: list[Op]) -> list[bool | DomainError]:
    """``apply_debits`` without a transaction (PostgreSQL): read, decide, then one guarded statement.
    Raises Conflict (nothing written) if an account changed after it was read."""
    accounts, journaled = await _read_at_once(conn, ops)
    was = {key: (a.balance, a.lock_balance) for key, a in accounts.items()}
    decided = decide(ops, accounts, journaled)
    ended = [delete_part(model, key, keys) for (model, key), keys in _ended(ops, decided.results).items()]
    if decided.touched:
        keys = sorted(decided.touched)
        update = guarded_update_part([decided.touched[k] for k in keys], BALANCE_FIELDS, [was[k] for k in keys])
        now = datetime.now(UTC)
        parts = [insert_part(AccountLog, LOG_FIELDS, [(*log, now) for log in decided.logs]),
                 *insert_rows_parts(decided.rows), *ended]  # fmt: skip
        await write_at_once(conn, [p for p in parts if p is not None], guarded=(update, len(keys)))
    elif ended:  # every operation replayed or refused: what the replays end is still deleted
        await write_at_once(conn, [p for p in ended if p is not None])
    return decided.results


def _ended(ops: list[Op], results: list[bool | DomainError]) -> dict[tuple[type[Model], tuple[str, ...]], list[Any]]:
    """The rows the operations that applied or were applied before end, by model and key fields."""
    ended: defaultdict[tuple[type[Model], tuple[str, ...]], list[Any]] = defaultdict(list)
    for op, result in zip(ops, results, strict=True):
        if isinstance(result, bool):
            for model, key, values in op.deletes:
                ended[(model, key)].append(values)
    return ended


async def _open_accounts(conn: BaseDBAsyncClient, ops: list[Op]) -> None:
    """Create the missing accounts of the operations that open theirs (``Op.opens``), in one statement."""
    keys = sorted({c.key for op in ops if op.opens for c in op.changes})
    if keys:
        missing = [Account(user_id=uid, currency_id=currency, account_type=AccountType(kind))
                   for uid, currency, kind in keys]  # fmt: skip
        await insert_missing(conn, missing, ACCOUNT_KEY)


ACCOUNT_KEY = ("user_id", "currency_id", "account_type")


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
        journaled = await journaled_facts([c.ref for op in ops for c in op.changes], conn)  # under the locks
        decided = decide(ops, accounts, journaled)
        touched = decided.touched
        await update_rows(conn, [touched[key] for key in sorted(touched)], BALANCE_FIELDS)
        await write_logs(conn, decided.logs)
        await insert_rows(conn, decided.rows)
        for (model, key), keys in _ended(ops, decided.results).items():
            await delete_rows(conn, model, key, keys)
        for also in decided.alsos:
            await also(conn)
        if then is not None:
            await then(conn, decided.results)
    return decided.results
