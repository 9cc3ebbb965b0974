"""The rule that makes a pair's mark price from its book and its trades (pure: no I/O, no Ray).

Three inputs, each an average over the pair's **impact notional** ``N`` (a per-pair setting, in the
quote currency), so that what one order worth less than ``N`` does weighs at most its share of ``N``:

- the **impact bid**: the average price at which a sell worth ``N`` would fill against the bids
  (``OrderBook.impact``), and the **impact ask** likewise for a buy against the asks;
- the **last price**: the average price of the latest trades worth ``N`` between unrelated parties
  (``LastPrice``); a user's trades with themself and the house's with itself are not counted.

The **raw mark** is their median, rule ``impact``. A side that cannot fill ``N`` has what it lacks
counted at the last price, rule ``thin`` (an empty side is the last price, so a one-sided or empty
book gives the last price, as before). With no recent last price (none, or none within
``mark_last_seconds``) and both sides filling ``N``, the raw mark is the middle of the impact bid and
ask, rule ``mid``; with no last price at all and a side that cannot fill ``N`` there is none. The **mark** the pair
publishes is the raw mark smoothed (``Smoother``): the time-weighted median of the raw marks of the
last ``window_ms``. Every tick records the rule of the raw mark it shows. What "no order smaller than
``N`` moves the mark" can mean, precisely, and what holds: docs/decisions.md "A mark no single order
can move".
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

IMPACT = "impact"  # the median of impact bid, impact ask and last price
THIN = "thin"  # the same, a side that cannot fill the notional topped up at the last price
MID = "mid"  # no last price: the middle of the impact bid and ask
TOUCH = "touch"  # ticks of hash version 1 (before issue 27): the median of best bid, best ask, last trade
RULES = (IMPACT, THIN, MID, TOUCH)


@dataclass(frozen=True)
class Raw:
    """A mark price and the rule that produced it."""

    price: Decimal
    rule: str


def on_grid(value: Decimal | Fraction, places: int) -> Decimal:
    """``value`` on the pair's price grid, half to even."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def raw_mark(bid: Decimal | None, ask: Decimal | None, last: Decimal | None, places: int, *,
             thin: bool = False) -> Raw | None:  # fmt: skip
    """The median of the impact bid, the impact ask and the last price; ``thin``: a side could not fill
    the notional and was topped up at the last price (a side given as None counts as the last price).
    See the module docstring for a missing last price."""
    if last is None or last <= 0:
        if bid is None or ask is None:
            return None
        return Raw(on_grid((bid + ask) / 2, places), MID)
    rule = THIN if thin or bid is None or ask is None else IMPACT
    return Raw(sorted((last if bid is None else bid, last if ask is None else ask, last))[1], rule)


def mark_of(bid: Decimal | None, ask: Decimal | None, last: Decimal | None, places: int) -> Decimal | None:
    """``raw_mark``'s price alone."""
    raw = raw_mark(bid, ask, last, places)
    return raw.price if raw is not None else None


def related(buyer: int, seller: int, house: frozenset[int]) -> bool:
    """Whether a trade's two sides are one party as far as the exchange can know: the same user (the
    book's self-trade prevention keeps these from printing; checked all the same), or two accounts
    of the house (the market maker's bots)."""
    return buyer == seller or (buyer in house and seller in house)


