"""Where the bot wants its quotes (pure: no I/O, no Ray).

A reference price drifts as a random walk; the bot keeps ``levels`` bids below and asks above it,
``step`` apart, and now and then a second bot account takes the best level so the pair trades.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_UP, Decimal


@dataclass(frozen=True)
class Quote:
    way: int  # 1 buy, 2 sell
    price: Decimal
    number: Decimal


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
        seed: int | None = None,
    ) -> None:
        if reference <= 0:
            raise ValueError("a reference price must be positive")
        self.reference = reference
        self._tick = Decimal(1).scaleb(-price_decimals)
        self._lot = Decimal(1).scaleb(-qty_decimals)
        self._levels, self._step, self._vol, self._notional = levels, step, volatility, notional
        self._random = random.Random(seed)

    def drift(self) -> Decimal:
        """Move the reference one random-walk step (log-normal, so it never reaches zero)."""
        factor = Decimal(str(math.exp(self._random.gauss(0.0, self._vol))))
        self.reference = max(self._tick, (self.reference * factor).quantize(self._tick))
        return self.reference

    def ladder(self, *, bids: bool = True, asks: bool = True) -> list[Quote]:
        """The quotes wanted now: prices rounded away from the reference, sizes around ``notional``."""
        quotes = []
        for i in range(1, self._levels + 1):
            offset = Decimal(str(self._step * i))
            if bids:
                price = (self.reference * (1 - offset)).quantize(self._tick, rounding=ROUND_DOWN)
                if price > 0:
                    quotes.append(Quote(1, price, self._size(price)))
            if asks:
                price = (self.reference * (1 + offset)).quantize(self._tick, rounding=ROUND_UP)
                quotes.append(Quote(2, price, self._size(price)))
        return quotes

    def take(self, best_bid: Decimal | None, best_ask: Decimal | None, *, can_sell: bool = True) -> Quote | None:
        """A small order that crosses the best level, or None when there is nothing to take."""
        sides = [w for w, best in ((1, best_ask), (2, best_bid)) if best is not None and (w == 1 or can_sell)]
        if not sides:
            return None
        way = self._random.choice(sides)
        price = best_ask if way == 1 else best_bid
        assert price is not None
        return Quote(way, price, max(self._lot, (self._size(price) / 4).quantize(self._lot, rounding=ROUND_DOWN)))

    def chance(self, probability: float) -> bool:
        return self._random.random() < probability

    def _size(self, price: Decimal) -> Decimal:
        notional = Decimal(str(self._notional * self._random.uniform(0.5, 1.5)))
        return max(self._lot, (notional / price).quantize(self._lot, rounding=ROUND_DOWN))
