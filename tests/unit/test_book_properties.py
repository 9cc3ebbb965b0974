"""Properties of the matching core under random command streams, checked after every command.

``RefBook`` is a deliberately naive model (a list scanned for the best maker on every step) that
the real book must agree with fill for fill; on top of that each step checks the invariants the
rest of the exchange relies on: never crossed, per-order conservation, level totals, fill prices
and price-time priority against the book as it was before the command.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from actors.book import Kind, Order, OrderBook, Precision, Side
from actors.book.rounding import buy_qty, ceil_total, floor_qty, trim_price

UIDS = st.integers(1, 4)  # few users, so self-trade prevention happens often
PRICES = st.integers(95, 105)  # a narrow band of ticks, so orders cross and levels stack up
QTYS = st.integers(1, 12)
SIDES = st.sampled_from([Side.BUY, Side.SELL])


@dataclass
class RefOrder:
    oid: int
    uid: int
    side: Side
    price: int
    remaining: int
    seq: int


class RefBook:
    """The obvious, slow book: every step picks the best maker by (price, seq) from a flat list."""

    def __init__(self) -> None:
        self.resting: list[RefOrder] = []
        self.seq = 0

    def best_maker(self, side: Side) -> RefOrder | None:
        makers = [o for o in self.resting if o.side != side]
        if not makers:
            return None
        sign = 1 if side == Side.BUY else -1  # a buyer wants the lowest ask, a seller the highest bid
        return min(makers, key=lambda o: (sign * o.price, o.seq))

    def submit(
        self, oid: int, uid: int, side: Side, price: int, qty: int, kind: Kind, budget: int | None
    ) -> tuple[list[tuple[int, int, int]], list[int], int, bool]:
        """(fills as (maker id, price, qty), expired maker ids, cancelled lots, rested?)."""
        self.seq += 1
        rem, fills, expired = qty, [], []
        while rem:
            maker = self.best_maker(side)
            if maker is None:
                break
            if kind != Kind.MARKET and (maker.price > price if side == Side.BUY else maker.price < price):
                break
            if budget is not None and budget // maker.price == 0:
                break
            if maker.uid == uid:
                self.resting.remove(maker)
                expired.append(maker.oid)
                continue
            take = min(rem, maker.remaining, budget // maker.price if budget is not None else rem)
            fills.append((maker.oid, maker.price, take))
            rem -= take
            maker.remaining -= take
            if budget is not None:
                budget -= take * maker.price
            if not maker.remaining:
                self.resting.remove(maker)
        if rem and kind == Kind.LIMIT:
            self.resting.append(RefOrder(oid, uid, side, price, rem, self.seq))
            return fills, expired, 0, True
        return fills, expired, rem, False

    def cancel(self, oid: int) -> int | None:
        for order in self.resting:
            if order.oid == oid:
                self.resting.remove(order)
                return order.remaining
        return None


class Checker:
    """Drives the real book and the reference side by side and checks every answer and invariant.

    The ledger (``qty``, ``filled``, ``cancelled`` per order id) is built only from what the book
    reported, so conservation is checked against the book's own answers, not its arithmetic.
    """

    def __init__(self) -> None:
        self.book = OrderBook()
        self.ref = RefBook()
        self.next_id = 1
        self.qty: dict[int, int] = {}
        self.filled: defaultdict[int, int] = defaultdict(int)
        self.cancelled: defaultdict[int, int] = defaultdict(int)

    def submit(self, uid: int, side: Side, price: int, qty: int, kind: Kind, budget: int | None = None) -> None:
        oid = self.next_id
        self.next_id += 1
        before = {o.order_id: (o.price, o.seq, o.remaining) for o in self.book.open_orders() if o.side != side}
        order = Order(oid, uid, side, price, qty, budget=budget)

        result = self.book.submit(order, kind=kind)
        ref_fills, ref_expired, ref_cancelled, ref_rested = self.ref.submit(oid, uid, side, price, qty, kind, budget)

        assert [(f.maker_order_id, f.price, f.qty) for f in result.fills] == ref_fills
        assert [o.order_id for o in result.expired_makers] == ref_expired
        assert result.cancelled == ref_cancelled
        assert (result.resting is order) == ref_rested
        self.qty[oid] = qty
        self.cancelled[oid] += result.cancelled
        for maker in result.expired_makers:
            assert maker.uid == uid and maker.remaining == 0
            self.cancelled[maker.order_id] += before[maker.order_id][2]
        consumed = {o.order_id for o in result.expired_makers}
        spent = 0
        sign = 1 if side == Side.BUY else -1
        for fill in result.fills:
            assert (fill.taker_order_id, fill.taker_uid, fill.taker_side) == (oid, uid, side)
            assert fill.maker_uid != uid and fill.qty > 0
            maker_price, maker_seq, _ = before[fill.maker_order_id]
            assert fill.price == maker_price
            if kind != Kind.MARKET:
                assert fill.price <= price if side == Side.BUY else fill.price >= price
            # Priority: no maker still available had a better price, or the same price and an earlier seq.
            available = [(sign * p, s) for i, (p, s, _) in before.items() if i not in consumed]
            assert (sign * fill.price, maker_seq) == min(available)
            self.filled[fill.maker_order_id] += fill.qty
            self.filled[oid] += fill.qty
            if self.book.get(fill.maker_order_id) is None:
                consumed.add(fill.maker_order_id)
            spent += fill.price * fill.qty
        if budget is not None:
            assert spent <= budget

    def cancel(self, oid: int) -> None:
        open_order = self.book.get(oid)
        remaining = open_order.remaining if open_order is not None else None
        cancelled = self.book.cancel(oid)
        assert self.ref.cancel(oid) == remaining
        if cancelled is None:
            assert remaining is None
            return
        assert cancelled.order_id == oid and cancelled.remaining == 0 and remaining is not None
        self.cancelled[oid] += remaining
        assert cancelled.cancelled == self.cancelled[oid]
        assert self.book.get(oid) is None and self.book.cancel(oid) is None

    def rebuild(self) -> None:
        """What a restarted pair actor does: a fresh book from copies of the open orders."""
        rebuilt = OrderBook()
        for order in self.book.open_orders():
            rebuilt.restore(order.copy())
        assert rebuilt.depth(10_000) == self.book.depth(10_000)
        self.book = rebuilt

    def check(self) -> None:
        # Never crossed, and the best prices are the live levels' best.
        bid, ask = self.book.best_bid(), self.book.best_ask()
        assert bid is None or ask is None or bid < ask
        bids, asks = self.book.depth(10_000)
        assert bid == (bids[0][0] if bids else None) and ask == (asks[0][0] if asks else None)
        # Every order ever submitted: remaining + filled + cancelled == qty.
        for oid, qty in self.qty.items():
            open_order = self.book.get(oid)
            remaining = open_order.remaining if open_order is not None else 0
            assert remaining + self.filled[oid] + self.cancelled[oid] == qty, oid
        # Levels add up to the open orders, and agree with the reference level by level.
        open_orders = list(self.book.open_orders())
        assert len(open_orders) == len(self.book) == len(self.ref.resting)
        assert all(o.remaining > 0 for o in open_orders)
        assert sum(q for _, q in bids + asks) == sum(o.remaining for o in open_orders)
        assert [p for p, _ in bids] == sorted({p for p, _ in bids}, reverse=True)
        assert [p for p, _ in asks] == sorted({p for p, _ in asks})
        per_level: defaultdict[tuple[Side, int], int] = defaultdict(int)
        for o in self.ref.resting:
            per_level[(o.side, o.price)] += o.remaining
        assert {(Side.BUY, p): q for p, q in bids} | {(Side.SELL, p): q for p, q in asks} == per_level
        seqs = [o.seq for o in open_orders]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


class BookMachine(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        self.checker = Checker()

    @rule(uid=UIDS, side=SIDES, price=PRICES, qty=QTYS, ioc=st.booleans())
    def place_limit(self, uid: int, side: Side, price: int, qty: int, ioc: bool) -> None:
        self.checker.submit(uid, side, price, qty, Kind.IOC if ioc else Kind.LIMIT)

    @rule(uid=UIDS, side=SIDES, qty=QTYS)
    def place_market(self, uid: int, side: Side, qty: int) -> None:
        self.checker.submit(uid, side, 0, qty, Kind.MARKET)

    @rule(uid=UIDS, qty=st.integers(1, 40), budget=st.integers(0, 2_000))
    def market_buy_with_budget(self, uid: int, qty: int, budget: int) -> None:
        self.checker.submit(uid, Side.BUY, 0, qty, Kind.MARKET, budget)

    @rule(data=st.data(), any_id=st.booleans())
    def cancel(self, data: st.DataObject, any_id: bool) -> None:
        open_ids = [o.order_id for o in self.checker.book.open_orders()]
        if any_id or not open_ids:  # sometimes filled or cancelled already, sometimes never seen
            self.checker.cancel(data.draw(st.integers(1, self.checker.next_id + 2)))
        else:
            self.checker.cancel(data.draw(st.sampled_from(open_ids)))

    @rule()
    def rebuild_from_persisted_orders(self) -> None:
        self.checker.rebuild()

    @invariant()
    def book_is_consistent(self) -> None:
        self.checker.check()


TestBookMachine = BookMachine.TestCase
# A loaded CI machine must not turn slow example generation into a failure (warnings are errors).
_ROBUST = [HealthCheck.too_slow, HealthCheck.data_too_large]
TestBookMachine.settings = settings(
    max_examples=300, stateful_step_count=40, deadline=None, suppress_health_check=_ROBUST
)


_LIMIT_OP = st.tuples(st.just("limit"), UIDS, SIDES, st.integers(1, 300), QTYS, st.booleans())
_MARKET_OP = st.tuples(st.just("market"), UIDS, SIDES, st.integers(1, 60), st.none() | st.integers(0, 20_000))
_CANCEL_OP = st.tuples(st.just("cancel"), st.integers(0, 10**6))
_OPS = st.lists(
    st.one_of(_LIMIT_OP, _LIMIT_OP, _CANCEL_OP, _CANCEL_OP, _MARKET_OP, st.tuples(st.just("rebuild"))),
    min_size=100,
    max_size=400,
)


@settings(max_examples=40, deadline=None, suppress_health_check=_ROBUST)
@given(ops=_OPS)
def test_long_streams_over_many_levels_agree_with_the_reference(ops: list[tuple[object, ...]]) -> None:
    """Longer runs over a wide price band: many levels are born and emptied away from the top
    (stale heap keys, lazy deletion), which short runs on a narrow band rarely reach."""
    checker = Checker()
    for op in ops:
        match op:
            case ("limit", uid, side, price, qty, ioc):
                checker.submit(uid, side, price, qty, Kind.IOC if ioc else Kind.LIMIT)  # type: ignore[arg-type]
            case ("market", uid, side, qty, budget):
                buy = side == Side.BUY
                checker.submit(uid, side, 0, qty, Kind.MARKET, budget if buy else None)  # type: ignore[arg-type]
            case ("cancel", int(pick)):
                open_ids = [o.order_id for o in checker.book.open_orders()]
                checker.cancel(open_ids[pick % len(open_ids)] if open_ids and pick % 5 else pick)
            case ("rebuild",):
                checker.rebuild()
        checker.check()


P = Precision()
DECIMALS = st.decimals(min_value=Decimal("0.000000001"), max_value=Decimal("1e12"), places=9, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(ticks=st.integers(1, 10**20), lots=st.integers(1, 10**20))
def test_precision_round_trips(ticks: int, lots: int) -> None:
    assert P.to_ticks(P.price(ticks)) == ticks and P.to_lots(P.qty(lots)) == lots
    assert Fraction(P.quote(ticks, lots)) == Fraction(ticks * lots, 10**10)  # exact, whatever the size


@settings(max_examples=300, deadline=None)
@given(value=DECIMALS)
def test_rounding_helpers_bracket_the_value(value: Decimal) -> None:
    step6, step4 = Fraction(1, 10**6), Fraction(1, 10**4)
    exact = Fraction(value)
    assert exact - step4 < Fraction(trim_price(value)) <= exact
    assert exact - step6 < Fraction(floor_qty(value)) <= exact
    assert exact <= Fraction(ceil_total(value)) < exact + step6
    if exact >= step4:  # once trimmed, Precision takes it as it is
        assert P.to_ticks(trim_price(value)) == int(exact * 10**4)
    if exact >= step6:
        assert P.to_lots(floor_qty(value)) == int(exact * 10**6)


@settings(max_examples=300, deadline=None)
@given(balance=DECIMALS, percent=st.sampled_from(["0.25", "0.5", "0.75", "1"]), price=DECIMALS)
def test_buy_qty_is_the_exact_floor(balance: Decimal, percent: str, price: Decimal) -> None:
    exact = Fraction(balance) * Fraction(percent) / Fraction(price)
    assert Fraction(buy_qty(balance, Decimal(percent), price)) == Fraction(int(exact * 10**6), 10**6)
