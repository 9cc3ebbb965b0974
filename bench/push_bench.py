"""Order acknowledgement to MARKET_DEPTH delivery at every one of 1,000 websocket subscribers.

Starts the stack in this process as bench/serve_bench.py does (embedded SQLite and Redis in a
temporary directory, or DATABASE_URL / REDIS_URL when set), opens ``--subscribers`` websocket
clients (websockets.asyncio.client, spread over ``--procs`` client processes) to the Fanout at
``ws://…/ws`` that each subscribe to ``MARKET_DEPTH.BTC/USDT``, then places ``--orders`` limit
orders through the API one at a time, paced at ``--rate`` per second, resting around a mid price
(alternating sides) so each one changes the book.

Every order is its own PairActor batch (one order in flight at a time, no market maker), so the
depth sequence number before order k is ``seq0 + k`` (``seq0`` read from /api/market/deal before the
first order; checked again after the last). For each order and each subscriber the delivery is
the arrival of the first ``market_depth`` message with ``depth.seq`` newer than that; the script
reports p50/p90/p99/max over all (order, subscriber) deliveries measured from the HTTP
acknowledgement (response received) and from the request send, and how many were missed (no
newer message by the end). A negative ack-to-delivery time means the push arrived before the
HTTP answer.

    .venv/bin/python bench/push_bench.py [--subscribers 1000] [--orders 200] [--rate 20]
        [--procs 2] [--no-compression] [--reset]

Arrival times are taken with CLOCK_MONOTONIC (shared by every process on the machine) when a
client coroutine receives the message, so they include the client's own queueing; the client
processes' CPU use is printed next to the figures. Prints figures; asserts nothing about time.
Every process it starts (client processes, Ray, Serve, actors, embedded Redis) is stopped before it
exits.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import multiprocessing as mp
import os
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from harness import BTC_USDT, OrderMaker, api_base, make_bots, print_machine, raise_fd_limit, running_stack  # noqa: E402
from measure import CpuWindow, pct  # noqa: E402

CHANNEL = "MARKET_DEPTH.BTC/USDT"
SEQ_KEY = b'"seq":'
DEPTH_TYPE = b'"type":"market_depth"'


def depth_seq(data: bytes) -> int | None:
    """``depth.seq`` of a market_depth message, or None for any other message (cheap: no JSON parse)."""
    if DEPTH_TYPE not in data:
        return None
    i = data.find(SEQ_KEY)
    if i < 0:
        return None
    i += len(SEQ_KEY)
    j = i
    while j < len(data) and 48 <= data[j] <= 57:
        j += 1
    return int(data[i:j]) if j > i else None


# -- client processes ------------------------------------------------------------------------------


async def _subscribers(url: str, count: int, compression: str | None, pipe: Connection) -> None:
    from websockets.asyncio.client import ClientConnection, connect

    arrivals: list[list[tuple[float, int]]] = [[] for _ in range(count)]
    conns: list[ClientConnection | None] = [None] * count
    failures: dict[str, int] = {}
    closed_early = 0
    target: list[int | None] = [None]
    done = asyncio.Event()
    sem = asyncio.Semaphore(50)

    async def open_one(i: int) -> None:
        for attempt in range(5):
            try:
                async with sem:
                    ws = await connect(url, compression=compression, open_timeout=30, max_queue=None)
                    await ws.send(json.dumps({"type": "sub", "params": CHANNEL}))
                    while True:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        if reply.get("type") == "sub":
                            break
                if reply.get("code") != 1:
                    raise RuntimeError(f"sub refused: {reply}")
                conns[i] = ws
                return
            except Exception as exc:
                if "ws" in locals():
                    with contextlib.suppress(Exception):
                        await ws.close()
                key = f"{type(exc).__name__}: {str(exc)[:60]}"
                failures[key] = failures.get(key, 0) + 1
                await asyncio.sleep(0.2 * (attempt + 1))

    async def listen(i: int, ws: ClientConnection) -> None:
        nonlocal closed_early
        mine = arrivals[i]
        try:
            while True:
                data = await ws.recv(decode=False)
                t = time.monotonic()
                seq = depth_seq(data)
                if seq is not None:
                    mine.append((t, seq))
                    goal = target[0]
                    if goal is not None and seq >= goal:
                        caught_up.add(i)
                        if len(caught_up) >= live:
                            done.set()
        except Exception:
            closed_early += 1

    t0 = time.monotonic()
    await asyncio.gather(*(open_one(i) for i in range(count)))
    live = sum(c is not None for c in conns)
    caught_up: set[int] = set()
    tasks = [asyncio.create_task(listen(i, ws)) for i, ws in enumerate(conns) if ws is not None]
    pipe.send({"ready": live, "open_seconds": time.monotonic() - t0, "failures": failures})

    loop = asyncio.get_running_loop()
    cpu0 = time.process_time()
    goal, wait = await loop.run_in_executor(None, pipe.recv)  # (final seq, seconds to wait for it)
    target[0] = goal
    for i, c in enumerate(conns):
        if c is not None and any(seq >= goal for _, seq in arrivals[i][-3:]):
            caught_up.add(i)
    if len(caught_up) >= live:
        done.set()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(done.wait(), wait)
    cpu = time.process_time() - cpu0
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(c.close() for c in conns if c is not None), return_exceptions=True)
    pipe.send({"arrivals": [arrivals[i] for i, c in enumerate(conns) if c is not None], "cpu": cpu,
               "closed_early": closed_early})  # fmt: skip
    await loop.run_in_executor(None, pipe.recv)  # live until the parent has read our CPU use in /proc


def subscriber_process(url: str, count: int, compression: str | None, pipe: Connection) -> None:
    """A client process: ``count`` subscribers; reports arrivals through ``pipe``."""
    raise_fd_limit(count + 256)
    runner()(_subscribers(url, count, compression, pipe))


def runner() -> Any:
    """uvloop's ``run`` when installed (as under Ray Serve), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


