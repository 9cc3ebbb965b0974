"""The money rules of a leveraged position (pure: no I/O, no Ray), in ``Decimal``.

A position of ``hands`` hands of ``share_num`` base units each, at ``multiple`` x leverage:

- it opens at the mark moved by the spread (``point_rate`` percent) against the trader, rounded
  against the trader to the pair's price places; an entrustment never worse than its target;
- margin = price x hands x share_num / multiple and fee = price x hands x share_num x fee_rate, each
  rounded up to the quote currency's places (USDT: 6);
- it closes at the mark moved by the spread against the trader (a manual close, a take-profit or a
  stop-loss) or at the mark itself (a liquidation); profit = (close - open) x hands x share_num,
  negated for a short, rounded down (towards minus infinity) to the quote's places;
- overnight fees may take its margin down to its floor: the share of its opening margin that the
  liquidation level keeps (``floor``), never below.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

LONG, SHORT = 1, 2
HUNDRED = Decimal(100)
QUOTE_PLACES = 6  # USDT, the only quote currency of leveraged pairs


def step(places: int) -> Decimal:
    return Decimal(1).scaleb(-places)


def sign(side: int) -> int:
    if side not in (LONG, SHORT):
        raise ValueError(f"side must be {LONG} or {SHORT}, got {side!r}")
    return 1 if side == LONG else -1


def open_price(mark: Decimal, point_rate: Decimal, side: int, places: int) -> Decimal:
    """Where a market open fills: above the mark for a long, below for a short."""
    moved = mark * (1 + sign(side) * point_rate / HUNDRED)
    return moved.quantize(step(places), rounding=ROUND_CEILING if side == LONG else ROUND_FLOOR)


def entrusted_price(mark: Decimal, target: Decimal, point_rate: Decimal, side: int, places: int) -> Decimal:
    """Where a triggered entrustment fills: the spread price, never worse than the target."""
    price = open_price(mark, point_rate, side, places)
    return min(price, target) if side == LONG else max(price, target)


def close_price(mark: Decimal, point_rate: Decimal, side: int, places: int) -> Decimal:
    """Where a manual close fills: below the mark for a long, above for a short."""
    moved = mark * (1 - sign(side) * point_rate / HUNDRED)
    return moved.quantize(step(places), rounding=ROUND_FLOOR if side == LONG else ROUND_CEILING)


def quantity(hands: int, share_num: Decimal) -> Decimal:
    return hands * share_num


def margin(price: Decimal, hands: int, share_num: Decimal, multiple: int) -> Decimal:
    return (price * quantity(hands, share_num) / multiple).quantize(step(QUOTE_PLACES), rounding=ROUND_CEILING)


def fee(price: Decimal, hands: int, share_num: Decimal, fee_rate: Decimal) -> Decimal:
    return (price * quantity(hands, share_num) * fee_rate).quantize(step(QUOTE_PLACES), rounding=ROUND_CEILING)


def profit(side: int, opened: Decimal, closed: Decimal, hands: int, share_num: Decimal) -> Decimal:
    """Realised at a close: rounded down, so the house never pays a fraction it did not owe."""
    exact = sign(side) * (closed - opened) * quantity(hands, share_num)
    return exact.quantize(step(QUOTE_PLACES), rounding=ROUND_FLOOR)


def unrealised(side: int, opened: Decimal, mark: Decimal, hands: int, share_num: Decimal) -> Decimal:
    """At the mark, exact (for the risk rate and what the screen shows)."""
    return sign(side) * (mark - opened) * quantity(hands, share_num)


def overnight(mark: Decimal, hands: int, share_num: Decimal, rate: Decimal) -> Decimal:
    """One day's overnight fee: rate x the position's value at the mark, rounded up."""
    return (mark * quantity(hands, share_num) * rate).quantize(step(QUOTE_PLACES), rounding=ROUND_CEILING)


def floor(origin_margin: Decimal, level: Decimal) -> Decimal:
    """The least margin overnight fees may leave a position: ``level`` percent (the liquidation level)
    of its margin at the open, rounded up. Below it the position is liquidated instead."""
    return (origin_margin * level / HUNDRED).quantize(step(QUOTE_PLACES), rounding=ROUND_CEILING)
