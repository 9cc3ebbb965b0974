"""The exchange's population under load: visitors, traders, lever traders, second-contract traders,
savers (lock savings, mining, token sales, listing), P2P merchants and takers, and websocket
subscribers.

Run against an instance in development mode (``make run``); every user creates and funds its own
account (dev outbox codes, ``POST /api/dev/credit``), so the scenario needs nothing prepared:

    make loadtest                                  # headless, bounded, prints the figures
    .venv/bin/locust -f loadtest/locustfile.py --headless -u 60 -r 5 -t 5m --host http://127.0.0.1:8000

Request types in the report: ``GET``/``POST`` per API route, and ``WS`` for push: ``GLOBAL_TX
delivery`` is the time from a trade's commit to its arrival at a subscriber, ``MARKET_DEPTH seq``
counts depth messages and fails on a sequence gap, ``MARK delivery`` is the time from a mark tick to
its arrival (a tick is written at most every 100 ms, so this includes up to that wait),
``MICRO_CLOSED delivery`` the time from a second contract's end to its owner's push; ``CHECK proof
verdict`` fails when a contract's proof disagrees with its record. Settings (environment):
``LOAD_PAIRS`` (pair ids, default ``1,2,3``), ``LOAD_WS_URL`` (default: the address the server
announces at ``default/push_address``). What the users share is in ``common.py``; the second-contract
traders in ``micro.py``; the savers in ``earn.py``; the P2P traders in ``p2p.py``; the batch traders in
``batch.py`` (``tx/batch_add``: ``ORDERS batch accepted`` counts the batch path's orders/s); the
websocket traders in ``socket_trader.py`` (``WS_ORDER order ack``: the websocket path's orders/s).
"""

from __future__ import annotations

import json
import random
import time
from decimal import Decimal
from typing import Any

from batch import BatchTrader
from common import PAIRS, ApiUser, PushSocket, matches, min_notional, symbols
from earn import Saver
from locust import User, between, events, task
from locust.exception import StopUser
from micro import MicroTrader
from p2p import P2PTrader
from socket_trader import SocketTrader

__all__ = ["Visitor", "Trader", "BatchTrader", "SocketTrader", "LeverTrader", "MicroTrader", "Saver", "P2PTrader",
           "Subscriber"]  # fmt: skip

SEQ_RESTART = 100  # a depth seq this far below the newest seen starts a new sequence


class Visitor(ApiUser):
    """Browses the home page, markets, one pair's book and candles; never logs in."""

    weight = 3
    wait_time = between(1, 3)

    @task(3)
    def markets(self) -> None:
        self.api("GET", "market/currency_matches")

    @task(3)
    def deal(self) -> None:
        self.api("GET", f"market/deal?currency_match_id={random.choice(PAIRS)}", name="market/deal")

    @task(2)
    def kline(self) -> None:
        now = int(time.time())
        pair = random.choice(PAIRS)
        period = random.choice(["1min", "15min", "60min", "1day"])
        self.api("GET", f"market/kline?currency_match_id={pair}&period={period}&from={now - 86_400}&to={now}",
                 name="market/kline")  # fmt: skip

    @task(1)
    def news(self) -> None:
        self.api("GET", "news/categories")

    @task(1)
    def mark(self) -> None:
        self.api("GET", f"market/mark?currency_match_id={random.choice(PAIRS)}", name="market/mark")

    @task(1)
    def ticks(self) -> None:
        now = int(time.time() * 1000)
        self.api("GET", f"market/ticks?currency_match_id={random.choice(PAIRS)}&from={now - 60_000}&to={now}",
                 name="market/ticks")  # fmt: skip


