"""Reading a pair's tick log (``mark_ticks``); the pair's actor alone writes it, with its batches.

"The last tick at or before t" is what second contracts settle from and lever triggers replay; it
is one index range scan on (currency_match_id, time_ms).
"""

from __future__ import annotations

from store.models import MarkTick


async def last_tick(pair_id: int) -> MarkTick | None:
    return await MarkTick.filter(currency_match_id=pair_id).order_by("-seq").first()


async def tick_at(pair_id: int, time_ms: int) -> MarkTick | None:
    """The last tick at or before ``time_ms``, or None if the log starts later."""
    return await MarkTick.filter(currency_match_id=pair_id, time_ms__lte=time_ms).order_by("-time_ms").first()


async def first_after(pair_id: int, time_ms: int) -> MarkTick | None:
    """The first tick strictly after ``time_ms``."""
    return await MarkTick.filter(currency_match_id=pair_id, time_ms__gt=time_ms).order_by("time_ms").first()


async def ticks_between(pair_id: int, from_ms: int, to_ms: int, limit: int) -> list[MarkTick]:
    """Ticks with ``from_ms <= time_ms <= to_ms``, oldest first, at most ``limit``."""
    return (
        await MarkTick.filter(currency_match_id=pair_id, time_ms__gte=from_ms, time_ms__lte=to_ms)
        .order_by("time_ms")
        .limit(limit)
    )


async def ticks_after(pair_id: int, after_seq: int, limit: int) -> list[MarkTick]:
    """The ticks with a seq above ``after_seq``, in seq order, at most ``limit`` (a replay's page)."""
    return await MarkTick.filter(currency_match_id=pair_id, seq__gt=after_seq).order_by("seq").limit(limit)


async def tick_seq(pair_id: int, seq: int) -> MarkTick | None:
    """The pair's tick number ``seq`` (None for 0, or one the log does not hold)."""
    return await MarkTick.filter(currency_match_id=pair_id, seq=seq).first() if seq else None
