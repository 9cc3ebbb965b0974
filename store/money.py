"""How money leaves the system: a Decimal as a plain string (no exponent, no trailing zeros)."""

from __future__ import annotations

from decimal import Decimal


def money(value: Decimal | int) -> str:
    """``Decimal("1.500")`` -> ``"1.5"``; ``Decimal("-0")`` -> ``"0"``; an int as its digits (a model's
    default before it is saved). JSON never carries a float."""
    text = format(Decimal(value).normalize(), "f")
    return "0" if text in ("-0", "") else text
