"""The rolling 24-hour ticker of one pair (the spec's Quotation: close, change, high, low, volume).

Trades fold into per-minute buckets in a ring of 1441 slots (slot = minute mod 1441), so a trade
costs O(1) even when it arrives late, a snapshot reads at most 1441 buckets, and memory never
grows. A bucket expires by falling out of the window: the snapshot ignores it and the next trade
whose minute maps to its slot takes the slot over, keeping only its closing price as a possible
"24 hours ago" reference. No I/O and no clock: every instant comes from the caller.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from actors.market.candles import EXACT, Bar, check_trade
from actors.market.periods import MINUTE_MS

WINDOW_MINUTES = 1440
_SLOTS = WINDOW_MINUTES + 1
_ZERO = Decimal(0)
_CENT = Decimal("0.01")
_LONG_AGO = -(1 << 62)  # the instant given to a restored last price whose trade time is unknown


class _Minute:
    """One minute's trades; ``open_ts``/``close_ts`` decide open and close for late arrivals."""

    __slots__ = ("minute", "open", "open_ts", "close", "close_ts", "high", "low", "volume", "amount")

    def __init__(self, minute: int, ts_ms: int, price: Decimal, qty: Decimal, amount: Decimal) -> None:
        self.minute = minute
        self.open = self.close = self.high = self.low = price
        self.open_ts = self.close_ts = ts_ms
        self.volume, self.amount = qty, amount

    def merge(self, other: _Minute) -> None:
        if other.open_ts < self.open_ts:
            self.open, self.open_ts = other.open, other.open_ts
        if other.close_ts >= self.close_ts:
            self.close, self.close_ts = other.close, other.close_ts
        self.high, self.low = max(self.high, other.high), min(self.low, other.low)
        self.volume = EXACT.add(self.volume, other.volume)
        self.amount = EXACT.add(self.amount, other.amount)


@dataclass(frozen=True)
class TickerPart:
    """What trades in some minutes changed in a ticker (``Ticker24h.part``)."""

    slots: dict[int, _Minute | None]
    last_ts: int | None
    last_price: Decimal | None
    before: tuple[int, Decimal] | None


