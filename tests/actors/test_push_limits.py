"""The push socket as an attacker or a bad network would use it: made-up channels, too many
subscriptions, a reader that stops reading, a session that ends while the socket stays open; and a
fanout that Ray restarts serves again."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import ray
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from actors.names import fanout_name
from actors.nodes import alive_nodes
from serve.stack import Stack
from store.cache import connect_redis
from store.channels import public_topic, user_topic
from store.sessions import Sessions
from tests.actors.test_fanout import ask, publish_until_received, ws_url
from tests.utils.users import PASSWORD, login, member, ok

PRIVATE = '{"type":"tx_matched","id":1}'
LOGGED_OUT = {"type": "login", "code": 999}
NEW_PASSWORD_FORM = {"old_password": PASSWORD, "new_password": "NewPass456", "secondary_password": "NewPass456"}


@pytest.fixture
async def redis(stack: Stack) -> AsyncIterator[Redis]:
    client = connect_redis(stack.settings)
    yield client
    await client.aclose()


async def sub(ws: ClientConnection, channel: str) -> dict[str, Any]:
    return await ask(ws, {"type": "sub", "params": channel})


async def next_message(ws: ClientConnection, wait: float) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), wait))


async def silent(ws: ClientConnection, redis: Redis, topic: str, payload: str, wait: float = 0.6) -> bool:
    """Publish and see nothing arrive within ``wait`` seconds."""
    await redis.publish(topic, payload)
    try:
        await asyncio.wait_for(ws.recv(), wait)
    except TimeoutError:
        return True
    return False


async def fanout_stats() -> list[dict[str, int]]:
    return [await ray.get_actor(fanout_name(node.label)).stats.remote() for node in alive_nodes()]


# --- channels and the subscription cap -----------------------------------------------------------


@pytest.mark.parametrize(
    "channel",
    [
        "MARKET_DEPTH.NOPE/USDT",
        "GLOBAL_TX.",
        "KLINE",
        "KLINE.BTC/USDT.1min",
        "MARK.btc/usdt",
        "DAY_MARKET.BTC/USDT",
        "MARKET_DEPTH.XRP/USDT",
        "X" * 3000,
        "MARKET_DEPTH.BTC/USDT\x00",
    ],
)
async def test_made_up_channels_are_refused(stack: Stack, channel: str) -> None:
    async with connect(ws_url(stack)) as ws:
        assert await sub(ws, channel) == {"type": "sub", "params": channel, "code": 0, "msg": "no such channel"}


async def test_every_public_channel_of_a_trading_pair_is_accepted(stack: Stack) -> None:
    for root in ("MARKET_DEPTH", "GLOBAL_TX", "KLINE", "MARK"):
        async with connect(ws_url(stack)) as ws:  # a connection per root: each stays under the cap
            for _, symbol in stack.pairs:
                assert (await sub(ws, f"{root}.{symbol}"))["code"] == 1, (root, symbol)


async def test_subscriptions_per_connection_are_capped(stack: Stack) -> None:
    limit = stack.settings.ws_max_subscriptions
    channels = ["DAY_MARKET"] + [
        f"{r}.{s}" for r in ("MARKET_DEPTH", "GLOBAL_TX", "KLINE", "MARK") for _, s in stack.pairs
    ]
    assert len(channels) > limit, "the test session needs more public channels than the cap"
    async with connect(ws_url(stack)) as ws, connect(ws_url(stack)) as other:
        for channel in channels[:limit]:
            assert (await sub(ws, channel))["code"] == 1
        refused = await sub(ws, channels[limit])
        assert refused == {"type": "sub", "params": channels[limit], "code": 0,
                           "msg": f"at most {limit} subscriptions per connection"}  # fmt: skip
        assert (await sub(ws, channels[0]))["code"] == 1  # one it has already is not one more
        assert (await ask(ws, {"type": "unsub", "params": channels[0]}))["code"] == 1
        assert (await sub(ws, channels[limit]))["code"] == 1  # room again
        assert (await sub(other, channels[limit]))["code"] == 1  # the cap is per connection


# --- a slow reader -------------------------------------------------------------------------------


async def test_a_reader_that_stops_reading_is_cut_off_and_others_go_on(stack: Stack, redis: Redis) -> None:
    """The slow client takes almost nothing from its socket (a tiny receive buffer, a tiny queue). The
    fanout must close it (1008) once its unsent bytes pass the limit, instead of buffering every push."""
    host, port = stack.settings.http_host, stack.settings.ws_port
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((host, port))
    raw.setblocking(False)
    before = sum(s["slow_closed"] for s in await fanout_stats())
    payload = json.dumps({"type": "daymarket", "pad": "x" * 8000})
    sent = 0
    async with connect(ws_url(stack), sock=raw, max_queue=2) as slow:
        assert (await sub(slow, "DAY_MARKET"))["code"] == 1
        await asyncio.sleep(0.3)  # the fanout subscribes upstream asynchronously
        # Publish (paced, so Redis never drops the fanout's own subscription) until a fanout cuts it
        # off; 64 MB at most, far more than the kernel's socket buffers and the limit together.
        while sum(s["slow_closed"] for s in await fanout_stats()) == before:
            assert sent * len(payload) < 64 * 1024 * 1024, "the slow reader was never cut off"
            async with redis.pipeline(transaction=False) as pipe:
                for _ in range(50):
                    pipe.publish(public_topic("DAY_MARKET"), payload)
                await pipe.execute()
            sent += 50
            await asyncio.sleep(0.01)
        received = 0
        with pytest.raises(ConnectionClosed) as closed:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                await asyncio.wait_for(slow.recv(), 10)
                received += 1
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008, closed.value
    assert "too slow" in closed.value.rcvd.reason
    assert received < sent  # it got what was queued before the cut, not everything
    async with connect(ws_url(stack)) as fresh:
        assert (await sub(fresh, "DAY_MARKET"))["code"] == 1
        got = await publish_until_received(redis, public_topic("DAY_MARKET"), '{"type":"daymarket","n":1}', fresh)
        assert got["n"] == 1


# --- private pushes end with the session ---------------------------------------------------------


async def logged_in_socket(stack: Stack, redis: Redis, token: str, uid: int) -> ClientConnection:
    ws = await connect(ws_url(stack))
    assert (await ask(ws, {"type": "login", "token": token}))["code"] == 1
    assert (await sub(ws, "TX_MATCHED"))["code"] == 1
    assert (await publish_until_received(redis, user_topic(uid, "TX_MATCHED"), PRIVATE, ws))["id"] == 1
    return ws


async def assert_logged_out(ws: ClientConnection, redis: Redis, uid: int, wait: float = 5) -> None:
    """The socket hears ``login`` 999 within ``wait`` (pushes queued before it are skipped), then
    gets no more private pushes."""
    deadline = time.monotonic() + wait
    while (message := await next_message(ws, max(deadline - time.monotonic(), 0.01)))["type"] != "login":
        assert message["type"] == "tx_matched", message
    assert message == LOGGED_OUT
    assert await silent(ws, redis, user_topic(uid, "TX_MATCHED"), PRIVATE)
    assert (await sub(ws, "TX_MATCHED"))["code"] == 999  # a user channel needs a login again
    assert (await sub(ws, "DAY_MARKET"))["code"] == 1  # public channels go on


async def test_logout_stops_private_pushes_at_once(stack: Stack, api: httpx.Client, redis: Redis) -> None:
    user = member(api)
    ws = await logged_in_socket(stack, redis, user.token, user.uid)
    try:
        ok(await asyncio.to_thread(api.post, "user/logout", headers=user.auth))
        await assert_logged_out(ws, redis, user.uid, wait=2)  # the announcement, not the periodic check
    finally:
        await ws.close()


async def test_a_password_change_stops_the_other_sessions_pushes(stack: Stack, api: httpx.Client, redis: Redis) -> None:
    user = member(api)
    other = ok(await asyncio.to_thread(login, api, user.account))["token"]
    ws = await logged_in_socket(stack, redis, other, user.uid)
    kept = await logged_in_socket(stack, redis, user.token, user.uid)
    try:
        ok(await asyncio.to_thread(api.post, "user/amend_password", json=NEW_PASSWORD_FORM, headers=user.auth))
        await assert_logged_out(ws, redis, user.uid, wait=2)
        # The session that changed the password goes on, and so do its pushes.
        got = await publish_until_received(redis, user_topic(user.uid, "TX_MATCHED"), PRIVATE, kept)
        assert got["id"] == 1
    finally:
        await ws.close()
        await kept.close()


async def test_an_expired_session_stops_private_pushes(stack: Stack, redis: Redis) -> None:
    token = await Sessions(redis, 2).issue(91201)  # a session that lives 2 s
    ws = await logged_in_socket(stack, redis, token, 91201)
    try:
        # No announcement for an expiry: the periodic re-check (every ws_session_check_seconds) finds it.
        await assert_logged_out(ws, redis, 91201, wait=2 + 2 * stack.settings.ws_session_check_seconds + 3)
    finally:
        await ws.close()


async def test_a_new_login_on_the_socket_keeps_its_own_channels_only(stack: Stack, redis: Redis) -> None:
    sessions = Sessions(redis, 600)
    alice, bob = await sessions.issue(91211), await sessions.issue(91212)
    ws = await logged_in_socket(stack, redis, alice, 91211)
    try:
        assert (await ask(ws, {"type": "login", "token": bob}))["code"] == 1
        assert await silent(ws, redis, user_topic(91211, "TX_MATCHED"), PRIVATE)
        await sessions.revoke(alice, 91211)  # alice's session ending does not log bob out
        assert await silent(ws, redis, user_topic(91211, "TX_MATCHED"), PRIVATE)
        assert (await sub(ws, "TX_MATCHED"))["code"] == 1
        got = await publish_until_received(redis, user_topic(91212, "TX_MATCHED"), PRIVATE, ws)
        assert got["id"] == 1
    finally:
        await ws.close()


# --- a restarted fanout serves again (last: it restarts the session's fanouts) -------------------


async def test_fanouts_that_ray_restarts_serve_again(stack: Stack, redis: Redis) -> None:
    labels = [node.label for node in alive_nodes()]
    before = {label: (await ray.get_actor(fanout_name(label)).stats.remote())["since"] for label in labels}
    for label in labels:  # every fanout on this host: a connection can only reach a restarted one
        ray.kill(ray.get_actor(fanout_name(label)), no_restart=False)
    deadline = time.monotonic() + 30
    for label in labels:  # stats answers once the (new) server listens; the old one may answer first
        while (await ray.get_actor(fanout_name(label)).stats.remote())["since"] == before[label]:
            assert time.monotonic() < deadline, f"fanout:{label} did not serve again within 30 s"
            await asyncio.sleep(0.2)
    async with connect(ws_url(stack)) as ws:
        assert (await sub(ws, "DAY_MARKET"))["code"] == 1
        got = await publish_until_received(redis, public_topic("DAY_MARKET"), '{"type":"daymarket","n":2}', ws)
        assert got["n"] == 2
