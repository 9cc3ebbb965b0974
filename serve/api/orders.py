"""The rules a spot order meets before anything is held: one implementation for every entry path
(tx_in/add, tx_out/add and each order of tx/batch_add), so they answer the same codes and messages.

``order_spec`` turns the form into an ``OrderSpec`` for ``actors.engine`` or raises the DomainError
that refuses it; the pair checks its flags and bounds again (with the band) when it matches.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from actors.engine import LIMIT, MARKET, OrderSpec, PairRef
from actors.pair.state import BUY, SELL, PairConfig
from serve.api.pairs import PairCatalog
from store.errors import DomainError, ErrorCode
from store.models import INT_MAX
from store.money import money

MAX_DIGITS = 64  # characters of an amount, and digits before its point: far above any pair's bound


class OrderIn(BaseModel):
    """``kind`` market: a buy spends ``total`` (quote), a sell sells ``number`` at the best bids."""

    model_config = ConfigDict(extra="ignore")
    currency_match_id: int = Field(ge=1, le=INT_MAX)
    number: str = Field(default="", max_length=MAX_DIGITS, description="base quantity, at most the pair's max_quantity")
    price: str = Field(default="", max_length=MAX_DIGITS, description="limit price: at most the pair's max_price, "
                       "within price_band times the mark price either way")  # fmt: skip
    total: str = Field(default="", max_length=MAX_DIGITS, description="quote to spend (market buy)")
    kind: Literal["limit", "market"] = "limit"


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
