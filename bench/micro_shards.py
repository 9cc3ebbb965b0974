"""The running exchange's MicroTimer shards and pairs over Ray, for ``micro_bench.py``: join its Ray,
read the shards' status, kill one and wait for it to come back, and time the pairs' ``tick_fence``
(what a settling pass waits for)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from micro_checks import Run

from config.settings import get_settings


def join_cluster() -> list[Any]:
    """The MicroTimer handles of the running exchange (joins its Ray as a driver)."""
    import ray

    from actors.names import micro_name
    from serve.stack import join_ray, ray_address_file

    settings = get_settings()
    join_ray(ray_address_file(settings).read_text().strip(), log_to_driver=False, logging_level=logging.ERROR)
    return [ray.get_actor(micro_name(i)) for i in range(settings.micro_shards)]


def shard_status(shards: list[Any]) -> list[dict[str, Any]]:
    import ray

    return ray.get([s.status.remote() for s in shards], timeout=60)


def kill(shard: Any) -> None:
    import ray

    ray.kill(shard, no_restart=False)


def fence_round_trip(symbols: list[str]) -> list[float]:
    """How long each pair takes to answer ``tick_fence`` (what a settling pass waits for), ms."""
    import ray

    from actors.pair.directory import pair_actor

    took = []
    for symbol in symbols:
        began = time.monotonic()
        ray.get(pair_actor(symbol).tick_fence.remote(), timeout=30)
        took.append((time.monotonic() - began) * 1000)
    return took


async def sample_fences(symbols: list[str], run: Run) -> None:
    """Twice a second until cancelled: every pair's fence round trip."""
    while True:
        with contextlib.suppress(Exception):  # a pair restarting: no sample
            run.fence_ms += await asyncio.to_thread(fence_round_trip, symbols)
        await asyncio.sleep(0.5)


async def wait_restarted(shard: Any, settled_before: int, since: float) -> float:
    """Seconds from ``since`` until the shard answers as a new actor (its count of settled contracts
    starts again, or it is loading) that is healthy; NaN if not within two minutes."""
    restarted = False
    while time.monotonic() - since < 120:
        try:
            status = (await asyncio.to_thread(shard_status, [shard]))[0]
        except Exception:  # dead, not restarted yet
            restarted = True
        else:
            restarted = restarted or status["settled"] < settled_before or not status["healthy"]
            if restarted and status["healthy"]:
                return time.monotonic() - since
        await asyncio.sleep(0.1)
    return float("nan")
