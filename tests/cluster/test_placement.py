"""Pairs on a cluster of two Ray nodes (the session's stack): placement, concurrent trading across
nodes, and moving a pair while orders stream in, with nothing lost and the pause reported."""

from __future__ import annotations

import asyncio
import time
from decimal import ROUND_DOWN, Decimal
from typing import Any

import httpx
import ray

from actors.engine import Engine
from actors.names import PAIR_AT, PLACEMENT_NAME
from actors.orders import LIMIT, OrderSpec, PairRef
from actors.pair.directory import pair_actor
from actors.pair.state import BUY, SELL
from serve.stack import Stack
from store.cache import connect_redis
from store.db import transaction
from store.models import CurrencyMatch, Order, OrderStatus, PairPin, Trade
from store.spot import OPEN_STATUSES
from tests.utils.cli import exchange, exchange_ok
from tests.utils.prices import best, deal, inside_price
from tests.utils.trading import Stream, assert_invariants, funded_traders, quiesce
from tests.utils.users import member
from tests.utils.wallets import fund

BTC_USDT, ETH_USDT = 1, 2


def placement() -> Any:
    return ray.get_actor(PLACEMENT_NAME)


def where(symbol: str) -> str:
    return next(row["node"] for row in ray.get(placement().pairs.remote()) if row["symbol"] == symbol)


