"""A price-time-priority limit order book for one trading pair: the pure matching core.

No Ray, no I/O, no ``Decimal``: prices are int ticks, quantities int lots (see ``types.Precision``).
Not thread-safe; its owner (the pair actor) is the single writer.

Layout (per side: levels of deques with lazy cancel, a sorted list of prices): ``levels.py``.

Invariants after every public call: the book is never crossed (best bid < best ask); every level's
``total`` is the sum of ``remaining`` of its live orders; ``len(book)`` orders rest, each with
``remaining > 0``; for every order the book has seen, ``qty == filled + remaining + cancelled``.
Invalid commands raise ``ValueError`` before the book changes: they are programming errors, the
caller (the pair actor) validates user input and answers with domain codes.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import islice

from sortedcontainers import SortedList

from actors.book.levels import DEAD_COMPACT_MIN, Level, add_order
from actors.book.types import Fill, Kind, Order, Side, SubmitResult

_BUY = Side.BUY
_SELL = Side.SELL
_LIMIT = Kind.LIMIT
_MARKET = Kind.MARKET
_IOC = Kind.IOC
_NO_LIMIT = 1 << 256  # a market order's limit key: above every level key, so it crosses every price
_new_fill = tuple.__new__  # Fill is a NamedTuple; skipping its Python-level __new__ halves the cost


class OrderBook:
    """One pair's book. See the module docstring for layout and invariants."""

    __slots__ = ("_bids", "_asks", "_bid_keys", "_ask_keys", "_orders", "_seq")

    def __init__(self) -> None:
        self._bids: dict[int, Level] = {}
        self._asks: dict[int, Level] = {}
        self._bid_keys: SortedList = SortedList()  # -price of every bid level: best first
        self._ask_keys: SortedList = SortedList()  # price of every ask level: best first
        self._orders: dict[int, Order] = {}  # resting orders by id, in seq order
        self._seq = 0

    # -- commands ---------------------------------------------------------------------------------

    def submit(self, order: Order, *, kind: Kind = Kind.LIMIT) -> SubmitResult:
        """Match a new order as taker; rest a limit remainder, cancel a market/IOC remainder.

        Assigns ``order.seq``. Fills are at the maker's price, best price first, then oldest first.
        A maker of the taker's own uid is removed instead of traded with (self-trade prevention,
        "cancel maker") and reported in ``expired_makers``; matching continues. A market buy with a
        ``budget`` stops when the budget cannot pay one more lot at the next price.
        Raises ``ValueError`` for a reused order object or id, a non-positive qty, a limit/IOC
        without a positive price, a market order with a price, or a budget on anything but a
        market buy.
        """
        side = order.side
        price = order.price
        budget = order.budget
        if order.seq or order.order_id in self._orders:
            raise ValueError(f"order {order.order_id} was already submitted")
        if order.qty <= 0:
            raise ValueError(f"order {order.order_id}: qty must be positive")
        if kind == _LIMIT or kind == _IOC:
            if price <= 0:
                raise ValueError(f"order {order.order_id}: a limit price must be positive")
            if budget is not None:
                raise ValueError(f"order {order.order_id}: a budget belongs to a market buy")
        elif kind == _MARKET:
            if price:
                raise ValueError(f"market order {order.order_id} must have price 0")
            if budget is not None and (side != _BUY or budget < 0):
                raise ValueError(f"order {order.order_id}: a budget belongs to a market buy, >= 0")
        else:
            raise ValueError(f"unknown order kind {kind!r}")
        if side == _BUY:
            levels, keys, sign = self._asks, self._ask_keys, 1
        elif side == _SELL:
            levels, keys, sign = self._bids, self._bid_keys, -1
        else:
            raise ValueError(f"order {order.order_id}: unknown side {side!r}")

        self._seq = order.seq = self._seq + 1
        order.cancelled = 0
        fills: list[Fill] = []
        expired: list[Order] = []
        limit = price * sign if price else _NO_LIMIT  # in level-key terms; only a market order has price 0
        if keys and keys[0] <= limit:
            rem = self._match(order, order.qty, levels, keys, sign, limit, budget, fills, expired)
            if not rem:
                order.remaining = 0
                return SubmitResult(fills, None, 0, expired)
        else:
            rem = order.qty
        if kind == _LIMIT:
            order.remaining = rem
            if sign == 1:
                add_order(self._bids, self._bid_keys, -1, order)
            else:
                add_order(self._asks, self._ask_keys, 1, order)
            self._orders[order.order_id] = order
            return SubmitResult(fills, order, 0, expired)
        order.remaining = 0
        order.cancelled = rem
        return SubmitResult(fills, None, rem, expired)

    def cancel(self, order_id: int) -> Order | None:
        """Take a resting order off the book; ``None`` if it is not resting (unknown, filled, gone).

        The returned order has ``remaining == 0`` and the lots it released added to ``cancelled``.
        O(1) amortised while the level has other orders (no scan of the level), O(log levels) when
        it empties.
        """
        order = self._orders.pop(order_id, None)
        if order is None:
            return None
        price = order.price
        if order.side == _BUY:
            levels, keys, sign = self._bids, self._bid_keys, -1
        else:
            levels, keys, sign = self._asks, self._ask_keys, 1
        level = levels[price]
        rem = order.remaining
        order.remaining = 0
        order.cancelled += rem
        level.total -= rem
        if not level.total:
            del levels[price]
            keys.remove(price * sign)
        else:
            level.dead = dead = level.dead + 1
            if dead > DEAD_COMPACT_MIN and dead * 2 > len(level.orders):
                level.compact()
        return order

    def restore(self, order: Order) -> None:
        """Rest a persisted open order again without matching, keeping its ``seq``.

        Call it in ascending ``seq`` order (as ``open_orders`` yields them); later submits get
        higher seqs. Raises ``ValueError`` for an out-of-order seq, a duplicate id, nothing left
        to rest, or an order that would cross the book.
        """
        if order.seq <= self._seq:
            raise ValueError(f"restore order {order.order_id}: seq {order.seq} not after {self._seq}")
        if order.order_id in self._orders:
            raise ValueError(f"restore order {order.order_id}: already on the book")
        if order.remaining <= 0 or order.price <= 0 or order.remaining + order.cancelled > order.qty:
            raise ValueError(f"restore order {order.order_id}: nothing valid to rest ({order!r})")
        if order.side == _BUY:
            best = self.best_ask()
            crosses = best is not None and order.price >= best
        elif order.side == _SELL:
            best = self.best_bid()
            crosses = best is not None and order.price <= best
        else:
            raise ValueError(f"restore order {order.order_id}: unknown side {order.side!r}")
        if crosses:
            raise ValueError(f"restore order {order.order_id}: would cross the book")
        self._seq = order.seq
        if order.side == _BUY:
            add_order(self._bids, self._bid_keys, -1, order)
        else:
            add_order(self._asks, self._ask_keys, 1, order)
        self._orders[order.order_id] = order

    # -- queries ----------------------------------------------------------------------------------

    def get(self, order_id: int) -> Order | None:
        """The resting order with this id, or ``None``."""
        return self._orders.get(order_id)

    def best_bid(self) -> int | None:
        return -self._bid_keys[0] if self._bid_keys else None

    def best_ask(self) -> int | None:
        return self._ask_keys[0] if self._ask_keys else None

    def depth(self, levels: int = 20) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """Up to ``levels`` (price ticks, total lots) per side: bids high→low, asks low→high.

        O(levels), however many levels the book holds (the keys are kept sorted)."""
        bids, asks = self._bids, self._asks
        return (
            [(-k, bids[-k].total) for k in islice(self._bid_keys, levels)],
            [(k, asks[k].total) for k in islice(self._ask_keys, levels)],
        )

    def impact(self, side: Side, notional: int) -> tuple[int, Fraction]:
        """How much of ``notional`` (ticks x lots) fills against the ``side`` of the book, best level
        first (the bids for a sell: ``Side.BUY``; the asks for a buy), and the lots that takes, the last
        level walked in part: ``(filled, lots)``. ``filled`` is ``notional`` unless the side holds less;
        ``filled / lots`` is the average price in ticks. O(levels walked), however many the book holds."""
        if notional <= 0:
            raise ValueError("an impact notional must be positive")
        levels, keys, sign = (self._bids, self._bid_keys, -1) if side == _BUY else (self._asks, self._ask_keys, 1)
        filled = 0
        lots = Fraction(0)
        for key in keys:
            price = key * sign
            value = price * levels[price].total
            if filled + value >= notional:
                return notional, lots + Fraction(notional - filled, price)
            filled += value
            lots += levels[price].total
        return filled, lots

    @property
    def level_count(self) -> tuple[int, int]:
        """How many bid and ask levels rest."""
        return len(self._bids), len(self._asks)

    def orders_at(self, side: Side, price: int) -> list[Order]:
        """The live orders resting at one price, in matching priority."""
        level = (self._bids if side == _BUY else self._asks).get(price)
        return [] if level is None else [o for o in level.orders if o.remaining]

    def open_orders(self) -> Iterator[Order]:
        """Every resting order in ascending ``seq`` (a snapshot: cancelling while iterating is fine)."""
        return iter(list(self._orders.values()))

    @property
    def last_seq(self) -> int:
        """The highest seq assigned or restored so far."""
        return self._seq

    def __len__(self) -> int:
        return len(self._orders)

    def __contains__(self, order_id: object) -> bool:
        return order_id in self._orders

    # -- internals --------------------------------------------------------------------------------

    def _match(
        self,
        taker: Order,
        rem: int,
        levels: dict[int, Level],
        keys: SortedList,
        sign: int,
        limit: float,
        budget: int | None,
        fills: list[Fill],
        expired: list[Order],
    ) -> int:
        """Trade ``rem`` lots of ``taker`` against the opposite side while its best key is within
        ``limit`` (keys and limit are ``price * sign``); return the lots left."""
        orders = self._orders
        tid = taker.order_id
        tuid = taker.uid
        tside = taker.side
        while rem and keys:
            key = keys[0]
            if key > limit:
                break
            price = key * sign
            want = rem
            if budget is not None:
                cap = budget // price
                if not cap:
                    break
                if cap < want:
                    want = cap
            start = want
            expired_lots = 0
            level = levels[price]
            queue = level.orders
            while want and queue:
                maker = queue[0]
                mrem = maker.remaining
                if not mrem:  # cancelled earlier
                    queue.popleft()
                    level.dead -= 1
                elif maker.uid == tuid:  # self-trade prevention: cancel the maker
                    queue.popleft()
                    del orders[maker.order_id]
                    maker.remaining = 0
                    maker.cancelled += mrem
                    expired_lots += mrem
                    expired.append(maker)
                elif mrem <= want:
                    queue.popleft()
                    del orders[maker.order_id]
                    maker.remaining = 0
                    want -= mrem
                    fills.append(_new_fill(Fill, (maker.order_id, tid, maker.uid, tuid, price, mrem, tside)))
                else:
                    maker.remaining = mrem - want
                    fills.append(_new_fill(Fill, (maker.order_id, tid, maker.uid, tuid, price, want, tside)))
                    want = 0
            traded = start - want
            rem -= traded
            if budget is not None:
                budget -= traded * price
            level.total -= traded + expired_lots
            if not level.total:
                del levels[price]
                del keys[0]
        return rem
