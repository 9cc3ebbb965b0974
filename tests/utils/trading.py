"""An order stream on LTC/USDT and the invariants of docs/architecture.md "The order path" checked
after it, shared by the chaos and cluster tests.

Invariants: per currency, every balance and lock is what the journal says and trading only moves
funds between users and the fee ledger; each user's lock equals what their open orders hold; no
trade side is settled twice; every order the API accepted is in the database.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
import ray
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from actors.names import wallet_name
from actors.pair.directory import pair_actor
from serve.stack import Stack
from store import lever, micro
from store.ledger import credit
from store.models import Account, AccountLog, AccountType, Currency, FeeLedger, HouseLedger, Order, Trade
from store.spot import OPEN_STATUSES
from tests.utils.users import Member, member

LTC_USDT, LTC, USDT = 3, 4, 1


@dataclass
class Stream:
    """Threads of traders placing (and now and then cancelling) crossing LTC/USDT orders; the first
    ``batches`` threads place theirs three at a time through tx/batch_add and cancel through
    tx/batch_cancel (each accepted order of a batch counts as accepted); the next ``sockets`` send
    theirs three at a time, pipelined, as ``order`` commands on /ws at ``ws_url`` (and cancel there),
    connecting again when their fanout dies. A websocket ack counts as status 200 (code 1), 500 (the
    system error message) or 400 (any other refusal)."""

    api: httpx.Client
    traders: list[Member]
    threads: int = 4
    batches: int = 0
    sockets: int = 0
    ws_url: str = ""
    accepted: list[int] = field(default_factory=list)
    paths: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # accepted orders by entry path
    outcomes: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    refusals: list[dict[str, object]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _running: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        roles = [self._run_socket if self.batches <= i < self.batches + self.sockets else self._run
                 for i in range(self.threads)]  # fmt: skip
        self._running = [threading.Thread(target=role, args=(i < self.batches,)) for i, role in enumerate(roles)]
        for t in self._running:
            t.start()

    def stop(self) -> None:
        self._stop.set()
        for t in self._running:
            t.join(60)

    async def wait_for(self, orders: int, deadline: float) -> None:
        while len(self.accepted) < orders:
            assert time.monotonic() < deadline, f"only {len(self.accepted)} orders accepted: {dict(self.outcomes)}"
            await asyncio.sleep(0.05)

    def _run(self, batched: bool = False) -> None:
        rng = random.Random(threading.get_ident())
        with httpx.Client(base_url=self.api.base_url, timeout=30) as client:
            while not self._stop.is_set():
                who = rng.choice(self.traders)
                buy = self.traders.index(who) % 2 == 0
                body = {
                    "currency_match_id": LTC_USDT,
                    "number": str(Decimal(rng.randint(2, 300)) / 100),  # worth 1 USDT at least (min notional)
                    "price": str(Decimal(rng.randint(8400, 8600)) / 100),
                }
                if batched:
                    self._batch(client, rng, who, body, "buy" if buy else "sell")
                    continue
                answer = client.post("tx_in/add" if buy else "tx_out/add", json=body, headers=who.auth)
                self.outcomes[answer.status_code] += 1
                if answer.status_code == 200:
                    self.accepted.append(answer.json()["data"]["id"])
                    self.paths["rest"] += 1
                else:
                    self.refusals.append(answer.json())
                if rng.random() < 0.15 and self.accepted:
                    order_id = rng.choice(self.accepted)
                    client.post("tx_in/cancel" if buy else "tx_out/cancel", json={"id": order_id}, headers=who.auth)

    def _batch(self, client: httpx.Client, rng: random.Random, who: Member, body: dict[str, str], side: str) -> None:
        orders = [{**body, "side": side, "number": str(Decimal(rng.randint(2, 300)) / 100)} for _ in range(3)]
        answer = client.post("tx/batch_add", json={"orders": orders}, headers=who.auth)
        self.outcomes[answer.status_code] += 1
        if answer.status_code != 200:
            self.refusals.append(answer.json())
            return
        for result in answer.json()["data"]["results"]:
            if result["code"] == 1:
                self.accepted.append(result["data"]["id"])
                self.paths["batch"] += 1
            else:
                self.refusals.append(result)
        if rng.random() < 0.15 and self.accepted:
            client.post("tx/batch_cancel", json={"ids": rng.sample(self.accepted, min(3, len(self.accepted)))},
                        headers=who.auth)  # fmt: skip

    def _run_socket(self, _: bool = False) -> None:
        """Connections one after the other, each logged in as a trader for up to 20 rounds (a fanout
        killed under one ends it early: the next connects again)."""
        rng = random.Random(threading.get_ident())
        while not self._stop.is_set():
            who = rng.choice(self.traders)
            try:
                with connect(self.ws_url, open_timeout=10) as ws:
                    ws.send(json.dumps({"type": "login", "token": who.token}))
                    assert json.loads(ws.recv(timeout=10))["code"] == 1
                    for _ in range(20):
                        if self._stop.is_set():
                            return
                        self._socket_round(ws, rng, who)
            # A fanout killed during the opening handshake closes it before any HTTP answer
            # (InvalidHandshake: "did not receive a valid HTTP response"), as one killed later does.
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                time.sleep(0.2)

    def _socket_round(self, ws: ClientConnection, rng: random.Random, who: Member) -> None:
        side = "buy" if self.traders.index(who) % 2 == 0 else "sell"
        for k in range(3):  # sent back to back: the fanout places them as one batch
            body = {"side": side, "currency_match_id": LTC_USDT, "number": str(Decimal(rng.randint(2, 300)) / 100),
                    "price": str(Decimal(rng.randint(8400, 8600)) / 100)}  # fmt: skip
            ws.send(json.dumps({"type": "order", "id": k, "params": body}))
        for ack in _acks(ws, 3):
            status = 200 if ack["code"] == 1 else 500 if ack["msg"].startswith("System error") else 400
            self.outcomes[status] += 1
            if status == 200:
                self.accepted.append(ack["data"]["id"])
                self.paths["socket"] += 1
            else:
                self.refusals.append(ack)
        if rng.random() < 0.15 and self.accepted:
            ws.send(json.dumps({"type": "cancel", "id": "c", "params": {"id": rng.choice(self.accepted)}}))
            _acks(ws, 1)


def _acks(ws: ClientConnection, count: int) -> list[dict[str, Any]]:
    """The next ``count`` order_acks on ``ws`` (within 30 s each)."""
    found: list[dict[str, Any]] = []
    while len(found) < count:
        message = json.loads(ws.recv(timeout=30))
        if message.get("type") == "order_ack":
            found.append(message)
    return found


async def funded_traders(api: httpx.Client, count: int, tag: str) -> list[Member]:
    """Traders with USDT (even ones, buyers) or LTC (odd ones, sellers) in their change accounts."""
    traders = [member(api) for _ in range(count)]
    ltc, usdt = await Currency.get(id=LTC), await Currency.get(id=USDT)
    for i, m in enumerate(traders):
        currency, amount = (usdt, "100000") if i % 2 == 0 else (ltc, "1000")
        await credit(user_id=m.uid, currency=currency, account_type=AccountType.CHANGE, amount=Decimal(amount),
                     log_type="deposit", ref=f"{tag}:{m.uid}")  # fmt: skip
    return traders


async def quiesce(stack: Stack) -> None:
    """Wait until every pair answers, then finish every settlement and release."""
    deadline = time.monotonic() + 60
    symbols = [s for _, s in stack.pairs]
    while True:
        try:
            for symbol in symbols:  # the live actor of each (a move names the next one)
                await pair_actor(symbol).sweep.remote()
            for i in range(stack.settings.wallet_shards):
                await ray.get_actor(wallet_name(i)).reconcile.remote(0)
            for symbol in symbols:  # a second pass: the first may have raced a restart
                result = await pair_actor(symbol).sweep.remote()
                assert result == {"sides": 0, "releases": 0}, result
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def assert_invariants(accepted: list[int], traders: list[Member]) -> None:
    """Everything docs/architecture.md "The order path" promises after a stream on LTC/USDT (call ``quiesce`` first)."""
    # no accepted order lost
    stored = set(await Order.filter(id__in=accepted).values_list("id", flat=True))
    assert stored == set(accepted)

    # no trade side settled twice or left unsettled
    trades = await Trade.filter(currency_match_id=LTC_USDT).values_list("id", flat=True)
    assert trades, "the stream produced no trade"
    fee_rows = await FeeLedger.filter(trade_id__in=list(trades)).values_list("trade_id", "side")
    assert sorted(fee_rows) == sorted((t, s) for t in trades for s in (1, 2))
    gets = await AccountLog.filter(log_type="trade_get", ref__startswith="t").values_list("ref", flat=True)
    assert len(gets) == len(set(gets))

    # each trader's lock equals what their open orders hold
    uids = [m.uid for m in traders]
    held: dict[tuple[int, int], Decimal] = defaultdict(Decimal)
    for o in await Order.filter(user_id__in=uids, status__in=OPEN_STATUSES):
        consumed = o.transacted_volume if o.way == 1 else o.transacted_amount
        held[(o.user_id, USDT if o.way == 1 else LTC)] += o.frozen - consumed  # type: ignore[attr-defined]
    for account in await Account.filter(user_id__in=uids, account_type=AccountType.CHANGE):
        assert account.lock_balance == held[(account.user_id, account.currency_id)], account  # type: ignore[attr-defined]

    # conservation, per currency, over the whole database (summed in Decimal: SQLite would use floats).
    # Other tests move money in and out too (deposits, conversions, withdrawals), so the check is in two
    # parts: every balance is what its journal says, and trading only moves funds between users and
    # the fee ledger (freezes, releases and both settlement legs sum to minus the fees).
    trading = ("freeze", "release", "trade_pay", "trade_get")
    for currency_id in (LTC, USDT):
        accounts = await Account.filter(currency_id=currency_id).values_list("balance", "lock_balance")
        journal = await AccountLog.filter(currency_id=currency_id).values_list("log_type", "amount", "lock_amount")
        fees = sum(await FeeLedger.filter(currency_id=currency_id).values_list("amount", flat=True), Decimal(0))
        held_total = sum((b + lock for b, lock in accounts), Decimal(0))
        assert held_total == sum((a + lock for _, a, lock in journal), Decimal(0)), currency_id
        moved = sum((a + lock for kind, a, lock in journal if kind in trading), Decimal(0))
        assert moved + fees == 0, currency_id
    # leveraged contracts move funds only between users' lever accounts and the house ledger
    lever_moved = await AccountLog.filter(log_type__in=lever.LOG_TYPES).values_list("amount", "lock_amount")
    house = await HouseLedger.filter(kind__in=lever.HOUSE_KINDS).values_list("amount", flat=True)
    assert sum((a + lock for a, lock in lever_moved), Decimal(0)) + sum(house, Decimal(0)) == 0
    # second contracts likewise, between users' micro accounts and the house's micro rows
    micro_moved = await AccountLog.filter(log_type__in=(micro.STAKE, micro.SETTLE)).values_list("amount", "lock_amount")
    micro_house = await HouseLedger.filter(kind__in=(micro.PNL, micro.FEE)).values_list("amount", flat=True)
    assert sum((a + lock for a, lock in micro_moved), Decimal(0)) + sum(micro_house, Decimal(0)) == 0
