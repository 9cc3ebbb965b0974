"""The house's money on leveraged contracts (issue 27): every open position stays liquidatable before
its losses pass what its account holds, so the insurance fund pays only for a price that jumps past
a liquidation, never for a state the code allowed. Overnight fees stop at a margin's floor, transfers
out and new positions leave what the open ones need, the exposure cap counts entrustments, a
take-profit or stop-loss pays the close spread, and a loss is taken from everything the account
holds before the fund pays."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from decimal import Decimal
from typing import Any

import httpx
import pytest
import ray

from actors.scheduler.actor import Scheduler
from actors.scheduler.calendar import DAY_MS
from actors.scheduler.jobs import Job, lever_overnight
from serve.i18n import translate
from serve.stack import Stack
from store.models import HouseLedger
from tests.api.test_lever import (
    BTC_USDT,
    ETH_USDT,
    LONG,
    SHORT,
    entrust,
    lever_balance,
    lever_trader,
    market,
    my_trade,
    post,
    transfer,
    wait_closed,
)
from tests.utils.prices import mark_to, wait_for
from tests.utils.users import Member, error, member, ok
from tests.utils.wallets import fund

MARGIN_IN_USE = " can leave the lever account while its positions are open"


def most_out(api: httpx.Client, m: Member, asked: str) -> Decimal:
    """What a refused transfer of ``asked`` out of the lever account says may leave it."""
    message = error(transfer(api, m, asked, "lever_account", "change_account"), 400)
    assert message.startswith("At most ") and message.endswith(MARGIN_IN_USE), message
    return Decimal(message.removeprefix("At most ").removesuffix(MARGIN_IN_USE))


async def insurance_of(uid: int) -> list[Decimal]:
    """What the insurance fund took from (+) or paid for (-) this user's positions."""
    return list(await HouseLedger.filter(user_id=uid, kind="insurance").values_list("amount", flat=True))


def position(api: httpx.Client, m: Member, position_id: int) -> dict[str, Any]:
    """The position as the user's lists show it, open or closed."""
    for status in (1, 3):
        found = next((p for p in my_trade(api, m, status)["data"] if p["id"] == position_id), None)
        if found is not None:
            return found
    raise AssertionError(f"position {position_id} is neither open nor closed")


@pytest.fixture
async def midnights(stack: Stack, db: None) -> AsyncIterator[Callable[[int], Awaitable[None]]]:
    """``pass_(n)``: the clock of a scheduler of the test's own, running the real overnight job, moves
    to ``n`` midnights after today (``exchange scheduler clock +nd``); the session's is left alone."""
    name = f"scheduler-lever-{uuid.uuid4().hex[:8]}"
    job = Job(f"lever_overnight-{name}", at_s=0, run=lever_overnight)
    scheduler = Scheduler.options(name=name).remote(stack.settings.model_dump(mode="json"), [job], 0.2)
    first = int(time.time() * 1000) // DAY_MS

    async def last_day() -> int | None:
        return (await scheduler.status.remote())["jobs"][job.name]["last_day"]

    deadline = time.monotonic() + 60
    while await last_day() != first:  # today's run: before the test opened anything
        assert time.monotonic() < deadline, "the test's scheduler did not start"
        await asyncio.sleep(0.1)

    async def pass_(n: int) -> None:
        offset = (first + n) * DAY_MS + 30_000 - int(time.time() * 1000)  # 00:00:30 of that day
        await scheduler.set_clock.remote(offset)
        assert await last_day() == first + n

    try:
        yield pass_
    finally:
        ray.kill(scheduler, no_restart=True)


# --- overnight fees and transfers out: a margin never shrinks below its floor ----------------------


