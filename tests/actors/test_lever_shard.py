"""The LeverShard through Ray with the real pairs and their mark ticks: a market open holds its
margin and pays its fee to the house, an entrustment fills when the mark reaches it, a take-profit
closes at the mark that crossed it less the spread, an account at the liquidation level is liquidated with the
insurance fund covering the gap, and the money of it all is conserved."""

from __future__ import annotations

import asyncio
import time
from decimal import Decimal
from typing import Any

import httpx
import pytest
import ray

from actors.commands import LeverOrder
from actors.lever.state import DAY_MS
from actors.names import lever_name
from actors.wallet.legs import shard_of
from serve.stack import Stack
from store.lever import HOUSE_KINDS, LOG_TYPES
from store.models import Account, AccountLog, AccountType, HouseLedger, LeverPosition, LeverStatus, MarkTick
from tests.utils.prices import mark_to
from tests.utils.users import Member, member
from tests.utils.wallets import USDT, fund

BTC_USDT, ETH_USDT = 1, 2


def shard(stack: Stack, uid: int) -> Any:
    return ray.get_actor(lever_name(shard_of(uid, stack.settings.lever_shards)))


@pytest.fixture
async def traders(api: httpx.Client, db: None) -> tuple[Member, Member, Member]:
    """Someone to hold positions (10,000 USDT in the lever account) and two who move the mark."""
    holder, seller, buyer = member(api), member(api), member(api)
    await fund(holder, "USDT", "10000", AccountType.LEVER)
    await fund(seller, "BTC", "100")
    await fund(buyer, "USDT", "10000000")
    return holder, seller, buyer


def current(api: httpx.Client) -> Decimal:
    return Decimal(api.get("market/mark", params={"currency_match_id": BTC_USDT}).json()["data"]["price"])


async def until(check: Any, what: str, within: float = 20) -> Any:
    deadline = time.monotonic() + within
    while not (found := await check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.2)
    return found


async def lever_account(uid: int) -> tuple[Decimal, Decimal]:
    row = await Account.get(user_id=uid, currency_id=USDT, account_type=AccountType.LEVER)
    return row.balance, row.lock_balance


async def test_open_take_profit_and_the_house(stack: Stack, api: httpx.Client, traders: tuple[Member, ...]) -> None:
    holder, seller, buyer = traders
    lever = shard(stack, holder.uid)
    start = await asyncio.to_thread(current, api)
    order = LeverOrder(pair_id=BTC_USDT, side=1, hands=2, multiple=10)
    opened = await lever.submit.remote(holder.uid, order)
    assert opened["status"] == 1 and opened["share"] == 2 and opened["multiple"] == 10
    price = Decimal(opened["price"])
    assert price == (start * Decimal("1.0005")).quantize(Decimal("0.0001"), "ROUND_CEILING")  # mark + 0.05 % spread
    margin, fee = Decimal(opened["caution_money"]), Decimal(opened["trade_fee"])
    assert margin == (price * Decimal("0.02") / 10).quantize(Decimal("0.000001"), "ROUND_CEILING")
    assert await lever_account(holder.uid) == (Decimal(10000) - margin - fee, margin)
    assert await HouseLedger.get(ref=f"lv{opened['id']}:open:lever_fee").values_list("amount", flat=True) == fee

    target = (start * Decimal("1.02")).quantize(Decimal(1))
    stopped = await lever.setstop.remote(holder.uid, opened["id"], target, None)
    assert Decimal(stopped["target_profit_price"]) == target
    await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, target)

    async def closed() -> LeverPosition | None:
        row = await LeverPosition.get(id=opened["id"])
        return row if row.status == LeverStatus.CLOSED else None

    row = await until(closed, "the take-profit to close the position")
    at = (target * Decimal("0.9995")).quantize(Decimal("0.0001"), "ROUND_FLOOR")  # the spread, as a market close
    assert (row.close_reason, row.close_price) == ("take_profit", at)
    profit = ((at - price) * Decimal("0.02")).quantize(Decimal("0.000001"), "ROUND_FLOOR")
    assert row.profits == profit and row.close_tick_id > 0
    assert await lever_account(holder.uid) == (Decimal(10000) - fee + profit, 0)
    pnl = await HouseLedger.get(ref=f"lv{opened['id']}:close:lever_pnl")
    assert pnl.amount == -profit  # the house paid the profit
    logs = await AccountLog.filter(user_id=holder.uid, account_type=AccountType.LEVER).values_list(
        "log_type", flat=True
    )
    assert {"lever_open", "lever_close"} <= set(logs)


