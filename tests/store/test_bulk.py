"""store.bulk writes many rows in one statement (PostgreSQL) or one prepared statement (SQLite), on the
session's database: what is written reads back exactly (money to the 18th place, enums, JSON, NULLs,
the times tortoise stamps), only the rows named are updated, and a failing write leaves nothing of its
transaction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from tortoise import connections
from tortoise.exceptions import IntegrityError, ValidationError

from config.settings import Settings
from store import users
from store.bulk import (
    SQLITE_CHUNK,
    Conflict,
    delete_part,
    guarded_update_part,
    insert_rows,
    insert_rows_parts,
    insert_values,
    select_in,
    update_part,
    update_rows,
    write_at_once,
)
from store.db import transaction
from store.ids import MICRO, reserve
from store.ledger import LOG_FIELDS
from store.models import Account, AccountLog, AccountType, Currency, HouseLedger, MicroOrder, MicroStatus

TINY = Decimal("0.000000000000000001")


async def _user(email: str) -> int:
    return (await users.create_user(kind="email", account=email, password_hash="x", area=None, parent=None)).id


def _order(order_id: int, uid: int, usdt: Currency) -> MicroOrder:
    return MicroOrder(id=order_id, user_id=uid, currency_match_id=1, currency_id=usdt.id, type=1, seconds=30,
                      number=Decimal(5), profit_ratio=Decimal(80), status=MicroStatus.OPEN, accepted_ms=1)  # fmt: skip


async def test_inserted_values_read_back_exactly(db: None) -> None:
    uid = await _user("bulk-values@example.com")
    usdt = await Currency.get(code="USDT")
    at = datetime(2026, 11, 25, 12, 0, 0, 123000, tzinfo=UTC)
    rows = [(uid, usdt.id, AccountType.MICRO, Decimal(i) + TINY, -TINY, Decimal("12345678901234567.123456789012345678"),
             "bulk", "", f"bulk-values:{i}", {"micro_order_id": i, "note": "é"} if i % 2 else None, at)
            for i in range(300)]  # fmt: skip
    async with transaction() as conn:
        await insert_values(conn, AccountLog, LOG_FIELDS, rows)
    stored = await AccountLog.filter(ref__startswith="bulk-values:").order_by("id")
    assert len(stored) == 300
    for i, log in enumerate(stored):
        assert (log.user_id, log.currency_id, log.account_type, log.ref) == (uid, usdt.id, AccountType.MICRO,  # type: ignore[attr-defined]
                                                                             f"bulk-values:{i}")  # fmt: skip
        assert (log.amount, log.lock_amount) == (Decimal(i) + TINY, -TINY)
        assert log.balance_after == Decimal("12345678901234567.123456789012345678")
        assert log.extra == ({"micro_order_id": i, "note": "é"} if i % 2 else None)
        assert log.created_at == at


async def test_inserted_models_of_two_kinds_get_keys_and_stamps(db: None) -> None:
    uid = await _user("bulk-models@example.com")
    usdt = await Currency.get(code="USDT")
    before = datetime.now(UTC) - timedelta(seconds=1)
    house = [HouseLedger(kind="micro_pnl", currency_id=usdt.id, amount=Decimal(i) / 7, ref=f"bulk-models:{i}",
                         user_id=uid, position_id=None) for i in range(5)]  # fmt: skip
    first = await reserve(MICRO, 3)
    orders = [_order(first + i, uid, usdt) for i in range(3)]
    async with transaction() as conn:
        await insert_rows(conn, [*house, *orders])
    stored = await HouseLedger.filter(ref__startswith="bulk-models:").order_by("ref")
    assert [h.amount for h in stored] == [(Decimal(i) / 7).quantize(TINY) for i in range(5)]
    assert len({h.id for h in stored}) == 5 and all(h.position_id is None for h in stored)
    assert all(h.created_at >= before for h in stored)  # auto_now_add stamped by the write
    saved = await MicroOrder.filter(id__in=[o.id for o in orders]).order_by("id")
    assert [(o.id, o.status, o.fee_rate, o.outcome) for o in saved] == [
        (o.id, MicroStatus.OPEN, Decimal(0), "") for o in orders
    ]


async def test_update_writes_the_named_fields_of_the_rows_given_only(db: None) -> None:
    uid = await _user("bulk-update@example.com")
    usdt = await Currency.get(code="USDT")
    first = await reserve(MICRO, 4)
    orders = [_order(first + i, uid, usdt) for i in range(4)]
    async with transaction() as conn:
        await insert_rows(conn, orders)
    at = datetime(2026, 11, 25, 13, 0, tzinfo=UTC)
    changed = orders[:3]
    for i, row in enumerate(changed):
        row.status, row.outcome, row.payout, row.end_price, row.settled_at = (MicroStatus.CLOSED, "win",
                                                                              Decimal("9.0") + TINY * i, None, at)  # fmt: skip
        row.seconds = 999  # not among the fields written
    async with transaction() as conn:
        await update_rows(conn, changed, ("status", "outcome", "payout", "end_price", "settled_at"))
    saved = await MicroOrder.filter(id__in=[o.id for o in orders]).order_by("id")
    assert [(s.status, s.outcome, s.payout, s.end_price, s.settled_at, s.seconds) for s in saved] == [
        *[(MicroStatus.CLOSED, "win", Decimal("9.0") + TINY * i, None, at, 30) for i in range(3)],
        (MicroStatus.OPEN, "", Decimal(0), None, None, 30),
    ]


async def test_a_failing_write_leaves_nothing_of_its_transaction(db: None) -> None:
    uid = await _user("bulk-fail@example.com")
    usdt = await Currency.get(code="USDT")
    taken = (uid, usdt.id, AccountType.MICRO, Decimal(1), Decimal(0), Decimal(1), "bulk", "", "bulk-fail:taken", None,
             datetime.now(UTC))  # fmt: skip
    async with transaction() as conn:
        await insert_values(conn, AccountLog, LOG_FIELDS, [taken])
    fresh = (*taken[:8], "bulk-fail:fresh", *taken[9:])
    with pytest.raises(IntegrityError):
        async with transaction() as conn:
            await insert_values(conn, AccountLog, LOG_FIELDS, [fresh])
            await insert_values(conn, AccountLog, LOG_FIELDS, [fresh, taken])  # the ref is used
    assert not await AccountLog.filter(ref="bulk-fail:fresh").exists()
    assert await AccountLog.filter(ref="bulk-fail:taken").count() == 1


async def test_values_of_another_type_are_converted_and_validators_still_run(db: None) -> None:
    """A plain field's value of another type is converted as tortoise converts it (text to a number, an
    int to a decimal); a field with a validator (a CharField's length) still refuses, before any write."""
    uid = await _user("bulk-convert@example.com")
    usdt = await Currency.get(code="USDT")
    at = datetime(2026, 11, 25, 14, 0, tzinfo=UTC)
    row = (
        str(uid),
        str(usdt.id),
        AccountType.MICRO,
        7,
        "-0.5",
        Decimal("1E+2"),
        "bulk",
        "",
        "bulk-convert:1",
        None,
        at,
    )
    async with transaction() as conn:
        await insert_values(conn, AccountLog, LOG_FIELDS, [row])
    stored = await AccountLog.get(ref="bulk-convert:1")
    assert (stored.user_id, stored.currency_id) == (uid, usdt.id)  # type: ignore[attr-defined]
    assert (stored.amount, stored.lock_amount, stored.balance_after) == (Decimal(7), Decimal("-0.5"), Decimal(100))
    too_long = (*row[:8], "x" * 200, *row[9:])
    with pytest.raises(ValidationError):
        async with transaction() as conn:
            await insert_values(conn, AccountLog, LOG_FIELDS, [too_long])
    assert await AccountLog.filter(ref__startswith="xxx").count() == 0


async def test_select_in_answers_the_rows_of_the_keys_given_as_python_values(db: None) -> None:
    """More keys than one SQLite statement takes, half of them stored: exactly those rows come back,
    with the values ``values_list`` would give (decimals, enums)."""
    uid = await _user("bulk-select@example.com")
    usdt = await Currency.get(code="USDT")
    at = datetime(2026, 11, 25, 15, 0, tzinfo=UTC)
    stored = [(uid, usdt.id, AccountType.MICRO, Decimal(i) + TINY, -TINY, Decimal(0), "bulk", "", f"bulk-select:{i}",
               None, at) for i in range(0, 1200, 2)]  # fmt: skip
    async with transaction() as conn:
        await insert_values(conn, AccountLog, LOG_FIELDS, stored)
    keys = [f"bulk-select:{i}" for i in range(1200)]
    async with transaction() as conn:
        found = await select_in(conn, AccountLog, ("ref", "account_type", "amount", "lock_amount"), "ref", keys)
        assert await select_in(conn, AccountLog, ("ref",), "ref", []) == []
    assert len(keys) > SQLITE_CHUNK
    assert sorted(found, key=lambda row: int(row[0].split(":")[1])) == [
        (f"bulk-select:{i}", AccountType.MICRO, Decimal(i) + TINY, -TINY) for i in range(0, 1200, 2)
    ]
    assert all(isinstance(kind, AccountType) for _, kind, _, _ in found)


async def test_parts_written_at_once_land_together_with_their_stamps_or_not_at_all(
    db: None, settings: Settings
) -> None:
    """Inserts, an update and a delete of two tables in one statement (PostgreSQL); a guarded update
    that finds a row changed since it was read writes none of the parts."""
    if not settings.db_url.startswith("postgres://"):
        pytest.skip("one statement of several writes is PostgreSQL's")
    uid = await _user("bulk-at-once@example.com")
    usdt = await Currency.get(code="USDT")
    conn = connections.get("default")
    kept, gone = _order(9_300_000_001, uid, usdt), _order(9_300_000_002, uid, usdt)  # apart from test_micro_tools
    await write_at_once(conn, insert_rows_parts([kept, gone]))
    stamped = await MicroOrder.get(id=kept.id)
    assert stamped.created_at is not None and stamped.number == Decimal(5)
    account = await Account.create(user_id=uid, currency_id=usdt.id, account_type=AccountType.MICRO, balance=10)
    account.balance = Decimal(7)
    stale = guarded_update_part([account], ("balance", "lock_balance", "updated_at"), [(Decimal(9), Decimal(0))])
    parts = [delete_part(MicroOrder, "id", [gone.id]), update_part(MicroOrder, ("number",), [[Decimal(6), kept.id]])]
    with pytest.raises(Conflict):
        await write_at_once(conn, [p for p in parts if p is not None], guarded=(stale, 1))
    assert await MicroOrder.filter(id__in=[kept.id, gone.id]).count() == 2
    assert (await Account.get(id=account.id)).balance == Decimal(10)
    fresh = guarded_update_part([account], ("balance", "lock_balance", "updated_at"), [(Decimal(10), Decimal(0))])
    await write_at_once(conn, [p for p in parts if p is not None], guarded=(fresh, 1))
    assert await MicroOrder.filter(id__in=[kept.id, gone.id]).values_list("id", "number") == [(kept.id, Decimal(6))]
    assert (await Account.get(id=account.id)).balance == Decimal(7)
