"""What every model module shares: the id bound clients are checked against and the money column."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tortoise import fields

# The largest value an IntField (a 32-bit INTEGER column) holds: ids from clients are checked against it
# before a lookup, since PostgreSQL refuses a bigger parameter (and SQLite one beyond 64 bits).
INT_MAX = 2**31 - 1


def MoneyField(**kwargs: Any) -> fields.DecimalField[Decimal]:  # noqa: N802 - reads like a field class
    """NUMERIC(36, 18): wide enough for any supply, exact to 18 places (the ERC-20 maximum)."""
    return fields.DecimalField(max_digits=36, decimal_places=18, **kwargs)
