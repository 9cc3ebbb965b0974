"""Mining (``mining/*``): principal held for a cycle, paid the day's published rate every day.

Rules (docs/decisions.md "Lock savings and mining"): an order bought on UTC day s holds ``nums`` as lock
in the owner's financial account and earns for days s+1 .. s+N (N = ``zhouqi``). Day d pays
``nums x rate(d) / 100`` rounded down to the currency's places into the balance, where rate(d) is the
product's published rate of that day (``MiningRate``: one per product and day, the same for every
holder, derived from a hash of (product, day) inside the product's range and stored before it is
used), kept within the range copied onto the order. The run of day s+N pays the last day and returns
the principal. Cancelled early, the principal returns less ``penalty_rate % x remaining days x nums``
(remaining = N - days booked), which the house keeps. Each step is idempotent per (order, day).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from tortoise.exceptions import IntegrityError

from store.db import scalar
from store.earn import EARN_INTEREST, EARN_PENALTY, FINANCIAL, LOG_MINING
from store.earn.book import HouseRow, Stale, catch_up, floor, locked, move, places_of, run_active
from store.earn.clock import day_text
from store.errors import DomainError, ErrorCode
from store.ids import TableIds
from store.ledger import ZERO, Change
from store.models import Currency, EarnAccrual, EarnStatus, MiningOrder, MiningProduct, MiningRate
from store.money import money

KIND = "mining"  # EarnAccrual.kind
TYPES = {1: "USDT", 2: "ACB", 3: "MVBT"}  # the spec's type -> the currency of the principal
NOT_STARTED, IN_PROGRESS, ENDED = 0, 1, 2  # MiningProduct.status
RATE_PLACES = 4  # a published daily rate in percent: 0.3521
PER_PAGE = 6  # spec §9
ids = TableIds("mining_order", MiningOrder)


def derived_rate(product_id: int, day: int, rate_min: Decimal, rate_max: Decimal) -> Decimal:
    """The rate a product publishes for a day: a SHA-256 of ``mining:<product>:<day>`` read as a
    fraction u in [0, 1), ``rate_min + (rate_max - rate_min) x u`` rounded down to 4 places. Anyone
    can recompute it; no one can pick it for a user."""
    digest = hashlib.sha256(f"mining:{product_id}:{day}".encode()).digest()
    fraction = Decimal(int.from_bytes(digest[:8], "big")) / Decimal(2**64)
    return max(rate_min, floor(rate_min + (rate_max - rate_min) * fraction, RATE_PLACES))


def order_rate(published: Decimal, rate_min: Decimal, rate_max: Decimal) -> Decimal:
    """The day's rate for an order: the published one, within the range copied onto the order (a range
    changed later never takes an order outside its own terms)."""
    return min(max(published, rate_min), rate_max)


def day_yield(nums: Decimal, rate: Decimal, places: int) -> Decimal:
    """One day's yield: ``nums x rate / 100``, rounded down to ``places``."""
    return floor(nums * rate / 100, places)


def penalty_of(nums: Decimal, penalty_rate: Decimal, remaining: int, places: int) -> Decimal:
    """The early-exit penalty: ``penalty_rate % x remaining days x nums``, rounded down to ``places``
    and never more than ``nums`` (the spec's example: 0.4 % x 3 x 1000 = 12)."""
    return min(nums, floor(nums * penalty_rate / 100 * max(remaining, 0), places))


def mid_yield(rate_min: Decimal, rate_max: Decimal, days: int) -> Decimal:
    """``yuji``: the yield over the cycle in percent at the mid rate."""
    return (rate_min + rate_max) / 2 * days


async def publish(product: MiningProduct, day: int) -> Decimal:
    """The product's rate of ``day``, stored first if it was not (the stored one never changes)."""
    found: Decimal | None = await scalar(
        MiningRate.filter(product_id=product.id, day=day).first().values_list("rate", flat=True)
    )
    if found is not None:
        return found
    rate = derived_rate(product.id, day, product.rate_min, product.rate_max)
    try:
        await MiningRate.create(product_id=product.id, day=day, rate=rate)
    except IntegrityError:  # published meanwhile by another run: that one stands
        pass
    return (await MiningRate.get(product_id=product.id, day=day)).rate


async def published(product_ids: list[int], day: int) -> dict[int, Decimal]:
    """The rates published for ``day``, by product (only those stored)."""
    rows = await MiningRate.filter(product_id__in=product_ids, day=day).values_list("product_id", "rate")
    return dict(rows)


def product_public(product: MiningProduct) -> dict[str, Any]:
    return {
        "id": product.id,
        "title": product.title,
        "logo": product.logo,
        "shouyi": f"{money(product.rate_min)}-{money(product.rate_max)}",
        "rate_min": money(product.rate_min),
        "rate_max": money(product.rate_max),
        "zhouqi": product.zhouqi,
        "mins": money(product.mins),
        "maxs": money(product.maxs),
        "penalty_rate": money(product.penalty_rate),
        "status": product.status,
        "yuji": money(mid_yield(product.rate_min, product.rate_max, product.zhouqi)),
    }


