"""Operator accounts: created by `exchange operator add` with a one-time password and a TOTP secret,
logged in with password + a current TOTP code, sessions in Redis (short, sliding, revocable).

Roles gate the console's routes on the server: each route names the role it needs; ``admin`` manages
operators. An operator may hold several roles."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

import pyotp
from redis.asyncio import Redis

from store.errors import DomainError, ErrorCode
from store.models import Operator
from store.sessions import PREFIX
from store.times import now_ms

ROLES = ("support", "finance", "risk", "content", "markets", "products", "admin")
ISSUER = "Exchange back office"
SESSION_TTL_S = 30 * 60  # idle time after which a session ends; every use starts it again
SESSION_MAX_S = 12 * 3600  # a session ends this long after login, used or not
TOTP_STEP_S = 30  # authenticator apps' step (the otpauth default)
STEP_MEMORY_S = 4 * TOTP_STEP_S  # an accepted step is remembered while a code of it can still be accepted


def new_password() -> str:
    """A one-time password: 16 URL-safe characters."""
    return secrets.token_urlsafe(12)


def new_secret() -> str:
    return pyotp.random_base32()


def enrolment_uri(email: str, secret: str) -> str:
    """The ``otpauth://`` URI an authenticator app scans (as a QR code) or takes typed in."""
    return pyotp.TOTP(secret).provisioning_uri(name=email, issuer_name=ISSUER)


def otp_step(secret: str, code: str, at: float | None = None) -> int | None:
    """The time step of ``code`` when it is a current code (the one before and after too, for clock
    drift), else None."""
    code = code.strip()
    if len(code) != 6 or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret, interval=TOTP_STEP_S)
    now = totp.timecode(time.time() if at is None else at)
    for step in (now, now - 1, now + 1):
        if hmac.compare_digest(totp.generate_otp(step), code):
            return step
    return None


# Accepts a step once: KEYS[1] holds the latest accepted step; ARGV: the step, the key's TTL. 1 when the
# step is later than every accepted one (now the latest), else 0.
_USE_STEP = """
if tonumber(ARGV[1]) <= tonumber(redis.call('GET', KEYS[1]) or '-1') then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
"""


@dataclass(frozen=True)
class TotpSteps:
    """The latest TOTP step each operator logged in with, so a code is never accepted twice (a code
    seen over a shoulder, or in a log, opens nothing once used), nor one older than it. Kept as long
    as a step can be accepted (three steps: the one before, the current, the one after)."""

    redis: Redis

    async def use(self, operator_id: int, step: int) -> bool:
        """Accept ``step`` for the operator: False when it, or a later one, was accepted before."""
        script = self.redis.register_script(_USE_STEP)
        return bool(await script(keys=[f"{PREFIX}op_totp:{operator_id}"], args=[step, STEP_MEMORY_S]))


def check_access(operator: Operator, roles: tuple[str, ...]) -> None:
    """Raise ADMIN_PASSWORD_CHANGE_REQUIRED while the operator still has the one-time password, and
    ADMIN_ROLE_REQUIRED unless they hold one of ``roles`` (the console's routes and the commands alike)."""
    if operator.password_is_temporary:
        raise DomainError(ErrorCode.ADMIN_PASSWORD_CHANGE_REQUIRED)
    if not set(roles) & set(operator.roles):
        raise DomainError(ErrorCode.ADMIN_ROLE_REQUIRED)


def check_roles(roles: list[str]) -> list[str]:
    unknown = [r for r in roles if r not in ROLES]
    if unknown or not roles:
        raise ValueError(f"roles must be among {', '.join(ROLES)} (got {', '.join(roles) or 'none'})")
    return [r for r in ROLES if r in roles]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class OperatorSession:
    operator_id: int
    started_ms: int


@dataclass(frozen=True)
class OperatorSessions:
    """Operators' sessions, apart from users' (other keys, shorter life)."""

    redis: Redis

    async def issue(self, operator_id: int) -> str:
        token = "op_" + secrets.token_urlsafe(32)
        key = _digest(token)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(f"{PREFIX}op_session:{key}", f"{operator_id}:{now_ms()}", ex=SESSION_TTL_S)
            pipe.sadd(f"{PREFIX}op_sessions:{operator_id}", key)
            pipe.expire(f"{PREFIX}op_sessions:{operator_id}", SESSION_MAX_S)
            await pipe.execute()
        return token

    async def resolve(self, token: str) -> OperatorSession | None:
        """The session's operator, its idle timer started again; None when it ended (or never was)."""
        if not token or len(token) > 256:
            return None
        key = f"{PREFIX}op_session:{_digest(token)}"
        value = await self.redis.get(key)
        if value is None:
            return None
        operator_id, started = (int(x) for x in (value.decode() if isinstance(value, bytes) else value).split(":"))
        if now_ms() - started > SESSION_MAX_S * 1000:
            await self.redis.delete(key)
            return None
        await self.redis.expire(key, SESSION_TTL_S)
        return OperatorSession(operator_id, started)

    async def revoke(self, token: str, operator_id: int) -> None:
        key = _digest(token)
        await self.redis.delete(f"{PREFIX}op_session:{key}")
        await self.redis.srem(f"{PREFIX}op_sessions:{operator_id}", key)

    async def revoke_all(self, operator_id: int) -> int:
        """End every session of an operator (disabled, roles changed, password changed)."""
        keys = list(await self.redis.smembers(f"{PREFIX}op_sessions:{operator_id}"))
        names = [f"{PREFIX}op_session:{k.decode() if isinstance(k, bytes) else k}" for k in keys]
        if names:
            await self.redis.delete(*names)
        await self.redis.delete(f"{PREFIX}op_sessions:{operator_id}")
        return len(names)


async def by_email(email: str) -> Operator | None:
    return await Operator.get_or_none(email=email.strip().lower())
