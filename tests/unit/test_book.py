"""Scenarios for the pure matching core, read as trades: "alice bids 1.5 at 60000; bob sells 2 at market"."""

from __future__ import annotations

from decimal import Decimal as D
from itertools import count

import pytest

from actors.book import Fill, Kind, Order, OrderBook, Precision, Side, SubmitResult

P = Precision()  # BTC/USDT: prices to 4 decimals, quantities to 6
ALICE, BOB, CAROL = 1, 2, 3
_ids = count(1)


def limit(book: OrderBook, uid: int, side: Side, qty: str, price: str, kind: Kind = Kind.LIMIT) -> SubmitResult:
    return book.submit(Order(next(_ids), uid, side, P.to_ticks(D(price)), P.to_lots(D(qty))), kind=kind)


def market(book: OrderBook, uid: int, side: Side, qty: str, budget: str | None = None) -> SubmitResult:
    order = Order(
        next(_ids), uid, side, 0, P.to_lots(D(qty)), budget=None if budget is None else P.to_budget(D(budget))
    )
    return book.submit(order, kind=Kind.MARKET)


def trades(result: SubmitResult) -> list[tuple[int, str, str]]:
    """(maker uid, qty, price) of each fill, in Decimal strings for readability."""
    return [(f.maker_uid, f"{P.qty(f.qty).normalize():f}", f"{P.price(f.price).normalize():f}") for f in result.fills]


def lots(qty: str) -> int:
    return P.to_lots(D(qty))


def test_alice_bids_then_bob_sells_more_at_market() -> None:
    book = OrderBook()
    bid = limit(book, ALICE, Side.BUY, "1.5", "60000")
    assert bid.resting is not None and bid.fills == []

    sold = market(book, BOB, Side.SELL, "2")

    assert trades(sold) == [(ALICE, "1.5", "60000")]
    assert sold.fills[0] == Fill(
        bid.resting.order_id, sold.fills[0].taker_order_id, ALICE, BOB, 600_000_000, lots("1.5"), Side.SELL
    )
    assert sold.cancelled == lots("0.5") and sold.resting is None
    assert len(book) == 0 and book.best_bid() is None


def test_partial_fill_leaves_the_maker_resting_and_trades_at_the_makers_price() -> None:
    book = OrderBook()
    ask = limit(book, ALICE, Side.SELL, "2", "60000").resting
    bought = limit(book, BOB, Side.BUY, "0.5", "60100")

    assert trades(bought) == [(ALICE, "0.5", "60000")]
    assert bought.resting is None and bought.cancelled == 0
    assert ask is not None and ask.remaining == lots("1.5") and ask.filled == lots("0.5")
    assert book.depth() == ([], [(600_000_000, lots("1.5"))])


def test_a_crossing_limit_rests_its_remainder_at_its_own_price() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60000")
    bought = limit(book, BOB, Side.BUY, "3", "60005")

    assert trades(bought) == [(ALICE, "1", "60000")]
    assert bought.resting is not None and bought.resting.remaining == lots("2")
    assert (book.best_bid(), book.best_ask()) == (P.to_ticks(D("60005")), None)


def test_time_priority_at_one_price() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60000")
    limit(book, CAROL, Side.SELL, "1", "60000")

    bought = limit(book, BOB, Side.BUY, "1.5", "60000")

    assert trades(bought) == [(ALICE, "1", "60000"), (CAROL, "0.5", "60000")]


def test_better_price_goes_first_even_if_it_came_later() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60010")
    limit(book, CAROL, Side.SELL, "1", "60000")

    bought = limit(book, BOB, Side.BUY, "1.5", "60010")

    assert trades(bought) == [(CAROL, "1", "60000"), (ALICE, "0.5", "60010")]


def test_bids_are_matched_highest_first() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.BUY, "1", "59990")
    limit(book, CAROL, Side.BUY, "1", "60000")

    sold = limit(book, BOB, Side.SELL, "2", "59990")

    assert trades(sold) == [(CAROL, "1", "60000"), (ALICE, "1", "59990")]


