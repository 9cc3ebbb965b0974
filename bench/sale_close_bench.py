"""How long a token sale's close takes as its subscriptions grow (issue 27: the close was quadratic).

Two figures per size:

- **pure**: ``store.earn.sales.allocate`` over N stored subscriptions, then each subscription's line
  looked up, as the close writes them (no database);
- **close** (with ``--db``): ``store.earn.sales.close`` of a sale with N subscriptions on the database
  of ``DATABASE_URL`` (migrated and seeded first, both idempotent: the tests' database will do): the
  rows read, allocated and written in one transaction. The sale, its subscriptions and the one user
  they belong to are made for the run and deleted after it; no money moves (the settlements are the
  Scheduler's next step).

    .venv/bin/python bench/sale_close_bench.py                       # pure, 5,000 to 50,000
    .venv/bin/python bench/sale_close_bench.py --sizes 2000 5000     # other sizes
    . ./.testenv && .venv/bin/python bench/sale_close_bench.py --db  # and the close on the database

Each subscription asks a whole number of steps at 0.5 USDT (a micro-USDT's worth at the least), and
the sale is oversubscribed, so every line is a pro-rata share. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from store.earn import sales  # noqa: E402
from store.models import SaleSubscription  # noqa: E402

PRICE, TOTAL = Decimal("0.5"), Decimal(1000)


def _asked(i: int) -> Decimal:
    return Decimal(2 * (i % 50 + 1)).scaleb(-6)  # 1 to 50 steps of 0.000002 tokens


def pure(n: int) -> float:
    """Seconds to allocate ``n`` subscriptions and look up each one's line."""
    sale = SimpleNamespace(total=TOTAL, huodong=SimpleNamespace(decimals=8), jieshou=SimpleNamespace(decimals=6))
    subs = [SaleSubscription(id=i + 1, nums=_asked(i), price=PRICE, locked=_asked(i) * PRICE) for i in range(n)]
    start = time.perf_counter()
    found = sales.allocate(sale, subs)  # type: ignore[arg-type]
    for sub in subs:
        found.line(sub.id)
    return time.perf_counter() - start


async def on_db(n: int) -> float:
    """Seconds ``sales.close`` takes for a sale of ``n`` subscriptions (made and deleted here)."""
    from store.models import Currency, TokenSale, User

    coins = {c.code: c for c in await Currency.filter(code__in=("ACB", "USDT"))}
    user = await User.create(email=f"bench-{uuid.uuid4().hex[:12]}@bench.local", password_hash="-",
                             invite_code=uuid.uuid4().hex[:16])  # fmt: skip
    now = int(time.time() * 1000)
    sale = await TokenSale.create(title="close bench", huodong=coins["ACB"], jieshou=coins["USDT"], rengou=PRICE,
                                  total=TOTAL, btime=now - 60_000, etime=now + 3_600_000, sort=-1)  # fmt: skip
    try:
        rows = [SaleSubscription(sale_id=sale.id, user_id=user.id, nums=_asked(i), price=PRICE,
                                 locked=_asked(i) * PRICE) for i in range(n)]  # fmt: skip
        await SaleSubscription.bulk_create(rows, batch_size=5000)
        start = time.perf_counter()
        closed = await sales.close(sale.id, now + 3_600_000)
        took = time.perf_counter() - start
        assert closed, "the sale did not close"
        return took
    finally:
        await SaleSubscription.filter(sale_id=sale.id).delete()
        await sale.delete()
        await user.delete()


async def main(args: argparse.Namespace) -> None:
    print(f"{'subscriptions':>14} {'pure (s)':>10}" + (f" {'close (s)':>10}" if args.db else ""))
    if args.db:
        from config.settings import get_settings
        from store.db import close_db, init_db, migrate
        from store.seed import seed

        await migrate(get_settings())
        await init_db(get_settings())
        await seed()
    try:
        for n in args.sizes:
            line = f"{n:>14,} {pure(n):>10.2f}"
            if args.db:
                line += f" {await on_db(n):>10.2f}"
            print(line, flush=True)
    finally:
        if args.db:
            await close_db()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 10_000, 20_000, 50_000])
    parser.add_argument("--db", action="store_true", help="also time sales.close on DATABASE_URL")
    arguments: Any = parser.parse_args()
    asyncio.run(main(arguments))
