"""``GET /api/health``: whether the database, Redis, every pair actor and every node's push fanout answer.

200 with code 1 when everything answers within ``TIMEOUT_S``; otherwise 503 with code 0 and the same
report, so a load balancer or an operator sees at once which part is down.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import ray
from fastapi import APIRouter
from tortoise import connections

from actors.names import PLACEMENT_NAME, fanout_name, lever_name, micro_name
from actors.nodes import alive_nodes
from serve.api.deps import EngineDep, Svc
from serve.error_table import CODE_ERROR
from serve.errors import envelope

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


async def _ping(name: str) -> Any:
    return await ray.get_actor(name).ping.remote()


@router.get("/health")
async def health(engine: EngineDep, svc: Svc) -> Any:
    """Database, Redis, the pair placement, each pair actor (by symbol), each lever and micro shard and each
    node's fanout: true when they answer.

    The pairs are those the placement actor started (it alone decides which pairs get an actor).
    ``fanout`` is true when the fanout of every alive node answers; ``fanouts`` says which.
    """
    try:
        symbols: list[str] = await asyncio.wait_for(ray.get_actor(PLACEMENT_NAME).symbols.remote(), TIMEOUT_S)
        placement = True
    except Exception:  # gone or not answering: the report says so, and the pairs are unknown
        symbols, placement = [], False
    nodes = [n.label for n in await asyncio.to_thread(alive_nodes)]
    shards = [lever_name(i) for i in range(svc.settings.lever_shards)]
    timers = [micro_name(i) for i in range(svc.settings.micro_shards)]
    database, redis, *results = await asyncio.gather(
        _answers(connections.get("default").execute_query("SELECT 1")),
        _answers(svc.redis.ping()),
        *(_answers(_fanout(label)) for label in nodes),
        *(_answers(_ping(name)) for name in (*shards, *timers)),
        *(_answers(engine.ask(symbol, "ping")) for symbol in symbols),
    )
    fanouts = dict(zip(nodes, results[: len(nodes)], strict=True))
    results = results[len(nodes) :]
    levers = dict(zip(shards, results[: len(shards)], strict=True))
    micros = dict(zip(timers, results[len(shards) : len(shards) + len(timers)], strict=True))
    results = results[len(shards) + len(timers) :]
    pairs = dict(zip(symbols, results, strict=True))
    report = {
        "database": database,
        "redis": redis,
        "fanout": bool(fanouts) and all(fanouts.values()),
        "fanouts": fanouts,
        "placement": placement,
        "lever": levers,
        "micro": micros,
        "pairs": pairs,
    }
    actors_up = all(levers.values()) and all(micros.values()) and all(pairs.values())
    if database and redis and placement and report["fanout"] and actors_up:
        return envelope(report)
    return envelope(report, "unavailable", CODE_ERROR, 503)
