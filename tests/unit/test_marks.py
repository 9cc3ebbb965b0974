"""The mark price rule and the hash-chained tick log (actors.pair.marks), without Ray or I/O."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal as D

import pytest

from actors.pair.marks import GENESIS, TickLog, mark_of, tick_hash, verify


@pytest.mark.parametrize(
    ("bid", "ask", "last", "mark"),
    [
        ("99", "101", "100", "100"),  # a last trade inside the spread
        ("99", "101", "150", "101"),  # a trade printed far above the book moves the mark only to the ask
        ("99", "101", "20", "99"),  # ... or far below, only to the bid
        ("10", "101", "100", "100"),  # one bid far away does not move it
        (None, "101", "100", "100"),  # a one-sided book: the last trade
        ("99", None, "100", "100"),
        (None, None, "100", "100"),
        ("99", "101", None, "100"),  # no trade ever: the middle of the book
        ("99", "100", None, "99.5"),
        ("0.0001", "0.0002", None, "0.0002"),  # rounded to the pair's places, half to even
        (None, "101", None, None),  # no trade and a one-sided book: no mark
        (None, None, None, None),
    ],
)
def test_the_mark_is_the_median_of_bid_ask_and_last(bid: str | None, ask: str | None, last: str | None,
                                                     mark: str | None) -> None:  # fmt: skip
    def d(x: str | None) -> D | None:
        return D(x) if x is not None else None

    assert mark_of(d(bid), d(ask), d(last), 4) == d(mark)


def test_ticks_chain_their_hashes_and_keep_to_the_interval() -> None:
    log = TickLog(pair_id=7, interval_ms=100)
    first = log.propose(D("100"), now_ms=1_000)
    assert first is not None and (first.seq, first.time_ms, first.prev_hash) == (1, 1_000, GENESIS)
    assert first.hash == tick_hash(GENESIS, 7, 1, 1_000, D("100"))
    assert first.id == (7 << 40) | 1
    log.accept(first)

    assert log.propose(D("100"), now_ms=5_000) is None  # no change, no tick
    assert log.propose(D("101"), now_ms=1_050) is None  # a change within the interval waits ...
    assert log.changed(D("101")) and log.wait_ms(1_050) == 50
    second = log.propose(D("101"), now_ms=1_100)  # ... until it is over
    assert second is not None and second.prev_hash == first.hash and second.seq == 2
    log.accept(second)
    third = log.propose(D("99.5"), now_ms=900)  # a clock that went back (a move to another node)
    assert third is not None and third.time_ms == second.time_ms + 1  # times still rise
    log.accept(third)
    assert verify([first, second, third]) and verify([second, third], prev_hash=first.hash)


def test_any_rewritten_dropped_or_reordered_tick_breaks_the_chain() -> None:
    log = TickLog(pair_id=1, interval_ms=1)
    chain = []
    for i, price in enumerate(["100", "101", "102", "101", "100"]):
        tick = log.propose(D(price), now_ms=1_000 + i)
        assert tick is not None
        log.accept(tick)
        chain.append(tick)
    assert verify(chain)
    assert not verify([chain[0], replace(chain[1], price=D("150")), *chain[2:]])  # a settlement price rewritten
    assert not verify([chain[0], chain[2], *chain[3:]])  # a tick dropped
    assert not verify([chain[1], chain[0], *chain[2:]])  # reordered
    assert not verify(chain[1:], prev_hash=GENESIS)  # does not follow what the verifier holds
    forged = replace(chain[1], price=D("150"))
    forged = replace(forged, hash=tick_hash(forged.prev_hash, 1, forged.seq, forged.time_ms, forged.price))
    assert not verify([chain[0], forged, *chain[2:]])  # re-hashing one tick breaks the next
