"""The exchange's population under load: visitors, traders and websocket subscribers.

Run against an instance in development mode (``make run``); every user creates and funds its own
account (dev outbox codes, ``POST /api/dev/credit``), so the scenario needs nothing prepared:

    make loadtest                                  # headless, bounded, prints the figures
    .venv/bin/locust -f loadtest/locustfile.py --headless -u 60 -r 5 -t 5m --host http://127.0.0.1:8000

Request types in the report: ``GET``/``POST`` per API route, and ``WS`` for push: ``GLOBAL_TX
delivery`` is the time from a trade's commit to its arrival at a subscriber, ``MARKET_DEPTH seq``
counts depth messages and fails on a sequence gap. Settings (environment): ``LOAD_PAIRS`` (pair ids,
default ``1,2,3``), ``LOAD_WS_URL`` (default: the address the server announces at
``default/push_address``).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
import uuid
from decimal import Decimal
from typing import Any

import gevent
import websocket
from locust import FastHttpUser, User, between, events, task
from locust.env import Environment

PAIRS = [int(p) for p in os.environ.get("LOAD_PAIRS", "1,2,3").split(",") if p.strip()]
PASSWORD = "Load12345"
SEQ_RESTART = 100  # a depth seq this far below the newest seen starts a new sequence
_ids = itertools.count()


def _fail(name: str, answer: Any) -> None:
    raise RuntimeError(f"{name}: {answer.status_code} {answer.text[:200]}")


class ApiUser(FastHttpUser):
    """Calls ``/api/`` and checks the envelope: anything but code 1 is a failure."""

    abstract = True
    token = ""

    def api(self, method: str, path: str, name: str | None = None, expected: tuple[int, ...] = (), **kw: Any) -> Any:
        """``data`` of a code-1 answer; None otherwise. ``expected``: HTTP statuses of business answers
        that are a normal outcome of this call under load (counted as successes, answer None)."""
        headers = {"Authorization": self.token} if self.token else {}
        with self.client.request(method, f"/api/{path}", name=name or path, headers=headers,
                                 catch_response=True, **kw) as answer:  # fmt: skip
            try:
                body = answer.json()
            except ValueError:
                answer.failure(f"not JSON: {answer.status_code}")
                return None
            if answer.status_code in expected:
                answer.success()
                return None
            if body.get("code") != 1:
                answer.failure(f"code {body.get('code')}: {body.get('msg')}")
                return None
            return body["data"]

    def sign_up(self, funds: dict[str, str]) -> str:
        """Register a fresh e-mail account, log in, and credit ``funds``; answers the e-mail."""
        email = f"load-{uuid.uuid4().hex[:12]}-{next(_ids)}@example.com"
        self.api("POST", "notify/send_email", json={"to": email, "type": 1})
        sent = self.api("GET", f"dev/outbox?to={email}", name="dev/outbox") or []
        if not sent:
            raise RuntimeError("no code in the dev outbox: is the instance in development mode?")
        self.api("POST", "user/register", json={"type": "email", "account": email, "password": PASSWORD,
                                                "re_password": PASSWORD, "sms_code": sent[0]["code"]})  # fmt: skip
        data = self.api("POST", "user/login", json={"account": email, "password": PASSWORD})
        if not data:
            raise RuntimeError(f"could not log in {email}")
        self.token = data["token"]
        for currency, amount in funds.items():
            self.api("POST", "dev/credit", json={"currency": currency, "amount": amount})
        return email


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
        number = Decimal(random.uniform(0.001, 0.05)).quantize(Decimal("0.000001"))
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


class Subscriber(User):
    """A websocket client: depth, trades and candles of one pair; reports delivery as ``WS``."""

    weight = 2
    wait_time = between(4, 6)

    def on_start(self) -> None:
        self.symbol = ""
        self.seq: int | None = None
        self.ws = websocket.create_connection(_push_url(self.environment), timeout=10)
        pair = random.choice(PAIRS)
        self.symbol = _symbols(self.environment).get(pair, "BTC/USDT")
        for channel in (f"MARKET_DEPTH.{self.symbol}", f"GLOBAL_TX.{self.symbol}", f"KLINE.{self.symbol}"):
            self.ws.send(json.dumps({"type": "sub", "params": channel}))
        self.reader = gevent.spawn(self._read)

    def on_stop(self) -> None:
        self.reader.kill()
        self.ws.close()

    @task
    def ping(self) -> None:
        self.ws.send(json.dumps({"type": "ping"}))

    def _read(self) -> None:
        while True:
            try:
                raw = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                continue
            except Exception as exc:  # the connection ended: one failure, then stop reading
                self._report("connection", 0, exc)
                return
            self._on_message(raw)

    def _on_message(self, raw: str) -> None:
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "global_tx":
            newest = max((c.get("time", 0) for c in message.get("completes", [])), default=0)
            if newest:
                self._report("GLOBAL_TX delivery", max(0.0, time.time() * 1000 - newest), None, len(raw))
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
            self._report("MARKET_DEPTH seq", 0, gap, len(raw))

    def _report(self, name: str, ms: float, exc: Exception | None, size: int = 0) -> None:
        self.environment.events.request.fire(request_type="WS", name=name, response_time=ms,
                                             response_length=size, exception=exc, context={})  # fmt: skip


_cache: dict[str, Any] = {}


def _push_url(environment: Environment) -> str:
    if "push" not in _cache:
        url = os.environ.get("LOAD_WS_URL")
        if not url:
            import urllib.request

            with urllib.request.urlopen(f"{environment.host}/api/default/push_address", timeout=10) as answer:
                url = json.load(answer)["data"]["url"]
        _cache["push"] = url
    return _cache["push"]


def _symbols(environment: Environment) -> dict[int, str]:
    if "symbols" not in _cache:
        import urllib.request

        with urllib.request.urlopen(f"{environment.host}/api/market/currency_matches", timeout=10) as answer:
            groups = json.load(answer)["data"]
        _cache["symbols"] = {
            m["id"]: m["symbol"] for group in groups for m in group.get("matches", []) if "symbol" in m
        }
    return _cache["symbols"]


@events.init_command_line_parser.add_listener
def _defaults(parser: Any) -> None:
    parser.set_defaults(host="http://127.0.0.1:8000")