def test_market_buy_spends_at_most_its_budget() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60000")
    limit(book, CAROL, Side.SELL, "1", "60100")

    bought = market(book, BOB, Side.BUY, "5", budget="90000")

    # 60000 buys alice's 1; the 30000 left buys floor(30000 / 60100, 6 decimals) of carol's.
    assert trades(bought) == [(ALICE, "1", "60000"), (CAROL, "0.499168", "60100")]
    spent = sum((P.quote(f.price, f.qty) for f in bought.fills), D(0))
    assert spent == D("89999.9968") and D("90000") - spent < P.quote(P.to_ticks(D("60100")), 1)
    assert bought.cancelled == lots("5") - lots("1.499168") and bought.resting is None
    assert book.get(bought.fills[1].maker_order_id).remaining == lots("0.500832")  # type: ignore[union-attr]


def test_market_buy_with_a_budget_below_one_lot_trades_nothing() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60000")

    bought = market(book, BOB, Side.BUY, "1", budget="0.05")  # one lot costs 0.06

    assert bought.fills == [] and bought.cancelled == lots("1") and len(book) == 1


def test_market_buy_without_budget_walks_the_book_for_its_quantity() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60000")
    limit(book, CAROL, Side.SELL, "1", "61000")

    bought = market(book, BOB, Side.BUY, "1.25")

    assert trades(bought) == [(ALICE, "1", "60000"), (CAROL, "0.25", "61000")]
    assert bought.cancelled == 0


def test_market_sell_into_an_empty_book_is_all_cancelled() -> None:
    book = OrderBook()

    sold = market(book, BOB, Side.SELL, "2")

    assert sold.fills == [] and sold.resting is None and sold.cancelled == lots("2")
    assert len(book) == 0 and book.depth() == ([], [])


def test_ioc_cancels_what_it_cannot_fill_at_once() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60000")
    limit(book, CAROL, Side.SELL, "1", "60100")

    bought = limit(book, BOB, Side.BUY, "3", "60000", kind=Kind.IOC)

    assert trades(bought) == [(ALICE, "1", "60000")]
    assert bought.resting is None and bought.cancelled == lots("2") and book.best_bid() is None


def test_cancel_a_partially_filled_order() -> None:
    book = OrderBook()
    ask = limit(book, ALICE, Side.SELL, "2", "60000").resting
    assert ask is not None
    limit(book, BOB, Side.BUY, "0.5", "60000")

    cancelled = book.cancel(ask.order_id)

    assert cancelled is ask
    assert (ask.remaining, ask.filled, ask.cancelled) == (0, lots("0.5"), lots("1.5"))
    assert len(book) == 0 and book.best_ask() is None and book.get(ask.order_id) is None
    assert book.cancel(ask.order_id) is None  # already gone


def test_cancel_an_unknown_id_returns_none() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60000")

    assert book.cancel(999_999) is None
    assert len(book) == 1


def test_cancelled_orders_lose_their_place_but_the_queue_keeps_its_order() -> None:
    book = OrderBook()
    first = limit(book, ALICE, Side.SELL, "1", "60000").resting
    limit(book, CAROL, Side.SELL, "1", "60000")
    assert first is not None
    book.cancel(first.order_id)

    bought = limit(book, BOB, Side.BUY, "1", "60000")

    assert trades(bought) == [(CAROL, "1", "60000")]


def test_depth_aggregates_each_price_best_first() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.BUY, "1", "59990")
    limit(book, CAROL, Side.BUY, "0.5", "60000")
    limit(book, ALICE, Side.BUY, "0.25", "60000")
    limit(book, BOB, Side.SELL, "2", "60020")
    limit(book, BOB, Side.SELL, "1", "60010")
    limit(book, CAROL, Side.SELL, "3", "60010")

    bids, asks = book.depth()

    assert bids == [(P.to_ticks(D("60000")), lots("0.75")), (P.to_ticks(D("59990")), lots("1"))]
    assert asks == [(P.to_ticks(D("60010")), lots("4")), (P.to_ticks(D("60020")), lots("2"))]
    assert book.depth(1) == (bids[:1], asks[:1])
    assert (book.best_bid(), book.best_ask()) == (bids[0][0], asks[0][0])


