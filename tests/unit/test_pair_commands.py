"""A pair's command queue at a move's pause (``CommandQueue.refuse_orders``): the orders and cancels
still queued are refused with PAIR_MOVING (their callers send them to the next actor), the looks at the
mark are dropped (a tick the paused actor committed after its state went to the standby would take the
tick id the standby writes next: its first batch failed on ``mark_ticks_pkey``), and the rest (a
fence, the drain's barrier) stays queued, in order."""

from __future__ import annotations

import asyncio

import pytest

from actors.lifecycle import Lifecycle
from actors.pair.commands import CommandQueue
from store.errors import DomainError, ErrorCode


async def test_the_pause_refuses_queued_orders_drops_ticks_and_keeps_the_rest() -> None:
    life = Lifecycle("pair test")

    async def nothing() -> None:
        pass

    await life.load(nothing)  # loaded at once
    queue = CommandQueue(life)
    order = asyncio.ensure_future(queue.send("submit", {"id": 1}))
    await asyncio.sleep(0)  # queued
    queue.tick()
    fence = asyncio.ensure_future(queue.between_batches("fence"))
    cancel = asyncio.ensure_future(queue.send("cancel", (1, 7)))
    await asyncio.sleep(0)
    queue.tick()

    queue.paused = True
    queue.refuse_orders(DomainError(ErrorCode.PAIR_MOVING))
    queue.tick()  # a look asked for while paused is not queued either

    for refused in (order, cancel):
        with pytest.raises(DomainError) as caught:
            await refused
        assert caught.value.code == ErrorCode.PAIR_MOVING
    left = await queue.take(0)
    assert [kind for kind, _, _ in left] == ["fence"]
    assert not fence.done()
