"""The Redis connection (real server or the embedded one started by ``serve.stack``)."""

from __future__ import annotations

from redis.asyncio import Redis

from config.settings import Settings


def redis_url(settings: Settings) -> str:
    return settings.redis_url or f"unix://{settings.embedded_redis_socket}"


def connect_redis(settings: Settings) -> Redis:
    return Redis.from_url(redis_url(settings), decode_responses=True)


def redis_db(settings: Settings) -> int:
    """The database number REDIS_URL selects (0 for the embedded server, which is the exchange's own)."""
    return int(Redis.from_url(redis_url(settings)).connection_pool.connection_kwargs.get("db") or 0)
