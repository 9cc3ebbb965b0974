"""One command against the book, turned into order states, trades and market data (pure: no I/O).

Called by the PairActor's batch loop; everything produced is collected in a ``Batch`` that the actor
persists in one transaction before answering anyone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_UP, Decimal
from typing import Any, Protocol

from actors.book.fees import fee
from actors.book.order_book import OrderBook
from actors.book.types import Kind, Precision, Side
from actors.book.types import Order as BookOrder
from actors.market.candles import CandleBook
from actors.market.ticker import Ticker24h
from actors.names import SUBMIT_DEADLINE_MS
from actors.pair.state import BUY, SELL, OrderState, PairConfig
from actors.wallet.legs import TradeLeg
from store.errors import DomainError, ErrorCode
from store.models import OrderStatus
from store.money import money
from store.spot import ms_to_dt

MAX_LOTS = 10**30


class PairRuntime(Protocol):
    precision: Precision
    _book: OrderBook
    _orders: dict[int, OrderState]
    _candles: CandleBook
    _ticker: Ticker24h
    _open_count: Counter[int]  # resting orders per user

    @property
    def cfg(self) -> PairConfig: ...

    def next_trade_id(self) -> int: ...

    def mark(self) -> Decimal | None: ...


@dataclass
class TradeRecord:
    row: dict[str, Any]
    public: dict[str, Any]
    leg: TradeLeg


@dataclass
class Batch:
    now_ms: int
    new_orders: list[OrderState] = field(default_factory=list)
    updated_orders: list[OrderState] = field(default_factory=list)
    trades: list[TradeRecord] = field(default_factory=list)
    klines: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # period name -> (period, latest bar)
    book_changed: bool = False

    def touched(self) -> list[OrderState]:
        """Every order the batch created or changed, once each."""
        seen: dict[int, OrderState] = {o.id: o for o in self.new_orders}
        for o in self.updated_orders:
            seen.setdefault(o.id, o)
        return list(seen.values())

    def changed_resting(self) -> list[OrderState]:
        """Orders that existed before the batch and changed in it, once each (rows to update)."""
        new = {o.id for o in self.new_orders}
        return list({o.id: o for o in self.updated_orders if o.id not in new}.values())


def match_submit(rt: PairRuntime, batch: Batch, payload: dict[str, Any]) -> dict[str, Any]:
    """Match one new order. Raises DomainError for a refused order (nothing is recorded then)."""
    cfg = rt.cfg
    way, kind = int(payload["way"]), int(payload.get("kind", Kind.LIMIT))
    if not cfg.open_change:
        raise DomainError(ErrorCode.PAIR_CLOSED)
    if way == SELL and cfg.sell_disabled:
        raise DomainError(ErrorCode.SELL_DISABLED)
    if batch.now_ms - int(payload.get("sent_ms") or batch.now_ms) > SUBMIT_DEADLINE_MS:
        raise DomainError(ErrorCode.PAIR_UNAVAILABLE)  # too late: its freeze may already be released
    state = OrderState(
        id=int(payload["id"]),
        uid=int(payload["uid"]),
        way=way,
        kind=kind,
        price=Decimal(payload.get("price") or 0),
        number=Decimal(payload["number"]),
        frozen=Decimal(payload["frozen"]),
        budget=Decimal(payload.get("budget") or 0),
    )
    _check_bounds(rt, state)
    p = rt.precision
    budget = p.to_budget(state.budget) if kind == Kind.MARKET and way == BUY else None
    lots = p.to_lots(state.number) if state.number > 0 else MAX_LOTS  # a market buy is bounded by its budget
    price = p.to_ticks(state.price) if kind == Kind.LIMIT else 0
    order = BookOrder(state.id, state.uid, Side(way), price, lots, budget=budget)
    result = rt._book.submit(order, kind=Kind(kind))
    state.seq = order.seq
    rt._orders[state.id] = state
    batch.new_orders.append(state)
    batch.book_changed = True
    if result.resting is not None:
        rt._open_count[state.uid] += 1
    for fill in result.fills:
        maker = rt._orders[fill.maker_order_id]
        fill_price, qty = p.price(fill.price), p.qty(fill.qty)  # ``price`` above is the order's, in ticks
        volume = fill_price * qty
        maker.fill(qty, volume)
        state.fill(qty, volume)
        if maker.final:
            rt._open_count[maker.uid] -= 1
        batch.updated_orders.append(maker)
        _record_trade(rt, batch, maker, state, fill_price, qty, volume)
    for expired in result.expired_makers:
        rt._orders[expired.order_id].cancel()
        rt._open_count[expired.uid] -= 1
        batch.updated_orders.append(rt._orders[expired.order_id])
    if kind == Kind.MARKET:
        # A market order never rests: done if anything filled, else cancelled. A market buy's
        # quantity is what its budget bought.
        if way == BUY:
            state.number = state.transacted_amount
        state.status = OrderStatus.FILLED if state.transacted_amount > 0 else OrderStatus.CANCELLED
    elif result.resting is None and state.status != OrderStatus.FILLED:
        state.cancel()  # the rest of a limit order cut by self-trade prevention
    return public_order(state, cfg)


def match_cancel(rt: PairRuntime, batch: Batch, order_id: int, uid: int) -> dict[str, Any]:
    state = rt._orders.get(order_id)
    if state is None or state.uid != uid:
        raise DomainError(ErrorCode.ORDER_NOT_FOUND)
    if rt._book.cancel(order_id) is None:
        raise DomainError(ErrorCode.ORDER_NOT_OPEN)
    state.cancel()
    rt._open_count[uid] -= 1
    batch.updated_orders.append(state)
    batch.book_changed = True
    return public_order(state, rt.cfg)


def band(mark: Decimal, cfg: PairConfig) -> tuple[Decimal, Decimal]:
    """The limit prices allowed around ``mark``: from mark / price_band up to mark x price_band, on
    the pair's price grid (the low end rounded up, the high end down)."""
    tick = Decimal(1).scaleb(-cfg.price_decimals)
    return (mark / cfg.price_band).quantize(tick, ROUND_UP), (mark * cfg.price_band).quantize(tick, ROUND_DOWN)


