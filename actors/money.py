"""How money leaves the system: a Decimal as a plain string (no exponent, no trailing zeros)."""

from __future__ import annotations

from decimal import Decimal


def money(value: Decimal) -> str:
    """``Decimal("1.500")`` -> ``"1.5"``; ``Decimal("-0")`` -> ``"0"``. JSON never carries a float."""
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text
