"""The Scheduler's jobs. Adding one: an async function ``(ctx, day) -> dict`` that is idempotent for
its day (it may run again after a crash), and a ``Job`` line in ``JOBS``.

Sweeps are the other kind: work due at a moment rather than once a day (a sale's close at its end
time, a listing lock's release). A sweep is an async function ``(ctx, now_ms) -> dict`` run on every
pass of the Scheduler with its clock's now; it does whatever has come due by then, each step
idempotent per (thing, step) because the step's status changes in the transaction of its money. Its
answer counts what it did and says when it has work next (``next_ms``, None for nothing planned).

A sweep whose things' work may be long or may fail on its own (a sale's close: its allocation and
settlements grow with its subscriptions) hands each thing out as a job of its own: its function only
answers which things are due (``due``: their keys) and ``next_ms``, and ``each(ctx, key, now_ms)``
does one thing's work, run by the Scheduler beside its passes (see ``actors.scheduler.actor``), so one
slow or failing thing holds back neither the others nor the other sweeps.

A job reaches other actors by name through ``ctx.actor``; what it answers is kept with its run
(``scheduler_runs.result``) and shown by ``exchange scheduler``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import ray
from redis.asyncio import Redis

from config.settings import Settings
from store.earn import listing, sales
from store.p2p import orders as p2p_orders
from store.p2p import push as p2p_push


@dataclass(frozen=True)
class JobContext:
    settings: Settings
    redis: Redis | None = None  # the Scheduler's connection, once it has one (pushes)

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
    from actors.names import lever_name

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


@dataclass(frozen=True)
class Sweep:
    name: str
    run: Callable[[JobContext, int], Awaitable[dict[str, Any]]]
    # With it, ``run`` answers the things due (``due``) and this does one thing's work, a job of its own.
    each: Callable[[JobContext, int, int], Awaitable[dict[str, Any]]] | None = None


async def sales_due(ctx: JobContext, now_ms: int) -> dict[str, Any]:
    """The token sales with work: ended and not closed, or closed with subscriptions to settle."""
    return await sales.due(now_ms)


async def sale_close(ctx: JobContext, sale_id: int, now_ms: int) -> dict[str, Any]:
    """One sale's job: its close (the pro-rata allocation) and its subscriptions' settlements: cost to
    the house, the rest refunded, tokens credited (store.earn.sales)."""
    return await sales.close_and_settle(sale_id, now_ms)


async def listings_due(ctx: JobContext, now_ms: int) -> dict[str, Any]:
    """The listing projects with work: ended and not allocated, or allocated with applications to decide."""
    return await listing.due_allocation(now_ms)


async def listing_allocation(ctx: JobContext, project_id: int, now_ms: int) -> dict[str, Any]:
    """One project's job: its allocation, then each application decided (the USDT won to the house)."""
    return await listing.allocate_and_decide(project_id, now_ms)


async def listing_release(ctx: JobContext, now_ms: int) -> dict[str, Any]:
    """Return the rest of each decided listing lock once its lock days have passed."""
    return await listing.sweep_release(now_ms)


async def listing_credit(ctx: JobContext, now_ms: int) -> dict[str, Any]:
    """Credit the tokens won in a listing on its online date."""
    return await listing.sweep_credit(now_ms)


async def p2p_expire(ctx: JobContext, now_ms: int) -> dict[str, Any]:
    """Cancel the P2P orders whose payment window has ended unpaid (escrow back to the seller or the
    ad) and tell both sides on LEGAL_ORDER."""
    cancelled, more = await p2p_orders.sweep_expired(now_ms)
    if ctx.redis is not None:
        await p2p_push.notify(ctx.redis, cancelled)
    return {"cancelled": len(cancelled), "next_ms": now_ms if more else await p2p_orders.next_deadline()}


SWEEPS: tuple[Sweep, ...] = (
    Sweep("sale_close", sales_due, sale_close),
    Sweep("listing_allocation", listings_due, listing_allocation),
    Sweep("listing_release", listing_release),
    Sweep("listing_credit", listing_credit),
    Sweep("p2p_expire", p2p_expire),
)
