"""What a pair keeps to make its mark price, and when it looks at it (pure: no I/O, no Ray).

The pair feeds it every batch's trades and book (``observe``: the raw mark, ``actors.pair.mark_rule``)
and asks for the smoothed mark when it ``due``; the smoothed mark is looked at again every
``check_ms`` (the tick interval, or a tenth of the window if that is longer) while the window still
holds more than one raw mark, so a change shows within ``check_ms`` of when the smoothing lets it
through and an idle pair whose mark is settled wakes for nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_CEILING, Decimal
from fractions import Fraction
from typing import Any

from actors.book.order_book import OrderBook
from actors.book.types import Precision, Side
from actors.pair.mark_rule import LastPrice, Raw, Smoother, on_grid, raw_mark, related
from store.money import money


class MarkState:
    def __init__(self, *, notional: Decimal, precision: Precision, window_ms: int, interval_ms: int, now_ms: int,
                 last_ms: int = 60_000, house: Iterable[int] = (), seed: Decimal | None = None) -> None:  # fmt: skip
        self.precision = precision
        self.last = LastPrice(notional, seed, now_ms)
        self.last_ms = last_ms  # a last price older than this gives way to the book, unless a side is thin
        self.smooth = Smoother(window_ms, now_ms)
        self.house = frozenset(house)  # the house's accounts: their trades with each other do not count
        self.check_ms = max(interval_ms, window_ms // 10)
        self._next_ms = 0  # when the smoothed mark is next looked at
        self.raw: Raw | None = None

    @property
    def notional(self) -> Decimal:
        return self.last.notional

    @notional.setter
    def notional(self, value: Decimal) -> None:
        self.last.notional = value

    def count(self, trades: Iterable[dict[str, Any]], at_ms: int | None = None) -> None:
        """Take trade rows (``buyer_id``, ``seller_id``, ``price``, ``volume``, and ``created_at`` unless
        ``at_ms`` says when they traded) into the last price, leaving out those between related parties."""
        for t in trades:
            if related(t["buyer_id"], t["seller_id"], self.house):
                self.last.traded()
            else:
                when = at_ms if at_ms is not None else int(t["created_at"].timestamp() * 1000)
                self.last.add(t["price"], t["volume"], when)

    def inputs(self, book: OrderBook, now_ms: int) -> tuple[Decimal | None, Decimal | None, Decimal | None, bool]:
        """The impact bid, the impact ask and the last price the rule takes, on the pair's price grid, and
        whether a side was thin (topped up at the last price, however old; with no last price a thin side
        has no impact price). With both sides full, a last price older than ``last_ms`` is left out."""
        p = self.precision
        places, scale = p.price_decimals, 10**p.price_decimals
        last = self.last.price(places)
        # The notional in the book's units (ticks x lots), rounded up: the impact price fills at least it.
        units = int((self.notional * 10 ** (p.price_decimals + p.qty_decimals)).to_integral_value(ROUND_CEILING))
        if units <= 0:  # no notional set: the raw mark is the last price
            return None, None, last, True
        prices: list[Decimal | None] = []
        thin = False
        for side in (Side.BUY, Side.SELL):
            filled, lots = book.impact(side, units)
            if filled < units:
                thin = True
                if last is None:
                    prices.append(None)
                    continue
                lots += Fraction(units - filled) / (Fraction(last) * scale)  # what it lacks, at the last price
            prices.append(on_grid(Fraction(units, scale) / lots, places))
        if not thin and not self.last.recent(now_ms, self.last_ms):
            last = None
        return prices[0], prices[1], last, thin

    def observe(self, book: OrderBook, now_ms: int) -> Raw | None:
        """The raw mark after a batch, recorded in the smoothing window."""
        bid, ask, last, thin = self.inputs(book, now_ms)
        self.raw = raw_mark(bid, ask, last, self.precision.price_decimals, thin=thin)
        self.smooth.observe(now_ms, self.raw)
        return self.raw

    def due(self, now_ms: int) -> bool:
        """Whether to look at the smoothed mark now (then not again for ``check_ms``)."""
        if now_ms < self._next_ms:
            return False
        self._next_ms = now_ms + self.check_ms
        return True

    def wait_ms(self, now_ms: int, published: Decimal | None) -> int | None:
        """How long until the smoothed mark should be looked at again, or None when nothing can change
        it before the raw mark does (the window is settled on what ``published`` shows)."""
        if self.smooth.settled(now_ms) and (self.raw is None or self.raw.price == published):
            return None
        return max(0, self._next_ms - now_ms)

    def public(self, book: OrderBook, now_ms: int) -> dict[str, Any]:
        """The inputs and the raw mark now, as ``market/deal`` shows them (``mark_inputs``; ``last`` is the
        last price the rule takes, null when there is none or it is too old to)."""
        bid, ask, last, thin = self.inputs(book, now_ms)
        raw = raw_mark(bid, ask, last, self.precision.price_decimals, thin=thin)

        def text(value: Decimal | None) -> str | None:
            return money(value) if value is not None else None

        return {"notional": text(self.notional), "impact_bid": text(bid), "impact_ask": text(ask), "last": text(last),
                "raw": text(raw.price) if raw else None, "rule": raw.rule if raw else None}  # fmt: skip
