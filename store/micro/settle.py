"""The outcome of a second contract: a pure function of the order's terms and the pair's ticks (no
I/O, no Ray, no setting), in ``Decimal``. The server settles with it, ``microtrade/proof`` answers
with it, and ``bench/verify_micro.py`` repeats it from the public API.

- **entry**: the first tick with ``time > accepted_ms`` (a tick published before the order was
  accepted can never be its entry: no latency arbitrage);
- **end**: ``entry.time + seconds * 1000``; **exit**: the last tick with ``time <= end`` (the entry
  itself when none came after it);
- no tick at all with ``accepted_ms < time <= accepted_ms + seconds * 1000``: the pair was halted for
  the whole window, the order is **void** and refunded;
- up wins if exit > entry, down wins if exit < entry; equal is a **tie**, refunded;
- a win pays stake + profit - fee, profit = stake x ratio / 100 rounded down, fee = profit x fee_rate
  / 100 rounded up (both to ``places``); ``fact_profits`` = profit - fee; a loss pays nothing
  (``fact_profits`` = -stake).

The house's side mirrors the player's: ``house_pnl`` = +stake on a loss, -profit on a win, and the
fee goes to the fee kind, so stake = payout + house_pnl + fee for every outcome (conservation).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

UP, DOWN = 1, 2
WIN, LOSS, TIE, VOID = "win", "loss", "tie", "void"
HUNDRED = Decimal(100)
ZERO = Decimal(0)


@dataclass(frozen=True)
class Terms:
    """What the order froze at acceptance."""

    type: int  # UP or DOWN
    accepted_ms: int
    seconds: int
    stake: Decimal
    profit_ratio: Decimal  # percent
    fee_rate: Decimal  # percent of the profit
    places: int  # of the stake currency

    @property
    def window_ms(self) -> int:
        return self.seconds * 1000

    @property
    def entry_deadline_ms(self) -> int:
        """No tick after acceptance by then: the order is void."""
        return self.accepted_ms + self.window_ms


@dataclass(frozen=True)
class TickView:
    """A tick as settlement reads it (a ``mark_ticks`` row, a MARK push, a proof's tick)."""

    id: int
    seq: int
    time_ms: int
    price: Decimal


@dataclass(frozen=True)
class Outcome:
    outcome: str  # WIN, LOSS, TIE or VOID
    entry: TickView | None
    exit: TickView | None
    payout: Decimal  # what goes back to the player's balance (stake included)
    fact_profits: Decimal
    fee: Decimal
    house_pnl: Decimal


def _times(ticks: Sequence[TickView], times: Sequence[int] | None) -> Sequence[int]:
    return times if times is not None else [t.time_ms for t in ticks]


def entry_of(terms: Terms, ticks: Sequence[TickView], times: Sequence[int] | None = None) -> TickView | None:
    """The first tick after acceptance (``ticks`` in time order; ``times`` their times, if the caller
    keeps them), if it came within the window."""
    index = bisect_right(_times(ticks, times), terms.accepted_ms)
    if index == len(ticks) or ticks[index].time_ms > terms.entry_deadline_ms:
        return None
    return ticks[index]


def exit_of(end_ms: int, ticks: Sequence[TickView], times: Sequence[int] | None = None) -> TickView | None:
    """The last tick at or before ``end_ms``."""
    index = bisect_right(_times(ticks, times), end_ms)
    return ticks[index - 1] if index else None


def step(places: int) -> Decimal:
    return Decimal(1).scaleb(-places)


def pay(terms: Terms, entry: TickView | None, exit_: TickView | None) -> Outcome:
    """The money of an order whose entry and exit ticks are known (None: void)."""
    stake = terms.stake
    if entry is None or exit_ is None:
        return Outcome(VOID, entry, exit_, stake, ZERO, ZERO, ZERO)
    if exit_.price == entry.price:
        return Outcome(TIE, entry, exit_, stake, ZERO, ZERO, ZERO)
    won = (exit_.price > entry.price) == (terms.type == UP)
    if not won:
        return Outcome(LOSS, entry, exit_, ZERO, -stake, ZERO, stake)
    profit = (stake * terms.profit_ratio / HUNDRED).quantize(step(terms.places), rounding=ROUND_FLOOR)
    fee = min(profit, (profit * terms.fee_rate / HUNDRED).quantize(step(terms.places), rounding=ROUND_CEILING))
    return Outcome(WIN, entry, exit_, stake + profit - fee, profit - fee, fee, -profit)


def settle(terms: Terms, ticks: Sequence[TickView], times: Sequence[int] | None = None) -> Outcome:
    """The outcome from every tick of the pair from acceptance to past the end (time order). The
    caller must know no tick at or before the end is still to come (the pair confirmed it)."""
    if terms.type not in (UP, DOWN):
        raise ValueError(f"type must be {UP} or {DOWN}, got {terms.type!r}")
    times = _times(ticks, times)
    entry = entry_of(terms, ticks, times)
    if entry is None:
        return pay(terms, None, None)
    return pay(terms, entry, exit_of(entry.time_ms + terms.window_ms, ticks, times))


def decided_by(terms: Terms, ticks: Sequence[TickView], times: Sequence[int] | None = None) -> int:
    """The time before which every tick must be known for ``settle`` to decide: the end after the
    entry, or the entry deadline while no entry is among ``ticks``."""
    entry = entry_of(terms, ticks, times)
    return terms.entry_deadline_ms if entry is None else entry.time_ms + terms.window_ms
