"""Shapes: database rows and push messages of a pair (pure: no I/O except ``recent_trades``)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from actors.book.order_book import OrderBook
from actors.market.candles import Bar, CandleBook
from actors.market.ticker import Ticker24h
from actors.pair.marks import Tick
from actors.pair.matching import Batch, public_order
from actors.pair.state import OrderState, PairConfig
from actors.wallet.legs import TradeLeg
from store.channels import encode, public_topic, user_topic
from store.models import Order, OrderStatus, Trade
from store.money import money
from store.prices import PriceBook


def quotation(cfg: PairConfig, ticker: Ticker24h, now_ms: int, prices: PriceBook | None = None) -> dict[str, Any]:
    """The spec's Quotation; with ``prices``, also the last price in USD and CNY (``usd_price``,
    ``cny_price``: close x the quote currency's live USD price, and that x the CNY rate)."""
    snap = ticker.snapshot(now_ms)
    fiat = prices.quotation(snap["close"], cfg.quote_code) if prices is not None else {}
    return {
        "currency_match_id": cfg.id,
        "close": money(snap["close"]),
        "change": money(snap["change"]),
        "high": money(snap["high"]),
        "low": money(snap["low"]),
        "volume": money(snap["volume"]),
        **fiat,
    }


def quotation_row(cfg: PairConfig, ticker: Ticker24h, now_ms: int) -> dict[str, Any]:
    snap = ticker.snapshot(now_ms)
    row = {k: snap[k] for k in ("close", "change", "high", "low", "volume")}
    return {"currency_match_id": cfg.id, **row}


def depth(cfg: PairConfig, book: OrderBook, seq: int, levels: int) -> dict[str, Any]:
    bids, asks = book.depth(levels)
    p = 10**cfg.price_decimals
    q = 10**cfg.qty_decimals

    def side(rows: list[tuple[int, int]]) -> list[dict[str, Any]]:
        return [
            {"price": money(Decimal(price) / p), "amount": money(Decimal(lots) / q), "index": i}
            for i, (price, lots) in enumerate(rows)
        ]

    return {"seq": seq, "in": side(bids), "out": side(asks)}


def bar(b: Bar) -> dict[str, Any]:
    return {
        "time": b.start,
        "open": money(b.open),
        "high": money(b.high),
        "low": money(b.low),
        "close": money(b.close),
        "volume": money(b.volume),
    }


def bar_row(pair_id: int, period: Any, b: Bar) -> dict[str, Any]:
    return {
        "currency_match_id": pair_id,
        "period": period.name,
        "start": b.start,
        "open": b.open,
        "high": b.high,
        "low": b.low,
        "close": b.close,
        "volume": b.volume,
        "amount": b.amount,
    }


def bar_of(row: Any) -> Bar:
    return Bar(row.start, row.open, row.high, row.low, row.close, row.volume, row.amount)


def order_row(pair_id: int, o: OrderState) -> dict[str, Any]:
    return {
        "id": o.id,
        "user_id": o.uid,
        "currency_match_id": pair_id,
        "way": o.way,
        "kind": o.kind,
        "price": o.price,
        "number": o.number,
        "budget": o.budget,
        "frozen": o.frozen,
        "transacted_amount": o.transacted_amount,
        "transacted_volume": o.transacted_volume,
        "status": o.status,
        "seq": o.seq,
    }


def order_update_row(o: OrderState) -> dict[str, Any]:
    return {
        "id": o.id,
        "transacted_amount": o.transacted_amount,
        "transacted_volume": o.transacted_volume,
        "status": o.status,
    }


def state_of(row: Order) -> OrderState:
    return OrderState(
        id=row.id,
        uid=row.user_id,
        way=row.way,
        kind=row.kind,
        price=row.price,
        number=row.number,
        frozen=row.frozen,
        budget=row.budget,
        transacted_amount=row.transacted_amount,
        transacted_volume=row.transacted_volume,
        status=OrderStatus(row.status),
        seq=row.seq,
    )


