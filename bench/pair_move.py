"""The pause of moving a pair between nodes while orders stream in, and what callers feel of it.

Starts the stack on a local cluster of two Ray nodes (as the test session does: embedded SQLite and
Redis in a temporary directory, or DATABASE_URL / REDIS_URL when set), funds bots, and has
``--concurrency`` workers place BTC/USDT limit orders back to back (about 10 % crossing) through the
API. Every ``--every`` seconds it moves BTC/USDT to the other node (``PairPlacement.move``), and
prints per move the pause (first refused command to the new actor taking commands), the drain
(the old actor committing what it had queued), the orders its tail handed over (committed after the
standby read the book) and the warm standby's start and load (before the pause),
then the order latency outside and across the moves and the number of failed orders (the engine
holds commands through a pause: expected 0).

    .venv/bin/python bench/pair_move.py [--moves 10] [--every 3] [--concurrency 16] [--reset]

Prints figures; asserts nothing about time. Every process it starts is stopped before it exits.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from harness import OrderMaker, api_base, make_bots, print_machine, running_stack  # noqa: E402
from measure import pct  # noqa: E402

SYMBOL = "BTC/USDT"


async def run(stack: Any, args: argparse.Namespace) -> None:
    import ray

    from actors.names import PLACEMENT_NAME

    placement = ray.get_actor(PLACEMENT_NAME)
    limits = httpx.Limits(max_connections=args.concurrency + 4)
    async with httpx.AsyncClient(base_url=api_base(stack.settings), timeout=60, limits=limits) as client:
        bots = await make_bots(stack.settings, client, args.bots or args.concurrency * 4)
        maker = OrderMaker(seed=11, cross=True)
        done: list[tuple[float, float, bool]] = []  # (sent, answered, ok)
        errors: dict[str, int] = {}
        stop = asyncio.Event()

        async def worker(index: int) -> None:
            mine = bots[index :: args.concurrency]
            turn = 0
            while not stop.is_set():
                path, body = maker.next()
                bot = mine[turn % len(mine)]
                turn += 1
                t0 = time.monotonic()
                try:
                    r = await client.post(path, json=body, headers=bot.auth)
                    good = r.status_code == 200 and r.json().get("code") == 1
                    why = "" if good else f"HTTP {r.status_code}: {r.json().get('msg', '')[:60]}"
                except Exception as exc:  # report, never crash the run
                    good, why = False, type(exc).__name__
                done.append((t0, time.monotonic(), good))
                if not good:
                    errors[why] = errors.get(why, 0) + 1

        async def mover() -> list[tuple[float, dict[str, Any]]]:
            rows = {r["symbol"]: r for r in await placement.pairs.remote()}
            nodes = sorted({n["NodeName"] for n in ray.nodes() if n["Alive"]})
            here = rows[SYMBOL]["node"]
            reports = []
            await asyncio.sleep(args.every)
            for _ in range(args.moves):
                target = next(n for n in nodes if n != here)
                began = time.monotonic()
                report = await placement.move.remote(SYMBOL, target)
                reports.append((began, report))
                here = target
                print(f"  {report.get('from')} -> {report.get('to')}: pause {report.get('pause_ms')} ms, "
                      f"drain {report.get('drain_ms')} ms, {report.get('open_orders')} open orders, "
                      f"tail {report.get('tail_orders')} orders, "
                      + ("a commit in flight, " if report.get("in_flight") else "")
                      + f"book matches the database: {report.get('matches_database')}"
                      + (f"  ERROR {report['error']}" if "error" in report else ""), flush=True)  # fmt: skip
                await asyncio.sleep(args.every)
            stop.set()
            return reports

        print(f"{len(bots)} bots; {args.concurrency} workers placing orders; moving {SYMBOL} {args.moves} times")
        workers = [asyncio.create_task(worker(i)) for i in range(args.concurrency)]
        reports = await mover()
        await asyncio.gather(*workers)

    pauses = sorted(r["pause_ms"] for _, r in reports if "pause_ms" in r)
    drains = sorted(r["drain_ms"] for _, r in reports if "drain_ms" in r)
    standbys = sorted(r["standby_ms"] for _, r in reports if "standby_ms" in r)
    windows = [
        (began + r["standby_ms"] / 1000, began + (r["standby_ms"] + r["pause_ms"]) / 1000 + 0.5)
        for began, r in reports
        if "pause_ms" in r and "standby_ms" in r
    ]
    across = sorted(t1 - t0 for t0, t1, ok in done if ok and any(t0 < end and t1 > start for start, end in windows))
    outside = sorted(t1 - t0 for t0, t1, ok in done if ok and not any(t0 < e and t1 > s for s, e in windows))
    print()
    print(f"results ({args.moves} moves of {SYMBOL} between 2 nodes, {args.concurrency} workers):")
    for name, ms in (("pause", pauses), ("drain", drains), ("standby start + load (before)", standbys)):
        print(f"  {name:<32} p50 {pct(ms, 50):7.1f} ms   p99 {pct(ms, 99):7.1f} ms   "
              f"max {ms[-1] if ms else float('nan'):7.1f} ms")  # fmt: skip
    for name, lat in (("orders outside moves", outside), ("orders across a move", across)):
        print(f"  {name:<21} {len(lat):>6}   p50 {pct(lat, 50) * 1000:7.1f} ms   p99 {pct(lat, 99) * 1000:7.1f} ms   "
              f"max {(lat[-1] if lat else float('nan')) * 1000:7.1f} ms")  # fmt: skip
    print(f"  failed orders: {sum(errors.values())} {errors or ''}")
    print(f"  moves whose pause met a commit in flight: {sum(bool(r.get('in_flight')) for _, r in reports)}")
    print(f"  every move checked against the database: {all(r.get('matches_database') for _, r in reports)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between moves")
    parser.add_argument("--concurrency", type=int, default=16)
    # Most orders rest: with 2 bots a worker, 20 moves 2 s apart passed a bot's 200 open orders on a
    # pair (max_open_orders) and the refusals read as failures; 4 a worker stay below it.
    parser.add_argument("--bots", type=int, default=0, help="users placing orders (default: 4 per worker)")
    parser.add_argument("--reset", action="store_true", help="wipe DATABASE_URL's schema and REDIS_URL's db first")
    args = parser.parse_args()
    if args.reset and not (os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL")):
        parser.error("--reset only applies with DATABASE_URL or REDIS_URL set")
    with running_stack(reset=args.reset, ray_local_nodes=2) as stack:
        print_machine(stack.settings)
        asyncio.run(run(stack, args))


if __name__ == "__main__":
    main()
