"""`exchange micro stats`: the fairness figures of second contracts, from the database."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Annotated

import typer

from serve.commands.database import db_run

micro_app = typer.Typer(help="Second contracts.", no_args_is_help=True)
Key = tuple[int, int, int]  # (seconds, pair id or 0 for every pair, stake currency id)


@dataclass
class Figures:
    """One row of the table: the settled contracts of a duration (and pair) in one stake currency."""

    outcomes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    staked: Decimal = Decimal(0)  # by the settled contracts
    paid: Decimal = Decimal(0)  # back to their players, stakes included
    house: Decimal = Decimal(0)  # the house ledger's micro_pnl + micro_fee for them
    open_count: int = 0
    open_stake: Decimal = Decimal(0)

    @property
    def settled(self) -> int:
        return sum(self.outcomes.values())

    def win_rate(self) -> Decimal | None:
        decided = self.outcomes["win"] + self.outcomes["loss"]
        return Decimal(self.outcomes["win"]) / decided if decided else None

    def realised_return(self) -> Decimal | None:
        return self.paid / self.staked if self.staked else None


def theoretical_return(ratio: Decimal, fee_rate: Decimal) -> Decimal:
    """What a decided contract returns per unit staked on a fair coin: half the time the stake back with
    the profit (``ratio`` percent of it) less the fee (``fee_rate`` percent of the profit), else nothing."""
    return (1 + ratio / 100 * (1 - fee_rate / 100)) / 2


@dataclass
class Stats:
    rows: dict[Key, Figures]
    currencies: dict[int, str]
    symbols: dict[int, str]
    configured: dict[tuple[int, int], tuple[Decimal, Decimal]]  # (seconds, pair) -> (ratio, fee rate) now


async def gather(by_pair: bool) -> Stats:
    """Every contract and its house rows, summed per (duration, pair if ``by_pair``, currency)."""
    from store import micro
    from store.models import Currency, HouseLedger, MicroOrder, MicroStatus

    offered = await micro.offered_pairs()
    configured = {(s, p.id): (r, p.fee_rate) for p in offered.values() for s, r in p.durations.items()}
    rows: dict[Key, Figures] = defaultdict(Figures)
    key_of: dict[int, Key] = {}
    fields = ("id", "seconds", "currency_match_id", "currency_id", "status", "outcome", "number", "payout")
    for order_id, seconds, pair_id, currency_id, status, outcome, number, payout in await MicroOrder.all().values_list(
        *fields
    ):
        key = (seconds, pair_id if by_pair else 0, currency_id)
        figures = rows[key]
        if status == MicroStatus.OPEN:
            figures.open_count += 1
            figures.open_stake += number
            continue
        key_of[order_id] = key
        figures.outcomes[outcome] += 1
        figures.staked += number
        figures.paid += payout
    house = HouseLedger.filter(kind__in=(micro.PNL, micro.FEE)).values_list("position_id", "amount")
    for order_id, amount in await house:
        if order_id in key_of:
            rows[key_of[order_id]].house += amount
    currencies = dict(await Currency.all().values_list("id", "code"))
    symbols = {p.id: p.symbol for p in offered.values()}
    return Stats(dict(rows), currencies, symbols, configured)


def _percent(value: Decimal | None) -> str:
    return "-" if value is None else f"{value * 100:.2f} %"


def _theory(stats: Stats, seconds: int, pair_id: int) -> str:
    """The configured terms' return: of the pair, or of every pair offering the duration (a range)."""
    terms = {t for (s, p), t in stats.configured.items() if s == seconds and pair_id in (0, p)}
    if not terms:
        return "-"
    found = sorted(theoretical_return(ratio, fee) for ratio, fee in terms)
    return _percent(found[0]) if found[0] == found[-1] else f"{_percent(found[0])} to {_percent(found[-1])}"


@micro_app.command()
def stats(
    by_pair: Annotated[bool, typer.Option("--by-pair", help="a row per duration and pair")] = False,
) -> None:
    """Fairness figures of second contracts, per duration (and pair with --by-pair) and stake currency.

    Columns: contracts settled; wins, losses, ties and voids; the players' realised win rate, wins /
    (wins + losses); the return to player in theory and as realised; the house's P&L on the settled
    ones (its micro_pnl and micro_fee ledger rows, + when players lost); the contracts still open and
    their stakes.

    Return (theory), at the ratios configured now: (1 + r/100 x (1 - f/100)) / 2 per unit staked, for a
    profit ratio of r % and a fee of f % of the profit. On a fair coin a decided contract pays the
    stake and its net profit half the time and nothing otherwise; ties and voids give the stake back
    (a return of 1), so they pull the realised figure towards 100 %. Return (realised): paid out /
    staked, stakes included.

    No figure here, and no setting, decides an outcome: each is the order's and the ticks'
    (microtrade/proof, bench/verify_micro.py)."""
    from store.money import money

    found = db_run(lambda: gather(by_pair))
    if not found.rows:
        typer.echo("no second contracts yet")
        return
    typer.echo("seconds\tpair\tcurrency\tsettled\twin\tloss\ttie\tvoid\twin rate\treturn (theory)"
               "\treturn (realised)\thouse P&L\topen\topen stake")  # fmt: skip
    for (seconds, pair_id, currency_id), f in sorted(found.rows.items()):
        pair = found.symbols.get(pair_id, str(pair_id)) if pair_id else "all"
        counts = "\t".join(str(f.outcomes[k]) for k in ("win", "loss", "tie", "void"))
        typer.echo(
            f"{seconds}\t{pair}\t{found.currencies.get(currency_id, currency_id)}\t{f.settled}\t{counts}"
            f"\t{_percent(f.win_rate())}\t{_theory(found, seconds, pair_id)}\t{_percent(f.realised_return())}"
            f"\t{money(f.house)}\t{f.open_count}\t{money(f.open_stake)}"
        )
