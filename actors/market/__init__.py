"""Market data of one pair, as plain cores a PairActor wraps: chart periods, candles, 24 h ticker.

No Ray and no I/O here; instants come from the caller, money is Decimal throughout.
"""

from __future__ import annotations

from actors.market.candles import Bar, CandleBook
from actors.market.periods import ALL_PERIODS, Period, parse_period
from actors.market.ticker import Ticker24h

__all__ = ["ALL_PERIODS", "Bar", "CandleBook", "Period", "Ticker24h", "parse_period"]
