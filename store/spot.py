"""Spot persistence shared by the pair actors and the API: one transaction per matching batch."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from tortoise import connections
from tortoise.expressions import Q
from tortoise.models import Model

from config.numeric import in_money_context
from store.bulk import (
    delete_part,
    insert_rows,
    insert_rows_parts,
    update_part,
    update_values,
    upsert_rows,
    upsert_rows_part,
    write_at_once,
)
from store.db import retry_busy, transaction
from store.models import (
    Kline,
    MarkTick,
    Order,
    OrderHold,
    OrderStatus,
    PendingRelease,
    PendingSettlement,
    Quotation,
    Trade,
)

OPEN_STATUSES = (OrderStatus.OPEN, OrderStatus.PARTIAL)
BAR_KEY = ("currency_match_id", "period", "start")
QUOTATION_KEY = ("currency_match_id",)
ORDER_UPDATE = ("transacted_amount", "transacted_volume", "status")  # what matching changes in a resting order


def ms_to_dt(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


@retry_busy
@in_money_context
async def persist_batch(
    *,
    pair_id: int,
    new_orders: list[dict[str, Any]],
    updated_orders: list[dict[str, Any]],
    trades: list[dict[str, Any]],
    quotation: dict[str, Any] | None,
    bars: Iterable[dict[str, Any]],
    releases: list[int],
    ticks: list[dict[str, Any]],
) -> None:
    """Write everything one matching batch produced, atomically. Durable when it returns.

    Besides the orders, trades and market data: the pending work the batch leaves (each trade's two
    sides to settle, ``releases``: final orders whose unused funds go back), the end of the holds of
    the orders that landed (their funds are now the orders' to account for), and the mark ticks.
    ``updated_orders`` carry ``ORDER_UPDATE`` and the id. On PostgreSQL a batch is one statement
    (``bulk.write_at_once``: no BEGIN or COMMIT, the ticker and the candles upserted in it); on SQLite
    one transaction of a statement per table.
    """
    rows: list[Model] = [Order(**o) for o in new_orders]
    rows += [Trade(**t) for t in trades]
    rows += [
        PendingSettlement(trade_id=t["id"], side=side, currency_match_id=pair_id) for t in trades for side in (1, 2)
    ]
    rows += [PendingRelease(order_id=i, currency_match_id=pair_id) for i in releases]
    rows += [MarkTick(**t) for t in ticks]
    landed = [o["id"] for o in new_orders]
    updates = [[o[name] for name in ORDER_UPDATE] + [o["id"]] for o in updated_orders]
    conn = connections.get("default")
    quotations = [Quotation(**quotation)] if quotation is not None else []
    klines = [Kline(**bar) for bar in bars]
    if conn.capabilities.dialect == "postgres":
        parts = [*insert_rows_parts(rows), delete_part(OrderHold, "order_id", landed),
                 update_part(Order, ORDER_UPDATE, updates), upsert_rows_part(quotations, QUOTATION_KEY),
                 upsert_rows_part(klines, BAR_KEY)]  # fmt: skip
        await write_at_once(conn, [p for p in parts if p is not None])
        return
    async with transaction() as conn:
        await insert_rows(conn, rows)
        if landed:
            await OrderHold.filter(order_id__in=landed).using_db(conn).delete()
        await update_values(conn, Order, ORDER_UPDATE, updates)
        await upsert_rows(conn, quotations, QUOTATION_KEY)
        await upsert_rows(conn, klines, BAR_KEY)


async def open_orders(pair_id: int) -> list[Order]:
    return await Order.filter(currency_match_id=pair_id, status__in=OPEN_STATUSES).order_by("seq", "id")


async def pending_settlements(pair_id: int, after: tuple[int, int], limit: int) -> list[tuple[Trade, int]]:
    """The pair's trade sides not yet settled, oldest trade first, after ``after`` (trade id, side)."""
    trade_id, side = after
    rows = (
        await PendingSettlement.filter(
            Q(trade_id__gt=trade_id) | Q(trade_id=trade_id, side__gt=side), currency_match_id=pair_id
        )
        .order_by("trade_id", "side")
        .limit(limit)
        .values_list("trade_id", "side")
    )
    trades = {t.id: t for t in await Trade.filter(id__in={trade_id for trade_id, _ in rows})}
    return [(trades[trade_id], side) for trade_id, side in rows if trade_id in trades]


async def last_trade_id(pair_id: int) -> int:
    row = await Trade.filter(currency_match_id=pair_id).order_by("-id").first()
    return row.id if row else 0


async def latest_trades(pair_id: int, limit: int, before_id: int | None = None) -> list[dict[str, Any]]:
    """The pair's latest ``limit`` trades (before trade ``before_id``), newest first: ``id``,
    ``buyer_id``, ``seller_id``, ``price``, ``volume`` and ``created_at`` (what the mark's last price is
    rebuilt from)."""
    rows = Trade.filter(currency_match_id=pair_id)
    if before_id is not None:
        rows = rows.filter(id__lt=before_id)
    fields = ("id", "buyer_id", "seller_id", "price", "volume", "created_at")
    return [
        {**row, "price": as_decimal(row["price"]), "volume": as_decimal(row["volume"])}
        for row in await rows.order_by("-id").limit(limit).values(*fields)
    ]


def as_decimal(value: Any) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


async def pending_releases(pair_id: int, after_order_id: int, limit: int) -> list[Order]:
    """The pair's final orders whose unused funds are not yet released, oldest first, after
    ``after_order_id``."""
    ids = (
        await PendingRelease.filter(currency_match_id=pair_id, order_id__gt=after_order_id)
        .order_by("order_id")
        .limit(limit)
        .values_list("order_id", flat=True)
    )
    return await Order.filter(id__in=list(ids)).order_by("id") if ids else []


async def order(order_id: int) -> Order | None:
    return await Order.get_or_none(id=order_id)
