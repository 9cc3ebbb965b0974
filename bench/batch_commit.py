"""What a pair's batch with trades costs to commit (``store.spot.persist_batch``), today's against an
earlier commit's loaded from git, alternating in the same process on the same database.

A batch here is what a pair writes when a taker order meets resting ones: the taker (a new order),
``--trades`` makers it filled (their updates), the trades and their pending settlements, the 24 h
ticker and one candle of every chart period (14), as ``actors.pair.events.batch_writes`` builds them.
Each batch is timed from the call to its return (durable), on a pair of its own that the bench creates
closed and deletes after.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/batch_commit.py \
        --reference 599e5d2 --batches 400

Nothing is copied into the repository: ``git show <commit>:store/spot.py`` is imported under a name of
its own (it uses today's ``store`` otherwise: the models and ``store.bulk``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.core_at import _git, resolve  # noqa: E402
from config.settings import Settings  # noqa: E402
from store import spot, users  # noqa: E402
from store.db import close_db, init_db, migrate  # noqa: E402
from store.models import (  # noqa: E402
    Currency,
    CurrencyMatch,
    Kline,
    Order,
    PendingSettlement,
    Quotation,
    Trade,
    User,
)
from store.seed import seed  # noqa: E402

PAIR_ID = 9_402  # a closed pair of the bench's own
PERIODS = ("1min", "3min", "5min", "15min", "30min", "60min", "120min", "240min", "360min", "720min",
           "1day", "3day", "1week", "1mon")  # fmt: skip


def load_spot(commit: str) -> ModuleType:
    """``store/spot.py`` of ``commit``, imported as ``spot_<hash>``."""
    full = resolve(commit)
    path = Path(tempfile.mkdtemp(prefix="spot-at-")) / f"spot_{full[:12]}.py"
    path.write_text(_git("show", f"{full}:store/spot.py"))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Batches:
    """Batches with ``trades`` trades each: order and trade ids counting up, one minute's candles."""

    def __init__(self, trades: int, buyer: int, seller: int) -> None:
        self.trades, self.buyer, self.seller = trades, buyer, seller
        self.next_id = 9_500_000_000

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def writes(self, makers: list[int]) -> dict[str, Any]:
        now = datetime.now(UTC)
        start = int(now.timestamp()) // 60 * 60_000
        taker = self._id()
        price, lots = Decimal("68000.5"), Decimal("0.01")
        trades = [{"id": self._id(), "currency_match_id": PAIR_ID, "buy_order_id": taker, "sell_order_id": maker,
                   "buyer_id": self.buyer, "seller_id": self.seller, "taker_way": 1, "price": price, "number": lots,
                   "volume": price * lots, "created_at": now} for maker in makers[: self.trades]]  # fmt: skip
        new = {"id": taker, "user_id": self.buyer, "currency_match_id": PAIR_ID, "way": 1, "kind": 0, "price": price,
               "number": lots * len(trades), "budget": 0, "frozen": price * lots * len(trades),
               "transacted_amount": lots * len(trades), "transacted_volume": price * lots * len(trades),
               "status": 3, "seq": taker}  # fmt: skip
        bar = {"open": price, "high": price, "low": price, "close": price, "volume": lots, "amount": price * lots}
        return {
            "pair_id": PAIR_ID,
            "new_orders": [new],
            "updated_orders": [
                {"transacted_amount": lots, "transacted_volume": price * lots, "status": 2, "id": m}
                for m in makers[: self.trades]
            ],  # fmt: skip
            "trades": trades,
            "quotation": {
                "currency_match_id": PAIR_ID,
                "close": price,
                "change": Decimal("0.5"),
                "high": price,
                "low": price,
                "volume": lots,
            },  # fmt: skip
            "bars": [{"currency_match_id": PAIR_ID, "period": p, "start": start, **bar} for p in PERIODS],
            "releases": [],
            "ticks": [],
        }


async def bench_user(email: str) -> int:
    found = await User.get_or_none(email=email)
    if found is not None:
        return int(found.id)
    return (await users.create_user(kind="email", account=email, password_hash="x", area=None, parent=None)).id


async def makers(count: int, seller: int) -> list[int]:
    """Resting sell orders the batches' takers fill (their rows are updated by every batch)."""
    ids = list(range(9_400_500_001, 9_400_500_001 + count))
    await Order.bulk_create([Order(id=i, user_id=seller, currency_match_id=PAIR_ID, way=2, kind=0,
                                   price=Decimal(68000), number=Decimal(100), frozen=Decimal(100), status=1, seq=i)
                             for i in ids])  # fmt: skip
    return ids


async def clean() -> None:
    await PendingSettlement.filter(currency_match_id=PAIR_ID).delete()
    await Trade.filter(currency_match_id=PAIR_ID).delete()
    await Order.filter(currency_match_id=PAIR_ID).delete()
    await Kline.filter(currency_match_id=PAIR_ID).delete()
    await Quotation.filter(currency_match_id=PAIR_ID).delete()
    await CurrencyMatch.filter(id=PAIR_ID).delete()


def figures(label: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{label:<28}p50 {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms  mean {statistics.mean(ms):6.2f} ms"


async def main(args: argparse.Namespace) -> None:
    settings = Settings(env="development", data_dir=Path(tempfile.mkdtemp(prefix="batch-commit-")))
    await migrate(settings)
    await init_db(settings, "bench")
    try:
        if not await Currency.exists(code="USDT"):
            await seed()
        await clean()
        usdt, btc = await Currency.get(code="USDT"), await Currency.get(code="BTC")
        await CurrencyMatch.create(id=PAIR_ID, base_currency_id=usdt.id, quote_currency_id=btc.id, open_change=False)
        buyer = await bench_user("batch-commit-buyer@bench.local")
        seller = await bench_user("batch-commit-seller@bench.local")
        resting = await makers(args.trades, seller)
        ref_hash = resolve(args.reference)
        cores = {f"reference ({ref_hash[:10]})": load_spot(ref_hash), "checkout": spot}
        batches = Batches(args.trades, buyer, seller)
        times: dict[str, list[float]] = {label: [] for label in cores}
        cpu: dict[str, float] = dict.fromkeys(cores, 0.0)
        for round_ in range(args.batches // 20 + (1 if args.warmup else 0)):
            for label, core in cores.items():
                for _ in range(20):
                    writes = batches.writes(resting)
                    began, began_cpu = time.perf_counter(), time.process_time()
                    await core.persist_batch(**writes)
                    if round_ or not args.warmup:
                        times[label].append((time.perf_counter() - began) * 1000)
                        cpu[label] += time.process_time() - began_cpu
        print(f"database    {settings.db_url.split('@')[-1]}")
        filled = f"{args.trades} makers filled, {args.trades} trades"
        print(f"batch       1 taker, {filled}, the ticker, {len(PERIODS)} candles")
        for label, ms in times.items():
            print(figures(label, ms) + f"  client CPU {cpu[label] / len(ms) * 1000:.2f} ms")
        ref, ours = (statistics.median(ms) for ms in times.values())
        print(f"ratio       the reference's p50 / the checkout's: {ref / ours:.2f}")
        print(f"load avg    {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    finally:
        await clean()
        await close_db()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", default="HEAD", help="the commit whose store/spot.py is compared")
    parser.add_argument("--batches", type=int, default=400, help="batches timed per core (in rounds of 20)")
    parser.add_argument("--trades", type=int, default=2, help="trades (makers filled) per batch")
    parser.add_argument("--no-warmup", dest="warmup", action="store_false", help="time the first round too")
    asyncio.run(main(parser.parse_args()))
