"""What a mark tick costs the lever core (actors/lever: ``LeverBook.on_tick`` and its ``TriggerBook``s)
with 100,000 open positions, each with a take-profit and a stop-loss, over 10,000 users on 4 pairs.

Two layouts of the same positions:

- ``one pair``: each user's 10 positions are on one pair (2,500 users per pair);
- ``cross``: each user's 10 positions are spread over 2 to 4 pairs (cross margin across pairs: each
  account's liquidation price on a pair is armed with its other pairs at the edge of a 1 % band, and
  re-armed when a mark leaves a band or a conservative price is crossed; actors/lever/book.py).

Positions: random side, 1-20 hands, multiple 5/10/20, open within 1 % of the mark, TP and SL 2-20 %
away from the open price; each account's free balance is twice its margins, so liquidation prices
lie 12-50 % away. Timed around one call, the interpreter's default GC, as wall time
(``perf_counter_ns``) and as this thread's CPU time (``thread_time_ns``: what the call costs on a
machine other work shares, where wall time also counts the waits for a core):

- a **quiet tick**: the mark moves by up to 0.5 % around its start, which crosses nothing, on each
  pair in turn; ``TriggerBook.crossed`` alone and the whole ``LeverBook.on_tick``;
- a **1,000-trigger tick**: the mark of pair 1 jumps to the price of the 1,000th take-profit or
  stop-loss above it (``on_tick`` answers the 1,000 decisions, and re-arms the cross-margin accounts
  whose band or conservative price the jump crossed; nothing is carried out, so the same jump can be
  replayed after a tick back to the start);
- a **drifting mark**: each pair's mark walks (steps of up to 0.05 %, the pairs in turn), so bands
  are left and accounts re-armed as a real market does it: what the design costs over time, not
  only on a tick that crosses nothing.

Memory: the process's RSS before and after building the book (psutil), and ``tracemalloc``'s count
of what the book holds (a second build with tracing on; tracing slows it, so the timings use the
first). Then a cProfile of quiet ticks on the ``cross`` layout shows where their time goes.

    .venv/bin/python bench/lever_bench.py [--users 10000] [--per-user 10] [--ticks 2000] [--repeat 50]
                                          [--drift 4000] [--seed 11] [--layout both]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import platform
import pstats
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import TypeVar

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from actors.lever import terms  # noqa: E402
from actors.lever.book import OPEN, LeverBook, Position  # noqa: E402
from actors.lever.terms import LONG, SHORT  # noqa: E402

# pair id -> (mark, base units per hand, price places)
PAIRS = {1: (Decimal(60000), Decimal("0.01"), 4), 2: (Decimal(3000), Decimal("0.1"), 4),
         3: (Decimal(80), Decimal(1), 4), 4: (Decimal("0.5"), Decimal(100), 6)}  # fmt: skip
LEVEL = Decimal(50)
TRIGGERS = 1_000
T = TypeVar("T")


def _price(value: float, places: int) -> Decimal:
    return Decimal(str(value)).quantize(terms.step(places))


def build(users: int, per_user: int, layout: str, seed: int) -> LeverBook:
    """The book with every position open and its TP and SL set, and every account's balance."""
    rnd = random.Random(seed)
    book = LeverBook(LEVEL)
    for pair_id, (mark, _, _) in PAIRS.items():
        book.on_tick(pair_id, mark, 1)  # the marks the positions were opened at
    position_id = 0
    for uid in range(1, users + 1):
        if layout == "one pair":
            held = [1 + uid % len(PAIRS)]
        else:
            held = rnd.sample(sorted(PAIRS), rnd.randint(2, 4))
        positions = []
        for i in range(per_user):
            pair_id = held[i % len(held)]
            mark, share_num, places = PAIRS[pair_id]
            side = rnd.choice((LONG, SHORT))
            hands, multiple = rnd.randint(1, 20), rnd.choice((5, 10, 20))
            price = _price(float(mark) * rnd.uniform(0.99, 1.01), places)
            up, down = 1 + rnd.uniform(0.02, 0.2), 1 - rnd.uniform(0.02, 0.2)
            tp, sl = (up, down) if side == LONG else (down, up)
            position_id += 1
            positions.append(Position(
                id=position_id, uid=uid, pair_id=pair_id, side=side, status=OPEN, hands=hands, share_num=share_num,
                multiple=multiple, price=price, margin=terms.margin(price, hands, share_num, multiple),
                tp=_price(float(price) * tp, places), sl=_price(float(price) * sl, places), stop_seq=1,
            ))  # fmt: skip
        book.account(uid).balance = 2 * sum((p.margin for p in positions), Decimal(0))
        for p in positions:
            book.put(p)
    return book


