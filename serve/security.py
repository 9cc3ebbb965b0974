"""Passwords, sessions, verification codes and throttles.

- Passwords: argon2id (argon2-cffi), hashed off the event loop.
- Sessions: a random token handed to the client once; Redis keeps only its SHA-256, with a TTL.
- Codes: six digits from ``secrets``, kept in Redis with a TTL; one send per target per resend
  window. A guess is checked by one Redis script (count, compare, burn), so parallel guesses never
  get more than ``code_max_attempts`` comparisons; wrong guesses are also limited per target and per
  client address within a window. A phone target carries its dialling code (``code_target``).
- Throttles: login failures, and failed password resets, counted per account and per client address;
  an attempt is taken before the slow check, never after it.
- Operators (the back office): e-mail, password and a current TOTP code (each code's step once),
  throttled like users' logins, for the console's login and the command line's money commands in production.
"""

from __future__ import annotations

import asyncio
import functools
import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from redis.asyncio import Redis
from redis.commands.core import AsyncScript
from redis.typing import EncodableT

from config.settings import Settings, get_settings
from store.admin import operators
from store.errors import DomainError, ErrorCode
from store.models import Operator
from store.sessions import PREFIX, Sessions

__all__ = [
    "Codes",
    "LoginThrottle",
    "ResetThrottle",
    "Sessions",
    "code_target",
    "hash_password",
    "operator_login",
    "verify_password",
]


@functools.cache
def _hasher() -> PasswordHasher:
    """argon2id at the settings' cost (``password_hash_cost``). A hash carries its own parameters, so
    a password hashed at either cost verifies under both."""
    if get_settings().password_hash_profile == "minimal":
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # argon2's floor: 8 KiB per lane
    return PasswordHasher()


@functools.cache
def _dummy_hash() -> str:
    """Verified against when the account does not exist, so both paths cost the same. Made on the first
    login check, not at import: a hash costs ~0.1-0.25 s, and every process that imports this module
    (the API, each Fanout, the CLI) would pay it at start."""
    return _hasher().hash("not-a-real-password")


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher().hash, password)


async def verify_password(password_hash: str | None, password: str) -> bool:
    def _check() -> bool:
        try:
            return _hasher().verify(password_hash or _dummy_hash(), password) and password_hash is not None
        except (VerificationError, InvalidHashError, UnicodeError):
            return False  # UnicodeError: a lone surrogate (legal in JSON) cannot be encoded, so cannot match

    return await asyncio.to_thread(_check)


def code_target(kind: Literal["email", "mobile"], account: str, country_code: str | None = "") -> str:
    """The name a code is kept under: an e-mail in lower case, a phone number with its dialling code,
    so a code sent to +1 5551234 never verifies +44 5551234."""
    return account.lower() if kind == "email" else f"+{country_code or ''} {account}"


# Checks one guess atomically. KEYS: the code, its miss count, the target's and the address's
# failure counts (the last may be absent). ARGV: the guess, code_max_attempts, the target and address
# limits, their window (s). Answers {status, seconds}: 1 right (the code is burnt), 0 wrong or no code,
# -1 wrong and the code's last attempt (burnt), -2 throttled for ``seconds``. Lua strings are
# interned, so ``==`` compares references and leaks no timing about the code.
_CHECK_CODE = """
local limits = {tonumber(ARGV[3]), tonumber(ARGV[4])}
for i = 3, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= limits[i - 2] then
    return {-2, math.max(redis.call('TTL', KEYS[i]), 1)}
  end
end
local code = redis.call('GET', KEYS[1])
if not code then return {0, 0} end
local tries = redis.call('INCR', KEYS[2])
if tries == 1 then redis.call('EXPIRE', KEYS[2], math.max(redis.call('TTL', KEYS[1]), 1)) end
if tries <= tonumber(ARGV[2]) and code == ARGV[1] then
  redis.call('DEL', KEYS[1], KEYS[2])
  return {1, 0}
end
for i = 3, #KEYS do
  redis.call('SET', KEYS[i], 0, 'NX', 'EX', ARGV[5])
  redis.call('INCR', KEYS[i])
end
if tries >= tonumber(ARGV[2]) then
  redis.call('DEL', KEYS[1], KEYS[2])
  return {-1, 0}
end
return {0, 0}
"""


