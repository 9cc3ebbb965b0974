"""Spot persistence shared by the pair actors and the API: one transaction per matching batch."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from tortoise.transactions import in_transaction

from store.db import retry_busy
from store.models import AccountLog, FeeLedger, Kline, Order, OrderStatus, Quotation, Trade

OPEN_STATUSES = (OrderStatus.OPEN, OrderStatus.PARTIAL)
BAR_KEY = ("currency_match_id", "period", "start")


def ms_to_dt(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


@retry_busy
async def persist_batch(
    *,
    new_orders: list[dict[str, Any]],
    updated_orders: list[dict[str, Any]],
    trades: list[dict[str, Any]],
    quotation: dict[str, Any] | None,
    bars: Iterable[dict[str, Any]],
) -> None:
    """Write everything one matching batch produced, atomically. Durable when it returns."""
    async with in_transaction() as conn:
        if new_orders:
            await Order.bulk_create([Order(**o) for o in new_orders], using_db=conn)
        for o in updated_orders:
            await Order.filter(id=o["id"]).using_db(conn).update(**{k: v for k, v in o.items() if k != "id"})
        if trades:
            await Trade.bulk_create([Trade(**t) for t in trades], using_db=conn)
        if quotation is not None:
            values = {k: v for k, v in quotation.items() if k != "currency_match_id"}
            await Quotation.update_or_create(
                currency_match_id=quotation["currency_match_id"], defaults=values, using_db=conn
            )
        for bar in bars:
            key = {k: bar[k] for k in BAR_KEY}
            await Kline.update_or_create(
                **key, defaults={k: v for k, v in bar.items() if k not in BAR_KEY}, using_db=conn
            )


async def open_orders(pair_id: int) -> list[Order]:
    return await Order.filter(currency_match_id=pair_id, status__in=OPEN_STATUSES).order_by("seq", "id")


async def unsettled_trades(pair_id: int, limit: int = 1000) -> list[tuple[Trade, set[int]]]:
    """Trades of a pair with a side not yet settled, with the sides that are."""
    settled: dict[int, set[int]] = {}
    trades = await Trade.filter(currency_match_id=pair_id).order_by("-id").limit(limit)
    if not trades:
        return []
    for row in await FeeLedger.filter(trade_id__in=[t.id for t in trades]).values("trade_id", "side"):
        settled.setdefault(row["trade_id"], set()).add(row["side"])
    return [(t, settled.get(t.id, set())) for t in trades if len(settled.get(t.id, ())) < 2]


async def last_trade_id(pair_id: int) -> int:
    row = await Trade.filter(currency_match_id=pair_id).order_by("-id").first()
    return row.id if row else 0


def as_decimal(value: Any) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


async def unreleased_final_orders(pair_id: int, since: datetime, limit: int = 1000) -> list[Order]:
    """Final orders of a pair (updated after ``since``) still holding funds with no release row."""
    rows = await Order.filter(
        currency_match_id=pair_id, status__in=(OrderStatus.FILLED, OrderStatus.CANCELLED), updated_at__gte=since
    ).limit(limit)
    holding = [o for o in rows if o.frozen - (o.transacted_volume if o.way == 1 else o.transacted_amount) > 0]
    if not holding:
        return []
    released = set(await AccountLog.filter(ref__in=[f"o{o.id}:release" for o in holding]).values_list("ref", flat=True))
    return [o for o in holding if f"o{o.id}:release" not in released]


async def orphan_freezes(older_than: datetime, newer_than: datetime) -> list[AccountLog]:
    """Order freezes with neither an order row nor a release behind them (their order never landed)."""
    freezes = await AccountLog.filter(
        log_type="freeze", ref__startswith="o", created_at__lt=older_than, created_at__gt=newer_than
    ).limit(5000)
    ids = {int(f.ref.split(":")[0][1:]): f for f in freezes if f.ref and f.ref.endswith(":freeze")}
    if not ids:
        return []
    placed = set(await Order.filter(id__in=list(ids)).values_list("id", flat=True))
    released = set(await AccountLog.filter(ref__in=[f"o{i}:release" for i in ids]).values_list("ref", flat=True))
    return [f for i, f in ids.items() if i not in placed and f"o{i}:release" not in released]