# -- the run -----------------------------------------------------------------------------------------


async def receive(pipe: Connection, limit: float) -> Any:
    """The next message from a client process, or RuntimeError if it sends none in ``limit`` s."""
    loop = asyncio.get_running_loop()
    if not await loop.run_in_executor(None, pipe.poll, limit):
        raise RuntimeError(f"a subscriber process sent nothing for {limit:g} s")
    return pipe.recv()


async def place_orders(
    client: httpx.AsyncClient, bots: list[Any], count: int, rate: float, cross: bool
) -> list[tuple[float, float, bool]]:
    """Place ``count`` orders one at a time, one every 1/rate s; (send, ack, ok) per order."""
    maker = OrderMaker(seed=11, cross=cross)
    out: list[tuple[float, float, bool]] = []
    start = time.monotonic()
    for k in range(count):
        await asyncio.sleep(max(0.0, start + k / rate - time.monotonic()))
        path, body = maker.next()
        t_send = time.monotonic()
        r = await client.post(path, json=body, headers=bots[k % len(bots)].auth)
        t_ack = time.monotonic()
        good = r.status_code == 200 and r.json().get("code") == 1
        if not good:
            print(f"  order {k} refused: {r.status_code} {r.text[:120]}")
        out.append((t_send, t_ack, good))
    return out


async def depth_seq_now(client: httpx.AsyncClient) -> int:
    r = await client.get("market/deal", params={"currency_match_id": BTC_USDT})
    return int(r.json()["data"]["depth"]["seq"])


def summarize(label: str, values: list[float]) -> str:
    v = sorted(values)
    if not v:
        return f"{label:<34} (no deliveries)"
    ms = [x * 1000 for x in (pct(v, 50), pct(v, 90), pct(v, 99), pct(v, 99.9), v[-1])]
    return (f"{label:<34} p50 {ms[0]:7.1f}  p90 {ms[1]:7.1f}  p99 {ms[2]:7.1f}  p99.9 {ms[3]:7.1f}  "
            f"max {ms[4]:7.1f} ms")  # fmt: skip


