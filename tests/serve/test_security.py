"""Sessions, codes and throttles against the real Redis of the session."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator
from types import SimpleNamespace

import pytest
from redis.asyncio import Redis
from starlette.requests import Request

from config.settings import Settings
from serve.api.deps import Services, check_pay_password
from serve.security import Codes, LoginThrottle, ResetThrottle, Sessions, code_target, hash_password, verify_password
from store.cache import connect_redis, redis_db
from store.errors import DomainError, ErrorCode
from store.sessions import digest, revoked_topic


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
    for _ in range(3):  # three failures: each took its attempt and kept it
        await throttle.reserve("email::victim@example.com", "10.9.9.9")
    with pytest.raises(DomainError) as locked:
        await throttle.reserve("email::victim@example.com", "10.9.9.8")
    assert locked.value.code is ErrorCode.LOGIN_THROTTLED and locked.value.params["minutes"] >= 1
    # the same address guessing other accounts is stopped by the address limit
    await throttle.reserve("email::other1@example.com", "10.9.9.9")
    await throttle.reserve("email::other2@example.com", "10.9.9.9")
    with pytest.raises(DomainError):
        await throttle.reserve("email::fresh@example.com", "10.9.9.9")
    await throttle.reserve("email::fresh@example.com", "10.9.9.7")
    await throttle.reset("email::victim@example.com")
    await throttle.reserve("email::victim@example.com", "10.9.9.7")


async def test_a_success_clears_the_account_and_gives_the_address_its_attempt_back(
    redis: Redis, settings: Settings
) -> None:
    tight = settings.model_copy(update={"login_max_failures": 3, "login_ip_max_failures": 4})
    throttle = LoginThrottle(redis, tight)
    for _ in range(10):  # an office logging in all day from one address is never locked out
        await throttle.reserve("email::owner@example.com", "10.9.8.1")
        await throttle.succeeded("email::owner@example.com", "10.9.8.1")
    assert int(await redis.get("ex:login_fail:ip:10.9.8.1") or 0) == 0
    for _ in range(2):
        await throttle.reserve("email::owner@example.com", "10.9.8.1")  # two typos
    await throttle.reserve("email::owner@example.com", "10.9.8.1")
    await throttle.succeeded("email::owner@example.com", "10.9.8.1")  # then the right password
    assert not await redis.exists("ex:login_fail:acct:email::owner@example.com")
    assert int(await redis.get("ex:login_fail:ip:10.9.8.1") or 0) == 2  # the typos still count there
    await throttle.succeeded("email::nobody@example.com", "10.9.8.2")  # nothing to give back: no count made
    assert not await redis.exists("ex:login_fail:ip:10.9.8.2")


async def test_parallel_attempts_never_get_more_checks_than_the_limit(redis: Redis, settings: Settings) -> None:
    """The attempt is reserved before the slow check (argon2 takes tens of milliseconds), in one Redis
    script: of 40 parallel wrong passwords only the limit are checked."""
    throttle = LoginThrottle(redis, settings)
    checked = 0

    async def wrong() -> bool:
        nonlocal checked
        checked += 1
        await asyncio.sleep(0.05)  # as slow as a password hash
        return False

    results = await asyncio.gather(
        *[throttle.verified("email::storm@example.com", "10.9.7.1", wrong) for _ in range(40)], return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, DomainError) and r.code is ErrorCode.LOGIN_THROTTLED]
    assert checked == settings.login_max_failures and results.count(False) == checked
    assert len(refused) == 40 - checked


async def test_parallel_wrong_deal_passwords_get_at_most_the_limit_checked(redis: Redis, settings: Settings) -> None:
    """The deal password shares the login throttle (its own count per user). Over HTTP one user's
    withdrawals and releases are single-flight per route, so this calls the check itself, 40 at once."""
    svc = Services.build(settings, redis)
    user = SimpleNamespace(id=7301, pay_password_hash=await hash_password("Deal1234"))
    request = Request({"type": "http", "method": "POST", "path": "/", "headers": [], "client": ("10.9.6.1", 1)})
    results = await asyncio.gather(
        *[check_pay_password(svc, request, user, "Wrong123") for _ in range(40)],  # type: ignore[arg-type]
        return_exceptions=True,
    )
    codes = Counter(r.code for r in results if isinstance(r, DomainError))
    assert codes == {ErrorCode.PAY_PASSWORD_WRONG: settings.login_max_failures,
                     ErrorCode.LOGIN_THROTTLED: 40 - settings.login_max_failures}  # fmt: skip
    with pytest.raises(DomainError) as right:
        await check_pay_password(svc, request, user, "Deal1234")  # type: ignore[arg-type]
    assert right.value.code is ErrorCode.LOGIN_THROTTLED


async def test_parallel_guesses_never_get_more_comparisons_than_the_limit(redis: Redis, settings: Settings) -> None:
    codes = Codes(redis, settings)
    for round_ in range(5):  # the order of arrival varies: the bound holds every time
        target = f"storm{round_}@example.com"
        code = await codes.create(1, target)
        wrong = "000000" if code != "000000" else "111111"
        guesses = [codes.consume(1, target, wrong) for _ in range(40)] + [codes.consume(1, target, code)]
        results = await asyncio.gather(*guesses, return_exceptions=True)
        outcomes = [r.code if isinstance(r, DomainError) else "ok" for r in results]
        misses = int(await redis.get(f"ex:code_fail:target:{target}") or 0)
        assert misses + outcomes.count("ok") <= settings.code_max_attempts
        assert outcomes.count(ErrorCode.CODE_ATTEMPTS_EXCEEDED) == (0 if outcomes[-1] == "ok" else 1)
        assert not await redis.exists(f"ex:code:1:{target}")  # used or burnt: gone either way


async def test_wrong_codes_are_limited_per_target_and_per_address(redis: Redis, settings: Settings) -> None:
    tight = settings.model_copy(update={"code_max_attempts": 3, "code_target_max_failures": 4,
                                        "code_ip_max_failures": 6, "code_fail_window_seconds": 120})  # fmt: skip
    codes = Codes(redis, tight)
    wrong = "abcdef"  # never a code (codes are digits)
    for target in ("lim-a@example.com", "lim-a@example.com", "lim-b@example.com"):
        await codes.create(1, target)
        for _ in range(2):
            with pytest.raises(DomainError):
                await codes.consume(1, target, wrong, ip="10.8.8.8")
    # lim-a had 4 misses: its target limit is reached, for any address and even with a new, right code
    code = await codes.create(1, "lim-a@example.com")
    with pytest.raises(DomainError) as throttled:
        await codes.consume(1, "lim-a@example.com", code, ip="10.8.8.7")
    assert throttled.value.code is ErrorCode.CODE_THROTTLED and throttled.value.params["minutes"] == 2
    # 10.8.8.8 had 6 misses over two targets: it may not guess at a third
    code = await codes.create(1, "lim-c@example.com")
    with pytest.raises(DomainError) as by_address:
        await codes.consume(1, "lim-c@example.com", code, ip="10.8.8.8")
    assert by_address.value.code is ErrorCode.CODE_THROTTLED
    await codes.consume(1, "lim-c@example.com", code, ip="10.8.8.9")  # another address may, and was not compared
    await codes.consume(1, "lim-b@example.com", await codes.create(1, "lim-b@example.com"))  # no address: target only


async def test_phone_targets_carry_the_dialling_code() -> None:
    assert code_target("mobile", "5551234", "1") == "+1 5551234" != code_target("mobile", "5551234", "44")
    assert code_target("mobile", "15551234", "4") != code_target("mobile", "5551234", "41")  # no run-together
    assert code_target("email", "Me@Example.com") == "me@example.com"


async def test_failed_resets_are_limited_per_account_and_per_address(redis: Redis, settings: Settings) -> None:
    tight = settings.model_copy(update={"reset_max_failures": 2, "reset_ip_max_failures": 3})
    throttle = ResetThrottle(redis, tight)
    for account in ("email:r1@example.com", "email:r1@example.com"):
        await throttle.reserve(account, "10.7.7.7")
    with pytest.raises(DomainError) as locked:
        await throttle.reserve("email:r1@example.com", "10.7.7.6")
    assert locked.value.code is ErrorCode.RESET_THROTTLED and locked.value.params["minutes"] >= 1
    await throttle.reserve("email:r2@example.com", "10.7.7.7")
    with pytest.raises(DomainError):
        await throttle.reserve("email:r3@example.com", "10.7.7.7")  # the address had 3
    await throttle.reserve("email:r3@example.com", "10.7.7.6")
    # A reset's failures and a login's are counted apart.
    await LoginThrottle(redis, tight).reserve("email:r1@example.com", "10.7.7.6")


async def test_ending_sessions_announces_their_digests(redis: Redis, settings: Settings) -> None:
    sessions = Sessions(redis, ttl=120)
    a, b, c = [await sessions.issue(7101) for _ in range(3)]
    assert await sessions.resolve_digests([digest(a), digest(b), "0" * 64]) == [7101, 7101, None]
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(revoked_topic(redis_db(settings)))
    try:
        await sessions.revoke(a, 7101)
        await sessions.revoke_all(7101, keep=b)
        heard = []
        deadline = asyncio.get_running_loop().time() + 5
        while len(heard) < 2:
            assert asyncio.get_running_loop().time() < deadline, f"heard only {heard}"
            message = await pubsub.get_message(timeout=1)  # None also for a (skipped) subscribe reply
            if message is not None:
                heard.append(json.loads(message["data"]))
    finally:
        await pubsub.aclose()
    assert heard == [[digest(a)], [digest(c)]]
    assert await sessions.resolve_digests([digest(a), digest(b), digest(c)]) == [None, 7101, None]
