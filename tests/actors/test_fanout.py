"""The Fanout actor over a real socket: ping, login, sub/unsub, and pushes from Redis pub/sub."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from serve.stack import Stack
from store.cache import connect_redis
from store.channels import public_topic, user_topic
from store.sessions import Sessions


@pytest.fixture
async def redis(stack: Stack) -> AsyncIterator[Redis]:
    client = connect_redis(stack.settings)
    yield client
    await client.aclose()


def ws_url(stack: Stack, path: str = "/ws") -> str:
    return f"ws://{stack.settings.http_host}:{stack.settings.ws_port}{path}"


async def ask(ws: ClientConnection, message: dict[str, Any] | str) -> dict[str, Any]:
    await ws.send(message if isinstance(message, str) else json.dumps(message))
    return json.loads(await asyncio.wait_for(ws.recv(), 10))


async def publish_until_received(redis: Redis, topic: str, payload: str, ws: ClientConnection) -> dict[str, Any]:
    """Publish (again) until the socket sees it: the upstream subscription is set up asynchronously."""
    for _ in range(50):
        await redis.publish(topic, payload)
        try:
            return json.loads(await asyncio.wait_for(ws.recv(), 0.2))
        except TimeoutError:
            continue
    raise AssertionError(f"nothing arrived on {topic}")


async def test_ping_and_public_channel_push(stack: Stack, redis: Redis) -> None:
    async with connect(ws_url(stack)) as ws:
        assert await ask(ws, "ping") == {"type": "pong"}
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
        assert await ask(ws, {"type": "sub", "params": "DAY_MARKET"}) == {
            "type": "sub",
            "params": "DAY_MARKET",
            "code": 1,
        }
        event = '{"type":"daymarket","currency_match_id":1,"symbol":"BTC/USDT","quotation":{"close":"1"}}'
        assert (await publish_until_received(redis, public_topic("DAY_MARKET"), event, ws))["symbol"] == "BTC/USDT"
        assert (await ask(ws, {"type": "unsub", "params": "DAY_MARKET"}))["code"] == 1
        await redis.publish(public_topic("DAY_MARKET"), event)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ws.recv(), 0.5)


async def test_user_channels_need_login_and_stay_private(stack: Stack, redis: Redis) -> None:
    sessions = Sessions(redis, 600)
    alice, bob = await sessions.issue(91001), await sessions.issue(91002)
    async with connect(ws_url(stack)) as a, connect(ws_url(stack)) as b:
        assert (await ask(a, {"type": "sub", "params": "TX_MATCHED"}))["code"] == 999
        assert (await ask(a, {"type": "login", "token": "forged"}))["code"] == 999
        assert await ask(a, {"type": "login", "token": alice}) == {"type": "login", "code": 1, "uid": 91001}
        assert (await ask(b, {"type": "login", "token": bob}))["code"] == 1
        assert (await ask(a, {"type": "sub", "params": "TX_MATCHED"}))["code"] == 1
        assert (await ask(b, {"type": "sub", "params": "TX_MATCHED"}))["code"] == 1
        got = await publish_until_received(redis, user_topic(91001, "TX_MATCHED"), '{"type":"tx_matched","id":5}', a)
        assert got == {"type": "tx_matched", "id": 5}
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(b.recv(), 0.5)  # bob never sees alice's fills


async def test_bad_messages_get_an_error_not_a_disconnect(stack: Stack) -> None:
    async with connect(ws_url(stack)) as ws:
        assert (await ask(ws, "{not json"))["type"] == "error"
        assert (await ask(ws, {"type": "explode"}))["type"] == "error"
        assert (await ask(ws, {"type": "sub", "params": "NOPE"}))["code"] == 0
        assert await ask(ws, "ping") == {"type": "pong"}


async def test_only_the_ws_path_is_served(stack: Stack) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with connect(ws_url(stack, "/elsewhere")):
            pass
    assert refused.value.response.status_code == 404
