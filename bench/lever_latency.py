"""Mark tick to a liquidation that is durable and pushed: how long a lever account that the market takes
to the liquidation level waits for its LEVER_CLOSED, under the market maker's load (issue 11).

Against a running instance in development mode (``make run`` in another terminal: the market maker
trades every pair, ``/api/dev/credit`` funds accounts). It registers ``--users`` users, each opens one
long on ``--symbol`` at a multiple from 50x to 200x with just its margin and fee (plus ``--spare`` of the
margin) in its lever account, so their liquidation prices lie between about 0.3 % and 1.2 % under the
mark; each user's websocket logs in and subscribes to ``LEVER_CLOSED``. Then ``exchange maker target``
walks the price ``--drop`` down in about 10 s, trading as it goes, and every account is liquidated
on the way, at the tick that took it to the level.

For each liquidation: the tick that caused it (``close_tick_id``, its ``time`` in the tick log: when
the pair computed the mark), when the position's row says it closed (``closed_at``: stamped when the
shard builds the batch, just before its commit), and when its owner's websocket received the push,
which comes after the commit (this machine's wall clock, as the pair's). Prints
p50/p90/p99/max of tick -> durable and tick -> pushed, and how many accounts were liquidated or not.

    .venv/bin/python bench/lever_latency.py [--host http://127.0.0.1:8000] [--users 60] [--symbol BTC/USDT]
                                            [--drop 0.02] [--spare 0.1]

Prints figures; asserts nothing about time. Leaves nothing running (the users it made stay, closed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from decimal import ROUND_DOWN, Decimal
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.utils.users import Member, member, ok  # noqa: E402

MULTIPLES = (50, 100, 200)
Arrivals = dict[int, tuple[float, dict[str, Any]]]  # uid -> (when its push arrived, ms; the position pushed)


def pair_of(api: httpx.Client, symbol: str) -> dict[str, Any]:
    for group in ok(api.get("market/currency_matches")):
        for pair in group["matches"]:
            if pair["symbol"] == symbol:
                return pair
    raise SystemExit(f"no pair {symbol}")


def open_long(api: httpx.Client, m: Member, pair: dict[str, Any], multiple: int, spare: Decimal) -> dict[str, Any]:
    """Fund the user's lever account with one hand's margin and fee (and ``spare`` of the margin), open it."""
    mark = Decimal(ok(api.get("market/mark", params={"currency_match_id": pair["id"]}))["price"])
    value = mark * Decimal("1.01") * Decimal(pair["lever_share_num"])  # above the spread's open price
    need = (value / multiple * (1 + spare) + value * Decimal(pair["lever_fee_rate"])).quantize(Decimal("0.000001"))
    ok(api.post("dev/credit", json={"currency": "USDT", "amount": str(need)}, headers=m.auth))
    ok(api.post("account/transfer", json={"currency_id": pair["quote_currency_id"], "balance": str(need),
                                           "from": 1, "to": 3}, headers=m.auth))  # fmt: skip
    order = {"share": 1, "multiple": multiple, "currency_match_id": pair["id"], "type": 1, "status": 1}
    return ok(api.post("lever/submit", json=order, headers=m.auth))


async def listen(ws_url: str, m: Member, arrived: Arrivals) -> None:
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "login", "token": m.token}))
        await ws.send(json.dumps({"type": "sub", "params": "LEVER_CLOSED"}))
        async for raw in ws:
            message = json.loads(raw)
            if message.get("type") == "lever_closed":
                arrived[m.uid] = (time.time() * 1000, message["position"])
                return


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return f"p50 {pick(0.5):7.1f} ms   p90 {pick(0.9):7.1f} ms   p99 {pick(0.99):7.1f} ms   max {ordered[-1]:7.1f} ms"


def prepare(args: argparse.Namespace) -> tuple[httpx.Client, dict[str, Any], str, list[Member], Decimal]:
    """The users, each with its long open; the push address and the price to walk to."""
    api = httpx.Client(base_url=f"{args.host}/api/", timeout=30)
    pair = pair_of(api, args.symbol)
    ws_url = ok(api.get("default/push_address"))["url"]
    users = [member(api) for _ in range(args.users)]
    spare = Decimal(str(args.spare))
    for i, m in enumerate(users):
        open_long(api, m, pair, MULTIPLES[i % len(MULTIPLES)], spare)
    mark = Decimal(ok(api.get("market/mark", params={"currency_match_id": pair["id"]}))["price"])
    places = Decimal(1).scaleb(-int(pair.get("price_decimals") or 4))
    target = (mark * (1 - Decimal(str(args.drop)))).quantize(places, rounding=ROUND_DOWN)
    multiples = ", ".join(f"{x}x" for x in MULTIPLES)
    print(f"{len(users)} longs on {args.symbol} at {multiples}; mark {mark}, walking to {target}")
    return api, pair, ws_url, users, target


async def liquidate(args: argparse.Namespace, ws_url: str, users: list[Member],
                    target: Decimal) -> Arrivals:  # fmt: skip
    """Each user's socket listening, walk the price, and answer what each received (uid -> time, position)."""
    arrived: Arrivals = {}
    listeners = [asyncio.create_task(listen(ws_url, m, arrived)) for m in users]
    await asyncio.sleep(1)  # the logins and subscriptions reach the fanout
    arrived[0] = (time.time() * 1000, {})  # when the walk began
    command = [str(ROOT / ".venv/bin/exchange"), "maker", "target", args.symbol, str(target)]
    walk = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True)
    print((walk.stdout or walk.stderr).strip())
    await asyncio.wait(listeners, timeout=30)
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    return arrived


