"""A price-time-priority limit order book for one trading pair: the pure matching core.

No Ray, no I/O, no ``Decimal``: prices are int ticks, quantities int lots (see ``types.Precision``).
Not thread-safe; its owner (the pair actor) is the single writer.

Layout (per side: levels of deques with lazy cancel, a sorted list of prices, best last): ``levels.py``.

Invariants after every public call: the book is never crossed (best bid < best ask); every level's
``total`` is the sum of ``remaining`` of its live orders; ``len(book)`` orders rest, each with
``remaining > 0``; for every order the book has seen, ``qty == filled + remaining + cancelled``.
Invalid commands raise ``ValueError`` before the book changes: they are programming errors, the
caller (the pair actor) validates user input and answers with domain codes.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterator
from fractions import Fraction

from actors.book.levels import DEAD_COMPACT_MIN, Level, add_order, new_level
from actors.book.types import Fill, Kind, Order, Side, SubmitResult

_BUY = Side.BUY
_SELL = Side.SELL
_LIMIT = Kind.LIMIT
_MARKET = Kind.MARKET
_IOC = Kind.IOC
_NO_LIMIT = -(1 << 256)  # a market order's limit key: below every level key, so it crosses every price
_new = tuple.__new__  # Fill and SubmitResult are NamedTuples; skipping their Python-level __new__ halves the cost


class OrderBook:
    """One pair's book. See the module docstring for layout and invariants."""

    __slots__ = ("_bids", "_asks", "_bid_keys", "_ask_keys", "_orders", "_seq")

    def __init__(self) -> None:
        self._bids: dict[int, Level] = {}
        self._asks: dict[int, Level] = {}
        self._bid_keys: list[int] = []  # price of every bid level, ascending: best last
        self._ask_keys: list[int] = []  # -price of every ask level, ascending: best last
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

        One function, the matching loop inlined (issue 31: a call per level or per fill was a third
        of the cost); the makers' side is ``levels``/``keys`` with ``sign`` -1 for the asks (a buy
        taker) and 1 for the bids, so a maker level's key is ``price * sign`` and the taker crosses
        it while ``key >= limit``.
        """
        side = order.side
        price = order.price
        budget = order.budget
        orders = self._orders
        tid = order.order_id
        if order.seq or tid in orders:
            raise ValueError(f"order {tid} was already submitted")
        rem = order.qty
        if rem <= 0:
            raise ValueError(f"order {tid}: qty must be positive")
        if kind == _LIMIT or kind == _IOC:
            if price <= 0:
                raise ValueError(f"order {tid}: a limit price must be positive")
            if budget is not None:
                raise ValueError(f"order {tid}: a budget belongs to a market buy")
        elif kind == _MARKET:
            if price:
                raise ValueError(f"market order {tid} must have price 0")
            if budget is not None and (side != _BUY or budget < 0):
                raise ValueError(f"order {tid}: a budget belongs to a market buy, >= 0")
        else:
            raise ValueError(f"unknown order kind {kind!r}")
        if side == _BUY:
            levels, keys, sign = self._asks, self._ask_keys, -1
        elif side == _SELL:
            levels, keys, sign = self._bids, self._bid_keys, 1
        else:
            raise ValueError(f"order {tid}: unknown side {side!r}")

        self._seq = order.seq = self._seq + 1
        order.cancelled = 0
        fills: list[Fill] = []
        expired: list[Order] = []
        limit = price * sign if price else _NO_LIMIT  # in level-key terms; only a market order has price 0
        if keys and keys[-1] >= limit:
            tuid = order.uid
            while True:
                key = keys[-1]
                mprice = key * sign
                want = rem
                if budget is not None:
                    cap = budget // mprice
                    if not cap:
                        break
                    if cap < want:
                        want = cap
                start = want
                gone = 0  # lots of makers removed by self-trade prevention
                level = levels[mprice]
                while want and level:
                    maker = level.popleft()
                    mrem = maker.remaining
                    if mrem and maker.uid != tuid:
                        if mrem <= want:
                            del orders[maker.order_id]
                            maker.remaining = 0
                            want -= mrem
                            fills.append(_new(Fill, (maker.order_id, tid, maker.uid, tuid, mprice, mrem, side)))
                        else:
                            maker.remaining = mrem - want
                            level.appendleft(maker)
                            fills.append(_new(Fill, (maker.order_id, tid, maker.uid, tuid, mprice, want, side)))
                            want = 0
                    elif mrem:  # self-trade prevention: cancel the maker
                        del orders[maker.order_id]
                        maker.remaining = 0
                        maker.cancelled += mrem
                        gone += mrem
                        expired.append(maker)
                    else:  # cancelled earlier
                        level.dead -= 1
                traded = start - want
                rem -= traded
                if budget is not None:
                    budget -= traded * mprice
                total = level.total - traded - gone
                if total:
                    level.total = total
                else:
                    del levels[mprice]
                    keys.pop()
                if not rem or not keys or keys[-1] < limit:
                    break
            if not rem:
                order.remaining = 0
                return _new(SubmitResult, (fills, None, 0, expired))
        if kind == _LIMIT:
            order.remaining = rem
            orders[tid] = order
            own = self._bids if sign == -1 else self._asks
            mine = own.get(price)
            if mine is not None:
                mine.append(order)
                mine.total += rem
            else:
                own[price] = new_level(order)
                key = -price * sign  # the key on the taker's own side
                own_keys = self._bid_keys if sign == -1 else self._ask_keys
                if not own_keys or key > own_keys[-1]:
                    own_keys.append(key)  # a new best level
                else:
                    insort(own_keys, key)
            return _new(SubmitResult, (fills, order, 0, expired))
        order.remaining = 0
        order.cancelled = rem
        return _new(SubmitResult, (fills, None, rem, expired))

    def cancel(self, order_id: int) -> Order | None:
        """Take a resting order off the book; ``None`` if it is not resting (unknown, filled, gone).

        The returned order has ``remaining == 0`` and the lots it released added to ``cancelled``.
        O(1) amortised while the level has other orders (no scan of the level); when it empties,
        its key leaves the sorted list (a bisect, and a memmove of the levels better than it).
        """
        order = self._orders.pop(order_id, None)
        if order is None:
            return None
        price = order.price
        if order.side == _BUY:
            levels, keys, key = self._bids, self._bid_keys, price
        else:
            levels, keys, key = self._asks, self._ask_keys, -price
        level = levels[price]
        rem = order.remaining
        order.remaining = 0
        order.cancelled += rem
        level.total -= rem
        if not level.total:
            del levels[price]
            if keys[-1] == key:
                keys.pop()
            else:
                del keys[bisect_left(keys, key)]
        else:
            level.dead = dead = level.dead + 1
            if dead > DEAD_COMPACT_MIN and dead * 2 > len(level):
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
            add_order(self._bids, self._bid_keys, 1, order)
        else:
            add_order(self._asks, self._ask_keys, -1, order)
        self._orders[order.order_id] = order

    def reduce(self, order_id: int, remaining: int) -> None:
        """Lower a resting order's ``remaining`` to ``remaining`` (> 0), keeping its place in the queue:
        it filled the difference in another copy of this book (a moved pair's tail, ``actors.pair.tail``).
        Raises ``ValueError`` for an order not resting here or a ``remaining`` not in 1..its remaining.
        """
        order = self._orders.get(order_id)
        if order is None:
            raise ValueError(f"reduce order {order_id}: not on the book")
        if not 0 < remaining <= order.remaining:
            raise ValueError(f"reduce order {order_id}: {remaining} lots is not in 1..{order.remaining}")
        levels = self._bids if order.side == _BUY else self._asks
        levels[order.price].total -= order.remaining - remaining
        order.remaining = remaining

    # -- queries ----------------------------------------------------------------------------------

    def get(self, order_id: int) -> Order | None:
        """The resting order with this id, or ``None``."""
        return self._orders.get(order_id)

    def best_bid(self) -> int | None:
        return self._bid_keys[-1] if self._bid_keys else None

    def best_ask(self) -> int | None:
        return -self._ask_keys[-1] if self._ask_keys else None

    def depth(self, levels: int = 20) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """Up to ``levels`` (price ticks, total lots) per side: bids high→low, asks low→high.

        O(levels), however many levels the book holds (the keys are kept sorted, best last)."""
        if levels < 0:
            raise ValueError("depth: levels must not be negative")
        bids, asks = self._bids, self._asks
        stop = -levels - 1
        return (
            [(p, bids[p].total) for p in self._bid_keys[:stop:-1]],
            [(-k, asks[-k].total) for k in self._ask_keys[:stop:-1]],
        )

    def impact(self, side: Side, notional: int) -> tuple[int, Fraction]:
        """How much of ``notional`` (ticks x lots) fills against the ``side`` of the book, best level
        first (the bids for a sell: ``Side.BUY``; the asks for a buy), and the lots that takes, the last
        level walked in part: ``(filled, lots)``. ``filled`` is ``notional`` unless the side holds less;
        ``filled / lots`` is the average price in ticks. O(levels walked), however many the book holds."""
        if notional <= 0:
            raise ValueError("an impact notional must be positive")
        levels, keys, sign = (self._bids, self._bid_keys, 1) if side == _BUY else (self._asks, self._ask_keys, -1)
        filled = 0
        lots = Fraction(0)
        for key in reversed(keys):
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
        return [] if level is None else [o for o in level if o.remaining]

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
