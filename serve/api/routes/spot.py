"""Spot orders: place (tx_in/add buys, tx_out/add sells, up to 20 of either in tx/batch_add), list,
history and cancel (one, or up to 20 in tx/batch_cancel).

The order path (docs/architecture.md "The order path"): validate here, freeze the funds in the
user's wallet shard, submit to the pair's actor (which answers once the order and its trades are
durable), and release the freeze at once if the pair refuses the order.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field, field_validator

from actors.engine import Engine
from actors.orders import OrderSpec, place_order, place_orders
from actors.pair.state import BUY, SELL
from serve.api.deps import CurrentUid, EngineDep, Lang, Services, Svc
from serve.api.idempotency import Keyed, attempt_of, idempotent
from serve.api.orders import (
    CANCELLED,
    PLACED,
    OrderIn,
    OrderRef,
    cancel_orders,
    checked_order,
    keyed_order,
    keyed_order_id,
    order_result,
    order_spec,
)
from serve.api.paging import paginate
from serve.api.responses import Envelope, Paged, checked
from serve.api.schemas import fail
from serve.api.spot_answers import BatchOut, OrderRowOut, SpotOrderOut, SymbolOut
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


class PlaceIn(OrderIn, Keyed):
    """tx_in/add's and tx_out/add's body: an order and its optional client key."""


async def _place(way: int, body: OrderIn, uid: int, svc: Services, engine: Engine, request: Request, lang: str) -> Any:
    spec = await order_spec(svc.pairs, way, body)
    attempt = attempt_of(request)
    order_id = None
    if attempt is not None:
        placed_before = await keyed_order(attempt, engine, svc.pairs)
        if placed_before is not None:
            return envelope(checked(SpotOrderOut, placed_before), translate(PLACED, lang))
        order_id = await keyed_order_id(attempt, engine)
    placed = await place_order(engine, uid=uid, pair=spec.pair, way=way, kind=spec.kind, price=spec.price,
                               number=spec.number, budget=spec.budget, order_id=order_id)  # fmt: skip
    return envelope(checked(SpotOrderOut, placed), translate(PLACED, lang))


@router.post("/tx_in/add", response_model=Envelope[SpotOrderOut])
@idempotent(retry=True)
async def buy(body: PlaceIn, uid: CurrentUid, svc: Svc, engine: EngineDep, request: Request, lang: Lang) -> Any:
    """Place a buy order (limit by default)."""
    return await _place(BUY, body, uid, svc, engine, request, lang)


@router.post("/tx_out/add", response_model=Envelope[SpotOrderOut])
@idempotent(retry=True)
async def sell(body: PlaceIn, uid: CurrentUid, svc: Svc, engine: EngineDep, request: Request, lang: Lang) -> Any:
    """Place a sell order (limit by default); refused on pairs with selling disabled."""
    return await _place(SELL, body, uid, svc, engine, request, lang)


def order_public(o: Order, lang: str) -> OrderRowOut:
    pair = o.currency_match
    symbol = f"{pair.base_currency.code}/{pair.quote_currency.code}"
    return OrderRowOut(
        id=o.id,
        currency_match_id=pair.id,
        currency_match=SymbolOut(symbol=symbol),
        symbol=symbol,
        way=o.way,
        way_name=translate(WAY_NAMES[o.way], lang),
        kind=o.kind,
        price=money(o.price),
        number=money(o.number),
        transacted_amount=money(o.transacted_amount),
        transacted_volume=money(o.transacted_volume),
        status=int(o.status),
        status_name=translate(STATUS_NAMES[OrderStatus(o.status)], lang),
        created_at=o.created_at.isoformat(),
        updated_at=o.updated_at.isoformat(),
    )


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
    return envelope(Paged[OrderRowOut](**await paginate(query, q.page, q.limit, lambda o: order_public(o, lang))))


@router.get("/tx_in/list", response_model=Envelope[Paged[OrderRowOut]])
async def open_buys(uid: CurrentUid, lang: Lang, q: Annotated[ListQuery, Query()]) -> Any:
    """The user's open buy orders, newest first (10 a page)."""
    return await _list(uid, q, lang, way=BUY, open_=True)


