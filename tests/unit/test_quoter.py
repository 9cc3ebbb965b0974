"""The market maker's quoter (issue 15, "an idle exchange must idle"): a ladder on a fixed grid, so
the bot re-quotes only the levels the reference crossed, a taker that trades within a bounded number
of ticks, and a jittered slow timer."""

from __future__ import annotations

from decimal import Decimal

import pytest

from actors.book.order_book import OrderBook
from actors.book.types import Order, Precision, Side
from actors.maker.quoter import BUY, MAX_QUIET_TICKS, SELL, Quoter
from actors.pair.mark_state import MarkState

STEP = 0.001  # the quoter's default grid step


def btc(reference: str = "90000", **kwargs: object) -> Quoter:
    return Quoter(reference=Decimal(reference), price_decimals=4, qty_decimals=6, seed=7, **kwargs)  # type: ignore[arg-type]


def prices(q: Quoter) -> set[tuple[int, Decimal]]:
    return {(quote.way, quote.price) for quote in q.ladder()}


def test_five_bids_below_and_five_asks_above_the_reference_one_step_apart() -> None:
    q = btc()
    bids = sorted((p for way, p in prices(q) if way == BUY), reverse=True)
    asks = sorted(p for way, p in prices(q) if way == SELL)
    assert len(bids) == len(asks) == 5
    assert bids[0] <= q.reference < asks[0]
    assert asks[0] / bids[0] - 1 < Decimal(STEP) * Decimal("1.01")  # the spread is one grid step
    for side in (bids, asks):
        for a, b in zip(side, side[1:], strict=False):
            assert abs(abs(b / a - 1) - Decimal(STEP)) < Decimal("0.000002")


def test_a_move_within_a_grid_step_requotes_nothing() -> None:
    q = btc()
    before = prices(q)
    bid = max(p for way, p in before if way == BUY)
    ask = min(p for way, p in before if way == SELL)
    # the cell is [bid, the next grid point rounded down): the ask, rounded up, is a tick above that
    for reference in (bid, bid + Decimal("0.0001"), (bid + ask) / 2, ask - Decimal("0.0002")):
        q.reference = reference.quantize(Decimal("0.0001"))
        assert prices(q) == before


def test_a_move_of_one_step_requotes_one_level_per_side() -> None:
    q = btc()
    before = prices(q)
    q.reference = min(p for way, p in before if way == SELL)  # up onto the next grid point
    after = prices(q)
    assert len(after - before) == 2 and len(before - after) == 2  # one new order and one cancel per side
    assert {way for way, _ in after - before} == {BUY, SELL}


def test_the_grid_is_the_same_whatever_the_start() -> None:
    """A restarted bot whose reference is elsewhere in the same cell wants the quotes it left."""
    assert prices(btc("90000")) == prices(btc("90010"))


def test_a_random_walk_requotes_a_few_levels_a_tick_not_the_ladder() -> None:
    q = btc()
    changed, ticks = 0, 500
    previous = prices(q)
    for _ in range(ticks):
        q.drift()
        now = prices(q)
        changed += len(now - previous)
        previous = now
    # the old ladder (offsets from the reference) replaced all 10 quotes on nearly every tick
    assert changed / ticks < 2.5


def test_the_taker_trades_within_a_bounded_number_of_ticks() -> None:
    q = btc()
    decisions = [q.trades_now() for _ in range(2000)]
    quiet = longest = 0
    for trade in decisions:
        quiet = 0 if trade else quiet + 1
        longest = max(longest, quiet)
    assert longest <= MAX_QUIET_TICKS
    assert 0.4 < sum(decisions) / len(decisions) < 0.8  # about every other tick, not every tick


def test_the_slow_timer_is_jittered_around_its_interval() -> None:
    q = btc()
    waits = [q.pause(8.0) for _ in range(1000)]
    assert all(4.0 <= w <= 12.0 for w in waits)
    assert len({round(w, 3) for w in waits}) > 900
    assert 7.5 < sum(waits) / len(waits) < 8.5


@pytest.mark.parametrize("last", [None, "85000", "95000", "90000"])
def test_at_the_end_of_a_walk_the_bots_quotes_alone_make_the_mark_the_target(last: str | None) -> None:
    """The house's trades with itself make no last price, so the walk's end quotes the target into the
    impact prices: whatever the pair's last price, the mark's rule then gives the target itself."""
    target, notional = Decimal("90000"), Decimal(1000)
    q = btc("88000")
    q.aim(target, start=Decimal("88000"), now=0.0, seconds=10.0)
    q.drift(100.0)  # arrived: the reference is the target
    anchor = q.anchor(Decimal(last) if last else None, notional)
    bid = max((a.price for a in anchor if a.way == BUY), default=None)
    ask = min((a.price for a in anchor if a.way == SELL), default=None)
    ladder = [x for x in q.ladder() if not (bid is not None and x.way == BUY and x.price > bid)
              and not (ask is not None and x.way == SELL and x.price < ask)]  # fmt: skip
    book, p = OrderBook(), Precision(4, 6)
    for i, quote in enumerate([*ladder, *anchor], start=1):
        book.submit(Order(i, 1, Side(quote.way), p.to_ticks(quote.price), p.to_lots(quote.number)))
    mark = MarkState(notional=notional, precision=p, window_ms=0, interval_ms=100, now_ms=0)
    if last is not None:
        mark.count([{"buyer_id": 2, "seller_id": 3, "price": Decimal(last), "volume": notional}], 0)
    assert mark.observe(book, 0) is not None and mark.observe(book, 0).price == target  # type: ignore[union-attr]
    assert all(a.price * a.number >= notional for a in anchor)
