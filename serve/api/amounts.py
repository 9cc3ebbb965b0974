"""Amounts typed by users: a positive decimal string with no more places than the currency keeps,
and no more than it allows."""

from __future__ import annotations

import re
from decimal import Context, Decimal
from typing import Annotated

from pydantic import BeforeValidator

from store.errors import DomainError, ErrorCode
from store.money import money

# Plain ASCII decimal notation, optionally with an exponent: no NaN, Infinity, underscores, spaces
# inside, or other scripts' digits (``Decimal`` itself accepts all of those).
AMOUNT_RE = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
MAX_LENGTH = 64  # characters: far more than any column holds, and cheap to parse
INTEGER_DIGITS = 17  # NUMERIC(36, 18) keeps 18 integer digits; below 10**17 every value fits
# Wide enough to normalize any accepted amount exactly, whatever the caller's context.
EXACT = Context(prec=2 * MAX_LENGTH)


def _not_bool(value: object) -> object:
    """``true`` is not an amount (pydantic would read it as 1)."""
    return "" if isinstance(value, bool) else value


# An amount field of a request: a string, or a JSON number read by its digits (see parse_amount).
AmountText = Annotated[str | int | float | None, BeforeValidator(_not_bool)]


def parse_amount(text: object, *, missing: ErrorCode, places: int, maximum: Decimal | None = None) -> Decimal:
    """``text`` as a positive Decimal. Never rounds, never raises anything but DomainError, and takes
    time bounded by ``MAX_LENGTH`` whatever it is given.

    Raises ``missing`` when empty, not a plain decimal number or not positive; AMOUNT_ABOVE_MAX (with
    ``maximum``) when larger than ``maximum`` (or than any column holds, with ``missing`` when no
    maximum is given); AMOUNT_PRECISION (with ``places``) when it has more decimal places than allowed.

    A JSON number arrives as a float; its shortest representation (``repr``) is the digits the client
    sent, so ``1.1`` becomes ``Decimal("1.1")``, not the binary value's 52 digits."""
    too_large = DomainError(missing) if maximum is None else DomainError(ErrorCode.AMOUNT_ABOVE_MAX, max=money(maximum))
    if isinstance(text, bool) or not isinstance(text, str | int | float | Decimal):
        raise DomainError(missing)
    if isinstance(text, int) and text.bit_length() > 4 * MAX_LENGTH:  # str() of a huge int is slow, or refused
        raise too_large if text > 0 else DomainError(missing)
    raw = (repr(text) if isinstance(text, float) else str(text)).strip()
    if len(raw) > MAX_LENGTH or not AMOUNT_RE.fullmatch(raw):
        raise DomainError(missing)
    value = Decimal(raw)  # exact: no context involved
    if value <= 0:
        raise DomainError(missing)
    if value.adjusted() >= INTEGER_DIGITS:
        raise too_large
    if value.adjusted() < -places:  # below the smallest unit: certainly too many places
        raise DomainError(ErrorCode.AMOUNT_PRECISION, places=places)
    value = value.normalize(EXACT)
    if -value.as_tuple().exponent > places:  # type: ignore[operator]
        raise DomainError(ErrorCode.AMOUNT_PRECISION, places=places)
    if maximum is not None and value > maximum:
        raise too_large
    return value