class Timings:
    """Wall and CPU time of each call, in ns."""

    def __init__(self) -> None:
        self.wall: list[int] = []
        self.cpu: list[int] = []

    def __call__(self, call: Callable[[], T]) -> T:
        wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
        answer = call()
        self.cpu.append(time.thread_time_ns() - cpu)
        self.wall.append(time.perf_counter_ns() - wall)
        return answer

    def __str__(self) -> str:
        return f"wall {percentiles(self.wall)}\n{'':33}cpu  {percentiles(self.cpu)}"


def percentiles(ns: list[int]) -> str:
    ordered = sorted(ns)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1000  # noqa: E731
    return f"p50 {pick(0.5):9.1f} µs   p99 {pick(0.99):9.1f} µs   max {ordered[-1] / 1000:9.1f} µs"


def quiet_marks(rnd: random.Random, ticks: int) -> list[tuple[int, Decimal]]:
    """(pair, mark) for each quiet tick: the pairs in turn, each within 0.5 % of its start."""
    found = []
    for i in range(ticks):
        pair_id = 1 + i % len(PAIRS)
        mark, _, places = PAIRS[pair_id]
        found.append((pair_id, _price(float(mark) * rnd.uniform(0.995, 1.005), places)))
    return found


def drift_marks(rnd: random.Random, ticks: int) -> list[tuple[int, Decimal]]:
    """(pair, mark) for each tick of a random walk: the pairs in turn, each step within 0.05 %."""
    walk = {pair_id: float(mark) for pair_id, (mark, _, _) in PAIRS.items()}
    found = []
    for i in range(ticks):
        pair_id = 1 + i % len(PAIRS)
        walk[pair_id] *= 1 + rnd.uniform(-0.0005, 0.0005)
        found.append((pair_id, _price(walk[pair_id], PAIRS[pair_id][2])))
    return found


