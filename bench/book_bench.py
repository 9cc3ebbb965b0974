"""Throughput of the pure matching core (actors/book) on a realistic mixed stream, on one core.

The stream is built up front from a seeded random generator: ~60 % limit orders placed near the
spread that rest, ~30 % cancels of random live orders, ~10 % orders that cross and fill 1-3
makers. To know which orders are live and which makers a crossing order will meet, the generator
plays the stream on a scratch book; the timed runs replay the same commands on fresh books with
fresh ``Order`` objects, so only ``submit``/``cancel`` are timed ("book only": the orders are built
before the clock starts). A second figure ("+ Order()") builds each ``Order`` inside the timed loop,
as a pair actor turning requests into orders would; the gap is mostly the cyclic garbage collector
walking the growing set of resting orders (measured: with the collector off the gap is ~0.4 us), so
an actor holding a big book may want to tune it (``gc.freeze()`` after restoring the book, larger
thresholds). Both figures run with the interpreter's default GC settings.

A last figure is the cost of one ``depth(20)`` (what every depth push and market/deal reads) on books
of 100, 10,000 and 100,000 levels a side (CPU time): it must not grow with the levels below the top.

    .venv/bin/python bench/book_bench.py [--ops 500000] [--seed 7] [--repeat 3]

``--stream random-limits`` is issue 31's stream instead: ``--ops`` (default 1,000,000) limit orders,
seeded, side at random, prices 1..200 ticks, quantities 1..4 lots, uids 1..1,000, no cancels, built
before the clock. It is played on the checkout's core and on a stated reference, the core of
``--reference`` (a commit, default the main of before issue 31's speed-up) loaded from git into the
same process (``bench/core_at.py``), alternately, ``--repeat`` times; it prints each one's orders/s,
the ratio of every pair of runs and their median, depth(20) on both cores, and what a level born and
emptied at the bottom of a deep book costs each (resting and cancelling one order). Figures are CPU
time of this process, so the load of a shared machine skews them less than the wall clock would:

    .venv/bin/python bench/book_bench.py --stream random-limits --repeat 5 [--reference <commit>]

Prints figures; asserts nothing about time (only that both cores made the same trades).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from actors.book import Order, OrderBook, Side  # noqa: E402
from bench.core_at import load_core, resolve  # noqa: E402

MID = 600_000_000  # 60000.0000 USDT in ticks (4 price decimals)
STEP = 100  # 0.01 USDT between price levels used by the stream
USERS = 1_000
WARMUP_ORDERS = 5_000
REFERENCE = "7c6ac31"  # main before issue 31's speed-up of the core: the sorted-levels core

# A command: (order_id, uid, side, price, qty) to submit, or a bare order id to cancel.
Command = tuple[int, int, int, int, int] | int


class _Live:
    """Ids of resting orders with O(1) add, remove and uniform random pick."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.index: dict[int, int] = {}

    def add(self, oid: int) -> None:
        self.index[oid] = len(self.ids)
        self.ids.append(oid)

    def discard(self, oid: int) -> None:
        i = self.index.pop(oid, None)
        if i is None:
            return
        last = self.ids.pop()
        if last != oid:
            self.ids[i] = last
            self.index[last] = i


def _resting_price(rng: random.Random, book: OrderBook, side: int, mid: int) -> int:
    """A price 0-40 steps behind the touch (mostly close to it) that does not cross."""
    behind = min(int(rng.expovariate(1 / 6)), 40) * STEP
    if side == Side.BUY:
        ask = book.best_ask()
        top = mid - STEP if ask is None else min(mid - STEP, ask - STEP)
        return top - behind
    bid = book.best_bid()
    bottom = mid + STEP if bid is None else max(mid + STEP, bid + STEP)
    return bottom + behind


def _crossing(rng: random.Random, book: OrderBook, side: int, uid: int) -> tuple[int, int] | None:
    """(limit price, qty) of an order that fills the first 1-3 makers on the opposite side."""
    want = rng.randint(1, 3)
    makers: list[Order] = []
    bids, asks = book.depth(3)
    for price, _ in asks if side == Side.BUY else bids:
        makers += book.orders_at(Side.SELL if side == Side.BUY else Side.BUY, price)
        if len(makers) >= want:
            break
    makers = makers[:want]
    if not makers or any(m.uid == uid for m in makers):
        return None
    qty = sum(m.remaining for m in makers[:-1]) + rng.randint(1, makers[-1].remaining)
    return makers[-1].price, qty


