"""Kill the lever shards and the pair while the mark walks through open take-profits and stop-losses:
every trigger the tick log shows crossed fires exactly once, at the first tick that crossed it,
nothing that was not crossed fires, and lever money is conserved exactly."""

from __future__ import annotations

import asyncio
import time
from decimal import Decimal
from typing import Any

import httpx
import ray

from actors.lever.actor import lever_name
from actors.pair.actor import pair_name
from actors.wallet.legs import shard_of
from serve.stack import Stack
from store.lever import HOUSE_KINDS, LOG_TYPES
from store.models import AccountLog, AccountType, HouseLedger, LeverPosition, LeverStatus, MarkTick
from tests.utils.prices import mark_to
from tests.utils.users import member
from tests.utils.wallets import fund

BTC_USDT = 1
HOLDERS = 6
STEPS = (Decimal("1.006"), Decimal("0.995"), Decimal("1.012"), Decimal("0.988"), Decimal("1.018"), Decimal("1"))


def mark_now(api: httpx.Client) -> Decimal:
    return Decimal(api.get("market/mark", params={"currency_match_id": BTC_USDT}).json()["data"]["price"])


async def answers(name: str, within: float = 30) -> None:
    deadline = time.monotonic() + within
    while True:
        try:
            await asyncio.wait_for(ray.get_actor(name).ping.remote(), 2)
            return
        except Exception:
            assert time.monotonic() < deadline, f"{name} did not come back"
            await asyncio.sleep(0.2)


async def test_kills_during_a_price_walk_fire_each_crossed_trigger_once(stack: Stack, api: httpx.Client,
                                                                       db: None) -> None:  # fmt: skip
    holders = [member(api) for _ in range(HOLDERS)]
    seller, buyer = member(api), member(api)
    for m in holders:
        await fund(m, "USDT", "50000", AccountType.LEVER)
    await fund(seller, "BTC", "1000")
    await fund(buyer, "USDT", "100000000")
    start = await asyncio.to_thread(mark_now, api)
    placed: list[dict[str, Any]] = []
    for i, m in enumerate(holders):
        lever = ray.get_actor(lever_name(shard_of(m.uid, stack.settings.lever_shards)))
        for side in (1, 2):
            order = {"pair_id": BTC_USDT, "side": side, "hands": 1 + i % 3, "multiple": 5, "kind": "market",
                     "target": None}  # fmt: skip
            opened = await lever.submit.remote(m.uid, order)
            up, down = Decimal(1) + Decimal(i + 1) / 200, Decimal(1) - Decimal(i + 1) / 200  # 0.5 % .. 3 % away
            profit, loss = (up, down) if side == 1 else (down, up)
            await lever.setstop.remote(m.uid, opened["id"], (start * profit).quantize(Decimal(1)),
                                       (start * loss).quantize(Decimal(1)))  # fmt: skip
            placed.append(opened)
    victims = [lever_name(0), pair_name("BTC/USDT"), lever_name(1), lever_name(0), lever_name(1), pair_name("BTC/USDT")]
    for factor, victim in zip(STEPS, victims, strict=True):
        ray.kill(ray.get_actor(victim), no_restart=False)
        await answers(pair_name("BTC/USDT"))
        await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, (start * factor).quantize(Decimal(1)))
    for index in range(stack.settings.lever_shards):
        await answers(lever_name(index))
    last = await MarkTick.filter(currency_match_id=BTC_USDT).order_by("-seq").first()
    assert last is not None

    async def caught_up() -> bool:
        for index in range(stack.settings.lever_shards):
            status = await ray.get_actor(lever_name(index)).status.remote()
            if status["cursors"].get(BTC_USDT, 0) < last.seq:
                return False
        return True

    deadline = time.monotonic() + 60
    while not await caught_up():
        assert time.monotonic() < deadline, "the lever shards did not catch up with the tick log"
        await asyncio.sleep(0.5)

    fired = 0
    for opened in placed:
        row = await LeverPosition.get(id=opened["id"])
        long = row.type == 1
        after = MarkTick.filter(currency_match_id=BTC_USDT, seq__gt=row.stop_seq)
        tp = await (after.filter(price__gte=row.target_profit_price) if long else
                    after.filter(price__lte=row.target_profit_price)).order_by("seq").first()  # fmt: skip
        after = MarkTick.filter(currency_match_id=BTC_USDT, seq__gt=row.stop_seq)
        sl = await (after.filter(price__lte=row.stop_loss_price) if long else
                    after.filter(price__gte=row.stop_loss_price)).order_by("seq").first()  # fmt: skip
        first = min((t for t in (tp, sl) if t is not None), key=lambda t: t.seq, default=None)
        if first is None:
            assert row.status == LeverStatus.OPEN, row  # nothing crossed: still open
            continue
        assert row.status == LeverStatus.CLOSED, (row.id, first.seq)
        assert (row.close_reason, row.close_tick_id, row.close_price) == (
            "take_profit" if first is tp else "stop_loss", first.id, first.price)  # fmt: skip
        assert await AccountLog.filter(ref=f"lv{row.id}:close").count() == 1  # once
        fired += 1
    assert 0 < fired < len(placed), fired  # the walk crossed some triggers and left others

    journal = await AccountLog.filter(log_type__in=LOG_TYPES).values_list("amount", "lock_amount")
    house = await HouseLedger.filter(kind__in=HOUSE_KINDS).values_list("amount", flat=True)
    assert sum((a + lock for a, lock in journal), Decimal(0)) + sum(house, Decimal(0)) == 0
