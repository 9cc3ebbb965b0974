"""Spot's answers as response models: an order as the pair answers it (``actors.pair.matching.public_order``)
and as the lists show it, the batches' per-order results, and the market data (``market/deal``'s
quotation, depth, trades and mark; candles; the pairs and their quote groups).

The pair actor builds its answers as dicts (an actor may not import the edge). The routes check them
against these models where the answer is made, so a field renamed or dropped fails there and not in a
user's browser. ``market/deal``, the candles and the order answers are served often, so they are
checked cheaply (``serve.api.responses.checked``): the model's validator, built once with the class,
checks the dict strictly in pydantic-core and the dict itself goes to the wire, never dumped from the
model a second time; for ``market/deal`` (20 levels a side, 30 trades) that is about as much CPU again
as encoding the answer, well under a millisecond against the route's ~27 ms (docs/performance.md)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, TypeAdapter

from serve.api.responses import Out


class SpotOrderOut(Out):
    """An order as the pair answers it: placed, cancelled, and each result of a batch."""

    id: int
    currency_match_id: int
    symbol: str
    way: int  # 1 buy, 2 sell
    kind: int  # 0 limit, 1 market
    price: str
    number: str
    transacted_amount: str
    transacted_volume: str
    status: int  # 0 open, 1 partially filled, 2 filled, 3 cancelled


class SymbolOut(Out):
    symbol: str


class OrderRowOut(Out):
    """An order as the lists show it (tx_in/list, tx_out/list, tx_history/list), with its names."""

    id: int
    currency_match_id: int
    currency_match: SymbolOut
    symbol: str
    way: int
    way_name: str
    kind: int
    price: str
    number: str
    transacted_amount: str
    transacted_volume: str
    status: int
    status_name: str
    created_at: str
    updated_at: str


class OrderResultOut(Out):
    """One order of a batch: its own ``{code, msg, data}``, the order or null when refused."""

    code: int
    msg: str
    data: SpotOrderOut | None


class BatchOut(Out):
    results: list[OrderResultOut]  # in the order asked


class QuotationOut(Out):
    """A pair's 24 h quotation, its last price also in USD and CNY."""

    currency_match_id: int
    close: str
    change: str  # percent against the price 24 h ago
    high: str
    low: str
    volume: str
    usd_price: str
    cny_price: str


class DepthLevelOut(Out):
    price: str
    amount: str
    index: int


class DepthOut(Out):
    """The order book's best levels: ``in`` the bids, ``out`` the asks, and the book's sequence number."""

    model_config = ConfigDict(serialize_by_alias=True, validate_by_name=False)

    seq: int
    bids: list[DepthLevelOut] = Field(alias="in")
    asks: list[DepthLevelOut] = Field(alias="out")


class TradeOut(Out):
    id: int
    price: str
    amount: str
    way: int  # the taker's: 1 buy, 2 sell
    timestamp: int  # seconds
    time: int  # milliseconds


class MarkTickOut(Out):
    """A mark price tick (``actors.pair.marks.Tick.public``) with its place in the hash chain."""

    id: int
    currency_match_id: int
    seq: int
    time: int
    price: str
    rule: str
    version: int
    prev_hash: str
    hash: str


class MarkInputsOut(Out):
    """What the mark is made of now; null where there is none."""

    notional: str | None
    impact_bid: str | None
    impact_ask: str | None
    last: str | None
    raw: str | None
    rule: str | None


class DealOut(Out):
    """market/deal: a pair's quotation, depth, last trades (newest first) and mark."""

    quotation: QuotationOut
    depth: DepthOut
    tx_completes: list[TradeOut]
    mark: MarkTickOut | None  # null before the first tick
    mark_inputs: MarkInputsOut


class BarOut(Out):
    time: int  # the period's start, milliseconds
    open: str
    high: str
    low: str
    close: str
    volume: str


class LogoOut(Out):
    code: str
    logo: str


class PairOut(Out):
    """A trading pair with its switches, bounds, fees and lever terms (market/currency_matches)."""

    id: int
    name: str
    symbol: str
    base_currency_id: int
    quote_currency_id: int
    base_currency_code: str
    quote_currency_code: str
    base_currency: LogoOut
    open_change: int
    open_lever: int
    open_microtrade: int
    added: int
    price_decimals: int
    qty_decimals: int
    maker_fee: str
    taker_fee: str
    lever_point_rate: str
    lever_share_num: str
    lever_fee_rate: str
    max_price: str
    max_quantity: str
    min_notional: str
    price_band: str
    max_open_orders: int
    currency_quotation: QuotationOut


class QuoteGroupOut(Out):
    """A quote currency with its live price and its pairs."""

    id: int
    code: str
    name: str
    is_quote: int
    usd_price: str
    cny_price: str
    usd_live: bool
    matches: list[PairOut]


BARS: TypeAdapter[Any] = TypeAdapter(list[BarOut])  # market/kline's answer, built once
