"""Idempotency keys in Redis: a money-moving request's key, its first answer, and the references its
money movement was made under (docs/decisions.md "The idempotency rule"). ``serve.api.idempotency``
puts them in front of the routes.

One Redis string per (user, key), JSON, kept ``ttl`` seconds from the first request:

- ``run``: an attempt is running (``a`` its id, ``t`` when it began); after ``lease`` seconds it is
  taken for dead and its outcome for unknown;
- ``done``: the first answer (``status``, ``body``), given back to every repeat;
- ``open``: the outcome is unknown, and the route's money movement is idempotent by the references the
  record keeps (``n``, ``refs``): a repeat runs the route again with them (``Attempt.retry``);
- ``lost``: the outcome is unknown and the route cannot run again safely: a repeat is refused (409).

Every record names the request it belongs to (``fp``, a fingerprint of the route and body): a repeat
with another request is refused. Writes after the reservation are compare-and-set on the attempt id,
so an attempt whose lease was taken over never overwrites its successor.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from store.errors import DomainError, ErrorCode
from store.sessions import PREFIX
from store.times import now_ms

log = logging.getLogger(__name__)

RUN, DONE, OPEN, LOST = "run", "done", "open", "lost"
POLL_S = 0.05  # how often a repeat looks again while the first request runs

# KEYS: the record. ARGV: the attempt id that must hold it, the new record. Keeps the record's TTL.
_SWAP = """
local current = redis.call('GET', KEYS[1])
if not current or cjson.decode(current)['a'] ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
"""


@dataclass(frozen=True)
class Answer:
    """A first answer as it is replayed: the HTTP status and the envelope's JSON text."""

    status: int
    body: str


@dataclass
class Attempt:
    """One run of a keyed request. ``retry``: an earlier run's outcome is unknown, and this one runs
    with its references (``ref``, ``refs``), which the money movement de-duplicates by."""

    keys: KeyStore
    name: str
    record: dict[str, Any]
    retry: bool = False
    refs: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.refs = self.record.setdefault("refs", {})

    def ref(self, prefix: str) -> str:
        """A ledger reference of this key's money movement: the same for every run of the key, and
        new for the next request made with the key once it has expired."""
        return f"{prefix}{self.record['n']}"

    async def remember(self, name: str, make: Callable[[], Awaitable[int]]) -> int:
        """The id ``name`` of this key's money movement (an order, a position, a contract): made by
        ``make`` on the first run and kept in the record (durably, before it is used), the same on
        every retry."""
        if name not in self.refs:
            self.refs[name] = await make()
            self.record.setdefault("at", {})[name] = now_ms()
            if not await self.keys.swap(self, self.record):
                raise DomainError(ErrorCode.IDEMPOTENCY_IN_PROGRESS)  # our lease was taken over meanwhile
        return self.refs[name]

    def made_ms(self, name: str) -> int:
        """When the id ``name`` was made (the run that used it began then or soon after)."""
        return int(self.record["at"][name])

    async def renew(self, name: str, make: Callable[[], Awaitable[int]]) -> int:
        """A new id ``name``: the one kept can no longer be used (its movement certainly never happened
        and may not be replayed under it)."""
        self.refs.pop(name, None)
        return await self.remember(name, make)


