"""One side of the book: price levels in time priority, and their prices kept sorted, best last.

Layout, chosen for a pure-Python hot path (issue 31: every step below is a C-level list, deque or
dict operation, no Python-level call per level or per fill):

- ``dict[price, Level]``; a ``Level`` *is* a ``deque`` of orders in arrival order, carrying the
  level's total lots. Cancelling is lazy: the book zeroes the order's ``remaining`` and leaves it in
  the deque, so it never scans a level; matching drops such dead entries when they reach the front,
  and a level that is mostly dead is compacted. (A dict per level would also give O(1) cancel, but
  CPython iterates a dict from its first slot, skipping deleted ones, so taking "the oldest order"
  from a busy level gets slower the more it has traded since the dict last resized.)
- a plain ``list`` of level keys in ascending order with the best level *last*: a bid's key is its
  price, an ask's ``-price``. The best level is ``keys[-1]``; a level emptied at the top (what
  matching does) is ``keys.pop()``, O(1); a new level is ``bisect.insort``, whose memmove shifts
  only the levels better than it (none for a new best level, a few near the top); the top ``k``
  levels (depth) are a slice, O(k), however many levels the book holds. Every key has a live level
  and every level a key. A level born or emptied far below the top shifts every level above it: a
  memmove of 8 bytes a level (resting and cancelling one order below 100,000 levels costs ~55 us,
  ~4 us with the ``SortedList`` of before; below 100 levels 2.3 us; docs/performance.md §16).
"""

from __future__ import annotations

from bisect import insort
from collections import deque

from actors.book.types import Order

DEAD_COMPACT_MIN = 32  # compact a level once it has more dead entries than this and than live ones


class Level(deque[Order]):
    """The orders resting at one price, oldest first; entries with ``remaining == 0`` are dead.

    Built as ``new_level(order)`` (a deque subclass without a Python ``__init__``, so creating one
    costs no Python-level call)."""

    __slots__ = ("total", "dead")

    total: int  # lots of the live orders
    dead: int  # cancelled entries still in the deque

    def compact(self) -> None:
        """Drop the dead entries, keeping the live ones in order."""
        live = [o for o in self if o.remaining]
        self.clear()
        self.extend(live)
        self.dead = 0


def new_level(order: Order) -> Level:
    """A level holding ``order`` (``remaining > 0``) alone."""
    level = Level((order,))
    level.total = order.remaining
    level.dead = 0
    return level


def add_order(levels: dict[int, Level], keys: list[int], sign: int, order: Order) -> None:
    """Append ``order`` (``remaining > 0``) to the back of its price level, creating the level
    (``sign``: 1 for bids, -1 for asks, so its key is ``price * sign``)."""
    price = order.price
    level = levels.get(price)
    if level is None:
        levels[price] = new_level(order)
        key = price * sign
        if not keys or key > keys[-1]:
            keys.append(key)  # a new best level
        else:
            insort(keys, key)
    else:
        level.append(order)
        level.total += order.remaining
