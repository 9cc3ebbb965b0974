"""Login sessions in Redis, shared by the API (which issues them) and the Fanout (which checks them).

A random token goes to the client once; Redis keeps only its SHA-256 with a TTL, plus a per-user
set of digests so a password change can end every session. Ending sessions also publishes their
digests on ``revoked_topic``, so the push fanouts stop a revoked session's private pushes at once.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis

PREFIX = "ex:"


def digest(token: str) -> str:
    """What Redis keeps of a token (and what the fanouts remember of a logged-in connection)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def revoked_topic(db: int) -> str:
    """The pub/sub topic announcing ended sessions (a JSON list of digests) of Redis database ``db``:
    pub/sub ignores databases, so the number keeps two exchanges on one server apart."""
    return f"{PREFIX}sessions_revoked:{db}"


def _db(redis: Redis) -> int:
    return int(redis.connection_pool.connection_kwargs.get("db") or 0)


@dataclass(frozen=True)
class Sessions:
    """Login sessions. ``issue`` returns the only copy of the token that ever leaves the server."""

    redis: Redis
    ttl: int

    async def issue(self, uid: int) -> str:
        token = secrets.token_urlsafe(32)
        key = digest(token)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(f"{PREFIX}session:{key}", uid, ex=self.ttl)
            pipe.sadd(f"{PREFIX}user_sessions:{uid}", key)
            pipe.expire(f"{PREFIX}user_sessions:{uid}", self.ttl)
            await pipe.execute()
        return token

    async def resolve(self, token: str) -> int | None:
        if not token or len(token) > 256:
            return None
        uid = await self.redis.get(f"{PREFIX}session:{digest(token)}")
        return int(uid) if uid is not None else None

    async def resolve_digests(self, digests: Sequence[str]) -> list[int | None]:
        """The user of each session digest, None for one that ended (one round trip for them all)."""
        if not digests:
            return []
        found = await self.redis.mget([f"{PREFIX}session:{d}" for d in digests])
        return [int(uid) if uid is not None else None for uid in found]

    async def revoke(self, token: str, uid: int) -> None:
        await self._end(uid, [digest(token)])

    async def revoke_all(self, uid: int, keep: str | None = None) -> None:
        """End every session of a user (after a password change or reset), except ``keep``."""
        keep_digest = digest(keep) if keep else None
        # The client decodes replies (decode_responses): str members, which redis's types do not track.
        members = cast(set[str], await self.redis.smembers(f"{PREFIX}user_sessions:{uid}"))
        await self._end(uid, [d for d in members if d != keep_digest])

    async def _end(self, uid: int, digests: list[str]) -> None:
        """Delete the sessions, then announce them: a fanout that hears it logs their sockets out
        (one that misses it finds out at its next periodic check)."""
        if not digests:
            return
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(*[f"{PREFIX}session:{d}" for d in digests])
            pipe.srem(f"{PREFIX}user_sessions:{uid}", *digests)
            pipe.publish(revoked_topic(_db(self.redis)), json.dumps(digests))
            await pipe.execute()
