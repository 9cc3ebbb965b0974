"""Value types of the matching core: sides, order kinds, fixed-point precision, orders, fills.

Inside the core every price is an ``int`` of *ticks* and every quantity an ``int`` of *lots*;
:class:`Precision` is the only bridge to ``Decimal`` and is used at the edges, never per match.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import IntEnum
from typing import NamedTuple


class Side(IntEnum):
    """The spec's ``way``: 1 buy, 2 sell."""

    BUY = 1
    SELL = 2


class Kind(IntEnum):
    """How a taker treats the part it cannot fill at once."""

    LIMIT = 1  # rest the remainder at its price
    MARKET = 2  # no price; the remainder is cancelled
    IOC = 3  # limit price, but the remainder is cancelled instead of resting


def _scale_exact(value: Decimal, decimals: int, what: str) -> int:
    """``value * 10**decimals`` as an int, refusing anything that is not exact, finite and positive.

    Integer arithmetic on the decimal digits, so no ``Decimal`` context (precision, rounding) can
    change the answer.
    """
    if not isinstance(value, Decimal):
        raise ValueError(f"{what} must be a Decimal, got {type(value).__name__}")
    if not value.is_finite() or value <= 0:
        raise ValueError(f"{what} must be finite and positive, got {value}")
    _, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)  # finite, checked above
    mantissa = int("".join(map(str, digits)))
    shift = exponent + decimals
    scale: int = 10 ** abs(shift)
    if shift >= 0:
        return mantissa * scale
    units, rest = divmod(mantissa, scale)
    if rest:
        raise ValueError(f"{what} {value} has more than {decimals} decimals; round it first")
    return units


@dataclass(frozen=True, slots=True)
class Precision:
    """A pair's fixed point: a price tick is ``10**-price_decimals``, a lot ``10**-qty_decimals``.

    ``to_ticks``/``to_lots`` are exact or raise ``ValueError``: callers apply the spec's rounding
    (``actors.book.rounding``) first, so a value never changes silently on its way in.
    """

    price_decimals: int = 4
    qty_decimals: int = 6

    def __post_init__(self) -> None:
        if self.price_decimals < 0 or self.qty_decimals < 0:
            raise ValueError("decimals must not be negative")

    def to_ticks(self, price: Decimal) -> int:
        return _scale_exact(price, self.price_decimals, "price")

    def to_lots(self, qty: Decimal) -> int:
        return _scale_exact(qty, self.qty_decimals, "quantity")

    def price(self, ticks: int) -> Decimal:
        return Decimal(f"{ticks}E-{self.price_decimals}")

    def qty(self, lots: int) -> Decimal:
        return Decimal(f"{lots}E-{self.qty_decimals}")

    def quote(self, ticks: int, lots: int) -> Decimal:
        """Exact ``price * qty`` (also turns a market buy's ``budget`` back into a quote amount)."""
        return Decimal(f"{ticks * lots}E-{self.price_decimals + self.qty_decimals}")

    def to_budget(self, quote_amount: Decimal) -> int:
        """A quote amount as a market-buy budget in ticks*lots units, truncated (never overspends)."""
        if not isinstance(quote_amount, Decimal) or not quote_amount.is_finite() or quote_amount < 0:
            raise ValueError(f"budget must be a finite, non-negative Decimal, got {quote_amount!r}")
        _, digits, exponent = quote_amount.as_tuple()
        assert isinstance(exponent, int)
        mantissa = int("".join(map(str, digits)))
        shift = exponent + self.price_decimals + self.qty_decimals
        scale: int = 10 ** abs(shift)
        return mantissa * scale if shift >= 0 else mantissa // scale


class Order:
    """An order as the book sees it; the book mutates ``remaining``, ``cancelled`` and ``seq``.

    At every moment ``qty == filled + remaining + cancelled``: ``remaining`` is what is still open
    on the book (0 once the order is off it), ``cancelled`` what was dropped (market/IOC rest,
    self-trade prevention, ``OrderBook.cancel``). ``budget`` (market buys only) caps the quote to
    spend, in ticks*lots units (``Precision.to_budget``); such an order stops at whichever of
    ``qty`` and ``budget`` runs out first, so a buy "for 100 USDT" passes a generous ``qty`` and
    reads what it bought from its fills (the unused ``qty`` is reported as cancelled).
    """

    __slots__ = ("order_id", "uid", "side", "price", "qty", "remaining", "cancelled", "seq", "budget")

    def __init__(
        self,
        order_id: int,
        uid: int,
        side: int,
        price: int,
        qty: int,
        *,
        remaining: int | None = None,
        cancelled: int = 0,
        seq: int = 0,
        budget: int | None = None,
    ) -> None:
        self.order_id = order_id
        self.uid = uid
        self.side = side
        self.price = price
        self.qty = qty
        self.remaining = qty if remaining is None else remaining
        self.cancelled = cancelled
        self.seq = seq
        self.budget = budget

    @property
    def filled(self) -> int:
        return self.qty - self.remaining - self.cancelled

    def copy(self) -> Order:
        return Order(
            self.order_id,
            self.uid,
            self.side,
            self.price,
            self.qty,
            remaining=self.remaining,
            cancelled=self.cancelled,
            seq=self.seq,
            budget=self.budget,
        )

    def __repr__(self) -> str:
        side = "BUY" if self.side == Side.BUY else "SELL"
        budget = "" if self.budget is None else f", budget={self.budget}"
        return (
            f"Order(id={self.order_id}, uid={self.uid}, side={side}, price={self.price}, qty={self.qty}, "
            f"remaining={self.remaining}, cancelled={self.cancelled}, seq={self.seq}{budget})"
        )


class Fill(NamedTuple):
    """One trade: ``qty`` lots at the maker's ``price`` ticks. Immutable (a tuple, no per-instance dict)."""

    maker_order_id: int
    taker_order_id: int
    maker_uid: int
    taker_uid: int
    price: int
    qty: int
    taker_side: int


class SubmitResult(NamedTuple):
    """What one ``OrderBook.submit`` did.

    ``fills`` in execution order; ``resting`` is the taker itself if a remainder now rests (limit
    only); ``cancelled`` lots of the taker neither filled nor rested; ``expired_makers`` were removed
    by self-trade prevention (their ``cancelled`` holds the lots to release). A tuple, as ``Fill``:
    the book makes one per order and builds it without a Python-level call.
    """

    fills: list[Fill]
    resting: Order | None
    cancelled: int
    expired_makers: list[Order]
