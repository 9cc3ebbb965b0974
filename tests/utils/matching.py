"""A pair's matching state in memory, for the pure matching helpers (``actors.pair.matching``)."""

from __future__ import annotations

import time
from collections import Counter
from decimal import Decimal as D
from typing import Any

from actors.book.order_book import OrderBook
from actors.book.types import Precision
from actors.market.candles import CandleBook
from actors.market.ticker import Ticker24h
from actors.pair.mark_rule import mark_of
from actors.pair.matching import Batch, match_submit
from actors.pair.state import BUY, OrderState, PairConfig


class Runtime:
    """What a PairActor gives the matching helpers, in memory."""

    def __init__(self, **config: Any) -> None:
        fields: dict[str, Any] = dict(id=21, base_code="LTC", quote_code="BTC", base_currency_id=4, quote_currency_id=2,
                                      price_decimals=8, qty_decimals=8, maker_fee=D("0.002"), taker_fee=D("0.002"),
                                      sell_disabled=False, open_change=True, min_notional=D(0))  # fmt: skip
        self._cfg = PairConfig(**{**fields, **config})
        self.precision = Precision(self._cfg.price_decimals, self._cfg.qty_decimals)
        self._book = OrderBook()
        self._orders: dict[int, OrderState] = {}
        self._candles = CandleBook()
        self._ticker = Ticker24h()
        self._open_count: Counter[int] = Counter()
        self._trades = 0
        self._ids = 0

    @property
    def cfg(self) -> PairConfig:
        return self._cfg

    def next_trade_id(self) -> int:
        self._trades += 1
        return self._trades

    def mark(self) -> D | None:
        bid, ask, p = self._book.best_bid(), self._book.best_ask(), self.precision
        return mark_of(p.price(bid) if bid else None, p.price(ask) if ask else None, self._ticker.last_price,
                       self._cfg.price_decimals)  # fmt: skip

    def order(self, batch: Batch, uid: int, way: int, number: str, price: str) -> dict[str, Any]:
        self._ids += 1
        held = D(price) * D(number) if way == BUY else D(number)
        payload = {"sent_ms": batch.now_ms, "id": self._ids, "uid": uid, "way": way, "kind": 1, "price": D(price),
                   "number": D(number), "frozen": held}  # fmt: skip
        return match_submit(self, batch, payload)


def batch() -> Batch:
    return Batch(now_ms=int(time.time() * 1000))