@dataclass(frozen=True)
class Codes:
    """Verification codes per (purpose, target). Purposes are the spec's send types; targets come
    from :func:`code_target`."""

    redis: Redis
    settings: Settings
    _check: AsyncScript = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_check", self.redis.register_script(_CHECK_CODE))

    async def reserve_send(self, target: str) -> None:
        """Claim the send window of a target, or raise CODE_TOO_SOON with the seconds left."""
        key = f"{PREFIX}code_lock:{target}"
        if not await self.redis.set(key, 1, nx=True, ex=self.settings.code_resend_seconds):
            ttl = await self.redis.ttl(key)
            raise DomainError(ErrorCode.CODE_TOO_SOON, seconds=max(int(ttl), 1))

    async def release_send(self, target: str) -> None:
        """Give the send window back (the code was not sent after all)."""
        await self.redis.delete(f"{PREFIX}code_lock:{target}")

    async def create(self, purpose: int, target: str) -> str:
        code = f"{secrets.randbelow(10**6):06d}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(f"{PREFIX}code:{purpose}:{target}", code, ex=self.settings.code_ttl_seconds)
            pipe.delete(f"{PREFIX}code_tries:{purpose}:{target}")
            await pipe.execute()
        return code

    async def consume(self, purpose: int, target: str, code: str, *, ip: str | None = None) -> None:
        """Check a code and burn it. Raises CODE_INVALID, CODE_ATTEMPTS_EXCEEDED on the last allowed
        miss, or CODE_THROTTLED (with the minutes left) once the target, or the client address ``ip``,
        has had too many wrong codes within the window; a throttled guess is not compared."""
        s = self.settings
        keys = [f"{PREFIX}code:{purpose}:{target}", f"{PREFIX}code_tries:{purpose}:{target}",
                f"{PREFIX}code_fail:target:{target}"]  # fmt: skip
        if ip is not None:
            keys.append(f"{PREFIX}code_fail:ip:{ip}")
        # Bytes: a lone surrogate (legal in JSON) must reach the comparison, not fail to encode.
        guess = code.encode("utf-8", "surrogatepass")
        args: list[EncodableT] = [guess, s.code_max_attempts, s.code_target_max_failures, s.code_ip_max_failures,
                s.code_fail_window_seconds]  # fmt: skip
        status, seconds = await self._check(keys=keys, args=args)
        if status == 1:
            return
        if status == -2:
            raise DomainError(ErrorCode.CODE_THROTTLED, minutes=math.ceil(int(seconds) / 60))
        raise DomainError(ErrorCode.CODE_ATTEMPTS_EXCEEDED if status == -1 else ErrorCode.CODE_INVALID)


# Takes one attempt of each counter before the slow check. KEYS: the account's and the address's
# counters; ARGV: their limits, the window (s). Answers {0, 0} when both had one left (both counted), or
# {1, seconds} with the wait of the first that had none (nothing counted).
_RESERVE = """
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[i]) then
    return {1, math.max(redis.call('TTL', KEYS[i]), 1)}
  end
end
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], 0, 'NX', 'EX', ARGV[#KEYS + 1])
  redis.call('INCR', KEYS[i])
end
return {0, 0}
"""

# A success: the account's counter goes (KEYS[1]), the address's gives back one attempt (KEYS[2]).
_SUCCEEDED = """
redis.call('DEL', KEYS[1])
if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
"""


