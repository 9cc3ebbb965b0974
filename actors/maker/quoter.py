"""Where the bot wants its quotes (pure: no I/O, no Ray).

A reference price drifts as a random walk, one step per tick of the bot's slow timer (``pause``: a
few seconds, with jitter so the pairs do not tick together); the bot keeps ``levels`` bids below and
asks above it on a fixed geometric grid ``step`` apart, and now and then (``trades_now``: at random,
but never more than ``MAX_QUIET_TICKS`` ticks in a row without) a second bot account takes the best
level so the pair trades.

The grid does not move with the reference: while the reference stays between the same two grid
points the ladder is the same and nothing is re-quoted; a move across one grid point (``step``, a
"meaningful move") changes one level on each side, so a re-quote is one new order and one cancel per
side, not the whole ladder.

Aimed at a target (``aim``), the reference walks there instead: along a geometric path in time, so
it arrives after ``seconds`` however long each step takes; the bot's taker trades towards the target
on every step and the ladder moves with the reference, so the mark follows, and at the end the two
bots trade at the target itself and the bot quotes so that the mark is the target (``anchor``: the
mark's rule counts no trade of the house with itself, so only the book can put it there).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_FLOOR, ROUND_UP, Decimal

BUY, SELL = 1, 2
TRADE_CHANCE = 0.5  # the taker trades on a tick with this chance ...
MAX_QUIET_TICKS = 2  # ... and always after this many ticks in a row without a trade


@dataclass(frozen=True)
class Quote:
    way: int  # 1 buy, 2 sell
    price: Decimal
    number: Decimal


@dataclass(frozen=True)
class Walk:
    """The reference's way from ``start`` to ``target``, from ``began`` for ``seconds`` (monotonic)."""

    start: Decimal
    target: Decimal
    began: float
    seconds: float

    @property
    def way(self) -> int:
        """The taker's side along the walk: buy to lift the price, sell to lower it."""
        return BUY if self.target >= self.start else SELL

    def done(self, now: float) -> bool:
        return now - self.began >= self.seconds

    def at(self, now: float) -> Decimal:
        """Where the reference is at ``now``: the same ratio per second all the way, then the target."""
        if self.done(now):
            return self.target
        fraction = Decimal(str(max(0.0, (now - self.began) / self.seconds)))
        return self.start * (self.target / self.start) ** fraction


