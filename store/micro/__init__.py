"""Second contracts in the database: the terms a pair and a currency offer, an order's public shape, the
queries the API, the CLI and the MicroTimer shards share, and the journal and house rows of a stake
and a settlement. The MicroTimer shards alone write orders (``actors.micro.actor``), each change in
the transaction of its money (``store.ledger``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from store.ledger import ZERO, Change
from store.micro.settle import DOWN, UP, Outcome, Terms
from store.models import AccountType, Currency, CurrencyMatch, MicroOrder, MicroStatus, SiteSetting
from store.money import money
from store.times import now_ms

MICRO = AccountType.MICRO
USDT = "USDT"
SWITCH = "micro_open"  # the site setting: "0" refuses new contracts
STAKE, SETTLE = "micro_stake", "micro_settle"  # the journal's kinds of micro-account rows written here
PNL, FEE = "micro_pnl", "micro_fee"  # the house ledger's kinds
PER_PAGE = 10


def durations(text: str) -> dict[int, Decimal]:
    """``"30:80,60:85"`` -> {30: 80, 60: 85} (seconds -> profit ratio in percent), in order."""
    found: dict[int, Decimal] = {}
    for item in text.split(","):
        if item.strip():
            seconds, ratio = item.split(":", 1)
            found[int(seconds)] = Decimal(ratio.strip())
    return found


def presets(text: str) -> list[Decimal]:
    return [Decimal(n.strip()) for n in text.split(",") if n.strip()]


@dataclass(frozen=True)
class PairOffer:
    """What a pair offers second contracts (a snapshot of its row)."""

    id: int
    symbol: str
    durations: dict[int, Decimal]
    fee_rate: Decimal
    max_exposure: Decimal

    @classmethod
    def of(cls, row: CurrencyMatch) -> PairOffer:
        symbol = f"{row.base_currency.code}/{row.quote_currency.code}"
        return cls(row.id, symbol, durations(row.micro_seconds), row.micro_fee_rate, row.micro_max_exposure)


async def offered_pairs() -> dict[int, PairOffer]:
    """The pairs with second contracts: open_microtrade and a USDT quote (spec §5)."""
    rows = await CurrencyMatch.filter(open_microtrade=True, quote_currency__code=USDT).prefetch_related(
        "base_currency", "quote_currency"
    )
    return {row.id: PairOffer.of(row) for row in rows}


async def pair_symbols() -> dict[int, str]:
    """Every pair's symbol by id (a contract on a pair closed for new ones since still settles and shows)."""
    rows = await CurrencyMatch.all().prefetch_related("base_currency", "quote_currency")
    return {row.id: f"{row.base_currency.code}/{row.quote_currency.code}" for row in rows}


async def stake_currencies() -> list[Currency]:
    """The currencies a stake may be in: those with preset stakes that the micro account may hold."""
    rows = await Currency.exclude(micro_numbers="")
    return [c for c in rows if str(int(MICRO)) in c.account_types.split(",")]


async def switched_on() -> bool:
    row = await SiteSetting.get_or_none(key=SWITCH)
    return row is None or row.value.strip() != "0"


def terms_of(row: MicroOrder, places: int) -> Terms:
    return Terms(row.type, row.accepted_ms, row.seconds, row.number, row.profit_ratio, row.fee_rate, places)


def stake_change(row: MicroOrder) -> list[Change]:
    """The stake leaves the balance and is held (lock) while the contract is open."""
    return [Change(row.user_id, row.currency_id, MICRO, -row.number, row.number, STAKE, f"m{row.id}:stake",
                   extra={"micro_order_id": row.id})]  # fmt: skip


def settle_change(row: MicroOrder, outcome: Outcome) -> list[Change]:
    """The held stake is released; the payout (stake, stake + net profit, or nothing) is credited."""
    return [Change(row.user_id, row.currency_id, MICRO, outcome.payout, -row.number, SETTLE,
                   f"m{row.id}:settle", outcome.outcome, {"micro_order_id": row.id})]  # fmt: skip


HOUSE_FIELDS = ("kind", "currency_id", "amount", "ref", "user_id", "position_id", "created_at")


