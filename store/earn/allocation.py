"""Pro-rata allocation of token sales and listing applications: pure rules (no I/O, no ORM).

The one rounding rule (docs/decisions.md "Token sales and listing"):

- **A step.** Tokens are handed out in whole *steps*: the smallest number of tokens that is a whole
  number of the token's units (``10**-token_places``) and whose price is a whole number of the
  accepted asset's units (``10**-asset_places``). So ``tokens x price`` is always exact in the asset:
  nobody's cost is rounded, the user pays for exactly what they get and the house receives exactly
  the price of what it issues. With the usual prices (0.05, 0.5, 2 USDT ...) the step is one unit of
  the token or a few.
- **Undersubscribed** (the asks fit in the supply): everyone gets what they asked, down to a whole
  step (a sale's asks are whole steps already; a listing's USDT may leave less than a step's price).
- **Oversubscribed**: each ask gets ``supply x ask / sum of asks``, computed exactly (fractions) and
  rounded DOWN to a whole step. What the rounding leaves over (the dust: fewer than one step per
  ask) is never issued: it stays with the house. So the tokens issued never exceed the supply and
  no one gets more than they asked.
- **Money**: a sale's lock is ``nums x price`` (exact); its cost is ``allocated x price`` (exact) and
  the refund is ``lock - cost`` (exact, never negative). A listing application's USDT won is
  ``won tokens x price`` (exact); the rest of its lock returns.

The answer depends on the stored asks alone (the ask, its copied price, the supply, the places),
never on their order or on time, so recomputing it from the stored rows gives the same result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from functools import cached_property
from math import ceil, floor

# Products and differences of stored amounts (36 digits each) fit in 80 digits: exact, whatever the
# caller's context (the default one keeps 28 and would round silently).
EXACT = Context(prec=80)


def step(price: Decimal, token_places: int, asset_places: int) -> Decimal:
    """The fewest tokens, a whole number of token units, whose ``price`` is a whole number of asset
    units. ``price`` must be positive."""
    if price <= 0:
        raise ValueError("a price must be positive")
    unit_price = Fraction(price) * Fraction(10) ** (asset_places - token_places)  # a token unit's price, in asset units
    return Decimal(unit_price.denominator).scaleb(-token_places)


def _steps(token_places: int, asset_places: int) -> Callable[[Decimal], Decimal]:
    """``step`` at these places, worked out once per price (a sale's rows share one or a few)."""
    found: dict[Decimal, Decimal] = {}

    def of(price: Decimal) -> Decimal:
        if price not in found:
            found[price] = step(price, token_places, asset_places)
        return found[price]

    return of


def floor_to(value: Fraction, step_: Decimal) -> Decimal:
    """``value`` rounded down to a whole number of ``step_`` (an exact Decimal)."""
    return EXACT.multiply(step_, Decimal(floor(value / Fraction(step_))))


def least_tokens(least: Decimal, price: Decimal, step_: Decimal) -> Decimal:
    """The fewest tokens, whole ``step_``s, whose cost at ``price`` is at least ``least``: the smallest
    subscription a sale with that minimum takes."""
    return EXACT.multiply(step_, Decimal(max(1, ceil(Fraction(least) / Fraction(price) / Fraction(step_)))))


def is_whole(amount: Decimal, step_: Decimal) -> bool:
    return EXACT.remainder(amount, step_) == 0


@dataclass(frozen=True)
class Ask:
    """One claim on the supply: ``tokens`` asked (may be a fraction: a listing's USDT / price), given
    out in whole ``step``s."""

    id: int
    tokens: Fraction
    step: Decimal


def pro_rata(supply: Decimal, asks: Sequence[Ask]) -> dict[int, Decimal]:
    """Tokens given to each ask (by id): all it asked (down to a whole step) when the asks fit in
    ``supply``, else its exact pro-rata share of ``supply`` rounded down to a whole step."""
    if supply < 0 or any(a.tokens < 0 for a in asks):
        raise ValueError("supply and asks cannot be negative")
    asked = sum((a.tokens for a in asks), Fraction(0))
    if asked <= Fraction(supply):
        return {a.id: floor_to(a.tokens, a.step) for a in asks}
    return {a.id: floor_to(Fraction(supply) * a.tokens / asked, a.step) for a in asks}


# -- token sales ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Subscription:
    """A stored subscription: tokens asked (``nums``), its copied price and what it locked."""

    id: int
    nums: Decimal
    price: Decimal
    locked: Decimal


@dataclass(frozen=True)
class SaleLine:
    id: int
    allocated: Decimal  # tokens credited
    cost: Decimal  # of the lock, to the house
    refund: Decimal  # of the lock, back to the user


@dataclass(frozen=True)
class SaleAllocation:
    lines: tuple[SaleLine, ...]
    asked: Decimal
    issued: Decimal  # tokens, sum of allocated
    dust: Decimal  # tokens of the supply not issued although asked for (0 when undersubscribed)
    proceeds: Decimal  # sum of costs

    @property
    def oversubscribed(self) -> bool:
        return self.dust > 0 or self.asked > self.issued

    def line(self, sub_id: int) -> SaleLine:
        """The subscription's line (a lookup, not a scan: the close looks up every one)."""
        return self._by_id[sub_id]

    @cached_property
    def _by_id(self) -> dict[int, SaleLine]:
        return {line.id: line for line in self.lines}


def sale_lock(nums: Decimal, price: Decimal) -> Decimal:
    """What subscribing ``nums`` tokens at ``price`` locks (exact when ``nums`` is a whole step)."""
    return EXACT.multiply(nums, price)


def allocate_sale(
    total: Decimal, subs: Sequence[Subscription], *, token_places: int, asset_places: int
) -> SaleAllocation:
    """A sale's allocation at its end: ``total`` tokens offered, pro rata to the tokens asked; its lines
    in the order of ``subs``. Linear in the subscriptions (exact fractions, no sort)."""
    steps = _steps(token_places, asset_places)
    asks = [Ask(s.id, Fraction(s.nums), steps(s.price)) for s in subs]
    given = pro_rata(total, asks)
    lines = []
    for s in subs:
        allocated = given[s.id]
        cost = EXACT.multiply(allocated, s.price)
        if cost > s.locked:  # only a lock that was not nums x price could do this
            raise ValueError(f"subscription {s.id} locked {s.locked}, less than the cost {cost}")
        lines.append(SaleLine(s.id, allocated, cost, EXACT.subtract(s.locked, cost)))
    asked = _sum(s.nums for s in subs)
    issued = _sum(line.allocated for line in lines)
    dust = EXACT.subtract(min(total, asked), issued)
    return SaleAllocation(tuple(lines), asked, issued, dust, _sum(line.cost for line in lines))


# -- listing applications ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Application:
    """A stored application: USDT applied (``nums``) at its copied price."""

    id: int
    nums: Decimal
    price: Decimal


@dataclass(frozen=True)
class ListingLine:
    id: int
    won_tokens: Decimal  # credited on the online date
    won_usdt: Decimal  # of the lock, to the house at the allocation
    rest: Decimal  # of the lock, released at the lock's end

    @property
    def won(self) -> bool:
        return self.won_tokens > 0


def allocate_listing(
    remaining: Decimal, apps: Sequence[Application], *, token_places: int, asset_places: int
) -> tuple[ListingLine, ...]:
    """A listing's allocation at its end: the ``remaining`` tokens, pro rata to the USDT applied
    (each application asks ``nums / price`` tokens); its lines in the order of ``apps``."""
    steps = _steps(token_places, asset_places)
    asks = [Ask(a.id, Fraction(a.nums) / Fraction(a.price), steps(a.price)) for a in apps]
    given = pro_rata(remaining, asks)
    lines = []
    for a in apps:
        won_usdt = EXACT.multiply(given[a.id], a.price)
        lines.append(ListingLine(a.id, given[a.id], won_usdt, EXACT.subtract(a.nums, won_usdt)))
    return tuple(lines)


def _sum(values: Iterable[Decimal]) -> Decimal:
    total = Decimal(0)
    for value in values:
        total = EXACT.add(total, value)
    return total
