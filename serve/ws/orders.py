"""Orders over the push socket (issue 15), taken by the Fanout that holds the connection.

After ``login`` a client may send, on the same ``/ws`` connection,

    {"type": "order",  "id": <client id>, "params": {"side": "buy"|"sell", …the fields of tx_in/add}}
    {"type": "cancel", "id": <client id>, "params": {"id": <order id>}}

and gets one ``{"type": "order_ack", "id": <client id>, "code", "msg", "data"}`` for each, with the
code, message (in the language named at login) and data its REST call would answer: the rules are
``serve.api.orders``' and the order path is ``actors.orders.place_orders``, as for tx/batch_add, so
there is no second implementation of either. Acks may arrive in another order than the commands
(each pair answers for itself); the client id tells them apart. A client id is a number or a string
of at most 64 characters.

Throughput: a connection's commands are not placed one by one. Everything a connection sent while
its previous batch was with the engine goes as the next batch (``GroupCommit``), placed as the batch
path places it (``place_orders``: its freezes and orders join the engine's calls to each wallet shard
and pair, with the other connections' batches). A connection's next batch leaves only once its last
is answered, so one user's orders on one connection reach each pair in the order they were sent.

Each connection has a token bucket (``ws_order_rate`` a second, bursts of ``ws_order_burst``); a
command over it is refused at once with ORDERS_TOO_FAST and never reaches the engine. Whatever is
refused without the engine (no login, a bad client id, the rate, the order's own rules) is answered
by the connection's reader itself, so a client that never reads its answers stops being read instead
of piling up work; at most ``ws_order_in_flight`` commands of a connection wait for the engine (and
for their ack to be sent), one more is answered at once with ORDERS_IN_FLIGHT ("slow down").

An order whose params carry a ``client_id`` follows the REST idempotency rule (``serve.api.idempotency``,
docs/decisions.md "The idempotency rule"): a repeat within 24 h gets the first ack again, with
``"replayed": true``, and moves nothing. Such an order is placed alone (``place_order``, under the
key's own order id), not in the connection's batch. The command's ``id`` stays what it was: the
connection's own name for the command, which clients reuse freely, so it cannot be the key.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, cast

from pydantic import ValidationError
from ray.exceptions import RayActorError

from actors.engine import Engine
from actors.orders import OrderSpec, Placed, place_order, place_orders
from actors.runtime import GroupCommit
from config.settings import Settings
from serve.api.idempotency import key_of
from serve.api.orders import (
    CANCELLED,
    PLACED,
    OrderRef,
    cancel_orders,
    checked_order,
    keyed_order,
    keyed_order_id,
    order_result,
)
from serve.api.pairs import PairCatalog
from serve.error_table import CODE_ERROR, CODE_LOGIN, ERRORS
from serve.errors import caused_by, unavailable, validation_message
from serve.i18n import N_, translate
from store.db import init_db
from store.errors import DomainError, ErrorCode
from store.idempotency import Answer, Attempt, KeyStore

log = logging.getLogger(__name__)
ACK = "order_ack"
MAX_CLIENT_ID = 64
BAD_CLIENT_ID = N_("The id must be a number or a string of at most 64 characters")

Cancelled = dict[str, Any] | DomainError
Ack = dict[str, Any]


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; ``take`` spends one or answers False. (Counts of
    commands, not money: the fractions are refill in progress.)"""

    def __init__(self, rate: float, burst: int) -> None:
        self._rate = rate
        self._burst = burst
        self._tokens: float = burst
        self._at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class OrderDesk:
    """One per Fanout process: the engine's handles, the pair table and the database, opened on the
    first order so a socket that only listens costs nothing."""

    def __init__(self, settings: Settings, redis: Any) -> None:
        self.settings = settings
        self.engine = Engine(settings.wallet_shards, redis)
        self.pairs = PairCatalog()
        self.keys = KeyStore(redis, ttl=settings.idempotency_ttl_seconds, wait=settings.idempotency_wait_seconds,
                             lease=settings.idempotency_lease_seconds)  # fmt: skip
        self._opened = False
        self._lock = asyncio.Lock()

    async def ready(self) -> None:
        if not self._opened:
            async with self._lock:
                if not self._opened:
                    await init_db(self.settings, "fanout")
                    self._opened = True

    def line(self) -> DeskLine:
        """A new connection's own state: its rate limit and its batches."""
        return DeskLine(self)