def test_self_trade_prevention_cancels_the_resting_maker_and_keeps_matching() -> None:
    book = OrderBook()
    own = limit(book, ALICE, Side.SELL, "1", "60000").resting
    limit(book, CAROL, Side.SELL, "1", "60000")

    bought = limit(book, ALICE, Side.BUY, "1.5", "60000")

    assert bought.expired_makers == [own]
    assert own is not None and (own.remaining, own.cancelled) == (0, lots("1"))
    assert trades(bought) == [(CAROL, "1", "60000")]
    assert bought.resting is not None and bought.resting.remaining == lots("0.5")
    assert (book.best_bid(), book.best_ask()) == (P.to_ticks(D("60000")), None)  # not crossed


def test_restore_rebuilds_the_book_with_the_same_priority() -> None:
    book = OrderBook()
    limit(book, ALICE, Side.SELL, "1", "60000")
    limit(book, CAROL, Side.SELL, "1", "60000")
    limit(book, BOB, Side.BUY, "0.5", "60000")  # alice now has 0.5 left, still first
    limit(book, BOB, Side.BUY, "1", "59000")
    persisted = [o.copy() for o in book.open_orders()]

    rebuilt = OrderBook()
    for order in persisted:
        rebuilt.restore(order)

    assert rebuilt.depth() == book.depth() and len(rebuilt) == 3
    assert [o.seq for o in rebuilt.open_orders()] == [o.seq for o in book.open_orders()]
    bought = limit(rebuilt, BOB, Side.BUY, "1", "60000")
    assert trades(bought) == [(ALICE, "0.5", "60000"), (CAROL, "0.5", "60000")]
    assert bought.fills and rebuilt.last_seq > max(o.seq for o in persisted)


def test_reduce_keeps_a_partly_filled_order_first_in_its_level() -> None:
    """A copy of the book learns that alice's 1 BTC ask at 60000 filled 0.4 elsewhere: she keeps her place."""
    book = OrderBook()
    alice = limit(book, ALICE, Side.SELL, "1", "60000").resting
    limit(book, CAROL, Side.SELL, "1", "60000")
    assert alice is not None

    book.reduce(alice.order_id, lots("0.6"))

    assert book.depth() == ([], [(P.to_ticks(D("60000")), lots("1.6"))])
    assert (alice.remaining, alice.filled) == (lots("0.6"), lots("0.4"))
    bought = limit(book, BOB, Side.BUY, "1", "60000")
    assert trades(bought) == [(ALICE, "0.6", "60000"), (CAROL, "0.4", "60000")]


def test_reduce_refuses_an_order_not_resting_or_a_larger_remaining() -> None:
    book = OrderBook()
    alice = limit(book, ALICE, Side.SELL, "1", "60000").resting
    assert alice is not None
    with pytest.raises(ValueError, match="not on the book"):
        book.reduce(999_999, 1)
    for wrong in (0, lots("1.5")):
        with pytest.raises(ValueError, match="not in"):
            book.reduce(alice.order_id, wrong)
    assert book.depth() == ([], [(P.to_ticks(D("60000")), lots("1"))])


def test_restore_refuses_out_of_order_and_crossing_orders() -> None:
    book = OrderBook()
    book.restore(Order(1, ALICE, Side.SELL, 600_000_000, 10, seq=5))
    with pytest.raises(ValueError, match="seq"):
        book.restore(Order(2, CAROL, Side.SELL, 600_000_000, 10, seq=4))
    with pytest.raises(ValueError, match="cross"):
        book.restore(Order(3, BOB, Side.BUY, 600_000_000, 10, seq=6))
    assert len(book) == 1


