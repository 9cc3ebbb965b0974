"""One side of the book: price levels in time priority, and their prices kept sorted.

Layout, chosen for a pure-Python hot path:

- ``dict[price, Level]``; a level is a ``deque`` of orders in arrival order plus the level's total
  lots. Cancelling is lazy: the book zeroes the order's ``remaining`` and leaves it in the deque,
  so it never scans a level; matching drops such dead entries when they reach the front, and a
  level that is mostly dead is compacted. (A dict per level would also give O(1) cancel, but
  CPython iterates a dict from its first slot, skipping deleted ones, so taking "the oldest order"
  from a busy level gets slower the more it has traded since the dict last resized.)
- a ``SortedList`` (sortedcontainers) of level keys (``price * sign``: asks ``sign = 1``, bids
  ``sign = -1``, so the best price is always the smallest key): the best price is ``keys[0]``, a
  level is added or removed in O(log levels), and the top ``k`` levels (depth) are read in O(k),
  however many levels the book holds. Every key has a live level and every level a key.
"""

from __future__ import annotations

from collections import deque

from sortedcontainers import SortedList

from actors.book.types import Order

DEAD_COMPACT_MIN = 32  # compact a level once it has more dead entries than this and than live ones


class Level:
    """The orders resting at one price, oldest first; entries with ``remaining == 0`` are dead."""

    __slots__ = ("orders", "total", "dead")

    def __init__(self, order: Order) -> None:
        self.orders: deque[Order] = deque((order,))
        self.total: int = order.remaining  # lots of the live orders
        self.dead: int = 0  # cancelled entries still in ``orders``

    def compact(self) -> None:
        self.orders = deque([o for o in self.orders if o.remaining])
        self.dead = 0


def add_order(levels: dict[int, Level], keys: SortedList, sign: int, order: Order) -> None:
    """Append ``order`` (``remaining > 0``) to the back of its price level, creating the level."""
    price = order.price
    level = levels.get(price)
    if level is None:
        levels[price] = Level(order)
        keys.add(price * sign)
    else:
        level.orders.append(order)
        level.total += order.remaining