def house_values(row: MicroOrder, outcome: Outcome, at: datetime) -> list[tuple[object, ...]]:
    """The house's side, as ``HouseLedger`` rows' values (``HOUSE_FIELDS``; a settlement writes hundreds
    in one statement): + the stake of a loss, - the profit of a win (``micro_pnl``), + the fee."""
    uid, currency_id = row.user_id, row.currency_id
    return [(kind, currency_id, amount, f"m{row.id}:{kind}", uid, row.id, at)
            for kind, amount in ((PNL, outcome.house_pnl), (FEE, outcome.fee)) if amount]  # fmt: skip


def record(row: MicroOrder, outcome: Outcome, settled_at: datetime) -> None:
    """Write the outcome onto the order (not saved: the caller saves it with the money)."""
    row.status = MicroStatus.CLOSED
    row.outcome = outcome.outcome
    row.payout, row.fact_profits, row.fee = outcome.payout, outcome.fact_profits, outcome.fee
    if outcome.entry is not None:
        row.entry_tick_id, row.open_price = outcome.entry.id, outcome.entry.price
        row.end_ms = outcome.entry.time_ms + row.seconds * 1000
    if outcome.exit is not None:
        row.exit_tick_id, row.end_price = outcome.exit.id, outcome.exit.price
    row.settled_at = settled_at


SETTLED_FIELDS = ("status", "outcome", "payout", "fact_profits", "fee", "entry_tick_id", "open_price", "end_ms",
                  "exit_tick_id", "end_price", "settled_at")  # fmt: skip


def _ms(at: datetime | None) -> int | None:
    return int(at.timestamp() * 1000) if at else None


def _amount(value: Decimal | None) -> str | None:
    return None if value is None else money(value)


def order_public(
    row: MicroOrder, symbol: str, currency: str, entry: Any | None = None, now: int | None = None
) -> dict[str, Any]:
    """An order as every answer and push shows it (names are the API's to add). While it is open,
    ``entry`` is its entry tick if it has come (``open_price``, ``entry_at``, ``end_at`` follow) and
    ``remain_milli_seconds`` counts to its end on the server clock (the whole duration before entry)."""
    open_price, entry_at, entry_tick_id, end_ms = row.open_price, None, row.entry_tick_id, row.end_ms
    if row.status == MicroStatus.OPEN and entry is not None:
        open_price, entry_at, entry_tick_id = entry.price, entry.time_ms, entry.id
        end_ms = entry.time_ms + row.seconds * 1000
    elif row.end_ms is not None:
        entry_at = row.end_ms - row.seconds * 1000
    if row.status == MicroStatus.OPEN:
        remain = row.seconds * 1000 if end_ms is None else max(0, end_ms - (now if now is not None else now_ms()))
    else:
        remain = 0
    return {
        "id": row.id,
        "match_id": row.currency_match_id,
        "symbol_name": symbol,
        "seconds": row.seconds,
        "number": money(row.number),
        "currency_id": row.currency_id,
        "currency_name": currency,
        "type": row.type,
        "status": int(row.status),
        "profit_ratio": money(row.profit_ratio),
        "fee_rate": money(row.fee_rate),
        "open_price": _amount(open_price),
        "end_price": _amount(row.end_price),
        "fact_profits": money(row.fact_profits),
        "fee": money(row.fee),
        "payout": money(row.payout),
        "outcome": row.outcome or None,
        "accepted_at": row.accepted_ms,
        "entry_at": entry_at,
        "end_at": end_ms,
        "remain_milli_seconds": remain,
        "entry_tick_id": entry_tick_id,
        "exit_tick_id": row.exit_tick_id,
        "settled_at": _ms(row.settled_at),
        "time": _ms(row.created_at) or row.accepted_ms,
    }


def exposure(up: Decimal, down: Decimal, ratio: Decimal) -> Decimal:
    """What the house loses at worst on one (pair, duration, currency): if the price goes up it pays
    the ups' profits and keeps the downs' stakes, and the other way round."""
    return max(up * ratio / 100 - down, down * ratio / 100 - up, ZERO)


SIDES = (UP, DOWN)
