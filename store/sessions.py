"""Login sessions in Redis, shared by the API (which issues them) and the Fanout (which checks them).

A random token goes to the client once; Redis keeps only its SHA-256 with a TTL, plus a per-user
set of digests so a password change can end every session.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from redis.asyncio import Redis

PREFIX = "ex:"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Sessions:
    """Login sessions. ``issue`` returns the only copy of the token that ever leaves the server."""

    redis: Redis
    ttl: int

    async def issue(self, uid: int) -> str:
        token = secrets.token_urlsafe(32)
        digest = _digest(token)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(f"{PREFIX}session:{digest}", uid, ex=self.ttl)
            pipe.sadd(f"{PREFIX}user_sessions:{uid}", digest)
            pipe.expire(f"{PREFIX}user_sessions:{uid}", self.ttl)
            await pipe.execute()
        return token

    async def resolve(self, token: str) -> int | None:
        if not token or len(token) > 256:
            return None
        uid = await self.redis.get(f"{PREFIX}session:{_digest(token)}")
        return int(uid) if uid is not None else None

    async def revoke(self, token: str, uid: int) -> None:
        digest = _digest(token)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(f"{PREFIX}session:{digest}")
            pipe.srem(f"{PREFIX}user_sessions:{uid}", digest)
            await pipe.execute()

    async def revoke_all(self, uid: int, keep: str | None = None) -> None:
        """End every session of a user (after a password change or reset), except ``keep``."""
        key = f"{PREFIX}user_sessions:{uid}"
        keep_digest = _digest(keep) if keep else None
        digests = [d for d in await self.redis.smembers(key) if d != keep_digest]
        if digests:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.delete(*[f"{PREFIX}session:{d}" for d in digests])
                pipe.srem(key, *digests)
                await pipe.execute()
