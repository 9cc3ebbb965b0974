"""Spot orders: place (tx_in/add buys, tx_out/add sells), list, history and cancel.

The order path (DESIGN.md): validate here, freeze the funds in the user's wallet shard, submit to
the pair's actor (which answers once the order and its trades are durable), and release the freeze
at once if the pair refuses the order.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from actors.engine import LIMIT, MARKET, PairRef, place_order
from actors.pair.state import BUY, SELL, PairConfig
from serve.api.deps import CurrentUid, Lang, Services, Svc
from serve.api.paging import paginate
from serve.errors import envelope
from serve.i18n import N_, translate
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX, Order, OrderStatus
from store.money import money
from store.spot import OPEN_STATUSES

router = APIRouter(tags=["trade"])

WAY_NAMES = {BUY: N_("Buy"), SELL: N_("Sell")}
STATUS_NAMES = {
    OrderStatus.OPEN: N_("Open"),
    OrderStatus.PARTIAL: N_("Partially filled"),
    OrderStatus.FILLED: N_("Filled"),
    OrderStatus.CANCELLED: N_("Cancelled"),
}
PLACED = N_("Order placed")
MAX_DIGITS = 64  # characters of an amount, and digits before its point: far above any pair's bound
CANCELLED = N_("Order cancelled")


class OrderIn(BaseModel):
    """``kind`` market: a buy spends ``total`` (quote), a sell sells ``number`` at the best bids."""

    model_config = ConfigDict(extra="ignore")
    currency_match_id: int = Field(ge=1, le=INT_MAX)
    number: str = Field(default="", max_length=MAX_DIGITS, description="base quantity, at most the pair's max_quantity")
    price: str = Field(default="", max_length=MAX_DIGITS, description="limit price: at most the pair's max_price, "
                       "within price_band times the mark price either way")  # fmt: skip
    total: str = Field(default="", max_length=MAX_DIGITS, description="quote to spend (market buy)")
    kind: Literal["limit", "market"] = "limit"


class OrderRef(BaseModel):
    id: int = Field(ge=1, le=2**63 - 1)


def _amount(text: str, missing: ErrorCode, places: int, too_precise: ErrorCode) -> Decimal:
    """A positive amount with at most ``places`` decimals. Raises ``missing`` for nothing, not a
    number, not finite or not positive, ``too_precise`` for more places; never rounds."""
    raw = text.strip()
    try:
        value = Decimal(raw) if raw and len(raw) <= MAX_DIGITS else None
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value <= 0:
        raise DomainError(missing)
    if value.adjusted() > MAX_DIGITS:
        return value  # far above every bound: _check_bounds refuses it with the pair's maximum
    value = value.normalize()
    if -value.as_tuple().exponent > places:  # type: ignore[operator]
        raise DomainError(too_precise, places=places)
    return value


def _check_bounds(pair: PairConfig, kind: int, way: int, price: Decimal, number: Decimal, budget: Decimal) -> None:
    """The pair's bounds (docs/decisions.md "Bounds"); the pair checks them again, with the band."""
    if number > pair.max_quantity:
        raise DomainError(ErrorCode.QUANTITY_TOO_LARGE, max=money(pair.max_quantity))
    if price > pair.max_price:
        raise DomainError(ErrorCode.PRICE_TOO_HIGH, max=money(pair.max_price))
    if kind == MARKET and way == BUY and budget > pair.max_price * pair.max_quantity:
        raise DomainError(ErrorCode.AMOUNT_ABOVE_MAX, max=money(pair.max_price * pair.max_quantity))
    value = budget if kind == MARKET else price * number
    if kind == LIMIT or way == BUY:
        if value < pair.min_notional:
            raise DomainError(ErrorCode.NOTIONAL_TOO_SMALL, min=money(pair.min_notional), currency=pair.quote_code)


async def _place(way: int, body: OrderIn, uid: int, svc: Services, request: Request, lang: str) -> Any:
    pair = await svc.pairs.get(body.currency_match_id)
    if not pair.open_change:
        raise DomainError(ErrorCode.PAIR_CLOSED)
    if way == SELL and pair.sell_disabled:
        raise DomainError(ErrorCode.SELL_DISABLED)
    kind = MARKET if body.kind == "market" else LIMIT
    number = price = budget = Decimal(0)
    if kind == MARKET and way == BUY:
        budget = _amount(body.total, ErrorCode.QUANTITY_REQUIRED, 18, ErrorCode.QUANTITY_PRECISION)
    else:
        number = _amount(body.number, ErrorCode.QUANTITY_REQUIRED, pair.qty_decimals, ErrorCode.QUANTITY_PRECISION)
        if kind == LIMIT:
            price = _amount(body.price, ErrorCode.PRICE_REQUIRED, pair.price_decimals, ErrorCode.PRICE_PRECISION)
    _check_bounds(pair, kind, way, price, number, budget)
    ref = PairRef(pair.id, pair.symbol, pair.base_currency_id, pair.quote_currency_id)
    placed = await place_order(request.app.state.engine, uid=uid, pair=ref, way=way, kind=kind, price=price,
                               number=number, budget=budget)  # fmt: skip
    return envelope(placed, translate(PLACED, lang))


