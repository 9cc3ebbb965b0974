"""The prices a trader sets on a leveraged position, checked against the pair's mark (pure: no I/O).

An entrustment's target and an open position's take-profit and stop-loss must not be reached already
(each would fire on the next tick, whatever the trader meant) and must fit the pair's price places; a
target must also lie in the pair's band around the mark. The LeverShard (``actors.lever.actor``) runs
these before it takes an order or a stop; they raise the DomainError the caller sees.
"""

from __future__ import annotations

from decimal import Decimal
from typing import cast

from actors.lever import terms
from actors.lever.state import PairTerms
from actors.lever.terms import LONG
from store.errors import DomainError, ErrorCode
from store.money import money


def check_target(pair: PairTerms, mark: Decimal, side: int, target: Decimal) -> None:
    """An entrustment's target must not be reached yet (long: below the mark; short: above) and must
    lie in the pair's band around the mark."""
    if target <= 0:
        raise DomainError(ErrorCode.LEVER_PRICE_REQUIRED)
    reached = target >= mark if side == LONG else target <= mark
    if reached:
        raise DomainError(ErrorCode.LEVER_TARGET_REACHED, price=money(target))
    step = terms.step(pair.places)
    low, high = (mark / pair.band).quantize(step), (mark * pair.band).quantize(step)
    if not low <= target <= high or target > pair.max_price:
        raise DomainError(ErrorCode.PRICE_OUT_OF_BAND, low=money(low), high=money(high))
    if _too_fine(target, pair.places):
        raise DomainError(ErrorCode.PRICE_PRECISION, places=pair.places)


def check_stops(pair: PairTerms, mark: Decimal, side: int, take_profit: Decimal, stop_loss: Decimal) -> None:
    """The take-profit and stop-loss (0: none) of a position on ``side``: a take-profit not reached yet
    (long: above the mark; short: below), a stop-loss not hit yet (long: below the mark; short: above)."""
    for value in (take_profit, stop_loss):
        if value and _too_fine(value, pair.places):
            raise DomainError(ErrorCode.PRICE_PRECISION, places=pair.places)
    long = side == LONG
    if take_profit and (take_profit <= mark if long else take_profit >= mark):
        code = ErrorCode.LEVER_TAKE_PROFIT_ABOVE if long else ErrorCode.LEVER_TAKE_PROFIT_BELOW
        raise DomainError(code, price=money(mark))
    if stop_loss and (stop_loss >= mark if long else stop_loss <= mark):
        code = ErrorCode.LEVER_STOP_LOSS_BELOW if long else ErrorCode.LEVER_STOP_LOSS_ABOVE
        raise DomainError(code, price=money(mark))


def _too_fine(price: Decimal, places: int) -> bool:
    """More decimal places than ``places`` (a finite price's exponent is an int)."""
    return -cast(int, price.as_tuple().exponent) > places
