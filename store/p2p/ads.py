"""Merchants' ads: posting, editing, pausing and closing, and the market's list.

A sell ad's ``stock`` is locked in the merchant's legal account: every change of the stock that is
not an order taking it (posting, an edit of the total, closing) is one ledger batch with the ad's
row, ref ``ad<id>:v<version>``. The ad's row is locked before the accounts, as in every P2P path."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from store import ledger
from store.db import retry_busy, transaction
from store.errors import DomainError, ErrorCode
from store.ids import TableIds
from store.ledger import ZERO, Change
from store.models import AccountType, AdSide, AdStatus, Currency, P2PAd, P2POrder
from store.models.p2p import OPEN_STATES
from store.money import money
from store.p2p import merchants, rules

LOG_AD = "p2p_ad"
ids = TableIds("p2p_ad", P2PAd)


@dataclass(frozen=True)
class AdInput:
    side: int
    currency_id: int
    fiat: str
    price: Decimal
    min_fiat: Decimal
    max_fiat: Decimal
    total: Decimal
    methods: tuple[str, ...]
    window_min: int
    remarks: str


async def p2p_currency(currency_id: int) -> Currency:
    """A currency the market trades (in legal accounts), or P2P_CURRENCY_INVALID."""
    currency = await Currency.get_or_none(id=currency_id)
    legal = str(int(AccountType.LEGAL))
    if currency is None or currency.code not in rules.CURRENCIES or legal not in currency.account_types.split(","):
        raise DomainError(ErrorCode.P2P_CURRENCY_INVALID)
    return currency


async def market_currencies() -> list[Currency]:
    rows = await Currency.filter(code__in=rules.CURRENCIES)
    legal = str(int(AccountType.LEGAL))
    return [c for c in rows if legal in c.account_types.split(",")]


def check(inp: AdInput, places: int, offerable: set[str]) -> None:
    """The ad's fields against the rules (the side and currency are checked by the caller)."""
    if inp.fiat not in rules.FIATS:
        raise DomainError(ErrorCode.P2P_FIAT_INVALID)
    if inp.price <= ZERO or rules.places_of(inp.price) > rules.FIAT_PLACES:
        raise DomainError(ErrorCode.P2P_PRICE_INVALID)
    limits = (inp.min_fiat, inp.max_fiat)
    if any(v < rules.MIN_FIAT or rules.places_of(v) > rules.FIAT_PLACES for v in limits) or inp.min_fiat > inp.max_fiat:
        raise DomainError(ErrorCode.P2P_LIMITS_INVALID)
    if inp.total <= ZERO or rules.places_of(inp.total) > places:
        raise DomainError(ErrorCode.P2P_TOTAL_INVALID, places=places)
    methods = set(inp.methods)
    if not methods or not methods <= set(rules.METHODS) or (inp.side == AdSide.SELL and not methods <= offerable):
        raise DomainError(ErrorCode.P2P_METHODS_INVALID)
    if inp.window_min not in rules.WINDOWS:
        raise DomainError(ErrorCode.P2P_WINDOW_INVALID)
    if len(inp.remarks) > 500:
        raise DomainError(ErrorCode.P2P_REMARKS_TOO_LONG)


def is_listed(ad: P2PAd) -> bool:
    """Shown in the market: online, and its stock worth at least the smallest order it takes."""
    return ad.status == AdStatus.ONLINE and rules.max_now(ad.max_fiat, ad.stock, ad.price) >= ad.min_fiat


async def locked(ad_id: int, conn: BaseDBAsyncClient) -> P2PAd | None:
    return await P2PAd.filter(id=ad_id).select_for_update().using_db(conn).first()


async def restock(ad: P2PAd, delta: Decimal, conn: BaseDBAsyncClient, now_ms: int) -> None:
    """Write the ad's stock changed by ``delta`` (its row is locked by the caller)."""
    ad.stock += delta
    ad.listed = is_listed(ad)
    ad.updated_ms = now_ms
    await ad.save(using_db=conn, update_fields=["stock", "listed", "updated_ms"])


