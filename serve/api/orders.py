"""The rules a spot order meets before anything is held: one implementation for every entry path
(tx_in/add, tx_out/add, each order of tx/batch_add and the websocket's ``order``), so they answer
the same codes and messages.

``order_spec`` turns the form into an ``OrderSpec`` for ``actors.orders`` or raises the DomainError
that refuses it; the pair checks its flags and bounds again (with the band) when it matches.
``checked_order`` and ``order_result`` shape one order of a batch (or of a socket) as its own call
would answer; ``cancel_orders`` cancels a user's orders with one call per pair. ``keyed_order`` and
``keyed_order_id`` place an order with an idempotency key under one id for every run of the key.
"""

from __future__ import annotations

import asyncio
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from actors.engine import Engine
from actors.names import ORPHAN_GRACE_MS
from actors.orders import LIMIT, MARKET, OrderSpec, PairRef
from actors.pair import events
from actors.pair.matching import public_order
from actors.pair.state import BUY, SELL, PairConfig
from serve.api.pairs import PairCatalog
from serve.error_table import CODE_ERROR, CODE_OK, ERRORS
from serve.errors import validation_message
from serve.i18n import N_, translate
from store import spot
from store.errors import DomainError, ErrorCode
from store.idempotency import Attempt
from store.models import INT_MAX, Order
from store.money import money
from store.spot import OPEN_STATUSES
from store.times import now_ms

MAX_DIGITS = 64  # characters of an amount, and digits before its point: far above any pair's bound
ORDER = "order"  # the id a keyed order is placed under (store.idempotency.Attempt.remember)
PLACED = N_("Order placed")
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


class SidedOrderIn(OrderIn):
    """One order of a batch: the fields of tx_in/add (or tx_out/add) and its side."""

    side: Literal["buy", "sell"]

    @property
    def way(self) -> int:
        return BUY if self.side == "buy" else SELL


def amount(text: str, missing: ErrorCode, places: int, too_precise: ErrorCode) -> Decimal:
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
        return value  # far above every bound: check_bounds refuses it with the pair's maximum
    value = value.normalize()
    if -value.as_tuple().exponent > places:  # type: ignore[operator]
        raise DomainError(too_precise, places=places)
    return value


def check_bounds(pair: PairConfig, kind: int, way: int, price: Decimal, number: Decimal, budget: Decimal) -> None:
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


async def order_spec(pairs: PairCatalog, way: int, body: OrderIn) -> OrderSpec:
    """The order ``body`` asks for on side ``way``, checked against its pair. Raises DomainError:
    PAIR_NOT_FOUND, PAIR_CLOSED, SELL_DISABLED, the amount and precision errors, the bounds."""
    pair = await pairs.get(body.currency_match_id)
    if not pair.open_change:
        raise DomainError(ErrorCode.PAIR_CLOSED)
    if way == SELL and pair.sell_disabled:
        raise DomainError(ErrorCode.SELL_DISABLED)
    kind = MARKET if body.kind == "market" else LIMIT
    number = price = budget = Decimal(0)
    if kind == MARKET and way == BUY:
        budget = amount(body.total, ErrorCode.QUANTITY_REQUIRED, 18, ErrorCode.QUANTITY_PRECISION)
    else:
        number = amount(body.number, ErrorCode.QUANTITY_REQUIRED, pair.qty_decimals, ErrorCode.QUANTITY_PRECISION)
        if kind == LIMIT:
            price = amount(body.price, ErrorCode.PRICE_REQUIRED, pair.price_decimals, ErrorCode.PRICE_PRECISION)
    check_bounds(pair, kind, way, price, number, budget)
    ref = PairRef(pair.id, pair.symbol, pair.base_currency_id, pair.quote_currency_id)
    return OrderSpec(pair=ref, way=way, kind=kind, price=price, number=number, budget=budget)


