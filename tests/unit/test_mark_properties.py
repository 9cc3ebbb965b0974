"""What one order worth less than the impact notional can do to the mark, as properties over random
books, trades and orders (docs/decisions.md "A mark no single order can move" states them).

"Does not move", precisely: no rule that follows a market made of orders smaller than ``N`` can ignore
every such order (a book is a sequence of them), so what holds is a bound. Let ``n < N`` be what the
order is worth (what it trades plus what it leaves resting, at its prices), ``lo``..``hi`` the prices
in play (the book's, the order's, the trades the last price averages) and ``S = hi - lo``. With a last
price that averages at least ``N`` of trades (recent, so it counts), the raw mark moves by at most

- ``n/N * S * hi/lo`` (plus a tick of rounding) when both sides fill ``N`` before and after,
- ``2 * n/N * S * (hi/lo)**3`` (plus two ticks) when a side is thin (topped up at the last price);

an order far below ``N`` moves it by a small fraction of the prices around it, never to a price of
its own. The smoothed mark moves by no more than the raw mark does at any moment, and not at all for
an order whose effect lasts less than half the window. The old rule (median of the touch) fails the
first bound with a single lot.
"""

from __future__ import annotations

from decimal import Decimal as D

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from actors.book.order_book import OrderBook
from actors.book.types import Kind, Order, Precision, Side
from actors.pair.mark_rule import IMPACT, MID, THIN, Raw, Smoother, mark_of
from actors.pair.mark_state import MarkState

P = Precision(2, 3)  # prices in cents, quantities in thousandths
TICK = D("0.01")
MID_TICKS = 10_000  # the books sit around 100.00
TAKER = 9_999  # the order's user: none of the makers


def price(ticks: int) -> D:
    return P.price(ticks)


levels = st.lists(st.tuples(st.integers(1, 400), st.integers(1, 40_000)), min_size=0, max_size=8)
history = st.lists(st.tuples(st.integers(-400, 400), st.integers(1, 40_000)), min_size=1, max_size=6)


def build(bids: list[tuple[int, int]], asks: list[tuple[int, int]]) -> OrderBook:
    book = OrderBook()
    for i, (offset, lots) in enumerate(bids):
        book.submit(Order(i + 1, 100 + i, Side.BUY, MID_TICKS - offset, lots))
    for i, (offset, lots) in enumerate(asks):
        book.submit(Order(1_000 + i, 1_100 + i, Side.SELL, MID_TICKS + offset, lots))
    return book


def state(notional: D, trades: list[tuple[int, int]]) -> MarkState:
    mark = MarkState(notional=notional, precision=P, window_ms=0, interval_ms=100, now_ms=0, seed=None)
    mark.count(({"buyer_id": 1, "seller_id": 2, "price": price(MID_TICKS + o), "volume": price(MID_TICKS + o) * P.qty(q)}
                for o, q in trades), 0)  # fmt: skip
    return mark


# Most draws fail one of the two assumptions (an established last price, an order under the notional):
# on a loaded machine the health check counted 50 filtered to 6 kept and stopped the run, though every
# kept example was checked. The assertions are unchanged; only the generation-rate check is off.
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    bids=levels,
    asks=levels,
    trades=history,
    notional=st.integers(50, 3_000).map(D),
    side=st.sampled_from([Side.BUY, Side.SELL]),
    kind=st.sampled_from([Kind.LIMIT, Kind.MARKET]),
    offset=st.integers(-500, 500),
    lots=st.integers(1, 40_000),
)
def test_one_order_worth_less_than_the_notional_moves_the_mark_at_most_its_share(
    bids: list[tuple[int, int]], asks: list[tuple[int, int]], trades: list[tuple[int, int]], notional: D,
    side: Side, kind: Kind, offset: int, lots: int,
) -> None:  # fmt: skip
    assume(sum(price(MID_TICKS + o) * P.qty(q) for o, q in trades) >= notional)  # an established last price
    book = build(bids, asks)
    mark = state(notional, trades)
    before = mark.observe(book, 0)
    thin_before = mark.inputs(book, 0)[3]

    limit = MID_TICKS + offset if kind == Kind.LIMIT else 0
    order = Order(50_000, TAKER, side, limit, lots)
    result = book.submit(order, kind=kind)
    fills = [(price(f.price), P.qty(f.qty)) for f in result.fills]
    resting = price(limit) * P.qty(result.resting.remaining) if result.resting is not None else D(0)
    worth = sum((p * q for p, q in fills), D(0)) + resting
    assume(0 < worth < notional)
    mark.count(({"buyer_id": TAKER, "seller_id": 1, "price": p, "volume": p * q} for p, q in fills), 1)
    after = mark.observe(book, 1)
    thin_after = mark.inputs(book, 1)[3]

    assert before is not None and after is not None and {before.rule, after.rule} <= {IMPACT, THIN}
    in_play = [price(MID_TICKS - o) for o, _ in bids] + [price(MID_TICKS + o) for o, _ in asks]
    in_play += [price(MID_TICKS + o) for o, _ in trades] + [p for p, _ in fills]
    if limit:
        in_play.append(price(limit))
    lo, hi = min(in_play), max(in_play)
    share, span, ratio = worth / notional, hi - lo, hi / lo
    if not thin_before and not thin_after:
        bound = share * span * ratio + TICK
    else:
        bound = 2 * share * span * ratio**3 + 2 * TICK
    assert abs(after.price - before.price) <= bound, (before, after, worth, bound)


