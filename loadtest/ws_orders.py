"""Place and cancel orders over the websocket against a running exchange; print orders/s and acks.

    .venv/bin/python loadtest/ws_orders.py [--host http://127.0.0.1:8000] [--orders 10000]
        [--connections 4] [--window 64] [--rate 450] [--pair 1]

Against ``make run`` (development mode: users sign up with the dev outbox and fund themselves with
``dev/credit``): each connection is a new user who logs in on its own socket and keeps up to
``--window`` commands in flight at ``--rate`` a second at most (the server allows ``ws_order_rate``,
500 a second, and ``ws_order_in_flight``, 64 waiting, by default, per connection). Every order is a
resting limit order a little away from the pair's price, bought and sold in turn, and is cancelled as
soon as its ack arrives; so the run places ``--orders`` orders and cancels each of them. Prints, for
orders and for cancels: how many were accepted and refused (with the reasons), commands a second, and
p50 / p99 / max ack latency. Ends with the users' balances checked: nothing still locked.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

PASSWORD = "Load12345"


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)

    def line(self, name: str, seconds: float) -> str:
        lat = sorted(self.latencies)

        def at(q: float) -> float:
            return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

        return (f"{name:<8} {len(lat):>7} accepted {sum(self.refused.values()):>6} refused   "
                f"{len(lat) / seconds:8.1f} /s   ack p50 {at(0.50):6.1f} ms   p99 {at(0.99):6.1f} ms   "
                f"max {lat[-1] * 1000 if lat else float('nan'):7.1f} ms")  # fmt: skip


async def sign_up(api: httpx.AsyncClient) -> str:
    """A new e-mail user (code from the dev outbox), logged in and funded; answers the token."""
    email = f"wsload-{uuid.uuid4().hex[:12]}@example.com"

    async def call(method: str, path: str, **kw: Any) -> Any:
        body = (await api.request(method, path, **kw)).json()
        if body.get("code") != 1:
            raise RuntimeError(f"{path}: {body.get('msg')} (is the exchange in development mode?)")
        return body["data"]

    await call("POST", "notify/send_email", json={"to": email, "type": 1})
    code = (await call("GET", "dev/outbox", params={"to": email}))[0]["code"]
    await call("POST", "user/register", json={"type": "email", "account": email, "password": PASSWORD,
                                              "re_password": PASSWORD, "sms_code": code})  # fmt: skip
    token = (await call("POST", "user/login", json={"account": email, "password": PASSWORD}))["token"]
    for currency, amount in (("USDT", "100000000"), ("BTC", "10000"), ("ETH", "100000")):
        await call(
            "POST", "dev/credit", json={"currency": currency, "amount": amount}, headers={"Authorization": token}
        )
    return str(token)


class Connection:
    """One user's socket: sends orders paced to ``rate``, cancels each accepted order at its ack."""

    def __init__(self, ws: ClientConnection, orders: int, window: int, rate: float, pair: int, mid: Decimal) -> None:
        self.ws, self.orders, self.rate, self.pair, self.mid = ws, orders, rate, pair, mid
        self.slots = asyncio.Semaphore(window)
        self.sent: dict[str, tuple[float, str]] = {}  # client id -> (sent at, "order" | "cancel")
        self.placed, self.cancelled = Tally(), Tally()
        self.done = asyncio.Event()
        self.open = 0  # orders placed and not yet cancelled (or refused)
        self.started = time.monotonic()
        self.pace = 0.0  # when the next command may go

    async def send(self, kind: str, client_id: str, params: dict[str, Any]) -> None:
        await self.slots.acquire()
        now = time.monotonic()
        self.pace = max(self.pace + 1 / self.rate, now)
        if self.pace > now:
            await asyncio.sleep(self.pace - now)
        self.sent[client_id] = (time.monotonic(), kind)
        await self.ws.send(json.dumps({"type": kind, "id": client_id, "params": params}))

    async def place_all(self) -> None:
        for k in range(self.orders):
            buy = k % 2 == 0
            away = Decimal(1) + Decimal(20 + k % 200) / 1000  # 2-22 % from the price: rests, never trades
            price = (self.mid / away if buy else self.mid * away).quantize(Decimal("0.01"))
            number = (Decimal(20) / price).quantize(Decimal("0.0001"), rounding="ROUND_UP")  # about 20 USDT
            self.open += 1
            await self.send("order", f"o{k}", {"side": "buy" if buy else "sell", "currency_match_id": self.pair,
                                               "price": str(price), "number": str(number)})  # fmt: skip

    async def read_acks(self) -> None:
        while not (self.open == 0 and len(self.sent) == 0 and self.placed_all):
            message = json.loads(await self.ws.recv())
            if message.get("type") != "order_ack":
                continue
            sent_at, kind = self.sent.pop(message["id"])
            self.slots.release()
            tally = self.placed if kind == "order" else self.cancelled
            if message["code"] == 1:
                tally.latencies.append(time.monotonic() - sent_at)
            else:
                tally.refused[message["msg"]] += 1
            if kind == "order" and message["code"] == 1:
                order_id = message["data"]["id"]
                asyncio.get_running_loop().create_task(self.send("cancel", f"c{order_id}", {"id": order_id}))
            else:
                self.open -= 1

    placed_all = False

    async def run(self) -> None:
        reader = asyncio.create_task(self.read_acks())
        await self.place_all()
        self.placed_all = True
        await reader