class Quoter:
    def __init__(
        self,
        *,
        reference: Decimal,
        price_decimals: int,
        qty_decimals: int,
        levels: int = 5,
        step: float = 0.001,
        volatility: float = 0.0008,
        notional: float = 400.0,
        min_notional: Decimal = Decimal(0),
        seed: int | None = None,
    ) -> None:
        if reference <= 0:
            raise ValueError("a reference price must be positive")
        self.reference = reference
        self.walk: Walk | None = None
        self._tick = Decimal(1).scaleb(-price_decimals)
        self._lot = Decimal(1).scaleb(-qty_decimals)
        self._levels, self._vol, self._notional = levels, volatility, notional
        self._ratio = 1 + Decimal(str(step))  # one grid step, exact: the grid's prices are computed in Decimal
        self._min_notional = min_notional
        self._random = random.Random(seed)
        self._quiet = 0  # ticks in a row without a trade

    def aim(self, target: Decimal, *, start: Decimal, now: float, seconds: float) -> Walk:
        """Walk the reference from ``start`` (the live mark) to ``target`` in ``seconds``."""
        if target <= 0 or start <= 0:
            raise ValueError("prices must be positive")
        self.walk = Walk(start, target, now, seconds)
        return self.walk

    def drift(self, now: float = 0.0) -> Decimal:
        """Move the reference one step: along the walk if there is one, else a random-walk step
        (log-normal, so it never reaches zero)."""
        if self.walk is not None:
            self.reference = max(self._tick, self.walk.at(now).quantize(self._tick))
            return self.reference
        factor = Decimal(str(math.exp(self._random.gauss(0.0, self._vol))))
        self.reference = max(self._tick, (self.reference * factor).quantize(self._tick))
        return self.reference

    def ladder(self, *, bids: bool = True, asks: bool = True) -> list[Quote]:
        """The quotes wanted now: bids on the ``levels`` grid points at or below the reference, asks
        on the ``levels`` above it (rounded away from it to the price tick), sizes around ``notional``.
        The same reference cell of the grid gives the same prices (sizes are drawn anew: the caller
        keeps the quotes it already has)."""
        base = int((self.reference.ln() / self._ratio.ln()).to_integral_value(ROUND_FLOOR))
        # The cell by the grid points as bids show them (on the tick): a reference on a bid's price is
        # in that bid's cell whatever the logarithm's last digits say.
        while self._grid(base + 1, ROUND_DOWN) <= self.reference:
            base += 1
        while self._grid(base, ROUND_DOWN) > self.reference:
            base -= 1
        quotes = []
        for i in range(self._levels):
            if bids:
                price = self._grid(base - i, ROUND_DOWN)
                if price > 0:
                    quotes.append(Quote(BUY, price, self._size(price)))
            if asks:
                price = self._grid(base + 1 + i, ROUND_UP)
                quotes.append(Quote(SELL, price, self._size(price)))
        return quotes

    def _grid(self, k: int, rounding: str) -> Decimal:
        """Grid point ``k``: (1 + step) ** k (Decimal, 28 significant digits), on the price tick."""
        return (self._ratio**k).quantize(self._tick, rounding=rounding)

    def take(self, best_bid: Decimal | None, best_ask: Decimal | None, *, can_sell: bool = True) -> Quote | None:
        """A small order that crosses the best level, or None when there is nothing to take."""
        sides = [w for w, best in ((1, best_ask), (2, best_bid)) if best is not None and (w == 1 or can_sell)]
        if not sides:
            return None
        way = self._random.choice(sides)
        price = best_ask if way == 1 else best_bid
        assert price is not None
        return Quote(way, price, self._taken(price))

    def push(self, best_bid: Decimal | None, best_ask: Decimal | None) -> Quote | None:
        """On a walk: the taker's order that trades the best level on the walk's side (None if empty)."""
        assert self.walk is not None
        way = self.walk.way
        price = best_ask if way == BUY else best_bid
        return None if price is None else Quote(way, price, self._taken(price))

    def arrival(self, ahead: Decimal = Decimal(0)) -> tuple[Quote, Quote]:
        """The walk's last trade, at the target: the maker's order, and the taker's that fills it after
        ``ahead`` (what other orders offer on the way at better prices), so it trades last at the target."""
        assert self.walk is not None
        target, way = self.walk.target, self.walk.way
        number = self._taken(target)
        return Quote(SELL if way == BUY else BUY, target, number), Quote(way, target, number + ahead)

    def anchor(self, last: Decimal | None, notional: Decimal) -> list[Quote]:
        """The quotes that make the mark the walk's target through the book alone (the house's trades
        with itself make no last price): with the pair's last price below the target, a bid worth the
        impact ``notional`` at the target makes it the impact bid, and the median of impact bid, impact
        ask and last price is the target; above it, an ask likewise; with no last price, bids and asks
        worth the notional a tick either side make the target the middle of the impact prices."""
        assert self.walk is not None
        target = self.walk.target
        if last is None:
            return [self._worth(BUY, target - self._tick, notional), self._worth(SELL, target + self._tick, notional)]
        if last == target:
            return []
        return [self._worth(BUY if last < target else SELL, target, notional)]

    def _worth(self, way: int, price: Decimal, notional: Decimal) -> Quote:
        return Quote(way, price, max(self._least(price), (notional / price).quantize(self._lot, rounding=ROUND_UP)))

    def chance(self, probability: float) -> bool:
        return self._random.random() < probability

    def trades_now(self) -> bool:
        """Whether the taker trades on this tick: with ``TRADE_CHANCE``, and always once the last
        ``MAX_QUIET_TICKS`` ticks went without, so every pair trades within a bounded time."""
        trade = self._quiet >= MAX_QUIET_TICKS or self.chance(TRADE_CHANCE)
        self._quiet = 0 if trade else self._quiet + 1
        return trade

    def pause(self, interval: float) -> float:
        """How long to wait before the next tick: ``interval`` give or take half of it."""
        return interval * self._random.uniform(0.5, 1.5)

    def _size(self, price: Decimal) -> Decimal:
        notional = Decimal(str(self._notional * self._random.uniform(0.5, 1.5)))
        return max(self._least(price), (notional / price).quantize(self._lot, rounding=ROUND_DOWN))

    def _taken(self, price: Decimal) -> Decimal:
        """A taker's size: a quarter of a quote's, never below the pair's minimum order value."""
        return max(self._least(price), (self._size(price) / 4).quantize(self._lot, rounding=ROUND_DOWN))

    def _least(self, price: Decimal) -> Decimal:
        """The smallest quantity worth the pair's minimum order value at ``price`` (one lot at least)."""
        return max(self._lot, (self._min_notional / price).quantize(self._lot, rounding=ROUND_UP))
