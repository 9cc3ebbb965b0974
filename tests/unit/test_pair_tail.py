"""A move's tail (``actors.pair.tail``): a standby that read the pair from the database at any moment
after the tail began, plus the tail, holds the moving actor's book exactly: the same orders, what is
left of each, and the same time priority."""

from __future__ import annotations

import copy
import random
from collections import Counter
from decimal import Decimal as D

import pytest

from actors.book.order_book import OrderBook
from actors.book.types import Side
from actors.market.periods import MINUTE_MS
from actors.pair.matching import Batch, match_cancel
from actors.pair.state import BUY, SELL, OrderState
from actors.pair.tail import Tail, apply_orders, resting
from tests.utils.matching import Runtime, batch

USERS = range(1, 9)


def trade(rt: Runtime, rng: random.Random, commands: int) -> Batch:
    """One batch: limit orders around 100 (a third of them crossing), and cancels of resting ones."""
    b = batch()
    for _ in range(commands):
        resting_ids = [o.order_id for o in rt._book.open_orders()]
        if resting_ids and rng.random() < 0.2:
            order_id = rng.choice(resting_ids)
            match_cancel(rt, b, order_id, rt._orders[order_id].uid)
            continue
        way = rng.choice((BUY, SELL))
        cross = rng.random() < 0.33
        offset = rng.randint(0, 5) * (-1 if (way == BUY) != cross else 1)
        rt.order(b, uid=rng.choice(USERS), way=way, number=str(rng.randint(1, 4)), price=str(100 + offset))
    for order in b.touched():  # what the actor does after a commit
        if order.final:
            rt._orders.pop(order.id, None)
    return b


def database(rt: Runtime) -> list[OrderState]:
    """The open orders as a read of the database sees them, in (seq, id) order (copies: rows)."""
    return sorted((copy.copy(o) for o in rt._orders.values() if not o.final), key=lambda o: (o.seq, o.id))


def queue(book: OrderBook) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Every level of the book: its orders in matching priority, with what is left of each."""
    levels = {(o.side, o.price) for o in book.open_orders()}
    return {(side, price): [(o.order_id, o.remaining) for o in book.orders_at(Side(side), price)]
            for side, price in levels}  # fmt: skip


@pytest.mark.parametrize("seed", range(12))
def test_a_read_at_any_moment_after_the_load_point_plus_the_tail_is_the_moving_book(seed: int) -> None:
    rng = random.Random(seed)
    source = Runtime(price_decimals=4, qty_decimals=6, quote_code="USDT", max_open_orders=10_000)
    for _ in range(30):  # the book built before the standby loads
        trade(source, rng, 8)
    tail = Tail()  # the load point: keep_tail
    read_after = rng.randint(0, 10)  # batches committed between the load point and the standby's read
    rows: list[OrderState] = []
    for i in range(20):
        if i == read_after:
            rows = database(source)
        tail.record(trade(source, rng, 8))
    assert tail.orders and not tail.lost

    standby = OrderBook()  # the standby's preload, as PairLoading reads the database
    orders = {row.id: row for row in rows}
    counts: Counter[int] = Counter(row.uid for row in rows)
    for row in rows:
        standby.restore(resting(row, source.precision, row.seq))
    handed = copy.deepcopy(list(tail.orders.values()))  # what the pause ships (pickled)
    applied = apply_orders(standby, orders, counts, source.precision, handed)

    assert applied == len(tail.orders)
    assert queue(standby) == queue(source._book)
    assert standby.depth(1000) == source._book.depth(1000)
    open_states = {o.id: (o.uid, o.transacted_amount, o.status) for o in source._orders.values() if not o.final}
    assert {o.id: (o.uid, o.transacted_amount, o.status) for o in orders.values()} == open_states
    assert +counts == +source._open_count
    # The same crossing order fills the same makers in the same order on both.
    taker = copy.deepcopy(source)
    taker._book, taker._orders, taker._open_count = standby, orders, counts
    ask = source._book.best_ask()
    assert ask is not None
    price = str(source.precision.price(ask) + 3)
    fills = []
    for rt in (source, taker):
        rt._ids = 10**6
        b = batch()
        rt.order(b, uid=99, way=BUY, number="12", price=price)
        fills.append([(t.row["sell_order_id"], t.row["number"]) for t in b.trades])
    assert fills[0] == fills[1] != []


def test_a_tail_that_outgrows_its_bound_is_lost_and_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("actors.pair.tail.TAIL_MAX_ORDERS", 5)
    rt = Runtime(price_decimals=4, qty_decimals=6, quote_code="USDT", max_open_orders=10_000)
    tail = Tail()
    b = batch()
    for i in range(6):
        rt.order(b, uid=1, way=BUY, number="1", price=str(90 + i))
    tail.record(b)
    assert tail.lost and not tail.orders
    tail.record(b)
    assert not tail.orders


def test_a_tail_that_does_not_fit_the_book_read_is_refused() -> None:
    """An open order the read does not hold, older than what it holds: no load point explains it."""
    rt = Runtime(price_decimals=4, qty_decimals=6, quote_code="USDT")
    b = batch()
    rt.order(b, uid=1, way=BUY, number="1", price="90")
    rt.order(b, uid=2, way=BUY, number="1", price="91")
    first, second = sorted(rt._orders.values(), key=lambda o: o.seq)
    book = OrderBook()
    book.restore(resting(second, rt.precision, second.seq))
    with pytest.raises(ValueError, match="seq"):
        apply_orders(book, {second.id: second}, Counter({2: 1}), rt.precision, [first])


def test_the_tail_notes_the_bars_and_ticker_minutes_its_batches_changed() -> None:
    rt = Runtime(price_decimals=4, qty_decimals=6, quote_code="USDT")
    tail = Tail()
    b = batch()
    rt.order(b, uid=1, way=SELL, number="1", price="100")
    rt.order(b, uid=2, way=BUY, number="1", price="100")
    tail.record(b)
    assert tail.minutes == {b.now_ms // MINUTE_MS}
    assert {period for period, _ in tail.bars} == set(rt._candles.periods)
    cells = rt._candles.cells(tail.bars)
    assert {(period, bar.close) for period, bar, _, _ in cells} == {(p, D(100)) for p in rt._candles.periods}
