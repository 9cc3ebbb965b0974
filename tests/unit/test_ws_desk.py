"""A websocket order's ack when something fails under it: the answers the REST call's error handler
gives (busy for an unavailable dependency, a system error for a bug), and the rate limit."""

from __future__ import annotations

import inspect
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, Mock

from ray.exceptions import RayActorError

from config.settings import Settings
from serve.i18n import translate
from serve.ws.orders import DeskLine, TokenBucket


def line(burst: int = 100) -> tuple[DeskLine, Any]:
    desk = SimpleNamespace(settings=Settings(ws_order_rate=1, ws_order_burst=burst), ready=AsyncMock(), engine=Mock())
    return DeskLine(desk), desk  # type: ignore[arg-type]


async def ack(desk_line: DeskLine, uid: int, lang: str, message: dict[str, Any]) -> dict[str, Any]:
    """What the Fanout does with one message: admit it, run the engine's part if there is one, free
    its in-flight place."""
    admitted = await desk_line.admit(uid, lang, message)
    if not inspect.isawaitable(admitted):
        return admitted
    try:
        return await admitted
    finally:
        desk_line.done()


def failing(exc: BaseException) -> AsyncMock:
    """A ``_checked`` that accepts the command and whose engine call raises ``exc``."""
    return AsyncMock(return_value=AsyncMock(side_effect=exc))


async def test_an_unavailable_dependency_is_busy_and_a_dead_actor_is_looked_up_again() -> None:
    desk_line, desk = line()
    desk_line._checked = failing(RayActorError())  # type: ignore[method-assign]
    answer = await ack(desk_line, 7, "en", {"type": "order", "id": "a", "params": {}})
    assert (answer["type"], answer["id"], answer["code"], answer["msg"]) == (
        "order_ack",
        "a",
        0,
        "The service is busy, please try again",
    )
    desk.engine.forget_handles.assert_called_once()
    desk_line._checked = failing(ConnectionRefusedError())  # type: ignore[method-assign]
    answer = await ack(desk_line, 7, "fr", {"type": "cancel", "id": 2, "params": {"id": 1}})
    assert (answer["code"], answer["msg"]) == (0, translate("The service is busy, please try again", "fr"))
    assert answer["msg"] != "The service is busy, please try again"  # the French text, not the English one
    assert desk.engine.forget_handles.call_count == 1  # not an actor: the handles stay


async def test_a_bug_is_a_system_error_and_the_connection_goes_on() -> None:
    desk_line, _ = line()
    desk_line._checked = failing(KeyError("surprise"))  # type: ignore[method-assign]
    answer = await ack(desk_line, 7, "en", {"type": "order", "id": 1, "params": {}})
    assert (answer["code"], answer["msg"], answer["data"]) == (0, "System error, please try again later.", None)


async def test_the_bucket_refuses_past_its_burst_before_anything_runs() -> None:
    desk_line, desk = line(burst=3)
    desk_line._checked = AsyncMock(return_value={"type": "order_ack", "id": 1, "code": 1})  # type: ignore[method-assign]
    answers = [await ack(desk_line, 7, "en", {"type": "order", "id": 1, "params": {}}) for _ in range(5)]
    assert [a["code"] for a in answers] == [1, 1, 1, 0, 0]
    assert answers[-1]["msg"] == "Too many orders on this connection: at most 1 a second"
    assert desk_line._checked.await_count == 3 and desk.ready.await_count == 3


def test_a_token_bucket_refills_at_its_rate() -> None:
    bucket = TokenBucket(rate=1000.0, burst=2)
    assert [bucket.take(), bucket.take(), bucket.take()] == [True, True, False]
    bucket._at -= 0.0015  # 1.5 ms later: one token back, not two
    assert [bucket.take(), bucket.take()] == [True, False]