class Ticker24h:
    """Rolling 24 h statistics of one pair from its trades.

    The window at ``now`` is the minute holding ``now`` and the 1439 before it (23 h 59 m to 24 h,
    by minute granularity); the minute holding ``now - 24h`` and anything older only supply the
    reference price for ``change``. ``now`` is expected not to go backwards.
    """

    def __init__(self) -> None:
        self._ring: list[_Minute | None] = [None] * _SLOTS
        self._last_ts: int | None = None
        self._last_price: Decimal | None = None
        self._before: tuple[int, Decimal] | None = None  # newest (ts, close) of minutes pushed out of the ring

    @property
    def last_price(self) -> Decimal | None:
        """The last trade's price (or the restored one); None before any."""
        return self._last_price

    def on_trade(self, ts_ms: int, price: Decimal, qty: Decimal) -> None:
        """Fold one trade in, O(1). Late trades land in their own minute. Raises TypeError/ValueError
        for a non-Decimal or non-positive price or quantity (nothing is changed)."""
        check_trade(price, qty)
        self._put(_Minute(ts_ms // MINUTE_MS, ts_ms, price, qty, EXACT.multiply(price, qty)))
        if self._last_ts is None or ts_ms >= self._last_ts:
            self._last_ts, self._last_price = ts_ms, price

    def snapshot(self, now_ms: int) -> dict[str, Decimal]:
        """The quotation at ``now_ms``: ``close`` (last price), ``change`` (percent against the last
        trade at or before now - 24 h, else the first trade in the window; 2 places, half-up),
        ``high``, ``low``, ``volume`` (base) and ``amount`` (quote) over the window.

        With no trade in the window volume and amount are 0 and high, low stay at the last price;
        with no trade ever everything is 0. O(1441), read-only.
        """
        now_minute = now_ms // MINUTE_MS
        boundary = now_minute - WINDOW_MINUTES  # the minute holding now - 24 h
        reference = self._before
        first: tuple[int, Decimal] | None = None
        high: Decimal | None = None
        low: Decimal | None = None
        volume = amount = _ZERO
        for bucket in self._ring:
            if bucket is None or bucket.minute > now_minute:
                continue
            if bucket.minute <= boundary:
                if reference is None or bucket.close_ts >= reference[0]:
                    reference = (bucket.close_ts, bucket.close)
                continue
            if first is None or bucket.open_ts < first[0]:
                first = (bucket.open_ts, bucket.open)
            high = bucket.high if high is None else max(high, bucket.high)
            low = bucket.low if low is None else min(low, bucket.low)
            volume = EXACT.add(volume, bucket.volume)
            amount = EXACT.add(amount, bucket.amount)
        close = self._last_price if self._last_price is not None else _ZERO
        base = reference or first
        return {
            "close": close,
            "change": _percent_change(base[1] if base else None, close),
            "high": high if high is not None else close,
            "low": low if low is not None else close,
            "volume": volume,
            "amount": amount,
        }

    def restore(self, bars_1min: Iterable[Bar], last_price: Decimal | None) -> None:
        """Rebuild from persisted 1-minute bars after a restart, replacing all state.

        Pass the bars of the last 24 h and, for an exact ``change``, the newest bar at or before the
        24 h boundary (older ones are harmless). ``last_price`` is the pair's last traded price; it
        is the close, and with no bars also the reference. Trades in a restored minute extend it.
        Raises ValueError for a bar that does not start on a minute (nothing is changed then).
        """
        bars = sorted(bars_1min, key=lambda b: b.start)
        for bar in bars:
            if bar.start % MINUTE_MS:
                raise ValueError(f"bar start {bar.start} is not a minute start")
        self._ring = [None] * _SLOTS
        self._last_ts, self._last_price, self._before = None, None, None
        for bar in bars:
            bucket = _Minute(bar.start // MINUTE_MS, bar.start, bar.open, bar.volume, bar.amount)
            bucket.high, bucket.low, bucket.close = bar.high, bar.low, bar.close
            self._put(bucket)
        if bars:
            self._last_ts = bars[-1].start
        elif last_price is not None:
            self._before = (_LONG_AGO, last_price)
        self._last_price = last_price if last_price is not None else (bars[-1].close if bars else None)

    def part(self, minutes: Iterable[int]) -> TickerPart:
        """The buckets of ``minutes`` (``ts_ms // MINUTE_MS`` of trades), the last trade and the reference
        price: all that the trades of those minutes changed. A copy of this ticker taken before them
        equals it again after ``catch_up`` with this part."""
        slots = {minute % _SLOTS for minute in minutes}
        return TickerPart({i: self._ring[i] for i in slots}, self._last_ts, self._last_price, self._before)

    def catch_up(self, part: TickerPart) -> None:
        """Take in the ``part`` of another copy of this ticker (see ``part``)."""
        for slot, bucket in part.slots.items():
            self._ring[slot] = bucket
        self._last_ts, self._last_price, self._before = part.last_ts, part.last_price, part.before

    def _put(self, bucket: _Minute) -> None:
        index = bucket.minute % _SLOTS
        held = self._ring[index]
        if held is not None and held.minute == bucket.minute:
            held.merge(bucket)
        elif held is None or held.minute < bucket.minute:
            if held is not None:
                self._fold(held.close_ts, held.close)
            self._ring[index] = bucket
        else:  # older than every minute the ring can still need
            self._fold(bucket.close_ts, bucket.close)

    def _fold(self, ts_ms: int, price: Decimal) -> None:
        if self._before is None or ts_ms >= self._before[0]:
            self._before = (ts_ms, price)


def _percent_change(reference: Decimal | None, close: Decimal) -> Decimal:
    if reference is None or reference == 0:
        return _ZERO.quantize(_CENT)
    ratio = EXACT.divide(EXACT.multiply(EXACT.subtract(close, reference), Decimal(100)), reference)
    return ratio.quantize(_CENT, rounding=ROUND_HALF_UP, context=EXACT)
