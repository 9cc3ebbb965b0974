"""The actors' one lifecycle (``actors.lifecycle``): load with retry, the ready gate, named loops that
restart after a crash, periodic steps, and stopping them all."""

from __future__ import annotations

import asyncio
import threading

import pytest

from actors.lifecycle import Lifecycle
from store.errors import DomainError, ErrorCode


async def test_load_retries_until_it_succeeds_and_is_unhealthy_meanwhile() -> None:
    life = Lifecycle("test", wait_s=5)
    attempts: list[bool] = []
    before: list[int] = []

    async def load() -> None:
        attempts.append(life.healthy)
        if len(attempts) < 3:
            raise ConnectionError("the database is down")

    await life.load(load, delays=(0.01,), before_each=lambda: before.append(len(attempts)))
    assert attempts == [False, False, False]  # unhealthy during every attempt
    assert before == [0, 1, 2]  # before_each ran before each attempt
    assert life.healthy and life.loaded.is_set() and life.error == ""


async def test_a_failed_load_says_why_until_it_succeeds() -> None:
    life = Lifecycle("test")
    gate = asyncio.Event()

    async def load() -> None:
        if not gate.is_set():
            raise ConnectionError("no node")

    loading = asyncio.ensure_future(life.load(load, delays=(0.01,)))
    await asyncio.sleep(0.05)
    assert life.error == "cannot start: no node" and not life.loaded.is_set()
    gate.set()
    await loading
    assert life.error == ""


async def test_calls_wait_for_the_first_load_and_are_refused_while_it_reloads() -> None:
    life = Lifecycle("pair 1", unavailable=ErrorCode.PAIR_UNAVAILABLE, wait_s=0.05)
    with pytest.raises(DomainError) as refused:
        await life.serving()  # nothing loaded within wait_s
    assert refused.value.code == ErrorCode.PAIR_UNAVAILABLE

    waiting = asyncio.ensure_future(life.serving())
    await asyncio.sleep(0)

    async def load() -> None:
        return None

    await life.load(load)
    await waiting  # the call that waited is served once the load is done

    gate = asyncio.Event()

    async def slow_reload() -> None:
        await gate.wait()

    reloading = asyncio.ensure_future(life.load(slow_reload))
    await asyncio.sleep(0)
    with pytest.raises(DomainError):
        await life.serving()  # loaded once, but reloading now: refused at once
    gate.set()
    await reloading
    await life.serving()


async def test_wait_loaded_without_a_limit_waits_as_long_as_it_takes() -> None:
    life = Lifecycle("scheduler", wait_s=None)
    waiting = asyncio.ensure_future(life.wait_loaded())
    await asyncio.sleep(0.05)
    assert not waiting.done()

    async def load() -> None:
        return None

    await life.load(load)
    await asyncio.wait_for(waiting, 1)


async def test_a_crashed_loop_is_started_again_and_one_that_returns_is_done() -> None:
    life = Lifecycle("test", restart_s=0.01)
    runs: list[int] = []

    async def crashing() -> None:
        runs.append(1)
        if len(runs) < 3:
            raise RuntimeError("a bug")

    task = life.loop("crashing", crashing)
    await asyncio.wait_for(task, 1)
    assert len(runs) == 3
    assert life.loops() == {"crashing": False}


async def test_every_runs_its_step_on_time_after_a_failure_and_only_while_healthy() -> None:
    life = Lifecycle("test")
    steps: list[bool] = []

    async def step() -> None:
        steps.append(life.healthy)
        if len(steps) == 1:
            raise RuntimeError("the first step fails")

    life.every("periodic", step, 0.01, healthy_only=True)
    await asyncio.sleep(0.05)
    assert steps == []  # nothing before the first load

    async def load() -> None:
        return None

    await life.load(load)
    await asyncio.sleep(0.06)
    assert len(steps) >= 2 and all(steps)  # the failed step did not end the loop
    life.healthy = False  # reloading
    await asyncio.sleep(0.02)
    count = len(steps)
    await asyncio.sleep(0.05)
    assert len(steps) == count  # skipped while not healthy
    await life.stop()


async def test_stop_cancels_named_loops_or_everything() -> None:
    life = Lifecycle("test")
    forever = asyncio.Event()

    async def wait() -> None:
        await forever.wait()

    first, second = life.loop("a", wait), life.loop("b", wait)
    spawned = life.spawn(forever.wait())
    await life.stop("a")
    assert first.cancelled() and not second.done() and not spawned.done()
    assert life.loops() == {"b": True}
    await life.stop()
    assert second.cancelled() and spawned.cancelled()


async def test_cancel_all_from_another_thread_cancels_every_task() -> None:
    life = Lifecycle("test")
    forever = asyncio.Event()

    async def wait() -> None:
        await forever.wait()

    task = life.loop("a", wait)
    spawned = life.spawn(forever.wait())
    thread = threading.Thread(target=life.cancel_all)  # Ray may call the shutdown hook off the loop
    thread.start()
    thread.join()
    await asyncio.gather(task, spawned, return_exceptions=True)
    assert task.cancelled() and spawned.cancelled()
