"""A MicroTimer's ticks: each followed pair's tape (``actors.micro.tape``), filled from the pair's MARK
channel as ticks come and from the tick log for any gap, and completed up to a pair's fence when the
shard asks one. Each pair's tape changes under its own lock."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from redis.asyncio import Redis

from actors.micro.tape import Tape
from store import channels, ticks
from store.micro.settle import TickView

PAGE = 2000  # ticks read from the log at once


class TickFeed:
    def __init__(self, index: int, redis: Redis) -> None:
        self._index = index  # the shard's, for the log
        self._redis = redis
        self.tapes: dict[int, Tape] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def tape(self, pair_id: int) -> Tape:
        return self.tapes.setdefault(pair_id, Tape())

    async def start(self, pair_id: int, since_ms: int | None) -> None:
        """The pair's tape from the tick in force at ``since_ms`` (None: from its last tick), read up
        to the log's end."""
        async with self._locks[pair_id]:
            tape = self.tape(pair_id)
            if since_ms is not None:
                anchor = await ticks.tick_at(pair_id, since_ms)
                tape.reset(anchor.seq - 1 if anchor else 0)
            else:
                last = await ticks.last_tick(pair_id)
                tape.reset(last.seq if last else 0)
            await self._read_log(pair_id, tape, None)

    async def confirm(self, pair_id: int, fence: dict[str, Any] | None, halted_before: int | None) -> None:
        """Complete the pair's tape as far as its ``fence`` (``PairActor.tick_fence``) says; without
        one, ``halted_before`` (a pair silent for too long) takes the log as it is as complete before then."""
        tape = self.tape(pair_id)
        async with self._locks[pair_id]:
            if fence is not None:
                await self._read_log(pair_id, tape, int(fence["seq"]))
                tape.fenced(int(fence["seq"]), int(fence["as_of_ms"]))
            elif halted_before is not None:
                await self._read_log(pair_id, tape, None)
                tape.complete_before = max(tape.complete_before, halted_before)

    def trim(self, oldest: dict[int, int], otherwise_ms: int) -> None:
        """Forget the ticks no open contract needs: those before each pair's oldest acceptance
        (``otherwise_ms`` for a pair with none open)."""
        for pair_id, tape in self.tapes.items():
            tape.trim(oldest.get(pair_id, otherwise_ms))

    async def listen(self, followed: Callable[[], dict[str, int]]) -> None:
        """Every followed pair's MARK channel (``followed()``: symbol -> pair id) onto its tape, forever;
        subscribed again when the followed pairs change."""

        async def take(pair_id: int, tick: dict[str, Any]) -> None:
            seq, time_ms, price = int(tick["seq"]), int(tick["time"]), Decimal(tick["price"])
            await self.on_tick(pair_id, TickView(int(tick["id"]), seq, time_ms, price))

        await channels.listen_marks(self._redis, followed, take, f"micro timer {self._index}")

    async def on_tick(self, pair_id: int, tick: TickView) -> None:
        """A pushed tick onto its pair's tape (the log's ticks before it first, if some were missed)."""
        tape = self.tapes.get(pair_id)
        if tape is None or tick.seq <= tape.last_seq:
            return
        async with self._locks[pair_id]:
            if tick.seq > tape.last_seq + 1:
                await self._read_log(pair_id, tape, tick.seq - 1)
            tape.append(tick)

    async def _read_log(self, pair_id: int, tape: Tape, upto_seq: int | None) -> None:
        """Append the log's ticks after the tape's last (up to ``upto_seq``, or all). Under its lock."""
        while upto_seq is None or tape.last_seq < upto_seq:
            page = await ticks.ticks_after(pair_id, tape.last_seq, PAGE)
            for tick in page:
                tape.append(TickView(tick.id, tick.seq, tick.time_ms, tick.price))
            if len(page) < PAGE:
                return
