"""Second-contract traders for the load test (issue 12); ``locustfile.py`` runs them with the others."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any

from common import PAIRS, ApiUser, PushSocket, matches, since
from locust import between, task
from locust.exception import StopUser

UP, DOWN = 1, 2
CUSTOM, PRESET = 1, 2  # submit's ``lx``
IN_PROGRESS, CLOSED = 1, 3


class MicroTrader(ApiUser, PushSocket):
    """Moves 5,000 USDT to its micro account, then on the second-contract pairs of ``LOAD_PAIRS`` stakes
    up or down for the two shortest durations (a preset stake or a typed one), at most ``MAX_OPEN``
    at a time; lists its contracts in progress and closed, and now and then fetches a closed one's
    proof (a proof whose verdict does not match the record fails ``CHECK proof verdict``). Its socket
    reports ``WS MICRO_CLOSED delivery``: arrival - the contract's end time."""

    weight = 1
    wait_time = between(1, 3)
    MAX_OPEN = 8

    def on_start(self) -> None:
        self.pairs = [m for m in matches(self.environment) if m["id"] in PAIRS and int(m.get("open_microtrade", 0))
                      and m.get("quote_currency_code") == "USDT"]  # fmt: skip
        if not self.pairs:
            raise StopUser  # no pair of LOAD_PAIRS offers second contracts
        self.sign_up({"USDT": "10000"})
        usdt = self.pairs[0]["quote_currency_id"]
        self.api("POST", "account/transfer", json={"currency_id": usdt, "balance": "5000", "from": "change_account",
                                                   "to": "micro_account"})  # fmt: skip
        stakes = {c["id"]: c for c in self.api("GET", "microtrade/payable_currencies") or []}
        if usdt not in stakes:
            raise StopUser  # USDT is not a stake currency here
        self.currency = usdt
        self.presets = [n["number"] for n in stakes[usdt]["micro_numbers"] if Decimal(n["number"]) <= 100]
        self.durations: dict[int, list[int]] = {}
        for pair in self.pairs:
            offered = self.api("GET", f"microtrade/seconds?match_id={pair['id']}", name="microtrade/seconds") or []
            self.durations[pair["id"]] = sorted(d["seconds"] for d in offered)[:2]
        self.open_count = 0
        self.closed: list[int] = []
        self.open_push(["MICRO_CLOSED"], token=self.token)

    def on_stop(self) -> None:
        self.close_push()

    @task(4)
    def submit(self) -> None:
        pair = random.choice(self.pairs)
        if self.open_count >= self.MAX_OPEN or not self.durations.get(pair["id"]):
            self.in_progress()
            return
        preset = bool(self.presets) and random.random() < 0.5
        number = random.choice(self.presets) if preset else str(random.randint(1, 20))
        body = {"match_id": pair["id"], "currency_id": self.currency, "type": random.choice((UP, DOWN)),
                "lx": PRESET if preset else CUSTOM, "seconds": random.choice(self.durations[pair["id"]]),
                "number": number}  # fmt: skip
        if self.api("POST", "microtrade/submit", json=body):
            self.open_count += 1

    @task(2)
    def in_progress(self) -> None:
        page = self.api("GET", f"microtrade/lists?status={IN_PROGRESS}", name="microtrade/lists in progress") or {}
        self.open_count = int(page.get("total") or 0)

    @task(1)
    def closed_list(self) -> None:
        page = self.api("GET", f"microtrade/lists?status={CLOSED}", name="microtrade/lists closed") or {}
        self.closed = [o["id"] for o in page.get("data") or []]

    @task(1)
    def proof(self) -> None:
        if not self.closed:
            return
        found = self.api("GET", f"microtrade/proof?id={random.choice(self.closed)}", name="microtrade/proof")
        verdict = (found or {}).get("verdict")
        if verdict is not None:
            wrong = None if verdict.get("matches") else RuntimeError(f"verdict {verdict} != the record")
            self.report("proof verdict", 0, wrong, kind="CHECK")

    @task(1)
    def ping(self) -> None:
        self.ping_push()

    def on_push(self, raw: str) -> None:
        message: dict[str, Any] = json.loads(raw)
        if message.get("type") != "micro_closed":
            return
        order = message.get("order") or {}
        end = order.get("end_at") or order.get("accepted_at", 0) + order.get("seconds", 0) * 1000
        self.report("MICRO_CLOSED delivery", since(end), None, len(raw))
        self.open_count = max(0, self.open_count - 1)
