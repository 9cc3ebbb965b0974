"""The Scheduler's jobs. Adding one: an async function ``(ctx, day) -> dict`` that is idempotent for
its day (it may run again after a crash), and a ``Job`` line in ``JOBS``.

A job reaches other actors by name through ``ctx.actor``; what it answers is kept with its run
(``scheduler_runs.result``) and shown by ``exchange scheduler``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import ray

from config.settings import Settings


@dataclass(frozen=True)
class JobContext:
    settings: Settings

    def actor(self, name: str) -> Any:
        """The named actor's handle; ValueError when there is none (the run fails and is tried again)."""
        return ray.get_actor(name)


@dataclass(frozen=True)
class Job:
    name: str
    at_s: int  # when it runs: seconds after 00:00 UTC
    run: Callable[[JobContext, int], Awaitable[dict[str, Any]]]


async def lever_overnight(ctx: JobContext, day: int) -> dict[str, Any]:
    """Every lever shard charges the overnight fee of the positions open at 00:00 UTC of ``day``
    (idempotent per position and day)."""
    from actors.lever.actor import lever_name

    shards = [ctx.actor(lever_name(i)) for i in range(ctx.settings.lever_shards)]
    answers = await asyncio.gather(*(shard.overnight.remote(day) for shard in shards))
    return {"charged": sum(int(a["charged"]) for a in answers), "shards": len(answers)}


async def lock_savings(ctx: JobContext, day: int) -> dict[str, Any]:
    """Lock savings' interest of ``day`` (once it is over) and the maturities it brings (idempotent per
    order and day; days an order missed are booked too, in order)."""
    from store.earn import lock as earn

    return await earn.run_day(day)


async def mining(ctx: JobContext, day: int) -> dict[str, Any]:
    """Mining's published rates, yields of ``day`` (once it is over) and the cycle ends it brings
    (idempotent per order and day; days an order missed are paid too, in order)."""
    from store.earn import mining as earn

    return await earn.run_day(day)


# Earn jobs run day d at 00:00 UTC of d+1 (at_s one day): a day is booked once it is over.
JOBS: tuple[Job, ...] = (
    Job("lever_overnight", at_s=0, run=lever_overnight),
    Job("lock_savings", at_s=86_400, run=lock_savings),
    Job("mining", at_s=86_400, run=mining),
)