async def run(stack: Any, args: argparse.Namespace, procs: list[tuple[Any, Connection]]) -> None:
    settings = stack.settings
    async with httpx.AsyncClient(base_url=api_base(settings), timeout=60) as client:
        bots = await make_bots(settings, client, 4)
        print(f"{len(bots)} bots created, logged in and funded")

        ready = [await receive(pipe, 300) for _, pipe in procs]
        live = sum(r["ready"] for r in ready)
        failures: dict[str, int] = {}
        for r in ready:
            for k, n in r["failures"].items():
                failures[k] = failures.get(k, 0) + n
        took = max([r["open_seconds"] for r in ready], default=0.0)
        print(f"{live} of {args.subscribers} subscribers connected and subscribed in {took:.1f} s"
              + (f" (retried failures: {failures})" if failures else ""))  # fmt: skip
        await asyncio.sleep(1.0)  # the Fanout subscribes upstream asynchronously

        seq0 = await depth_seq_now(client)
        cpu = CpuWindow()
        cpu.start()
        placed = await place_orders(client, bots, args.orders, args.rate, args.cross)
        t_last = time.monotonic()
        seq_end = await depth_seq_now(client)
        goal = seq0 + args.orders
        for _, pipe in procs:
            pipe.send((goal, args.grace))
        results = [await receive(pipe, args.grace + 120) for _, pipe in procs]
        cpu.stop()
        for _, pipe in procs:
            pipe.send("bye")
        window = time.monotonic() - cpu.t0

    arrivals = [a for r in results for a in r["arrivals"]]
    acks = sorted(t_ack - t_send for t_send, t_ack, _ in placed)
    from_ack: list[float] = []
    from_send: list[float] = []
    missed = gaps = 0
    first_last: list[list[float]] = [[float("inf"), float("-inf")] for _ in placed]
    for conn in arrivals:
        times = [t for t, _ in conn]
        running_max: list[int] = []
        top = -1
        for _, seq in conn:
            top = max(top, seq)
            running_max.append(top)
        seen = {seq for _, seq in conn}
        for k, (t_send, t_ack, _) in enumerate(placed):
            base = seq0 + k
            i = bisect.bisect_right(running_max, base)
            if i == len(conn):
                missed += 1
                continue
            if base + 1 not in seen:
                gaps += 1
            from_ack.append(times[i] - t_ack)
            from_send.append(times[i] - t_send)
            span = first_last[k]
            span[0], span[1] = min(span[0], times[i]), max(span[1], times[i])

    refused = sum(not ok for *_, ok in placed)
    total = len(placed) * len(arrivals)
    client_cpu = sum(r["cpu"] for r in results)
    closed = sum(r["closed_early"] for r in results)
    print()
    mode = "no compression" if args.no_compression else "permessage-deflate as negotiated by default"
    crossing = ", ~10 % crossing" if args.cross else ""
    achieved = (len(placed) - 1) / max(placed[-1][0] - placed[0][0], 1e-9) if len(placed) > 1 else 0.0
    print(f"results: {len(arrivals)} subscribers to {CHANNEL} ({mode}), {args.procs} client process(es); "
          f"{len(placed)} orders paced at {args.rate:g}/s, one in flight at a time: {achieved:.1f}/s achieved "
          f"({refused} refused){crossing}")  # fmt: skip
    print(f"  depth seq {seq0} -> {seq_end} (expected {goal}{'' if seq_end == goal else ': NOT one batch per order'})")
    print("  " + summarize("HTTP order round trip (send->ack)", acks))
    print("  " + summarize("ack  -> MARKET_DEPTH delivery", from_ack))
    print("  " + summarize("send -> MARKET_DEPTH delivery", from_send))
    print("  " + summarize("first -> last subscriber per order", [b - a for a, b in first_last if b >= a]))
    early = sum(x < 0 for x in from_ack)
    share = early / max(len(from_ack), 1) * 100
    print(f"  deliveries {len(from_ack)} of {total}; missed {missed}; delivered with a skipped seq {gaps}; "
          f"push before HTTP ack {early} ({share:.1f} %); connections lost {closed}")  # fmt: skip
    p99 = pct(sorted(from_ack), 99)
    verdict = "met" if p99 <= 0.1 and missed == 0 else "NOT met"
    print(f"  target ack -> delivery p99 <= 100 ms with 1,000 subscribers: {verdict} "
          f"(p99 {p99 * 1000:.1f} ms with {len(arrivals)} subscribers)")  # fmt: skip
    print(f"  client processes used {client_cpu / window:.2f} cores over the {window:.1f} s window "
          f"(last ack at +{t_last - cpu.t0:.1f} s)")  # fmt: skip
    print(f"  CPU from the first order until every subscriber had the last push ({window:.1f} s; "
          f"ms CPU per order):")  # fmt: skip
    print(cpu.report(per_second=len(placed) / window))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--orders", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0, help="orders per second (one in flight at a time)")
    parser.add_argument("--procs", type=int, default=min(2, os.cpu_count() or 1), help="client processes")
    parser.add_argument("--grace", type=float, default=15.0, help="seconds to wait for the last push")
    parser.add_argument("--cross", action="store_true", help="about 10 %% of the orders cross the spread")
    parser.add_argument("--no-compression", action="store_true", help="clients do not offer permessage-deflate")
    parser.add_argument("--reset", action="store_true", help="wipe DATABASE_URL's schema and REDIS_URL's db first")
    args = parser.parse_args()
    if args.reset and not (os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL")):
        parser.error("--reset only applies with DATABASE_URL or REDIS_URL set")
    raise_fd_limit(args.subscribers + 1024)  # Ray, so the Fanout actor, inherits this limit

    ctx = mp.get_context("spawn")
    procs: list[tuple[Any, Connection]] = []
    try:
        with running_stack(reset=args.reset) as stack:
            print_machine(stack.settings)
            url = f"ws://{stack.settings.http_host}:{stack.settings.ws_port}/ws"
            compression = None if args.no_compression else "deflate"
            share = [args.subscribers // args.procs + (i < args.subscribers % args.procs) for i in range(args.procs)]
            for n in share:
                mine, theirs = ctx.Pipe()
                p = ctx.Process(target=subscriber_process, args=(url, n, compression, theirs), daemon=True)
                p.start()
                procs.append((p, mine))
            runner()(run(stack, args, procs))
    finally:
        for p, _ in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)


if __name__ == "__main__":
    main()