def build_stream(n_ops: int, seed: int) -> tuple[list[Command], dict[str, int]]:
    rng = random.Random(seed)
    book = OrderBook()
    live = _Live()
    commands: list[Command] = []
    mix = {"place": 0, "cancel": 0, "cross": 0, "warmup": 0, "trades": 0}
    mid = MID
    oid = 0

    def submit(cmd: tuple[int, int, int, int, int]) -> None:
        result = book.submit(Order(*cmd))
        if len(commands) >= WARMUP_ORDERS:
            mix["trades"] += len(result.fills)
        for fill in result.fills:
            if book.get(fill.maker_order_id) is None:
                live.discard(fill.maker_order_id)
        for maker in result.expired_makers:
            live.discard(maker.order_id)
        if result.resting is not None:
            live.add(cmd[0])
        commands.append(cmd)

    while len(commands) < WARMUP_ORDERS + n_ops:
        warm = len(commands) < WARMUP_ORDERS
        mid += rng.choice((-STEP, 0, 0, STEP)) if rng.random() < 0.05 else 0
        draw = rng.random()
        side = rng.choice((Side.BUY, Side.SELL))
        uid = rng.randrange(1, USERS + 1)
        if not warm and draw < 0.30 and live.ids:
            victim = rng.choice(live.ids)
            book.cancel(victim)
            live.discard(victim)
            commands.append(victim)
            mix["cancel"] += 1
            continue
        if not warm and draw < 0.40:
            cross = _crossing(rng, book, side, uid)
            if cross is not None:
                oid += 1
                submit((oid, uid, side, cross[0], cross[1]))
                mix["cross"] += 1
                continue
        oid += 1
        qty = rng.randint(1_000, 2_000_000)  # 0.001 .. 2 BTC in lots (6 qty decimals)
        submit((oid, uid, side, _resting_price(rng, book, side, mid), qty))
        mix["warmup" if warm else "place"] += 1
    return commands, mix


def timed_run(commands: list[Command], *, build_orders: bool) -> tuple[float, int, int, OrderBook]:
    """Seconds for the commands after the warm-up, trades made, cancels that hit, and the final book.

    With ``build_orders`` the ``Order`` objects are made inside the timed loop, as a pair actor
    turning requests into orders would; otherwise they are made before the clock starts.
    """
    book = OrderBook()
    submit, cancel = book.submit, book.cancel
    for cmd in commands[:WARMUP_ORDERS]:
        submit(Order(*cmd))  # type: ignore[misc]
    rest = commands[WARMUP_ORDERS:]
    trades = hits = 0
    gc.collect()
    if build_orders:
        start = time.perf_counter()
        for cmd in rest:
            if cmd.__class__ is int:
                hits += cancel(cmd) is not None
            else:
                trades += len(submit(Order(*cmd)).fills)  # type: ignore[misc]
        return time.perf_counter() - start, trades, hits, book
    ops = [c if c.__class__ is int else Order(*c) for c in rest]  # type: ignore[misc]
    gc.collect()
    start = time.perf_counter()
    for op in ops:
        if op.__class__ is int:
            hits += cancel(op) is not None
        else:
            trades += len(submit(op).fills)  # type: ignore[arg-type]
    return time.perf_counter() - start, trades, hits, book


def _deep_book(levels: int, core: ModuleType | None) -> tuple[OrderBook, type[Order]]:
    """A book of ``core`` (None: the checkout's) resting ``levels`` bid and ask levels of one order."""
    book_cls, order_cls = (OrderBook, Order) if core is None else (core.OrderBook, core.Order)
    book = book_cls()
    for i in range(levels):
        book.submit(order_cls(2 * i + 1, 1, Side.BUY, MID - (i + 1) * STEP, 1_000))
        book.submit(order_cls(2 * i + 2, 2, Side.SELL, MID + (i + 1) * STEP, 1_000))
    return book, order_cls


def depth_cost(levels: int, shown: int = 20, calls: int = 2_000, core: ModuleType | None = None) -> float:
    """Microseconds of one ``depth(shown)`` on a book resting ``levels`` bid and ask levels: the cost a
    pair pays for every depth push, whatever a spammer piled up below the top. ``core``: another
    ``actors.book`` package (``load_core``) instead of the checkout's."""
    book, _ = _deep_book(levels, core)
    start = time.process_time()
    for _ in range(calls):
        book.depth(shown)
    return (time.process_time() - start) / calls * 1e6


def deep_level_cost(levels: int, calls: int = 2_000, core: ModuleType | None = None) -> float:
    """Microseconds to rest one order at a new price below ``levels`` bid levels and cancel it: a
    level born and emptied at the bottom of the book, the worst place for a sorted list of keys."""
    book, order_cls = _deep_book(levels, core)
    bottom = MID - (levels + 1) * STEP
    orders = [order_cls(2 * levels + 1 + i, 3, Side.BUY, bottom, 1_000) for i in range(calls)]
    submit, cancel = book.submit, book.cancel
    start = time.process_time()
    for order in orders:
        submit(order)
        cancel(order.order_id)
    return (time.process_time() - start) / calls * 1e6


Limit = tuple[int, int, int, int, int]  # (order id, uid, side, price, qty) of issue 31's stream