async def main(args: argparse.Namespace) -> None:
    async with httpx.AsyncClient(base_url=f"{args.host.rstrip('/')}/api/", timeout=30) as api:
        push = (await api.get("default/push_address")).json()["data"]["url"]
        deal = (await api.get("market/deal", params={"currency_match_id": args.pair})).json()["data"]
        mid = Decimal(str((deal.get("mark") or {}).get("price") or deal["quotation"]["close"]))
        tokens = await asyncio.gather(*(sign_up(api) for _ in range(args.connections)))
        print(f"{args.connections} users signed up and funded; push at {push}; pair {args.pair} near {mid}")
        share = [
            args.orders // args.connections + (i < args.orders % args.connections) for i in range(args.connections)
        ]
        sockets = [await connect(push, max_queue=None) for _ in tokens]
        try:
            for ws, token in zip(sockets, tokens, strict=True):
                await ws.send(json.dumps({"type": "login", "token": token}))
                while json.loads(await ws.recv()).get("type") != "login":
                    pass
            lines = [
                Connection(ws, n, args.window, args.rate, args.pair, mid) for ws, n in zip(sockets, share, strict=True)
            ]
            started = time.monotonic()
            await asyncio.gather(*(line.run() for line in lines))
            seconds = time.monotonic() - started
        finally:
            for ws in sockets:
                await ws.close()
        placed, cancelled = Tally(), Tally()
        for line in lines:
            for mine, total in ((line.placed, placed), (line.cancelled, cancelled)):
                total.latencies += mine.latencies
                total.refused.update(mine.refused)
        print(f"{args.orders} orders over {args.connections} connections in {seconds:.1f} s "
              f"(window {args.window}, at most {args.rate:g}/s each):")  # fmt: skip
        print("  " + placed.line("orders", seconds))
        print("  " + cancelled.line("cancels", seconds))
        print(f"  commands (orders + cancels): {(len(placed.latencies) + len(cancelled.latencies)) / seconds:.1f} /s")
        for name, tally in (("orders", placed), ("cancels", cancelled)):
            for why, count in tally.refused.most_common(5):
                print(f"  {name} refused {count}x: {why}")
        locked = Decimal(0)
        for token in tokens:
            groups = (await api.get("account/list", headers={"Authorization": token})).json()["data"]
            locked += sum(Decimal(a["lock_balance"]) for g in groups for a in g["accounts"])
        print(f"  still locked after the run: {locked} (0 when every order was cancelled)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="http://127.0.0.1:8000")
    parser.add_argument("--orders", type=int, default=10_000)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--window", type=int, default=64, help="commands in flight per connection (server: 64)")
    parser.add_argument("--rate", type=float, default=450.0, help="commands a second per connection, at most")
    parser.add_argument("--pair", type=int, default=1, help="currency_match_id (1: BTC/USDT)")
    asyncio.run(main(parser.parse_args()))
