"""Lock savings (/deposit, ``storage_currency/*``): one lot of a product locked for its term.

Rules (docs/decisions.md "Lock savings and mining"): a lot bought on UTC day s is held as lock in the
owner's financial account and earns for days s+1 .. s+N (N = ``limit_days``). Each day's interest is
``amount x display_rate / 100 / 365`` rounded down to the currency's places, the same every day; it is
booked once the day is over (``run_day``) into the lock as well, paid by the house (an
``earn_interest`` row), so the account log shows it day by day. The run of day s+N books the last
day and returns principal and interest to the balance. Each step is idempotent per (order, day).
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from store.db import column
from store.earn import EARN_INTEREST, FINANCIAL, LOG_LOCK
from store.earn.book import HouseRow, Stale, catch_up, floor, locked, move, run_active
from store.earn.clock import day_text
from store.errors import DomainError, ErrorCode
from store.ids import TableIds
from store.ledger import ZERO, Change
from store.models import Currency, EarnAccrual, EarnStatus, LockOrder, LockProduct
from store.money import money

KIND = "lock"  # EarnAccrual.kind
DAYS_A_YEAR = 365
ids = TableIds("lock_order", LockOrder)


def daily_interest(amount: Decimal, annual_rate: Decimal, places: int) -> Decimal:
    """One day's interest: ``amount x annual_rate / 100 / 365``, rounded down to ``places``."""
    return floor(amount * annual_rate / 100 / DAYS_A_YEAR, places)


def expected_interest(amount: Decimal, annual_rate: Decimal, days: int, places: int) -> Decimal:
    """The interest of the whole term: every day earns the same."""
    return daily_interest(amount, annual_rate, places) * days


async def lots_sold(product_ids: list[int]) -> dict[int, int]:
    """Lots sold so far (every order ever made) per product."""
    rows = await column(LockOrder.filter(product_id__in=product_ids).values_list("product_id", flat=True))
    sold: dict[int, int] = {}
    for product_id in rows:
        sold[product_id] = sold.get(product_id, 0) + 1
    return sold


async def products(limit: int) -> list[dict[str, Any]]:
    """The products offered, in their order, with the lots sold."""
    rows = await LockProduct.all().order_by("sort", "id").limit(limit).prefetch_related("currency")
    sold = await lots_sold([p.id for p in rows])
    return [product_public(p, sold.get(p.id, 0)) for p in rows]


def product_public(product: LockProduct, sold: int) -> dict[str, Any]:
    return {
        "id": product.id,
        "name": product.name,
        "limit_days": product.limit_days,
        "display_rate": money(product.display_rate),
        "limit_number": money(product.limit_number),
        "currency": {"id": product.currency.id, "code": product.currency.code},
        "quota_lots": product.quota_lots,
        "sold_lots": sold,
        "open": product.open,
    }


async def buy(*, uid: int, product_id: int, day: int) -> LockOrder:
    """Lock one lot of the product from the user's financial balance, bought on ``day``.

    Raises LOCK_PRODUCT_NOT_FOUND, LOCK_PRODUCT_CLOSED, LOCK_SOLD_OUT (its ``quota_lots`` sold, checked
    under the product's row lock), ACCOUNT_TYPE_NOT_ALLOWED and INSUFFICIENT_BALANCE; durable on return."""
    product = await LockProduct.get_or_none(id=product_id).prefetch_related("currency")
    if product is None:
        raise DomainError(ErrorCode.LOCK_PRODUCT_NOT_FOUND)
    if not product.open:
        raise DomainError(ErrorCode.LOCK_PRODUCT_CLOSED)
    currency: Currency = product.currency
    if str(int(FINANCIAL)) not in currency.account_types.split(","):
        raise DomainError(ErrorCode.ACCOUNT_TYPE_NOT_ALLOWED)
    if product.quota_lots and (await lots_sold([product.id])).get(product.id, 0) >= product.quota_lots:
        raise DomainError(ErrorCode.LOCK_SOLD_OUT)
    order_id, amount = await ids.next(), product.limit_number
    ref = f"lk{order_id}:lock"
    memo = f"{product.name} #{order_id}: locked"
    change = Change(uid, currency.id, FINANCIAL, -amount, amount, LOG_LOCK, ref, memo, {"lock_order_id": order_id})

    async def write(conn: Any) -> None:
        await locked(LockProduct, product.id, conn)  # buys of one product one at a time: the quota holds
        sold = await LockOrder.filter(product_id=product.id).using_db(conn).count()
        if product.quota_lots and sold >= product.quota_lots:
            raise DomainError(ErrorCode.LOCK_SOLD_OUT)
        await LockOrder.create(id=order_id, user_id=uid, product_id=product.id, currency_id=currency.id, amount=amount,
                               display_rate=product.display_rate, limit_days=product.limit_days, start_day=day,
                               end_day=day + product.limit_days, using_db=conn)  # fmt: skip

    await move([change], [], write)
    return await LockOrder.get(id=order_id)


