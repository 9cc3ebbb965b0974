"""Passwords, sessions, verification codes and throttles.

- Passwords: argon2id (argon2-cffi), hashed off the event loop.
- Sessions: a random token handed to the client once; Redis keeps only its SHA-256, with a TTL.
- Codes: six digits from ``secrets``, kept in Redis with a TTL; one send per target per resend
  window; a few wrong guesses burn the code.
- Login throttle: failures counted per account and per client address within a window.
"""

from __future__ import annotations

import asyncio
import hmac
import math
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from redis.asyncio import Redis

from actors.errors import DomainError, ErrorCode
from config.settings import Settings
from store.sessions import PREFIX, Sessions

__all__ = ["Codes", "LoginThrottle", "Sessions", "hash_password", "verify_password"]

_hasher = PasswordHasher()
# Verified against when the account does not exist, so both paths cost the same.
_DUMMY_HASH = _hasher.hash("not-a-real-password")


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(password_hash: str | None, password: str) -> bool:
    def _check() -> bool:
        try:
            return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
        except (VerificationError, InvalidHashError, UnicodeError):
            return False  # UnicodeError: a lone surrogate (legal in JSON) cannot be encoded, so cannot match

    return await asyncio.to_thread(_check)


@dataclass(frozen=True)
class Codes:
    """Verification codes per (purpose, target). Purposes are the spec's send types."""

    redis: Redis
    settings: Settings

    async def reserve_send(self, target: str) -> None:
        """Claim the send window of a target, or raise CODE_TOO_SOON with the seconds left."""
        key = f"{PREFIX}code_lock:{target}"
        if not await self.redis.set(key, 1, nx=True, ex=self.settings.code_resend_seconds):
            ttl = await self.redis.ttl(key)
            raise DomainError(ErrorCode.CODE_TOO_SOON, seconds=max(int(ttl), 1))

    async def create(self, purpose: int, target: str) -> str:
        code = f"{secrets.randbelow(10**6):06d}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(f"{PREFIX}code:{purpose}:{target}", code, ex=self.settings.code_ttl_seconds)
            pipe.delete(f"{PREFIX}code_tries:{purpose}:{target}")
            await pipe.execute()
        return code

    async def consume(self, purpose: int, target: str, code: str) -> None:
        """Check a code and burn it. Raises CODE_INVALID, or CODE_ATTEMPTS_EXCEEDED after too many misses."""
        key = f"{PREFIX}code:{purpose}:{target}"
        expected = await self.redis.get(key)
        # Bytes, not str: compare_digest refuses str with non-ASCII characters (a TypeError, so a 500).
        if expected is not None and hmac.compare_digest(expected.encode(), code.encode(errors="surrogatepass")):
            if await self.redis.delete(key):
                return
            raise DomainError(ErrorCode.CODE_INVALID)  # a concurrent request used it first
        if expected is None:
            raise DomainError(ErrorCode.CODE_INVALID)
        tries_key = f"{PREFIX}code_tries:{purpose}:{target}"
        tries = await self.redis.incr(tries_key)
        await self.redis.expire(tries_key, self.settings.code_ttl_seconds)
        if tries >= self.settings.code_max_attempts:
            await self.redis.delete(key, tries_key)
            raise DomainError(ErrorCode.CODE_ATTEMPTS_EXCEEDED)
        raise DomainError(ErrorCode.CODE_INVALID)


@dataclass(frozen=True)
class LoginThrottle:
    """Refuses logins with 429 after too many failures for one account or one client address.

    The address limit is higher than the account limit: a shared office address is not locked out
    by one person's typos, while an address guessing across many accounts still is.
    """

    redis: Redis
    settings: Settings

    def _keys(self, account: str, ip: str) -> list[tuple[str, int]]:
        return [
            (f"{PREFIX}login_fail:acct:{account}", self.settings.login_max_failures),
            (f"{PREFIX}login_fail:ip:{ip}", self.settings.login_ip_max_failures),
        ]

    async def check(self, account: str, ip: str) -> None:
        for key, limit in self._keys(account, ip):
            count = await self.redis.get(key)
            if count is not None and int(count) >= limit:
                ttl = max(await self.redis.ttl(key), 1)
                raise DomainError(ErrorCode.LOGIN_THROTTLED, minutes=math.ceil(ttl / 60))

    async def failed(self, account: str, ip: str) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            for key, _ in self._keys(account, ip):
                # SET NX starts the window on the first failure; INCR keeps its TTL.
                pipe.set(key, 0, nx=True, ex=self.settings.login_lock_seconds)
                pipe.incr(key)
            await pipe.execute()

    async def succeeded(self, account: str) -> None:
        await self.redis.delete(f"{PREFIX}login_fail:acct:{account}")

    async def reset(self, account: str) -> None:
        """A verified password reset lifts the account's lock."""
        await self.succeeded(account)
