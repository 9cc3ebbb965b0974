"""The matching core against the core it replaced (issue 31), fill for fill and level for level.

The speed-up of ``actors/book`` changed its layout (a plain list of level keys, best last, levels
that are deques, the match loop inlined) and must not change what it does. The reference is the
core of ``REFERENCE`` (the sorted-levels core of before issue 31), loaded from git beside today's
(``bench/core_at.py``); both get the same commands and every answer and the whole book are compared
after each one. Without git history (an archive, a shallow clone) the reference cannot be loaded and
these tests are skipped; ``test_book_properties.py`` still checks the core against its naive model.
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actors.book import Kind, Order, OrderBook, Side
from bench.core_at import load_core

REFERENCE = "7c6ac31"


@pytest.fixture(scope="module")
def ref() -> ModuleType:
    try:
        return load_core(REFERENCE)
    except (ValueError, OSError) as exc:
        pytest.skip(f"the reference core is not in this checkout's git history: {exc}")


class Pair:
    """The same commands to both books; every answer and the books' whole state must be equal."""

    def __init__(self, ref: ModuleType) -> None:
        self.ref = ref
        self.new = OrderBook()
        self.old = ref.OrderBook()
        self.next_id = 1

    def submit(self, uid: int, side: Side, price: int, qty: int, kind: Kind, budget: int | None = None) -> None:
        oid = self.next_id
        self.next_id += 1
        new = self.new.submit(Order(oid, uid, side, price, qty, budget=budget), kind=kind)
        old = self.old.submit(self.ref.Order(oid, uid, side, price, qty, budget=budget), kind=self.ref.Kind(kind))
        assert [tuple(f) for f in new.fills] == [tuple(f) for f in old.fills]
        assert [_state(o) for o in new.expired_makers] == [_state(o) for o in old.expired_makers]
        assert new.cancelled == old.cancelled
        assert (new.resting is None) == (old.resting is None)

    def cancel(self, oid: int) -> None:
        new, old = self.new.cancel(oid), self.old.cancel(oid)
        assert (new is None and old is None) or _state(new) == _state(old)

    def rebuild(self) -> None:
        """Both books rebuilt from copies of their open orders, as a restarted pair actor does."""
        new, old = OrderBook(), self.ref.OrderBook()
        for order in self.new.open_orders():
            new.restore(order.copy())
        for order in self.old.open_orders():
            old.restore(order.copy())
        self.new, self.old = new, old

    def check(self, full: bool = True) -> None:
        new, old = self.new, self.old
        assert (new.best_bid(), new.best_ask(), len(new)) == (old.best_bid(), old.best_ask(), len(old))
        assert new.depth(20) == old.depth(20) and new.level_count == old.level_count
        if not full:
            return
        assert new.depth(100_000) == old.depth(100_000)
        assert new.depth(0) == old.depth(0) == ([], [])
        assert [_state(o) for o in new.open_orders()] == [_state(o) for o in old.open_orders()]
        bids, asks = new.depth(100_000)
        for side, levels in ((Side.BUY, bids), (Side.SELL, asks)):
            for price, _ in levels:
                assert [o.order_id for o in new.orders_at(side, price)] == [
                    o.order_id for o in old.orders_at(self.ref.Side(side), price)
                ]
            notional = sum(p * q for p, q in levels)
            for share in (1, notional // 3, notional, notional + 7):
                if share > 0:
                    assert new.impact(side, share) == old.impact(self.ref.Side(side), share)


def _state(order: object) -> tuple[int, ...]:
    o = order
    return (o.order_id, o.uid, o.side, o.price, o.qty, o.remaining, o.cancelled, o.seq)  # type: ignore[attr-defined]


_ROBUST = [HealthCheck.too_slow, HealthCheck.data_too_large]
_LIMIT = st.tuples(
    st.just("limit"),
    st.integers(1, 4),
    st.sampled_from([Side.BUY, Side.SELL]),
    st.integers(1, 40),
    st.integers(1, 12),
    st.sampled_from([Kind.LIMIT, Kind.LIMIT, Kind.IOC]),
)
_MARKET = st.tuples(
    st.just("market"),
    st.integers(1, 4),
    st.sampled_from([Side.BUY, Side.SELL]),
    st.integers(1, 60),
    st.none() | st.integers(0, 3_000),
)
_CANCEL = st.tuples(st.just("cancel"), st.integers(0, 10**6))
_OPS = st.lists(
    st.one_of(_LIMIT, _LIMIT, _LIMIT, _CANCEL, _CANCEL, _MARKET, st.tuples(st.just("rebuild"))),
    min_size=20,
    max_size=200,
)


@settings(max_examples=100, deadline=None, suppress_health_check=_ROBUST)
@given(ops=_OPS)
def test_random_streams_make_the_same_fills_and_the_same_book(ref: ModuleType, ops: list[tuple[object, ...]]) -> None:
    pair = Pair(ref)
    for op in ops:
        match op:
            case ("limit", uid, side, price, qty, kind):
                pair.submit(uid, side, price, qty, kind)  # type: ignore[arg-type]
            case ("market", uid, side, qty, budget):
                pair.submit(uid, side, 0, qty, Kind.MARKET, budget if side == Side.BUY else None)  # type: ignore[arg-type]
            case ("cancel", int(pick)):
                open_ids = [o.order_id for o in pair.new.open_orders()]
                pair.cancel(open_ids[pick % len(open_ids)] if open_ids and pick % 5 else pick)
            case ("rebuild",):
                pair.rebuild()
        pair.check()


def test_issue_31_stream_with_cancels_deep_levels_and_self_trades(ref: ModuleType) -> None:
    """A longer seeded stream: issue 31's random limits (prices 1..200, 1..4 lots) with cancels of
    random resting orders (most levels are born and emptied below the top, where the new core
    inserts and deletes keys in the middle of its list), few users (self-trade prevention), a level
    piled with cancelled entries (compaction), market orders and budgets."""
    rng = random.Random(31)
    pair = Pair(ref)
    deepest = 0
    for step in range(12_000):
        draw = rng.random()
        uid, side = rng.randint(1, 12), rng.choice((Side.BUY, Side.SELL))
        if draw < 0.15 and len(pair.new):
            resting = list(pair.new.open_orders())
            pair.cancel(rng.choice(resting).order_id)
        elif draw < 0.18:
            budget = rng.randint(0, 2_000) if side == Side.BUY and rng.random() < 0.5 else None
            pair.submit(uid, side, 0, rng.randint(1, 8), Kind.MARKET, budget)
        elif draw < 0.20:
            for _ in range(40):  # a pile at one price, then most of it cancelled
                pair.submit(uid, side, 1 if side == Side.BUY else 200, 1, Kind.LIMIT)
            for oid in range(pair.next_id - 40, pair.next_id - 2):
                pair.cancel(oid)
        else:
            kind = Kind.IOC if draw > 0.95 else Kind.LIMIT
            pair.submit(uid, side, rng.randint(1, 200), rng.randint(1, 4), kind)
        pair.check(full=step % 500 == 0)
        deepest = max(deepest, min(pair.new.level_count))
    pair.check()
    assert deepest > 25, deepest  # the stream did reach books of many levels on both sides
