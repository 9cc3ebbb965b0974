"""Market data. ``currency_matches`` serves the pairs and their tickers, grouped by quote currency."""

from __future__ import annotations

import re
import time
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from actors.errors import DomainError, ErrorCode
from actors.money import money
from serve.errors import envelope
from store.models import INT_MAX, Currency, CurrencyMatch, Quotation, SiteSetting

router = APIRouter(prefix="/market", tags=["market"])

DEFAULT_CNY_RATE = Decimal("6.8")
SYMBOL_PART = re.compile(r"^[A-Z0-9]{1,16}$")  # spec: the default CNY rate fallback


def quotation_public(pair_id: int, q: Quotation | None) -> dict[str, Any]:
    zero = Decimal(0)
    return {
        "currency_match_id": pair_id,
        "close": money(q.close if q else zero),
        "change": money(q.change if q else zero),
        "high": money(q.high if q else zero),
        "low": money(q.low if q else zero),
        "volume": money(q.volume if q else zero),
    }


def match_public(m: CurrencyMatch, base: Currency, quote: Currency, q: Quotation | None) -> dict[str, Any]:
    return {
        "id": m.id,
        "name": base.code,
        "symbol": f"{base.code}/{quote.code}",
        "base_currency_id": base.id,
        "quote_currency_id": quote.id,
        "base_currency_code": base.code,
        "quote_currency_code": quote.code,
        "base_currency": {"code": base.code, "logo": base.logo},
        "open_change": int(m.open_change),
        "open_lever": int(m.open_lever),
        "open_microtrade": int(m.open_microtrade),
        "added": int(m.added),
        "price_decimals": m.price_decimals,
        "qty_decimals": m.qty_decimals,
        "lever_point_rate": money(m.lever_point_rate),
        "lever_share_num": money(m.lever_share_num),
        "lever_fee_rate": money(m.lever_fee_rate),
        "currency_quotation": quotation_public(m.id, q),
    }


async def cny_rate() -> Decimal:
    row = await SiteSetting.get_or_none(key="usd_cny_rate")
    try:
        return Decimal(row.value) if row else DEFAULT_CNY_RATE
    except ArithmeticError:
        return DEFAULT_CNY_RATE


@router.get("/currency_matches")
async def currency_matches() -> Any:
    """Quote groups (USDT, BTC, ETH ...) each with its pairs and their 24 h quotation."""
    currencies = {c.id: c for c in await Currency.all()}
    quotes = {q.currency_match_id: q for q in await Quotation.all()}  # type: ignore[attr-defined]
    rate = await cny_rate()
    groups: dict[int, dict[str, Any]] = {}
    for c in sorted((c for c in currencies.values() if c.is_quote), key=lambda c: (c.sort, c.id)):
        groups[c.id] = {
            "id": c.id,
            "code": c.code,
            "name": c.code,
            "is_quote": 1,
            "usd_price": money(c.usd_price),
            "cny_price": money(c.usd_price * rate),
            "matches": [],
        }
    for m in await CurrencyMatch.all().order_by("sort", "id"):
        group = groups.get(m.quote_currency_id)  # type: ignore[attr-defined]
        if group is not None:
            base = currencies[m.base_currency_id]  # type: ignore[attr-defined]
            group["matches"].append(match_public(m, base, currencies[group["id"]], quotes.get(m.id)))
    return envelope(list(groups.values()))


async def _pair(currency_match_id: int) -> CurrencyMatch:
    pair = await CurrencyMatch.get_or_none(id=currency_match_id).prefetch_related("base_currency", "quote_currency")
    if pair is None:
        raise DomainError(ErrorCode.PAIR_NOT_FOUND)
    return pair


def _symbol(pair: CurrencyMatch) -> str:
    return f"{pair.base_currency.code}/{pair.quote_currency.code}"


@router.get("/deal")
async def deal(currency_match_id: Annotated[int, Query(ge=1, le=INT_MAX)], request: Request) -> Any:
    """A pair's quotation, order book depth (in: bids, out: asks, with seq) and last 30 trades."""
    pair = await _pair(currency_match_id)
    return envelope(await request.app.state.engine.ask(_symbol(pair), "deal"))


def _ms(value: int) -> int:
    """Times under 13 digits are seconds (as the web app sends them), else milliseconds."""
    return value * 1000 if value < 10**12 else value


@router.get("/kline")
async def kline(
    request: Request,
    period: Annotated[str, Query(max_length=8)] = "1min",
    currency_match_id: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
    symbol: Annotated[str | None, Query(max_length=32)] = None,
    from_: Annotated[int | None, Query(alias="from", ge=0, le=10**15)] = None,
    to: Annotated[int | None, Query(ge=0, le=10**15)] = None,
) -> Any:
    """Candles of a pair (by id or symbol) for a period, oldest first."""
    from actors.market.periods import parse_period

    try:
        parse_period(period)
    except ValueError as exc:
        raise DomainError(ErrorCode.PERIOD_UNKNOWN) from exc
    if currency_match_id is not None:
        pair = await _pair(currency_match_id)
    else:
        base, _, quote = (symbol or "").upper().partition("/")
        if not (SYMBOL_PART.match(base) and SYMBOL_PART.match(quote)):
            raise DomainError(ErrorCode.PAIR_NOT_FOUND)
        found = await CurrencyMatch.get_or_none(base_currency__code=base, quote_currency__code=quote)
        if found is None:
            raise DomainError(ErrorCode.PAIR_NOT_FOUND)
        pair = await _pair(found.id)
    now = int(time.time() * 1000)
    end = _ms(to) if to else now
    start = _ms(from_) if from_ else end - 1500 * 60_000
    bars = await request.app.state.engine.ask(_symbol(pair), "kline", period, start, end)
    return envelope(bars)