async def test_an_entrustment_fills_when_the_mark_reaches_it(stack: Stack, api: httpx.Client,
                                                             traders: tuple[Member, ...]) -> None:  # fmt: skip
    holder, seller, buyer = traders
    lever = shard(stack, holder.uid)
    start = await asyncio.to_thread(current, api)
    target = (start * Decimal("1.01")).quantize(Decimal(1))  # a short, above the market
    order = LeverOrder(pair_id=BTC_USDT, side=2, hands=1, multiple=20, target=target)
    entrusted = await lever.submit.remote(holder.uid, order)
    assert entrusted["status"] == 0 and Decimal(entrusted["frozen"]) > 0
    await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, target + 5)

    async def filled() -> LeverPosition | None:
        row = await LeverPosition.get(id=entrusted["id"])
        return row if row.status == LeverStatus.OPEN else None

    row = await until(filled, "the entrustment to open")
    assert row.price >= target  # never worse than its target
    assert row.frozen == 0 and row.caution_money > 0 and row.open_tick_id > 0
    closed = await lever.close.remote(holder.uid, row.id)
    assert closed["status"] == 3 and closed["close_reason"] == "manual"
    assert (await lever_account(holder.uid))[1] == 0


async def test_an_account_at_the_level_is_liquidated_and_the_fund_pays_the_gap(
    stack: Stack, api: httpx.Client, traders: tuple[Member, ...]
) -> None:
    holder, seller, buyer = traders
    lever = shard(stack, holder.uid)
    await lever.transfer.remote(holder.uid, USDT, Decimal("9990"), int(AccountType.LEVER), int(AccountType.CHANGE),
                                f"x-liq-{holder.uid}")  # fmt: skip
    start = await asyncio.to_thread(current, api)
    order = LeverOrder(pair_id=BTC_USDT, side=1, hands=1, multiple=200)
    opened = await lever.submit.remote(holder.uid, order)
    margin = Decimal(opened["caution_money"])
    assert Decimal((await lever.overview.remote(holder.uid))["hazard_rate"]) > 50
    crash = (start * Decimal("0.97")).quantize(Decimal(1))  # -3 % at 200x: far past the margin
    await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, crash)

    async def liquidated() -> LeverPosition | None:
        row = await LeverPosition.get(id=opened["id"])
        return row if row.status == LeverStatus.CLOSED else None

    row = await until(liquidated, "the liquidation")
    assert row.close_reason == "liquidation" and row.profits < -margin
    balance, lock = await lever_account(holder.uid)
    assert balance >= 0 and lock == 0  # never negative: the fund paid what the account could not
    insurance = await HouseLedger.filter(user_id=holder.uid, kind="insurance").values_list("amount", flat=True)
    assert sum(insurance, Decimal(0)) < 0


async def test_lever_money_is_conserved(stack: Stack, db: None) -> None:
    """Every lever journal row and house ledger row sums to zero (what users pay the house gets)."""
    journal = await AccountLog.filter(log_type__in=LOG_TYPES).values_list("amount", "lock_amount")
    house = await HouseLedger.filter(kind__in=HOUSE_KINDS).values_list("amount", flat=True)
    assert journal, "the tests above moved lever money"
    assert sum((a + lock for a, lock in journal), Decimal(0)) + sum(house, Decimal(0)) == 0


async def test_a_restarted_shard_fires_what_the_mark_crossed_while_it_was_down(
    stack: Stack, api: httpx.Client, traders: tuple[Member, ...]
) -> None:
    holder, seller, buyer = traders
    lever = shard(stack, holder.uid)
    start = await asyncio.to_thread(current, api)
    order = LeverOrder(pair_id=BTC_USDT, side=1, hands=1, multiple=5)
    opened = await lever.submit.remote(holder.uid, order)
    stop = (start * Decimal("0.99")).quantize(Decimal(1))
    await lever.setstop.remote(holder.uid, opened["id"], None, stop)
    ray.kill(lever, no_restart=False)  # down while the mark falls through the stop-loss and comes back
    await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, stop - 10)
    await asyncio.to_thread(mark_to, api, seller, buyer, BTC_USDT, start)

    async def closed() -> LeverPosition | None:
        row = await LeverPosition.get(id=opened["id"])
        return row if row.status == LeverStatus.CLOSED else None

    row = await until(closed, "the restarted shard to replay the ticks", within=60)
    at = ((stop - 10) * Decimal("0.9995")).quantize(Decimal("0.0001"), "ROUND_FLOOR")  # less the spread
    assert row.close_reason == "stop_loss" and row.close_price == at
    crossing = (
        await MarkTick.filter(currency_match_id=BTC_USDT, seq__gt=row.stop_seq, price__lte=stop).order_by("seq").first()
    )
    assert crossing is not None and row.close_tick_id == crossing.id  # the first tick that crossed it, once
    assert await AccountLog.filter(ref=f"lv{row.id}:close").count() == 1