async def test_overnight_fees_stop_at_the_margins_floor_and_liquidate_instead(
    api: httpx.Client, btc_at_60000: tuple[Member, Member], midnights: Callable[[int], Awaitable[None]]
) -> None:
    """The attack of issue 27: 200x with 10 USDT, everything free moved out, 11 overnight fees. The
    fee eats the margin only down to half of what it was at the open (the liquidation level of it);
    the fee that would go below liquidates the position at what a close pays, and the fee comes out
    of what it returns. No position is left open with no margin and no liquidation price, and a crash
    afterwards costs the insurance fund nothing."""
    alice = await lever_trader(api, "10")
    opened = ok(post(api, alice, "submit", market(LONG, 1, 200)))  # at 60030: margin 3.0015, fee 0.6003
    assert (opened["price"], opened["caution_money"], opened["trade_fee"]) == ("60030", "3.0015", "0.6003")
    await asyncio.to_thread(mark_to, api, *btc_at_60000, BTC_USDT, Decimal(60100))  # in profit: 0.3995 at a close
    ok(transfer(api, alice, "6.3982", "lever_account", "change_account"))  # everything free
    assert lever_balance(api, alice) == (0, Decimal("3.0015"))

    # 0.05 % of 0.01 BTC at 60100 a night, 0.3005, from the margin: 4 nights take it to 1.7995; the
    # fifth would leave 1.499, below the floor 1.50075: the position is liquidated at 60069.95 instead
    # and the fee paid from what it returns (1.7995 + 0.3995 - 0.3005)
    await midnights(11)
    closed = position(api, alice, opened["id"])
    assert (closed["status"], closed["close_reason"], closed["close_reason_name"]) == (3, "liquidation", "Liquidated")
    assert (closed["close_price"], closed["profits"], closed["overnight_money"]) == ("60069.95", "0.3995", "1.5025")
    assert lever_balance(api, alice) == (Decimal("1.8985"), 0)
    assert ok(post(api, alice, "deal", {"currency_match_id": BTC_USDT}))["hazard_rate"] is None

    await asyncio.to_thread(mark_to, api, *btc_at_60000, BTC_USDT, Decimal(54090))  # a 10 % crash: nothing of hers
    assert lever_balance(api, alice) == (Decimal("1.8985"), 0)
    assert await insurance_of(alice.uid) == []


async def test_what_overnight_fees_took_from_a_margin_may_not_leave_the_account(
    api: httpx.Client, btc_at_60000: tuple[Member, Member], midnights: Callable[[int], Awaitable[None]]
) -> None:
    """Four nights took 1.202 of a 3.0015 margin: 1 USDT comes in, and only what the position does
    not need to stand where it opened may go again (equity at the close price 60069.95: 1 + 1.7995 +
    0.3995, less the 3.0015 it opened with). The fees go on from what stays, then the margin, down
    to its floor."""
    alice = await lever_trader(api, "10")
    opened = ok(post(api, alice, "submit", market(LONG, 1, 200)))
    await asyncio.to_thread(mark_to, api, *btc_at_60000, BTC_USDT, Decimal(60100))
    ok(transfer(api, alice, "6.3982", "lever_account", "change_account"))
    await midnights(4)
    held = position(api, alice, opened["id"])
    assert (held["status"], held["caution_money"], held["overnight_money"]) == (1, "1.7995", "1.202")
    await fund(alice, "USDT", "1")
    ok(transfer(api, alice, "1", "change_account", "lever_account"))
    assert most_out(api, alice, "1") == Decimal("0.1975")
    ok(transfer(api, alice, "0.1975", "lever_account", "change_account"))

    # nights 5-6 from the balance (0.8025 -> 0.2015), 7 from it and the margin (-> 1.7005); night 8
    # would leave 1.4: liquidated at 60069.95, the fee from what it returns (1.7005 + 0.3995 - 0.3005)
    await midnights(11)
    closed = position(api, alice, opened["id"])
    assert (closed["close_reason"], closed["profits"], closed["overnight_money"]) == ("liquidation", "0.3995", "2.404")
    assert lever_balance(api, alice) == (Decimal("1.7995"), 0)