def test_restore_refuses_duplicates_and_empty_orders() -> None:
    book = OrderBook()
    book.restore(Order(1, ALICE, Side.SELL, 600_000_000, 10, seq=1))
    with pytest.raises(ValueError, match="already"):
        book.restore(Order(1, ALICE, Side.SELL, 600_000_000, 10, seq=2))
    with pytest.raises(ValueError, match="nothing"):
        book.restore(Order(2, ALICE, Side.SELL, 600_000_000, 10, remaining=0, cancelled=10, seq=3))
    with pytest.raises(ValueError, match="side"):
        book.restore(Order(3, ALICE, 7, 600_000_000, 10, seq=4))
    assert 1 in book and 2 not in book and len(book) == 1


def test_a_level_thinned_by_many_cancels_keeps_time_priority() -> None:
    book = OrderBook()
    makers = [limit(book, 100 + i, Side.SELL, "0.1", "60000").resting for i in range(100)]
    keep = [m for i, m in enumerate(makers) if i % 4 == 0]
    for i, maker in enumerate(makers):
        if i % 4 and maker is not None:
            assert book.cancel(maker.order_id) is maker  # lazily, then the level is compacted

    assert book.orders_at(Side.SELL, P.to_ticks(D("60000"))) == keep
    assert book.depth() == ([], [(P.to_ticks(D("60000")), lots("2.5"))])
    bought = limit(book, BOB, Side.BUY, "2.5", "60000")
    assert [f.maker_order_id for f in bought.fills] == [m.order_id for m in keep if m is not None]
    assert len(book) == 0 and book.best_ask() is None


def test_levels_born_and_emptied_behind_the_top_do_not_leak() -> None:
    book = OrderBook()
    top = limit(book, ALICE, Side.BUY, "1", "60000").resting
    assert top is not None
    for round_ in range(20):
        deep = [limit(book, CAROL, Side.BUY, "0.1", f"{50000 + round_ * 7 + i}").resting for i in range(50)]
        for order in deep[1:]:
            assert order is not None and book.cancel(order.order_id) is order
        assert book.best_bid() == top.price
    # 1,000 levels were born, most emptied away from the top: only the live ones are indexed.
    assert book.level_count == (21, 0) and len(book._bid_keys) == 21
    assert book.cancel(top.order_id) is top
    bids, _ = book.depth(1_000)
    assert len(bids) == 20 and book.best_bid() == bids[0][0] == P.to_ticks(D(f"{50000 + 19 * 7}"))
    sold = market(book, BOB, Side.SELL, "2")
    assert [f.price for f in sold.fills] == [p for p, _ in bids] and book.best_bid() is None


@pytest.mark.parametrize(
    "order, kind",
    [
        (Order(1, ALICE, Side.BUY, 100, 0), Kind.LIMIT),
        (Order(1, ALICE, Side.BUY, 0, 10), Kind.LIMIT),
        (Order(1, ALICE, Side.BUY, 100, 10), Kind.MARKET),
        (Order(1, ALICE, Side.BUY, 100, 10, budget=1_000), Kind.LIMIT),
        (Order(1, ALICE, Side.SELL, 0, 10, budget=1_000), Kind.MARKET),
        (Order(1, ALICE, 3, 100, 10), Kind.LIMIT),
    ],
)
def test_invalid_orders_are_refused_without_touching_the_book(order: Order, kind: Kind) -> None:
    book = OrderBook()
    with pytest.raises(ValueError):
        book.submit(order, kind=kind)
    assert len(book) == 0 and book.last_seq == 0


def test_an_order_id_or_object_cannot_be_submitted_twice() -> None:
    book = OrderBook()
    order = Order(1, ALICE, Side.BUY, 100, 10)
    book.submit(order)
    with pytest.raises(ValueError, match="already"):
        book.submit(Order(1, BOB, Side.BUY, 100, 10))
    with pytest.raises(ValueError, match="already"):
        book.submit(order)
