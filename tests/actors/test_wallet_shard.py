"""The WalletShard through Ray: order holds written and ended with freezes, releases and landings, a
freeze ref reused for another amount refused; and background work that runs again after Ray restarts
an actor (the shard's reconciler, the market maker's quoting loops)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest
import ray
from ray.exceptions import RayActorError
from tortoise.exceptions import IntegrityError

from actors.maker.actor import BOTS, MarketMaker
from actors.names import ORPHAN_GRACE_MS, wallet_name
from actors.wallet import legs
from actors.wallet.shard import _commit_group
from serve.stack import Stack
from store import holds, ledger
from store.errors import DomainError, ErrorCode
from store.models import AccountLog, FeeLedger, Order, OrderHold, PendingRelease, PendingSettlement, User
from store.spot import OPEN_STATUSES
from tests.utils.users import Member, member, ok
from tests.utils.wallets import USDT, balance, fund

BTC_USDT, ACB_USDT = 1, 64
BASE_ID = 7_500_000_000  # order ids of this module, far from the ones the API hands out


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.2)


async def answers(handle: Any) -> bool:
    try:
        await handle.ping.remote()
        return True
    except RayActorError:
        return False


@pytest.fixture
async def alice(api: httpx.Client, db: None) -> Member:
    user = member(api)
    await fund(user, "USDT", "1000")
    return user


def shard(stack: Stack, uid: int) -> Any:
    return ray.get_actor(wallet_name(legs.shard_of(uid, stack.settings.wallet_shards)))


async def test_holds_follow_freezes_releases_and_landings(stack: Stack, api: httpx.Client, alice: Member) -> None:
    wallet = shard(stack, alice.uid)
    order_id = BASE_ID + alice.uid
    freeze = f"o{order_id}:freeze"
    assert await wallet.freeze.remote(alice.uid, USDT, Decimal(10), freeze) is True
    hold = await OrderHold.get(order_id=order_id)
    assert (hold.user_id, hold.currency_id, hold.amount) == (alice.uid, USDT, Decimal(10))
    assert await wallet.freeze.remote(alice.uid, USDT, Decimal(10), freeze) is False  # replayed: a success
    with pytest.raises(DomainError) as refused:  # the same ref for another amount is not
        await wallet.freeze.remote(alice.uid, USDT, Decimal(11), freeze)
    assert refused.value.code == ErrorCode.REF_CONFLICT
    assert balance(api, alice, USDT) == (Decimal(990), Decimal(10))

    await PendingRelease.create(order_id=order_id, currency_match_id=BTC_USDT)
    assert await wallet.release.remote(alice.uid, USDT, Decimal(10), f"o{order_id}:release") is True
    assert not await OrderHold.filter(order_id=order_id).exists()
    assert not await PendingRelease.filter(order_id=order_id).exists()
    assert balance(api, alice, USDT) == (Decimal(1000), 0)

    # An order the pair stored: its hold ended with the landing; its cancel releases the rest.
    async with httpx.AsyncClient(base_url=api.base_url, timeout=30, headers=alice.auth) as client:
        body = {"currency_match_id": BTC_USDT, "number": "0.001", "price": "30000"}
        bid = ok(await client.post("tx_in/add", json=body))
        assert not await OrderHold.filter(order_id=bid["id"]).exists()
        ok(await client.post("tx_in/cancel", json={"id": bid["id"]}))
    assert balance(api, alice, USDT) == (Decimal(1000), 0)
    assert not await PendingRelease.filter(order_id=bid["id"]).exists()


async def test_a_settlement_the_database_refuses_fails_alone_and_the_freezes_of_its_group_land(
    stack: Stack, api: httpx.Client, alice: Member
) -> None:
    """A trade side whose fee row is there while its journal rows are not (a corrupt replay) makes its
    group fail on the fee's unique key: the freezes submitted with it still land, and the side is
    refused with REF_CONFLICT, as a settlement alone is; its pending row stays for an operator."""
    wallet = shard(stack, alice.uid)
    trade_id = BASE_ID + 500_000 + alice.uid
    leg = legs.TradeLeg(trade_id, alice.uid, alice.uid, 2, USDT, Decimal("0.0001"), Decimal(1), Decimal(0),
                        Decimal(0), "BTC/USDT")  # fmt: skip
    paid = (alice.uid, USDT, Decimal(1), f"o{BASE_ID + 600_000 + alice.uid * 10 + 9}:freeze")  # what the side pays
    assert await wallet.freeze.remote(*paid) is True
    await PendingSettlement.create(trade_id=trade_id, side=legs.BUYER, currency_match_id=BTC_USDT)
    await FeeLedger.create(trade_id=trade_id, side=legs.BUYER, currency_id=2, amount=Decimal(0))
    freezes = [(alice.uid, USDT, Decimal(1), f"o{BASE_ID + 600_000 + alice.uid * 10 + i}:freeze") for i in range(3)]
    settled, frozen = await asyncio.gather(
        asyncio.gather(wallet.settle.remote(leg, legs.BUYER), return_exceptions=True),
        wallet.freeze_many.remote(freezes),
    )
    assert frozen == [True, True, True]
    assert isinstance(settled[0], DomainError) and settled[0].code == ErrorCode.REF_CONFLICT
    assert balance(api, alice, USDT) == (Decimal(996), Decimal(4))
    assert await PendingSettlement.filter(trade_id=trade_id).exists()
    assert not await AccountLog.filter(ref__startswith=f"t{trade_id}:").exists()
    await PendingSettlement.filter(trade_id=trade_id).delete()
    await wallet.release_many.remote([(uid, currency, amount, ref.replace("freeze", "release"))
                                      for uid, currency, amount, ref in [*freezes, paid]])  # fmt: skip
    assert balance(api, alice, USDT) == (Decimal(1000), 0)


async def test_a_group_refused_on_a_unique_key_commits_its_other_operations_one_by_one(
    api: httpx.Client, alice: Member
) -> None:
    """The shard's group commit itself: a freeze, the corrupt settlement (its fee row there, its journal
    rows not) and another freeze in one group: both freezes land, the settlement answers the database's
    refusal (its caller then settles it alone, which refuses it with REF_CONFLICT)."""
    trade_id = BASE_ID + 700_000 + alice.uid
    leg = legs.TradeLeg(trade_id, alice.uid, alice.uid, 2, USDT, Decimal("0.0001"), Decimal(1), Decimal(0),
                        Decimal(0), "BTC/USDT")  # fmt: skip
    await FeeLedger.create(trade_id=trade_id, side=legs.BUYER, currency_id=2, amount=Decimal(0))
    refs = [f"o{BASE_ID + 800_000 + alice.uid * 10 + i}:freeze" for i in range(2)]
    ops = [ledger.Op(legs.freeze(alice.uid, USDT, Decimal(2), refs[0])), legs.settle_op(leg, legs.BUYER),
           ledger.Op(legs.freeze(alice.uid, USDT, Decimal(3), refs[1]))]  # fmt: skip
    results = await _commit_group(ops)
    assert results[0] is True and results[2] is True
    assert isinstance(results[1], IntegrityError)
    assert balance(api, alice, USDT) == (Decimal(995), Decimal(5))  # the settlement paid nothing from the lock
    assert not await AccountLog.filter(ref__startswith=f"t{trade_id}:").exists()


async def test_a_restarted_wallet_shard_runs_its_reconciler_again(
    stack: Stack, api: httpx.Client, alice: Member
) -> None:
    wallet = shard(stack, alice.uid)
    killed_ms = int(time.time() * 1000)
    ray.kill(wallet, no_restart=False)  # as a crash would: Ray restarts it; nobody calls its start()
    await eventually(lambda: answers(wallet))
    # A freeze whose order never reached a pair, older than the grace: only a running reconciler frees it.
    order_id = BASE_ID + 1_000_000 + alice.uid
    hold = holds.hold(order_id, alice.uid, USDT, Decimal(40))
    hold.created_at = datetime.now(UTC) - timedelta(milliseconds=ORPHAN_GRACE_MS + 5000)
    op = ledger.Op(legs.freeze(alice.uid, USDT, Decimal(40), f"o{order_id}:freeze"), (hold,))
    assert await ledger.apply_debits([op]) == [True]
    assert balance(api, alice, USDT) == (Decimal(960), Decimal(40))

    async def released() -> bool:
        return await AccountLog.filter(ref=f"o{order_id}:release").exists()

    await eventually(released)
    assert not await OrderHold.filter(order_id=order_id).exists()
    assert balance(api, alice, USDT) == (Decimal(1000), 0)
    assert (await wallet.status.remote())["reconciled_ms"] > killed_ms


async def test_a_restarted_market_maker_quotes_again_and_adopts_its_quotes(stack: Stack, db: None) -> None:
    """A bot of its own on ACB/USDT (the session runs without one): one tick, then an hour's sleep."""
    maker = MarketMaker.options(name="market-maker-restart-test").remote(
        stack.settings.model_dump(mode="json"), [ACB_USDT], 3600.0
    )
    try:
        assert await maker.start.remote() == 1
        await eventually(lambda: _ticked(maker, ACB_USDT, after_ms=0))
        bot = await User.get(email=BOTS[0])
        quotes = Order.filter(user_id=bot.id, currency_match_id=ACB_USDT, status__in=OPEN_STATUSES)
        placed = await quotes.count()
        assert placed > 0
        killed_ms = int(time.time() * 1000)
        ray.kill(maker, no_restart=False)
        await eventually(lambda: _ticked(maker, ACB_USDT, after_ms=killed_ms))  # its loop runs again
        assert await quotes.count() == placed  # the previous run's quotes were adopted, not doubled
        assert await maker.stop.remote() == placed
        await eventually(lambda: _none(quotes))
    finally:
        ray.kill(maker, no_restart=True)


async def _ticked(maker: Any, pair_id: int, *, after_ms: int) -> bool:
    try:
        return (await maker.status.remote()).get(pair_id, 0) > after_ms
    except RayActorError:  # restarting
        return False


async def _none(query: Any) -> bool:
    return not await query.exists()