def _check_bounds(rt: PairRuntime, state: OrderState) -> None:
    """The pair's bounds (docs/decisions.md "Bounds"). Raises DomainError; changes nothing."""
    cfg = rt.cfg
    if state.number > cfg.max_quantity:
        raise DomainError(ErrorCode.QUANTITY_TOO_LARGE, max=money(cfg.max_quantity))
    if state.kind == Kind.MARKET:
        value = state.budget if state.way == BUY else state.number * (rt.mark() or Decimal(0))
        if value and value < cfg.min_notional:
            raise DomainError(ErrorCode.NOTIONAL_TOO_SMALL, min=money(cfg.min_notional), currency=cfg.quote_code)
        return
    if state.price > cfg.max_price:
        raise DomainError(ErrorCode.PRICE_TOO_HIGH, max=money(cfg.max_price))
    if state.price * state.number < cfg.min_notional:
        raise DomainError(ErrorCode.NOTIONAL_TOO_SMALL, min=money(cfg.min_notional), currency=cfg.quote_code)
    mark = rt.mark()
    if mark is not None:
        low, high = band(mark, cfg)
        if not low <= state.price <= high:
            raise DomainError(ErrorCode.PRICE_OUT_OF_BAND, low=money(low), high=money(high))
    if rt._open_count[state.uid] >= cfg.max_open_orders:
        raise DomainError(ErrorCode.TOO_MANY_OPEN_ORDERS, max=cfg.max_open_orders)


def _record_trade(
    rt: PairRuntime, batch: Batch, maker: OrderState, taker: OrderState, price: Decimal, qty: Decimal, volume: Decimal
) -> None:
    cfg = rt.cfg
    buyer, seller = (taker, maker) if taker.way == BUY else (maker, taker)
    buyer_rate = cfg.taker_fee if buyer is taker else cfg.maker_fee
    seller_rate = cfg.taker_fee if seller is taker else cfg.maker_fee
    trade_id = rt.next_trade_id()
    leg = TradeLeg(
        trade_id=trade_id,
        buyer_id=buyer.uid,
        seller_id=seller.uid,
        base_currency_id=cfg.base_currency_id,
        quote_currency_id=cfg.quote_currency_id,
        quantity=qty,
        volume=volume,
        # Never more than the side receives: rounding a fee up on a tiny fill must not make it exceed
        # the proceeds (a negative credit would leave the settlement stuck).
        buyer_fee=min(fee(qty, buyer_rate), qty),
        seller_fee=min(fee(volume, seller_rate), volume),
        symbol=cfg.symbol,
    )
    row = {
        "id": trade_id,
        "currency_match_id": cfg.id,
        "buy_order_id": buyer.id,
        "sell_order_id": seller.id,
        "buyer_id": buyer.uid,
        "seller_id": seller.uid,
        "taker_way": taker.way,
        "price": price,
        "number": qty,
        "volume": volume,
        "buyer_fee": leg.buyer_fee,
        "seller_fee": leg.seller_fee,
        "created_at": ms_to_dt(batch.now_ms),
    }
    public = {
        "id": trade_id,
        "price": money(price),
        "amount": money(qty),
        "way": taker.way,
        "timestamp": batch.now_ms // 1000,
        "time": batch.now_ms,
    }
    for period, bar in rt._candles.on_trade(batch.now_ms, price, qty):
        batch.klines[period.name] = (period, bar)
    rt._ticker.on_trade(batch.now_ms, price, qty)
    batch.trades.append(TradeRecord(row, public, leg))


def public_order(state: OrderState, cfg: PairConfig) -> dict[str, Any]:
    return {
        "id": state.id,
        "currency_match_id": cfg.id,
        "symbol": cfg.symbol,
        "way": state.way,
        "kind": state.kind,
        "price": money(state.price),
        "number": money(state.number),
        "transacted_amount": money(state.transacted_amount),
        "transacted_volume": money(state.transacted_volume),
        "status": int(state.status),
    }


__all__ = ["Batch", "match_cancel", "match_submit", "public_order", "SELL"]