def report(api: httpx.Client, pair: dict[str, Any], users: list[Member], arrived: Arrivals) -> None:
    began = arrived.pop(0)[0]
    early = 0  # closed before the walk: the market moved that far while the users were being set up
    for m in users:
        if m.uid not in arrived:
            closed = ok(api.post("lever/my_trade", json={"status": 3}, headers=m.auth))["data"]
            early += sum(1 for p in closed if p["closed_at"] and p["closed_at"] < began)
    now = int(time.time() * 1000)
    window = {"currency_match_id": pair["id"], "from": now - 60_000, "to": now}
    ticks = {t["id"]: t["time"] for t in ok(api.get("market/ticks", params=window))["ticks"]}
    durable, pushed, reasons = [], [], {}
    for received, position in arrived.values():
        reasons[position["close_reason"]] = reasons.get(position["close_reason"], 0) + 1
        at = ticks.get(position.get("close_tick_id") or 0)
        if at is not None:
            durable.append(position["closed_at"] - at)
            pushed.append(received - at)
    seqs = sorted(p["close_tick_id"] & ((1 << 40) - 1) for _, p in arrived.values() if p.get("close_tick_id"))
    print(f"closed {len(arrived)} of {len(users)} ({reasons}), {early} more before the walk began; "
          f"by {len(set(seqs))} ticks, seq {seqs[:1]}..{seqs[-1:]}")  # fmt: skip
    print(f"  tick -> durable (closed_at)       {percentiles(durable)}")
    print(f"  tick -> LEVER_CLOSED received     {percentiles(pushed)}")


def main(args: argparse.Namespace) -> None:
    api, pair, ws_url, users, target = prepare(args)
    arrived = asyncio.run(liquidate(args, ws_url, users, target))
    report(api, pair, users, arrived)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="http://127.0.0.1:8000")
    parser.add_argument("--users", type=int, default=60)
    parser.add_argument("--symbol", default="BTC/USDT")
    parser.add_argument("--drop", type=float, default=0.02, help="how far the price walks down, a fraction")
    parser.add_argument("--spare", type=float, default=0.1, help="free balance beside each margin, a fraction of it")
    main(parser.parse_args())
