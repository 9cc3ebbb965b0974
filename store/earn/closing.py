"""What token sales and listing projects share: the close at their end time, done once, which of them
have work for the Scheduler, and their progress in percent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from decimal import ROUND_DOWN, Decimal
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.queryset import QuerySet

from store.db import retry_busy, transaction
from store.money import money


@retry_busy
async def close_once(
    due: QuerySet[Any], flip: dict[str, Any], write: Callable[[BaseDBAsyncClient], Awaitable[None]]
) -> bool:
    """In one transaction: flip the row ``due`` selects (``update(**flip)``: the row's lock, so a
    subscription waiting on it sees it closed and none can join after) and, if it was still due,
    ``write`` its allocation. False when ``due`` selects nothing (closed before, or not due yet)."""
    async with transaction() as conn:
        if not await due.using_db(conn).update(**flip):
            return False
        await write(conn)
    return True


async def closes_due(
    ending: QuerySet[Any], settling: QuerySet[Any], upcoming: QuerySet[Any], now: int
) -> dict[str, Any]:
    """What a close's sweep hands out as jobs (``actors.scheduler.jobs``): ``due``, the ids of the rows
    ``ending`` selects (their end has come, not closed yet; oldest end first), then of those
    ``settling`` selects (closed, with orders left to settle); ``next_ms``: now while some are due,
    else the end of the first row ``upcoming`` selects (None for none)."""
    ended = await ending.order_by("etime").values_list("id", flat=True)
    seen = set(ended)
    found = [*ended, *(i for i in await settling.distinct().order_by("id").values_list("id", flat=True)
                         if i not in seen)]  # fmt: skip
    if found:
        return {"due": found, "next_ms": now}
    return {"due": [], "next_ms": await upcoming.order_by("etime").first().values_list("etime", flat=True)}


def percent(part: Decimal, whole: Decimal) -> str:
    """``part / whole`` in percent, truncated to 2 places (the spec's default rounding); "0" for nothing."""
    if whole <= 0:
        return "0"
    return money((part * 100 / whole).quantize(Decimal("0.01"), rounding=ROUND_DOWN))