class Trader(ApiUser):
    """Logs in and places, lists and cancels limit orders around the last price; some cross."""

    weight = 2
    wait_time = between(0.5, 2)

    def on_start(self) -> None:
        self.sign_up({"USDT": "10000000", "BTC": "100", "ETH": "1000", "LTC": "10000"})
        self.mids: dict[int, Decimal] = {}

    def _mid(self, pair: int) -> Decimal:
        if pair not in self.mids:
            deal = self.api("GET", f"market/deal?currency_match_id={pair}", name="market/deal") or {}
            depth = deal.get("depth") or {}
            best = [side[0]["price"] for side in (depth.get("in") or [], depth.get("out") or []) if side]
            close = Decimal(str((deal.get("quotation") or {}).get("close") or 0))
            self.mids[pair] = close if close > 0 else (sum(map(Decimal, best)) / len(best) if best else Decimal(100))
        return self.mids[pair]

    @task(5)
    def place(self) -> None:
        pair = random.choice(PAIRS)
        mid = self._mid(pair)
        way = random.choice(["tx_in", "tx_out"])
        # 1 in 5 crosses the spread a little; the rest rest up to 1 % away.
        crosses = random.random() < 0.2
        offset = Decimal(random.uniform(0.0005, 0.01)).quantize(Decimal("0.0001"))
        factor = (1 + offset) if (way == "tx_in") == crosses else (1 - offset)
        price = (mid * factor).quantize(Decimal("0.0001"))
        # Worth at least twice the pair's minimum order value (min_notional), whatever the price.
        least = min_notional(self.environment).get(pair, Decimal(1)) * 2 / price
        number = max(Decimal(random.uniform(0.001, 0.05)), least).quantize(Decimal("0.000001"), "ROUND_UP")
        self.api("POST", f"{way}/add", json={"currency_match_id": pair, "price": str(price), "number": str(number)})

    @task(2)
    def open_orders(self) -> None:
        way = random.choice(["tx_in", "tx_out"])
        self.api("GET", f"{way}/list?currency_match_id={random.choice(PAIRS)}", name=f"{way}/list")

    @task(2)
    def cancel_one(self) -> None:
        way = random.choice(["tx_in", "tx_out"])
        page = self.api("GET", f"{way}/list", name=f"{way}/list") or {}
        orders = page.get("data") or []
        if orders:
            # 409 "no longer open": the order filled between the list and the cancel (others cross
            # the spread, and the market maker trades), which is the race's designed answer.
            self.api("POST", f"{way}/cancel", json={"id": random.choice(orders)["id"]}, expected=(409,))

    @task(1)
    def history(self) -> None:
        self.api("GET", "tx_history/list")


class LeverTrader(ApiUser):
    """Moves USDT to its lever account, then on the open-lever pairs of ``LOAD_PAIRS`` opens positions
    at the market price and entrusts at fixed prices, sets take-profit and stop-loss, closes one or
    all of a pair's, cancels entrustments, and reads its panel and lists (docs/decisions.md,
    "Leveraged contracts"). A position closed or an entrustment filled meanwhile (409: the market
    maker's moves fire take-profits, stop-losses and entrustments) is the designed answer of that
    race, not a failure."""

    weight = 1
    wait_time = between(1, 3)
    MAX_OPEN = 6  # beyond this, it closes before it opens again

    def on_start(self) -> None:
        self.pairs = [m for m in matches(self.environment) if m["id"] in PAIRS and int(m.get("open_lever", 0))]
        if not self.pairs:
            raise StopUser  # no pair of LOAD_PAIRS offers leverage
        self.sign_up({"USDT": "100000"})
        usdt = self.pairs[0]["quote_currency_id"]
        self.api("POST", "account/transfer", json={"currency_id": usdt, "balance": "50000", "from": "change_account",
                                                   "to": "lever_account"})  # fmt: skip
        self.panels: dict[int, tuple[float, dict[str, Any]]] = {}

    def _panel(self, pair: dict[str, Any], fresh: bool = False) -> dict[str, Any] | None:
        """lever/deal of the pair (multiples offered, the mark), kept for 5 s unless ``fresh``."""
        at, panel = self.panels.get(pair["id"], (0.0, {}))
        if fresh or time.monotonic() - at > 5 or not panel:
            panel = self.api("POST", "lever/deal", json={"currency_match_id": pair["id"]}) or {}
            self.panels[pair["id"]] = (time.monotonic(), panel)
        return panel if panel.get("mark") else None

    def _open(self) -> list[dict[str, Any]]:
        return (self.api("POST", "lever/my_trade", json={"status": 1}) or {}).get("data") or []

    @task(4)
    def open_at_market(self) -> None:
        if len(self._open()) >= self.MAX_OPEN:
            self.close_one()
            return
        pair = random.choice(self.pairs)
        panel = self._panel(pair)
        if panel is None:
            return
        side = random.choice((1, 2))
        order = {"currency_match_id": pair["id"], "type": side, "status": 1, "share": random.randint(1, 3),
                 "multiple": random.choice([m for m in panel["multiple"]["muit"] if m <= 20] or [10])}  # fmt: skip
        position = self.api("POST", "lever/submit", json=order, name="lever/submit market")
        if position:
            self._set_stops(pair, position, Decimal(position.get("update_price") or panel["mark"]))

    def _set_stops(self, pair: dict[str, Any], position: dict[str, Any], mark: Decimal) -> None:
        """Take-profit 3 % and stop-loss 2 % from the mark, on the side's sides of it."""
        step = Decimal(1).scaleb(-int(pair["price_decimals"]))
        up, down = (mark * Decimal("1.03")).quantize(step), (mark * Decimal("0.98")).quantize(step)
        tp, sl = (up, down) if position["type"] == 1 else ((mark * Decimal("0.97")).quantize(step),
                                                            (mark * Decimal("1.02")).quantize(step))  # fmt: skip
        body = {"id": position["id"], "target_profit_price": str(tp), "stop_loss_price": str(sl)}
        self.api("POST", "lever/setstop", json=body, expected=(409,))

    @task(1)
    def entrust(self) -> None:
        """A fixed price 1 % on the far side of the mark, so it waits; cancelled later."""
        pair = random.choice(self.pairs)
        panel = self._panel(pair, fresh=True)
        if panel is None:
            return
        side = random.choice((1, 2))
        step = Decimal(1).scaleb(-int(pair["price_decimals"]))
        target = (Decimal(panel["mark"]) * (Decimal("0.99") if side == 1 else Decimal("1.01"))).quantize(step)
        order = {"currency_match_id": pair["id"], "type": side, "status": 0, "share": 1, "multiple": 10,
                 "target_price": str(target)}  # fmt: skip
        self.api("POST", "lever/submit", json=order, name="lever/submit fixed price")

    @task(1)
    def cancel_entrustment(self) -> None:
        pending = (self.api("POST", "lever/my_trade", json={"status": 0}) or {}).get("data") or []
        if pending:
            self.api("POST", "lever/cancel", json={"id": random.choice(pending)["id"]}, expected=(409,))

    @task(2)
    def close_one(self) -> None:
        opened = self._open()
        if opened:
            self.api("POST", "lever/close", json={"id": random.choice(opened)["id"]}, expected=(409,))

    @task(1)
    def close_a_pair(self) -> None:
        """One-click close of every position on one pair, one side or both."""
        body = {"type": random.choice((0, 1, 2)), "currency_match_id": random.choice(self.pairs)["id"]}
        self.api("POST", "lever/batch_close", json=body)

    @task(2)
    def positions(self) -> None:
        pair = random.choice(self.pairs)
        self.api("POST", "lever/dealall", json={"currency_match_id": pair["id"], "page": 1})
        self._panel(pair, fresh=True)