async def keyed_order(attempt: Attempt, engine: Engine, pairs: PairCatalog) -> dict[str, Any] | None:
    """The order an earlier run of this key placed, as ``submit`` answers it, when that run's answer was
    lost (None if it was not placed). Raises IDEMPOTENCY_IN_PROGRESS while it may still be: a pair takes
    an order up to ``ORPHAN_GRACE_MS`` after it was sent (the wallets' reconciler counts on no later)."""
    if not attempt.retry or ORDER not in attempt.refs:
        return None
    row = await spot.order(attempt.refs[ORDER])
    if row is not None:
        return public_order(events.state_of(row), await pairs.get(row.currency_match_id))
    if now_ms() - attempt.made_ms(ORDER) < ORPHAN_GRACE_MS:
        raise DomainError(ErrorCode.IDEMPOTENCY_IN_PROGRESS)
    await attempt.renew(ORDER, engine.ids.next)  # the old id never landed, and its freeze may be journaled
    return None


async def keyed_order_id(attempt: Attempt, engine: Engine) -> int:
    """The id this key's order is placed under: the same on every run until it is known not to have landed."""
    return await attempt.remember(ORDER, engine.ids.next)


def order_result(answer: dict[str, Any] | DomainError, done: str, lang: str) -> dict[str, Any]:
    """One order's answer, shaped as its own call's envelope would be (``done`` is the success text)."""
    if isinstance(answer, DomainError):
        return {"code": CODE_ERROR, "msg": translate(ERRORS[answer.code].message, lang, **answer.params), "data": None}
    return {"code": CODE_OK, "msg": translate(done, lang), "data": answer}


async def checked_order(pairs: PairCatalog, raw: Any, lang: str) -> OrderSpec | dict[str, Any]:
    """The order ``raw`` (the fields of tx_in/add plus ``side``) asks for, or its failed result:
    the message its single call would give."""
    try:
        body = SidedOrderIn.model_validate(raw)
    except ValidationError as exc:
        return {"code": CODE_ERROR, "msg": validation_message(exc.errors()[0], lang), "data": None}
    try:
        return await order_spec(pairs, body.way, body)
    except DomainError as exc:
        return order_result(exc, PLACED, lang)


async def cancel_orders(engine: Engine, uid: int, ids: list[int]) -> list[dict[str, Any] | DomainError]:
    """Cancel the user's orders ``ids`` (either side), one call per pair, the pairs concurrently.
    Answers, in order, the pair's answer or the DomainError: ORDER_NOT_FOUND (not the user's),
    ORDER_NOT_OPEN (filled or cancelled, also a moment ago), PAIR_UNAVAILABLE."""
    rows = await Order.filter(id__in=set(ids), user_id=uid).prefetch_related(
        "currency_match__base_currency", "currency_match__quote_currency"
    )
    orders = {o.id: o for o in rows}
    answers: list[dict[str, Any] | DomainError] = [DomainError(ErrorCode.ORDER_NOT_FOUND)] * len(ids)
    by_pair: dict[str, list[int]] = {}
    for i, order_id in enumerate(ids):
        order = orders.get(order_id)
        if order is not None and order.status not in OPEN_STATUSES:
            answers[i] = DomainError(ErrorCode.ORDER_NOT_OPEN)
        elif order is not None:
            pair = order.currency_match
            by_pair.setdefault(f"{pair.base_currency.code}/{pair.quote_currency.code}", []).append(i)

    async def cancel(symbol: str, indexes: list[int]) -> None:
        try:
            done = await engine.ask_many(symbol, "cancel_many", [ids[i] for i in indexes], uid)
        except DomainError as exc:
            done = [exc] * len(indexes)
        for i, answer in zip(indexes, done, strict=True):
            # The order is the caller's and was open a moment ago: the pair has since filled it.
            gone = isinstance(answer, DomainError) and answer.code == ErrorCode.ORDER_NOT_FOUND
            answers[i] = DomainError(ErrorCode.ORDER_NOT_OPEN) if gone else answer

    await asyncio.gather(*(cancel(symbol, indexes) for symbol, indexes in by_pair.items()))
    return answers
