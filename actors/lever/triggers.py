"""A pair's trigger book (pure): every price at which something must happen on a mark tick.

Each trigger fires either when the mark rises to its price (``UP``: a long's take-profit, a short's
stop-loss, a short's entrustment, a short account's liquidation) or falls to it (``DOWN``: the
others). The two directions are two sorted lists (sortedcontainers), ordered so that the triggers a
mark crosses are a prefix: a tick that crosses nothing looks at one element, O(log n) to find the
prefix's end, and a tick that crosses k triggers reads k. Nothing is ever found by scanning.

A trigger carries the pair's tick seq at which it was armed; a tick with a seq not after it does not
fire it (a restarted shard replays old ticks; they must not fire what was set after them). ``crossed``
only reads: the shard disarms a trigger once what it fired is durable, so a failed action fires again
on the next tick.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import IntEnum

from sortedcontainers import SortedKeyList

Ident = tuple[str, int]  # (kind, id): ("entrust" | "tp" | "sl", position id) or ("liq" | "band", user id)


class Direction(IntEnum):
    UP = 1  # fires when mark >= price
    DOWN = 2  # fires when mark <= price


@dataclass(frozen=True)
class Trigger:
    ident: Ident
    price: Decimal
    direction: Direction
    armed_seq: int

    def fires_at(self, mark: Decimal) -> bool:
        return mark >= self.price if self.direction == Direction.UP else mark <= self.price


class TriggerBook:
    """The triggers of one pair, by direction; one trigger per ident."""

    def __init__(self) -> None:
        self._up: SortedKeyList = SortedKeyList(key=lambda t: (t.price, t.ident))
        self._down: SortedKeyList = SortedKeyList(key=lambda t: (-t.price, t.ident))
        self._by_ident: dict[Ident, Trigger] = {}

    def arm(self, ident: Ident, price: Decimal, direction: Direction, armed_seq: int) -> None:
        """Set (or move) the trigger of ``ident``. O(log n)."""
        self.disarm(ident)
        trigger = Trigger(ident, price, direction, armed_seq)
        (self._up if direction == Direction.UP else self._down).add(trigger)
        self._by_ident[ident] = trigger

    def disarm(self, ident: Ident) -> None:
        """Remove the trigger of ``ident`` if there is one. O(log n)."""
        trigger = self._by_ident.pop(ident, None)
        if trigger is not None:
            (self._up if trigger.direction == Direction.UP else self._down).remove(trigger)

    def crossed(self, mark: Decimal, seq: int) -> list[Trigger]:
        """The triggers ``mark`` fires, armed before tick ``seq``: rising ones first, then falling ones,
        each in price order. Read-only; O(log n + k)."""
        top = ("~", 1 << 62)  # above every ident: the key range ends after the last price <= mark
        up = self._up.irange_key(max_key=(mark, top))
        down = self._down.irange_key(max_key=(-mark, top))
        return [t for t in (*up, *down) if t.armed_seq < seq]

    def get(self, ident: Ident) -> Trigger | None:
        return self._by_ident.get(ident)

    def __len__(self) -> int:
        return len(self._by_ident)

    def __contains__(self, ident: object) -> bool:
        return ident in self._by_ident