def test_pairs_start_on_the_nodes_they_are_pinned_to(stack: Stack) -> None:
    rows = {row["symbol"]: row for row in ray.get(placement().pairs.remote())}
    assert set(rows) == {symbol for _, symbol in stack.pairs}
    assert {s: (rows[s]["node"], rows[s]["pin"]) for s in ("BTC/USDT", "ETH/USDT")} == {
        "BTC/USDT": ("node-1", "node-1"),
        "ETH/USDT": ("node-2", "node-2"),
    }
    assert all(row["state"] == "up" for row in rows.values())
    # Each actor says where it runs; the pin is Ray's placement, not a label.
    nodes = {n["NodeName"]: n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert ray.get(pair_actor("BTC/USDT").info.remote())["node_id"] == nodes["node-1"]
    assert ray.get(pair_actor("ETH/USDT").info.remote())["node_id"] == nodes["node-2"]


async def test_pairs_on_two_nodes_trade_at_the_same_time(api: httpx.Client, db: None) -> None:
    buyer, seller = member(api), member(api)
    await fund(buyer, "USDT", "1000000")
    await fund(seller, "BTC", "10")
    await fund(seller, "ETH", "100")
    rounds = 12

    async def trade(client: httpx.AsyncClient, pair_id: int, price: str) -> None:
        for _ in range(rounds):
            body = {"currency_match_id": pair_id, "number": "0.1", "price": price}
            sell, buy = await asyncio.gather(
                client.post("tx_out/add", json=body, headers=seller.auth),
                client.post("tx_in/add", json=body, headers=buyer.auth),
            )
            assert (sell.json()["code"], buy.json()["code"]) == (1, 1), (sell.text, buy.text)

    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
        await asyncio.gather(trade(client, BTC_USDT, "50000"), trade(client, ETH_USDT, "3000"))

    for pair_id in (BTC_USDT, ETH_USDT):
        mine = Order.filter(currency_match_id=pair_id, user_id__in=[buyer.uid, seller.uid])
        assert await mine.filter(status=OrderStatus.FILLED).count() == 2 * rounds
        trades = await Trade.filter(currency_match_id=pair_id, buyer_id=buyer.uid, seller_id=seller.uid).count()
        assert trades == rounds


async def test_moving_a_pair_while_orders_stream_in_loses_nothing(stack: Stack, api: httpx.Client, db: None) -> None:
    traders = await funded_traders(api, 6, "move")
    symbol = "LTC/USDT"
    start = where(symbol)
    other = "node-1" if start == "node-2" else "node-2"
    seq_before = ray.get(pair_actor(symbol).info.remote())["depth_seq"]
    stream = Stream(api, traders)
    stream.start()
    reports = []
    deadline = time.monotonic() + 240
    try:
        # Moves happen at order-count milestones (not times), so the scenario is the same on any machine.
        for milestone, target in ((15, other), (40, start)):
            await stream.wait_for(milestone, deadline)
            reports.append(await placement().move.remote(symbol, target))
        await stream.wait_for(60, deadline)
    finally:
        stream.stop()

    for report, (source, target) in zip(reports, ((start, other), (other, start)), strict=True):
        assert (report["from"], report["to"], report["moved"]) == (source, target, True), report
        assert report["matches_database"] is True, report
        assert 0 < report["drain_ms"] <= report["pause_ms"], report
    # The engine held every command through both pauses and sent it to the new actor: none refused.
    assert dict(stream.outcomes) == {200: len(stream.accepted)}, stream.refusals[:3]
    assert where(symbol) == start
    pin = await PairPin.get(currency_match_id=3)
    assert pin.node == start
    # The push sequence carries on across the moves (clients see no gap to refetch for).
    assert ray.get(pair_actor(symbol).info.remote())["depth_seq"] >= seq_before

    await quiesce(stack)
    await assert_invariants(stream.accepted, traders)


async def test_a_moved_pair_restarts_from_the_database_not_its_old_snapshot(api: httpx.Client, db: None) -> None:
    symbol = "LTC/USDT"
    target = "node-1" if where(symbol) == "node-2" else "node-2"
    report = await placement().move.remote(symbol, target)
    assert report["moved"] is True, report
    # An order after the move, then a crash: the restarted actor must still have it.
    trader = member(api)
    await fund(trader, "USDT", "1000")
    price = inside_price(await asyncio.to_thread(deal, api, 3))  # the new best bid: it rests on top
    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
        body = {"currency_match_id": 3, "number": "1", "price": str(price)}
        order_id = (await client.post("tx_in/add", json=body, headers=trader.auth)).json()["data"]["id"]
    ray.kill(pair_actor(symbol), no_restart=False)
    deadline = time.monotonic() + 60
    while True:
        try:
            check = await pair_actor(symbol).verify.remote()
            break
        except ray.exceptions.RayActorError:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
    assert check["matches_database"] is True, check
    book = await pair_actor(symbol).deal.remote()
    assert Decimal(book["depth"]["in"][0]["price"]) == price, book["depth"]
    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
        await client.post("tx_in/cancel", json={"id": order_id}, headers=trader.auth)


async def test_a_command_whose_answer_a_move_lost_is_answered_as_stored_by_the_next_actor(
    api: httpx.Client, db: None
) -> None:
    """The old actor committed an order and a cancel, and died with the move before its answers
    reached the caller, who sends both again to the new actor (Engine.ask): each is answered as the
    database holds it, not refused as a duplicate id or an unknown order, and no reload resets the
    push sequence."""
    symbol = "LTC/USDT"
    trader = member(api)
    await fund(trader, "USDT", "1000")
    price = inside_price(await asyncio.to_thread(deal, api, 3)) - 1
    body = {"currency_match_id": 3, "number": "1", "price": str(price)}
    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
        kept = (await client.post("tx_in/add", json=body, headers=trader.auth)).json()["data"]
        gone = (await client.post("tx_in/add", json=body, headers=trader.auth)).json()["data"]
        assert (await client.post("tx_in/cancel", json={"id": gone["id"]}, headers=trader.auth)).json()["code"] == 1
    target = "node-1" if where(symbol) == "node-2" else "node-2"
    assert (await placement().move.remote(symbol, target))["moved"] is True
    pair = pair_actor(symbol)
    before = await pair.info.remote()
    order = {"sent_ms": int(time.time() * 1000), "id": kept["id"], "uid": trader.uid, "way": 1, "kind": LIMIT,
             "price": price, "number": Decimal(1), "frozen": price}  # fmt: skip
    again = await pair.submit.remote(order)
    assert (again["id"], again["status"]) == (kept["id"], kept["status"]), again
    cancelled = await pair.cancel.remote(gone["id"], trader.uid)
    assert (cancelled["id"], cancelled["status"]) == (gone["id"], OrderStatus.CANCELLED), cancelled
    after = await pair.info.remote()
    assert after["depth_seq"] >= before["depth_seq"] > 0, (before, after)
    assert await Order.filter(user_id=trader.uid).count() == 2
    assert (await pair.verify.remote())["matches_database"] is True
    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:
        await client.post("tx_in/cancel", json={"id": kept["id"]}, headers=trader.auth)


async def test_a_standby_that_read_the_book_before_the_pause_takes_over_with_the_orders_taken_since(
    stack: Stack, api: httpx.Client, db: None
) -> None:
    """Alice and Carol bid, Bob and Dave offer; the move's standby reads that book from the database
    (``prepare``) while the pair trades on; then Dave fills part of Alice's bid, Carol cancels one bid
    and fills Bob's offer, Alice and Bob place new orders; the move hands over only those (its tail):
    the new actor's book is the database's, time priority included, and no order is lost or doubled."""
    symbol = "LTC/USDT"
    target = "node-1" if where(symbol) == "node-2" else "node-2"
    alice, bob, carol, dave = await funded_traders(api, 4, "tail")  # alice and carol hold USDT
    bid, ask, _ = best(await asyncio.to_thread(deal, api, 3))
    low = bid if bid is not None else (ask if ask is not None else Decimal(100)) * Decimal("0.9")
    high = ask if ask is not None else low * Decimal("1.2")
    tick = ((high - low) / 6).quantize(Decimal("0.0001"), ROUND_DOWN)
    assert tick > 0, (low, high)  # six price steps inside the spread: these orders meet only each other
    level = [str(low + i * tick) for i in range(6)]
    placed: list[int] = []

    async with httpx.AsyncClient(base_url=api.base_url, timeout=30) as client:

        async def order(who: Any, side: str, number: str, at: int) -> int:
            body = {"currency_match_id": 3, "number": number, "price": level[at]}
            answer = (await client.post(f"tx_{side}/add", json=body, headers=who.auth)).json()
            assert answer["code"] == 1, answer
            placed.append(answer["data"]["id"])
            return int(answer["data"]["id"])

        alice_first, carol_first = await order(alice, "in", "1", 2), await order(carol, "in", "1", 2)
        carol_low = await order(carol, "in", "1", 1)
        bob_first = await order(bob, "out", "1", 4)
        await order(dave, "out", "1", 5)
        prepared = await placement().prepare.remote(symbol, target)
        assert prepared["prepared"] is True, prepared
        # Taken after the standby read the book, before the pause:
        await order(dave, "out", "0.4", 2)  # fills 0.4 of Alice's first bid, which keeps its place
        cancel = await client.post("tx_in/cancel", json={"id": carol_low}, headers=carol.auth)
        assert cancel.json()["code"] == 1, cancel.text
        alice_second = await order(alice, "in", "1", 3)  # a new best bid
        await order(carol, "in", "1", 4)  # fills Bob's offer
        bob_second = await order(bob, "out", "1", 4)
        report = await placement().move.remote(symbol, target)
        assert (report["moved"], report["matches_database"]) == (True, True), report
        assert report["tail_orders"] >= 7, report  # every order those five commands touched

        # The new actor trades on from the same book: the best bid first, then Alice's 0.6 before Carol.
        sold = [await order(dave, "out", "1", 2), await order(dave, "out", "1", 2)]
        fills = await Trade.filter(sell_order_id__in=sold).order_by("id").values_list("buy_order_id", "number")
        assert [(o, Decimal(n)) for o, n in fills] == [(alice_second, Decimal(1)), (alice_first, Decimal("0.6")),
                                                       (carol_first, Decimal("0.4"))]  # fmt: skip
        assert (await pair_actor(symbol).verify.remote())["matches_database"] is True
        uids = [m.uid for m in (alice, bob, carol, dave)]
        assert sorted(await Order.filter(user_id__in=uids).values_list("id", flat=True)) == sorted(placed)
        assert (await Order.get(id=bob_first)).status == OrderStatus.FILLED
        for who, order_id in ((carol, carol_first), (bob, bob_second)):
            await client.post(f"tx_{'in' if who is carol else 'out'}/cancel", json={"id": order_id}, headers=who.auth)
        for row in await Order.filter(user_id=dave.uid, status__in=OPEN_STATUSES):
            await client.post("tx_out/cancel", json={"id": row.id}, headers=dave.auth)
    await quiesce(stack)
    await assert_invariants(placed, [alice, bob, carol, dave])


async def test_a_pause_that_meets_a_commit_running_hands_the_batch_over_and_the_next_actor_trades_on_it(
    stack: Stack, api: httpx.Client, db: None
) -> None:
    """Alice's bid is matched and its commit is running (held up: the test holds the orders table) when
    the move's standby reads the book (without her bid, not committed yet) and when the pause comes:
    her batch is in the tail from its start, and the pause hands the pair over as her batch leaves
    it, without waiting for the commit. Bob's offer, sent to the new actor meanwhile, fills Alice's
    bid there once her commit has ended; the old actor answered Alice. Nothing lost, nothing doubled,
    the book the database's."""
    symbol = "LTC/USDT"
    target = "node-1" if where(symbol) == "node-2" else "node-2"
    alice, bob = await funded_traders(api, 2, "inflight")  # alice holds USDT, bob LTC
    pair_row = await CurrencyMatch.get(id=3)
    pair = PairRef(3, symbol, pair_row.base_currency_id, pair_row.quote_currency_id)
    price = inside_price(await asyncio.to_thread(deal, api, 3))  # the best bid: nothing else sells into it
    engine, redis = Engine(stack.settings.wallet_shards, connect_redis(stack.settings)), connect_redis(stack.settings)
    orders = []
    for who, way in ((alice, BUY), (bob, SELL)):  # held now: the wallet shards write while the table is held
        spec = OrderSpec(pair, way, LIMIT, price, Decimal(1))
        order_id = await engine.ids.next()
        currency, frozen = spec.hold()
        await engine.wallet(who.uid).freeze.remote(who.uid, currency, frozen, f"o{order_id}:freeze")
        orders.append(spec.payload(order_id, who.uid))
    generation = int(await redis.get(PAIR_AT + symbol) or 0)
    old = pair_actor(symbol)
    async with transaction() as conn:
        if conn.capabilities.dialect == "postgres":
            await conn.execute_script("LOCK TABLE orders IN SHARE MODE")  # SQLite's writer lock is held already
        alice_answer = asyncio.ensure_future(engine.ask(symbol, "submit", orders[0]))
        deadline = time.monotonic() + 60
        while not (await old.info.remote())["committing"]:
            assert time.monotonic() < deadline and not alice_answer.done(), alice_answer
            await asyncio.sleep(0.05)
        assert (await placement().prepare.remote(symbol, target))["prepared"] is True  # reads without her bid
        move = asyncio.ensure_future(placement().move.remote(symbol, target))
        while int(await redis.get(PAIR_AT + symbol) or 0) == generation:  # the pause is over
            assert time.monotonic() < deadline and not move.done(), move
            await asyncio.sleep(0.05)
        bob_answer = asyncio.ensure_future(engine.ask(symbol, "submit", orders[1]))
        await asyncio.sleep(0.5)  # Bob's offer reaches the new actor, which waits for Alice's commit
        assert not alice_answer.done() and not bob_answer.done()
    report = await move
    assert (report["moved"], report["in_flight"], report["matches_database"]) == (True, True, True), report
    bid, sold = await alice_answer, await bob_answer
    assert (bid["id"], sold["id"]) == (orders[0]["id"], orders[1]["id"]), (bid, sold)
    assert sold["status"] == OrderStatus.FILLED, sold
    fills = await Trade.filter(sell_order_id=sold["id"]).values_list("buy_order_id", "number")
    assert [(o, Decimal(n)) for o, n in fills] == [(bid["id"], Decimal(1))], fills
    assert (await Order.get(id=bid["id"])).status == OrderStatus.FILLED
    assert (await pair_actor(symbol).verify.remote())["matches_database"] is True
    await quiesce(stack)
    await assert_invariants([bid["id"], sold["id"]], [alice, bob])


def test_operators_list_nodes_and_pairs_and_move_one_from_the_cli(stack: Stack) -> None:
    nodes = exchange_ok(stack.settings, "nodes")
    assert "node-1" in nodes and "node-2" in nodes and "BTC/USDT" in nodes

    listing = exchange_ok(stack.settings, "pairs")
    assert listing.splitlines()[0].split("\t") == ["symbol", "node", "pinned to", "open orders", "state", "pid"]
    assert "ETH/USDT\tnode-2\tnode-2\t" in listing

    moved = exchange_ok(stack.settings, "pairs", "move", "eth/usdt", "node-1")
    assert moved.startswith("ETH/USDT moved node-2 -> node-1: paused "), moved
    assert "book matches the database" in moved
    assert "ETH/USDT\tnode-1\tnode-1\t" in exchange_ok(stack.settings, "pairs")
    assert "already runs on node-1" in exchange_ok(stack.settings, "pairs", "move", "ETH/USDT", "node-1")
    exchange_ok(stack.settings, "pairs", "move", "ETH/USDT", "node-2")

    unknown = exchange(stack.settings, "pairs", "move", "ETH/USDT", "node-9")
    assert unknown.returncode == 1 and "no alive node 'node-9'; the nodes are: node-1" in unknown.stderr
    no_pair = exchange(stack.settings, "pairs", "move", "XYZ/USDT", "node-1")
    assert no_pair.returncode == 1 and "no pair 'XYZ/USDT'" in no_pair.stderr


def test_a_crashed_placement_actor_comes_back_and_leaves_the_pairs_running(stack: Stack, api: httpx.Client) -> None:
    before = {symbol: pair_actor(symbol)._actor_id.hex() for _, symbol in stack.pairs}
    ray.kill(placement(), no_restart=False)  # Ray restarts it: it is detached, like the pairs it made
    deadline = time.monotonic() + 60
    while True:
        answer = api.get("health")
        if answer.status_code == 200:
            break
        assert answer.json()["data"]["placement"] is False, answer.json()  # only the placement was down
        assert time.monotonic() < deadline, answer.json()
        time.sleep(0.5)
    assert answer.json()["data"]["pairs"] == {symbol: True for symbol in before}
    # The very same pair actors: nothing was restarted or reloaded.
    assert {symbol: pair_actor(symbol)._actor_id.hex() for symbol in before} == before
    assert {row["symbol"] for row in ray.get(placement().pairs.remote())} == set(before)
