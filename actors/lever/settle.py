"""Where the money goes when a position opens, closes, is liquidated or pays an overnight fee (pure).

Each function answers a ``Movement``: the changes to the owner's lever account (free balance and
lock) and to the house ledger's kinds. The deltas of one movement always sum to zero (conservation),
and no movement takes a balance or a lock below zero: a loss larger than what the account holds is
paid by the insurance fund (``insurance`` goes negative), never by a negative balance. What the
account holds includes its entrustments' frozen funds: whoever settles a loss that passes the
margins and the free balance cancels them first and counts them in the ``balance`` it passes here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from actors.lever import terms
from actors.lever.book import Position

ZERO = Decimal(0)
FEE, PNL, INSURANCE, OVERNIGHT = "lever_fee", "lever_pnl", "insurance", "overnight"


@dataclass(frozen=True)
class Movement:
    balance: Decimal = ZERO  # the lever account's free balance
    lock: Decimal = ZERO  # the lever account's lock (margins and entrustments' frozen funds)
    house: dict[str, Decimal] = field(default_factory=dict)  # house ledger kind -> amount (+ the house gains)

    def total(self) -> Decimal:
        return self.balance + self.lock + sum(self.house.values(), ZERO)


@dataclass(frozen=True)
class Closed:
    position_id: int
    price: Decimal
    profit: Decimal


def opening(margin: Decimal, fee: Decimal) -> Movement:
    """A market open: the margin from the balance to the lock, the fee to the house."""
    return Movement(balance=-(margin + fee), lock=margin, house={FEE: fee})


def entrusting(frozen: Decimal) -> Movement:
    """An entrustment: margin and fee at the target frozen."""
    return Movement(balance=-frozen, lock=frozen)


def cancelling(frozen: Decimal) -> Movement:
    return Movement(balance=frozen, lock=-frozen)


def fill(
    p: Position, mark: Decimal, point_rate: Decimal, fee_rate: Decimal, places: int, balance: Decimal
) -> tuple[Decimal, Decimal, Decimal]:
    """Price, margin and fee of an entrustment that the mark reached: the spread price, never worse
    than the target, and the fee at that price. A better price can need more margin than was frozen
    at the target (a short filled higher): the difference comes from the free ``balance``, and what
    that cannot add the position goes without (its margin a little under price x quantity / multiple).
    It never opens at the target while the mark is past it: that would start it with a loss the
    margin may not hold, which the insurance fund would pay."""
    price = terms.entrusted_price(mark, p.target, point_rate, p.side, places)
    fee = terms.fee(price, p.hands, p.share_num, fee_rate)
    margin = min(terms.margin(price, p.hands, p.share_num, p.multiple), p.frozen + balance - fee)
    return price, margin, fee


def filling(frozen: Decimal, margin: Decimal, fee: Decimal) -> Movement:
    """An entrustment that opens: of what it froze, the margin stays locked, the fee goes to the
    house, and what a better price did not use goes back to the balance."""
    return Movement(balance=frozen - margin - fee, lock=margin - frozen, house={FEE: fee})


def closing(balance: Decimal, margin: Decimal, profit: Decimal) -> Movement:
    """A close: the margin leaves the lock, margin + profit goes to the balance; a loss beyond what
    the margin and the free ``balance`` cover is the insurance fund's."""
    back = margin + profit
    shortfall = max(ZERO, -(balance + back))
    return Movement(balance=back + shortfall, lock=-margin, house={PNL: -profit, INSURANCE: -shortfall})


def settling(
    balance: Decimal, closes: Iterable[tuple[Position, Decimal]], *, keep: bool
) -> tuple[Movement, list[Closed]]:
    """Positions of one account closed together, each at its price, their margins and profits summed
    (one position's profit pays another's loss). A loss beyond the margins comes out of the
    ``balance`` (the free balance and the frozen funds of the entrustments cancelled with them), and
    only beyond that out of the insurance fund. What they leave goes back to the balance with
    ``keep`` (closes), to the insurance fund without (a liquidation: the remainder is the fund's)."""
    closed = []
    margins = profits = ZERO
    for p, price in closes:
        profit = terms.profit(p.side, p.price, price, p.hands, p.share_num)
        closed.append(Closed(p.id, price, profit))
        margins += p.margin
        profits += profit
    if keep:
        return closing(balance, margins, profits), closed
    left = margins + profits
    if left >= 0:
        return Movement(lock=-margins, house={PNL: -profits, INSURANCE: left}), closed
    taken = min(balance, -left)
    return Movement(balance=-taken, lock=-margins, house={PNL: -profits, INSURANCE: left + taken}), closed


def liquidating(
    balance: Decimal, positions: Iterable[Position], marks: dict[int, Decimal]
) -> tuple[Movement, list[Closed]]:
    """Every open position of an account closes at its pair's mark (``settling`` without ``keep``):
    the remainder is the insurance fund's, a loss beyond the margins is taken from ``balance`` first.
    Entrustments are cancelled separately (``cancelling``), their refunds counted in ``balance``."""
    return settling(balance, [(p, marks[p.pair_id]) for p in positions], keep=False)


def overnight(balance: Decimal, margin: Decimal, floor: Decimal, fee: Decimal) -> tuple[Movement, Decimal] | None:
    """An overnight fee: from the free balance, the rest from the position's margin as far as its
    ``floor`` (``terms.floor``). Answers the movement and how much of the margin it took, or None when
    the two cannot pay it (or the margin is already below its floor): the position is liquidated then."""
    from_margin = max(ZERO, fee - balance)
    if margin - from_margin < floor:
        return None
    return Movement(balance=-(fee - from_margin), lock=-from_margin, house={OVERNIGHT: fee}), from_margin
