"""Candles built from trades, for every chart period at once, held in memory for one pair.

The pair actor feeds each fill to :meth:`CandleBook.on_trade`, pushes the bars it returns as KLINE
messages, persists :meth:`CandleBook.dirty` bars now and then, and answers chart history from
:meth:`CandleBook.bars`, falling back to the database for anything before :meth:`CandleBook.horizon`.
No I/O and no clock: every instant comes from the caller.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Context, Decimal

from actors.market.periods import ALL_PERIODS, Period

# Wide enough that price × qty and running sums of NUMERIC(36, 18) values are exact; the database
# column rounds when it stores them, the core never does.
EXACT = Context(prec=100)


def check_trade(price: Decimal, qty: Decimal) -> None:
    """Raise TypeError for a non-Decimal (a float would creep into bars) and ValueError for price
    or quantity that is not positive."""
    if not isinstance(price, Decimal) or not isinstance(qty, Decimal):
        raise TypeError("price and qty must be Decimal")
    if not (price > 0 and qty > 0):
        raise ValueError(f"a trade needs a positive price and quantity, got {price} × {qty}")


@dataclass(frozen=True, slots=True)
class Bar:
    """One candle: ``start`` is the bucket start (ms, UTC); volume is in base, amount in quote.

    Immutable: each trade makes a new Bar, so a bar handed out (to a push or the persister) never
    changes under its holder.
    """

    start: int
    open: Decimal
    high: Decimal
    low: Decimal
    close: Decimal
    volume: Decimal
    amount: Decimal


class _Cell:
    """A bar plus the first and last trade instants seen in it, which decide open and close when
    trades arrive out of order. A loaded bar's instants are its start: later trades extend it."""

    __slots__ = ("bar", "first_ts", "last_ts")

    def __init__(self, bar: Bar, first_ts: int, last_ts: int) -> None:
        self.bar, self.first_ts, self.last_ts = bar, first_ts, last_ts

    def add(self, ts_ms: int, price: Decimal, qty: Decimal, amount: Decimal) -> Bar:
        b = self.bar
        opens, closes = ts_ms < self.first_ts, ts_ms >= self.last_ts
        self.bar = Bar(
            b.start,
            price if opens else b.open,
            max(b.high, price),
            min(b.low, price),
            price if closes else b.close,
            EXACT.add(b.volume, qty),
            EXACT.add(b.amount, amount),
        )
        if opens:
            self.first_ts = ts_ms
        if closes:
            self.last_ts = ts_ms
        return self.bar


class _Series:
    """The newest bars of one period, ascending by start, at most ``cap`` of them.

    ``floor`` is the start of the oldest bar still held once any were dropped or loaded (None while
    memory holds the whole history): buckets before it may exist only in the database, so a trade
    that falls there must not create a fresh bar that would overwrite the stored one.
    """

    __slots__ = ("period", "cap", "starts", "cells", "floor", "_end")

    def __init__(self, period: Period, cap: int) -> None:
        self.period, self.cap = period, cap
        self.starts: list[int] = []
        self.cells: dict[int, _Cell] = {}
        self.floor: int | None = None
        self._end = 0  # next_start of the newest bar: with starts[-1], the fast path for the common trade

    def add(self, ts_ms: int, price: Decimal, qty: Decimal, amount: Decimal) -> Bar | None:
        if self.starts and self.starts[-1] <= ts_ms < self._end:
            return self.cells[self.starts[-1]].add(ts_ms, price, qty, amount)
        start = self.period.bucket_start(ts_ms)
        cell = self.cells.get(start)
        if cell is not None:
            return cell.add(ts_ms, price, qty, amount)
        if self.floor is not None and start < self.floor:
            return None  # only the database knows this bucket
        bar = Bar(start, price, price, price, price, qty, amount)
        self.insert(_Cell(bar, ts_ms, ts_ms))
        return bar

    def insert(self, cell: _Cell) -> None:
        start = cell.bar.start
        self.cells[start] = cell
        if not self.starts or start > self.starts[-1]:
            self.starts.append(start)
            self._end = self.period.next_start(start)
        else:
            insort(self.starts, start)
        if len(self.starts) > self.cap:
            drop = len(self.starts) - self.cap
            for old in self.starts[:drop]:
                del self.cells[old]
            del self.starts[:drop]
            self.floor = self.starts[0]


