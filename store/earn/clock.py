"""The earn products' clock and days: the Scheduler's clock (real time plus the offset that an operator
or a test may set outside production, ``Scheduler.set_clock``), so a buy, a day's booking and a sale's
close all see the same "now". A day is a UTC day number: days since 1970-01-01."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from redis.asyncio import Redis

from store import scheduler
from store.times import now_ms

DAY_MS = 86_400_000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


async def scheduler_now_ms(redis: Redis) -> int:
    """Now (ms since the epoch) on the Scheduler's clock: ``store.times.now_ms`` plus the offset it
    keeps in Redis; real time in production (the offset is 0)."""
    return now_ms() + await scheduler.clock_offset(redis, scheduler.SCHEDULER_NAME)


def day_of(ms: int) -> int:
    """The UTC day of a moment (ms since the epoch)."""
    return ms // DAY_MS


def day_text(day: int) -> str:
    """``20089`` -> ``"2025-01-01"``."""
    return (EPOCH + timedelta(days=day)).date().isoformat()