class LastPrice:
    """The last price: the average price (value / quantity) of the latest counted trades worth
    ``notional``, the oldest of them taken in part. Until the pair's first trade, ``seed`` (the seeded
    quotation's close) stands in, as of ``seed_ms``; trades that are not counted still end the seed's
    term. ``at_ms``: when the newest counted trade (or the seed) came."""

    def __init__(self, notional: Decimal, seed: Decimal | None = None, seed_ms: int = 0) -> None:
        self.notional = notional
        self.seed = seed
        self.at_ms: int | None = seed_ms if seed is not None else None
        self._trades: deque[tuple[Decimal, Decimal]] = deque()  # (price, value), oldest first
        self._value = Decimal(0)

    def traded(self) -> None:
        """The pair traded (counted or not): the seed no longer stands in."""
        if self.seed is not None:
            self.seed = self.at_ms = None

    def add(self, price: Decimal, value: Decimal, at_ms: int) -> None:
        """A counted trade at ``price`` worth ``value`` (price x quantity, quote currency), at ``at_ms``."""
        self.traded()
        if value <= 0:
            return
        self.at_ms = at_ms
        self._trades.append((price, value))
        self._value += value
        while len(self._trades) > 1 and self._value - self._trades[0][1] >= self.notional:
            self._value -= self._trades.popleft()[1]

    def recent(self, now_ms: int, max_age_ms: int) -> bool:
        """Whether the last price came within ``max_age_ms`` of ``now_ms``."""
        return self.at_ms is not None and now_ms - self.at_ms <= max_age_ms

    def price(self, places: int) -> Decimal | None:
        """The average price of the latest trades worth ``notional`` (all of them if they are worth
        less), on the price grid; the seed before the first trade; None after trades none of which
        counted."""
        if not self._trades:
            return self.seed
        value = quantity = Decimal(0)
        for price, worth in reversed(self._trades):
            take = min(worth, self.notional - value)
            value += take
            quantity += take / price
            if value >= self.notional:
                break
        return on_grid(value / quantity, places)


@dataclass
class _Step:
    since_ms: int
    raw: Raw | None


class Smoother:
    """The time-weighted median of the raw mark over the last ``window_ms``.

    The raw mark is a step function of time (``observe`` each value when it changes); the smoothed
    mark at ``now`` is the lowest price ``p`` such that the raw mark was at or below ``p`` for at least
    half of the window's time with a mark. The window never reaches back before ``began_ms`` (when
    this actor loaded the pair): a price from before a restart or an outage never counts as recent.
    Two raw paths that never differ by more than ``d`` give smoothed marks at most ``d`` apart; a raw
    mark held for less than half the window does not show at all."""

    def __init__(self, window_ms: int, began_ms: int) -> None:
        self.window_ms = window_ms
        self.began_ms = began_ms
        self._steps: deque[_Step] = deque()  # oldest first

    def observe(self, now_ms: int, raw: Raw | None) -> None:
        """The raw mark is ``raw`` from ``now_ms`` on."""
        if self._steps:
            last = self._steps[-1]
            if _price(last.raw) == _price(raw):
                last.raw = raw  # the same price (its rule may differ): one step
                return
        self._steps.append(_Step(now_ms, raw))

    def value(self, now_ms: int) -> Raw | None:
        """The smoothed mark at ``now_ms`` (None while the window holds no raw mark)."""
        start = self._trim(now_ms)
        weights: dict[Decimal, int] = {}
        latest: dict[Decimal, Raw] = {}  # the latest step at a price gives its rule
        steps = self._steps
        for i, step in enumerate(steps):
            if step.raw is None:
                continue
            until = steps[i + 1].since_ms if i + 1 < len(steps) else now_ms
            price = step.raw.price
            weights[price] = weights.get(price, 0) + max(0, until - max(step.since_ms, start))
            latest[price] = step.raw
        if not weights:
            return None
        total = sum(weights.values())
        if total == 0:  # nothing held for any time yet: the raw mark as it is now
            return steps[-1].raw or latest[max(latest)]
        below = 0
        for price in sorted(weights):
            below += weights[price]
            if 2 * below >= total:
                return latest[price]
        raise AssertionError("unreachable: the weights add up to the total")

    def settled(self, now_ms: int) -> bool:
        """Whether the window holds one raw mark only: the smoothed mark cannot change until the raw
        mark does."""
        self._trim(now_ms)
        return len(self._steps) <= 1

    def _trim(self, now_ms: int) -> int:
        """Drop the steps that ended before the window starts; that start."""
        start = max(self.began_ms, now_ms - self.window_ms)
        while len(self._steps) > 1 and self._steps[1].since_ms <= start:
            self._steps.popleft()
        return start


def _price(raw: Raw | None) -> Decimal | None:
    return raw.price if raw is not None else None
