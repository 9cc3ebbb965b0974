"""Trading fees. Not applied by the matching core: settlement charges them per fill.

A fee is ``quote_amount * rate`` rounded *up* (toward +infinity) to 8 decimal places, so the house
never collects less than the rate says; the product is computed exactly first, so the only rounding
is that one step.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal, localcontext

FEE_DECIMALS = 8
_FEE_QUANTUM = Decimal(1).scaleb(-FEE_DECIMALS)


def fee(quote_amount: Decimal, rate: Decimal) -> Decimal:
    """``quote_amount * rate`` rounded up to 8 decimals. Raises ``ValueError`` for a negative or
    non-finite input (a fee is a charge; rebates are not modelled here)."""
    for name, value in (("quote_amount", quote_amount), ("rate", rate)):
        if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
            raise ValueError(f"{name} must be a finite, non-negative Decimal, got {value!r}")
    with localcontext() as ctx:
        # Enough digits for the exact product and the quantized result: nothing rounds but quantize.
        ctx.prec = len(quote_amount.as_tuple().digits) + len(rate.as_tuple().digits) + FEE_DECIMALS + 30
        product = quote_amount * rate
        return product.quantize(_FEE_QUANTUM, rounding=ROUND_CEILING)
