"""MicroTimer shards against real Ray, PostgreSQL and Redis: contracts whose shards are down at their end
are settled when the shards come back, from the ticks at their own end time (not the mark at
restart), once; a shard's status reports what it holds and how late it settled."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from decimal import Decimal

import httpx
import pytest
import ray

from actors.names import micro_name
from serve.stack import Stack
from store import micro, ticks
from store.models import AccountLog, AccountType, CurrencyMatch, MicroOrder, MicroStatus
from tests.utils.prices import live_mark, mark_to
from tests.utils.users import Member, member
from tests.utils.wallets import USDT, fund

ETH_USDT = 2  # no other test stakes on it
SECONDS = 6


@pytest.fixture
async def eth(db: None) -> AsyncIterator[None]:
    row = await CurrencyMatch.get(id=ETH_USDT)
    saved = (row.micro_seconds, row.open_microtrade)
    await CurrencyMatch.filter(id=ETH_USDT).update(micro_seconds=f"{SECONDS}:90", open_microtrade=True)
    try:
        yield
    finally:
        await CurrencyMatch.filter(id=ETH_USDT).update(micro_seconds=saved[0], open_microtrade=saved[1])


def stake(api: httpx.Client, m: Member, kind: int) -> dict:
    body = {"match_id": ETH_USDT, "currency_id": USDT, "type": kind, "lx": 2, "seconds": SECONDS, "number": "10"}
    deadline = time.monotonic() + 5
    while True:  # the timers take up a pair opened a moment ago within a second or two
        answer = api.post("microtrade/submit", json=body, headers=m.auth).json()
        if answer["code"] == 1 or time.monotonic() > deadline:
            assert answer["code"] == 1, answer
            return answer["data"]
        time.sleep(0.2)


def price_now(api: httpx.Client) -> Decimal:
    mark = live_mark(api, ETH_USDT)
    return Decimal(mark["price"]) if mark else Decimal(3500)


async def test_overdue_contracts_settle_from_the_ticks_at_their_end(stack: Stack, api: httpx.Client, eth: None) -> None:
    player, seller, buyer = member(api), member(api), member(api)
    await fund(player, "USDT", "1000", AccountType.MICRO)
    await fund(seller, "ETH", "1000")
    await fund(buyer, "USDT", "100000000")
    start = await asyncio.to_thread(price_now, api)
    await asyncio.to_thread(mark_to, api, seller, buyer, ETH_USDT, start, "100")  # a live mark to stake on
    placed = [await asyncio.to_thread(stake, api, player, kind) for kind in (1, 2, 1, 2)]
    await asyncio.to_thread(mark_to, api, seller, buyer, ETH_USDT, start + Decimal(1), "100")  # entries
    await asyncio.to_thread(mark_to, api, seller, buyer, ETH_USDT, start + Decimal(2), "100")  # the exits
    timers = [ray.get_actor(micro_name(i)) for i in range(stack.settings.micro_shards)]
    for timer in timers:
        ray.kill(timer, no_restart=True)
    try:
        rows = await MicroOrder.filter(id__in=[p["id"] for p in placed])
        await asyncio.sleep(max(0, max(r.accepted_ms for r in rows) / 1000 + SECONDS + 1 - time.time()))
        # After every end: the market falls below where it started; a settlement at restart would see it.
        await asyncio.to_thread(mark_to, api, seller, buyer, ETH_USDT, start - Decimal(5), "100")
        await asyncio.sleep(1)
        assert await MicroOrder.filter(id__in=[r.id for r in rows], status=MicroStatus.OPEN).count() == 4
    finally:
        stack._start_lever(stack.settings.model_dump(mode="json"), stack.settings.lever_shards)
    deadline = time.monotonic() + 30
    while await MicroOrder.filter(id__in=[r.id for r in rows], status=MicroStatus.OPEN).exists():
        assert time.monotonic() < deadline, "the restarted timers did not settle the overdue contracts"
        await asyncio.sleep(0.3)
    for row in await MicroOrder.filter(id__in=[r.id for r in rows]):
        at_end = await ticks.tick_at(ETH_USDT, row.end_ms)
        assert row.exit_tick_id == at_end.id and row.end_price == at_end.price != start - Decimal(5)
        up = row.end_price > row.open_price
        assert row.outcome == ("win" if up == (row.type == 1) else "loss"), row.outcome
        assert int(row.settled_at.timestamp() * 1000) > row.end_ms + 1000  # overdue: settled by the new shard
        refs = await AccountLog.filter(ref=f"m{row.id}:settle").count()
        assert refs == 1
    status = await ray.get_actor(micro_name(0)).status.remote()
    assert status["healthy"] and status["open"] >= 0 and status["settled"] >= 0
    assert await micro.switched_on()
