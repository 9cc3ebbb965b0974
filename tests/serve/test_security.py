"""Sessions, codes and throttles against the real Redis of the session."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from actors.errors import DomainError, ErrorCode
from config.settings import Settings
from serve.security import Codes, LoginThrottle, Sessions, hash_password, verify_password
from store.cache import connect_redis


@pytest.fixture
async def redis(settings: Settings) -> AsyncIterator[Redis]:
    client = connect_redis(settings)
    yield client
    await client.aclose()


async def test_passwords_are_hashed_with_argon2() -> None:
    hashed = await hash_password("abc123")
    assert hashed.startswith("$argon2id$") and "abc123" not in hashed
    assert await verify_password(hashed, "abc123")
    assert not await verify_password(hashed, "abc124")
    assert not await verify_password(None, "abc123")


async def test_sessions_store_only_a_digest_and_revoke(redis: Redis) -> None:
    sessions = Sessions(redis, ttl=120)
    a, b, c = [await sessions.issue(7001) for _ in range(3)]
    assert not await redis.exists(f"ex:session:{a}")  # the token itself is never a key
    assert 0 < await redis.ttl(f"ex:session:{__import__('hashlib').sha256(a.encode()).hexdigest()}") <= 120
    assert await sessions.resolve(a) == 7001
    await sessions.revoke(a, 7001)
    assert await sessions.resolve(a) is None
    await sessions.revoke_all(7001, keep=b)
    assert await sessions.resolve(b) == 7001 and await sessions.resolve(c) is None
    assert await sessions.resolve("") is None and await sessions.resolve("x" * 300) is None


async def test_codes_throttle_expire_and_burn(redis: Redis, settings: Settings) -> None:
    codes = Codes(redis, settings)
    await codes.reserve_send("t1@example.com")
    with pytest.raises(DomainError) as too_soon:
        await codes.reserve_send("t1@example.com")
    assert too_soon.value.code is ErrorCode.CODE_TOO_SOON and 0 < too_soon.value.params["seconds"] <= 60
    code = await codes.create(1, "t1@example.com")
    assert 0 < await redis.ttl("ex:code:1:t1@example.com") <= settings.code_ttl_seconds
    with pytest.raises(DomainError):
        await codes.consume(2, "t1@example.com", code)  # another purpose's code
    await codes.consume(1, "t1@example.com", code)
    with pytest.raises(DomainError) as reused:
        await codes.consume(1, "t1@example.com", code)
    assert reused.value.code is ErrorCode.CODE_INVALID

    code = await codes.create(1, "t2@example.com")
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(settings.code_max_attempts - 1):
        with pytest.raises(DomainError) as miss:
            await codes.consume(1, "t2@example.com", wrong)
        assert miss.value.code is ErrorCode.CODE_INVALID
    with pytest.raises(DomainError) as burnt:
        await codes.consume(1, "t2@example.com", wrong)
    assert burnt.value.code is ErrorCode.CODE_ATTEMPTS_EXCEEDED
    with pytest.raises(DomainError):
        await codes.consume(1, "t2@example.com", code)  # the right code no longer works


async def test_login_throttle_per_account_and_per_address(redis: Redis, settings: Settings) -> None:
    tight = settings.model_copy(update={"login_max_failures": 3, "login_ip_max_failures": 5})
    throttle = LoginThrottle(redis, tight)
    for _ in range(3):
        await throttle.check("email::victim@example.com", "10.9.9.9")
        await throttle.failed("email::victim@example.com", "10.9.9.9")
    with pytest.raises(DomainError) as locked:
        await throttle.check("email::victim@example.com", "10.9.9.8")
    assert locked.value.code is ErrorCode.LOGIN_THROTTLED and locked.value.params["minutes"] >= 1
    # the same address guessing other accounts is stopped by the address limit
    await throttle.failed("email::other1@example.com", "10.9.9.9")
    await throttle.failed("email::other2@example.com", "10.9.9.9")
    with pytest.raises(DomainError):
        await throttle.check("email::fresh@example.com", "10.9.9.9")
    await throttle.check("email::fresh@example.com", "10.9.9.7")
    await throttle.reset("email::victim@example.com")
    await throttle.check("email::victim@example.com", "10.9.9.7")
