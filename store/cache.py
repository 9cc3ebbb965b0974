"""The Redis connection (real server or the embedded one started by ``serve.stack``), a fixed-window
rate count and a bounded cache of JSON values."""

from __future__ import annotations

import json
import time
from typing import Any, cast

from redis.asyncio import Redis

from config.settings import Settings


def redis_url(settings: Settings) -> str:
    return settings.redis_url or f"unix://{settings.embedded_redis_socket}"


def connect_redis(settings: Settings) -> Redis:
    return Redis.from_url(redis_url(settings), decode_responses=True)


def redis_db(settings: Settings) -> int:
    """The database number REDIS_URL selects (0 for the embedded server, which is the exchange's own)."""
    return int(Redis.from_url(redis_url(settings)).connection_pool.connection_kwargs.get("db") or 0)


async def within_rate(redis: Redis, key: str, limit: int, window_s: int) -> bool:
    """Count one more use of ``key`` in a fixed window of ``window_s`` seconds (it starts at the first
    use); False once the count passes ``limit``."""
    async with redis.pipeline(transaction=True) as pipe:
        pipe.set(key, 0, nx=True, ex=window_s)
        pipe.incr(key)
        _, count = await pipe.execute()
    return int(count) <= limit


class BoundedCache:
    """JSON values under ``prefix`` + name, each kept ``ttl`` seconds and at most ``entries`` of them:
    an index (a sorted set by time of writing) lets the oldest go first when a write passes the count."""

    def __init__(self, redis: Redis, prefix: str, *, ttl: int, entries: int) -> None:
        self._redis = redis
        self._prefix = prefix
        self._index = f"{prefix}index"
        self._ttl = ttl
        self._entries = entries

    async def get(self, name: str) -> Any | None:
        raw = await self._redis.get(self._prefix + name)
        return None if raw is None else json.loads(raw)

    async def put(self, name: str, value: Any) -> None:
        now = time.time()
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(self._prefix + name, json.dumps(value), ex=self._ttl)
            pipe.zadd(self._index, {name: now})
            pipe.zremrangebyscore(self._index, "-inf", now - self._ttl)  # entries expired by their TTL
            pipe.zcard(self._index)
            count = (await pipe.execute())[-1]
        if count > self._entries:
            # A client with decode_responses: (member, score) pairs of str, which redis's types do not track.
            popped = cast(list[tuple[str, float]], await self._redis.zpopmin(self._index, count - self._entries))
            oldest = [member for member, _ in popped]
            await self._redis.delete(*(self._prefix + member for member in oldest))