@dataclass(frozen=True)
class LoginThrottle:
    """Refuses logins with 429 after too many failures for one account or one client address.

    An attempt is taken (``reserve``) before the password is checked, by one Redis script, so parallel
    guesses never get more checks than the limit; a failure keeps its attempt, a success (``succeeded``)
    clears the account's count and gives the address its attempt back. The address limit is higher
    than the account limit: a shared office address is not locked out by one person's typos, while an
    address guessing across many accounts still is.
    """

    redis: Redis
    settings: Settings
    name: ClassVar[str] = "login_fail"
    error: ClassVar[ErrorCode] = ErrorCode.LOGIN_THROTTLED
    _reserve: AsyncScript = field(init=False, repr=False, compare=False)
    _succeeded: AsyncScript = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_reserve", self.redis.register_script(_RESERVE))
        object.__setattr__(self, "_succeeded", self.redis.register_script(_SUCCEEDED))

    def _limits(self) -> tuple[int, int, int]:
        """(failures per account, failures per address, window in seconds)."""
        s = self.settings
        return s.login_max_failures, s.login_ip_max_failures, s.login_lock_seconds

    def _keys(self, account: str, ip: str) -> list[str]:
        return [f"{PREFIX}{self.name}:acct:{account}", f"{PREFIX}{self.name}:ip:{ip}"]

    async def reserve(self, account: str, ip: str) -> None:
        """Take one attempt of the account's and of the address's, or raise the throttle's error (429,
        with the minutes left) when either has none left. Call it before the check it guards."""
        per_account, per_ip, window = self._limits()
        throttled, seconds = await self._reserve(keys=self._keys(account, ip), args=[per_account, per_ip, window])
        if int(throttled):
            raise DomainError(self.error, minutes=math.ceil(int(seconds) / 60))

    async def succeeded(self, account: str, ip: str) -> None:
        """The check passed: the account's count starts again, the address gets its attempt back."""
        await self._succeeded(keys=self._keys(account, ip))

    async def verified(self, account: str, ip: str, check: Callable[[], Awaitable[bool]]) -> bool:
        """``check()`` (a password comparison) behind a reserved attempt: its answer; raises the
        throttle's error without calling it when no attempt is left."""
        await self.reserve(account, ip)
        if not await check():
            return False
        await self.succeeded(account, ip)
        return True

    async def reset(self, account: str) -> None:
        """A verified password reset lifts the account's lock."""
        await self.redis.delete(self._keys(account, "")[0])


@dataclass(frozen=True)
class ResetThrottle(LoginThrottle):
    """Failed password resets (unknown account, wrong code) per account and per client address."""

    name: ClassVar[str] = "reset_fail"
    error: ClassVar[ErrorCode] = ErrorCode.RESET_THROTTLED

    def _limits(self) -> tuple[int, int, int]:
        s = self.settings
        return s.reset_max_failures, s.reset_ip_max_failures, s.reset_window_seconds


def operator_throttle_key(email: str) -> str:
    """An operator's failed logins (and wrong old passwords) count under their e-mail."""
    return f"op:{email}"


async def operator_login(throttle: LoginThrottle, email: str, password: str, otp: str, address: str) -> Operator:
    """The active operator ``email`` whose password and current two-factor code these are. One refusal
    for every failure (ADMIN_BAD_LOGIN: no hint which part was wrong, or whether the operator exists),
    counted per operator (``op:<email>``) and per ``address``, the attempt taken before anything is
    checked; LOGIN_THROTTLED after too many. A code opens one login: its step, once accepted, is not
    accepted again (console and command line alike)."""
    email = email.strip().lower()
    key = operator_throttle_key(email)
    await throttle.reserve(key, address)
    operator = await operators.by_email(email) if email else None
    password_ok = await verify_password(operator.password_hash if operator else None, password)
    step = operators.otp_step(operator.totp_secret, otp) if operator else None
    if (
        operator is None
        or not operator.active
        or not password_ok
        or step is None
        or not await operators.TotpSteps(throttle.redis).use(operator.id, step)
    ):
        raise DomainError(ErrorCode.ADMIN_BAD_LOGIN)
    await throttle.succeeded(key, address)
    return operator