@router.get("/tx_out/list", response_model=Envelope[Paged[OrderRowOut]])
async def open_sells(uid: CurrentUid, lang: Lang, q: Annotated[ListQuery, Query()]) -> Any:
    """The user's open sell orders, newest first (10 a page)."""
    return await _list(uid, q, lang, way=SELL, open_=True)


@router.get("/tx_history/list", response_model=Envelope[Paged[OrderRowOut]])
async def history(
    uid: CurrentUid,
    lang: Lang,
    q: Annotated[ListQuery, Query()],
    way: Annotated[int | None, Query(ge=1, le=2)] = None,
) -> Any:
    """The user's filled and cancelled orders, newest first."""
    return await _list(uid, q, lang, way=way, open_=False)


async def _cancel(way: int, ref: OrderRef, uid: int, engine: Engine, lang: str) -> Any:
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
        result = await engine.ask(symbol, "cancel", order.id, uid)
    except DomainError as exc:
        if exc.code != ErrorCode.ORDER_NOT_FOUND:
            raise
        # The order is the caller's and was open a moment ago: the pair has since filled it.
        raise DomainError(ErrorCode.ORDER_NOT_OPEN) from exc
    return envelope(checked(SpotOrderOut, result), translate(CANCELLED, lang))


@router.post("/tx_in/cancel", response_model=Envelope[SpotOrderOut])
async def cancel_buy(ref: OrderRef, uid: CurrentUid, engine: EngineDep, lang: Lang) -> Any:
    """Cancel one of the user's open buy orders; the unfilled funds return to the balance."""
    return await _cancel(BUY, ref, uid, engine, lang)


@router.post("/tx_out/cancel", response_model=Envelope[SpotOrderOut])
async def cancel_sell(ref: OrderRef, uid: CurrentUid, engine: EngineDep, lang: Lang) -> Any:
    """Cancel one of the user's open sell orders."""
    return await _cancel(SELL, ref, uid, engine, lang)


# -- batches (issue 15): one freeze call per wallet shard and one call per pair for up to 20 orders --

BATCH_MAX = 20
BATCH_ORDERS = N_("A batch holds 1 to 20 orders")
BATCH_IDS = N_("A batch holds 1 to 20 order ids")


class BatchIn(Keyed):
    """Each order is checked alone (a bad one fails alone): the fields of tx_in/add plus ``side``."""

    orders: list[Any] = Field(description='1 to 20 of {"side": "buy"|"sell", "currency_match_id", "number", '
                              '"price", "total", "kind": "limit"|"market"}')  # fmt: skip

    @field_validator("orders")
    @classmethod
    def _size(cls, orders: list[Any]) -> list[Any]:
        if not 1 <= len(orders) <= BATCH_MAX:
            raise fail(BATCH_ORDERS)
        return orders


class BatchRefs(BaseModel):
    ids: list[Annotated[int, Field(ge=1, le=2**63 - 1)]] = Field(description="1 to 20 order ids")

    @field_validator("ids")
    @classmethod
    def _size(cls, ids: list[int]) -> list[int]:
        if not 1 <= len(ids) <= BATCH_MAX:
            raise fail(BATCH_IDS)
        return ids


@router.post("/tx/batch_add", response_model=Envelope[BatchOut])
@idempotent()
async def batch_add(body: BatchIn, uid: CurrentUid, svc: Svc, engine: EngineDep, lang: Lang) -> Any:
    """Place up to 20 orders over any pairs; each succeeds or fails alone, answered in order."""
    asked = [await checked_order(svc.pairs, raw, lang) for raw in body.orders]
    specs = [(i, c) for i, c in enumerate(asked) if isinstance(c, OrderSpec)]
    placed = await place_orders(engine, uid=uid, orders=[s for _, s in specs]) if specs else []
    results: list[Any] = list(asked)
    for (i, _), answer in zip(specs, placed, strict=True):
        results[i] = order_result(answer, PLACED, lang)
    return envelope(checked(BatchOut, {"results": results}))


@router.post("/tx/batch_cancel", response_model=Envelope[BatchOut])
async def batch_cancel(body: BatchRefs, uid: CurrentUid, engine: EngineDep, lang: Lang) -> Any:
    """Cancel up to 20 of the user's open orders (either side), one call per pair; each alone, in order."""
    answers = await cancel_orders(engine, uid, body.ids)
    return envelope(checked(BatchOut, {"results": [order_result(a, CANCELLED, lang) for a in answers]}))
