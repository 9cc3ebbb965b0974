"""The Fanout actor: a ``websockets`` server on WS_PORT at ``/ws``, fed by Redis pub/sub.

Protocol (spec §7): the client sends ``ping`` (text or ``{"type":"ping"}``) every 5 s and gets
``{"type":"pong"}``; ``{"type":"login","token":…}`` binds the connection to a user (answer
``{"type":"login","code":1}`` or ``code 999``); ``{"type":"sub"|"unsub","params":CHANNEL}`` answers
with the same type, the params and ``code`` 1, 0 (no such channel) or 999 (a user channel before
login). Every pushed message is JSON with a ``type`` field, forwarded as the actors published it.

One Fanout per node (``fanout:<node>``), each fed by Redis, so any of them serves any channel. They
listen with SO_REUSEPORT: several on one host share WS_PORT and the kernel spreads connections over
them; across hosts a load balancer does (or the host ``GET /api/default/push_address`` names).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from http import HTTPStatus
from typing import Any

import ray
from ray.util.metrics import Gauge
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from websockets.asyncio.server import Request, Response, Server, ServerConnection, broadcast, serve

from actors.push.channels import REDIS_PREFIX, USER_CHANNELS, topic_for, use_database
from actors.push.registry import Registry
from config.settings import Settings
from store.cache import connect_redis, redis_db
from store.sessions import Sessions

log = logging.getLogger(__name__)
CONTROL_TOPIC = f"{REDIS_PREFIX}_control"
NAME_PREFIX = "fanout:"
MAX_MESSAGE = 4096  # clients only send small control messages


def fanout_name(node_label: str) -> str:
    return NAME_PREFIX + node_label


def _reply(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields}, separators=(",", ":"))


# I/O bound (sockets and Redis): reserves no CPU so pair and wallet actors keep the cores.
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class Fanout:
    def __init__(self, settings: dict[str, Any]) -> None:
        self._settings = Settings.model_validate(settings)
        use_database(redis_db(self._settings))
        self._registry: Registry[ServerConnection] = Registry()
        self._users: dict[ServerConnection, int] = {}
        self._server: Server | None = None
        self._redis: Redis | None = None
        self._pubsub: PubSub | None = None
        self._listener: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._connections = 0
        self._node = {"node": ray.get_runtime_context().get_node_id()[:8]}
        self._gauge = Gauge("exchange_fanout_connections", "open websocket connections", tag_keys=("node",))

    async def start(self) -> str:
        """Start serving (idempotent); returns the ws:// address."""
        if self._server is None:
            self._redis = connect_redis(self._settings)
            self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            await self._pubsub.subscribe(CONTROL_TOPIC)  # listen() needs one subscription to run
            self._listener = asyncio.create_task(self._forward())
            self._server = await serve(
                self._handle,
                self._settings.http_host,
                self._settings.ws_port,
                process_request=self._only_ws_path,
                max_size=MAX_MESSAGE,
                # permessage-deflate compresses every broadcast once per connection: ~40 ms of CPU per
                # depth update at 1,000 subscribers (docs/performance.md). Plain frames keep the
                # ack-to-delivery p99 near 55 ms; the cost is bandwidth.
                compression=None,
                reuse_port=True,
            )
        return f"ws://{self._settings.http_host}:{self._settings.ws_port}/ws"

    async def stats(self) -> dict[str, int]:
        return {"connections": self._connections, "topics": self._registry.topic_count}

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._redis is not None:
            await self._redis.aclose()

    @staticmethod
    def _only_ws_path(conn: ServerConnection, request: Request) -> Response | None:
        if request.path.split("?", 1)[0].rstrip("/") != "/ws":
            return conn.respond(HTTPStatus.NOT_FOUND, "Not found\n")
        return None

    async def _forward(self) -> None:
        assert self._pubsub is not None
        async for message in self._pubsub.listen():
            if message.get("type") != "message" or message["channel"] == CONTROL_TOPIC:
                continue
            broadcast(list(self._registry.listeners(message["channel"])), message["data"])

    async def _handle(self, conn: ServerConnection) -> None:
        self._connections += 1
        self._gauge.set(self._connections, tags=self._node)
        try:
            async for raw in conn:
                await conn.send(await self._command(conn, raw))
        finally:
            self._connections -= 1
            self._gauge.set(self._connections, tags=self._node)
            self._users.pop(conn, None)
            async with self._lock:
                emptied = self._registry.drop(conn)
                if emptied and self._pubsub is not None:
                    await self._pubsub.unsubscribe(*emptied)

    async def _command(self, conn: ServerConnection, raw: str | bytes) -> str:
        text = raw.decode() if isinstance(raw, bytes) else raw
        if text.strip().lower() == "ping":
            return _reply("pong")
        try:
            message = json.loads(text)
            kind = message.get("type")
        except (ValueError, AttributeError):
            return _reply("error", msg="messages are JSON with a type")
        if kind == "ping":
            return _reply("pong")
        if kind == "login":
            return await self._login(conn, str(message.get("token") or ""))
        if kind in ("sub", "unsub"):
            channel = str(message.get("params") or "")
            return _reply(kind, params=channel, code=await self._subscription(conn, kind, channel))
        return _reply("error", msg=f"unknown type {kind!r}")

    async def _login(self, conn: ServerConnection, token: str) -> str:
        assert self._redis is not None
        uid = await Sessions(self._redis, self._settings.token_ttl_seconds).resolve(token)
        previous = self._users.get(conn)
        if previous is not None and previous != uid:
            for channel in USER_CHANNELS:  # a new login never inherits another user's channels
                await self._subscription(conn, "unsub", channel)
        if uid is None:
            self._users.pop(conn, None)
            return _reply("login", code=999)
        self._users[conn] = uid
        return _reply("login", code=1, uid=uid)

    async def _subscription(self, conn: ServerConnection, kind: str, channel: str) -> int:
        topic = topic_for(channel, self._users.get(conn))
        if topic is None:
            return 999 if channel in USER_CHANNELS else 0
        assert self._pubsub is not None
        async with self._lock:
            if kind == "sub":
                if self._registry.subscribe(conn, topic):
                    await self._pubsub.subscribe(topic)
            elif self._registry.unsubscribe(conn, topic):
                await self._pubsub.unsubscribe(topic)
        return 1
