"""A dependency that cannot be reached (database restart, Redis gone, an actor restarting) answers
503 "busy, try again", not 500 (serve.errors.unavailable), also when it arrives through a Ray call."""

from __future__ import annotations

import asyncpg
from ray.exceptions import RayTaskError
from redis.exceptions import ConnectionError as RedisConnectionError

from serve.errors import unavailable


def through_ray(cause: BaseException) -> BaseException:
    """What awaiting an actor call raises when the actor's method raised ``cause``."""
    return RayTaskError("WalletShard.freeze", "traceback", cause).as_instanceof_cause()


def test_lost_connections_are_unavailable_and_bugs_are_not() -> None:
    terminated = asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command")
    for exc in (
        asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        terminated,
        asyncpg.exceptions.CannotConnectNowError("the database system is starting up"),
        ConnectionRefusedError(111, "Connection refused"),
        RedisConnectionError("Error 111 connecting to 127.0.0.1:6379"),
        through_ray(terminated),
        through_ray(
            asyncpg.exceptions.InternalClientError("cannot switch to state 15; another operation (2) is in progress")
        ),
    ):
        assert unavailable(exc), exc
    try:
        try:
            raise terminated
        except asyncpg.PostgresError as inner:
            raise RuntimeError("the batch failed") from inner
    except RuntimeError as wrapped:
        assert unavailable(wrapped)  # found through the cause
    for exc in (ValueError("bad"), KeyError("number"), through_ray(ZeroDivisionError())):
        assert not unavailable(exc), exc