def random_limits(n: int, seed: int) -> list[Limit]:
    """Issue 31's stream: ``n`` limit orders (id, uid, side, price 1..200 ticks, qty 1..4 lots)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    users = USERS + 1
    return [(oid, randrange(1, users), randrange(1, 3), randrange(1, 201), randrange(1, 5)) for oid in range(1, n + 1)]


def play_limits(core: ModuleType | None, stream: list[Limit]) -> tuple[float, tuple[object, ...]]:
    """CPU seconds (this process's, so other load on the machine does not count) to submit the
    stream to a fresh book of ``core`` (None: the checkout's), its orders built before the clock;
    and what it left (lots traded, orders resting, the whole depth), which both cores must agree on."""
    book_cls, order_cls = (OrderBook, Order) if core is None else (core.OrderBook, core.Order)
    book = book_cls()
    submit = book.submit
    orders = [order_cls(*cmd) for cmd in stream]
    gc.collect()
    start = time.process_time()
    for order in orders:
        submit(order)
    seconds = time.process_time() - start
    traded = sum(o.qty - o.remaining - o.cancelled for o in orders) // 2  # each lot fills a maker and a taker
    return seconds, (traded, len(book), book.depth(1_000))


def compare_random_limits(n: int, seed: int, repeat: int, reference: str) -> None:
    """The checkout's core against the reference core on issue 31's stream, runs alternating."""
    ref_hash = resolve(reference)
    ref_core = load_core(ref_hash)
    stream = random_limits(n, seed)
    rates: dict[str, list[float]] = {"reference": [], "checkout": []}
    done: dict[str, tuple[object, ...]] = {}
    for _ in range(repeat):
        for label, core in (("reference", ref_core), ("checkout", None)):
            seconds, done[label] = play_limits(core, stream)
            rates[label].append(n / seconds)
            gc.collect()
    assert done["reference"] == done["checkout"], "the cores traded differently"
    ratios = [c / r for c, r in zip(rates["checkout"], rates["reference"], strict=True)]
    print(f"python      {platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    traded, resting, _ = done["checkout"]
    print(f"stream      {n:,} random limit orders (seed {seed}): {traded:,} lots traded, {resting:,} left resting")
    print(f"reference   the core of {ref_hash[:12]} (git), loaded beside the checkout's")
    for label in ("reference", "checkout"):
        r = rates[label]
        runs = ", ".join(f"{x:,.0f}" for x in r)
        print(f"{label:<12}median {statistics.median(r):,.0f} orders/s, best {max(r):,.0f} (runs: {runs})")
    print(f"ratio       median {statistics.median(ratios):.3f} (runs: {', '.join(f'{x:.3f}' for x in ratios)})")
    print(f"load avg    {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    for label, core in (("reference", ref_core), ("checkout", None)):
        costs = ", ".join(f"{k:,} levels {depth_cost(k, core=core):.1f} us" for k in (100, 10_000, 100_000))
        print(f"depth(20)   {label}: {costs} a side")
    for label, core in (("reference", ref_core), ("checkout", None)):
        costs = ", ".join(f"{k:,} levels {deep_level_cost(k, core=core):.1f} us" for k in (100, 10_000, 100_000))
        print(f"deep level  {label}: rest and cancel an order below {costs}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", choices=("mixed", "random-limits"), default="mixed")
    parser.add_argument("--ops", type=int, help="500,000 for the mixed stream, 1,000,000 for random-limits")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference", default=REFERENCE, help="random-limits: the commit whose core is the reference")
    args = parser.parse_args()
    if args.stream == "random-limits":
        compare_random_limits(args.ops or 1_000_000, args.seed, args.repeat, args.reference)
        return
    args.ops = args.ops or 500_000

    commands, mix = build_stream(args.ops, args.seed)
    n = len(commands) - WARMUP_ORDERS
    rates: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.repeat):
        for build_orders in (False, True):
            seconds, trades, hits, book = timed_run(commands, build_orders=build_orders)
            assert trades == mix["trades"] and hits == mix["cancel"], "replay diverged from the generator"
            rates[build_orders].append(n / seconds)
    bids, asks = book.depth(1_000_000)
    print(f"python      {platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    print(f"stream      {n:,} ops after {mix['warmup']:,} warm-up orders (seed {args.seed})")
    print("mix         " + ", ".join(f"{k} {mix[k]:,} ({mix[k] / n:.1%})" for k in ("place", "cancel", "cross")))
    print(f"trades      {trades:,} ({trades / max(mix['cross'], 1):.2f} per crossing order); every cancel hit")
    print(f"final book  {len(book):,} orders on {len(bids):,} bid and {len(asks):,} ask levels")
    for build_orders, label in ((False, "book only"), (True, "+ Order()")):
        r = rates[build_orders]
        print(
            f"{label:<12}best {max(r):,.0f} ops/s, median {statistics.median(r):,.0f} ops/s "
            f"over {args.repeat} runs ({1e6 / max(r):.2f} us/op)"
        )
    costs = ", ".join(f"{n:,} levels {depth_cost(n):.1f} us" for n in (100, 10_000, 100_000))
    print(f"depth(20)   {costs} a side")


if __name__ == "__main__":
    main()
