"""Each currency's USD (and CNY) price, from the pairs' live mark prices (``store.marks``).

The rule (docs/decisions.md, "Live prices: USD values and convert"):

- USDT is 1;
- a currency with a ``<CODE>/USDT`` pair: that pair's mark;
- otherwise through its BTC pair, then its ETH pair: the mark × BTC's (ETH's) USD price;
- with no mark on any of them: the seeded ``currencies.usd_price``, flagged not live.

A mark its pair stopped confirming (``Mark.fresh``) still prices a currency (the last price the market
showed beats a seed), but the result is not live; only convert, which pays money, refuses it. The CNY
price is the USD price × the site setting ``usd_cny_rate``.

``usd_prices``, ``quotation_prices`` and ``PriceBook`` are pure. ``UsdPrices`` reads the marks from
Redis (one MGET) at most once per ``TTL_S`` and the currencies, pairs and CNY rate from the database at
most once per ``CATALOG_TTL_S``, per process: a page of a hundred rows costs no round trip per row.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal

from redis.asyncio import Redis

from store import marks
from store.marks import Mark
from store.models import Currency, CurrencyMatch, SiteSetting
from store.money import money, plain
from store.times import now_ms

USD = "USDT"  # the exchange's dollar: priced at 1
BRIDGES = ("BTC", "ETH")  # a currency without a USDT pair is priced through these, in this order
DEFAULT_CNY_RATE = Decimal("6.8")  # spec: the CNY rate when the site setting is missing or unreadable
CNY_RATE_KEY = "usd_cny_rate"
# A CNY rate is a plain decimal in this range: what the console saves, and what is read as one (anything
# else stored is read as the default; ``1e999999`` once made every priced page fail).
CNY_RATE_MIN, CNY_RATE_MAX, CNY_RATE_PLACES = Decimal("0.01"), Decimal(1000), 8
TTL_S = 1.0  # marks are re-read at most this often per process
CATALOG_TTL_S = 10.0  # currencies, pairs and the CNY rate change only by an operator
PLACES = 8  # shown USD and CNY prices: 8 decimal places ...
SIGNIFICANT = 8  # ... or 8 significant digits when the price is smaller than that shows
VALUE_PLACES = 8  # USD values of balances, rounded down


@dataclass(frozen=True)
class UsdPrice:
    price: Decimal
    live: bool  # from marks their pairs confirmed recently; False: from the seed or a stale mark
    source: str  # "USDT", the symbol(s) of the marks it came from ("LTC/BTC*BTC/USDT"), or "seed"


def rounded(value: Decimal) -> Decimal:
    """A price as shown: ``PLACES`` decimals, or ``SIGNIFICANT`` significant digits if it is smaller."""
    if not value:
        return Decimal(0)
    places = max(PLACES, SIGNIFICANT - 1 - value.adjusted())
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def usd_prices(
    seeds: Mapping[str, Decimal], found: Mapping[str, Mark], now_ms: int, stale_seconds: float
) -> dict[str, UsdPrice]:
    """The USD price of every currency in ``seeds`` (code -> seeded usd_price) from the marks ``found``
    (symbol -> mark), by the rule of the module docstring."""

    def mark(symbol: str) -> tuple[Decimal, bool] | None:
        m = found.get(symbol)
        if m is None or m.price <= 0:
            return None
        return m.price, m.fresh(now_ms, stale_seconds)

    def price(code: str, seen: frozenset[str]) -> UsdPrice:
        if code == USD:
            return UsdPrice(Decimal(1), True, USD)
        direct = mark(f"{code}/{USD}")
        if direct is not None:
            return UsdPrice(direct[0], direct[1], f"{code}/{USD}")
        for bridge in BRIDGES:
            via = mark(f"{code}/{bridge}") if bridge != code and bridge not in seen else None
            if via is not None:
                through = price(bridge, seen | {code})
                return UsdPrice(via[0] * through.price, via[1] and through.live, f"{code}/{bridge}*{through.source}")
        return UsdPrice(seeds.get(code, Decimal(0)), False, "seed")

    return {code: price(code, frozenset()) for code in seeds}


def quotation_prices(close: Decimal, quote_usd: Decimal, cny_rate: Decimal) -> dict[str, str]:
    """The ``usd_price`` and ``cny_price`` of a quotation: its last price in USD (close × the quote
    currency's USD price) and in CNY (that × the CNY rate), as the API shows them."""
    usd = close * quote_usd
    return {"usd_price": money(rounded(usd)), "cny_price": money(rounded(usd * cny_rate))}


@dataclass(frozen=True)
class PriceBook:
    """Every currency's USD price at one moment, and the CNY rate."""

    usd: Mapping[str, UsdPrice]
    cny_rate: Decimal

    def usd_price(self, code: str) -> Decimal:
        found = self.usd.get(code)
        return found.price if found else Decimal(0)

    def live(self, code: str) -> bool:
        found = self.usd.get(code)
        return found.live if found else False

    def usdt_mark(self, code: str) -> Decimal | None:
        """The fresh mark of ``<code>/USDT`` this book was priced from, if it was (what convert pays from)."""
        found = self.usd.get(code)
        return found.price if found and found.live and found.source == f"{code}/{USD}" else None

    def prices(self, code: str) -> dict[str, str]:
        """``usd_price`` and ``cny_price`` of one unit of ``code``, as the API shows them."""
        return quotation_prices(Decimal(1), self.usd_price(code), self.cny_rate)

    def quotation(self, close: Decimal, quote_code: str) -> dict[str, str]:
        """``quotation_prices`` of a pair quoted in ``quote_code`` whose last price is ``close``."""
        return quotation_prices(close, self.usd_price(quote_code), self.cny_rate)

    def value(self, amount: Decimal, code: str) -> Decimal:
        """What ``amount`` of ``code`` is worth in USD, rounded down to ``VALUE_PLACES``."""
        return (amount * self.usd_price(code)).quantize(Decimal(1).scaleb(-VALUE_PLACES), rounding=ROUND_DOWN)


def parse_cny_rate(text: str | None) -> Decimal:
    """The site setting's CNY rate, or the default when it is missing or not a plain decimal from
    ``CNY_RATE_MIN`` to ``CNY_RATE_MAX`` (a value stored before the console checked it, or by hand)."""
    rate = plain(text or "", low=CNY_RATE_MIN, high=CNY_RATE_MAX, places=CNY_RATE_PLACES)
    return DEFAULT_CNY_RATE if rate is None else rate


async def cny_rate() -> Decimal:
    row = await SiteSetting.get_or_none(key=CNY_RATE_KEY)
    return parse_cny_rate(row.value if row else None)


@dataclass(frozen=True)
class _Catalog:
    seeds: dict[str, Decimal]  # code -> seeded usd_price
    symbols: list[str]
    cny_rate: Decimal


class UsdPrices:
    """A process's cache of the ``PriceBook`` (see the module docstring for how fresh it is)."""

    def __init__(self, redis: Redis, stale_seconds: float, ttl_s: float = TTL_S) -> None:
        self._redis = redis
        self._stale_seconds = stale_seconds
        self._ttl_s = ttl_s
        self._book: PriceBook | None = None
        self._book_at = float("-inf")  # monotonic time of the last read of the marks
        self._catalog: _Catalog | None = None
        self._catalog_at = float("-inf")
        self._lock = asyncio.Lock()

    @property
    def latest(self) -> PriceBook | None:
        """The book as last read, without waiting (None before the first ``book()``)."""
        return self._book

    async def book(self) -> PriceBook:
        """The current prices: re-read when older than ``ttl_s``; concurrent callers share one read."""
        if self._book is not None and time.monotonic() - self._book_at <= self._ttl_s:
            return self._book
        async with self._lock:
            if self._book is None or time.monotonic() - self._book_at > self._ttl_s:
                self._book = await self._read()
                self._book_at = time.monotonic()
            return self._book

    async def _read(self) -> PriceBook:
        if self._catalog is None or time.monotonic() - self._catalog_at > CATALOG_TTL_S:
            self._catalog = await _load_catalog()
            self._catalog_at = time.monotonic()
        catalog = self._catalog
        found = await marks.read(self._redis, catalog.symbols)
        return PriceBook(usd_prices(catalog.seeds, found, now_ms(), self._stale_seconds), catalog.cny_rate)


async def _load_catalog() -> _Catalog:
    seeds = {code: price for code, price in await Currency.all().values_list("code", "usd_price")}
    pairs = await CurrencyMatch.all().values_list("base_currency__code", "quote_currency__code")
    return _Catalog(seeds, [f"{base}/{quote}" for base, quote in pairs], await cny_rate())


def conversion_rate(mark: Decimal, spread: Decimal) -> Decimal:
    """What one unit converts for: the mark less the spread, against the user."""
    return mark * (1 - spread)