def run_layout(layout: str, args: argparse.Namespace) -> None:
    gc.collect()
    rss = psutil.Process().memory_info().rss
    began = time.perf_counter()
    book = build(args.users, args.per_user, layout, args.seed)
    built_s = time.perf_counter() - began
    gc.collect()
    grown = psutil.Process().memory_info().rss - rss
    triggers = sum(len(book._books[p]) for p in PAIRS)
    positions = sum(len(a.positions) for a in book.accounts.values())
    print(f"\n== {layout}: {positions:,} positions, {len(book.accounts):,} users, {triggers:,} triggers "
          f"(TP, SL, armed liquidation prices and bands)")  # fmt: skip
    print(f"build       {built_s:.1f} s ({built_s / positions * 1e6:.0f} µs a position: what a restarted shard pays)")
    print(f"memory      RSS +{grown / 2**20:.0f} MiB ({grown / positions:,.0f} B a position)")

    ticks, repeat = args.ticks, args.repeat
    rnd = random.Random(args.seed + 1)
    seq = 1
    crossed, ticked = Timings(), Timings()
    for pair_id, mark in quiet_marks(rnd, ticks):
        seq += 1
        trigger_book = book._books[pair_id]
        fired = crossed(lambda: trigger_book.crossed(mark, seq))  # noqa: B023 - called at once
        assert not fired, (pair_id, mark, fired[:3])
        decisions = ticked(lambda: book.on_tick(pair_id, mark, seq))  # noqa: B023
        assert not decisions, (pair_id, mark, decisions[:3])
    print(f"quiet tick ({ticks:,} ticks)")
    print(f"  TriggerBook.crossed            {crossed}")
    print(f"  LeverBook.on_tick              {ticked}")

    # The 1,000th take-profit or stop-loss above pair 1's mark: a jump there closes exactly that many.
    start = PAIRS[1][0]
    rising = [t for t in book._books[1]._up if t.price > start and t.ident[0] in ("tp", "sl")]
    jump = rising[TRIGGERS - 1].price
    crossed, ticked, counts = Timings(), Timings(), set()
    for _ in range(repeat):
        seq += 1
        book.on_tick(1, start, seq)  # back to the start
        seq += 1
        fired = crossed(lambda: book._books[1].crossed(jump, seq))  # noqa: B023
        decisions = ticked(lambda: book.on_tick(1, jump, seq))  # noqa: B023
        rearmed = len({t.ident for t in fired if t.ident[0] in ("band", "liq")})
        counts.add((len([d for d in decisions if d.kind != "liquidate"]), rearmed))
    kinds = sorted({d.kind for d in decisions})
    print(f"{TRIGGERS:,}-trigger tick ({repeat} ticks, pair 1's mark {start} -> {jump}; decisions, accounts re-armed: "
          f"{sorted(counts)}, {kinds})")  # fmt: skip
    print(f"  TriggerBook.crossed            {crossed}")
    print(f"  LeverBook.on_tick              {ticked}")

    seq += 1
    book.on_tick(1, start, seq)  # the walk starts from the start marks
    ticked, rearmed, decided = Timings(), 0, 0
    walk = {pair_id: mark for pair_id, (mark, _, _) in PAIRS.items()}
    for pair_id, mark in drift_marks(random.Random(args.seed + 3), args.drift):
        seq += 1
        walk[pair_id] = mark
        rearmed += sum(1 for t in book._books[pair_id].crossed(mark, seq) if t.ident[0] in ("band", "liq"))
        decided += len(ticked(lambda: book.on_tick(pair_id, mark, seq)))  # noqa: B023
    moved = ", ".join(f"{walk[p] / PAIRS[p][0] - 1:+.2%}" for p in PAIRS)
    print(f"drifting mark ({args.drift:,} ticks, the pairs ended {moved}; {rearmed:,} accounts re-armed, "
          f"{decided:,} decisions, not carried out)")  # fmt: skip
    print(f"  LeverBook.on_tick              {ticked}")

    if args.profile:
        profile = cProfile.Profile()
        marks = quiet_marks(random.Random(args.seed + 2), min(ticks, 200))
        profile.enable()
        for pair_id, mark in marks:
            seq += 1
            book.on_tick(pair_id, mark, seq)
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(8)
        print(f"profile of {len(marks)} quiet ticks (tottime, top 8):")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:3000])


def traced_size(args: argparse.Namespace) -> int:
    gc.collect()
    tracemalloc.start()
    book = build(args.users, args.per_user, "one pair", args.seed)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del book
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--per-user", type=int, default=10)
    parser.add_argument("--ticks", type=int, default=2_000, help="quiet ticks")
    parser.add_argument("--repeat", type=int, default=50, help="1,000-trigger ticks")
    parser.add_argument("--drift", type=int, default=4_000, help="ticks of the drifting mark")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--layout", choices=("one pair", "cross", "both"), default="both")
    parser.add_argument("--no-profile", dest="profile", action="store_false")
    args = parser.parse_args()
    print(f"python      {platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    print(f"book        {args.users:,} users x {args.per_user} positions on {len(PAIRS)} pairs, "
          f"liquidation level {LEVEL} %, seed {args.seed}")  # fmt: skip
    for layout in ("one pair", "cross") if args.layout == "both" else (args.layout,):
        run_layout(layout, args)
    size = traced_size(args)
    print(f"\nmemory      tracemalloc: the 'one pair' book holds {size / 2**20:.0f} MiB "
          f"({size / (args.users * args.per_user):,.0f} B a position)")  # fmt: skip


if __name__ == "__main__":
    main()
