"""Request dependencies as ``Annotated`` aliases: ``Lang``, ``Services``, ``CurrentUser`` ..."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request
from redis.asyncio import Redis

from actors.engine import Engine
from config.settings import Settings
from serve.api.pairs import PairCatalog
from serve.i18n import normalize_lang
from serve.outbox import Outbox
from serve.security import Codes, LoginThrottle, ResetThrottle, Sessions, verify_password
from store.errors import DomainError, ErrorCode
from store.idempotency import KeyStore
from store.models import User
from store.prices import UsdPrices
from store.sessions import PREFIX


@dataclass(frozen=True)
class Services:
    """What a replica holds for its whole life; built once in the app's lifespan."""

    settings: Settings
    redis: Redis
    sessions: Sessions
    codes: Codes
    throttle: LoginThrottle
    reset_throttle: ResetThrottle
    outbox: Outbox
    pairs: PairCatalog
    prices: UsdPrices  # each currency's USD price from the marks, cached for a second
    idempotency: KeyStore  # money-moving POSTs' keys and first answers (serve.api.idempotency)

    @classmethod
    def build(cls, settings: Settings, redis: Redis) -> Services:
        return cls(
            settings=settings,
            redis=redis,
            sessions=Sessions(redis, settings.token_ttl_seconds),
            codes=Codes(redis, settings),
            throttle=LoginThrottle(redis, settings),
            reset_throttle=ResetThrottle(redis, settings),
            outbox=Outbox(redis, settings),
            pairs=PairCatalog(),
            prices=UsdPrices(redis, settings.mark_stale_seconds),
            idempotency=KeyStore(
                redis,
                ttl=settings.idempotency_ttl_seconds,
                wait=settings.idempotency_wait_seconds,
                lease=settings.idempotency_lease_seconds,
            ),  # fmt: skip
        )


# Dependencies are ``async def`` even when they do not await: FastAPI runs a plain ``def`` dependency
# in a worker thread, and that hop cost the order path about a tenth of the replica's CPU (py-spy).


async def _services(request: Request) -> Services:
    return request.app.state.services


async def _lang(lang: Annotated[str | None, Header(description="en, hk, jp, gm or fr")] = None) -> str:
    return normalize_lang(lang)


def bearer_token(authorization: str | None) -> str:
    """The token from an ``Authorization`` header, bare or as ``Bearer <token>``."""
    token = (authorization or "").strip()
    return token[7:].strip() if token[:7].lower() == "bearer " else token


async def _token(authorization: Annotated[str | None, Header()] = None) -> str:
    return bearer_token(authorization)


Lang = Annotated[str, Depends(_lang)]
Svc = Annotated[Services, Depends(_services)]


async def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine  # built once in the app's lifespan (serve.app)
    return engine


# The replica's Engine: actor handles by name, and the retry policy of a call (actors/engine.py).
EngineDep = Annotated[Engine, Depends(_engine)]
Token = Annotated[str, Depends(_token)]


async def _current_uid(svc: Svc, token: Token) -> int:
    uid = await svc.sessions.resolve(token)
    if uid is None:
        raise DomainError(ErrorCode.LOGIN_REQUIRED)
    return uid


# The logged-in user's id from the session alone (one Redis read): for routes that need no more of
# the user, such as the order path. Users are never deleted, so a live session names a real user.
CurrentUid = Annotated[int, Depends(_current_uid)]


async def _current_user(svc: Svc, uid: CurrentUid) -> User:
    user = await User.get_or_none(id=uid)
    if user is None:
        raise DomainError(ErrorCode.LOGIN_REQUIRED)
    return user


CurrentUser = Annotated[User, Depends(_current_user)]


async def _optional_user(svc: Svc, token: Token) -> User | None:
    uid = await svc.sessions.resolve(token) if token else None
    return await User.get_or_none(id=uid) if uid is not None else None


OptionalUser = Annotated[User | None, Depends(_optional_user)]


@asynccontextmanager
async def in_flight(redis: Redis, uid: int, path: str) -> AsyncIterator[None]:
    """Refuse (996, ignored by the client) a second POST of ``uid`` to ``path`` while the first is in flight."""
    key = f"{PREFIX}inflight:{uid}:{path}"
    if not await redis.set(key, 1, nx=True, ex=30):
        raise DomainError(ErrorCode.DUPLICATE_SUBMIT)
    try:
        yield
    finally:
        await redis.delete(key)


async def _single_flight(request: Request, svc: Svc, user: CurrentUser) -> AsyncIterator[None]:
    async with in_flight(svc.redis, user.id, request.url.path):
        yield


SingleFlight = Depends(_single_flight)


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def check_pay_password(svc: Services, request: Request, user: User, password: str) -> None:
    """The deal password, behind the login throttle (its own count per user; 429 once it is spent)."""
    if not password:
        raise DomainError(ErrorCode.PAY_PASSWORD_REQUIRED)
    if user.pay_password_hash is None:
        raise DomainError(ErrorCode.PAY_PASSWORD_NOT_SET)
    await check_password(svc, request, f"pay:{user.id}", user.pay_password_hash, password,
                         ErrorCode.PAY_PASSWORD_WRONG)  # fmt: skip


async def check_password(
    svc: Services, request: Request, key: str, password_hash: str, password: str, wrong: ErrorCode
) -> None:
    """A password compared behind the login throttle's attempt for ``key`` (and the client address):
    raises ``wrong`` when it does not match, LOGIN_THROTTLED (429) when no attempt is left."""
    if not await svc.throttle.verified(key, client_ip(request), lambda: verify_password(password_hash, password)):
        raise DomainError(wrong)