class CandleBook:
    """Bars of every period for one pair, built from its trades.

    Memory is bounded: each period keeps its ``max_bars`` newest bars; older ones live only in the
    database, and a late trade that falls before what memory holds leaves that period alone.
    Changed bars stay listed by :meth:`dirty` (even once dropped from memory) until cleared.
    """

    def __init__(self, *, max_bars: int = 2000, periods: Iterable[Period] = ALL_PERIODS) -> None:
        if max_bars < 1:
            raise ValueError("max_bars must be at least 1")
        self._series = {p: _Series(p, max_bars) for p in periods}
        self._dirty: dict[tuple[Period, int], Bar] = {}

    @property
    def periods(self) -> tuple[Period, ...]:
        return tuple(self._series)

    def on_trade(self, ts_ms: int, price: Decimal, qty: Decimal) -> list[tuple[Period, Bar]]:
        """Fold one trade into the bar holding ``ts_ms`` in every period and return the changed bars,
        one per period, for live KLINE pushes. A trade older than the newest bar updates the older
        bar if it is still in memory. Raises TypeError/ValueError for a non-Decimal or non-positive
        price or quantity (nothing is changed)."""
        check_trade(price, qty)
        amount = EXACT.multiply(price, qty)
        changed: list[tuple[Period, Bar]] = []
        for period, series in self._series.items():
            bar = series.add(ts_ms, price, qty, amount)
            if bar is not None:
                changed.append((period, bar))
                self._dirty[(period, bar.start)] = bar
        return changed

    def bars(self, period: Period, from_ms: int, to_ms: int, limit: int = 1500) -> list[Bar]:
        """Bars in memory whose bucket overlaps ``[from_ms, to_ms]`` (both inclusive), ascending.

        Buckets without trades are absent, not filled. Past ``limit`` the newest ``limit`` are kept
        (charts page backwards from ``to``). Anything before :meth:`horizon` must come from the
        database. Raises KeyError for a period this book does not keep.
        """
        series = self._series[period]
        if limit < 1 or from_ms > to_ms:
            return []
        lo = bisect_left(series.starts, period.bucket_start(from_ms))
        hi = bisect_right(series.starts, to_ms)
        lo = max(lo, hi - limit)
        return [series.cells[s].bar for s in series.starts[lo:hi]]

    def last(self, period: Period) -> Bar | None:
        """The newest bar of ``period``, or None before any trade or load."""
        series = self._series[period]
        return series.cells[series.starts[-1]].bar if series.starts else None

    def horizon(self, period: Period) -> int | None:
        """The start of the oldest bar memory vouches for; older buckets may exist only in the
        database. None while memory holds every bar this book ever saw (nothing dropped or loaded)."""
        return self._series[period].floor

    def load(self, period: Period, bars: Iterable[Bar]) -> None:
        """Restore persisted bars of ``period`` (call before trades arrive). A loaded bar replaces
        any held bar with the same start; beyond ``max_bars`` the newest are kept. Loaded bars are
        not dirty. Later trades in a loaded bucket extend it. Raises ValueError for a bar whose
        start is not a bucket start of ``period`` (nothing is loaded then)."""
        series = self._series[period]
        items = sorted(bars, key=lambda b: b.start)
        for bar in items:
            if period.bucket_start(bar.start) != bar.start:
                raise ValueError(f"bar start {bar.start} is not a {period} bucket start")
        for bar in items:
            if bar.start in series.cells:
                series.cells[bar.start] = _Cell(bar, bar.start, bar.start)
            else:
                series.insert(_Cell(bar, bar.start, bar.start))
        if items:
            series.floor = series.starts[0]

    def cells(self, keys: Iterable[tuple[Period, int]]) -> list[tuple[Period, Bar, int, int]]:
        """The bars at ``keys`` (period, bucket start) that memory holds, each with the instants of its
        first and last trade: what another book needs to carry them on exactly (``graft``)."""
        held = []
        for period, start in keys:
            cell = self._series[period].cells.get(start) if period in self._series else None
            if cell is not None:
                held.append((period, cell.bar, cell.first_ts, cell.last_ts))
        return held

    def graft(self, cells: Iterable[tuple[Period, Bar, int, int]]) -> None:
        """Take in bars as another book holds them (``cells``), replacing any held bar with the same
        start. They are not dirty: the other book persisted them. Periods this book does not keep,
        and bars older than what memory vouches for (``horizon``), are left out."""
        for period, bar, first_ts, last_ts in cells:
            series = self._series.get(period)
            if series is None:
                continue
            cell = _Cell(bar, first_ts, last_ts)
            if bar.start in series.cells:
                series.cells[bar.start] = cell
            elif series.floor is None or bar.start >= series.floor:
                series.insert(cell)

    def dirty(self) -> list[tuple[Period, Bar]]:
        """Bars changed since they were last cleared, the newest version of each, for persisting."""
        return [(period, bar) for (period, _), bar in self._dirty.items()]

    def clear_dirty(self, persisted: Iterable[tuple[Period, Bar]] | None = None) -> None:
        """Forget dirty bars. With ``persisted`` (what :meth:`dirty` returned and was then stored),
        forget only those not changed since, so trades that land while the owner awaits the
        database are still persisted next time; without it, forget all."""
        if persisted is None:
            self._dirty.clear()
            return
        for period, bar in persisted:
            key = (period, bar.start)
            if self._dirty.get(key) is bar:
                del self._dirty[key]
