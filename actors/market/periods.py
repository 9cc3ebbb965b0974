"""Chart periods: every name the product sends, mapped to one canonical :class:`Period`.

Spot charts ask for ``1min … 1mon`` (and the period button ``1hour``); the lever and second-contract
feeds ask for TradingView resolutions ``1 … 720`` (minutes), ``1D``, ``3D``, ``1W``, ``1M``. Names that
mean the same bucket share one ``Period`` (``"1min"`` and ``"1"``), so a pair builds each bar once.

Buckets are UTC and half-open ``[start, next_start)``, in milliseconds since the Unix epoch:
minute and day periods align to the epoch (so ``3day`` starts on days whose epoch day count is
divisible by 3, and 60…720-minute bars start on UTC midnight), weeks start Monday 00:00 UTC, and
months are calendar months. The spec's chart timezone (America/New_York) is a display setting only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import Enum

MINUTE_MS = 60_000
DAY_MS = 86_400_000
WEEK_MS = 7 * DAY_MS
_EPOCH = date(1970, 1, 1)  # a Thursday
_MONDAY_MS = 4 * DAY_MS  # 1970-01-05, the first Monday after the epoch


class Unit(Enum):
    MINUTE = "min"
    DAY = "day"
    WEEK = "week"
    MONTH = "mon"


@dataclass(frozen=True, slots=True)
class Period:
    """One canonical bucket size: ``count`` × ``unit``. Compare and hash by value; use as a dict key."""

    name: str  # canonical, at most 8 characters (the klines.period column)
    unit: Unit
    count: int
    aliases: tuple[str, ...] = field(default=(), compare=False)

    @property
    def length_ms(self) -> int | None:
        """The fixed bucket length, or None for months (28 to 31 days)."""
        if self.unit is Unit.MONTH:
            return None
        return self.count * {Unit.MINUTE: MINUTE_MS, Unit.DAY: DAY_MS, Unit.WEEK: WEEK_MS}[self.unit]

    def bucket_start(self, ts_ms: int) -> int:
        """The start of the bucket holding ``ts_ms`` (works for any int, before the epoch too)."""
        if self.unit is Unit.MONTH:
            index = _month_index(ts_ms)
            return _month_start(index - index % self.count)
        length = self.length_ms
        assert length is not None
        offset = _MONDAY_MS if self.unit is Unit.WEEK else 0
        return ts_ms - (ts_ms - offset) % length

    def next_start(self, bucket_start: int) -> int:
        """The start of the bucket after the one holding ``bucket_start`` (any instant in it will do)."""
        if self.unit is Unit.MONTH:
            index = _month_index(bucket_start)
            return _month_start(index - index % self.count + self.count)
        length = self.length_ms
        assert length is not None
        return self.bucket_start(bucket_start) + length

    def __str__(self) -> str:
        return self.name


def _month_index(ts_ms: int) -> int:
    """Months since year 0 (``year * 12 + month - 1``) of the UTC date holding ``ts_ms``."""
    day = _EPOCH + timedelta(days=ts_ms // DAY_MS)
    return day.year * 12 + day.month - 1


def _month_start(index: int) -> int:
    return (date(index // 12, index % 12 + 1, 1) - _EPOCH).days * DAY_MS


# name, unit, count, other names it answers to
_TABLE: tuple[tuple[str, Unit, int, tuple[str, ...]], ...] = (
    ("1min", Unit.MINUTE, 1, ("1",)),
    ("3min", Unit.MINUTE, 3, ("3",)),
    ("5min", Unit.MINUTE, 5, ("5",)),
    ("15min", Unit.MINUTE, 15, ("15",)),
    ("30min", Unit.MINUTE, 30, ("30",)),
    ("60min", Unit.MINUTE, 60, ("60", "1hour")),
    ("120min", Unit.MINUTE, 120, ("120",)),
    ("240min", Unit.MINUTE, 240, ("240",)),
    ("360min", Unit.MINUTE, 360, ("360",)),
    ("720min", Unit.MINUTE, 720, ("720",)),
    # TradingView also spells a single day, week or month without the count.
    ("1day", Unit.DAY, 1, ("1D", "D")),
    ("3day", Unit.DAY, 3, ("3D",)),
    ("1week", Unit.WEEK, 1, ("1W", "W")),
    ("1mon", Unit.MONTH, 1, ("1M", "M")),
)

ALL_PERIODS: tuple[Period, ...] = tuple(Period(n, u, c, a) for n, u, c, a in _TABLE)
"""The distinct canonical periods, shortest first."""

_BY_NAME: dict[str, Period] = {name: p for p in ALL_PERIODS for name in (p.name, *p.aliases)}

ONE_MINUTE = _BY_NAME["1min"]
FIVE_MINUTES = _BY_NAME["5min"]
ONE_DAY = _BY_NAME["1day"]


def parse_period(name: str) -> Period:
    """The canonical period for a chart name (case-sensitive: ``1M`` is a month, ``1`` a minute).

    Raises ValueError for a name the product does not use.
    """
    try:
        return _BY_NAME[name.strip()]
    except KeyError:
        raise ValueError(f"unknown chart period {name!r}") from None
