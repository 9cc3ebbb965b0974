"""The spec's rounding rules for spot orders, in one place (trading-assets-personal.md §5).

- Price inputs are trimmed to at most 4 decimals (truncated, never rounded up).
- A slider's buy quantity is ``balance * percent / price``, floored to 6 decimals.
- Totals (price * quantity) are rounded up to 6 decimals.

Apply these to user input, then convert with ``Precision.to_ticks``/``to_lots``, which refuse
anything still too precise. Every function computes with enough digits that the named rounding is
the only one that happens.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_DOWN, ROUND_FLOOR, Decimal, localcontext

PRICE_DECIMALS = 4
QTY_DECIMALS = 6
TOTAL_DECIMALS = 6


def _check(value: Decimal, name: str) -> None:
    if not isinstance(value, Decimal) or not value.is_finite():
        raise ValueError(f"{name} must be a finite Decimal, got {value!r}")


def _quantize(value: Decimal, decimals: int, rounding: str) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = max(28, value.adjusted() + decimals + 3)  # room for every digit of the result
        return value.quantize(Decimal(1).scaleb(-decimals), rounding=rounding)


def trim_price(price: Decimal, decimals: int = PRICE_DECIMALS) -> Decimal:
    """Truncate a price to ``decimals`` places: 60000.12349 -> 60000.1234."""
    _check(price, "price")
    return _quantize(price, decimals, ROUND_DOWN)


def floor_qty(qty: Decimal, decimals: int = QTY_DECIMALS) -> Decimal:
    """Floor a quantity to ``decimals`` places: 0.0000019 -> 0.000001."""
    _check(qty, "quantity")
    return _quantize(qty, decimals, ROUND_FLOOR)


def ceil_total(total: Decimal, decimals: int = TOTAL_DECIMALS) -> Decimal:
    """Round a total up to ``decimals`` places: 1.0000001 -> 1.000001."""
    _check(total, "total")
    return _quantize(total, decimals, ROUND_CEILING)


def buy_qty(balance: Decimal, fraction: Decimal, price: Decimal, decimals: int = QTY_DECIMALS) -> Decimal:
    """The slider rule: ``balance * fraction / price`` floored to ``decimals`` (25 % is ``Decimal("0.25")``).

    The division is carried out rounding toward -infinity at ample precision, so the result is the
    true floor even when the quotient does not terminate (a round-half-even quotient could round
    0.9999999... up to 1 and overstate what the balance buys).
    """
    for name, value in (("balance", balance), ("fraction", fraction), ("price", price)):
        _check(value, name)
    if price <= 0:
        raise ValueError(f"price must be positive, got {price}")
    with localcontext() as ctx:
        # Exact product; a quotient floored at a digit finer than 10**-decimals floors right after.
        exact_product = len(balance.as_tuple().digits) + len(fraction.as_tuple().digits)
        quotient_digits = balance.adjusted() + fraction.adjusted() - price.adjusted() + 2 + decimals
        ctx.prec = max(exact_product, quotient_digits) + 2
        ctx.rounding = ROUND_FLOOR
        quotient = balance * fraction / price
    return _quantize(quotient, decimals, ROUND_FLOOR)