async def test_a_cross_margin_account_falls_to_its_other_pairs_move_while_the_shard_is_down(
    stack: Stack, api: httpx.Client, traders: tuple[Member, ...]
) -> None:
    """A long on BTC and a short on ETH share one lever account; only ETH rises, while the shard is
    down: the restarted shard arms the account at the marks it loads and liquidates it on the ETH
    tick that takes it to the level, closing the BTC long too."""
    holder, seller, buyer = traders
    await fund(seller, "ETH", "100")
    lever = shard(stack, holder.uid)
    await lever.transfer.remote(holder.uid, USDT, Decimal("9900"), int(AccountType.LEVER), int(AccountType.CHANGE),
                                f"x-cross-{holder.uid}")  # fmt: skip
    btc = await lever.submit.remote(holder.uid, LeverOrder(pair_id=BTC_USDT, side=1, hands=1, multiple=20))
    eth = await lever.submit.remote(holder.uid, LeverOrder(pair_id=ETH_USDT, side=2, hands=1, multiple=20))
    view = await lever.overview.remote(holder.uid)
    free, margins, eth_mark = Decimal(view["balance"]), Decimal(view["margins"]), Decimal(view["marks"][ETH_USDT])
    # the ETH short loses free + margins / 2 (the level, 50 %) at this rise; go a fifth past it
    rise = (free + margins / 2) / Decimal(eth["number"]) * Decimal("1.2")
    ray.kill(lever, no_restart=False)
    await asyncio.to_thread(mark_to, api, seller, buyer, ETH_USDT, (eth_mark + rise).quantize(Decimal(1)))

    async def liquidated() -> list[LeverPosition] | None:
        rows = await LeverPosition.filter(id__in=[btc["id"], eth["id"]])
        return rows if all(r.status == LeverStatus.CLOSED for r in rows) else None

    rows = await until(liquidated, "the restarted shard to liquidate the account", within=60)
    assert {r.close_reason for r in rows} == {"liquidation"}
    assert {r.close_tick_id >> 40 for r in rows} == {BTC_USDT, ETH_USDT}  # each closed at its own pair's mark
    balance, lock = await lever_account(holder.uid)
    assert balance >= 0 and lock == 0


async def test_the_overnight_fee_is_charged_once_per_position_and_day(stack: Stack, api: httpx.Client,
                                                                      traders: tuple[Member, ...]) -> None:  # fmt: skip
    holder = traders[0]
    lever = shard(stack, holder.uid)
    order = LeverOrder(pair_id=BTC_USDT, side=2, hands=3, multiple=10)
    opened = await lever.submit.remote(holder.uid, order)
    before = await lever_account(holder.uid)
    tomorrow = int(time.time() * 1000) // DAY_MS + 1  # the next 00:00 UTC, as the Scheduler calls it
    mark = (
        await MarkTick.filter(currency_match_id=BTC_USDT, time_ms__lte=tomorrow * DAY_MS).order_by("-time_ms").first()
    )
    assert mark is not None
    fee = (mark.price * Decimal("0.03") * Decimal("0.0005")).quantize(Decimal("0.000001"), "ROUND_CEILING")
    for _ in range(2):  # the Scheduler may call a day again (a restart mid-run): charged once
        await lever.overnight.remote(tomorrow)
    row = await LeverPosition.get(id=opened["id"])
    assert (row.overnight_money, row.overnight_day) == (fee, tomorrow)
    assert await lever_account(holder.uid) == (before[0] - fee, before[1])
    assert await HouseLedger.get(ref=f"lv{row.id}:night:{tomorrow}:overnight").values_list("amount", flat=True) == fee
    today = tomorrow - 1
    await lever.overnight.remote(today)  # opened after today's midnight: nothing for it
    assert (await LeverPosition.get(id=opened["id"])).overnight_money == fee
    await lever.close.remote(holder.uid, opened["id"])