class KeyStore:
    """The records of one Redis database; ``ttl``, ``wait`` and ``lease`` in seconds."""

    def __init__(self, redis: Redis, *, ttl: int, wait: float, lease: float) -> None:
        self._redis = redis
        self._ttl = ttl
        self._wait = wait
        self._lease_ms = int(lease * 1000)
        self._swap = redis.register_script(_SWAP)

    async def begin(self, uid: int, key: str, fingerprint: str, *, retry: bool) -> Attempt | Answer:
        """Reserve ``key`` of user ``uid`` for the request ``fingerprint``: an ``Attempt`` to run it, or
        the first ``Answer`` to give back. ``retry``: the route may run again after an unknown outcome.

        Raises IDEMPOTENCY_KEY_REUSED (another request holds the key), IDEMPOTENCY_IN_PROGRESS (the first
        is still running after ``wait``) or IDEMPOTENCY_OUTCOME_UNKNOWN (the first may have moved money
        and this route cannot find out)."""
        name = f"{PREFIX}idem:{uid}:{key}"
        deadline = time.monotonic() + self._wait
        while True:
            now = now_ms()
            fresh = {"s": RUN, "fp": fingerprint, "a": uuid.uuid4().hex, "n": uuid.uuid4().hex, "t0": now, "t": now}
            if await self._redis.set(name, json.dumps(fresh), nx=True, ex=self._ttl):
                return Attempt(self, name, fresh)
            raw = await self._redis.get(name)
            if raw is None:  # expired since: reserve again
                continue
            record = json.loads(raw)
            if record["fp"] != fingerprint:
                raise DomainError(ErrorCode.IDEMPOTENCY_KEY_REUSED)
            state = record["s"]
            if state == DONE:
                return Answer(record["status"], record["body"])
            if state == RUN and now - record["t"] > self._lease_ms:  # the attempt died with its process
                state = OPEN if retry else LOST
            if state == OPEN and retry:
                taken = {**record, "s": RUN, "a": uuid.uuid4().hex, "t": now}
                if await self._swap(keys=[name], args=[record["a"], json.dumps(taken)]):
                    return Attempt(self, name, taken, retry=True)
                continue
            if state != RUN:
                raise DomainError(ErrorCode.IDEMPOTENCY_OUTCOME_UNKNOWN)
            if time.monotonic() >= deadline:
                raise DomainError(ErrorCode.IDEMPOTENCY_IN_PROGRESS)
            await asyncio.sleep(POLL_S)

    async def once(
        self,
        uid: int,
        key: str,
        fingerprint: str,
        run: Callable[[Attempt], Awaitable[Answer]],
        refusal: Callable[[BaseException], Answer | None],
        *,
        retry: bool,
    ) -> tuple[Answer, bool]:
        """Run the keyed request ``fingerprint`` at most once per outcome: ``(answer, replayed)``. ``run``
        carries it out; ``refusal`` turns what it raised into the answer it means, or None for an unknown
        outcome (re-raised). An answer of 500 or more, or a run that cannot tell yet (it raises
        IDEMPOTENCY_IN_PROGRESS), is not kept. Raises what ``begin`` raises."""
        begun = await self.begin(uid, key, fingerprint, retry=retry)
        if isinstance(begun, Answer):
            return begun, True
        try:
            answer = await run(begun)
        except BaseException as exc:
            not_yet = isinstance(exc, DomainError) and exc.code == ErrorCode.IDEMPOTENCY_IN_PROGRESS
            found = None if not_yet else refusal(exc)
            if found is None:
                await _quietly(self.unknown(begun, retry=retry or not_yet))
                raise
            answer = found
        await _quietly(self.unknown(begun, retry=retry) if answer.status >= 500 else self.done(begun, answer))
        return answer, False

    async def done(self, attempt: Attempt, answer: Answer) -> None:
        """Keep ``answer`` as the key's first answer."""
        await self.swap(attempt, {**attempt.record, "s": DONE, "status": answer.status, "body": answer.body})

    async def unknown(self, attempt: Attempt, *, retry: bool) -> None:
        """The attempt ended without a known outcome: open for a retry with its references, or lost."""
        await self.swap(attempt, {**attempt.record, "s": OPEN if retry else LOST})

    async def swap(self, attempt: Attempt, record: dict[str, Any]) -> bool:
        """Write ``record`` if ``attempt`` still holds the key; False if another attempt took it over."""
        return bool(await self._swap(keys=[attempt.name], args=[attempt.record["a"], json.dumps(record)]))


async def _quietly(write: Awaitable[Any]) -> None:
    """Record how an attempt ended. If Redis fails now the answer still goes out: the record stays
    "run" until its lease ends, then reads as an unknown outcome."""
    try:
        await write
    except Exception:
        log.warning("an idempotency key's outcome could not be recorded", exc_info=True)
