"""``GET /api/health``: whether the database, Redis, every pair actor and the push fanout answer.

200 with code 1 when everything answers within ``TIMEOUT_S``; otherwise 503 with code 0 and the same
report, so a load balancer or an operator sees at once which part is down.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import ray
from fastapi import APIRouter, Request
from tortoise import connections

from serve.api.deps import Svc
from serve.errors import CODE_ERROR, envelope

router = APIRouter(tags=["health"])
TIMEOUT_S = 2.0


async def _answers(check: Awaitable[Any]) -> bool:
    try:
        await asyncio.wait_for(check, TIMEOUT_S)
    except Exception:  # any failure or timeout means "down"; the report says which part
        return False
    return True


async def _fanout() -> Any:
    return await ray.get_actor("fanout").stats.remote()


@router.get("/health")
async def health(request: Request, svc: Svc) -> Any:
    """Database, Redis, each pair actor (by symbol) and the fanout: true when they answer."""
    pairs = [
        p
        for p in await svc.pairs.all()
        if p.open_change and (not svc.settings.pair_ids or p.id in svc.settings.pair_ids)
    ]
    engine = request.app.state.engine
    results = await asyncio.gather(
        _answers(connections.get("default").execute_query("SELECT 1")),
        _answers(svc.redis.ping()),
        _answers(_fanout()),
        *(_answers(engine.pair(p.symbol).ping.remote()) for p in pairs),
    )
    database, redis, fanout, *pair_states = results
    report = {
        "database": database,
        "redis": redis,
        "fanout": fanout,
        "pairs": {p.symbol: up for p, up in zip(pairs, pair_states, strict=True)},
    }
    if all(results):
        return envelope(report)
    return envelope(report, "unavailable", CODE_ERROR, 503)