@router.post("/tx_in/add")
async def buy(body: OrderIn, uid: CurrentUid, svc: Svc, request: Request, lang: Lang) -> Any:
    """Place a buy order (limit by default)."""
    return await _place(BUY, body, uid, svc, request, lang)


@router.post("/tx_out/add")
async def sell(body: OrderIn, uid: CurrentUid, svc: Svc, request: Request, lang: Lang) -> Any:
    """Place a sell order (limit by default); refused on pairs with selling disabled."""
    return await _place(SELL, body, uid, svc, request, lang)


def order_public(o: Order, lang: str) -> dict[str, Any]:
    pair = o.currency_match
    symbol = f"{pair.base_currency.code}/{pair.quote_currency.code}"
    return {
        "id": o.id,
        "currency_match_id": pair.id,
        "currency_match": {"symbol": symbol},
        "symbol": symbol,
        "way": o.way,
        "way_name": translate(WAY_NAMES[o.way], lang),
        "kind": o.kind,
        "price": money(o.price),
        "number": money(o.number),
        "transacted_amount": money(o.transacted_amount),
        "transacted_volume": money(o.transacted_volume),
        "status": int(o.status),
        "status_name": translate(STATUS_NAMES[OrderStatus(o.status)], lang),
        "created_at": o.created_at.isoformat(),
        "updated_at": o.updated_at.isoformat(),
    }


class ListQuery(BaseModel):
    page: int = Field(default=1, ge=1, le=INT_MAX)
    limit: int = Field(default=10, ge=1, le=100)
    currency_match_id: int | None = Field(default=None, ge=1, le=INT_MAX)


async def _list(uid: int, q: ListQuery, lang: str, *, way: int | None, open_: bool) -> Any:
    query = Order.filter(
        user_id=uid, status__in=OPEN_STATUSES if open_ else (OrderStatus.FILLED, OrderStatus.CANCELLED)
    )
    if way is not None:
        query = query.filter(way=way)
    if q.currency_match_id is not None:
        query = query.filter(currency_match_id=q.currency_match_id)
    query = query.order_by("-id").prefetch_related("currency_match__base_currency", "currency_match__quote_currency")
    return envelope(await paginate(query, q.page, q.limit, lambda o: order_public(o, lang)))


@router.get("/tx_in/list")
async def open_buys(uid: CurrentUid, lang: Lang, q: Annotated[ListQuery, Query()]) -> Any:
    """The user's open buy orders, newest first (10 a page)."""
    return await _list(uid, q, lang, way=BUY, open_=True)


@router.get("/tx_out/list")
async def open_sells(uid: CurrentUid, lang: Lang, q: Annotated[ListQuery, Query()]) -> Any:
    """The user's open sell orders, newest first (10 a page)."""
    return await _list(uid, q, lang, way=SELL, open_=True)


@router.get("/tx_history/list")
async def history(
    uid: CurrentUid,
    lang: Lang,
    q: Annotated[ListQuery, Query()],
    way: Annotated[int | None, Query(ge=1, le=2)] = None,
) -> Any:
    """The user's filled and cancelled orders, newest first."""
    return await _list(uid, q, lang, way=way, open_=False)


async def _cancel(way: int, ref: OrderRef, uid: int, request: Request, lang: str) -> Any:
    order = await Order.get_or_none(id=ref.id, user_id=uid, way=way).prefetch_related(
        "currency_match__base_currency", "currency_match__quote_currency"
    )
    if order is None:
        raise DomainError(ErrorCode.ORDER_NOT_FOUND)
    if order.status not in OPEN_STATUSES:
        raise DomainError(ErrorCode.ORDER_NOT_OPEN)
    pair = order.currency_match
    symbol = f"{pair.base_currency.code}/{pair.quote_currency.code}"
    try:
        result = await request.app.state.engine.ask(symbol, "cancel", order.id, uid)
    except DomainError as exc:
        if exc.code != ErrorCode.ORDER_NOT_FOUND:
            raise
        # The order is the caller's and was open a moment ago: the pair has since filled it.
        raise DomainError(ErrorCode.ORDER_NOT_OPEN) from exc
    return envelope(result, translate(CANCELLED, lang))


@router.post("/tx_in/cancel")
async def cancel_buy(ref: OrderRef, uid: CurrentUid, request: Request, lang: Lang) -> Any:
    """Cancel one of the user's open buy orders; the unfilled funds return to the balance."""
    return await _cancel(BUY, ref, uid, request, lang)


@router.post("/tx_out/cancel")
async def cancel_sell(ref: OrderRef, uid: CurrentUid, request: Request, lang: Lang) -> Any:
    """Cancel one of the user's open sell orders."""
    return await _cancel(SELL, ref, uid, request, lang)
