"""A move's tail: what a pair committed after its standby began loading from the database, and how
the standby brings what it loaded up to the moving actor's state (pure: no I/O, no Ray).

The load point is a moment, not a number: the moving actor starts its ``Tail`` (``keep_tail``) before
the standby reads anything, and from then on notes every order and bar each committed batch touched.
The standby reads the open orders in one statement, so it sees the pair as some batch at or after the
load point left it; every order that changed since the load point is in the tail as it is *now* (an
absolute state, not a change), so applying it is right whichever of those batches the read saw, and
an order the read already saw in its final state is simply applied again. An order the tail does
not name is as it was at the load point, which the read saw too. What the database does not hold
exactly goes with the pause as it is (a bar's first and last trade instants, the mark's window, the
recent trades), or, for the 24 h ticker, as it was at the load point (handed to the standby with its
``preload``, before the pause) and the minutes the tail's trades changed since. None of it grows with
the book.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from actors.book.order_book import OrderBook
from actors.book.types import Order as BookOrder
from actors.book.types import Precision, Side
from actors.market.periods import MINUTE_MS, Period
from actors.pair.matching import Batch
from actors.pair.state import OrderState

TAIL_MAX_ORDERS = 20_000  # past this the whole snapshot costs no more than the tail: the pause sends that


class Tail:
    """Kept by the moving actor from ``keep_tail`` to its pause. ``lost`` once it no longer tells what
    changed (the actor reloaded from the database, or the tail outgrew ``TAIL_MAX_ORDERS``): the pause
    then hands over the whole snapshot, as before there were tails."""

    def __init__(self) -> None:
        self.orders: dict[int, OrderState] = {}  # every order a committed batch touched, the live object
        self.bars: set[tuple[Period, int]] = set()  # (period, bucket start) of every bar a batch changed
        self.minutes: set[int] = set()  # the minutes of its trades (the ticker's buckets they changed)
        self.lost = False

    def record(self, batch: Batch) -> None:
        """A batch matched, its commit under way (``PairActor._record``; ``keep_tail`` records the one
        committing when the tail begins): a pause during the commit hands it over with the tail; a
        commit that fails reloads the pair, which loses the tail."""
        if self.lost:
            return
        for order in batch.touched():
            self.orders[order.id] = order
        for period, bar in batch.klines.values():
            self.bars.add((period, bar.start))
        if batch.trades:
            self.minutes.add(batch.now_ms // MINUTE_MS)
        if len(self.orders) > TAIL_MAX_ORDERS:
            self.lost = True
            self.orders.clear()


def resting(state: OrderState, precision: Precision, seq: int) -> BookOrder:
    """The book's order for an open order's state (as stored: what is left of it rests)."""
    remaining = precision.to_lots(state.number - state.transacted_amount)
    return BookOrder(state.id, state.uid, Side(state.way), precision.to_ticks(state.price),
                     precision.to_lots(state.number), remaining=remaining, seq=seq)  # fmt: skip


def apply_orders(
    book: OrderBook,
    orders: dict[int, OrderState],
    open_count: Counter[int],
    precision: Precision,
    tail: Iterable[OrderState],
) -> int:
    """Bring a book (and its orders and per-user counts) loaded at or after the tail's load point up to
    the moving actor's: each order of ``tail`` as it is now. An order the book holds keeps its place in
    its level (a fill lowers what is left of it; a final one leaves); an open one it does not hold
    arrived later and rests behind everything loaded, in its own ``seq`` order. Answers how many orders
    it applied. Raises ValueError if the two disagree in a way no load point explains (the caller then
    loads from the database, which the paused actor no longer changes); the book may be half-applied."""
    arriving: list[OrderState] = []
    applied = 0
    for state in tail:
        applied += 1
        held = orders.get(state.id)
        if held is None:
            if not state.final:
                arriving.append(state)
            continue
        if state.final:
            book.cancel(state.id)
            del orders[state.id]
            open_count[state.uid] -= 1
            continue
        remaining = precision.to_lots(state.number - state.transacted_amount)
        book.reduce(state.id, remaining)
        orders[state.id] = state
    for state in sorted(arriving, key=lambda s: (s.seq, s.id)):
        book.restore(resting(state, precision, state.seq))
        orders[state.id] = state
        open_count[state.uid] += 1
    return applied