async def currency_of(type_: int) -> Currency:
    """The currency of an order's ``type`` (1 USDT, 2 ACB, 3 MVBT); MINING_TYPE_INVALID otherwise."""
    code = TYPES.get(type_)
    currency = await Currency.get_or_none(code=code) if code else None
    if currency is None or str(int(FINANCIAL)) not in currency.account_types.split(","):
        raise DomainError(ErrorCode.MINING_TYPE_INVALID)
    return currency


async def buy(*, uid: int, product_id: int, type_: int, nums: Decimal, day: int) -> MiningOrder:
    """Hold ``nums`` of the type's currency from the financial balance in the product, bought on ``day``.

    Raises MINING_PRODUCT_NOT_FOUND, MINING_NOT_OPEN, MINING_TYPE_INVALID, MINING_BELOW_MIN (with
    ``min``), MINING_ABOVE_MAX (with ``max``) and INSUFFICIENT_BALANCE; durable on return."""
    product = await MiningProduct.get_or_none(id=product_id)
    if product is None:
        raise DomainError(ErrorCode.MINING_PRODUCT_NOT_FOUND)
    if product.status != IN_PROGRESS:
        raise DomainError(ErrorCode.MINING_NOT_OPEN)
    currency = await currency_of(type_)
    if nums < product.mins:
        raise DomainError(ErrorCode.MINING_BELOW_MIN, min=money(product.mins))
    if nums > product.maxs:
        raise DomainError(ErrorCode.MINING_ABOVE_MAX, max=money(product.maxs))
    order_id = await ids.next()
    ref = f"mn{order_id}:buy"
    memo = f"{product.title} #{order_id}: principal held"
    change = Change(uid, currency.id, FINANCIAL, -nums, nums, LOG_MINING, ref, memo, {"mining_order_id": order_id})

    async def write(conn: Any) -> None:
        await MiningOrder.create(id=order_id, user_id=uid, product_id=product.id, type=type_, currency_id=currency.id,
                                 nums=nums, rate_min=product.rate_min, rate_max=product.rate_max, zhouqi=product.zhouqi,
                                 penalty_rate=product.penalty_rate, start_day=day, end_day=day + product.zhouqi,
                                 using_db=conn)  # fmt: skip

    await move([change], [], write)
    return await MiningOrder.get(id=order_id)


async def _book(order: MiningOrder, day: int, places: int) -> bool:
    """Pay one day's yield into the balance (the house pays it). False if it was booked before."""
    product = await MiningProduct.get(id=order.product_id)
    rate = order_rate(await publish(product, day), order.rate_min, order.rate_max)
    index, amount = day - order.start_day, day_yield(order.nums, rate, places)
    uid, currency_id = order.user_id, order.currency_id
    ref = f"mn{order.id}:d{day}"
    memo = f"mining #{order.id}: yield of {day_text(day)} at {money(rate)}%"
    extra = {"mining_order_id": order.id, "day": day_text(day), "rate": money(rate)}
    changes = [Change(uid, currency_id, FINANCIAL, amount, ZERO, LOG_MINING, ref, memo, extra)] if amount else []

    async def write(conn: Any) -> None:
        row = await locked(MiningOrder, order.id, conn)
        if row.status != EarnStatus.ACTIVE or row.days_booked != index - 1:
            raise Stale
        await EarnAccrual.create(kind=KIND, order_id=order.id, day=day, rate=rate, amount=amount, using_db=conn)
        await MiningOrder.filter(id=order.id).using_db(conn).update(earned=row.earned + amount, days_booked=index)

    return await move(changes, [HouseRow(EARN_INTEREST, currency_id, -amount, ref, uid, order.id)], write)


async def _end(order: MiningOrder, penalty: Decimal, status: EarnStatus, ref: str, memo: str) -> bool:
    """Release the principal from the lock, less ``penalty`` (kept by the house). False if the order is
    no longer in the state it was read in (a day booked meanwhile, or ended)."""
    uid, currency_id = order.user_id, order.currency_id
    returned = order.nums - penalty
    change = Change(uid, currency_id, FINANCIAL, returned, -order.nums, LOG_MINING, ref, memo,
                    {"mining_order_id": order.id, "penalty": money(penalty)})  # fmt: skip

    async def write(conn: Any) -> None:
        row = await locked(MiningOrder, order.id, conn)
        if row.status != EarnStatus.ACTIVE or row.days_booked != order.days_booked:
            raise Stale
        await MiningOrder.filter(id=order.id).using_db(conn).update(status=status, penalty=penalty, returned=returned,
                                                                    ended_at=datetime.now(UTC))  # fmt: skip

    return await move([change], [HouseRow(EARN_PENALTY, currency_id, penalty, ref, uid, order.id)], write)


