"""The Scheduler's durable state (actors/scheduler): its runs, one row per (job, day), and the offset
of its clock outside production.

A run is written before its job runs (``begin``) and marked done after (``finish``): a done (job,
day) never runs again, one cut short (the actor died, the job failed) runs again, so every job must
be idempotent by its own key (the overnight fee is, per position and day).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from redis.asyncio import Redis
from tortoise.expressions import F

from store.db import scalar
from store.models import SchedulerRun
from store.sessions import PREFIX

# The session's Scheduler actor's name (actors/names.py repeats it from here): the store keeps its clock.
SCHEDULER_NAME = "scheduler"
CLOCK_KEY = f"{PREFIX}scheduler-clock:"  # + the scheduler's actor name: its clock offset in ms


async def last_done(job: str) -> int | None:
    """The last day ``job`` ran to the end, or None if it never did."""
    return await scalar(SchedulerRun.filter(job=job, done=True).order_by("-day").first().values_list("day", flat=True))


async def begin(job: str, day: int) -> bool:
    """Record that ``job`` starts its run of ``day``; False when that run is already done (skip it)."""
    run, created = await SchedulerRun.get_or_create(job=job, day=day, defaults={"started_at": datetime.now(UTC)})
    if run.done:
        return False
    await SchedulerRun.filter(id=run.id).update(attempts=F("attempts") + 1, started_at=datetime.now(UTC))
    return True


async def finish(job: str, day: int, result: dict[str, Any]) -> None:
    await SchedulerRun.filter(job=job, day=day).update(
        done=True, result=result, error="", finished_at=datetime.now(UTC)
    )


async def fail(job: str, day: int, error: str) -> None:
    await SchedulerRun.filter(job=job, day=day).update(error=error[:2000])


async def runs(job: str, *, limit: int = 10) -> list[SchedulerRun]:
    """The latest runs of ``job``, newest first."""
    return await SchedulerRun.filter(job=job).order_by("-day").limit(limit)


async def clock_offset(redis: Redis, name: str) -> int:
    """How far (ms) the clock of the scheduler ``name`` runs ahead of real time (0: real time)."""
    return int(await redis.get(CLOCK_KEY + name) or 0)


async def set_clock_offset(redis: Redis, name: str, offset_ms: int) -> None:
    """Kept across restarts of the actor. The caller refuses this in production."""
    if offset_ms:
        await redis.set(CLOCK_KEY + name, offset_ms)
    else:
        await redis.delete(CLOCK_KEY + name)