class DeskLine:
    """One connection's commands: checked alone, placed and cancelled in batches (one at a time).

    ``admit`` answers at once whatever needs no engine (a missing login, a bad client id, the rate,
    the order's own rules, too many waiting) and hands back the engine's part as work to run; at most
    ``ws_order_in_flight`` of those wait at a time (``done`` gives a place back)."""

    def __init__(self, desk: OrderDesk) -> None:
        self._desk = desk
        self._bucket = TokenBucket(desk.settings.ws_order_rate, desk.settings.ws_order_burst)
        self._orders: GroupCommit[tuple[int, OrderSpec], Placed] = GroupCommit(self._place)
        self._cancels: GroupCommit[tuple[int, int], Cancelled] = GroupCommit(self._cancel)
        self.in_flight = 0

    async def admit(self, uid: int | None, lang: str, message: dict[str, Any]) -> Ack | Coroutine[Any, Any, Ack]:
        """The ``order_ack`` of one ``order`` or ``cancel`` message when it is refused without the
        engine, else the work that answers it from the engine (never raises), holding one in-flight
        place: call ``done`` once its ack is sent."""
        client_id = message.get("id")
        if not _valid_client_id(client_id):
            return _ack(None, CODE_ERROR, translate(BAD_CLIENT_ID, lang))
        if uid is None:
            return _ack(client_id, CODE_LOGIN, translate(ERRORS[ErrorCode.LOGIN_REQUIRED].message, lang))
        if not self._bucket.take():
            rate = f"{self._desk.settings.ws_order_rate:g}"
            return _refused(client_id, DomainError(ErrorCode.ORDERS_TOO_FAST, rate=rate), lang)
        try:
            await self._desk.ready()
            work = await self._checked(uid, lang, client_id, message)
        except Exception as exc:
            return self._failed(client_id, exc, lang)
        if not callable(work):
            return work
        limit = self._desk.settings.ws_order_in_flight
        if self.in_flight >= limit:  # answered now, and nothing starts: the client must wait for acks
            return _refused(client_id, DomainError(ErrorCode.ORDERS_IN_FLIGHT, limit=limit), lang)
        self.in_flight += 1
        return self._answer(client_id, lang, work)

    def done(self) -> None:
        """An admitted command's ack went out (or its client left): its in-flight place is free."""
        self.in_flight -= 1

    async def _checked(
        self, uid: int, lang: str, client_id: Any, message: dict[str, Any]
    ) -> Ack | Callable[[], Awaitable[Ack]]:
        """The refusal of the command's own rules, or the engine call that carries it out."""
        params = message.get("params")
        if message.get("type") == "order":
            checked = await checked_order(self._desk.pairs, params, lang)
            if not isinstance(checked, OrderSpec):
                return {"type": ACK, "id": client_id, **checked}
            spec = checked
            params = cast(dict[str, Any], params)  # a dict once checked_order accepted it
            key = key_of(None, params.get("client_id"))

            async def place() -> Ack:
                if key is not None:
                    return {"type": ACK, "id": client_id, **await self._keyed(uid, lang, key, params, spec)}
                placed = await self._orders.submit((uid, spec))  # a refusal raises: ``_answer`` answers it
                return {"type": ACK, "id": client_id, **order_result(placed, PLACED, lang)}

            return place
        try:
            ref = OrderRef.model_validate(params)
        except ValidationError as exc:
            return _ack(client_id, CODE_ERROR, validation_message(exc.errors()[0], lang))

        async def cancel() -> Ack:
            done = await self._cancels.submit((uid, ref.id))
            return {"type": ACK, "id": client_id, **order_result(done, CANCELLED, lang)}

        return cancel

    async def _keyed(self, uid: int, lang: str, key: str, params: dict[str, Any], spec: OrderSpec) -> dict[str, Any]:
        """A keyed order's ack: its first one for every repeat, the order placed under the key's own id."""
        engine, pairs = self._desk.engine, self._desk.pairs

        async def run(attempt: Attempt) -> Answer:
            placed = await keyed_order(attempt, engine, pairs)
            if placed is None:
                order_id = await keyed_order_id(attempt, engine)
                placed = await place_order(engine, uid=uid, pair=spec.pair, way=spec.way, kind=spec.kind,
                                           price=spec.price, number=spec.number, budget=spec.budget,
                                           order_id=order_id)  # fmt: skip
            return Answer(200, json.dumps(order_result(placed, PLACED, lang), default=str))

        def refusal(exc: BaseException) -> Answer | None:
            if not isinstance(exc, DomainError):
                return None
            return Answer(ERRORS[exc.code].status, json.dumps(order_result(exc, PLACED, lang)))

        fields = json.dumps({k: v for k, v in params.items() if k != "client_id"}, sort_keys=True, default=str)
        fingerprint = hashlib.sha256(f"WS order\n{fields}".encode()).hexdigest()
        answer, replayed = await self._desk.keys.once(uid, key, fingerprint, run, refusal, retry=True)
        return {**json.loads(answer.body), **({"replayed": True} if replayed else {})}

    async def _answer(self, client_id: Any, lang: str, work: Callable[[], Awaitable[Ack]]) -> Ack:
        try:
            return await work()
        except Exception as exc:
            return self._failed(client_id, exc, lang)

    def _failed(self, client_id: Any, exc: Exception, lang: str) -> Ack:
        """The ack of a command that raised: as the REST call's error handler answers (serve.errors)."""
        if isinstance(exc, DomainError):
            return _refused(client_id, exc, lang)
        if not unavailable(exc):
            log.error("a websocket order failed", exc_info=exc)
            return _refused(client_id, DomainError(ErrorCode.INTERNAL), lang)
        log.warning("a websocket order met an unavailable dependency: %r", exc)
        if caused_by(exc, RayActorError):  # a dead actor's handle never recovers: look the names up again
            self._desk.engine.forget_handles()
        return _refused(client_id, DomainError(ErrorCode.SERVICE_UNAVAILABLE), lang)

    async def _place(self, items: list[tuple[int, OrderSpec]]) -> list[Placed | BaseException]:
        """One batch: each user's orders through ``place_orders`` (the users concurrently)."""
        return await _per_user(items, lambda uid, specs: place_orders(self._desk.engine, uid=uid, orders=specs))

    async def _cancel(self, items: list[tuple[int, int]]) -> list[Cancelled | BaseException]:
        return await _per_user(items, lambda uid, ids: cancel_orders(self._desk.engine, uid, ids))


async def _per_user(items: list[tuple[int, Any]], run: Any) -> list[Any]:
    """``run(uid, things)`` once per user of ``items`` (a connection changes user only by logging in
    again), its answers put back in the items' order."""
    by_user: dict[int, list[int]] = {}
    for index, (uid, _) in enumerate(items):
        by_user.setdefault(uid, []).append(index)
    results: list[Any] = [None] * len(items)

    async def one(uid: int, indexes: list[int]) -> None:
        for index, answer in zip(indexes, await run(uid, [items[i][1] for i in indexes]), strict=True):
            results[index] = answer

    await asyncio.gather(*(one(uid, indexes) for uid, indexes in by_user.items()))
    return results


def _valid_client_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) < 2**63
    return isinstance(value, str) and 0 < len(value) <= MAX_CLIENT_ID


def _ack(client_id: Any, code: int, msg: str, data: Any = None) -> Ack:
    return {"type": ACK, "id": client_id, "code": code, "msg": msg, "data": data}


def _refused(client_id: Any, error: DomainError, lang: str) -> Ack:
    outcome = ERRORS[error.code]
    return _ack(client_id, outcome.code, translate(outcome.message, lang, **error.params))
