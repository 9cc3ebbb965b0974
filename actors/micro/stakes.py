"""A stake's checks and its ledger operation, and the house's worst case per (pair, duration, currency)."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal

from store import ledger, micro
from store.errors import DomainError, ErrorCode
from store.micro import settle as rule
from store.models import Currency, MicroOrder
from store.money import money


class Exposure:
    """The open stakes of one (pair, duration, currency) in this shard, and the worst the house loses."""

    __slots__ = ("up_win", "up_stake", "down_win", "down_stake")

    def __init__(self) -> None:
        self.up_win = self.up_stake = self.down_win = self.down_stake = Decimal(0)

    def add(self, row: MicroOrder, sign: int) -> None:
        win = row.number * row.profit_ratio / rule.HUNDRED
        if row.type == rule.UP:
            self.up_win += sign * win
            self.up_stake += sign * row.number
        else:
            self.down_win += sign * win
            self.down_stake += sign * row.number

    def worst(self) -> Decimal:
        return max(self.up_win - self.down_stake, self.down_win - self.up_stake, Decimal(0))


def check(currency: Currency, number: Decimal, lx: int) -> None:
    """A stake of ``number`` (``lx`` 1 typed, 2 a preset) in ``currency``: refused with the spec's
    messages unless positive, within the currency's places, a preset when it says so, within min/max."""
    places = currency.decimals
    if number <= 0:
        raise DomainError(ErrorCode.QUANTITY_REQUIRED)
    if number != number.quantize(rule.step(places), rounding=ROUND_DOWN):
        raise DomainError(ErrorCode.AMOUNT_PRECISION, places=places)
    if lx == 2 and number not in micro.presets(currency.micro_numbers):
        raise DomainError(ErrorCode.MICRO_PRESET_INVALID, numbers=currency.micro_numbers.replace(",", ", "))
    if not currency.micro_min <= number <= currency.micro_max:
        raise DomainError(ErrorCode.MICRO_STAKE_RANGE, min=money(currency.micro_min), max=money(currency.micro_max))


def op(row: MicroOrder, currency: Currency) -> ledger.Op:
    """The stake with its order row, refused if the user's open stakes (the micro account's lock, under
    its row lock) would pass the currency's cap. Stakes share transactions (group commit)."""
    refusal = DomainError(ErrorCode.MICRO_OPEN_LIMIT, max=money(currency.micro_max_open), currency=currency.code)
    return ledger.Op(micro.stake_change(row), rows=(row,), lock_cap=(currency.micro_max_open, refusal))
