"""The Fanout actor: a ``websockets`` server on WS_PORT at ``/ws``, fed by Redis pub/sub.

Protocol (spec §7): the client sends ``ping`` (text or ``{"type":"ping"}``) every 5 s and gets
``{"type":"pong"}``; ``{"type":"login","token":…}`` binds the connection to a user (answer
``{"type":"login","code":1}`` or ``code 999``); ``{"type":"sub"|"unsub","params":CHANNEL}`` answers
with the same type, the params and ``code`` 1, 0 (no such channel, or the connection already has
``ws_max_subscriptions``; with a ``msg``) or 999 (a user channel before login). Every pushed message
is JSON with a ``type`` field, forwarded as the actors published it. After ``login`` (which may name
the ``lang`` of the answers: en, hk, jp, gm, fr) a client may also place and cancel spot orders:
``{"type":"order"|"cancel","id":…,"params":{…}}`` answered by ``order_ack`` (``serve.ws.orders``).

Limits: public channels must name a pair that trades here (``channels.is_public``). A connection whose
unsent bytes pass ``ws_max_buffer_bytes`` (a reader slower than its channels) gets no more pushes and
is closed with code 1008, so one slow reader never grows the server's memory. A session that ends
(logout, a password change or reset: ``store.sessions`` announces it) logs its sockets out at once,
``{"type":"login","code":999}``, and every ``ws_session_check_seconds`` each logged-in socket's
session is looked up again (one that expired, or whose announcement was missed, ends there).

One Fanout per node (``fanout:<node>``), each fed by Redis, so any of them serves any channel. They
listen with SO_REUSEPORT: several on one host share WS_PORT and the kernel spreads connections over
them; across hosts a load balancer does (or the host ``GET /api/default/push_address`` names). The
server starts from the constructor, so an actor that Ray restarts serves again by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import time
from collections.abc import Coroutine, Sequence
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

import ray
from ray.util.metrics import Gauge
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from websockets.asyncio.server import Request, Response, Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from actors.runtime import freeze_startup_objects
from config.settings import Settings
from serve.i18n import normalize_lang
from serve.ws.registry import Registry
from store.cache import connect_redis, redis_db
from store.channels import REDIS_PREFIX, USER_CHANNELS, is_user_topic, topic_for, use_database
from store.sessions import Sessions, digest, revoked_topic

if TYPE_CHECKING:
    from serve.ws.orders import Ack, DeskLine, OrderDesk

log = logging.getLogger(__name__)
CONTROL_TOPIC = f"{REDIS_PREFIX}_control"
MAX_MESSAGE = 4096  # clients send control messages and single orders: all small
SLOW_READER = 1008  # close code (policy violation) for a reader that fell too far behind
LOGGED_OUT = json.dumps({"type": "login", "code": 999}, separators=(",", ":"))


def _reply(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields}, separators=(",", ":"))


def _order_ack(ack: Ack) -> str:
    return json.dumps(ack, separators=(",", ":"), default=str)


# I/O bound (sockets and Redis): reserves no CPU so pair and wallet actors keep the cores.
@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class Fanout:
    def __init__(self, settings: dict[str, Any], symbols: Sequence[str] = ()) -> None:
        freeze_startup_objects()
        self._settings = Settings.model_validate(settings)
        self._symbols = frozenset(symbols)  # the pairs whose public channels exist
        use_database(redis_db(self._settings))
        self._revoked_topic = revoked_topic(redis_db(self._settings))
        self._registry: Registry[ServerConnection] = Registry()
        self._users: dict[ServerConnection, tuple[int, str]] = {}  # connection -> (uid, session digest)
        self._langs: dict[ServerConnection, str] = {}  # the language a connection's login asked for
        # The order desk (the engine, the order rules, the API's error table) is imported once the
        # server listens, in a thread: a Fanout Ray restarts serves its channels again without
        # waiting for the heaviest imports of the process; an order that comes first waits for them.
        self._desk: asyncio.Task[OrderDesk] | None = None
        self._lines: dict[ServerConnection, DeskLine] = {}  # connections that sent an order or a cancel
        self._server: Server | None = None
        self._redis: Redis | None = None
        self._pubsub: PubSub | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._connections = 0
        self._slow_closed = 0
        self._since = 0.0  # when the server started listening (epoch seconds)
        self._node = {"node": ray.get_runtime_context().get_node_id()[:8]}
        self._gauge = Gauge("exchange_fanout_connections", "open websocket connections", tag_keys=("node",))
        # An async actor's constructor runs on its event loop: serving starts here, so an actor that
        # Ray restarts after a crash serves again without anyone calling start().
        self._serving: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._serve())

    async def start(self) -> str:
        """Wait until the server listens (idempotent; starts it again after stop()); returns the
        ws:// address."""
        if self._serving.done() and self._server is None:
            self._serving = asyncio.get_running_loop().create_task(self._serve())
        await asyncio.shield(self._serving)
        return f"ws://{self._settings.http_host}:{self._settings.ws_port}/ws"

    async def stats(self) -> dict[str, float]:
        """Answers once the server listens (health relies on it)."""
        await asyncio.shield(self._serving)
        return {"connections": self._connections, "topics": self._registry.topic_count,
                "slow_closed": self._slow_closed, "since": self._since}  # fmt: skip

    async def stop(self) -> None:
        if not self._serving.done():
            self._serving.cancel()
        with contextlib.suppress(BaseException):
            await self._serving
        await self._close()

    async def _serve(self) -> None:
        """Listen; while that fails (Redis away, the port not free yet), try again every second."""
        while True:
            try:
                await self._listen()
                return
            except Exception:
                log.warning("the push server could not start; trying again in 1 s", exc_info=True)
                await self._close()
                await asyncio.sleep(1)

    async def _listen(self) -> None:
        self._redis = connect_redis(self._settings)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(CONTROL_TOPIC, self._revoked_topic)
        self._tasks = [asyncio.create_task(self._forward()), asyncio.create_task(self._recheck_sessions())]
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
        self._since = time.time()
        self._order_desk()  # loads while the channels are served

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        if self._pubsub is not None:
            await self._pubsub.aclose()
            self._pubsub = None
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

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
            if message["channel"] == self._revoked_topic:
                self._sessions_ended(message["data"])
                continue
            broadcast(self._keeping_up(message["channel"]), message["data"])

    def _keeping_up(self, topic: str) -> list[ServerConnection]:
        """The listeners of ``topic`` whose unsent bytes are within the limit; the others are cut off.

        websockets.broadcast writes without backpressure, so this is what bounds a connection's
        buffer: to the limit plus one message."""
        limit = self._settings.ws_max_buffer_bytes
        ready = []
        for conn in list(self._registry.listeners(topic)):
            transport = conn.transport
            if transport is not None and transport.get_write_buffer_size() > limit:
                self._cut_off(conn, limit)
            else:
                ready.append(conn)
        return ready

    def _cut_off(self, conn: ServerConnection, limit: int) -> None:
        """No more pushes for a reader that fell behind; close it (1008). The close frame waits behind
        what is queued; if the reader never takes it, websockets drops the link after its close timeout."""
        self._slow_closed += 1
        self._forget(conn)
        log.info("closing a slow push reader %s: more than %d bytes unsent", conn.remote_address, limit)
        self._spawn(conn.close(SLOW_READER, f"too slow: more than {limit} bytes unsent"))

    def _forget(self, conn: ServerConnection) -> None:
        """Drop every subscription of ``conn``; topics nobody listens to any more stop upstream."""
        emptied = self._registry.drop(conn)
        if emptied:
            self._spawn(self._unsubscribe_upstream(emptied))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, holding the task until it ends (and logging a failure)."""
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("push background work failed", exc_info=task.exception())

    async def _unsubscribe_upstream(self, topics: list[str]) -> None:
        async with self._lock:
            still_empty = [t for t in topics if not any(True for _ in self._registry.listeners(t))]
            if still_empty and self._pubsub is not None:
                await self._pubsub.unsubscribe(*still_empty)

    async def _handle(self, conn: ServerConnection) -> None:
        self._connections += 1
        self._gauge.set(self._connections, tags=self._node)
        try:
            async for raw in conn:
                answer = await self._command(conn, raw)
                if answer is not None:
                    await conn.send(answer)
        except ConnectionClosed:
            pass  # the client went away without a closing handshake: nothing to answer
        finally:
            self._connections -= 1
            self._gauge.set(self._connections, tags=self._node)
            self._users.pop(conn, None)
            self._langs.pop(conn, None)
            self._lines.pop(conn, None)
            async with self._lock:
                emptied = self._registry.drop(conn)
                if emptied and self._pubsub is not None:
                    await self._pubsub.unsubscribe(*emptied)

    async def _command(self, conn: ServerConnection, raw: str | bytes) -> str | None:
        """The answer to one client message; None when it comes later (an order's ack)."""
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
            self._langs[conn] = normalize_lang(str(message.get("lang") or ""))
            return await self._login(conn, str(message.get("token") or ""))
        if kind in ("order", "cancel"):
            return await self._order_command(conn, message)
        if kind in ("sub", "unsub"):
            channel = str(message.get("params") or "")
            code, why = await self._subscription(conn, kind, channel)
            return _reply(kind, params=channel, code=code, **({"msg": why} if why else {}))
        return _reply("error", msg=f"unknown type {kind!r}")

    async def _order_command(self, conn: ServerConnection, message: dict[str, Any]) -> str | None:
        """A refusal that needs no engine is answered here, by the reader (a client that does not read
        its answers is then not read either); the engine's part runs on while the connection keeps
        reading (orders pipeline), at most ``ws_order_in_flight`` at a time (serve.ws.orders)."""
        line = self._lines.get(conn)
        if line is None:
            line = self._lines[conn] = (await self._order_desk()).line()
        user = self._users.get(conn)
        admitted = await line.admit(user[0] if user else None, self._langs.get(conn, ""), message)
        if isinstance(admitted, dict):
            return _order_ack(admitted)
        self._spawn(self._acknowledge(conn, line, admitted))
        return None

    def _order_desk(self) -> asyncio.Task[OrderDesk]:
        """The order desk, opened once (and again after an opening that failed)."""
        if self._desk is None or (self._desk.done() and (self._desk.cancelled() or self._desk.exception())):
            self._desk = asyncio.get_running_loop().create_task(self._open_desk())
        return self._desk

    async def _open_desk(self) -> OrderDesk:
        orders = await asyncio.to_thread(importlib.import_module, "serve.ws.orders")
        desk: OrderDesk = orders.OrderDesk(self._settings, connect_redis(self._settings))
        return desk

    async def _acknowledge(self, conn: ServerConnection, line: DeskLine, work: Coroutine[Any, Any, Ack]) -> None:
        try:
            ack = await work
            with contextlib.suppress(ConnectionClosed):  # the client left before its ack: nothing to tell
                await conn.send(_order_ack(ack))
        finally:
            line.done()

    async def _login(self, conn: ServerConnection, token: str) -> str:
        assert self._redis is not None
        uid = await Sessions(self._redis, self._settings.token_ttl_seconds).resolve(token)
        previous = self._users.get(conn)
        if previous is not None and previous[0] != uid:
            await self._drop_private(conn)  # a new login never inherits another user's channels
        if uid is None:
            self._users.pop(conn, None)
            return _reply("login", code=999)
        self._users[conn] = (uid, digest(token))
        return _reply("login", code=1, uid=uid)

    def _sessions_ended(self, data: str) -> None:
        """A session store announcement (JSON list of digests): log out the sockets of those sessions."""
        try:
            ended = set(json.loads(data))
        except (ValueError, TypeError):
            return
        for conn in [c for c, (_, d) in self._users.items() if d in ended]:
            self._spawn(self._log_out(conn))

    async def _log_out(self, conn: ServerConnection) -> None:
        """End a socket's login: its private channels stop, and the client hears ``login`` 999."""
        if self._users.pop(conn, None) is None:
            return
        await self._drop_private(conn)
        broadcast([conn], LOGGED_OUT)  # never waits on a slow reader

    async def _drop_private(self, conn: ServerConnection) -> None:
        """Unsubscribe ``conn`` from every per-user topic it listens to."""
        async with self._lock:
            for topic in [t for t in self._registry.topics(conn) if is_user_topic(t)]:
                if self._registry.unsubscribe(conn, topic) and self._pubsub is not None:
                    await self._pubsub.unsubscribe(topic)

    async def _recheck_sessions(self) -> None:
        """Every ``ws_session_check_seconds``, look up each logged-in socket's session again."""
        assert self._redis is not None
        sessions = Sessions(self._redis, self._settings.token_ttl_seconds)
        while True:
            await asyncio.sleep(self._settings.ws_session_check_seconds)
            try:
                logged_in = list(self._users.items())
                alive = await sessions.resolve_digests([d for _, (_, d) in logged_in])
                for (conn, (uid, _)), now in zip(logged_in, alive, strict=True):
                    if now != uid:
                        await self._log_out(conn)
            except Exception:  # Redis away for a moment: the next round checks again
                log.warning("could not re-check the push sessions", exc_info=True)

    async def _subscription(self, conn: ServerConnection, kind: str, channel: str) -> tuple[int, str]:
        user = self._users.get(conn)
        topic = topic_for(channel, user[0] if user else None, self._symbols)
        if topic is None:
            return (999, "log in first") if channel in USER_CHANNELS else (0, "no such channel")
        assert self._pubsub is not None
        limit = self._settings.ws_max_subscriptions
        async with self._lock:
            if kind == "sub":
                if topic not in self._registry.topics(conn) and self._registry.count(conn) >= limit:
                    return 0, f"at most {limit} subscriptions per connection"
                if self._registry.subscribe(conn, topic):
                    await self._pubsub.subscribe(topic)
            elif self._registry.unsubscribe(conn, topic):
                await self._pubsub.unsubscribe(topic)
        return 1, ""
