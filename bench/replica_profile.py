"""Where an API replica's Python goes on a REST order: the app of ``serve.app`` run in this process
(connected to the stack it starts, as a Serve replica is), driven through httpx's ASGI transport under
cProfile, no-op and REST orders one after the other.

A replica's own profile is hard to take (py-spy sees few samples in a Ray worker and ``--native``
does not attach), and the replica's event-loop thread is the largest single share of a REST order's
CPU (docs/performance.md §1). This runs the same app, dependencies, Redis and actor calls in a process
cProfile can see; it leaves out Serve's proxy and the replica's request plumbing, which the no-op
phase of bench/serve_bench.py measures.

    .venv/bin/python bench/replica_profile.py [--orders 2000] [--concurrency 16] [--top 40] [--reset]

Prints, per phase, the requests, the CPU per request of this process and the functions by own time
and by cumulative time. Asserts nothing. Every process it starts is stopped before it exits.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import itertools
import pstats
import resource
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from harness import OrderMaker, api_base, lift_open_order_cap, make_bots, print_machine, running_stack


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def phase(name: str, n: int, concurrency: int, call: Callable[[int], Awaitable[httpx.Response]],
                top: int) -> None:  # fmt: skip
    """``n`` calls at ``concurrency`` under cProfile; prints the figures and the profile."""
    counter = itertools.count()
    failures: dict[str, int] = {}

    async def worker(index: int) -> None:
        while next(counter) < n:
            r = await call(index)
            body = r.json()
            if r.status_code != 200 or body.get("code") != 1:
                why = f"HTTP {r.status_code}: {str(body.get('msg'))[:60]}"
                failures[why] = failures.get(why, 0) + 1

    profile = cProfile.Profile()
    cpu0, t0 = cpu_seconds(), time.monotonic()
    profile.enable()
    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    profile.disable()
    cpu, wall = cpu_seconds() - cpu0, time.monotonic() - t0
    print(f"\n=== {name}: {n} requests in {wall:.1f} s, {n / wall:.0f}/s; this process's CPU "
          f"{cpu * 1000 / n:.2f} ms a request (under cProfile); failures {failures or 'none'}")  # fmt: skip
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).strip_dirs().sort_stats(key).print_stats(top)
        print(f"--- by {key}\n" + out.getvalue().split("\n", 6)[-1], flush=True)


async def run(stack: Any, args: argparse.Namespace) -> None:
    from serve.app import create_app

    settings = stack.settings
    async with httpx.AsyncClient(base_url=api_base(settings), timeout=60) as outside:
        bots = await make_bots(settings, outside, args.concurrency * 2)
    await lift_open_order_cap(settings)
    app = create_app(settings)
    maker = OrderMaker(seed=7)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://replica/api/", timeout=60) as client:
            turns = itertools.count()

            def noop(index: int) -> Awaitable[httpx.Response]:
                return client.post("dev/noop", json={})

            def order(index: int) -> Awaitable[httpx.Response]:
                path, body = maker.next()
                bot = bots[(index + args.concurrency * (next(turns) % 2)) % len(bots)]
                return client.post(path, json=body, headers=bot.auth)

            await phase("warm-up (orders, not profiled below)", 200, args.concurrency, order, 0)
            await phase("noop", args.orders, args.concurrency, noop, args.top)
            await phase("orders", args.orders, args.concurrency, order, args.top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--orders", type=int, default=2000, help="requests per phase")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--top", type=int, default=40, help="functions printed per ordering")
    parser.add_argument("--reset", action="store_true", help="drop DATABASE_URL's schema and flush REDIS_URL first")
    args = parser.parse_args()
    with running_stack(reset=args.reset) as stack:
        print_machine(stack.settings)
        asyncio.run(run(stack, args))


if __name__ == "__main__":
    main()
