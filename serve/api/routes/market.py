"""Market data. ``currency_matches`` serves the pairs and their tickers, grouped by quote currency."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Query

from serve.api.deps import EngineDep, Svc
from serve.api.responses import Envelope, checked
from serve.api.spot_answers import BARS, BarOut, DealOut, LogoOut, PairOut, QuotationOut, QuoteGroupOut
from serve.errors import envelope
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, Currency, CurrencyMatch, Quotation
from store.money import money
from store.prices import PriceBook
from store.times import now_ms

router = APIRouter(prefix="/market", tags=["market"])

SYMBOL_PART = re.compile(r"^[A-Z0-9]{1,16}$")


def quotation_public(pair_id: int, q: Quotation | None, quote: Currency, prices: PriceBook) -> QuotationOut:
    """A pair's 24 h quotation with its last price in USD and CNY (at the quote currency's live price)."""
    zero = Decimal(0)
    close = q.close if q else zero
    fiat = prices.quotation(close, quote.code)
    return QuotationOut(
        currency_match_id=pair_id,
        close=money(close),
        change=money(q.change if q else zero),
        high=money(q.high if q else zero),
        low=money(q.low if q else zero),
        volume=money(q.volume if q else zero),
        usd_price=fiat["usd_price"],
        cny_price=fiat["cny_price"],
    )


def match_public(m: CurrencyMatch, base: Currency, quote: Currency, q: Quotation | None, prices: PriceBook) -> PairOut:
    return PairOut(
        id=m.id,
        name=base.code,
        symbol=f"{base.code}/{quote.code}",
        base_currency_id=base.id,
        quote_currency_id=quote.id,
        base_currency_code=base.code,
        quote_currency_code=quote.code,
        base_currency=LogoOut(code=base.code, logo=base.logo),
        open_change=int(m.open_change),
        open_lever=int(m.open_lever),
        open_microtrade=int(m.open_microtrade),
        added=int(m.added),
        price_decimals=m.price_decimals,
        qty_decimals=m.qty_decimals,
        # What a spot fill costs, a fraction of its value (the fee page lists them; the pair charges them).
        maker_fee=money(m.maker_fee),
        taker_fee=money(m.taker_fee),
        lever_point_rate=money(m.lever_point_rate),
        lever_share_num=money(m.lever_share_num),
        lever_fee_rate=money(m.lever_fee_rate),
        max_price=money(m.max_price),
        max_quantity=money(m.max_quantity),
        min_notional=money(m.min_notional),
        price_band=money(m.price_band),
        max_open_orders=m.max_open_orders,
        currency_quotation=quotation_public(m.id, q, quote, prices),
    )


@router.get("/currency_matches", response_model=Envelope[list[QuoteGroupOut]])
async def currency_matches(svc: Svc) -> Any:
    """Quote groups (USDT, BTC, ETH ...), each with its live USD and CNY price and its pairs with
    their 24 h quotation (last price also in USD and CNY)."""
    currencies = {c.id: c for c in await Currency.all()}
    quotes = {q.currency_match_id: q for q in await Quotation.all()}
    prices = await svc.prices.book()
    groups: dict[int, QuoteGroupOut] = {}
    for c in sorted((c for c in currencies.values() if c.is_quote), key=lambda c: (c.sort, c.id)):
        unit = prices.prices(c.code)
        groups[c.id] = QuoteGroupOut(id=c.id, code=c.code, name=c.code, is_quote=1, usd_price=unit["usd_price"],
                                     cny_price=unit["cny_price"], usd_live=prices.live(c.code), matches=[])  # fmt: skip
    for m in await CurrencyMatch.all().order_by("sort", "id"):
        group = groups.get(m.quote_currency_id)
        if group is not None:
            base = currencies[m.base_currency_id]
            group.matches.append(match_public(m, base, currencies[group.id], quotes.get(m.id), prices))
    return envelope(list(groups.values()))


async def _pair(currency_match_id: int) -> CurrencyMatch:
    pair = await CurrencyMatch.get_or_none(id=currency_match_id).prefetch_related("base_currency", "quote_currency")
    if pair is None:
        raise DomainError(ErrorCode.PAIR_NOT_FOUND)
    return pair


def _symbol(pair: CurrencyMatch) -> str:
    return f"{pair.base_currency.code}/{pair.quote_currency.code}"


@router.get("/deal", response_model=Envelope[DealOut])
async def deal(currency_match_id: Annotated[int, Query(ge=1, le=INT_MAX)], engine: EngineDep, svc: Svc) -> Any:
    """A pair's quotation (last price also in USD and CNY), order book depth (in: bids, out: asks,
    with seq) and last 30 trades."""
    pair = await _pair(currency_match_id)
    answer = await engine.read(_symbol(pair), "deal")
    quotation = answer.get("quotation")
    if quotation is not None:
        prices = await svc.prices.book()
        quotation.update(prices.quotation(Decimal(quotation["close"]), pair.quote_currency.code))
    return envelope(checked(DealOut, answer))


def _ms(value: int) -> int:
    """Times under 13 digits are seconds (as the web app sends them), else milliseconds."""
    return value * 1000 if value < 10**12 else value


@router.get("/kline", response_model=Envelope[list[BarOut]])
async def kline(
    engine: EngineDep,
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
    now = now_ms()
    end = _ms(to) if to else now
    start = _ms(from_) if from_ else end - 1500 * 60_000
    bars = await engine.read(_symbol(pair), "kline", period, start, end)
    return envelope(checked(BARS, bars))