class Subscriber(User, PushSocket):
    """A websocket client: depth, trades and candles of one pair; reports delivery as ``WS``."""

    weight = 2
    wait_time = between(4, 6)

    def on_start(self) -> None:
        self.seq: int | None = None
        self.symbol = symbols(self.environment).get(random.choice(PAIRS), "BTC/USDT")
        self.open_push([f"MARKET_DEPTH.{self.symbol}", f"GLOBAL_TX.{self.symbol}", f"KLINE.{self.symbol}",
                        f"MARK.{self.symbol}"])  # fmt: skip

    def on_stop(self) -> None:
        self.close_push()

    @task
    def ping(self) -> None:
        self.ping_push()

    def on_push(self, raw: str) -> None:
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "global_tx":
            newest = max((c.get("time", 0) for c in message.get("completes", [])), default=0)
            if newest:
                self.report("GLOBAL_TX delivery", max(0.0, time.time() * 1000 - newest), None, len(raw))
        elif kind == "mark":
            self.report("MARK delivery", max(0.0, time.time() * 1000 - message.get("time", 0)), None, len(raw))
        elif kind == "market_depth":
            seq = (message.get("depth") or {}).get("seq")
            gap = None
            if isinstance(seq, int) and self.seq is not None:
                # self.seq is the newest seen: a slightly older one arrived out of order (a stale
                # snapshot), a newer one past self.seq + 1 skipped some (or they come later, out of
                # order). A far older one is a restarted sequence (a reloaded pair counts from 0).
                if self.seq - SEQ_RESTART < seq <= self.seq:
                    gap = RuntimeError(f"depth seq {seq} arrived after {self.seq} (out of order)")
                elif seq > self.seq + 1:
                    gap = RuntimeError(f"depth seq jumped from {self.seq} to {seq}")
            if isinstance(seq, int):
                self.seq = seq if self.seq is None or seq <= self.seq - SEQ_RESTART else max(self.seq, seq)
            self.report("MARKET_DEPTH seq", 0, gap, len(raw))


@events.init_command_line_parser.add_listener
def _defaults(parser: Any) -> None:
    parser.set_defaults(host="http://127.0.0.1:8000")