async def test_a_transfer_out_leaves_what_closing_every_position_would_lose(
    api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    """Cross margin over two pairs: what may leave counts each position's loss at its close price
    (the spread a close pays), not at the mark; a profit on one pair backs a loss on the other."""
    mark_to(api, *btc_at_60000, ETH_USDT, Decimal(3500))
    alice = await lever_trader(api, "1000")
    ok(post(api, alice, "submit", market(LONG, 2, 10)))  # 0.02 BTC at 60030: 120.06 + 1.2006
    ok(post(api, alice, "submit", market(SHORT, 1, 10, ETH_USDT)))  # 0.1 ETH at 3498.25: 34.9825 + 0.349825
    free = Decimal(1000) - Decimal("120.06") - Decimal("1.2006") - Decimal("34.9825") - Decimal("0.349825")
    assert lever_balance(api, alice)[0] == free
    # closing now: the long at 59970 loses 1.2, the short at 3501.75 loses 0.35
    assert most_out(api, alice, str(free)) == free - Decimal("1.55")

    mark_to(api, *btc_at_60000, ETH_USDT, Decimal(3400))  # the short gains 9.655 at its close price 3401.7
    ok(transfer(api, alice, str(free), "lever_account", "change_account"))  # it backs the BTC loss
    assert ok(post(api, alice, "batch_close", {"type": 0, "currency_match_id": 0}))["closed"] == 2


async def test_a_position_or_entrustment_that_would_take_the_account_to_the_level_is_refused(
    api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    """The balance backs a large unrealised loss: an entrustment (its frozen funds leave the equity)
    or an open (its fee and spread) that would put the account at the liquidation level is refused,
    rather than taken and liquidated at once."""
    alice = await lever_trader(api, "10000")
    ok(post(api, alice, "submit", market(LONG, 100, 200)))  # 1 BTC at 60030: margin 300.15, fee 60.03
    mark_to(api, *btc_at_60000, BTC_USDT, Decimal(50500))  # -9530: equity 409.97, risk 136.6 %
    at_level = "This would take your lever account to the liquidation level: close or add funds first"
    # frozen 300 at 50000 would leave 109.97 of equity on 300.15 of margin: 36.6 %
    assert error(post(api, alice, "submit", entrust(LONG, 100, 200, "50000")), 400) == at_level
    assert error(post(api, alice, "submit", entrust(LONG, 100, 200, "50000"), lang="jp"), 400) == translate(
        at_level, "jp"
    )
    ok(post(api, alice, "submit", market(LONG, 100, 200)))  # 60.5 % after it
    assert error(post(api, alice, "submit", market(LONG, 100, 200)), 400) == at_level  # 32 % after it
    assert my_trade(api, alice, 0)["total"] == 0 and my_trade(api, alice, 1)["total"] == 2
    assert ok(post(api, alice, "batch_close", {"type": 0, "currency_match_id": 0}))["closed"] == 2


# --- closes: the spread, and a loss taken from everything the account holds ------------------------


async def test_take_profit_and_stop_loss_pay_the_close_spread(
    api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    """A take-profit or stop-loss set one step from the mark closes like a market close at the mark
    that crossed it: the spread against the trader, never the bare mark."""
    alice = await lever_trader(api, "1000")
    long = ok(post(api, alice, "submit", market(LONG, 1, 10)))  # at 60030
    short = ok(post(api, alice, "submit", market(SHORT, 1, 10)))  # at 59970
    ok(post(api, alice, "setstop", {"id": long["id"], "target_profit_price": "60001"}))
    ok(post(api, alice, "setstop", {"id": short["id"], "stop_loss_price": "60001"}))
    mark_to(api, *btc_at_60000, BTC_USDT, Decimal(60001))
    won, lost = wait_closed(api, alice, long["id"]), wait_closed(api, alice, short["id"])
    # 60001 less 0.05 %, rounded down to the pair's 4 places; the short's plus 0.05 %, rounded up
    assert (won["close_reason"], won["close_price"], won["profits"]) == ("take_profit", "59970.9995", "-0.590005")
    assert (lost["close_reason"], lost["close_price"], lost["profits"]) == ("stop_loss", "60031.0005", "-0.610005")


async def test_a_liquidation_takes_the_loss_from_frozen_entrustments_before_the_fund(
    api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    """A crash past the long's margin and free balance: the entrustment it holds is cancelled and its
    frozen funds pay the loss before the insurance fund pays the rest."""
    alice = await lever_trader(api, "20")
    opened = ok(post(api, alice, "submit", market(LONG, 1, 200)))  # margin 3.0015, fee 0.6003
    pending = ok(post(api, alice, "submit", entrust(SHORT, 1, 200, "62000")))  # frozen 3.1 + 0.62
    assert lever_balance(api, alice) == (Decimal("12.6782"), Decimal("3.0015") + Decimal("3.72"))
    mark_to(api, *btc_at_60000, BTC_USDT, Decimal(54000))
    closed = wait_closed(api, alice, opened["id"])
    assert closed["close_reason"] == "liquidation"
    loss = -(Decimal(closed["profits"]) + Decimal("3.0015"))  # beyond the margin
    assert loss > Decimal("12.6782") + Decimal("3.72")  # ... and beyond everything she held
    cancelled = wait_for(lambda: next(iter(my_trade(api, alice, 4)["data"]), None), "the entrustment to be cancelled")
    assert (cancelled["id"], cancelled["close_reason"]) == (pending["id"], "liquidation")
    assert lever_balance(api, alice) == (0, 0)
    assert await insurance_of(alice.uid) == [-(loss - Decimal("12.6782") - Decimal("3.72"))]


async def test_closing_the_losing_side_of_a_hedge_is_covered_by_the_winning_side(
    api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    """A long and a short of 1 BTC at 100x never reach the liquidation level; the price runs 2.5 %.
    Closing the losing short alone would lose 1560.75 on 599.7 of margin and 1 USDT of balance: the
    winning long closes with it (reason ``cover``) and pays, rather than the insurance fund."""
    alice = await lever_trader(api, "1321")
    long = ok(post(api, alice, "submit", market(LONG, 100, 100)))  # 60030: 600.3 + 60.03
    short = ok(post(api, alice, "submit", market(SHORT, 100, 100)))  # 59970: 599.7 + 59.97
    assert lever_balance(api, alice) == (Decimal(1), Decimal(1200))
    mark_to(api, *btc_at_60000, BTC_USDT, Decimal(61500))
    done = ok(post(api, alice, "close", {"id": short["id"]}))
    assert (done["close_reason"], done["close_price"], done["profits"]) == ("manual", "61530.75", "-1560.75")
    covered = position(api, alice, long["id"])
    assert (covered["status"], covered["close_reason"], covered["close_price"]) == (3, "cover", "61469.25")
    assert covered["close_reason_name"] == "Closed to cover a loss"
    # 1 + 1200 of margins + 1439.25 - 1560.75
    assert lever_balance(api, alice) == (Decimal("1079.5"), 0)
    assert await insurance_of(alice.uid) == []


# --- the house's exposure cap counts entrustments -------------------------------------------------


async def test_the_exposure_cap_counts_pending_entrustments(
    stack: Stack, api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    """Limit longs of 1 BTC each are taken while their worst case (every one filled) stays within
    the shard's share of the cap; then both entrustments and market opens on that side are refused."""
    whale = await lever_trader(api, "25000")
    cap = Decimal(5_000_000) / stack.settings.lever_shards
    taken = 0
    while (response := post(api, whale, "submit", entrust(LONG, 100, 200, "59900"))).status_code == 200:
        taken += 1
        assert taken * 60000 <= cap and taken <= 60
    assert error(response, 400) == "This pair cannot take more positions on this side now, please try later"
    assert (taken + 1) * 60000 > cap
    assert error(post(api, whale, "submit", market(LONG, 100, 200)), 400).startswith("This pair cannot take")
    mark_to(api, *btc_at_60000, BTC_USDT, Decimal(59900))
    wait_for(lambda: my_trade(api, whale, 1)["total"] == taken, "every entrustment to open", timeout=20)
    assert ok(post(api, whale, "batch_close", {"type": 0, "currency_match_id": BTC_USDT}))["closed"] == taken


async def test_an_entrustment_that_would_pass_the_cap_when_it_fills_is_cancelled(
    api: httpx.Client, btc_at_60000: tuple[Member, Member]
) -> None:
    """Shorts up to the cap at 60000 (within 1 BTC of it), then a short entrustment of 0.01 BTC above
    the market: its worst case fits at 60000. The mark rises to 62000, where the cap holds 40.32 BTC
    only: filling it would take the shard further past the cap, so it is cancelled (reason
    ``exposure``, its funds back through the ledger, pushed) instead of opening."""
    whale = member(api)
    await fund(whale, "USDT", "700000")
    ok(transfer(api, whale, "700000", "change_account", "lever_account"))
    shorts = 0
    while post(api, whale, "submit", market(SHORT, 100, 5)).status_code == 200:
        shorts += 1
        assert shorts <= 60
    pending = ok(post(api, whale, "submit", entrust(SHORT, 1, 5, "60900")))
    balance, held = lever_balance(api, whale)
    mark_to(api, *btc_at_60000, BTC_USDT, Decimal(62000))

    def cancelled() -> dict[str, Any] | None:
        return next(iter(my_trade(api, whale, 4)["data"]), None)

    gone = wait_for(cancelled, "the entrustment to be cancelled")
    assert (gone["id"], gone["close_reason"], gone["frozen"]) == (pending["id"], "exposure", "0")
    assert gone["close_reason_name"] == "Cancelled: the pair's position limit was reached"
    assert my_trade(api, whale, 1)["total"] == shorts and my_trade(api, whale, 0)["total"] == 0
    frozen = Decimal(pending["frozen"])  # 121.8 + 0.609 at 60900, back to the balance
    assert lever_balance(api, whale) == (balance + frozen, held - frozen)
    ok(post(api, whale, "batch_close", {"type": 0, "currency_match_id": BTC_USDT}))
