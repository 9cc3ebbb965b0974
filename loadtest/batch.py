"""Batch traders for the load test (issue 15, part 2); ``locustfile.py`` runs them with the others.

Each ``tx/batch_add`` carries ``LOAD_BATCH`` orders (default 20) over the pairs of ``LOAD_PAIRS``,
both sides, mostly resting limit orders around the mid with a few crossing and a few market ones;
``tx/batch_cancel`` takes back up to 20 open ones. Besides the request rows, every accepted order
counts once as ``ORDERS batch accepted`` (its response time: the batch's ack), so that row's req/s
is the batch path's orders/s, next to the REST path's ``tx_in/add`` + ``tx_out/add`` rows.
"""

from __future__ import annotations

import os
import random
import time
from decimal import Decimal
from typing import Any

from common import PAIRS, ApiUser, min_notional
from locust import between, task

SIZE = max(1, min(20, int(os.environ.get("LOAD_BATCH", "20"))))
TICK = Decimal("0.0001")
# A bot's open orders over all its pairs, well under the exchange's cap of 200 per user and pair: like
# a market-making bot, it cancels its oldest before placing more (a 10-minute run reached the cap).
MAX_RESTING = 90


class OrderIdeas(ApiUser):
    """Orders over the pairs of ``LOAD_PAIRS`` (shared by the batch and the websocket traders)."""

    abstract = True

    def on_start(self) -> None:
        self.sign_up({"USDT": "10000000", "BTC": "100", "ETH": "1000", "LTC": "10000"})
        self.mids: dict[int, Decimal] = {}
        self.resting: list[int] = []

    def _make_room(self, count: int) -> list[int]:
        """The oldest resting orders to cancel before placing ``count`` more (taken off ``resting``)."""
        over = max(0, len(self.resting) + count - MAX_RESTING)
        oldest, self.resting = self.resting[:over], self.resting[over:]
        return oldest

    def _mid(self, pair: int) -> Decimal:
        if pair not in self.mids:
            deal = self.api("GET", f"market/deal?currency_match_id={pair}", name="market/deal") or {}
            close = Decimal(str((deal.get("quotation") or {}).get("close") or 0))
            self.mids[pair] = close if close > 0 else Decimal(100)
        return self.mids[pair]

    def _order(self) -> dict[str, Any]:
        pair = random.choice(PAIRS)
        mid = self._mid(pair)
        side = random.choice(["buy", "sell"])
        least = min_notional(self.environment).get(pair, Decimal(1)) * 2 / mid
        number = max(Decimal(random.uniform(0.001, 0.05)), least).quantize(Decimal("0.000001"), "ROUND_UP")
        if random.random() < 0.05:  # a market order: a buy spends a total of quote, a sell sells number
            if side == "buy":
                return {
                    "side": side,
                    "currency_match_id": pair,
                    "kind": "market",
                    "total": str((number * mid).quantize(TICK)),
                }
            return {"side": side, "currency_match_id": pair, "kind": "market", "number": str(number)}
        crosses = random.random() < 0.1
        offset = Decimal(random.uniform(0.0005, 0.01)).quantize(TICK)
        price = (mid * ((1 + offset) if (side == "buy") == crosses else (1 - offset))).quantize(TICK)
        return {"side": side, "currency_match_id": pair, "price": str(price), "number": str(number)}


class BatchTrader(OrderIdeas):
    """Signs up, then places batches of orders over several pairs and cancels what rests, in batches."""

    weight = 1
    wait_time = between(0.5, 2)

    @task(4)
    def place(self) -> None:
        oldest = self._make_room(SIZE)
        if oldest:
            self.api("POST", "tx/batch_cancel", json={"ids": oldest})
        started = time.perf_counter()
        data = self.api("POST", "tx/batch_add", json={"orders": [self._order() for _ in range(SIZE)]}) or {}
        elapsed_ms = (time.perf_counter() - started) * 1000
        for result in data.get("results") or []:
            # A refused order is a failure of its own row (it used to vanish from the report).
            refused = None if result["code"] == 1 else RuntimeError(f"code {result['code']}: {result.get('msg', '')}")
            self.environment.events.request.fire(request_type="ORDERS",
                                                 name="batch accepted" if refused is None else "batch refused",
                                                 response_time=elapsed_ms, response_length=0, exception=refused,
                                                 context={})  # fmt: skip
            if refused is None and result["data"]["status"] in (1, 2):
                self.resting.append(result["data"]["id"])

    @task(1)
    def cancel(self) -> None:
        ids, self.resting = self.resting[:20], self.resting[20:]
        if ids:
            self.api("POST", "tx/batch_cancel", json={"ids": ids})
