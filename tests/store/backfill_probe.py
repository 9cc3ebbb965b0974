"""Run by tests/store/test_backfill_migration.py in a process of its own (migrations re-initialise the
ORM, which the test session's process keeps open on its own database):

    python -m tests.store.backfill_probe <database url>

Migrates a fresh database to 0008, writes what a build before it left behind (the pending-work tables
empty), migrates to the latest, runs the backfill once more, and prints the pending rows as JSON.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from datetime import UTC, datetime
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from tortoise import Model, Tortoise, connections
from tortoise.migrations import operations as ops
from tortoise.migrations.api import migrate

from config.settings import ROOT
from store.db import APPS
from store.models import (
    AccountLog,
    AccountType,
    Currency,
    CurrencyMatch,
    FeeLedger,
    Order,
    OrderHold,
    OrderStatus,
    PendingRelease,
    PendingSettlement,
    Trade,
    User,
)

FROZEN_AT = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
LEGACY = "0008_live_prices_and_hardening"


def _added_later(model: str) -> set[str]:
    """The fields of ``model`` that migrations after LEGACY add: a LEGACY database has no column for them."""
    names: set[str] = set()
    for path in sorted((ROOT / "store" / "migrations").glob("0*.py")):
        if path.stem > LEGACY:
            migration = importlib.import_module(f"store.migrations.{path.stem}").Migration
            names |= {op.name for op in migration.operations if isinstance(op, ops.AddField) and op.model_name == model}
    return names


async def _insert_as_of_legacy(row: Model) -> None:
    """Insert ``row`` with only the columns a LEGACY schema has (the ORM would name every current one)."""
    meta, later = row._meta, _added_later(type(row).__name__)
    columns = {column: meta.fields_map[name].to_db_value(getattr(row, name), row)
               for name, column in meta.fields_db_projection.items() if name not in later}  # fmt: skip
    client = connections.get("default")
    marks = [f"${i}" if client.capabilities.dialect == "postgres" else "?" for i in range(1, len(columns) + 1)]
    names = ", ".join(f'"{column}"' for column in columns)
    query = f'INSERT INTO "{meta.db_table}" ({names}) VALUES ({", ".join(marks)})'
    await client.execute_insert(query, list(columns.values()))


def _log(uid: int, ref: str, kind: str, lock: str) -> AccountLog:
    return AccountLog(user_id=uid, currency_id=1, account_type=AccountType.CHANGE, amount=-Decimal(lock),
                      lock_amount=Decimal(lock), balance_after=Decimal(0), log_type=kind, ref=ref)  # fmt: skip


def _order(order_id: int, uid: int, way: int, status: OrderStatus, frozen: str, **filled: str) -> Order:
    values = {k: Decimal(v) for k, v in filled.items()}
    return Order(id=order_id, user_id=uid, currency_match_id=1, way=way, price=Decimal(100), number=Decimal(1),
                 frozen=Decimal(frozen), status=status, **values)  # fmt: skip


def _trade(trade_id: int, uid: int) -> Trade:
    return Trade(id=trade_id, currency_match_id=1, buy_order_id=1, sell_order_id=2, buyer_id=uid, seller_id=uid,
                 taker_way=1, price=Decimal(100), number=Decimal(1), volume=Decimal(100),
                 created_at=FROZEN_AT)  # fmt: skip


async def legacy_rows() -> None:
    """What an earlier build wrote: journal, orders, trades and fees; no pending-work rows."""
    await _insert_as_of_legacy(Currency(id=1, code="USDT", name="Tether USD"))
    await _insert_as_of_legacy(Currency(id=2, code="BTC", name="Bitcoin"))
    await _insert_as_of_legacy(CurrencyMatch(id=1, base_currency_id=2, quote_currency_id=1))
    uid = 1  # a user as the LEGACY schema holds one (later migrations add columns to users)
    await _insert_as_of_legacy(User(id=uid, email="legacy@example.com", password_hash="x", invite_code="LEGACY",
                                    created_at=FROZEN_AT, updated_at=FROZEN_AT))  # fmt: skip
    orphan = _log(uid, "o101:freeze", "freeze", "10.5")
    orphan.created_at = FROZEN_AT
    await AccountLog.bulk_create([
        orphan,  # its order never landed, never released: a hold
        _log(uid, "o102:freeze", "freeze", "1"),  # landed (open order below)
        _log(uid, "o103:freeze", "freeze", "2"), _log(uid, "o103:release", "release", "-2"),  # released
        _log(uid, "oabc:freeze", "freeze", "3"), _log(uid, "o7x:freeze", "freeze", "3"),  # not order refs
        _log(uid, "o104:freeze", "freeze", "10"), _log(uid, "o105:freeze", "freeze", "10"),
        _log(uid, "o105:release", "release", "-6"),
    ])  # fmt: skip
    await Order.bulk_create([
        _order(102, uid, 1, OrderStatus.OPEN, "1"),
        _order(104, uid, 1, OrderStatus.CANCELLED, "10", transacted_volume="4"),  # 6 still held
        _order(105, uid, 1, OrderStatus.CANCELLED, "10", transacted_volume="4"),  # released
        _order(106, uid, 2, OrderStatus.FILLED, "1", transacted_amount="1"),  # all consumed
        _order(107, uid, 1, OrderStatus.FILLED, "100", transacted_volume="99.999999999999999999"),  # dust held
        _order(108, uid, 2, OrderStatus.CANCELLED, "1", transacted_volume="5"),  # a sell: quantity counts
    ])  # fmt: skip
    await Trade.bulk_create([_trade(201, uid), _trade(202, uid), _trade(203, uid)])
    await FeeLedger.bulk_create([
        FeeLedger(trade_id=201, side=1, currency_id=2, amount=Decimal(0)),
        FeeLedger(trade_id=202, side=1, currency_id=2, amount=Decimal(0)),
        FeeLedger(trade_id=202, side=2, currency_id=1, amount=Decimal(0)),
    ])  # fmt: skip


async def pending() -> dict[str, Any]:
    holds = await OrderHold.all().order_by("order_id")
    return {
        "holds": [
            [h.order_id, h.user_id, h.currency_id, str(h.amount.normalize()), h.created_at.isoformat()] for h in holds
        ],  # fmt: skip
        "settlements": sorted(await PendingSettlement.all().values_list("trade_id", "side")),
        "releases": sorted(await PendingRelease.all().values_list("order_id", flat=True)),
    }


async def main(url: str) -> None:
    config = {"connections": {"default": url}, "apps": APPS, "use_tz": True, "timezone": "UTC"}
    try:  # closed on failure too: an open SQLite connection's thread would keep the process alive
        await migrate(config=config, target=f"models.{LEGACY}")
        await Tortoise.init(config=config)
        await legacy_rows()
        await Tortoise.close_connections()
        await migrate(config=config)  # 0009 and everything after it, on tables that have rows
        await Tortoise.init(config=config)
        first = await pending()
        migration = importlib.import_module("store.migrations.0009_backfill_pending_work")
        await migration.backfill(None, SimpleNamespace(client=connections.get("default")))  # again: no change
        print(json.dumps({"first": first, "again": await pending()}))
    finally:
        await Tortoise.close_connections()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
