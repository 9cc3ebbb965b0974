"""Kill the Scheduler again and again while its clock moves through a simulated month of lock savings
and mining (buys on the way, some mining orders cancelled while the Scheduler books them): every
(order, day) is booked exactly once, in the journal and the house ledger as well, every order ends
with what the rules give it, and money is conserved exactly."""

from __future__ import annotations

import asyncio
import random
from decimal import Decimal
from typing import Any

import httpx
import ray
from ray.exceptions import RayActorError

from serve.stack import Stack
from store.earn import FINANCIAL, lock, mining
from store.models import (
    AccountLog,
    EarnAccrual,
    EarnStatus,
    HouseLedger,
    LockOrder,
    MiningOrder,
    MiningProduct,
    MiningRate,
    SchedulerRun,
)
from tests.utils.earn import EarnScheduler, held, offset_to, today
from tests.utils.users import Member, member, ok
from tests.utils.wallets import USDT, fund, system_totals

D = Decimal
USERS = 4
MONTH = 31
FUNDED = D(100_000)
LOCK_7, LOCK_30 = 1, 2  # seeded: 100 USDT for 7 days at 5 %, 500 for 30 days at 8 %
POOL_5, POOL_15 = 1, 2  # seeded: 0.3-0.4 % for 5 days from 100, 0.5-0.6 % for 15 days from 1000


def first_orders(api: httpx.Client, users: list[Member]) -> None:
    """The month's first orders, through the API: a 30-day lock and a 5-day mining order each."""
    for m in users:
        ok(api.post("storage_currency/submit_lock", json={"id": LOCK_30}, headers=m.auth))
        ok(api.post("mining/buy", json={"id": POOL_5, "nums": "1000", "type": 1}, headers=m.auth))


async def buy_on(day: int, uids: list[int]) -> None:
    """Buys made on a simulated day (dated on it, as the API dates a buy on the Scheduler's clock): a
    7-day lock each, and mining for 15 or 5 days; every order of the month ends within it."""
    for i, uid in enumerate(uids):
        await lock.buy(uid=uid, product_id=LOCK_7, day=day)
        product = POOL_15 if i % 2 == 0 else POOL_5
        await mining.buy(uid=uid, product_id=product, type_=1, nums=D(1000 + 250 * i), day=day)


async def kill_loop(clock: EarnScheduler, start: int, uids: list[int], rng: random.Random) -> dict[int, int]:
    """Move the clock a day at a time through the month, killing the Scheduler while it books; buy on
    some days and cancel some mining orders. Returns the cancelled orders with the day of their cancel."""
    cancelled: dict[int, int] = {}
    for day in range(start + 1, start + MONTH + 1):
        moved = clock.handle.set_clock.remote(offset_to(day, 1))  # day-1 is over: its run starts
        await asyncio.sleep(rng.uniform(0, 0.3))
        ray.kill(clock.handle, no_restart=False)  # as a crash would: Ray restarts it and it catches up
        if day in (start + 3, start + 9):
            await buy_on(day, uids)
        if day in (start + 4, start + 11):
            active = (
                await MiningOrder.filter(user_id__in=uids, status=EarnStatus.ACTIVE, end_day__gt=day)
                .order_by("id")
                .limit(2)
            )
            for order in active:  # cancelled while the restarted Scheduler books the same orders
                ended = await mining.cancel(uid=order.user_id, order_id=order.id, day=day)  # type: ignore[attr-defined]
                if ended.status == EarnStatus.CANCELLED:
                    cancelled[order.id] = day
        try:
            await moved  # retried on the restarted actor
        except RayActorError:
            pass
        if rng.random() < 0.3:
            await clock.wait_through(day - 1)  # now and then the killed one finishes first
    return cancelled