def leg_of(cfg: PairConfig, t: Trade) -> TradeLeg:
    return TradeLeg(
        trade_id=t.id,
        buyer_id=t.buyer_id,
        seller_id=t.seller_id,
        base_currency_id=cfg.base_currency_id,
        quote_currency_id=cfg.quote_currency_id,
        quantity=t.number,
        volume=t.volume,
        buyer_fee=t.buyer_fee,
        seller_fee=t.seller_fee,
        symbol=cfg.symbol,
    )


async def recent_trades(pair_id: int, limit: int) -> list[dict[str, Any]]:
    rows = await Trade.filter(currency_match_id=pair_id).order_by("-id").limit(limit)
    return [
        {
            "id": t.id,
            "price": money(t.price),
            "amount": money(t.number),
            "way": t.taker_way,
            "timestamp": int(t.created_at.timestamp()),
            "time": int(t.created_at.timestamp() * 1000),
        }
        for t in rows
    ]


def messages(
    cfg: PairConfig,
    book: OrderBook,
    ticker: Ticker24h,
    batch: Batch,
    depth_seq: int,
    levels: int,
    prices: PriceBook | None = None,
) -> Iterator[tuple[str, str]]:
    """Every push a committed batch produces, as (Redis topic, JSON message)."""
    sym = cfg.symbol
    for o in batch.new_orders:
        yield user_topic(o.uid, "TX_SUBMIT"), encode("tx_submit", {"order": public_order(o, cfg), "way": o.way})
    changed = {o.id for o in batch.changed_resting()}
    for o in batch.touched():
        if o.id in changed or o.transacted_amount > 0 or o.final:
            yield user_topic(o.uid, "TX_MATCHED"), encode("tx_matched", {"order": public_order(o, cfg)})
    if batch.book_changed:
        payload = {"symbol": sym, "currency_match_id": cfg.id, "depth": depth(cfg, book, depth_seq, levels)}
        yield public_topic(f"MARKET_DEPTH.{sym}"), encode("market_depth", payload)
    if batch.trades:
        completes = [t.public for t in reversed(batch.trades)]
        yield public_topic(f"GLOBAL_TX.{sym}"), encode("global_tx", {"symbol": sym, "currency_match_id": cfg.id,
                                                                     "completes": completes})  # fmt: skip
        yield from kline_messages(cfg, list(batch.klines.values()))
        quote = quotation(cfg, ticker, batch.now_ms, prices)
        yield public_topic("DAY_MARKET"), encode("daymarket", {"currency_match_id": cfg.id, "symbol": sym,
                                                               "quotation": quote})  # fmt: skip


def kline_messages(cfg: PairConfig, changed: list[tuple[Any, Bar]]) -> Iterator[tuple[str, str]]:
    for period, b in changed:
        yield public_topic(f"KLINE.{cfg.symbol}"), encode("kline", {"symbol": cfg.symbol, "period": period.name,
                                                                    **bar(b)})  # fmt: skip


def mark_message(cfg: PairConfig, tick: Tick) -> tuple[str, str]:
    """The MARK.<symbol> push of a new tick: its price, time, id and place in the hash chain."""
    payload = {"symbol": cfg.symbol, **tick.public()}
    return public_topic(f"MARK.{cfg.symbol}"), encode("mark", payload)


def batch_writes(
    cfg: PairConfig, candles: CandleBook, ticker: Ticker24h, batch: Batch, tick: Tick | None
) -> dict[str, Any]:
    """What one batch writes in its transaction (``store.spot.persist_batch``'s arguments); takes the
    candles' dirty bars (a batch with trades changed them)."""
    bars = []
    if batch.trades:
        bars = [bar_row(cfg.id, period, b) for period, b in candles.dirty()]
        candles.clear_dirty()
    return {
        "pair_id": cfg.id,
        "new_orders": [order_row(cfg.id, o) for o in batch.new_orders],
        "updated_orders": [order_update_row(o) for o in batch.changed_resting()],
        "trades": [t.row for t in batch.trades],
        "quotation": quotation_row(cfg, ticker, batch.now_ms) if batch.trades else None,
        "bars": bars,
        "releases": [o.id for o in batch.touched() if o.final and o.held > 0],
        "ticks": [tick.row()] if tick else [],
    }
