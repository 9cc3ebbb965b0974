"""A pair's mark price and its tick log (pure: no I/O, no Ray).

The **mark price** is the median of the best bid, the best ask and the last trade price: one order
far from the market moves neither it nor the median, a trade printed away from the book does not
either, and while the book is two-sided it never leaves the spread. A missing side of the book counts
as the last trade (so a one-sided book gives the last trade); with no trade ever, the mark is the
middle of the book, and with neither there is no mark.

The **tick log** records every change of the mark, at most one tick per ``interval_ms``: a tick is
``(seq, time_ms, price)`` with ``seq`` 1, 2, 3 … without gaps, ``time_ms`` strictly increasing, and
``hash = SHA-256(prev_hash | pair id | seq | time_ms | price)`` (the price as its plain decimal
string, ``store.money.money``; the first tick's ``prev_hash`` is 64 zeros). Changing, dropping or
reordering any tick changes the hash of every later one, so anyone holding a later hash can check
the ticks before it (``verify``). Decisions that read a price record the tick id they used.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from store.money import money

GENESIS = "0" * 64
TICK_ID_BITS = 40  # a tick id is pair_id << 40 | seq, as trade ids are


def mark_of(bid: Decimal | None, ask: Decimal | None, last: Decimal | None, places: int) -> Decimal | None:
    """The median of best bid, best ask and last trade (see the module docstring for missing ones)."""
    if last is None or last <= 0:
        if bid is None or ask is None:
            return None
        return ((bid + ask) / 2).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
    return sorted((bid if bid is not None else last, ask if ask is not None else last, last))[1]


def tick_hash(prev_hash: str, pair_id: int, seq: int, time_ms: int, price: Decimal) -> str:
    text = f"{prev_hash}|{pair_id}|{seq}|{time_ms}|{money(price)}"
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Tick:
    pair_id: int
    seq: int
    time_ms: int
    price: Decimal
    prev_hash: str
    hash: str

    @property
    def id(self) -> int:
        return (self.pair_id << TICK_ID_BITS) | self.seq

    def row(self) -> dict[str, Any]:
        """The ``mark_ticks`` row."""
        return {
            "id": self.id,
            "currency_match_id": self.pair_id,
            "seq": self.seq,
            "time_ms": self.time_ms,
            "price": self.price,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }

    def public(self) -> dict[str, Any]:
        """As the API and the MARK push show it."""
        return {
            "id": self.id,
            "currency_match_id": self.pair_id,
            "seq": self.seq,
            "time": self.time_ms,
            "price": money(self.price),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }

    @classmethod
    def of(cls, row: Any) -> Tick:
        """From a ``mark_ticks`` row (a model instance)."""
        return cls(row.currency_match_id, row.seq, row.time_ms, row.price, row.prev_hash, row.hash)


def verify(ticks: Iterable[Tick], prev_hash: str | None = None) -> bool:
    """Whether ``ticks`` (in seq order) form an unbroken chain: consecutive seqs, rising times, every
    hash recomputed from its facts and the hash before it (``prev_hash``: the hash before the first)."""
    previous: Tick | None = None
    for tick in ticks:
        if previous is not None:
            if tick.seq != previous.seq + 1 or tick.time_ms <= previous.time_ms or tick.prev_hash != previous.hash:
                return False
        elif prev_hash is not None and tick.prev_hash != prev_hash:
            return False
        if tick.hash != tick_hash(tick.prev_hash, tick.pair_id, tick.seq, tick.time_ms, tick.price):
            return False
        previous = tick
    return True


class TickLog:
    """What the pair keeps of its tick log: the last durable tick and the rule for the next one.

    ``propose`` answers the tick to write with a batch (or None); the actor persists it with the
    batch and then calls ``accept``, so memory never runs ahead of the database.
    """

    def __init__(self, pair_id: int, interval_ms: int, last: Tick | None = None) -> None:
        self.pair_id = pair_id
        self.interval_ms = interval_ms
        self.last = last

    def propose(self, mark: Decimal | None, now_ms: int) -> Tick | None:
        """The next tick if the mark changed and the interval since the last tick has passed."""
        if mark is None or not self.changed(mark) or self.wait_ms(now_ms) > 0:
            return None
        last = self.last
        seq = last.seq + 1 if last else 1
        time_ms = max(now_ms, last.time_ms + 1) if last else now_ms
        prev = last.hash if last else GENESIS
        return Tick(self.pair_id, seq, time_ms, mark, prev, tick_hash(prev, self.pair_id, seq, time_ms, mark))

    def changed(self, mark: Decimal | None) -> bool:
        return mark is not None and (self.last is None or mark != self.last.price)

    def wait_ms(self, now_ms: int) -> int:
        """How long until a new tick may be written (0: now). A clock behind the last tick (the pair
        moved to a node whose clock is late) does not hold ticks back: their times still rise."""
        if self.last is None or now_ms < self.last.time_ms:
            return 0
        return max(0, self.last.time_ms + self.interval_ms - now_ms)

    def accept(self, tick: Tick | None) -> None:
        """``tick`` is durable: it is the last one now."""
        if tick is not None:
            self.last = tick