@settings(max_examples=200, deadline=None)
@given(
    steps=st.lists(st.tuples(st.integers(1, 2_000), st.integers(9_000, 11_000)), min_size=1, max_size=12),
    shifts=st.lists(st.integers(-50, 50), min_size=12, max_size=12),
    window=st.integers(0, 3_000),
    at=st.integers(0, 30_000),
)
def test_the_smoothed_mark_moves_no_more_than_the_raw_mark_did(
    steps: list[tuple[int, int]], shifts: list[int], window: int, at: int
) -> None:
    """Two raw paths that never differ by more than ``d``: smoothed marks at most ``d`` apart."""
    one, two = Smoother(window, 0), Smoother(window, 0)
    now = 0
    for (gap, ticks), shift in zip(steps, shifts, strict=False):
        one.observe(now, Raw(price(ticks), IMPACT))
        two.observe(now, Raw(price(ticks + shift), IMPACT))
        now += gap
    d = price(max(abs(s) for s in shifts[: len(steps)]))
    a, b = one.value(now + at), two.value(now + at)
    assert a is not None and b is not None and abs(a.price - b.price) <= d


@settings(max_examples=200, deadline=None)
@given(
    steady=st.integers(9_000, 11_000),
    blip=st.integers(1, 20_000),
    window=st.integers(2, 5_000),
    start=st.integers(0, 10_000),
    length=st.integers(0, 5_000),
)
def test_a_raw_mark_held_less_than_half_the_window_does_not_move_the_smoothed_mark(
    steady: int, blip: int, window: int, start: int, length: int
) -> None:
    assume(2 * length < window)
    smooth = Smoother(window, 0)
    smooth.observe(0, Raw(price(steady), IMPACT))
    began = window + start  # a full window of the steady mark first
    smooth.observe(began, Raw(price(blip), IMPACT))
    smooth.observe(began + length, Raw(price(steady), IMPACT))
    for t in range(began, began + window + 1, max(1, window // 20)):
        found = smooth.value(t)
        assert found is not None and found.price == price(steady)


def test_under_the_old_rule_one_lot_inside_the_spread_set_the_mark() -> None:
    """The defect (issue 27, item 6): with the median of the touch, one bid of one lot just below the ask
    made the mark; with impact prices over 1,000 it moves the impact bid by a hundredth of the way and
    the mark not at all (the last price lies between the impact prices)."""
    book = build([(100, 20_000)], [(100, 20_000)])  # 20 bid at 99, 20 asked at 101: 2,000 a side
    assert mark_of(price(9_900), price(10_100), D("100"), 2) == D("100")
    book.submit(Order(7, TAKER, Side.BUY, 10_099, 1))  # 0.001 at 100.99
    assert mark_of(price(10_099), price(10_100), D("100"), 2) == D("100.99")  # the old rule: the bidder's price
    mark = state(D(1000), [(0, 20_000)])  # 2,000 traded at 100
    assert mark.observe(book, 0) == Raw(D("100"), IMPACT)
    bid, ask, last, _ = mark.inputs(book, 0)
    assert (bid, ask, last) == (D("99.00"), D("101.00"), D("100"))  # 0.1 of 1,000 moves 99 by 0.0002: no tick


def test_no_last_price_gives_the_middle_of_the_impact_prices() -> None:
    mark = MarkState(notional=D(1000), precision=P, window_ms=0, interval_ms=100, now_ms=0, seed=None)
    assert mark.observe(build([(100, 20_000)], [(300, 20_000)]), 0) == Raw(D("101.00"), MID)  # 99 and 103
    assert mark.observe(build([(100, 20_000)], [(300, 5_000)]), 0) is None  # and a thin side: none
