"""Kill the lever shards and the pair while the mark walks through open take-profits and stop-losses:
every trigger the tick log shows crossed fires exactly once, at the first tick that crossed it,
nothing that was not crossed fires, and lever money is conserved exactly. And while overnight fees
eat an account's margin and the price then runs away: the insurance fund pays only real gaps."""

from __future__ import annotations

import asyncio
import time
from decimal import Decimal
from typing import Any

import httpx
import ray
from ray.exceptions import RayActorError

from actors.commands import LeverOrder
from actors.lever import terms
from actors.lever.state import DAY_MS
from actors.names import lever_name, pair_name
from actors.pair.directory import current
from actors.wallet.legs import shard_of
from serve.stack import Stack
from store.lever import HOUSE_KINDS, LOG_TYPES
from store.models import AccountLog, AccountType, HouseLedger, LeverPosition, LeverStatus, MarkTick
from tests.utils.prices import mark_to
from tests.utils.users import Member, member
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
            await asyncio.wait_for(ray.get_actor(current(name)).ping.remote(), 2)
            return
        except Exception:
            assert time.monotonic() < deadline, f"{name} did not come back"
            await asyncio.sleep(0.2)


async def overnight(name: str, day: int, within: float = 30) -> None:
    """The night's fees on shard ``name``, called again when the call met the actor restarting (as
    the Scheduler's job does): a night is charged once per position, so a repeat charges nothing."""
    deadline = time.monotonic() + within
    while True:
        await answers(name)
        try:
            await ray.get_actor(current(name)).overnight.remote(day)
            return
        except RayActorError:  # ActorUnavailableError too: restarting, the call may not have run
            assert time.monotonic() < deadline, f"{name} never took the night {day}"


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
            order = LeverOrder(pair_id=BTC_USDT, side=side, hands=1 + i % 3, multiple=5)
            opened = await lever.submit.remote(m.uid, order)
            up, down = Decimal(1) + Decimal(i + 1) / 200, Decimal(1) - Decimal(i + 1) / 200  # 0.5 % .. 3 % away
            profit, loss = (up, down) if side == 1 else (down, up)
            await lever.setstop.remote(m.uid, opened["id"], (start * profit).quantize(Decimal(1)),
                                       (start * loss).quantize(Decimal(1)))  # fmt: skip
            placed.append(opened)
    victims = [lever_name(0), pair_name("BTC/USDT"), lever_name(1), lever_name(0), lever_name(1), pair_name("BTC/USDT")]
    for factor, victim in zip(STEPS, victims, strict=True):
        ray.kill(ray.get_actor(current(victim)), no_restart=False)
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
        at = terms.close_price(first.price, row.point_rate, row.type, 4)  # that tick's mark less the spread
        assert (row.close_reason, row.close_tick_id, row.close_price) == (
            "take_profit" if first is tp else "stop_loss", first.id, at)  # fmt: skip
        assert await AccountLog.filter(ref=f"lv{row.id}:close").count() == 1  # once
        fired += 1
    assert 0 < fired < len(placed), fired  # the walk crossed some triggers and left others

    journal = await AccountLog.filter(log_type__in=LOG_TYPES).values_list("amount", "lock_amount")
    house = await HouseLedger.filter(kind__in=HOUSE_KINDS).values_list("amount", flat=True)
    assert sum((a + lock for a, lock in journal), Decimal(0)) + sum(house, Decimal(0)) == 0


NIGHTS = 24


async def lever_long(stack: Stack, api: httpx.Client, m: Member, multiple: int, spare: Decimal) -> dict[str, Any]:
    """``m`` opens a long of one hand at ``multiple``x with ``spare`` USDT beyond its margin and fee in
    the lever account (nothing else there)."""
    price = terms.open_price(await asyncio.to_thread(mark_now, api), Decimal("0.05"), 1, 4)
    fee = terms.fee(price, 1, Decimal("0.01"), Decimal("0.001"))
    await fund(m, "USDT", str(terms.margin(price, 1, Decimal("0.01"), multiple) + fee + spare), AccountType.LEVER)
    order = LeverOrder(pair_id=BTC_USDT, side=1, hands=1, multiple=multiple)
    return await ray.get_actor(lever_name(shard_of(m.uid, stack.settings.lever_shards))).submit.remote(m.uid, order)


