"""Amounts typed by users: a positive decimal string with no more places than the currency keeps."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated

from pydantic import BeforeValidator

from actors.errors import DomainError, ErrorCode


def _not_bool(value: object) -> object:
    """``true`` is not an amount (pydantic would read it as 1)."""
    return "" if isinstance(value, bool) else value


# An amount field of a request: a string, or a JSON number read by its digits (see parse_amount).
AmountText = Annotated[str | int | float | None, BeforeValidator(_not_bool)]


def parse_amount(text: object, *, missing: ErrorCode, places: int) -> Decimal:
    """``text`` as a positive Decimal. Raises ``missing`` when empty, not a number or not positive, and
    AMOUNT_PRECISION (with ``places``) when it has more decimal places than allowed. Never rounds.

    A JSON number arrives as a float; its shortest representation (``repr``) is the digits the client
    sent, so ``1.1`` becomes ``Decimal("1.1")``, not the binary value's 52 digits."""
    if isinstance(text, float):
        text = repr(text)
    raw = str(text).strip() if isinstance(text, str | int | Decimal) and not isinstance(text, bool) else ""
    try:
        value = Decimal(raw) if raw and len(raw) <= 64 else None
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value <= 0:
        raise DomainError(missing)
    value = value.normalize()
    if -value.as_tuple().exponent > places:  # type: ignore[operator]
        raise DomainError(ErrorCode.AMOUNT_PRECISION, places=places)
    if value.adjusted() >= 17:  # NUMERIC(36, 18) keeps 18 integer digits
        raise DomainError(missing)
    return value
