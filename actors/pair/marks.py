"""A pair's tick log (pure: no I/O, no Ray). The mark price itself: ``actors.pair.mark_rule``.

The **tick log** records every change of the mark, at most one tick per ``interval_ms``: a tick is
``(seq, time_ms, price, rule)`` with ``seq`` 1, 2, 3 … without gaps, ``time_ms`` strictly increasing,
and a hash that covers the hash before it (the first tick's ``prev_hash`` is 64 zeros), so changing,
dropping or reordering any tick changes the hash of every later one, and anyone holding a later hash
can check the ticks before it (``verify``). Decisions that read a price record the tick id they used.

Each tick says which **hash version** it is in, so a verifier knows what its hash covers (the price as
its plain decimal string, ``store.money.money``):

- version 1 (ticks written before issue 27, rule ``touch``): ``SHA-256(prev_hash|pair id|seq|time_ms|price)``;
- version 2: ``SHA-256(2|prev_hash|pair id|seq|time_ms|price|rule)``, the rule that produced the tick
  (``mark_rule.IMPACT``, ``MID`` or ``LAST``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from actors.pair.mark_rule import TOUCH, Raw
from store.money import money

GENESIS = "0" * 64
TICK_ID_BITS = 40  # a tick id is pair_id << 40 | seq, as trade ids are
HASH_VERSION = 2  # of the ticks written now (see the module docstring)


def tick_hash(prev_hash: str, pair_id: int, seq: int, time_ms: int, price: Decimal, rule: str = TOUCH,
              version: int = 1) -> str:  # fmt: skip
    """The hash of a tick in hash ``version`` (1 does not cover the rule). Raises ValueError for a
    version it does not know."""
    if version == 1:
        text = f"{prev_hash}|{pair_id}|{seq}|{time_ms}|{money(price)}"
    elif version == 2:
        text = f"2|{prev_hash}|{pair_id}|{seq}|{time_ms}|{money(price)}|{rule}"
    else:
        raise ValueError(f"unknown tick hash version {version}")
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Tick:
    pair_id: int
    seq: int
    time_ms: int
    price: Decimal
    prev_hash: str
    hash: str
    rule: str = TOUCH
    version: int = 1

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
            "rule": self.rule,
            "version": self.version,
        }

    def public(self) -> dict[str, Any]:
        """As the API and the MARK push show it."""
        return {
            "id": self.id,
            "currency_match_id": self.pair_id,
            "seq": self.seq,
            "time": self.time_ms,
            "price": money(self.price),
            "rule": self.rule,
            "version": self.version,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }

    @classmethod
    def of(cls, row: Any) -> Tick:
        """From a ``mark_ticks`` row (a model instance)."""
        return cls(row.currency_match_id, row.seq, row.time_ms, row.price, row.prev_hash, row.hash, row.rule,
                   row.version)  # fmt: skip

    def rehashed(self) -> str:
        """The hash recomputed from this tick's facts (in its own hash version)."""
        return tick_hash(self.prev_hash, self.pair_id, self.seq, self.time_ms, self.price, self.rule, self.version)


def verify(ticks: Iterable[Tick], prev_hash: str | None = None) -> bool:
    """Whether ``ticks`` (in seq order) form an unbroken chain: consecutive seqs, rising times, every
    hash recomputed from its facts, in its own hash version, and the hash before it (``prev_hash``: the
    hash before the first). A log may hold version-1 ticks followed by version-2 ones."""
    previous: Tick | None = None
    for tick in ticks:
        if previous is not None:
            if tick.seq != previous.seq + 1 or tick.time_ms <= previous.time_ms or tick.prev_hash != previous.hash:
                return False
        elif prev_hash is not None and tick.prev_hash != prev_hash:
            return False
        try:
            if tick.hash != tick.rehashed():
                return False
        except ValueError:  # a version this code does not know: it cannot vouch for the tick
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

    def propose(self, mark: Raw | None, now_ms: int) -> Tick | None:
        """The next tick if the mark's price changed and the interval since the last tick has passed."""
        if mark is None or not self.changed(mark) or self.wait_ms(now_ms) > 0:
            return None
        last = self.last
        seq = last.seq + 1 if last else 1
        time_ms = max(now_ms, last.time_ms + 1) if last else now_ms
        prev = last.hash if last else GENESIS
        digest = tick_hash(prev, self.pair_id, seq, time_ms, mark.price, mark.rule, HASH_VERSION)
        return Tick(self.pair_id, seq, time_ms, mark.price, prev, digest, mark.rule, HASH_VERSION)

    def changed(self, mark: Raw | None) -> bool:
        return mark is not None and (self.last is None or mark.price != self.last.price)

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
