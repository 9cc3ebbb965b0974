"""The mark price rule (actors.pair.mark_rule, actors.pair.mark_state) and the hash-chained tick log
(actors.pair.marks), without Ray or I/O."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal as D

import pytest

from actors.book.order_book import OrderBook
from actors.book.types import Order, Precision, Side
from actors.pair.mark_rule import IMPACT, MID, THIN, TOUCH, LastPrice, Raw, Smoother, raw_mark, related
from actors.pair.mark_state import MarkState
from actors.pair.marks import GENESIS, HASH_VERSION, Tick, TickLog, tick_hash, verify

P = Precision(4, 6)


def raw(price: str, rule: str = IMPACT) -> Raw:
    return Raw(D(price), rule)


@pytest.mark.parametrize(
    ("bid", "ask", "last", "mark", "rule"),
    [
        ("99", "101", "100", "100", IMPACT),  # a last price inside the impact spread
        ("99", "101", "150", "101", IMPACT),  # trades printed far above the book move the mark only to the ask
        ("99", "101", "20", "99", IMPACT),  # ... or far below, only to the bid
        ("10", "101", "100", "100", IMPACT),  # one impact price far away does not move it
        (None, "101", "100", "100", THIN),  # a side with nothing: the last price
        ("99", None, "100", "100", THIN),
        (None, None, "100", "100", THIN),
        ("99", "101", None, "100", MID),  # no last price: the middle of the impact prices
        ("99", "100", None, "99.5", MID),
        ("0.0001", "0.0002", None, "0.0002", MID),  # rounded to the pair's places, half to even
        (None, "101", None, None, None),  # no last price and a side that cannot fill: no mark
        (None, None, None, None, None),
    ],
)
def test_the_raw_mark_is_the_median_of_impact_bid_impact_ask_and_last(
    bid: str | None, ask: str | None, last: str | None, mark: str | None, rule: str | None
) -> None:
    def d(x: str | None) -> D | None:
        return D(x) if x is not None else None

    found = raw_mark(d(bid), d(ask), d(last), 4)
    assert (found.price, found.rule) == (D(mark), rule) if found else (mark, rule) == (None, None)


def book(*levels: tuple[Side, str, str]) -> OrderBook:
    """A book of one order per (side, price, quantity), each of its own user."""
    b = OrderBook()
    for i, (side, price, qty) in enumerate(levels, start=1):
        b.submit(Order(i, 1000 + i, side, P.to_ticks(D(price)), P.to_lots(D(qty))))
    return b


def test_impact_prices_average_the_first_notional_of_each_side() -> None:
    b = book((Side.BUY, "99", "10"), (Side.BUY, "98", "10"), (Side.SELL, "101", "5"), (Side.SELL, "103", "10"))
    mark = MarkState(notional=D(1000), precision=P, window_ms=0, interval_ms=100, now_ms=0, seed=D("100"))
    # bids: 990 at 99, then 10 more at 98; asks: 505 at 101, then 495 at 103.
    assert mark.inputs(b, 0) == (D("98.9899"), D("101.9802"), D("100"), False)
    assert mark.observe(b, 0) == raw("100")
    # In the book's units (ticks x lots): a side that holds less fills what it holds, with all its lots.
    held = 99_0000 * 10_000000 + 98_0000 * 10_000000
    assert b.impact(Side.BUY, 10 * held) == (held, 20_000000)
    assert b.impact(Side.BUY, 99_0000 * 4_000000) == (99_0000 * 4_000000, 4_000000)  # within the best level
    # A thin ask side is topped up at the last price: 505 at 101 and 495 at 100.
    thin = book((Side.BUY, "99", "20"), (Side.SELL, "101", "5"))
    assert mark.inputs(thin, 0) == (D("99"), D("100.5025"), D("100"), True)
    assert mark.observe(thin, 0) == raw("100", THIN)
    assert mark.inputs(OrderBook(), 0) == (D("100"), D("100"), D("100"), True)  # an empty book: the last price


def test_the_last_price_averages_the_latest_counted_trades_worth_the_notional() -> None:
    last = LastPrice(D(1000), seed=D("68000"), seed_ms=5)
    assert last.price(4) == D("68000") and last.at_ms == 5  # the seeded close stands in until the pair trades
    last.traded()  # a trade that does not count (the house with itself) still ends the seed's term
    assert last.price(4) is None and not last.recent(5, 60_000)
    last.add(D("100"), D("600"), 1_000)
    assert last.price(4) == D("100")  # less than the notional traded: all of it
    last.add(D("110"), D("600"), 2_000)  # 600 at 110 and the newest 400 of the 600 at 100
    assert last.price(4) == (D(1000) / (D(600) / 110 + D(400) / 100)).quantize(D("0.0001"))
    last.add(D("120"), D("5000"), 3_000)  # one trade worth more than the notional: its price
    assert last.price(4) == D("120")
    assert last.recent(63_000, 60_000) and not last.recent(63_001, 60_000)
    assert related(7, 7, frozenset()) and related(1, 2, frozenset({1, 2}))
    assert not related(1, 2, frozenset({1})) and not related(1, 2, frozenset())


def test_house_trades_and_self_trades_do_not_make_the_last_price() -> None:
    mark = MarkState(notional=D(100), precision=P, window_ms=0, interval_ms=100, now_ms=0, house={1, 2}, seed=None)
    mark.count([{"buyer_id": 3, "seller_id": 4, "price": D("50"), "volume": D("500")}], 0)
    mark.count([{"buyer_id": 1, "seller_id": 2, "price": D("90"), "volume": D("500")},  # the house with itself
                {"buyer_id": 5, "seller_id": 5, "price": D("90"), "volume": D("500")}], 0)  # fmt: skip
    assert mark.last.price(4) == D("50")
    mark.count([{"buyer_id": 1, "seller_id": 6, "price": D("60"), "volume": D("500")}], 0)  # the house with a user
    assert mark.last.price(4) == D("60")


def test_a_last_price_gone_stale_gives_way_to_the_book_but_still_fills_a_thin_side() -> None:
    """Past ``last_ms`` the last price no longer holds the mark where both sides fill the notional (the
    middle of the impact prices takes over: the book is the better evidence); a thin side still takes
    it, however old, since nothing else can fill what the side lacks."""
    mark = MarkState(notional=D(1000), precision=P, window_ms=0, interval_ms=100, now_ms=0, last_ms=60_000)
    mark.count([{"buyer_id": 3, "seller_id": 4, "price": D("100"), "volume": D("2000"),
                 "created_at": datetime.fromtimestamp(1, UTC)}])  # a row as the database gives it, at 1 s  # fmt: skip
    full = book((Side.BUY, "99", "20"), (Side.SELL, "103", "20"))
    assert mark.observe(full, 61_000) == raw("100")  # 60 s after the trade (at 1 s): still the last price
    assert mark.observe(full, 61_001) == Raw(D("101.0000"), MID)
    assert mark.inputs(full, 61_001)[2] is None
    thin = book((Side.BUY, "99", "20"), (Side.SELL, "103", "1"))
    assert mark.observe(thin, 600_000) == raw("100", THIN)


def test_a_blip_shorter_than_half_the_window_never_shows_and_a_move_shows_after_half() -> None:
    smooth = Smoother(window_ms=1000, began_ms=0)
    smooth.observe(0, raw("100"))
    assert smooth.value(0) == raw("100")  # nothing held yet: the raw mark as it is
    smooth.observe(2_000, raw("130"))
    smooth.observe(2_400, raw("100"))  # held 400 ms of a 1,000 ms window
    assert all(smooth.value(t) == raw("100") for t in range(2_000, 3_400, 50))
    assert not smooth.settled(3_399) and smooth.settled(3_400)  # (time only goes forward)
    smooth.observe(5_000, raw("90", THIN))  # a move that stays
    assert smooth.value(5_499) == raw("100") and smooth.value(5_500) == raw("90", THIN)
    assert not smooth.settled(5_999) and smooth.settled(6_000)


def test_the_window_starts_at_the_load_and_skips_times_without_a_mark() -> None:
    smooth = Smoother(window_ms=1000, began_ms=10_000)  # a pair loaded at 10 s, after an outage
    smooth.observe(10_000, None)
    smooth.observe(10_100, raw("100"))
    assert smooth.value(10_100) == raw("100")  # the time without a mark does not count
    smooth.observe(10_200, raw("120"))
    # 100 ms each of the 200 ms with a mark: at least half at or below 100 until 120 holds more
    assert smooth.value(10_300) == raw("100") and smooth.value(10_301) == raw("120")
    assert Smoother(window_ms=1000, began_ms=0).value(5) is None


def test_no_window_publishes_the_raw_mark_as_it_is() -> None:
    smooth = Smoother(window_ms=0, began_ms=0)
    smooth.observe(0, raw("100"))
    smooth.observe(10, raw("101"))
    assert smooth.value(10) == raw("101") and smooth.settled(10)


def test_ticks_chain_their_hashes_and_keep_to_the_interval() -> None:
    log = TickLog(pair_id=7, interval_ms=100)
    first = log.propose(raw("100"), now_ms=1_000)
    assert first is not None and (first.seq, first.time_ms, first.prev_hash) == (1, 1_000, GENESIS)
    assert (first.rule, first.version) == (IMPACT, HASH_VERSION) == (IMPACT, 2)
    assert first.hash == tick_hash(GENESIS, 7, 1, 1_000, D("100"), IMPACT, 2)
    assert first.id == (7 << 40) | 1
    assert first.public()["rule"] == "impact" and first.public()["version"] == 2
    log.accept(first)

    assert log.propose(raw("100", MID), now_ms=5_000) is None  # the price did not change: no tick
    assert log.propose(raw("101"), now_ms=1_050) is None  # a change within the interval waits ...
    assert log.changed(raw("101")) and log.wait_ms(1_050) == 50
    second = log.propose(raw("101"), now_ms=1_100)  # ... until it is over
    assert second is not None and second.prev_hash == first.hash and second.seq == 2
    log.accept(second)
    third = log.propose(raw("99.5"), now_ms=900)  # a clock that went back (a move to another node)
    assert third is not None and third.time_ms == second.time_ms + 1  # times still rise
    log.accept(third)
    assert verify([first, second, third]) and verify([second, third], prev_hash=first.hash)


def test_any_rewritten_dropped_or_reordered_tick_breaks_the_chain() -> None:
    log = TickLog(pair_id=1, interval_ms=1)
    chain = []
    for i, price in enumerate(["100", "101", "102", "101", "100"]):
        tick = log.propose(raw(price), now_ms=1_000 + i)
        assert tick is not None
        log.accept(tick)
        chain.append(tick)
    assert verify(chain)
    assert not verify([chain[0], replace(chain[1], price=D("150")), *chain[2:]])  # a settlement price rewritten
    assert not verify([chain[0], chain[2], *chain[3:]])  # a tick dropped
    assert not verify([chain[1], chain[0], *chain[2:]])  # reordered
    assert not verify(chain[1:], prev_hash=GENESIS)  # does not follow what the verifier holds
    forged = replace(chain[1], price=D("150"))
    forged = replace(forged, hash=forged.rehashed())
    assert not verify([chain[0], forged, *chain[2:]])  # re-hashing one tick breaks the next
    assert not verify([chain[0], replace(chain[1], rule=MID), *chain[2:]])  # version 2 covers the rule
    assert not verify([chain[0], replace(chain[1], version=1), *chain[2:]])  # ... and says it does
    assert not verify([chain[0], replace(chain[1], version=3), *chain[2:]])  # a version nobody knows


def test_a_log_written_before_the_rule_was_kept_still_verifies_and_goes_on() -> None:
    """Version-1 ticks (hash without the rule, rule ``touch``) as issue 10 wrote them, then the
    version-2 ticks of the new rule: one chain."""
    old: list[Tick] = []
    prev = GENESIS
    for seq, price in enumerate(["100", "101", "102"], start=1):
        digest = tick_hash(prev, 3, seq, 1_000 + seq, D(price))  # the format of issue 10, byte for byte
        assert digest == __import__("hashlib").sha256(f"{prev}|3|{seq}|{1_000 + seq}|{price}".encode()).hexdigest()
        old.append(Tick(3, seq, 1_000 + seq, D(price), prev, digest, TOUCH, 1))
        prev = digest
    log = TickLog(pair_id=3, interval_ms=1, last=old[-1])
    new = log.propose(raw("103", THIN), now_ms=2_000)
    assert new is not None and (new.seq, new.prev_hash, new.version, new.rule) == (4, old[-1].hash, 2, THIN)
    assert verify([*old, new])
    assert verify([replace(old[0], rule=IMPACT), *old[1:], new])  # version 1 does not cover the rule
    assert not verify([replace(old[0], price=D("99")), *old[1:], new])