def _stock_change(ad: P2PAd, delta: Decimal, currency_id: int) -> list[Change]:
    """The merchant's lock moved by ``delta`` of stock (a sell ad only), named after the ad's next version."""
    if ad.side != AdSide.SELL or delta == ZERO:
        return []
    ref = f"ad{ad.id}:v{ad.version + 1}"
    return [Change(ad.merchant_id, currency_id, AccountType.LEGAL, -delta, delta, LOG_AD, ref, memo=f"P2P ad {ad.id}")]


@retry_busy
async def save(uid: int, ad_id: int | None, inp: AdInput, now_ms: int) -> P2PAd:
    """Post a new ad or edit one (its side and currency stay as posted)."""
    if not await merchants.is_merchant(uid):
        raise DomainError(ErrorCode.MERCHANT_REQUIRED)
    if ad_id is None and inp.side not in (AdSide.SELL, AdSide.BUY):
        raise DomainError(ErrorCode.P2P_SIDE_INVALID)
    offerable = set(await merchants.offerable(uid))
    new_id = ad_id or await ids.next()
    async with transaction() as conn:
        ad = await locked(ad_id, conn) if ad_id else None
        if ad_id and (ad is None or ad.merchant_id != uid):
            raise DomainError(ErrorCode.P2P_AD_NOT_FOUND)
        if ad is not None and ad.status == AdStatus.CLOSED:
            raise DomainError(ErrorCode.P2P_AD_CLOSED)
        side, currency_id = (ad.side, ad.currency_id) if ad else (inp.side, inp.currency_id)
        currency = await p2p_currency(currency_id)
        check(AdInput(**{**inp.__dict__, "side": side}), currency.decimals, offerable)
        if ad is None:
            open_ads = await P2PAd.filter(merchant_id=uid, status__not=AdStatus.CLOSED).using_db(conn).count()
            if open_ads >= rules.MAX_ADS:
                raise DomainError(ErrorCode.P2P_TOO_MANY_ADS, max=rules.MAX_ADS)
            ad = P2PAd(id=new_id, merchant_id=uid, side=side, currency_id=currency_id, stock=ZERO, total=ZERO,
                       created_ms=now_ms, status=AdStatus.ONLINE)  # fmt: skip
        sold = ad.total - ad.stock
        if inp.total < sold:
            raise DomainError(ErrorCode.P2P_TOTAL_BELOW_SOLD, sold=money(sold))
        changes = _stock_change(ad, inp.total - sold - ad.stock, currency_id)
        await ledger.apply_in(conn, changes)
        ad.version += bool(changes)
        ad.fiat, ad.price, ad.min_fiat, ad.max_fiat = inp.fiat, inp.price, inp.min_fiat, inp.max_fiat
        ad.total, ad.stock = inp.total, inp.total - sold
        ad.methods = [m for m in rules.METHODS if m in inp.methods]
        ad.window_min, ad.remarks, ad.updated_ms = inp.window_min, inp.remarks, now_ms
        ad.listed = is_listed(ad)
        await ad.save(using_db=conn)
    return await P2PAd.get(id=ad.id)


@retry_busy
async def set_status(uid: int, ad_id: int, status: int, now_ms: int) -> P2PAd:
    """Put an ad online or pause it (its stock stays locked while paused)."""
    if status not in (AdStatus.ONLINE, AdStatus.PAUSED):
        raise DomainError(ErrorCode.BAD_REQUEST)
    async with transaction() as conn:
        ad = await locked(ad_id, conn)
        if ad is None or ad.merchant_id != uid:
            raise DomainError(ErrorCode.P2P_AD_NOT_FOUND)
        if ad.status == AdStatus.CLOSED:
            raise DomainError(ErrorCode.P2P_AD_CLOSED)
        ad.status, ad.updated_ms = status, now_ms
        ad.listed = is_listed(ad)
        await ad.save(using_db=conn, update_fields=["status", "listed", "updated_ms"])
    return ad


