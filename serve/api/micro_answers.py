"""The second contracts' answers (serve/api/routes/micro.py) as response models: a contract as every
answer shows it (``store.micro.order_public`` with its names in the reader's language), the stake
currencies and the durations. Built through the models, so a field renamed in the store's shape fails
where the answer is made."""

from __future__ import annotations

from serve.api.responses import Out


class MicroOrderOut(Out):
    id: int
    match_id: int
    symbol_name: str
    seconds: int
    number: str
    currency_id: int
    currency_name: str
    type: int  # 1 up, 2 down
    status: int
    profit_ratio: str
    fee_rate: str
    open_price: str | None
    end_price: str | None
    fact_profits: str
    fee: str
    payout: str
    outcome: str | None
    accepted_at: int
    entry_at: int | None
    end_at: int | None
    remain_milli_seconds: int
    entry_tick_id: int | None
    exit_tick_id: int | None
    settled_at: int | None
    time: int
    type_name: str
    status_name: str
    outcome_name: str | None


class MicroBalance(Out):
    balance: str


class MicroNumber(Out):
    number: str


class StakeCurrencyOut(Out):
    id: int
    code: str
    micro_account: MicroBalance
    micro_numbers: list[MicroNumber]
    min_number: str
    max_number: str
    max_open: str


class DurationOut(Out):
    seconds: int
    profit_ratio: str  # percent of the stake a win pays
