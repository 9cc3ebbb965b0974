"""Ids unique against the database itself, handed out in blocks (order ids).

A process reserves a block of ``size`` ids in one short transaction on ``id_blocks`` and hands them
out from memory; another process reserves the next block. So an id is never handed out twice,
whatever happens to Redis or to a process (a process that dies loses the rest of its block: ids
have gaps, and across processes they are not in time order; nothing relies on either, the book's
``seq`` is the time priority). The first block of a kind starts above every id already used: the
largest stored order, the largest pending hold, and the Redis counter earlier versions used.
"""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis
from tortoise.exceptions import IntegrityError
from tortoise.models import Model

from store.db import retry_busy, scalar, transaction
from store.models import IdBlock, LeverPosition, MicroOrder, Order, OrderHold
from store.sessions import PREFIX

ORDER = "order"
LEVER = "lever"  # leveraged positions
MICRO = "micro"  # second contracts
LEGACY_REDIS_COUNTER = f"{PREFIX}ids:order"  # where order ids came from before id_blocks
BLOCK = 1000


class IdBlocks:
    """Hands out ids of one kind; safe to share between the tasks of one process."""

    def __init__(self, name: str = ORDER, size: int = BLOCK, redis: Redis | None = None) -> None:
        self._name = name
        self._size = size
        self._redis = redis
        self._next = self._end = 0
        self._lock = asyncio.Lock()

    async def next(self) -> int:
        async with self._lock:
            if self._next >= self._end:
                self._next = await reserve(self._name, self._size, await self._floor_hint())
                self._end = self._next + self._size
            value = self._next
            self._next += 1
            return value

    async def _floor_hint(self) -> int:
        """The legacy Redis counter (only read until the kind has a row: see ``reserve``)."""
        if self._redis is None or self._name != ORDER:
            return 0
        return int(await self._redis.get(LEGACY_REDIS_COUNTER) or 0)


async def reserve(name: str, size: int, floor_hint: int = 0) -> int:
    """Reserve ``size`` ids of ``name``; returns the first. Durable when it returns."""
    for _ in range(5):
        try:
            return await _reserve_once(name, size, floor_hint)
        except IntegrityError:  # another process created the kind's row meanwhile: take the next block
            continue
    raise RuntimeError(f"could not reserve {name} ids")


@retry_busy
async def _reserve_once(name: str, size: int, floor_hint: int) -> int:
    async with transaction() as conn:
        row = await IdBlock.filter(name=name).select_for_update().using_db(conn).first()
        if row is not None:
            await IdBlock.filter(name=name).using_db(conn).update(next_id=row.next_id + size)
            return row.next_id
        start = max(await _largest_used(name), floor_hint) + 1
        await IdBlock.create(name=name, next_id=start + size, using_db=conn)
    return start


async def _largest_used(name: str) -> int:
    if name == LEVER:
        return int(await scalar(LeverPosition.all().order_by("-id").first().values_list("id", flat=True)) or 0)
    if name == MICRO:
        return int(await scalar(MicroOrder.all().order_by("-id").first().values_list("id", flat=True)) or 0)
    if name != ORDER:
        return 0
    order = await scalar(Order.all().order_by("-id").first().values_list("id", flat=True))
    hold = await scalar(OrderHold.all().order_by("-order_id").first().values_list("order_id", flat=True))
    return max(int(order or 0), int(hold or 0))


class TableIds(IdBlocks):
    """Ids of one table's rows, known before the transaction that journals them (its refs name the row).
    The first block starts above the largest id the table holds."""

    def __init__(self, name: str, model: type[Model], size: int = 100) -> None:
        super().__init__(name, size)
        self._model = model

    async def _floor_hint(self) -> int:
        return int(await scalar(self._model.all().order_by("-id").first().values_list("id", flat=True)) or 0)