@retry_busy
async def close(uid: int | None, ad_id: int, now_ms: int) -> P2PAd:
    """Close an ad for good: its stock returns to the merchant's balance; its open orders go on (their
    escrow stays until they end). ``uid`` None: the operator."""
    async with transaction() as conn:
        ad = await locked(ad_id, conn)
        if ad is None or uid is not None and ad.merchant_id != uid:
            raise DomainError(ErrorCode.P2P_AD_NOT_FOUND)
        if ad.status == AdStatus.CLOSED:
            raise DomainError(ErrorCode.P2P_AD_CLOSED)
        changes = _stock_change(ad, -ad.stock, ad.currency_id)
        await ledger.apply_in(conn, changes)
        ad.version += bool(changes)
        ad.total -= ad.stock
        ad.stock, ad.status, ad.listed, ad.updated_ms = ZERO, AdStatus.CLOSED, False, now_ms
        await ad.save(using_db=conn)
    return ad


def view(ad: P2PAd, currency: str, merchant: dict[str, Any] | None = None) -> dict[str, Any]:
    side = AdSide(ad.side)
    return {
        "id": ad.id, "side": int(side), "taker_side": "buy" if rules.taker_buys(side) else "sell",
        "currency_id": ad.currency_id, "currency": currency, "fiat": ad.fiat, "price": money(ad.price),
        "min_fiat": money(ad.min_fiat), "max_fiat": money(ad.max_fiat),
        "max_now": money(rules.max_now(ad.max_fiat, ad.stock, ad.price)), "total": money(ad.total),
        "stock": money(ad.stock), "methods": list(ad.methods), "window_min": ad.window_min, "remarks": ad.remarks,
        "status": ad.status, **({"merchant": merchant} if merchant is not None else {}),
    }  # fmt: skip


async def _codes() -> dict[int, str]:
    return {c.id: c.code for c in await market_currencies()}


async def market(taker_side: str, currency_id: int | None, fiat: str | None, page: int, limit: int,
                 now_ms: int) -> dict[str, Any]:  # fmt: skip
    """Listed ads a taker can buy from (``buy``: merchants' sell ads, cheapest first) or sell to (``sell``:
    buy ads, dearest first)."""
    side = AdSide.SELL if taker_side == "buy" else AdSide.BUY
    query = P2PAd.filter(listed=True, side=side)
    if currency_id:
        query = query.filter(currency_id=currency_id)
    if fiat:
        query = query.filter(fiat=fiat)
    total = await query.count()
    best_first = "price" if side == AdSide.SELL else "-price"
    rows = await query.order_by(best_first, "id").offset((page - 1) * limit).limit(limit)
    uids = sorted({r.merchant_id for r in rows})
    names, figures, codes = await merchants.nicknames(uids), await merchants.figures(uids, now_ms), await _codes()
    ads = [view(r, codes.get(r.currency_id, ""), {"uid": r.merchant_id, "nickname": names.get(r.merchant_id, ""),
                                                   **figures[r.merchant_id]}) for r in rows]  # fmt: skip
    return {"list": ads, "page": page, "total": total, "limit": limit}


async def mine(uid: int, status: int) -> list[dict[str, Any]]:
    """The merchant's ads, newest first, with the escrow of their open orders and what they sold."""
    query = P2PAd.filter(merchant_id=uid).order_by("-id")
    if status:
        query = query.filter(status=status)
    rows, codes = await query, await _codes()
    held = await P2POrder.filter(ad_id__in=[r.id for r in rows], state__in=OPEN_STATES).values_list("ad_id", "amount")
    in_orders: dict[int, Decimal] = {}
    for ad_id, amount in held:
        in_orders[int(ad_id)] = in_orders.get(int(ad_id), ZERO) + Decimal(amount)
    out = []
    for r in rows:
        escrow = in_orders.get(r.id, ZERO)
        out.append({**view(r, codes.get(r.currency_id, "")), "in_orders": money(escrow),
                    "sold": money(r.total - r.stock - escrow)})  # fmt: skip
    return out
