"""Marks that move like a live market's, for a benchmark against ``make run``.

``make run``'s market maker is built to idle (issue 15): a pair's quoting loop wakes every 4 to 12 s and
its mark changes only when the median of bid, ask and last trade does, so a mark can stand still for
tens of seconds. Second contracts take the first tick after acceptance as their entry, so every
contract accepted on a pair while its mark stands still shares one entry tick and ends in the same
millisecond: the tick cadence, not the number of contracts, sets how many contracts a shard settles at
once. A live pair's mark moves several times a second.

``walk_marks`` asks the market maker (``MarketMaker.target``, what ``exchange maker target`` calls) to
walk every given pair's price ``step`` above its mark, then below, and so on, for as long as it runs: a
walk trades through the book every 0.25 s, so the mark follows in small steps. Nothing else changes:
the ticks go through the pairs, the tick log and the push as any other.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from decimal import Decimal
from typing import Any

from config.settings import get_settings
from store import marks
from store.cache import connect_redis


async def walk_marks(decimals: dict[str, int], step: Decimal, outcomes: Counter[str]) -> None:
    """Until cancelled: every pair of ``decimals`` (symbol -> price decimals) walks up and down by
    ``step`` (a fraction of its mark). ``outcomes`` counts walks done and refused (with why)."""
    import ray

    from actors.names import MAKER_NAME

    maker = ray.get_actor(MAKER_NAME)
    redis = connect_redis(get_settings())

    async def walk(symbol: str, places: int) -> None:
        sign = 1
        while True:
            mark = (await marks.read(redis, [symbol])).get(symbol)
            if mark is None:
                outcomes["no mark yet"] += 1
                await asyncio.sleep(1)
                continue
            target = (mark.price * (1 + sign * step)).quantize(Decimal(1).scaleb(-places))
            answer: dict[str, Any] = await maker.target.remote(symbol, f"{target:f}")
            if "error" in answer:
                outcomes[f"refused: {answer['error'][:60]}"] += 1
                await asyncio.sleep(1)
            else:
                outcomes["walks"] += 1
            sign = -sign

    try:
        await asyncio.gather(*(walk(symbol, places) for symbol, places in decimals.items()))
    finally:
        await redis.aclose()
