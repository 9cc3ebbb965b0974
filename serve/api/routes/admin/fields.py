"""What an operator types into the console's settings, checked: decimal strings within a range (never a
float), comma lists of whole numbers, second-contract durations (``seconds:percent``) and preset
stakes. Each refusal is a DomainError naming the field and the rule, so the console shows what to fix;
each accepted value comes back normalised (``" 5, 10 "`` -> ``"5,10"``, ``"0.0010"`` -> ``"0.001"``).

Cross-field rules (a minimum not above its maximum, presets within the stake bounds) are checked by
``ordered`` and ``presets`` against the row as it will be after the change."""

from __future__ import annotations

import re
from decimal import Decimal

from store.errors import DomainError, ErrorCode
from store.money import PLAIN_NUMBER as NUMBER_RE
from store.money import money, places_of

ZERO = Decimal(0)
WHOLE_RE = re.compile(r"\d{1,9}", re.ASCII)
MOST_AMOUNT = Decimal(10) ** 15  # above any sane cap, far below what a NUMERIC(36, 18) column holds
MOST_ITEMS = 12  # choices a screen offers (multiples, hands, durations, stakes)
MOST_SECONDS = 86_400  # a second contract lasts at most a day
MOST_RATIO = Decimal(100)  # a win pays at most the stake again


def number(field: str, text: str, *, high: Decimal, low: Decimal = ZERO, above: bool = False,
           places: int = 18) -> Decimal:  # fmt: skip
    """``text`` as a Decimal from ``low`` (or, with ``above``, strictly above it) to ``high``, with at most
    ``places`` decimal places."""
    raw = text.strip()
    value = Decimal(raw) if NUMBER_RE.fullmatch(raw) else None
    if value is None or value > high or value < low or (above and value == low):
        if above and low == ZERO:
            raise DomainError(ErrorCode.ADMIN_NUMBER_POSITIVE, field=field, max=money(high))
        raise DomainError(ErrorCode.ADMIN_NUMBER_RANGE, field=field, min=money(low), max=money(high))
    if places_of(value) > places:  # more places than allowed get their own message
        raise DomainError(ErrorCode.ADMIN_NUMBER_PLACES, field=field, places=places)
    return value


def whole_list(field: str, text: str, *, low: int, high: int) -> str:
    """A comma list of up to MOST_ITEMS different whole numbers from ``low`` to ``high``: ``"5,10,20"``."""
    refusal = DomainError(ErrorCode.ADMIN_WHOLE_LIST, field=field, count=MOST_ITEMS, min=low, max=high)
    parts = [part.strip() for part in text.split(",")]
    if not 1 <= len(parts) <= MOST_ITEMS or not all(WHOLE_RE.fullmatch(p) for p in parts):
        raise refusal
    values = [int(p) for p in parts]
    if len(set(values)) != len(values) or not all(low <= v <= high for v in values):
        raise refusal
    return ",".join(map(str, values))


def durations(field: str, text: str) -> str:
    """Second-contract durations with the profit ratio of a win: ``"30:80,60:85.5"`` (seconds, each
    once, 1 to MOST_SECONDS; percent above 0, at most MOST_RATIO, two decimal places)."""
    refusal = DomainError(ErrorCode.ADMIN_DURATIONS, field=field, count=MOST_ITEMS, seconds=MOST_SECONDS,
                          max=money(MOST_RATIO))  # fmt: skip
    found: dict[int, Decimal] = {}
    parts = text.split(",")
    if not 1 <= len(parts) <= MOST_ITEMS:
        raise refusal
    for part in parts:
        seconds, _, ratio = part.partition(":")
        seconds, ratio = seconds.strip(), ratio.strip()
        if not WHOLE_RE.fullmatch(seconds) or not NUMBER_RE.fullmatch(ratio):
            raise refusal
        value = Decimal(ratio)
        if int(seconds) in found or not 1 <= int(seconds) <= MOST_SECONDS or not ZERO < value <= MOST_RATIO:
            raise refusal
        if -value.normalize().as_tuple().exponent > 2:  # type: ignore[operator]
            raise refusal
        found[int(seconds)] = value
    return ",".join(f"{s}:{money(r)}" for s, r in found.items())


def presets(field: str, text: str, *, low: Decimal, high: Decimal, places: int) -> str:
    """Preset stakes: empty (the currency is no stake currency) or a comma list of up to MOST_ITEMS
    different amounts from ``low`` to ``high`` with at most ``places`` decimal places."""
    if not text.strip():
        return ""
    refusal = DomainError(ErrorCode.ADMIN_PRESETS, field=field, count=MOST_ITEMS, min=money(low), max=money(high),
                          places=places)  # fmt: skip
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > MOST_ITEMS or not all(NUMBER_RE.fullmatch(p) for p in parts):
        raise refusal
    values = [Decimal(p) for p in parts]
    if len(set(values)) != len(values) or not all(low <= v <= high for v in values):
        raise refusal
    if any(-v.normalize().as_tuple().exponent > places for v in values):  # type: ignore[operator]
        raise refusal
    return ",".join(money(v) for v in values)


def ordered(low_field: str, low: Decimal, high_field: str, high: Decimal) -> None:
    """``low`` may not be above ``high``."""
    if low > high:
        raise DomainError(ErrorCode.ADMIN_BOUNDS_ORDER, low=low_field, high=high_field)