async def test_a_month_of_kills_books_every_order_day_exactly_once(stack: Stack, api: httpx.Client, db: None) -> None:
    users = [member(api) for _ in range(USERS)]
    uids = [m.uid for m in users]
    for m in users:
        await fund(m, "USDT", str(FUNDED), FINANCIAL)
    before, held_before = await system_totals(), await held(uids)
    assert held_before == {USDT: FUNDED * USERS}
    start = today()
    await asyncio.to_thread(first_orders, api, users)
    clock = EarnScheduler(stack.settings)
    clock.start()
    try:
        await clock.wait_through(start - 1)  # its first run: the day before (later days follow it in order)
        cancelled = await kill_loop(clock, start, uids, random.Random(13))
        await clock.wait_through(start + MONTH - 1, seconds=300)
        await clock.handle.run_due.remote()
        runs = await SchedulerRun.filter(job__in=clock.jobs, day__gte=start, day__lt=start + MONTH).values_list(
            "job", "day", "done"
        )
        assert sorted(runs) == sorted((job, d, True) for job in clock.jobs for d in range(start, start + MONTH))
    finally:
        await clock.stop()

    locks = await LockOrder.filter(user_id__in=uids)
    mines = await MiningOrder.filter(user_id__in=uids)
    assert len(locks) == len(mines) == USERS * 3 and len(cancelled) == 4
    for order in locks:
        days = list(range(order.start_day + 1, order.end_day + 1))
        daily = lock.daily_interest(order.amount, order.display_rate, 6)
        await booked_once(order, "lock", "lk", days, [daily] * len(days))
        assert order.status == EarnStatus.ENDED and order.accrued == daily * order.limit_days
    for order in mines:
        end = cancelled[order.id] - 1 if order.id in cancelled else order.end_day
        days = list(range(order.start_day + 1, end + 1))
        rates = dict(await MiningRate.filter(product_id=order.product_id, day__in=days).values_list("day", "rate"))  # type: ignore[attr-defined]
        product = await MiningProduct.get(id=order.product_id)  # type: ignore[attr-defined]
        assert [rates[d] for d in days] == [mining.derived_rate(product.id, d, product.rate_min, product.rate_max)
                                            for d in days]  # fmt: skip
        await booked_once(order, "mining", "mn", days, [mining.day_yield(order.nums, rates[d], 6) for d in days])
        if order.id in cancelled:
            penalty = mining.penalty_of(order.nums, order.penalty_rate, order.zhouqi - len(days), 6)
            assert (order.status, order.penalty, order.returned) == (
                EarnStatus.CANCELLED,
                penalty,
                order.nums - penalty,
            )
            assert await HouseLedger.filter(ref=f"mn{order.id}:cancel", kind="earn_penalty", amount=penalty).exists()
        else:
            assert (order.status, order.penalty, order.returned) == (EarnStatus.ENDED, 0, order.nums)

    interest = sum((o.accrued for o in locks), D(0)) + sum((o.earned for o in mines), D(0))
    penalties = sum((o.penalty for o in mines), D(0))
    assert await system_totals() == before  # whatever the kills did, the house paid exactly what users got
    assert await held(uids) == held_before
    balances = await fund_state(uids)
    assert balances == (FUNDED * USERS + interest - penalties, D(0))  # every principal returned, every lock freed


async def booked_once(order: Any, kind: str, prefix: str, days: list[int], amounts: list[Decimal]) -> None:
    """The order's days are booked exactly once each: accrual rows, journal rows and house rows."""
    accruals = await EarnAccrual.filter(kind=kind, order_id=order.id).order_by("day").values_list("day", "amount")
    assert accruals == list(zip(days, amounts, strict=True)), order.id
    assert order.days_booked == len(days)
    refs = [f"{prefix}{order.id}:d{d}" for d, amount in zip(days, amounts, strict=True) if amount]
    journaled = await AccountLog.filter(ref__startswith=f"{prefix}{order.id}:d").values_list("ref", flat=True)
    assert sorted(journaled) == sorted(refs)
    paid = await HouseLedger.filter(ref__startswith=f"{prefix}{order.id}:d", kind="earn_interest").values_list(
        "ref", "amount"
    )
    assert sorted(paid) == sorted((f"{prefix}{order.id}:d{d}", -a) for d, a in zip(days, amounts, strict=True) if a)


async def fund_state(uids: list[int]) -> tuple[Decimal, Decimal]:
    from store.models import Account

    rows = await Account.filter(user_id__in=uids, account_type=FINANCIAL, currency_id=USDT).values_list(
        "balance", "lock_balance"
    )
    return sum((r[0] for r in rows), D(0)), sum((r[1] for r in rows), D(0))
