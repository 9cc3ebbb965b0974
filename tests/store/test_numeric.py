"""Money is computed in a context wide enough for every column (issue 10, defect 1): a value with 18
integer and 17 decimal digits is stored and read back exactly, in any thread or task."""

from __future__ import annotations

import asyncio
import decimal
import subprocess
import sys
import threading
from decimal import Decimal
from fractions import Fraction

from config.numeric import PRECISION
from store.models import Kline

WIDE = Decimal("123456789012345678.12345678901234567")  # 35 digits: NUMERIC(36, 18) takes it, 28 digits do not


def test_every_thread_and_task_computes_in_the_money_context() -> None:
    seen: list[int] = []
    worker = threading.Thread(target=lambda: seen.append(decimal.getcontext().prec))
    worker.start()
    worker.join()

    async def task() -> int:
        return decimal.getcontext().prec

    assert seen == [PRECISION] and asyncio.run(task()) == PRECISION
    assert Fraction(WIDE * WIDE) == Fraction(WIDE) ** 2  # the product of two such values is exact


async def test_a_value_as_wide_as_its_column_is_stored_exactly(db: None) -> None:
    row = await Kline.create(currency_match_id=999_001, period="1min", start=0, open=WIDE, high=WIDE, low=WIDE,
                             close=WIDE, volume=WIDE, amount=WIDE)  # fmt: skip
    try:
        stored = await Kline.get(id=row.id)
        assert (stored.open, stored.close, stored.amount) == (WIDE, WIDE, WIDE)
    finally:
        await row.delete()


def test_every_entry_point_starts_in_the_money_context() -> None:
    """The CLI (``exchange up`` ran its second ``asyncio.run`` in 28 digits: the context was set inside
    the first one's task), an actor module and the Serve app, each imported alone in a new process."""
    for module in ("serve.cli", "actors.pair.actor", "serve.app"):
        script = f"import decimal, {module}; print(decimal.getcontext().prec)"
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert done.stdout.strip() == str(PRECISION), (module, done.stdout, done.stderr[-2000:])