async def _book(order: LockOrder, day: int, places: int) -> bool:
    """Book one day's interest into the lock (the house pays it). False if it was booked before."""
    index = day - order.start_day
    amount = daily_interest(order.amount, order.display_rate, places)
    uid, currency_id = order.user_id, order.currency_id
    ref = f"lk{order.id}:d{day}"
    memo = f"lock #{order.id}: interest of {day_text(day)}"
    changes = [Change(uid, currency_id, FINANCIAL, ZERO, amount, LOG_LOCK, ref, memo,
                      {"lock_order_id": order.id, "day": day_text(day)})] if amount else []  # fmt: skip

    async def write(conn: Any) -> None:
        row = await locked(LockOrder, order.id, conn)
        if row.status != EarnStatus.ACTIVE or row.days_booked != index - 1:
            raise Stale
        await EarnAccrual.create(kind=KIND, order_id=order.id, day=day, rate=order.display_rate, amount=amount,
                                 using_db=conn)  # fmt: skip
        await LockOrder.filter(id=order.id).using_db(conn).update(accrued=row.accrued + amount, days_booked=index)

    return await move(changes, [HouseRow(EARN_INTEREST, currency_id, -amount, ref, uid, order.id)], write)


async def _mature(order: LockOrder) -> bool:
    """Return principal and interest from the lock to the balance. False if done before."""
    uid, currency_id = order.user_id, order.currency_id
    total = order.amount + order.accrued
    ref = f"lk{order.id}:end"
    memo = f"lock #{order.id}: matured, principal and interest returned"
    change = Change(uid, currency_id, FINANCIAL, total, -total, LOG_LOCK, ref, memo, {"lock_order_id": order.id})

    async def write(conn: Any) -> None:
        row = await locked(LockOrder, order.id, conn)
        if row.status != EarnStatus.ACTIVE or row.days_booked != order.limit_days or row.accrued != order.accrued:
            raise Stale
        await LockOrder.filter(id=order.id).using_db(conn).update(status=EarnStatus.ENDED, ended_at=datetime.now(UTC))

    return await move([change], [], write)


async def settle(order_id: int, through: int, places: int) -> tuple[int, bool]:
    """Book the order's days up to ``through`` and mature it when its term is over (``catch_up``)."""

    async def load() -> LockOrder:
        return await LockOrder.get(id=order_id)

    return await catch_up(load, lambda o, d: _book(o, d, places), _mature, through)


async def run_day(day: int) -> dict[str, int]:
    """The Scheduler's run of ``day`` (once it is over): every active order books what it owes up to
    ``day`` (days missed before included) and matures if its term ended. Idempotent."""
    booked, matured = await run_active(LockOrder, day, settle)
    return {"booked": booked, "matured": matured}


async def orders(uid: int, limit: int) -> list[dict[str, Any]]:
    """The user's lock orders, newest first."""
    rows = await LockOrder.filter(user_id=uid).order_by("-id").limit(limit).prefetch_related("product", "currency")
    return [order_public(r) for r in rows]


async def orders_by_id(order_ids: list[int]) -> list[dict[str, Any]]:
    rows = await LockOrder.filter(id__in=order_ids).order_by("id").prefetch_related("product", "currency")
    return [order_public(r) for r in rows]


def order_public(row: LockOrder) -> dict[str, Any]:
    """An order as the API shows it (``product`` and ``currency`` fetched)."""
    places = row.currency.decimals
    return {
        "id": row.id,
        "product_id": row.product.id,
        "name": row.product.name,
        "currency_code": row.currency.code,
        "amount": money(row.amount),
        "display_rate": money(row.display_rate),
        "limit_days": row.limit_days,
        "start": day_text(row.start_day + 1),
        "maturity": day_text(row.end_day),
        "accrued": money(row.accrued),
        "expected": money(expected_interest(row.amount, row.display_rate, row.limit_days, places)),
        "days_booked": row.days_booked,
        "status": int(row.status),
        "created_at": int(row.created_at.timestamp() * 1000),
    }
