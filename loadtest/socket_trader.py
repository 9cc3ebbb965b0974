"""Websocket traders for the load test (issue 15, part 3); ``locustfile.py`` runs them with the others.

Each logs in on its own push socket and sends its orders there (``{"type":"order",...}``), a few at a
time without waiting, and cancels what rests the same way. Every ``order_ack`` is reported as a
``WS_ORDER`` request: ``order ack`` / ``cancel ack`` with the time from sending the command to its
ack, failed when the code is not 1 (a cancel of an order filled meanwhile is a normal outcome), so
the ``order ack`` row's req/s is the websocket path's orders/s next to the REST and batch rows.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

from batch import OrderIdeas
from common import PushSocket
from locust import between, task

BURST = 5  # orders sent back to back per task
GONE = "The order is no longer open"  # a cancel that lost the race against a fill


class SocketTrader(OrderIdeas, PushSocket):
    """Signs up, logs in on the push socket, then trades over it."""

    weight = 1
    wait_time = between(0.5, 2)

    def on_start(self) -> None:
        super().on_start()
        self.sent: dict[str, tuple[float, str]] = {}  # client id -> (sent at, "order" | "cancel")
        self.ids = itertools.count()
        self.open_push([], token=self.token)

    def on_stop(self) -> None:
        self.close_push()

    def _send(self, kind: str, params: dict[str, Any]) -> None:
        client_id = f"{kind[0]}{next(self.ids)}"
        self.sent[client_id] = (time.perf_counter(), kind)
        self.ws.send(json.dumps({"type": kind, "id": client_id, "params": params}))

    @task(4)
    def place(self) -> None:
        for order_id in self._make_room(BURST):
            self._send("cancel", {"id": order_id})
        for _ in range(BURST):
            self._send("order", self._order())

    @task(1)
    def cancel(self) -> None:
        random.shuffle(self.resting)
        ids, self.resting = self.resting[:BURST], self.resting[BURST:]
        for order_id in ids:
            self._send("cancel", {"id": order_id})

    @task(1)
    def ping(self) -> None:
        self.ping_push()

    def on_push(self, raw: str) -> None:
        message = json.loads(raw)
        if message.get("type") != "order_ack" or message.get("id") not in self.sent:
            return
        sent_at, kind = self.sent.pop(message["id"])
        ms = (time.perf_counter() - sent_at) * 1000
        code, msg = message.get("code"), message.get("msg", "")
        fine = code == 1 or (kind == "cancel" and msg == GONE)
        self.report(f"{kind} ack", ms, None if fine else RuntimeError(f"code {code}: {msg}"), len(raw), "WS_ORDER")
        if kind == "order" and code == 1 and message["data"]["status"] in (1, 2):
            self.resting.append(message["data"]["id"])