async def _mature(order: MiningOrder) -> bool:
    if order.days_booked != order.zhouqi:
        return False
    memo = f"mining #{order.id}: cycle ended, principal returned"
    return await _end(order, ZERO, EarnStatus.ENDED, f"mn{order.id}:end", memo)


async def settle(order_id: int, through: int, places: int) -> tuple[int, bool]:
    """Pay the order's days up to ``through`` and return its principal when its cycle is over."""

    async def load() -> MiningOrder:
        return await MiningOrder.get(id=order_id)

    return await catch_up(load, lambda o, d: _book(o, d, places), _mature, through)


async def cancel(*, uid: int, order_id: int, day: int) -> MiningOrder:
    """End the user's active order on ``day``: the days already over are paid first, then the principal
    returns less the penalty for the days left. An order whose cycle is already over matures instead
    (no penalty). Raises MINING_ORDER_NOT_FOUND (not the user's) and MINING_ORDER_ENDED."""
    order = await MiningOrder.get_or_none(id=order_id, user_id=uid)
    if order is None:
        raise DomainError(ErrorCode.MINING_ORDER_NOT_FOUND)
    if order.status != EarnStatus.ACTIVE:
        raise DomainError(ErrorCode.MINING_ORDER_ENDED)
    places = await places_of(order.currency_id)
    for _ in range(5):  # a day booked by the Scheduler in between makes the cancel read the order again
        await settle(order_id, day - 1, places)
        order = await MiningOrder.get(id=order_id)
        if order.status != EarnStatus.ACTIVE:
            return order
        penalty = penalty_of(order.nums, order.penalty_rate, order.zhouqi - order.days_booked, places)
        memo = f"mining #{order.id}: cancelled, penalty {money(penalty)}"
        if await _end(order, penalty, EarnStatus.CANCELLED, f"mn{order.id}:cancel", memo):
            break
    return await MiningOrder.get(id=order_id)


async def run_day(day: int) -> dict[str, int]:
    """The Scheduler's run of ``day`` (once it is over): every product in progress publishes its rate
    of ``day`` (if not yet) and of the day after (shown as today's), then every active order is paid
    what it owes up to ``day`` (days missed before included) and returns its principal if its cycle
    ended. Idempotent."""
    published_now = 0
    for product in await MiningProduct.filter(status=IN_PROGRESS):
        for when in (day, day + 1):
            if not await MiningRate.filter(product_id=product.id, day=when).exists():
                await publish(product, when)
                published_now += 1
    booked, matured = await run_active(MiningOrder, day, settle)
    return {"published": published_now, "booked": booked, "matured": matured}


def order_public(row: MiningOrder, title: str, currency_code: str) -> dict[str, Any]:
    """An order as the API shows it."""
    return {
        "id": row.id,
        "product_id": row.product_id,
        "title": title,
        "shouyi": f"{money(row.rate_min)}-{money(row.rate_max)}",
        "zhouqi": row.zhouqi,
        "times": int(row.created_at.timestamp() * 1000),
        "type": row.type,
        "currency_code": currency_code,
        "nums": money(row.nums),
        "days": row.days_booked,
        "total": money(row.earned),
        "penalty_rate": money(row.penalty_rate),  # the order's own, copied at the buy
        "penalty": money(row.penalty),
        "returned": money(row.returned),
        "status": int(row.status),
        "start_date": day_text(row.start_day + 1),
        "end_date": day_text(row.end_day),
    }


Value = Callable[[Decimal, str], Decimal]  # an amount of a currency (code) -> its USDT value


async def summary(uid: int | None, day: int, value: Value) -> dict[str, str | int]:
    """The user's mining at a glance, valued in USDT: ``total`` principal held in active orders,
    ``today`` the yield expected for ``day`` (its published rate, or the mid rate before it is
    published), ``shouyi`` everything earned so far, ``nums`` active orders. Zeros when logged out."""
    if uid is None:
        return {"total": "0", "today": "0", "shouyi": "0", "nums": 0}
    rows = await MiningOrder.filter(user_id=uid).prefetch_related("currency")
    active = [r for r in rows if r.status == EarnStatus.ACTIVE]
    rates = await published(sorted({r.product_id for r in active}), day)
    today = ZERO
    for r in active:
        if r.start_day < day <= r.end_day:
            rate = rates.get(r.product_id, (r.rate_min + r.rate_max) / 2)
            rate = order_rate(rate, r.rate_min, r.rate_max)
            today += value(day_yield(r.nums, rate, r.currency.decimals), r.currency.code)
    return {
        "total": money(sum((value(r.nums, r.currency.code) for r in active), ZERO)),
        "today": money(today),
        "shouyi": money(sum((value(r.earned, r.currency.code) for r in rows), ZERO)),
        "nums": len(active),
    }
