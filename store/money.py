"""How money leaves the system: a Decimal as a plain string (no exponent, no trailing zeros)."""

from __future__ import annotations

import re
from decimal import Decimal


def money(value: Decimal | int) -> str:
    """``Decimal("1.500")`` -> ``"1.5"``; ``Decimal("-0")`` -> ``"0"``; an int as its digits (a model's
    default before it is saved). JSON never carries a float."""
    text = format(Decimal(value).normalize(), "f")
    return "0" if text in ("-0", "") else text


# A decimal as an operator types one: plain digits and a point. No sign, exponent, NaN or spaces inside
# (``Decimal`` itself accepts all of those, and ``1e999999``, which no price survives being multiplied by).
PLAIN_NUMBER = re.compile(r"\d{1,18}(?:\.\d{1,32})?", re.ASCII)


def places_of(value: Decimal) -> int:
    """How many decimal places ``value`` needs (``1.50`` -> 1)."""
    return max(0, -int(value.normalize().as_tuple().exponent))


def plain(text: str, *, low: Decimal, high: Decimal, places: int) -> Decimal | None:
    """``text`` (surrounding spaces aside) as a plain decimal from ``low`` to ``high`` with at most
    ``places`` decimal places; None when it is anything else."""
    raw = text.strip()
    if not PLAIN_NUMBER.fullmatch(raw):
        return None
    value = Decimal(raw)
    return value if low <= value <= high and places_of(value) <= places else None