async def test_overnight_fees_while_the_price_runs_away_cost_the_fund_only_real_gaps(stack: Stack, api: httpx.Client,
                                                                                   db: None) -> None:  # fmt: skip
    """A 100x long with nothing free pays an overnight fee every night while the mark stands in its
    favour, and the shards are killed on the way; then the price runs away below it. Its margin never
    goes below its floor: the night it would, it is liquidated at what a close pays, so the fall finds
    nothing of it. A 200x long opened before the fall goes through its liquidation price in one jump:
    the fund pays that gap, and only once the account is emptied. Lever money is conserved exactly."""
    seller, buyer, fan, gambler = member(api), member(api), member(api), member(api)
    await fund(seller, "BTC", "1000")
    await fund(buyer, "USDT", "100000000")
    start = await asyncio.to_thread(mark_now, api)
    shards = stack.settings.lever_shards
    held = await lever_long(stack, api, fan, 100, Decimal(0))
    up = (start * Decimal("1.006")).quantize(Decimal(1))
    await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, up)

    # the margin's floor: the liquidation level's share (50 %) of what it opened with, rounded up
    level = stack.settings.lever_liquidation_level
    floor = (Decimal(held["caution_money"]) * level / 100).quantize(Decimal("0.000001"), "ROUND_CEILING")
    tomorrow = int(time.time() * 1000) // DAY_MS + 1
    for night in range(NIGHTS):
        if night % 8 == 4:
            ray.kill(ray.get_actor(lever_name(night // 8 % shards)), no_restart=False)
        for index in range(shards):
            await overnight(lever_name(index), tomorrow + night)
        row = await LeverPosition.get(id=held["id"])
        if row.status == LeverStatus.OPEN:  # liquidatable every night: a margin at its floor at least
            assert row.caution_money >= floor > 0, (night, row.caution_money)
    row = await LeverPosition.get(id=held["id"])
    assert (row.status, row.close_reason) == (LeverStatus.CLOSED, "liquidation"), (row.status, row.caution_money)
    assert row.close_price == terms.close_price(up, row.point_rate, 1, 4)  # what a close paid that night

    gamble = await lever_long(stack, api, gambler, 200, Decimal(1))
    for factor, victim in ((Decimal("0.99"), 0), (Decimal("0.975"), 1), (Decimal("0.96"), None)):
        if victim is not None:
            ray.kill(ray.get_actor(lever_name(victim % shards)), no_restart=False)
        await answers(pair_name("BTC/USDT"))
        await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, (start * factor).quantize(Decimal(1)))
    for index in range(shards):
        await answers(lever_name(index))
    deadline = time.monotonic() + 60
    while (await LeverPosition.get(id=gamble["id"])).status != LeverStatus.CLOSED:
        assert time.monotonic() < deadline, "the 200x long was not liquidated"
        await asyncio.sleep(0.5)

    # the fund paid only where an account was emptied by a price that jumped past its liquidation
    paid = await HouseLedger.filter(kind="insurance", amount__lt=0, user_id__in=[fan.uid, gambler.uid])
    assert [p.user_id for p in paid] == [gambler.uid]  # type: ignore[attr-defined]
    event = await AccountLog.get(ref=paid[0].ref.removesuffix(":insurance"))
    assert event.balance_after == 0
    journal = await AccountLog.filter(log_type__in=LOG_TYPES).values_list("amount", "lock_amount")
    house = await HouseLedger.filter(kind__in=HOUSE_KINDS).values_list("amount", flat=True)
    assert sum((a + lock for a, lock in journal), Decimal(0)) + sum(house, Decimal(0)) == 0
