"""``GET /api/health``: whether the database, Redis, every pair actor and every node's push fanout answer.

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

from actors.nodes import alive_nodes
from actors.push.fanout import fanout_name
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


async def _fanout(node_label: str) -> Any:
    return await ray.get_actor(fanout_name(node_label)).stats.remote()


@router.get("/health")
async def health(request: Request, svc: Svc) -> Any:
    """Database, Redis, each pair actor (by symbol) and each node's fanout: true when they answer.

    ``fanout`` is true when the fanout of every alive node answers; ``fanouts`` says which.
    """
    pairs = [
        p
        for p in await svc.pairs.all()
        if p.open_change and (not svc.settings.pair_ids or p.id in svc.settings.pair_ids)
    ]
    engine = request.app.state.engine
    nodes = [n.label for n in await asyncio.to_thread(alive_nodes)]
    database, redis, *results = await asyncio.gather(
        _answers(connections.get("default").execute_query("SELECT 1")),
        _answers(svc.redis.ping()),
        *(_answers(_fanout(label)) for label in nodes),
        *(_answers(engine.ask(p.symbol, "ping")) for p in pairs),
    )
    fanouts = dict(zip(nodes, results[: len(nodes)], strict=True))
    report = {
        "database": database,
        "redis": redis,
        "fanout": bool(fanouts) and all(fanouts.values()),
        "fanouts": fanouts,
        "pairs": {p.symbol: up for p, up in zip(pairs, results[len(nodes) :], strict=True)},
    }
    if database and redis and report["fanout"] and all(report["pairs"].values()):
        return envelope(report)
    return envelope(report, "unavailable", CODE_ERROR, 503)
