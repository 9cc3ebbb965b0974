"""The pair's configuration and its open orders' bookkeeping (pure: no I/O, no Ray)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from store.models import OrderStatus

BUY, SELL = 1, 2


@dataclass(frozen=True)
class PairConfig:
    id: int
    base_code: str
    quote_code: str
    base_currency_id: int
    quote_currency_id: int
    price_decimals: int
    qty_decimals: int
    maker_fee: Decimal
    taker_fee: Decimal
    sell_disabled: bool
    open_change: bool
    # Bounds (docs/decisions.md "Bounds"), checked again here: the edge checks them with a copy of the
    # pair table that may be a few seconds old, and the band needs the mark only this actor knows.
    max_price: Decimal = Decimal(10_000_000)
    max_quantity: Decimal = Decimal(1_000_000_000)
    min_notional: Decimal = Decimal(0)
    price_band: Decimal = Decimal(5)
    max_open_orders: int = 200
    # The mark's impact notional (quote currency; actors.pair.mark_rule).
    impact_notional: Decimal = Decimal(1000)

    @property
    def symbol(self) -> str:
        return f"{self.base_code}/{self.quote_code}"


@dataclass
class OrderState:
    """What the pair keeps of an order besides its place in the book (persisted as ``orders`` rows)."""

    id: int
    uid: int
    way: int
    kind: int
    price: Decimal
    number: Decimal
    frozen: Decimal
    budget: Decimal = Decimal(0)
    transacted_amount: Decimal = Decimal(0)
    transacted_volume: Decimal = Decimal(0)
    status: OrderStatus = OrderStatus.OPEN
    seq: int = 0

    @property
    def final(self) -> bool:
        return self.status in (OrderStatus.FILLED, OrderStatus.CANCELLED)

    @property
    def held(self) -> Decimal:
        """What this order still holds frozen: quote for a buy, base for a sell."""
        consumed = self.transacted_volume if self.way == BUY else self.transacted_amount
        return self.frozen - consumed

    def fill(self, qty: Decimal, volume: Decimal) -> None:
        self.transacted_amount += qty
        self.transacted_volume += volume
        self.status = OrderStatus.FILLED if self.transacted_amount >= self.number else OrderStatus.PARTIAL

    def cancel(self) -> None:
        self.status = OrderStatus.CANCELLED
